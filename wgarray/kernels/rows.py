"""Row addressing for the axis-wise kernels (scan, sort, compaction, search): a strided view seen as [rows, inner].

Rows enumerate the outer dimensions (collapsed jointly over every view that walks them together, so one row
index means the same outer coordinates in each), and the inner flat index walks the inner dimensions in C order
(collapsed per view).  ``shaders/rows_struct.wgsl`` declares the parameter block member, ``shaders/rows.wgsl``
its ``<name>_base(row)``, ``<name>_inner(j)`` and ``<name>_at(row, j)`` functions.  Host-side bookkeeping only.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from . import layout, source
from .layout import MAXD


@dataclass(frozen=True)
class Rows:
    offset: int
    oshape: tuple[int, ...]
    ost: tuple[int, ...]
    ishape: tuple[int, ...]
    ist: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.oshape) > MAXD or len(self.ishape) > MAXD:
            raise ValueError(f"wgarray kernels address at most {MAXD} non-mergeable dimensions")

    @property
    def simple(self) -> bool:
        """At most one outer and one inner (collapsed) dimension: ``<name>_at`` is then one multiply-add per
        coordinate (``wgsl_functions(..., simple=True)``), without the general per-dimension divisions and
        dynamic indexing of the parameter block (which cost a 1-D sort's init 3x on lavapipe)."""
        return len(self.oshape) <= 1 and len(self.ishape) <= 1

    def pack(self, params: layout.Params) -> layout.Params:
        params.raw(layout.pack("<iIII", self.offset, len(self.oshape), len(self.ishape), 0), 16)
        return (params.vec_array(self.oshape, False).vec_array(self.ost, True)
                .vec_array(self.ishape, False).vec_array(self.ist, True))


def split(shape: Sequence[int], inner: Sequence[int], views: Sequence[tuple[int, Sequence[int]]]
          ) -> tuple[int, int, list[Rows]]:
    """(n_rows, row length, one Rows per (offset, strides) view) for ``shape`` with ``inner`` dimensions in a row."""
    outer = [d for d in range(len(shape)) if d not in inner]
    oshape, osts = layout.collapse([shape[d] for d in outer], [[s[d] for d in outer] for _, s in views])
    out = []
    for (off, st), ost in zip(views, osts):
        ishape, ist = layout.collapse([shape[d] for d in inner], [[st[d] for d in inner]])
        out.append(Rows(off, oshape, ost, ishape, ist[0]))
    return math.prod(shape[d] for d in outer), math.prod(shape[d] for d in inner), out


def contiguous(n_rows: int, length: int, offset: int = 0) -> Rows:
    """A contiguous [n_rows, length] block."""
    return Rows(offset, (n_rows,), (length,), (length,), (1,))


def line(length: int, stride: int, offset: int = 0) -> Rows:
    """One row of ``length`` elements ``stride`` apart."""
    return Rows(offset, (), (), (length,), (stride,))


def wgsl_struct() -> str:
    return source.load("rows_struct.wgsl")


def wgsl_functions(name: str, member: str, simple: bool = False) -> str:
    """``<name>_base/_inner/_at`` for the Rows member ``member``; ``simple``: only for Rows whose ``simple`` holds
    (unused coordinates have shape and stride 0 in the packed block, so the general form's strides apply)."""
    return source.render("rows_simple.wgsl" if simple else "rows.wgsl", NAME=name, P=member)
