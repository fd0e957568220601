"""Launch the factorisation kernels of ``wg.linalg`` (``shaders/linalg_*.wgsl``) on contiguous stacks of n x n
matrices in their compute dtype (float32 or float64).

Two regimes (the drivers in ``wgarray/api/linalg.py`` choose between them):

- ``small``: several matrices a workgroup (one invocation a row), each whole in workgroup memory (``small_limit``
  says up to which n the device's workgroup memory holds one): LU with partial pivoting or Cholesky, then the
  call's result (L or U, the solve of A X = B, A^-1, or det) from the same workgroup, read from the input where it
  lies and written straight into the output: one dispatch for a whole stack, no host round trip, and one status
  word for the batch (``shaders/linalg_small.wgsl``).
- the blocked path's pieces.  LU: ``tslu`` (the panel's pivots by tournament pivoting: leaf workgroups over row
  blocks pick candidates, one root workgroup a matrix picks the pivots and writes [L11 \\ U11]), ``lu_finish``
  (L21, the row permutation on the other columns and U12 in one dispatch); Cholesky: ``cholesky_block`` (the
  diagonal block, in workgroup memory where it fits) and ``trsm`` (L21); both: ``update`` (the trailing
  C -= A @ B through the tiled matmul's in-place epilogue).  Substitution: ``swap`` (the pivots on the right-hand
  sides), ``trsm`` + ``update`` a block.

Every matrix has an ``info`` word (u32, zero on entry): the first zero pivot (LU) or non-positive pivot
(Cholesky) plus one, or ``NAN_INFO`` where the blocked LU met a NaN (``nanscan``, ``tslu``: NaN results, no error).
``det`` turns LU factors into (det, sign, log|det|); ``nanfill`` writes NaN into the matrices whose info is set
(``chol_finish``: and zeroes the upper triangle of the others' Cholesky factors).

Every kernel goes through ``launch``: its bindings declared once (``_kernel``), the shared entry prologue, and
``launch.dispatch`` with a 1-D workgroup count (matrices, or column groups times matrices: no grid limit on the
stack's size).  A kernel's compile key holds every module constant its WGSL depends on (``WG``, ``PANEL_WG``,
``TSLU_IDS``, ``NAN_INFO``, ...): a constant changed at run time builds a new kernel, never reuses a stale one.
"""
from __future__ import annotations

import functools
import math

from ..alloc.mirror import Mirror
from ..dtypes import DType, uint32
from . import launch, layout, matmul as _mm, source
from .linalg_spectral import element_constants

NAN_INFO = 0x80000000  # the info word of a blocked LU that met a NaN (linalg_lu_tslu.wgsl): det NaN, NaN results, no
# LinAlgError (a NaN the pivot search passed over must not come out as a zero pivot's det 0 or a finite answer)
PANEL_WG = 256  # invocations of a panel workgroup (tournament leaves and root, Cholesky's diagonal block)
WG = 64  # invocations a workgroup of the column-parallel kernels (trsm, swap, det, nanfill)
SMALL_MAX = 64  # the largest n the small path takes even where workgroup memory would hold more
SMALL_GROUP = 64  # invocations of a small-path workgroup at most (64 / R matrices of R rows)


