// Radix sort: one workgroup folds the per-block (min, max, or, and) of radix_init.wgsl and plans the passes on
// the device, so no statistics travel to the host (a read there costs a queue round trip, ~0.3 ms on a GPU).
//
// plan[0] = the number of key passes to run (even), plan[1..3) = the minimum subtracted from every key (lo, hi
// words), plan[4 + i] = the bit shift of pass i's digit.  As plan_passes in kernels/radix.py: the raw digits where
// some keys differ (or ^ and), or the digits of key - min up to max - min, whichever needs fewer passes.  An odd
// count gets one more pass over a digit that is constant in every key (a stable copy), so the host-recorded
// passes after the key passes (rows, gather) always find the data in the first buffer of the pair.
struct Params {
    nb: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

${BINDINGS}

${REDUCE4}

// bits in the key r (0 for r = 0)
fn rx_bits(r: ${K}) -> u32 {
    var b = 0u;
    var v = r;
    for (var i = 0u; i < ${KBYTES}u; i = i + 1u) {
        if (v != ${KZERO}) {
            b = 8u * i + 8u;
        }
        v = v >> 8u;
    }
    if (b == 0u) {
        return 0u;
    }
    let top = u32((r >> (b - 8u)) & ${K}(255u));
    return b - 8u + 32u - countLeadingZeros(top);
}

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
        let kmin = rmin[0];
        let diff = ror[0] ^ rand[0];
        var nraw = 0u;
        var spare = 0u;  // a raw digit that is the same in every key
        for (var i = 0u; i < ${KBYTES}u; i = i + 1u) {
            if ((u32(diff >> (8u * i)) & 255u) != 0u) {
                nraw = nraw + 1u;
            } else {
                spare = 8u * i;
            }
        }
        let nrel = (rx_bits(rmax[0] - kmin) + 7u) / 8u;
        var np = 0u;
        if (nrel < nraw) {
            for (var i = 0u; i < nrel; i = i + 1u) {
                plan[4u + i] = 8u * i;
            }
            np = nrel;
            spare = 8u * nrel;  // (key - min) < 2^(8 nrel): that digit is 0 in every key
            plan[1] = u32(kmin & ${K}(0xffffffffu));
            plan[2] = ${KHI};
        } else {
            for (var i = 0u; i < ${KBYTES}u; i = i + 1u) {
                if ((u32(diff >> (8u * i)) & 255u) != 0u) {
                    plan[4u + np] = 8u * i;
                    np = np + 1u;
                }
            }
            plan[1] = 0u;
            plan[2] = 0u;
        }
        if ((np & 1u) == 1u) {
            plan[4u + np] = spare;
            np = np + 1u;
        }
        plan[0] = np;
    }
}
