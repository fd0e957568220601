// The pivot search's reduction (rendered into linalg_lu_tslu.wgsl): the index of the
// largest key over the workgroup, the smaller index on ties, over the including shader's workgroup arrays
// red_v / red_i (WG long).  FLAT = 0: a tree (log2 WG barriers); FLAT > 0 (kernels.linalg_factor.TSLU_FLAT): two
// levels, FLAT invocations each scan WG / FLAT entries, then every invocation scans the FLAT winners (2
// barriers).  Every invocation returns the winner; the caller must pass a barrier before red_v / red_i are written
// again.  Call from uniform control flow (it holds barriers).
const FLAT: u32 = ${FLAT}u;

fn wg_argmax(tid: u32, key: ${T}, idx: u32) -> u32 {
    red_v[tid] = key;
    red_i[tid] = idx;
    workgroupBarrier();
    if (FLAT > 0u) {
        let span = WG / max(FLAT, 1u);  // (FLAT = 0 never gets here; a constant division by 0 does not compile)
        if (tid < FLAT) {  // each scans its own span and writes its first slot only
            var bv = red_v[tid * span];
            var bi = red_i[tid * span];
            for (var q = tid * span + 1u; q < (tid + 1u) * span; q = q + 1u) {
                let v2 = red_v[q];
                let i2 = red_i[q];
                if (v2 > bv || (v2 == bv && i2 < bi)) {
                    bv = v2;
                    bi = i2;
                }
            }
            red_v[tid * span] = bv;
            red_i[tid * span] = bi;
        }
        workgroupBarrier();
        var bv = red_v[0];
        var bi = red_i[0];
        for (var q = 1u; q < FLAT; q = q + 1u) {
            let v2 = red_v[q * span];
            let i2 = red_i[q * span];
            if (v2 > bv || (v2 == bv && i2 < bi)) {
                bv = v2;
                bi = i2;
            }
        }
        return bi;
    }
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
