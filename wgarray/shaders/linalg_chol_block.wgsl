// Unblocked Cholesky (lower) of the diagonal block [k0, k0 + nb)^2 of each matrix of a contiguous stack, one
// workgroup a matrix: the blocked path's panel step (the rows below the block are a triangular solve after it).
// STAGED: the block is copied to workgroup memory, factored there and stored back; otherwise factored in place in
// global memory.  A pivot that is not > 0 (negative, zero or NaN) is recorded in info[b] (first failing pivot + 1;
// info must be zero on entry, the first failure wins); the block's upper triangle is zeroed (the rows above it are
// left alone: linalg_chol_rows.wgsl zeroes the whole upper triangle after the last panel).  (Stacks of small matrices have their own kernel, linalg_small.wgsl.)
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
        let l = wg_sqrt1_${T}(d);
        if (tid == 0u) {
            aput(j, j, l);
        }
        for (var i = j + 1u + tid; i < m_end; i = i + WG) {
            aput(i, j, aget(i, j) / l);
        }
        fence();
        // the rank-1 update of the lower triangle right of j: a[i, c] -= l[i, j] l[c, j]; invocation (ry, cx) =
        // (tid / 64, tid % 64) takes columns j + 1 + cx + 64 q, rows from the diagonal down in steps of WG / 64
        for (var c = j + 1u + tid % 64u; c < ce; c = c + 64u) {
            let lc = aget(c, j);
            for (var i = c + tid / 64u; i < m_end; i = i + WG / 64u) {
                aput(i, c, aget(i, c) - aget(i, j) * lc);
            }
        }
        fence();
    }
    // zero the block's upper triangle (the rows above the block: chol_finish's, once for the whole matrix)
    for (var c = p.k0; c < ce; c = c + 1u) {
        for (var i = p.k0 + tid; i < c; i = i + WG) {
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
