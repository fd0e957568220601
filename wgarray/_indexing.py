"""Data-dependent indexing: ``nonzero``, numpy's advanced indexing for ``x[...]`` and ``x[...] = v`` (integer
arrays and boolean masks, with slices, integers, None and ...), ``take`` and ``take_along_axis``.

Layer 6, beside ``_ops`` (whose ``getitem``/``setitem`` hand keys holding arrays to this module).  Every result
is computed on the device:

* boolean masks become integer coordinates through ``nonzero``: a scan of the nonzero flags gives each element
  its output position, and only the count (4 bytes) is read back, because it is the result's shape;
* integer index arrays go through one gather (or scatter) kernel.  Out-of-range indices raise IndexError, so a
  launch with user indices reads back a 4-byte flag (one wait for the device) before returning; indices made by
  ``nonzero`` are in range by construction and are not checked.  ``x[idx] = v`` checks first and writes only
  when every index is valid, as numpy does;
* ``x[mask] = scalar`` with a mask over the leading dimensions is a ``where`` in place: nothing is read back.

Duplicate indices in ``x[idx] = v`` write one of the values (which one is unspecified on a GPU; numpy: the last).
"""
from __future__ import annotations

import math
import operator

import numpy as np

from . import _ops
from . import dtypes as _dt
from ._array import Array
from .kernels import compact as _compact
from .kernels import elementwise as _ew
from .kernels import gather as _gather
from .kernels.ewtable import OPS as EW_OPS
from .kernels.layout import broadcast_strides

_ARRAYLIKE = (Array, np.ndarray, list)


# -- nonzero ---------------------------------------------------------------------------------------------------
def nonzero(x, /) -> tuple[Array, ...]:
    """Indices of the nonzero elements, one int32 array per dimension (C order).  Reads back only the count."""
    if not isinstance(x, Array):
        x = _ops.asarray(x)
    dev = _ops.common_device([x])
    if x.ndim == 0:
        raise ValueError("nonzero is not defined for 0-d arrays; use nonzero(x[None])")
    count = 0
    pos = None
    if x.size:
        pos, count = _compact.count_nonzero(dev, x)
    out = _ops.new_array((x.ndim, count), _dt.int32, dev)
    if count:
        _compact.nonzero(dev, x, pos, count, out)
    return tuple(out[d] for d in range(x.ndim))


# -- parsing a key -----------------------------------------------------------------------------------------------
class _Entry:
    __slots__ = ("kind", "value", "dim", "trusted")

    def __init__(self, kind: str, value=None, dim: int = -1, trusted: bool = False) -> None:
        self.kind = kind  # none | slice | int | array | mask
        self.value = value
        self.dim = dim  # first dimension of x it indexes
        self.trusted = trusted


def _index_array(k, dev) -> Array:
    if isinstance(k, Array):
        if k.device is not dev:
            raise ValueError(f"the index array is on {k.device}, the indexed array on {dev}")
        a = k
    else:
        if isinstance(k, np.ndarray) and k.dtype.kind in "iu" and k.dtype.itemsize == 8 and not dev.supports(
                _dt.as_dtype(k.dtype)):  # a host int64 index on a device without 64-bit integers: send int32
            if k.size and (k.min() < -2**31 or k.max() >= 2**31):
                raise IndexError("index out of bounds: an index does not fit in 32 bits")
            k = k.astype(np.int32)
        a = _ops.asarray(k, device=dev)
        if a.size == 0 and a.dtype.kind == "f" and isinstance(k, list):
            a = _ops.new_array(a.shape, _dt.int32, dev)  # [] is an (empty) integer index
    if a.dtype.kind not in "biu":
        raise IndexError(f"arrays used as indices must be of integer or boolean type, not {a.dtype.name}")
    return a


