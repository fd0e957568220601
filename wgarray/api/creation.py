"""Creation functions of the Array API standard: results live on the device (fills and ranges are kernels;
``asarray`` of host data is valid on the host only until a kernel reads it)."""
from __future__ import annotations

import math
import operator

import numpy as np

from .. import dtypes as _dt
from .._array import Array
from ..kernels import elementwise as _ew
from ..kernels.elementwise import Scalar
from ..kernels.ewtable import OPS as _EW_OPS
from ..ops import core
from ..ops.elementwise import elementwise
from ..ops.shape import as_shape

__all__ = ["arange", "asarray", "empty", "empty_like", "eye", "from_dlpack", "full", "full_like", "linspace",
           "meshgrid", "ones", "ones_like", "tril", "triu", "zeros", "zeros_like"]


def asarray(obj, /, dtype=None, *, device=None, copy: bool | None = None) -> Array:
    """An array from an Array, a numpy array, a DLPack or buffer object, or (nested) Python scalars; numpy's
    copy semantics (``copy=False`` raises when a copy is needed)."""
    return core.asarray(obj, dtype=dtype, device=device, copy=copy)


def empty(shape, dtype=None, *, device=None) -> Array:
    return core.new_array(as_shape(shape), _dt.as_dtype(dtype), core.resolve_device(device))


def full(shape, fill_value, dtype=None, *, device=None) -> Array:
    dev = core.resolve_device(device)
    if isinstance(fill_value, Array):
        fill_value = fill_value.item()
    if not isinstance(fill_value, core.SCALARS):
        raise TypeError(f"fill_value must be a scalar, not {type(fill_value).__name__}")
    dt = _dt.scalar_dtype(fill_value, None) if dtype is None else _dt.as_dtype(dtype)
    out = core.new_array(as_shape(shape), dt, dev)
    core.fill(out, fill_value)
    return out


def arange(start, /, stop=None, step=1, *, dtype=None, device=None) -> Array:
    if stop is None:
        start, stop = 0, start
    for v in (start, stop, step):
        if not isinstance(v, (int, float, np.integer, np.floating)) or isinstance(v, bool):
            raise TypeError(f"arange takes real numbers, not {type(v).__name__}")
    if step == 0:
        raise ValueError("arange: step must not be zero")
    n = max(0, math.ceil((stop - start) / step))
    is_int = all(isinstance(v, (int, np.integer)) for v in (start, stop, step))
    dt = (_dt.default_int if is_int else _dt.default_float) if dtype is None else _dt.as_dtype(dtype)
    if dt.kind == "b":
        raise TypeError("arange cannot produce bool arrays")
    dev = core.resolve_device(device)
    out = core.new_array((n,), dt, dev)
    if n:
        if dt.kind in "iu":
            core.check_int_fits(int(start), dt)
            core.check_int_fits(int(start + (n - 1) * step), dt)
        cd = dt if dt is not _dt.float16 else _dt.float32
        if dt.kind == "u" and step < 0:
            # start + i * step in wrapping unsigned arithmetic is exact for every value that is in range
            step = int(step) % (1 << dt.bits)
        core.ramp(out, start, step, cd)
    return out


def linspace(start, stop, /, num, endpoint=True, *, dtype=None, device=None) -> Array:
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"linspace: number of samples {num} must be non-negative")
    is_complex = isinstance(start, (complex, np.complexfloating)) or isinstance(stop, (complex, np.complexfloating))
    dt = (_dt.default_complex if is_complex else _dt.default_float) if dtype is None else _dt.as_dtype(dtype)
    if dt.kind not in "fc":
        raise TypeError(f"linspace produces floating-point arrays, not {dt.name}")
    core.check_real_cast("c" if is_complex else "f", dt)
    num_t = complex if dt.kind == "c" else float  # a complex linspace is the real one on each part
    dev = core.resolve_device(device)
    out = core.new_array((num,), dt, dev)
    if num:
        div = (num - 1) if endpoint else num
        span = num_t(stop) - num_t(start)
        cd = dt if dt is not _dt.float16 else _dt.float32
        step = span / div if div > 0 else 0.0
        if (dt.kind == "f" and dev.supports(_dt.float64) and step != 0 and math.isfinite(step)
                and abs(span) * num < float(np.finfo(np.float64).max) / 2):
            # numpy's formula and precision: i * step + start in float64 (step = span / div rounded once, on the
            # host as numpy does), rounded once to the output dtype: bit for bit numpy's, float32 included
            wide = out if dt is _dt.float64 else core.new_array((num,), _dt.float64, dev)
            core.ramp(wide, float(start), step, _dt.float64)
            if wide is not out:
                out = core.astype(wide, dt)
        elif div > 0 and abs(span) * num < float(np.finfo(cd.component.numpy).max) / 2:
            # start + (i * span) / div: the rounded step is never multiplied up (matters for tiny spans)
            _ew.run(dev, _EW_OPS["linspace"], [Scalar(num_t(start), cd), Scalar(span, cd), Scalar(num_t(div), cd)],
                    out, cd)
        else:
            core.ramp(out, num_t(start), span / div if div > 0 else 0.0, cd)
        if endpoint and num > 1:
            core.fill(out[num - 1:], num_t(stop))
    return out


