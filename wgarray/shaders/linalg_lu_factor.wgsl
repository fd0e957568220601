// Unblocked LU with partial pivoting (LU = true) or Cholesky, lower (LU = false), of the panel of columns
// [k0, k0 + nb) over rows [k0, m_end) of each matrix of a stack; one workgroup a matrix.
// SHARED (with PANEL_SH): the panel is staged in workgroup memory; otherwise it is factored in place in global
// memory.  (Stacks of small matrices have their own kernel, linalg_small.wgsl.)
// LU: pivots (the row swapped with row j, LAPACK's ipiv less one) go to piv[b * n + j]; a zero pivot is skipped
// (no division, as LAPACK's getrf) and recorded in info[b] (first zero pivot + 1).  Cholesky: a pivot that is not
// > 0 (negative, zero or NaN) is recorded the same way; the upper triangle of the panel's columns is zeroed.
// info must be zero on entry (the first failure wins).
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

const LU: bool = ${LU};
const SHARED: bool = ${SHARED};
const WG: u32 = ${WG}u;

${BINDINGS}

var<workgroup> sh: array<${T}, ${SH_LEN}>;
var<workgroup> red_v: array<${T}, ${WG}>;
var<workgroup> red_i: array<u32, ${WG}>;

${ARGMAX}
var<workgroup> bad: u32;
var<private> abase: u32;

// PANEL_SH: the panel (k0 > 0 allowed, rows [k0, m_end), columns [k0, k0 + nb)) is staged in workgroup memory as an
// (m_end - k0) x nb block and stored back at the end: Cholesky's diagonal block on the blocked path.
const PANEL_SH: bool = ${PANEL_SH};

fn sidx(i: u32, c: u32) -> u32 {
    if (PANEL_SH) {
        return (i - p.k0) * p.nb + c - p.k0;
    }
    return i * p.n + c;
}

fn aget(i: u32, c: u32) -> ${T} {
    if (SHARED) {
        return sh[sidx(i, c)];
    }
    return a[abase + i * p.n + c];
}

fn aput(i: u32, c: u32, v: ${T}) {
    if (SHARED) {
        sh[sidx(i, c)] = v;
    } else {
        a[abase + i * p.n + c] = v;
    }
}

fn fence() {
    if (!SHARED) {
        storageBarrier();
    }
    workgroupBarrier();
}

// The rank-1 update of the panel's columns right of j, rows below j: LU a[i, c] -= l[i, j] u[j, c]; Cholesky the
// lower triangle only, a[i, c] -= l[i, j] l[c, j].
fn update(j: u32, ce: u32, m_end: u32, tid: u32) {
    let w = ce - j - 1u;
    let cnt = (m_end - j - 1u) * w;
    for (var e = tid; e < cnt; e = e + WG) {
        let i = j + 1u + e / w;
        let c = j + 1u + e % w;
        if (LU) {
            aput(i, c, aget(i, c) - aget(i, j) * aget(j, c));
        } else if (i >= c) {
            aput(i, c, aget(i, c) - aget(i, j) * aget(c, j));
        }
    }
    fence();
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
    if (PANEL_SH) {
        for (var e = tid; e < (p.m_end - p.k0) * p.nb; e = e + WG) {
            sh[e] = a[abase + (p.k0 + e / p.nb) * n + p.k0 + e % p.nb];
        }
    }
    fence();
    let ce = p.k0 + p.nb;
    let m_end = p.m_end;
    for (var j = p.k0; j < ce; j = j + 1u) {
        if (LU) {
            // pivot: the first row of largest |a[i, j]|, i >= j (NaN never wins a comparison)
            var best = ${T}(-1.0);
            var bi = j;
            for (var i = j + tid; i < m_end; i = i + WG) {
                let v = abs(aget(i, j));
                if (v > best) {
                    best = v;
                    bi = i;
                }
            }
            let pr = wg_argmax(tid, best, bi);
            if (tid == 0u) {
                piv[b * n + j] = pr;
            }
            if (pr != j) {  // swap rows j and pr within the panel's columns
                for (var c = p.k0 + tid; c < ce; c = c + WG) {
                    let t = aget(j, c);
                    aput(j, c, aget(pr, c));
                    aput(pr, c, t);
                }
            }
            fence();
            let d = aget(j, j);
            if (d == ${T}(0.0)) {
                if (tid == 0u) {
                    flag(j, b);
                }
            } else {
                for (var i = j + 1u + tid; i < m_end; i = i + WG) {
                    aput(i, j, aget(i, j) / d);
                }
            }
            fence();
        } else {
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
        }
        update(j, ce, m_end, tid);
    }
    if (!LU) {  // zero the upper triangle of the panel's columns
        var lo = 0u;
        if (PANEL_SH) {  // the rows above the block directly, the block's upper triangle in workgroup memory
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
    }
    if (PANEL_SH) {
        for (var e = tid; e < (p.m_end - p.k0) * p.nb; e = e + WG) {
            a[abase + (p.k0 + e / p.nb) * n + p.k0 + e % p.nb] = sh[e];
        }
    }
}
