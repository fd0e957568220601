// Radix sort pass, step 3 on CPU adapters (lavapipe): the ${WG} invocations of a workgroup take contiguous chunks
// of the block in order (as radix_hist_cpu.wgsl, which counted each chunk's digits); the scanned count of
// (digit d, chunk s) at counts[d * nseg + s] is the chunk's next output slot of digit d, advanced in place as each
// invocation writes its elements in order: stable, no barrier, no recount.  A plan's payload copy copies the
// chunk in place.  (The GPU variant, radix_scatter_reg.wgsl, ranks tiles in workgroup memory instead, for coalesced
// writes.)
${BINDINGS}

${DIGIT}

${ENTRY}
    let b = group_index;
    if (b >= p.nb) {
        return;
    }
    let cut = rx_chunk(b, lid, ${WG}u);
    let seg = cut.x;
    let nseg = cut.y;
    let lo = cut.z;
    let hi = cut.w;
    if (rx_copy_pass()) {
        for (var e = lo; e < hi; e = e + 1u) {
            idx_out[e] = idx_in[e];
        }
        return;
    }
    if (!rx_begin()) {
        return;
    }
    for (var e = lo; e < hi; e = e + 1u) {
        let i = rx_digit(e) * nseg + seg;
        let dest = counts[i];
        counts[i] = dest + 1u;
        idx_out[dest] = rx_payload(e);
        if (rx_write_keys) {
            keys_out[dest] = keys_in[e];
        }
    }
}