def _parse(x: Array, key) -> list[_Entry]:
    key = key if isinstance(key, tuple) else (key,)
    dev = x.device
    entries: list[_Entry] = []
    for k in key:
        if k is None:
            entries.append(_Entry("none"))
        elif k is Ellipsis:
            entries.append(_Entry("ellipsis"))
        elif isinstance(k, slice):
            entries.append(_Entry("slice", k))
        elif isinstance(k, _ARRAYLIKE):
            a = _index_array(k, dev)
            if a.dtype.kind == "b":
                if a.ndim == 0:
                    raise IndexError("0-d boolean indices are not supported")
                entries.append(_Entry("mask", a))
            else:
                entries.append(_Entry("array", a))
        elif isinstance(k, (bool, np.bool_)):
            raise IndexError("boolean scalar indices are not supported; use a boolean array")
        elif hasattr(k, "__index__"):
            entries.append(_Entry("int", operator.index(k)))
        else:
            raise IndexError(f"only integers, slices (`:`), ellipsis (`...`), None and integer or boolean arrays "
                             f"are valid indices, not {type(k).__name__}")
    if sum(e.kind == "ellipsis" for e in entries) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = sum(e.value.ndim if e.kind == "mask" else 1 for e in entries if e.kind in ("slice", "int", "array", "mask"))
    if used > x.ndim:
        raise IndexError(f"too many indices for array: array is {x.ndim}-dimensional, but {used} were indexed")
    fill = [_Entry("slice", slice(None)) for _ in range(x.ndim - used)]
    at = next((i for i, e in enumerate(entries) if e.kind == "ellipsis"), len(entries))
    entries = entries[:at] + fill + entries[at + 1:]
    d = 0
    for e in entries:
        if e.kind != "none":
            e.dim = d
            d += e.value.ndim if e.kind == "mask" else 1
    return entries


def _expand_masks(x: Array, entries: list[_Entry]) -> list[_Entry]:
    """Boolean masks -> their nonzero coordinates (in range by construction: trusted)."""
    out = []
    for e in entries:
        if e.kind != "mask":
            out.append(e)
            continue
        m = e.value
        for k, n in enumerate(m.shape):
            if x.shape[e.dim + k] != n:
                raise IndexError(f"boolean index did not match indexed array along axis {e.dim + k}; size of axis "
                                 f"is {x.shape[e.dim + k]} but size of corresponding boolean axis is {n}")
        for k, coords in enumerate(nonzero(m)):
            out.append(_Entry("array", coords, e.dim + k, trusted=True))
    return out


class _Plan:
    """The indexing result's shape and how the target and each index array walk it."""

    def __init__(self, x: Array, entries: list[_Entry]) -> None:
        basic, adv_pos, arrays, adv_dims = [], [], [], []
        vd = 0
        for pos, e in enumerate(entries):
            if e.kind == "none":
                basic.append(None)
                vd += 1
            elif e.kind == "slice":
                basic.append(e.value)
                vd += 1
            elif e.kind == "int":
                basic.append(e.value)
                adv_pos.append(pos)  # integers count as advanced indices for the adjacency rule
            else:
                basic.append(slice(None))
                adv_pos.append(pos)
                arrays.append(e)
                adv_dims.append(vd)
                vd += 1
        view = _ops.getitem(x, tuple(basic))
        try:
            bshape = tuple(np.broadcast_shapes(*[e.value.shape for e in arrays]))
        except ValueError:
            raise IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes "
                             + " ".join(str(e.value.shape) for e in arrays)) from None
        adjacent = adv_pos[-1] - adv_pos[0] + 1 == len(adv_pos)
        insert = sum(1 for e in entries[:adv_pos[0]] if e.kind in ("none", "slice")) if adjacent else 0
        rest = [d for d in range(view.ndim) if d not in adv_dims]
        before, after = rest[:insert], rest[insert:]
        self.bsize = math.prod(bshape)
        self.shape = tuple([view.shape[d] for d in before] + list(bshape) + [view.shape[d] for d in after])
        self.view = view
        self.x_strides = tuple([view.strides[d] for d in before] + [0] * len(bshape)
                               + [view.strides[d] for d in after])
        self.indices = []
        self.axes = []
        for e, d in zip(arrays, adv_dims):
            a = e.value
            bst = broadcast_strides(a.shape, a.strides, bshape)
            st = (0,) * len(before) + bst + (0,) * len(after)
            self.indices.append(_gather.Index(a, st, view.strides[d], view.shape[d], not e.trusted))
            self.axes.append(e.dim)


