"""numpy code on wgarray arrays: NEP 13 (``__array_ufunc__``) and NEP 18 (``__array_function__``), as CuPy does.

``np.exp(x)``, ``np.sum(x, axis=1, keepdims=True)`` or ``np.concatenate([x, y])`` with a wgarray ``x`` run on the
device through two tables:

* ``UFUNCS``: numpy ufunc name -> wgarray function (mostly rows of the elementwise table under numpy's names:
  ``absolute`` -> ``abs``, ``power`` -> ``pow``, ``arctan2`` -> ``atan2``, ...); ``REDUCE`` and ``ACCUMULATE``
  give ``ufunc.reduce`` / ``ufunc.accumulate`` where wgarray has the kernel (``add.reduce`` is ``sum``).
* ``FUNCTIONS``: numpy function -> an adapter with numpy's signature (``np.sum(a, axis, dtype, out,
  keepdims)``) over the namespace (``api/*``) and numpy's extras (``api/numpy_extras.py``).

What is in neither table raises ``TypeError`` naming it: never a silent download.  The host stays reachable
only explicitly: ``np.asarray(x)`` (through ``__array__``), ``x.get()``, ``wg.asnumpy(x)``.  numpy operands mixed
with wgarray ones are uploaded and the result stays on the device.

``out=``: a wgarray array receives the result (numpy's ``same_kind`` casting rule).  A numpy array as ``out``
raises TypeError, as CuPy does: that is ``np_array += x``, which would otherwise download silently; write
``np_array += x.get()``.  ``where=`` on ufunc calls selects between the result and ``out`` (zeros without it, where
numpy would leave the memory uninitialised).

``python -m wgarray.api.interop`` prints the README's table of numpy's namespace from these tables (the test
suite checks that the README holds what it prints).
"""
from __future__ import annotations

import builtins
import sys
from typing import Any, Callable

import numpy as np

from .. import dtypes as _dt
from .._array import Array
from ..ops import core
from ..ops.elementwise import elementwise as _ew
from ..ops.reduction import argreduce, reduce
from . import (
    creation,
    elementwise,
    indexing,
    linalg,
    manipulation,
    numpy_extras as nx,
    searching,
    set as set_,
    sorting,
    statistical,
    utility,
)
from .numpy_extras import _out

__all__ = ["UFUNCS", "REDUCE", "ACCUMULATE", "FUNCTIONS", "array_ufunc", "array_function", "table"]

_NoValue = np._NoValue  # type: ignore[attr-defined]


# ==== NEP 13: ufuncs ===========================================================================================
def _op(name: str) -> Callable[..., Array]:
    def f(*args):
        return _ew(name, *args)
    f.__name__ = name
    return f


def _composed_fmax(x, y):  # numpy's fmax/fmin: the non-NaN operand wins
    return _ew("where", _ew("isnan", y), x, _ew("where", _ew("isnan", x), y, _ew("maximum", x, y)))


def _composed_fmin(x, y):
    return _ew("where", _ew("isnan", y), x, _ew("where", _ew("isnan", x), y, _ew("minimum", x, y)))


def _degrees(x):
    return _ew("multiply", _nx_float(x), 180.0 / np.pi)


def _radians(x):
    return _ew("multiply", _nx_float(x), np.pi / 180.0)


def _nx_float(x):
    x = core.as_array(x)
    return x if x.dtype.kind == "f" else core.astype(x, _dt.default_float)


_SAME_NAME = ("add subtract multiply divide floor_divide remainder maximum minimum hypot copysign logaddexp "
              "nextafter equal not_equal less less_equal greater greater_equal logical_and logical_or logical_xor "
              "logical_not bitwise_and bitwise_or bitwise_xor bitwise_invert bitwise_left_shift bitwise_right_shift "
              "positive negative abs sign floor ceil trunc sqrt square reciprocal exp exp2 expm1 log log2 log10 "
              "log1p sin cos tan sinh cosh tanh isnan isinf isfinite signbit conj "
              "asin acos atan asinh acosh atanh atan2 pow").split()
