// Second half of a multi-block scan: every element of the block-wise inclusive scan ``tmp`` (contiguous
// [n_rows, L]) gets the inclusive scan of the preceding blocks' totals (``sums``, [n_rows, nblocks]) combined in,
// and is written to the destination view (shifted by one with the identity first for include_initial).
${HELPERS}
${ROWS_STRUCT}

struct Params {
    n_rows: u32,
    L: u32,
    nblocks: u32,
    shift: u32,
    dst: Rows,
}

${BINDINGS}

${ROWS_DST}

fn combine(a: ${ACC}, b: ${ACC}) -> ${ACC} {
    return ${COMBINE};
}

${ENTRY}
    let e = thread_index;
    if (e >= p.n_rows * p.L) {
        return;
    }
    let row = e / p.L;
    let j = e % p.L;
    var v: ${ACC} = tmp[e];
    let b = j / ${BLOCK}u;
    if (b > 0u) {
        v = combine(sums[row * p.nblocks + b - 1u], v);
    }
    let dbase = dst_base(row);
    dst[u32(dbase + dst_inner(j + p.shift))] = ${STORE_V};
    if (p.shift != 0u && j == 0u) {
        let v: ${ACC} = ${INITIAL};
        dst[u32(dbase + dst_inner(0u))] = ${STORE_V};
    }
}