def _raise_if_flagged(flag: Array | None, plan_axes, indices) -> None:
    if flag is None:
        return
    k = int(flag.numpy()[0])  # 4 bytes
    if k:
        ix = indices[k - 1]
        raise IndexError(f"index out of bounds for axis {plan_axes[k - 1]} with size {ix.extent}")


def _new_flag(dev, indices) -> Array | None:
    if not any(ix.checked for ix in indices):
        return None
    return _ops.full((1,), 0, dtype=_dt.uint32, device=dev)


def _check(dev, plan: _Plan) -> None:
    """Validate every element of each checked index array, also where the result is empty (as numpy does; not
    when the arrays broadcast to nothing, except 0-d ones, which numpy treats as integers): one small kernel per
    array and one 4-byte read."""
    flag = _new_flag(dev, plan.indices)
    if flag is None:
        return
    for k, ix in enumerate(plan.indices):
        a = ix.view
        if ix.checked and a.size and (plan.bsize or a.ndim == 0):
            one = _gather.Index(a, a.strides, ix.axis_stride, ix.extent, True)
            _gather.run(dev, "check", a.shape, [one], flag=flag.mirror, flag_base=k)
    _raise_if_flagged(flag, plan.axes, plan.indices)


# -- x[key] ------------------------------------------------------------------------------------------------------
def getitem(x: Array, key) -> Array:
    dev = _ops.common_device([x])
    plan = _Plan(x, _expand_masks(x, _parse(x, key)))
    out = _ops.new_array(plan.shape, x.dtype, dev)
    if out.size == 0:
        _check(dev, plan)
        return out
    flag = _new_flag(dev, plan.indices)
    _gather.run(dev, "gather", plan.shape, plan.indices, plan.view, plan.x_strides, out, (),
                None if flag is None else flag.mirror)
    _raise_if_flagged(flag, plan.axes, plan.indices)
    return out


# -- x[key] = value ------------------------------------------------------------------------------------------------
def setitem(x: Array, key, value) -> None:
    dev = _ops.common_device([x])
    entries = _parse(x, key)
    if _mask_fast_path(x, entries, value):
        return
    plan = _Plan(x, _expand_masks(x, entries))
    if isinstance(value, Array):
        v = value
        _ops.common_device([x, v])
    else:
        v = _ops.asarray(value, dtype=x.dtype, device=dev)
    try:
        vst = broadcast_strides(v.shape, v.strides, plan.shape)
    except ValueError:
        raise ValueError(f"shape mismatch: value array of shape {v.shape} could not be broadcast to indexing "
                         f"result of shape {plan.shape}") from None
    _check(dev, plan)
    if not math.prod(plan.shape):
        return
    if v.mirror is x.mirror:
        v = _ops.astype(v, v.dtype, copy=True)
    indices = [_gather.Index(_ops.astype(ix.view, ix.view.dtype, copy=True), ix.strides, ix.axis_stride,
                             ix.extent, ix.checked) if ix.view.mirror is x.mirror else ix for ix in plan.indices]
    _gather.run(dev, "scatter", plan.shape, indices, plan.view, plan.x_strides, v, vst)  # validated: no flag


