// The inverses of the diagonal blocks of LU factors [L \ U] (linalg_factor.SUBST_STEP: solve's and inv's substitution
// as small GEMMs with them, linalg_lu_subst.wgsl), all blocks of all matrices in one launch: one workgroup a block,
// 2 SB invocations.  The block (nb <= SB rows, the last block of a matrix may be shorter) is staged in workgroup
// memory padded with the identity; invocation c < SB solves L11 x = e_c (unit lower) and stores x as column c of
// L11^-1, invocation SB + c solves U11 x = e_c and stores column c of U11^-1 (registers again: straight-line code
// from kernels/linalg_factor.py ``reg_solve``, LBODY and UBODY).  Both inverses padded with the identity, SB x SB,
// at inv[((b * nblk + j) * 2 + {0: L, 1: U}) * SB * SB].  A zero pivot of U gives inf / NaN here: that matrix's info
// is set already and its result is NaN-filled at the end.
struct Params {
    n: u32,
    batch: u32,
    block: u32,  // rows of a diagonal block (the substitution's block height, <= SB)
    nblk: u32,  // blocks a matrix
}

const SB: u32 = ${SB}u;

${BINDINGS}

var<workgroup> sh: array<${T}, ${SH_LEN}>;

${ENTRY}
    let b = group_index / p.nblk;
    let j = group_index % p.nblk;
    if (b >= p.batch) {
        return;  // whole workgroups only: the barrier below stays uniform
    }
    let n = p.n;
    let k0 = j * p.block;
    let nb = min(p.block, n - k0);
    let abase = b * n * n;
    for (var e = lid; e < SB * SB; e = e + ${WG}u) {
        let r = e / SB;
        let q = e % SB;
        var v = select(${T}(0.0), ${T}(1.0), r == q);
        if (r < nb && q < nb) {
            v = a[abase + (k0 + r) * n + k0 + q];
        }
        sh[e] = v;
    }
    workgroupBarrier();
    let ib = (b * p.nblk + j) * 2u * SB * SB;
    let i = lid % SB;
    if (lid < SB) {
${LBODY}
    } else {
        let ub = ib + SB * SB;
${UBODY}
    }
}
