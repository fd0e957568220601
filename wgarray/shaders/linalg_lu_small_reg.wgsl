// The small path's solve / inv with the rows in registers (linalg_factor.SMALL_LU_REG): one workgroup a matrix of the
// stack, WG = SB * SPLIT invocations, invocation (i, q) = (lid % SB, lid / SB) holding columns q CW .. q CW + CW - 1
// of row i of A in v0 .. and columns q KW .. q KW + KW - 1 of row i of B (the right-hand sides, or I for inv) in
// w0 ..; BODY is generated straight-line code (linalg_factor.small_lu_reg_body): n steps of LU with partial
// pivoting applied to [A | B] at once (the forward substitution rides along), then n steps of back substitution,
// then X written once, contiguous (batch, n, K), as linalg_small.wgsl.  The same bindings, parameter block, launch
// shape (one workgroup a matrix) and failure semantics (a zero pivot skipped as getrf does: the status word gets
// the first failing pivot + 1 by atomicMax, that matrix's X is NaN) as linalg_small.wgsl, so its plans and the
// small path's recipes replay it.  Rows never move: row i records the step that took it as pivot (pos) and its
// position in LAPACK's swapped order (lp, for isamax's NaN rule: see BODY).
${HELPERS}

${PARAMS}
const SB: u32 = ${SB}u;
const WG: u32 = ${WG}u;
const SOLVE: bool = ${SOLVE};

${BINDINGS}

var<workgroup> colv: array<${T}, SB>;        // step j: column j of every row (the multipliers' numerators)
var<workgroup> prow: array<${T}, SB>;        // step j: the pivot row of A
var<workgroup> prowb: array<${T}, ${KB}>;    // step j: the pivot row of B
var<workgroup> plp: u32;                     // step j: the pivot row's LAPACK position before the swap
var<workgroup> xrow: array<${T}, ${XB_LEN}>; // back step k (double-buffered): row k of X
var<workgroup> ucol: array<${T}, ${UC_LEN}>; // back step k (double-buffered): column k of U, by row
var<workgroup> red_v: array<${T}, WG>;       // the argmax's (linalg_argmax*.wgsl)
var<workgroup> red_i: array<u32, WG>;

${ARGMAX}

${ENTRY}
    let b = group_index;  // the matrix
    if (b >= p.batch) { return; }  // whole workgroups only: barriers and subgroup operations stay uniform
    wg_argmax_setup(lid);
    let n = p.n;
    let K = p.K;
    let i = lid % SB;
    let q = lid / SB;
    let live = i < n;
    let ri = min(i, n - 1u);  // in range by construction (live rows only use the values)
    let ra = p.a_off + b * p.a_sb + ri * p.a_sr;
    let rb = p.b_off + b * p.b_sb + ri * p.b_sr;
    let kl = max(K, 1u) - 1u;
    var done = false;  // row i is a pivot row already
    var pos = 0u;      // ... of step pos
    var lp = i;        // row i's position in LAPACK's swapped order
    var dg = ${T}(1.0);  // its pivot
    var fail = 0u;     // first failing pivot + 1 (the same in every invocation)
    {
${BODY}
    }
    if (lid == 0u && fail != 0u) {
        atomicMax(&status[0], fail);
    }
}