_RENAMED = {
    "absolute": "abs", "fabs": "abs", "true_divide": "divide", "mod": "remainder", "power": "pow",
    "arcsin": "asin", "arccos": "acos", "arctan": "atan", "arcsinh": "asinh", "arccosh": "acosh",
    "arctanh": "atanh", "arctan2": "atan2", "invert": "bitwise_invert", "bitwise_not": "bitwise_invert",
    "left_shift": "bitwise_left_shift", "right_shift": "bitwise_right_shift", "rint": "round",
    "conjugate": "conj",
}
UFUNCS: dict[str, Callable[..., Array]] = {n: _op(n) for n in _SAME_NAME}
UFUNCS.update({n: _op(w) for n, w in _RENAMED.items()})
UFUNCS.update({"fmax": _composed_fmax, "fmin": _composed_fmin, "degrees": _degrees, "rad2deg": _degrees,
               "radians": _radians, "deg2rad": _radians, "matmul": linalg.matmul,
               "vecdot": lambda x, y: linalg.vecdot(x, y)})

# ufunc.reduce / ufunc.accumulate where wgarray has the kernel (numpy's default axis is 0 for these)
REDUCE: dict[str, str] = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
                          "logical_and": "all", "logical_or": "any"}
ACCUMULATE: dict[str, Callable[..., Array]] = {"add": statistical.cumulative_sum,
                                               "multiply": statistical.cumulative_prod}


def _reject(kwargs: dict, what: str) -> None:
    for k, v in kwargs.items():
        if k in ("casting", "order") and v in ("same_kind", "K", "C"):
            continue
        if k == "subok" and v:
            continue
        if k == "signature" and v is None:
            continue
        raise TypeError(f"wgarray's {what} does not support {k}={v!r}")


def _inputs_ok(inputs) -> bool:
    return builtins.all(isinstance(v, (Array, np.ndarray, np.generic, int, float, bool)) for v in inputs)


def array_ufunc(ufunc: np.ufunc, method: str, *inputs, **kwargs) -> Any:
    """``Array.__array_ufunc__``: the ufunc on the device (TypeError for what wgarray lacks)."""
    if not _inputs_ok(inputs):
        return NotImplemented
    name = ufunc.__name__
    out = kwargs.pop("out", None)
    if out is not None:
        out = out if isinstance(out, tuple) else (out,)
        if builtins.any(isinstance(o, np.ndarray) for o in out):
            raise TypeError(f"numpy.{name}: a numpy array as out= would need a silent download of the wgarray "
                            "result; wgarray refuses it (as CuPy does): write np_array += x.get(), or use a "
                            "wgarray out=")
        if len(out) != 1 or not isinstance(out[0], Array):
            raise TypeError(f"numpy.{name}: out= must be one wgarray Array")
    dtype = kwargs.pop("dtype", None)
    if method == "__call__":
        fn = UFUNCS.get(name)
        if fn is None:
            raise TypeError(f"wgarray does not implement the numpy ufunc numpy.{name}")
        where = kwargs.pop("where", True)
        _reject(kwargs, f"numpy.{name}")
        if dtype is not None:
            inputs = tuple(core.astype(core.as_array(v), dtype, copy=False) for v in inputs)
        res = fn(*inputs)
        if where is not True:
            base = out[0] if out is not None else core.new_array(res.shape, res.dtype, res.device)
            if out is None:
                core.fill(base, 0)
            res = _ew("where", where, res, base)
        return _out(res, out)
    if method == "reduce":
        red = REDUCE.get(name)
        if red is None:
            raise TypeError(f"wgarray does not implement numpy.{name}.reduce")
        axis = kwargs.pop("axis", 0)
        keepdims = kwargs.pop("keepdims", False)
        for k in ("initial", "where"):
            if kwargs.get(k, _NoValue) not in (_NoValue, True) or (k == "initial" and k in kwargs):
                raise TypeError(f"wgarray's numpy.{name}.reduce does not support {k}=")
            kwargs.pop(k, None)
        _reject(kwargs, f"numpy.{name}.reduce")
        (x,) = inputs
        x = core.as_array(x)
        res = reduce(red, x, axis, keepdims, dtype if red in ("sum", "prod") else None)
        if dtype is not None and red not in ("sum", "prod"):
            res = core.astype(res, dtype, copy=False)
        return _out(res, out)
    if method == "accumulate":
        acc = ACCUMULATE.get(name)
        if acc is None:
            raise TypeError(f"wgarray does not implement numpy.{name}.accumulate")
        axis = kwargs.pop("axis", 0)
        _reject(kwargs, f"numpy.{name}.accumulate")
        (x,) = inputs
        return _out(acc(core.as_array(x), axis=axis, dtype=dtype), out)
    raise TypeError(f"wgarray does not implement numpy.{name}.{method}")


