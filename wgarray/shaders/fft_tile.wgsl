// One pass of the tiled FFT: each workgroup transforms ${C} neighbouring columns of length ${R} entirely in
// workgroup memory (radices ${PLAN}).  The pass is a Stockham step of radix ${R} over a transform of length
// N = ${R} m' / inner in global memory, batched (``batches`` blocks of R m' elements):
//   element (r, col) of the tile is read from  base + r m' + col        (col = col0 + c, c < ${C}: contiguous)
//   multiplied by w_N^(k r tstride), k = (col mod ns) / inner  (the four-step twiddle; tstride 0: none)
//   transformed over r (the ${R}-point DFT, in workgroup memory)
//   and written to                             base + (col - col mod ns) ${R} + col mod ns + r ns.
// With inner = 1 and one pass this is the in-workgroup transform of contiguous rows; with inner = M > 1 it is the
// transform along a strided axis (element i of column c at i M + c), read and written in tiles of ${C} contiguous
// columns; chained passes with ns = inner, L1 inner, L1 L2 inner, ... are the four-/six-step decomposition of a
// length too long for one workgroup, the transposes folded into the store addresses.
// Workgroup memory holds one copy of the tile (element (r, c) at r ${C} + (c xor (r mod ${C})): the swizzle keeps
// both the column-wise and the row-wise accesses free of bank conflicts; a single row (C = 1) is padded by one
// element every 16 where it fits, against the conflicts of the first sub-passes' strided writes); each sub-pass reads its values into
// registers, waits at a barrier, and writes them back in place.  The sub-pass twiddles come from the table of
// length ${R}; the four-step twiddles from the two-level table w_N^e = lo[e mod tb] hi[e / tb] (tb = 2^tbits).
// Runtime divisions are kept out of the per-element work: the column of an invocation is fixed, the store of a
// first pass (ns = 1) is plain row order.
struct Params {
    groups: u32,
    batches: u32,
    mcols: u32,
    ns: u32,
    inner: u32,
    tstride: u32,
    tb: u32,
    tbits: u32,
    scale: ${T},
}

${BINDINGS}

var<workgroup> buf: array<vec2<${T}>, ${BUF}>;

${COMMON}

${TABLE}

fn at(r: u32, c: u32) -> u32 {
    return ${AT};
}

fn twn(e: u32) -> vec2<${T}> {
    let w = cmul(tlo[e & (p.tb - 1u)], thi[e >> p.tbits]);
    return vec2<${T}>(w.x, ${SIGN}w.y);
}

${ENTRY}
    let batch = group_index / p.groups;
    if (batch >= p.batches) {
        return;
    }
    let col0 = (group_index - batch * p.groups) * ${C}u;
    let base = batch * ${R}u * p.mcols;
    // the loads: invocation lid always holds column c = lid mod ${C} (or the pair c, c + 1 from c = 2 (lid mod
    // ${C} / 2): vec4 loads and stores), so its column and its four-step twiddle base are computed once; its loads
    // are unrolled (all issued before the first use)
    let c = ${LANE};
    let col = col0 + c;
    let live = ${LIVE};
${LOAD}
    workgroupBarrier();
${PASSES}
${STORE}
}
