"""numpy's everyday functions that the Array API standard leaves out, grouped by the standard's sections, with
numpy's signatures (so ``api/interop.py`` dispatches ``np.median(x)`` here unchanged) and numpy's semantics.

Why a module of their own instead of one per section: the section modules implement the standard and nothing
else (``wgarray/api/__init__.py`` lists them in its order), and these functions are numpy's, with numpy's
argument conventions (``axis`` positional, ``out=``); keeping them here makes that boundary visible.

Every function composes existing device kernels; none adds a kernel or computes data on the host:

* median / percentile / quantile: ``sort`` along the axis, two gathers at the virtual index, numpy's lerp;
* nan* reductions: ``where(isnan(x), identity, x)`` and the reductions;
* histogram / bincount: ``sort`` then ``searchsorted`` of the bin edges (counts are differences of positions);
  weights travel with the sort order (``argsort``, ``take``) and are summed by a cumulative sum;
* einsum: diagonals as strided views, sums of free letters as reductions, contractions as one batched
  ``matmul`` of transposed/reshaped operands; dot / inner / vdot through ``tensordot``;
* convolve: a sliding-window view (strides (1, 1) over the zero-padded signal) times the flipped kernel;
* interp: ``searchsorted`` of x in xp, gathers of the two neighbours and the elementwise line.

The host reads only what numpy's result shape or error depends on: ``bincount``'s length (max of x), the
minimum/maximum of ``histogram``'s autodetected range, and the all-NaN check of ``nanargmax``/``nanargmin``.
``pad``'s reflect/symmetric/wrap/edge modes compute their index pattern (integers along one axis, as
``repeat`` does) with ``np.pad`` of ``arange`` on the host and gather on the device.
"""
from __future__ import annotations

import builtins
import math
import operator
import string
from typing import Any, Sequence

import numpy as np

from .. import dtypes as _dt
from .._array import Array
from ..ops import core
from ..ops.axes import axis as _axis, reduced as _reduced
from ..ops.elementwise import elementwise as _ew
from ..ops.indexing import assign
from ..ops.reduction import argreduce, reduce
from ..ops.shape import broadcast_to
from .creation import linspace, zeros
from .indexing import take
from .linalg import diagonal as _diagonal, tensordot
from .manipulation import concat, flip, moveaxis, reshape, stack
from .searching import nonzero, searchsorted
from .sorting import argsort, sort
from .statistical import cumulative_sum, mean

__all__ = [
    # manipulation
    "atleast_1d", "atleast_2d", "atleast_3d", "concatenate", "vstack", "hstack", "dstack", "column_stack",
    "split", "array_split", "pad", "diag",
    # elementwise / utility
    "isclose", "allclose", "array_equal", "interp",
    # linear algebra
    "dot", "vdot", "inner", "einsum", "convolve",
    # statistical
    "nansum", "nanmean", "nanmax", "nanmin", "median", "percentile", "quantile", "average", "ptp", "cov",
    "corrcoef",
    # searching
    "nanargmax", "nanargmin", "argwhere", "unravel_index", "ravel_multi_index", "histogram", "bincount", "digitize",
    # host
    "asnumpy", "get_array_module",
]


def _arr(x) -> Array:
    return core.as_array(x)


def _float(x: Array) -> Array:
    """x in a float dtype: integers and bools compute in the default float (wgarray's documented policy)."""
    return x if x.dtype.kind == "f" else core.astype(x, _dt.default_float)


def _out(res: Array, out) -> Array:
    """numpy's ``out=``: the result written into a wgarray array (numpy arrays would need a download)."""
    if out is None:
        return res
    if isinstance(out, tuple):
        if len(out) != 1:
            raise TypeError(f"out must hold one array, not {len(out)}")
        out = out[0]
    if not isinstance(out, Array):
        raise TypeError(f"out= must be a wgarray Array, not {type(out).__name__} (writing into a numpy array "
                        "would be a silent download; use out[...] = x.get())")
    if out.shape != res.shape:
        raise ValueError(f"out has shape {out.shape}, but the result has shape {res.shape}")
    if not np.can_cast(res.dtype.numpy, out.dtype.numpy, casting="same_kind"):
        raise TypeError(f"cannot cast the {res.dtype.name} result to the {out.dtype.name} out= array")
    with out._writing(res):  # the one write gate: a read-only out= is refused, the bases locked
        assign(out, res)
    return out


# ==== manipulation ==============================================================================================
def atleast_1d(*arys):
    res = [reshape(a, (1,)) if a.ndim == 0 else a for a in map(_arr, arys)]
    return res[0] if len(res) == 1 else res


def atleast_2d(*arys):
    res = []
    for a in map(_arr, arys):
        res.append(reshape(a, (1,) * (2 - a.ndim) + a.shape) if a.ndim < 2 else a)
    return res[0] if len(res) == 1 else res


def atleast_3d(*arys):
    res = []
    for a in map(_arr, arys):
        if a.ndim == 0:
            a = reshape(a, (1, 1, 1))
        elif a.ndim == 1:
            a = reshape(a, (1, a.shape[0], 1))
        elif a.ndim == 2:
            a = reshape(a, a.shape + (1,))
        res.append(a)
    return res[0] if len(res) == 1 else res


