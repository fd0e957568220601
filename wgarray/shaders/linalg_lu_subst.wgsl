// One block step of the substitution of solve for few right-hand sides (K <= 32), fused: every workgroup solves
// the diagonal block's triangle for the block's K columns in workgroup memory (redundantly: it is small), the first
// workgroup of a matrix writes that solution, and each workgroup updates 64 rows of the rest with it.
// FORWARD (L unit lower): y[k0..k1] = L_kk^-1 x[k0..k1];  x[i] -= L[i, k0..k1] y[k0..k1] for rows i >= k1.
// BACK (U upper):         x[k0..k1] = U_kk^-1 y[k0..k1];  y[i] -= U[i, k0..k1] x[k0..k1] for rows i < k0.
// The block read (src rows k0..k1) is never written in the same dispatch (the solution goes to the other array, the
// update to other rows), so the workgroups need no order among them.  Two dispatches a block in all instead of a
// triangular solve and a matrix product each way.
struct Params {
    n: u32,
    K: u32,
    k0: u32,
    nb: u32,
    batch: u32,
    groups: u32,  // workgroups a matrix: max(1, ceil(rows to update / WG))
    _pad0: u32,
    _pad1: u32,
}

const FORWARD: bool = ${FORWARD};
const STAGE: u32 = ${STAGE}u;  // the triangle staged (nb <= STAGE) or read from global memory (0)
const WG: u32 = ${WG}u;

${BINDINGS}

var<workgroup> ts: array<${T}, ${TS_LEN}>;
var<workgroup> yb: array<${T}, ${YB_LEN}>;  // the block's rows, nb x K
var<private> wbase: u32;

fn tv(r: u32, c: u32) -> ${T} {  // the factors' diagonal block [r, c]
    if (STAGE > 0u) {
        return ts[r * STAGE + c];
    }
    return w[wbase + (p.k0 + r) * p.n + p.k0 + c];
}

${ENTRY}
    let z = group_index / p.groups;
    let g = group_index % p.groups;
    if (z >= p.batch) {
        return;  // whole workgroups: the barriers below stay uniform
    }
    let n = p.n;
    let K = p.K;
    let k0 = p.k0;
    let nb = p.nb;
    wbase = z * n * n;
    let xbase = z * n * K;
    if (STAGE > 0u) {
        for (var e = lid; e < nb * nb; e = e + WG) {
            ts[(e / nb) * STAGE + e % nb] = w[wbase + (k0 + e / nb) * n + k0 + e % nb];
        }
    }
    for (var e = lid; e < nb * K; e = e + WG) {
        yb[e] = src[xbase + (k0 + e / K) * K + e % K];
    }
    workgroupBarrier();
    // the triangle, one row of the block at a time; every invocation owns elements (i, c) of yb, e = i K + c
    for (var s = 0u; s < nb; s = s + 1u) {
        var r = s;
        if (!FORWARD) {
            r = nb - 1u - s;
            if (lid < K) {
                yb[r * K + lid] = yb[r * K + lid] / tv(r, r);
            }
            workgroupBarrier();
        }
        for (var e = lid; e < nb * K; e = e + WG) {
            let i = e / K;
            if ((FORWARD && i > r) || (!FORWARD && i < r)) {
                yb[e] = yb[e] - tv(i, r) * yb[r * K + e % K];
            }
        }
        workgroupBarrier();
    }
    if (g == 0u) {
        for (var e = lid; e < nb * K; e = e + WG) {
            dst[xbase + (k0 + e / K) * K + e % K] = yb[e];
        }
    }
    // the update: one row an invocation
    var i = g * WG + lid;
    var end = k0;
    if (FORWARD) {
        i = k0 + nb + g * WG + lid;
        end = n;
    }
    if (i >= end) {
        return;
    }
    let row = wbase + i * n + k0;
    for (var c = 0u; c < K; c = c + 1u) {
        var acc = ${T}(0.0);
        for (var q = 0u; q < nb; q = q + 1u) {
            acc = acc + w[row + q] * yb[q * K + c];
        }
        src[xbase + i * K + c] = src[xbase + i * K + c] - acc;
    }
}
