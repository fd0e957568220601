// What both matmul kernels share: the parameter block and strided operand loads that read zero outside the
// matrices (operand dtypes converted to the compute type ${T}); the bindings come from matmul.py's Kernel.
struct Params {
    M: u32,
    N: u32,
    K: u32,
    batch: u32,
    a_off: u32,
    b_off: u32,
    c_off: u32,
    ks: u32,  // split-K: the K range of one slice (a multiple of the tile's depth); K without a split
    a_rs: i32,
    a_ks: i32,
    a_bs: i32,
    c_rs: i32,  // C's row stride (the fused update's strided C; N otherwise)
    b_ks: i32,
    b_cs: i32,
    b_bs: i32,
    c_bs: i32,  // C's batch stride (M * N otherwise)
}

fn a_at(bz: u32, r: u32, k: u32) -> ${T} {
    if (r >= p.M || k >= p.K) {
        return ${T}(0);
    }
    let idx = i32(p.a_off) + i32(bz) * p.a_bs + i32(r) * p.a_rs + i32(k) * p.a_ks;
    return ${LOAD_A};
}

fn b_at(bz: u32, k: u32, col: u32) -> ${T} {
    if (k >= p.K || col >= p.N) {
        return ${T}(0);
    }
    let idx = i32(p.b_off) + i32(bz) * p.b_bs + i32(k) * p.b_ks + i32(col) * p.b_cs;
    return ${LOAD_B};
}
