"""Searching functions against numpy: nonzero (device compaction: a scan of the nonzero flags, only the count
read back), count_nonzero, searchsorted (a WGSL binary search per element, NaNs last like sort), and that
where/argmax/argmin are in the namespace.  Index results are int32."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import wgarray as wg

from strategies import dtypes, shapes, values, view_of


@st.composite
def sparse(draw, dtype, shape):
    """Values with many zeros (and -0.0, NaN for floats: NaN is nonzero, -0.0 is zero)."""
    host = draw(values(dtype, shape))
    zero = draw(st.lists(st.booleans(), min_size=host.size, max_size=host.size))
    flat = host.reshape(-1).copy()
    flat[np.array(zero, dtype=bool)] = 0
    return flat.reshape(shape)


def _device_only(h: np.ndarray, dtype) -> wg.Array:
    """A device-resident copy (no host side), so transfer counts only see the op."""
    x = wg.asarray(h, dtype=dtype)
    return wg.astype(x, dtype, copy=True)


@given(data=st.data())
def test_nonzero_matches_numpy(data):
    dtype = data.draw(dtypes(), label="dtype")
    shape = data.draw(shapes(min_dims=1, max_dims=4, max_side=6), label="shape")
    host = data.draw(sparse(dtype, shape), label="x")
    x, host = data.draw(view_of(host, dtype), label="view")
    got = wg.nonzero(x)
    want = np.nonzero(host)
    assert len(got) == len(want) == host.ndim
    for g, w in zip(got, want):
        assert g.dtype == wg.int32
        np.testing.assert_array_equal(g.numpy(), w.astype(np.int32))


@pytest.mark.parametrize("n", [5000, 70001])
def test_nonzero_large(n):
    rng = np.random.default_rng(n)
    h = (rng.random((n // 7 + 1, 7)) < 0.3).astype(np.float32) * rng.random((n // 7 + 1, 7), dtype=np.float32)
    (gi, gj), (wi, wj) = wg.nonzero(wg.asarray(h)[::-1]), np.nonzero(h[::-1])
    np.testing.assert_array_equal(gi.numpy(), wi)
    np.testing.assert_array_equal(gj.numpy(), wj)


def test_nonzero_downloads_only_the_count():
    rng = np.random.default_rng(0)
    h = rng.integers(0, 3, (300, 70)).astype(np.int32)
    x = _device_only(h, wg.int32)
    dev = wg.default_device()
    before = dev.stats()
    i, j = wg.nonzero(x)
    delta = dev.stats() - before
    assert delta.downloads == 1 and delta.bytes_downloaded == 4, delta
    assert delta.uploads == 0, delta
    assert i.residency == {"device"}
    np.testing.assert_array_equal(j.numpy(), np.nonzero(h)[1])


def test_nonzero_edge_cases():
    with pytest.raises(ValueError):
        wg.nonzero(wg.asarray(1))
    (e,) = wg.nonzero(wg.zeros((0,)))
    assert e.shape == (0,) and e.dtype == wg.int32
    a, b = wg.nonzero(wg.zeros((3, 4)))
    assert a.shape == b.shape == (0,)
    (n,) = wg.nonzero(wg.asarray([np.nan, -0.0, 0.0, 1.0], dtype=wg.float32))
    assert n.numpy().tolist() == [0, 3]


@given(data=st.data())
def test_count_nonzero(data):
    dtype = data.draw(dtypes(), label="dtype")
    shape = data.draw(shapes(min_dims=0, max_dims=3, max_side=6), label="shape")
    host = data.draw(sparse(dtype, shape) if shape else values(dtype, shape), label="x")
    x, host = data.draw(view_of(host, dtype), label="view")
    axis = data.draw(st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1) if shape else st.none(),
                               st.just(tuple(range(len(shape))))), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    got = wg.count_nonzero(x, axis=axis, keepdims=keepdims).numpy()
    want = np.count_nonzero(host, axis=axis, keepdims=keepdims)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, np.asarray(want, dtype=np.int32))


@given(data=st.data())
def test_searchsorted_matches_numpy(data):
    dtype = data.draw(dtypes("iuf"), label="dtype")
    n1 = data.draw(st.integers(0, 40), label="n1")
    pool = data.draw(values(dtype, (6,)), label="pool")
    pick = data.draw(st.lists(st.integers(0, 5), min_size=n1, max_size=n1), label="pick")
    x1 = np.sort(pool[np.array(pick, dtype=np.intp)])  # duplicates; numpy sorts NaNs last
    shape = data.draw(shapes(min_dims=0, max_dims=3, max_side=5), label="x2 shape")
    x2 = data.draw(values(dtype, shape), label="x2")
    if data.draw(st.booleans(), label="x2 from x1") and n1 and x2.size:
        x2.reshape(-1)[:] = x1[np.arange(x2.size) % n1]
    side = data.draw(st.sampled_from(["left", "right"]), label="side")
    v2, x2 = data.draw(view_of(x2, dtype), label="x2 view")
    big = np.zeros(2 * n1 + 1, dtype=x1.dtype)
    big[1::2] = x1
    v1 = wg.asarray(big)[1::2]  # a strided x1
    got = wg.searchsorted(v1, v2, side=side).numpy()
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, np.searchsorted(x1, x2, side=side).astype(np.int32))


@given(data=st.data())
def test_searchsorted_sorter(data):
    dtype = data.draw(dtypes("iuf"), label="dtype")
    n1 = data.draw(st.integers(1, 30), label="n1")
    x1 = data.draw(values(dtype, (n1,)), label="x1")
    x2 = data.draw(values(dtype, (7,)), label="x2")
    sorter = np.argsort(x1, kind="stable")
    side = data.draw(st.sampled_from(["left", "right"]), label="side")
    got = wg.searchsorted(wg.asarray(x1), wg.asarray(x2), side=side, sorter=wg.asarray(sorter.astype(np.int32)))
    np.testing.assert_array_equal(got.numpy(), np.searchsorted(x1, x2, side=side, sorter=sorter))


def test_searchsorted_mixed_dtypes_signed_zero_and_large():
    x1 = np.array([-3, -1, 0, 0, 2, 5], dtype=np.int16)
    x2 = np.array([-0.0, 0.0, -1.5, 5.0, 6.0, np.nan], dtype=np.float32)
    for side in ("left", "right"):
        got = wg.searchsorted(wg.asarray(x1), wg.asarray(x2), side=side).numpy()
        np.testing.assert_array_equal(got, np.searchsorted(x1.astype(np.float32), x2, side=side))
    assert wg.searchsorted(wg.asarray(x1), 2).item() == 4
    rng = np.random.default_rng(5)
    s = np.sort(rng.integers(0, 1000, 100000)).astype(np.int32)
    q = rng.integers(-5, 1005, (70, 80)).astype(np.int32)
    np.testing.assert_array_equal(wg.searchsorted(wg.asarray(s), wg.asarray(q), side="right").numpy(),
                                  np.searchsorted(s, q, side="right"))
    with pytest.raises(ValueError):
        wg.searchsorted(wg.asarray(x1), wg.asarray(x2), side="middle")
    with pytest.raises(ValueError):
        wg.searchsorted(wg.zeros((2, 2)), wg.zeros(3))


def test_where_argmax_argmin_exist():
    h = np.array([[3.0, np.nan, 1.0], [2.0, 2.0, -1.0]], dtype=np.float32)
    x = wg.asarray(h)
    np.testing.assert_array_equal(wg.argmax(x, axis=1).numpy(), np.argmax(h, axis=1))
    np.testing.assert_array_equal(wg.argmin(x, axis=0).numpy(), np.argmin(h, axis=0))
    np.testing.assert_array_equal(wg.where(x > 1.5, x, 0.0).numpy(), np.where(h > 1.5, h, 0.0).astype(np.float32))
    assert {"argmax", "argmin", "nonzero", "count_nonzero", "searchsorted", "where"} <= set(dir(wg))
