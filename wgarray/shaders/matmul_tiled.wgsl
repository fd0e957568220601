// Register-tiled matrix product for 4-byte types: C[b] = A[b] @ B[b].
// ${THREADS} invocations (${TXN} across N, ${TYN} down M) compute a ${BM}x${BN} tile of C; each keeps ${TM}x${TN}
// outputs in named vec4 accumulators (generated: arrays of accumulators spill to memory and run an order of
// magnitude slower), rows ty*4 + i + 4*${TYN}*h and columns tx*4 + j + 4*${TXN}*h.  Each ${BK}-deep slice of A
// and B is staged in workgroup memory, k-major and packed in vec4 along m and n, so that the inner product reads
// vec4 of A and of B per k and issues only vec4 multiply-adds.  Operand loads are vec4 where the operand is
// contiguous along the loaded axis (A along k or m, B along n or k), else strided.
//
// tx, ty: the invocation's column and row block (``tid % TXN``, ``tid / TXN``; the ``warp`` variant lays each
// 32 consecutive invocations over 8 x 4 blocks instead of 16 x 2 or 32 x 1).
// Variants (generated): double buffering (two staging buffers; the next slice is fetched into registers before
// the current one is multiplied and stored after it, one barrier a slice); split-K (the grid's z runs over
// batch x ${SPLIT} slices of K, each writing a partial tile in the compute type; matmul_splitk.wgsl sums them).
${HELPERS}

${COMMON}
${BINDINGS}

var<workgroup> As: array<vec4<${T}>, ${AS_LEN}>;
var<workgroup> Bs: array<vec4<${T}>, ${BS_LEN}>;

${ENTRY}
${SKIP}
    let tid = lid;
    let bz = wid.z / ${SPLIT}u;
    let sl = wid.z % ${SPLIT}u;
    let kbeg = sl * p.ks;
    let kend = min(p.K, kbeg + p.ks);
    let row0 = wid.y * ${BM}u;
    let col0 = wid.x * ${BN}u;
    let tx = ${TX};
    let ty = ${TY};
${DECLARE}
${MAIN_LOOP}
${WRITE}
}
