"""The factorisation half of ``wg.linalg``: cholesky, solve, inv, det, slogdet, matrix_power (LU with partial
pivoting and Cholesky on the device; the README's linalg section says how)."""
from __future__ import annotations

import math
import operator
import weakref
from collections import OrderedDict
from typing import NamedTuple

import numpy as np

from ... import dtypes as _dt
from ..._array import Array
from ...alloc.mirror import Mirror
from ...kernels import launch as _launch, linalg_factor as _k
from ...kernels.layout import contiguous_strides
from ...ops import core
from ...ops.elementwise import elementwise
from ...ops.indexing import assign
from ...ops.matmul import matmul as _matmul
from ...ops.shape import broadcast_to
from ..creation import eye as _eye, full as _full
from . import embed as _embed

# == the factorisation half: cholesky, solve, inv, det, slogdet, matrix_power (Array API 2024.12).
#
# The compute dtype is float32, or float64 where the device has shader-f64 (integers and bools become float64
# there, as numpy casts them, else float32); the factorisation and the result are computed on the device
# (``kernels/linalg_factor.py``):
#
# - n <= ``kernels.linalg_factor.small_limit`` (64 float32 / 48 float64 on lavapipe): one dispatch a call, several
#   matrices a workgroup in workgroup memory, factored and turned into the result (L, X, A^-1, det) there; the
#   kernel reads the input where it lies when it is already in the compute dtype (``_operand``) and writes the
#   output directly; one status word for the whole batch.  (The blocked path below copies its input into a
#   contiguous stack of n x n matrices in the compute dtype first.)
# - larger n: blocked right-looking LU / Cholesky with panels of ``BLOCK`` columns.  LU: the panel's pivots by
#   tournament pivoting over many workgroups (``tslu``), then L21, the row permutation and the block row U12 in one
#   dispatch (``lu_finish``); Cholesky: the diagonal block by one workgroup, L21 by a row-parallel triangular solve
#   (the upper triangle zeroed once at the end, with the NaNs of failed matrices; the knob
#   ``kernels.linalg_factor.CHOL_FUSED``: both in one launch a panel, ``_cholesky_fused``); both: the trailing
#   update (almost all the flops) by the tiled matmul updating C in place (Cholesky: the lower triangle's tiles
#   only).  solve and inv then run blocked forward and back substitution (trsm on the diagonal blocks,
#   the in-place matmul for the rest).
#
# Failures (a zero pivot in LU, a pivot that is not > 0 in Cholesky) are recorded on the device (the small path:
# one word for the batch; the blocked path: one a matrix).  Results of failed matrices are NaN (never a wrong
# finite answer); in the default error mode ``"raise"`` the call then reads the largest status (4 bytes, one host
# sync) and raises ``LinAlgError`` (numpy's class) as numpy does; ``errors("nan")`` skips that read (CuPy's
# default: no sync).  det and slogdet never raise: a singular matrix has det 0 and slogdet (0, -inf).
LinAlgError = np.linalg.LinAlgError  # the same class: ``except numpy.linalg.LinAlgError`` catches ours
BLOCK = 64  # panel width of the blocked path (tests lower it to reach the blocked path with small matrices)
# Knobs of the large path (issue 12; benchmarks/linbig_sweep.py times every setting against the default):
BLOCK_BIG: int | None = None  # panel width for n >= BIG_N (None: BLOCK)
BIG_N = 2048
CHOL_BLOCK_BIG: int | None = 256  # Cholesky's panel width for n >= BIG_N where kernels.linalg_factor.CHOL_INV takes
# it (its default: on GPUs from BIG_N on; H100 2026-12-06 `python -m benchmarks.linbig_sweep --sizes 4096 --ops
# cholesky`: 128-wide panels of 32-wide diagonal blocks 8.62 ms, 64 / 64 9.50, the fused panel 9.48; fifth session,
# with 64-wide blocks and cholesky_inv's lean code: 128-wide 5.04 ms, 256-wide 4.84, torch 1.93); None: BLOCK_BIG.
# (A left-looking panel, each diagonal block's kernels subtracting the panel's earlier columns themselves so that no
# update launch runs inside a panel, measured 5.50 ms at 128 and 5.65 at 256 the same run: fewer launches, longer
# kernels; removed, branch `cholfuse` of that session.)
# (Sixth session: the columns halved recursively down to the diagonal blocks, the bulk of the flops in a few updates
# with large k: 4.98 against 4.75 ms, with the fused diagonal launches 3.97 against 3.62; the lower-tile-only updates
# with k = 1024 / 2048 ran at 12-15 TFLOP/s; removed.)
# LU's panels (solve, inv) at most this wide: the H100 sweep (2026-12-06, `python -m benchmarks.linbig_sweep`)
# measured 32 against 64: solve 4096 75.7 -> 51.2 ms, inv 88.2 -> 67.3, solve 1024 19.4 -> 17.4, inv 19.8 -> 15.2
# (the tournament panel's latency grows with its width faster than the extra launches cost); Cholesky keeps 64
# (32: 11.75 -> 18.0 ms at 4096)
LU_BLOCK = 32
SUBST_BLOCK: int | None = None  # block height of solve's / inv's substitution (None: the factor's panel width)
INV_TRI = True  # inv: forward pass on I (L^-1 is lower: only columns < k1 a block), the pivots on X's columns last
# (H100 2026-12-06, inv 4096: 49.6 -> 43.9 ms; 1024: 6.46 -> 6.41)
SUBST_OUTER: int | None = None  # the trsm-and-update substitution (inv's; not SUBST_STEP's) in two levels: outer
# blocks of this many rows (rounded down to a multiple of the substitution block, at least one), inside each the
# blocks' trsm and updates of the outer block's own rows only, then ONE update of all remaining rows with
# k = SUBST_OUTER (a compute-bound GEMM where a rank-32 update a block re-reads and re-writes the whole rest of X: inv
# at n = 4096 spent 17 of its 49.6 ms there on the H100); 0: one level (every block updates all remaining rows);
# None: 256 on GPUs, one level on CPU adapters (``kernels.linalg_factor._reg_default``).  H100 2026-12-06 (`python -m
# benchmarks.linbig_sweep --sizes 4096 1024 --ops solve inv`, with INV_TRI): inv 4096 43.9 ms one level, 128 39.9,
# 256 39.3, 512 38.7, 256 with SUBST_OUTER_STEP 37.8 (torch 18.1); inv 1024 6.41 / 6.19 / 6.32 / 6.08 / 6.17
SUBST_OUTER_STEP: bool | None = None  # with SUBST_OUTER: inside an outer block one ``lu_subst`` launch a block (the
# block's triangle solved and the outer block's other rows updated, as SUBST_STEP) instead of a trsm and an update;
# None: on GPUs (the numbers above: 39.3 -> 37.8 ms at 4096, 6.32 -> 6.17 at 1024), off on CPU adapters
FACTOR_OUTER: int | None = None  # LU's trailing update in two levels (as SUBST_OUTER): outer panels of this many
# columns (a multiple of the panel width, at least one panel), each inner panel updating only the outer panel's
# columns right of it (its U12 only there), then the outer panel's block row right of it (trsm and updates a panel,
# after all its swaps) and one update of the rest with k = FACTOR_OUTER, as LAPACK's getrf (rank-32 updates of the
# whole trailing matrix took 6.0 ms of solve's / inv's ~25 ms factorisation at n = 4096 on the H100); 0: every panel
# updates the whole trailing matrix; None: 256 on GPUs from BIG_N on, else one level.  H100 2026-12-06: solve 4096
# 31.65 -> 29.32 ms (128: 29.98; torch 14.4), inv 4096 with the substitution's two levels 36.9 (torch 18.1); lost at
# 1024 (solve 5.94 -> 6.24, inv 6.30 -> 6.62), hence from BIG_N on only
_OUTER_GPU = 256  # SUBST_OUTER's and FACTOR_OUTER's size on GPUs (None)
_MODES = ("raise", "nan")
_mode = "raise"


