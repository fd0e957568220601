    // The GPU scatters' start (radix_scatter_reg.wgsl): past the blocks, return; a plan's
    // payload copy copies the block in place; an inactive pass returns.  Then run[d], the block's first slot of
    // each digit d (its scanned count plus the exclusive scan of the digits' totals), and the block's range.
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
    var s = 0u;
    for (var i = 0u; i < ${PER}u; i = i + 1u) {
        s = s + totals[lid * ${PER}u + i];
    }
    var acc = rx_exscan(lid, s);
    for (var i = 0u; i < ${PER}u; i = i + 1u) {
        let d = lid * ${PER}u + i;
        run[d] = acc + counts[d * p.nb + b];
        acc = acc + totals[d];
    }
    workgroupBarrier();
    let bstart = b * p.block;
    let bstop = min(bstart + p.block, p.n);
