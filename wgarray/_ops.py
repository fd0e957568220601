"""The operations layer: turns calls on Arrays into dtype decisions, result arrays and kernel launches.

numpy is used here only for bookkeeping (shapes, casting rules, and the host side of the mirror); it never
computes an op's result.
"""
from __future__ import annotations

import math
import numbers
import operator
from typing import Any, Sequence

import numpy as np

from . import device as _device
from . import dtypes as _dt
from ._array import Array
from .alloc.mirror import Mirror
from .dtypes import DType
from .kernels import elementwise as _ew
from .kernels import matmul as _mm
from .kernels import reduce as _red
from .kernels import rtable
from .kernels.elementwise import Scalar
from .kernels.ewtable import OPS as EW_OPS
from .kernels.layout import broadcast_strides, collapse, contiguous_strides, window_align

_SCALARS = (bool, int, float, np.bool_, np.integer, np.floating)


# -- devices and dtypes ------------------------------------------------------------------------------------------
def resolve_device(device) -> _device.Device:
    if device is None:
        return _device.default_device()
    if isinstance(device, _device.Device):
        if device.closed:
            raise RuntimeError(f"{device} has been {device.stream.ended}")
        return device
    raise TypeError(f"device must be a wgarray Device or None, not {type(device).__name__}")


def check_supported(dtype: DType, device: _device.Device) -> None:
    if not device.supports(dtype):
        raise TypeError(f"{dtype.name} needs the adapter feature '{dtype.feature}', which {device} does not offer")


def common_device(arrays: Sequence[Array]) -> _device.Device:
    dev = arrays[0].device
    for a in arrays[1:]:
        if a.device is not dev:
            raise ValueError(f"arrays are on different devices: {dev} and {a.device}; "
                             "move one with x.to_device(device) first")
    if dev.closed:
        raise RuntimeError(f"{dev} has been {dev.stream.ended}; its arrays can no longer be used")
    return dev


def new_array(shape: Sequence[int], dtype: DType, device: _device.Device) -> Array:
    shape = tuple(int(n) for n in shape)
    if any(n < 0 for n in shape):
        raise ValueError(f"negative dimensions are not allowed: {shape}")
    check_supported(dtype, device)
    size = math.prod(shape)
    limit = device.properties.limits.max_buffer_size // 16 * 16
    if size * dtype.device_itemsize > limit:
        raise MemoryError(f"an array of shape {shape} and dtype {dtype.name} needs "
                          f"{size * dtype.device_itemsize} device bytes, more than {device}'s limit of {limit}")
    return Array(Mirror(dtype, size, device), shape)


_INT_BOUNDS = {d: (int(np.iinfo(d.numpy).min), int(np.iinfo(d.numpy).max)) for d in _dt.ALL_DTYPES if d.kind in "iu"}


def _check_int_fits(value: int, dtype: DType) -> None:
    bounds = _INT_BOUNDS.get(dtype)
    if bounds is not None and not bounds[0] <= value <= bounds[1]:
        raise OverflowError(f"Python integer {value} out of bounds for {dtype.name}")


