// Tiled matrix product C[b] = A[b] @ B[b] for strided (possibly transposed) A and B.
// A workgroup of 16x16 invocations computes a ${TM}x${TN} tile of C; each invocation keeps a 4x4 block of
// accumulators in named registers (generated, not an array) and the K loop stages 16-deep tiles of A and B in
// workgroup memory.
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

@group(0) @binding(0) var<storage, read> a: array<${A_ST}>;
@group(0) @binding(1) var<storage, read> b: array<${B_ST}>;
@group(0) @binding(2) var<storage, read_write> c: array<${C_ST}>;
@group(1) @binding(0) var<uniform> p: Params;

var<workgroup> As: array<array<${T}, ${TM}>, 16>;
var<workgroup> Bs: array<array<${T}, ${TN}>, 16>;

fn load_a(bz: u32, r: u32, k: u32) -> ${T} {
    if (r >= p.M || k >= p.K) {
        return ${T}(0);
    }
    let idx = i32(p.a_off) + i32(bz) * p.a_bs + i32(r) * p.a_rs + i32(k) * p.a_ks;
    return ${LOAD_A};
}

fn load_b(bz: u32, k: u32, col: u32) -> ${T} {
    if (k >= p.K || col >= p.N) {
        return ${T}(0);
    }
    let idx = i32(p.b_off) + i32(bz) * p.b_bs + i32(k) * p.b_ks + i32(col) * p.b_cs;
    return ${LOAD_B};
}

@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let bz = wid.z;
    let row0 = wid.y * ${TM}u;
    let col0 = wid.x * ${TN}u;
    let tid = lid.y * 16u + lid.x;
${DECLARE}
    for (var k0 = 0u; k0 < p.K; k0 = k0 + 16u) {
        for (var l = 0u; l < ${TM}u / 16u; l = l + 1u) {
            let e = tid + l * 256u;
            As[e % 16u][e / 16u] = load_a(bz, row0 + e / 16u, k0 + e % 16u);
        }
        for (var l = 0u; l < ${TN}u / 16u; l = l + 1u) {
            let e = tid + l * 256u;
            Bs[e / ${TN}u][e % ${TN}u] = load_b(bz, k0 + e / ${TN}u, col0 + e % ${TN}u);
        }
        workgroupBarrier();
        for (var kk = 0u; kk < 16u; kk = kk + 1u) {
${INNER}
        }
        workgroupBarrier();
    }
${WRITE}
}
