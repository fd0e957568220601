"""The fft extension against numpy.fft (pocketfft): every function, both complex dtypes, any axis of strided and
transposed views, n/s padding and truncation, the three norms, lengths from 1 to 2^20 (2^22 under slow), the
frequency helpers and shifts, and numpy's exceptions for bad input.

Tolerance: relative L2 error (over the whole result) at most C log2(L) eps of the compute precision, C = 1 and L
the transform's length (for Bluestein's lengths, with a prime factor above 7, the power-of-two convolution length
<= 4n: L = 4n); numpy computes float32 input in float32 too.  Measured: 0.05-0.2 log2(L) eps.  The frequency
helpers and shifts are exact.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

import wgarray as wg

from strategies import view_of

C = 1.0
LENGTHS = [1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 16, 60, 97]
REAL = [np.float32, np.float64]
CPLX = [np.complex64, np.complex128]
NORMS = [None, "backward", "ortho", "forward"]


def _eff(n: int) -> int:
    m = n
    for r in (2, 3, 5, 7):
        while m % r == 0:
            m //= r
    return n if m == 1 else 4 * n


def _eps(dtype) -> float:
    d = np.dtype(dtype)
    return float(np.finfo(np.float32 if d in (np.float32, np.complex64) else np.float64).eps)


def close(got, want, dtype, n: int) -> None:
    """got (a wgarray result) against numpy's within C log2(L) eps (relative L2), with numpy's shape and the
    expected dtype."""
    g = got.numpy()
    assert g.shape == want.shape, (g.shape, want.shape)
    assert g.dtype == np.dtype(dtype), (g.dtype, dtype)
    scale = np.linalg.norm(want)
    err = np.linalg.norm(g.astype(np.complex128) - want)
    bound = C * max(math.log2(_eff(max(n, 2))), 1.0) * _eps(dtype)
    assert err <= bound * scale or (scale == 0 and err == 0), (err / max(scale, 1e-300), bound)


def _signal(seed: int, shape, dtype) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


@st.composite
def signals(draw, dtypes, min_dims=1, max_dims=3):
    dtype = draw(st.sampled_from(dtypes))
    nd = draw(st.integers(min_dims, max_dims))
    shape = tuple(draw(st.sampled_from(LENGTHS + [0] if nd > 1 else LENGTHS)) for _ in range(nd))
    host = _signal(draw(st.integers(0, 2 ** 16)), shape, dtype)
    x, host = draw(view_of(host, wg.asarray(host).dtype))
    return x, host


def _cdt(dtype):
    return np.complex64 if np.dtype(dtype) in (np.float32, np.complex64) else np.complex128


def _rdt(dtype):
    return np.float32 if np.dtype(dtype) in (np.float32, np.complex64) else np.float64


# -- the module ------------------------------------------------------------------------------------------------------
def test_module():
    import wgarray.fft as f
    assert f is wg.fft
    for name in ("fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq",
                 "rfftfreq", "fftshift", "ifftshift"):
        assert callable(getattr(wg.fft, name)) and name in wg.fft.__all__


# -- one dimension ----------------------------------------------------------------------------------------------------
@given(signals(REAL + CPLX), st.data())
def test_fft_ifft(xs, data):
    x, host = xs
    axis = data.draw(st.integers(-host.ndim, host.ndim - 1))
    n = data.draw(st.sampled_from([None] + LENGTHS))
    norm = data.draw(st.sampled_from(NORMS))
    length = n or host.shape[axis]
    if length == 0:
        with pytest.raises(ValueError, match="Invalid number of FFT data points"):
            wg.fft.fft(x, n=n, axis=axis, norm=norm)
        return
    for mine, ref in ((wg.fft.fft, np.fft.fft), (wg.fft.ifft, np.fft.ifft)):
        close(mine(x, n=n, axis=axis, norm=norm), ref(host, n=n, axis=axis, norm=norm), _cdt(host.dtype), length)


@given(signals(REAL), st.data())
def test_rfft_irfft(xs, data):
    x, host = xs
    axis = data.draw(st.integers(-host.ndim, host.ndim - 1))
    n = data.draw(st.sampled_from([None] + LENGTHS))
    norm = data.draw(st.sampled_from(NORMS))
    if (n or host.shape[axis]) == 0:
        return
    length = n or host.shape[axis]
    close(wg.fft.rfft(x, n=n, axis=axis, norm=norm), np.fft.rfft(host, n=n, axis=axis, norm=norm),
          _cdt(host.dtype), length)
    spec = np.fft.rfft(host, n=length, axis=axis).astype(_cdt(host.dtype))
    m = data.draw(st.sampled_from([None] + LENGTHS))
    if (m or 2 * (spec.shape[axis] - 1)) == 0:
        with pytest.raises(ValueError, match="Invalid number of FFT data points"):
            wg.fft.irfft(wg.asarray(spec), n=m, axis=axis)
        return
    close(wg.fft.irfft(wg.asarray(spec), n=m, axis=axis, norm=norm), np.fft.irfft(spec, n=m, axis=axis, norm=norm),
          _rdt(host.dtype), m or 2 * (spec.shape[axis] - 1))


@given(signals(REAL + CPLX, max_dims=2), st.data())
def test_hfft_ihfft(xs, data):
    x, host = xs
    n = data.draw(st.sampled_from([None] + LENGTHS))
    norm = data.draw(st.sampled_from(NORMS))
    m = n or 2 * (host.shape[-1] - 1)
    if m < 1:  # no points (a 0-length axis gives m = -2): ValueError, as numpy
        with pytest.raises(ValueError):
            wg.fft.hfft(x, n=n, norm=norm)
    elif host.shape[-1] == 0:  # an empty axis zero-padded to n: all zeros (numpy 2.x reads uninitialised memory here)
        got = wg.fft.hfft(x, n=n, norm=norm).numpy()
        assert got.shape == host.shape[:-1] + (n,) and not got.any()
    else:
        close(wg.fft.hfft(x, n=n, norm=norm), np.fft.hfft(host, n=n, norm=norm), _rdt(host.dtype), m)
    if host.dtype.kind == "c":
        with pytest.raises(TypeError):
            wg.fft.ihfft(x)
    elif host.shape[-1] or n:
        close(wg.fft.ihfft(x, n=n, norm=norm), np.fft.ihfft(host, n=n, norm=norm), _cdt(host.dtype),
              n or host.shape[-1])


@pytest.mark.parametrize("dtype", CPLX)
@pytest.mark.parametrize("n", [7, 11, 13, 97, 1009, 12, 60, 360, 1000, 2048, 4096, 3 * 2 ** 11, 2 ** 14])
def test_lengths(n, dtype):
    host = _signal(n, (2, n), dtype)
    x = wg.asarray(host)
    close(wg.fft.fft(x), np.fft.fft(host), dtype, n)
    close(wg.fft.ifft(x, norm="ortho"), np.fft.ifft(host, norm="ortho"), dtype, n)
    real = host.real.copy()
    close(wg.fft.rfft(wg.asarray(real)), np.fft.rfft(real), dtype, n)


@pytest.mark.parametrize("dtype", CPLX)
def test_large_power_of_two(dtype):
    n = 2 ** 20 if dtype == np.complex64 else 2 ** 18
    host = _signal(1, (n,), dtype)
    x = wg.asarray(host)
    got = wg.fft.fft(x)
    close(got, np.fft.fft(host), dtype, n)
    close(wg.fft.ifft(got), host, dtype, n)  # the round trip


@pytest.mark.slow
def test_power_of_two_slow():
    n = 2 ** 22
    host = _signal(2, (n,), np.complex64)
    close(wg.fft.fft(wg.asarray(host)), np.fft.fft(host), np.complex64, n)
    real = host.real.copy()
    close(wg.fft.rfft(wg.asarray(real)), np.fft.rfft(real), np.complex64, n)


@given(signals(REAL + CPLX))
def test_round_trips(xs):
    x, host = xs
    n = host.shape[-1]
    if n == 0:  # no points along the transformed axis: numpy's ValueError, as for n = 0
        for fn in (wg.fft.fft, np.fft.fft):
            with pytest.raises(ValueError, match="Invalid number of FFT data points"):
                fn(x if fn is wg.fft.fft else host)
        return
    close(wg.fft.ifft(wg.fft.fft(x)), host.astype(_cdt(host.dtype)), _cdt(host.dtype), n)
    if host.dtype.kind == "f":
        close(wg.fft.irfft(wg.fft.rfft(x), n=n), host, host.dtype, n)


def test_exact_small_cases():
    # a delta transforms to ones, ones to a delta (exact in any order of summation)
    for dt in CPLX:
        d = np.zeros(16, dt)
        d[0] = 1
        assert np.array_equal(wg.fft.fft(wg.asarray(d)).numpy(), np.ones(16, dt))
        assert np.array_equal(wg.fft.fft(wg.asarray(np.ones(8, dt))).numpy(), np.fft.fft(np.ones(8, dt)))
        assert wg.fft.rfft(wg.asarray(np.ones(8, _rdt(dt)))).numpy()[0] == 8


def test_dtypes_and_promotion():
    assert wg.fft.fft(wg.asarray(np.ones(4, np.float32))).dtype is wg.complex64
    assert wg.fft.fft(wg.asarray(np.ones(4, np.float64))).dtype is wg.complex128
    assert wg.fft.rfft(wg.asarray(np.ones(4, np.float64))).dtype is wg.complex128
    assert wg.fft.irfft(wg.asarray(np.ones(4, np.complex64))).dtype is wg.float32
    assert wg.fft.hfft(wg.asarray(np.ones(4, np.complex128))).dtype is wg.float64
    # integer and bool input: accepted (numpy does), in the default floating dtype (numpy: complex128)
    for host in (np.arange(10), np.arange(10) % 3 == 0):
        got = wg.fft.fft(wg.asarray(host))
        assert got.dtype is wg.complex64
        close(got, np.fft.fft(host), np.complex64, 10)
        close(wg.fft.rfft(wg.asarray(host)), np.fft.rfft(host), np.complex64, 10)


def test_batches_and_axes():
    host = _signal(3, (6, 12, 5), np.complex64)
    base = wg.asarray(np.ascontiguousarray(host.transpose(2, 0, 1)))
    x = base.transpose((1, 2, 0))  # a transposed view equal to host
    for axis in (0, 1, 2, -1):
        close(wg.fft.fft(x, axis=axis), np.fft.fft(host, axis=axis), np.complex64, host.shape[axis])
        close(wg.fft.fft(x[::2, ::-3], axis=axis, n=7), np.fft.fft(host[::2, ::-3], axis=axis, n=7), np.complex64, 7)
    empty = np.zeros((0, 8), np.float32)
    assert wg.fft.fft(wg.asarray(empty)).shape == (0, 8)
    assert wg.fft.rfft(wg.asarray(empty)).shape == (0, 5)
    assert wg.fft.irfft(wg.asarray(np.zeros((3, 0, 5), np.complex64)), axis=-1).shape == (3, 0, 8)


# -- n dimensions -----------------------------------------------------------------------------------------------------
def _nd_args(data, host):
    """axes (a random subset in random order), s (None or lengths), norm, and the lengths transformed."""
    k = data.draw(st.integers(1, host.ndim))
    axes = data.draw(st.permutations(range(host.ndim)))[:k]
    s = data.draw(st.one_of(st.none(), st.lists(st.sampled_from(LENGTHS[:8]), min_size=k, max_size=k)))
    norm = data.draw(st.sampled_from(NORMS))
    return axes, s, norm, s or [host.shape[a] for a in axes]


@given(signals(REAL + CPLX, min_dims=2, max_dims=3), st.data())
def test_fftn_ifftn(xs, data):
    x, host = xs
    axes, s, norm, lengths = _nd_args(data, host)
    if 0 in lengths:
        with pytest.raises(ValueError):
            wg.fft.fftn(x, s=s, axes=axes, norm=norm)
        return
    L = math.prod(lengths)
    for mine, ref in ((wg.fft.fftn, np.fft.fftn), (wg.fft.ifftn, np.fft.ifftn)):
        close(mine(x, s=s, axes=axes, norm=norm), ref(host, s=s, axes=axes, norm=norm), _cdt(host.dtype), L)


@given(signals(REAL, min_dims=2, max_dims=3), st.data())
def test_rfftn_irfftn(xs, data):
    x, host = xs
    axes, s, norm, lengths = _nd_args(data, host)
    if 0 in lengths:
        return
    L = math.prod(lengths)
    close(wg.fft.rfftn(x, s=s, axes=axes, norm=norm), np.fft.rfftn(host, s=s, axes=axes, norm=norm),
          _cdt(host.dtype), L)
    spec = np.fft.rfftn(host, s=lengths, axes=axes).astype(_cdt(host.dtype))
    if s is None and spec.shape[axes[-1]] == 1:  # the default last length 2 (m - 1) is 0
        with pytest.raises(ValueError, match="Invalid number of FFT data points"):
            wg.fft.irfftn(wg.asarray(spec), axes=axes)
        return
    close(wg.fft.irfftn(wg.asarray(spec), s=s, axes=axes, norm=norm),
          np.fft.irfftn(spec, s=s, axes=axes, norm=norm), _rdt(host.dtype), L)


def test_nd_defaults():
    host = _signal(4, (4, 6, 5), np.float64)
    x = wg.asarray(host)
    close(wg.fft.fftn(x), np.fft.fftn(host), np.complex128, host.size)
    close(wg.fft.rfftn(x), np.fft.rfftn(host), np.complex128, host.size)
    spec = np.fft.rfftn(host)
    close(wg.fft.irfftn(wg.asarray(spec)), np.fft.irfftn(spec), np.float64, host.size)
    close(wg.fft.fftn(x, s=(3, 8)), np.fft.fftn(host, s=(3, 8), axes=(1, 2)), np.complex128, 24)


# -- frequencies and shifts -------------------------------------------------------------------------------------------
@given(st.integers(1, 40), st.sampled_from([1.0, 0.1, 2.5, 1e-3]))
def test_freqs(n, d):
    assert np.array_equal(wg.fft.fftfreq(n, d=d, dtype=wg.float64).numpy(), np.fft.fftfreq(n, d))
    assert np.array_equal(wg.fft.rfftfreq(n, d=d, dtype=wg.float64).numpy(), np.fft.rfftfreq(n, d))
    f = wg.fft.fftfreq(n, d=d)
    assert f.dtype is wg.float32
    np.testing.assert_allclose(f.numpy(), np.fft.fftfreq(n, d), rtol=2e-7)
    dev = wg.default_device()
    assert wg.fft.rfftfreq(n, device=dev).device is dev


@given(st.data())
def test_shifts(data):
    host = data.draw(st.sampled_from([np.arange(7), np.arange(24).reshape(4, 6), np.arange(60.).reshape(3, 4, 5)]))
    x, host = data.draw(view_of(host, wg.asarray(host).dtype))
    axes = data.draw(st.one_of(st.none(), st.integers(-host.ndim, host.ndim - 1),
                               st.permutations(range(host.ndim)).map(tuple)))
    assert np.array_equal(wg.fft.fftshift(x, axes=axes).numpy(), np.fft.fftshift(host, axes=axes))
    assert np.array_equal(wg.fft.ifftshift(x, axes=axes).numpy(), np.fft.ifftshift(host, axes=axes))
    assert np.array_equal(wg.fft.ifftshift(wg.fft.fftshift(x, axes=axes), axes=axes).numpy(), host)


# -- bad input --------------------------------------------------------------------------------------------------------
def test_bad_input():
    host = _signal(5, (3, 4), np.complex64)
    x = wg.asarray(host)
    for n in (0, -1):
        with pytest.raises(ValueError, match=r"Invalid number of FFT data points \(" + str(n)):
            wg.fft.fft(x, n=n)
        with pytest.raises(ValueError, match="Invalid number of FFT data points"):
            np.fft.fft(host, n=n)
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        wg.fft.fft(wg.asarray(np.zeros((3, 0), np.complex64)))
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        wg.fft.irfft(wg.asarray(np.ones(1, np.complex64)))
    with pytest.raises(ValueError, match="Invalid norm value"):
        wg.fft.fft(x, norm="unitary")
    with pytest.raises(np.exceptions.AxisError):
        wg.fft.fft(x, axis=2)
    with pytest.raises(np.exceptions.AxisError):
        wg.fft.fft(wg.asarray(np.complex64(1)))
    with pytest.raises(TypeError, match="real input"):
        wg.fft.rfft(x)
    with pytest.raises(TypeError, match="real input"):
        wg.fft.rfftn(x)
    with pytest.raises(TypeError):
        wg.fft.fft(x, n=2.5)
    with pytest.raises(ValueError, match="Shape and axes have different lengths"):
        wg.fft.fftn(x, s=(2, 2), axes=(0,))
    with pytest.raises(ZeroDivisionError):
        wg.fft.fftfreq(0)
    np.testing.assert_array_equal(x.numpy(), host)  # the input is intact and the device usable
    close(wg.fft.fft(x), np.fft.fft(host), np.complex64, 4)
