// Radix sort: a workgroup's (min, max, or, and) of the keys, one partial per invocation; the result lands in
// rmin[0], rmax[0], ror[0], rand[0].  Call from uniform control flow.
var<workgroup> rmin: array<${K}, ${WG}>;
var<workgroup> rmax: array<${K}, ${WG}>;
var<workgroup> ror: array<${K}, ${WG}>;
var<workgroup> rand: array<${K}, ${WG}>;

fn rx_reduce4(lid: u32, lo: ${K}, hi: ${K}, o: ${K}, a: ${K}) {
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
}
