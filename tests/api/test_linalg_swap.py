"""kernels.linalg_factor.swap (LAPACK's laswp on the right-hand sides): the workgroup-memory kernel
(``SWAP_SHARED``, linalg_lu_swap.wgsl's SHARED form) against the global-memory one and numpy, bit for bit (values only
move), on stacks, float32 / float64, in order and reversed, on strided views (inv's x.mT), sub-ranges of the pivots,
column counts not a multiple of a workgroup's; and the fallback where a column does not fit workgroup memory."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import wgarray as wg
from wgarray.api.linalg import factor as F
from wgarray.kernels import launch, linalg_factor as K


@pytest.fixture
def blocked(monkeypatch):
    """Every n through the blocked path (whose substitution calls ``swap``), with 8-column panels."""
    monkeypatch.setattr(K, "SMALL_MAX", 0)
    monkeypatch.setattr(F, "BLOCK", 8)
    monkeypatch.setattr(K, "tslu_rows", 12)


def laswp(x: np.ndarray, piv: np.ndarray, j0: int, cnt: int, reverse: bool) -> np.ndarray:
    """numpy's reference: x (batch, rows, ncol) with the pivots applied to its rows."""
    x = x.copy()
    order = range(j0 + cnt - 1, j0 - 1, -1) if reverse else range(j0, j0 + cnt)
    for z in range(x.shape[0]):
        for j in order:
            r = piv[z, j]
            x[z, [j, r]] = x[z, [r, j]]
    return x


def random_pivots(rng, batch: int, n: int) -> np.ndarray:
    """LU's pivots: row j swapped with a row r >= j (often itself near the end)."""
    return np.stack([[rng.integers(j, n) for j in range(n)] for _ in range(batch)]).astype(np.uint32)


def run_swap(monkeypatch, x: np.ndarray, piv: np.ndarray, j0: int, cnt: int, reverse: bool, transposed: bool,
             shared, cols=None, perm=None) -> np.ndarray:
    """``K.swap`` with SWAP_SHARED = ``shared`` (SWAP_COLS = ``cols``, SWAP_PERM_SHARED = ``perm``) on x (or,
    ``transposed``, on the view .mT of x's transpose stored contiguous: columns strided as inv's), as numpy."""
    monkeypatch.setattr(K, "SWAP_SHARED", shared)
    monkeypatch.setattr(K, "SWAP_COLS", cols)
    monkeypatch.setattr(K, "SWAP_PERM_SHARED", perm)
    batch, rows, ncol = x.shape
    if transposed:
        base = wg.asarray(np.ascontiguousarray(x.transpose(0, 2, 1)))
        view = wg.Array._trusted_view(base.mirror, (batch, rows, ncol), (rows * ncol, 1, rows), 0)
    else:
        base = wg.asarray(x)
        view = base
    p = wg.asarray(piv)
    K.swap(view.device, p, view, piv.shape[1], j0, cnt, reverse=reverse)
    out = base.numpy()
    return out.transpose(0, 2, 1) if transposed else out


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(1, 70), ncol=st.integers(1, 70), batch=st.integers(1, 3), f64=st.booleans(),
       reverse=st.booleans(), transposed=st.booleans(), cols=st.sampled_from([None, 1, 3]),
       perm=st.sampled_from([None, False, True]), seed=st.integers(0, 99))
def test_swap_shared_bit_for_bit(monkeypatch, n, ncol, batch, f64, reverse, transposed, cols, perm, seed):
    with monkeypatch.context() as m:
        rng = np.random.default_rng(seed)
        x = rng.standard_normal((batch, n, ncol)).astype(np.float64 if f64 else np.float32)
        piv = random_pivots(rng, batch, n)
        j0 = int(rng.integers(0, n))
        cnt = int(rng.integers(1, n - j0 + 1))
        want = laswp(x, piv, j0, cnt, reverse)
        for shared in (True, False):
            got = run_swap(m, x, piv, j0, cnt, reverse, transposed, shared, cols, perm)
            assert got.tobytes() == want.tobytes(), (shared, j0, cnt)


def spy_keys(monkeypatch) -> list:
    keys = []
    compile_ = launch.compile

    def spy(device, key, build):
        keys.append(key)
        return compile_(device, key, build)
    monkeypatch.setattr(launch, "compile", spy)
    return keys


