"""sort / argsort (WGSL bitonic sort of (key, index) pairs) against numpy's stable sort.

Order (documented in wgarray/_sorting.py): ascending puts NaNs last, descending first; -0.0 == 0.0; always
stable, descending too (equal values keep their original order).  The descending reference is the standard's
reference implementation: flip, stable argsort, flip back.  Sorted values are compared bit for bit (the stable
order fixes where -0.0 and 0.0 go), argsort results exactly (int32).
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import wgarray as wg

from strategies import assert_same, dtypes, shapes, values, view_of


def ref_argsort(a: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    if a.ndim == 0:
        return np.zeros((), dtype=np.int32)
    if not descending:
        return np.argsort(a, axis=axis, kind="stable").astype(np.int32)
    r = np.flip(np.argsort(np.flip(a, axis=axis), axis=axis, kind="stable"), axis=axis)
    return (a.shape[axis] - 1 - r).astype(np.int32)


def ref_sort(a: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    if a.ndim == 0:
        return a.copy()
    return np.take_along_axis(a, ref_argsort(a, axis, descending).astype(np.intp), axis=axis)


@st.composite
def sortable(draw, dtype, shape):
    """Values with many duplicates (drawn from a small pool) or anything (extremes, NaN, inf, -0.0)."""
    if draw(st.booleans()):
        return draw(values(dtype, shape))
    full = draw(values(dtype, (5,)))
    if dtype.kind == "f":
        full = np.concatenate([full, np.array([np.nan, -0.0, 0.0, -np.inf], dtype=dtype.numpy)])
    pick = draw(st.lists(st.integers(0, len(full) - 1), min_size=int(np.prod(shape)),
                         max_size=int(np.prod(shape))))
    return full[np.array(pick, dtype=np.intp)].reshape(shape)


@given(data=st.data())
def test_sort_argsort_match_numpy(data):
    dtype = data.draw(dtypes(), label="dtype")
    shape = data.draw(shapes(min_dims=0, max_dims=3, max_side=9), label="shape")
    axis = data.draw(st.integers(-max(len(shape), 1), max(len(shape), 1) - 1), label="axis")
    descending = data.draw(st.booleans(), label="descending")
    host = data.draw(sortable(dtype, shape), label="x")
    x, host = data.draw(view_of(host, dtype), label="view")
    kwargs = {"descending": descending, "stable": data.draw(st.booleans(), label="stable")}
    if axis != -1 or data.draw(st.booleans()):
        kwargs["axis"] = axis
    got_i = wg.argsort(x, **kwargs).numpy()
    want_i = ref_argsort(host, axis, descending)
    assert got_i.dtype == np.int32
    np.testing.assert_array_equal(got_i, want_i)
    assert_same(wg.sort(x, **kwargs).numpy(), ref_sort(host, axis, descending))


@pytest.mark.parametrize("n", [1000, 1025, 5000, 70000])
@pytest.mark.parametrize("descending", [False, True])
def test_long_rows(n, descending):
    """Rows longer than one workgroup tile (1024 pairs): global merge steps, padding to a power of two."""
    rng = np.random.default_rng(n)
    a = rng.integers(-50, 50, n).astype(np.float32)  # many duplicates: stability matters
    a[rng.random(n) < 0.05] = np.nan
    a[rng.random(n) < 0.05] = -0.0
    x = wg.asarray(a)
    np.testing.assert_array_equal(wg.argsort(x, descending=descending).numpy(), ref_argsort(a, 0, descending))
    assert_same(wg.sort(x, descending=descending).numpy(), ref_sort(a, 0, descending))


def test_long_rows_64bit_and_strided():
    rng = np.random.default_rng(7)
    a = rng.integers(-2**62, 2**62, (3, 5000), dtype=np.int64)
    a[:, ::3] = a[:, :1]  # duplicates
    x = wg.asarray(a)[:, ::-1]
    np.testing.assert_array_equal(wg.argsort(x).numpy(), ref_argsort(a[:, ::-1], -1, False))
    b = rng.random((5000, 3)) * 4
    b = np.floor(b)  # float64 with duplicates, sorted along the long, strided axis 0
    y = wg.asarray(b)
    np.testing.assert_array_equal(wg.argsort(y, axis=0, descending=True).numpy(), ref_argsort(b, 0, True))
    assert_same(wg.sort(y, axis=0).numpy(), ref_sort(b, 0, False))


def test_many_short_rows():
    rng = np.random.default_rng(3)
    a = rng.integers(0, 4, (20000, 5)).astype(np.uint16)
    np.testing.assert_array_equal(wg.argsort(wg.asarray(a), axis=1).numpy(), ref_argsort(a, 1, False))


def test_nan_and_signed_zero_order():
    a = np.array([0.0, np.nan, -1.0, -0.0, np.inf, np.nan, 0.0, -np.inf], dtype=np.float32)
    s = wg.sort(wg.asarray(a)).numpy()
    assert_same(s, np.array([-np.inf, -1.0, 0.0, -0.0, 0.0, np.inf, np.nan, np.nan], dtype=np.float32))
    d = wg.sort(wg.asarray(a), descending=True).numpy()
    assert_same(d, np.array([np.nan, np.nan, np.inf, 0.0, -0.0, 0.0, -1.0, -np.inf], dtype=np.float32))
    assert wg.argsort(wg.asarray(a), descending=True).numpy().tolist() == [1, 5, 4, 0, 3, 6, 2, 7]


def test_empty_and_0d_and_errors():
    assert wg.sort(wg.zeros((3, 0))).shape == (3, 0)
    assert wg.argsort(wg.zeros((0, 4)), axis=0).shape == (0, 4)
    assert wg.sort(wg.asarray(2.5)).item() == 2.5
    assert wg.argsort(wg.asarray(2.5)).item() == 0
    with pytest.raises(np.exceptions.AxisError):
        wg.sort(wg.zeros((2, 3)), axis=2)
    with pytest.raises(TypeError):
        wg.argsort(wg.zeros((2, 3)), axis=None)


def test_result_stays_on_device():
    x = wg.asarray(np.arange(3000, 0, -1, dtype=np.int32)) + 0
    dev = wg.default_device()
    before = dev.stats()
    y = wg.sort(x)
    delta = dev.stats() - before
    # the radix sort plans its passes on the device: nothing travels either way
    assert y.residency == {"device"} and delta.bytes_downloaded == 0 and delta.bytes_uploaded == 0
    assert y[:3].numpy().tolist() == [1, 2, 3]
