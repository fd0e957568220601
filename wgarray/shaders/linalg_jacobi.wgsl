// Parallel-order Jacobi rotations over matrices stored column-major in global memory, batch-major
// (a[b*m*n + col*m + row]); one workgroup per (matrix, rotation pair), one dispatch per rotation set.
// The pairs of one set come from the round-robin (circle) schedule over nn = n rounded up to even: step s of a
// sweep pairs k = 0 with (s mod (nn-1), nn-1) and k > 0 with ((s+k) mod (nn-1), (s-k) mod (nn-1)), so a sweep of
// nn-1 sets meets every pair once and the nn/2 pairs of a set touch disjoint columns (and rows).
// PHASE 0: one-sided (Hestenes) rotation of columns p, q of G (m x n) and of V (n x n): diagonalises the 2x2
//          Gram block [[|g_p|^2, g_p.g_q], [g_p.g_q, |g_q|^2]] (svd).
// PHASE 1: two-sided, columns: reads a_pp, a_qq, a_pq of the symmetric A (n x n), stores (c, s) for the pair,
//          applies A <- A J and V <- V J to columns p, q (each pair owns those three entries: race free).
// PHASE 2: two-sided, rows: A <- J^T A on rows p, q with the stored (c, s); sets a_pq = a_qp = 0.
// PHASE 3: one thread per element: V <- I; with flags bit 1, A's upper triangle <- its lower (numpy's UPLO='L').
// A rotation happens only when |a_pq| > max(tol * sqrt(|a_pp|) * sqrt(|a_qq|), TINY) (the relative test that
// keeps small eigen/singular values accurate); any rotation in a sweep sets flag[sweep], which the host reads.
// Complex matrices (S = vec2<T>, SCALAR's helpers): the 2x2 block [[a_pp, g], [conj(g), a_qq]] (Hermitian: G's
// Gram block with g = g_p^H g_q, or A's with g = a_pq) is diagonalised by J = [[c, z], [-conj(z), c]], z = s g/|g|
// and (c, s) the real rotation of [[a_pp, |g|], [|g|, a_qq]]; columns x' = c x - conj(z) y, y' = z x + c y (G J,
// A J, V J), rows x' = c x - z y, y' = conj(z) x + c y (J^H A).  Real matrices: z = s, the plain rotation.  A's
// diagonal is kept real (its imaginary part, zero in exact arithmetic, is dropped after each rotation).

struct Params {
    batch: u32,
    m: u32,
    n: u32,
    npairs: u32,
    step: u32,
    nn: u32,
    sweep: u32,
    flags: u32,
}

${BINDINGS}

const PHASE: u32 = ${PHASE}u;
const WG: u32 = ${WG}u;
var<workgroup> ra: array<${T}, ${WG}>;
var<workgroup> rb: array<${T}, ${WG}>;
var<workgroup> rc: array<${S}, ${WG}>;

${SCALAR}

fn pair_of(k: u32) -> vec2<u32> {
    let r = p.nn - 1u;
    var x: u32 = p.step % r;
    var y: u32 = r;
    if (k != 0u) {
        x = (p.step + k) % r;
        y = (p.step + r - k) % r;
    }
    return vec2<u32>(min(x, y), max(x, y));
}

${ROTATION}