class SlogdetResult(NamedTuple):
    sign: Array
    logabsdet: Array


class _Errors:
    """What ``errors(mode)`` returns: the mode is set at once; used in a ``with``, the old one comes back at exit."""

    def __init__(self, saved: str) -> None:
        self._saved = saved

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc) -> None:
        global _mode
        _mode = self._saved


def errors(mode: str | None = None):
    """Get or set how failed factorisations are reported: ``"raise"`` (default, numpy's behaviour: NaN results,
    then one 4-byte status read and ``LinAlgError``) or ``"nan"`` (CuPy's default: NaN results, no host sync).
    ``errors()`` returns the current mode; ``errors("nan")`` sets it and, used as ``with wg.linalg.errors("nan"):``,
    restores the previous mode afterwards."""
    global _mode
    if mode is None:
        return _mode
    if mode not in _MODES:
        raise ValueError(f"linalg error mode must be one of {_MODES}, not {mode!r}")
    saved, _mode = _mode, mode
    return _Errors(saved)


# -- input ---------------------------------------------------------------------------------------------------------
def _compute_dtype(d: _dt.DType, dev) -> _dt.DType:
    if d.kind == "f":
        if d is _dt.float16:
            raise TypeError("array type float16 is unsupported in linalg")
        return d
    if d.kind == "c":
        raise TypeError(f"linalg factorisations of {d.name} arrays are not supported")
    return _dt.float64 if dev.supports(_dt.float64) else _dt.default_float  # numpy: integers and bools -> float64


def _square(x, name: str) -> Array:
    x = x if isinstance(x, Array) else core.asarray(x)
    if x.ndim < 2:
        raise LinAlgError(f"{x.ndim}-dimensional array given. Array must be at least two-dimensional")
    if x.shape[-1] != x.shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    return x


def _stack(x: Array, cdt: _dt.DType, batch_shape: tuple[int, ...] | None = None) -> Array:
    """A fresh contiguous (batch, rows, cols) copy of x (broadcast to ``batch_shape`` first) in ``cdt``."""
    if batch_shape is not None:
        x = broadcast_to(x, batch_shape + x.shape[-2:])
    c = core.astype(x, cdt)
    return Array(c.mirror, (math.prod(c.shape[:-2]),) + c.shape[-2:])


def _batch_stride(shape: tuple[int, ...], strides: tuple[int, ...]) -> int | None:
    """The one stride that steps through batch dimensions of ``shape`` in order (0 for a broadcast), or None."""
    dims = [(d, s) for d, s in zip(shape, strides) if d != 1]
    if all(s == 0 for _, s in dims):
        return 0
    for (_, s), (d2, s2) in zip(dims, dims[1:]):
        if s != s2 * d2:
            return None
    return dims[-1][1]


def _operand(x: Array, cdt: _dt.DType, batch_shape: tuple[int, ...] | None = None) -> Array:
    """x (broadcast to ``batch_shape`` first) as the (batch, rows, cols) view the small path's kernel reads: x
    itself when it already is in ``cdt`` with non-negative strides and batch dimensions of one stride (no copy),
    else a contiguous copy."""
    if batch_shape is not None:
        x = broadcast_to(x, batch_shape + x.shape[-2:])
    if x.dtype is cdt and x.mirror.device_nbytes <= x.device.stream.binding_limit:
        sb = _batch_stride(x.shape[:-2], x.strides[:-2])
        if sb is not None and sb >= 0 and min(x.strides[-2:]) >= 0:
            return Array(x.mirror, (math.prod(x.shape[:-2]),) + x.shape[-2:], (sb,) + x.strides[-2:], x.offset)
    return _stack(x, cdt)


