"""Launch the factorisation kernels of ``wg.linalg`` (``shaders/linalg_*.wgsl``) on contiguous stacks of n x n
matrices in their compute dtype (float32 or float64).

Two regimes (the drivers in ``wgarray/_linalg_factor.py`` choose between them):

- ``factor_small``: one workgroup a matrix, the whole matrix in workgroup memory (``small_limit`` says up to which
  n the device's workgroup memory holds it): LU with partial pivoting or Cholesky, then optionally the solve of
  A X = B (or A X = I for inv) from the same workgroup: one dispatch for a whole stack, no host round trip.
- the blocked path's pieces: ``panel`` (the unblocked factorisation of a column panel in global memory, one
  workgroup a matrix), ``swap`` (row swaps of the panel's pivots applied to other columns), ``trsm`` (triangular
  solves of a block row, one invocation a column); the trailing updates are the tiled matmul's (the driver's).

Every matrix has an ``info`` word (u32, zero on entry): the first zero pivot (LU) or non-positive pivot
(Cholesky) plus one.  ``det`` turns LU factors into (det, sign, log|det|); ``nanfill`` writes NaN into the
matrices whose info is set.
"""
from __future__ import annotations

import math

from ..dtypes import DType
from . import layout, source

SMALL_WG = 64  # invocations of a small-path workgroup (8x8 matrices use 49 of them in the updates)
PANEL_WG = 256  # invocations of a panel workgroup (the pivot search runs over up to n rows)
WG = 64  # invocations a workgroup of the column-parallel kernels (trsm, swap, det, nanfill)
SMALL_MAX = 64  # the largest n the small path takes even where workgroup memory would hold more