# ==== NEP 18: functions =========================================================================================
FUNCTIONS: dict[Callable, Callable] = {}


def implements(*np_funcs: Callable):
    def deco(fn):
        for f in np_funcs:
            FUNCTIONS[f] = fn
        return fn
    return deco


def _no(what: str, **given) -> None:
    """Refuse numpy keywords wgarray does not implement (given a non-default value)."""
    for k, v in given.items():
        if v is not _NoValue and v is not None:
            raise TypeError(f"wgarray's numpy.{what} does not support {k}=")


def _arr(x) -> Array:
    return core.as_array(x)


def _reduction(name: str, with_dtype: bool):
    def f(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NoValue, where=_NoValue):
        _no(name, initial=initial, where=where)
        x = _arr(a)
        if name == "mean" and dtype is not None:
            x = core.astype(x, dtype, copy=False)
            dtype = None
        res = reduce(name, x, axis, bool(keepdims), dtype) if with_dtype else reduce(name, x, axis, bool(keepdims))
        if dtype is not None and not with_dtype:
            res = core.astype(res, dtype, copy=False)
        return _out(res, out)
    f.__name__ = name
    return f


FUNCTIONS.update({np.sum: _reduction("sum", True), np.prod: _reduction("prod", True),
                  np.mean: _reduction("mean", False)})


@implements(np.max, np.amax)
def _max(a, axis=None, out=None, keepdims=False, initial=_NoValue, where=_NoValue):
    _no("max", initial=initial, where=where)
    return _out(reduce("max", _arr(a), axis, bool(keepdims)), out)


@implements(np.min, np.amin)
def _min(a, axis=None, out=None, keepdims=False, initial=_NoValue, where=_NoValue):
    _no("min", initial=initial, where=where)
    return _out(reduce("min", _arr(a), axis, bool(keepdims)), out)


@implements(np.any)
def _any(a, axis=None, out=None, keepdims=False, *, where=_NoValue):
    _no("any", where=where)
    return _out(reduce("any", _arr(a), axis, bool(keepdims)), out)


@implements(np.all)
def _all(a, axis=None, out=None, keepdims=False, *, where=_NoValue):
    _no("all", where=where)
    return _out(reduce("all", _arr(a), axis, bool(keepdims)), out)


@implements(np.argmax)
def _argmax(a, axis=None, out=None, *, keepdims=False):
    return _out(argreduce("argmax", _arr(a), axis, bool(keepdims)), out)


@implements(np.argmin)
def _argmin(a, axis=None, out=None, *, keepdims=False):
    return _out(argreduce("argmin", _arr(a), axis, bool(keepdims)), out)


def _spread(name: str):
    fn = getattr(statistical, name)

    def f(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=_NoValue, mean=_NoValue,
          correction=_NoValue):
        _no(name, where=where, mean=mean)
        x = _arr(a)
        if dtype is not None:
            x = core.astype(x, dtype, copy=False)
        corr = ddof if correction is _NoValue else correction
        return _out(fn(x, axis=axis, correction=corr, keepdims=bool(keepdims)), out)
    f.__name__ = name
    return f