# -- creation ------------------------------------------------------------------------------------------------------
def _infer_host(obj: Any, dtype: DType | None) -> np.ndarray:
    """Python data or array-likes -> a numpy array with wgarray's dtype choice."""
    if isinstance(obj, (np.ndarray, np.generic)):
        arr = np.asarray(obj)
        if arr.dtype.kind in "OSUVcMm":  # even with a dtype asked for: no silent complex -> real or str parsing
            raise TypeError(f"wgarray does not support the data type {arr.dtype}")
        if dtype is None:
            dtype = _dt.as_dtype(arr.dtype)
        return arr.astype(dtype.numpy, copy=False) if arr.dtype != dtype.numpy else arr
    if hasattr(obj, "__array__") or hasattr(obj, "__array_interface__") or isinstance(obj, memoryview):
        return _infer_host(np.asarray(obj), dtype)
    try:
        arr = np.asarray(obj)
    except (ValueError, TypeError) as e:
        raise ValueError(f"cannot build an array from {type(obj).__name__}: {e}") from None
    if arr.dtype.kind == "O" and arr.size and all(type(v) is int for v in arr.flat):
        raise OverflowError("Python integers out of bounds for every wgarray integer dtype")
    if arr.dtype.kind in "OSUV":
        raise TypeError(f"cannot build a numeric array from {type(obj).__name__} holding {arr.dtype} data")
    if arr.dtype.kind == "c":
        raise TypeError("wgarray has no complex dtypes")
    if dtype is None:
        dtype = {"b": _dt.bool, "i": _dt.default_int, "u": _dt.default_int, "f": _dt.default_float}[arr.dtype.kind]
        if dtype.kind == "i" and arr.size:
            info = np.iinfo(np.int32)
            if arr.min() < info.min or arr.max() > info.max:
                raise OverflowError(f"Python integers out of bounds for the default integer dtype {dtype.name}; "
                                    "pass dtype=wgarray.int64")
    elif dtype.kind in "iu" and arr.dtype.kind in "iu" and arr.size:
        info = np.iinfo(dtype.numpy)
        if arr.min() < info.min or arr.max() > info.max:
            raise OverflowError(f"Python integers out of bounds for {dtype.name}")
    return arr.astype(dtype.numpy)


def asarray(obj, /, *, dtype=None, device=None, copy: bool | None = None) -> Array:
    dtype = None if dtype is None else _dt.as_dtype(dtype)
    if isinstance(obj, Array):
        dev = obj.device if device is None else resolve_device(device)
        out = obj
        if dev is not obj.device:
            if copy is False:
                raise ValueError("copy=False but the array is on another device")
            out = to_device(out, dev)
        if dtype is not None and dtype is not out.dtype:
            if copy is False:
                raise ValueError("copy=False but a dtype conversion is needed")
            return astype(out, dtype)
        if copy and out is obj:
            return astype(obj, obj.dtype, copy=True)
        return out
    dev = resolve_device(device)
    host = _infer_host(obj, dtype)
    if copy is False and host is not obj:
        raise ValueError("copy=False but a copy is needed to build the array")
    dt = _dt.as_dtype(host.dtype)
    out = new_array(host.shape, dt, dev)
    out.mirror.host_for_write(whole=True)[...] = host.reshape(-1)
    return out


def empty(shape, *, dtype=None, device=None) -> Array:
    return new_array(_shape(shape), _dt.as_dtype(dtype), resolve_device(device))


def full(shape, fill_value, *, dtype=None, device=None) -> Array:
    dev = resolve_device(device)
    if isinstance(fill_value, Array):
        fill_value = fill_value.item()
    if not isinstance(fill_value, _SCALARS):
        raise TypeError(f"fill_value must be a scalar, not {type(fill_value).__name__}")
    dt = _dt.scalar_dtype(fill_value, None) if dtype is None else _dt.as_dtype(dtype)
    out = new_array(_shape(shape), dt, dev)
    fill(out, fill_value)
    return out


def fill(view: Array, value) -> None:
    """Write one scalar into every element of ``view`` on the device."""
    sd = _scalar_for(value, view.dtype)
    _ew.run(view.device, EW_OPS["copy"], [sd], view, sd.dtype)