def _seq(arrays, name: str) -> list:
    if isinstance(arrays, Array) or not isinstance(arrays, (tuple, list)):
        raise TypeError(f"{name} takes a sequence of arrays")
    return list(arrays)


def concatenate(arrays, axis: int | None = 0, out=None, *, dtype=None, casting="same_kind") -> Array:
    """numpy's concatenate: ``concat`` with ``out=`` and ``dtype=``."""
    res = concat(_seq(arrays, "concatenate"), axis=axis)
    if dtype is not None:
        res = core.astype(res, dtype, copy=False)
    return _out(res, out)


def vstack(tup, *, dtype=None, casting="same_kind") -> Array:
    return concatenate(atleast_2d(*_seq(tup, "vstack")) if len(tup) > 1 else [atleast_2d(*tup)], 0,
                       dtype=dtype)


def hstack(tup, *, dtype=None, casting="same_kind") -> Array:
    arrs = [atleast_1d(a) for a in _seq(tup, "hstack")]
    return concatenate(arrs, 0 if arrs and arrs[0].ndim == 1 else 1, dtype=dtype)


def dstack(tup) -> Array:
    return concatenate([atleast_3d(a) for a in _seq(tup, "dstack")], 2)


def column_stack(tup) -> Array:
    arrs = []
    for a in map(_arr, _seq(tup, "column_stack")):
        arrs.append(reshape(a, (-1, 1)) if a.ndim < 2 else a)
    return concatenate(arrs, 1)


