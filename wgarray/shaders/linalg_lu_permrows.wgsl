// X's columns moved to the positions of ``linalg_lu_perm.wgsl``'s PHASE 1 (column c of each row to dest[c]), one
// workgroup a row: the row is scattered into workgroup memory, then written back in order (both global passes
// coalesced, one barrier).  What the swap kernel does with n dependent swaps a row (strided across a warp) for the
// pivots on inv's columns (``factor.INV_TRI``).
struct Params {
    n: u32,  // columns of a row (the row fits workgroup memory)
    rows: u32,  // rows a matrix
    batch: u32,
    off: u32,
    rs: u32,
    bs: u32,
    pad0: u32,
    pad1: u32,
}

var<workgroup> row: array<${T}, ${LEN}>;

${BINDINGS}

${ENTRY}
    let z = group_index / p.rows;
    if (z >= p.batch) {
        return;
    }
    let base = p.off + z * p.bs + (group_index % p.rows) * p.rs;
    for (var c = lid; c < p.n; c = c + ${WG}u) {
        row[dest[z * p.n + c]] = x[base + c];
    }
    workgroupBarrier();
    for (var c = lid; c < p.n; c = c + ${WG}u) {
        x[base + c] = row[c];
    }
}
