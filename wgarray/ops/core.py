"""Operations-layer core: devices, new arrays, operands and the dtype conversions every other ops module needs.

numpy is used in ``ops`` only for bookkeeping (shapes, casting rules, and the host side of the mirror); it never
computes an op's result.
"""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from .. import device as _device, dtypes as _dt
from .._array import Array
from ..alloc.mirror import Mirror
from ..dtypes import DType
from ..kernels import elementwise as _ew
from ..kernels.elementwise import Scalar
from ..kernels.ewtable import OPS as EW_OPS
from ..kernels.layout import MAX_ELEMENTS

SCALARS = (bool, int, float, complex, np.bool_, np.integer, np.floating, np.complexfloating)


class Traced:
    """A value being traced by ``wg.fuse`` (``ops/fusion.py``'s proxy).  The few functions a fused function may
    call (elementwise ops, ``astype``, reductions) hand such a value to it instead of computing."""

    def _record(self, name: str, args: Sequence[Any], dtype: DType | None) -> Any:
        raise NotImplementedError

    def _astype(self, dtype: Any) -> Any:
        raise NotImplementedError

    def _reduce(self, name: str, axis: Any, keepdims: bool, dtype: Any) -> Any:
        raise NotImplementedError


# -- devices and new arrays --------------------------------------------------------------------------------------
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


def check_addressable(name: str, *arrays: Array) -> None:
    """MemoryError naming the limit when an operand has more elements than a kernel addresses (a broadcast view can
    be that large without its bytes being): sizes between 2**31 and 2**32 would fit the kernels' u32 parameters but
    overflow their i32 index arithmetic, so the check comes before the launch rather than from packing them."""
    for a in arrays:
        if a.size > MAX_ELEMENTS:
            raise MemoryError(f"{name}: an operand of shape {a.shape} has {a.size} elements; wgarray's kernels "
                              f"address at most {MAX_ELEMENTS} (2**31 - 1) elements of an operand")


def check_int_fits(value: int, dtype: DType) -> None:
    bounds = _INT_BOUNDS.get(dtype)
    if bounds is not None and not bounds[0] <= value <= bounds[1]:
        raise OverflowError(f"Python integer {value} out of bounds for {dtype.name}")



# -- arrays from Python data ------------------------------------------------------------------------------
def infer_host(obj: Any, dtype: DType | None) -> np.ndarray:
    """Python data or array-likes -> a numpy array with wgarray's dtype choice."""
    if isinstance(obj, (np.ndarray, np.generic)):
        arr = np.asarray(obj)
        if arr.dtype.kind in "OSUVMm":  # even with a dtype asked for: no silent str parsing
            raise TypeError(f"wgarray does not support the data type {arr.dtype}")
        if dtype is None:
            if arr.dtype.kind == "c" and arr.dtype.itemsize > 16:
                raise TypeError(f"wgarray does not support the data type {arr.dtype}")
            dtype = _dt.as_dtype(arr.dtype)
        check_real_cast(arr.dtype.kind, dtype)
        return arr.astype(dtype.numpy, copy=False) if arr.dtype != dtype.numpy else arr
    if hasattr(obj, "__array__") or hasattr(obj, "__array_interface__") or isinstance(obj, memoryview):
        return infer_host(np.asarray(obj), dtype)
    try:
        arr = np.asarray(obj)
    except (ValueError, TypeError) as e:
        raise ValueError(f"cannot build an array from {type(obj).__name__}: {e}") from None
    if arr.dtype.kind == "O" and arr.size and all(type(v) is int for v in arr.flat):
        raise OverflowError("Python integers out of bounds for every wgarray integer dtype")
    if dtype is not None and dtype.kind in "iu" and arr.dtype.kind in "fO" and arr.size:
        # numpy infers float64 for Python ints mixing values above int64's range with others ([2**63 + 1, 0]),
        # which would round them: build integer data from the exact Python ints instead
        exact = np.asarray(obj, dtype=object)
        if all(type(v) in (int, bool) for v in exact.flat):
            info = np.iinfo(dtype.numpy)
            if min(exact.flat) < info.min or max(exact.flat) > info.max:
                raise OverflowError(f"Python integers out of bounds for {dtype.name}")
            return exact.astype(dtype.numpy)
    if arr.dtype.kind in "OSUV":
        raise TypeError(f"cannot build a numeric array from {type(obj).__name__} holding {arr.dtype} data")
    if dtype is None:
        dtype = {"b": _dt.bool, "i": _dt.default_int, "u": _dt.default_int, "f": _dt.default_float,
                 "c": _dt.default_complex}[arr.dtype.kind]
        if dtype.kind == "i" and arr.size:
            info = np.iinfo(np.int32)
            if arr.min() < info.min or arr.max() > info.max:
                raise OverflowError(f"Python integers out of bounds for the default integer dtype {dtype.name}; "
                                    "pass dtype=wgarray.int64")
    elif arr.dtype.kind == "c":
        check_real_cast("c", dtype)
    elif dtype.kind in "iu" and arr.dtype.kind in "iu" and arr.size:
        info = np.iinfo(dtype.numpy)
        if arr.min() < info.min or arr.max() > info.max:
            raise OverflowError(f"Python integers out of bounds for {dtype.name}")
    return arr.astype(dtype.numpy)


