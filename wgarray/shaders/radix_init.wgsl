// Radix sort, first kernel: element e = row * L + pos of the input view gets its sort key (shaders/sortkey*.wgsl,
// complemented for descending order) in keys[e] and its payload in idx[e]: e, or the value's own 32 bits for a
// values-only sort of one row (kernels/radix.py: nothing to gather through at the end); each workgroup also
// reduces the keys of its block to (min, max, or, and), which radix_stats.wgsl folds into the pass plan.
// Shape.gen_index (an index payload): the first key pass generates the index, so no payload is written here
// (STOREIDX empty).
${KEYFNS}
${ROWS_STRUCT}

struct Params {
    n: u32,
    L: u32,
    block: u32,
    _pad: u32,
    src: Rows,
}

${BINDINGS}

${ROWS_SRC}

${REDUCE4}

${ENTRY}
    let b = group_index;
    let start = b * p.block;
    if (start >= p.n) {
        return;
    }
    let stop = min(start + p.block, p.n);
    var lo: ${K} = ${KMAX};
    var hi: ${K} = ${KZERO};
    var o: ${K} = ${KZERO};
    var a: ${K} = ${KMAX};
    for (var e = start + lid; e < stop; e = e + ${WG}u) {
${ROWPOS}
        let k = ${KEY};
        ${STOREKEY}
        ${STOREIDX}
        lo = min(lo, k);
        hi = max(hi, k);
        o = o | k;
        a = a & k;
    }
    rx_reduce4(lid, lo, hi, o, a);
    if (lid == 0u) {
        part[4u * b] = rmin[0];
        part[4u * b + 1u] = rmax[0];
        part[4u * b + 2u] = ror[0];
        part[4u * b + 3u] = rand[0];
    }
}
