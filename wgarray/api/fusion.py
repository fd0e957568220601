"""Fusion (issue 16): ``wg.fuse`` compiles a function of arrays and scalars (elementwise ops, comparisons,
``where``, ``astype`` and one final reduction) into one kernel per input signature; ``wg.lazy()`` defers
elementwise results inside a block so that a chain runs as one kernel when its value is needed.  The machinery is
``ops/fusion.py``; the kernels ``kernels/fused.py``."""
from __future__ import annotations

import functools
from typing import Callable

from ..ops.fusion import Fused, lazy

__all__ = ["fuse", "lazy"]


def fuse(func: Callable | None = None, *, kernel_name: str | None = None):
    """``@wg.fuse``, ``wg.fuse(f)`` or ``@wg.fuse(kernel_name=...)``: ``f`` traced once per input signature into
    one WGSL kernel (bit-identical to running its ops one by one); any other op inside raises TypeError."""
    def wrap(f: Callable) -> Fused:
        fused = Fused(f, kernel_name)
        functools.update_wrapper(fused, f)
        return fused
    return wrap if func is None else wrap(func)
