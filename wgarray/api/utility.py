"""Utility functions of the Array API standard (``all``, ``any``: reductions; ``diff``: differences of shifted
views) and wgarray's device utilities (``synchronize``, ``stats``)."""
from __future__ import annotations

import operator

from .._array import Array
from ..ops import axes as _axes, core
from ..ops.elementwise import elementwise
from ..ops.reduction import reduce
from ..ops.shape import broadcast_to
from .manipulation import concat

__all__ = ["all", "any", "diff", "stats", "synchronize"]


def any(x, /, axis=None, *, keepdims=False) -> Array:
    return reduce("any", x, axis, keepdims)


def all(x, /, axis=None, *, keepdims=False) -> Array:
    return reduce("all", x, axis, keepdims)


def diff(x, /, n: int = 1, axis: int = -1, prepend=None, append=None) -> Array:
    """The n-th discrete difference along ``axis`` (x[1:] - x[:-1], n times; != for bool, as numpy).

    ``prepend``/``append`` are joined to x along the axis first (scalars and 0-d arrays are broadcast to one slice)."""
    x = core.as_array(x)
    if x.ndim == 0:
        raise ValueError("diff needs an array of at least one dimension")
    a = _axes.axis(axis, x.ndim)
    n = operator.index(n)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    if prepend is not None or append is not None:
        parts = []
        for extra in (prepend, x, append):
            if extra is None:
                continue
            if extra is not x:
                extra = extra if isinstance(extra, Array) else core.asarray(extra, device=x.device)
                if extra.ndim == 0:
                    extra = broadcast_to(extra, x.shape[:a] + (1,) + x.shape[a + 1:])
            parts.append(extra)
        x = concat(parts, axis=a)
    if n == 0:
        return x
    op = "not_equal" if x.dtype.kind == "b" else "subtract"
    hi = (slice(None),) * a + (slice(1, None),)
    lo = (slice(None),) * a + (slice(None, -1),)
    for _ in range(min(n, x.shape[a])):  # after shape[a] differences the axis is empty and stays so
        x = elementwise(op, x[hi], x[lo])
    return x


def synchronize(device=None) -> None:
    """Wait for all work recorded on ``device`` (the default device when None)."""
    core.resolve_device(device).synchronize()


def stats(device=None):
    """Counter snapshot of ``device`` (the default device when None)."""
    return core.resolve_device(device).stats()
