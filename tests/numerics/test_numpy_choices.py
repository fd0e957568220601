"""Issue 11, item 13: where wgarray and numpy may differ by design, the README's dtype policy states the choice and
these tests pin it: NaN placement of ``sort(descending=True)``, NaN in ``unique_values``, which zero ``max``/``min``
return, the sign of generated NaNs, ``linspace`` within 1 ulp of numpy, and ``floor_divide`` with one infinite
operand (the standard's special cases)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import wgarray as wg


def test_descending_sort_puts_nan_first():
    """NaN orders above every number (ascending: last), so descending puts it first, as ``np.sort(x)[::-1]`` and
    torch do (``-np.sort(-x)`` would put it last); the standard leaves it implementation-defined."""
    h = np.array([1.0, np.nan, -2.0, np.nan, 3.0, -np.inf], np.float32)
    got = wg.sort(wg.asarray(h), descending=True).numpy()
    np.testing.assert_array_equal(got, np.sort(h)[::-1])
    assert np.isnan(got[:2]).all()
    order = wg.argsort(wg.asarray(h), descending=True).numpy()
    np.testing.assert_array_equal(order, [1, 3, 4, 0, 2, 5])  # stable: equal keys (the NaNs) keep their order


def test_unique_values_keeps_each_nan():
    """The standard: each NaN is distinct.  That is ``np.unique_values``; ``np.unique`` merges them (equal_nan)."""
    h = np.array([np.nan, 1.0, np.nan, 1.0, -0.0, 0.0], np.float32)
    got = wg.unique_values(wg.asarray(h)).numpy()
    np.testing.assert_array_equal(np.sort(got), np.sort(np.unique_values(h)))
    assert np.isnan(got).sum() == 2 and got.size == 4


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from([0.0, -0.0, -1.0]), min_size=1, max_size=300), st.sampled_from(["max", "min"]))
def test_max_min_return_the_first_of_equal_zeros(values, name):
    """Equal extremes: the first one wins (argmax's rule), so of +0 and -0 the one seen first is returned.  numpy's
    answer follows its SIMD order (about 60% agreement on random inputs), so it is not the reference here."""
    h = np.array(values, np.float32)
    got = getattr(wg, name)(wg.asarray(h)).numpy()
    ext = getattr(np, name)(h)
    assert got == ext
    first = h[h == ext][0]
    assert np.signbit(got) == np.signbit(first)


def test_generated_nans_are_nans():
    """``sqrt(-1)`` and ``0/0`` are NaN; their sign bit is the device's canonical NaN (+NaN on lavapipe and on
    NVIDIA's Vulkan driver), where x86 numpy gives -NaN: compare NaNs with isnan, never by bits."""
    with np.errstate(all="ignore"):
        s = wg.sqrt(wg.asarray([-1.0, -4.0])).numpy()
        q = (wg.asarray([0.0, -0.0]) / 0.0).numpy()
    assert np.isnan(s).all() and np.isnan(q).all()
    if "llvmpipe" in str(wg.default_device()):
        assert not np.signbit(s).any() and not np.signbit(q).any()


def ulps(a: np.ndarray, b: np.ndarray) -> int:
    """The largest distance in units in the last place between a and b (same float dtype)."""
    if a.size == 0:
        return 0
    ia = a.view(np.int32 if a.dtype == np.float32 else np.int64).astype(np.int64)
    ib = b.view(ia.dtype if a.dtype == np.float64 else np.int32).astype(np.int64)
    # map the sign-magnitude bit patterns to a monotone integer line (both zeros -> 0)
    top = np.int64(1) << (31 if a.dtype == np.float32 else 63)
    ia = np.where(ia < 0, -(ia & (top - 1)), ia)
    ib = np.where(ib < 0, -(ib & (top - 1)), ib)
    return int(np.max(np.abs(ia - ib)))


FINITE = st.floats(-1e6, 1e6, allow_nan=False, width=32)


@pytest.mark.parametrize("dtype", [wg.float32, wg.float64])
@settings(max_examples=60, deadline=None)
@given(start=FINITE, stop=FINITE, num=st.integers(0, 300), endpoint=st.booleans())
def test_linspace_within_one_ulp_of_numpy(dtype, start, stop, num, endpoint):
    if not wg.default_device().supports(wg.float64):
        pytest.skip("the 1-ulp promise needs shader-f64 (README, dtype policy); without it linspace computes in f32")
    got = wg.linspace(start, stop, num, endpoint, dtype=dtype).numpy()
    want = np.linspace(start, stop, num, endpoint, dtype=dtype.numpy)
    assert got.shape == want.shape
    assert ulps(got, want) <= 1, (got, want)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_floor_divide_with_one_infinite_operand_is_floor_of_the_quotient(dtype):
    """The array API standard's special cases of floor_divide (and ``//``, ``//=``): +-inf // finite is an
    infinity and finite // +-inf a zero, each with the sign of x1 / x2 (floor(x1 / x2) itself); numpy's divmod gives
    NaN for the first and -1.0 for the second where the signs differ.  The standard's note allows either; wgarray
    takes the standard's, as torch does.  Everything else (both infinite, NaN, division by zero, finite operands)
    stays numpy's, bit for bit."""
    if not wg.default_device().supports(getattr(wg, dtype)):
        pytest.skip(f"{dtype} not on this device")
    inf = np.inf
    x = np.array([inf, inf, -inf, -inf, 1.0, 1.0, -1.0, -1.0, 0.0, -0.0, 5.0, inf, inf, np.nan, 7.0, -3.0], dtype)
    y = np.array([2.0, -2.0, 2.0, -2.0, inf, -inf, inf, -inf, inf, inf, 0.0, inf, np.nan, inf, 2.0, 2.0], dtype)
    want = np.array([inf, -inf, -inf, inf, 0.0, -0.0, -0.0, 0.0, 0.0, -0.0, inf, np.nan, np.nan, np.nan, 3.0, -2.0],
                    dtype)
    xs, ys = wg.asarray(x), wg.asarray(y)
    for got in (wg.floor_divide(xs, ys), xs // ys):
        g = got.numpy()
        assert g.dtype == want.dtype
        np.testing.assert_array_equal(np.isnan(g), np.isnan(want))
        ok = ~np.isnan(want)
        np.testing.assert_array_equal(g[ok], want[ok])
        np.testing.assert_array_equal(np.signbit(g[ok]), np.signbit(want[ok]))  # the zeros' signs too
    with np.errstate(all="ignore"):
        npy = np.floor_divide(x, y)
        differs = ~np.isclose(npy, want, equal_nan=True) | ((np.signbit(npy) != np.signbit(want)) & ~np.isnan(want))
    assert list(np.flatnonzero(differs)) == [0, 1, 2, 3, 5, 6]  # the six divergent cases, and only those
    z = wg.asarray(x.copy())
    z //= ys
    np.testing.assert_array_equal(np.isnan(z.numpy()), np.isnan(want))