FUNCTIONS.update({np.var: _spread("var"), np.std: _spread("std")})


def _cumulative(fn):
    def f(a, axis=None, dtype=None, out=None):
        x = _arr(a)
        if axis is None:
            x, axis = manipulation.reshape(x, (-1,)), 0
        return _out(fn(x, axis=axis, dtype=dtype), out)
    return f


FUNCTIONS.update({np.cumsum: _cumulative(statistical.cumulative_sum),
                  np.cumprod: _cumulative(statistical.cumulative_prod)})


@implements(np.cumulative_sum)
def _cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    return _out(statistical.cumulative_sum(_arr(x), axis=axis, dtype=dtype, include_initial=include_initial), out)


@implements(np.cumulative_prod)
def _cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    return _out(statistical.cumulative_prod(_arr(x), axis=axis, dtype=dtype, include_initial=include_initial), out)


@implements(np.count_nonzero)
def _count_nonzero(a, axis=None, *, keepdims=False):
    return searching.count_nonzero(_arr(a), axis=axis, keepdims=keepdims)


@implements(np.where)
def _where(condition, *xy):
    if not xy:
        return searching.nonzero(core.astype(_arr(condition), _dt.bool, copy=False))
    if len(xy) != 2:
        raise ValueError("either both or neither of x and y should be given")
    c = condition if isinstance(condition, (bool, np.bool_)) else _arr(condition)
    if isinstance(c, Array) and c.dtype is not _dt.bool:
        c = core.astype(c, _dt.bool)
    return searching.where(c, *xy)


@implements(np.nonzero)
def _nonzero(a):
    return searching.nonzero(_arr(a))


@implements(np.flatnonzero)
def _flatnonzero(a):
    return searching.nonzero(manipulation.reshape(_arr(a), (-1,)))[0]


@implements(np.searchsorted)
def _searchsorted(a, v, side="left", sorter=None):
    return searching.searchsorted(_arr(a), v, side=side, sorter=sorter)


def _sorting(fn, name: str, a, axis, order):
    """np.sort / np.argsort: ``axis=None`` sorts the flattened array (every sort here is stable)."""
    _no(name, order=order)
    x = _arr(a)
    if axis is None:
        x, axis = manipulation.reshape(x, (-1,)), 0
    return fn(x, axis=axis)


@implements(np.sort)
def _sort(a, axis=-1, kind=None, order=None, *, stable=None):
    return _sorting(sorting.sort, "sort", a, axis, order)


@implements(np.argsort)
def _argsort(a, axis=-1, kind=None, order=None, *, stable=None):
    return _sorting(sorting.argsort, "argsort", a, axis, order)


@implements(np.unique)
def _unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True,
            sorted=True):
    _no("unique", axis=axis)
    x = manipulation.reshape(_arr(ar), (-1,))
    if not (return_index or return_inverse or return_counts):
        return set_.unique_values(x)
    r = set_.unique_all(x)
    out = [r.values]
    if return_index:
        out.append(r.indices)
    if return_inverse:
        out.append(manipulation.reshape(r.inverse_indices, _arr(ar).shape))
    if return_counts:
        out.append(r.counts)
    return tuple(out)


for _name in ("unique_values", "unique_counts", "unique_inverse", "unique_all"):
    FUNCTIONS[getattr(np, _name)] = getattr(set_, _name)


@implements(np.clip)
def _clip(a, a_min=_NoValue, a_max=_NoValue, out=None, *, min=_NoValue, max=_NoValue, **kwargs):
    lo = None if a_min is _NoValue else a_min
    hi = None if a_max is _NoValue else a_max
    lo = lo if min is _NoValue else min
    hi = hi if max is _NoValue else max
    _reject(kwargs, "numpy.clip")
    return _out(elementwise.clip(_arr(a), lo, hi), out)


@implements(np.round, np.around)
def _round(a, decimals=0, out=None):
    return _out(round_(_arr(a), decimals), out)


