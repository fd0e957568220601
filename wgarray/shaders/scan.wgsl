// Block prefix scan (inclusive) along the rows of a strided view.  Each workgroup scans one block of
// ${BLOCK} elements of one row: every invocation scans ${ITEMS} consecutive elements serially, the
// invocations' totals are scanned in workgroup memory (Hillis-Steele), and each element gets its invocation's
// exclusive prefix added.  Rows longer than one block also leave the block totals in ``sums`` for the next
// level (scan_add.wgsl adds the scanned totals back).  With shift = 1, dst[row, j + 1] = scan[j] and
// dst[row, 0] = the initial value, +0 / 1 (include_initial; for compaction this gives exclusive positions and the total).
${HELPERS}
${ROWS_STRUCT}

struct Params {
    n_rows: u32,
    L: u32,
    nblocks: u32,
    shift: u32,
    src: Rows,
    dst: Rows,
}

${BINDINGS}

${ROWS_SRC}
${ROWS_DST}

var<workgroup> sh: array<${ACC}, ${WG}>;

fn combine(a: ${ACC}, b: ${ACC}) -> ${ACC} {
    return ${COMBINE};
}

${ENTRY}
    let g = group_index;
    if (g >= p.n_rows * p.nblocks) {
        return;
    }
    let row = g / p.nblocks;
    let blk = g % p.nblocks;
    let sbase = src_base(row);
    let j0 = blk * ${BLOCK}u + lid * ${ITEMS}u;
    var vals: array<${ACC}, ${ITEMS}>;
    var run: ${ACC} = ${IDENTITY};
    for (var k = 0u; k < ${ITEMS}u; k = k + 1u) {
        let j = j0 + k;
        if (j < p.L) {
            let idx = u32(sbase + src_inner(j));
            run = combine(run, ${LOAD});
        }
        vals[k] = run;
    }
    sh[lid] = run;
    workgroupBarrier();
    for (var off = 1u; off < ${WG}u; off = off << 1u) {
        var t: ${ACC} = ${IDENTITY};
        if (lid >= off) {
            t = sh[lid - off];
        }
        workgroupBarrier();
        if (lid >= off) {
            sh[lid] = combine(t, sh[lid]);
        }
        workgroupBarrier();
    }
    var excl: ${ACC} = ${IDENTITY};
    if (lid > 0u) {
        excl = sh[lid - 1u];
    }
    let dbase = dst_base(row);
    for (var k = 0u; k < ${ITEMS}u; k = k + 1u) {
        let j = j0 + k;
        if (j < p.L) {
            let v = combine(excl, vals[k]);
            dst[u32(dbase + dst_inner(j + p.shift))] = ${STORE_V};
        }
    }
    if (p.shift != 0u && blk == 0u && lid == 0u) {
        let v: ${ACC} = ${INITIAL};
        dst[u32(dbase + dst_inner(0u))] = ${STORE_V};
    }
${SUMS}
}
