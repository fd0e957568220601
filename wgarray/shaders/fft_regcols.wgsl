// The whole transform along a strided axis in one pass, the data held in registers (``kernels/fft.py``:
// ``reg_options``): each workgroup transforms ${C} neighbouring columns of length ${N} (radices ${PLAN}), invocation
// lid = t ${C} + c holding the ${E} elements t + i ${T} (i < ${E}) of column c: its loads and stores are rows of ${C}
// contiguous elements (whole 32-byte sectors), every Stockham stage's butterflies run on the registers, and the
// exchanges between stages go through workgroup memory in ${G} rounds of ${N} ${C} / ${G} elements (the output
// positions of one range of the column, all columns at once).
struct Params {
    groups: u32,
    batches: u32,
    mcols: u32,
    unused: u32,
    scale: ${T},
}

${BINDINGS}

var<workgroup> buf: array<vec2<${T}>, ${BUF}>;

${COMMON}

${TABLE}

${FUNCS}

${ENTRY}
    let batch = group_index / p.groups;
    if (batch >= p.batches) {
        return;
    }
    let col0 = (group_index - batch * p.groups) * ${C}u;
    let base = batch * ${N}u * p.mcols;
    let c = lid % ${C}u;
    let t = lid / ${C}u;
    let col = col0 + c;
    let live = ${LIVE};
${BODY}
}