def arange(start, /, stop=None, step=1, *, dtype=None, device=None) -> Array:
    if stop is None:
        start, stop = 0, start
    for v in (start, stop, step):
        if not isinstance(v, (int, float, np.integer, np.floating)) or isinstance(v, bool):
            raise TypeError(f"arange takes real numbers, not {type(v).__name__}")
    if step == 0:
        raise ValueError("arange: step must not be zero")
    n = max(0, math.ceil((stop - start) / step))
    is_int = all(isinstance(v, (int, np.integer)) for v in (start, stop, step))
    dt = (_dt.default_int if is_int else _dt.default_float) if dtype is None else _dt.as_dtype(dtype)
    if dt.kind == "b":
        raise TypeError("arange cannot produce bool arrays")
    dev = resolve_device(device)
    out = new_array((n,), dt, dev)
    if n:
        if dt.kind in "iu":
            _check_int_fits(int(start), dt)
            _check_int_fits(int(start + (n - 1) * step), dt)
        cd = dt if dt is not _dt.float16 else _dt.float32
        if dt.kind == "u" and step < 0:
            # start + i * step in wrapping unsigned arithmetic is exact for every value that is in range
            step = int(step) % (1 << dt.bits)
        _ew.run(dev, EW_OPS["arange"], [_scalar_for(start, cd), _scalar_for(step, cd)], out, cd)
    return out


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True) -> Array:
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"linspace: number of samples {num} must be non-negative")
    dt = _dt.default_float if dtype is None else _dt.as_dtype(dtype)
    if dt.kind != "f":
        raise TypeError(f"linspace produces floating-point arrays, not {dt.name}")
    dev = resolve_device(device)
    out = new_array((num,), dt, dev)
    if num:
        div = (num - 1) if endpoint else num
        span = float(stop) - float(start)
        cd = dt if dt is not _dt.float16 else _dt.float32
        if div > 0 and abs(span) * num < float(np.finfo(cd.numpy).max) / 2:
            # start + (i * span) / div: the rounded step is never multiplied up (matters for tiny spans)
            _ew.run(dev, EW_OPS["linspace"], [Scalar(float(start), cd), Scalar(span, cd), Scalar(float(div), cd)],
                    out, cd)
        else:
            step = span / div if div > 0 else 0.0
            _ew.run(dev, EW_OPS["arange"], [Scalar(float(start), cd), Scalar(step, cd)], out, cd)
        if endpoint and num > 1:
            fill(out[num - 1:], float(stop))
    return out


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None) -> Array:
    n_rows = operator.index(n_rows)
    n_cols = n_rows if n_cols is None else operator.index(n_cols)
    k = operator.index(k)
    dt = _dt.default_float if dtype is None else _dt.as_dtype(dtype)
    dev = resolve_device(device)
    out = new_array((n_rows, n_cols), dt, dev)
    k = max(-n_rows - 1, min(n_cols + 1, k))  # every k beyond the matrix gives the same zeros; keeps it in int32
    if out.size:
        _ew.run(dev, EW_OPS["eye"], [Scalar(n_cols, _dt.int32), Scalar(k, _dt.int32)], out, _dt.int32)
    return out


def _shape(shape) -> tuple[int, ...]:
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    try:
        out = tuple(operator.index(n) for n in shape)
    except TypeError:
        raise TypeError(f"shape must be an int or a sequence of ints, not {shape!r}") from None
    if any(n < 0 for n in out):
        raise ValueError(f"negative dimensions are not allowed: {out}")
    return out


