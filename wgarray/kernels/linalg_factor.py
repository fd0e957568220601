"""Launch the factorisation kernels of ``wg.linalg`` (``shaders/linalg_*.wgsl``) on contiguous stacks of n x n
matrices in their compute dtype (float32 or float64).

Two regimes (the drivers in ``wgarray/api/linalg.py`` choose between them):

- ``small``: several matrices a workgroup (one invocation a row), each whole in workgroup memory (``small_limit``
  says up to which n the device's workgroup memory holds one): LU with partial pivoting or Cholesky, then the
  call's result (L or U, the solve of A X = B, A^-1, or det) from the same workgroup, read from the input where it
  lies and written straight into the output: one dispatch for a whole stack, no host round trip, and one status
  word for the batch (``shaders/linalg_small.wgsl``).
- the blocked path's pieces: ``panel`` (the unblocked factorisation of a column panel in global memory, one
  workgroup a matrix), ``swap`` (row swaps of the panel's pivots applied to other columns), ``trsm`` (triangular
  solves of a block row, one invocation a column); the trailing updates are the tiled matmul's (the driver's).

Every matrix has an ``info`` word (u32, zero on entry): the first zero pivot (LU) or non-positive pivot
(Cholesky) plus one.  ``det`` turns LU factors into (det, sign, log|det|); ``nanfill`` writes NaN into the
matrices whose info is set.

Every kernel goes through ``launch``: its bindings declared once (``_kernel``), the shared entry prologue, and
``launch.dispatch`` with a 1-D workgroup count (matrices, or column groups times matrices: no grid limit on the
stack's size).
"""
from __future__ import annotations

import math

from ..dtypes import DType
from . import launch, layout, source

SMALL_WG = 64  # invocations of a small-path workgroup (8x8 matrices use 49 of them in the updates)
PANEL_WG = 256  # invocations of a panel workgroup (the pivot search runs over up to n rows)
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


def _run(device, key: tuple, kernel: launch.Kernel, arrays: list, params: layout.Params, workgroups: int,
         whole: bool = False) -> None:
    """Dispatch ``workgroups`` of ``kernel`` (compiled once under ``key``) over the arrays' buffers: read bindings
    from ``buffer()``, written ones from ``buffer_for_write`` (``whole``: the last written array is overwritten
    throughout, so its host copy need not be uploaded first)."""
    compiled = launch.compile(device, key, lambda: kernel)
    last = max(i for i, b in enumerate(kernel.bindings) if b.access == "read_write")
    buffers = [a.mirror.buffer() if b.access == "read" else a.mirror.buffer_for_write(whole=whole and i == last)
               for i, (a, b) in enumerate(zip(arrays, kernel.bindings))]
    launch.dispatch(device, compiled, buffers, params.bytes(), workgroups=workgroups)


# -- factorisations -----------------------------------------------------------------------------------------------
def _factor_kernel(d: DType, lu: bool, shared: bool, store: bool, solve: bool, gen_id: bool,
                   bucket: int) -> launch.Kernel:
    T = d.wgsl
    bindings = [launch.write("a", f"array<{T}>"), launch.write("piv", "array<u32>"), launch.write("info", "array<u32>")]
    if solve:
        bindings.append(launch.write("x", f"array<{T}>"))
    solve_code = source.render("linalg_lu_solve_part.wgsl", T=T, NAN=_nan(T)) if solve else ""
    flag = {True: "true", False: "false"}
    return launch.Kernel("linalg_lu_factor.wgsl", tuple(bindings), dict(
        HELPERS=source.helpers([d]), T=T, LU=flag[lu], SHARED=flag[shared], STORE=flag[store], SOLVE=flag[solve],
        GEN_ID=flag[gen_id], SH_LEN=bucket * bucket if shared else 1, PV_LEN=bucket if shared else 1,
        SOLVE_CODE=solve_code), workgroup=SMALL_WG if shared else PANEL_WG)


_SMALL_OPS = ("cholesky", "solve", "inv", "det")


