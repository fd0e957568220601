// Radix sort: one workgroup folds the per-block (min, max, or, and) of radix_init.wgsl and plans the passes on
// the device, so no statistics travel to the host (a read there costs a queue round trip, ~0.3 ms on a GPU).
//
// plan[0] = the number of key passes to run (even), plan[1..3) = the minimum subtracted from every key (lo, hi
// words), plan[3] = 1 when the last of them is a payload copy, plan[4 + i] = the bit shift of pass i's ${BITS}-bit
// digit.  As plan_passes in kernels/radix.py: the raw digits where some keys differ (or ^ and), or the digits of
// key - min up to max - min, whichever needs fewer passes.  An odd count gets one more pass that only copies the
// payload (radix_digit.wgsl), so the host-recorded passes after the key passes (rows, gather) always find the data
// in the first buffer of the pair.

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
    let hi = ${RHI};
    if (hi != 0u) {
        return 64u - countLeadingZeros(hi);
    }
    return 32u - countLeadingZeros(u32(r & ${K}(0xffffffffu)));
}

// whether digit i (bits ${BITS} i .. ${BITS} i + ${BITS}) of ``diff`` is nonzero
fn rx_varies(diff: ${K}, i: u32) -> bool {
    return (u32(diff >> (${BITS}u * i)) & ${MASK}u) != 0u;
}

${ENTRY}
    var lo: ${K} = ${KMAX};
    var hi: ${K} = ${KZERO};
    var o: ${K} = ${KZERO};
    var a: ${K} = ${KMAX};
${FOLD}
    rx_reduce4(lid, lo, hi, o, a);
    if (lid == 0u) {
        let kmin = rmin[0];
        let diff = ror[0] ^ rand[0];
        var nraw = 0u;
        for (var i = 0u; i < ${NDIG}u; i = i + 1u) {
            if (rx_varies(diff, i)) {
                nraw = nraw + 1u;
            }
        }
        let nrel = (rx_bits(rmax[0] - kmin) + ${BITS}u - 1u) / ${BITS}u;
        var np = 0u;
        if (nrel < nraw) {
            for (var i = 0u; i < nrel; i = i + 1u) {
                plan[4u + i] = ${BITS}u * i;
            }
            np = nrel;
            plan[1] = u32(kmin & ${K}(0xffffffffu));
            plan[2] = ${KHI};
        } else {
            for (var i = 0u; i < ${NDIG}u; i = i + 1u) {
                if (rx_varies(diff, i)) {
                    plan[4u + np] = ${BITS}u * i;
                    np = np + 1u;
                }
            }
            plan[1] = 0u;
            plan[2] = 0u;
        }
        // Shape.gen_index (LEAST = 1): the first key pass generates the payload, so at least one pass runs (equal
        // keys: a stable sort by digit 0, then the payload copy)
        if (np < ${LEAST}u) {
            plan[4] = 0u;
            np = 1u;
        }
        plan[3] = np & 1u;
        plan[0] = np + (np & 1u);
    }
}