# -- elementwise -------------------------------------------------------------------------------------------------
def _scalar_for(value, dtype: DType) -> Scalar:
    """A scalar operand of ``dtype`` (numpy's casting for floats; OverflowError for ints that do not fit)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        if dtype.kind in "iu":
            _check_int_fits(int(value), dtype)
        return Scalar(int(value), dtype)
    if isinstance(value, (bool, np.bool_)):
        return Scalar(bool(value), dtype)
    return Scalar(float(value), dtype)


def _operands(args: Sequence[Any]) -> tuple[list, _device.Device]:
    arrays = [a for a in args if isinstance(a, Array)]
    dev = common_device(arrays) if arrays else _device.default_device()
    out = []
    for a in args:
        if isinstance(a, Array) or isinstance(a, _SCALARS):
            out.append(a)
        elif isinstance(a, complex):
            raise TypeError("wgarray has no complex dtypes")
        elif isinstance(a, (np.ndarray, list, tuple)):
            out.append(asarray(a, device=dev))
        else:
            raise TypeError(f"unsupported operand type {type(a).__name__}")
    if not any(isinstance(a, Array) for a in out):
        out[0] = asarray(out[0], device=dev)
    return out, dev


_DECISIONS: dict = {}


def _decide(name: str, key: tuple):
    """dtype decisions of an elementwise op, from its operands' dtypes (arrays) and Python types (scalars)."""
    op = EW_OPS[name]
    array_dts = [k for k in key if isinstance(k, DType)]
    if name == "where":
        if isinstance(key[0], DType) and key[0] is not _dt.bool:
            raise TypeError(f"where: condition must be a bool array, not {key[0].name}")
        rest = [k for k in key[1:] if isinstance(k, DType)]
        adt = _dt.result_type(*rest) if rest else None
    else:
        adt = _dt.result_type(*array_dts)
    # a Python scalar takes the arrays' dtype, except where's condition, which is bool on its own
    scalar_dts = [None if isinstance(k, DType) else _dt.scalar_dtype(k(), None if name == "where" and j == 0
                                                                       else adt) for j, k in enumerate(key)]
    if name == "where" and scalar_dts[0] not in (None, _dt.bool):
        raise TypeError(f"where: condition must be bool, not a Python {key[0].__name__}")
    op_dts = [k if isinstance(k, DType) else sd for k, sd in zip(key, scalar_dts)]
    promoted = _dt.result_type(*(op_dts[1:] if name == "where" else op_dts))
    if op.compute == "bool":
        cdt = _dt.bool
    else:
        cdt = promoted
        if op.result == "float" and cdt.kind != "f":
            cdt = _dt.default_float
        if cdt.kind not in op.kinds:
            raise TypeError(f"{name} is not defined for {promoted.name} input")
    out_dt = _dt.bool if op.result == "bool" else cdt
    cdts = [_dt.bool] + [cdt] * 2 if name == "where" else None
    needs = tuple(d for d in {cdt, out_dt, *op_dts} if d.feature is not None)
    return op, scalar_dts, cdt, cdts, out_dt, needs


def broadcast_shapes(name: str, shapes: list) -> tuple[int, ...]:
    first = shapes[0]
    if all(s == first for s in shapes):
        return first
    nd = max(len(s) for s in shapes)
    out = [1] * nd
    for s in shapes:
        for k, n in enumerate(s, nd - len(s)):
            if n != 1:
                if out[k] != 1 and out[k] != n:
                    raise ValueError(f"{name}: operands could not be broadcast together with shapes "
                                     f"{' '.join(str(t) for t in shapes)}")
                out[k] = n
    return tuple(out)


def _plan(name: str, args: Sequence[Any]):
    """Operands, compute dtype(s), result dtype, shape and device for an elementwise op."""
    op = EW_OPS[name]
    if len(args) != op.arity:
        raise TypeError(f"{name} takes {op.arity} arrays, got {len(args)}")
    args, dev = _operands(args)
    key = (name, *[a.dtype if isinstance(a, Array) else type(a) for a in args])
    decision = _DECISIONS.get(key)
    if decision is None:
        decision = _DECISIONS[key] = _decide(name, key[1:])
    op, scalar_dts, cdt, cdts, out_dt, needs = decision
    for d in needs:
        check_supported(d, dev)
    operands = [a if sd is None else _scalar_for(a, sd) for a, sd in zip(args, scalar_dts)]
    shape = broadcast_shapes(name, [a.shape for a in args if isinstance(a, Array)])
    return op, operands, cdt, cdts, out_dt, shape, dev


_PY_SCALARS = (int, float, bool)


def elementwise(name: str, *args, dtype: DType | None = None) -> Array:
    """A new array holding op(args); ``dtype`` overrides the result dtype (clip keeps x's dtype)."""
    if dtype is None:
        out = elementwise_fast(name, args)
        if out is not None:
            return out
    op, operands, cdt, cdts, out_dt, shape, dev = _plan(name, args)
    out = new_array(shape, out_dt if dtype is None else dtype, dev)
    _ew.run(dev, op, operands, out, cdt, cdts)
    return out


