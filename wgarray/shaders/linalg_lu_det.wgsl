// det, sign and log|det| of each matrix of a stack from its LU factors, one invocation a matrix:
// sign = (-1)^(row swaps) * prod sign(u_ii), log|det| = sum log|u_ii|, det = sign * exp(log|det|) (numpy's
// formula); a recorded zero pivot (info != 0) gives (0, 0, -inf), NaN diagonals give a NaN log and det.
${HELPERS}

struct Params {
    n: u32,
    batch: u32,
    _pad0: u32,
    _pad1: u32,
}

${BINDINGS}

${ENTRY}
    let b = thread_index;
    if (b >= p.batch) {
        return;
    }
    let n = p.n;
    var sign = ${T}(1.0);
    var logabs = ${T}(0.0);
    if (info[b] != 0u) {
        sign = ${T}(0.0);
        logabs = ${NEG_INF};
    } else {
        for (var i = 0u; i < n; i = i + 1u) {
            let u = a[b * n * n + i * n + i];
            if (piv[b * n + i] != i) {
                sign = -sign;
            }
            if (u < ${T}(0.0)) {
                sign = -sign;
            }
            logabs = logabs + wg_log_${T}(abs(u));
        }
    }
    out[3u * b] = sign * wg_exp_${T}(logabs);
    out[3u * b + 1u] = sign;
    out[3u * b + 2u] = logabs;
}
