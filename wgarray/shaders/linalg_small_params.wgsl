// The small path's parameter block (linalg_small.wgsl and linalg_lu_small_reg.wgsl: the same launch, so that
// kernels.linalg_factor.small_plan's parameters and the recipes' replays fit either): the order, the batch, the
// right-hand sides' count K (inv: n), linalg_small's matrix stride S in workgroup memory, the input's offset and
// strides (batch, row, column), the right-hand sides' likewise, and cholesky's upper flag.
struct Params {
    n: u32,
    batch: u32,
    K: u32,
    S: u32,
    a_off: u32,
    a_sb: u32,
    a_sr: u32,
    a_sc: u32,
    b_off: u32,
    b_sb: u32,
    b_sr: u32,
    b_sc: u32,
    upper: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}
