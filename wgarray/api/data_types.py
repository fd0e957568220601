"""Data type functions of the Array API standard: astype, can_cast, finfo, iinfo, isdtype, result_type (isdtype
is ``dtypes.isdtype``; the dtype objects themselves are ``wgarray/dtypes.py``).  Promotion follows
``dtypes.result_type`` (the standard's table plus the documented
int-with-float extension); device context: an array's device must support the dtype the rules give."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import dtypes as _dt
from .._array import Array
from ..dtypes import DType, isdtype
from ..ops import core

__all__ = ["astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"]

_PY_SCALARS = (bool, int, float, complex)


def _dtype_of(v) -> DType:
    return v.dtype if isinstance(v, Array) else _dt.as_dtype(v)


def _table_promotes(a: DType, b: DType) -> DType | None:
    """The standard's promotion table only (no mixing of kinds): the result, or None where it is undefined."""
    if (a.kind == "b") != (b.kind == "b") or (a.kind in "iu") != (b.kind in "iu"):
        return None  # float with complex is in the table (float32 + complex64 -> complex64)
    try:
        return _dt.result_type(a, b)
    except TypeError:
        return None


def astype(x: Array, dtype, /, *, copy: bool = True, device=None) -> Array:
    """x converted to ``dtype`` (numpy's casting), on ``device`` when one is given."""
    out = core.astype(x if isinstance(x, core.Traced) else core.as_array(x), dtype, copy=copy)
    return out if device is None else core.to_device(out, device)


def can_cast(from_, to, /) -> bool:
    """Whether ``from_`` (a dtype or an array) can be cast to ``to`` by the standard's promotion rules, i.e.
    promoting the two gives ``to``.  Mixed kinds (int to float, bool to int, ...) are False, as in the standard's
    table; for an array, ``to`` must also be supported by the array's device."""
    to = _dt.as_dtype(to)
    src = _dtype_of(from_)
    if isinstance(from_, Array) and not from_.device.supports(to):
        return False
    return _table_promotes(src, to) is to


@dataclass(frozen=True)
class finfo_object:
    """Machine limits of a floating-point dtype (the standard's finfo object)."""

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: DType


@dataclass(frozen=True)
class iinfo_object:
    """Machine limits of an integer dtype (the standard's iinfo object)."""

    bits: int
    max: int
    min: int
    dtype: DType


def finfo(type, /) -> finfo_object:
    """Limits of a floating-point dtype (or of an array's dtype); for a complex dtype, those of its real parts
    (``finfo(complex64)`` describes float32, ``dtype`` included, as the standard says)."""
    d = _dtype_of(type)
    if d.kind not in "fc":
        raise TypeError(f"finfo takes a floating-point dtype, not {d.name}")
    d = d.component
    info = np.finfo(d.numpy)
    return finfo_object(bits=d.bits, eps=float(info.eps), max=float(info.max), min=float(info.min),
                        smallest_normal=float(info.smallest_normal), dtype=d)


def iinfo(type, /) -> iinfo_object:
    """Limits of an integer dtype (or of an array's dtype)."""
    d = _dtype_of(type)
    if d.kind not in "iu":
        raise TypeError(f"iinfo takes an integer dtype, not {d.name}")
    info = np.iinfo(d.numpy)
    return iinfo_object(bits=d.bits, max=int(info.max), min=int(info.min), dtype=d)


def result_type(*arrays_and_dtypes) -> DType:
    """The dtype promotion gives for arrays, dtypes and Python scalars (2024.12).

    At least one array or dtype is needed; scalars then take its kind's dtype as in arithmetic (a float scalar
    with integers gives float32, a bool scalar mixes only with bool, a complex scalar with real floats gives
    their complex dtype)."""
    typed = [v for v in arrays_and_dtypes if not isinstance(v, _PY_SCALARS)]
    scalars = [v for v in arrays_and_dtypes if isinstance(v, _PY_SCALARS)]
    if not typed:
        raise ValueError("result_type needs at least one array or dtype")
    res = _dt.result_type(*[_dtype_of(v) for v in typed])
    for s in scalars:
        res = _dt.result_type(res, _dt.scalar_dtype(s, res))
    arrays = [v for v in typed if isinstance(v, Array)]
    if arrays and not arrays[0].device.supports(res):
        raise TypeError(f"the promoted dtype {res.name} needs the adapter feature '{res.feature}', which "
                        f"{arrays[0].device} does not offer")
    return res