def _bucket(n: int) -> int:
    """Workgroup arrays are sized for n rounded up to a multiple of 16 (few pipelines, any n)."""
    return max(16, -(-n // 16) * 16)


def _shared_bytes(n: int, d: DType) -> int:
    b = _bucket(n)
    return b * b * d.device_itemsize + SMALL_WG * (d.device_itemsize + 4) + b * 4 + 16


def small_limit(device, d: DType) -> int:
    """The largest n whose matrix fits the device's workgroup memory (with the pivot search's scratch), at most
    SMALL_MAX: lavapipe's 32 KiB hold 64 x 64 float32 / 48 x 48 float64, WebGPU's 16 KiB floor 48 / 32."""
    limit = device.properties.limits.max_compute_workgroup_storage_size
    n = SMALL_MAX
    while n > 0 and _shared_bytes(n, d) > limit:
        n -= 16 if n % 16 == 0 else n % 16
    return n


def _nan(T: str) -> str:
    return "bitcast<f32>(0x7fc00000u)" if T == "f32" else "f64(bitcast<f32>(0x7fc00000u))"


def _neg_inf(T: str) -> str:
    return "bitcast<f32>(0xff800000u)" if T == "f32" else "f64(bitcast<f32>(0xff800000u))"


def _batch_grid(device, count: int) -> tuple[int, int, int]:
    return layout.grid(count, device.properties.limits.max_compute_workgroups_per_dimension)


def _check_batch(device, batch: int) -> None:
    if batch > device.properties.limits.max_compute_workgroups_per_dimension:
        raise ValueError(f"a stack of {batch} matrices exceeds the device's grid limit for the blocked path")


def _dispatch(device, key, build, buffers, params: bytes, grid) -> None:
    pipe, bgl = device.pipeline(key, build)
    device.stream.dispatch(pipe, device.stream.bind_group(bgl, buffers), buffers, params, grid)


# -- factorisations -----------------------------------------------------------------------------------------------
def _build_factor(d: DType, lu: bool, shared: bool, store: bool, solve: bool, gen_id: bool, bucket: int):
    T = d.wgsl
    wg = SMALL_WG if shared else PANEL_WG
    names = [("a", False), ("piv", False), ("info", False)] + ([("x", False)] if solve else [])
    types = {"a": f"array<{T}>", "piv": "array<u32>", "info": "array<u32>", "x": f"array<{T}>"}
    bindings = "\n".join(f"@group(0) @binding({i}) var<storage, read_write> {nm}: {types[nm]};"
                         for i, (nm, _) in enumerate(names))
    solve_code = source.render("linalg_lu_solve_part.wgsl", T=T, NAN=_nan(T)) if solve else ""
    body = {True: "true", False: "false"}
    text = source.render(
        "linalg_lu_factor.wgsl", HELPERS=source.helpers([d]), T=T, WG=wg, LU=body[lu], SHARED=body[shared],
        STORE=body[store], SOLVE=body[solve], GEN_ID=body[gen_id], BINDINGS=bindings,
        SH_LEN=bucket * bucket if shared else 1, PV_LEN=bucket if shared else 1, SOLVE_CODE=solve_code)
    return text, [ro for _, ro in names]


def factor_small(device, a, piv, info, n: int, batch: int, lu: bool, *, x=None, k: int = 0, gen_id: bool = False,
                 store: bool = True) -> None:
    """Factor every n x n matrix of the contiguous stack ``a`` (batch of them) in workgroup memory: LU (``lu``)
    with pivots into ``piv`` (batch x n u32), or Cholesky (lower, upper triangle zeroed).  With ``x`` (a contiguous
    batch x n x k stack), also solve A X = X in place (A X = I with ``gen_id``); ``store`` False skips writing the
    factors back (solve and inv do not need them)."""
    if batch * n == 0:
        return
    d = a.dtype
    solve = x is not None
    bucket = _bucket(n)
    key = ("linalg_factor_small", d.name, lu, store, solve, gen_id, bucket)
    bufs = [a.mirror.buffer_for_write(), piv.mirror.buffer_for_write(), info.mirror.buffer_for_write()]
    if solve:
        bufs.append(x.mirror.buffer_for_write(whole=gen_id))
    grid = _batch_grid(device, batch)
    params = layout.Params().u32(n, 0, n, n, batch, k, grid[0], 0).bytes()
    _dispatch(device, key, lambda: _build_factor(d, lu, True, store, solve, gen_id, bucket), bufs, params, grid)


def panel(device, a, piv, info, n: int, batch: int, k0: int, nb: int, m_end: int, lu: bool) -> None:
    """Factor in place, in global memory, the panel of columns [k0, k0 + nb) over rows [k0, m_end) of every
    matrix of the contiguous stack ``a``: LU with partial pivoting (swaps within the panel's columns only) or
    Cholesky (then m_end = k0 + nb: the diagonal block; the rows below are a trsm)."""
    d = a.dtype
    key = ("linalg_panel", d.name, lu)
    bufs = [a.mirror.buffer_for_write(), piv.mirror.buffer_for_write(), info.mirror.buffer_for_write()]
    grid = _batch_grid(device, batch)
    params = layout.Params().u32(n, k0, nb, m_end, batch, 0, grid[0], 0).bytes()
    _dispatch(device, key, lambda: _build_factor(d, lu, False, False, False, False, 1), bufs, params, grid)


# -- triangular solves, row swaps -----------------------------------------------------------------------------------
def _build_trsm(d: DType, same: bool):
    T = d.wgsl
    if same:
        bindings = f"@group(0) @binding(0) var<storage, read_write> bm: array<{T}>;"
        ro = [False]
    else:
        bindings = (f"@group(0) @binding(0) var<storage, read> tm: array<{T}>;\n"
                    f"@group(0) @binding(1) var<storage, read_write> bm: array<{T}>;")
        ro = [True, False]
    return source.render("linalg_trsm.wgsl", T=T, WG=WG, BINDINGS=bindings, TBUF="bm" if same else "tm"), ro


def trsm(device, t, b, lower: bool, unit: bool) -> None:
    """Solve T X = B in place: ``t`` a view (batch, nb, nb) of a triangle, ``b`` a view (batch, nb, ncol) of the
    right-hand sides, both over contiguous stacks (any strides; the same base allowed)."""
    batch, nb, ncol = b.shape
    if batch * nb * ncol == 0:
        return
    _check_batch(device, batch)
    d = b.dtype
    same = t.mirror is b.mirror
    bufs = [b.mirror.buffer_for_write()] if same else [t.mirror.buffer(), b.mirror.buffer_for_write()]
    tb, tr, tc = t.strides
    bb, br, bc = b.strides
    params = layout.Params().u32(nb, ncol, batch, (1 if lower else 0) | (2 if unit else 0),
                                 t.offset, tr, tc, tb if t.shape[0] > 1 else 0, b.offset, br, bc, bb).bytes()
    _dispatch(device, ("linalg_trsm", d.name, same), lambda: _build_trsm(d, same), bufs, params,
              (math.ceil(ncol / WG), batch, 1))


def swap(device, piv, x, n_piv: int, j0: int, cnt: int, skip: tuple[int, int] = (0, 0)) -> None:
    """Apply pivots j0 .. j0 + cnt - 1 (of ``n_piv`` a matrix in ``piv``) to the rows of the view ``x`` (batch,
    rows, ncol), leaving the columns in [skip[0], skip[1]) alone."""
    batch, _, ncol = x.shape
    if batch * ncol * cnt == 0:
        return
    _check_batch(device, batch)
    d = x.dtype
    bs, rs, cs = x.strides
    bufs = [piv.mirror.buffer(), x.mirror.buffer_for_write()]
    params = layout.Params().u32(j0, cnt, ncol, batch, skip[0], skip[1], x.offset, rs, cs, bs, n_piv, 0).bytes()
    _dispatch(device, ("linalg_swap", d.name), lambda: (source.render("linalg_lu_swap.wgsl", T=d.wgsl, WG=WG),
                                                        [True, False]), bufs, params, (math.ceil(ncol / WG), batch, 1))


# -- results from the factors --------------------------------------------------------------------------------------
def det(device, a, piv, info, out, n: int, batch: int) -> None:
    """out (contiguous batch x 3) = (det, sign, log|det|) of each LU-factored matrix of ``a``."""
    if batch == 0:
        return
    d = a.dtype
    T = d.wgsl
    grid = _batch_grid(device, math.ceil(batch / WG))
    bufs = [a.mirror.buffer(), piv.mirror.buffer(), info.mirror.buffer(), out.mirror.buffer_for_write(whole=True)]
    params = layout.Params().u32(n, batch, grid[0], 0).bytes()
    _dispatch(device, ("linalg_det", d.name),
              lambda: (source.render("linalg_lu_det.wgsl", HELPERS=source.helpers([d]), T=T, WG=WG,
                                     NEG_INF=_neg_inf(T)), [True, True, True, False]), bufs, params, grid)


def nanfill(device, info, x, per: int, batch: int) -> None:
    """NaN into the ``per`` elements of each matrix of the contiguous stack ``x`` whose info word is set."""
    total = per * batch
    if total == 0:
        return
    d = x.dtype
    grid = _batch_grid(device, math.ceil(total / WG))
    bufs = [info.mirror.buffer(), x.mirror.buffer_for_write()]
    params = layout.Params().u32(per, total, x.offset, grid[0]).bytes()
    _dispatch(device, ("linalg_nanfill", d.name),
              lambda: (source.render("linalg_lu_nanfill.wgsl", T=d.wgsl, WG=WG, NAN=_nan(d.wgsl)), [True, False]),
              bufs, params, grid)