def array_split(ary, indices_or_sections, axis: int = 0) -> list[Array]:
    """Views of ``ary`` split along ``axis`` at the given indices, or into N nearly equal parts (the first
    ``len % N`` parts one longer)."""
    x = _arr(ary)
    a = _axis(axis, x.ndim)
    n = x.shape[a]
    if isinstance(indices_or_sections, (int, np.integer)) and not isinstance(indices_or_sections, bool):
        sections = operator.index(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.")
        each, extra = divmod(n, sections)
        bounds = [0]
        for i in range(sections):
            bounds.append(bounds[-1] + each + (1 if i < extra else 0))
    else:
        bounds = [0] + [operator.index(i) for i in indices_or_sections] + [n]
    pre = (slice(None),) * a
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        out.append(x[pre + (slice(lo, hi),)])
    return out


def split(ary, indices_or_sections, axis: int = 0) -> list[Array]:
    """``array_split`` that insists on equal parts when given a number of sections (numpy's ValueError)."""
    if isinstance(indices_or_sections, (int, np.integer)) and not isinstance(indices_or_sections, bool):
        x = _arr(ary)
        n = x.shape[_axis(axis, x.ndim)]
        if indices_or_sections and n % indices_or_sections:
            raise ValueError("array split does not result in an equal division")
    return array_split(ary, indices_or_sections, axis)


_PAD_MODES = ("constant", "edge", "reflect", "symmetric", "wrap")


def pad(array, pad_width, mode: str = "constant", **kwargs) -> Array:
    """numpy's pad for the modes constant (``constant_values``), edge, reflect, symmetric and wrap, axis by axis
    as numpy pads.  Constant padding fills on the device; the other modes gather along each axis with the
    index pattern numpy's own rule gives for ``arange(n)`` (integer bookkeeping along one axis)."""
    x = _arr(array)
    if mode not in _PAD_MODES:
        raise TypeError(f"wgarray's pad does not implement mode={mode!r} (it has {', '.join(_PAD_MODES)})")
    allowed = {"constant": {"constant_values"}, "reflect": {"reflect_type"}, "symmetric": {"reflect_type"}}
    bad = set(kwargs) - allowed.get(mode, set())
    if bad:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {sorted(bad)}")
    widths = np.broadcast_to(np.asarray(pad_width, dtype=np.int64), (x.ndim, 2)) if x.ndim else np.zeros((0, 2))
    if (widths < 0).any():
        raise ValueError("index can't contain negative values")
    if mode == "constant":
        cv = np.broadcast_to(np.asarray(kwargs.get("constant_values", 0)), (x.ndim, 2)) if x.ndim else None
        shape = tuple(int(n + lo + hi) for n, (lo, hi) in zip(x.shape, widths))
        out = core.new_array(shape, x.dtype, core.common_device([x]))
        if out.size:
            # numpy pads axis by axis: the later axes' values win in the corners, so fill in that order
            core.fill(out, cv[0][0].item() if cv is not None else 0)
            for d in range(x.ndim):
                lo, hi = int(widths[d][0]), int(widths[d][1])
                inner = (slice(None),) * d
                for side, val in ((slice(0, lo), cv[d][0]), (slice(lo + x.shape[d], shape[d]), cv[d][1])):
                    view = out[inner + (side,)]
                    if view.size:
                        core.fill(view, _exact(val.item(), x.dtype))
            center = tuple(slice(int(lo), int(lo) + n) for n, (lo, _) in zip(x.shape, widths))
            if x.size:
                assign(out[center], x)
        return out
    for d in range(x.ndim):
        lo, hi = int(widths[d][0]), int(widths[d][1])
        if lo == hi == 0:
            continue
        if x.shape[d] == 0:
            raise ValueError(f"can't extend empty axis {d} using modes other than 'constant' or 'empty'")
        pattern = np.pad(np.arange(x.shape[d], dtype=np.int32), (lo, hi), mode=mode, **kwargs)
        x = take(x, core.asarray(pattern, device=x.device), axis=d)
    return x


def _exact(v, dtype: _dt.DType):
    """A fill value as numpy stores it in ``dtype`` (numpy casts constant_values to the array's dtype)."""
    return np.asarray(v).astype(dtype.numpy).item()


def diag(v, k: int = 0) -> Array:
    """A 2-D array with ``v`` on its k-th diagonal (1-D input), or a copy of the k-th diagonal (2-D input)."""
    x = _arr(v)
    k = operator.index(k)
    if x.ndim == 1:
        n = x.shape[0] + builtins.abs(k)
        out = zeros((n, n), dtype=x.dtype, device=x.device)
        if x.size:
            assign(_diagonal(out, offset=k), x)
        return out
    if x.ndim == 2:
        return core.astype(_diagonal(x, offset=k), x.dtype, copy=True)
    raise ValueError("Input must be 1- or 2-d.")


# ==== elementwise / utility ======================================================================================
def isclose(a, b, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Array:
    """|a - b| <= atol + rtol * |b| (numpy's asymmetric test), infinities equal only to themselves."""
    x, y = _arr(a), _arr(b)
    dev = core.common_device([x, y])
    fdt = _dt.result_type(x.dtype, y.dtype)
    if fdt.kind != "f":
        fdt = _dt.default_float
    x, y = core.astype(x, fdt, copy=False), core.astype(y, fdt, copy=False)
    del dev
    diff = _ew("abs", _ew("subtract", x, y))
    tol = _ew("add", atol, _ew("multiply", rtol, _ew("abs", y)))
    res = _ew("logical_or", _ew("logical_and", _ew("less_equal", diff, tol), _ew("isfinite", y)),
              _ew("equal", x, y))
    if equal_nan:
        res = _ew("logical_or", res, _ew("logical_and", _ew("isnan", x), _ew("isnan", y)))
    return res


def allclose(a, b, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
    return bool(reduce("all", isclose(a, b, rtol, atol, equal_nan)))


def array_equal(a1, a2, equal_nan: bool = False) -> bool:
    x, y = _arr(a1), _arr(a2)
    if x.shape != y.shape:
        return False
    eq = _ew("equal", x, y)
    if equal_nan and x.dtype.kind == "f" and y.dtype.kind == "f":
        eq = _ew("logical_or", eq, _ew("logical_and", _ew("isnan", x), _ew("isnan", y)))
    return bool(reduce("all", eq))


def interp(x, xp, fp, left=None, right=None, period=None) -> Array:
    """Piecewise-linear interpolation of (xp, fp) at x (xp increasing): searchsorted, two gathers, the line;
    ``left``/``right`` (default fp[0], fp[-1]) outside [xp[0], xp[-1]]."""
    if period is not None:
        raise TypeError("wgarray's interp does not implement period=")
    xp, fp = _arr(xp), _arr(fp)
    xv = _arr(x)
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("data points must be 1-D sequences")
    if xp.shape != fp.shape:
        raise ValueError("fp and xp are not of the same length.")
    if xp.size == 0:
        raise ValueError("array of sample points is empty")
    fdt = _dt.result_type(_float(xp).dtype, _float(fp).dtype, _float(xv).dtype)
    xp, fp, xv = (core.astype(v, fdt, copy=False) for v in (xp, fp, xv))
    n = xp.shape[0]
    lo_val = fp[0] if left is None else left
    hi_val = fp[n - 1] if right is None else right
    if n == 1:
        res = _ew("where", _ew("less", xv, xp[0]), lo_val, _ew("where", _ew("greater", xv, xp[0]), hi_val, fp[0]))
        return core.astype(res, fdt, copy=False)
    j = _ew("subtract", searchsorted(xp, xv, side="right"), 1)
    j = _ew("clip", j, 0, n - 2, dtype=j.dtype)
    x0, x1 = take(xp, j), take(xp, _ew("add", j, 1))
    y0, y1 = take(fp, j), take(fp, _ew("add", j, 1))
    slope = _ew("divide", _ew("subtract", y1, y0), _ew("subtract", x1, x0))
    line = _ew("add", _ew("multiply", slope, _ew("subtract", xv, x0)), y0)
    line = _ew("where", _ew("equal", xv, x0), y0, line)  # numpy: exactly on a sample point gives its value
    line = _ew("where", _ew("equal", xv, xp[n - 1]), fp[n - 1], line)
    res = _ew("where", _ew("less", xv, xp[0]), lo_val, _ew("where", _ew("greater", xv, xp[n - 1]), hi_val, line))
    return core.astype(res, fdt, copy=False)


# ==== linear algebra =============================================================================================
def dot(a, b, out=None) -> Array:
    """numpy's dot: products for 0-d operands, the inner product of vectors, matmul of matrices, and the sum over
    the last axis of a and the second-to-last of b otherwise."""
    x, y = _arr(a), _arr(b)
    if x.ndim == 0 or y.ndim == 0:
        res = _ew("multiply", x, y)
    elif y.ndim == 1:
        res = tensordot(x, y, axes=([-1], [0]))
    else:
        res = tensordot(x, y, axes=([-1], [-2]))
    return _out(res, out)


def vdot(a, b) -> Array:
    """Dot product of the flattened arrays (a 0-d array)."""
    x, y = reshape(_arr(a), (-1,)), reshape(_arr(b), (-1,))
    if x.shape != y.shape:
        raise ValueError("cannot reshape array: vdot needs arrays of one size")
    return tensordot(x, y, axes=1)


def inner(a, b) -> Array:
    """Sum of products over the last axes of a and b."""
    x, y = _arr(a), _arr(b)
    if x.ndim == 0 or y.ndim == 0:
        return _ew("multiply", x, y)
    return tensordot(x, y, axes=([-1], [-1]))


def _einsum_parse(subscripts: str, operands: Sequence[Array]) -> tuple[list[str], str]:
    subscripts = subscripts.replace(" ", "")
    inputs, arrow, output = subscripts.partition("->")
    terms = inputs.split(",")
    if len(terms) != len(operands):
        raise ValueError(f"einsum: {len(terms)} operand subscripts for {len(operands)} operands")
    used = set(subscripts) - set(".,->")
    if any(c not in string.ascii_letters for c in used):
        raise ValueError(f"einsum: invalid subscript characters in {subscripts!r}")
    spare = [c for c in string.ascii_letters[::-1] if c not in used]
    ell_n = 0
    for t, op in zip(terms, operands):
        if "..." in t:
            ell_n = builtins.max(ell_n, op.ndim - (len(t) - 3))
    ell = "".join(spare[:ell_n][::-1])
    out_terms = []
    for t, op in zip(terms, operands):
        if "..." in t:
            k = op.ndim - (len(t) - 3)
            t = t.replace("...", ell[ell_n - k:] if k else "")
        if len(t) != op.ndim:
            raise ValueError(f"einsum: operand has {op.ndim} dimensions, subscripts {t!r} name {len(t)}")
        out_terms.append(t)
    if arrow:
        output = output.replace("...", ell)
    else:
        counts: dict[str, int] = {}
        for t in out_terms:
            for c in t:
                counts[c] = counts.get(c, 0) + 1
        output = ell + "".join(sorted(c for c, n in counts.items() if n == 1 and c not in ell))
    if len(set(output)) != len(output):
        raise ValueError(f"einsum: output subscript {output!r} repeats a letter")
    for c in output:
        if not any(c in t for t in out_terms):
            raise ValueError(f"einsum: output subscript {c!r} does not appear in the inputs")
    return out_terms, output


def _einsum_diagonal(x: Array, term: str) -> tuple[Array, str]:
    """Repeated letters in one term (``ii``) as one strided view (the strides add up): no copy."""
    letters = "".join(dict.fromkeys(term))
    if len(letters) == len(term):
        return x, term
    shape, strides = [], []
    for c in letters:
        dims = [d for d, t in enumerate(term) if t == c]
        sizes = {x.shape[d] for d in dims}
        if len(sizes) != 1:
            raise ValueError(f"einsum: dimensions of repeated subscript {c!r} differ: {sorted(sizes)}")
        shape.append(x.shape[dims[0]])
        strides.append(builtins.sum(x.strides[d] for d in dims))
    return x._view(shape, strides, x.offset), letters


def _einsum_sum(x: Array, term: str, keep: set[str]) -> tuple[Array, str]:
    drop = [d for d, c in enumerate(term) if c not in keep]
    if not drop:
        return x, term
    return reduce("sum", x, tuple(drop), False, x.dtype), "".join(c for c in term if c in keep)


def _einsum_pair(a: Array, ta: str, b: Array, tb: str, keep: set[str]) -> tuple[Array, str]:
    """One contraction as a batched matmul: (batch, left, k) @ (batch, k, right)."""
    size: dict[str, int] = {}
    for x, t in ((a, ta), (b, tb)):
        for c, n in zip(t, x.shape):
            if c in size and size[c] != n and 1 not in (size[c], n):
                raise ValueError(f"einsum: operands could not be broadcast: subscript {c!r} has sizes "
                                 f"{size[c]} and {n}")
            size[c] = builtins.max(size.get(c, n), n)
    batch = [c for c in ta if c in tb and c in keep]
    contracted = [c for c in ta if c in tb and c not in keep]
    left = [c for c in ta if c not in tb]
    right = [c for c in tb if c not in ta]

    def arrange(x: Array, t: str, order: list[str]) -> Array:
        x = x.transpose([t.index(c) for c in order])
        return broadcast_to(x, tuple(size[c] for c in order))

    A = arrange(a, ta, batch + left + contracted)
    B = arrange(b, tb, batch + contracted + right)
    nb, nl, nk, nr = (math.prod(size[c] for c in g) for g in (batch, left, contracted, right))
    A = reshape(A, (nb, nl, nk))
    B = reshape(B, (nb, nk, nr))
    from ..ops.matmul import matmul
    res = matmul(A, B)
    return reshape(res, tuple(size[c] for c in batch + left + right)), "".join(batch + left + right)


def einsum(subscripts: str, *operands, out=None, dtype=None, order="K", casting="safe", optimize=False) -> Array:
    """Einstein summation: explicit (``'ij,jk->ik'``) and implicit forms, ``...``, repeated letters
    (diagonals), sums, outer products and contractions (left to right, each one batched matmul)."""
    if not isinstance(subscripts, str):
        raise TypeError("wgarray's einsum takes the subscripts string form")
    ops = [_arr(o) for o in operands]
    if not ops:
        raise ValueError("einsum: no operands")
    if dtype is not None:
        ops = [core.astype(o, dtype, copy=False) for o in ops]
    terms, output = _einsum_parse(subscripts, ops)
    items = [_einsum_diagonal(o, t) for o, t in zip(ops, terms)]
    for i, (x, t) in enumerate(items):  # letters only this operand has (and the output lacks) are summed first
        others = set(output).union(*(set(u) for j, (_, u) in enumerate(items) if j != i))
        items[i] = _einsum_sum(x, t, others)
    x, t = items[0]
    for i in range(1, len(items)):
        keep = set(output).union(*(set(u) for _, u in items[i + 1:]))
        x, t = _einsum_pair(x, t, *items[i], keep)
    x, t = _einsum_sum(x, t, set(output))
    if len(items) == 1 and x is ops[0]:
        x = x.transpose([t.index(c) for c in output])
        return _out(core.astype(x, x.dtype, copy=True), out)
    return _out(x.transpose([t.index(c) for c in output]) if t != output else x, out)


def convolve(a, v, mode: str = "full") -> Array:
    """Discrete linear convolution of two 1-D arrays: a sliding-window view over the zero-padded longer signal
    times the flipped shorter one (one matrix-vector product)."""
    x, y = _arr(a), _arr(v)
    if x.ndim > 1 or y.ndim > 1:
        raise ValueError("object too deep for desired array")
    x, y = reshape(x, (-1,)), reshape(y, (-1,))
    if x.size == 0:
        raise ValueError("a cannot be empty")
    if y.size == 0:
        raise ValueError("v cannot be empty")
    if y.size > x.size:
        x, y = y, x
    n, m = x.size, y.size
    if mode not in ("full", "same", "valid"):
        raise ValueError(f"mode must be one of 'full', 'same', or 'valid' (got {mode!r})")
    dt = _dt.result_type(x.dtype, y.dtype)
    padded = pad(core.astype(x, dt, copy=False), (m - 1, m - 1))
    windows = Array(padded.mirror, (n + m - 1, m), (1, 1), padded.offset)
    from ..ops.matmul import matmul
    full = matmul(windows, flip(core.astype(y, dt, copy=False)))
    if mode == "full":
        return full
    if mode == "valid":
        return full[m - 1:n]
    start = (m - 1) // 2
    return full[start:start + n]


# ==== statistical ================================================================================================
def _nanfilled(x: Array, value) -> Array:
    return _ew("where", _ew("isnan", x), value, x) if x.dtype.kind == "f" else x


def nansum(a, axis=None, dtype=None, out=None, keepdims=False) -> Array:
    x = _arr(a)
    return _out(reduce("sum", _nanfilled(x, 0.0), axis, keepdims, dtype), out)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False) -> Array:
    """Mean of the non-NaN elements (NaN where a slice has none, as numpy does after its warning)."""
    x = _arr(a)
    if dtype is not None:
        x = core.astype(x, dtype, copy=False)
    if x.dtype.kind != "f":
        return _out(reduce("mean", x, axis, keepdims), out)
    total = reduce("sum", _nanfilled(x, 0.0), axis, keepdims)
    count = reduce("sum", _ew("logical_not", _ew("isnan", x)), axis, keepdims, x.dtype)
    return _out(_ew("divide", total, count), out)


def _nanextreme(name: str, a, axis, out, keepdims) -> Array:
    x = _arr(a)
    if x.dtype.kind != "f":
        return _out(reduce(name, x, axis, keepdims), out)
    nan = _ew("isnan", x)
    res = reduce(name, _nanfilled(x, -math.inf if name == "max" else math.inf), axis, keepdims)
    return _out(_ew("where", reduce("all", nan, axis, keepdims), math.nan, res), out)


def nanmax(a, axis=None, out=None, keepdims=False) -> Array:
    """Maximum ignoring NaNs (NaN where a slice is all NaN)."""
    return _nanextreme("max", a, axis, out, keepdims)


def nanmin(a, axis=None, out=None, keepdims=False) -> Array:
    """Minimum ignoring NaNs (NaN where a slice is all NaN)."""
    return _nanextreme("min", a, axis, out, keepdims)


def ptp(a, axis=None, out=None, keepdims=False) -> Array:
    """Range of values (max - min) along ``axis``."""
    x = _arr(a)
    return _out(_ew("subtract", reduce("max", x, axis, keepdims), reduce("min", x, axis, keepdims)), out)


def _lerp(a: Array, b: Array, t) -> Array:
    """numpy's quantile lerp: a + (b - a) t, or b - (b - a)(1 - t) where t >= 0.5 (exact at both ends)."""
    d = _ew("subtract", b, a)
    lo = _ew("add", a, _ew("multiply", d, t))
    hi = _ew("subtract", b, _ew("multiply", d, _ew("subtract", 1.0, t) if isinstance(t, Array) else 1.0 - t))
    return _ew("where", _ew("greater_equal", t, 0.5) if isinstance(t, Array) else t >= 0.5, hi, lo)


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
             weights=None) -> Array:
    """The q-th quantiles (``method='linear'``, numpy's default) along ``axis``: a sort along the axis, two
    gathers at floor/ceil of q (n - 1), numpy's lerp.  A slice holding a NaN gives NaN."""
    if method != "linear" or weights is not None:
        raise TypeError("wgarray's quantile implements method='linear' without weights")
    x = _float(_arr(a))
    qs = np.asarray(q.numpy() if isinstance(q, Array) else q, dtype=np.float64)
    if qs.ndim > 1:
        raise ValueError("q must be a scalar or 1d")
    if ((qs < 0) | (qs > 1)).any() or np.isnan(qs).any():
        raise ValueError("Quantiles must be in the range [0, 1]")
    if axis is None:
        x_ax = reshape(x, (-1,))
        axes: tuple[int, ...] = tuple(range(x.ndim))
        ax = 0
    else:
        axes = _reduced(axis, x.ndim)
        x_ax = moveaxis(x, list(axes), list(range(x.ndim - len(axes), x.ndim)))
        x_ax = reshape(x_ax, x_ax.shape[:x.ndim - len(axes)] + (-1,))
        ax = x_ax.ndim - 1
    n = x_ax.shape[ax]
    if n == 0:
        raise IndexError("quantile of an empty slice")
    s = moveaxis(sort(x_ax, axis=ax), ax, 0)  # the sorted axis first: s[i] is the i-th order statistic
    has_nan = _ew("isnan", s[n - 1])  # NaNs sort last
    results = []
    for qv in qs.reshape(-1):
        v = qv * (n - 1)
        lo = int(math.floor(v))
        hi = builtins.min(lo + 1, n - 1)
        gamma = float(v - lo)
        r = _lerp(s[lo], s[hi], gamma)
        results.append(_ew("where", has_nan, math.nan, r))
    res = stack(results, axis=0) if qs.ndim else results[0]
    res = core.astype(res, x.dtype, copy=False)
    if keepdims:
        kshape = tuple(1 if d in axes else x.shape[d] for d in range(x.ndim))
        res = reshape(res, qs.shape + kshape)
    return _out(res, out)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
               weights=None) -> Array:
    """The q-th percentiles (q in [0, 100]): ``quantile(a, q / 100)``."""
    qs = np.true_divide(q.numpy() if isinstance(q, Array) else q, 100)
    if (np.asarray(qs) < 0).any() or (np.asarray(qs) > 1).any():
        raise ValueError("Percentiles must be in the range [0, 100]")
    return quantile(a, qs, axis, out, overwrite_input, method, keepdims, weights=weights)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False) -> Array:
    """The median along ``axis``: the mean of the two middle order statistics (NaN for a slice with a NaN)."""
    return quantile(a, 0.5, axis, out, overwrite_input, "linear", keepdims)


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """Weighted mean sum(a w) / sum(w) along ``axis`` (``mean`` when no weights); ``returned`` also gives
    sum(w)."""
    x = _arr(a)
    if weights is None:
        avg = mean(x, axis=axis, keepdims=keepdims)
        if returned:
            n = math.prod(x.shape[d] for d in _reduced(axis, x.ndim))
            return avg, core.astype(broadcast_to(core.asarray(n, device=x.device), avg.shape), avg.dtype)
        return avg
    w = _arr(weights)
    x = _float(x)
    if w.shape != x.shape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        if w.ndim != 1:
            raise TypeError("1D weights expected when shapes of a and weights differ.")
        ax = _axis(axis, x.ndim)
        if w.shape[0] != x.shape[ax]:
            raise ValueError("Length of weights not compatible with specified axis.")
        w = reshape(w, tuple(x.shape[ax] if d == ax else 1 for d in range(x.ndim)))
    rdt = _dt.result_type(x.dtype, _float(w).dtype)
    x, w = core.astype(x, rdt, copy=False), core.astype(w, rdt, copy=False)
    wb = broadcast_to(w, x.shape)
    scl = reduce("sum", wb, axis, keepdims)
    avg = _ew("divide", reduce("sum", _ew("multiply", x, wb), axis, keepdims), scl)
    if returned:
        return avg, scl
    return avg


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None) -> Array:
    """Covariance matrix of the variables (rows, or columns when ``rowvar`` is False): centred X @ X.T / (N -
    ddof) as one matmul.  Frequency and analytic weights are not implemented."""
    if fweights is not None or aweights is not None:
        raise TypeError("wgarray's cov does not implement fweights/aweights")
    x = _arr(m)
    if x.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    x = atleast_2d(x)
    if not rowvar and x.shape[0] != 1:
        x = x.T
    if y is not None:
        yy = atleast_2d(_arr(y))
        if not rowvar and yy.shape[0] != 1:
            yy = yy.T
        x = concat([x, yy], axis=0)
    x = core.astype(x, dtype, copy=False) if dtype is not None else _float(x)
    if ddof is None:
        ddof = 0 if bias else 1
    n = x.shape[1]
    centred = _ew("subtract", x, mean(x, axis=1, keepdims=True))
    from ..ops.matmul import matmul
    c = _ew("divide", matmul(centred, centred.T), float(builtins.max(n - ddof, 0)))
    return reshape(c, ()) if c.shape == (1, 1) else c