def round_(x: Array, decimals: int = 0) -> Array:
    """numpy's round: ties to even, at ``decimals`` digits (scaled by 10**|decimals| and back, as numpy does;
    integers with negative decimals round in the default float and convert back)."""
    decimals = int(decimals)
    if decimals == 0 or (x.dtype.kind != "f" and decimals > 0):
        return _ew("round", x)
    f = 10.0 ** builtins.abs(decimals)
    y = x if x.dtype.kind == "f" else core.astype(x, _dt.default_float)
    if decimals > 0:
        return _ew("divide", _ew("round", _ew("multiply", y, f)), f)
    res = _ew("multiply", _ew("round", _ew("divide", y, f)), f)
    return res if x.dtype.kind == "f" else core.astype(res, x.dtype)


@implements(np.diff)
def _diff(a, n=1, axis=-1, prepend=_NoValue, append=_NoValue):
    return utility.diff(_arr(a), n=n, axis=axis, prepend=None if prepend is _NoValue else prepend,
                        append=None if append is _NoValue else append)


@implements(np.trace)
def _trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    x = manipulation.moveaxis(_arr(a), (axis1, axis2), (-2, -1))
    return _out(linalg.trace(x, offset=offset, dtype=dtype), out)


@implements(np.diagonal)
def _diagonal(a, offset=0, axis1=0, axis2=1):
    return linalg.diagonal(manipulation.moveaxis(_arr(a), (axis1, axis2), (-2, -1)), offset=offset)


# -- manipulation ------------------------------------------------------------------------------------------------
@implements(np.reshape)
def _reshape(a, /, shape=None, order="C", *, newshape=None, copy=None):
    shape = newshape if shape is None else shape
    return reshape_ordered(_arr(a), shape, order, copy)


def reshape_ordered(x: Array, shape, order: str = "C", copy=None) -> Array:
    """numpy's reshape with ``order``: 'C' (and 'A', which wgarray's C-ordered arrays read as C) directly,
    'F' as the reversed reshape of the transpose (numpy's definition of Fortran order)."""
    if isinstance(shape, (int, np.integer)):
        shape = (int(shape),)
    if order in ("C", "A"):
        return manipulation.reshape(x, tuple(shape), copy=copy)
    if order == "F":
        return manipulation.reshape(x.transpose(), tuple(shape)[::-1], copy=copy).transpose()
    raise ValueError(f"order must be one of 'C', 'F', 'A', not {order!r}")


@implements(np.ravel)
def _ravel(a, order="C"):
    return reshape_ordered(_arr(a), (-1,), order)


@implements(np.transpose)
def _transpose(a, axes=None):
    return _arr(a).transpose(axes)


@implements(np.permute_dims)
def _permute_dims(a, axes=None):
    return _arr(a).transpose(axes)


@implements(np.matrix_transpose)
def _matrix_transpose(x, /):
    return linalg.matrix_transpose(_arr(x))


@implements(np.swapaxes)
def _swapaxes(a, axis1, axis2):
    return swapaxes(_arr(a), axis1, axis2)


def swapaxes(x: Array, axis1: int, axis2: int) -> Array:
    from ..ops.axes import axis as _axis
    a1, a2 = _axis(axis1, x.ndim), _axis(axis2, x.ndim)
    axes = list(range(x.ndim))
    axes[a1], axes[a2] = axes[a2], axes[a1]
    return x.transpose(axes)


@implements(np.moveaxis)
def _moveaxis(a, source, destination):
    return manipulation.moveaxis(_arr(a), source, destination)


@implements(np.squeeze)
def _squeeze(a, axis=None):
    return squeeze(_arr(a), axis)


def squeeze(x: Array, axis=None) -> Array:
    if axis is None:
        axis = tuple(d for d, n in enumerate(x.shape) if n == 1)
    return manipulation.squeeze(x, axis)


@implements(np.expand_dims)
def _expand_dims(a, axis):
    x = _arr(a)
    if isinstance(axis, (tuple, list)):
        nd = x.ndim + len(axis)
        from ..ops.axes import axis as _axis
        for ax in sorted(_axis(v, nd) for v in axis):
            x = manipulation.expand_dims(x, axis=ax)
        return x
    return manipulation.expand_dims(x, axis=axis)


