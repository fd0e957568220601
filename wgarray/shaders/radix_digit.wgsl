// Radix sort (kernels/radix.py): the digit of element ``e`` in the current pass.
//
// A pass sorts by 8 bits of either the element's key (mode 0: (key - kmin) >> shift; kmin is 0 unless the
// host chose to sort keys relative to their minimum) or its row (mode 1: the row id (idx / L) >> shift, which
// the payload index carries, so segmented sorts need no stored row keys).

// The parameters of a pass's kernels (radix_hist, radix_scatter, radix_scatter_cpu).
struct Params {
    n: u32,
    L: u32,
    nb: u32,
    block: u32,
    mode: u32,
    shift: u32,
    kmin_lo: u32,
    kmin_hi: u32,
    write_keys: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

fn rx_kmin() -> ${K} {
    return ${KMIN};
}

fn rx_digit(e: u32) -> u32 {
    if (p.mode == 0u) {
        return u32((keys_in[e] - rx_kmin()) >> p.shift) & 0xffu;
    }
    return ((idx_in[e] / p.L) >> p.shift) & 0xffu;
}
