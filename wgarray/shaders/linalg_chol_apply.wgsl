// Cholesky's panel below the diagonal block as a small GEMM (linalg_factor.CHOL_INV; trsm as GEMM with the
// inverted diagonal block): L21 = A21 W in place, W = L11^-T (SB x SB, padded with the identity; from
// linalg_chol_inv.wgsl in ws).  A workgroup owns R whole rows of the panel (all nb columns), so the rows it reads are
// the rows it writes: staged in workgroup memory with W, then invocation t computes rows t / 16 + (WG / 16) a and
// columns t % 16 + 16 k (NA x NK values in registers, generated straight-line: BODY) and stores them.
struct Params {
    n: u32,
    k0: u32,
    nb: u32,
    batch: u32,
    groups: u32,  // row blocks a matrix
    wss: u32,  // ws elements a matrix
    _pad0: u32,
    _pad1: u32,
}

const SB: u32 = ${SB}u;
const R: u32 = ${R}u;

${BINDINGS}

var<workgroup> wt: array<${T}, ${SB_SB}>;
var<workgroup> at: array<${T}, ${R_SB}>;

${ENTRY}
    let b = group_index / p.groups;
    let g = group_index % p.groups;
    if (b >= p.batch) {
        return;  // whole workgroups only: the barrier below stays uniform
    }
    let n = p.n;
    let k0 = p.k0;
    let nb = p.nb;
    let abase = b * n * n;
    let r0 = k0 + nb + g * R;
    let wb = b * p.wss;
    for (var e = lid; e < SB * SB; e = e + ${WG}u) {
        wt[e] = ws[wb + e];
    }
${STAGE}
    workgroupBarrier();
    let ty = lid / 16u;
    let tx = lid % 16u;
${BODY}
}
