"""The factorisation half of ``wg.linalg``: cholesky, solve, inv, det, slogdet, matrix_power (LU with partial
pivoting and Cholesky on the device; the README's linalg section says how)."""
from __future__ import annotations

import math
import operator
from typing import NamedTuple

import numpy as np

from ... import dtypes as _dt
from ..._array import Array
from ...kernels import linalg_factor as _k
from ...kernels.layout import contiguous_strides
from ...ops import core
from ...ops.elementwise import inplace
from ...ops.indexing import assign
from ...ops.matmul import matmul as _matmul
from ...ops.reduction import reduce
from ...ops.shape import broadcast_to
from ..creation import eye as _eye, full as _full

# == the factorisation half: cholesky, solve, inv, det, slogdet, matrix_power (Array API 2024.12).
#
# Every function copies its input into a contiguous stack of n x n matrices in the compute dtype (float32, or
# float64 where the device has shader-f64; integers and bools become float64 there, as numpy casts them, else
# float32), factors it on the device and computes the result there (``kernels/linalg_factor.py``):
#
# - n <= ``kernels.linalg_factor.small_limit`` (64 float32 / 48 float64 on lavapipe): one workgroup a matrix with the
#   matrix in workgroup memory; solve and inv factor and solve in the same dispatch.
# - larger n: blocked right-looking LU / Cholesky with panels of ``BLOCK`` columns, each piece split recursively
#   by halves: the LU panel (``_lu_panel``) and the Cholesky diagonal block (``_chol_block``) down to leaves that
#   one workgroup factors, triangular solves (``_trsm``) down to column-parallel leaves; every remaining flop
#   (trailing updates, the halves' Schur complements, the off-diagonal parts of trsm) goes to the tiled matmul.
#   solve and inv then run the forward and back substitution as two such trsm over all n rows.
#
# Failures (a zero pivot in LU, a pivot that is not > 0 in Cholesky) are recorded in one status word a matrix on
# the device.  Results of failed matrices are NaN (never a wrong finite answer); in the default error mode
# ``"raise"`` the call then reads the largest status word (4 bytes, one host sync) and raises
# ``LinAlgError`` (numpy's class) as numpy does; ``errors("nan")`` skips that read (CuPy's default: no sync).
# det and slogdet never raise: a singular matrix has det 0 and slogdet (0, -inf).
LinAlgError = np.linalg.LinAlgError  # the same class: ``except numpy.linalg.LinAlgError`` catches ours
BLOCK = 128  # panel width of the blocked path's outer loop (tests lower these to reach the blocked path with small n)
PANEL_LEAF = 32  # LU panel columns a one-workgroup kernel factors (the recursion splits wider panels)
CHOL_LEAF = 64  # Cholesky diagonal-block columns a one-workgroup kernel factors
TRSM_LEAF = 64  # triangle rows the column-serial trsm kernel takes (larger triangles split, the rest is matmul)
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


def _block(w: Array, r: int, c: int, h: int, wd: int) -> Array:
    """The (batch, h, wd) view of rows r.., columns c.. of each matrix of the contiguous stack w."""
    b, m, n = w.shape
    return Array(w.mirror, (b, h, wd), (m * n, n, 1), r * n + c)


def _small(n: int, dev, d: _dt.DType) -> bool:
    """Whether n x n matrices take the small path (one workgroup a matrix in workgroup memory)."""
    return n <= _k.small_limit(dev, d)


def _status(batch: int, n: int, dev, d: _dt.DType) -> tuple[Array, Array]:
    """The info words and the pivots (batch x n) of a stack's factorisation: the info words zeroed for the
    blocked path (its kernels record the first failure), left to the small path's kernel, which writes each
    matrix's word itself (one dispatch fewer)."""
    info = (core.new_array((batch,), _dt.uint32, dev) if _small(n, dev, d) else
            _full((batch,), 0, dtype=_dt.uint32, device=dev))
    return info, core.new_array((batch, max(n, 1)), _dt.uint32, dev)


