// Triangular solve T X = B in place, one invocation a column of B, that column held in NB private values (x0 ..
// x{NB-1}, registers on GPUs) and solved column-oriented: once x_q is final, x_r -= t[r, q] x_q for the rows after it
// (lower) or before it (upper): straight-line code generated for NB (kernels/linalg_factor.py ``trsm_reg_body``), so
// the chain a column waits on is NB steps of independent FMAs instead of NB^2 / 2 dependent ones with a memory read
// each (linalg_trsm.wgsl).  T (nb <= NB rows) is staged in workgroup memory padded to NB with the identity, so rows
// nb .. NB - 1 are inert (B's are read as 0 and never stored).  Same parameters and grid as linalg_trsm.wgsl.
struct Params {
    nb: u32,
    ncol: u32,
    batch: u32,
    flags: u32,  // bit 0: lower, bit 1: unit diagonal (both also fixed in the generated body)
    t_off: u32,
    t_rs: u32,
    t_cs: u32,
    t_bs: u32,
    b_off: u32,
    b_rs: u32,
    b_cs: u32,
    b_bs: u32,
}

${BINDINGS}

const NB: u32 = ${NB}u;
var<workgroup> ts: array<${T}, ${TS_LEN}>;

${ENTRY}
    let groups = (p.ncol + ${WG}u - 1u) / ${WG}u;  // column groups a matrix
    let z = group_index / groups;
    let c = (group_index % groups) * ${WG}u + lid;
    if (z >= p.batch) {
        return;  // whole workgroups: the barrier below stays uniform
    }
    for (var e = lid; e < NB * NB; e = e + ${WG}u) {
        let r = e / NB;
        let q = e % NB;
        var v = select(${T}(0.0), ${T}(1.0), r == q);
        if (r < p.nb && q < p.nb) {
            v = ${TBUF}[p.t_off + z * p.t_bs + r * p.t_rs + q * p.t_cs];
        }
        ts[e] = v;
    }
    workgroupBarrier();
    if (c >= p.ncol) {
        return;
    }
    let base = p.b_off + z * p.b_bs + c * p.b_cs;
    let rs = p.b_rs;
    let nb = p.nb;
${BODY}
}
