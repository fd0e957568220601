"""The Array API ``linalg`` extension (``wg.linalg``, also importable as ``wgarray.linalg``), composed of device
kernels: views (diagonal, matrix_transpose), elementwise ops, reductions and the tiled matmul.  ``matmul``,
``matrix_transpose``, ``tensordot`` and ``vecdot`` are also in the main namespace (the same functions).

This module holds the products, norms and views; the decompositions live beside it, each half driving its own
kernel family: ``factor.py`` (cholesky, solve, inv, det, slogdet, matrix_power: LU / Cholesky,
``kernels/linalg_factor.py``) and ``spectral.py`` (qr, eigh, eigvalsh, svd, svdvals, pinv, matrix_rank and
matrix_norm's ord=2, -2 and 'nuc': Householder and Jacobi, ``kernels/linalg_spectral.py``).
"""
from __future__ import annotations

import math
import operator

import numpy as np

from ... import dtypes as _dt
from ..._array import Array
from ...ops import axes as _axes, core
from ...ops.elementwise import elementwise
from ...ops.matmul import matmul as _matmul
from ...ops.reduction import reduce
from ...ops.shape import broadcast_to, reshape
from ..creation import eye as _eye, full as _full, tril
from ..manipulation import moveaxis, stack
from ..searching import where

__all__ = ["matmul", "matrix_norm", "vector_norm", "outer", "trace", "diagonal", "cross", "tensordot", "vecdot",
           "matrix_transpose"]
__all__ += ["cholesky", "solve", "inv", "det", "slogdet", "matrix_power", "LinAlgError", "errors",
            "SlogdetResult"]  # factor.py
__all__ += ["qr", "eigh", "eigvalsh", "svd", "svdvals", "pinv", "matrix_rank"]  # spectral.py


def _pair(x1, x2) -> tuple[Array, Array]:
    arrays = [v for v in (x1, x2) if isinstance(v, Array)]
    dev = core.common_device(arrays) if arrays else None
    x1 = x1 if isinstance(x1, Array) else core.asarray(x1, device=dev)
    x2 = x2 if isinstance(x2, Array) else core.asarray(x2, device=dev)
    core.common_device([x1, x2])
    return x1, x2


def _float_input(x: Array) -> Array:
    """The real floating array a norm is taken of: |x| (hypot, in the real dtype of its parts) for complex x."""
    if x.dtype.kind == "f":
        return x
    if x.dtype.kind == "c":
        return elementwise("abs", x)
    if x.dtype.kind == "b":
        raise TypeError("norms are not defined for bool arrays")
    return core.astype(x, _dt.default_float)  # documented policy: integers compute in the default float


def _from_end(axis, x1: Array, x2: Array) -> int:
    """The axis of vecdot and cross, counted from the end (negative) of the broadcast vectors: a non-negative
    axis counts from the start only when both operands have the same number of dimensions."""
    a = operator.index(axis)
    nd = min(x1.ndim, x2.ndim)
    if a >= 0 and x1.ndim != x2.ndim:
        raise np.exceptions.AxisError(axis, nd)
    return _axes.axis(a, nd) - nd


def _move_last(x: Array, axis: int) -> Array:
    """View of x with ``axis`` (negative, counted from the end) moved to the end."""
    d = x.ndim + axis
    order = [i for i in range(x.ndim) if i != d] + [d]
    return x.transpose(order)


# -- views -----------------------------------------------------------------------------------------------------------
def matrix_transpose(x: Array, /) -> Array:
    """A view with the last two dimensions swapped."""
    return core.as_array(x).mT


def diagonal(x: Array, /, *, offset: int = 0) -> Array:
    """A view of the ``offset`` diagonal of each matrix (the last two dimensions): one stride, no copy."""
    x = core.as_array(x)
    if x.ndim < 2:
        raise ValueError(f"diagonal needs an array of at least two dimensions, got {x.ndim}")
    k = operator.index(offset)
    rows, cols = x.shape[-2:]
    sr, sc = x.strides[-2:]
    n = max(0, min(rows, cols - k)) if k >= 0 else max(0, min(rows + k, cols))
    start = x.offset + ((k * sc if k >= 0 else -k * sr) if n else 0)
    return x._view(x.shape[:-2] + (n,), x.strides[:-2] + (sr + sc,), start)


# -- products ----------------------------------------------------------------------------------------------------
def matmul(x1: Array, x2: Array, /) -> Array:
    """Matrix product with broadcast batch dimensions (1-D operands promoted and the dimension removed)."""
    return _matmul(x1, x2)


