// The blocked LU's NaN mark before its first panel: info[b] = NAN_INFO for each matrix of the contiguous stack
// that holds a NaN anywhere (one invocation an element).  The tournament's pivot search passes over NaN, so a zero
// pivot found before a NaN's column is reached would otherwise give det 0 (and a LinAlgError) for a matrix with a
// NaN; marked, it gives NaN det, log|det|, solve and inv, and no error.  (NaNs the factorisation makes itself from
// inf are marked by the panels' loads, linalg_lu_tslu.wgsl.)
${HELPERS}

struct Params {
    per: u32,    // elements a matrix (n * n)
    total: u32,
    _pad0: u32,
    _pad1: u32,
}

const NAN_INFO: u32 = ${NAN_INFO}u;

${BINDINGS}

${ENTRY}
    let e = thread_index;
    if (e < p.total && wg_isnan_${T}(a[e])) {
        info[e / p.per] = NAN_INFO;  // (every writer of a matrix writes the same word)
    }
}