def _check(info: Array, message: str) -> None:
    if _mode == "raise" and info.size and int(reduce("max", info)):
        raise LinAlgError(message)


# -- factorisations on contiguous stacks ------------------------------------------------------------------------------
def _factor(w: Array, info: Array, piv: Array, lu: bool) -> None:
    """The stack w factored in place: LU with partial pivoting (``lu``: pivots into piv) or lower Cholesky (upper
    triangle zeroed); failures into info."""
    dev = w.device
    batch, n, _ = w.shape
    if _small(n, dev, w.dtype):
        _k.factor_small(dev, w, piv, info, n, batch, lu)
        return
    for k0 in range(0, n, BLOCK):
        nb = min(BLOCK, n - k0)
        k1 = k0 + nb
        if lu:  # the panel over all rows below (recursive, pivots applied to the rest of the rows after)
            _lu_panel(w, info, piv, k0, nb)
            _k.swap(dev, piv, w, n, k0, nb, skip=(k0, k1))
        else:  # the diagonal block (recursive); the rows below are a trsm
            _chol_block(w, info, piv, k0, nb)
        if k1 == n:
            break
        lower = _block(w, k1, k0, n - k1, nb)  # L21
        if lu:  # U12 = L11^-1 A12
            upper = _block(w, k0, k1, nb, n - k1)
            _trsm(_block(w, k0, k0, nb, nb), upper, lower=True, unit=True)
        else:  # L21 = A21 L11^-T: the left solve L11 X = A21^T on the transposed view
            _trsm(_block(w, k0, k0, nb, nb), lower.mT, lower=True, unit=False)
            upper = lower.mT
        _update(_block(w, k1, k1, n - k1, n - k1), lower, upper)


def _update(c: Array, a: Array, b: Array) -> None:
    """C -= A B (views of stacks): the tiled matmul, where the flops of every blocked step go."""
    inplace("subtract", c, _matmul(a, b))


def _lu_panel(w: Array, info: Array, piv: Array, k0: int, wd: int) -> None:
    """LU with partial pivoting of the panel of columns [k0, k0 + wd) over rows [k0, n), recursively (LAPACK's
    getrf2 split by columns): the left half, its swaps applied to the right half, U12 by a triangular solve, the
    right half's Schur complement by matmul, the right half, its swaps applied to the left half.  Only leaves of
    ``PANEL_LEAF`` columns go through the one-workgroup kernel, so the serial per-column work a panel is
    n x PANEL_LEAF instead of n x wd and most of the panel's flops go to the matmul."""
    dev = w.device
    batch, n, _ = w.shape
    if wd <= PANEL_LEAF:
        _k.panel(dev, w, piv, info, n, batch, k0, wd, n, True)
        return
    h = wd // 2
    km = k0 + h
    _lu_panel(w, info, piv, k0, h)
    _k.swap(dev, piv, _block(w, 0, km, n, wd - h), n, k0, h)
    _trsm(_block(w, k0, k0, h, h), _block(w, k0, km, h, wd - h), lower=True, unit=True)
    _update(_block(w, km, km, n - km, wd - h), _block(w, km, k0, n - km, h), _block(w, k0, km, h, wd - h))
    _lu_panel(w, info, piv, km, wd - h)
    _k.swap(dev, piv, _block(w, 0, k0, n, h), n, km, wd - h)


