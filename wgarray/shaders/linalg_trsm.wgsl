// Triangular solve T X = B in place for the columns of a strided view B (nb rows, ncol columns, one invocation a
// column, column groups times matrices on the grid): T an nb x nb triangle of a strided view, lower or upper, unit diagonal or
// not.  A right-side solve X T^T = B (Cholesky's L21 = A21 L11^-T) is this one on the transposed view of B.
// The blocked LU and Cholesky use it for the block row U12 and for the block steps of solve.
// REG: one column held in NB = STAGE private values (x0 .. x{NB-1}, registers on GPUs) and solved column-oriented
// by straight-line code generated for NB (kernels/linalg_factor.py ``trsm_reg_body``): once x_q is final, x_r -=
// t[r, q] x_q for the rows after it (lower) or before it (upper), so the chain a column waits on is NB steps of
// independent FMAs instead of nb^2 / 2 dependent ones with a memory read each.  T is staged padded with the
// identity to STAGE, so rows nb .. NB - 1 are inert (B's read as 0, never stored).
struct Params {
    nb: u32,
    ncol: u32,
    batch: u32,
    flags: u32,  // bit 0: lower, bit 1: unit diagonal
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

// STAGE > 0: the triangle (nb <= STAGE) is staged in workgroup memory once a workgroup, so its WG columns read
// it from there (nb^2 global loads a workgroup instead of WG nb^2 / 2); STAGE = 0 where it does not fit.
const STAGE: u32 = ${STAGE}u;
var<workgroup> ts: array<${T}, ${TS_LEN}>;

fn tglobal(z: u32, r: u32, c: u32) -> ${T} {
    return ${TBUF}[p.t_off + z * p.t_bs + r * p.t_rs + c * p.t_cs];
}

fn tv(z: u32, r: u32, c: u32) -> ${T} {
    if (STAGE > 0u) {
        return ts[r * STAGE + c];
    }
    return tglobal(z, r, c);
}

${ENTRY}
    let groups = (p.ncol + ${WG}u - 1u) / ${WG}u;  // column groups a matrix
    let z = group_index / groups;
    let c = (group_index % groups) * ${WG}u + lid;
    if (z >= p.batch) {
        return;  // whole workgroups: the barrier below stays uniform
    }
    if (STAGE > 0u) {  // padded with the identity (what REG's rows past nb read)
        for (var e = lid; e < STAGE * STAGE; e = e + ${WG}u) {
            let r = e / STAGE;
            let q = e % STAGE;
            var v = select(${T}(0.0), ${T}(1.0), r == q);
            if (r < p.nb && q < p.nb) {
                v = tglobal(z, r, q);
            }
            ts[e] = v;
        }
        workgroupBarrier();
    }
    if (c >= p.ncol) {
        return;
    }
    let base = p.b_off + z * p.b_bs + c * p.b_cs;
    let rs = p.b_rs;
    let nb = p.nb;
    let unit = (p.flags & 2u) != 0u;
    if (${REG}) {
${BODY}
        return;
    }
    if ((p.flags & 1u) != 0u) {
        for (var r = 0u; r < nb; r = r + 1u) {
            var s = bm[base + r * rs];
            for (var q = 0u; q < r; q = q + 1u) {
                s = s - tv(z, r, q) * bm[base + q * rs];
            }
            if (!unit) {
                s = s / tv(z, r, r);
            }
            bm[base + r * rs] = s;
        }
    } else {
        for (var rr = nb; rr > 0u; rr = rr - 1u) {
            let r = rr - 1u;
            var s = bm[base + r * rs];
            for (var q = r + 1u; q < nb; q = q + 1u) {
                s = s - tv(z, r, q) * bm[base + q * rs];
            }
            if (!unit) {
                s = s / tv(z, r, r);
            }
            bm[base + r * rs] = s;
        }
    }
}
