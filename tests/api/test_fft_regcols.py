"""The register-held one-pass kernel for strided power-of-two axes (``kernels/fft.py``: ``reg_options``,
``reg_plan``, ``fft_regcols.wgsl``; the default from length 4096, 64 elements an invocation): forced from length
16 (16 elements an invocation unless a test says otherwise) at lengths lavapipe does quickly, against numpy.fft
within the suite's C log2(n) eps bound: 4096^2's own kernel (three radix-16 stages, four exchange rounds) on
narrow arrays, a smaller radix first (2048, 8192), more or fewer elements an invocation, rounds forced by a lower
capacity (whose writers' round depends on the invocation), partial column tiles, batches, both precisions, and
fftn / ifftn / rfftn / irfftn routed through it; a column transform is one dispatch; the default plans of the
H100's shapes (4096^2, 8192 x 4096, 16384 x 1024, 8192^2: one pass each axis) pinned."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st
from test_fft import _signal, close

import wgarray as wg
from wgarray.kernels import fft as K


def _on(**kw):
    return K.reg_options(**{"on": True, "min_length": 16, "max_length": 1 << 16, "per": 16, **kw})


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
    wg.fft.fft(x, axis=0)  # by default from 4096 only (2048^2 measured faster tiled)
    assert len(calls) == 3
    with K.reg_options(per=16):
        assert K.reg_plan(dev, 8, 2048, 8) is None       # below min_length (4096)
        assert K.reg_plan(dev, 8, 4096, 2) is None       # fewer columns than a tile
        assert K.reg_plan(dev, 8, 3 * 1024, 8) is None   # not a power of two
        assert K.reg_plan(dev, 8, 1 << 14, 8) is None    # 4096 invocations
        assert K.reg_plan(dev, 8, 4096, 8) is not None
    with K.reg_options(on=False):
        assert K.reg_plan(dev, 8, 4096, 8) is None
    with pytest.raises(ValueError), K.reg_options(radix=32):
        pass
    with pytest.raises(ValueError), K.reg_options(per=8, radix=16):
        pass
    with pytest.raises(ValueError), K.reg_options(bogus=1):
        pass
    assert K._reg == K.REG_DEFAULTS


def _h100():
    """The limits the plans read, as the H100 reports them through Vulkan."""
    limits = SimpleNamespace(max_compute_invocations_per_workgroup=1024, max_compute_workgroup_storage_size=49152)
    return SimpleNamespace(properties=SimpleNamespace(limits=limits))


def test_default_plans_of_the_h100_shapes():
    """The default plans of the shapes the H100 sweeps measured: a column axis of 4096 in ONE register pass (64
    elements an invocation), 2048 and the longer columns (8192 x 4096, 16384 x 1024, 8192^2: measured faster
    tiled) in the tiled passes; complex128 tiled.  ``max_length`` lifted: the register plans the longer ones had."""
    h = _h100()
    assert K.REG_DEFAULTS["on"] and K.REG_DEFAULTS["per"] == 64 and K.REG_DEFAULTS["min_length"] == 4096
    assert K.REG_DEFAULTS["max_length"] == 4096
    assert K.reg_plan(h, 8, 4096, 4096) == ((16, 16, 16), 4, 64, 4)  # 256 invocations, 4 rounds of 32 KiB
    assert K.reg_plan(h, 8, 4096, 4050) is not None  # a partial tile of columns
    for n, inner in ((2048, 2048), (8192, 4096), (8192, 8192), (16384, 1024), (1 << 15, 1024)):
        assert K.reg_plan(h, 8, n, inner) is None, (n, inner)
        assert K.reg_choice(h, 8, 1, n, inner) is None, (n, inner)
    assert K.reg_plan(h, 16, 4096, 4096) is None
    with K.reg_options(max_length=1 << 15):
        assert K.reg_plan(h, 8, 8192, 4096) == ((2, 16, 16, 16), 4, 64, 8)   # 512 invocations
        assert K.reg_plan(h, 8, 8192, 8192) == ((2, 16, 16, 16), 4, 64, 8)
        assert K.reg_plan(h, 8, 16384, 1024) == ((4, 16, 16, 16), 4, 64, 16)  # 1024 invocations
        assert K.reg_plan(h, 8, 1 << 15, 1024) is None  # 2048 invocations
    # the tiled passes where the register pass does not apply: two passes, no Bluestein, no copy (48 KiB)
    assert [K.plan(n, inner, 6144, 8).passes for n, inner in ((8192, 4096), (16384, 1024), (8192, 8192),
                                                              (1 << 15, 1024))] == [2] * 4
    assert [K.plan(1 << k, 1, 6144, 8).passes for k in (24, 25, 26)] == [3] * 3


def test_max_length_sends_longer_columns_to_the_tiled_passes(monkeypatch):
    """An axis longer than ``max_length`` runs the tiled passes (the register pass not called), the answer the same;
    lifting it takes the register pass again."""
    host = _signal(9, (64, 8), np.complex64)
    calls = []
    real = K._reg_pass
    monkeypatch.setattr(K, "_reg_pass", lambda *a: calls.append(a[5]) or real(*a))
    with _on(max_length=32):
        close(wg.fft.fft(wg.asarray(host), axis=0), np.fft.fft(host, axis=0), np.complex64, 64)
    assert calls == []
    with _on(max_length=64):
        close(wg.fft.fft(wg.asarray(host), axis=0), np.fft.fft(host, axis=0), np.complex64, 64)
    assert calls == [64]


def test_default_fftn_4096_is_two_dispatches_and_no_new_buffer(monkeypatch):
    """fftn of a contiguous (4096, C) complex64 array by default: the rows' one pass and the columns' one register
    pass, into the pool's buffers (a repeated call allocates none)."""
    dev = wg.default_device()
    host = _signal(8, (4096, 6), np.complex64)  # 6 columns: a whole tile and a partial one
    x = wg.asarray(host)
    calls = []
    real = K._reg_pass
    monkeypatch.setattr(K, "_reg_pass", lambda *a: calls.append(a[-1]) or real(*a))
    close(wg.fft.fftn(x), np.fft.fftn(host), np.complex64, 4096 * 6)
    before = dev.stats()
    y = wg.fft.fftn(x)
    dev.synchronize()
    d = dev.stats() - before
    assert (d.dispatches, d.buffers_allocated) == (2, 0)
    assert calls == [((16, 16, 16), 4, 64, K.reg_plan(dev, 8, 4096, 6)[3])] * 2
    close(y, np.fft.fftn(host), np.complex64, 4096 * 6)
    with K.reg_options(min_groups=3):  # 2 tiles of columns: the tiled passes
        close(wg.fft.fft(x, axis=0), np.fft.fft(host, axis=0), np.complex64, 4096)
    with K.reg_options(min_groups=2):
        wg.fft.fft(x, axis=0)
    assert len(calls) == 3
    with pytest.raises(ValueError), K.reg_options(min_groups=-1):
        pass