def elementwise_fast(name: str, args) -> Array | None:
    """The common case on the hot path: Arrays of one open device and Python scalars, dtype decisions already
    cached.  Returns None to defer to the general path (which also raises the errors)."""
    if len(args) == 2 and type(args[0]) is Array and type(args[1]) is Array:  # the commonest: two arrays
        a, b = args
        ma, mb = a.mirror, b.mirror
        dev, shape = ma.device, a.shape
        if mb.device is not dev:
            return None
        same_shape = b.shape == shape
        key = (name, ma.dtype, mb.dtype)
    else:
        key, dev, shape, same_shape = _fast_key(name, args)
        if key is None:
            return None
    decision = _DECISIONS.get(key)
    if dev is None or decision is None or dev.stream.closed:
        return None
    op, scalar_dts, cdt, cdts, out_dt, needs = decision
    if needs and any(d.feature not in dev.features for d in needs):
        return None
    operands = [a if sd is None else _scalar_for(a, sd) for a, sd in zip(args, scalar_dts)] if any(scalar_dts) \
        else args
    if not same_shape:
        shape = broadcast_shapes(name, [a.shape for a in args if type(a) is Array])
    size = math.prod(shape)
    if not 0 < size * out_dt.device_itemsize <= dev.properties.limits.max_buffer_size:
        return None  # too large, or empty (the general path checks the shape)
    out = Array._contiguous(Mirror(out_dt, size, dev), shape)
    _ew.run(dev, op, operands, out, cdt, cdts)
    return out


def _fast_key(name: str, args):
    """(decision key, device, shape of the first array, whether all arrays share it) for arrays of one device and
    Python scalars; (None, ...) for anything else."""
    key = [name]
    dev = None
    shape = None
    same_shape = True
    for a in args:
        t = type(a)
        if t is Array:
            m = a.mirror
            if dev is None:
                dev, shape = m.device, a.shape
            elif m.device is not dev:
                return None, None, None, False
            elif a.shape != shape:
                same_shape = False
            key.append(m.dtype)
        elif t in _PY_SCALARS:
            key.append(t)
        else:
            return None, None, None, False
    return tuple(key), dev, shape, same_shape


def _same_view(a: Array, b: Array) -> bool:
    return a.mirror is b.mirror and a.offset == b.offset and a.shape == b.shape and a.strides == b.strides


def _unalias(operands: list, target: Array) -> list:
    """Copy operands that share ``target``'s base but not its exact view (numpy's overlap semantics)."""
    return [astype(o, o.dtype, copy=True) if isinstance(o, Array) and o.mirror is target.mirror
            and not _same_view(o, target) else o for o in operands]


def inplace(name: str, target: Array, other) -> None:
    op, operands, cdt, cdts, out_dt, shape, dev = _plan(name, [target, other])
    if not np.can_cast(out_dt.numpy, target.dtype.numpy, casting="same_kind"):
        raise TypeError(f"cannot store the {out_dt.name} result of {name} in a {target.dtype.name} array in place")
    if shape != target.shape:
        raise ValueError(f"non-broadcastable output operand with shape {target.shape} doesn't match the "
                         f"broadcast shape {shape}")
    _ew.run(dev, op, _unalias(operands, target), target, cdt, cdts)


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
    elif isinstance(value, _SCALARS):
        if isinstance(value, (float, np.floating)) and target.dtype.kind != "f":
            # numpy's cast of the exact value, made here so that the host and the device path store the same
            # thing (a float32 detour on the device rounded 16777217.0 to 16777216 in an int32 array)
            with np.errstate(invalid="ignore", over="ignore"):
                value = np.array(value).astype(target.dtype.numpy)[()]
        src = _scalar_for(value, target.dtype)
        vshape = ()
    elif isinstance(value, complex):
        raise TypeError("wgarray has no complex dtypes")
    else:
        host_val = _infer_host(value, target.dtype)  # lists take the target's dtype, not int32/float32
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
            src = _unalias([src], target)[0]
        cd = src.dtype
        _ew.run(dev, EW_OPS["copy"], [src], target, cd)
        return
    val = src.numpy() if isinstance(src, Array) else np.array(src.value).astype(target.dtype.numpy)
    host = m.host_for_write(whole=False)
    target._host_view(host)[...] = val


