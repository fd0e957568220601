"""All of ``x[key]`` and ``x[key] = value``: one parser, one set of messages, basic and advanced indexing.

Basic keys (integers, slices, None, ``...``) give a view: shape, strides and offset, no kernel.  Keys holding
integer arrays or boolean masks (numpy's advanced indexing) are computed on the device:

* boolean masks become integer coordinates through ``coordinates`` (``nonzero``): a scan of the nonzero flags
  gives each element its output position, and only the count (4 bytes) is read back, because it is the
  result's shape;
* integer index arrays go through one gather (or scatter) kernel.  Out-of-range indices raise IndexError, so a
  launch with user indices reads back a 4-byte flag (one wait for the device) before returning; indices made by
  ``coordinates`` are in range by construction and are not checked.  ``x[idx] = v`` checks first and writes only
  when every index is valid, as numpy does;
* ``x[mask] = scalar`` with a mask over the leading dimensions is a ``where`` in place: nothing is read back.

Duplicate indices in ``x[idx] = v`` write one of the values (which one is unspecified on a GPU; numpy: the last).
``assign`` (``view[...] = value``) writes on the device if the target's base is valid there (or the value lives
only there), else on the host.
"""
from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._array import Array
from ..dtypes import DType
from ..kernels import compact as _compact, elementwise as _ew, gather as _gather
from ..kernels.ewtable import OPS as EW_OPS
from ..kernels.layout import broadcast_strides, contiguous_strides
from .core import SCALARS, asarray, astype, common_device, fill, infer_host, new_array, scalar_for, unalias

_ARRAYLIKE = (Array, np.ndarray, list)


# -- parsing a key -----------------------------------------------------------------------------------------------
class _Entry:
    __slots__ = ("kind", "value", "dim", "trusted")

    def __init__(self, kind: str, value=None, dim: int = -1, trusted: bool = False) -> None:
        self.kind = kind  # none | ellipsis | gap | slice | int | array | mask (a 0-d mask indexes no dimension)
        self.value = value
        self.dim = dim  # first dimension of x it indexes
        self.trusted = trusted


def index_array(k, dev) -> Array:
    """An index given as an Array, a numpy array or a list -> an integer or bool Array on ``dev``."""
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
        a = asarray(k, device=dev)
        if a.size == 0 and a.dtype.kind == "f" and isinstance(k, list):
            a = new_array(a.shape, _dt.int32, dev)  # [] is an (empty) integer index
    if a.dtype.kind not in "biu":
        raise IndexError(f"arrays used as indices must be of integer or boolean type, not {a.dtype.name}")
    return a


def _parse(x: Array, key) -> tuple[list[_Entry], bool]:
    """The key's entries, ``...`` expanded to full slices, each with the first dimension of x it indexes; and
    whether the key is basic (no index arrays or masks)."""
    key = key if isinstance(key, tuple) else (key,)
    entries: list[_Entry] = []
    basic = True
    for k in key:
        if k is None:
            entries.append(_Entry("none"))
        elif k is Ellipsis:
            entries.append(_Entry("ellipsis"))
        elif isinstance(k, slice):
            entries.append(_Entry("slice", k))
        elif isinstance(k, _ARRAYLIKE):
            a = index_array(k, x.device)
            basic = False
            entries.append(_Entry("mask" if a.dtype.kind == "b" else "array", a))
        elif isinstance(k, (bool, np.bool_)):  # a Python bool is a 0-d mask (the standard's and numpy's rule)
            entries.append(_Entry("mask", bool(k)))
            basic = False
        elif hasattr(k, "__index__"):
            entries.append(_Entry("int", operator.index(k)))
        else:
            raise IndexError(f"only integers, slices (`:`), ellipsis (`...`), None and integer or boolean arrays "
                             f"are valid indices, not {type(k).__name__}")
    if sum(e.kind == "ellipsis" for e in entries) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = sum(_mask_ndim(e) if e.kind == "mask" else 1 for e in entries if e.kind not in ("none", "ellipsis"))
    if used > x.ndim:
        raise IndexError(f"too many indices for array: array is {x.ndim}-dimensional, but {used} were indexed")
    fill_ = [_Entry("slice", slice(None)) for _ in range(x.ndim - used)]
    at = next((i for i, e in enumerate(entries) if e.kind == "ellipsis"), None)
    if at is None:
        entries = entries + fill_
    else:  # an ellipsis spanning no dimension still separates advanced indices (numpy's layout rule): a gap
        entries = entries[:at] + (fill_ or [_Entry("gap")]) + entries[at + 1:]
    d = 0
    for e in entries:
        if e.kind not in ("none", "gap"):
            e.dim = d
            d += _mask_ndim(e) if e.kind == "mask" else 1
    return entries, basic


def _mask_ndim(e: _Entry) -> int:
    """Dimensions a mask entry indexes: a Python bool or a 0-d mask indexes none (it adds one)."""
    return e.value.ndim if isinstance(e.value, Array) else 0


