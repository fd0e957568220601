"""The block Jacobi path of eigh and the svd (``wgarray/api/linalg/blockjac.py``), forced at small n through its
knobs (``BLOCK``: the block size b, ``MIN_N``: where the path starts), with the bounds of test_linalg_spectral.py
(C = 10; its docstring): the same property tests on random, rank-1, zero, ill-conditioned and repeated-value
matrices, stacks and transposed views, plus n not a multiple of 2b, several block pairs a step, the one-inner-sweep
variant and ill-conditioning that column scaling does not undo.  A spy checks that the block path ran.
"""
from __future__ import annotations

import contextlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import wgarray as wg
from tests.api import test_linalg_spectral as base
from wgarray.api.linalg import blockjac as bj
from wgarray.kernels import linalg_spectral as K

C = base.C


@contextlib.contextmanager
def forced(b: int | None = 2, count: dict | None = None):
    """The block path for every n >= 1 with blocks of b (b = 2: 4 x 4 subproblems, so n = 6 has 2 pairs a step
    and n = 5 pads), counting its calls and the most sweeps one took in ``count``."""
    saved = bj.BLOCK, bj.MIN_N, bj.ON_CPU, bj.eigh, bj.svd, bj._flagged
    count = {} if count is None else count
    flagged = bj._flagged

    def sweep_read(flag, sweep):
        count["max_sweeps"] = max(count.get("max_sweeps", 0), sweep + 1)
        return flagged(flag, sweep)

    def spy(name, real):
        def call(*args, **kw):
            count[name] = count.get(name, 0) + 1
            return real(*args, **kw)
        return call
    bj.BLOCK, bj.MIN_N, bj.ON_CPU = b, {"eigh": 1, "svd": 1}, True
    bj.eigh, bj.svd, bj._flagged = spy("eigh", bj.eigh), spy("svd", bj.svd), sweep_read
    try:
        yield count
    finally:
        bj.BLOCK, bj.MIN_N, bj.ON_CPU, bj.eigh, bj.svd, bj._flagged = saved
    # convergence, not the sweep cap: a block path that never stops rotating (a wrong J, stale entries) still
    # gives accurate results after MAX_SWEEPS, so the bounds alone would not see it (6-12 sweeps seen; ~20 for a
    # rank-deficient float64 svd, on the scalar path too: its null column shrinks by ~eps a sweep down to TINY)
    assert count.get("max_sweeps", 0) < bj.MAX_SWEEPS, count


@pytest.fixture
def calls():
    with forced() as count:
        yield count


@settings(max_examples=8)
@given(base.matrices(square=True))
def test_eigh_block(case):
    with forced() as count:
        base.check_eigh(case)
    assert count.get("eigh", 0) == (2 if case[0].size else 0)


@settings(max_examples=12)
@given(base.matrices(), st.booleans())
def test_svd_block(case, full):
    with forced() as count:
        base.check_svd(case, full)
    assert count.get("svd", 0) == (2 if case[0].size else 0)


@settings(max_examples=6)
@given(base.matrices())
def test_pinv_rank_block(case):
    with forced():
        base.check_pinv_and_rank(case)


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_non_finite_block(calls, bad):
    base.test_non_finite_gives_nan(bad)
    assert calls["eigh"] > 0 and calls["svd"] > 0


def _eigh_ok(s: np.ndarray) -> None:
    w, v = (t.numpy() for t in wg.linalg.eigh(wg.asarray(s)))
    n = s.shape[-1]
    tol = base._tol(s)
    s64 = s.astype(np.float64)
    assert np.all(np.diff(w, axis=-1) >= 0)
    assert np.abs(w - np.linalg.eigvalsh(s64)).max() <= tol
    assert np.abs(s64 @ v - v * w[..., None, :]).max() <= tol
    assert base._orth_err(v) <= C * n * base._eps(s.dtype)
    np.testing.assert_array_equal(wg.linalg.eigvalsh(wg.asarray(s)).numpy(), w)


