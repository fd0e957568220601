// One Cholesky panel in one dispatch (linalg_factor.CHOL_FUSED): the diagonal block [k0, k0 + nb)^2 and L21 =
// A21 L11^-T.  Each matrix has 1 + GROUPS workgroups; every one loads A11's lower triangle into workgroup memory
// (padded to SB x SB with the identity) and factors it (the same steps, the same values: redundant work on
// otherwise idle cores instead of a second launch), then workgroup g >= 1 solves rows k1 + (g - 1) ROWS .. of L21,
// one row an invocation, by generated straight-line code (the row in registers, the factor read from workgroup
// memory).  A11 is read by every workgroup, so workgroup 0 writes L11 (upper triangle zeroed) into the scratch ws
// and the next panel's workgroup 0 copies it into the matrix (A11 has no readers then); the last panel (GROUPS = 0,
// direct) writes its own directly.  Workgroup 0 records a pivot that is not > 0 in info[b] (first failing pivot + 1;
// the others agree on it).
${HELPERS}

struct Params {
    n: u32,
    k0: u32,
    nb: u32,
    batch: u32,
    groups: u32,  // L21's workgroups a matrix
    prev: u32,  // the previous panel's k0 + 1 (its L11 waits in ws), or 0
    pnb: u32,  // the previous panel's width
    direct: u32,  // 1: L11 straight into the matrix (no L21 rows)
    wss: u32,  // ws elements a matrix
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

const SB: u32 = ${SB}u;
const WG: u32 = ${WG}u;
const ROWS: u32 = ${ROWS}u;

${BINDINGS}

var<workgroup> sh: array<${T}, ${SH_LEN}>;

${ENTRY}
    let tid = lid;
    let b = group_index / (p.groups + 1u);
    let g = group_index % (p.groups + 1u);
    if (b >= p.batch) {
        return;  // whole workgroups only: the barriers below stay uniform
    }
    let n = p.n;
    let k0 = p.k0;
    let nb = p.nb;
    let abase = b * n * n;
    for (var e = tid; e < SB * SB; e = e + WG) {
        let r = e / SB;
        let c = e % SB;
        var v = select(${T}(0.0), ${T}(1.0), r == c);
        if (r < nb && c <= r) {
            v = a[abase + (k0 + r) * n + k0 + c];
        }
        sh[e] = v;
    }
    workgroupBarrier();
    var failed = false;
    for (var j = 0u; j < nb; j = j + 1u) {
        let d = sh[j * SB + j];
        workgroupBarrier();  // everyone has read d before it is overwritten
        if (!(d > ${T}(0.0)) && !failed) {
            failed = true;
            if (tid == 0u && g == 0u && info[b] == 0u) {
                info[b] = k0 + j + 1u;
            }
        }
        let l = wg_sqrt1_${T}(d);
        if (tid == 0u) {
            sh[j * SB + j] = l;
        }
        for (var i = j + 1u + tid; i < nb; i = i + WG) {
            sh[i * SB + j] = sh[i * SB + j] / l;
        }
        workgroupBarrier();
        // the rank-1 update of the lower triangle right of j: invocation (tid / 64, tid % 64) takes columns
        // j + 1 + tid % 64 (+ 64 q), rows from the diagonal down in steps of WG / 64
        for (var c = j + 1u + tid % 64u; c < nb; c = c + 64u) {
            let lc = sh[c * SB + j];
            for (var i = c + tid / 64u; i < nb; i = i + WG / 64u) {
                sh[i * SB + c] = sh[i * SB + c] - sh[i * SB + j] * lc;
            }
        }
        workgroupBarrier();
    }
    if (g == 0u) {
        let wbase = b * p.wss;
        if (p.prev != 0u) {  // the previous panel's L11 into the matrix
            let q0 = p.prev - 1u;
            let pn = p.pnb;
            for (var e = tid; e < pn * pn; e = e + WG) {
                a[abase + (q0 + e / pn) * n + q0 + e % pn] = ws[wbase + e];
            }
            storageBarrier();  // read before this panel's L11 overwrites ws
            workgroupBarrier();
        }
        for (var e = tid; e < nb * nb; e = e + WG) {
            let r = e / nb;
            let c = e % nb;
            let v = select(${T}(0.0), sh[r * SB + c], c <= r);
            if (p.direct != 0u) {
                a[abase + (k0 + r) * n + k0 + c] = v;
            } else {
                ws[wbase + e] = v;
            }
        }
        return;
    }
    // L21: row i solves x L11^T = a_i, i.e. L11 x^T = a_i^T (lower, non-unit), in place
    let i = k0 + nb + (g - 1u) * ROWS + tid;
    if (tid < ROWS && i < n) {
        let rb = abase + i * n + k0;
${BODY}
    }
}