# -- indexing and views ----------------------------------------------------------------------------------------------
def getitem(x: Array, key) -> Array:
    if not isinstance(key, tuple):
        key = (key,)
    n_ellipsis = sum(k is Ellipsis for k in key)
    if n_ellipsis > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if any(isinstance(k, (Array, np.ndarray, list)) for k in key):
        from . import _indexing  # advanced indexing (integer arrays, boolean masks): same layer, imported late
        return _indexing.getitem(x, key)
    for k in key:
        if isinstance(k, (bool, np.bool_)):
            raise IndexError("boolean scalar indices are not supported; use a boolean array")
        if not (k is None or k is Ellipsis or isinstance(k, slice) or hasattr(k, "__index__")):
            raise IndexError(f"only integers, slices (`:`), ellipsis (`...`) and None are valid indices, "
                             f"not {type(k).__name__}")
    used = sum(1 for k in key if k is not None and k is not Ellipsis)
    if used > x.ndim:
        raise IndexError(f"too many indices for array: array is {x.ndim}-dimensional, but {used} were indexed")
    if n_ellipsis == 0:
        key = key + (Ellipsis,)
    shape, strides, offset = [], [], x.offset
    d = 0
    for k in key:
        if k is None:
            shape.append(1)
            strides.append(0)
        elif k is Ellipsis:
            for _ in range(x.ndim - used):
                shape.append(x.shape[d])
                strides.append(x.strides[d])
                d += 1
        elif isinstance(k, slice):
            start, stop, step = k.indices(x.shape[d])
            n = len(range(start, stop, step))
            shape.append(n)
            strides.append(x.strides[d] * step)
            if n:
                offset += start * x.strides[d]
            d += 1
        else:
            i = operator.index(k)
            n = x.shape[d]
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for axis {d} with size {n}")
            offset += (i % n) * x.strides[d]
            d += 1
    return Array(x.mirror, tuple(shape), tuple(strides), offset)


def setitem(x: Array, key, value) -> None:
    if any(isinstance(k, (Array, np.ndarray, list)) for k in (key if isinstance(key, tuple) else (key,))):
        from . import _indexing
        _indexing.setitem(x, key, value)
        return
    assign(getitem(x, key), value)


def reshape(x: Array, shape, copy: bool | None = None) -> Array:
    shape = list(_shape_allow_minus_one(shape))
    if shape.count(-1) > 1:
        raise ValueError("can only specify one unknown dimension (-1)")
    if -1 in shape:
        known = math.prod(n for n in shape if n != -1)
        if known == 0 or x.size % known:
            raise ValueError(f"cannot reshape array of size {x.size} into shape {tuple(shape)}")
        shape[shape.index(-1)] = x.size // known
    shape = tuple(shape)
    if math.prod(shape) != x.size:
        raise ValueError(f"cannot reshape array of size {x.size} into shape {shape}")
    if x.is_contiguous and not copy:
        return Array(x.mirror, shape, contiguous_strides(shape), x.offset)
    if copy is False:
        raise ValueError("reshape needs a copy of this non-contiguous array but copy=False was given")
    c = astype(x, x.dtype, copy=True)
    return Array(c.mirror, shape, contiguous_strides(shape), 0)


def _shape_allow_minus_one(shape) -> tuple[int, ...]:
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    out = tuple(operator.index(n) for n in shape)
    if any(n < -1 for n in out):
        raise ValueError(f"invalid shape {out}")
    return out


def broadcast_to(x: Array, shape) -> Array:
    shape = _shape(shape)
    try:
        strides = broadcast_strides(x.shape, x.strides, shape)
    except ValueError:
        raise ValueError(f"cannot broadcast an array of shape {x.shape} to {shape}") from None
    return Array(x.mirror, shape, strides, x.offset)


