// Apply LU row swaps (pivots j0 .. j0 + cnt - 1, in order, or the last first with ``reverse``) to the columns of a
// strided view of a stack of matrices (LAPACK's laswp).  Two forms:
// - global (SHARED false): one invocation a column (column groups times matrices on the grid), every swap a dependent
//   pair of global loads and stores; columns in [skip_lo, skip_hi) are left alone (the panel, already swapped).
// - SHARED: in workgroup memory, one workgroup ${C} columns of one matrix; the rows j0 .. rows - 1 of its columns
//   loaded into ``col`` (cooperatively), the pivots streamed through ``pv`` a chunk of ${CHUNK} at a time (a barrier
//   a chunk), the swaps done there by one invocation a column, the columns stored back (cooperatively).  With PERM:
//   the swaps done once, by one invocation, on the row indices ``pm`` (the permutation: row i's value comes from row
//   pm[i]), then the group's columns one after the other loaded into ``col`` and stored permuted by all the
//   invocations (the serial chain once a workgroup, not once a column: a workgroup takes many columns).
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
    rows: u32,  // SHARED: rows of the view (every pivot of the range is below it)
}

${BINDINGS}

var<workgroup> col: array<${T}, ${LEN}>;  // SHARED: column q's row j0 + i at q * ${STRIDE} + i (odd: a bank apart)
var<workgroup> pv: array<u32, ${CHUNK}>;
var<workgroup> pm: array<u32, ${PM_LEN}>;

${ENTRY}
    if (${SHARED}) {
        let groups = (p.ncol + ${C}u - 1u) / ${C}u;  // column groups a matrix
        let z = group_index / groups;
        let c0 = (group_index % groups) * ${C}u;
        if (z >= p.batch) {
            return;  // the whole workgroup (uniform)
        }
        let h = p.rows - p.j0;  // rows held a column
        let nc = min(${C}u, p.ncol - c0);  // columns of this group
        let base = p.off + z * p.bs + c0 * p.cs + p.j0 * p.rs;
        if (${PERM}) {
            for (var i = lid; i < h; i = i + ${WG}u) {
                pm[i] = i;
            }
        } else {
            for (var e = lid; e < nc * h; e = e + ${WG}u) {
                let q = e / h;
                let i = e % h;
                col[q * ${STRIDE}u + i] = x[base + q * p.cs + i * p.rs];
            }
        }
        for (var s0 = 0u; s0 < p.cnt; s0 = s0 + ${CHUNK}u) {
            let m = min(${CHUNK}u, p.cnt - s0);
            workgroupBarrier();  // the loads (first) or the previous chunk's swaps done with pv
            for (var t = lid; t < m; t = t + ${WG}u) {
                let s = s0 + t;
                let j = select(p.j0 + s, p.j0 + p.cnt - 1u - s, p.reverse != 0u);
                pv[t] = piv[z * p.pn + j] - p.j0;
            }
            workgroupBarrier();
            if (${PERM} && lid == 0u) {  // the row indices, once
                for (var t = 0u; t < m; t = t + 1u) {
                    let j = select(s0 + t, p.cnt - 1u - s0 - t, p.reverse != 0u);
                    let r = pv[t];
                    if (r != j && r < h) {
                        let v = pm[j];
                        pm[j] = pm[r];
                        pm[r] = v;
                    }
                }
            }
            if (!${PERM} && lid < nc) {  // one invocation a column
                let cb = lid * ${STRIDE}u;
                for (var t = 0u; t < m; t = t + 1u) {
                    let j = cb + select(s0 + t, p.cnt - 1u - s0 - t, p.reverse != 0u);
                    let r = pv[t];
                    if (r != j - cb && r < h) {
                        let v = col[j];
                        col[j] = col[cb + r];
                        col[cb + r] = v;
                    }
                }
            }
        }
        if (${PERM}) {
            for (var q = 0u; q < nc; q = q + 1u) {
                workgroupBarrier();  // pm done (first), or the previous column's stores done with col
                for (var i = lid; i < h; i = i + ${WG}u) {
                    col[i] = x[base + q * p.cs + i * p.rs];
                }
                workgroupBarrier();
                for (var i = lid; i < h; i = i + ${WG}u) {
                    x[base + q * p.cs + i * p.rs] = col[pm[i]];
                }
            }
        } else {
            workgroupBarrier();
            for (var e = lid; e < nc * h; e = e + ${WG}u) {
                let q = e / h;
                let i = e % h;
                x[base + q * p.cs + i * p.rs] = col[q * ${STRIDE}u + i];
            }
        }
        return;
    }
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
