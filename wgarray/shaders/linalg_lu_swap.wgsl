// Apply LU row swaps (pivots j0 .. j0 + cnt - 1, in order, or the last first with ``reverse``) to the columns of a
// strided view of a stack of matrices, one invocation a column (column groups times matrices on the grid); columns in [skip_lo, skip_hi) are left alone
// (the panel, already swapped by the factor kernel).  LAPACK's laswp.
struct Params {
    j0: u32,
    cnt: u32,
    ncol: u32,
    batch: u32,
    skip_lo: u32,
    skip_hi: u32,
    off: u32,
    rs: u32,
    cs: u32,
    bs: u32,
    pn: u32,  // pivots a matrix (its n)
    reverse: u32,  // 1: the pivots last first (the inverse permutation)
}

${BINDINGS}

${ENTRY}
    let groups = (p.ncol + ${WG}u - 1u) / ${WG}u;  // column groups a matrix
    let z = group_index / groups;
    let c = (group_index % groups) * ${WG}u + lid;
    if (c >= p.ncol || z >= p.batch || (c >= p.skip_lo && c < p.skip_hi)) {
        return;
    }
    let base = p.off + z * p.bs + c * p.cs;
    for (var s = 0u; s < p.cnt; s = s + 1u) {
        let j = select(p.j0 + s, p.j0 + p.cnt - 1u - s, p.reverse != 0u);
        let r = piv[z * p.pn + j];
        if (r != j) {
            let t = x[base + j * p.rs];
            x[base + j * p.rs] = x[base + r * p.rs];
            x[base + r * p.rs] = t;
        }
    }
}
