// Unblocked Cholesky (lower) of the diagonal block [k0, k0 + nb)^2 of each matrix of a contiguous stack, one
// workgroup a matrix: the blocked path's panel step (the rows below the block are a triangular solve after it).
// STAGED: the block is copied to workgroup memory, factored there and stored back; otherwise factored in place in
// global memory.  A pivot that is not > 0 (negative, zero or NaN) is recorded in info[b] (first failing pivot + 1;
// info must be zero on entry, the first failure wins); the upper triangle of the panel's columns (rows [0, k0 + nb))
// is zeroed.  (Stacks of small matrices have their own kernel, linalg_small.wgsl.)
${HELPERS}

struct Params {
    n: u32,
    k0: u32,
    nb: u32,
    m_end: u32,
    batch: u32,
    K: u32,
    _pad0: u32,
    _pad1: u32,
}

const STAGED: bool = ${STAGED};
const WG: u32 = ${WG}u;
// REG (nb <= 64, WG = 256): the block padded to 64 x 64 with the identity, thread (ty, tx) = (lid / 16, lid % 16)
// holding rows ty + 16 a and columns tx + 16 b (a, b < 4) in registers; a step publishes column j through one of
// two workgroup buffers (so one barrier a step: a buffer is rewritten two steps later, after everyone passed the
// barrier between), and every thread updates its own elements: no division by a runtime width, no global traffic.
const REG: bool = ${REG};
var<workgroup> colbuf: array<${T}, 128>;

${BINDINGS}

var<workgroup> sh: array<${T}, ${SH_LEN}>;
var<workgroup> bad: u32;
var<private> abase: u32;

fn aget(i: u32, c: u32) -> ${T} {
    if (STAGED) {
        return sh[(i - p.k0) * p.nb + c - p.k0];
    }
    return a[abase + i * p.n + c];
}

fn aput(i: u32, c: u32, v: ${T}) {
    if (STAGED) {
        sh[(i - p.k0) * p.nb + c - p.k0] = v;
    } else {
        a[abase + i * p.n + c] = v;
    }
}

fn fence() {
    if (!STAGED) {
        storageBarrier();
    }
    workgroupBarrier();
}

fn flag(j: u32, b: u32) {
    if (bad == 0u) {
        bad = j + 1u;
        if (info[b] == 0u) {
            info[b] = j + 1u;
        }
    }
}

fn chol_reg(tid: u32, b: u32) {
    let ty = tid / 16u;
    let tx = tid % 16u;
    let k0 = p.k0;
    let nb = p.nb;
    var v: array<${T}, 16>;
    for (var e = 0u; e < 16u; e = e + 1u) {
        let r = ty + 16u * (e / 4u);
        let c = tx + 16u * (e % 4u);
        var x = select(${T}(0.0), ${T}(1.0), r == c);
        if (r < nb && c < nb) {
            x = a[abase + (k0 + r) * p.n + k0 + c];
        }
        v[e] = x;
    }
    for (var j = 0u; j < 64u; j = j + 1u) {
        let half = (j % 2u) * 64u;
        if (tx == j % 16u) {  // the owners of column j publish it
            for (var q = 0u; q < 4u; q = q + 1u) {
                colbuf[half + ty + 16u * q] = v[q * 4u + j / 16u];
            }
        }
        workgroupBarrier();
        let d = colbuf[half + j];
        if (!(d > ${T}(0.0)) && tid == 0u && j < nb) {
            flag(k0 + j, b);
        }
        let s = wg_sqrtcr_${T}(d);
        for (var e = 0u; e < 16u; e = e + 1u) {
            let r = ty + 16u * (e / 4u);
            let c = tx + 16u * (e % 4u);
            if (c == j && r >= j) {
                v[e] = select(colbuf[half + r] / s, s, r == j);
            } else if (c > j && r >= c) {
                v[e] = v[e] - (colbuf[half + r] / s) * (colbuf[half + c] / s);
            }
        }
    }
    for (var e = 0u; e < 16u; e = e + 1u) {
        let r = ty + 16u * (e / 4u);
        let c = tx + 16u * (e % 4u);
        if (r < nb && c < nb) {
            a[abase + (k0 + r) * p.n + k0 + c] = select(${T}(0.0), v[e], c <= r);
        }
    }
    for (var e = tid; e < k0 * nb; e = e + WG) {  // the rows above the block: zero in the panel's columns
        a[abase + (e / nb) * p.n + k0 + e % nb] = ${T}(0.0);
    }
}

${ENTRY}
    let tid = lid;
    let b = group_index;
    if (b >= p.batch) {
        return;  // whole workgroups only: the barriers below stay uniform
    }
    let n = p.n;
    abase = b * n * n;
    if (tid == 0u) {
        bad = 0u;
    }
    if (REG) {
        workgroupBarrier();  // bad = 0 seen by all
        chol_reg(tid, b);
        return;
    }
    if (STAGED) {
        for (var e = tid; e < (p.m_end - p.k0) * p.nb; e = e + WG) {
            sh[e] = a[abase + (p.k0 + e / p.nb) * n + p.k0 + e % p.nb];
        }
    }
    fence();
    let ce = p.k0 + p.nb;
    let m_end = p.m_end;
    for (var j = p.k0; j < ce; j = j + 1u) {
        let d = aget(j, j);
        fence();  // everyone has read d before it is overwritten
        if (!(d > ${T}(0.0)) && tid == 0u) {
            flag(j, b);
        }
        let l = wg_sqrtcr_${T}(d);
        if (tid == 0u) {
            aput(j, j, l);
        }
        for (var i = j + 1u + tid; i < m_end; i = i + WG) {
            aput(i, j, aget(i, j) / l);
        }
        fence();
        // the rank-1 update of the lower triangle right of j: a[i, c] -= l[i, j] l[c, j]
        let w = ce - j - 1u;
        let cnt = (m_end - j - 1u) * w;
        for (var e = tid; e < cnt; e = e + WG) {
            let i = j + 1u + e / w;
            let c = j + 1u + e % w;
            if (i >= c) {
                aput(i, c, aget(i, c) - aget(i, j) * aget(c, j));
            }
        }
        fence();
    }
    // zero the upper triangle of the panel's columns: the rows above the block directly, the block's own
    var lo = 0u;
    if (STAGED) {
        for (var e = tid; e < p.k0 * p.nb; e = e + WG) {
            a[abase + (e / p.nb) * n + p.k0 + e % p.nb] = ${T}(0.0);
        }
        lo = p.k0;
    }
    for (var c = p.k0; c < ce; c = c + 1u) {
        for (var i = lo + tid; i < c; i = i + WG) {
            aput(i, c, ${T}(0.0));
        }
    }
    fence();
    if (STAGED) {
        for (var e = tid; e < (p.m_end - p.k0) * p.nb; e = e + WG) {
            a[abase + (p.k0 + e / p.nb) * n + p.k0 + e % p.nb] = sh[e];
        }
    }
}
