// NaN into every element of the matrices whose factorisation failed (info != 0): solve/inv of a singular matrix
// and cholesky of one that is not positive definite give NaN, never a wrong finite answer (the "nan" error mode;
// the "raise" mode reads info too and raises LinAlgError).  upper != 0 (Cholesky's n x n factors, upper = n): the
// elements above the diagonal of the matrices that did not fail become 0 (the panels leave them as they were).
struct Params {
    per: u32,
    total: u32,
    off: u32,
    upper: u32,
}

${BINDINGS}

${ENTRY}
    let e = thread_index;
    if (e >= p.total) {
        return;
    }
    if (info[e / p.per] != 0u) {
        x[p.off + e] = ${NAN};
    } else if (p.upper != 0u) {
        let i = e % p.per;
        if (i % p.upper > i / p.upper) {
            x[p.off + e] = ${T}(0.0);
        }
    }
}