@pytest.mark.parametrize("f64", [False, True])
@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize("perm", [False, True])
def test_swap_shared_long_sequence(monkeypatch, f64, transposed, perm):
    # many chunks of pivots (n > SWAP_CHUNK), several columns a workgroup (SWAP_SPREAD lowered), 67 columns: the
    # shared kernel taken (in place, or PERM), equal to the reference and the old kernel both ways
    keys = spy_keys(monkeypatch)
    monkeypatch.setattr(K, "SWAP_SPREAD", 8)
    rng = np.random.default_rng(5)
    n, ncol, batch = 600, 67, 2
    x = rng.standard_normal((batch, n, ncol)).astype(np.float64 if f64 else np.float32)
    piv = random_pivots(rng, batch, n)
    for reverse in (False, True):
        want = laswp(x, piv, 0, n, reverse)
        keys.clear()
        got = run_swap(monkeypatch, x, piv, 0, n, reverse, transposed, True, perm=perm)
        assert [k[0] for k in keys] == ["linalg_swap_shared"] and keys[0][2] > 1 and keys[0][-1] == perm
        assert got.tobytes() == want.tobytes()
        keys.clear()
        got = run_swap(monkeypatch, x, piv, 0, n, reverse, transposed, False)
        assert [k[0] for k in keys] == ["linalg_swap"]
        assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("perm", [False, True])
def test_swap_shared_falls_back_where_it_does_not_fit(monkeypatch, perm):
    # a column (PERM: and its row indices) beyond the device's workgroup memory (its limit lowered): the
    # global-memory kernel, same answer
    keys = spy_keys(monkeypatch)
    monkeypatch.setattr(K, "SWAP_SHARED", True)
    monkeypatch.setattr(K, "SWAP_PERM_SHARED", perm)
    rng = np.random.default_rng(7)
    n, ncol = 300, 5
    x = rng.standard_normal((1, n, ncol)).astype(np.float32)
    piv = random_pivots(rng, 1, n)
    dev = wg.default_device()
    d = wg.asarray(x).dtype
    assert K.swap_shared_cols(dev, d, n, ncol, 1) == (1, perm)
    props = dev.properties
    need = K._swap_stride(n) * (8 if perm else 4) + K.SWAP_CHUNK * 4
    small = dataclasses.replace(props, limits=dataclasses.replace(props.limits,
                                                                  max_compute_workgroup_storage_size=need - 1))
    monkeypatch.setattr(dev, "properties", small)
    assert K.swap_shared_cols(dev, d, n, ncol, 1) == (0, False)
    got = run_swap(monkeypatch, x, piv, 0, n, False, False, True, perm=perm)
    assert [k[0] for k in keys] == ["linalg_swap"]
    assert got.tobytes() == laswp(x, piv, 0, n, False).tobytes()


def test_swap_shared_default_follows_the_adapter(monkeypatch):
    # SWAP_SHARED None: on GPUs (where it fits), off on CPU adapters; PERM None: where the stack has more columns
    # than SWAP_SPREAD
    dev = wg.default_device()
    d = wg.asarray(np.zeros(1, np.float32)).dtype
    monkeypatch.setattr(K, "SWAP_SHARED", None)
    for gpu in (True, False):
        monkeypatch.setattr(K, "_reg_default", lambda device, gpu=gpu: gpu)
        assert K.swap_shared_cols(dev, d, 100, 16, 1) == ((1, False) if gpu else (0, False))
        assert K.swap_shared_cols(dev, d, 100, 100, 3) == ((2, True) if gpu else (0, False))


@pytest.mark.parametrize("shared,perm", [(True, None), (True, True), (False, None)])
def test_solve_and_inv_with_either_swap(blocked, monkeypatch, shared, perm):
    # the drivers' two uses (solve: P X; inv with INV_TRI: X P on x.mT, reversed) under either kernel
    monkeypatch.setattr(K, "SWAP_SHARED", shared)
    monkeypatch.setattr(K, "SWAP_PERM_SHARED", perm)
    rng = np.random.default_rng(3)
    n = 40
    a = rng.standard_normal((2, n, n)) + n * np.eye(n) * 0.1
    b = rng.standard_normal((2, n, 5))
    x = wg.linalg.solve(wg.asarray(a), wg.asarray(b)).numpy()
    np.testing.assert_allclose(a @ x, b, atol=1e-8)
    ai = wg.linalg.inv(wg.asarray(a)).numpy()
    np.testing.assert_allclose(a @ ai, np.broadcast_to(np.eye(n), a.shape), atol=1e-8)
