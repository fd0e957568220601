    // radix_hist.wgsl's count with subgroup operations (Shape.sghist): a subgroup adds a digit's count once a
    // round (its lowest invocation with that digit, from the ballots' peers mask), not once a key, so skewed digits
    // (a float's sign and exponent byte) no longer serialise on one workgroup atomic.
    let below = rx_below(subgroupExclusiveAdd(1u));
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
