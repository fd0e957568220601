"""Sorting functions of the Array API (``sort``, ``argsort``) on the WGSL bitonic sort in ``kernels/sort.py``.

Order: ascending sorts put NaNs last; descending sorts put them first (the reverse order, as the standard's
reference implementation does); -0.0 and 0.0 compare equal.  Sorts are always stable (``stable=False`` is
accepted and gives the same result), descending ones too: equal values keep their original relative order.
``argsort`` returns int32 indices (wgarray's default index dtype).
"""
from __future__ import annotations

from .. import dtypes as _dt
from .._array import Array
from ..kernels import sort as _sort
from ..ops import core
from ..ops.axes import axis as _axis
from ..ops.indexing import assign

__all__ = ["sort", "argsort"]


def sort(x, /, axis=-1, *, descending=False, stable=True) -> Array:
    """A sorted copy of ``x`` along ``axis``."""
    return _sorted(x, axis, descending, "sort")


def argsort(x, /, axis=-1, *, descending=False, stable=True) -> Array:
    """int32 indices that sort ``x`` along ``axis`` (stable)."""
    return _sorted(x, axis, descending, "argsort")


def _sorted(x, axis, descending, name: str) -> Array:
    x = core.as_array(x)
    if x.dtype.kind == "c":  # the standard leaves complex ordering unspecified; numpy's lexicographic one is not
        raise TypeError(f"{name} is not defined for {x.dtype.name} input (complex numbers have no order)")
    dev = core.common_device([x])
    ax = _axis(axis, x.ndim, zero_d=True, name=f"{name}: axis")
    indices = name == "argsort"
    out = core.new_array(x.shape, _dt.int32 if indices else x.dtype, dev)
    if x.ndim == 0:  # the one element is sorted; its index is 0
        if indices:
            core.fill(out, 0)
        else:
            assign(out, x)
        return out
    _sort.run(dev, x, ax, bool(descending), None if indices else out, out if indices else None)
    return out
