"""Cumulative sums and products (Array API ``cumulative_sum``, ``cumulative_prod``) over one axis, computed by
the WGSL prefix scan in ``kernels/scan.py``.

dtype rules are those of ``sum``/``prod``: bool and narrow signed integers give the default integer dtype
(int32), narrow unsigned integers uint32, 64-bit integers and floats keep their dtype.  Float scans combine in a
tree, not left to right as numpy does, so float results may differ from numpy's in the last bits.
"""
from __future__ import annotations

import operator

import numpy as np

from . import _ops
from . import dtypes as _dt
from ._array import Array
from .kernels import rows as _rows
from .kernels import rtable
from .kernels import scan as _scan
from .kernels.layout import contiguous_strides

__all__ = ["cumulative_sum", "cumulative_prod"]


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False) -> Array:
    """Cumulative sum along ``axis`` (optional for 1-D input); ``include_initial`` prepends a 0."""
    return _cumulative("sum", x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False) -> Array:
    """Cumulative product along ``axis`` (optional for 1-D input); ``include_initial`` prepends a 1."""
    return _cumulative("prod", x, axis, dtype, include_initial)


def _cumulative(op: str, x, axis, dtype, include_initial: bool) -> Array:
    name = f"cumulative_{op}"
    if not isinstance(x, Array):
        x = _ops.asarray(x)
    dev = _ops.common_device([x])
    if x.ndim == 0:
        raise ValueError(f"{name}: x must have at least one dimension")
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"{name}: axis must be given for arrays of more than one dimension")
        axis = 0
    if isinstance(axis, (bool, np.bool_)) or not hasattr(axis, "__index__"):
        raise TypeError(f"{name}: axis must be an int, not {type(axis).__name__}")
    axis = operator.index(axis)
    if not -x.ndim <= axis < x.ndim:
        raise np.exceptions.AxisError(axis, x.ndim)
    axis %= x.ndim
    res = rtable.result(rtable.OPS[op], x.dtype, None if dtype is None else _dt.as_dtype(dtype))
    _ops.check_supported(res, dev)
    shift = 1 if include_initial else 0
    length = x.shape[axis]
    shape = list(x.shape)
    shape[axis] = length + shift
    out = _ops.new_array(shape, res, dev)
    if out.size == 0:
        return out
    if length == 0:  # only the initial values
        _ops.fill(out, _scan._IDENTITY[op])
        return out
    ostr = contiguous_strides(shape)
    n_rows, _, (src_rows, dst_rows) = _rows.split(x.shape, [axis], [(x.offset, x.strides), (0, ostr)])
    dst_rows = _rows.Rows(0, dst_rows.oshape, dst_rows.ost, (length + shift,), (ostr[axis],))
    src = x.mirror.buffer()
    dst = out.mirror.buffer_for_write(whole=True)
    load = "nonzero" if res is _dt.bool else "convert"  # numpy casts the inputs to bool first (0.5 -> True)
    _scan.run(dev, op, src, x.dtype, load, src_rows, n_rows, length, dst, res, dst_rows, shift)
    return out
