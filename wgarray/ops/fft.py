"""The FFT's operations layer: dtype decisions, norm factors, lengths and the row layout the kernels need.

A 1-D transform along ``axis`` runs on contiguous rows: the input is copied once (the elementwise copy kernel,
which also converts the dtype) into a new array with ``axis`` moved last and resized to ``n`` (zero-padded or
truncated), so strided axes, transposed views and any batch layout reach the kernels as plain rows; the result
is returned as a view with the axis moved back.  The kernels (``kernels/fft.py``) then work on whole buffers.
A complex input that already is a whole C-contiguous buffer of the compute dtype, transformed at its own length,
is read where it lies: along the last axis as rows, along another axis (Stockham lengths) by the kernels' tiled
strided passes, so ``fftn`` of a contiguous complex array copies nothing.

Dtypes: complex input keeps its dtype; real floating input transforms in the complex dtype of its precision
(float32 -> complex64, float64 -> complex128); integer and bool input, which the standard does not ask for and
numpy accepts, are taken as the default floating dtype (wgarray's policy for integer input to floating-only
functions; numpy would use complex128).
"""
from __future__ import annotations

import math
import operator

from .. import dtypes as _dt
from .._array import Array
from ..dtypes import DType
from ..kernels import elementwise as _ew, fft as _k
from ..kernels.ewtable import OPS as _EW_OPS
from . import axes as _axes, core
from .elementwise import elementwise

NORMS = ("backward", "ortho", "forward")


def check_norm(norm) -> str:
    if norm is None:
        return "backward"
    if norm not in NORMS:
        raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or "forward".')
    return norm


def swap_norm(norm) -> str:
    """The norm of the opposite direction (hfft and ihfft are irfft and rfft with the norm swapped)."""
    return {"backward": "forward", "forward": "backward", "ortho": "ortho"}[check_norm(norm)]


def factor(norm: str, n: int, inverse: bool) -> float:
    """The scale of a transform of length n: 1, 1/sqrt(n) or 1/n by direction and norm."""
    if norm == "ortho":
        return 1.0 / math.sqrt(n)
    return 1.0 / n if (norm == "forward") != inverse else 1.0


def check_length(n, default: int) -> int:
    if n is None:
        n = default
    if isinstance(n, bool) or not hasattr(n, "__index__"):
        raise TypeError(f"n must be an integer, not {type(n).__name__}")
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    return n


def complex_for(d: DType) -> DType:
    """The complex dtype a transform of ``d`` computes in."""
    if d.kind == "c":
        return d
    if d.kind == "f":
        return _dt.complex_of(d)
    return _dt.default_complex


def real_for(d: DType) -> DType:
    """The real dtype of the real transforms' real side for input ``d``."""
    if d.kind == "c":
        return d.component
    if d.kind == "f":
        return _dt.complex_of(d).component
    return _dt.default_float


def _axis(x: Array, axis) -> int:
    if x.ndim == 0:
        raise _axes.np.exceptions.AxisError(axis, 0)
    return _axes.axis(axis, x.ndim)


def _rows(x: Array, axis: int, n: int, dtype: DType) -> Array:
    """A new contiguous array of ``dtype``: x with ``axis`` moved last, resized to n (zeros appended or the tail
    cut off)."""
    order = [d for d in range(x.ndim) if d != axis] + [axis]
    xm = x.transpose(order)
    out = core.new_array(xm.shape[:-1] + (n,), dtype, x.device)
    k = min(n, xm.shape[-1])
    if out.size == 0:
        return out
    if k < n:
        core.fill(out[..., k:], 0)
    if k:
        _ew.run(out.device, _EW_OPS["copy"], [xm[..., :k]], out[..., :k], xm.dtype)
    return out


def _back(y: Array, axis: int) -> Array:
    """The view of y (axis last) with its last axis moved back to ``axis``."""
    nd = y.ndim
    order = list(range(nd - 1))
    order.insert(axis, nd - 1)
    return y.transpose(order)


def _new_like_rows(rows: Array, n: int, dtype: DType) -> Array:
    return core.new_array(rows.shape[:-1] + (n,), dtype, rows.device)


