// Register-tiled matrix product for 4-byte types: C[b] = A[b] @ B[b].
// 256 invocations compute a ${BM}x${BN} tile of C; each keeps ${R}x${RC} outputs in named vec4 accumulators
// (generated: arrays of accumulators spill to memory and run an order of magnitude slower).  Each ${BK}-deep
// slice of A and B is staged in workgroup memory, k-major and packed in vec4 along m and n, so that the inner
// product reads two or four vec4 of A and of B per k and issues only vec4 multiply-adds.  Operand loads are
// vec4 where the operand is contiguous along the loaded axis (A along k or m, B along n or k), else strided.
${HELPERS}

${COMMON}

var<workgroup> As: array<vec4<${T}>, ${AS_LEN}>;
var<workgroup> Bs: array<vec4<${T}>, ${BS_LEN}>;

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
