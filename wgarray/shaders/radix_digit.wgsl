// Radix sort (kernels/radix.py): the ${BITS}-bit digit of element ``e`` in the current pass.
//
// A pass sorts by ${BITS} bits of either the element's key (mode 0: (key - kmin) >> shift, with kmin and the shift of
// key pass ``slot`` from the device's plan, radix_stats.wgsl) or its row (mode 1: the row id (idx / L) >> shift,
// which the payload index carries, so segmented sorts need no stored row keys).  Every key pass the plan may need
// is recorded; one past the plan's count is inactive and its kernels return at once.  When the plan's digit count
// is odd, its last active pass is a copy of the payload (plan[3] = 1): hist and scan return at once and the scatter
// copies its block in place, so the data end in the first buffer of the ping-pong pair for a fraction of a pass.
// A values-only sort of one row carries the values' bits as the payload: its key is recomputed from the payload
// (KEYIN), and the key arrays are neither read nor written (STORE_KEYS false).

// The parameters of a pass's kernels (radix_hist*, radix_scatter*).
struct Params {
    n: u32,
    L: u32,
    nb: u32,
    block: u32,
    mode: u32,
    shift: u32,  // mode 1
    slot: u32,  // mode 0: the key pass
    gen_idx: u32,  // 1: this pass's payload is the element index itself (Shape.gen_index: the init wrote none)
}

${KEYFNS}

var<private> rx_shift: u32;
var<private> rx_kmin: ${K};
var<private> rx_write_keys: bool;

// Whether this pass is the plan's payload copy (an odd digit count's last pass).
fn rx_copy_pass() -> bool {
    return p.mode == 0u && plan[3] == 1u && p.slot + 1u == plan[0];
}

// Reads the plan for this pass; false when the pass is inactive or a copy (the caller returns, or copies).
fn rx_begin() -> bool {
    if (p.mode == 1u) {
        rx_shift = p.shift;
        rx_write_keys = false;
        return true;
    }
    if (p.slot + plan[3] >= plan[0]) {
        return false;
    }
    rx_shift = plan[4u + p.slot];
    rx_kmin = ${KMIN};
    rx_write_keys = ${STORE_KEYS} && p.slot + 1u + plan[3] < plan[0];
    return true;
}

// Element e's payload: idx_in[e], or e itself in a pass that generates the index (Shape.gen_index's first pass).
fn rx_payload(e: u32) -> u32 {
    if (p.gen_idx != 0u) {
        return e;
    }
    return idx_in[e];
}

fn rx_digit(e: u32) -> u32 {
    if (p.mode == 0u) {
        return u32((${KEYIN} - rx_kmin) >> rx_shift) & ${MASK}u;
    }
    return ((idx_in[e] / p.L) >> rx_shift) & ${MASK}u;
}

// Shape.prefetch (the reg scatter loads the next tile's inputs while it ranks this one): element e's inputs to
// its digit, its stored key (a key pass without carried keys, else zero) and its payload (a row pass or carried
// keys, else zero), and the digit from them.
fn rx_key_at(e: u32) -> ${K} {
    if (${STORE_KEYS} && p.mode == 0u) {
        return keys_in[e];
    }
    return ${KZERO};
}

fn rx_idx_at(e: u32) -> u32 {
    if (!${STORE_KEYS} || p.mode == 1u) {
        return idx_in[e];
    }
    return 0u;
}

fn rx_digit_of(k: ${K}, i: u32) -> u32 {
    if (p.mode == 0u) {
        return u32((${KEYOF} - rx_kmin) >> rx_shift) & ${MASK}u;
    }
    return ((i / p.L) >> rx_shift) & ${MASK}u;
}

// The CPU kernels' cut of block b among its wg invocations (radix_hist_cpu and radix_scatter_cpu must cut it the
// same way: the scanned counts are per chunk): (segment, segment count, first element, end) of invocation lid.
fn rx_chunk(b: u32, lid: u32, wg: u32) -> vec4<u32> {
    let bstart = b * p.block;
    let bstop = min(bstart + p.block, p.n);
    let chunk = (bstop - bstart + wg - 1u) / wg;
    let lo = min(bstart + lid * chunk, bstop);
    return vec4<u32>(b * wg + lid, p.nb * wg, lo, min(lo + chunk, bstop));
}
