// A whole transform of length ${N} in workgroup memory, one workgroup a row: the row is loaded once, the Stockham
// passes (radices ${PLAN}) ping-pong between two workgroup arrays with a barrier after each, and the result is
// stored once, scaled by the norm factor.  Each pass is the one of fft_pass.wgsl with its constants baked in
// (Python generates the unrolled passes: no arrays of hot values, no runtime radix switch).  The twiddles come
// from the device-computed table of length ${N}.
struct Params {
    rows: u32,
    n: u32,
    pad0: u32,
    pad1: u32,
    scale: ${T},
}

${BINDINGS}

var<workgroup> bufA: array<vec2<${T}>, ${N}>;
var<workgroup> bufB: array<vec2<${T}>, ${N}>;

${COMMON}

${TABLE}

${ENTRY}
    let row = group_index;
    if (row >= p.rows) {
        return;
    }
    let base = row * ${N}u;
    for (var i = lid; i < ${N}u; i = i + ${WG}u) {
        bufA[i] = src[base + i];
    }
    workgroupBarrier();
${PASSES}
    for (var i = lid; i < ${N}u; i = i + ${WG}u) {
        dst[base + i] = ${LAST}[i] * p.scale;
    }
}
