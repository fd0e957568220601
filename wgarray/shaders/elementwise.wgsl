// One elementwise kernel for every op of the table: out[i] = store(expr(load(operands at i))).
// Operands are read contiguously (offset + i), as one broadcast element, or through strides over the output's
// (collapsed) shape; scalars arrive in the parameter block.  The grid is folded into x/y past 65535 groups.
// A dispatch covers threads [base, n) (base is 0 but for split launches); for buffers beyond one binding, several
// dispatches each bind a window and receive offsets shifted to it (modulo 2^32: index arithmetic wraps back into
// the window).
${ENABLES}
${HELPERS}
${CODE}

struct Params {
    n: u32,
    ndim: u32,
    base: u32,
    _pad1: u32,
    shape: array<vec4<u32>, 2>,
    offs: array<vec4<u32>, 4>,
    st: array<array<vec4<i32>, 2>, ${NSTRIDES}>,
${SCALARS}
}

${BINDINGS}

${ENTRY}
    let i = ${BASE}thread_index;
    if (i >= p.n) {
        return;
    }
${INDEX}
${BODY}
}