def _mask_fast_path(x: Array, entries: list[_Entry], value) -> bool:
    """x[mask] = scalar (mask over leading dimensions, nothing else but full slices): a where in place."""
    if not entries or entries[0].kind != "mask":
        return False
    if any(e.kind != "slice" or e.value != slice(None) for e in entries[1:]):
        return False
    m = entries[0].value
    if tuple(m.shape) != tuple(x.shape[:m.ndim]):
        return False  # let the general path raise numpy's error
    if isinstance(value, Array):
        if value.size != 1 or value.ndim > 1:
            return False
        _ops.common_device([x, value])
        val = Array(value.mirror, x.shape, (0,) * x.ndim, value.offset)
    elif isinstance(value, _ops._SCALARS):
        if isinstance(value, (float, np.floating)) and x.dtype.kind != "f":
            with np.errstate(invalid="ignore", over="ignore"):
                value = np.array(value).astype(x.dtype.numpy)[()]
        if isinstance(value, (bool, np.bool_)) and x.dtype.kind != "b":
            value = int(value)
        val = _ops._scalar_for(value, x.dtype)
    else:
        return False
    if x.size == 0:
        return True
    mask = Array(m.mirror, x.shape, m.strides + (0,) * (x.ndim - m.ndim), m.offset)
    operands = _ops._unalias([mask, val, x], x)
    _ew.run(x.device, EW_OPS["where"], operands, x, x.dtype, [_dt.bool, x.dtype, x.dtype])
    return True


# -- take, take_along_axis -----------------------------------------------------------------------------------------
def _axis(axis, ndim: int, name: str) -> int:
    if isinstance(axis, (bool, np.bool_)) or not hasattr(axis, "__index__"):
        raise TypeError(f"{name}: axis must be an int, not {type(axis).__name__}")
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(axis, ndim)
    return axis % ndim


def _int_indices(indices, dev, name: str) -> Array:
    if not isinstance(indices, Array):
        indices = _index_array(indices, dev)
    if indices.device is not dev:
        raise ValueError(f"{name}: x and indices are on different devices: {dev} and {indices.device}")
    if indices.dtype.kind not in "iu":
        raise TypeError(f"{name}: indices must have an integer dtype, not {indices.dtype.name}")
    return indices


def take(x, indices, /, *, axis=None) -> Array:
    """Elements of ``x`` at ``indices`` along ``axis`` (x[:, ..., indices, ...]); negative indices count from
    the end, out-of-range ones raise IndexError."""
    if not isinstance(x, Array):
        x = _ops.asarray(x)
    dev = _ops.common_device([x])
    indices = _int_indices(indices, dev, "take")
    if axis is None:
        if x.ndim != 1:
            x = _ops.reshape(x, (-1,))
        axis = 0
    axis = _axis(axis, x.ndim, "take")
    return getitem(x, (slice(None),) * axis + (indices,))


def take_along_axis(x, indices, /, *, axis=-1) -> Array:
    """out[..., j, ...] = x[..., indices[..., j, ...], ...] along ``axis``; the other dimensions broadcast."""
    if not isinstance(x, Array):
        x = _ops.asarray(x)
    dev = _ops.common_device([x])
    indices = _int_indices(indices, dev, "take_along_axis")
    if x.ndim != indices.ndim:
        raise ValueError(f"take_along_axis: x and indices must have the same number of dimensions, "
                         f"not {x.ndim} and {indices.ndim}")
    if x.ndim == 0:
        raise ValueError("take_along_axis: x must have at least one dimension")
    axis = _axis(axis, x.ndim, "take_along_axis")
    xs = list(x.shape)
    xs[axis] = 1
    js = list(indices.shape)
    js[axis] = 1
    try:
        shape = list(np.broadcast_shapes(tuple(xs), tuple(js)))
    except ValueError:
        raise ValueError(f"take_along_axis: shapes {x.shape} and {indices.shape} do not broadcast "
                         f"(outside axis {axis})") from None
    shape[axis] = indices.shape[axis]
    shape = tuple(shape)
    xst = list(x.strides)
    xst[axis] = 0
    x_strides = broadcast_strides(tuple(xs), tuple(xst), shape)
    ist = broadcast_strides(indices.shape, indices.strides, shape)
    ix = _gather.Index(indices, ist, x.strides[axis], x.shape[axis], True)
    out = _ops.new_array(shape, x.dtype, dev)
    if out.size == 0:
        return out
    flag = _new_flag(dev, [ix])
    _gather.run(dev, "gather", shape, [ix], x, x_strides, out, (), flag.mirror)
    _raise_if_flagged(flag, [axis], [ix])
    return out