${ENTRY}
    let gi = group_index;
    if (PHASE == 3u) {
        let t = gi * WG + lid;
        let n = p.n;
        if (t >= p.batch * n * n) {
            return;
        }
        let b = t / (n * n);
        let col = (t / n) % n;
        let row = t % n;
        v[t] = select(SC_ZERO, SC_ONE, row == col);
        if ((p.flags & 2u) != 0u && row < col) {
            a[t] = sc_conj(a[b * n * n + row * n + col]);
        }
        if ((p.flags & 2u) != 0u && row == col) {
            a[t] = sc_from(sc_re(a[t]));  // a Hermitian matrix's diagonal is real: its imaginary part is ignored
        }
        return;
    }
    if (gi >= p.batch * p.npairs) {
        return;
    }
    let b = gi / p.npairs;
    let pq = pair_of(gi % p.npairs);
    if (pq.y >= p.n) {
        return;
    }
    let n = p.n;
    let vp = b * n * n + pq.x * n;
    let vq = b * n * n + pq.y * n;
    if (PHASE == 0u) {
        let m = p.m;
        let cp = b * m * n + pq.x * m;
        let cq = b * m * n + pq.y * m;
        var sa = ${T}(0.0);
        var sb = ${T}(0.0);
        var sc = SC_ZERO;
        for (var i = lid; i < m; i = i + WG) {
            let x = a[cp + i];
            let y = a[cq + i];
            sa = sa + sc_abs2(x);
            sb = sb + sc_abs2(y);
            sc = sc + sc_mul(sc_conj(x), y);
        }
        ra[lid] = sa;
        rb[lid] = sb;
        rc[lid] = sc;
        workgroupBarrier();
        for (var h = WG / 2u; h > 0u; h = h / 2u) {
            if (lid < h) {
                ra[lid] = ra[lid] + ra[lid + h];
                rb[lid] = rb[lid] + rb[lid + h];
                rc[lid] = rc[lid] + rc[lid + h];
            }
            workgroupBarrier();
        }
        let alpha = ra[0];
        let beta = rb[0];
        let g = rc[0];
        let gamma = sc_offdiag(g);
        // the Gram entries carry rounding of about (m/WG + log2 WG) eps relative: do not chase below it
        let tol = ${T}(${EPS}) * (${T}((m + WG - 1u) / WG) + ${T}(${LOGWG}) + ${T}(2.0));
        if (!wants(alpha, beta, gamma, tol)) {
            return;
        }
        let cs = rotation(alpha, beta, gamma);
        let z = sc_phase(g, gamma) * cs.y;
        let zc = sc_conj(z);
        for (var i = lid; i < m; i = i + WG) {
            let x = a[cp + i];
            let y = a[cq + i];
            a[cp + i] = cs.x * x - sc_mul(zc, y);
            a[cq + i] = sc_mul(z, x) + cs.x * y;
        }
        if ((p.flags & 1u) != 0u) {
            for (var i = lid; i < n; i = i + WG) {
                let x = v[vp + i];
                let y = v[vq + i];
                v[vp + i] = cs.x * x - sc_mul(zc, y);
                v[vq + i] = sc_mul(z, x) + cs.x * y;
            }
        }
        if (lid == 0u) {
            atomicMax(&flag[p.sweep], 1u);
        }
        return;
    }
    let base = b * n * n;
    let cp = base + pq.x * n;
    let cq = base + pq.y * n;
    if (PHASE == 1u) {
        let app = sc_re(a[cp + pq.x]);
        let aqq = sc_re(a[cq + pq.y]);
        let g = a[cq + pq.x];
        storageBarrier();
        let apq = sc_offdiag(g);
        var cs = vec2<${T}>(${T}(1.0), ${T}(0.0));
        var z = SC_ZERO;
        let rot = wants(app, aqq, apq, ${T}(${EPS}) * ${T}(2.0));
        if (rot) {
            cs = rotation(app, aqq, apq);
            z = sc_phase(g, apq) * cs.y;
            let zc = sc_conj(z);
            for (var i = lid; i < n; i = i + WG) {
                let x = a[cp + i];
                let y = a[cq + i];
                a[cp + i] = cs.x * x - sc_mul(zc, y);
                a[cq + i] = sc_mul(z, x) + cs.x * y;
                let vx = v[vp + i];
                let vy = v[vq + i];
                v[vp + i] = cs.x * vx - sc_mul(zc, vy);
                v[vq + i] = sc_mul(z, vx) + cs.x * vy;
            }
        }
        if (lid == 0u) {
            rot_cs[2u * gi] = sc_from(cs.x);
            rot_cs[2u * gi + 1u] = z;
            if (rot) {
                atomicMax(&flag[p.sweep], 1u);
            }
        }
        return;
    }
    // PHASE 2
    let c = sc_re(rot_cs[2u * gi]);
    let z = rot_cs[2u * gi + 1u];
    if (sc_amax(z) == ${T}(0.0)) {
        return;
    }
    let zc = sc_conj(z);
    for (var j = lid; j < n; j = j + WG) {
        let x = a[base + j * n + pq.x];
        let y = a[base + j * n + pq.y];
        var nx = c * x - sc_mul(z, y);
        var ny = sc_mul(zc, x) + c * y;
        if (j == pq.x) {
            nx = sc_from(sc_re(nx));
            ny = SC_ZERO;
        }
        if (j == pq.y) {
            nx = SC_ZERO;
            ny = sc_from(sc_re(ny));
        }
        a[base + j * n + pq.x] = nx;
        a[base + j * n + pq.y] = ny;
    }
}
