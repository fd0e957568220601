"""Namespace functions grouped as the Array API standard groups them (creation, manipulation, statistics...)."""
from __future__ import annotations

from . import _ops
from . import dtypes as _dt
from ._array import Array

__all__ = ["zeros", "ones", "empty_like", "zeros_like", "ones_like", "full_like", "astype", "sum", "prod", "mean",
           "max", "min", "any", "all", "argmax", "argmin", "synchronize", "stats"]
# reshape and permute_dims live in _manipulation, matrix_transpose in linalg


# -- creation ----------------------------------------------------------------------------------------------------
def zeros(shape, *, dtype=None, device=None) -> Array:
    return _ops.full(shape, 0, dtype=_dt.default_float if dtype is None else dtype, device=device)


def ones(shape, *, dtype=None, device=None) -> Array:
    return _ops.full(shape, 1, dtype=_dt.default_float if dtype is None else dtype, device=device)


def empty_like(x: Array, /, *, dtype=None, device=None) -> Array:
    x = x if isinstance(x, Array) else _ops.asarray(x)
    return _ops.empty(x.shape, dtype=x.dtype if dtype is None else dtype, device=x.device if device is None else device)


def zeros_like(x: Array, /, *, dtype=None, device=None) -> Array:
    return full_like(x, 0, dtype=dtype, device=device)


def ones_like(x: Array, /, *, dtype=None, device=None) -> Array:
    return full_like(x, 1, dtype=dtype, device=device)


def full_like(x: Array, /, fill_value, *, dtype=None, device=None) -> Array:
    x = x if isinstance(x, Array) else _ops.asarray(x)
    return _ops.full(x.shape, fill_value, dtype=x.dtype if dtype is None else dtype,
                     device=x.device if device is None else device)


# -- data types and manipulation ----------------------------------------------------------------------------------
def astype(x: Array, dtype, /, *, copy: bool = True, device=None) -> Array:
    x = x if isinstance(x, Array) else _ops.asarray(x)
    out = _ops.astype(x, dtype, copy=copy)
    return out if device is None else _ops.to_device(out, device)


# -- statistics and utilities ----------------------------------------------------------------------------------
def sum(x, /, *, axis=None, dtype=None, keepdims=False) -> Array:
    return _ops.reduce("sum", x, axis, keepdims, dtype)


def prod(x, /, *, axis=None, dtype=None, keepdims=False) -> Array:
    return _ops.reduce("prod", x, axis, keepdims, dtype)


def mean(x, /, *, axis=None, keepdims=False) -> Array:
    return _ops.reduce("mean", x, axis, keepdims)


def max(x, /, *, axis=None, keepdims=False) -> Array:
    return _ops.reduce("max", x, axis, keepdims)


def min(x, /, *, axis=None, keepdims=False) -> Array:
    return _ops.reduce("min", x, axis, keepdims)


def any(x, /, *, axis=None, keepdims=False) -> Array:
    return _ops.reduce("any", x, axis, keepdims)


def all(x, /, *, axis=None, keepdims=False) -> Array:
    return _ops.reduce("all", x, axis, keepdims)


def argmax(x, /, *, axis=None, keepdims=False) -> Array:
    return _ops.argreduce("argmax", x, axis, keepdims)


def argmin(x, /, *, axis=None, keepdims=False) -> Array:
    return _ops.argreduce("argmin", x, axis, keepdims)


# -- devices -----------------------------------------------------------------------------------------------------
def synchronize(device=None) -> None:
    """Wait for all work recorded on ``device`` (the default device when None)."""
    _ops.resolve_device(device).synchronize()


def stats(device=None):
    """Counter snapshot of ``device`` (the default device when None)."""
    return _ops.resolve_device(device).stats()
