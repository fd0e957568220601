// The pivot search's reduction (rendered into linalg_lu_tslu.wgsl): the index of the
// largest key over the workgroup, the smaller index on ties, over the including shader's workgroup arrays
// red_v / red_i (WG long), as a tree (log2 WG barriers; a two-level scan with 2 barriers measured slower on the
// H100, 2026-12-06).  Every invocation returns the winner; the caller must pass a barrier before red_v / red_i are written
// again.  Call from uniform control flow (it holds barriers).
fn wg_argmax_setup(tid: u32) {
    // (the subgroup version numbers its subgroups here: linalg_argmax_sg.wgsl)
}

fn wg_argmax(tid: u32, key: ${T}, idx: u32) -> u32 {
    red_v[tid] = key;
    red_i[tid] = idx;
    workgroupBarrier();
    for (var h = WG / 2u; h > 0u; h = h / 2u) {
        if (tid < h) {
            let v2 = red_v[tid + h];
            let i2 = red_i[tid + h];
            if (v2 > red_v[tid] || (v2 == red_v[tid] && i2 < red_i[tid])) {
                red_v[tid] = v2;
                red_i[tid] = i2;
            }
        }
        workgroupBarrier();
    }
    return red_i[0];
}
