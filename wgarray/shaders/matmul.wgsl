// Tiled matrix product C[b] = A[b] @ B[b] for strided (possibly transposed) A and B.
// A workgroup of 16x16 invocations computes a ${TM}x${TN} tile of C; each invocation keeps a 4x4 block of
// accumulators in named registers (generated, not an array) and the K loop stages 16-deep tiles of A and B in
// workgroup memory.
${HELPERS}

${COMMON}
${BINDINGS}

var<workgroup> As: array<array<${T}, ${TM}>, 16>;
var<workgroup> Bs: array<array<${T}, ${TN}>, 16>;

${ENTRY}
${SKIP}
    let bz = wid.z;
    let row0 = wid.y * ${TM}u;
    let col0 = wid.x * ${TN}u;
    let tid = lid;
${DECLARE}
    for (var k0 = 0u; k0 < p.K; k0 = k0 + 16u) {
        for (var l = 0u; l < ${TM}u / 16u; l = l + 1u) {
            let e = tid + l * 256u;
            As[e % 16u][e / 16u] = a_at(bz, row0 + e / 16u, k0 + e % 16u);
        }
        for (var l = 0u; l < ${TN}u / 16u; l = l + 1u) {
            let e = tid + l * 256u;
            Bs[e / ${TN}u][e % ${TN}u] = b_at(bz, k0 + e / ${TN}u, col0 + e % ${TN}u);
        }
        workgroupBarrier();
        for (var kk = 0u; kk < 16u; kk = kk + 1u) {
${INNER}
        }
        workgroupBarrier();
    }
${WRITE}
}
