// The device half of the dtype codec, for dtypes narrower than their WGSL storage (bool, int8, uint8, int16,
// uint16, float16): arrays cross the bus at their host size, packed ${PER} to a u32 word, and are widened here
// after an upload or narrowed here before a download.  One thread per wide element (widen) or per word (narrow).
${HELPERS}

struct Params {
    n: u32,
    words: u32,
    _pad0: u32,
    _pad1: u32,
}

@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
@group(1) @binding(0) var<uniform> p: Params;

fn widen(raw: u32) -> u32 {
    return ${WIDEN};
}

fn narrow(v: u32) -> u32 {
    return ${NARROW};
}

@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let t = (wid.y * nwg.x + wid.x) * ${WG}u + lid;
${BODY}
}