def _svd_ok(a: np.ndarray, full: bool) -> None:
    u, s, vh = (t.numpy() for t in wg.linalg.svd(wg.asarray(a), full_matrices=full))
    m, n = a.shape[-2:]
    k = min(m, n)
    tol = base._tol(a)
    a64 = a.astype(np.float64)
    assert np.all(np.diff(s, axis=-1) <= 0) and np.all(s >= 0)
    assert np.abs(s - np.linalg.svd(a64, compute_uv=False)).max() <= tol
    assert np.abs((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :] - a64).max() <= tol
    eps = C * max(m, n) * base._eps(a.dtype)
    assert base._orth_err(u) <= eps and base._orth_err(vh.mT) <= eps
    np.testing.assert_array_equal(wg.linalg.svdvals(wg.asarray(a)).numpy(), s)


@pytest.mark.parametrize("b, dt", [(3, np.float32), (4, np.float64)])
def test_not_a_multiple_stacks(calls, monkeypatch, b, dt):
    """n = 17 with b = 3 / 4: 2b does not divide n (zero padding), 3 pairs a step, a stack of 2."""
    monkeypatch.setattr(bj, "BLOCK", b)
    rng = np.random.default_rng(b)
    a = rng.standard_normal((2, 17, 17)).astype(dt)
    _eigh_ok(base._sym(a))
    _svd_ok(a, True)
    _svd_ok(rng.standard_normal((20, 17)).astype(dt), True)  # tall: U completed by the QR
    _svd_ok(rng.standard_normal((2, 17, 19)).astype(dt), False)  # wide: on A^T
    assert calls["eigh"] == 2 and calls["svd"] == 6


def _inner(monkeypatch, sweeps: int) -> None:
    """INNER_SWEEPS = sweeps at every n (the default applies it from CONVERGE_BELOW = 256 on)."""
    monkeypatch.setattr(K, "INNER_SWEEPS", sweeps)
    monkeypatch.setattr(K, "CONVERGE_BELOW", 0)


def test_inner_sweeps_and_block_by_order(monkeypatch):
    """The rules, whatever the tuned values: INNER_SWEEPS sweeps a step from n = CONVERGE_BELOW on, INNER_CAP below
    (to convergence: a few pairs a step); the block b is BLOCK, or the device's ``block_size`` where BLOCK is None,
    at most half of n rounded up."""
    for sweeps, cap, below in ((1, 30, 256), (2, 12, 40)):
        monkeypatch.setattr(K, "INNER_SWEEPS", sweeps)
        monkeypatch.setattr(K, "INNER_CAP", cap)
        monkeypatch.setattr(K, "CONVERGE_BELOW", below)
        assert K.inner_sweeps(below) == K.inner_sweeps(4 * below) == sweeps and K.inner_sweeps(below - 1) == cap
    dev = wg.default_device()
    monkeypatch.setattr(bj, "BLOCK", None)
    b = K.block_size(dev, wg.float32)
    assert bj._block(dev, wg.float32, 1024) == bj._block(dev, wg.float32, 2 * b) == b
    assert bj._block(dev, wg.float32, 2 * b - 3) == b - 1 and bj._block(dev, wg.float32, 1) == 1
    monkeypatch.setattr(bj, "BLOCK", 5)
    assert bj._block(dev, wg.float32, 1024) == 5 and bj._block(dev, wg.float32, 7) == 4


@pytest.mark.parametrize("b, n", [(4, 24),
                                  # the GPUs' b = 32: 1,024 invocations, one 2 x 2 block each, J's rows two rounds,
                                  # 2 pairs a step (slow: the b = 32 compiles and solves on lavapipe)
                                  pytest.param(32, 80, marks=pytest.mark.slow)])
def test_one_inner_sweep(calls, monkeypatch, b, n):
    """INNER_SWEEPS = 1: each subproblem gets one sweep a step (not solved to convergence); the outer sweeps
    still converge to the same bounds."""
    _inner(monkeypatch, 1)
    monkeypatch.setattr(bj, "BLOCK", b)
    rng = np.random.default_rng(3)
    a = rng.standard_normal((n, n)).astype(np.float32)
    _eigh_ok(base._sym(a))
    _svd_ok(a, False)


