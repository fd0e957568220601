// Radix sort pass, step 2 on CPU adapters: one workgroup scans the whole digit-major count array of
// radix_hist_cpu.wgsl in place (exclusive), so counts[d * nseg + s] becomes the first output slot of digit d's
// elements in chunk s (all smaller digits first, then earlier chunks of the same digit: a stable order).  Each
// invocation sums a contiguous range, the workgroup scans the sums (three barriers), and each rescans its range.
// Inactive key passes and a plan's payload copy return at once.
struct Params {
    total: u32,
    mode: u32,
    slot: u32,  // mode 0: the key pass
    _pad0: u32,
}

${BINDINGS}

${WGSCAN}

${ENTRY}
    if (p.mode == 0u && p.slot + plan[3] >= plan[0]) {
        return;
    }
    let chunk = (p.total + ${WG}u - 1u) / ${WG}u;
    let lo = min(lid * chunk, p.total);
    let hi = min(lo + chunk, p.total);
    var s = 0u;
    for (var i = lo; i < hi; i = i + 1u) {
        s = s + counts[i];
    }
    var acc = rx_exscan(lid, s);
    for (var i = lo; i < hi; i = i + 1u) {
        let c = counts[i];
        counts[i] = acc;
        acc = acc + c;
    }
}
