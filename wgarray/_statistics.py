"""Statistical and utility functions composed of device ops: var, std (two passes: mean, then the mean of squared
deviations) and diff (differences of shifted views)."""
from __future__ import annotations

import math
import operator

import numpy as np

from . import _ops
from . import dtypes as _dt
from ._array import Array
from ._manipulation import _axis, concat

__all__ = ["var", "std", "diff"]


def _float_input(x) -> Array:
    x = x if isinstance(x, Array) else _ops.asarray(x)
    if x.dtype.kind != "f":
        if x.dtype.kind not in "biu":
            raise TypeError(f"unsupported dtype {x.dtype.name}")
        x = _ops.astype(x, _dt.default_float)  # documented policy: integers compute in the default float
    return x


def var(x, /, *, axis=None, correction: int | float = 0.0, keepdims: bool = False) -> Array:
    """Variance over ``axis``: sum((x - mean)^2) / max(N - correction, 0) (inf/NaN when that is 0, as numpy)."""
    x = _float_input(x)
    if x.dtype is _dt.float16:  # compute in float32 (the count, too, would round in float16), round at the end
        return _ops.astype(var(_ops.astype(x, _dt.float32), axis=axis, correction=correction, keepdims=keepdims),
                           _dt.float16)
    if isinstance(correction, (bool, np.bool_)) or not isinstance(correction, (int, float, np.integer, np.floating)):
        raise TypeError(f"correction must be a real number, not {type(correction).__name__}")
    axes = _ops.normalize_axes(axis, x.ndim)
    n = math.prod(x.shape[a] for a in axes)
    mean = _ops.reduce("mean", x, axes, True)
    dev = _ops.elementwise("subtract", x, mean)
    sq = _ops.elementwise("multiply", dev, dev)
    total = _ops.reduce("sum", sq, axes, keepdims)
    return _ops.elementwise("divide", total, float(max(n - correction, 0)))


def std(x, /, *, axis=None, correction: int | float = 0.0, keepdims: bool = False) -> Array:
    """Standard deviation over ``axis``: sqrt(var(x, axis, correction))."""
    return _ops.elementwise("sqrt", var(x, axis=axis, correction=correction, keepdims=keepdims))


def diff(x, /, *, axis: int = -1, n: int = 1, prepend=None, append=None) -> Array:
    """The n-th discrete difference along ``axis`` (x[1:] - x[:-1], n times; != for bool, as numpy).

    ``prepend``/``append`` are joined to x along the axis first (scalars and 0-d arrays are broadcast to one slice)."""
    x = x if isinstance(x, Array) else _ops.asarray(x)
    if x.ndim == 0:
        raise ValueError("diff needs an array of at least one dimension")
    a = _axis(axis, x.ndim)
    n = operator.index(n)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    if prepend is not None or append is not None:
        parts = []
        for extra in (prepend, x, append):
            if extra is None:
                continue
            if extra is not x:
                extra = extra if isinstance(extra, Array) else _ops.asarray(extra, device=x.device)
                if extra.ndim == 0:
                    extra = _ops.broadcast_to(extra, x.shape[:a] + (1,) + x.shape[a + 1:])
            parts.append(extra)
        x = concat(parts, axis=a)
    if n == 0:
        return x
    op = "not_equal" if x.dtype.kind == "b" else "subtract"
    hi = (slice(None),) * a + (slice(1, None),)
    lo = (slice(None),) * a + (slice(None, -1),)
    for _ in range(min(n, x.shape[a])):  # after shape[a] differences the axis is empty and stays so
        x = _ops.elementwise(op, x[hi], x[lo])
    return x
