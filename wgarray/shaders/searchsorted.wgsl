// searchsorted: one binary search per element of x2 over the sorted 1-D view x1, comparing sort keys
// (sortkey*.wgsl: NaNs last, -0.0 == 0.0) of both converted to their common dtype.  side left: the first
// position whose element is >= the value; right: the first whose element is > the value.
${HELPERS}
${KEYFNS}
${ROWS_STRUCT}

struct Params {
    n: u32,
    n1: u32,
    right: u32,
    _pad0: u32,
    x1_off: i32,
    x1_st: i32,
    _pad1: u32,
    _pad2: u32,
    x2: Rows,
}

${BINDINGS}

${ROWS_X2}

${ENTRY}
    let i = thread_index;
    if (i >= p.n) {
        return;
    }
    let v = ${KEY2};
    var lo = 0u;
    var hi = p.n1;
    while (lo < hi) {
        let mid = lo + (hi - lo) / 2u;
        let k = ${KEY1};
        if (select(k < v, k <= v, p.right != 0u)) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    out[i] = i32(lo);
}
