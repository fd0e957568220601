// Tournament pivoting (CALU's TSLU) for the LU panel of columns [k0, k0 + nb) over rows [k0, n) of each matrix
// of a stack: the panel's pivots are chosen by many workgroups instead of one column search over all rows.
//
// LEAF: workgroup g of matrix b copies its block of rows [k0 + g R, k0 + (g + 1) R) of the panel into scratch,
// factors it there with partial pivoting (LU of R x nb) and writes the rows it chose as pivots, in order, to
// cand[b][g][0 .. nb) (0xffffffff where the block has fewer than nb rows).  These candidates span the block's rows
// (every other row reduces to zero), so a pivot the whole panel would find is among them.
// ROOT (one workgroup a matrix): the candidate rows of all leaves (groups > 0) or all rows of the panel
// (groups == 0) are copied from A (their original values) and factored with partial pivoting; its first nb
// choices are the panel's pivots and the top of its factors is [L11 \ U11] of the pivoted panel.  It turns the
// choices into LAPACK's sequence of row swaps (piv[b * n + k0 + j]), applies them to the panel's columns, writes
// [L11 \ U11] over rows [k0, k0 + nb) and records a zero pivot of U11 in info[b] (first zero pivot + 1; as getrf,
// no division by it).  L21 = A21 U11^-1 is then a row-parallel triangular solve (the driver's).
${HELPERS}

struct Params {
    n: u32,
    k0: u32,
    nb: u32,
    batch: u32,
    rows: u32,     // LEAF: rows a leaf (R)
    groups: u32,   // leaves a matrix (G); at the ROOT 0 means: the candidates are the panel's rows themselves
    sstride: u32,  // scratch elements a matrix (G R nb)
    _pad: u32,
}

const LEAF: bool = ${LEAF};
const WG: u32 = ${WG}u;
const IDS: u32 = ${IDS}u;  // the most rows one workgroup factors (a leaf's R, the root's candidates)
const NONE: u32 = 0xffffffffu;

${BINDINGS}

var<workgroup> ids: array<u32, IDS>;  // ids[i]: the row of A that scratch row i holds
var<workgroup> red_v: array<${T}, WG>;
var<workgroup> red_i: array<u32, WG>;
var<workgroup> pv: array<u32, WG>;
var<workgroup> wcnt: u32;
var<private> sb: u32;

fn fence() {
    storageBarrier();
    workgroupBarrier();
}

fn sget(i: u32, c: u32) -> ${T} {
    return s[sb + i * p.nb + c];
}

fn sput(i: u32, c: u32, v: ${T}) {
    s[sb + i * p.nb + c] = v;
}

