// float32 normals, ${BLOCKS} Philox blocks an invocation (kernels/random.py's NORMAL_F32_BLOCKS knob): invocation t
// of T writes blocks t, t + T, ... (a grid-stride loop unrolled: every store instruction of a workgroup covers
// consecutive vec4s), each as the elementwise rows do (the same bits).  ${NORMAL} gives a block's four values.
${HELPERS}

struct Params {
    nb: u32,  // blocks to write (vec4s of the output)
    stride: u32,  // T, the invocations launched
    k0: u32,
    k1: u32,
    c0: u32,
    c1: u32,
    c2: u32,
    c3: u32,
    lo: u32,  // f32 bits
    span: u32,  // f32 bits
    nc: u32,  // 0
    _pad: u32,
}

${BINDINGS}

${ENTRY}
    if (thread_index >= p.stride) {  // the grid's rounding up: those blocks are another invocation's
        return;
    }
    let lo = bitcast<f32>(p.lo);
    let span = bitcast<f32>(p.span);
    for (var j = 0u; j < ${BLOCKS}u; j = j + 1u) {
        let b = thread_index + j * p.stride;
        if (b < p.nb) {
            out[b] = ${NORMAL};
        }
    }
}