def _small(op: str, a: Array, out: Array, message: str, b: Array | None = None, upper: bool = False,
           key: tuple | None = None, sources: tuple = (), extra: object = None) -> None:
    """The small path: one dispatch into ``out``.  In the 'raise' mode its status word is zeroed first (a 4-byte
    write, no dispatch) and read after (4 bytes, ``message`` for the LinAlgError); otherwise it is scratch.
    ``key`` (``_recipe_key``'s, of the caller's operands ``sources``): where the kernel reads those operands' own
    bases (no copy was made), the launch is kept as the recipe of ``key`` (``extra``: what the caller's fast path
    needs besides the output) for ``_fast``."""
    dev = out.device
    status = Mirror(_dt.uint32, 1, dev)
    plan = _checked(status, message, lambda: _k.small(dev, op, a, out, Array._contiguous(status, (1,)), b=b,
                                                       upper=upper))
    if key is not None and plan is not None and a.mirror is sources[0] and (b is None or b.mirror is sources[1]):
        plans = dev.plans
        if len(plans) >= _MAX_RECIPES:
            plans.clear()  # as kernels.elementwise bounds the device's plan cache
        plans[key] = (plan, out.dtype, out.shape, out.size, message, extra)


def _checked(status: Mirror, message: str, launch, *args):
    """``launch(*args)`` (the small path's one dispatch, writing failures into ``status``) with the error mode's
    status handling around it; returns what ``launch`` returns."""
    check = _mode == "raise" and bool(message)
    if check:
        status.host_for_write(whole=True)[0] = 0  # uploaded by the dispatch: a 4-byte queue write
    plan = launch(*args)
    if check and int(status.host()[0]):
        raise LinAlgError(message)
    return plan


# The small path's recipes (issue 12: a small call's host time): a call whose operands have the layouts, dtypes and
# base sizes of an earlier call that launched the small kernel on them in place repeats that launch on the new
# bases: no input checks, dtype decisions, broadcasting, views, pipeline lookup or parameter packing; what is left
# is the result's and the status word's bases and the dispatch.  Keyed (``_recipe_key``) by the op, each operand's
# dtype, base size, shape, strides and offset, ``upper`` and the knobs the path reads (``kernels.linalg_factor``'s
# SMALL_MAX and SMALL_GROUP); kept in the device's plan cache (per device, cleared with it).  The error mode is not
# part of the recipe: each call reads it.
SMALL_RECIPES = True  # the small path's recipes on (off: none made or used; benchmarks/smallhost_sweep.py times both)
_RECIPE = object()  # the first item of a recipe's key (the plan cache holds other kernels' plans too)
_MAX_RECIPES = 4096


def _recipe_key(op: str, x: Array, b: Array | None = None, upper: bool = False) -> tuple:
    m = x.mirror
    if b is None:
        return (_RECIPE, op, m.dtype, m.size, x.shape, x.strides, x.offset, upper, _k.SMALL_MAX, _k.SMALL_GROUP)
    mb = b.mirror
    return (_RECIPE, op, m.dtype, m.size, x.shape, x.strides, x.offset, mb.dtype, mb.size, b.shape, b.strides,
            b.offset, _k.SMALL_MAX, _k.SMALL_GROUP)


def _fast(key: tuple, x: Array, b: Array | None = None):
    """The recipe of ``key`` launched on x's (and b's) bases: (the result's base, the recipe), or None where there
    is no recipe (or the operands are on another or a closed device: the general path says so)."""
    if not SMALL_RECIPES:
        return None
    m = x.mirror
    dev = m.device
    recipe = dev.plans.get(key)
    if recipe is None or dev.stream.closed or b is not None and b.mirror.device is not dev:
        return None
    plan, cdt, _, size, message, _ = recipe
    out = Mirror(cdt, size, dev)
    status = Mirror(_dt.uint32, 1, dev)
    mb = b.mirror if b is not None else None
    _checked(status, message, _k.small_again, dev, plan, m, mb, out, status)
    return out, recipe


def _block(w: Array, r: int, c: int, h: int, wd: int) -> Array:
    """The (batch, h, wd) view of rows r.., columns c.. of each matrix of the contiguous stack w."""
    b, m, n = w.shape
    return Array._trusted_view(w.mirror, (b, h, wd), (m * n, n, 1), r * n + c)


def _status(batch: int, n: int, dev) -> tuple[Array, Array]:
    """The info words (zeroed) and the pivots (batch x n) of a stack's factorisation."""
    return (_full((batch,), 0, dtype=_dt.uint32, device=dev),
            core.new_array((batch, max(n, 1)), _dt.uint32, dev))


def _check(info: Array, message: str) -> None:
    """In the 'raise' mode: LinAlgError where some matrix failed (its info word set), except for the blocked LU's
    NaN mark (``NAN_INFO``: NaN input gives NaN, as the small path's).  One read of the info words (4 bytes a
    matrix; the blocked path's stacks are short)."""
    if _mode == "raise" and info.size:
        words = info.numpy()
        if np.any((words != 0) & (words != _k.NAN_INFO)):
            raise LinAlgError(message)


# -- factorisations on contiguous stacks ------------------------------------------------------------------------------
def _width(n: int, lu: bool) -> int:
    """The panel width of the blocked factorisation of order n (LU: at most LU_BLOCK)."""
    width = BLOCK_BIG if BLOCK_BIG and n >= BIG_N else BLOCK
    return min(width, LU_BLOCK) if lu else width


def _chol_plan(w: Array) -> tuple[str, int, int]:
    """How the blocked Cholesky of the stack w runs: ("inv", panel width, diagonal-block width) for
    ``kernels.linalg_factor.CHOL_INV``, ("fused", panel width, 0) for CHOL_FUSED, else ("blocked", panel width, 0)."""
    dev = w.device
    n = w.shape[1]
    width = _width(n, False)
    big = n >= BIG_N
    cwidth = CHOL_BLOCK_BIG if big and CHOL_BLOCK_BIG else width
    if _k.chol_inv(dev, w.dtype, cwidth, big):
        return "inv", cwidth, min(cwidth, _k.chol_inv_inner(big))
    if _k.chol_fused(dev, w.dtype, width):
        return "fused", width, 0
    return "blocked", width, 0


