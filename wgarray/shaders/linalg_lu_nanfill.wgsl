// NaN into every element of the matrices whose factorisation failed (info != 0): solve/inv of a singular matrix
// and cholesky of one that is not positive definite give NaN, never a wrong finite answer (the "nan" error mode;
// the "raise" mode reads info too and raises LinAlgError).  (Cholesky's factors, whose upper triangle becomes 0 too:
// linalg_chol_rows.wgsl.)
struct Params {
    per: u32,
    total: u32,
    off: u32,
    _pad: u32,
}

${BINDINGS}

${ENTRY}
    let e = thread_index;
    if (e >= p.total) {
        return;
    }
    if (info[e / p.per] != 0u) {
        x[p.off + e] = ${NAN};
    }
}
