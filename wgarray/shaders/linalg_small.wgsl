// The small path of wg.linalg: Cholesky (CHOL) or LU with partial pivoting of M matrices a workgroup, then the
// result of the call from the same workgroup: L or U (cholesky), X = A^-1 B (SOLVE), A^-1 (INV), or
// (det, sign, log|det|) (DET).  One dispatch a call: the input is read where it lies (any offset and strides),
// the output is written once, and a failed factorisation (LU: a zero pivot, skipped as LAPACK's getrf does;
// Cholesky: a pivot that is not > 0, NaN included) makes that matrix's output NaN (det: 0, sign 0, -inf) and
// raises the single status word to the first failing pivot + 1 (atomicMax: the batch's worst; zero on entry).
//
// R invocations a matrix, one a row (rows >= n idle); the matrix in workgroup memory column-major
// (element (r, c) at sh[base + c * n + r]), so the rows of one column sit in consecutive banks and the pivot
// row, which every invocation of a matrix reads at once, is a broadcast.  Matrices are p.S elements apart
// (n * n padded so that the matrices a 32-wide subgroup handles start on distinct banks).
// One barrier a column: every invocation finds the pivot itself (a scan of the column, the first row of largest
// |a| among the rows not yet pivots; NaN wins only in the row at LAPACK's position j, as isamax's first element:
// getrf's order), rows never move (the pivot order goes to pv), and a
// row's multiplier is written into column j only at the next step, when no invocation reads column j any more.
// The LU steps' loops (pivot scan, update) and the solve's row loops run NB (the bucket's order, a constant)
// times with the order as a guard: with the run-time count lavapipe took 20-50 ms a dispatch of 16 8 x 8 LUs
// against 0.5 ms (measured; its Cholesky, whose loops kept the run-time count, was the other way round).
${HELPERS}

${PARAMS}
const CHOL: bool = ${CHOL};
const SOLVE: bool = ${SOLVE};
const INV: bool = ${INV};
const DET: bool = ${DET};
const R: u32 = ${R}u;
const M: u32 = ${M}u;
const NB: u32 = ${NB}u;
const WG: u32 = ${WG}u;

${BINDINGS}

var<workgroup> sh: array<${T}, ${SH_LEN}>;
var<workgroup> pv: array<u32, ${PV_LEN}>;
var<workgroup> failed: array<u32, ${M}>;

// Element e of the workgroup's matrices in row-major order: (matrix, row, column).
fn element(e: u32, n: u32) -> vec3<u32> {
    let mm = e / (n * n);
    let rc = e - mm * n * n;
    let r = rc / n;
    return vec3<u32>(mm, r, rc - r * n);
}

fn taken(lo: u32, hi: u32, r: u32) -> bool {
    return ((select(hi, lo, r < 32u) >> (r & 31u)) & 1u) != 0u;
}

