"""Elementwise functions beyond test_elementwise.py's op table, against numpy: clip, nextafter, real, imag, conj,
that every elementwise function of the standard exists, and views with more dimensions than one kernel addresses.

clip and nextafter (a single rounding) are compared bit for bit.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import wgarray as wg

from strategies import array_and_host, check, nextafter, shapes, supported, values, view_of

FLOATS = supported([wg.float16, wg.float32, wg.float64])


@given(st.data())
def test_clip(data):
    x, host, dt = data.draw(array_and_host(kinds="iuf"))
    if dt.kind == "f":
        bound = st.one_of(st.none(), st.floats(width=32), st.sampled_from([math.nan, -0.0, math.inf]))
    else:
        info = np.iinfo(dt.numpy)
        bound = st.one_of(st.none(), st.integers(int(info.min), int(info.max)))
    lo, hi = data.draw(bound), data.draw(bound)
    use_array = data.draw(st.booleans())
    if use_array and lo is not None:
        lo_h = data.draw(values(dt, host.shape[data.draw(st.integers(0, host.ndim)):]))
        lo = wg.asarray(lo_h)
    else:
        lo_h = lo
    got = wg.clip(x, lo, hi)
    if lo_h is None and hi is None:
        want = host
    else:
        with np.errstate(invalid="ignore"):
            want = np.clip(host, np.asarray(lo_h, dt.numpy) if lo_h is not None else None,
                           np.asarray(hi, dt.numpy) if hi is not None else None)
    check_clip(got, want, dt)


def check_clip(got, want, dtype):
    """Values and NaNs exactly, zeros without their sign: when x and a bound tie at +-0, numpy returns either
    operand depending on the dtype and code path (np.minimum for a missing bound, SIMD or scalar loops), so the
    sign of such a zero is not part of clip's contract."""
    assert got.dtype is dtype
    np.testing.assert_array_equal(got.numpy(), np.asarray(want, dtype.numpy))


def test_clip_special_cases():
    x = wg.asarray(np.array([-5, 0, 5, 100], dtype=np.int8))
    check(wg.clip(x, -1000, 1000), np.array([-5, 0, 5, 100], np.int8), wg.int8)  # Python ints past int8's range
    check(wg.clip(x, max=3), np.array([-5, 0, 3, 3], np.int8), wg.int8)
    f = wg.asarray(np.array([np.nan, -0.0, 0.0, 2.0], np.float32))
    check_clip(wg.clip(f, 0.0, 1.0), np.clip(np.array([np.nan, -0.0, 0.0, 2.0], np.float32), 0.0, 1.0), wg.float32)
    check(wg.clip(f, np.nan, 1.0), np.full(4, np.nan, np.float32))
    check(wg.clip(f, None, np.nan), np.full(4, np.nan, np.float32))
    # wider bounds arrays: the result keeps x's dtype (the standard's rule)
    assert wg.clip(x, wg.asarray(np.array([0], np.int16))).dtype is wg.int8
    with pytest.raises(TypeError):
        wg.clip(wg.asarray([True, False]), 0, 1)


SPECIALS = {np.float16: [0.0, -0.0, np.inf, -np.inf, np.nan, 65504.0, 6e-8, 6.1e-5, 1.0],
            np.float32: [0.0, -0.0, np.inf, -np.inf, np.nan, 3.4028235e38, 1e-45, 1.1754944e-38, 1.0],
            np.float64: [0.0, -0.0, np.inf, -np.inf, np.nan, 1.7976931348623157e308, 5e-324, 2.2250738585072014e-308,
                         1.0]}


@given(st.data())
def test_nextafter_exact(data):
    dt = data.draw(st.sampled_from(FLOATS))
    shape = data.draw(shapes(max_dims=2, max_side=9))
    special = st.sampled_from(SPECIALS[dt.numpy.type] + [-v for v in SPECIALS[dt.numpy.type]])
    elems = st.one_of(st.floats(width=dt.bits, allow_subnormal=True), special)
    a = data.draw(hnp.arrays(dt.numpy, shape, elements=elems))
    b = data.draw(hnp.arrays(dt.numpy, shape, elements=elems))
    xa, a = data.draw(view_of(a, dt))
    xb, b = data.draw(view_of(b, dt))
    want = nextafter(a, b)  # float16's two zeros: y, whatever the installed numpy returns (strategies.nextafter)
    check(wg.nextafter(xa, xb), want, dt)
    with np.errstate(all="ignore"):
        check(wg.nextafter(xa, math.inf), np.nextafter(a, dt.numpy.type(math.inf)), dt)


