"""The FFT's tiled passes (``kernels/fft.py``: ``pass_plan`` and ``fft_tile.wgsl``) at lengths lavapipe does
quickly: the multi-pass (four-/six-step) decomposition is forced at 2^10-2^16 by lowering the planning capacity
(``capacity_limit``), and checked against numpy.fft within the suite's C log2(n) eps bound, for powers of two,
composite lengths of the odd radices (whose later passes store through the general, non-tiled address path),
batches of rows, and transforms along strided axes read in place (no transposing copy).  The plans themselves are
checked for their invariants and the dispatch count of a transform is the plan's pass count."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from test_fft import CPLX, _signal, close

import wgarray as wg
from wgarray.kernels import fft as K

SMOOTH = sorted({2 ** a * 3 ** b * 5 ** c * 7 ** d for a in range(15) for b in range(4) for c in range(3)
                 for d in range(3) if 16 <= 2 ** a * 3 ** b * 5 ** c * 7 ** d <= 1 << 12})


def _run(f, cap, *args, **kw):
    with K.capacity_limit(cap):
        return f(*args, **kw)


@pytest.mark.parametrize("n,cap,dtype", [(1 << 12, 256, np.complex64), (1 << 12, 256, np.complex128),
                                         (1 << 16, 1024, np.complex64), (6720, 256, np.complex128),
                                         (2401, 64, np.complex64), (1000, 64, np.complex64)])
def test_multipass_lengths(n, cap, dtype):
    itemsize = np.dtype(dtype).itemsize
    assert len(K.pass_plan(n, 1, cap, itemsize)) >= 2  # the decomposition really runs
    host = _signal(n, (n,), dtype)
    x = wg.asarray(host)
    close(_run(wg.fft.fft, cap, x), np.fft.fft(host), dtype, n)
    close(_run(wg.fft.ifft, cap, x, norm="ortho"), np.fft.ifft(host, norm="ortho"), dtype, n)
    assert np.array_equal(x.numpy(), host)  # the input is only read


@pytest.mark.parametrize("shape,axis", [((3, 4096), -1), ((4096, 3), 0), ((2, 1 << 12, 16), 1), ((5, 720, 7), 1),
                                        ((48, 1000), 0)])
def test_multipass_batches_and_strided_axes(shape, axis):
    host = _signal(sum(shape), shape, np.complex64)
    x = wg.asarray(host)
    for norm in (None, "forward"):
        close(_run(wg.fft.fft, 256, x, axis=axis, norm=norm), np.fft.fft(host, axis=axis, norm=norm), np.complex64,
              shape[axis])
    # a non-contiguous view takes the copying route, through the same passes
    v = x[..., ::2] if axis != -1 else x[::2]
    hv = host[..., ::2] if axis != -1 else host[::2]
    close(_run(wg.fft.ifft, 256, v, axis=axis), np.fft.ifft(hv, axis=axis), np.complex64, shape[axis])


def test_real_and_nd_through_the_passes():
    host = _signal(5, (64, 2048), np.float32)
    x = wg.asarray(host)
    close(_run(wg.fft.rfft, 128, x), np.fft.rfft(host), np.complex64, 2048)
    spec = np.fft.rfft(host).astype(np.complex64)
    close(_run(wg.fft.irfft, 128, wg.asarray(spec), n=2048), host, np.float32, 2048)
    c = _signal(6, (96, 80), np.complex128)
    close(_run(wg.fft.fftn, 64, wg.asarray(c)), np.fft.fftn(c), np.complex128, 96 * 80)
    close(_run(wg.fft.fft, 128, wg.asarray(c[:, :61])), np.fft.fft(c[:, :61]), np.complex128, 4 * 61)  # Bluestein


@settings(max_examples=8)
@given(st.sampled_from(SMOOTH), st.sampled_from([1, 2, 3, 8, 17]), st.sampled_from([64, 128, 256, 1024]),
       st.sampled_from(CPLX), st.booleans(), st.integers(0, 2 ** 16))
def test_multipass_property(n, inner, cap, dtype, inverse, seed):
    shape = (n, inner) if inner > 1 else (n,)
    host = _signal(seed, shape, dtype)
    f, ref = (wg.fft.ifft, np.fft.ifft) if inverse else (wg.fft.fft, np.fft.fft)
    close(_run(f, cap, wg.asarray(host), axis=0), ref(host, axis=0), dtype, n)


@given(st.sampled_from(SMOOTH + [1, 2, 3, 7, 1 << 20, 1 << 24, 3 ** 12]), st.sampled_from([1, 2, 5, 16, 4096]),
       st.sampled_from([64, 1024, 2048, 4096, 6144]), st.sampled_from([8, 16]))
def test_plan_invariants(n, inner, cap, itemsize):
    plan = K.pass_plan(n, inner, cap, itemsize)
    assert math.prod(L for L, _ in plan) == n
    for L, C in plan:
        assert L * C <= cap and C >= 1 and C & (C - 1) == 0 and C * itemsize <= 128
        if len(plan) > 1:  # the strided passes' rows are at least one 32-byte sector
            assert C * itemsize >= 32
    if inner == 1 and n <= cap:
        assert plan == [(n, 1)]


def test_issue_sizes_plan_in_three_passes():
    # 2^24 complex64 with lavapipe's 32 KiB or a 48 KiB GPU: three tiled passes (8 per-radix passes before)
    for cap in (4096, 6144):
        assert [L for L, _ in K.pass_plan(1 << 24, 1, cap, 8)] == [256, 256, 256]
        assert len(K.pass_plan(4096, 4096, cap, 8)) == 2  # the column axis of 4096^2
    assert K.pass_plan(4096, 1, 6144, 8) == [(4096, 1)]  # the row axis: one pass


def test_dispatches_are_the_passes():
    dev = wg.default_device()
    host = _signal(9, (1 << 14,), np.complex64)
    x = wg.asarray(host)
    cap = K.local_capacity(dev, 8)
    for shape, axis in (((1 << 14,), -1), ((128, 128), 0), ((128, 128), 1)):
        a = wg.asarray(host.reshape(shape))
        _run(wg.fft.fft, 512, a, axis=axis)  # warm: twiddle tables
        before = dev.stats()
        _run(wg.fft.fft, 512, a, axis=axis)
        inner = math.prod(shape[axis % len(shape) + 1:])
        assert (dev.stats() - before).dispatches == len(K.pass_plan(shape[axis], inner, 512, 8))
    if cap >= 128 * 16:  # lavapipe's and every GPU's: one pass an axis, no copies
        wg.fft.fftn(x.reshape((128, 128)))
        before = dev.stats()
        wg.fft.fftn(x.reshape((128, 128)))
        assert (dev.stats() - before).dispatches == 2