@implements(np.broadcast_to)
def _broadcast_to(array, shape, subok=False):
    return manipulation.broadcast_to(_arr(array), shape)


@implements(np.broadcast_arrays)
def _broadcast_arrays(*args, subok=False):
    return tuple(manipulation.broadcast_arrays(*args))


@implements(np.flip)
def _flip(m, axis=None):
    return manipulation.flip(_arr(m), axis=axis)


@implements(np.fliplr)
def _fliplr(m):
    return manipulation.flip(_arr(m), axis=1)


@implements(np.flipud)
def _flipud(m):
    return manipulation.flip(_arr(m), axis=0)


@implements(np.roll)
def _roll(a, shift, axis=None):
    return manipulation.roll(_arr(a), shift, axis=axis)


@implements(np.tile)
def _tile(A, reps):
    return manipulation.tile(_arr(A), reps if isinstance(reps, (tuple, list)) else (reps,))


@implements(np.repeat)
def _repeat(a, repeats, axis=None):
    return manipulation.repeat(_arr(a), repeats, axis=axis)


@implements(np.stack)
def _stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    res = manipulation.stack(list(arrays), axis=axis)
    return _out(res if dtype is None else core.astype(res, dtype, copy=False), out)


@implements(np.concat)
def _concat(arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind"):
    return nx.concatenate(arrays, axis, out, dtype=dtype)


@implements(np.unstack)
def _unstack(x, /, *, axis=0):
    return manipulation.unstack(_arr(x), axis=axis)


@implements(np.take)
def _take(a, indices, axis=None, out=None, mode="raise"):
    if mode != "raise":
        raise TypeError("wgarray's numpy.take implements mode='raise' only")
    if isinstance(indices, (int, np.integer)):
        x = _arr(a)
        x = manipulation.reshape(x, (-1,)) if axis is None else x
        from ..ops.axes import axis as _axis
        ax = 0 if axis is None else _axis(axis, x.ndim)
        return _out(x[(slice(None),) * ax + (int(indices),)], out)
    return _out(indexing.take(_arr(a), indices, axis=axis), out)


@implements(np.take_along_axis)
def _take_along_axis(arr, indices, axis=-1):
    if axis is None:
        return indexing.take_along_axis(manipulation.reshape(_arr(arr), (-1,)), indices, axis=0)
    return indexing.take_along_axis(_arr(arr), indices, axis=axis)


@implements(np.tril)
def _tril(m, k=0):
    return creation.tril(_arr(m), k=k)


@implements(np.triu)
def _triu(m, k=0):
    return creation.triu(_arr(m), k=k)


def _like(fn):
    def f(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
        x = _arr(a)
        return fn(x if shape is None else creation.empty(shape, dtype=x.dtype, device=x.device), dtype=dtype)
    return f


FUNCTIONS.update({np.zeros_like: _like(creation.zeros_like), np.ones_like: _like(creation.ones_like),
                  np.empty_like: _like(creation.empty_like)})


@implements(np.full_like)
def _full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    x = _arr(a)
    return creation.full_like(x if shape is None else creation.empty(shape, dtype=x.dtype, device=x.device),
                              fill_value, dtype=dtype)


@implements(np.copy)
def _copy(a, order="K", subok=False):
    x = _arr(a)
    return core.astype(x, x.dtype, copy=True)


@implements(np.astype)
def _astype(x, dtype, /, *, copy=True, device=None):
    return core.astype(_arr(x), dtype, copy=copy)


@implements(np.shape)
def _shape(a):
    return _arr(a).shape


@implements(np.ndim)
def _ndim(a):
    return _arr(a).ndim


@implements(np.size)
def _size(a, axis=None):
    x = _arr(a)
    return x.size if axis is None else x.shape[axis]


@implements(np.result_type)
def _result_type(*arrays_and_dtypes):
    from .data_types import result_type
    return result_type(*arrays_and_dtypes)


@implements(np.meshgrid)
def _meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    _no("meshgrid", sparse=sparse or None)
    return tuple(creation.meshgrid(*xi, indexing=indexing))


@implements(np.real)
def _real(val):
    return _ew("real", _arr(val))


@implements(np.imag)
def _imag(val):
    return _ew("imag", _arr(val))


# -- linear algebra ------------------------------------------------------------------------------------------------
@implements(np.tensordot)
def _tensordot(a, b, axes=2):
    return linalg.tensordot(_arr(a), _arr(b), axes=axes)


@implements(np.outer)
def _outer(a, b, out=None):
    return _out(linalg.outer(manipulation.reshape(_arr(a), (-1,)), manipulation.reshape(_arr(b), (-1,))), out)


@implements(np.cross)
def _cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    return linalg.cross(_arr(a), _arr(b), axis=-1 if axis is None else axis)


FUNCTIONS.update({np.linalg.norm: lambda x, ord=None, axis=None, keepdims=False: _norm(x, ord, axis, keepdims)})


def _norm(x, ord, axis, keepdims):
    x = _arr(x)
    if ord is None and axis is None:
        return linalg.vector_norm(x, axis=None, keepdims=keepdims)
    if (isinstance(axis, int) or (axis is None and x.ndim == 1)):
        return linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=2 if ord is None else ord)
    raise TypeError("wgarray's numpy.linalg.norm implements vector norms (and ord=None over all axes)")


# -- numpy.linalg's factorisations (Dask's tsqr and svd call them on each block) -----------------------------------
@implements(np.linalg.qr)
def _qr(a, mode="reduced"):
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"qr: unrecognized mode {mode!r}")
    res = linalg.qr(_arr(a), mode="reduced" if mode == "r" else mode)
    return res.R if mode == "r" else res