def check_real_cast(src_kind: str, dst: DType) -> None:
    """Complex data never becomes real silently: the standard says the cast "should not be permitted" (numpy
    discards the imaginary part with a warning); ask for ``real(x)``, ``imag(x)`` or ``abs(x)`` instead."""
    if src_kind == "c" and dst.kind != "c":
        raise TypeError(f"cannot cast complex data to {dst.name} (the imaginary part would be lost); "
                        "use real(), imag() or abs() to choose a real part")


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
    if copy is False:
        return adopt(obj, dtype, dev)
    host = infer_host(obj, dtype)
    dt = _dt.as_dtype(host.dtype)
    out = new_array(host.shape, dt, dev)
    out.mirror.host_for_write(whole=True)[...] = host.reshape(-1)
    return out


def adopt(obj, dtype: DType | None, dev: _device.Device) -> Array:
    """``asarray(obj, copy=False)`` for host data: an array whose host block *is* ``obj``'s memory.  Only a numpy
    array that needs no conversion qualifies (C-contiguous, aligned, writeable: downloads land in it, of a dtype
    whose host layout is wgarray's, native byte order); anything else is a ValueError, as the standard asks."""
    why = None
    if not isinstance(obj, np.ndarray):
        why = f"a {type(obj).__name__} must be converted to an array"
    elif dtype is not None and obj.dtype != dtype.numpy:
        why = f"converting {obj.dtype} to {dtype.name} is a copy"
    elif not obj.dtype.isnative:
        why = f"{obj.dtype} is not in the host's byte order"
    elif not obj.flags.c_contiguous:
        why = "the numpy array is not C-contiguous"
    elif not obj.flags.aligned:
        why = "the numpy array is not aligned"
    elif not obj.flags.writeable:
        why = "the numpy array is read-only (wgarray downloads device results into its host block)"
    if why is None:
        host = infer_host(obj, dtype)  # the dtype checks (unsupported kinds raise TypeError)
        if host is not obj:
            why = f"{obj.dtype} is not the host layout of a wgarray dtype"
    if why is not None:
        raise ValueError(f"copy=False but a copy is needed to build the array: {why}")
    out = new_array(obj.shape, _dt.as_dtype(obj.dtype), dev)
    out.mirror.adopt_host(obj.reshape(-1))
    return out


def as_array(x) -> Array:
    """x itself if it is an Array, else ``asarray(x)`` on the default device."""
    return x if isinstance(x, Array) else asarray(x)


def astype(x: Array, dtype, copy: bool = True) -> Array:
    if isinstance(x, Traced):
        return x._astype(dtype)
    dt = _dt.as_dtype(dtype)
    if dt is x.dtype and not copy:
        return x
    check_real_cast(x.dtype.kind, dt)
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



# -- scalars, fills and operands ----------------------------------------------------------------------------
def scalar_for(value, dtype: DType) -> Scalar:
    """A scalar operand of ``dtype`` (numpy's casting for floats; OverflowError for ints that do not fit)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        if dtype.kind in "iu":
            check_int_fits(int(value), dtype)
        return Scalar(int(value), dtype)
    if isinstance(value, (bool, np.bool_)):
        return Scalar(bool(value), dtype)
    if isinstance(value, (complex, np.complexfloating)):
        check_real_cast("c", dtype)
        return Scalar(complex(value), dtype)
    return Scalar(float(value), dtype)


def fill(view: Array, value) -> None:
    """Write one scalar into every element of ``view`` on the device."""
    sd = scalar_for(value, view.dtype)
    _ew.run(view.device, EW_OPS["copy"], [sd], view, sd.dtype)


def ramp(out: Array, start, step, dtype: DType) -> None:
    """out[i] = start + i * step, computed in ``dtype`` (arange, linspace's fallback, piece offsets)."""
    _ew.run(out.device, EW_OPS["arange"], [scalar_for(start, dtype), scalar_for(step, dtype)], out, dtype)


def operands(args: Sequence[Any]) -> tuple[list, _device.Device]:
    arrays = [a for a in args if isinstance(a, Array)]
    dev = common_device(arrays) if arrays else _device.default_device()
    out = []
    for a in args:
        if isinstance(a, Array) or isinstance(a, SCALARS):
            out.append(a)
        elif isinstance(a, (np.ndarray, list, tuple)):
            out.append(asarray(a, device=dev))
        else:
            raise TypeError(f"unsupported operand type {type(a).__name__}")
    if not any(isinstance(a, Array) for a in out):
        out[0] = asarray(out[0], device=dev)
    return out, dev


def same_view(a: Array, b: Array) -> bool:
    return a.mirror is b.mirror and a.offset == b.offset and a.shape == b.shape and a.strides == b.strides


def unalias(operands: list, target: Array) -> list:
    """Copy operands that share ``target``'s base but not its exact view (numpy's overlap semantics)."""
    return [astype(o, o.dtype, copy=True) if isinstance(o, Array) and o.mirror is target.mirror
            and not same_view(o, target) else o for o in operands]
