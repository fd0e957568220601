// LU with partial pivoting and det, sign and log|det| of each matrix of a stack (row-major, a[b*n*n + i*n + j]).
// PHASE 1: (det, sign, log|det|) from LU factors (the small and blocked LU's, or PHASE 0's), one invocation a
// matrix: sign = (-1)^(row swaps) * prod sign(u_ii), log|det| = sum log|u_ii|, det = sign * exp(log|det|) (numpy's
// formula); a recorded zero pivot (info != 0) gives (0, 0, -inf), NaN diagonals give a NaN log and det, and a
// blocked LU's NaN mark (info == NAN_INFO: the tournament met a NaN, linalg_lu_tslu.wgsl) NaN throughout.
// Elements S (SCALAR's helpers): real T, or vec2<T> for complex matrices, whose sign is (-1)^(row swaps) *
// prod u_ii / |u_ii| (renormalised to modulus 1), det complex and log|det| written as (log|det|, 0).
// PHASE 0: LU with partial pivoting of the contiguous stack in place in global memory, one workgroup a matrix, one
// dispatch a stack: the det/slogdet path of complex matrices (written for any S, real S included).  Each column k:
// the pivot is the first row i >= k of largest |Re a_ik| + |Im a_ik| (LAPACK's izamax, so the pivot order is
// zgetrf's; a NaN wins only at row k, as
// izamax's first element, and never elsewhere; the reduction is linalg_argmax.wgsl's), rows k and pivot
// swapped from column k on (piv[b*n + k] = the pivot row, LAPACK's swap sequence), then the trailing block updated,
// one invocation an element: a_ij -= (a_ik / a_kk) a_kj.  What is left is U on and above the diagonal (the
// multipliers are not stored: PHASE 1 reads U's diagonal only).  A zero pivot (both parts 0) skips the update, as
// getrf does, and sets info[b] to the first such k + 1 (info zero on entry).  out is not touched.
${HELPERS}

struct Params {
    n: u32,
    batch: u32,
    _pad0: u32,
    _pad1: u32,
}

${BINDINGS}

const PHASE: u32 = ${PHASE}u;
const WG: u32 = ${WG}u;
const NAN_INFO: u32 = ${NAN_INFO}u;
var<workgroup> red_v: array<${T}, WG>;
var<workgroup> red_i: array<u32, WG>;

${SCALAR}

${ARGMAX}

// the factor of the sign a pivot u brings: sign(u) (real; also for NaN, which the log makes NaN anyway), u / |u|
fn unit_of(u: ${S}, au: ${T}) -> ${S} {
    if (${CPLX}) {
        return u / au;
    }
    return select(SC_ONE, -SC_ONE, sc_re(u) < ${T}(0.0));
}

${ENTRY}
    if (PHASE == 0u) {
        let b = group_index;
        if (b >= p.batch) {
            return;
        }
        let n = p.n;
        let base = b * n * n;
        for (var k = 0u; k < n; k = k + 1u) {
            var best = ${T}(-1.0);
            var bi = k;
            for (var i = k + lid; i < n; i = i + WG) {
                let x = a[base + i * n + k];
                let s1 = abs(sc_re(x)) + abs(sc_im(x));
                // izamax: a NaN at i == k is kept (it wins, ties going to the first row), elsewhere it never wins
                let key = select(s1, select(${T}(-0.5), -${NEG_INF}, i == k), wg_isnan_${T}(s1));
                if (key > best) {
                    best = key;
                    bi = i;
                }
            }
            let pr = wg_argmax(lid, best, bi);
            if (pr != k) {
                for (var j = k + lid; j < n; j = j + WG) {
                    let x = a[base + k * n + j];
                    a[base + k * n + j] = a[base + pr * n + j];
                    a[base + pr * n + j] = x;
                }
            }
            storageBarrier();
            let u = a[base + k * n + k];
            let w = n - k - 1u;
            // zero: both parts 0 (NaN tested by its bits: a driver may assume no NaN in float comparisons)
            if (sc_amax(u) != ${T}(0.0) || wg_isnan_${T}(sc_re(u)) || wg_isnan_${T}(sc_im(u))) {
                for (var t = lid; t < w * w; t = t + WG) {
                    let i = k + 1u + t / w;
                    let j = k + 1u + t % w;
                    let l = sc_div(a[base + i * n + k], u);
                    a[base + i * n + j] = a[base + i * n + j] - sc_mul(l, a[base + k * n + j]);
                }
            } else if (lid == 0u && info[b] == 0u) {
                info[b] = k + 1u;
            }
            if (lid == 0u) {
                piv[b * n + k] = pr;
            }
            storageBarrier();
        }
        return;
    }
    let b = thread_index;
    if (b >= p.batch) {
        return;
    }
    let n = p.n;
    var sign = SC_ONE;
    var logabs = ${T}(0.0);
    var nan_in = info[b] == NAN_INFO;
    if (info[b] != 0u && !nan_in) {
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
            // complex NaN pivots by their bits (a driver may assume no NaN in |u|'s arithmetic): NaN throughout
            nan_in = nan_in || (${CPLX} && (wg_isnan_${T}(sc_re(u)) || wg_isnan_${T}(sc_im(u))));
        }
        if (${CPLX}) {
            sign = sign / sc_abs(sign);
        }
    }
    if (nan_in) {
        sign = ${S}(${NAN});
        logabs = ${NAN};
    }
    out[3u * b] = sign * wg_exp_${T}(logabs);
    out[3u * b + 1u] = sign;
    out[3u * b + 2u] = sc_from(logabs);
}
