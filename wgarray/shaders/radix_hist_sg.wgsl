// Radix sort pass, step 1, with subgroup operations (Shape.sghist): the digit histogram of each block, stored
// digit-major (counts[d * nb + b]) as radix_hist.wgsl's, but each subgroup adds a digit's count once per round
// (its lowest invocation with that digit, from the ballots' peers mask), not once per key: skewed digits (the
// sign and exponent byte of floats) no longer serialise on one workgroup atomic.
${BINDINGS}

${DIGIT}
${BALLOT}

var<workgroup> h: array<atomic<u32>, 256>;

${ENTRY}
    let b = group_index;
    if (b >= p.nb || !rx_begin()) {
        return;
    }
    for (var d = lid; d < 256u; d = d + ${WG}u) {
        atomicStore(&h[d], 0u);
    }
    workgroupBarrier();
    let below = rx_below(subgroupExclusiveAdd(1u));
    let stop = min(b * p.block + p.block, p.n);
    for (var e0 = b * p.block; e0 < stop; e0 = e0 + ${WG}u) {  // workgroup-uniform rounds
        let e = e0 + lid;
        let ok = e < stop;
        var d = 0u;
        if (ok) {
            d = rx_digit(e);
        }
        let m = rx_peers(ok, d);
        if (ok && rx_pop(m & below) == 0u) {
            atomicAdd(&h[d], rx_pop(m));
        }
    }
    workgroupBarrier();
    for (var d = lid; d < 256u; d = d + ${WG}u) {
        counts[d * p.nb + b] = atomicLoad(&h[d]);
    }
}
