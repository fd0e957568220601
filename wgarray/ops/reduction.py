"""Reductions (sum, prod, mean, max, min, any, all and the arg ops) from their rows in ``kernels/rtable.py``.

One kernel launch when the input fits one storage binding and its dimensions merge into what the kernel
addresses; otherwise ``_reduce_split`` reduces rows (or pieces of rows) through the same table.
"""
from __future__ import annotations

import math

from .. import dtypes as _dt
from .._array import Array
from ..kernels import reduce as _red, rtable
from ..kernels.layout import MAX_ELEMENTS, window_align
from . import axes as _axes
from .core import Traced, as_array, astype, check_supported, common_device, fill, new_array, ramp
from .elementwise import elementwise
from .indexing import assign, getitem
from .shape import reshape


def reduce(name: str | rtable.RedOp, x, axis=None, keepdims: bool = False, dtype=None) -> Array:
    """``name``'s row of the reduction table over ``axis``; ``name`` may be a row itself (a user reduction)."""
    if isinstance(x, Traced):  # inside wg.fuse: the fused function's final reduction
        return x._reduce(name, axis, keepdims, dtype)
    x = as_array(x)
    dev = common_device([x])
    if dtype is not None and name in ("sum", "prod") and _dt.as_dtype(dtype) is _dt.bool:
        # numpy: the inputs are cast to bool, so a bool sum is a logical or and a bool product a logical and
        name, dtype = ("any" if name == "sum" else "all"), None
    op = name if isinstance(name, rtable.RedOp) else rtable.OPS[name]
    if op.order and x.dtype.kind == "c":
        raise TypeError(f"{op.name} is not defined for {x.dtype.name} input (complex numbers have no order)")
    axes = _axes.reduced(axis, x.ndim)
    res = rtable.result(op, x.dtype, None if dtype is None else _dt.as_dtype(dtype))
    check_supported(res, dev)
    kept = tuple(n for d, n in enumerate(x.shape) if d not in axes)
    out_shape = tuple(1 if d in axes else n for d, n in enumerate(x.shape)) if keepdims else kept
    m = math.prod(x.shape[d] for d in axes)
    out = new_array(kept, res, dev)
    if m == 0:
        if op.empty is None:
            raise ValueError(f"zero-size array to reduction operation {op.ufunc} which has no identity")
        if out.size:
            fill(out, op.empty)
    elif out.size:
        if x.size > MAX_ELEMENTS and _reduce_repeats(op, x, axes, out, dtype):
            pass
        elif x.size <= MAX_ELEMENTS and _one_launch(dev, x, axes, out.size):
            _red.run(dev, op, x, axes, out)
        else:
            _reduce_split(name, x, axes, out, dtype)
    return Array(out.mirror, out_shape) if keepdims else out


def _one_launch(dev, x: Array, axes: tuple[int, ...], n_out: int) -> bool:
    """Whether ``_red.run`` reduces ``x`` in one launch (``fits`` and ``addressable``), remembered per layout in the
    device's plan cache: the two checks cost more than the launch's own recording in a loop of small sums."""
    key = ("reduce-route", x.shape, x.strides, x.offset, x.dtype, x.mirror.size, axes, n_out)
    ok = dev.plans.get(key)
    if ok is None:
        if len(dev.plans) >= _red._MAX_PLANS:
            dev.plans.clear()
        ok = dev.plans[key] = _red.fits(dev, x, n_out) and _red.addressable(x, axes)
    return ok


def _reduce_repeats(op: rtable.RedOp, x: Array, axes: tuple[int, ...], out: Array, dtype) -> bool:
    """A reduction of more than MAX_ELEMENTS elements of a broadcast view, over axes of stride 0, computed on the
    view with those axes cut to length 1 where the result is then exact: max, min, any, all and mean do not change
    when every value repeats the same number of times; an integer sum is the cut sum times the repeat count (numpy's
    wrapping arithmetic: multiplying by the count modulo 2**bits is exact); an arg op whose reduced elements are all
    repeats of one is 0 (the first).  False when none of these applies (the caller splits or raises)."""
    if rtable.OPS.get(op.name) is not op:
        return False  # a user reduction: nothing is known about repeats of its combine
    cut = tuple(1 if d in axes and x.strides[d] == 0 else n for d, n in enumerate(x.shape))
    count = math.prod(x.shape) // max(math.prod(cut), 1)
    if count == 1:
        return False
    small = Array(x.mirror, cut, x.strides, x.offset)
    int_sum = op.name == "sum" and x.dtype.kind in "biu" and out.dtype.kind in "iu"
    if op.arg:
        if math.prod(cut[d] for d in axes) != 1:
            return False
        fill(out, 0)
        return True
    if not (op.order or op.logical or op.mean or int_sum):
        return False
    part = reduce(op, small, axis=axes, dtype=dtype)
    if int_sum:
        wrapped = count % (1 << out.dtype.bits)
        if out.dtype.kind == "i" and wrapped >= 1 << (out.dtype.bits - 1):
            wrapped -= 1 << out.dtype.bits
        part = elementwise("multiply", part, wrapped)  # a weak scalar: in out's dtype
    assign(out, part)
    return True


