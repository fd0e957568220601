// Radix sort pass, step 1: the digit histogram of each block (workgroup-memory atomics), stored digit-major:
// counts[d * nb + b], so that an exclusive scan in that order gives every (digit, block) its first output slot.
${BINDINGS}

${DIGIT}

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
    let stop = min(b * p.block + p.block, p.n);
    for (var e = b * p.block + lid; e < stop; e = e + ${WG}u) {
        atomicAdd(&h[rx_digit(e)], 1u);
    }
    workgroupBarrier();
    for (var d = lid; d < 256u; d = d + ${WG}u) {
        counts[d * p.nb + b] = atomicLoad(&h[d]);
    }
}