def _chol_scratch(w: Array, plan: tuple[str, int, int]) -> Mirror:
    """The scratch of a blocked Cholesky that runs by ``plan``: a diagonal block's W a matrix ("inv"; with
    ``kernels.linalg_factor.CHOL_INV_FUSE_APPLY`` two slots of a block's L11 instead), a panel's L11 a matrix
    ("fused"); one element otherwise (unused)."""
    kind, width, inner = plan
    side = _k._bucket(inner) if kind == "inv" else width if kind == "fused" else 1
    slots = 2 if kind == "inv" and _k.chol_inv_fuse(w.device, w.dtype, inner) else 1
    return Mirror(w.dtype, max(w.shape[0] * slots * side * side, 1), w.device)


def _factor(w: Array, info: Array, piv: Array, lu: bool, ws: _k.Workspace | Mirror | None = None) -> None:
    """The stack w factored in place: LU with partial pivoting (``lu``: pivots into piv; ``ws``: the tournament's
    scratch, made here if None) or lower Cholesky (``ws``: its scratch from ``_chol_scratch``, made here if None;
    only the lower triangle is written: the caller zeroes the upper one, as ``cholesky`` does with
    ``chol_finish``); failures into info."""
    dev = w.device
    batch, n, _ = w.shape
    width = _width(n, lu)
    if lu and ws is None:
        ws = _k.Workspace(dev, w.dtype, n, batch, width)
    if lu:  # NaN input marked first: the tournament's pivot search passes over NaN (a zero pivot must not hide it)
        _k.nanscan(dev, w, info, n, batch)
    if not lu:
        plan = _chol_plan(w)
        if plan[0] != "blocked":
            scratch = ws if isinstance(ws, Mirror) else _chol_scratch(w, plan)
            if plan[0] == "inv":
                _cholesky_inv(w, info, plan[1], plan[2], scratch)
            else:
                _cholesky_fused(w, info, width, scratch)
            return
    outer = _factor_outer(dev, n, width) if lu else n
    for k0 in range(0, n, width):
        nb = min(width, n - k0)
        k1 = k0 + nb
        diag = _block(w, k0, k0, nb, nb)
        lower = _block(w, k1, k0, n - k1, nb)  # L21
        o0 = k0 // outer * outer  # the outer panel [o0, o1) (one level: [0, n))
        o1 = min(o0 + outer, n)
        if lu:  # tournament pivoting: pivots, [L11 \ U11]; then L21, the swaps elsewhere and U12 in one dispatch
            _k.tslu(dev, w, piv, info, n, batch, k0, nb, ws)
            _k.lu_finish(dev, w, ws, n, batch, k0, nb, cend=o1)  # two levels: U12 within the outer panel
        else:  # Cholesky: the diagonal block
            _k.cholesky_block(dev, w, info, n, batch, k0, nb)
        if k1 == n:
            break
        if outer < n:  # two levels: the outer panel's columns right of this panel (all rows below)
            if k1 < o1:
                _k.update(dev, _block(w, k1, k1, n - k1, o1 - k1), lower, _block(w, k0, k1, nb, o1 - k1))
                continue
            # the outer panel done (its rows' swaps applied everywhere): its block row right of it U12 = L11^-1 A12
            # by blocks (trsm, then the outer panel's rows below), then the rest in one update with k = o1 - o0
            right = n - o1
            for j0 in range(o0, o1, width):
                j1 = min(j0 + width, o1)
                _k.trsm(dev, _block(w, j0, j0, j1 - j0, j1 - j0), _block(w, j0, o1, j1 - j0, right), lower=True,
                        unit=True)
                if j1 < o1:
                    _k.update(dev, _block(w, j1, o1, o1 - j1, right), _block(w, j1, j0, o1 - j1, j1 - j0),
                              _block(w, j0, o1, j1 - j0, right))
            _k.update(dev, _block(w, o1, o1, right, right), _block(w, o1, o0, right, o1 - o0),
                      _block(w, o0, o1, o1 - o0, right))
            continue
        if lu:
            upper = _block(w, k0, k1, nb, n - k1)  # U12
        else:  # L21 = A21 L11^-T: the left solve L11 X = A21^T on the transposed view
            _k.trsm(dev, diag, lower.mT, lower=True, unit=False)
            upper = lower.mT
        _k.update(dev, _block(w, k1, k1, n - k1, n - k1), lower, upper, tri=not lu)


def _cholesky_fused(w: Array, info: Array, width: int, ws: Mirror) -> None:
    """Cholesky in place with one launch a panel (``kernels.linalg_factor.cholesky_panel``) and the trailing
    update; ``ws`` holds a panel's L11 until the next panel stores it."""
    dev = w.device
    batch, n, _ = w.shape
    prev, pnb = -1, 0
    for k0 in range(0, n, width):
        nb = min(width, n - k0)
        k1 = k0 + nb
        _k.cholesky_panel(dev, w, info, ws, n, batch, k0, nb, prev, pnb)
        if k1 == n:
            break
        lower = _block(w, k1, k0, n - k1, nb)
        _k.update(dev, _block(w, k1, k1, n - k1, n - k1), lower, lower.mT, tri=True)
        prev, pnb = k0, nb


def _chol_diag(w: Array, info: Array, s0: int, sb: int, ws: Mirror, pend: list | None) -> None:
    """CHOL_INV's diagonal block [s0, s0 + sb) and L21 = A21 W below it: ``cholesky_inv`` then ``cholesky_apply``, or
    with ``pend`` (``CHOL_INV_FUSE_APPLY``: [prev, pnb, slot], the block whose L11 waits in ws's slot 1 - slot, -1:
    none; updated here) one ``cholesky_inv_apply`` launch."""
    dev = w.device
    batch, n, _ = w.shape
    s1 = s0 + sb
    if pend is not None:
        _k.cholesky_inv_apply(dev, w, info, ws, n, batch, s0, sb, *pend)
        pend[:] = [s0, sb, 1 - pend[2]]
        return
    _k.cholesky_inv(dev, w, info, ws, n, batch, s0, sb, s1 < n)
    if s1 < n:
        _k.cholesky_apply(dev, w, ws, n, batch, s0, sb)