@implements(np.linalg.svd)
def _svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    _no("linalg.svd", hermitian=hermitian or None)
    return linalg.svd(_arr(a), full_matrices=full_matrices) if compute_uv else linalg.svdvals(_arr(a))


FUNCTIONS.update({np.linalg.cholesky: lambda a, /, *, upper=False: linalg.cholesky(_arr(a), upper=upper),
                  np.linalg.inv: lambda a: linalg.inv(_arr(a)),
                  np.linalg.solve: lambda a, b: linalg.solve(_arr(a), _arr(b)),
                  np.linalg.det: lambda a: linalg.det(_arr(a)),
                  np.linalg.eigh: lambda a, UPLO="L": linalg.eigh(_arr(a) if UPLO == "L" else _arr(a).mT)})


# -- partition: a sorted array is one of the arrays numpy's contract allows ------------------------------------------
@implements(np.partition)
def _partition(a, kth, axis=-1, kind="introselect", order=None):
    _no("partition", order=order)
    x = _arr(a)
    return sorting.sort(manipulation.reshape(x, (-1,)) if axis is None else x, axis=-1 if axis is None else axis)


@implements(np.argpartition)
def _argpartition(a, kth, axis=-1, kind="introselect", order=None):
    _no("argpartition", order=order)
    x = _arr(a)
    return sorting.argsort(manipulation.reshape(x, (-1,)) if axis is None else x, axis=-1 if axis is None else axis)


# -- NEP 35 (``like=``): numpy's creation functions asked for "an array like this wgarray array" ---------------------
# numpy drops ``like`` before dispatching, so the array is made on the default device (a Dask worker's own device).
# This is how Dask builds metadata and small constants for a chunk type (``np.asarray(q, like=meta)``).
@implements(np.asarray, np.asanyarray)
def _like_asarray(a, dtype=None, order=None, *, device=None, copy=None):
    return creation.asarray(a, dtype=dtype, copy=copy)


@implements(np.array)
def _like_array(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, ndmax=0):
    x = creation.asarray(object, dtype=dtype, copy=copy)
    return manipulation.reshape(x, (1,) * (ndmin - x.ndim) + x.shape) if ndmin > x.ndim else x


