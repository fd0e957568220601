"""Sorting functions of the Array API (``sort``, ``argsort``) on the WGSL bitonic sort in ``kernels/sort.py``.

Order: ascending sorts put NaNs last; descending sorts put them first (the reverse order, as the standard's
reference implementation does); -0.0 and 0.0 compare equal.  Sorts are always stable (``stable=False`` is
accepted and gives the same result), descending ones too: equal values keep their original relative order.
``argsort`` returns int32 indices (wgarray's default index dtype).
"""
from __future__ import annotations

import operator

import numpy as np

from . import _ops
from . import dtypes as _dt
from ._array import Array
from .kernels import sort as _sort

__all__ = ["sort", "argsort"]


def _axis(x: Array, axis, name: str) -> int:
    if isinstance(axis, (bool, np.bool_)) or not hasattr(axis, "__index__"):
        raise TypeError(f"{name}: axis must be an int, not {type(axis).__name__}")
    axis = operator.index(axis)
    if x.ndim == 0:
        if axis not in (0, -1):
            raise np.exceptions.AxisError(axis, 0)
        return 0
    if not -x.ndim <= axis < x.ndim:
        raise np.exceptions.AxisError(axis, x.ndim)
    return axis % x.ndim


def sort(x, /, *, axis=-1, descending=False, stable=True) -> Array:
    """A sorted copy of ``x`` along ``axis``."""
    if not isinstance(x, Array):
        x = _ops.asarray(x)
    dev = _ops.common_device([x])
    ax = _axis(x, axis, "sort")
    out = _ops.new_array(x.shape, x.dtype, dev)
    if x.ndim == 0:
        _ops.assign(out, x)
        return out
    _sort.run(dev, x, ax, bool(descending), out, None)
    return out


def argsort(x, /, *, axis=-1, descending=False, stable=True) -> Array:
    """int32 indices that sort ``x`` along ``axis`` (stable)."""
    if not isinstance(x, Array):
        x = _ops.asarray(x)
    dev = _ops.common_device([x])
    ax = _axis(x, axis, "argsort")
    out = _ops.new_array(x.shape, _dt.int32, dev)
    if x.ndim == 0:
        _ops.fill(out, 0)
        return out
    _sort.run(dev, x, ax, bool(descending), None, out)
    return out