def _cholesky_inv(w: Array, info: Array, width: int, inner: int, ws: Mirror) -> None:
    """Cholesky in place, trsm as GEMM (``kernels.linalg_factor.CHOL_INV``): per diagonal block the block and
    W = L11^-T (``cholesky_inv``), L21 = A21 W (``cholesky_apply``); panels wider than ``CHOL_INV_INNER`` as
    sub-panels (``inner`` wide), each also updating the panel's columns right of it; then the trailing update of the
    whole panel; ``ws`` holds a diagonal block's W.  With ``CHOL_INV_FUSE_APPLY`` (``chol_inv_fuse``) both in one
    launch a block (``cholesky_inv_apply``, ``_chol_diag``): each block's L11 waits in one of ws's two slots
    (alternating) until the next block's launch copies it into the matrix, the last block's straight in.  Deferring
    that store is safe: after a block's launch nothing reads its diagonal block again (the in-panel update reads
    L21 = rows s1.. of columns [s0, s1) and writes columns [s1, k1); the trailing update reads rows k1.. of the
    panel's columns and writes [k1, n)^2; the next blocks' launches read their own diagonal blocks and the rows
    below them), and the last block's launch (s1 == n) writes the pending L11 before the call returns."""
    dev = w.device
    batch, n, _ = w.shape
    pend = [-1, 0, 0] if _k.chol_inv_fuse(dev, w.dtype, inner) else None
    for k0 in range(0, n, width):
        k1 = min(k0 + width, n)
        for s0 in range(k0, k1, inner):
            sb = min(inner, k1 - s0)
            s1 = s0 + sb
            _chol_diag(w, info, s0, sb, ws, pend)
            if s1 == n:
                return
            lower = _block(w, s1, s0, n - s1, sb)
            if s1 < k1:  # the panel's columns right of this block: C[s1:, s1:k1] -= L[s1:, s0:s1] L[s1:k1, s0:s1]^T
                _k.update(dev, _block(w, s1, s1, n - s1, k1 - s1), lower, _block(w, s1, s0, k1 - s1, sb).mT,
                          tri=True)
        lower = _block(w, k1, k0, n - k1, k1 - k0)
        _k.update(dev, _block(w, k1, k1, n - k1, n - k1), lower, lower.mT, tri=True)


def _subst_block(n: int) -> int:
    """The substitution's block height for order n."""
    return SUBST_BLOCK or _width(n, True)


