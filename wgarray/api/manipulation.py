"""Manipulation functions of the Array API standard: views where the result is a view, device copies otherwise.

Views (``broadcast_to``, ``expand_dims``, ``flip``, ``moveaxis``, ``permute_dims``, ``squeeze``, ``unstack``) only
change shape, strides and offset.  Copies (``concat``, ``stack``, ``roll``, ``tile``, ``repeat``) allocate the result
and write each input into a view of it with the elementwise copy kernel (which also converts dtypes), so results
live on the device.  ``repeat`` with an array of counts gathers along the axis with the gather kernel of advanced indexing.
"""
from __future__ import annotations

import itertools
import operator

import numpy as np

from .. import dtypes as _dt
from .._array import Array
from ..kernels import elementwise as _ew, gather as _gather
from ..kernels.ewtable import OPS as _EW_OPS
from ..kernels.layout import MAXD, contiguous_strides
from ..ops import core, shape as _shape
from ..ops.axes import axes as _axes, axis as _axis

__all__ = ["broadcast_arrays", "broadcast_to", "concat", "expand_dims", "flip", "moveaxis", "permute_dims",
           "repeat", "reshape", "roll", "squeeze", "stack", "tile", "unstack"]


# -- helpers -------------------------------------------------------------------------------------------------------
def _copy_into(target: Array, src: Array) -> None:
    """target[...] = src on the device (the copy kernel converts src's dtype to target's on store)."""
    _ew.run(target.device, _EW_OPS["copy"], [src], target, src.dtype)


