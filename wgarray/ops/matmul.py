"""The matrix product: operands and batch layout for the tiled kernels in ``kernels/matmul.py``."""
from __future__ import annotations

import math

import numpy as np

from .. import device as _device, dtypes as _dt
from .._array import Array
from ..kernels import matmul as _mm
from ..kernels.layout import broadcast_strides, collapse
from .core import asarray, astype, check_addressable, common_device, new_array
from .shape import broadcast_to


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
    check_addressable("matmul", a2, b2)
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
