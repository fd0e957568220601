// One bitonic compare-exchange step (merge stage k, stride j >= the local tile) over the padded (key, index)
// pairs in global memory; one invocation per pair.  Order: key, then index (see sort_local.wgsl).
struct Params {
    total: u32,
    logn: u32,
    k: u32,
    j: u32,
}

${BINDINGS}

${ENTRY}
    let q = thread_index;
    if (q >= p.total / 2u) {
        return;
    }
    let j = p.j;
    let a = (q / j) * 2u * j + (q % j);
    let b = a + j;
    let mask = (1u << p.logn) - 1u;
    let asc = ((a & mask) & p.k) == 0u;
    let ka = keys[a];
    let kb = keys[b];
    let ia = idxs[a];
    let ib = idxs[b];
    let gt = ka > kb || (ka == kb && ia > ib);
    if (gt == asc) {
        keys[a] = kb;
        keys[b] = ka;
        idxs[a] = ib;
        idxs[b] = ia;
    }
}
