// Radix sort pass, step 1 on CPU adapters (lavapipe): the ${WG} invocations of a workgroup take the same
// contiguous chunks of the block as radix_scatter_cpu.wgsl and count their ${BITS}-bit digits, each in its own
// counters (no atomics: on a CPU, atomics serialise the SIMD lanes), stored digit-major per chunk (segment s =
// block * ${WG} + invocation): counts[d * nseg + s].  The exclusive scan of that order (radix_dscan.wgsl, all at
// once) is each chunk's first output slot of each digit, so the scatter writes without counting again.  The
// counters live in the storage buffer itself (2^${BITS} a chunk need not fit workgroup memory).
${BINDINGS}

${DIGIT}

${ENTRY}
    let b = group_index;
    if (b >= p.nb || !rx_begin()) {
        return;
    }
    let cut = rx_chunk(b, lid, ${WG}u);
    let seg = cut.x;
    let nseg = cut.y;
    let lo = cut.z;
    let hi = cut.w;
    for (var d = 0u; d < ${RADIX}u; d = d + 1u) {
        counts[d * nseg + seg] = 0u;
    }
    for (var e = lo; e < hi; e = e + 1u) {
        let i = rx_digit(e) * nseg + seg;
        counts[i] = counts[i] + 1u;
    }
}