def vecdot(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """Dot products of the vectors along ``axis`` (counted from the end), batch dimensions broadcast:
    sum(conj(x1) * x2, axis) computed in the promoted dtype (integers wrap like numpy's; x1 is conjugated for
    complex input, as the standard and numpy.vecdot do)."""
    x1, x2 = _pair(x1, x2)
    res = _dt.result_type(x1.dtype, x2.dtype)
    if res.kind == "b":
        raise TypeError("vecdot is not defined for bool arrays")
    a = _from_end(axis, x1, x2)
    v1, v2 = _move_last(x1, a), _move_last(x2, a)
    if v1.shape[-1] != v2.shape[-1]:
        raise ValueError(f"vecdot: the vectors have different sizes ({v1.shape[-1]} and {v2.shape[-1]})")
    if v1.dtype.kind == "c":
        v1 = elementwise("conj", v1)
    prod = elementwise("multiply", v1, v2)
    return reduce("sum", prod, -1, False, res)


def tensordot(x1: Array, x2: Array, /, axes=2) -> Array:
    """Sum of products over the given axes: the last ``axes`` of x1 with the first of x2 (an int), or the axes
    ``axes[0]`` of x1 with ``axes[1]`` of x2 (two sequences); one matmul of the two reshaped operands."""
    x1, x2 = _pair(x1, x2)
    if isinstance(axes, (int, np.integer)) and not isinstance(axes, (bool, np.bool_)):
        n = operator.index(axes)
        if n < 0:
            raise ValueError(f"axes must be a non-negative integer, got {n}")
        if n > x1.ndim or n > x2.ndim:
            raise ValueError(f"axes={n} exceeds the dimensions of the operands ({x1.ndim} and {x2.ndim})")
        a1, a2 = list(range(x1.ndim - n, x1.ndim)), list(range(n))
    else:
        try:
            s1, s2 = axes
        except (TypeError, ValueError):
            raise TypeError("axes must be an int or a pair of sequences of axes") from None
        s1 = [s1] if isinstance(s1, (int, np.integer)) else list(s1)
        s2 = [s2] if isinstance(s2, (int, np.integer)) else list(s2)
        if len(s1) != len(s2):
            raise ValueError("tensordot: the two sequences of axes must have the same length")
        a1 = [_axes.axis(a, x1.ndim) for a in s1]
        a2 = [_axes.axis(a, x2.ndim) for a in s2]
        if len(set(a1)) != len(a1) or len(set(a2)) != len(a2):
            raise ValueError("tensordot: repeated axis")
    for i, j in zip(a1, a2):
        if x1.shape[i] != x2.shape[j]:
            raise ValueError(f"tensordot: shape mismatch for sum: axis {i} of x1 has {x1.shape[i]} elements, "
                             f"axis {j} of x2 has {x2.shape[j]}")
    f1 = [d for d in range(x1.ndim) if d not in a1]
    f2 = [d for d in range(x2.ndim) if d not in a2]
    k = math.prod(x1.shape[d] for d in a1)
    m, n_ = math.prod(x1.shape[d] for d in f1), math.prod(x2.shape[d] for d in f2)
    a = reshape(x1.transpose(f1 + a1), (m, k))
    b = reshape(x2.transpose(a2 + f2), (k, n_))
    out = _matmul(a, b)
    return reshape(out, tuple(x1.shape[d] for d in f1) + tuple(x2.shape[d] for d in f2))


def outer(x1: Array, x2: Array, /) -> Array:
    """Outer product of two 1-D arrays: x1[:, None] * x2[None, :]."""
    x1, x2 = _pair(x1, x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"outer takes 1-D arrays, got shapes {x1.shape} and {x2.shape}")
    return elementwise("multiply", x1[:, None], x2[None, :])


def cross(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """Cross products of the 3-vectors along ``axis`` (counted from the end), other dimensions broadcast;
    each component a1*b2 - a2*b1 with the products rounded first, as numpy computes them."""
    x1, x2 = _pair(x1, x2)
    a = _from_end(axis, x1, x2)
    v1, v2 = _move_last(x1, a), _move_last(x2, a)
    if v1.shape[-1] != 3 or v2.shape[-1] != 3:
        raise ValueError(f"cross: the vectors along axis {axis} must have 3 elements, "
                         f"got {v1.shape[-1]} and {v2.shape[-1]}")
    c = [v1[..., i] for i in range(3)]
    d = [v2[..., i] for i in range(3)]

    def comp(i: int, j: int) -> Array:
        return elementwise("subtract", elementwise("multiply", c[i], d[j]),
                                elementwise("multiply", c[j], d[i]))

    out = stack([comp(1, 2), comp(2, 0), comp(0, 1)], axis=-1)
    return moveaxis(out, -1, out.ndim + a)


# -- reductions --------------------------------------------------------------------------------------------------
def trace(x: Array, /, *, offset: int = 0, dtype=None) -> Array:
    """Sum of the ``offset`` diagonal of each matrix (sum's dtype rules; ``dtype`` overrides them)."""
    return reduce("sum", diagonal(x, offset=offset), -1, False, dtype)


def vector_norm(x: Array, /, *, axis=None, keepdims: bool = False, ord: int | float = 2) -> Array:
    """p-norms over ``axis`` (all axes when None): ord = inf, -inf (max/min |x|), 0 (count of non-zeros),
    1, 2, or any other p (sum |x|^p)^(1/p).  Integers compute in the default float."""
    x = _float_input(core.as_array(x))
    axes = _axes.reduced(axis, x.ndim)
    if isinstance(ord, (bool, np.bool_)) or not isinstance(ord, (int, float, np.integer, np.floating)):
        raise ValueError(f"invalid vector norm order {ord!r}")
    if x.dtype is _dt.float16:  # powers of float16 values overflow float16 (41**3 > 65504): norms in float32
        return core.astype(vector_norm(core.astype(x, _dt.float32), axis=axis, keepdims=keepdims, ord=ord),
                           _dt.float16)
    ord = float(ord)
    if ord == math.inf or ord == -math.inf:
        return reduce("max" if ord > 0 else "min", elementwise("abs", x), axes, keepdims)
    if ord == 0:
        nz = core.astype(elementwise("not_equal", x, 0), x.dtype)
        return reduce("sum", nz, axes, keepdims, x.dtype)
    if ord == 1:
        return reduce("sum", elementwise("abs", x), axes, keepdims)
    if ord == 2:
        return elementwise("sqrt", reduce("sum", elementwise("multiply", x, x), axes, keepdims))
    powered = elementwise("pow", elementwise("abs", x), ord)
    return elementwise("pow", reduce("sum", powered, axes, keepdims), 1.0 / ord)


def matrix_norm(x: Array, /, *, keepdims: bool = False, ord: int | float | str | None = "fro") -> Array:
    """Norms of the matrices in the last two dimensions: 'fro' (Frobenius), 1 / -1 (max / min column sum of
    |x|), inf / -inf (max / min row sum), 2 / -2 (largest / smallest singular value), 'nuc' (their sum).  The
    singular values of complex x are x's own (not those of |x|, which differ)."""
    given = core.as_array(x)
    x = _float_input(given)
    spectral_input = given if given.dtype.kind == "c" else x
    if x.ndim < 2:
        raise ValueError(f"matrix_norm needs an array of at least two dimensions, got {x.ndim}")
    if x.dtype is _dt.float16:  # sums of squares overflow float16: norms in float32
        return core.astype(matrix_norm(core.astype(x, _dt.float32), keepdims=keepdims, ord=ord), _dt.float16)
    nd = x.ndim
    if ord is None or (isinstance(ord, str) and ord == "fro"):
        res = elementwise("sqrt", reduce("sum", elementwise("multiply", x, x), (nd - 2, nd - 1)))
    elif isinstance(ord, str):
        if ord != "nuc":
            raise ValueError(f"invalid matrix norm order {ord!r}")
        res = spectral.singular_value_norm(spectral_input, ord)
    elif ord in (2, -2):
        res = spectral.singular_value_norm(spectral_input, ord)
    elif ord in (1, -1, math.inf, -math.inf):
        pick = "max" if ord > 0 else "min"
        summed_axis = nd - 2 if abs(ord) == 1 else nd - 1  # 1: column sums (over rows); inf: row sums
        res = reduce(pick, reduce("sum", elementwise("abs", x), summed_axis), nd - 2)
    else:
        raise ValueError(f"invalid matrix norm order {ord!r}")
    if keepdims:
        res = reshape(res, res.shape + (1, 1))
    return res


# the decompositions (imported last: they use the products above)
from . import factor, spectral  # noqa: E402
from .factor import LinAlgError, SlogdetResult, cholesky, det, errors, inv, matrix_power, slogdet, solve  # noqa: E402
from .spectral import eigh, eigvalsh, matrix_rank, pinv, qr, svd, svdvals  # noqa: E402