def _chol_block(w: Array, info: Array, piv: Array, k0: int, wd: int) -> None:
    """Cholesky of the diagonal block [k0, k0 + wd)^2 in place, recursively: the top-left half, the rows below
    it by a triangular solve, the bottom-right half's update by matmul, the bottom-right half.  Leaves of
    ``CHOL_LEAF`` columns go through the one-workgroup kernel."""
    dev = w.device
    batch, n, _ = w.shape
    if wd <= CHOL_LEAF:
        _k.panel(dev, w, piv, info, n, batch, k0, wd, k0 + wd, False)
        return
    h = wd // 2
    km, ke = k0 + h, k0 + wd
    _chol_block(w, info, piv, k0, h)
    lower = _block(w, km, k0, ke - km, h)
    _trsm(_block(w, k0, k0, h, h), lower.mT, lower=True, unit=False)
    _update(_block(w, km, km, ke - km, ke - km), lower, lower.mT)
    _chol_block(w, info, piv, km, ke - km)  # its leaves zero their columns above the diagonal, from row 0


def _trsm(t: Array, b: Array, lower: bool, unit: bool) -> None:
    """Solve T X = B in place (views of stacks, ``t`` nb x nb triangular): blocked by halves, so only triangles of
    ``TRSM_LEAF`` rows go through the column-serial kernel (its triangle staged in workgroup memory) and the rest
    is matmul: lower X1 = T11^-1 B1, B2 -= T21 X1, X2 = T22^-1 B2 (upper: the mirror image)."""
    nb = t.shape[-1]
    if nb <= TRSM_LEAF:
        _k.trsm(t.device, t, b, lower=lower, unit=unit)
        return
    h = nb // 2

    def tri(r: int, c: int, hh: int, ww: int) -> Array:
        return Array(t.mirror, (t.shape[0], hh, ww), t.strides, t.offset + r * t.strides[1] + c * t.strides[2])

    def rows(r: int, hh: int) -> Array:
        return Array(b.mirror, (b.shape[0], hh, b.shape[2]), b.strides, b.offset + r * b.strides[1])

    if lower:
        _trsm(tri(0, 0, h, h), rows(0, h), True, unit)
        _update(rows(h, nb - h), tri(h, 0, nb - h, h), rows(0, h))
        _trsm(tri(h, h, nb - h, nb - h), rows(h, nb - h), True, unit)
    else:
        _trsm(tri(h, h, nb - h, nb - h), rows(h, nb - h), False, unit)
        _update(rows(0, h), tri(0, h, h, nb - h), rows(h, nb - h))
        _trsm(tri(0, 0, h, h), rows(0, h), False, unit)


def _lu_solve(w: Array, piv: Array, x: Array) -> None:
    """X = A^-1 X in place for the LU-factored stack w (blocked substitution; the large path)."""
    dev = w.device
    batch, n, _ = w.shape
    x = Array(x.mirror, x.shape, x.strides, x.offset)
    _k.swap(dev, piv, x, n, 0, n)
    _trsm(_block(w, 0, 0, n, n), x, lower=True, unit=True)
    _trsm(_block(w, 0, 0, n, n), x, lower=False, unit=False)


def _solve_stack(w: Array, x: Array, gen_id: bool) -> None:
    """X = A^-1 B (or A^-1 with ``gen_id``, x then uninitialised) in place; NaN for singular A; raises in
    'raise' mode."""
    dev = w.device
    batch, n, _ = w.shape
    info, piv = _status(batch, n, dev, w.dtype)
    if _small(n, dev, w.dtype):
        _k.factor_small(dev, w, piv, info, n, batch, True, x=x, k=x.shape[-1], gen_id=gen_id, store=False)
    else:
        if gen_id:
            eye = _eye(n, dtype=x.dtype, device=dev)
            assign(Array(x.mirror, x.shape, x.strides, x.offset), broadcast_to(eye, x.shape))
        _factor(w, info, piv, True)
        _lu_solve(w, piv, x)
        _k.nanfill(dev, info, x, n * x.shape[-1], batch)
    _check(info, "Singular matrix")


