// Group sizes from group starts: counts[u] = (start of group u + 1, or n for the last) - start of group u.
struct Params {
    n: u32,
    count: u32,
    _pad0: u32,
    _pad1: u32,
}

@group(0) @binding(0) var<storage, read> starts: array<u32>;
@group(0) @binding(1) var<storage, read_write> counts: array<i32>;
@group(1) @binding(0) var<uniform> p: Params;

@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let u = (wid.y * nwg.x + wid.x) * ${WG}u + lid;
    if (u >= p.count) {
        return;
    }
    var end = p.n;
    if (u + 1u < p.count) {
        end = starts[u + 1u];
    }
    counts[u] = i32(end - starts[u]);
}
