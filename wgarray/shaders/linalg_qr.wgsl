// Householder QR over a batch of m x n matrices stored column-major in global memory (a[b*m*n + col*m + row]),
// LAPACK's layout of the factored form: after column k, a holds R on and above the diagonal and the reflector
// v_k (v_k[k] = 1 implied) below it, tau[b*kmax + k] its scale (H_k = I - tau v v^T).
// PHASE 0: one workgroup per matrix: the reflector of column k (dlarfg's choice beta = -sign(alpha) |x|, the
//          norm scaled by the column's largest magnitude so it neither overflows nor underflows; tau = 0 when
//          the part below the diagonal is zero).
// PHASE 1: one workgroup per (matrix, trailing column j > k): a_j <- H_k a_j.
// PHASE 2: one workgroup per (matrix, column c >= k of Q): Q <- H_k Q (backward accumulation from Q = I; the
//          columns c < k of the partial product are still e_c).  Q is row-major m x qc.
// PHASE 3: one thread per element: Q <- I (m x qc).
// PHASE 4: one thread per element: R (row-major kr x n) <- the upper triangle of a.
// PHASE 5: one thread per element of Q: column c < min(m, n) negated where R_cc < 0 (the svd's U from the QR of
//          A V, whose columns are already orthogonal, so R is diagonal up to rounding).
// Complex matrices (S = vec2<T>, SCALAR's helpers): zlarfg's reflector (beta = -sign(Re alpha) |(alpha, x)|, real,
// so R's diagonal is real; tau = (beta - alpha) / beta; no reflection, tau = 0, only when x = 0 and alpha is
// real), H_k = I - tau v v^H; the factorisation applies H_k^H (conj(tau)) to the trailing columns, Q = H_0 ... H_{K-1}.
// Real matrices: conj is the identity, the plain Householder QR (dlarfg).

struct Params {
    batch: u32,
    m: u32,
    n: u32,
    k: u32,
    qc: u32,
    kr: u32,
    kmax: u32,
    cnt: u32,
}

${BINDINGS}

const PHASE: u32 = ${PHASE}u;
const WG: u32 = ${WG}u;
var<workgroup> red: array<${S}, ${WG}>;
var<workgroup> redm: array<${T}, ${WG}>;

${SCALAR}

fn reduce_sum(x: ${S}, lid: u32) -> ${S} {
    red[lid] = x;
    workgroupBarrier();
    for (var h = WG / 2u; h > 0u; h = h / 2u) {
        if (lid < h) {
            red[lid] = red[lid] + red[lid + h];
        }
        workgroupBarrier();
    }
    let r = red[0];
    workgroupBarrier();
    return r;
}

fn reduce_max(x: ${T}, lid: u32) -> ${T} {
    redm[lid] = x;
    workgroupBarrier();
    for (var h = WG / 2u; h > 0u; h = h / 2u) {
        if (lid < h) {
            redm[lid] = max(redm[lid], redm[lid + h]);
        }
        workgroupBarrier();
    }
    let r = redm[0];
    workgroupBarrier();
    return r;
}

${ENTRY}
    let gi = group_index;
    let m = p.m;
    let n = p.n;
    let k = p.k;
    if (PHASE >= 3u) {
        let t = gi * WG + lid;
        if (PHASE == 4u) {
            if (t >= p.batch * p.kr * n) {
                return;
            }
            let b = t / (p.kr * n);
            let i = (t / n) % p.kr;
            let j = t % n;
            r[t] = select(SC_ZERO, a[b * m * n + j * m + i], i <= j);
            return;
        }
        if (t >= p.batch * m * p.qc) {
            return;
        }
        let b = t / (m * p.qc);
        let i = (t / p.qc) % m;
        let c = t % p.qc;
        if (PHASE == 3u) {
            q[t] = select(SC_ZERO, SC_ONE, i == c);
        } else if (c < min(m, n) && sc_re(a[b * m * n + c * m + c]) < ${T}(0.0)) {
            q[t] = -q[t];
        }
        return;
    }
    if (gi >= p.batch * p.cnt) {
        return;
    }
    let b = gi / p.cnt;
    let ck = b * m * n + k * m;
    if (PHASE == 0u) {
        var mx = ${T}(0.0);
        for (var i = k + lid; i < m; i = i + WG) {
            mx = max(mx, sc_amax(a[ck + i]));
        }
        let scale = reduce_max(mx, lid);
        var ss = ${T}(0.0);
        if (scale > ${T}(0.0)) {
            for (var i = k + 1u + lid; i < m; i = i + WG) {
                let x = a[ck + i] / scale;
                ss = ss + sc_abs2(x);
            }
        }
        let sumsq = sc_re(reduce_sum(sc_from(ss), lid));
        let alpha = a[ck + k];
        storageBarrier();
        if (!(sumsq > ${T}(0.0)) && sc_im(alpha) == ${T}(0.0)) {
            if (lid == 0u) {
                tau[b * p.kmax + k] = SC_ZERO;
            }
            return;
        }
        let al = alpha / scale;
        let beta = select(${T}(1.0), ${T}(-1.0), sc_re(alpha) >= ${T}(0.0)) * scale * sqrt(sc_abs2(al) + sumsq);
        let d = alpha - sc_from(beta);
        for (var i = k + 1u + lid; i < m; i = i + WG) {
            a[ck + i] = sc_div(a[ck + i], d);
        }
        if (lid == 0u) {
            a[ck + k] = sc_from(beta);
            tau[b * p.kmax + k] = (sc_from(beta) - alpha) / beta;
        }
        return;
    }
    let tk = tau[b * p.kmax + k];
    if (PHASE == 1u) {
        let cj = b * m * n + (k + 1u + gi % p.cnt) * m;
        var s = SC_ZERO;
        for (var i = k + lid; i < m; i = i + WG) {
            s = s + sc_mul(sc_conj(select(a[ck + i], SC_ONE, i == k)), a[cj + i]);
        }
        let w = sc_mul(sc_conj(tk), reduce_sum(s, lid));
        storageBarrier();
        if (sc_amax(tk) == ${T}(0.0)) {
            return;
        }
        for (var i = k + lid; i < m; i = i + WG) {
            a[cj + i] = a[cj + i] - sc_mul(w, select(a[ck + i], SC_ONE, i == k));
        }
        return;
    }
    // PHASE 2
    let qc = p.qc;
    let c = k + gi % p.cnt;
    let qb = b * m * qc;
    var s = SC_ZERO;
    for (var i = k + lid; i < m; i = i + WG) {
        s = s + sc_mul(sc_conj(select(a[ck + i], SC_ONE, i == k)), q[qb + i * qc + c]);
    }
    let w = sc_mul(tk, reduce_sum(s, lid));
    storageBarrier();
    if (sc_amax(tk) == ${T}(0.0)) {
        return;
    }
    for (var i = k + lid; i < m; i = i + WG) {
        q[qb + i * qc + c] = q[qb + i * qc + c] - sc_mul(w, select(a[ck + i], SC_ONE, i == k));
    }
}