# -- the public functions ---------------------------------------------------------------------------------------------
def cholesky(x: Array, /, *, upper: bool = False) -> Array:
    """The Cholesky factor of each symmetric positive-definite matrix of x: lower L with A = L L^T (from the
    lower triangle of x), or with ``upper`` U = L^T with A = U^T U (from the upper triangle, as numpy reads it).
    Not positive definite: NaN for that matrix, and LinAlgError in the 'raise' mode."""
    x = _square(x, "cholesky")
    dev = x.device
    cdt = _compute_dtype(x.dtype, dev)
    src = x.mT if upper else x
    w = _stack(src, cdt)
    batch, n, _ = w.shape
    if batch * n:
        info, piv = _status(batch, n, dev, cdt)
        _factor(w, info, piv, False)
        if not _small(n, dev, cdt):  # the small path's kernel stores NaN factors itself
            _k.nanfill(dev, info, w, n * n, batch)
        _check(info, "Matrix is not positive definite")
    out = Array(w.mirror, x.shape)
    return core.astype(out.mT, cdt) if upper else out


def solve(x1: Array, x2: Array, /) -> Array:
    """The solution X of x1 X = x2 for each square matrix of x1: x2 is one vector per system (shape (..., M))
    only when x2.ndim == 1, otherwise a stack of (M, K) matrices; batch dimensions broadcast.  A singular x1 gives
    NaN, and LinAlgError in the 'raise' mode."""
    a = _square(x1, "solve")
    dev = a.device
    b = x2 if isinstance(x2, Array) else core.asarray(x2, device=dev)
    core.common_device([a, b])
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
    w = _stack(a, cdt, batch)
    x = _stack(b, cdt, batch)
    if x.size:
        _solve_stack(w, x, gen_id=False)
    shape = batch + ((n,) if vector else (n, b.shape[-1]))
    return Array(x.mirror, shape)


def inv(x: Array, /) -> Array:
    """The inverse of each square matrix of x (A X = I by LU with partial pivoting).  A singular matrix gives NaN,
    and LinAlgError in the 'raise' mode."""
    x = _square(x, "inv")
    dev = x.device
    cdt = _compute_dtype(x.dtype, dev)
    w = _stack(x, cdt)
    out = core.new_array(w.shape, cdt, dev)
    if out.size:
        _solve_stack(w, out, gen_id=True)
    return Array(out.mirror, x.shape)


def _det_parts(x: Array) -> tuple[Array, tuple[int, ...]]:
    """(batch, 3) rows of (det, sign, log|det|) for each matrix of x, and the batch shape."""
    x = _square(x, "det")
    dev = x.device
    cdt = _compute_dtype(x.dtype, dev)
    bshape = x.shape[:-2]
    batch, n = math.prod(bshape), x.shape[-1]
    if n == 0:  # the empty product: det 1, sign 1, log|det| 0
        row = core.asarray(np.array([1.0, 1.0, 0.0]), dtype=cdt, device=dev)
        out = core.astype(broadcast_to(row, (batch, 3)), cdt)
        return out, bshape
    w = _stack(x, cdt)
    info, piv = _status(batch, n, dev, cdt)
    out = core.new_array((batch, 3), cdt, dev)
    if batch:
        _factor(w, info, piv, True)
        _k.det(dev, w, piv, info, out, n, batch)
    return out, bshape


def _column(out: Array, bshape: tuple[int, ...], j: int) -> Array:
    return Array(out.mirror, bshape, tuple(3 * s for s in contiguous_strides(bshape)), j)


def det(x: Array, /) -> Array:
    """The determinant of each square matrix of x: sign * exp(log|det|) from the LU factors, as numpy computes it
    (0 for a singular matrix, 1 for a 0 x 0 one)."""
    out, bshape = _det_parts(x)
    return _column(out, bshape, 0)


def slogdet(x: Array, /) -> SlogdetResult:
    """(sign, log|det|) of each square matrix of x: (0, -inf) for a singular matrix, (1, 0) for a 0 x 0 one."""
    out, bshape = _det_parts(x)
    return SlogdetResult(_column(out, bshape, 1), _column(out, bshape, 2))


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