def astype(x: Array, dtype, copy: bool = True) -> Array:
    dt = _dt.as_dtype(dtype)
    if dt is x.dtype and not copy:
        return x
    dev = common_device([x])
    out = new_array(x.shape, dt, dev)
    _ew.run(dev, EW_OPS["copy"], [x], out, x.dtype)
    return out


def to_device(x: Array, device) -> Array:
    dev = resolve_device(device)
    if dev is x.device:
        return x
    check_supported(x.dtype, dev)
    common_device([x])  # the source device must be open
    whole = x.offset == 0 and x.size == x.mirror.size and x.is_contiguous
    src = x if whole else astype(x, x.dtype, copy=True)  # a contiguous copy on the source device first
    out = new_array(x.shape, x.dtype, dev)
    src.mirror.copy_to(out.mirror)
    return out


# -- reductions ----------------------------------------------------------------------------------------------------
def normalize_axes(axis, ndim: int, name: str = "axis") -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if not isinstance(axis, (tuple, list)) else tuple(axis)
    out = []
    for a in axes:
        if isinstance(a, (bool, np.bool_)) or not hasattr(a, "__index__"):
            raise TypeError(f"{name} must be an int or a tuple of ints, not {type(a).__name__}")
        a = operator.index(a)
        if not -max(ndim, 1) <= a < max(ndim, 1):  # a 0-d array takes axis 0 or -1, as numpy's reductions do
            raise np.exceptions.AxisError(a, ndim)
        out.append(a % ndim if ndim else 0)
    if len(set(out)) != len(out):
        raise ValueError(f"duplicate value in {name}: {axes}")
    if ndim == 0:
        return ()
    return tuple(sorted(out))


_NO_IDENTITY = {"max": "maximum", "min": "minimum", "argmax": "argmax", "argmin": "argmin"}
_EMPTY_FILL = {"sum": 0, "prod": 1, "mean": math.nan, "any": False, "all": True}


def reduce(name: str, x, axis=None, keepdims: bool = False, dtype=None) -> Array:
    if not isinstance(x, Array):
        x = asarray(x)
    dev = common_device([x])
    if dtype is not None and name in ("sum", "prod") and _dt.as_dtype(dtype) is _dt.bool:
        # numpy: the inputs are cast to bool, so a bool sum is a logical or and a bool product a logical and
        name, dtype = ("any" if name == "sum" else "all"), None
    op = rtable.OPS[name]
    axes = normalize_axes(axis, x.ndim)
    res = rtable.result(op, x.dtype, None if dtype is None else _dt.as_dtype(dtype))
    check_supported(res, dev)
    kept = tuple(n for d, n in enumerate(x.shape) if d not in axes)
    out_shape = tuple(1 if d in axes else n for d, n in enumerate(x.shape)) if keepdims else kept
    m = math.prod(x.shape[d] for d in axes)
    out = new_array(kept, res, dev)
    if m == 0:
        if name in _NO_IDENTITY:
            raise ValueError(f"zero-size array to reduction operation {_NO_IDENTITY[name]} which has no identity")
        if out.size:
            fill(out, _EMPTY_FILL[name])
    elif out.size:
        if _red.fits(dev, x, out.size) and _red.addressable(x, axes):
            _red.run(dev, op, x, axes, out)
        else:
            _reduce_split(name, x, axes, out, dtype)
    return Array(out.mirror, out_shape) if keepdims else out


_ORDER_OF = {"argmax": "max", "argmin": "min"}