def corrcoef(x, y=None, rowvar=True, *, dtype=None) -> Array:
    """Pearson correlation coefficients: cov / (stddev_i stddev_j), clipped to [-1, 1] as numpy does."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return _ew("divide", c, c)
    d = _ew("sqrt", _diagonal(c))
    c = _ew("divide", _ew("divide", c, d[:, None]), d[None, :])
    return _ew("clip", c, -1.0, 1.0, dtype=c.dtype)


# ==== searching ==================================================================================================
def _nanarg(name: str, a, axis, out, keepdims) -> Array:
    x = _arr(a)
    if x.dtype.kind != "f":
        return _out(argreduce(name, x, axis, keepdims), out)
    nan = _ew("isnan", x)
    if bool(reduce("any", reduce("all", nan, axis, False))):  # numpy's error: a one-element read
        raise ValueError("All-NaN slice encountered")
    filled = _nanfilled(x, -math.inf if name == "argmax" else math.inf)
    return _out(argreduce(name, filled, axis, keepdims), out)


def nanargmax(a, axis=None, out=None, *, keepdims=False) -> Array:
    return _nanarg("argmax", a, axis, out, keepdims)


def nanargmin(a, axis=None, out=None, *, keepdims=False) -> Array:
    return _nanarg("argmin", a, axis, out, keepdims)


def unravel_index(indices, shape, order: str = "C") -> tuple[Array, ...]:
    """Flat indices -> a tuple of coordinate arrays (numpy's ``unravel_index``): a remainder and a floor division a
    dimension, on the device (Dask's ``argmax`` of a whole array unravels each chunk's flat index this way)."""
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    dims = tuple(operator.index(n) for n in ((shape,) if isinstance(shape, (int, np.integer)) else shape))
    if builtins.any(n < 0 for n in dims):
        raise ValueError("dimensions must be non-negative")
    idx = _arr(indices)
    if idx.dtype.kind not in "iu":
        raise TypeError(f"only int indices permitted, not {idx.dtype.name}")
    coords: list[Array] = []
    for n in (reversed(dims) if order == "C" else dims):
        coords.append(_ew("remainder", idx, n) if n else idx)
        idx = _ew("floor_divide", idx, n) if n else idx
    return tuple(reversed(coords)) if order == "C" else tuple(coords)


def ravel_multi_index(multi_index, dims, mode="raise", order: str = "C") -> Array:
    """Coordinate arrays -> flat indices (numpy's ``ravel_multi_index``), ``mode`` per dimension or for all:
    ``raise`` (one 4-byte read of "any out of bounds"), ``wrap`` or ``clip``."""
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    dims = tuple(operator.index(n) for n in dims)
    coords = [_arr(c) for c in multi_index]
    if len(coords) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    strides = [math.prod(dims[i + 1:]) if order == "C" else math.prod(dims[:i]) for i in range(len(dims))]
    flat: Array | None = None
    for c, n, m, st in zip(coords, dims, modes, strides):
        if c.dtype.kind not in "iu":
            raise TypeError(f"only int indices permitted, not {c.dtype.name}")
        if m == "wrap":
            c = _ew("remainder", c, n)
        elif m == "clip":
            c = _ew("minimum", _ew("maximum", c, 0), n - 1)
        elif m == "raise":
            if builtins.bool(reduce("any", _ew("logical_or", _ew("less", c, 0), _ew("greater_equal", c, n)),
                                    None, False)):
                raise ValueError("invalid entry in coordinates array")
        else:
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap', not {m!r}")
        term = _ew("multiply", c, st)
        flat = term if flat is None else _ew("add", flat, term)
    if flat is None:
        raise ValueError("ravel_multi_index needs at least one dimension")
    return flat


def argwhere(a) -> Array:
    """Indices of the nonzero elements, one row each (shape (N, a.ndim))."""
    x = _arr(a)
    if x.ndim == 0:
        return argwhere(reshape(x, (1,)))[:, :0]
    return stack(list(nonzero(x)), axis=1)


def _counts_between(sorted_x: Array, edges: Array) -> Array:
    """How many of the sorted values fall in each [edges[i], edges[i+1]) (the last bin closed)."""
    left = searchsorted(sorted_x, edges, side="left")
    last = searchsorted(sorted_x, edges[-1:], side="right")
    pos = concat([left[:-1], last], axis=0)
    return _ew("subtract", pos[1:], pos[:-1])


def histogram(a, bins=10, range=None, density=None, weights=None):
    """numpy's histogram: (counts, edges).  Equal-width edges from ``range`` or the data's min/max (read back:
    two scalars), or given edges; each value lands in [edges[i], edges[i+1]) by a binary search in the sorted
    data, the last bin closed.  Counts are int32 (wgarray's index dtype), or the weights' float dtype."""
    x = reshape(_arr(a), (-1,))
    dev = x.device
    fdt = _float(x).dtype
    if isinstance(bins, (int, np.integer)) and not isinstance(bins, bool):
        nb = operator.index(bins)
        if nb < 1:
            raise ValueError("`bins` must be positive, when an integer")
        if range is not None:
            lo, hi = (float(v) for v in range)
            if lo > hi:
                raise ValueError("max must be larger than min in range parameter.")
            if not (math.isfinite(lo) and math.isfinite(hi)):
                raise ValueError(f"supplied range of [{lo}, {hi}] is not finite")
        elif x.size == 0:
            lo, hi = 0.0, 1.0
        else:
            lo, hi = (float(v) for v in stack([reduce("min", x), reduce("max", x)]).numpy())
            if not (math.isfinite(lo) and math.isfinite(hi)):
                raise ValueError(f"autodetected range of [{lo}, {hi}] is not finite")
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        edges = linspace(lo, hi, nb + 1, dtype=fdt, device=dev)
    else:
        edges = _arr(bins)
        if edges.ndim != 1:
            raise ValueError("`bins` must be 1d, when an array")
        if edges.size > 1 and bool(reduce("any", _ew("greater", edges[:-1], edges[1:]))):
            raise ValueError("`bins` must increase monotonically, when an array")
    if x.dtype.kind in "biu" and edges.dtype.kind == "f":
        x = core.astype(x, edges.dtype)
    if weights is None:
        counts = _counts_between(sort(x), edges)
    else:
        w = reshape(_arr(weights), (-1,))
        if w.shape != x.shape:
            raise ValueError("weights should have the same shape as a.")
        order = argsort(x)
        sx = take(x, order)
        cw = cumulative_sum(take(_float(w), order), include_initial=True)
        left = searchsorted(sx, edges, side="left")
        last = searchsorted(sx, edges[-1:], side="right")
        pos = concat([left[:-1], last], axis=0)
        csum = take(cw, pos)
        counts = _ew("subtract", csum[1:], csum[:-1])
    if density:
        widths = _ew("subtract", edges[1:], edges[:-1])
        c = _float(counts)
        return _ew("divide", _ew("divide", c, reduce("sum", c)), widths), edges
    return counts, edges


def bincount(x, weights=None, minlength: int = 0) -> Array:
    """Occurrences of each value 0..max(x) in the non-negative integer array x (weights summed instead when
    given): a sort and a binary search of 0..n; the length n reads max(x) back (numpy's shape needs it)."""
    v = _arr(x)
    if v.ndim != 1:
        raise ValueError("object too deep for desired array" if v.ndim > 1 else "object of too small depth")
    if v.dtype.kind not in "iub":
        raise TypeError("Cannot cast array data from dtype('float') to dtype('int64') according to the rule 'safe'")
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    if v.size:
        lo, hi = (int(t) for t in stack([reduce("min", v), reduce("max", v)]).numpy())
        if lo < 0:
            raise ValueError("'list' argument must have no negative elements")
    else:
        hi = -1
    n = builtins.max(hi + 1, minlength)
    probes = core.new_array((n + 1,), _dt.int32 if v.dtype.itemsize <= 4 else v.dtype, v.device)
    core.ramp(probes, 0, 1, probes.dtype)
    if weights is None:
        pos = searchsorted(sort(v), probes, side="left")
        return _ew("subtract", pos[1:], pos[:-1])
    w = _arr(weights)
    if w.shape != v.shape:
        raise ValueError("The weights and list don't have the same length.")
    order = argsort(v)
    cw = cumulative_sum(take(_float(w), order), include_initial=True)
    pos = searchsorted(take(v, order), probes, side="left")
    cs = take(cw, pos)
    return _ew("subtract", cs[1:], cs[:-1])


def digitize(x, bins, right: bool = False) -> Array:
    """Index of the bin each value falls in (bins increasing or decreasing; direction read back: one bool)."""
    xv, b = _arr(x), _arr(bins)
    if b.ndim != 1:
        raise ValueError("bins must be one-dimensional")
    side = "left" if right else "right"
    if b.size > 1:
        inc = _ew("less_equal", b[:-1], b[1:])
        dec = _ew("greater_equal", b[:-1], b[1:])
        up, down = (bool(t) for t in stack([reduce("all", inc), reduce("all", dec)]).numpy())
        if not (up or down):
            raise ValueError("bins must be monotonically increasing or decreasing")
        if down and not up:
            return _ew("subtract", b.shape[0], searchsorted(flip(b), xv, side=side))
    return searchsorted(b, xv, side=side)


# ==== host ==========================================================================================================
def asnumpy(a, stream: Any = None, order="C", out=None) -> np.ndarray:
    """A numpy copy of ``a`` (CuPy's name for the explicit download; numpy input passes through)."""
    res = a.numpy() if isinstance(a, Array) else np.asarray(a)
    if out is not None:
        out[...] = res
        return out
    return res


def get_array_module(*args):
    """``wgarray`` when any argument is a wgarray Array, else ``numpy`` (CuPy's idiom for generic code)."""
    import wgarray
    return wgarray if builtins.any(isinstance(a, Array) for a in args) else np
