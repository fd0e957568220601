// Group boundaries of a sorted 1-D array: flags[i] = 1 where element i differs from element i - 1 (and at 0).
// Values compare with == (complex: both parts equal), so every NaN starts its own group and -0.0 joins 0.0.
${HELPERS}

struct Params {
    n: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

${BINDINGS}

${ENTRY}
    let i = thread_index;
    if (i >= p.n) {
        return;
    }
    var f = 1u;
    if (i > 0u) {
        let a = ${LOAD_A};
        let b = ${LOAD_B};
        if (${SAME}) {
            f = 0u;
        }
    }
    flags[i] = f;
}
