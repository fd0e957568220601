// Scatter of the coordinates of the nonzero elements of a strided view (C order): element i, when nonzero,
// writes its coordinate along dimension d to out[d * count + pos[i]], pos being the exclusive scan of the
// nonzero flags (scan.wgsl).
${HELPERS}
${ROWS_STRUCT}

struct Params {
    n: u32,
    ndim: u32,
    count: u32,
    _pad: u32,
    shape: array<vec4<u32>, 2>,
    src: Rows,
}

${BINDINGS}
@group(1) @binding(0) var<uniform> p: Params;

${ROWS_SRC}

@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let i = (wid.y * nwg.x + wid.x) * ${WG}u + lid;
    if (i >= p.n) {
        return;
    }
    if (!(${TEST})) {
        return;
    }
    let at = pos[i];
    var rem = i;
    for (var d: i32 = i32(p.ndim) - 1; d >= 0; d = d - 1) {
        let e = p.shape[d / 4][d % 4];
        out[u32(d) * p.count + at] = i32(rem % e);
        rem = rem / e;
    }
}
