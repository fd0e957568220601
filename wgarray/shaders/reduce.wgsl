// One reduction kernel for every op of the reduction table.  The input is seen as [n_out, m]: outer (kept)
// coordinates pick a base element, inner (reduced) coordinates walk m elements.  Each workgroup reduces one
// chunk of one output row through a tree in workgroup memory; several chunks per row leave partials that the
// next pass (the same kernel over a contiguous [n_out, nchunks] input) reduces again.  A fused map-reduce's first
// pass reads ``wg_map(o, j)`` (MAP_FN, over several inputs) instead of one source element.  Short rows (ROW and
// FINISH of the "rows" form): one invocation reduces one whole row in order, with no workgroup memory.
${HELPERS}
${CODE}

struct Params {
    n_out: u32,
    m: u32,
    nchunks: u32,
    chunk: u32,
    ondim: u32,
    indim: u32,
    in_off: u32,
    count: u32,
    oshape: array<vec4<u32>, 2>,
    ost: array<vec4<i32>, 2>,
    ishape: array<vec4<u32>, 2>,
    ist: array<vec4<i32>, 2>,
${MAP_PARAMS}
}

${BINDINGS}

${MAP_FN}

${SHARED}

// Does candidate (v, vi) win over the current (b, bi)?  Encodes the op's order and first-index tie-break.
fn wins(v: ${ACC}, vi: u32, b: ${ACC}, bi: u32) -> bool {
${WINS}
}

${ENTRY}
${ROW}
    var base: i32 = i32(p.in_off);
    var rem = o;
    for (var d: i32 = i32(p.ondim) - 1; d >= 0; d = d - 1) {
        let e = p.oshape[d / 4][d % 4];
        base = base + i32(rem % e) * p.ost[d / 4][d % 4];
        rem = rem / e;
    }
    var acc: ${ACC} = ${IDENTITY};
    var ai: u32 = 0xffffffffu;
${LOOP}
${FINISH}
}