${ENTRY}
    let tid = lid;
    let n = p.n;
    let nb = p.nb;
    let k0 = p.k0;
    var b = group_index;
    var g = 0u;
    if (LEAF) {
        b = group_index / p.groups;
        g = group_index % p.groups;
    }
    if (b >= p.batch) {
        return;  // whole workgroups only: the barriers below stay uniform
    }
    let abase = b * n * n;
    sb = b * p.sstride + g * p.rows * nb;
    // gather: cnt rows of the panel (their ids first, then their values) into scratch
    var cnt = 0u;
    if (LEAF) {
        let r0 = k0 + g * p.rows;
        cnt = min(p.rows, n - r0);
        for (var i = tid; i < cnt; i = i + WG) {
            ids[i] = r0 + i;
        }
    } else if (p.groups == 0u) {
        cnt = n - k0;
        for (var i = tid; i < cnt; i = i + WG) {
            ids[i] = k0 + i;
        }
    } else {
        if (tid == 0u) {  // the leaves' candidates, skipping the padding of short leaves
            var c = 0u;
            for (var e = 0u; e < p.groups * nb; e = e + 1u) {
                let r = cand[b * p.groups * nb + e];
                if (r != NONE) {
                    ids[c] = r;
                    c = c + 1u;
                }
            }
            wcnt = c;
        }
        cnt = workgroupUniformLoad(&wcnt);  // uniform: the loops below hold barriers
    }
    workgroupBarrier();
    for (var e = tid; e < cnt * nb; e = e + WG) {
        let i = e / nb;
        let c = e % nb;
        sput(i, c, a[abase + ids[i] * n + k0 + c]);
    }
    fence();
    let steps = min(nb, cnt);
    var bad = 0u;
    for (var j = 0u; j < steps; j = j + 1u) {
        // pivot: the first row of largest |s[i, j]|, i >= j (NaN never wins a comparison)
        var best = ${T}(-1.0);
        var bi = j;
        for (var i = j + tid; i < cnt; i = i + WG) {
            let v = abs(sget(i, j));
            if (v > best) {
                best = v;
                bi = i;
            }
        }
        red_v[tid] = best;
        red_i[tid] = bi;
        workgroupBarrier();
        for (var h = WG / 2u; h > 0u; h = h / 2u) {
            if (tid < h) {
                let v2 = red_v[tid + h];
                let i2 = red_i[tid + h];
                if (v2 > red_v[tid] || (v2 == red_v[tid] && i2 < red_i[tid])) {
                    red_v[tid] = v2;
                    red_i[tid] = i2;
                }
            }
            workgroupBarrier();
        }
        let pr = red_i[0];
        if (pr != j) {  // whole scratch rows (the root's L11 needs its left part swapped too)
            for (var c = tid; c < nb; c = c + WG) {
                let t = sget(j, c);
                sput(j, c, sget(pr, c));
                sput(pr, c, t);
            }
            if (tid == 0u) {
                let t = ids[j];
                ids[j] = ids[pr];
                ids[pr] = t;
            }
        }
        fence();
        let d = sget(j, j);
        if (d == ${T}(0.0)) {
            if (bad == 0u) {
                bad = j + 1u;
            }
        } else {
            for (var i = j + 1u + tid; i < cnt; i = i + WG) {
                sput(i, j, sget(i, j) / d);
            }
        }
        fence();
        let w = nb - j - 1u;
        let total = (cnt - j - 1u) * w;
        for (var e = tid; e < total; e = e + WG) {
            let i = j + 1u + e / w;
            let c = j + 1u + e % w;
            sput(i, c, sget(i, c) - sget(i, j) * sget(j, c));
        }
        fence();
    }
    if (LEAF) {
        for (var j = tid; j < nb; j = j + WG) {
            cand[(b * p.groups + g) * nb + j] = select(NONE, ids[j], j < cnt);
        }
        return;
    }
    // ROOT: the chosen rows ids[0 .. nb) as the swap sequence (pv[j]: the row swapped with row k0 + j)
    if (tid == 0u) {
        for (var j = 0u; j < nb; j = j + 1u) {
            red_i[j] = ids[j];  // red_i[i]: where chosen row i is now
        }
        for (var j = 0u; j < nb; j = j + 1u) {
            let t = k0 + j;
            let r = red_i[j];
            pv[j] = r;
            piv[b * n + t] = r;
            for (var i = j + 1u; i < nb; i = i + 1u) {
                if (red_i[i] == t) {
                    red_i[i] = r;
                }
            }
        }
        if (bad != 0u && info[b] == 0u) {
            info[b] = k0 + bad;
        }
    }
    workgroupBarrier();
    // each invocation one column of the panel: its swaps in order, then its column of [L11 \ U11]
    for (var c = tid; c < nb; c = c + WG) {
        let col = abase + k0 + c;
        for (var j = 0u; j < nb; j = j + 1u) {
            let r = pv[j];
            if (r != k0 + j) {
                let t = a[col + (k0 + j) * n];
                a[col + (k0 + j) * n] = a[col + r * n];
                a[col + r * n] = t;
            }
        }
        for (var i = 0u; i < nb; i = i + 1u) {
            a[col + (k0 + i) * n] = sget(i, c);
        }
    }
}
