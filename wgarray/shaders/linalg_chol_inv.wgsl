// Cholesky's diagonal block and its inverse in one launch, one workgroup a matrix (linalg_factor.CHOL_INV, the
// first step of a panel; linalg_chol_apply.wgsl then computes L21 = A21 W as a small GEMM, trsm as GEMM).
// Invocation i < SB holds row i of the block A11 in registers (v0 .. v{SB-1}, generated straight-line code:
// FACTOR), padded to SB x SB with the identity.  Step j: every row hands its column-j value to the workgroup
// (col, two halves used in turn: one barrier a step), then updates its row from the unscaled column,
// v_c -= (v_j / d) a_cj with d = a_jj (right-looking, SB steps of independent FMAs), and scales its own v_j to
// l_ij = a_ij / sqrt(d) (the diagonal row: sqrt(d)).  Values right of a row's diagonal are scratch and never stored.
// A pivot that is not > 0 (negative, zero, NaN) is recorded in info[b] (first failing pivot + 1, if none before).
// Then L11 goes into the matrix (its upper triangle zeroed) and into workgroup memory, and with INV invocation c
// solves L11 x = e_c (column c of L11^-1, registers again: INVERSE) and stores it as row c of W = L11^-T in ws.
${HELPERS}

struct Params {
    n: u32,
    k0: u32,
    nb: u32,
    batch: u32,
    wss: u32,  // ws elements a matrix (>= SB * SB)
    inv: u32,  // 0: the last panel (no L21): no inverse
    _pad0: u32,
    _pad1: u32,
}

const SB: u32 = ${SB}u;

${BINDINGS}

var<workgroup> col: array<${T}, ${COL_LEN}>;
var<workgroup> sh: array<${T}, ${SH_LEN}>;

${ENTRY}
    let i = lid % SB;  // the row (with linalg_factor.CHOL_INV_SPLIT parts: q the part)
    let q = lid / SB;
    let b = group_index;
    if (b >= p.batch) {
        return;  // whole workgroups only: the barriers below stay uniform
    }
${BLOCK_ROW}
    {
${FACTOR}
    }
    workgroupBarrier();
    if (p.inv != 0u) {
        let wb = b * p.wss;
${INVERSE}
    }
}
