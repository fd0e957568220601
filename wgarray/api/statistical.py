"""Statistical functions of the Array API standard: the reductions (``sum``, ``prod``, ``mean``, ``max``,
``min``: rows of ``kernels/rtable.py``), ``var`` and ``std`` (two passes: mean, then the mean of squared
deviations) and the cumulative sums and products (the WGSL prefix scan in ``kernels/scan.py``).

Cumulative dtype rules are those of ``sum``/``prod``: bool and narrow signed integers give the default integer
dtype (int32), narrow unsigned integers uint32, 64-bit integers and floats keep their dtype.  Float scans combine
in a tree, not left to right as numpy does, so float results may differ from numpy's in the last bits.
"""
from __future__ import annotations

import builtins
import math

import numpy as np

from .. import dtypes as _dt
from .._array import Array
from ..kernels import rows as _rows, rtable, scan as _scan
from ..kernels.layout import contiguous_strides
from ..ops import axes as _axes, core
from ..ops.elementwise import elementwise
from ..ops.reduction import reduce

__all__ = ["cumulative_prod", "cumulative_sum", "max", "mean", "min", "prod", "std", "sum", "var"]


def sum(x, /, axis=None, dtype=None, *, keepdims=False) -> Array:
    return reduce("sum", x, axis, keepdims, dtype)


def prod(x, /, axis=None, dtype=None, *, keepdims=False) -> Array:
    return reduce("prod", x, axis, keepdims, dtype)


def mean(x, /, axis=None, *, keepdims=False) -> Array:
    return reduce("mean", x, axis, keepdims)


def max(x, /, axis=None, *, keepdims=False) -> Array:
    return reduce("max", x, axis, keepdims)


def min(x, /, axis=None, *, keepdims=False) -> Array:
    return reduce("min", x, axis, keepdims)


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False) -> Array:
    """Cumulative sum along ``axis`` (optional for 1-D input); ``include_initial`` prepends a 0."""
    return _cumulative("sum", x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False) -> Array:
    """Cumulative product along ``axis`` (optional for 1-D input); ``include_initial`` prepends a 1."""
    return _cumulative("prod", x, axis, dtype, include_initial)


def _cumulative(op: str, x, axis, dtype, include_initial: bool) -> Array:
    name = f"cumulative_{op}"
    x = core.as_array(x)
    dev = core.common_device([x])
    if x.ndim == 0:
        raise ValueError(f"{name}: x must have at least one dimension")
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"{name}: axis must be given for arrays of more than one dimension")
        axis = 0
    axis = _axes.axis(axis, x.ndim, name=f"{name}: axis")
    res = rtable.result(rtable.OPS[op], x.dtype, None if dtype is None else _dt.as_dtype(dtype))
    core.check_supported(res, dev)
    shift = 1 if include_initial else 0
    length = x.shape[axis]
    shape = list(x.shape)
    shape[axis] = length + shift
    out = core.new_array(shape, res, dev)
    if out.size == 0:
        return out
    if length == 0:  # only the initial values
        core.fill(out, _scan._IDENTITY[op])
        return out
    ostr = contiguous_strides(shape)
    n_rows, _, (src_rows, dst_rows) = _rows.split(x.shape, [axis], [(x.offset, x.strides), (0, ostr)])
    dst_rows = _rows.Rows(0, dst_rows.oshape, dst_rows.ost, (length + shift,), (ostr[axis],))
    src = x.mirror.buffer()
    dst = out.mirror.buffer_for_write(whole=True)
    load = "nonzero" if res is _dt.bool else "convert"  # numpy casts the inputs to bool first (0.5 -> True)
    _scan.run(dev, op, src, x.dtype, load, src_rows, n_rows, length, dst, res, dst_rows, shift)
    return out


def _float_input(x) -> Array:
    x = core.as_array(x)
    if x.dtype.kind != "f":
        if x.dtype.kind not in "biu":
            raise TypeError(f"unsupported dtype {x.dtype.name}")
        x = core.astype(x, _dt.default_float)  # documented policy: integers compute in the default float
    return x


def var(x, /, axis=None, *, correction: int | float = 0.0, keepdims: bool = False) -> Array:
    """Variance over ``axis``: sum((x - mean)^2) / max(N - correction, 0) (inf/NaN when that is 0, as numpy)."""
    x = _float_input(x)
    if x.dtype is _dt.float16:  # compute in float32 (the count, too, would round in float16), round at the end
        return core.astype(var(core.astype(x, _dt.float32), axis=axis, correction=correction, keepdims=keepdims),
                           _dt.float16)
    if isinstance(correction, (bool, np.bool_)) or not isinstance(correction, (int, float, np.integer, np.floating)):
        raise TypeError(f"correction must be a real number, not {type(correction).__name__}")
    axes = _axes.reduced(axis, x.ndim)
    n = math.prod(x.shape[a] for a in axes)
    mean = reduce("mean", x, axes, True)
    dev = elementwise("subtract", x, mean)
    sq = elementwise("multiply", dev, dev)
    total = reduce("sum", sq, axes, keepdims)
    return elementwise("divide", total, float(builtins.max(n - correction, 0)))


def std(x, /, axis=None, *, correction: int | float = 0.0, keepdims: bool = False) -> Array:
    """Standard deviation over ``axis``: sqrt(var(x, axis, correction))."""
    return elementwise("sqrt", var(x, axis=axis, correction=correction, keepdims=keepdims))
