"""kernels.linalg_factor.swap (LAPACK's laswp on the right-hand sides) against numpy, bit for bit (values only
move), on stacks, float32 / float64, in order and reversed, on strided views (inv's x.mT), sub-ranges of the pivots;
and the drivers' two uses (solve's P X, inv's X P)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import wgarray as wg
from wgarray.api.linalg import factor as F
from wgarray.kernels import linalg_factor as K


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


def run_swap(x: np.ndarray, piv: np.ndarray, j0: int, cnt: int, reverse: bool, transposed: bool) -> np.ndarray:
    """``K.swap`` on x (or, ``transposed``, on the view .mT of x's transpose stored contiguous: columns strided as
    inv's), as numpy."""
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
       reverse=st.booleans(), transposed=st.booleans(), seed=st.integers(0, 99))
def test_swap_bit_for_bit(n, ncol, batch, f64, reverse, transposed, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, n, ncol)).astype(np.float64 if f64 else np.float32)
    piv = random_pivots(rng, batch, n)
    j0 = int(rng.integers(0, n))
    cnt = int(rng.integers(1, n - j0 + 1))
    want = laswp(x, piv, j0, cnt, reverse)
    got = run_swap(x, piv, j0, cnt, reverse, transposed)
    assert got.tobytes() == want.tobytes(), (j0, cnt)


@pytest.mark.parametrize("transposed", [False, True])
def test_swap_long_sequence(transposed):
    # 600 pivots on 67 columns of a stack of 2, both directions
    rng = np.random.default_rng(5)
    n, ncol, batch = 600, 67, 2
    x = rng.standard_normal((batch, n, ncol)).astype(np.float32)
    piv = random_pivots(rng, batch, n)
    for reverse in (False, True):
        assert run_swap(x, piv, 0, n, reverse, transposed).tobytes() == laswp(x, piv, 0, n, reverse).tobytes()


def test_solve_and_inv_through_the_swaps(blocked):
    # the drivers' two uses (solve: P X; inv with INV_TRI: X P on x.mT, reversed)
    rng = np.random.default_rng(3)
    n = 40
    a = rng.standard_normal((2, n, n)) + n * np.eye(n) * 0.1
    b = rng.standard_normal((2, n, 5))
    x = wg.linalg.solve(wg.asarray(a), wg.asarray(b)).numpy()
    np.testing.assert_allclose(a @ x, b, atol=1e-8)
    ai = wg.linalg.inv(wg.asarray(a)).numpy()
    np.testing.assert_allclose(a @ ai, np.broadcast_to(np.eye(n), a.shape), atol=1e-8)
