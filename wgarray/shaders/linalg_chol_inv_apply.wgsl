// Cholesky's diagonal block and L21 = A21 W below it in ONE launch (linalg_factor.CHOL_INV_FUSE_APPLY: the two
// launches of linalg_chol_inv.wgsl and linalg_chol_apply.wgsl as one).  Each matrix has 1 + GROUPS workgroups, and
// every one reads the raw diagonal block A11 and runs the same generated factor (FACTOR, INVERSE: cholesky_inv's
// code and knobs, so bit for bit the same L11 and W in every workgroup; the factor is a latency chain of SB barrier
// steps, so running it in many workgroups at once costs about the wall time of one).
// Workgroup g = 0 stores L11 and reports a failing pivot into info[b] (first failing pivot + 1, once).  The others
// (g >= 1) stage their R rows of A21 first (the loads overlap the factor's chain), keep W = L11^-T in workgroup
// memory (wt), then compute L21 = A21 W for those rows as chol_apply's GEMM (BODY) and store them in place.
// The race: the apply workgroups read A11 from the matrix with no order against workgroup 0, so with GROUPS > 0
// workgroup 0 writes L11 (upper triangle zeroed) into a scratch slot of ws (two a matrix, alternating launch by
// launch), and the next launch's workgroup 0 copies it (prev, pnb, pslot) into its place in the matrix; the last
// block (GROUPS = 0, direct) writes its L11 straight into the matrix (and copies the pending one too).
${HELPERS}

struct Params {
    batch: u32,
    n: u32,
    k0: u32,  // the diagonal block [k0, k0 + nb)^2
    nb: u32,
    groups: u32,  // apply workgroups a matrix (R rows of L21 each)
    wss: u32,  // ws elements a matrix (two slots of wss / 2, each at least SB x SB)
    slot: u32,  // the slot this launch's L11 goes into (direct == 0)
    direct: u32,  // 1: L11 straight into the matrix (no rows below)
    prev: u32,  // the previous block's k0 + 1 (its L11 waits in slot pslot), or 0
    pnb: u32,  // the previous block's width
    pslot: u32,
    pside: u32,  // the row stride of the previous block's L11 in its slot (its SB)
}

const SB: u32 = ${SB}u;
const R: u32 = ${R}u;

${BINDINGS}

var<workgroup> col: array<${T}, ${COL_LEN}>;
var<workgroup> sh: array<${T}, ${SH_LEN}>;
var<workgroup> wt: array<${T}, ${SB_SB}>;
var<workgroup> at: array<${T}, ${R_SB}>;

${ENTRY}
    let i = lid % SB;  // the factor's row (with linalg_factor.CHOL_INV_SPLIT parts: q the part)
    let q = lid / SB;
    let b = group_index / (p.groups + 1u);
    let g = group_index % (p.groups + 1u);
    if (b >= p.batch) {
        return;  // whole workgroups only: the barriers below stay uniform
    }
${BLOCK_ROW}
    let lb = b * p.wss + p.slot * (p.wss / 2u) + i * SB;  // row i of this launch's slot
    let r0 = k0 + nb + (g - 1u) * R;  // (g >= 1) the first row of L21 this workgroup takes
    if (g == 0u) {
        if (p.prev != 0u) {  // the previous block's L11 from its slot into the matrix (no one reads it any more)
            let q0 = p.prev - 1u;
            let pn = p.pnb;
            let sb0 = b * p.wss + p.pslot * (p.wss / 2u);
            for (var e = lid; e < pn * pn; e = e + ${WG}u) {
                a[abase + (q0 + e / pn) * n + q0 + e % pn] = ws[sb0 + (e / pn) * p.pside + e % pn];
            }
        }
    } else {
${STAGE}
    }
    {
${FACTOR}
    }
    workgroupBarrier();
    if (g != 0u) {
${INVERSE}
    }
    workgroupBarrier();  // W complete in wt
    if (g != 0u) {
        let ty = lid / 16u;
        let tx = lid % 16u;
${BODY}
    }
}
