"""Shapes: normalising shape arguments, broadcasting shapes, and views that change a shape (reshape, broadcast_to)."""
from __future__ import annotations

import operator

import numpy as np

from .._array import Array, resolve_shape
from ..kernels.layout import broadcast_strides, contiguous_strides
from .core import astype


def as_shape(shape) -> tuple[int, ...]:
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    try:
        out = tuple(operator.index(n) for n in shape)
    except TypeError:
        raise TypeError(f"shape must be an int or a sequence of ints, not {shape!r}") from None
    if any(n < 0 for n in out):
        raise ValueError(f"negative dimensions are not allowed: {out}")
    return out


def broadcast_shapes(name: str, shapes: list) -> tuple[int, ...]:
    first = shapes[0]
    if all(s == first for s in shapes):
        return first
    nd = max(len(s) for s in shapes)
    out = [1] * nd
    for s in shapes:
        for k, n in enumerate(s, nd - len(s)):
            if n != 1:
                if out[k] != 1 and out[k] != n:
                    raise ValueError(f"{name}: operands could not be broadcast together with shapes "
                                     f"{' '.join(str(t) for t in shapes)}")
                out[k] = n
    return tuple(out)


def reshape(x: Array, shape, copy: bool | None = None) -> Array:
    shape = resolve_shape(x.size, shape)
    if x.is_contiguous and not copy:
        return x._view(shape, contiguous_strides(shape), x.offset)
    if copy is False:
        raise ValueError("reshape needs a copy of this non-contiguous array but copy=False was given")
    c = astype(x, x.dtype, copy=True)
    return Array(c.mirror, shape, contiguous_strides(shape), 0)


def broadcast_to(x: Array, shape) -> Array:
    shape = as_shape(shape)
    try:
        strides = broadcast_strides(x.shape, x.strides, shape)
    except ValueError:
        raise ValueError(f"cannot broadcast an array of shape {x.shape} to {shape}") from None
    return x._view(shape, strides, x.offset, writeable=False)  # zero strides alias elements: read-only
