"""The register-held one-pass kernel for strided power-of-two axes (``kernels/fft.py``: ``reg_options``,
``reg_plan``, ``fft_regcols.wgsl``; off by default): forced on at lengths lavapipe does quickly, against numpy.fft
within the suite's C log2(n) eps bound: 4096^2's own kernel (three radix-16 stages, four exchange rounds) on
narrow arrays, a smaller radix first (2048, 8192), more or fewer elements an invocation, rounds forced by a lower
capacity (whose writers' round depends on the invocation), partial column tiles, batches, both precisions, and
fftn / ifftn / rfftn / irfftn routed through it; a column transform is one dispatch."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from test_fft import _signal, close

import wgarray as wg
from wgarray.kernels import fft as K


def _on(**kw):
    return K.reg_options(on=True, min_length=16, **kw)


@pytest.mark.parametrize("shape,opts,cap", [
    ((4096, 4), {}, 0),                              # 4096^2's kernel: stages 16, 16, 16; 4 rounds at 32 KiB
    ((2, 2048, 6), {}, 0),                           # radices 8, 16, 16; a partial tile of columns; batches
    pytest.param((8192, 4), dict(per=32), 0, marks=pytest.mark.slow),  # 2, 16, 16, 16: 2 x 4 butterflies
    ((256, 8), dict(per=32, columns=8), 256),        # 8 rounds of 256: rounds of registers (b) static
    ((256, 5), {}, 256),                             # 4 rounds, one butterfly an invocation: rounds by invocation
    ((512, 4), dict(radix=8, per=8), 0),             # radix 8 throughout
    ((64, 4), dict(radix=4, per=4, columns=2), 64),  # radix 4, 2 columns, 2 rounds
    ((1024, 8), dict(fixed=True), 0),                # sizes as shader constants, whole tiles: no column guard
    ((2, 1024, 6), dict(fixed=True), 1024),          # constants with a partial tile: the guard stays
])
def test_regcols_against_numpy(shape, opts, cap):
    dev = wg.default_device()
    axis = len(shape) - 2
    host = _signal(len(shape) + shape[axis], shape, np.complex64)
    x = wg.asarray(host)
    fixed = K.tile_options(fixed=True) if opts.pop("fixed", False) else K.tile_options()
    with _on(**opts), fixed, K.capacity_limit(cap) if cap else K.capacity_limit(K.local_capacity(dev, 8)):
        assert K.reg_plan(dev, 8, shape[axis], shape[-1]) is not None  # the kernel really runs
        for norm in (None, "ortho"):
            close(wg.fft.fft(x, axis=axis, norm=norm), np.fft.fft(host, axis=axis, norm=norm), np.complex64,
                  shape[axis])
            close(wg.fft.ifft(x, axis=axis, norm=norm), np.fft.ifft(host, axis=axis, norm=norm), np.complex64,
                  shape[axis])
    assert np.array_equal(x.numpy(), host)  # the input is only read


def test_regcols_complex128_and_nd():
    c = _signal(3, (2048, 12), np.complex128)
    with _on():
        assert K.reg_plan(wg.default_device(), 16, 2048, 12) is None  # complex128: only where asked
    with _on(complex128=True):
        assert K.reg_plan(wg.default_device(), 16, 2048, 12) is not None
        close(wg.fft.fft(wg.asarray(c), axis=0), np.fft.fft(c, axis=0), np.complex128, 2048)
    r = _signal(4, (2048, 64), np.float32)
    z = _signal(5, (2, 2048, 16), np.complex64)
    with _on():
        close(wg.fft.fftn(wg.asarray(z), axes=(1, 2)), np.fft.fftn(z, axes=(1, 2)), np.complex64, 2048 * 16)
        close(wg.fft.ifftn(wg.asarray(z), axes=(1, 2)), np.fft.ifftn(z, axes=(1, 2)), np.complex64, 2048 * 16)
        close(wg.fft.rfftn(wg.asarray(r)), np.fft.rfftn(r), np.complex64, 2048 * 64)  # columns: 33, a partial tile
        spec = np.fft.rfftn(r).astype(np.complex64)
        close(wg.fft.irfftn(wg.asarray(spec), s=r.shape), r, np.float32, 2048 * 64)


def test_regcols_is_one_dispatch_and_only_where_it_applies(monkeypatch):
    dev = wg.default_device()
    x = wg.asarray(_signal(6, (2048, 8), np.complex64))
    calls = []
    real = K._reg_pass
    monkeypatch.setattr(K, "_reg_pass", lambda *a: calls.append(a[5]) or real(*a))
    with _on():
        wg.fft.fft(x, axis=0)  # warm: the twiddle table
        before = dev.stats()
        wg.fft.fft(x, axis=0)
        assert (dev.stats() - before).dispatches == 1
        wg.fft.fftn(x)  # the rows (contiguous) as before, the columns here
    assert calls == [2048] * 3
    wg.fft.fft(x, axis=0)  # off by default
    assert len(calls) == 3
    with K.reg_options(on=True):
        assert K.reg_plan(dev, 8, 1024, 8) is None       # below min_length (2048)
        assert K.reg_plan(dev, 8, 2048, 2) is None       # fewer columns than a tile
        assert K.reg_plan(dev, 8, 3 * 1024, 8) is None   # not a power of two
        assert K.reg_plan(dev, 8, 1 << 14, 8) is None    # 4096 invocations
        assert K.reg_plan(dev, 8, 2048, 8) is not None
    with pytest.raises(ValueError), K.reg_options(radix=32):
        pass
    with pytest.raises(ValueError), K.reg_options(per=8, radix=16):
        pass
    with pytest.raises(ValueError), K.reg_options(bogus=1):
        pass
    assert K._reg == K.REG_DEFAULTS


@settings(max_examples=6, deadline=None)
@given(st.sampled_from([64, 128, 256, 1024]), st.sampled_from([4, 5, 8, 17]), st.sampled_from([(16, 16), (16, 32),
       (8, 16), (4, 8), (8, 8)]), st.sampled_from([2, 4, 8]), st.sampled_from([64, 256, 4096]), st.booleans(),
       st.booleans(), st.integers(0, 2 ** 16))
def test_regcols_property(n, inner, rp, cols, cap, inverse, powers, seed):
    radix, per = rp
    host = _signal(seed, (n, inner), np.complex64)
    f, ref = (wg.fft.ifft, np.fft.ifft) if inverse else (wg.fft.fft, np.fft.fft)
    with _on(radix=radix, per=per, columns=cols, powers=powers), K.capacity_limit(cap):
        close(f(wg.asarray(host), axis=0), ref(host, axis=0), np.complex64, n)
