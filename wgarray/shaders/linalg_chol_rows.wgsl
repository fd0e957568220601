// Cholesky's finish, one workgroup a row of a matrix (linalg_factor.chol_finish): the row of a matrix whose
// factorisation failed (info != 0) all NaN, the row of any other its elements right of the diagonal 0 (the panels
// leave the upper triangle as it was).  The invocations stride along the row (contiguous stores, no division per
// element; linalg_lu_nanfill.wgsl's one invocation an element spent ~0.2 ms on a 4096^2 factor on an H100).
struct Params {
    n: u32,
    rows: u32,  // n x batch
    off: u32,
    _pad: u32,
}

${BINDINGS}

${ENTRY}
    let g = group_index;
    if (g >= p.rows) {
        return;
    }
    let n = p.n;
    let r = g % n;
    let base = p.off + g * n;
    if (info[g / n] != 0u) {
        for (var c = lid; c < n; c = c + ${WG}u) {
            x[base + c] = ${NAN};
        }
    } else {
        for (var c = r + 1u + lid; c < n; c = c + ${WG}u) {
            x[base + c] = ${T}(0.0);
        }
    }
}
