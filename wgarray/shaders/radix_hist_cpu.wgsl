// Radix sort pass, step 1 on CPU adapters (lavapipe): the ${WG} invocations of a workgroup take the same
// contiguous chunks of the block as radix_scatter_cpu.wgsl and count their digits in private counters (no
// atomics: on a CPU, workgroup atomics serialise the SIMD lanes), stored digit-major per (block, invocation):
// counts[(d * nb + b) * ${WG} + t].  The exclusive scan of that order gives each chunk's first output slot of each
// digit, so the scatter writes without counting again.
${BINDINGS}

${DIGIT}

var<workgroup> cnt: array<u32, ${CNT}>;

${ENTRY}
    let b = group_index;
    if (b >= p.nb || !rx_begin()) {
        return;
    }
    let bstart = b * p.block;
    let bstop = min(bstart + p.block, p.n);
    let chunk = (bstop - bstart + ${WG}u - 1u) / ${WG}u;
    let lo = min(bstart + lid * chunk, bstop);
    let hi = min(lo + chunk, bstop);
    for (var d = 0u; d < 256u; d = d + 1u) {
        cnt[d * ${WG}u + lid] = 0u;
    }
    for (var e = lo; e < hi; e = e + 1u) {
        let d = rx_digit(e);
        cnt[d * ${WG}u + lid] = cnt[d * ${WG}u + lid] + 1u;
    }
    for (var d = 0u; d < 256u; d = d + 1u) {
        counts[(d * p.nb + b) * ${WG}u + lid] = cnt[d * ${WG}u + lid];
    }
}