@pytest.mark.parametrize("dt", base.DTYPES)
def test_ill_conditioned_rotated(calls, monkeypatch, dt):
    """Singular values (and eigenvalues of both signs) from 1 to 1e-6 under random orthogonal bases, so no column
    scaling makes the matrix well conditioned; repeated values too."""
    monkeypatch.setattr(bj, "BLOCK", 4)
    rng = np.random.default_rng(7)
    n = 20
    q1, _ = np.linalg.qr(rng.standard_normal((n, n)))
    q2, _ = np.linalg.qr(rng.standard_normal((n, n)))
    sv = np.logspace(0, -6, n)
    _svd_ok((q1 * sv @ q2.T).astype(dt), True)
    ev = sv * np.where(np.arange(n) % 2, 1, -1)
    ev[:4] = 0.5  # a repeated eigenvalue
    _eigh_ok(((q1 * ev) @ q1.T).astype(dt))


def test_zero_and_identity(calls, monkeypatch):
    monkeypatch.setattr(bj, "BLOCK", 4)
    z = np.zeros((3, 11, 11), np.float32)
    w, v = (t.numpy() for t in wg.linalg.eigh(wg.asarray(z)))
    assert np.all(w == 0) and base._orth_err(v) == 0
    u, s, vh = (t.numpy() for t in wg.linalg.svd(wg.asarray(z)))
    assert np.all(s == 0) and base._orth_err(u) <= 1e-6 and base._orth_err(vh) <= 1e-6
    w = wg.linalg.eigvalsh(wg.asarray(np.eye(11, dtype=np.float32) * 2)).numpy()
    np.testing.assert_array_equal(w, np.full(11, 2, np.float32))


def test_block_size_fits_the_device():
    dev = wg.default_device()
    lim = dev.properties.limits.max_compute_workgroup_storage_size
    for dt in (wg.float32, wg.float64):
        b = K.block_size(dev, dt)
        assert K.block_bytes(b, dt) <= lim and b in K.BLOCK_CANDIDATES


@pytest.mark.parametrize("dt", base.DTYPES)
def test_default_block_size(dt):
    """The device's own b (32 for float32 on 32 KiB of workgroup memory, 24 for float64): one pair of 2b columns,
    n = b + 8 padded to 2b, the solver at its full size (1,024 invocations)."""
    b = K.block_size(wg.default_device(), wg.float32 if dt == np.float32 else wg.float64)
    n = b + 8
    rng = np.random.default_rng(n)
    a = rng.standard_normal((n, n)).astype(dt)
    with forced(None) as count:
        _eigh_ok(base._sym(a))
        _svd_ok(a, False)
    assert count["eigh"] == 2 and count["svd"] == 2


def _dispatch_keys(monkeypatch) -> list:
    """The cache keys of the spectral kernels launched from now on (the knobs in force are part of them)."""
    keys = []
    real = K._dispatch

    def spy(device, key, *args, **kw):
        keys.append(key)
        return real(device, key, *args, **kw)
    monkeypatch.setattr(K, "_dispatch", spy)
    return keys


@pytest.mark.parametrize("jpad, dt, inner", [(1, np.float32, 1), (1, np.float64, 30), (0, np.float32, 30)])
def test_j_pad(calls, monkeypatch, jpad, dt, inner):
    """The solver with J's rows padded (J_PAD = 1) and not (0): n = 17 (b = 3: 3 pairs a step, padded)
    in a stack, tall svds, ill-conditioned matrices with a repeated eigenvalue (b = 4), one inner sweep and to
    convergence, asserting that the J_PAD asked for is the solver launched (key[6])."""
    _inner(monkeypatch, inner)
    monkeypatch.setattr(K, "J_PAD", jpad)
    keys = _dispatch_keys(monkeypatch)
    monkeypatch.setattr(bj, "BLOCK", 3)
    rng = np.random.default_rng(inner)
    a = rng.standard_normal((2, 17, 17)).astype(dt)
    _eigh_ok(base._sym(a))
    _svd_ok(a, False)
    _svd_ok(rng.standard_normal((20, 17)).astype(dt), True)
    test_ill_conditioned_rotated(calls, monkeypatch, dt)  # b = 4
    solver_keys = [k for k in keys if k[0] == "linalg_blockjac" and k[2] == 1]
    assert solver_keys and all(k[6] == jpad for k in solver_keys)


