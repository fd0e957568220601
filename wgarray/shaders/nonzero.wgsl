// Scatter of the coordinates of the nonzero elements of a strided view (C order): element i, when nonzero,
// writes its coordinate along dimension d to out[d * count + pos[i]], pos being the exclusive scan of the
// nonzero flags (scan.wgsl).
${HELPERS}
${ROWS_STRUCT}

struct Params {
    n: u32,
    ndim: u32,
    count: u32,
    _pad: u32,
    shape: array<vec4<u32>, 2>,
    src: Rows,
}

${BINDINGS}

${ROWS_SRC}

${ENTRY}
    let i = thread_index;
    if (i >= p.n) {
        return;
    }
    if (!(${TEST})) {
        return;
    }
    let at = pos[i];
    var rem = i;
    for (var d: i32 = i32(p.ndim) - 1; d >= 0; d = d - 1) {
        let e = p.shape[d / 4][d % 4];
        out[u32(d) * p.count + at] = i32(rem % e);
        rem = rem / e;
    }
}