def _reduce_split(name: str | rtable.RedOp, x: Array, axes: tuple[int, ...], out: Array, dtype) -> None:
    """A reduction whose input or output lies beyond one storage binding, or whose dimensions do not merge into
    what one kernel addresses, as reductions that can: x is viewed (or, if its layout needs it, copied) as
    contiguous rows [outputs, reduced elements]; groups of whole rows reduce
    straight into their part of ``out``; rows longer than a binding reduce piece by piece into partials (for arg
    ops: each piece's extreme and its index), which one more reduction combines."""
    dev = out.device
    limits = dev.properties.limits
    room = limits.max_storage_buffer_binding_size - window_align(limits) - 16
    kept = [d for d in range(x.ndim) if d not in axes]
    n_out, m, isz = out.size, math.prod(x.shape[d] for d in axes), x.dtype.device_itemsize
    perm = kept + list(axes)
    rows = reshape(Array(x.mirror, tuple(x.shape[d] for d in perm), tuple(x.strides[d] for d in perm), x.offset),
                   (n_out, m))
    flat = Array(out.mirror, (n_out,))
    step = min(room // (m * isz), MAX_ELEMENTS // m)  # rows: within one binding and the kernels' 32-bit reach
    while step > 1 and not _red.fits(dev, getitem(rows, slice(0, step)), step):
        step //= 2
    if step and _red.fits(dev, getitem(rows, slice(0, step)), step):
        for r0 in range(0, n_out, step):
            part = getitem(rows, slice(r0, r0 + step))
            assign(getitem(flat, slice(r0, r0 + step)), reduce(name, part, axis=1, dtype=dtype))
        return
    per = min(room // isz, MAX_ELEMENTS)
    pieces = -(-m // per)
    res = out.dtype
    op = name if isinstance(name, rtable.RedOp) else rtable.OPS[name]
    if op.arg and m > MAX_ELEMENTS:
        raise MemoryError(f"{op.name} over {m} elements: its int32 index addresses at most {MAX_ELEMENTS} "
                          "(2**31 - 1) elements")
    summing = op.combine is not None and not op.logical  # sum, prod, mean
    part_dt = (_dt.float32 if res is _dt.float16 else res) if summing else None
    part_name = "sum" if op.mean else (op.order or name)  # an arg op's pieces keep their extreme (max, min)
    vals = new_array((n_out, pieces), part_dt or (x.dtype if op.order else res), dev)
    index = new_array((n_out, pieces), _dt.int32, dev) if op.arg else None
    for g in range(n_out):
        for k in range(pieces):
            piece = getitem(rows, (g, slice(k * per, (k + 1) * per)))
            assign(getitem(vals, (g, k)), reduce(part_name, piece, dtype=part_dt))
            if index is not None:
                assign(getitem(index, (g, k)), reduce(name, piece))
    if index is not None:  # the first piece holding the extreme, and the extreme's index within it
        best = reshape(reduce(name, vals, axis=1), (n_out, 1))
        starts = new_array((pieces,), _dt.int32, dev)
        ramp(starts, 0, per, _dt.int32)
        hit = astype(elementwise("equal", starts, elementwise("multiply", best, per)), _dt.int32)
        assign(flat, reduce("sum", elementwise("multiply", hit, elementwise("add", index, starts)), axis=1))
    elif op.mean:
        assign(flat, elementwise("divide", reduce("sum", vals, axis=1), float(m)))
    else:
        assign(flat, reduce(name, vals, axis=1, dtype=res if summing else None))


def argreduce(name: str, x, axis=None, keepdims: bool = False) -> Array:
    if axis is not None and isinstance(axis, (tuple, list)):
        raise TypeError(f"{name}: axis must be an int or None")
    return reduce(name, x, axis, keepdims)