def _common(arrays) -> tuple[list[Array], _dt.DType, object]:
    arrays = [core.as_array(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array")
    dev = core.common_device(arrays)
    return arrays, _dt.result_type(*[a.dtype for a in arrays]), dev


def _index_along(ndim: int, axis: int, index) -> tuple:
    return (slice(None),) * axis + (index,) + (slice(None),) * (ndim - axis - 1)


# -- views ---------------------------------------------------------------------------------------------------------
def broadcast_to(x: Array, /, shape) -> Array:
    """A read-only-by-convention view of x with the given shape (broadcast dimensions have stride 0)."""
    return _shape.broadcast_to(core.as_array(x), shape)


def broadcast_arrays(*arrays) -> list[Array]:
    """Views of the arrays broadcast against one another."""
    arrays = [core.as_array(a) for a in arrays]
    if not arrays:
        return []
    core.common_device(arrays)
    try:
        shape = tuple(np.broadcast_shapes(*[a.shape for a in arrays]))
    except ValueError:
        raise ValueError("shape mismatch: objects cannot be broadcast to a single shape: "
                         + " ".join(str(a.shape) for a in arrays)) from None
    return [_shape.broadcast_to(a, shape) for a in arrays]


def expand_dims(x: Array, /, axis: int) -> Array:
    """A view with a new dimension of size one at ``axis`` (in [-ndim-1, ndim]; AxisError otherwise)."""
    x = core.as_array(x)
    n = x.ndim
    a = _axis(axis, n + 1)  # a position in the result
    # the stride a contiguous array would have there, so that contiguity (and view-reshapes) survive
    stride = x.strides[a] * max(x.shape[a], 1) if a < n else 1
    return x._view(x.shape[:a] + (1,) + x.shape[a:], x.strides[:a] + (stride,) + x.strides[a:], x.offset)


def squeeze(x: Array, /, axis) -> Array:
    """A view without the given size-one dimensions (ValueError if one of them is not of size one)."""
    x = core.as_array(x)
    axes = _axes(axis, x.ndim)
    for a in axes:
        if x.shape[a] != 1:
            raise ValueError(f"cannot select an axis to squeeze out which has size not equal to one "
                             f"(axis {a} has size {x.shape[a]})")
    keep = [d for d in range(x.ndim) if d not in axes]
    return x._view(tuple(x.shape[d] for d in keep), tuple(x.strides[d] for d in keep), x.offset)


def flip(x: Array, /, axis=None) -> Array:
    """A view with the order of elements reversed along ``axis`` (all axes when None): negative strides."""
    x = core.as_array(x)
    axes = range(x.ndim) if axis is None else _axes(axis, x.ndim)
    strides, offset = list(x.strides), x.offset
    for a in axes:
        if x.shape[a] > 1:
            offset += (x.shape[a] - 1) * strides[a]
            strides[a] = -strides[a]
    return x._view(x.shape, tuple(strides), offset)


def permute_dims(x: Array, /, axes) -> Array:
    """A view with the dimensions permuted."""
    return core.as_array(x).transpose(tuple(axes))


def moveaxis(x: Array, source, destination, /) -> Array:
    """A view with the ``source`` axes moved to ``destination``, the others keeping their order."""
    x = core.as_array(x)
    src, dst = _axes(source, x.ndim, name="source"), _axes(destination, x.ndim, name="destination")
    if len(src) != len(dst):
        raise ValueError("source and destination must have the same number of elements")
    order = [d for d in range(x.ndim) if d not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return x.transpose(order)


def unstack(x: Array, /, *, axis: int = 0) -> tuple[Array, ...]:
    """Views of x's slices along ``axis``."""
    x = core.as_array(x)
    if x.ndim == 0:
        raise ValueError("unstack needs an array of at least one dimension")
    a = _axis(axis, x.ndim)
    return tuple(x[_index_along(x.ndim, a, i)] for i in range(x.shape[a]))


def reshape(x: Array, /, shape, *, copy: bool | None = None) -> Array:
    """A view when the layout allows (and copy is not True), else a device copy (ValueError if copy=False)."""
    return _shape.reshape(core.as_array(x), shape, copy=copy)


# -- copies ------------------------------------------------------------------------------------------------------
def concat(arrays, /, axis: int | None = 0) -> Array:
    """Join arrays along an existing axis (flattened first when axis is None), promoting their dtypes."""
    if isinstance(arrays, Array) or not isinstance(arrays, (tuple, list)):
        raise TypeError("concat takes a tuple or list of arrays")
    arrays, dtype, dev = _common(arrays)
    if axis is None:
        arrays = [_shape.reshape(a, (-1,)) for a in arrays]
        axis = 0
    nd = arrays[0].ndim
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    a = _axis(axis, nd)
    for b in arrays[1:]:
        if b.ndim != nd or any(b.shape[d] != arrays[0].shape[d] for d in range(nd) if d != a):
            raise ValueError(f"concat: all input array dimensions except for axis {a} must match exactly, "
                             f"but got shapes {arrays[0].shape} and {b.shape}")
    shape = list(arrays[0].shape)
    shape[a] = sum(b.shape[a] for b in arrays)
    out = core.new_array(shape, dtype, dev)
    start = 0
    for b in arrays:
        n = b.shape[a]
        if n:
            _copy_into(out[_index_along(nd, a, slice(start, start + n))], b)
        start += n
    return out


def stack(arrays, /, axis: int = 0) -> Array:
    """Join arrays of one shape along a new axis, promoting their dtypes."""
    if isinstance(arrays, Array) or not isinstance(arrays, (tuple, list)):
        raise TypeError("stack takes a tuple or list of arrays")
    arrays, dtype, dev = _common(arrays)
    shape = arrays[0].shape
    for b in arrays[1:]:
        if b.shape != shape:
            raise ValueError(f"stack: all input arrays must have the same shape, got {shape} and {b.shape}")
    nd = len(shape) + 1
    a = _axis(axis, nd)
    out = core.new_array(shape[:a] + (len(arrays),) + shape[a:], dtype, dev)
    for i, b in enumerate(arrays):
        _copy_into(out[_index_along(nd, a, i)], b)
    return out


def roll(x: Array, /, shift, axis=None) -> Array:
    """Elements shifted along axes (the flattened array when axis is None), wrapping around; a new array."""
    x = core.as_array(x)
    if axis is None:
        flat = roll(_shape.reshape(x, (-1,)), shift, axis=0)
        return _shape.reshape(flat, x.shape)
    shifts = shift if isinstance(shift, (tuple, list)) else (shift,)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    if len(shifts) != len(axes):
        if len(shifts) != 1 and len(axes) != 1:
            raise ValueError("shift and axis must be of the same length (or one of them a single value)")
        shifts, axes = shifts * (len(axes) // len(shifts) or 1), axes * (len(shifts) // len(axes) or 1)
    per_axis = [0] * x.ndim
    for s, a in zip(shifts, axes):
        per_axis[_axis(a, x.ndim)] += operator.index(s)
    out = core.new_array(x.shape, x.dtype, core.common_device([x]))
    if out.size == 0:
        return out
    # out = x rolled: along each axis, the last k elements go first; one copy per combination of the two pieces
    pieces = []
    for d, n in enumerate(x.shape):
        k = per_axis[d] % n
        if k == 0:
            pieces.append([(slice(None), slice(None))])
        else:
            pieces.append([(slice(n - k, n), slice(0, k)), (slice(0, n - k), slice(k, n))])
    for combo in itertools.product(*pieces):
        _copy_into(out[tuple(dst for _, dst in combo)], x[tuple(src for src, _ in combo)])
    return out


def tile(x: Array, repetitions, /) -> Array:
    """x repeated ``repetitions[d]`` times along each dimension d (shapes aligned at the end, like numpy)."""
    x = core.as_array(x)
    reps = (repetitions,) if not isinstance(repetitions, (tuple, list)) else tuple(repetitions)
    reps = tuple(operator.index(r) for r in reps)
    if any(r < 0 for r in reps):
        raise ValueError(f"repetitions must be non-negative, got {reps}")
    nd = max(x.ndim, len(reps))
    reps = (1,) * (nd - len(reps)) + reps
    xs = Array(x.mirror, (1,) * (nd - x.ndim) + x.shape, (0,) * (nd - x.ndim) + x.strides, x.offset)
    out = core.new_array(tuple(r * n for r, n in zip(reps, xs.shape)), x.dtype, core.common_device([x]))
    if out.size == 0:
        return out
    # the result seen as (r0, n0, r1, n1, ...) is x broadcast along the r's: one copy when the kernel can walk it
    inter = tuple(v for r, n in zip(reps, xs.shape) for v in (r, n))
    if sum(1 for v in inter if v != 1) <= MAXD:
        src_strides = tuple(v for s in xs.strides for v in (0, s))
        view = Array(out.mirror, inter, contiguous_strides(inter), 0)
        _copy_into(view, Array(x.mirror, inter, src_strides, x.offset))
        return out
    # too many dimensions for one kernel: tile one axis at a time, one copy per repetition
    y = xs
    for d, r in enumerate(reps):
        if r != 1:
            n = y.shape[d]
            z = core.new_array(y.shape[:d] + (r * n,) + y.shape[d + 1:], x.dtype, out.device)
            for i in range(r):
                _copy_into(z[_index_along(nd, d, slice(i * n, (i + 1) * n))], y)
            y = z
    _copy_into(out, y)
    return out


def repeat(x: Array, repeats, /, axis: int | None = None) -> Array:
    """Each element repeated ``repeats`` times along ``axis`` (the flattened array when None).

    ``repeats`` is an int or an integer array (one count per element along the axis, or one count); an array of
    counts makes the output shape depend on its values, which are read to the host."""
    x = core.as_array(x)
    if axis is None:
        x = _shape.reshape(x, (-1,))
        axis = 0
    if x.ndim == 0:
        raise ValueError("repeat of a 0-d array needs axis=None")
    a = _axis(axis, x.ndim)
    n = x.shape[a]
    if isinstance(repeats, Array):
        if repeats.dtype.kind not in "iu":
            raise TypeError(f"repeats must have an integer dtype, not {repeats.dtype.name}")
        counts = repeats.numpy().astype(np.int64)  # data-dependent output shape: the counts are needed here
        if counts.ndim > 1:
            raise ValueError("repeats must be an int or a 0-d/1-d array")
        if counts.size == 1:
            repeats = int(counts.reshape(()))
        elif counts.shape != (n,):
            raise ValueError(f"repeats has {counts.size} counts, but the axis has {n} elements")
    else:
        if isinstance(repeats, (bool, np.bool_)) or not hasattr(repeats, "__index__"):
            raise TypeError(f"repeats must be an int or an integer array, not {type(repeats).__name__}")
        repeats = operator.index(repeats)
    dev = core.common_device([x])
    if not isinstance(repeats, int):
        if (counts < 0).any():
            raise ValueError("repeats may not contain negative values")
        m = int(counts.sum())
        out = core.new_array(x.shape[:a] + (m,) + x.shape[a + 1:], x.dtype, dev)
        if out.size:
            # which source position each output position along the axis reads: index bookkeeping from the
            # counts; the gather kernel reads x through its strides (0 along the gathered axis)
            index = core.asarray(np.repeat(np.arange(n, dtype=np.int32), counts), device=dev)
            istrides = tuple(1 if d == a else 0 for d in range(x.ndim))
            _gather.run(dev, "gather", out.shape, [_gather.Index(index, istrides, x.strides[a], n, False)],
                        target=x, target_strides=x.strides[:a] + (0,) + x.strides[a + 1:], other=out)
        return out
    if repeats < 0:
        raise ValueError("repeats may not be negative")
    # x with a new axis after ``a`` broadcast to ``repeats``, copied into the result seen as (..., n, r, ...)
    out = core.new_array(x.shape[:a] + (n * repeats,) + x.shape[a + 1:], x.dtype, dev)
    if out.size:
        shape = x.shape[:a + 1] + (repeats,) + x.shape[a + 1:]
        src = Array(x.mirror, shape, x.strides[:a + 1] + (0,) + x.strides[a + 1:], x.offset)
        _copy_into(Array(out.mirror, shape, contiguous_strides(shape), 0), src)
    return out
