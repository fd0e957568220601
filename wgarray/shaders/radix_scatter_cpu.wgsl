// Radix sort pass, step 3 on CPU adapters (lavapipe): the ${WG} invocations of a workgroup (one subgroup) take
// contiguous chunks of the block in order (as radix_hist_cpu.wgsl, which counted each chunk's digits); a chunk's
// first output slot of digit d is the digit's base (the exclusive scan of the totals) plus the scanned count of
// (d, block, chunk).  Each invocation then writes its elements in order: stable, one barrier a block, no
// recount.  (The GPU variant, radix_scatter.wgsl, ranks tiles in workgroup memory instead, for coalesced
// writes.)
${BINDINGS}

${DIGIT}

// next output slots of (digit d, invocation t) at d * ${WG} + t
var<workgroup> cnt: array<u32, ${CNT}>;
var<workgroup> base: array<u32, 256>;

${ENTRY}
    let b = group_index;
    if (b >= p.nb || !rx_begin()) {
        return;
    }
    if (lid == 0u) {
        var acc = 0u;
        for (var d = 0u; d < 256u; d = d + 1u) {
            base[d] = acc;
            acc = acc + totals[d];
        }
    }
    workgroupBarrier();
    for (var d = 0u; d < 256u; d = d + 1u) {
        cnt[d * ${WG}u + lid] = base[d] + counts[(d * p.nb + b) * ${WG}u + lid];
    }
    let bstart = b * p.block;
    let bstop = min(bstart + p.block, p.n);
    let chunk = (bstop - bstart + ${WG}u - 1u) / ${WG}u;
    let lo = min(bstart + lid * chunk, bstop);
    let hi = min(lo + chunk, bstop);
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
