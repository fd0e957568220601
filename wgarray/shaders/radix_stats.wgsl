// Radix sort: one workgroup folds the per-block (min, max, or, and) of radix_init.wgsl into stats[0..4].
struct Params {
    nb: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

${BINDINGS}

${REDUCE4}

${ENTRY}
    var lo: ${K} = ${KMAX};
    var hi: ${K} = ${KZERO};
    var o: ${K} = ${KZERO};
    var a: ${K} = ${KMAX};
    for (var b = lid; b < p.nb; b = b + ${WG}u) {
        lo = min(lo, part[4u * b]);
        hi = max(hi, part[4u * b + 1u]);
        o = o | part[4u * b + 2u];
        a = a & part[4u * b + 3u];
    }
    rx_reduce4(lid, lo, hi, o, a);
    if (lid == 0u) {
        stats[0] = rmin[0];
        stats[1] = rmax[0];
        stats[2] = ror[0];
        stats[3] = rand[0];
    }
}