def _outer(size: int, n: int, block: int) -> int:
    """A two-level outer block: ``size`` rounded down to a multiple of ``block``, at least one (0: n, one level)."""
    return max(block, size // block * block) if size else n


def _subst_outer(dev, n: int, block: int) -> int:
    """The outer block height of the two-level substitution (``SUBST_OUTER``; n: one level)."""
    size = (_OUTER_GPU if _k._reg_default(dev) else 0) if SUBST_OUTER is None else SUBST_OUTER
    return _outer(size, n, block)


def _factor_outer(dev, n: int, width: int) -> int:
    """The outer panel width of LU's two-level trailing update (``FACTOR_OUTER``; n: one level)."""
    size = (_OUTER_GPU if _k._reg_default(dev) and n >= BIG_N else 0) if FACTOR_OUTER is None else FACTOR_OUTER
    return _outer(size, n, width)


def _subst_step(w: Array, k: int) -> bool:
    """Whether ``kernels.linalg_factor.SUBST_STEP`` takes the substitution of w's stack with k right-hand sides."""
    return _k.subst_step(w.device, w.dtype, _subst_block(w.shape[1]), k)


def _lu_solve(w: Array, piv: Array, x: Array, tri: bool = False, step: bool = False) -> None:
    """X = A^-1 X in place for the LU-factored stack w (blocked substitution; the large path).  ``tri``: X is I
    (inv): the forward pass solves L Y = I on the lower triangle's block columns only (L^-1 is lower), and the
    pivots go on X's columns at the end (A^-1 = U^-1 L^-1 P).  ``step`` (from ``_subst_step``): one launch a
    block (``kernels.linalg_factor.SUBST_STEP``) instead of a trsm and an update."""
    dev = w.device
    batch, n, _ = w.shape
    k = x.shape[-1]
    block = _subst_block(n)

    def pivots_first() -> None:  # P X
        if not tri:
            _k.swap(dev, piv, x, n, 0, n)

    def pivots_last() -> None:  # X P (tri): the swaps on the columns, last pivot first
        if tri:
            _k.swap(dev, piv, x.mT, n, 0, n, reverse=True)

    if step:  # per block X[t] = T^-1 (X[t] - A[t, s] X[s]) and the other rows' update, one launch
        pivots_first()
        nblk = -(-n // block)
        for t in range(nblk):  # forward: L (unit lower), the rows below t updated from the block before it (none first)
            below = min((t + 1) * block, n)
            _k.lu_subst(dev, w, x, n, batch, block, t - 1 if t else None, t, False, below, n if t else below,
                        kc=(t + 1) * block if tri else None)
        for t in reversed(range(nblk)):  # backward: U, the rows above t updated from the block after it
            last = t + 1 == nblk
            _k.lu_subst(dev, w, x, n, batch, block, None if last else t + 1, t, True, 0, 0 if last else t * block)
        pivots_last()
        return

    def rows(r: int, h: int, cols: int = k) -> Array:
        return Array._trusted_view(x.mirror, (batch, h, cols), (n * k, k, 1), r * k)

    pivots_first()
    outer = _subst_outer(dev, n, block)
    spans = [(o0, min(o0 + outer, n)) for o0 in range(0, n, outer)]
    inner_step = ((_k._reg_default(dev) if SUBST_OUTER_STEP is None else SUBST_OUTER_STEP) and outer < n
                  and _k.lu_subst_fits(dev, w.dtype, block))
    for o0, o1 in spans:  # forward: L (unit lower); with tri X's rows < o1 are zero right of column o1
        if inner_step:  # block t finished from t - 1, the outer block's rows past t updated from t - 1
            tb = o0 // block
            for t in range(tb, -(-o1 // block)):
                below = min((t + 1) * block, o1)
                _k.lu_subst(dev, w, x, n, batch, block, t - 1 if t > tb else None, t, False, below,
                            o1 if t > tb else below, kc=(t + 1) * block if tri else None)
        else:
            for k0 in range(o0, o1, block):
                k1 = min(k0 + block, o1)
                cols = k1 if tri else k
                _k.trsm(dev, _block(w, k0, k0, k1 - k0, k1 - k0), rows(k0, k1 - k0, cols), lower=True, unit=True)
                if k1 < o1:  # the outer block's own rows below (with one level: all rows below)
                    _k.update(dev, rows(k1, o1 - k1, cols), _block(w, k1, k0, o1 - k1, k1 - k0),
                              rows(k0, k1 - k0, cols))
        if o1 < n:  # the rows below the outer block, one GEMM with k = o1 - o0
            cols = o1 if tri else k
            _k.update(dev, rows(o1, n - o1, cols), _block(w, o1, o0, n - o1, o1 - o0), rows(o0, o1 - o0, cols))
    for o0, o1 in reversed(spans):  # backward: U, the rows above each block
        if inner_step:  # block t finished from t + 1, the outer block's rows before t updated from t + 1
            te = -(-o1 // block)
            for t in reversed(range(o0 // block, te)):
                last = t + 1 == te
                _k.lu_subst(dev, w, x, n, batch, block, None if last else t + 1, t, True, o0,
                            o0 if last else t * block)
        else:
            for k0 in reversed(range(o0, o1, block)):
                k1 = min(k0 + block, o1)
                _k.trsm(dev, _block(w, k0, k0, k1 - k0, k1 - k0), rows(k0, k1 - k0), lower=False, unit=False)
                if k0 > o0:
                    _k.update(dev, rows(o0, k0 - o0), _block(w, o0, k0, k0 - o0, k1 - k0), rows(k0, k1 - k0))
        if o0 > 0:
            _k.update(dev, rows(0, o0), _block(w, 0, o0, o0, o1 - o0), rows(o0, o1 - o0))
    pivots_last()


REPLAY = True  # solve / inv / cholesky: the blocked factorisation's and substitution's launches recorded once per shape and
# knob settings and replayed on later calls (their buffers swapped in): the host's ~10 us of Python a launch in the
# drivers become ~1 (hundreds to a thousand launches a call at n = 1024 .. 4096).  H100 2026-12-06
# (`python -m benchmarks.linbig_sweep`): n = 1024 solve 10.6 -> 7.9 ms, inv 10.0 -> 7.2 (host 8.6 -> 3.3 ms); n = 4096
# within noise (33.4 / 49.6 -> 34.0 / 50.4 ms: the device's work bounds it there); cholesky 4096 12.77 -> 8.66 ms
# (its 385 launches made it host-bound), 1024 2.64 -> 2.29 (H100, fourth session).  The key holds every knob that
# shapes the launches, matmul's tile choice included (``matmul.choice_state``).
_recipes: "weakref.WeakKeyDictionary[object, OrderedDict]" = weakref.WeakKeyDictionary()
_RECIPES = 16  # recipes a device keeps (the least recently used dropped)


def _knobs() -> tuple:
    """The settings that shape the drivers' launches (a recipe is valid for these only)."""
    from ...kernels import matmul as _mm
    return (BLOCK, BLOCK_BIG, BIG_N, LU_BLOCK, SUBST_BLOCK, SUBST_OUTER, SUBST_OUTER_STEP, FACTOR_OUTER, _k.SMALL_MAX,
            _k.WG, _k.PANEL_WG, _k.TSLU_IDS, _k.TSLU_REG, _k.TSLU_SUBGROUP, _k.TSLU_SG_FINAL, _k.tslu_rows, _k.TRSM_REG,
            _k.LU_FINISH_REG, _k.SUBST_STEP, _k.SUBST_STEP_MAX_K, _k.SUBST_COLS, CHOL_BLOCK_BIG, _k.CHOL_INV,
            _k.CHOL_FUSED, _k.CHOL_INV_FUSE_APPLY, _k.CHOL_INV_INNER, _k.CHOL_INV_INNER_BIG,
            _k.CHOL_APPLY_ROWS, _k.CHOL_ROWS,
            _k._chol_inv_opts(), _OUTER_GPU, _k.SG_MIN, _mm.choice_state())


def _replayed(dev, key: tuple, mirrors: list, launches) -> None:
    """``launches()``, whose every launch binds some of ``mirrors`` whole (and nothing else): with REPLAY, recorded
    the first time for ``key`` and the knobs, and later replayed on these mirrors' buffers (each bound for writing
    once, before the first launch: the launches in between touch nothing on the host).  A run that binds anything
    else (or on another device) is not kept."""
    if not REPLAY:
        launches()
        return
    key = (key, _knobs(), _k._reg_default(dev))  # the None knobs' GPU / CPU defaults (tests simulate either)
    cache = _recipes.setdefault(dev, OrderedDict())
    steps = cache.get(key)
    if steps is not None:
        cache.move_to_end(key)
        buffers = [m.buffer_for_write() for m in mirrors]
        for kernel, slots, params, grid, work in steps:
            _launch.dispatch(dev, kernel, [buffers[i] for i in slots], params, grid=grid, work=work)
        return
    with _launch.recording() as rec:
        launches()
    slot = {m.buffer(): i for i, m in enumerate(mirrors)}
    steps = []
    for d, kernel, bufs, params, grid, work, ranges in rec:
        if d is not dev or ranges is not None or any(b not in slot for b in bufs):
            return
        steps.append((kernel, tuple(slot[b] for b in bufs), params, grid, work))
    cache[key] = steps
    while len(cache) > _RECIPES:
        cache.popitem(last=False)


def _solve_stack(w: Array, x: Array, gen_id: bool) -> None:
    """X = A^-1 B (or A^-1 with ``gen_id``, x then uninitialised) in place; NaN for singular A; raises in
    'raise' mode."""
    dev = w.device
    batch, n, _ = w.shape
    info, piv = _status(batch, n, dev)
    if gen_id:
        eye = _eye(n, dtype=x.dtype, device=dev)
        assign(Array(x.mirror, x.shape, x.strides, x.offset), broadcast_to(eye, x.shape))
    ws = _k.Workspace(dev, w.dtype, n, batch, _width(n, True))
    tri = gen_id and INV_TRI
    step = _subst_step(w, x.shape[-1])

    def launches() -> None:
        _factor(w, info, piv, True, ws)
        _lu_solve(w, piv, x, tri=tri, step=step)
    _replayed(dev, ("lu_solve", w.dtype.name, batch, n, x.shape, tri),
              [w.mirror, x.mirror, piv.mirror, info.mirror, ws.scratch, ws.cand, ws.perm], launches)
    _k.nanfill(dev, info, x, n * x.shape[-1], batch)
    _check(info, "Singular matrix")


# -- the public functions ---------------------------------------------------------------------------------------------
def cholesky(x: Array, /, *, upper: bool = False) -> Array:
    """The Cholesky factor of each symmetric (Hermitian) positive-definite matrix of x: lower L with A = L L^H
    (from the lower triangle of x), or with ``upper`` U = L^H with A = U^H U (from the upper triangle, as numpy
    reads it).  Complex x through the real factor of its interleaved embedding (embed.py).
    Not positive definite: NaN for that matrix, and LinAlgError in the 'raise' mode."""
    key = None
    if SMALL_RECIPES and type(x) is Array:
        key = _recipe_key("cholesky", x, upper=upper) + _k.small_chol_key(x.mirror.device)
        hit = _fast(key, x)
        if hit is not None:
            return Array._contiguous(hit[0], hit[1][2])
    x = _square(x, "cholesky")
    if x.dtype.kind == "c":  # cholesky of the interleaved embedding is the embedding of L (embed.py)
        src = elementwise("conj", x).mT if upper else x  # the upper triangle, as the lower one of A^H
        low = _embed.triangle_from_interleaved(cholesky(_embed.interleaved_hermitian(src)), x.dtype)
        return elementwise("conj", low).mT if upper else low
    dev = x.device
    cdt = _compute_dtype(x.dtype, dev)
    src = x.mT if upper else x
    if x.shape[-1] <= _k.small_limit(dev, cdt):
        out = core.new_array(x.shape, cdt, dev)
        if out.size:
            _small("cholesky", _operand(src, cdt), out, "Matrix is not positive definite", upper=upper, key=key,
                   sources=(x.mirror,))
        return out
    w = _stack(src, cdt)
    batch, n, _ = w.shape
    if batch * n:
        info, piv = _status(batch, n, dev)
        scratch = _chol_scratch(w, _chol_plan(w))
        _replayed(dev, ("cholesky", w.dtype.name, batch, n), [w.mirror, info.mirror, scratch],
                  lambda: _factor(w, info, piv, False, scratch))
        _k.chol_finish(dev, info, w, n, batch)  # NaN for failures, and the upper triangle's zeros
        _check(info, "Matrix is not positive definite")
    out = Array(w.mirror, x.shape)
    return core.astype(out.mT, cdt) if upper else out


def solve(x1: Array, x2: Array, /) -> Array:
    """The solution X of x1 X = x2 for each square matrix of x1: x2 is one vector per system (shape (..., M))
    only when x2.ndim == 1, otherwise a stack of (M, K) matrices; batch dimensions broadcast.  A singular x1 gives
    NaN, and LinAlgError in the 'raise' mode."""
    key = None
    if SMALL_RECIPES and type(x1) is Array and type(x2) is Array:
        key = _recipe_key("solve", x1, x2) + _k.small_lu_key(x1.mirror.device)
        hit = _fast(key, x1, x2)
        if hit is not None:
            return Array._contiguous(hit[0], hit[1][2])
    a = _square(x1, "solve")
    dev = a.device
    b = x2 if isinstance(x2, Array) else core.asarray(x2, device=dev)
    core.common_device([a, b])
    if a.dtype.kind == "c" or b.dtype.kind == "c":
        return _solve_complex(a, b)
    cdt = _compute_dtype(_dt.result_type(_compute_dtype(a.dtype, dev), _compute_dtype(b.dtype, dev)), dev)
    n = a.shape[-1]
    vector = b.ndim == 1
    if vector:
        b = b[:, None]
    if b.ndim < 2 or b.shape[-2] != n:
        raise ValueError(f"solve: x2 of shape {x2.shape} does not match the {n} x {n} matrices of x1")
    try:
        batch = tuple(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
    except ValueError:
        raise ValueError(f"solve: batch dimensions of {a.shape} and {x2.shape} do not broadcast") from None
    shape = batch + ((n,) if vector else (n, b.shape[-1]))
    if n <= _k.small_limit(dev, cdt):
        out = core.new_array(shape, cdt, dev)
        if out.size:
            _small("solve", _operand(a, cdt, batch), out, "Singular matrix", b=_operand(b, cdt, batch), key=key,
                   sources=(a.mirror, b.mirror))
        return out
    w = _stack(a, cdt, batch)
    x = _stack(b, cdt, batch)
    if x.size:
        _solve_stack(w, x, gen_id=False)
    return Array(x.mirror, shape)


def _solve_complex(a: Array, b: Array) -> Array:
    """solve() with a complex operand: E(A) [Re X; Im X] = [Re B; Im B] (embed.py), in the complex dtype of the
    operands' common precision."""
    cdt = _dt.result_type(*(d if d.kind in "fc" else _compute_dtype(d, a.device) for d in (a.dtype, b.dtype)))
    a, b = core.astype(a, cdt), core.astype(b, cdt)
    n = a.shape[-1]
    axis = -1 if b.ndim == 1 else -2
    return _embed.unstack_parts(solve(_embed.embed(a), _embed.stack_parts(b, axis)), n, axis, cdt)


def inv(x: Array, /) -> Array:
    """The inverse of each square matrix of x (A X = I by LU with partial pivoting).  A singular matrix gives NaN,
    and LinAlgError in the 'raise' mode."""
    key = None
    if SMALL_RECIPES and type(x) is Array:
        key = _recipe_key("inv", x) + _k.small_lu_key(x.mirror.device)
        hit = _fast(key, x)
        if hit is not None:
            return Array._contiguous(hit[0], hit[1][2])
    x = _square(x, "inv")
    if x.dtype.kind == "c":  # inv(E(A)) = E(inv(A)): its first block column holds [Re; Im] of inv(A)
        n = x.shape[-1]
        return _embed.unstack_parts(inv(_embed.embed(x))[..., :n], n, -2, x.dtype)
    dev = x.device
    cdt = _compute_dtype(x.dtype, dev)
    if x.shape[-1] <= _k.small_limit(dev, cdt):
        out = core.new_array(x.shape, cdt, dev)
        if out.size:
            _small("inv", _operand(x, cdt), out, "Singular matrix", key=key, sources=(x.mirror,))
        return out
    w = _stack(x, cdt)
    out = core.new_array(w.shape, cdt, dev)
    if out.size:
        _solve_stack(w, out, gen_id=True)
    return Array(out.mirror, x.shape)


def _det_parts(x: Array) -> tuple[Array, tuple[int, ...], tuple[int, ...]]:
    """(batch, 3) rows of (det, sign, log|det|) for each matrix of x, the batch shape and the strides of a column
    (``_column``'s)."""
    key = None
    if SMALL_RECIPES and type(x) is Array:
        key = _recipe_key("det", x)
        hit = _fast(key, x)
        if hit is not None:
            recipe = hit[1]
            return Array._contiguous(hit[0], recipe[2]), *recipe[5]
    x = _square(x, "det")
    dev = x.device
    cdt = x.dtype if x.dtype.kind == "c" else _compute_dtype(x.dtype, dev)
    bshape = x.shape[:-2]
    batch, n = math.prod(bshape), x.shape[-1]
    if n == 0:  # the empty product: det 1, sign 1, log|det| 0
        row = core.asarray(np.array([1.0, 1.0, 0.0]), dtype=cdt, device=dev)
        out = core.astype(broadcast_to(row, (batch, 3)), cdt)
        return out, bshape, _column_strides(bshape)
    if cdt.kind == "c":  # complex LU in global memory, one workgroup a matrix (any n): (det, sign, (log|det|, 0))
        out = core.new_array((batch, 3), cdt, dev)
        if batch:
            w = _stack(x, cdt)
            info, piv = _status(batch, n, dev)
            _k.lu_global(dev, w, piv, info, out, n, batch)
            _k.det(dev, w, piv, info, out, n, batch)
        return out, bshape, _column_strides(bshape)
    out = core.new_array((batch, 3), cdt, dev)
    if n <= _k.small_limit(dev, cdt):
        if batch:
            _small("det", _operand(x, cdt), out, "", key=key, sources=(x.mirror,),
                   extra=(bshape, _column_strides(bshape)))
        return out, bshape, _column_strides(bshape)
    w = _stack(x, cdt)
    info, piv = _status(batch, n, dev)
    if batch:
        _factor(w, info, piv, True)
        _k.det(dev, w, piv, info, out, n, batch)
    return out, bshape, _column_strides(bshape)


def _column_strides(bshape: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(3 * s for s in contiguous_strides(bshape))


def _column(out: Array, bshape: tuple[int, ...], strides: tuple[int, ...], j: int) -> Array:
    """Column j of the (batch, 3) rows ``out`` as an array of the batch shape."""
    return Array._trusted_view(out.mirror, bshape, strides, j)


def det(x: Array, /) -> Array:
    """The determinant of each square matrix of x: sign * exp(log|det|) from the LU factors, as numpy computes it
    (0 for a singular matrix, 1 for a 0 x 0 one).  Complex x: complex LU with partial pivoting by |Re| + |Im|
    (LAPACK's izamax), det complex."""
    out, bshape, strides = _det_parts(x)
    return _column(out, bshape, strides, 0)


def slogdet(x: Array, /) -> SlogdetResult:
    """(sign, log|det|) of each square matrix of x: (0, -inf) for a singular matrix, (1, 0) for a 0 x 0 one.
    Complex x: sign is the complex number det / |det| of modulus 1 (0 when singular), log|det| real (x's real
    dtype), as numpy's."""
    out, bshape, strides = _det_parts(x)
    logabs = _column(out, bshape, strides, 2)
    if logabs.dtype.kind == "c":
        logabs = elementwise("real", logabs)
    return SlogdetResult(_column(out, bshape, strides, 1), logabs)


def matrix_power(x: Array, n: int, /) -> Array:
    """x raised to the integer power n by repeated squaring (matmul): n = 0 gives the identity (in x's dtype),
    negative n powers of inv(x)."""
    x = _square(x, "matrix_power")
    if isinstance(n, (bool, np.bool_)):
        raise TypeError("exponent must be an integer")
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError("exponent must be an integer") from None
    if n == 0:
        eye = _eye(x.shape[-1], dtype=x.dtype, device=x.device)
        return core.astype(broadcast_to(eye, x.shape), x.dtype)
    if n < 0:
        x = inv(x)
        n = -n
    result: Array | None = None
    base = x
    while True:
        if n & 1:
            result = base if result is None else _matmul(result, base)
        n >>= 1
        if not n:
            break
        base = _matmul(base, base)
    return core.astype(result, result.dtype) if result is x else result
