"""Searching functions of the Array API: ``argmax``, ``argmin`` (reductions), ``nonzero`` (device compaction,
see ``_indexing``), ``count_nonzero``, ``searchsorted`` (a WGSL binary search per element) and ``where``.

Index results are int32 (wgarray's default index dtype).
"""
from __future__ import annotations

import numpy as np

from . import _ops
from . import dtypes as _dt
from ._array import Array
from ._elementwise import where
from ._indexing import nonzero, take
from ._namespace import argmax, argmin
from .kernels import search as _search

__all__ = ["argmax", "argmin", "nonzero", "count_nonzero", "searchsorted", "where"]


def count_nonzero(x, /, *, axis=None, keepdims=False) -> Array:
    """Number of nonzero elements (NaN counts as nonzero) over ``axis``, as int32."""
    if not isinstance(x, Array):
        x = _ops.asarray(x)
    flags = x if x.dtype is _dt.bool else _ops.astype(x, _dt.bool)
    return _ops.reduce("sum", flags, axis, keepdims, _dt.int32)


def searchsorted(x1, x2, /, *, side="left", sorter=None) -> Array:
    """Indices where the values of ``x2`` would be inserted into the ascending 1-D ``x1`` to keep it sorted
    (``side='left'``: before equal values, ``'right'``: after).  NaNs sort last, as in ``sort``."""
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', not {side!r}")
    if not isinstance(x1, Array):
        x1 = _ops.asarray(x1)
    dev = _ops.common_device([x1])
    if x1.ndim != 1:
        raise ValueError(f"searchsorted: x1 must be one-dimensional, not {x1.ndim}-D")
    if isinstance(x2, Array):
        _ops.common_device([x1, x2])
        cdt = _dt.result_type(x1.dtype, x2.dtype)
    elif isinstance(x2, (bool, int, float, np.bool_, np.integer, np.floating)):
        cdt = _dt.result_type(x1.dtype, _dt.scalar_dtype(x2, x1.dtype))
        x2 = _ops.asarray(x2, dtype=cdt, device=dev)
    else:
        x2 = _ops.asarray(x2, device=dev)
        cdt = _dt.result_type(x1.dtype, x2.dtype)
    _ops.check_supported(cdt, dev)
    if sorter is not None:
        x1 = take(x1, sorter)
    out = _ops.new_array(x2.shape, _dt.int32, dev)
    if out.size:
        _search.searchsorted(dev, x1, x2, cdt, side == "right", out)
    return out
