// One bitonic compare-exchange step (merge stage k, stride j >= the local tile) over the padded (key, index)
// pairs in global memory; one invocation per pair.  Order: key, then index (see sort_local.wgsl).
struct Params {
    total: u32,
    logn: u32,
    k: u32,
    j: u32,
}

@group(0) @binding(0) var<storage, read_write> keys: array<${K}>;
@group(0) @binding(1) var<storage, read_write> idxs: array<u32>;
@group(1) @binding(0) var<uniform> p: Params;

@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let q = (wid.y * nwg.x + wid.x) * ${WG}u + lid;
    if (q >= p.total / 2u) {
        return;
    }
    let j = p.j;
    let a = (q / j) * 2u * j + (q % j);
    let b = a + j;
    let mask = (1u << p.logn) - 1u;
    let asc = ((a & mask) & p.k) == 0u;
    let ka = keys[a];
    let kb = keys[b];
    let ia = idxs[a];
    let ib = idxs[b];
    let gt = ka > kb || (ka == kb && ia > ib);
    if (gt == asc) {
        keys[a] = kb;
        keys[b] = ka;
        idxs[a] = ib;
        idxs[b] = ia;
    }
}