def _view(x: Array, entries: list[_Entry]) -> Array:
    """The view a basic key (entries of kind none, slice and int, covering every dimension) selects."""
    shape, strides, offset = [], [], x.offset
    for e in entries:
        if e.kind == "gap":
            continue
        if e.kind == "none":
            shape.append(1)
            strides.append(0)
            continue
        d = e.dim
        if e.kind == "slice":
            start, stop, step = e.value.indices(x.shape[d])
            n = len(range(start, stop, step))
            shape.append(n)
            strides.append(x.strides[d] * step)
            if n:
                offset += start * x.strides[d]
        else:
            i, n = e.value, x.shape[d]
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for axis {d} with size {n}")
            offset += (i % n) * x.strides[d]
    return x._view(shape, strides, offset)


# -- data-dependent coordinates ------------------------------------------------------------------------------------
def coordinates(x: Array) -> tuple[Array, ...]:
    """Indices of the nonzero elements of x (ndim >= 1), one int32 array per dimension (C order).  Reads back
    only the count."""
    dev = common_device([x])
    count = 0
    pos = None
    if x.size:
        pos, count = _compact.count_nonzero(dev, x)
    out = new_array((x.ndim, count), _dt.int32, dev)
    if count:
        _compact.nonzero(dev, x, pos, count, out)
    return tuple(getitem(out, d) for d in range(x.ndim))


def _expand_masks(x: Array, entries: list[_Entry]) -> list[_Entry]:
    """Boolean masks -> their nonzero coordinates (in range by construction: trusted).

    A 0-d mask (or a Python bool) adds a new axis of length 1 indexed by an integer array of length 1 (True) or 0
    (False), numpy's rule: an advanced index that broadcasts with the others.  A device-side 0-d mask costs one
    4-byte read (the count), as any mask does."""
    out = []
    for e in entries:
        if e.kind != "mask":
            out.append(e)
            continue
        m = e.value
        if not isinstance(m, Array) or m.ndim == 0:
            if isinstance(m, Array):
                coords = coordinates(Array(m.mirror, (1,), (0,), m.offset))[0]
            else:
                coords = new_array((int(m),), _dt.int32, x.device)
                if m:
                    fill(coords, 0)
            out.append(_Entry("newaxis_array", coords, -1, trusted=True))
            continue
        for k, n in enumerate(m.shape):
            # numpy (and the standard's suite) accept a mask side of 0 against any side: it selects nothing.
            if n != 0 and x.shape[e.dim + k] != n:
                raise IndexError(f"boolean index did not match indexed array along axis {e.dim + k}; size of axis "
                                 f"is {x.shape[e.dim + k]} but size of corresponding boolean axis is {n}")
        for k, coords in enumerate(coordinates(m)):
            out.append(_Entry("array", coords, e.dim + k, trusted=True))
    return out


class _Plan:
    """The indexing result's shape and how the target and each index array walk it."""

    def __init__(self, x: Array, entries: list[_Entry]) -> None:
        basic, adv_pos, arrays, adv_dims = [], [], [], []
        vd = 0
        for pos, e in enumerate(entries):
            if e.kind in ("none", "slice"):
                basic.append(e)
                vd += 1
            elif e.kind == "int":
                basic.append(e)
                adv_pos.append(pos)  # integers count as advanced indices for the adjacency rule
            elif e.kind == "gap":
                continue
            else:  # an index array, over an existing dimension or (0-d masks) over a new axis of length 1
                basic.append(_Entry("none") if e.kind == "newaxis_array" else _Entry("slice", slice(None), e.dim))
                adv_pos.append(pos)
                arrays.append(e)
                adv_dims.append(vd)
                vd += 1
        view = _view(x, basic)
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
    flag = new_array((1,), _dt.uint32, dev)
    fill(flag, 0)
    return flag


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


def gather(x: Array, x_strides, shape, indices: list, axes: list) -> Array:
    """A new array of ``shape``: x walked with ``x_strides`` and each ``_gather.Index``; checked indices that
    are out of range raise IndexError naming their axis in ``axes``."""
    out = new_array(shape, x.dtype, x.device)
    if out.size == 0:
        return out
    flag = _new_flag(x.device, indices)
    _gather.run(x.device, "gather", shape, indices, x, x_strides, out, (), None if flag is None else flag.mirror)
    _raise_if_flagged(flag, axes, indices)
    return out


# -- x[key] ------------------------------------------------------------------------------------------------------
def getitem(x: Array, key) -> Array:
    entries, basic = _parse(x, key)
    if basic:
        return _view(x, entries)
    dev = common_device([x])
    plan = _Plan(x, _expand_masks(x, entries))
    if math.prod(plan.shape) == 0:
        _check(dev, plan)
        return new_array(plan.shape, x.dtype, dev)
    return gather(plan.view, plan.x_strides, plan.shape, plan.indices, plan.axes)


