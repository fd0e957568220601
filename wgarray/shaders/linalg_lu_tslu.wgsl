// Tournament pivoting (CALU's TSLU) for the LU panel of columns [k0, k0 + NB) over rows [k0, n) of each matrix
// of a stack: the panel's pivots are chosen by many workgroups instead of one column search over all rows.
//
// LEAF: workgroup g of matrix b factors its block of rows [k0 + g R, k0 + (g + 1) R) of the panel with partial
// pivoting and writes the rows it chose as pivots, in order, to cand[b][g][0 .. NB) (0xffffffff where the block
// has fewer than NB rows).  Every other row of the block reduces to zero, i.e. lies in the span of these
// candidates, so a zero pivot of the whole panel is a zero pivot here and the other way round.
// ROOT (one workgroup a matrix): the candidate rows of all leaves (groups > 0), or all rows of the panel
// (groups == 0), are factored the same way; its NB choices are the panel's pivots, and the chosen rows' factored
// values are [L11 \ U11] of the pivoted panel.  It turns the choices into LAPACK's sequence of row swaps
// (piv[b * n + k0 + j]), applies them to the panel's columns, writes [L11 \ U11] over rows [k0, k0 + NB) and
// records a zero pivot in info[b] (first zero pivot + 1; as getrf, no division by it).
// NaN: the pivot search passes over NaN (a zero pivot wins against it, where getrf would take a NaN at position j),
// so a NaN could vanish behind a zero pivot.  The input's NaNs are marked before the first panel
// (linalg_lu_nanscan.wgsl: info[b] = NAN_INFO, which no zero pivot overwrites); the NaNs the factorisation makes
// from inf (inf - inf, inf / inf) are marked here, by the panel's loads, where no zero pivot came first (after one,
// a NaN may be that zero pivot's own: L21 = A21 U11^-1 divides by it).  Marked: det NaN, solve / inv NaN, no
// LinAlgError.  L21 = A21 U11^-1 is a
// row-parallel triangular solve afterwards (linalg_lu_finish.wgsl).
//
// The factorisation keeps each row in the private memory of the invocation that owns it (invocation t: rows
// t, t + WG, ..., RPT of them) and never moves rows: a chosen row is marked used and broadcast through workgroup
// memory, and the other rows are updated by their owners, so a column costs one max-reduction and one barrier.
// REG (kernels.linalg_factor.TSLU_REG): the same steps as generated straight-line code (BODY: the NB columns
// unrolled, an owned row's values in named variables v{k}_{c}), so no function-scope array indexed at run time
// (NVIDIA puts those in local memory).
${HELPERS}

struct Params {
    n: u32,
    k0: u32,
    nb: u32,       // == NB
    batch: u32,
    rows: u32,     // LEAF: rows a leaf (R <= RPT WG)
    groups: u32,   // leaves a matrix (G); at the ROOT 0 means: the candidates are the panel's rows themselves
    sstride: u32,  // scratch elements a matrix (at least NB NB)
    count: u32,    // ROOT: candidates a matrix (the leaves' valid ones, or n - k0)
}

const LEAF: bool = ${LEAF};
const REG: bool = ${REG};
const WG: u32 = ${WG}u;
const NB: u32 = ${NB}u;
const RPT: u32 = ${RPT}u;  // rows an invocation owns
const NONE: u32 = 0xffffffffu;
const NAN_INFO: u32 = ${NAN_INFO}u;  // info[b] of a matrix with a NaN

${BINDINGS}

var<workgroup> ids: array<u32, ${IDS}>;  // ROOT: ids[i], the row of A that candidate i is
var<workgroup> red_v: array<${T}, WG>;
var<workgroup> red_i: array<u32, WG>;

${ARGMAX}
var<workgroup> prow: array<${T}, NB>;    // the pivot row of the current column
var<workgroup> order: array<u32, NB>;    // the chosen rows (local numbers), in order
var<workgroup> cont: array<u32, NB>;     // ROOT: what row k0 + i holds during the swaps

