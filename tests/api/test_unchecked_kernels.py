"""The ``UNCHECKED`` knobs of the FFT (``kernels/fft.py``: fft_tile / fft_regcols) and the GPU radix sort
(``kernels/radix.py``: radix_hist / radix_dscan / radix_scatter_reg): each forced on, the family's results against
numpy, and the knob reaching the module creation (the kernels' ``launch.compile`` calls pass ``checks=False`` and
the device holds their modules made without runtime checks). The families' own test files pass with the knobs on as
well (run them with the knobs patched on to check)."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from test_fft import _signal, close
from test_sorting_radix import ref_argsort, run_radix

import wgarray as wg
from wgarray.kernels import fft as K, launch, radix


def _spy(monkeypatch) -> list[tuple[str, bool]]:
    """(kernel name, checks) of every launch.compile call from here on."""
    seen = []
    real = launch.compile

    def compile_(d, key, build, checks=True):
        seen.append((key[0], checks))
        return real(d, key, build, checks=checks)
    monkeypatch.setattr(launch, "compile", compile_)
    return seen


def _bare(dev, *names: str) -> bool:
    """Whether the device caches a pipeline of each kernel ``names`` made without runtime checks (Device.pipeline
    keys those apart from checked ones)."""
    have = {k[0] for k in dev._pipelines if k[-1] == "unchecked"}
    return all(n in have for n in names)


def test_knob_defaults():
    # the H100 sweep (gpu_results s24/8/unchecked.txt): the FFT and the GPU radix sort on (2-5% faster); the plain
    # reductions' knob removed (1.8%: not worth a kernel without its checks)
    assert (K.UNCHECKED, radix.UNCHECKED) == (True, True)


@pytest.mark.parametrize("shape,axes,cap", [
    ((64, 48), (0, 1), 0),          # one tiled pass each axis (rows and a strided axis)
    ((3, 1000), (1,), 256),         # a multi-pass plan (radices 8 x 5 x 5 x 5 tiles), batches
    ((8192,), (0,), 1024),          # four-step: column passes, twiddled rows, the transpose
])
def test_fft_unchecked(monkeypatch, shape, axes, cap):
    dev = wg.default_device()
    seen = _spy(monkeypatch)
    monkeypatch.setattr(K, "UNCHECKED", True)
    host = _signal(len(shape) + shape[-1], shape, np.complex64)
    with K.capacity_limit(cap) if cap else K.capacity_limit(K.local_capacity(dev, 8)):
        got = wg.fft.fftn(wg.asarray(host), axes=axes)
    close(got, np.fft.fftn(host, axes=axes), np.complex64, max(shape))
    tiles = [c for name, c in seen if name == "fft_tile"]
    assert tiles and not any(tiles)  # every tiled pass compiled without checks
    assert _bare(dev, "fft_tile")  # (its module made now, or by an earlier test: a source is compiled once)


def test_fft_regcols_unchecked(monkeypatch):
    dev = wg.default_device()
    seen = _spy(monkeypatch)
    monkeypatch.setattr(K, "UNCHECKED", True)
    host = _signal(9, (256, 5), np.complex64)
    with K.reg_options(on=True, min_length=16, max_length=1 << 16, per=16), K.capacity_limit(256):
        assert K.reg_plan(dev, 8, 256, 5) is not None
        close(wg.fft.ifft(wg.asarray(host), axis=0), np.fft.ifft(host, axis=0), np.complex64, 256)
    assert ("fft_regcols", False) in seen and ("fft_regcols", True) not in seen
    assert _bare(dev, "fft_regcols")


def test_fft_knob_off_keeps_checks(monkeypatch):
    monkeypatch.setattr(K, "UNCHECKED", False)
    seen = _spy(monkeypatch)
    host = _signal(5, (3, 1000), np.complex64)
    with K.capacity_limit(256):
        close(wg.fft.fft(wg.asarray(host)), np.fft.fft(host), np.complex64, 1000)
    assert seen and all(c for name, c in seen)


# the GPU radix kernels forced on this adapter (as test_sorting_reg.py does), a few blocks of several tiles
_GPU = dataclasses.replace(radix.GPU, max_blocks=3, pair_blocks=3)


@pytest.mark.parametrize("dtype,desc", [(np.float32, False), (np.float32, True), (np.int32, False),
                                         (np.uint16, True)])
def test_radix_unchecked(monkeypatch, dtype, desc):
    monkeypatch.setattr(radix, "CPU", _GPU)
    monkeypatch.setattr(radix, "GPU", _GPU)
    seen = _spy(monkeypatch)
    monkeypatch.setattr(radix, "UNCHECKED", True)
    rng = np.random.default_rng(int(desc) + 7)
    a = (rng.standard_normal((2, 3000)) * 1000).astype(dtype)
    if dtype == np.float32:
        a[0, :40] = [np.nan, -0.0, 0.0, np.inf, -np.inf] * 8  # ties, signed zeros, NaNs
    got_v, got_i = run_radix(wg.asarray(a), 1, desc)
    want = ref_argsort(a, 1, desc)
    np.testing.assert_array_equal(got_i, want)
    np.testing.assert_array_equal(got_v, np.take_along_axis(a, want, 1))
    names = {name: c for name, c in seen if name.startswith("radix_")}
    assert names["radix_hist"] is names["radix_scatter"] is names["radix_dscan"] is False
    assert _bare(wg.default_device(), "radix_hist", "radix_scatter", "radix_dscan")
    # the public sort of one long row (its values-only direct sort): numpy's order
    b = rng.standard_normal(5000).astype(np.float32)
    np.testing.assert_array_equal(wg.sort(wg.asarray(b)).numpy(), np.sort(b))
    np.testing.assert_array_equal(wg.argsort(wg.asarray(b), stable=True).numpy(), np.argsort(b, kind="stable"))


def test_radix_knob_leaves_cpu_kernels_checked(monkeypatch):
    # the chunked CPU kernels (this adapter's own shape) keep their checks under the knob
    seen = _spy(monkeypatch)
    monkeypatch.setattr(radix, "UNCHECKED", True)
    if not radix._shape(wg.default_device()).chunked:
        pytest.skip("a GPU adapter")
    b = np.random.default_rng(3).standard_normal(5000).astype(np.float32)
    np.testing.assert_array_equal(wg.sort(wg.asarray(b)).numpy(), np.sort(b))
    assert all(c for name, c in seen if name.startswith("radix_"))
