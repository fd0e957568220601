// The last pass of the four-step FFT: dst[b][d][c] = src[b][c][d] for c < n1, d < n2, over ``batches`` blocks of
// n1 x n2 elements.  Each workgroup moves one ${S} x ${S} tile through workgroup memory: it loads ${S} rows of
// ${S} contiguous elements of src (runs along d) and stores ${S} rows of ${S} contiguous elements of dst (runs
// along c), so both sides move whole runs (256 bytes of complex64).  The tile's rows are padded by one element,
// so the column-wise reads of the store phase spread over the banks.
struct Params {
    tiles1: u32,
    tiles2: u32,
    batches: u32,
    n1: u32,
    n2: u32,
}

${BINDINGS}

var<workgroup> tile: array<vec2<${T}>, ${TILE}>;

${ENTRY}
    let per = p.tiles1 * p.tiles2;
    let b = group_index / per;
    if (b >= p.batches) {
        return;
    }
    let t = group_index - b * per;
    let c0 = (t / p.tiles2) * ${S}u;
    let d0 = (t % p.tiles2) * ${S}u;
    let base = b * p.n1 * p.n2;
    for (var i = lid; i < ${S}u * ${S}u; i = i + ${WG}u) {
        let rr = i / ${S}u;
        let cc = i % ${S}u;
        if (c0 + rr < p.n1 && d0 + cc < p.n2) {
            tile[rr * ${S1}u + cc] = src[base + (c0 + rr) * p.n2 + d0 + cc];
        }
    }
    workgroupBarrier();
    for (var i = lid; i < ${S}u * ${S}u; i = i + ${WG}u) {
        let rr = i / ${S}u;
        let cc = i % ${S}u;
        if (d0 + rr < p.n2 && c0 + cc < p.n1) {
            dst[base + (d0 + rr) * p.n1 + c0 + cc] = tile[cc * ${S1}u + rr];
        }
    }
}
