"""Indexing functions of the Array API standard (``take``, ``take_along_axis``): gathers along one axis.

``x[key]`` and ``x[key] = v`` themselves are ``ops/indexing.py``, which these functions go through.
"""
from __future__ import annotations

import numpy as np

from .._array import Array
from ..kernels import gather as _gather
from ..kernels.layout import broadcast_strides
from ..ops import axes as _axes, core
from ..ops.indexing import gather, getitem, index_array
from ..ops.shape import reshape

__all__ = ["take", "take_along_axis"]


def _int_indices(indices, dev, name: str) -> Array:
    if not isinstance(indices, Array):
        indices = index_array(indices, dev)
    if indices.device is not dev:
        raise ValueError(f"{name}: x and indices are on different devices: {dev} and {indices.device}")
    if indices.dtype.kind not in "iu":
        raise TypeError(f"{name}: indices must have an integer dtype, not {indices.dtype.name}")
    return indices


def take(x, indices, /, axis=None) -> Array:
    """Elements of ``x`` at ``indices`` along ``axis`` (x[:, ..., indices, ...]); negative indices count from
    the end, out-of-range ones raise IndexError."""
    x = core.as_array(x)
    dev = core.common_device([x])
    indices = _int_indices(indices, dev, "take")
    if axis is None:
        if x.ndim != 1:
            x = reshape(x, (-1,))
        axis = 0
    axis = _axes.axis(axis, x.ndim, name="take: axis")
    return getitem(x, (slice(None),) * axis + (indices,))


def take_along_axis(x, indices, /, axis=-1) -> Array:
    """out[..., j, ...] = x[..., indices[..., j, ...], ...] along ``axis``; the other dimensions broadcast."""
    x = core.as_array(x)
    dev = core.common_device([x])
    indices = _int_indices(indices, dev, "take_along_axis")
    if x.ndim != indices.ndim:
        raise ValueError(f"take_along_axis: x and indices must have the same number of dimensions, "
                         f"not {x.ndim} and {indices.ndim}")
    if x.ndim == 0:
        raise ValueError("take_along_axis: x must have at least one dimension")
    axis = _axes.axis(axis, x.ndim, name="take_along_axis: axis")
    xs = list(x.shape)
    xs[axis] = 1
    js = list(indices.shape)
    js[axis] = 1
    try:
        shape = list(np.broadcast_shapes(tuple(xs), tuple(js)))
    except ValueError:
        raise ValueError(f"take_along_axis: shapes {x.shape} and {indices.shape} do not broadcast "
                         f"(outside axis {axis})") from None
    shape[axis] = indices.shape[axis]
    shape = tuple(shape)
    xst = list(x.strides)
    xst[axis] = 0
    x_strides = broadcast_strides(tuple(xs), tuple(xst), shape)
    ist = broadcast_strides(indices.shape, indices.strides, shape)
    ix = _gather.Index(indices, ist, x.strides[axis], x.shape[axis], True)
    return gather(x, x_strides, shape, [ix], [axis])
