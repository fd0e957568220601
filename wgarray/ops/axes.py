"""The one axis normaliser: every function that takes ``axis`` (or ``source``/``destination``) checks it here.

An axis is an integer (``__index__``, not a bool) in [-ndim, ndim); negative ones count from the end.  Out of
range is numpy's ``AxisError`` (a ValueError and an IndexError), a non-integer a TypeError, a repeated axis a
ValueError.

**The 0-d rule.**  A 0-d array has no axes, so every integer axis of one is an AxisError, except where the
operation is defined on a 0-d array as on its one element (``zero_d=True``: the reductions, ``sort`` and
``argsort``).  There 0 and -1 are accepted, as numpy's reductions accept them, and they name no axis: ``axes``
gives ``()`` and ``axis`` gives 0.
"""
from __future__ import annotations

import operator

import numpy as np


def _check(a, ndim: int, zero_d: bool, name: str, wanted: str = "an int or a tuple of ints") -> int:
    if isinstance(a, (bool, np.bool_)) or not hasattr(a, "__index__"):
        raise TypeError(f"{name} must be {wanted}, not {type(a).__name__}")
    a = operator.index(a)
    bound = max(ndim, 1) if zero_d else ndim
    if not -bound <= a < bound:
        raise np.exceptions.AxisError(a, ndim)
    return a % ndim if ndim else 0


def axis(a, ndim: int, *, zero_d: bool = False, name: str = "axis") -> int:
    """One axis -> [0, ndim)."""
    return _check(a, ndim, zero_d, name, "an int")


def axes(spec, ndim: int, *, zero_d: bool = False, name: str = "axis") -> tuple[int, ...]:
    """An int or a tuple/list of distinct ints -> axes in [0, ndim), in the order given."""
    seq = tuple(spec) if isinstance(spec, (tuple, list)) else (spec,)
    out = tuple(_check(a, ndim, zero_d, name) for a in seq)
    if len(set(out)) != len(out):
        raise ValueError(f"duplicate value in {name}: {spec!r}")
    return out if ndim else ()


def reduced(spec, ndim: int) -> tuple[int, ...]:
    """The axes a reduction runs over, sorted: all of them for None (the 0-d rule applies)."""
    if spec is None:
        return tuple(range(ndim))
    return tuple(sorted(axes(spec, ndim, zero_d=True)))