def small(device, op: str, a, out, status, *, b=None, upper: bool = False) -> None:
    """One dispatch of the small path over the (batch, n, n) view ``a`` (any offset, non-negative strides; the
    batch one stride): ``op`` "cholesky" (out: contiguous L, or U = L^T with ``upper``), "solve" (X = A^-1 B for
    the (batch, n, K) view ``b``; out contiguous (batch, n, K)), "inv" (out (batch, n, n)) or "det" (out
    (batch, 3): det, sign, log|det|).  Failed matrices come out NaN (det 0, sign 0, log -inf); the u32 word
    ``status`` (zero on entry where it is read) gets the batch's largest first failing pivot + 1."""
    batch, n, _ = a.shape
    if batch * n == 0:
        return
    if op not in _SMALL_OPS:
        raise ValueError(f"unknown small-path operation {op!r}")
    d = out.dtype
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
            HELPERS=source.helpers([d]), T=T, CHOL=flag[not lu], SOLVE=flag[solve], INV=flag[op == "inv"],
            DET=flag[op == "det"], R=r, M=per_group, NB=nb,
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
    params = layout.Params().u32(n, batch, kb, _matrix_stride(n, r), a.offset, asb, asr, asc, boff, bsb, bsr, bsc,
                                 int(upper), 0, 0, 0)
    buffers = [a.mirror.buffer()] + ([b.mirror.buffer()] if solve else []) + [
        out.mirror.buffer_for_write(whole=True), status.mirror.buffer_for_write()]
    launch.dispatch(device, compiled, buffers, params.bytes(), workgroups=-(-batch // per_group))


def panel(device, a, piv, info, n: int, batch: int, k0: int, nb: int, m_end: int, lu: bool) -> None:
    """Factor in place, in global memory, the panel of columns [k0, k0 + nb) over rows [k0, m_end) of every
    matrix of the contiguous stack ``a``: LU with partial pivoting (swaps within the panel's columns only) or
    Cholesky (then m_end = k0 + nb: the diagonal block; the rows below are a trsm)."""
    d = a.dtype
    kernel = _factor_kernel(d, lu, False, False, False, False, 1)
    params = layout.Params().u32(n, k0, nb, m_end, batch, 0, 0, 0)
    _run(device, ("linalg_panel", d.name, lu), kernel, [a, piv, info], params, batch)


# -- triangular solves, row swaps -----------------------------------------------------------------------------------
def _trsm_stage(device, d: DType, nb: int) -> int:
    """The side of the workgroup tile the triangle is staged in: nb rounded up to 16 (few pipelines), or 0 (read
    from global memory) where that tile does not fit the device's workgroup memory."""
    side = _bucket(nb)
    return side if side * side * d.device_itemsize <= device.properties.limits.max_compute_workgroup_storage_size else 0


def trsm(device, t, b, lower: bool, unit: bool) -> None:
    """Solve T X = B in place: ``t`` a view (batch, nb, nb) of a triangle, ``b`` a view (batch, nb, ncol) of the
    right-hand sides, both over contiguous stacks (any strides; the same base allowed)."""
    batch, nb, ncol = b.shape
    if batch * nb * ncol == 0:
        return
    d = b.dtype
    T = d.wgsl
    same = t.mirror is b.mirror
    bindings = ((launch.write("bm", f"array<{T}>"),) if same else
                (launch.read("tm", f"array<{T}>"), launch.write("bm", f"array<{T}>")))
    stage = _trsm_stage(device, d, nb)
    kernel = launch.Kernel("linalg_trsm.wgsl", bindings, dict(T=T, TBUF="bm" if same else "tm", STAGE=stage,
                                                              TS_LEN=max(stage * stage, 1)), workgroup=WG)
    tb, tr, tc = t.strides
    bb, br, bc = b.strides
    params = layout.Params().u32(nb, ncol, batch, (1 if lower else 0) | (2 if unit else 0),
                                 t.offset, tr, tc, tb if t.shape[0] > 1 else 0, b.offset, br, bc, bb)
    _run(device, ("linalg_trsm", d.name, same, stage), kernel, [b] if same else [t, b], params,
         math.ceil(ncol / WG) * batch)


def swap(device, piv, x, n_piv: int, j0: int, cnt: int, skip: tuple[int, int] = (0, 0)) -> None:
    """Apply pivots j0 .. j0 + cnt - 1 (of ``n_piv`` a matrix in ``piv``) to the rows of the view ``x`` (batch,
    rows, ncol), leaving the columns in [skip[0], skip[1]) alone."""
    batch, _, ncol = x.shape
    if batch * ncol * cnt == 0:
        return
    d = x.dtype
    bs, rs, cs = x.strides
    kernel = launch.Kernel("linalg_lu_swap.wgsl", (launch.read("piv", "array<u32>"), launch.write("x", f"array<{d.wgsl}>")),
                           dict(T=d.wgsl), workgroup=WG)
    params = layout.Params().u32(j0, cnt, ncol, batch, skip[0], skip[1], x.offset, rs, cs, bs, n_piv, 0)
    _run(device, ("linalg_swap", d.name), kernel, [piv, x], params, math.ceil(ncol / WG) * batch)


# -- results from the factors --------------------------------------------------------------------------------------
def det(device, a, piv, info, out, n: int, batch: int) -> None:
    """out (contiguous batch x 3) = (det, sign, log|det|) of each LU-factored matrix of ``a``."""
    if batch == 0:
        return
    d = a.dtype
    T = d.wgsl
    kernel = launch.Kernel("linalg_lu_det.wgsl", (
        launch.read("a", f"array<{T}>"), launch.read("piv", "array<u32>"), launch.read("info", "array<u32>"),
        launch.write("out", f"array<{T}>")), dict(HELPERS=source.helpers([d]), T=T, NEG_INF=_neg_inf(T)),
        workgroup=WG)
    params = layout.Params().u32(n, batch, 0, 0)
    _run(device, ("linalg_det", d.name), kernel, [a, piv, info, out], params, math.ceil(batch / WG), whole=True)


def nanfill(device, info, x, per: int, batch: int) -> None:
    """NaN into the ``per`` elements of each matrix of the contiguous stack ``x`` whose info word is set."""
    total = per * batch
    if total == 0:
        return
    d = x.dtype
    kernel = launch.Kernel("linalg_lu_nanfill.wgsl", (launch.read("info", "array<u32>"),
                                                      launch.write("x", f"array<{d.wgsl}>")),
                           dict(T=d.wgsl, NAN=_nan(d.wgsl)), workgroup=WG)
    params = layout.Params().u32(per, total, x.offset, 0)
    _run(device, ("linalg_nanfill", d.name), kernel, [info, x], params, math.ceil(total / WG))
