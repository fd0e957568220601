// Radix sort pass, step 3 on CPU adapters (lavapipe): the ${WG} invocations of a workgroup (one subgroup) take
// contiguous chunks of the block in order, count their digits (256 counters each), turn the counts into first
// output slots (digit base + block offset + the counts of earlier chunks) and write their elements in order:
// stable, two barriers a block, about five workgroup-memory accesses an element.  (The GPU variant,
// radix_scatter.wgsl, ranks tiles in workgroup memory instead, for coalesced writes and less memory.)
${BINDINGS}

${DIGIT}

// counters, then next output slots, of (digit d, invocation t) at d * ${WG} + t
var<workgroup> cnt: array<u32, ${CNT}>;
var<workgroup> run: array<u32, 256>;

${ENTRY}
    let b = group_index;
    if (b >= p.nb || !rx_begin()) {
        return;
    }
    if (lid == 0u) {
        var acc = 0u;
        for (var d = 0u; d < 256u; d = d + 1u) {
            run[d] = acc + counts[d * p.nb + b];
            acc = acc + totals[d];
        }
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
    workgroupBarrier();
    for (var d = lid; d < 256u; d = d + ${WG}u) {
        var acc = run[d];
        for (var t = 0u; t < ${WG}u; t = t + 1u) {
            let c = cnt[d * ${WG}u + t];
            cnt[d * ${WG}u + t] = acc;
            acc = acc + c;
        }
    }
    workgroupBarrier();
    for (var e = lo; e < hi; e = e + 1u) {
        let d = rx_digit(e);
        let dest = cnt[d * ${WG}u + lid];
        cnt[d * ${WG}u + lid] = dest + 1u;
        idx_out[dest] = idx_in[e];
        if (rx_write_keys) {
            keys_out[dest] = keys_in[e];
        }
    }
}
