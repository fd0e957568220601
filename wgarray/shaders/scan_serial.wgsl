// Prefix scan of short rows: one invocation scans one whole row left to right (numpy's order), so many short
// rows keep every invocation busy instead of one workgroup per row.  shift as in scan.wgsl.
${HELPERS}
${ROWS_STRUCT}

struct Params {
    n_rows: u32,
    L: u32,
    _pad: u32,
    shift: u32,
    src: Rows,
    dst: Rows,
}

${BINDINGS}

${ROWS_SRC}
${ROWS_DST}

fn combine(a: ${ACC}, b: ${ACC}) -> ${ACC} {
    return ${COMBINE};
}

${ENTRY}
    let row = thread_index;
    if (row >= p.n_rows) {
        return;
    }
    let sbase = src_base(row);
    let dbase = dst_base(row);
    if (p.shift != 0u) {
        let v: ${ACC} = ${INITIAL};
        dst[u32(dbase + dst_inner(0u))] = ${STORE_V};
    }
    var v: ${ACC} = ${IDENTITY};
    for (var j = 0u; j < p.L; j = j + 1u) {
        let idx = u32(sbase + src_inner(j));
        v = combine(v, ${LOAD});
        dst[u32(dbase + dst_inner(j + p.shift))] = ${STORE_V};
    }
}
