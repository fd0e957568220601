// Register-tiled matrix product for 4-byte types: C[b] = A[b] @ B[b].
// 256 invocations compute a ${BM}x${BN} tile of C; each keeps ${R}x${RC} outputs in named vec4 accumulators
// (generated: arrays of accumulators spill to memory and run an order of magnitude slower).  Each ${BK}-deep
// slice of A and B is staged in workgroup memory, k-major and packed in vec4 along m and n, so that the inner
// product reads two or four vec4 of A and of B per k and issues only vec4 multiply-adds.  Operand loads are
// vec4 where the operand is contiguous along the loaded axis (A along k or m, B along n or k), else strided.
${HELPERS}

struct Params {
    M: u32,
    N: u32,
    K: u32,
    batch: u32,
    a_off: u32,
    b_off: u32,
    c_off: u32,
    _pad0: u32,
    a_rs: i32,
    a_ks: i32,
    a_bs: i32,
    _pad1: i32,
    b_ks: i32,
    b_cs: i32,
    b_bs: i32,
    _pad2: i32,
}

@group(0) @binding(0) var<storage, read> a: array<${A_ELEM}>;
@group(0) @binding(1) var<storage, read> b: array<${B_ELEM}>;
@group(0) @binding(2) var<storage, read_write> c: array<${C_ELEM}>;
@group(1) @binding(0) var<uniform> p: Params;

var<workgroup> As: array<vec4<${T}>, ${AS_LEN}>;
var<workgroup> Bs: array<vec4<${T}>, ${BS_LEN}>;

fn a_at(bz: u32, r: u32, k: u32) -> ${T} {
    if (r >= p.M || k >= p.K) {
        return ${T}(0);
    }
    let idx = i32(p.a_off) + i32(bz) * p.a_bs + i32(r) * p.a_rs + i32(k) * p.a_ks;
    return ${LOAD_A};
}

fn b_at(bz: u32, k: u32, col: u32) -> ${T} {
    if (k >= p.K || col >= p.N) {
        return ${T}(0);
    }
    let idx = i32(p.b_off) + i32(bz) * p.b_bs + i32(k) * p.b_ks + i32(col) * p.b_cs;
    return ${LOAD_B};
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) tid: u32) {
    let bz = wid.z;
    let row0 = wid.y * ${BM}u;
    let col0 = wid.x * ${BN}u;
    let tx = tid % 16u;
    let ty = tid / 16u;
${DECLARE}
    for (var k0 = 0u; k0 < p.K; k0 = k0 + ${BK}u) {
${LOAD_TILES}
        workgroupBarrier();
${COMPUTE}
        workgroupBarrier();
    }
${WRITE}
}
