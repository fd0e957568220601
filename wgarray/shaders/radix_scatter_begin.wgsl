    // The GPU scatters' start (radix_scatter.wgsl, radix_scatter_reg.wgsl): past the blocks, return; a plan's
    // payload copy copies the block in place; an inactive pass returns.
    let b = group_index;
    if (b >= p.nb) {
        return;
    }
    if (rx_copy_pass()) {
        for (var e = b * p.block + lid; e < min(b * p.block + p.block, p.n); e = e + ${WG}u) {
            idx_out[e] = idx_in[e];
        }
        return;
    }
    if (!rx_begin()) {
        return;
    }