def _bucket(n: int) -> int:
    """Workgroup arrays are sized for n rounded up to a multiple of 16 (few pipelines, any n)."""
    return max(16, -(-n // 16) * 16)


def _small_rows(n: int) -> tuple[int, int]:
    """(nb, R) of the small path for order n: workgroup arrays sized for nb x nb (8, 16, 32, 48 or 64: few
    pipelines, any n) and R invocations a matrix, one a row (the power of two >= nb)."""
    nb = 8 if n <= 8 else -(-n // 16) * 16
    return nb, 1 << (nb - 1).bit_length()


def _matrix_stride(n: int, r: int) -> int:
    """Workgroup-memory elements from one matrix to the next: n * n, padded below 32 rows so that the matrices one
    32-wide subgroup handles start R banks apart (their invocations then read and write distinct banks)."""
    return n * n if r >= 32 else n * n + (r - n * n) % 32


def _shared_bytes(n: int, d: DType, per_group: int = 1) -> int:
    """Workgroup memory of a small-path workgroup of ``per_group`` matrices of order n: the matrices, the pivot
    order (one u32 a row) and a failure word each."""
    nb, r = _small_rows(n)
    return per_group * (_matrix_stride(nb, r) * d.device_itemsize + r * 4 + 4)


def small_limit(device, d: DType) -> int:
    """The largest n whose matrix fits the device's workgroup memory, at most SMALL_MAX: lavapipe's 32 KiB hold
    64 x 64 float32 / 48 x 48 float64, WebGPU's 16 KiB floor 48 / 32."""
    limit = device.properties.limits.max_compute_workgroup_storage_size
    n = SMALL_MAX
    while n > 0 and _shared_bytes(n, d) > limit:
        n -= 16 if n % 16 == 0 else n % 16
    return n


def _nan(T: str) -> str:
    return "bitcast<f32>(0x7fc00000u)" if T == "f32" else "f64(bitcast<f32>(0x7fc00000u))"


def _neg_inf(T: str) -> str:
    return "bitcast<f32>(0xff800000u)" if T == "f32" else "f64(bitcast<f32>(0xff800000u))"


def _inf(T: str) -> str:
    return "bitcast<f32>(0x7f800000u)" if T == "f32" else "f64(bitcast<f32>(0x7f800000u))"


_ACCESS: dict[tuple, tuple[tuple[str, ...], int]] = {}  # key -> the kernel's bindings' access modes and the last
# read_write binding's index (no Kernel built on a hit)


def _run(device, key: tuple, build, arrays: list, params: bytes, workgroups: int,
         whole: bool = False) -> None:
    """Dispatch ``workgroups`` of the kernel ``build()`` returns (built and compiled once under ``key``: the
    launches that repeat build nothing) over the arrays' buffers: read bindings from ``buffer()``, written ones
    from ``buffer_for_write`` (``whole``: the last written array is overwritten throughout, so its host copy need
    not be uploaded first)."""
    hit = _ACCESS.get(key)
    if hit is None:
        access = tuple(b.access for b in build().bindings)
        hit = _ACCESS[key] = access, max(i for i, m in enumerate(access) if m == "read_write")
    access, last = hit
    compiled = launch.compile(device, key, build)
    buffers = [a.mirror.buffer() if m == "read" else a.mirror.buffer_for_write(whole=whole and i == last)
               for i, (a, m) in enumerate(zip(arrays, access))]
    launch.dispatch(device, compiled, buffers, params, workgroups=workgroups)


def _argmax(T: str, sg: bool = False, final: bool = False) -> str:
    """The pivot search's workgroup reduction (the tournament shader's): a tree, or (``sg``) by subgroup operations
    (``final``: the subgroups' winners too, TSLU_SG_FINAL)."""
    if sg:
        return source.render("linalg_argmax_sg.wgsl", T=T, SG_FINAL="true" if final else "false")
    return source.render("linalg_argmax.wgsl", T=T)


# -- factorisations -----------------------------------------------------------------------------------------------
_SMALL_OPS = ("cholesky", "solve", "inv", "det")


def small(device, op: str, a, out, status, *, b=None, upper: bool = False) -> tuple | None:
    """One dispatch of the small path over the (batch, n, n) view ``a`` (any offset, non-negative strides; the
    batch one stride): ``op`` "cholesky" (out: contiguous L, or U = L^T with ``upper``), "solve" (X = A^-1 B for
    the (batch, n, K) view ``b``; out contiguous (batch, n, K)), "inv" (out (batch, n, n)) or "det" (out
    (batch, 3): det, sign, log|det|).  Failed matrices come out NaN (det 0, sign 0, log -inf); the u32 word
    ``status`` (zero on entry where it is read) gets the batch's largest first failing pivot + 1.  Returns the
    launch (compiled kernel, parameter block, grid) for ``small_again`` (None where nothing was launched)."""
    batch, n, _ = a.shape
    if batch * n == 0:
        return None
    plan = small_plan(device, op, a, out.dtype, b=b, upper=upper)
    small_again(device, plan, a.mirror, b.mirror if b is not None else None, out.mirror, status.mirror)
    return plan


def small_again(device, plan: tuple, a: Mirror, b: Mirror | None, out: Mirror, status: Mirror) -> None:
    """``small``'s launch ``plan`` (from ``small_plan``) on these bases: the same views of other buffers (the
    callers' recipes: ``api/linalg/factor.py``'s ``_fast``)."""
    compiled, params, grid = plan
    buffers = [a.buffer(), out.buffer_for_write(whole=True), status.buffer_for_write()] if b is None else [
        a.buffer(), b.buffer(), out.buffer_for_write(whole=True), status.buffer_for_write()]
    launch.dispatch(device, compiled, buffers, params, grid=grid)


def small_plan(device, op: str, a, d: DType, *, b=None, upper: bool = False) -> tuple:
    """(compiled kernel, parameter block, grid) of ``small``'s launch for the non-empty view ``a`` (and ``b``) with
    output dtype ``d``: a function of the views' layouts, the device, SMALL_GROUP and (cholesky) ``small_chol_key``
    only."""
    batch, n, _ = a.shape
    if op not in _SMALL_OPS:
        raise ValueError(f"unknown small-path operation {op!r}")
    if op == "cholesky" and small_chol_reg(device, n):
        return _small_chol_reg_plan(device, a, d, upper)
    if op in ("solve", "inv") and small_lu_reg(device, n, b.shape[-1] if op == "solve" else n):
        return _small_lu_reg_plan(device, op, a, d, b)
    T = d.wgsl
    nb, r = _small_rows(n)
    per_group = max(1, min(SMALL_GROUP // r,
                           device.properties.limits.max_compute_workgroup_storage_size // _shared_bytes(n, d)))
    lu = op != "cholesky"
    solve = op == "solve"
    key = ("linalg_small", d.name, op, nb, per_group)

    def build() -> launch.Kernel:
        flag = {True: "true", False: "false"}
        bindings = [launch.read("a", f"array<{T}>")]
        if solve:
            bindings.append(launch.read("bm", f"array<{T}>"))
        bindings += [launch.write("out", f"array<{T}>"), launch.write("status", "array<atomic<u32>>")]
        return launch.Kernel("linalg_small.wgsl", tuple(bindings), dict(
            HELPERS=source.helpers([d]), PARAMS=source.render("linalg_small_params.wgsl"), T=T, CHOL=flag[not lu],
            SOLVE=flag[solve], INV=flag[op == "inv"], DET=flag[op == "det"], R=r, M=per_group, NB=nb,
            SH_LEN=per_group * _matrix_stride(nb, r), PV_LEN=per_group * r if lu else 1, NAN=_nan(T),
            NEG_INF=_neg_inf(T),
            B_AT=("bm[p.b_off + b * p.b_sb + row * p.b_sr + c * p.b_sc]" if solve
                  else f"select({T}(0.0), {T}(1.0), row == c)")), workgroup=per_group * r)

    compiled = launch.compile(device, key, build)
    if solve:
        kb, (bsb, bsr, bsc), boff = b.shape[-1], b.strides, b.offset
    else:
        kb, bsb, bsr, bsc, boff = (n if op == "inv" else 0), 0, 0, 0, 0
    asb, asr, asc = a.strides
    params = layout.u32s(n, batch, kb, _matrix_stride(n, r), a.offset, asb, asr, asc, boff, bsb, bsr, bsc,
                         int(upper), 0, 0, 0)
    return compiled, params, launch.grid_for(device, workgroups=-(-batch // per_group))


SMALL_CHOL_REG: bool | None = None  # the small path's Cholesky of order SMALL_CHOL_REG_MIN .. 64 through cholesky_inv's
# register code (``_small_chol_reg_plan``, linalg_chol_small_reg.wgsl: one workgroup a matrix, its rows in registers,
# one barrier a column, SMALL_CHOL_REG_SPLIT invocations a row) instead of linalg_small.wgsl's CHOL (workgroup memory,
# an invocation a row, every update a read-modify-write there); the same launch, bindings and status word, so the
# small path's recipes replay it.  None: on GPUs (``_reg_default``), off on CPU adapters.  H100, 2026-12-06 sixth
# session (`python -m benchmarks.smallchol_sweep`, stream of 20 "nan" calls against torch's cholesky_ex): 1,000 x 16^2
# 1.21x -> 1.67x torch (split 2), 32^2 0.70x -> 1.28x (1.35x split 1, 1.28x split 4), 64^2 0.22x -> 1.21x (1.22x split 4)
SMALL_CHOL_REG_MIN = 16  # the smallest order SMALL_CHOL_REG takes (8 x 8: the small kernel already 2x torch)
SMALL_CHOL_REG_SPLIT: int | None = 2  # invocations a row of its workgroup (1, 2, 4; None: CHOL_INV_SPLIT, the
# blocked path's; 2: within noise of the best at each size measured above): `python -m benchmarks.smallchol_sweep`


def small_chol_reg(device, n: int) -> bool:
    """Whether the small path's Cholesky of order n takes the register kernel (SMALL_CHOL_REG)."""
    on = _reg_default(device) if SMALL_CHOL_REG is None else SMALL_CHOL_REG
    return bool(on) and SMALL_CHOL_REG_MIN <= n <= 64


def small_chol_key(device) -> tuple:
    """What the small path's Cholesky plan depends on besides the operand's layout (part of its recipe key)."""
    return (SMALL_CHOL_REG, SMALL_CHOL_REG_MIN, SMALL_CHOL_REG_SPLIT, CHOL_INV_RECIP, CHOL_INV_SQRT,
            CHOL_INV_UNCHECKED, CHOL_INV_SPLIT, CHOL_INV_PART, SMALL_CHOL_REG is None and _reg_default(device))


def _small_chol_reg_plan(device, a, d: DType, upper: bool) -> tuple:
    """``small_plan`` of the small path's Cholesky by the register kernel (SMALL_CHOL_REG): one workgroup a matrix,
    the whole matrix cholesky_inv's diagonal block (k0 = 0, nb = n, no inverse; its generated body with
    ``io="small"``: the same arithmetic, bit for bit), read in place, written into the contiguous output."""
    batch, n, _ = a.shape
    T = d.wgsl
    side = _bucket(n)
    opts = _chol_inv_opts()
    if SMALL_CHOL_REG_SPLIT is not None:
        opts = opts[:6] + (int(SMALL_CHOL_REG_SPLIT),)
    split = _chol_inv_split(side, opts)
    while split > 1 and side * split > device.properties.limits.max_compute_invocations_per_workgroup:
        split //= 2

    def build() -> launch.Kernel:
        factor = (chol_inv_split_body(T, side, split, opts, io="small") if split > 1
                  else chol_inv_factor_body(T, side, opts, io="small"))
        return launch.Kernel("linalg_chol_small_reg.wgsl", (
            launch.read("a", f"array<{T}>"), launch.write("out", f"array<{T}>"),
            launch.write("status", "array<atomic<u32>>")), dict(
                HELPERS=source.helpers([d]), T=T, SB=side, COL_LEN=2 * side, FACTOR=factor), workgroup=side * split)
    key = ("linalg_chol_small_reg", d.name, side, split, opts[1], opts[2], opts[5])
    compiled = launch.compile(device, key, build, checks=not CHOL_INV_UNCHECKED)
    asb, asr, asc = a.strides
    params = layout.u32s(n, batch, a.offset, asb, asr, asc, int(upper), 0)
    return compiled, params, launch.grid_for(device, workgroups=batch)


SMALL_LU_REG: bool | None = None  # the small path's solve / inv of order SMALL_LU_REG_MIN .. 64 (at most
# SMALL_LU_REG_KMAX right-hand sides) by the register kernel (``_small_lu_reg_plan``, linalg_lu_small_reg.wgsl: one
# workgroup a matrix, rows of [A | B] in registers, SMALL_LU_REG_SPLIT invocations a row, a parallel argmax, two
# barriers a step) instead of linalg_small.wgsl's LU (an invocation a row, every invocation scanning every row for
# the pivot, the matrix in workgroup memory); the same launch, bindings, parameters and status word, so the small
# path's recipes replay it.  None: on GPUs (``_reg_default``), off on CPU adapters.  H200, 2026-12-06 sixth session
# (`python -m benchmarks.smalllu_sweep`, a stream of 20 "nan" calls against torch's *_ex; off -> split 2): solve / inv
# 1,000 x 16^2 0.78x / 0.94x -> 1.66x / 2.07x torch, 32^2 1.04x / 1.29x -> 4.73x / 4.34x, one 64^2 0.17x / 0.19x ->
# 1.54x / 1.44x, 1,000 x 64^2 0.32x / 0.41x -> 5.42x / 3.67x (split 1: 6.46x / 2.66x; split 4 not run)
SMALL_LU_REG_MIN = 16  # the smallest order SMALL_LU_REG takes
SMALL_LU_REG_SPLIT = 2  # invocations a row (1, 2, 4): each holds a slice of the row's columns of A and of B
SMALL_LU_REG_KMAX = 64  # the most right-hand sides the register kernel holds (solve; more: linalg_small.wgsl)


def _pow2(n: int) -> int:
    return 1 << max(0, n - 1).bit_length()


def small_lu_reg(device, n: int, k: int) -> bool:
    """Whether the small path's solve (k right-hand sides) / inv (k = n) of order n takes the register kernel."""
    on = _reg_default(device) if SMALL_LU_REG is None else SMALL_LU_REG
    return bool(on) and SMALL_LU_REG_MIN <= n <= 64 and 1 <= k <= min(SMALL_LU_REG_KMAX, 64)


def small_lu_key(device) -> tuple:
    """What the small path's solve / inv plan depends on besides the operands' layouts (part of its recipe key)."""
    return (SMALL_LU_REG, SMALL_LU_REG_MIN, SMALL_LU_REG_SPLIT, SMALL_LU_REG_KMAX, TSLU_SUBGROUP, TSLU_SG_FINAL,
            SMALL_LU_REG is None and _reg_default(device))


def small_lu_reg_body(T: str, sb: int, split: int, kb: int, solve: bool) -> str:
    """linalg_lu_small_reg.wgsl's BODY: invocation (i, q) holds columns q cw .. of row i of A (cw = sb / split) in
    v0 .. and columns q kw .. of row i of B (kw = kb / split) in w0 ...

    LU with partial pivoting on [A | B] (B's rows take the same updates as A's: the forward substitution L y = P b
    done on the way) and then a column-oriented back substitution U x = y, rather than Gauss-Jordan: GJ would save
    the n back steps but its residual ||A x - b|| is only bounded by cond(A) times LU's (Peters & Wilkinson), and the
    small path promises getrs's backward error (tests/api/test_linalg_factor.py: C n eps ||A|| ||x||) whatever the
    conditioning.  A forward step: the owner part of column j hands each row's value on (colv) and keys the argmax;
    wg_argmax (one barrier) names the pivot row; it hands its row on (prow, prowb); a barrier; every remaining row
    subtracts its multiple.  Columns <= j of the remaining rows take garbage (no test a column): nothing reads them
    again.  A back step k: the row of step k divides by its pivot and hands its X row on, the owner part of column
    k hands on U's column k (double-buffered: one barrier a step); rows of earlier steps subtract.  Steps past the
    bucket's half are guarded by k < n (uniform: a parameter).

    The pivot: getrf's, the first row of largest |a| among the rows not yet pivots; a NaN wins only in the row at
    LAPACK's position j (isamax's first element; lp tracks the swaps), as linalg_small.wgsl: its key +inf and its
    index i (the others i + SB: it wins ties with an inf), another NaN's key -0.5 (below every |a|)."""
    cw, kw = sb // split, -(-kb // split)
    inf = _inf(T)
    bload = ("select({T}(0.0), bm[rb + min(c, kl) * p.b_sc], live && c < K)" if solve
             else "select({T}(0.0), {T}(1.0), live && i == c)")
    L = []
    for m in range(cw):
        L += [f"var v{m} = {T}(0.0);", "{", f"    let c = q * {cw}u + {m}u;",
              f"    v{m} = select({T}(0.0), a[ra + min(c, n - 1u) * p.a_sc], live && c < n);", "}"]
    for m in range(kw):
        L += [f"var w{m} = {T}(0.0);", "{", f"    let c = q * {kw}u + {m}u;",
              f"    w{m} = {bload.format(T=T)};", "}"]
    half = sb // 2

    def guard(j: int) -> tuple[str, str]:
        return (f"if ({j}u < n) {{", "}") if j >= half else ("{", "}")
    for j in range(sb):
        qj, mj = divmod(j, cw)
        ms = [m for m in range(cw) if (split - 1) * cw + m > j]  # registers holding a column > j in some part
        opn, cls = guard(j)
        L += [f"// forward step {j}", opn,
              f"    let own = q == {qj}u && live && !done;",
              f"    if (q == {qj}u) {{ colv[i] = v{mj}; }}",
              f"    let nan = wg_isnan_{T}(v{mj});",
              f"    let sp = own && nan && lp == {j}u;",
              f"    let key = select({T}(-1.0), select(abs(v{mj}), select({T}(-0.5), {inf}, sp), nan), own);",
              "    let pk = wg_argmax(lid, key, select(i + SB, i, sp)) % SB;",
              "    let d = colv[pk];",
              "    let ai = colv[i];",
              f"    fail = select(fail, {j + 1}u, fail == 0u && d == {T}(0.0));",
              "    let piv = live && pk == i;",
              "    if (piv) {"]
        L += [f"        prow[q * {cw}u + {m}u] = v{m};" for m in ms]
        L += [f"        prowb[q * {kw}u + {m}u] = w{m};" for m in range(kw)]
        L += ["        if (q == 0u) { plp = lp; }", "    }", "    workgroupBarrier();",
              "    if (live && !done && !piv) {",
              f"        let l = select(ai / d, ai, d == {T}(0.0));"]
        L += [f"        v{m} = v{m} - l * prow[q * {cw}u + {m}u];" for m in ms]
        L += [f"        w{m} = w{m} - l * prowb[q * {kw}u + {m}u];" for m in range(kw)]
        L += [f"        lp = select(lp, plp, lp == {j}u);", "    }",
              f"    if (piv) {{ done = true; pos = {j}u; dg = d; lp = {j}u; }}", cls]
    for k in reversed(range(sb)):
        qk, mk = divmod(k, cw)
        h = k % 2
        opn, cls = guard(k)
        L += [f"// back step {k}", opn, f"    if (live && pos == {k}u) {{"]
        L += [f"        w{m} = w{m} / dg; xrow[{h * kb}u + q * {kw}u + {m}u] = w{m};" for m in range(kw)]
        L += ["    }", f"    if (q == {qk}u) {{ ucol[{h * sb}u + i] = v{mk}; }}", "    workgroupBarrier();",
              f"    if (live && pos < {k}u) {{", f"        let u = ucol[{h * sb}u + i];"]
        L += [f"        w{m} = w{m} - u * xrow[{h * kb}u + q * {kw}u + {m}u];" for m in range(kw)]
        L += ["    }", cls]
    L += ["if (live) {", "    let ob = b * n * K + pos * K;"]
    nan = _nan(T)
    L += [f"    if (q * {kw}u + {m}u < K) {{ out[ob + q * {kw}u + {m}u] = select(w{m}, {nan}, fail != 0u); }}"
          for m in range(kw)]
    L.append("}")
    return "\n".join("        " + x for x in L)


def _small_lu_reg_plan(device, op: str, a, d: DType, b) -> tuple:
    """``small_plan`` of the small path's solve / inv by the register kernel (SMALL_LU_REG): one workgroup a matrix
    (linalg_lu_small_reg.wgsl), the same bindings and parameter block as linalg_small.wgsl."""
    batch, n, _ = a.shape
    T = d.wgsl
    solve = op == "solve"
    k = b.shape[-1] if solve else n
    side = max(16, _pow2(n))
    kb = side if not solve else max(_pow2(k), int(SMALL_LU_REG_SPLIT))
    split = int(SMALL_LU_REG_SPLIT)
    while split > 1 and side * split > device.properties.limits.max_compute_invocations_per_workgroup:
        split //= 2
    kb = max(kb, split)
    sg = tslu_subgroup(device, True)
    fin = sg and TSLU_SG_FINAL

    def build() -> launch.Kernel:
        bindings = [launch.read("a", f"array<{T}>")]
        if solve:
            bindings.append(launch.read("bm", f"array<{T}>"))
        bindings += [launch.write("out", f"array<{T}>"), launch.write("status", "array<atomic<u32>>")]
        return launch.Kernel("linalg_lu_small_reg.wgsl", tuple(bindings), dict(
            HELPERS=source.helpers([d]), PARAMS=source.render("linalg_small_params.wgsl"), T=T, SB=side, KB=kb,
            XB_LEN=2 * kb, UC_LEN=2 * side,
            SOLVE="true" if solve else "false", ARGMAX=_argmax(T, sg, fin),
            BODY=small_lu_reg_body(T, side, split, kb, solve)), workgroup=side * split)
    key = ("linalg_lu_small_reg", d.name, op, side, split, kb, sg, fin)
    compiled = launch.compile(device, key, build, checks=False)
    if solve:
        (bsb, bsr, bsc), boff = b.strides, b.offset
    else:
        bsb, bsr, bsc, boff = 0, 0, 0, 0
    asb, asr, asc = a.strides
    params = layout.u32s(n, batch, k, 0, a.offset, asb, asr, asc, boff, bsb, bsr, bsc, 0, 0, 0, 0)
    return compiled, params, launch.grid_for(device, workgroups=batch)


def cholesky_block(device, a, info, n: int, batch: int, k0: int, nb: int) -> None:
    """Factor in place the diagonal block [k0, k0 + nb)^2 of every matrix of the contiguous stack ``a`` (Cholesky,
    one workgroup a matrix; the rows below are a trsm) and zero the block's upper triangle (the rest of the upper
    triangle is ``chol_finish``'s, once at the end): staged in workgroup memory where the nb x nb block fits
    it, else in global memory (``linalg_chol_block.wgsl``)."""
    d = a.dtype
    T = d.wgsl
    bucket = _bucket(nb)
    limit = device.properties.limits.max_compute_workgroup_storage_size
    staged = bucket * bucket * d.device_itemsize + 16 <= limit

    def build() -> launch.Kernel:
        return launch.Kernel("linalg_chol_block.wgsl", (launch.write("a", f"array<{T}>"),
                                                        launch.write("info", "array<u32>")),
                             dict(HELPERS=source.helpers([d]), T=T, STAGED="true" if staged else "false",
                                  SH_LEN=bucket * bucket if staged else 1), workgroup=PANEL_WG)
    params = layout.u32s(n, k0, nb, k0 + nb, batch, 0, 0, 0)
    _run(device, ("linalg_chol_block", d.name, staged, bucket if staged else 0, PANEL_WG), build, [a, info], params,
         batch)


CHOL_FUSED: bool | None = None  # one launch a Cholesky panel: the diagonal block and L21 (linalg_chol_panel.wgsl);
# None: on GPUs (H100, 2026-12-06: cholesky 4096 11.75 -> 9.87 ms, 1024 4.23 -> 3.28), off on CPU adapters, where
# every workgroup's copy of the diagonal block's factorisation is not free (lavapipe 16 -> 25 ms at n = 128)
CHOL_ROWS = 64  # L21 rows a workgroup of the fused panel


def chol_fused(device, d: DType, width: int) -> bool:
    """Whether ``cholesky_panel`` takes panels of ``width`` columns in ``d`` (CHOL_FUSED on, or None on a GPU;
    width <= 64 and the padded block in workgroup memory)."""
    side = _bucket(width)
    fused = _reg_default(device) if CHOL_FUSED is None else CHOL_FUSED
    return (fused and width <= 64 and
            side * side * d.device_itemsize <= device.properties.limits.max_compute_workgroup_storage_size)


def cholesky_panel(device, a, info, ws: Mirror, n: int, batch: int, k0: int, nb: int, prev: int, pnb: int) -> None:
    """One Cholesky panel of every matrix of the contiguous stack ``a`` in one dispatch (``linalg_chol_panel.wgsl``):
    the diagonal block [k0, k0 + nb)^2 (into ``ws``, or into the matrix for the last panel) and L21 = A21 L11^-T in
    place; first the previous panel's L11 (at ``prev``, ``pnb`` wide; prev < 0: none) from ``ws`` into the
    matrix.  ``ws``: batch x width^2 elements."""
    if not 1 <= CHOL_ROWS <= PANEL_WG:  # a row an invocation: more rows than invocations would go unsolved
        raise ValueError(f"CHOL_ROWS = {CHOL_ROWS}: need 1..{PANEL_WG} (a row an invocation)")
    d = a.dtype
    T = d.wgsl
    side = _bucket(nb)
    groups = math.ceil((n - k0 - nb) / CHOL_ROWS)

    def build() -> launch.Kernel:
        body = reg_solve(T, side, True, False, f"sh[{{r}}u * {side}u + {{q}}u]",
                         f"select({T}(0.0), a[rb + min({{r}}u, nb - 1u)], {{r}}u < nb)",
                         "if ({r}u < nb) {{ a[rb + {r}u] = v{r}; }}")
        return launch.Kernel("linalg_chol_panel.wgsl", (launch.write("a", f"array<{T}>"),
                                                        launch.write("info", "array<u32>"),
                                                        launch.write("ws", f"array<{T}>")),
                             dict(HELPERS=source.helpers([d]), T=T, SB=side, ROWS=CHOL_ROWS, SH_LEN=side * side,
                                  BODY=body), workgroup=PANEL_WG)
    params = layout.u32s(n, k0, nb, batch, groups, prev + 1, pnb, int(groups == 0), ws.size // max(batch, 1),
                                 0, 0, 0)
    _run_mirrors(device, ("linalg_chol_panel", d.name, side, CHOL_ROWS, PANEL_WG), build, [a.mirror, info.mirror, ws], params,
                 batch * (groups + 1))


CHOL_INV: bool | None = None  # Cholesky's panel as two launches a panel instead of one (trsm as GEMM, issue 12 /
# 17 row 3): ``cholesky_inv`` (one workgroup a matrix: the diagonal block factored with its rows in registers, one
# barrier a column, and W = L11^-T by a register solve a column) and ``cholesky_apply`` (L21 = A21 W in place, a
# small GEMM over many workgroups; both one launch with CHOL_INV_FUSE_APPLY), instead of the fused panel whose every
# workgroup factors the block again.  Takes precedence over CHOL_FUSED.  None: on GPUs at every order of the blocked
# path (from factor.BIG_N on with factor.CHOL_BLOCK_BIG-wide panels of CHOL_INV_INNER_BIG-wide blocks), off on CPU
# adapters (lavapipe compiles the 64-row code slowly).  H100 2026-12-06 sixth session (`python -m
# benchmarks.linbig_sweep --sizes 2048 1024 512 256 128 --ops cholesky --variants default chol_inv_all`, with the
# fused launch): 1024 1.82 -> 0.97 ms, 512 1.14 -> 0.62, 256 0.69 -> 0.44, 128 0.48 -> 0.36 against the fused panel
# (until then the default below BIG_N; the fifth session's 1024 had them equal, 2.56 / 2.57, without the fused launch)
CHOL_APPLY_ROWS = 64  # rows of L21 a workgroup of ``cholesky_apply`` at most (16, 32 or 64; fewer where memory is short)


def _chol_apply_rows(device, d: DType, side: int) -> int:
    """Rows a ``cholesky_apply`` workgroup takes: the largest of CHOL_APPLY_ROWS, 32, 16 whose tile and W (side x side)
    fit the device's workgroup memory and that the PANEL_WG invocations' grid covers (16 columns of invocations,
    PANEL_WG / 16 rows of them, each a whole number of rows: ``chol_apply_body``), or 0."""
    limit = device.properties.limits.max_compute_workgroup_storage_size
    ty = PANEL_WG // 16
    for r in (64, 32, 16):
        if (r <= CHOL_APPLY_ROWS and (r + side) * side * d.device_itemsize <= limit and PANEL_WG % 16 == 0
                and 1 <= ty <= r and r % ty == 0):
            return r
    return 0


CHOL_INV_INNER = 64  # CHOL_INV's diagonal blocks at most this wide (<= 64): a wider panel (BLOCK_BIG = 128) is
# factored as sub-panels of this width (each: cholesky_inv, cholesky_apply down to the last row, and the update of
# the panel's columns right of it), then one trailing update with the panel's whole width (K = 128: fewer, larger
# launches of the matmul)
CHOL_INV_INNER_BIG = 64  # ... and for n >= factor.BIG_N (the H100 at 4096, 2026-12-06 fifth session: 64-wide blocks
# with SPLIT = 4 and the lean code 22.7 us a launch x 64 against 32-wide 11.5 us x 128: `benchmarks/cholsg_sweep.py`)


def chol_inv_inner(big: bool) -> int:
    """The width of CHOL_INV's diagonal blocks: CHOL_INV_INNER_BIG for n >= factor.BIG_N (``big``), else
    CHOL_INV_INNER."""
    return CHOL_INV_INNER_BIG if big else CHOL_INV_INNER


def chol_inv(device, d: DType, width: int, big: bool = False) -> bool:
    """Whether CHOL_INV takes panels of ``width`` columns in ``d`` for an order n (``big``: n >= factor.BIG_N): on
    (None: on GPUs), and both kernels' workgroup memory fits the device for the diagonal blocks
    (min(width, chol_inv_inner(big)) wide, at most 64; float64 64-wide on 32 KiB devices does not fit: the other
    paths take it)."""
    inner = chol_inv_inner(big)
    side = _bucket(min(width, inner))
    limit = device.properties.limits.max_compute_workgroup_storage_size
    on = _reg_default(device) if CHOL_INV is None else bool(CHOL_INV)
    return (on and 1 <= inner <= 64 and (side + 2) * side * d.device_itemsize <= limit
            and _chol_apply_rows(device, d, side) > 0)


# cholesky_inv's code generator's knobs (cholsg: the diagonal-block kernel was ~35 us a launch on an H100 where its
# instructions say well under 10; benchmarks/cholsg_sweep.py times each setting alone and linbig_sweep the whole call).
# H100, 2026-12-06 fifth session (cholsg_sweep, 32-wide blocks): 33.7 us a launch as it was; the fast square root
# alone 13.4 (the correctly rounded one was most of the kernel); the lean set (recip + fast + flag + unchecked) 13.4;
# + SPLIT = 4 11.5; GJ alone 27.9.  The defaults are the lean set and SPLIT = 4 (cholesky 4096 8.55 -> 5.37 ms at
# 32-wide blocks, linbig_sweep)
CHOL_INV_GJ = False  # the inverse carried through the factor's own steps (Gauss-Jordan on [A | I], E's columns in
# registers: invocation c holds column c of E, updated from the same broadcast column as its row of A), so W = L11^-T
# needs no second chain of SB dependent steps (nor L11 staged in workgroup memory and another barrier)
CHOL_INV_RECIP = True  # one reciprocal a step (1 / d_j, 1 / sqrt(d_j)) and multiplications instead of divisions
CHOL_INV_SQRT = "fast"  # the pivot's square root: "cr" the correctly rounded wg_sqrtcr (integer code with loops and
# branches on every step), "fast" the device's sqrt with one Newton correction (fma; within an ulp); float64: sqrt
CHOL_INV_FLAG = True  # a failing pivot kept in a register (branch-free selects) and info written once at the end,
# instead of a branch on every step
CHOL_INV_UNCHECKED = True  # the kernel built without naga's runtime checks (every index in range by construction:
# bounds clamps on each global access and loop bounding in wg_sqrtcr's loops gone), as matmul.UNCHECKED
CHOL_INV_SPLIT = 4  # invocations a row of the block (> 1: SB * SPLIT invocations, each SB / SPLIT columns of its row
# and as many rows of E's column: shorter FMA chains a step, one warp a part; implies GJ; ``chol_inv_split_body``)
CHOL_INV_PART: str | None = None  # timing only (benchmarks/cholsg_sweep.py; answers wrong): "factor" (no inverse),
# "inverse" (no factor: the block taken as L11 as it lies)


def _chol_inv_opts() -> tuple:
    """The generator's knobs as a tuple (part of the kernel's compile key)."""
    return (bool(CHOL_INV_GJ), bool(CHOL_INV_RECIP), CHOL_INV_SQRT, bool(CHOL_INV_FLAG), CHOL_INV_PART,
            bool(CHOL_INV_UNCHECKED), int(CHOL_INV_SPLIT))


def _chol_inv_split(side: int, opts: tuple) -> int:
    """Invocations a row of cholesky_inv's workgroup for a block of ``side``: CHOL_INV_SPLIT where it divides side
    (and not for the timing-only inverse half), else 1."""
    split = opts[6]
    return split if split > 1 and side % split == 0 and opts[4] != "inverse" else 1


def _sqrt_lines(T: str, j: int, fast: bool) -> list[str]:
    """WGSL defining s{j} = sqrt(d{j}): correctly rounded, or (``fast``) within an ulp (wg_sqrt1: float32's builtin
    and one Newton step on the fma residual)."""
    return [f"let s{j} = wg_sqrt{'1' if fast else 'cr'}_{T}(d{j});"]


def _chol_io(T: str, io: str) -> dict[str, str]:
    """The factor bodies' WGSL for their three uses (``io``): ``load`` of row i's column {c}, ``store`` of value {v}
    there, the failure ``report`` (flag: once, at the end) and ``who`` (the condition before the per-step report
    without flag), ``w_at`` (W's element {idx} of the matrix: row i * SB + column) and ``w_if`` (when W is
    stored).  "inv" (cholesky_inv): in place in the stack's block, W into ``ws``.  "small"
    (linalg_chol_small_reg.wgsl): read from the strided input and written to the output (U = L^T by ``ob`` /
    ``oc``), NaN for a failed matrix, the failure into the batch's status word; no W.  "fused"
    (linalg_chol_inv_apply.wgsl, ``cholesky_inv_apply``): only workgroup g = 0 stores L11 (into the matrix where
    ``p.direct``, else into its scratch slot ``lb``) and reports; the others keep W in workgroup memory ``wt``."""
    if io == "small":
        return dict(load="a[ra + min({c}, nb - 1u) * p.a_sc]",
                    store="if (live && {c} < nb) {{ out[ob + {c} * oc] = select({v}, " + _nan(T) + ", fail != 0u); }}",
                    report="if (lid == 0u && fail != 0u) { atomicMax(&status[0], fail); }", who="", w_at="", w_if="")
    if io == "fused":
        return dict(load="a[rb + min({c}, nb - 1u)]",
                    store="if (g == 0u && live && {c} < nb) {{ if (p.direct != 0u) {{ a[rb + {c}] = {v}; }} "
                          "else {{ ws[lb + {c}] = {v}; }} }}",
                    report="if (g == 0u && lid == 0u && fail != 0u && info[b] == 0u) { info[b] = fail; }",
                    who="g == 0u && ", w_at="wt[{idx}]", w_if="g != 0u")
    return dict(load="a[rb + min({c}, nb - 1u)]", store="if (live && {c} < nb) {{ a[rb + {c}] = {v}; }}",
                report="if (lid == 0u && fail != 0u && info[b] == 0u) { info[b] = fail; }", who="",
                w_at="ws[b * p.wss + {idx}]", w_if="p.inv != 0u")


@functools.lru_cache(maxsize=None)
def chol_inv_factor_body(T: str, sb: int, opts: tuple = (False, False, "cr", False, None, False, 1),
                         io: str = "inv") -> str:
    """linalg_chol_inv.wgsl's FACTOR: row i of the block in v0 .. v{sb-1}, sb right-looking steps (one barrier
    each), then L11's row stored (zeros right of the diagonal) into the matrix and into ``sh``.  ``opts``
    (``_chol_inv_opts``): with GJ also column i of E (u0 .. u{sb-1}, from the identity) through the same steps,
    and W's row i (u_r / sqrt(d_r)) stored into ``ws`` (INVERSE is then empty).  ``io``: where from and to
    (``_chol_io``: "inv" cholesky_inv's, "small" the small path's whole-matrix form, "fused" cholesky_inv_apply's)."""
    gj, recip, sq, flag, part = opts[:5]
    small = io == "small"
    if small:
        gj, flag, part = False, True, None
    fast = sq == "fast"
    o = _chol_io(T, io)
    load, store, report = o["load"], o["store"], o["report"]
    lines = [f"var v{c} = select(select({T}(0.0), {T}(1.0), i == {c}u), {load.format(c=f'{c}u')}, "
             f"live && {c}u <= i);" for c in range(sb)]
    if gj:
        lines += [f"var u{r} = select({T}(0.0), {T}(1.0), i == {r}u);" for r in range(sb)]
    if flag:
        lines.append("var fail = 0u;")
    for j in range(sb if part != "inverse" else 0):
        h = (j % 2) * sb
        lines += [f"col[{h}u + i] = v{j};", "workgroupBarrier();", f"let d{j} = col[{h + j}u];"]
        if flag:
            lines.append(f"fail = select(fail, k0 + {j + 1}u, (fail == 0u) & ({j}u < nb) & !(d{j} > {T}(0.0)));")
        else:
            lines.append(f"if ({o['who']}i == 0u && {j}u < nb && !(d{j} > {T}(0.0)) && info[b] == 0u) "
                         f"{{ info[b] = k0 + {j + 1}u; }}")
        if recip:
            lines += [f"let r{j} = {T}(1.0) / d{j};", f"let t{j} = v{j} * r{j};"]
        else:
            lines.append(f"let t{j} = v{j} / d{j};")
        x = (lambda c: f"x{j}_{c}") if gj else (lambda c: f"col[{h + c}u]")  # GJ: each value loaded once, used twice
        if gj:
            lines += [f"let x{j}_{c} = col[{h + c}u];" for c in range(j + 1, sb)]
        lines += [f"v{c} = v{c} - t{j} * {x(c)};" for c in range(j + 1, sb)]
        if gj:
            lines.append(f"let w{j} = u{j} * r{j};" if recip else f"let w{j} = u{j} / d{j};")
            lines += [f"u{r} = u{r} - {x(r)} * w{j};" for r in range(j + 1, sb)]
        lines += _sqrt_lines(T, j, fast)
        if recip:
            lines += [f"let q{j} = {T}(1.0) / s{j};", f"v{j} = select(v{j} * q{j}, s{j}, i == {j}u);"]
        else:
            lines.append(f"v{j} = select(v{j} / s{j}, s{j}, i == {j}u);")
    if flag:
        lines.append(report)
    staged = (not gj or part == "inverse") and not small  # sh: L11 for INVERSE's solve (GJ made W already)
    for c in range(sb):
        lines += [f"let o{c} = select({T}(0.0), v{c}, {c}u <= i);"] + [f"sh[i * {sb}u + {c}u] = o{c};"] * staged + [
            store.format(c=f"{c}u", v=f"o{c}")]
    if gj and part != "inverse":  # W[i][r] = (L^-1)[r][i] = u_r / sqrt(d_r)
        lines.append(f"if ({o['w_if']}) {{")
        lines += [f"    {o['w_at'].format(idx=f'i * {sb}u + {r}u')} = " + (f"u{r} * q{r};" if recip else f"u{r} / s{r};")
                  for r in range(sb)]
        lines.append("}")
    return "\n".join("        " + line for line in lines)


@functools.lru_cache(maxsize=None)
def chol_inv_split_body(T: str, sb: int, split: int, opts: tuple, io: str = "inv") -> str:
    """linalg_chol_inv.wgsl's FACTOR with ``split`` invocations a row (CHOL_INV_SPLIT; GJ always): invocation (i, q)
    (i = lid % SB, q = lid / SB: a warp a part for SB = 32) holds columns q cw .. q cw + cw - 1 (cw = sb / split) of
    row i of the block in v0 .. v{cw-1} and the same rows of column i of E in u0 .., and per step j the part owning
    column j (q_j = j / cw, a uniform branch) hands on row i's column-j value (zero above the diagonal: the update
    then leaves finished columns alone without a test) and E's row j; after the barrier every part updates its cw
    columns (the owner's column j and E row j restored: their values are the step's results, not updated).
    ``io``: as ``chol_inv_factor_body``'s (``_chol_io``; "small": no E, no inverse)."""
    _, recip, sq, flag, _ = opts[:5]
    small = io == "small"
    o = _chol_io(T, io)
    flag = flag or small
    fast = sq == "fast"
    cw = sb // split
    e0 = 2 * sb  # E's rows handed on: col[e0 + h + i]
    load, store, report = o["load"], o["store"], o["report"]
    inv = not small
    lines = [f"let c{m} = q * {cw}u + {m}u;" for m in range(cw)]
    lines += [f"var v{m} = select(select({T}(0.0), {T}(1.0), i == c{m}), {load.format(c=f'c{m}')}, "
              f"live && c{m} <= i);" for m in range(cw)]
    lines += [f"var u{m} = select({T}(0.0), {T}(1.0), i == c{m});" for m in range(cw)] * inv
    lines += [f"var z{m} = {T}(1.0);" for m in range(cw)] * inv  # sqrt(d) of the E row u{m} holds
    if flag:
        lines.append("var fail = 0u;")
    for j in range(sb):
        h = (j % 2) * sb
        qj, mj = divmod(j, cw)
        hand = f"col[{e0 + h}u + i] = u{mj}; " if inv else ""
        lines += [f"if (q == {qj}u) {{ col[{h}u + i] = select({T}(0.0), v{mj}, i >= {j}u); {hand}}}",
                  "workgroupBarrier();", f"let d{j} = col[{h + j}u];"]
        if flag:
            lines.append(f"fail = select(fail, k0 + {j + 1}u, (fail == 0u) & ({j}u < nb) & !(d{j} > {T}(0.0)));")
        else:
            lines.append(f"if ({o['who']}lid == 0u && {j}u < nb && !(d{j} > {T}(0.0)) && info[b] == 0u) "
                         f"{{ info[b] = k0 + {j + 1}u; }}")
        lines.append(f"let a{j} = col[{h}u + i];")
        # t = 0 on the rows the step does not update (i <= j): their finished columns meet x = 0, and 0 * t is NaN
        # where t is not finite (an inf pivot: a / d = inf / inf on the pivot's own row)
        if recip:
            lines += [f"let r{j} = {T}(1.0) / d{j};", f"let t{j} = select({T}(0.0), a{j} * r{j}, i > {j}u);"]
            lines += [f"let w{j} = col[{e0 + h}u + i] * r{j};"] * inv
        else:
            lines += [f"let t{j} = select({T}(0.0), a{j} / d{j}, i > {j}u);"]
            lines += [f"let w{j} = col[{e0 + h}u + i] / d{j};"] * inv
        lines += [f"let ku{j} = u{mj};"] * inv
        lines += [f"let x{j}_{m} = col[{h}u + c{m}];" for m in range(cw)]
        lines += [f"v{m} = v{m} - t{j} * x{j}_{m};" for m in range(cw)]
        lines += [f"u{m} = u{m} - x{j}_{m} * w{j};" for m in range(cw)] * inv
        lines += _sqrt_lines(T, j, fast)
        scaled = f"a{j} * ({T}(1.0) / s{j})" if recip else f"a{j} / s{j}"
        lines.append(f"v{mj} = select(v{mj}, select({scaled}, s{j}, i == {j}u), q == {qj}u);")
        lines += [f"u{mj} = select(u{mj}, ku{j}, q == {qj}u);", f"z{mj} = select(z{mj}, s{j}, q == {qj}u);"] * inv
    if flag:
        lines.append(report)
    for m in range(cw):
        lines.append(store.format(c=f"c{m}", v=f"select({T}(0.0), v{m}, c{m} <= i)"))
    if inv:
        lines.append(f"if ({o['w_if']}) {{")  # W[i][r] = (L^-1)[r][i] = u_r / sqrt(d_r)
        lines += [f"    {o['w_at'].format(idx=f'i * {sb}u + c{m}')} = u{m} / z{m};" for m in range(cw)]
        lines.append("}")
    return "\n".join("        " + line for line in lines)


@functools.lru_cache(maxsize=None)
def chol_inv_inverse_body(T: str, sb: int, opts: tuple = (False, False, "cr", False, None, False, 1),
                          w_at: str = "ws[wb + {idx}]") -> str:
    """linalg_chol_inv.wgsl's INVERSE: invocation i solves L11 x = e_i from ``sh`` (column i of L11^-1) and stores
    it as row i of W (``w_at``: W's element {idx}; ``ws`` there, cholesky_inv_apply's workgroup memory ``wt``);
    empty with GJ (the factor's steps made W); RECIP: the diagonal's reciprocals (off the chain) and
    multiplications."""
    gj, recip, _, _, part = opts[:5]
    if gj and part != "inverse":
        return ""
    t_at = f"sh[{{r}}u * {sb}u + {{q}}u]"
    if not recip:
        return reg_solve(T, sb, True, False, t_at, f"select({T}(0.0), {T}(1.0), i == {{r}}u)",
                         w_at.format(idx=f"i * {sb}u + {{r}}u") + " = v{r};")
    lines = [f"var v{r} = select({T}(0.0), {T}(1.0), i == {r}u);" for r in range(sb)]
    lines += [f"let e{q} = {T}(1.0) / {t_at.format(r=q, q=q)};" for q in range(sb)]
    for q in range(sb):
        lines.append(f"v{q} = v{q} * e{q};")
        lines += [f"v{r} = v{r} - {t_at.format(r=r, q=q)} * v{q};" for r in range(q + 1, sb)]
    lines += [f"{w_at.format(idx=f'i * {sb}u + {r}u')} = v{r};" for r in range(sb)]
    return "\n".join("        " + line for line in lines)


def cholesky_inv(device, a, info, ws: Mirror, n: int, batch: int, k0: int, nb: int, inverse: bool) -> None:
    """Factor the diagonal block [k0, k0 + nb)^2 of every matrix of the contiguous stack ``a`` in place (its upper
    triangle zeroed) and, with ``inverse``, write W = L11^-T (side x side, padded with the identity) into ``ws``
    (``linalg_chol_inv.wgsl``; one workgroup a matrix; the CHOL_INV_* knobs shape its code)."""
    d = a.dtype
    T = d.wgsl
    side = _bucket(nb)
    opts = _chol_inv_opts()
    split = _chol_inv_split(side, opts)

    def build() -> launch.Kernel:
        factor = chol_inv_split_body(T, side, split, opts) if split > 1 else chol_inv_factor_body(T, side, opts)
        return launch.Kernel("linalg_chol_inv.wgsl", (launch.write("a", f"array<{T}>"),
                                                      launch.write("info", "array<u32>"),
                                                      launch.write("ws", f"array<{T}>")),
                             dict(HELPERS=source.helpers([d]), T=T, SB=side, COL_LEN=(4 if split > 1 else 2) * side,
                                  SH_LEN=side * side if split == 1 else 1, FACTOR=factor,
                                  BLOCK_ROW=source.render("linalg_chol_inv_row.wgsl"),
                                  INVERSE="" if split > 1 else chol_inv_inverse_body(T, side, opts)),
                             workgroup=side * split)
    params = layout.u32s(n, k0, nb, batch, ws.size // max(batch, 1), int(inverse and CHOL_INV_PART != "factor"), 0, 0)
    compiled = launch.compile(device, ("linalg_chol_inv", d.name, side, opts), build, checks=not CHOL_INV_UNCHECKED)
    launch.dispatch(device, compiled, [m.buffer_for_write() for m in (a.mirror, info.mirror, ws)], params,
                    workgroups=batch)


@functools.lru_cache(maxsize=None)
def chol_apply_body(T: str, sb: int, rows: int, wg: int) -> str:
    """linalg_chol_apply.wgsl's BODY for ``wg`` invocations (a grid of wg / 16 rows x 16 columns of them): rows /
    (wg / 16) x sb / 16 sums in registers over the staged tile and W, stored."""
    ty = wg // 16
    na, nk = rows // ty, sb // 16
    pairs = [(x, k) for x in range(na) for k in range(nk)]
    lines = [f"var c{x}_{k} = {T}(0.0);" for x, k in pairs]
    lines.append("for (var q = 0u; q < SB; q = q + 1u) {")
    lines += [f"    let x{x} = at[(ty + {ty * x}u) * SB + q];" for x in range(na)]
    lines += [f"    let w{k} = wt[q * SB + tx + {16 * k}u];" for k in range(nk)]
    lines += [f"    c{x}_{k} = c{x}_{k} + x{x} * w{k};" for x, k in pairs]
    lines.append("}")
    lines += [f"if (r0 + ty + {ty * x}u < n && tx + {16 * k}u < nb) {{ "
              f"a[abase + (r0 + ty + {ty * x}u) * n + k0 + tx + {16 * k}u] = c{x}_{k}; }}" for x, k in pairs]
    return "\n".join("    " + line for line in lines)


def cholesky_apply(device, a, ws: Mirror, n: int, batch: int, k0: int, nb: int) -> None:
    """L21 = A21 W in place below the diagonal block [k0, k0 + nb)^2 of every matrix of ``a``, W = L11^-T from
    ``cholesky_inv`` in ``ws`` (``linalg_chol_apply.wgsl``: whole rows a workgroup, so reads and writes never
    cross workgroups)."""
    d = a.dtype
    T = d.wgsl
    side = _bucket(nb)
    rows = _chol_apply_rows(device, d, side)
    groups = math.ceil((n - k0 - nb) / rows)
    if groups * batch == 0:
        return

    def build() -> launch.Kernel:
        return launch.Kernel("linalg_chol_apply.wgsl", (launch.write("a", f"array<{T}>"), launch.read("ws", f"array<{T}>")),
                             dict(T=T, SB=side, R=rows, SB_SB=side * side, R_SB=rows * side,
                                  STAGE=source.render("linalg_chol_apply_stage.wgsl", T=T, WG=PANEL_WG),
                                  BODY=chol_apply_body(T, side, rows, PANEL_WG)), workgroup=PANEL_WG)
    params = layout.u32s(n, k0, nb, batch, groups, ws.size // max(batch, 1), 0, 0)
    compiled = launch.compile(device, ("linalg_chol_apply", d.name, side, rows, PANEL_WG), build)
    launch.dispatch(device, compiled, [a.mirror.buffer_for_write(), ws.buffer()], params, workgroups=groups * batch)


CHOL_INV_FUSE_APPLY: bool | None = None  # CHOL_INV's diagonal block and its apply in ONE launch a block
# (``cholesky_inv_apply``, linalg_chol_inv_apply.wgsl: every workgroup factors the block again, the apply workgroups
# then compute their rows of L21 from W in workgroup memory) instead of ``cholesky_inv`` + ``cholesky_apply``: one
# dependent launch less a block.  None: on GPUs (``_reg_default``), off on CPU adapters.  H100, 2026-12-06 sixth
# session (`python -m benchmarks.linbig_sweep --sizes 4096 1024 --ops cholesky --variants default fuse_apply ...`):
# cholesky 4096 4.75 -> 3.55 ms (torch 1.93: 0.406x -> 0.543x), the fused launch 25.7 us against 24.6 + 20.2 us; a
# dependent launch alone costs ~2 us there (`python -m benchmarks.chain_floor`): the kernels' own latency is the cost


def _chol_fuse_wg(side: int) -> int:
    """Invocations of a ``cholesky_inv_apply`` workgroup (the factor's: SB x CHOL_INV_SPLIT)."""
    return side * _chol_inv_split(side, _chol_inv_opts())


def _chol_fuse_rows(device, d: DType, side: int) -> int:
    """Rows of L21 a ``cholesky_inv_apply`` apply workgroup takes: the largest multiple of its grid's rows of
    invocations (wg / 16, ``chol_apply_body``) up to CHOL_APPLY_ROWS whose tile fits the device's workgroup memory
    with W, the factor's ``col`` (and ``sh`` without SPLIT); 0 where none does."""
    wg = _chol_fuse_wg(side)
    split = wg // side
    ty = wg // 16
    if wg % 16 or ty == 0:
        return 0
    limit = device.properties.limits.max_compute_workgroup_storage_size
    fixed = (4 if split > 1 else 2) * side + (side * side if split == 1 else 1) + side * side
    for r in range(CHOL_APPLY_ROWS // ty * ty, 0, -ty):
        if (fixed + r * side) * d.device_itemsize <= limit:
            return r
    return 0


def chol_inv_fuse(device, d: DType, nb: int) -> bool:
    """Whether CHOL_INV's diagonal blocks of width ``nb`` take ``cholesky_inv_apply`` (CHOL_INV_FUSE_APPLY on, or
    None on a GPU; its workgroup memory fits the device; not for CHOL_INV_PART's timing-only halves)."""
    on = _reg_default(device) if CHOL_INV_FUSE_APPLY is None else bool(CHOL_INV_FUSE_APPLY)
    return bool(on) and CHOL_INV_PART is None and _chol_fuse_rows(device, d, _bucket(nb)) > 0


def cholesky_inv_apply(device, a, info, ws: Mirror, n: int, batch: int, k0: int, nb: int, prev: int, pnb: int,
                       slot: int) -> None:
    """``cholesky_inv`` and ``cholesky_apply`` of the diagonal block [k0, k0 + nb)^2 of every matrix of ``a`` in ONE
    dispatch (``linalg_chol_inv_apply.wgsl``): 1 + groups workgroups a matrix, each factoring the raw block with
    cholesky_inv's generated code (the same bits), the g >= 1 computing L21 = A21 W for their rows in place.  L11
    goes into ``ws``'s slot ``slot`` (of two side x side a matrix) where rows lie below the block (they read A11 from
    the matrix meanwhile), else straight into the matrix; the previous block's L11 (at ``prev``, ``pnb`` wide;
    prev < 0: none) is copied from the other slot into the matrix first."""
    d = a.dtype
    T = d.wgsl
    side = _bucket(nb)
    opts = _chol_inv_opts()
    split = _chol_inv_split(side, opts)
    wg = side * split
    rows = _chol_fuse_rows(device, d, side)
    if rows == 0:
        raise ValueError(f"cholesky_inv_apply: a {side}-wide block does not fit the workgroup memory")
    groups = math.ceil((n - k0 - nb) / rows)

    def build() -> launch.Kernel:
        factor = (chol_inv_split_body(T, side, split, opts, io="fused") if split > 1
                  else chol_inv_factor_body(T, side, opts, io="fused"))
        inverse = "" if split > 1 else chol_inv_inverse_body(T, side, opts, w_at="wt[{idx}]")
        return launch.Kernel("linalg_chol_inv_apply.wgsl", (launch.write("a", f"array<{T}>"),
                                                            launch.write("info", "array<u32>"),
                                                            launch.write("ws", f"array<{T}>")),
                             dict(HELPERS=source.helpers([d]), T=T, SB=side, R=rows,
                                  COL_LEN=(4 if split > 1 else 2) * side, SH_LEN=side * side if split == 1 else 1,
                                  SB_SB=side * side, R_SB=rows * side, FACTOR=factor, INVERSE=inverse,
                                  BLOCK_ROW=source.render("linalg_chol_inv_row.wgsl"),
                                  STAGE=source.render("linalg_chol_apply_stage.wgsl", T=T, WG=wg),
                                  BODY=chol_apply_body(T, side, rows, wg)), workgroup=wg)
    wss = ws.size // max(batch, 1)
    if wss < 2 * side * side or wss % 2:
        raise ValueError(f"cholesky_inv_apply: ws holds {wss} elements a matrix, needs {2 * side * side}")
    params = layout.u32s(batch, n, k0, nb, groups, wss, slot, int(groups == 0), prev + 1, pnb, 1 - slot,
                         _bucket(max(pnb, 1)))
    compiled = launch.compile(device, ("linalg_chol_inv_apply", d.name, side, rows, opts), build,
                              checks=not CHOL_INV_UNCHECKED)
    launch.dispatch(device, compiled, [m.buffer_for_write() for m in (a.mirror, info.mirror, ws)], params,
                    workgroups=batch * (groups + 1))


# -- the LU panel: tournament pivoting --------------------------------------------------------------------------
TSLU_IDS = 2048  # rows one tournament workgroup factors at most (a leaf's block, the root's candidates)
tslu_rows: int | None = None  # rows a leaf (None: about sqrt(rows * nb), see ``tslu_plan``); tests force small ones


def tslu_plan(m: int, nb: int) -> tuple[int, int]:
    """(R, G): rows a leaf and leaves a matrix for a panel of m rows and nb columns (G = 1: no leaves, the root
    takes the m rows itself).  R ~ sqrt(m nb), rounded up to a multiple of the workgroup, balances the two levels'
    sequential work (a leaf's R rows against the root's G nb candidates); both stay within TSLU_IDS rows."""
    r = tslu_rows or -(-max(math.isqrt(m * nb), 2 * nb) // PANEL_WG) * PANEL_WG
    r = min(max(r, nb), TSLU_IDS)
    g = -(-m // r)
    while g > 1 and g * nb > TSLU_IDS:  # the root's candidates must fit too
        r = min(2 * r, TSLU_IDS)
        g = -(-m // r)
    if g == 1 and m > TSLU_IDS:
        raise ValueError(f"an LU panel of {m} rows is beyond the tournament's {TSLU_IDS * TSLU_IDS // nb} rows")
    return r, g


TSLU_REG: bool | None = None  # the tournament's rows in named registers: linalg_lu_tslu.wgsl's REG body
# (``tslu_reg_body``), straight-line code over the panel's columns instead of a function-scope array indexed in loops
# (issue 12: NVIDIA keeps such arrays in local memory); None: on GPUs (the H100 run of linbig phase 3: solve 4096
# 51.1 -> 33.2 ms, inv 67.7 -> 49.3 ms), off on CPU adapters (as LU_FINISH_REG: lavapipe compiles it slowly)


@functools.lru_cache(maxsize=None)
def tslu_reg_body(T: str, nb: int, rpt: int) -> str:
    """linalg_lu_tslu.wgsl's REG body for panels of nb columns and rpt rows an invocation: the rows loaded into
    v{k}_{c}, nb pivot steps unrolled (each: the owner's best candidate, the workgroup argmax, the pivot row
    broadcast through ``prow``, the other rows' elimination), and at the root the chosen rows to the scratch."""
    ks, cols = range(rpt), range(nb)
    out = []
    for k in ks:
        out += [f"let i{k} = tid + {k}u * WG;", f"var used{k} = i{k} >= cnt;"]
        out += [f"var v{k}_{c} = {T}(0.0);" for c in cols]
        out += [f"if (!used{k}) {{", f"    var row{k} = r0 + i{k};", f"    if (!LEAF) {{ row{k} = ids[i{k}]; }}",
                f"    let rb{k} = abase + row{k} * n + k0;"]
        out += [f"    v{k}_{c} = a[rb{k} + {c}u];" for c in cols]
        out += [f"    nan_in = nan_in || wg_isnan_{T}(v{k}_{c});" for c in cols] + ["}"]
    for j in cols:
        step = [f"var best = {T}(-1.0);", "var bi = NONE;"]
        for k in ks:
            step += [f"if (!used{k}) {{", f"    let x = abs(v{k}_{j});",
                     f"    let key = select(x, {T}(-0.5), wg_isnan_{T}(x));",
                     f"    if (key > best || bi == NONE) {{ best = key; bi = i{k}; }}", "}"]
        step.append("let pr = wg_argmax(tid, best, bi);")
        for k in ks:
            step += [f"if (pr == i{k}) {{", f"    used{k} = true;", f"    order[{j}] = pr;"]
            step += [f"    prow[{c}] = v{k}_{c};" for c in range(j, nb)] + ["}"]
        step += ["workgroupBarrier();", f"let d = prow[{j}];",
                 f"if (d == {T}(0.0) && bad == 0u) {{ bad = {j + 1}u; }}", f"if (d != {T}(0.0)) {{"]
        step += [f"    let p{c} = prow[{c}];" for c in range(j + 1, nb)]
        for k in ks:
            step += [f"    if (!used{k}) {{", f"        let l = v{k}_{j} / d;", f"        v{k}_{j} = l;"]
            step += [f"        v{k}_{c} = v{k}_{c} - l * p{c};" for c in range(j + 1, nb)] + ["    }"]
        step.append("}")
        out += [f"if ({j}u < steps) {{"] + ["    " + line for line in step] + ["}"]
    out.append("if (!LEAF) {  // ROOT: the chosen rows' factored values, in order, to scratch rows 0 .. NB")
    for k in ks:
        out += [f"    if (i{k} < cnt && used{k}) {{", "        var jj = 0u;",
                f"        for (var q = 0u; q < NB; q = q + 1u) {{ if (order[q] == i{k}) {{ jj = q; }} }}"]
        out += [f"        s[sb + jj * NB + {c}u] = v{k}_{c};" for c in cols] + ["    }"]
    out.append("}")
    return "\n".join("        " + line for line in out)


TSLU_SUBGROUP: bool | None = None  # the tournament's argmax by subgroup operations (linalg_argmax_sg.wgsl: one
# barrier a column instead of log2(PANEL_WG) = 8); None: where the register tournament runs (TSLU_REG) and the device
# has the "subgroup" feature, unless it reports subgroups of fewer than SG_MIN invocations (wgpu-py 0.32 reports no
# size: 0, taken); True: wherever the device has the feature (any subgroup size: the winners of up to PANEL_WG
# subgroups fit red_v / red_i); False: the tree.  H100, 2026-12-06 fifth session (`python -m benchmarks.linbig_sweep
# --sizes 4096 1024 --ops solve inv --variants default tslu_sg tslu_sg_final`): the tournament 118 -> 86 us a
# launch; solve 4096 29.50 -> 25.19 ms (torch 14.36: 0.487x -> 0.570x), inv 35.85 -> 31.19 (torch 18.12: 0.581x)
TSLU_SG_FINAL = True  # the subgroup argmax reduces the subgroups' winners by subgroup operations too (a subgroup's
# worth at a time) instead of a loop over them in every invocation (the same run: 25.91 ms with the loop)
SG_MIN = 4  # the smallest reported subgroup the default (TSLU_SUBGROUP = None) takes the subgroup argmax with
# (smaller subgroups: more winners to reduce after the barrier)


def tslu_subgroup(device, reg: bool) -> bool:
    """Whether the tournament's pivot search runs on subgroup operations (TSLU_SUBGROUP) on this device."""
    if (TSLU_SUBGROUP is not None and not TSLU_SUBGROUP) or "subgroup" not in device.features:
        return False
    least = getattr(device, "subgroup_sizes", (0, 0))[0]  # 0: not reported
    return TSLU_SUBGROUP is not None or (reg and (least == 0 or least >= SG_MIN))


def _tslu_kernel(d: DType, leaf: bool, nb: int, rpt: int, reg: bool = False, sg: bool = False,
                 final: bool = False) -> launch.Kernel:
    T = d.wgsl
    return launch.Kernel("linalg_lu_tslu.wgsl", (
        launch.write("a", f"array<{T}>"), launch.write("piv", "array<u32>"), launch.write("info", "array<u32>"),
        launch.write("cand", "array<u32>"), launch.write("s", f"array<{T}>"), launch.write("perm", "array<u32>")),
        dict(HELPERS=source.helpers([d]), T=T, LEAF="true" if leaf else "false", IDS=1 if leaf else TSLU_IDS, NB=nb, RPT=rpt,
             RV_LEN=rpt * nb, ARGMAX=_argmax(T, sg, final), REG="true" if reg else "false", NAN_INFO=NAN_INFO,
             BODY=tslu_reg_body(T, nb, rpt) if reg else ""), workgroup=PANEL_WG)


class Workspace:
    """The tournament's scratch of one blocked LU (allocated once for all its panels, so that every panel's
    launches bind the same buffers and their bind groups come from the stream's cache): the candidates' row
    numbers and the root's [L11 \\ U11] on its way to the matrix."""

    def __init__(self, device, d: DType, n: int, batch: int, block: int) -> None:
        plans = [(tslu_plan(n - k0, min(block, n - k0)), min(block, n - k0)) for k0 in range(0, n, block)]
        self.stride = max(nb * nb for _, nb in plans)  # the root's [L11 \ U11], a matrix
        self.scratch = Mirror(d, max(batch * self.stride, 1), device)
        self.cand = Mirror(uint32, max(batch * max(g * nb for (_, g), nb in plans), 1), device)
        self.perm = Mirror(uint32, max(batch * 2 * plans[0][1], 1), device)  # the panel's net row permutation


def tslu(device, a, piv, info, n: int, batch: int, k0: int, nb: int, ws: Workspace) -> None:
    """Factor the LU panel of columns [k0, k0 + nb) of every matrix of the contiguous stack ``a`` by tournament
    pivoting (``linalg_lu_tslu.wgsl``): G leaves a matrix pick candidate pivot rows in parallel, one root
    workgroup a matrix picks the nb pivots among them, records them in ``piv`` (LAPACK's row swaps), swaps the
    panel's rows and writes [L11 \\ U11]; rows below k0 + nb keep A21 (``lu_finish`` solves L21 = A21 U11^-1)."""
    if nb > PANEL_WG:
        raise ValueError(f"panel of {nb} columns: at most {PANEL_WG}")
    d = a.dtype
    r, g = tslu_plan(n - k0, nb)
    stride = ws.stride
    bufs = [a.mirror, piv.mirror, info.mirror, ws.cand, ws.scratch, ws.perm]
    m = n - k0
    reg = _reg_default(device) if TSLU_REG is None else bool(TSLU_REG)
    name = "linalg_tslu_reg" if reg else "linalg_tslu"
    sg = tslu_subgroup(device, reg)
    fin = sg and TSLU_SG_FINAL
    if g > 1:
        rpt = -(-r // PANEL_WG)
        params = layout.u32s(n, k0, nb, batch, r, g, stride, 0)
        _run_mirrors(device, (name, d.name, True, nb, rpt, PANEL_WG, NAN_INFO, fin, sg),
                     lambda: _tslu_kernel(d, True, nb, rpt, reg, sg, fin), bufs, params, batch * g)
    rpt = -(-(g * nb if g > 1 else n - k0) // PANEL_WG)
    count = (g - 1) * nb + min(nb, m - (g - 1) * r) if g > 1 else m  # the last leaf may give fewer than nb
    params = layout.u32s(n, k0, nb, batch, r, g if g > 1 else 0, stride, count)
    _run_mirrors(device, (name, d.name, False, nb, rpt, PANEL_WG, TSLU_IDS, NAN_INFO, fin, sg),
                 lambda: _tslu_kernel(d, False, nb, rpt, reg, sg, fin), bufs, params, batch)


LU_FINISH_REG: bool | None = None  # lu_finish's L21 and U12 solves in registers (linalg_lu_finish.wgsl's REG);
# None: on GPUs (won on an H100), off on CPU adapters (lavapipe compiles the 64-row straight-line code for a minute)


def _reg_default(device) -> bool:
    """The register paths' default (TRSM_REG / LU_FINISH_REG / TSLU_REG = None): on, except on CPU adapters."""
    return device.properties.adapter_type != "CPU"


def lu_finish(device, a, ws: Workspace, n: int, batch: int, k0: int, nb: int, cend: int | None = None) -> None:
    """After ``tslu``: L21 = A21 U11^-1 (one invocation a row below the panel), the panel's row permutation on the
    other columns and U12 = L11^-1 A12 (one invocation a column; ``cend``: for the columns before it only, the others
    just swapped), in one dispatch (``linalg_lu_finish.wgsl``)."""
    d = a.dtype
    T = d.wgsl
    stage = _trsm_stage(device, d, nb)
    reg = (_reg_default(device) if LU_FINISH_REG is None else LU_FINISH_REG) and stage > 0

    def build() -> launch.Kernel:
        solves = dict(REG="false", ROW_SOLVE="", COL_SOLVE="")
        if reg:  # L21: x U11 = a_i, i.e. U11^T x^T = a_i^T; U12: L11 x = the column's permuted top rows
            solves = dict(REG="true",
                          ROW_SOLVE=reg_solve(T, nb, True, False, f"ts[{{q}}u * {stage}u + {{r}}u]",
                                              "a[row + {r}u]", "a[row + {r}u] = v{r};"),
                          COL_SOLVE=reg_solve(T, nb, True, True, f"ts[{{r}}u * {stage}u + {{q}}u]", "x[{r}u]",
                                              "x[{r}u] = v{r};"))
        return launch.Kernel("linalg_lu_finish.wgsl", (launch.write("a", f"array<{T}>"),
                                                       launch.read("perm", "array<u32>")),
                             dict(T=T, STAGE=stage, TS_LEN=max(stage * stage, 1), NB=nb, **solves), workgroup=WG)
    rg, cg = math.ceil((n - k0 - nb) / WG), math.ceil((n - nb) / WG)
    if rg + cg == 0:
        return
    params = layout.u32s(n, k0, nb, batch, rg, cg, n if cend is None else cend, 0)
    compiled = launch.compile(device, ("linalg_lu_finish_reg" if reg else "linalg_lu_finish", d.name, stage, nb, WG),
                              build)
    launch.dispatch(device, compiled, [a.mirror.buffer_for_write(), ws.perm.buffer()], params,
                    workgroups=(rg + cg) * batch)


def _run_mirrors(device, key: tuple, build, mirrors: list, params: bytes, workgroups: int) -> None:
    """``_run`` over mirrors (arrays' and scratch alike), for kernels whose bindings are all read_write (the
    tournament's, the fused Cholesky panel's): every mirror is bound through ``buffer_for_write`` (its host copy
    invalidated).  A kernel with a read-only binding goes through ``_run``, which takes the modes from ``_ACCESS``."""
    compiled = launch.compile(device, key, build)
    buffers = [m.buffer_for_write() for m in mirrors]  # the tournament's bindings are all read_write
    launch.dispatch(device, compiled, buffers, params, workgroups=workgroups)


# -- triangular solves, row swaps -----------------------------------------------------------------------------------
def _trsm_stage(device, d: DType, nb: int) -> int:
    """The side of the workgroup tile the triangle is staged in: nb rounded up to 16 (few pipelines), or 0 (read
    from global memory) where that tile does not fit the device's workgroup memory."""
    side = _bucket(nb)
    return side if side * side * d.device_itemsize <= device.properties.limits.max_compute_workgroup_storage_size else 0


TRSM_REG: int | None = None  # triangles of nb <= TRSM_REG rows: linalg_trsm.wgsl's REG solve (a column in
# registers); 0: never; None: 64 on GPUs (won on an H100), 0 on CPU adapters (as LU_FINISH_REG)


@functools.lru_cache(maxsize=None)
def reg_solve(T: str, nb: int, lower: bool, unit: bool, t_at: str, load: str, store: str) -> str:
    """Straight-line WGSL solving T v = b for nb values v0 .. v{nb-1} (registers on GPUs), column-oriented: once v_q
    is final, v_r -= T[r, q] v_q for the rows after it (lower) or before it (upper), so the chain is nb steps of
    independent FMAs.  ``t_at``, ``load``, ``store``: WGSL formats of T[r, q] ({r}, {q}: ints), of b_r and of the
    statement storing v_r ({r})."""
    lines = [f"var v{r} = {load.format(r=r)};" for r in range(nb)]
    for q in (range(nb) if lower else range(nb - 1, -1, -1)):
        if not unit:
            lines.append(f"v{q} = v{q} / {t_at.format(r=q, q=q)};")
        lines += [f"v{r} = v{r} - {t_at.format(r=r, q=q)} * v{q};" for r in (range(q + 1, nb) if lower else range(q))]
    lines += [store.format(r=r) for r in range(nb)]
    return "\n".join("        " + line for line in lines)


def trsm_reg_body(T: str, nb: int, lower: bool, unit: bool) -> str:
    """linalg_trsm.wgsl's REG solve with NB = nb: the column's rows past the triangle read as 0, never stored."""
    return reg_solve(T, nb, lower, unit, f"ts[{{r}}u * {nb}u + {{q}}u]",
                     f"select({T}(0.0), bm[base + min({{r}}u, nb - 1u) * rs], {{r}}u < nb)",
                     "if ({r}u < nb) {{ bm[base + {r}u * rs] = v{r}; }}")


def trsm(device, t, b, lower: bool, unit: bool) -> None:
    """Solve T X = B in place: ``t`` a view (batch, nb, nb) of a triangle, ``b`` a view (batch, nb, ncol) of the
    right-hand sides, both over contiguous stacks (any strides; the same base allowed).  nb <= ``TRSM_REG`` (and
    the staged triangle fits): a column in registers (``trsm_reg_body``), else the loop."""
    batch, nb, ncol = b.shape
    if batch * nb * ncol == 0:
        return
    d = b.dtype
    T = d.wgsl
    same = t.mirror is b.mirror
    stage = _trsm_stage(device, d, nb)
    limit = (64 if _reg_default(device) else 0) if TRSM_REG is None else TRSM_REG
    reg = bool(stage) and nb <= limit

    def build() -> launch.Kernel:  # (the bindings built here: only on a miss of _ACCESS or the pipeline cache)
        bindings = ((launch.write("bm", f"array<{T}>"),) if same else
                    (launch.read("tm", f"array<{T}>"), launch.write("bm", f"array<{T}>")))
        return launch.Kernel("linalg_trsm.wgsl", bindings, dict(
            T=T, TBUF="bm" if same else "tm", STAGE=stage, TS_LEN=max(stage * stage, 1),
            REG="true" if reg else "false", BODY=trsm_reg_body(T, stage, lower, unit) if reg else ""), workgroup=WG)
    tb, tr, tc = t.strides
    bb, br, bc = b.strides
    params = layout.u32s(nb, ncol, batch, (1 if lower else 0) | (2 if unit else 0),
                                 t.offset, tr, tc, tb if t.shape[0] > 1 else 0, b.offset, br, bc, bb)
    key = (("linalg_trsm_reg", d.name, same, stage, lower, unit, WG) if reg else
           ("linalg_trsm", d.name, same, stage, WG))
    _run(device, key, build, [b] if same else [t, b], params, math.ceil(ncol / WG) * batch)


def swap(device, piv, x, n_piv: int, j0: int, cnt: int, skip: tuple[int, int] = (0, 0),
         reverse: bool = False) -> None:
    """Apply pivots j0 .. j0 + cnt - 1 (of ``n_piv`` a matrix in ``piv``; ``reverse``: the last first, i.e. the
    inverse permutation) to the rows of the view ``x`` (batch, rows, ncol), leaving the columns in [skip[0],
    skip[1]) alone: one invocation a column.  (The swaps in workgroup memory, SWAP_SHARED, were measured on the H100
    on 2026-12-06, fifth session: solve 4096 29.50 -> 29.26 ms, inv 35.85 -> 35.99, within noise: removed.)"""
    batch, _, ncol = x.shape
    if batch * ncol * cnt == 0:
        return
    d = x.dtype
    bs, rs, cs = x.strides

    def build() -> launch.Kernel:
        return launch.Kernel("linalg_lu_swap.wgsl", (launch.read("piv", "array<u32>"),
                                                     launch.write("x", f"array<{d.wgsl}>")), dict(T=d.wgsl),
                             workgroup=WG)
    params = layout.u32s(j0, cnt, ncol, batch, skip[0], skip[1], x.offset, rs, cs, bs, n_piv, int(reverse))
    _run(device, ("linalg_swap", d.name, WG), build, [piv, x], params, math.ceil(ncol / WG) * batch)


# -- the substitution one launch a block (lu_subst) --------------------------------------------------------------
SUBST_STEP: bool | None = None  # solve's / inv's substitution as one launch a block (``lu_subst``: the target
# block's X[t] = T^-1 (X[t] - A[t, s] X[s]) and the plain rows' update) instead of a trsm and a matmul update a block
# (256 + 254 launches at n = 4096); None: on GPUs.  H100 2026-12-06 (``python -m benchmarks.linbig_sweep --sizes 4096
# 1024 --ops solve inv``, gpu_results s24/8/lc_lu.txt): solve 4096 (16 rhs) 33.48 -> 30.86 ms (0.43x -> 0.47x torch),
# 1024 6.43 -> 6.03; inv (n right-hand sides) lost (49.5 -> 70.9 ms; with INV_TRI and 64 columns 53.5), hence
# SUBST_STEP_MAX_K = 16.  The target block is finished by its workgroup solving the triangle (backward stable as the
# default path); trsm as GEMM with inverted diagonal blocks was measured (H100, solve 4096: 30.80 vs 30.86 ms) and
# removed: no faster, and its backward error grows with the diagonal blocks' condition (Hilbert: 381 n eps).
SUBST_STEP_MAX_K: int | None = 16  # right-hand sides up to which SUBST_STEP applies (None: any; inv has n)
SUBST_COLS = 32  # columns of X a ``lu_subst`` workgroup (16 where X has at most 16)


def subst_step(device, d: DType, block: int, k: int) -> bool:
    """Whether SUBST_STEP takes a substitution in blocks of ``block`` rows with ``k`` right-hand sides in ``d``:
    on (None: on GPUs), k within SUBST_STEP_MAX_K, block <= 64 and ``lu_subst``'s tiles fit workgroup memory."""
    on = _reg_default(device) if SUBST_STEP is None else bool(SUBST_STEP)
    return on and (SUBST_STEP_MAX_K is None or k <= SUBST_STEP_MAX_K) and lu_subst_fits(device, d, block)


def lu_subst_fits(device, d: DType, block: int) -> bool:
    """Whether ``lu_subst`` takes blocks of ``block`` rows in ``d``: block <= 64 and its tiles fit workgroup memory."""
    side = _bucket(block)
    limit = device.properties.limits.max_compute_workgroup_storage_size
    return 1 <= block <= 64 and (side * side + side * max(SUBST_COLS, 16)) * d.device_itemsize <= limit


@functools.lru_cache(maxsize=None)
def lu_subst_parts(T: str, sb: int, cw: int, upper: bool, wg: int) -> dict[str, str]:
    """linalg_lu_subst.wgsl's BODY, STAGE, PUT, FINISH, APPLY and STORE for SB = sb, CW = cw (wg invocations, PANEL_WG:
    TY = wg / cw rows of invocations, M = sb / TY rows each), the target block finished by solving the triangle (U
    with ``upper`` else unit L) a column an invocation."""
    ty = wg // cw
    ms = range(sb // ty)
    body = [f"var s{m} = {T}(0.0);" for m in ms] + ["for (var q = 0u; q < SB; q = q + 1u) {",
                                                    "    let w = xt[q * CW + tx];"]
    body += [f"    s{m} = s{m} + at[(ty + {ty * m}u) * SB + q] * w;" for m in ms] + ["}"]
    for m in ms:
        body += [f"let row{m} = r0 + ty + {ty * m}u;", f"let ok{m} = row{m} < rend && col < kc;",
                 f"var t{m} = {T}(0.0);", f"if (ok{m}) {{ t{m} = x[xbase + row{m} * k + col] - s{m}; }}"]
    put = [f"xt[(ty + {ty * m}u) * CW + tx] = t{m};" for m in ms]
    store = [f"if (ok{m}) {{ x[xbase + row{m} * k + col] = t{m}; }}" for m in ms]
    stage = [f"for (var e = lid; e < SB * SB; e = e + {wg}u) {{", "    let r = e / SB;", "    let q = e % SB;",
             f"    var v = select({T}(0.0), {T}(1.0), r == q);",
             "    if (r < p.tb && q < p.tb) { v = a[abase + (p.t0 + r) * n + p.t0 + q]; }", "    at[e] = v;", "}"]
    solve = reg_solve(T, sb, not upper, not upper, "at[{r}u * SB + {q}u]", "xt[{r}u * CW + tx]",
                      "xt[{r}u * CW + tx] = v{r};")
    finish = ["if (lid < CW) {"] + ["    " + line.strip() for line in solve.splitlines()] + ["}"]
    apply = [f"if (ok{m}) {{ x[xbase + row{m} * k + col] = xt[(ty + {ty * m}u) * CW + tx]; }}" for m in ms]
    indent = {"BODY": 4}
    return {name: "\n".join(" " * indent.get(name, 8) + line for line in lines)
            for name, lines in (("BODY", body), ("STAGE", stage), ("PUT", put), ("FINISH", finish),
                                ("APPLY", apply), ("STORE", store))}


def lu_subst(device, a, x, n: int, batch: int, block: int, src: int | None, tgt: int, upper: bool,
             p0: int, p1: int, kc: int | None = None) -> None:
    """One block step of the substitution (``linalg_lu_subst.wgsl``) on the contiguous stack x (batch, n, k): with
    s = block ``src`` (None: none) and t = block ``tgt``, X[t] = T^-1 (X[t] - A[t, s] X[s]) (T = U with ``upper``,
    else L; solved in the workgroup) and X[r] -= A[r, s] X[s] for the rows [p0, p1); ``kc``: only X's first kc
    columns (None: all; inv's triangular forward pass: the others are zero)."""
    k = x.shape[-1]
    kc = k if kc is None else min(kc, k)
    d = a.dtype
    T = d.wgsl
    side = _bucket(block)
    cw = 16 if kc <= 16 else SUBST_COLS
    j0 = 0 if src is None else src * block
    jb = 0 if src is None else min(block, n - j0)
    t0 = tgt * block
    ptiles = -(-max(p1 - p0, 0) // side)
    ctiles = -(-kc // cw)

    def build() -> launch.Kernel:
        return launch.Kernel("linalg_lu_subst.wgsl", (launch.read("a", f"array<{T}>"),
                                                      launch.write("x", f"array<{T}>")),
                             dict(T=T, SB=side, CW=cw, SB_SB=side * side, SB_CW=side * cw,
                                  **lu_subst_parts(T, side, cw, upper, PANEL_WG)), workgroup=PANEL_WG)
    params = layout.u32s(n, k, batch, j0, jb, t0, min(block, n - t0), p0, p1, ptiles, ctiles, kc)
    compiled = launch.compile(device, ("linalg_lu_subst", d.name, side, cw, upper, PANEL_WG), build)
    launch.dispatch(device, compiled, [a.mirror.buffer(), x.mirror.buffer_for_write()], params,
                    workgroups=batch * (1 + ptiles) * ctiles)


# -- trailing updates -------------------------------------------------------------------------------------------
def update(device, c, a, b, tri: bool = False) -> None:
    """C -= A @ B in place for (batch, ., .) views over contiguous stacks (the tiled matmul with its in-place
    epilogue: C read and written once, no temporary); ``tri``: only the tiles that reach C's lower triangle
    (Cholesky's trailing matrix, whose upper triangle is never read)."""
    batch = c.shape[0]
    _mm.run(device, a, b, c, batch, a.strides[0], b.strides[0], epilogue="sub_lower" if tri else "sub")


# -- results from the factors --------------------------------------------------------------------------------------
def det(device, a, piv, info, out, n: int, batch: int) -> None:
    """out (contiguous batch x 3, a's dtype) = (det, sign, log|det|) of each LU-factored matrix of ``a`` (complex:
    log|det| as (log|det|, 0))."""
    if batch == 0:
        return
    d = a.dtype
    params = layout.u32s(n, batch, 0, 0)
    _run(device, ("linalg_det", d.name, 1, WG, NAN_INFO), lambda: _det_kernel(d, 1), [a, piv, info, out], params,
         math.ceil(batch / WG), whole=True)


def _det_kernel(d: DType, phase: int) -> launch.Kernel:
    """linalg_lu_det.wgsl's PHASE 0 (the LU in global memory) or 1 (det from the factors), on elements of ``d``
    (real or complex).  a, piv and info are read_write in both (PHASE 0 writes them, and its stores must validate in
    the one shader); PHASE 1 only reads them."""
    c = element_constants(d)
    T, S = c["T"], c["S"]
    return launch.Kernel("linalg_lu_det.wgsl", (
        launch.write("a", f"array<{S}>"), launch.write("piv", "array<u32>"), launch.write("info", "array<u32>"),
        launch.write("out", f"array<{S}>")), dict(
            HELPERS=source.helpers([d.component]), T=T, S=S, SCALAR=c["SCALAR"], NEG_INF=_neg_inf(T), NAN=_nan(T),
            CPLX="true" if d.kind == "c" else "false", PHASE=phase, ARGMAX=_argmax(T), NAN_INFO=NAN_INFO),
        workgroup=WG)


def lu_global(device, a, piv, info, out, n: int, batch: int) -> None:
    """LU with partial pivoting in place of each matrix of the contiguous stack ``a`` (batch, n, n) in global
    memory, one workgroup a matrix, one dispatch (linalg_lu_det.wgsl's PHASE 0: U and the pivots, for ``det``, whose
    ``out`` it binds without touching; the det / slogdet path of complex matrices, any n); a zero pivot into
    ``info`` (zero on entry)."""
    if batch == 0:
        return
    d = a.dtype
    _run(device, ("linalg_det", d.name, 0, WG, NAN_INFO), lambda: _det_kernel(d, 0), [a, piv, info, out],
         layout.u32s(n, batch, 0, 0), batch)


def nanscan(device, a, info, n: int, batch: int) -> None:
    """info = NAN_INFO for every matrix of the contiguous stack ``a`` that holds a NaN (``linalg_lu_nanscan.wgsl``):
    the blocked LU's first launch, so that a zero pivot met before a NaN's column cannot hide it."""
    total = n * n * batch
    if total == 0:
        return
    d = a.dtype

    def build() -> launch.Kernel:
        return launch.Kernel("linalg_lu_nanscan.wgsl", (launch.read("a", f"array<{d.wgsl}>"),
                                                        launch.write("info", "array<u32>")),
                             dict(HELPERS=source.helpers([d]), T=d.wgsl, NAN_INFO=NAN_INFO), workgroup=WG)
    _run(device, ("linalg_nanscan", d.name, WG, NAN_INFO), build, [a, info], layout.u32s(n * n, total, 0, 0),
         math.ceil(total / WG))


ROWS_WG = 128  # invocations a workgroup of ``chol_finish`` (one workgroup a row)


def _info_fill(device, shader: str, wg: int, info, x, params: bytes, workgroups: int) -> None:
    """One launch of ``shader`` (bindings: info read, x written; NaN and the element type substituted) with ``wg``
    invocations a workgroup: ``nanfill``'s and ``chol_finish``'s."""
    d = x.dtype

    def build() -> launch.Kernel:
        return launch.Kernel(shader, (launch.read("info", "array<u32>"), launch.write("x", f"array<{d.wgsl}>")),
                             dict(T=d.wgsl, NAN=_nan(d.wgsl)), workgroup=wg)
    _run(device, (shader, d.name, wg), build, [info, x], params, workgroups)


def nanfill(device, info, x, per: int, batch: int) -> None:
    """NaN into the ``per`` elements of each matrix of the contiguous stack ``x`` whose info word is set."""
    total = per * batch
    if total:
        _info_fill(device, "linalg_lu_nanfill.wgsl", WG, info, x, layout.u32s(per, total, x.offset, 0),
                   math.ceil(total / WG))


def chol_finish(device, info, x, n: int, batch: int) -> None:
    """The contiguous stack ``x`` of n x n Cholesky factors finished: a matrix whose info word is set all NaN, the
    others' elements above the diagonal 0 (the panels leave them as they were; ``linalg_chol_rows.wgsl``, one
    workgroup a row)."""
    if n * batch:
        _info_fill(device, "linalg_chol_rows.wgsl", ROWS_WG, info, x, layout.u32s(n, n * batch, x.offset, 0),
                   n * batch)