@settings(max_examples=6, deadline=None)
@given(st.sampled_from([64, 128, 256, 1024]), st.sampled_from([4, 5, 8, 17]), st.sampled_from([(16, 16), (16, 32),
       (8, 16), (4, 8), (8, 8)]), st.sampled_from([2, 4, 8]), st.sampled_from([64, 256, 4096]), st.booleans(),
       st.booleans(), st.integers(0, 2 ** 16))
def test_regcols_property(n, inner, rp, cols, cap, inverse, powers, seed):
    radix, per = rp
    host = _signal(seed, (n, inner), np.complex64)
    f, ref = (wg.fft.ifft, np.fft.ifft) if inverse else (wg.fft.fft, np.fft.fft)
    with _on(radix=radix, per=per, columns=cols, powers=powers), K.capacity_limit(cap):
        assume(K.reg_plan(wg.default_device(), 8, n, inner) is not None)  # the register pass itself, not the tiles
        close(f(wg.asarray(host), axis=0), ref(host, axis=0), np.complex64, n)


def test_forced_plans_and_bare_passes_take_the_tiles(monkeypatch):
    """The register pass is the default plans' choice only: under ``plan_style`` other than auto/legacy and under
    ``bare_passes`` (the benchmarks' memory-only ceiling) a column axis it would take runs the tiled passes."""
    calls = []
    real = K._reg_pass
    monkeypatch.setattr(K, "_reg_pass", lambda *a, **kw: (calls.append(1), real(*a, **kw))[1])
    host = _signal(4, (256, 5), np.complex64)
    with _on(per=16), K.capacity_limit(256):
        assert K.reg_plan(wg.default_device(), 8, 256, 5) is not None
        close(wg.fft.fft(wg.asarray(host), axis=0), np.fft.fft(host, axis=0), np.complex64, 256)
        assert calls  # the default: the register pass
        del calls[:]
        with K.plan_style("tiles"):
            close(wg.fft.fft(wg.asarray(host), axis=0), np.fft.fft(host, axis=0), np.complex64, 256)
        with K.bare_passes():
            wg.fft.fft(wg.asarray(host), axis=0).numpy()
    assert not calls
