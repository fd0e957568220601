"""Reductions as a table: identity, how a value joins the accumulator, accumulator and result dtypes.

``combine`` joins two accumulator values ``{a}`` and ``{b}``; ``order`` ops (max, min, argmax, argmin) instead
say when a candidate wins, and keep the index of the winner (first occurrence on ties, NaN wins as in numpy).
``empty`` is the result of reducing no elements; ops without one (max, min and the arg ops) raise numpy's
ValueError for empty input, naming ``ufunc`` (numpy's name for the op).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .. import dtypes as dt
from ..dtypes import DType


@dataclass(frozen=True)
class RedOp:
    name: str
    identity: str  # "zero" | "one" | "lowest" | "highest" | "false" | "true"
    combine: str | None  # template over {a}, {b}, {T}; None for order ops
    order: str | None = None  # "max" | "min" for order ops
    arg: bool = False  # result is the winner's index
    mean: bool = False  # divide by the count at the end
    logical: bool = False  # inputs converted to bool
    empty: bool | int | float | None = None  # the result over no elements; None: there is none (ValueError)
    ufunc: str = ""  # numpy's name for the op, in the message for empty input
    # user reductions (api/user_kernels.py): a WGSL literal for the identity (instead of ``identity``'s rule) and
    # WGSL placed whole in the shader (the function ``combine`` calls)
    literal: str | None = None
    code: str = ""
    complex_combine: str | None = None  # combine for complex accumulators where it differs (prod: cmul)

    def combine_for(self, acc: DType) -> str | None:
        """The combine template for accumulators of ``acc`` (``{R}``: the real type of a complex one's parts)."""
        if acc.kind == "c" and self.complex_combine is not None:
            return self.complex_combine.replace("{R}", acc.component.wgsl)
        return self.combine


OPS = {
    "sum": RedOp("sum", "zero", "({a} + {b})", empty=0),
    "prod": RedOp("prod", "one", "({a} * {b})", empty=1, complex_combine="wg_cmul_{R}({a}, {b})"),
    "mean": RedOp("mean", "zero", "({a} + {b})", mean=True, empty=math.nan),
    "max": RedOp("max", "lowest", None, order="max", ufunc="maximum"),
    "min": RedOp("min", "highest", None, order="min", ufunc="minimum"),
    "argmax": RedOp("argmax", "lowest", None, order="max", arg=True, ufunc="argmax"),
    "argmin": RedOp("argmin", "highest", None, order="min", arg=True, ufunc="argmin"),
    "any": RedOp("any", "false", "({a} || {b})", logical=True, empty=False),
    "all": RedOp("all", "true", "({a} && {b})", logical=True, empty=True),
}


def accumulator(op: RedOp, x: DType, dtype: DType | None = None) -> DType:
    """The dtype partial results are kept in."""
    if op.logical:
        return dt.bool
    if op.order:
        if x is dt.bool:  # WGSL orders no bools and numpy has no iinfo for them: compare 0/1 as u32
            return dt.uint32
        return dt.float32 if x is dt.float16 else x
    res = result(op, x, dtype)
    return dt.float32 if res is dt.float16 else res


def result(op: RedOp, x: DType, dtype: DType | None = None) -> DType:
    """The dtype a reduction returns (Array API rules: integer sums and products in the default width)."""
    if dtype is not None and not op.order and not op.logical:
        return dtype
    if op.arg:
        return dt.int32
    if op.logical:
        return dt.bool
    if op.order:
        return x
    if op.mean:
        return x if x.kind in "fc" else dt.default_float
    if x.kind == "b":
        return dt.default_int
    if x.kind == "i":
        return dt.int64 if x.bits == 64 else dt.default_int
    if x.kind == "u":
        return dt.uint64 if x.bits == 64 else dt.default_uint
    return x
