// LU's row permutation as positions, not as swaps in memory (``kernels.linalg_factor.SWAP_PERM``).  Each invocation
// follows one column c (of a matrix z) through the pivots j0 .. j0 + cnt - 1 (LAPACK's row swaps j <-> piv[j]; the
// last first with ``reverse``) in a register: where the swaps take what starts at c.  PHASE 0: X = P I written whole
// (column c: 1 in that row, 0 elsewhere; cnt = 0: the identity), in place of an identity and a swap kernel.
// PHASE 1: the positions into dest (``linalg_lu_permrows.wgsl`` then moves each row's columns there).  The swap
// kernel reads and writes X's elements at every pivot (n dependent global accesses a column); this reads piv only.
struct Params {
    j0: u32,
    cnt: u32,
    n: u32,  // columns (positions) a matrix
    batch: u32,
    off: u32,  // PHASE 0: X's offset, row and column strides, matrix stride, rows
    rs: u32,
    cs: u32,
    bs: u32,
    rows: u32,
    pn: u32,  // pivots a matrix (its n)
    reverse: u32,
    pad: u32,
}

${BINDINGS}

${ENTRY}
    let groups = (p.n + ${WG}u - 1u) / ${WG}u;  // column groups a matrix
    let z = group_index / groups;
    let c = (group_index % groups) * ${WG}u + lid;
    if (c >= p.n || z >= p.batch) {
        return;
    }
    var pos = c;
    for (var s = 0u; s < p.cnt; s = s + 1u) {
        let j = select(p.j0 + s, p.j0 + p.cnt - 1u - s, p.reverse != 0u);
        let r = piv[z * p.pn + j];
        pos = select(select(pos, j, pos == r), r, pos == j);
    }
${STORE}
}
