// (A part of linalg_chol_inv.wgsl and linalg_chol_inv_apply.wgsl: BLOCK_ROW.)  Matrix b's diagonal block
// [k0, k0 + nb)^2 and invocation i's row of it (rb: its first element; rows past nb read the last one, never stored).
    let n = p.n;
    let k0 = p.k0;
    let nb = p.nb;
    let abase = b * n * n;
    let live = i < nb;
    let rb = abase + (k0 + min(i, nb - 1u)) * n + k0;
