"""Linear algebra against numpy, in the main namespace and ``wg.linalg`` (the standard's extension):
matrix_transpose, diagonal, trace, outer, cross, vecdot, tensordot, vector_norm, matrix_norm (matmul itself:
test_linalg_matmul.py).

Exact results (copies, integer arithmetic, cross, outer) are compared bit for bit; sums of floats in another order
than numpy's (vecdot, tensordot, trace, norms) with a tolerance.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import wgarray as wg

from strategies import array_and_host, check, close, dtypes, reduction_args, shapes, values, view_of


def test_linalg_module():
    for name in ("matmul", "matrix_transpose", "tensordot", "vecdot"):
        assert getattr(wg, name) is getattr(wg.linalg, name)
    import wgarray.linalg as la
    assert la is wg.linalg


@given(st.data())
def test_matrix_transpose_and_diagonal(data):
    x, host, dt = data.draw(array_and_host(shapes(min_dims=2, max_dims=4, max_side=5)))
    got = wg.matrix_transpose(x)
    assert got.mirror is x.mirror
    check(got, np.swapaxes(host, -1, -2), dt)
    k = data.draw(st.integers(-7, 7))
    d = wg.linalg.diagonal(x, offset=k)
    assert d.mirror is x.mirror
    check(d, np.diagonal(host, offset=k, axis1=-2, axis2=-1), dt)
    if dt.kind in "iuf":
        check(wg.negative(d) if dt.kind != "u" else wg.positive(d),
              np.negative(np.diagonal(host, k, -2, -1)) if dt.kind != "u" else np.diagonal(host, k, -2, -1))


@given(st.data())
def test_trace(data):
    x, host, dt = data.draw(array_and_host(shapes(min_dims=2, max_dims=3, max_side=6), kinds="iuf", finite=True,
                                           small=True))
    k = data.draw(st.integers(-4, 4))
    got = wg.linalg.trace(x, offset=k)
    res = {"i": wg.int64 if dt.bits == 64 else wg.int32, "u": wg.uint64 if dt.bits == 64 else wg.uint32,
           "f": dt}[dt.kind]
    want = np.trace(host.astype(np.float64 if dt.kind == "f" else res.numpy), offset=k, axis1=-2, axis2=-1)
    if dt.kind == "f":
        close(got, want, dt, atol=1e-2 if dt.bits == 16 else 1e-5)
    else:
        check(got, want.astype(res.numpy), res)
    if dt.kind == "f":
        assert wg.linalg.trace(x, dtype=wg.float32).dtype is wg.float32


@given(st.data())
def test_outer_and_cross(data):
    dt = data.draw(dtypes("iuf"))
    a = data.draw(values(dt, (data.draw(st.integers(0, 5)),), finite=True))
    b = data.draw(values(dt, (data.draw(st.integers(0, 5)),), finite=True))
    xa, a = data.draw(view_of(a, dt))
    xb, b = data.draw(view_of(b, dt))
    with np.errstate(all="ignore"):
        check(wg.linalg.outer(xa, xb), np.outer(a, b), dt)
    # cross: 3-vectors along an axis, other dimensions broadcast
    shp = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=2, max_side=3))
    axis = data.draw(st.integers(-1 - min(len(s) for s in shp.input_shapes), -1))
    s1, s2 = (list(s) for s in shp.input_shapes)
    s1.insert(len(s1) + axis + 1, 3)
    s2.insert(len(s2) + axis + 1, 3)
    h1 = data.draw(values(dt, tuple(s1), finite=True))
    h2 = data.draw(values(dt, tuple(s2), finite=True))
    x1, h1 = data.draw(view_of(h1, dt))
    x2, h2 = data.draw(view_of(h2, dt))
    with np.errstate(all="ignore"):
        want = np.cross(h1, h2, axis=axis)
    check(wg.linalg.cross(x1, x2, axis=axis), want, dt)


def test_cross_errors():
    with pytest.raises(ValueError):
        wg.linalg.cross(wg.ones(2), wg.ones(2))
    with pytest.raises((ValueError, IndexError)):
        wg.linalg.cross(wg.ones((3, 3)), wg.ones((3, 3)), axis=-3)


@given(st.data())
def test_vecdot(data):
    dt = data.draw(dtypes("iuf"))
    shp = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=2, max_side=3))
    n = data.draw(st.integers(0, 8))
    axis = data.draw(st.integers(-1 - min(len(s) for s in shp.input_shapes), -1))
    s1, s2 = (list(s) for s in shp.input_shapes)
    s1.insert(len(s1) + axis + 1, n)
    s2.insert(len(s2) + axis + 1, n)
    small = dt.kind == "f"
    h1 = data.draw(values(dt, tuple(s1), finite=True, small=small))
    h2 = data.draw(values(dt, tuple(s2), finite=True, small=small))
    x1, h1 = data.draw(view_of(h1, dt))
    x2, h2 = data.draw(view_of(h2, dt))
    got = wg.vecdot(x1, x2, axis=axis)
    if dt.kind == "f":
        want = np.vecdot(h1.astype(np.float64), h2.astype(np.float64), axis=axis)
        close(got, want, dt, rtol=1e-2 if dt.bits == 16 else 1e-5, atol=n * (0.2 if dt.bits == 16 else 1e-3))
    else:
        with np.errstate(all="ignore"):
            want = np.vecdot(h1, h2, axis=axis)
        check(got, want, dt)


@given(st.data())
def test_tensordot(data):
    dt = data.draw(dtypes("iuf"))
    nc = data.draw(st.integers(0, 2))
    contracted = data.draw(st.lists(st.integers(0, 4), min_size=nc, max_size=nc))
    free1 = data.draw(st.lists(st.integers(0, 3), max_size=2))
    free2 = data.draw(st.lists(st.integers(0, 3), max_size=2))
    small = dt.kind == "f"
    h1 = data.draw(values(dt, tuple(free1 + contracted), finite=True, small=small))
    h2 = data.draw(values(dt, tuple(contracted + free2), finite=True, small=small))
    x1, h1 = data.draw(view_of(h1, dt))
    x2, h2 = data.draw(view_of(h2, dt))
    if data.draw(st.booleans()):
        axes = nc
    else:  # the pair form, with the contracted axes of x2 listed in a permuted order
        perm = data.draw(st.permutations(range(nc)))
        axes = ([len(free1) + p for p in perm], [p - nc - len(free2) for p in perm])  # x2's from its end
    got = wg.tensordot(x1, x2, axes=axes)
    if dt.kind == "f":
        want = np.tensordot(h1.astype(np.float64), h2.astype(np.float64), axes=axes)
        k = math.prod(contracted)
        close(got, want, dt, rtol=1e-2 if dt.bits == 16 else 1e-5, atol=k * (0.2 if dt.bits == 16 else 1e-3))
    else:
        wide = np.uint64 if dt.kind == "u" else np.int64
        with np.errstate(all="ignore"):
            want = np.tensordot(h1.astype(wide), h2.astype(wide), axes=axes).astype(dt.numpy)
        check(got, want, dt)
    with pytest.raises(ValueError):
        wg.tensordot(wg.ones((2, 3)), wg.ones((2, 3)), axes=1)


@given(st.data())
def test_vector_norm(data):
    x, host, dt = data.draw(array_and_host(shapes(max_dims=3, max_side=5), kinds="iuf", finite=True, small=True))
    axis = data.draw(reduction_args(host.ndim))
    ord = data.draw(st.sampled_from([2, 1, 0, math.inf, -math.inf, 3, 0.5, -1]))
    keepdims = data.draw(st.booleans())
    res = dt if dt.kind == "f" else wg.float32
    ref = host.astype(np.float64)
    axes = tuple(range(host.ndim)) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
    empty = any(host.shape[a] == 0 for a in axes) if host.ndim else False
    if empty and ord in (math.inf, -math.inf):
        with pytest.raises(ValueError):
            wg.linalg.vector_norm(x, axis=axis, ord=ord)
        return
    with np.errstate(all="ignore"):
        want = np.linalg.vector_norm(ref, axis=axis, ord=ord, keepdims=keepdims)
    got = wg.linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=ord)
    rtol = {16: 1e-2, 32: 1e-5, 64: 1e-12}[res.bits] * (10 if ord not in (0, 1, 2, math.inf, -math.inf) else 1)
    close(got, want, res, rtol=rtol, atol=rtol)


@given(st.data())
def test_matrix_norm(data):
    x, host, dt = data.draw(array_and_host(shapes(min_dims=2, max_dims=3, min_side=1, max_side=5), kinds="iuf",
                                           finite=True, small=True))
    ord = data.draw(st.sampled_from(["fro", 1, -1, math.inf, -math.inf]))
    keepdims = data.draw(st.booleans())
    res = dt if dt.kind == "f" else wg.float32
    want = np.linalg.matrix_norm(host.astype(np.float64), ord=ord, keepdims=keepdims)
    rtol = {16: 1e-2, 32: 1e-5, 64: 1e-12}[res.bits]
    close(wg.linalg.matrix_norm(x, ord=ord, keepdims=keepdims), want, res, rtol=rtol, atol=rtol)


def test_matrix_norm_invalid_order():  # ord = 2, -2, 'nuc': tests/api/test_linalg_spectral.py
    with pytest.raises(ValueError):
        wg.linalg.matrix_norm(wg.ones((2, 2)), ord="max")


def test_matmul_main_namespace():
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    check(wg.matmul(wg.asarray(a), wg.asarray(a.T)), a @ a.T, wg.int32)
    check(wg.linalg.matmul(wg.asarray(a), wg.asarray(a[0])), a @ a[0], wg.int32)