${ENTRY}
    let tid = lid;
    let n = p.n;
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
    wg_argmax_setup(tid);
    let abase = b * n * n;
    let r0 = k0 + g * p.rows;  // LEAF: local row i is row r0 + i of A
    var cnt = p.count;  // ROOT: the candidates (all leaves but the last one give NB, in order)
    if (LEAF) {
        cnt = min(p.rows, n - r0);
    } else {
        for (var i = tid; i < cnt; i = i + WG) {
            if (p.groups == 0u) {
                ids[i] = k0 + i;
            } else {
                ids[i] = cand[b * p.groups * NB + i];
            }
        }
        workgroupBarrier();
    }
    let steps = min(NB, cnt);
    var bad = 0u;
    var nan_in = false;  // a NaN among this invocation's loaded values
    let sb = b * p.sstride;
    if (REG) {  // generated straight-line code: each owned row in named registers (TSLU_REG)
${BODY}
    } else {
        var v: array<${T}, ${RV_LEN}>;
        var used: array<bool, RPT>;
        for (var k = 0u; k < RPT; k = k + 1u) {
            let i = tid + k * WG;
            used[k] = i >= cnt;
            if (i < cnt) {
                var row = r0 + i;
                if (!LEAF) {
                    row = ids[i];
                }
                for (var c = 0u; c < NB; c = c + 1u) {
                    v[k * NB + c] = a[abase + row * n + k0 + c];
                    nan_in = nan_in || wg_isnan_${T}(v[k * NB + c]);
                }
            }
        }
        for (var j = 0u; j < steps; j = j + 1u) {
            // pivot: the first row of largest |v[., j]| among the unused ones (a NaN only where all are NaN)
            var best = ${T}(-1.0);
            var bi = NONE;
            for (var k = 0u; k < RPT; k = k + 1u) {
                if (!used[k]) {
                    let x = abs(v[k * NB + j]);
                    let key = select(x, ${T}(-0.5), wg_isnan_${T}(x));  // (x != x folds away on some drivers)
                    if (key > best) {
                        best = key;
                        bi = tid + k * WG;
                    }
                }
            }
            let pr = wg_argmax(tid, best, bi);
            if (pr % WG == tid) {  // the owner broadcasts the pivot row
                let k = pr / WG;
                used[k] = true;
                for (var c = 0u; c < NB; c = c + 1u) {
                    prow[c] = v[k * NB + c];
                }
                order[j] = pr;
            }
            workgroupBarrier();
            let d = prow[j];
            if (d == ${T}(0.0) && bad == 0u) {
                bad = j + 1u;
            }
            if (d != ${T}(0.0)) {
                for (var k = 0u; k < RPT; k = k + 1u) {
                    if (!used[k]) {
                        let l = v[k * NB + j] / d;
                        v[k * NB + j] = l;
                        for (var c = j + 1u; c < NB; c = c + 1u) {
                            v[k * NB + c] = v[k * NB + c] - l * prow[c];
                        }
                    }
                }
            }
        }
        if (!LEAF) {
            // ROOT: the chosen rows' factored values, in order, to scratch rows 0 .. NB ([L11 \ U11])
            for (var k = 0u; k < RPT; k = k + 1u) {
                let i = tid + k * WG;
                if (i < cnt && used[k]) {
                    var j = 0u;
                    for (var q = 0u; q < NB; q = q + 1u) {
                        if (order[q] == i) {
                            j = q;
                        }
                    }
                    for (var c = 0u; c < NB; c = c + 1u) {
                        s[sb + j * NB + c] = v[k * NB + c];
                    }
                }
            }
        }
    }
    if (nan_in && info[b] == 0u) {
        info[b] = NAN_INFO;  // (every writer writes the same word; the ROOT's zero pivot below only where info is 0)
    }
    if (LEAF) {
        for (var j = tid; j < NB; j = j + WG) {
            cand[(b * p.groups + g) * NB + j] = select(NONE, r0 + order[j], j < steps);
        }
        return;
    }
    // The choices as LAPACK's swap sequence, and its net effect on the rows.  pos (in red_i) [q]: where chosen
    // row q is now (it starts at ids[order[q]]); cont[i]: what row k0 + i holds now: chosen row q (q < NB) or the
    // panel's own row k0 + l (NB + l).  Swap j exchanges rows k0 + j and pos[j]; a top row pushed below the top
    // block stays there: dest[l] is where row k0 + l ends (NONE for a chosen one).  perm[b] = (src, dest): rows
    // k0 + j end up holding row src[j], rows dest[l] row k0 + l (linalg_lu_finish.wgsl applies that to the other
    // columns with independent loads, not NB dependent swaps).
    workgroupBarrier();  // everyone is done with red_i and order is complete
    for (var q = tid; q < NB; q = q + WG) {
        cont[q] = NB + q;
        red_i[q] = ids[order[q]];
        perm[b * 2u * NB + q] = red_i[q];
        perm[b * 2u * NB + NB + q] = NONE;
    }
    workgroupBarrier();
    for (var q = tid; q < NB; q = q + WG) {
        let r = red_i[q];
        if (r < k0 + NB) {
            cont[r - k0] = q;
        }
    }
    storageBarrier();
    workgroupBarrier();
    if (tid == 0u) {
        for (var j = 0u; j < NB; j = j + 1u) {
            let t = k0 + j;
            let sj = red_i[j];
            piv[b * n + t] = sj;
            if (sj != t) {
                let x = cont[j];  // what row t holds goes where chosen row j was
                if (x < NB) {
                    red_i[x] = sj;
                }
                if (sj < k0 + NB) {
                    cont[sj - k0] = x;
                } else if (x >= NB) {
                    perm[b * 2u * NB + x] = sj;  // dest[x - NB]
                }
            }
        }
        if (bad != 0u && info[b] == 0u) {
            info[b] = k0 + bad;
        }
    }
    storageBarrier();
    workgroupBarrier();
    // each invocation one column of the panel: the top rows' old values to their dest, then [L11 \ U11]
    for (var c = tid; c < NB; c = c + WG) {
        let col = abase + k0 + c;
        var top: array<${T}, NB>;
        for (var i = 0u; i < NB; i = i + 1u) {
            top[i] = a[col + (k0 + i) * n];
        }
        for (var i = 0u; i < NB; i = i + 1u) {
            let dst = perm[b * 2u * NB + NB + i];
            if (dst != NONE) {
                a[col + dst * n] = top[i];
            }
            a[col + (k0 + i) * n] = s[sb + i * NB + c];
        }
    }
}
