"""Creation functions beyond the fills: meshgrid, tril/triu (a device mask and ``where``), from_dlpack."""
from __future__ import annotations

import operator

import numpy as np

from . import _ops
from . import dtypes as _dt
from ._array import Array
from .kernels import elementwise as _ew
from .kernels.elementwise import Scalar
from .kernels.ewtable import OPS as _EW_OPS

__all__ = ["meshgrid", "tril", "triu", "from_dlpack"]


def meshgrid(*arrays, indexing: str = "xy") -> list[Array]:
    """Coordinate matrices from 1-D coordinate arrays (new arrays on the device, each keeping its dtype).

    ``indexing='xy'`` (Cartesian) swaps the first two output dimensions relative to ``'ij'`` (matrix)."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"indexing must be 'xy' or 'ij', not {indexing!r}")
    arrays = [a if isinstance(a, Array) else _ops.asarray(a) for a in arrays]
    if not arrays:
        return []
    dev = _ops.common_device(arrays)
    for a in arrays:
        if a.ndim != 1:
            raise ValueError(f"meshgrid takes 1-D arrays, got one of shape {a.shape}")
    shape = [a.shape[0] for a in arrays]
    if indexing == "xy" and len(arrays) > 1:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for k, a in enumerate(arrays):
        d = k
        if indexing == "xy" and len(arrays) > 1 and k < 2:
            d = 1 - k
        strides = [0] * len(shape)
        strides[d] = a.strides[0]
        res = _ops.new_array(shape, a.dtype, dev)
        _ew.run(dev, _EW_OPS["copy"], [Array(a.mirror, tuple(shape), tuple(strides), a.offset)], res, a.dtype)
        out.append(res)
    return out


def _triangle(x, k, mask_op: str) -> Array:
    x = x if isinstance(x, Array) else _ops.asarray(x)
    if x.ndim < 2:
        raise ValueError(f"{mask_op[:4]} needs an array of at least two dimensions, got {x.ndim}")
    k = operator.index(k)
    rows, cols = x.shape[-2:]
    dev = _ops.common_device([x])
    k = max(-rows - 1, min(cols + 1, k))  # beyond the matrix every k gives the same mask; keeps it in int32
    mask = _ops.new_array((rows, cols), _dt.bool, dev)
    if mask.size:
        _ew.run(dev, _EW_OPS[mask_op], [Scalar(cols, _dt.int32), Scalar(k, _dt.int32)], mask, _dt.int32)
    zero = False if x.dtype.kind == "b" else 0
    return _ops.elementwise("where", mask, x, zero)


def tril(x: Array, /, *, k: int = 0) -> Array:
    """The lower triangle of each matrix in x (elements with column - row > k set to zero)."""
    return _triangle(x, k, "tril_mask")


def triu(x: Array, /, *, k: int = 0) -> Array:
    """The upper triangle of each matrix in x (elements with column - row < k set to zero)."""
    return _triangle(x, k, "triu_mask")


def from_dlpack(x, /, *, device=None, copy: bool | None = None) -> Array:
    """An array from any object with ``__dlpack__`` (read on the host through ``np.from_dlpack``).

    wgarray arrays always own their memory (a host block and a device buffer), so data from another library is
    copied: ``copy=False`` raises BufferError for them.  A wgarray array is returned as ``asarray`` would."""
    if isinstance(x, Array):
        if copy is False and device is not None and _ops.resolve_device(device) is not x.device:
            raise BufferError("copy=False but the array is on another device")
        return _ops.asarray(x, device=device, copy=copy)
    if copy is False:
        raise BufferError("wgarray cannot share memory with another library's array; pass copy=None or True")
    if not hasattr(x, "__dlpack__"):
        raise TypeError(f"{type(x).__name__} does not support the DLPack protocol (no __dlpack__)")
    host = np.from_dlpack(x)
    return _ops.asarray(host, device=device)
