// Radix sort: one workgroup folds the per-block (min, max, or, and) of radix_init.wgsl into stats[0..4].
struct Params {
    nb: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

${BINDINGS}

var<workgroup> rmin: array<${K}, ${WG}>;
var<workgroup> rmax: array<${K}, ${WG}>;
var<workgroup> ror: array<${K}, ${WG}>;
var<workgroup> rand: array<${K}, ${WG}>;

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
    rmin[lid] = lo;
    rmax[lid] = hi;
    ror[lid] = o;
    rand[lid] = a;
    workgroupBarrier();
    for (var s = ${WG}u / 2u; s > 0u; s = s >> 1u) {
        if (lid < s) {
            rmin[lid] = min(rmin[lid], rmin[lid + s]);
            rmax[lid] = max(rmax[lid], rmax[lid + s]);
            ror[lid] = ror[lid] | ror[lid + s];
            rand[lid] = rand[lid] & rand[lid + s];
        }
        workgroupBarrier();
    }
    if (lid == 0u) {
        stats[0] = rmin[0];
        stats[1] = rmax[0];
        stats[2] = ror[0];
        stats[3] = rand[0];
    }
}
