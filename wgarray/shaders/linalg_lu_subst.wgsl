// One block step of the LU substitution (linalg_factor.SUBST_STEP):
//     X[t] = T^-1 (X[t] - A[t, s] X[s])      (the target block t: one row tile, the triangle solved in the workgroup)
//     X[r] =        X[r] - A[r, s] X[s]      (the plain rows r, tiles of SB rows)
// in one launch, s the block finished by the previous launch (rows j0 .. j0 + jb of X, columns j0 .. of A; jb = 0:
// none, the first block of a pass).  The forward pass (T = L, unit lower) takes t = s + 1 and the rows below it as
// plain rows, the backward pass (T = U) t = s - 1 and the rows above it: one launch a block instead of a trsm and an
// update.  A workgroup owns SB rows x CW columns of X: A's SB x SB tile and X[s]'s SB x CW tile staged, invocation
// (ty, tx) sums rows ty + TY m (m < M) of column tx (named accumulators, BODY); the target's tile goes back to
// workgroup memory (PUT), the triangle T staged (STAGE, padded with the identity), each of the first CW invocations
// solves its column in registers (FINISH, straight-line code, the trsm's: backward stable as the default path) and
// the tile is written back (APPLY).  X[s] is only read, the rows written are the workgroup's own: no launch reads
// what another workgroup of it writes.
struct Params {
    n: u32,
    k: u32,  // columns of X
    batch: u32,
    j0: u32,  // the source block's first row
    jb: u32,  // its rows (0: none)
    t0: u32,  // the target block's first row
    tb: u32,  // its rows (0: none)
    p0: u32,  // the plain rows [p0, p1)
    p1: u32,
    ptiles: u32,  // their row tiles
    ctiles: u32,  // column tiles
    kc: u32,  // columns of X this launch touches (k, or fewer: inv's triangular forward pass)
}

const SB: u32 = ${SB}u;
const CW: u32 = ${CW}u;

${BINDINGS}

var<workgroup> at: array<${T}, ${SB_SB}>;
var<workgroup> xt: array<${T}, ${SB_CW}>;

${ENTRY}
    let dtiles = select(0u, 1u, p.tb > 0u);
    let per = (dtiles + p.ptiles) * p.ctiles;
    let b = group_index / per;
    if (b >= p.batch) {
        return;  // whole workgroups only: the barriers below stay uniform
    }
    let g = (group_index % per) / p.ctiles;
    let c0 = (group_index % p.ctiles) * CW;
    let diag = g < dtiles;
    let n = p.n;
    let k = p.k;
    let kc = p.kc;
    var r0 = p.t0;
    var rend = p.t0 + p.tb;
    if (!diag) {
        r0 = p.p0 + (g - dtiles) * SB;
        rend = p.p1;
    }
    let abase = b * n * n;
    let xbase = b * n * k;
    for (var e = lid; e < SB * SB; e = e + ${WG}u) {
        let r = r0 + e / SB;
        let q = e % SB;
        var v = ${T}(0.0);
        if (r < rend && q < p.jb) {
            v = a[abase + r * n + p.j0 + q];
        }
        at[e] = v;
    }
    for (var e = lid; e < SB * CW; e = e + ${WG}u) {
        let q = e / CW;
        let c = c0 + e % CW;
        var v = ${T}(0.0);
        if (q < p.jb && c < p.kc) {
            v = x[xbase + (p.j0 + q) * k + c];
        }
        xt[e] = v;
    }
    workgroupBarrier();
    let tx = lid % CW;
    let ty = lid / CW;
    let col = c0 + tx;
${BODY}
    workgroupBarrier();
    if (diag) {
${STAGE}
${PUT}
    }
    workgroupBarrier();
    if (diag) {
${FINISH}
    }
    workgroupBarrier();
    if (diag) {
${APPLY}
    } else {
${STORE}
    }
}