def c2c(x: Array, n, axis, norm, inverse: bool) -> Array:
    """fft (inverse False) or ifft along one axis."""
    x = core.as_array(x)
    core.common_device([x])
    ax = _axis(x, axis)
    n = check_length(n, x.shape[ax])
    norm = check_norm(norm)
    cd = complex_for(x.dtype)
    if _in_place_layout(x, ax, n, cd):  # no copy: the kernels read x where it lies, along its own axis
        out = core.new_array(x.shape, cd, x.device)
        if out.size:
            rows, inner = math.prod(x.shape[:ax]), math.prod(x.shape[ax + 1:])
            _k.transform(x.device, cd, x.mirror.buffer(), out.mirror.buffer_for_write(whole=True), rows, n,
                         inverse, factor(norm, n, inverse), inner)
        return out
    src = _rows(x, ax, n, cd)
    out = _new_like_rows(src, n, cd)
    rows = src.size // n
    if rows:
        _k.transform(x.device, cd, src.mirror.buffer(), out.mirror.buffer_for_write(whole=True), rows, n, inverse,
                     factor(norm, n, inverse))
    return _back(out, ax)


def _in_place_layout(x: Array, ax: int, n: int, cd: DType) -> bool:
    """Whether the transform can read x's own buffer: the whole, C-contiguous buffer of the compute dtype, the
    length unchanged, and the axis either last (rows) or of a Stockham length (the tiled strided passes)."""
    return (x.dtype.name == cd.name and x.shape[ax] == n and x.offset == 0 and x.size == x.mirror.size
            and x.is_contiguous and (ax == x.ndim - 1 or _k.strided_ok(n)))


def r2c(x: Array, n, axis, norm) -> Array:
    """rfft along one axis: the n // 2 + 1 non-negative frequencies of a real transform."""
    x = core.as_array(x)
    core.common_device([x])
    if x.dtype.kind == "c":
        raise TypeError(f"rfft needs real input, not {x.dtype.name} (use fft for complex input)")
    ax = _axis(x, axis)
    n = check_length(n, x.shape[ax])
    norm = check_norm(norm)
    rd = real_for(x.dtype)
    cd = _dt.complex_of(rd)
    scale = factor(norm, n, False)
    dev = x.device
    if n % 2:  # odd: the full complex transform, of which the first n // 2 + 1 coefficients are the answer
        full = _rows(x, ax, n, cd)
        spec = _new_like_rows(full, n, cd)
        rows = full.size // n
        if rows:
            _k.transform(dev, cd, full.mirror.buffer(), spec.mirror.buffer_for_write(whole=True), rows, n, False,
                         scale)
        return _back(spec[..., :n // 2 + 1], ax)
    src = _rows(x, ax, n, rd)
    out = _new_like_rows(src, n // 2 + 1, cd)
    rows = src.size // n
    if rows:
        _k.rfft_even(dev, cd, src.mirror.buffer(), out.mirror.buffer_for_write(whole=True), rows, n, scale)
    return _back(out, ax)


def c2r(x: Array, n, axis, norm) -> Array:
    """irfft along one axis: the real row of length n (default 2 (m - 1)) from its n // 2 + 1 coefficients."""
    x = core.as_array(x)
    core.common_device([x])
    ax = _axis(x, axis)
    n = check_length(n, 2 * (x.shape[ax] - 1))
    norm = check_norm(norm)
    rd = real_for(x.dtype)
    cd = _dt.complex_of(rd)
    scale = factor(norm, n, True)
    dev = x.device
    half = _rows(x, ax, n // 2 + 1, cd)
    rows = half.size // (n // 2 + 1)
    out = _new_like_rows(half, n, rd)
    if rows == 0:
        return _back(out, ax)
    if n % 2 == 0:
        _k.irfft_even(dev, cd, half.mirror.buffer(), out.mirror.buffer_for_write(whole=True), rows, n, scale)
        return _back(out, ax)
    full = _new_like_rows(half, n, cd)
    _k.hermitian(dev, cd, half.mirror.buffer(), full.mirror.buffer_for_write(whole=True), rows, n)
    spec = _new_like_rows(half, n, cd)
    _k.transform(dev, cd, full.mirror.buffer(), spec.mirror.buffer_for_write(whole=True), rows, n, True, scale)
    return _back(elementwise("real", spec), ax)
