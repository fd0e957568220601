"""Elementwise functions of the namespace, one generic implementation per arity, built from the op table."""
from __future__ import annotations

import inspect

from . import _ops
from .kernels.ewtable import BINARY, UNARY

__all__ = list(UNARY) + list(BINARY)

_P = inspect.Parameter


def _make(name: str, arity: int):
    if arity == 1:
        def fn(x, /):
            return _ops.elementwise(name, x)
        params = [_P("x", _P.POSITIONAL_ONLY)]
    else:
        def fn(x1, x2, /):
            return _ops.elementwise(name, x1, x2)
        params = [_P("x1", _P.POSITIONAL_ONLY), _P("x2", _P.POSITIONAL_ONLY)]
    fn.__name__ = fn.__qualname__ = name
    fn.__signature__ = inspect.Signature(params)
    fn.__doc__ = f"Elementwise ``{name}`` computed by a WGSL kernel, with numpy's semantics."
    return fn


for _name in UNARY:
    globals()[_name] = _make(_name, 1)
for _name in BINARY:
    globals()[_name] = _make(_name, 2)


def where(condition, x1, x2, /):
    """Elements of x1 where condition is True, else of x2 (broadcast together)."""
    return _ops.elementwise("where", condition, x1, x2)
