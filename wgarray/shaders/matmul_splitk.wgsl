// Split-K epilogue: out[c_off + i] = sum over s < ${SPLIT} of part[s * stride + i], in the compute type ${T},
// converted (and narrowed) to the result type once.  Units are ${UNIT}s; the grid is folded into x/y.
${HELPERS}

struct Params {
    n: u32,
    stride: u32,
    c_off: u32,
    gx: u32,
}

@group(0) @binding(0) var<storage, read> part: array<${P_ELEM}>;
@group(0) @binding(1) var<storage, read_write> c: array<${C_ELEM}>;
@group(1) @binding(0) var<uniform> p: Params;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let i = (wid.y * p.gx + wid.x) * 256u + lid;
    if (i >= p.n) {
        return;
    }
    var s = part[i];
${SUM}
    c[p.c_off + i] = ${STORE};
}
