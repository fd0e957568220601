    // radix_hist.wgsl's count: a workgroup atomic a key
    for (var e = b * p.block + lid; e < stop; e = e + ${WG}u) {
        atomicAdd(&h[rx_digit(e)], 1u);
    }