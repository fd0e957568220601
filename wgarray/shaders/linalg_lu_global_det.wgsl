// (det, sign, log|det|) of each matrix of a contiguous stack of n x n matrices (row-major, a[b*n*n + i*n + j],
// factored in place) by LU with partial pivoting in global memory, one workgroup a matrix, one dispatch a stack:
// the det/slogdet path of complex matrices (S = vec2<T>, SCALAR's helpers; written for any S, real S included).
// Each column k: the pivot is the first row i >= k of largest |Re a_ik| + |Im a_ik| (LAPACK's izamax, so the pivot
// order is zgetrf's; NaN never wins unless the whole column is NaN), rows k and pivot swapped from column k on,
// then the trailing block updated, one invocation an element: a_ij -= (a_ik / a_kk) a_kj (the multipliers are not
// stored: only U's diagonal is read).  A zero pivot (both parts 0) skips the update, as getrf does, and makes the
// matrix singular: det 0, sign 0, log|det| -inf.  Otherwise sign = (-1)^swaps prod u_kk / |u_kk| (renormalised to
// modulus 1 at the end), log|det| = sum log |u_kk|, det = sign exp(log|det|) (numpy's formula); NaN input gives
// NaN throughout.  out (3 elements of S a matrix): det, sign, (log|det|, 0).
${HELPERS}

struct Params {
    n: u32,
    batch: u32,
    _pad0: u32,
    _pad1: u32,
}

${BINDINGS}

const WG: u32 = ${WG}u;
var<workgroup> keys: array<${T}, ${WG}>;
var<workgroup> rows: array<u32, ${WG}>;

${SCALAR}

${ENTRY}
    let b = group_index;
    if (b >= p.batch) {
        return;
    }
    let n = p.n;
    let base = b * n * n;
    var sign = SC_ONE;
    var logabs = ${T}(0.0);
    var singular = false;
    for (var k = 0u; k < n; k = k + 1u) {
        var best = ${T}(-1.0);
        var bi = k;
        for (var i = k + lid; i < n; i = i + WG) {
            let x = a[base + i * n + k];
            let s1 = abs(sc_re(x)) + abs(sc_im(x));
            let key = select(s1, ${T}(-0.5), s1 != s1);
            if (key > best) {
                best = key;
                bi = i;
            }
        }
        keys[lid] = best;
        rows[lid] = bi;
        workgroupBarrier();
        for (var h = WG / 2u; h > 0u; h = h / 2u) {
            if (lid < h) {
                let ko = keys[lid + h];
                let ro = rows[lid + h];
                if (ko > keys[lid] || (ko == keys[lid] && ro < rows[lid])) {
                    keys[lid] = ko;
                    rows[lid] = ro;
                }
            }
            workgroupBarrier();
        }
        let pr = rows[0];
        if (pr != k) {
            for (var j = k + lid; j < n; j = j + WG) {
                let x = a[base + k * n + j];
                a[base + k * n + j] = a[base + pr * n + j];
                a[base + pr * n + j] = x;
            }
        }
        storageBarrier();
        let u = a[base + k * n + k];
        let zero = sc_amax(u) == ${T}(0.0);
        let w = n - k - 1u;
        if (!zero) {
            for (var t = lid; t < w * w; t = t + WG) {
                let i = k + 1u + t / w;
                let j = k + 1u + t % w;
                let l = sc_div(a[base + i * n + k], u);
                a[base + i * n + j] = a[base + i * n + j] - sc_mul(l, a[base + k * n + j]);
            }
        }
        storageBarrier();
        if (pr != k) {
            sign = -sign;
        }
        if (zero) {
            singular = true;
        } else {
            let au = sc_abs(u);
            sign = sc_mul(sign, u / au);
            logabs = logabs + wg_log_${T}(au);
        }
    }
    if (lid != 0u) {
        return;
    }
    if (singular) {
        sign = SC_ZERO;
        logabs = ${NEG_INF};
    } else {
        sign = sign / sc_abs(sign);
    }
    out[3u * b] = sign * wg_exp_${T}(logabs);
    out[3u * b + 1u] = sign;
    out[3u * b + 2u] = sc_from(logabs);
}