@implements(np.ascontiguousarray)
def _like_ascontiguousarray(a, dtype=None):
    x = creation.asarray(a, dtype=dtype)
    return x if x.is_contiguous else x.copy()


FUNCTIONS.update({
    np.empty: lambda shape, dtype=None, order="C", *, device=None: creation.empty(shape, dtype=dtype),
    np.zeros: lambda shape, dtype=None, order="C", *, device=None: creation.zeros(shape, dtype=dtype),
    np.ones: lambda shape, dtype=None, order="C", *, device=None: creation.ones(shape, dtype=dtype),
    np.full: lambda shape, fill_value, dtype=None, order="C", *, device=None:
        creation.full(shape, fill_value, dtype=dtype),
    np.arange: lambda start, stop=None, step=None, dtype=None, *, device=None:
        creation.arange(start, stop, 1 if step is None else step, dtype=dtype),
    np.eye: lambda N, M=None, k=0, dtype=None, order="C", *, device=None: creation.eye(N, M, k=k, dtype=dtype),
})


# -- the extras: numpy's own signatures already ------------------------------------------------------------------
for _name in nx.__all__:
    if hasattr(np, _name) and _name not in ("asnumpy", "get_array_module"):
        FUNCTIONS[getattr(np, _name)] = getattr(nx, _name)


@implements(np.histogram)
def _histogram(a, bins=10, range=None, density=None, weights=None):
    return nx.histogram(a, bins, range, density, weights)


def array_function(func: Callable, types, args, kwargs) -> Any:
    """``Array.__array_function__``: the wgarray implementation of ``func``, or TypeError naming it."""
    if not builtins.all(issubclass(t, (Array, np.ndarray)) for t in types):
        return NotImplemented
    impl = FUNCTIONS.get(func)
    if impl is None:
        mod = getattr(func, "__module__", None) or "numpy"
        raise TypeError(f"wgarray does not implement {mod}.{func.__name__} (no silent download: call "
                        "np.asarray(x) or x.get() to compute it with numpy on the host)")
    return impl(*args, **kwargs)


# ==== the README table ==========================================================================================
def _dispatched_names() -> tuple[list[str], list[str]]:
    ufuncs = sorted(n for n in dir(np) if isinstance(getattr(np, n), np.ufunc))
    funcs = sorted(n for n in dir(np) if not n.startswith("_")
                   and type(getattr(np, n)).__name__ == "_ArrayFunctionDispatcher")
    return ufuncs, funcs


def table() -> str:
    """The README's markdown table: numpy's main namespace (ufuncs and ``__array_function__`` functions) and
    what each does on a wgarray array.  Generated from the dispatch tables, so it cannot disagree with them."""
    ufuncs, funcs = _dispatched_names()
    u_dev = [n for n in ufuncs if n in UFUNCS]
    u_no = [n for n in ufuncs if n not in UFUNCS]
    f_dev = [n for n in funcs if getattr(np, n) in FUNCTIONS]
    f_no = [n for n in funcs if getattr(np, n) not in FUNCTIONS]
    red = [f"{n}.reduce" for n in sorted(REDUCE)] + [f"{n}.accumulate" for n in sorted(ACCUMULATE)]

    def names(ns):
        return ", ".join(f"`{n}`" for n in ns) if ns else "-"

    rows = [
        "| numpy (version " + np.__version__.rsplit(".", 1)[0] + ") | runs on the device | raises TypeError |",
        "|---|---|---|",
        f"| ufuncs ({len(ufuncs)}) | {len(u_dev)}: {names(u_dev)} | {len(u_no)}: {names(u_no)} |",
        f"| ufunc methods | {names(red)} | every other `reduce`/`accumulate`, `outer`, `at`, `reduceat` |",
        f"| functions ({len(funcs)}) | {len(f_dev)}: {names(f_dev)} | {len(f_no)}: {names(f_no)} |",
    ]
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    sys.stdout.write(table())
