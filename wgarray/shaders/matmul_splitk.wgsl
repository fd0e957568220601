// Split-K epilogue: out[c_off + i] = sum over s < ${SPLIT} of part[s * stride + i], in the compute type ${T},
// converted (and narrowed) to the result type once.  Units are ${UNIT}s; the grid is folded into x/y.
${HELPERS}

struct Params {
    n: u32,
    stride: u32,
    c_off: u32,
    _pad0: u32,
}

${BINDINGS}

${ENTRY}
    let i = thread_index;
    if (i >= p.n) {
        return;
    }
    var s = part[i];
${SUM}
    c[p.c_off + i] = ${STORE};
}