def test_nextafter_zero_and_integers():
    z32 = np.array([0.0, -0.0, 0.0, -0.0], np.float32)
    w32 = np.array([-0.0, 0.0, 0.0, -0.0], np.float32)
    check(wg.nextafter(wg.asarray(z32), wg.asarray(w32)), np.nextafter(z32, w32), wg.float32)
    # float16: numpy's npy_half_nextafter returns x for two zeros up to numpy 2.4 but y in 2.5 (the GPU machine's
    # numpy), as C's nextafter and numpy's float32/64 do; wgarray returns y, pinned here rather than the installed
    # numpy's choice
    z16, w16 = z32.astype(np.float16), w32.astype(np.float16)
    check(wg.nextafter(wg.asarray(z16), wg.asarray(w16)), w16, wg.float16)
    # integers compute in the default float (documented policy)
    check(wg.nextafter(wg.asarray([1, 2]), wg.asarray([2, 0])),
          np.nextafter(np.array([1, 2], np.float32), np.array([2, 0], np.float32)), wg.float32)


@given(st.data())
def test_real_imag_conj(data):
    x, host, dt = data.draw(array_and_host(kinds="iuf"))
    check(wg.real(x), np.real(host), dt)
    check(wg.conj(x), np.conj(host), dt)
    check(wg.imag(x), np.zeros_like(host), dt)
    for fn in (wg.real, wg.imag, wg.conj):
        r = fn(x)
        assert r.mirror is not x.mirror


def test_every_standard_elementwise_function_exists():
    names = ("abs acos acosh add asin asinh atan atan2 atanh bitwise_and bitwise_left_shift bitwise_invert "
             "bitwise_or bitwise_right_shift bitwise_xor ceil clip conj copysign cos cosh divide equal exp expm1 "
             "floor floor_divide greater greater_equal hypot imag isfinite isinf isnan less less_equal log log1p "
             "log2 log10 logaddexp logical_and logical_not logical_or logical_xor maximum minimum multiply "
             "negative nextafter not_equal positive pow real reciprocal remainder round sign signbit sin sinh "
             "square sqrt subtract tan tanh trunc").split()
    x = wg.asarray(np.array([0.25, 0.5], np.float32))
    for name in names:
        fn = getattr(wg, name)
        if name.startswith(("bitwise", "logical")):
            arg = wg.asarray([True, False]) if name.startswith("logical") else wg.asarray([1, 2])
        else:
            arg = x
        if name == "clip":
            out = fn(arg, 0.3, 0.4)
        else:
            try:
                out = fn(arg)
            except TypeError:
                out = fn(arg, arg)
        assert isinstance(out, wg.Array) and out.shape == (2,), name


@pytest.mark.parametrize("nd", [9, 11])
def test_elementwise_beyond_the_kernels_dimensions(nd):
    """More non-mergeable dimensions than one kernel addresses (8): elementwise ops, copies and writes loop over the
    leading dimension (a regression: the fuzz target made a 9-d permuted view that could not even be copied)."""
    host = np.arange(2 ** nd, dtype=np.float32).reshape((2,) * nd)
    perm = tuple(range(0, nd, 2)) + tuple(range(1, nd, 2))
    x = wg.permute_dims(wg.asarray(host), perm)
    want = np.transpose(host, perm)
    check(x.copy(), want)
    check(x * wg.asarray(host[0]) + 1, want * host[0] + 1)
    y = wg.zeros((2,) * nd)
    y[...] = x
    y[1] = -x[0]
    want2 = want.copy()
    want2[1] = -want[0]
    check(y, want2)
