"""Elementwise functions of the Array API standard, one generic implementation per arity, built from the op table
(``kernels/ewtable.py``: every unary and binary row is a function here), and ``clip``.  ``where`` is a
searching function (``searching.py``)."""
from __future__ import annotations

import builtins
import inspect
import math
from typing import Any

import numpy as np

from ..kernels.ewtable import BINARY, UNARY
from ..ops.core import as_array
from ..ops.elementwise import elementwise

__all__ = list(UNARY) + list(BINARY) + ["clip"]

_P = inspect.Parameter


def _make(name: str, arity: int):
    if arity == 1:
        def fn(x, /):
            return elementwise(name, x)
        params = [_P("x", _P.POSITIONAL_ONLY)]
    else:
        def fn(x1, x2, /):
            return elementwise(name, x1, x2)
        params = [_P("x1", _P.POSITIONAL_ONLY), _P("x2", _P.POSITIONAL_ONLY)]
    fn.__name__ = fn.__qualname__ = name
    fn.__signature__ = inspect.Signature(params)
    fn.__doc__ = f"Elementwise ``{name}`` computed by a WGSL kernel, with numpy's semantics."
    return fn


for _name in UNARY:
    globals()[_name] = _make(_name, 1)
for _name in BINARY:
    globals()[_name] = _make(_name, 2)


def clip(x, /, min=None, max=None):
    """Clamp x to [min, max] (numpy's semantics: a NaN in x or a bound gives NaN); the result has x's dtype.

    None bounds do not clip; Python int bounds beyond x's integer range clip as their exact value would."""
    x = as_array(x)
    if x.dtype.kind not in "iuf":
        raise TypeError(f"clip is not defined for {x.dtype.name} input")
    if x.dtype.kind == "f":
        lo, hi = -math.inf, math.inf
    else:
        info = np.iinfo(x.dtype.numpy)
        lo, hi = int(info.min), int(info.max)

    def bound(v, default):
        if v is None:
            return default
        if isinstance(v, int) and not isinstance(v, bool) and x.dtype.kind in "iu":
            return builtins.min(builtins.max(v, lo), hi)
        return v

    return elementwise("clip", x, bound(min, lo), bound(max, hi), dtype=x.dtype)


def __getattr__(name: str) -> Any:
    """Only for names that are not table rows (the rows are module globals, made above): an AttributeError.  Its
    signature tells type checkers that the generated functions exist and what they return."""
    # (``Any``, not ``Callable[..., Array]``: mypy 2.4 cannot write the latter to its cache)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
