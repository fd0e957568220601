// The rest of an LU panel step after tournament pivoting (linalg_lu_tslu.wgsl has written the pivots and
// [L11 \ U11] over rows [k0, k0 + nb) of the panel's columns), in one dispatch over two kinds of workgroups:
// - row groups: L21 = A21 U11^-1, one invocation a row i >= k0 + nb of the panel (x U11 = a_i, left to right);
// - column groups: one invocation a column c outside the panel: the panel's row swaps, applied as their net effect
//   (perm from the root: rows k0 + j get row src[j], rows dest[l] get row k0 + l; all loads first, so they
//   overlap, where NB swaps in order would wait on each other), and for c >= k0 + nb the block row
//   U12 = L11^-1 A12 (unit lower, top to bottom, in private memory); columns from cend on only swapped (the outer
//   panel's right of it in factor.FACTOR_OUTER's two levels: their U12 comes later).
// The two write disjoint parts of the matrix and both only read [L11 \ U11], staged in workgroup memory when it
// fits (STAGE > 0).  Grid: (row groups + column groups) times matrices.
// REG (staged only): both solves as straight-line code over NB values in registers (ROW_SOLVE, COL_SOLVE from
// kernels/linalg_factor.py ``reg_solve``), column-oriented, instead of the loops below.
struct Params {
    n: u32,
    k0: u32,
    nb: u32,
    batch: u32,
    rgroups: u32,  // row groups a matrix: ceil((n - k0 - nb) / WG)
    cgroups: u32,  // column groups a matrix: ceil((n - nb) / WG)
    cend: u32,  // columns solved for U12 end here (n: all)
    _pad1: u32,
}

const STAGE: u32 = ${STAGE}u;
const NB: u32 = ${NB}u;  // == p.nb
const NONE: u32 = 0xffffffffu;
var<workgroup> ts: array<${T}, ${TS_LEN}>;
var<private> abase: u32;

${BINDINGS}

fn tget(r: u32, c: u32) -> ${T} {  // [L11 \ U11][r, c]
    if (STAGE > 0u) {
        return ts[r * STAGE + c];
    }
    return a[abase + (p.k0 + r) * p.n + p.k0 + c];
}

${ENTRY}
    let per = p.rgroups + p.cgroups;
    let z = group_index / per;
    let role = group_index % per;
    if (z >= p.batch) {
        return;  // whole workgroups: the barrier below stays uniform
    }
    let n = p.n;
    let k0 = p.k0;
    let nb = p.nb;
    let k1 = k0 + nb;
    abase = z * n * n;
    if (STAGE > 0u) {
        for (var e = lid; e < nb * nb; e = e + ${WG}u) {
            ts[(e / nb) * STAGE + e % nb] = a[abase + (k0 + e / nb) * n + k0 + e % nb];
        }
        workgroupBarrier();
    }
    if (role < p.rgroups) {
        let i = k1 + role * ${WG}u + lid;
        if (i >= n) {
            return;
        }
        let row = abase + i * n + k0;
        if (${REG}) {
${ROW_SOLVE}
            return;
        }
        for (var c = 0u; c < nb; c = c + 1u) {
            var s = a[row + c];
            for (var q = 0u; q < c; q = q + 1u) {
                s = s - a[row + q] * tget(q, c);
            }
            a[row + c] = s / tget(c, c);
        }
        return;
    }
    let q = (role - p.rgroups) * ${WG}u + lid;
    if (q >= n - nb) {
        return;
    }
    let c = select(q, q + nb, q >= k0);  // the columns left of the panel, then those right of it
    let col = abase + c;
    let pb = z * 2u * NB;
    var x: array<${T}, NB>;  // the column's new top rows
    var old: array<${T}, NB>;  // its old ones
    for (var i = 0u; i < NB; i = i + 1u) {
        old[i] = a[col + (k0 + i) * n];
        x[i] = a[col + perm[pb + i] * n];
    }
    for (var i = 0u; i < NB; i = i + 1u) {
        let dst = perm[pb + NB + i];
        if (dst != NONE) {
            a[col + dst * n] = old[i];
        }
    }
    if (c >= k1 && c < p.cend && ${REG}) {
${COL_SOLVE}
    } else if (c >= k1 && c < p.cend) {
        for (var r = 1u; r < NB; r = r + 1u) {
            var s = x[r];
            for (var qq = 0u; qq < r; qq = qq + 1u) {
                s = s - tget(r, qq) * x[qq];
            }
            x[r] = s;
        }
    }
    for (var i = 0u; i < NB; i = i + 1u) {
        a[col + (k0 + i) * n] = x[i];
    }
}