${ENTRY}
    let n = p.n;
    let nn = n * n;
    let m = lid / R;
    let i = lid % R;
    let first = group_index * M;
    let b = first + m;
    let mat = b < p.batch;
    let live = mat && i < n;
    let base = m * p.S;
    // the workgroup's matrices into workgroup memory (consecutive invocations, consecutive elements)
    for (var e = lid; e < M * nn; e = e + WG) {
        let q = element(e, n);
        let bb = first + q.x;
        if (bb < p.batch) {
            sh[q.x * p.S + q.z * n + q.y] = a[p.a_off + bb * p.a_sb + q.y * p.a_sr + q.z * p.a_sc];
        }
    }
    workgroupBarrier();
    var fail = 0u;  // first failing pivot + 1 of this invocation's matrix (every invocation of it sees the same)
    var held = ${T}(0.0);  // this row's entry of the column just finished, written at the next step
    var lo = 0u;  // rows already pivots (bits 0..31, 32..63): the same in every invocation of a matrix
    var hi = 0u;
    var at: array<u32, NB>;  // at[s]: the row LAPACK's getrf has at position s at step s (filled on a NaN only)
    var filled = 0u;  // at[0 .. filled) filled
    if (CHOL) {
        for (var j = 0u; j < n; j = j + 1u) {
            if (live && j > 0u && i + 1u >= j) {
                sh[base + (j - 1u) * n + i] = held;
            }
            let d = sh[base + j * n + j];
            if (!(d > ${T}(0.0)) && fail == 0u) {
                fail = j + 1u;
            }
            let rt = wg_sqrt1_${T}(d);
            if (live && i == j) {
                held = rt;
            }
            if (live && i > j) {
                // a[i, c] -= l[i, j] l[c, j] = a[i, j] a[c, j] / d, from the column not yet scaled
                let aij = sh[base + j * n + i];
                held = aij / rt;
                let t = aij / d;
                for (var c = j + 1u; c <= i; c = c + 1u) {
                    sh[base + c * n + i] = sh[base + c * n + i] - t * sh[base + j * n + c];
                }
            }
            workgroupBarrier();
        }
        if (live && i + 1u == n) {
            sh[base + i * n + i] = held;
        }
    } else {
        for (var j = 0u; j < NB; j = j + 1u) {
            if (j >= n) {
                break;
            }
            if (live && j > 0u && !taken(lo, hi, i)) {
                sh[base + (j - 1u) * n + i] = held;
            }
            var best = ${T}(-1.0);
            var pr = n;
            var total = ${T}(0.0);  // NaN iff a candidate is (|a| >= 0: inf + inf stays inf): one add a row
            for (var r = 0u; r < NB; r = r + 1u) {
                if (r < n && !taken(lo, hi, r)) {
                    let v = abs(sh[base + j * n + r]);
                    if (pr == n) {
                        pr = r;
                    }
                    if (v > best) {
                        best = v;
                        pr = r;
                    }
                    total = total + v;
                }
            }
            if (wg_isnan_${T}(total)) {
                // isamax: a NaN wins where it is the first element, i.e. in the row getrf's swaps have put at
                // position j (rows here never move): at[s] from the swaps so far (the row at position s moves to
                // the pivot's place), each computed once
                for (var s = 0u; s < NB; s = s + 1u) {
                    if (s >= filled && s <= j) {
                        var c = s;
                        for (var t = 0u; t < NB; t = t + 1u) {
                            if (t < s && c == pv[m * R + t]) {
                                c = at[t];
                            }
                        }
                        at[s] = c;
                    }
                }
                filled = j + 1u;
                if (wg_isnan_${T}(sh[base + j * n + at[j]])) {
                    pr = at[j];
                }
            }
            if (pr < 32u) {
                lo = lo | (1u << pr);
            } else {
                hi = hi | (1u << (pr - 32u));
            }
            if (i == 0u) {
                pv[m * R + j] = pr;
            }
            let d = sh[base + j * n + pr];
            if (d == ${T}(0.0) && fail == 0u) {
                fail = j + 1u;
            }
            if (live && !taken(lo, hi, i)) {
                let aij = sh[base + j * n + i];
                let l = select(aij / d, aij, d == ${T}(0.0));
                held = l;
                for (var c = 0u; c < NB; c = c + 1u) {
                    if (c > j && c < n) {
                        sh[base + c * n + i] = sh[base + c * n + i] - l * sh[base + c * n + pr];
                    }
                }
            }
            workgroupBarrier();
        }
    }
    if (i == 0u) {
        failed[m] = fail;
    }
    workgroupBarrier();
    if (mat && i == 0u && fail != 0u) {
        atomicMax(&status[0], fail);
    }
    if (CHOL) {  // L (or U = L^T) out, zeros off the triangle, NaN for a failed matrix
        for (var e = lid; e < M * nn; e = e + WG) {
            let q = element(e, n);
            let bb = first + q.x;
            if (bb < p.batch) {
                let up = p.upper != 0u;  // U[r, c] = L[c, r]
                let r = select(q.y, q.z, up);
                let c = select(q.z, q.y, up);
                var v = select(${T}(0.0), sh[q.x * p.S + c * n + r], c <= r);
                if (failed[q.x] != 0u) {
                    v = ${NAN};
                }
                out[bb * nn + q.y * n + q.z] = v;
            }
        }
    }
    if (DET && mat && i == 0u) {
        var sign = ${T}(1.0);
        var logabs = ${T}(0.0);
        if (fail != 0u) {
            sign = ${T}(0.0);
            logabs = ${NEG_INF};
        } else {
            var vlo = 0u;  // the permutation's sign from its cycles: (-1)^(n - cycles)
            var vhi = 0u;
            var cycles = 0u;
            for (var k = 0u; k < NB; k = k + 1u) {
                if (k >= n) {
                    break;
                }
                let u = sh[base + k * n + pv[m * R + k]];
                if (u < ${T}(0.0)) {
                    sign = -sign;
                }
                logabs = logabs + wg_log_${T}(abs(u));
                if (!taken(vlo, vhi, k)) {
                    cycles = cycles + 1u;
                    var x = k;
                    loop {
                        if (taken(vlo, vhi, x)) {
                            break;
                        }
                        if (x < 32u) {
                            vlo = vlo | (1u << x);
                        } else {
                            vhi = vhi | (1u << (x - 32u));
                        }
                        x = pv[m * R + x];
                    }
                }
            }
            if (((n - cycles) & 1u) != 0u) {
                sign = -sign;
            }
        }
        out[3u * b] = sign * wg_exp_${T}(logabs);
        out[3u * b + 1u] = sign;
        out[3u * b + 2u] = logabs;
    }
    if ((SOLVE || INV) && mat) {
        // each invocation of the matrix solves whole columns of X: P A = L U, so L U x = (row pv[k] of B)_k
        let K = p.K;
        let xb = b * n * K;
        var y: array<${T}, NB>;
        for (var c = i; c < K; c = c + R) {
            if (fail != 0u) {
                for (var k = 0u; k < NB; k = k + 1u) {
                    if (k < n) {
                        out[xb + k * K + c] = ${NAN};
                    }
                }
                continue;
            }
            for (var k = 0u; k < NB; k = k + 1u) {
                if (k < n) {
                    let row = pv[m * R + k];
                    var s = ${B_AT};  // B[row, c]: the right-hand side's element, or the identity's
                    for (var q = 0u; q < k; q = q + 1u) {
                        s = s - sh[base + q * n + row] * y[q];
                    }
                    y[k] = s;
                }
            }
            for (var kk = 0u; kk < NB; kk = kk + 1u) {
                if (kk < n) {
                    let k = n - 1u - kk;
                    let row = pv[m * R + k];
                    var s = y[k];
                    for (var q = k + 1u; q < n; q = q + 1u) {
                        s = s - sh[base + q * n + row] * y[q];
                    }
                    s = s / sh[base + k * n + row];
                    y[k] = s;
                    out[xb + k * K + c] = s;
                }
            }
        }
    }
}
