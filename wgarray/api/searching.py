"""Searching functions of the Array API: ``argmax``, ``argmin`` (reductions), ``nonzero`` (device compaction,
see ``ops/indexing``), ``count_nonzero``, ``searchsorted`` (a WGSL binary search per element) and ``where``.

Index results are int32 (wgarray's default index dtype).
"""
from __future__ import annotations

from .. import dtypes as _dt
from .._array import Array
from ..kernels import search as _search
from ..ops import core
from ..ops.elementwise import elementwise
from ..ops.indexing import coordinates
from ..ops.reduction import argreduce, reduce
from .indexing import take

__all__ = ["argmax", "argmin", "nonzero", "count_nonzero", "searchsorted", "where"]


def argmax(x, /, axis=None, *, keepdims=False) -> Array:
    """Index of the first maximum (NaN wins, as in numpy) over ``axis`` (the flattened array when None)."""
    return argreduce("argmax", x, axis, keepdims)


def argmin(x, /, axis=None, *, keepdims=False) -> Array:
    """Index of the first minimum (NaN wins, as in numpy) over ``axis`` (the flattened array when None)."""
    return argreduce("argmin", x, axis, keepdims)


def nonzero(x, /) -> tuple[Array, ...]:
    """Indices of the nonzero elements, one int32 array per dimension (C order).  Reads back only the count."""
    x = core.as_array(x)
    core.common_device([x])
    if x.ndim == 0:
        raise ValueError("nonzero is not defined for 0-d arrays; use nonzero(x[None])")
    return coordinates(x)


def where(condition, x1, x2, /) -> Array:
    """Elements of x1 where condition is True, else of x2 (broadcast together)."""
    return elementwise("where", condition, x1, x2)


def count_nonzero(x, /, axis=None, *, keepdims=False) -> Array:
    """Number of nonzero elements (NaN counts as nonzero) over ``axis``, as int32."""
    x = core.as_array(x)
    flags = x if x.dtype is _dt.bool else elementwise("not_equal", x, 0)  # complex too: nonzero if either part is
    return reduce("sum", flags, axis, keepdims, _dt.int32)


def searchsorted(x1, x2, /, side="left", sorter=None) -> Array:
    """Indices where the values of ``x2`` would be inserted into the ascending 1-D ``x1`` to keep it sorted
    (``side='left'``: before equal values, ``'right'``: after).  NaNs sort last, as in ``sort``."""
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', not {side!r}")
    x1 = core.as_array(x1)
    dev = core.common_device([x1])
    if x1.ndim != 1:
        raise ValueError(f"searchsorted: x1 must be one-dimensional, not {x1.ndim}-D")
    if isinstance(x2, Array):
        core.common_device([x1, x2])
        cdt = _dt.result_type(x1.dtype, x2.dtype)
        if cdt.kind == "c":
            raise TypeError("searchsorted is not defined for complex input (complex numbers have no order)")
    elif isinstance(x2, core.SCALARS):
        cdt = _dt.result_type(x1.dtype, _dt.scalar_dtype(x2, x1.dtype))
        x2 = core.asarray(x2, dtype=cdt, device=dev)
    else:
        x2 = core.asarray(x2, device=dev)
        cdt = _dt.result_type(x1.dtype, x2.dtype)
    core.check_supported(cdt, dev)
    if sorter is not None:
        x1 = take(x1, sorter)
    core.check_addressable("searchsorted", x1)  # its int32 result could not hold a larger insertion index
    out = core.new_array(x2.shape, _dt.int32, dev)
    if out.size:
        _search.searchsorted(dev, x1, x2, cdt, side == "right", out)
    return out
