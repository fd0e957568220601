// Scatter of the groups of a sorted 1-D array: pos is the exclusive scan of the boundary flags
// (unique_flags.wgsl) with the count at pos[n], so element i starts group pos[i] iff pos[i + 1] != pos[i].
// The first element of each group gives the unique value, its start and (through the sort permutation, stable
// so the smallest original index comes first) its first occurrence; every element gives its group number to
// its original position (inverse indices).
struct Params {
    n: u32,
    count: u32,
    _pad0: u32,
    _pad1: u32,
}

${BINDINGS}
@group(1) @binding(0) var<uniform> p: Params;

@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let i = (wid.y * nwg.x + wid.x) * ${WG}u + lid;
    if (i >= p.n) {
        return;
    }
    let u = pos[i];
${EVERY}
    if (pos[i + 1u] != u) {
${FIRST}
    }
}
