// Final pass of a sort: position ``pos`` of row ``row`` takes the element whose original index the sorted
// pairs hold there (at idxs[row * stride + pos], stored as row * base + index): the value (sort), the index as
// int32 (argsort), or both.
${ROWS_STRUCT}

struct Params {
    n_rows: u32,
    L: u32,
    stride: u32,
    base: u32,
    src: Rows,
    vout: Rows,
    iout: Rows,
}

${BINDINGS}

${ROWS_FNS}

${ENTRY}
    let e = thread_index;
    if (e >= p.n_rows * p.L) {
        return;
    }
${ROWPOS}
    let id = idxs[row * p.stride + pos] - row * p.base;
${WRITE}
}