def eye(n_rows, n_cols=None, /, k=0, dtype=None, *, device=None) -> Array:
    n_rows = operator.index(n_rows)
    n_cols = n_rows if n_cols is None else operator.index(n_cols)
    k = operator.index(k)
    dt = _dt.default_float if dtype is None else _dt.as_dtype(dtype)
    dev = core.resolve_device(device)
    out = core.new_array((n_rows, n_cols), dt, dev)
    k = max(-n_rows - 1, min(n_cols + 1, k))  # every k beyond the matrix gives the same zeros; keeps it in int32
    if out.size:
        _ew.run(dev, _EW_OPS["eye"], [Scalar(n_cols, _dt.int32), Scalar(k, _dt.int32)], out, _dt.int32)
    return out


def zeros(shape, dtype=None, *, device=None) -> Array:
    return full(shape, 0, dtype=_dt.default_float if dtype is None else dtype, device=device)


def ones(shape, dtype=None, *, device=None) -> Array:
    return full(shape, 1, dtype=_dt.default_float if dtype is None else dtype, device=device)


def empty_like(x: Array, /, dtype=None, *, device=None) -> Array:
    x = core.as_array(x)
    return empty(x.shape, dtype=x.dtype if dtype is None else dtype, device=x.device if device is None else device)


def zeros_like(x: Array, /, dtype=None, *, device=None) -> Array:
    return full_like(x, 0, dtype=dtype, device=device)


def ones_like(x: Array, /, dtype=None, *, device=None) -> Array:
    return full_like(x, 1, dtype=dtype, device=device)


def full_like(x: Array, /, fill_value, dtype=None, *, device=None) -> Array:
    x = core.as_array(x)
    return full(x.shape, fill_value, dtype=x.dtype if dtype is None else dtype,
                     device=x.device if device is None else device)


def meshgrid(*arrays, indexing: str = "xy") -> list[Array]:
    """Coordinate matrices from 1-D coordinate arrays (new arrays on the device, each keeping its dtype).

    ``indexing='xy'`` (Cartesian) swaps the first two output dimensions relative to ``'ij'`` (matrix)."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"indexing must be 'xy' or 'ij', not {indexing!r}")
    arrays = [core.as_array(a) for a in arrays]
    if not arrays:
        return []
    dev = core.common_device(arrays)
    for a in arrays:
        if a.ndim != 1:
            raise ValueError(f"meshgrid takes 1-D arrays, got one of shape {a.shape}")
    shape = [a.shape[0] for a in arrays]
    if indexing == "xy" and len(arrays) > 1:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for k, a in enumerate(arrays):
        d = k
        if indexing == "xy" and len(arrays) > 1 and k < 2:
            d = 1 - k
        strides = [0] * len(shape)
        strides[d] = a.strides[0]
        res = core.new_array(shape, a.dtype, dev)
        _ew.run(dev, _EW_OPS["copy"], [Array(a.mirror, tuple(shape), tuple(strides), a.offset)], res, a.dtype)
        out.append(res)
    return out


def _triangle(x, k, mask_op: str) -> Array:
    x = core.as_array(x)
    if x.ndim < 2:
        raise ValueError(f"{mask_op[:4]} needs an array of at least two dimensions, got {x.ndim}")
    k = operator.index(k)
    rows, cols = x.shape[-2:]
    dev = core.common_device([x])
    k = max(-rows - 1, min(cols + 1, k))  # beyond the matrix every k gives the same mask; keeps it in int32
    mask = core.new_array((rows, cols), _dt.bool, dev)
    if mask.size:
        _ew.run(dev, _EW_OPS[mask_op], [Scalar(cols, _dt.int32), Scalar(k, _dt.int32)], mask, _dt.int32)
    zero = False if x.dtype.kind == "b" else 0
    return elementwise("where", mask, x, zero)


def tril(x: Array, /, k: int = 0) -> Array:
    """The lower triangle of each matrix in x (elements with column - row > k set to zero)."""
    return _triangle(x, k, "tril_mask")


def triu(x: Array, /, k: int = 0) -> Array:
    """The upper triangle of each matrix in x (elements with column - row < k set to zero)."""
    return _triangle(x, k, "triu_mask")


def from_dlpack(x, /, *, device=None, copy: bool | None = None) -> Array:
    """An array from any object with ``__dlpack__`` (read on the host through ``np.from_dlpack``).

    ``copy=False`` shares a host (kDLCPU) producer's memory as the host block, under ``asarray(copy=False)``'s
    rule (C-contiguous, aligned, writeable, wgarray's host layout), and raises BufferError otherwise; other data is
    copied.  A wgarray array is returned as ``asarray`` would."""
    if isinstance(x, Array):
        if copy is False and device is not None and core.resolve_device(device) is not x.device:
            raise BufferError("copy=False but the array is on another device")
        return core.asarray(x, device=device, copy=copy)
    if not hasattr(x, "__dlpack__"):
        raise TypeError(f"{type(x).__name__} does not support the DLPack protocol (no __dlpack__)")
    if copy is False:
        try:
            return core.asarray(np.from_dlpack(x, copy=False), device=device, copy=False)
        except ValueError as e:
            raise BufferError(str(e)) from None
    host = np.from_dlpack(x)
    return core.asarray(host, device=device)
