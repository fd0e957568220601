"""The small path's Cholesky through cholesky_inv's register code (``kernels.linalg_factor.SMALL_CHOL_REG``), forced
on: numpy's answers (orders 16 .. 64, stacks, broadcast and strided input, float64, ``upper``), bit-for-bit
equality with the blocked path's ``cholesky_inv`` of the same order, the small path's failure semantics ("nan":
NaN for the failed matrices only; "raise": LinAlgError), its recipes (a repeated call: no plan, one dispatch, the
same bits) and the knob off / below SMALL_CHOL_REG_MIN giving linalg_small.wgsl's kernel."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from test_linalg_factor import spd

import wgarray as wg
from wgarray.alloc.mirror import Mirror
from wgarray.api.linalg import factor as F
from wgarray.kernels import launch, linalg_factor as K


def _close(got, want, dt=np.float32):
    tol = 2e-4 if dt == np.float32 else 1e-10
    assert np.shape(got) == np.shape(want)
    np.testing.assert_allclose(np.asarray(got), want, rtol=tol, atol=tol)


def _chol(s, upper=False):
    L = np.linalg.cholesky(s)
    return np.swapaxes(L, -1, -2) if upper else L


@pytest.fixture
def kernels(monkeypatch):
    """SMALL_CHOL_REG forced on; ``kernels()``: what was planned since, in order: each ``launch.compile`` call's
    kernel name (its key's first item) and each ``small_plan`` call as ("plan", op, whether the register kernel
    takes it)."""
    monkeypatch.setattr(K, "SMALL_CHOL_REG", True)
    made = []
    plan = K.small_plan
    compile_ = launch.compile

    def spy(device, key, build, **kw):
        made.append(key[0])
        return compile_(device, key, build, **kw)

    def small_plan(device, op, a, d, **kw):
        made.append(("plan", op, K.small_chol_reg(device, a.shape[-1]) if op == "cholesky" else None))
        return plan(device, op, a, d, **kw)

    monkeypatch.setattr(launch, "compile", spy)
    monkeypatch.setattr(K, "small_plan", small_plan)
    return lambda: list(made)


@pytest.mark.parametrize("n", [16, 17, 31, 32, pytest.param(33, marks=pytest.mark.slow),
                               pytest.param(64, marks=pytest.mark.slow)])
@pytest.mark.parametrize("upper", [False, True])
def test_against_numpy(kernels, n, upper):
    rng = np.random.default_rng(n)
    s = spd(rng, (2, 3, n, n), np.float32)
    L = wg.linalg.cholesky(wg.asarray(s), upper=upper).numpy()
    _close(L, _chol(s, upper))
    assert np.all((np.triu(L, 1) if not upper else np.tril(L, -1)) == 0)
    assert ("plan", "cholesky", True) in kernels()


@pytest.mark.parametrize("n", [16, pytest.param(17, marks=pytest.mark.slow), pytest.param(33, marks=pytest.mark.slow)])
def test_float64(kernels, n):
    dev = wg.default_device()
    if not dev.supports(wg.float64) or n > K.small_limit(dev, wg.float64):
        pytest.skip("no float64 small path here")
    s = spd(np.random.default_rng(3), (4, n, n), np.float64)
    for upper in (False, True):
        _close(wg.linalg.cholesky(wg.asarray(s), upper=upper).numpy(), _chol(s, upper), np.float64)
    assert ("plan", "cholesky", True) in kernels()


def test_layouts(kernels):
    """Input read where it lies: a batch stride (every other matrix), an offset, transposed strides, a broadcast
    single matrix (batch stride 0), and other dtypes (copied first)."""
    rng = np.random.default_rng(5)
    s = spd(rng, (6, 20, 20), np.float32)
    ws = wg.asarray(s)
    _close(wg.linalg.cholesky(ws[1::2]).numpy(), _chol(s[1::2]))
    _close(wg.linalg.cholesky(ws.mT, upper=True).numpy(), _chol(s.transpose(0, 2, 1), True))
    _close(wg.linalg.cholesky(wg.broadcast_to(ws[2], (2, 3, 20, 20))).numpy(),
           np.broadcast_to(_chol(s[2]), (2, 3, 20, 20)))
    big = wg.asarray(np.pad(s[0], ((1, 2), (3, 0))))  # an offset and a row stride other than n
    _close(wg.linalg.cholesky(big[1:21, 3:]).numpy(), _chol(s[0]))
    i = np.round(s[:2] * 4).astype(np.int32) + 0 * np.eye(20, dtype=np.int32)
    dt = np.float64 if wg.default_device().supports(wg.float64) else np.float32
    _close(wg.linalg.cholesky(wg.asarray(i)).numpy(), _chol(i.astype(dt)), np.float32)
    assert sum(k == ("plan", "cholesky", True) for k in kernels()) >= 5


@settings(max_examples=8, deadline=None)
@given(batch=st.lists(st.integers(1, 3), max_size=2), n=st.sampled_from([16, 23, 32]), upper=st.booleans(),
       seed=st.integers(0, 2**16))
def test_property(batch, n, upper, seed):
    saved, K.SMALL_CHOL_REG = K.SMALL_CHOL_REG, True
    try:
        s = spd(np.random.default_rng(seed), tuple(batch) + (n, n), np.float32)
        _close(wg.linalg.cholesky(wg.asarray(s), upper=upper).numpy(), _chol(s, upper))
    finally:
        K.SMALL_CHOL_REG = saved


@pytest.mark.parametrize("n", [17, 32])
def test_bits_equal_blocked_chol_inv(kernels, n):
    """The same arithmetic as the blocked path's ``cholesky_inv`` of the whole matrix (k0 = 0, nb = n, no
    inverse): equal bits."""
    s = spd(np.random.default_rng(n), (5, n, n), np.float32)
    s[3] = s[3] @ s[3] / 1e3  # a worse-conditioned member
    got = wg.linalg.cholesky(wg.asarray(s)).numpy()
    dev = wg.default_device()
    w = wg.asarray(s)
    info = wg.zeros((5,), dtype=wg.uint32)
    K.cholesky_inv(dev, w, info, Mirror(w.dtype, 1, dev), n, 5, 0, n, False)
    assert not info.numpy().any()
    np.testing.assert_array_equal(got, np.tril(w.numpy()))


@pytest.mark.parametrize("n", [16, 31])
def test_failures(kernels, n):
    """A matrix that is not positive definite (at an inner pivot) and one with a NaN among good ones: NaN for
    those two only in the "nan" mode, LinAlgError in "raise"; a good stack after it raises nothing."""
    rng = np.random.default_rng(7)
    s = spd(rng, (5, n, n), np.float32)
    s[1, n - 3, n - 3] = -1.0
    s[3, 5, 2] = s[3, 2, 5] = np.nan
    ws = wg.asarray(s)
    with pytest.raises(np.linalg.LinAlgError, match="positive definite"):
        wg.linalg.cholesky(ws)
    with wg.linalg.errors("nan"):
        L = wg.linalg.cholesky(ws, upper=True).numpy()
    assert np.isnan(L[[1, 3]]).all() and np.isfinite(L[[0, 2, 4]]).all()
    _close(L[[0, 2, 4]], _chol(s[[0, 2, 4]], True))
    good = spd(rng, (5, n, n), np.float32)
    _close(wg.linalg.cholesky(wg.asarray(good)).numpy(), _chol(good))  # the status word is per call
    with pytest.raises(np.linalg.LinAlgError):
        wg.linalg.cholesky(wg.asarray(s[1]))  # one matrix alone, the recipe's path (same layout as before: none)
    with pytest.raises(np.linalg.LinAlgError):
        wg.linalg.cholesky(wg.asarray(s[1]))


def test_recipe_replays(kernels):
    """A repeated call of the same layout: no plan, one dispatch, numpy's answer, the first call's bits on the
    same data; the error mode read at each call."""
    dev = wg.default_device()
    rng = np.random.default_rng(8)
    s = spd(rng, (4, 24, 24), np.float32)
    first = wg.linalg.cholesky(wg.asarray(s)).numpy()
    made = len(kernels())
    for _ in range(2):
        x = wg.asarray(s)
        with wg.linalg.errors("nan"):
            before = dev.stats()
            got = wg.linalg.cholesky(x)
            assert (dev.stats() - before).dispatches == 1
        np.testing.assert_array_equal(got.numpy(), first)
    assert len(kernels()) == made
    bad = s.copy()
    bad[2, 0, 0] = -1.0
    with pytest.raises(np.linalg.LinAlgError):
        wg.linalg.cholesky(wg.asarray(bad))
    assert len(kernels()) == made


def test_knob_off_and_minimum(kernels, monkeypatch):
    """SMALL_CHOL_REG False, or an order below SMALL_CHOL_REG_MIN: linalg_small.wgsl's kernel; the knob is part of
    the recipe's key (switching it plans anew, never replays the other kernel)."""
    s = spd(np.random.default_rng(9), (3, 20, 20), np.float32)
    x = wg.asarray(s)
    _close(wg.linalg.cholesky(x).numpy(), _chol(s))
    monkeypatch.setattr(K, "SMALL_CHOL_REG", False)
    _close(wg.linalg.cholesky(x).numpy(), _chol(s))
    assert kernels()[-2:] == [("plan", "cholesky", False), "linalg_small"]
    made = kernels()
    monkeypatch.setattr(K, "SMALL_CHOL_REG", True)
    _close(wg.linalg.cholesky(x).numpy(), _chol(s))
    assert kernels() == made  # the first call's recipe (its key holds the knob)
    monkeypatch.setattr(F, "SMALL_RECIPES", False)
    _close(wg.linalg.cholesky(x).numpy(), _chol(s))
    assert kernels()[-2:] == [("plan", "cholesky", True), "linalg_chol_small_reg"]
    monkeypatch.setattr(F, "SMALL_RECIPES", True)
    monkeypatch.setattr(K, "SMALL_CHOL_REG_MIN", 24)
    _close(wg.linalg.cholesky(x).numpy(), _chol(s))
    assert kernels()[-2:] == [("plan", "cholesky", False), "linalg_small"]
    s8 = spd(np.random.default_rng(9), (3, 8, 8), np.float32)
    monkeypatch.setattr(K, "SMALL_CHOL_REG_MIN", 16)
    _close(wg.linalg.cholesky(wg.asarray(s8)).numpy(), _chol(s8))
    assert kernels()[-2:] == [("plan", "cholesky", False), "linalg_small"]


def check_default_and_key(monkeypatch, knob: str, takes, key) -> None:
    """A small-path register knob (``knob``, read by ``takes(device, n)`` and ``key(device)``): None is on where
    the register paths' default is (GPUs), off on CPU adapters, never below 16; the recipe key changes with the
    knob (None, True, False: three keys), so a recorded call is never replayed with the other kernel."""
    dev = wg.default_device()
    monkeypatch.setattr(K, knob, None)
    for gpu in (False, True):
        monkeypatch.setattr(K, "_reg_default", lambda device, gpu=gpu: gpu)
        assert takes(dev, 32) == gpu and not takes(dev, 8)
        assert key(dev)[-1] == gpu
    keys = set()
    for on in (None, True, False):
        monkeypatch.setattr(K, knob, on)
        keys.add(key(dev))
    assert len(keys) == 3


def test_default_follows_the_adapter(monkeypatch):
    check_default_and_key(monkeypatch, "SMALL_CHOL_REG", K.small_chol_reg, K.small_chol_key)