def _reduce_split(name: str, x: Array, axes: tuple[int, ...], out: Array, dtype) -> None:
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
    step = room // (m * isz)
    while step > 1 and not _red.fits(dev, getitem(rows, slice(0, step)), step):
        step //= 2
    if step and _red.fits(dev, getitem(rows, slice(0, step)), step):
        for r0 in range(0, n_out, step):
            part = getitem(rows, slice(r0, r0 + step))
            assign(getitem(flat, slice(r0, r0 + step)), reduce(name, part, axis=1, dtype=dtype))
        return
    per = room // isz
    pieces = -(-m // per)
    res = out.dtype
    summing = name in ("sum", "prod", "mean")
    part_dt = (_dt.float32 if res is _dt.float16 else res) if summing else None
    part_name = "sum" if name == "mean" else _ORDER_OF.get(name, name)
    vals = new_array((n_out, pieces), part_dt or (x.dtype if name in _ORDER_OF or name in ("max", "min") else res),
                     dev)
    index = new_array((n_out, pieces), _dt.int32, dev) if name in _ORDER_OF else None
    for g in range(n_out):
        for k in range(pieces):
            piece = getitem(rows, (g, slice(k * per, (k + 1) * per)))
            assign(getitem(vals, (g, k)), reduce(part_name, piece, dtype=part_dt))
            if index is not None:
                assign(getitem(index, (g, k)), reduce(name, piece))
    if index is not None:  # the first piece holding the extreme, and the extreme's index within it
        best = reshape(reduce(name, vals, axis=1), (n_out, 1))
        starts = elementwise("multiply", arange(pieces, device=dev), per)
        hit = astype(elementwise("equal", starts, elementwise("multiply", best, per)), _dt.int32)
        assign(flat, reduce("sum", elementwise("multiply", hit, elementwise("add", index, starts)), axis=1))
    elif name == "mean":
        assign(flat, elementwise("divide", reduce("sum", vals, axis=1), float(m)))
    else:
        assign(flat, reduce(name, vals, axis=1, dtype=res if summing else None))


def argreduce(name: str, x, axis=None, keepdims: bool = False) -> Array:
    if axis is not None and isinstance(axis, (tuple, list)):
        raise TypeError(f"{name}: axis must be an int or None")
    return reduce(name, x, axis, keepdims)


# -- linear algebra ------------------------------------------------------------------------------------------------
def matmul(a, b) -> Array:
    arrays = [v for v in (a, b) if isinstance(v, Array)]
    dev = common_device(arrays) if arrays else _device.default_device()
    a = a if isinstance(a, Array) else asarray(a, device=dev)
    b = b if isinstance(b, Array) else asarray(b, device=dev)
    dev = common_device([a, b])
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: operands must have at least one dimension, not 0-d")
    res = _dt.result_type(a.dtype, b.dtype)
    a2 = a[None, :] if a.ndim == 1 else a
    b2 = b[:, None] if b.ndim == 1 else b
    if a2.shape[-1] != b2.shape[-2]:
        raise ValueError(f"matmul: mismatch in the contracted dimension: shapes {a.shape} and {b.shape} "
                         f"({a2.shape[-1]} != {b2.shape[-2]})")
    try:
        batch = tuple(np.broadcast_shapes(a2.shape[:-2], b2.shape[:-2]))
    except ValueError:
        raise ValueError(f"matmul: batch dimensions of {a.shape} and {b.shape} do not broadcast") from None
    M, K, N = a2.shape[-2], a2.shape[-1], b2.shape[-1]
    a_bst = broadcast_strides(a2.shape[:-2], a2.strides[:-2], batch)
    b_bst = broadcast_strides(b2.shape[:-2], b2.strides[:-2], batch)
    cb, cstr = collapse(batch, [a_bst, b_bst])
    if len(cb) > 1:  # batch dimensions that cannot be walked with one stride: materialise contiguous operands
        a2 = astype(broadcast_to(a2, batch + (M, K)), a2.dtype)
        b2 = astype(broadcast_to(b2, batch + (K, N)), b2.dtype)
        a_bs, b_bs = M * K, K * N
    else:
        a_bs = cstr[0][0] if cb else 0
        b_bs = cstr[1][0] if cb else 0
    nbatch = math.prod(batch)
    out = new_array(batch + (M, N), res, dev)
    _mm.run(dev, a2, b2, out, nbatch, a_bs, b_bs)
    shape = batch + ((M,) if a.ndim > 1 else ()) + ((N,) if b.ndim > 1 else ())
    return Array(out.mirror, shape) if shape != out.shape else out