def test_solver_block_bytes(monkeypatch):
    """J_PAD's workgroup memory is counted (J_PAD elements a row of J), and b = 32 float32 fits 32 KiB with one."""
    size = {}
    for pad in (0, 1, 2):
        monkeypatch.setattr(K, "J_PAD", pad)
        size[pad] = K.block_bytes(32, wg.float32)
    assert size[1] - size[0] == size[2] - size[1] == 64 * 4 and size[1] <= 32 * 1024


@pytest.mark.parametrize("check_from", [3, 8])
def test_check_from(calls, monkeypatch, check_from):
    """CHECK_FROM: no convergence read before that many sweeps; the sweeps past convergence are exact no-ops, so a
    zero matrix and the identity (converged at once) keep their exact answers, and random input its bounds."""
    monkeypatch.setattr(bj, "CHECK_FROM", check_from)
    test_zero_and_identity(calls, monkeypatch)  # b = 4
    assert calls["max_sweeps"] == check_from  # the first read, at once converged
    _inner(monkeypatch, 1)
    rng = np.random.default_rng(check_from)
    a = rng.standard_normal((2, 20, 20)).astype(np.float32)
    _eigh_ok(base._sym(a))
    _svd_ok(a, False)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("inner", [None, 1])
def test_check_from_sweeps_past_convergence_exact(monkeypatch, dt, inner):
    """The sweeps CHECK_FROM runs past convergence change nothing, to the bit: eigh's and the svd's outputs for a
    near-diagonal input (converged in a few sweeps) at CHECK_FROM = 0 (a read every sweep) and 8 (all past it)
    are equal bitwise (bounds alone would not see a drift of a few ulps a sweep); inner: INNER_SWEEPS = 1 too."""
    if inner is not None:
        _inner(monkeypatch, inner)
    rng = np.random.default_rng(11)
    n = 10
    a = (np.diag(np.arange(1, n + 1) * 1.5) + 1e-3 * base._sym(rng.standard_normal((2, n, n)))).astype(dt)
    out = {}
    for check_from in (0, 8):
        monkeypatch.setattr(bj, "CHECK_FROM", check_from)
        with forced(2) as count:
            out[check_from] = ([t.numpy() for t in wg.linalg.eigh(wg.asarray(a))] +
                               [t.numpy() for t in wg.linalg.svd(wg.asarray(a))])
        assert count["eigh"] == 1 and count["svd"] == 1
        if check_from == 0:
            assert count["max_sweeps"] < 8, count  # converged before 8: CHECK_FROM = 8 runs sweeps past it
    for x, y in zip(out[0], out[8]):
        assert x.tobytes() == y.tobytes()
    assert np.abs(out[8][0] - np.linalg.eigvalsh(a.astype(np.float64))).max() <= base._tol(a)


def test_cached_dispatches_render_nothing(calls, monkeypatch):
    """Once its pipelines are compiled, a block call renders no WGSL template and builds no binding (each of its
    ~1,100 dispatches at n = 1024 rendered two and built seven before: host time while the device waits for the next
    sweep)."""
    from wgarray.kernels import launch, source
    a = base._sym(np.random.default_rng(1).standard_normal((12, 12)).astype(np.float32))
    _eigh_ok(a)
    renders, made = [], []
    real = source.render
    monkeypatch.setattr(source, "render", lambda *args, **kw: renders.append(args[0]) or real(*args, **kw))
    for name in ("read", "write"):
        fn = getattr(launch, name)
        monkeypatch.setattr(launch, name, lambda *args, fn=fn, **kw: made.append(args[0]) or fn(*args, **kw))
    _eigh_ok(a)
    block = set(K._BLOCK_BINDINGS)  # (the call's few other launches, ordering and extraction, build theirs)
    assert calls["eigh"] >= 2 and renders == [] and not block & set(made) and made