# -- x[key] = value ------------------------------------------------------------------------------------------------
def setitem(x: Array, key, value) -> None:
    entries, basic = _parse(x, key)
    if basic:
        assign(_view(x, entries), value)
        return
    dev = common_device([x])
    if _mask_fast_path(x, entries, value):
        return
    plan = _Plan(x, _expand_masks(x, entries))
    if isinstance(value, Array):
        v = value
        common_device([x, v])
    else:
        v = asarray(value, dtype=x.dtype, device=dev)
    try:
        vst = broadcast_strides(v.shape, v.strides, plan.shape)
    except ValueError:
        raise ValueError(f"shape mismatch: value array of shape {v.shape} could not be broadcast to indexing "
                         f"result of shape {plan.shape}") from None
    _check(dev, plan)
    if not math.prod(plan.shape):
        return
    if v.mirror is x.mirror:
        v = astype(v, v.dtype, copy=True)
    indices = [_gather.Index(astype(ix.view, ix.view.dtype, copy=True), ix.strides, ix.axis_stride,
                             ix.extent, ix.checked) if ix.view.mirror is x.mirror else ix for ix in plan.indices]
    _gather.run(dev, "scatter", plan.shape, indices, plan.view, plan.x_strides, v, vst)  # validated: no flag


def _exact_cast(value, dtype: DType):
    """numpy's cast of a float scalar's exact value to a non-float dtype, made on the host so that the host and
    the device path store the same thing (a float32 detour on the device rounded 16777217.0 to 16777216 in an
    int32 array)."""
    if isinstance(value, (float, np.floating)) and dtype.kind not in "fc":
        with np.errstate(invalid="ignore", over="ignore"):
            return np.array(value).astype(dtype.numpy)[()]
    return value


def _mask_fast_path(x: Array, entries: list[_Entry], value) -> bool:
    """x[mask] = scalar (mask over leading dimensions, nothing else but full slices): a where in place."""
    if not entries or entries[0].kind != "mask":
        return False
    if any(e.kind != "slice" or e.value != slice(None) for e in entries[1:]):
        return False
    m = entries[0].value
    if not isinstance(m, Array):  # a Python bool: the general path
        return False
    if tuple(m.shape) != tuple(x.shape[:m.ndim]):
        return False  # let the general path raise numpy's error
    if isinstance(value, Array):
        if value.size != 1 or value.ndim > 1:
            return False
        common_device([x, value])
        val = Array(value.mirror, x.shape, (0,) * x.ndim, value.offset)
    elif isinstance(value, SCALARS):
        value = _exact_cast(value, x.dtype)
        if isinstance(value, (bool, np.bool_)) and x.dtype.kind != "b":
            value = int(value)
        val = scalar_for(value, x.dtype)
    else:
        return False
    if x.size == 0:
        return True
    mask = Array(m.mirror, x.shape, m.strides + (0,) * (x.ndim - m.ndim), m.offset)
    operands = unalias([mask, val, x], x)
    _ew.run(x.device, EW_OPS["where"], operands, x, x.dtype, [_dt.bool, x.dtype, x.dtype])
    return True


def assign(target: Array, value) -> None:
    """target[...] = value: on the device if the target's base is valid there (or the value lives only there),
    else on the host; either way the other side of the target's base becomes stale."""
    dev = target.device
    if dev.closed:
        raise RuntimeError(f"{dev} has been {dev.stream.ended}; its arrays can no longer be used")
    if isinstance(value, Array):
        common_device([target, value])
        src: Any = value
        vshape = value.shape
    elif isinstance(value, SCALARS):
        src = scalar_for(_exact_cast(value, target.dtype), target.dtype)
        vshape = ()
    else:
        host_val = infer_host(value, target.dtype)  # lists take the target's dtype, not int32/float32
        src = asarray(host_val, device=dev)
        vshape = host_val.shape
    try:
        broadcast_strides(vshape, contiguous_strides(vshape), target.shape)
    except ValueError:
        if target.size == 0 and math.prod(vshape) == 0:
            try:  # numpy accepts any value that broadcasts with an empty target: nothing is written
                np.broadcast_shapes(tuple(vshape), target.shape)
                return
            except ValueError:
                pass
        raise ValueError(f"could not broadcast input array from shape {vshape} into shape {target.shape}") from None
    if isinstance(src, Array) and not np.can_cast(src.dtype.numpy, target.dtype.numpy, casting="unsafe"):
        raise TypeError(f"cannot assign {src.dtype.name} values to a {target.dtype.name} array")
    m = target.mirror
    on_device = m.device_valid or (isinstance(src, Array) and src.residency == {"device"})
    if on_device:
        if isinstance(src, Array):
            src = unalias([src], target)[0]
        _ew.run(dev, EW_OPS["copy"], [src], target, src.dtype)
        return
    val = src.numpy() if isinstance(src, Array) else np.array(src.value).astype(target.dtype.numpy)
    host = m.host_for_write(whole=False)
    target._host_view(host)[...] = val
