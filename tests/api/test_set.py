"""unique_all / unique_counts / unique_inverse / unique_values against numpy 2's Array API functions.

Semantics: every NaN is its own unique value (numpy's unique_* use equal_nan=False too), -0.0 and 0.0 are one
value; values come out sorted with NaNs last.  The representative of the {-0.0, 0.0} group is the first
occurrence (numpy's unstable sort may pick either), so values are compared with == (NaN-aware), and indices
(first occurrences), inverse indices (x's shape) and counts exactly; wgarray's index dtype is int32.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import wgarray as wg

from strategies import dtypes, shapes, values, view_of


def _same_values(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype, got.shape, want.shape)
    if got.dtype.kind == "f":
        ok = (got == want) | (np.isnan(got) & np.isnan(want))
        assert ok.all(), (got, want)
    else:
        np.testing.assert_array_equal(got, want)


def _same_index(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == np.int32 and got.shape == want.shape, (got.dtype, got.shape, want.shape)
    np.testing.assert_array_equal(got, want)


def _check_all(x, host):
    r = wg.unique_all(x)
    w = np.unique_all(host)
    _same_values(r.values.numpy(), w.values)
    _same_index(r.indices.numpy(), w.indices)
    _same_index(r.inverse_indices.numpy(), w.inverse_indices.reshape(host.shape))
    _same_index(r.counts.numpy(), w.counts)
    # the first occurrence really holds the unique value (also for the {-0.0, 0.0} group)
    flat = host.reshape(-1)
    _same_values(flat[w.indices], r.values.numpy())


@st.composite
def repetitive(draw, dtype, shape):
    pool = draw(values(dtype, (4,)))
    if dtype.kind == "f":
        pool = np.concatenate([pool, np.array([np.nan, -0.0, 0.0], dtype=dtype.numpy)])
    pick = draw(st.lists(st.integers(0, len(pool) - 1), min_size=int(np.prod(shape)), max_size=int(np.prod(shape))))
    return pool[np.array(pick, dtype=np.intp)].reshape(shape)


@given(data=st.data())
def test_unique_all_matches_numpy(data):
    dtype = data.draw(dtypes(), label="dtype")
    shape = data.draw(shapes(min_dims=0, max_dims=3, max_side=8), label="shape")
    host = data.draw(st.one_of(repetitive(dtype, shape), values(dtype, shape)), label="x")
    x, host = data.draw(view_of(host, dtype), label="view")
    _check_all(x, host)


@given(data=st.data())
def test_unique_counts_inverse_values(data):
    dtype = data.draw(dtypes(), label="dtype")
    shape = data.draw(shapes(min_dims=0, max_dims=3, max_side=8), label="shape")
    host = data.draw(repetitive(dtype, shape), label="x")
    x, host = data.draw(view_of(host, dtype), label="view")
    c, wc = wg.unique_counts(x), np.unique_counts(host)
    _same_values(c.values.numpy(), wc.values)
    _same_index(c.counts.numpy(), wc.counts)
    i, wi = wg.unique_inverse(x), np.unique_inverse(host)
    _same_values(i.values.numpy(), wi.values)
    inv = i.inverse_indices.numpy()
    # numpy's unique_inverse sorts unstably, so the NaN groups (one per NaN) may be numbered in another order:
    # exact outside NaNs, and values[inverse] must rebuild x everywhere
    nan = np.isnan(host) if host.dtype.kind == "f" else np.zeros(host.shape, bool)
    _same_index(np.where(nan, 0, inv).astype(np.int32), np.where(nan, 0, wi.inverse_indices.reshape(host.shape)))
    _same_values(i.values.numpy()[inv.astype(np.intp)], host)
    assert np.unique(inv[nan]).size == int(nan.sum())
    # numpy >= 2.3 may return unique_values unsorted (hash based; the standard leaves the order open)
    _same_values(wg.unique_values(x).numpy(), np.sort(np.unique_values(host)))
    assert c._fields == ("values", "counts") and i._fields == ("values", "inverse_indices")


@pytest.mark.parametrize("n", [5000, 70000])
def test_unique_large(n):
    rng = np.random.default_rng(n)
    h = rng.integers(0, n // 10, n).astype(np.float32)
    h[rng.random(n) < 0.01] = np.nan
    h[rng.random(n) < 0.01] = -0.0
    _check_all(wg.asarray(h), h)
    g = rng.integers(-3, 3, (n // 50, 50)).astype(np.int64)
    _check_all(wg.asarray(g)[:, ::-1], g[:, ::-1])


def test_nans_are_distinct_and_zero_is_one_value():
    h = np.array([np.nan, 0.0, -0.0, np.nan, 1.0, 0.0], dtype=np.float32)
    r = wg.unique_all(wg.asarray(h))
    v = r.values.numpy()
    assert v[0] == 0 and v[1] == 1 and np.isnan(v[2:]).all() and len(v) == 4
    assert r.counts.numpy().tolist() == [3, 1, 1, 1]
    assert r.indices.numpy().tolist() == [1, 4, 0, 3]
    assert r.inverse_indices.numpy().tolist() == [2, 0, 0, 3, 1, 0]
    assert not np.signbit(v[0])  # the first occurrence, 0.0, represents the group


def test_empty_and_0d():
    r = wg.unique_all(wg.zeros((0, 3)))
    assert r.values.shape == (0,) and r.indices.shape == (0,) and r.counts.shape == (0,)
    assert r.inverse_indices.shape == (0, 3)
    s = wg.unique_inverse(wg.asarray(7, dtype=wg.int16))
    assert s.values.numpy().tolist() == [7] and s.inverse_indices.shape == () and s.inverse_indices.item() == 0


def test_unique_downloads_only_the_count():
    h = np.random.default_rng(2).integers(0, 100, 20000).astype(np.int32)
    x = wg.astype(wg.asarray(h), wg.int32, copy=True)  # device-resident only
    dev = wg.default_device()
    before = dev.stats()
    r = wg.unique_all(x)
    delta = dev.stats() - before
    # the count only (the radix sort plans its passes on the device)
    assert delta.downloads == 1 and delta.bytes_downloaded == 4 and delta.uploads == 0, delta
    assert r.values.residency == {"device"}
    np.testing.assert_array_equal(r.counts.numpy(), np.unique_counts(h).counts)


_COMPLEX_PARTS = [0.0, -0.0, 1.0, -2.5, np.nan, np.inf]


@given(data=st.data())
def test_unique_complex_matches_numpy(data):
    """Complex input (the standard puts no dtype restriction on unique_*): values in numpy's (real, imag)
    order, first occurrences, inverse indices and counts exactly.  Values with a NaN part are each their own
    unique value and sort after the others, as in numpy (a stable lexicographic sort on both sides: numpy's
    unique_all sorts stably); -0.0 and 0.0 parts are equal, so values compare with ==."""
    dtype = data.draw(st.sampled_from([np.complex64, np.complex128]), label="dtype")
    shape = data.draw(shapes(min_dims=0, max_dims=2, max_side=6), label="shape")
    n = int(np.prod(shape))
    re = data.draw(st.lists(st.sampled_from(_COMPLEX_PARTS), min_size=n, max_size=n), label="re")
    im = data.draw(st.lists(st.sampled_from(_COMPLEX_PARTS), min_size=n, max_size=n), label="im")
    host = np.empty(shape, dtype)
    host.real[...] = np.array(re).reshape(shape)  # parts set directly: -0.0 and inf stay exact
    host.imag[...] = np.array(im).reshape(shape)
    r, w = wg.unique_all(wg.asarray(host)), np.unique_all(host)
    got = r.values.numpy()
    assert got.dtype == host.dtype and got.shape == w.values.shape
    assert ((got == w.values) | (np.isnan(got) & np.isnan(w.values))).all(), (got, w.values)
    _same_index(r.indices.numpy(), w.indices)
    _same_index(r.counts.numpy(), w.counts)
    inv = r.inverse_indices.numpy()
    assert inv.shape == host.shape
    rebuilt = got[inv.astype(np.intp)]
    assert ((rebuilt == host) | (np.isnan(rebuilt) & np.isnan(host))).all()
    v = wg.unique_values(wg.asarray(host)).numpy()
    assert ((v == got) | (np.isnan(v) & np.isnan(got))).all()
