// det, sign and log|det| of each matrix of a stack from its LU factors, one invocation a matrix:
// sign = (-1)^(row swaps) * prod sign(u_ii), log|det| = sum log|u_ii|, det = sign * exp(log|det|) (numpy's
// formula); a recorded zero pivot (info != 0) gives (0, 0, -inf), NaN diagonals give a NaN log and det.
// Elements S (SCALAR's helpers): real T, or vec2<T> for complex matrices, whose sign is (-1)^(row swaps) *
// prod u_ii / |u_ii| (renormalised to modulus 1), det complex and log|det| written as (log|det|, 0).
${HELPERS}

struct Params {
    n: u32,
    batch: u32,
    _pad0: u32,
    _pad1: u32,
}

${BINDINGS}

${SCALAR}

// the factor of the sign a pivot u brings: sign(u) (real; also for NaN, which the log makes NaN anyway), u / |u|
fn unit_of(u: ${S}, au: ${T}) -> ${S} {
    if (${CPLX}) {
        return u / au;
    }
    return select(SC_ONE, -SC_ONE, sc_re(u) < ${T}(0.0));
}

${ENTRY}
    let b = thread_index;
    if (b >= p.batch) {
        return;
    }
    let n = p.n;
    var sign = SC_ONE;
    var logabs = ${T}(0.0);
    if (info[b] != 0u) {
        sign = SC_ZERO;
        logabs = ${NEG_INF};
    } else {
        for (var i = 0u; i < n; i = i + 1u) {
            let u = a[b * n * n + i * n + i];
            if (piv[b * n + i] != i) {
                sign = -sign;
            }
            let au = sc_abs(u);
            sign = sc_mul(sign, unit_of(u, au));
            logabs = logabs + wg_log_${T}(au);
        }
        if (${CPLX}) {
            sign = sign / sc_abs(sign);
        }
    }
    out[3u * b] = sign * wg_exp_${T}(logabs);
    out[3u * b + 1u] = sign;
    out[3u * b + 2u] = sc_from(logabs);
}
