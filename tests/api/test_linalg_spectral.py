"""qr, eigh, eigvalsh, svd, svdvals, pinv, matrix_rank and matrix_norm(ord=2/-2/'nuc') against numpy.

The factors are unique only up to signs (and within repeated eigen/singular values), so the tests check the
properties, with C = 10 in every bound (measured errors are about n*eps relative, see the README):
  ||A - Q R|| <= C n eps ||A||, ||Q^T Q - I|| <= C n eps, R upper triangular (exactly: zeros below the diagonal);
  ||A V - V diag(w)|| <= C n eps ||A||, ||V^T V - I|| <= C n eps, w ascending, |w - numpy's| <= C n eps ||A||;
  ||A - U diag(S) Vh|| <= C n eps ||A||, U, V orthonormal, S descending, |S - numpy's| <= C n eps ||A|| (Weyl).
"""
from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import given, strategies as st

import wgarray as wg

C = 10
DTYPES = [np.float32, np.float64]


def _eps(dt) -> float:
    return float(np.finfo(dt).eps)


def _tol(a: np.ndarray) -> float:
    n = max(a.shape[-2:], default=1)
    return C * max(n, 1) * _eps(a.dtype) * max(float(np.linalg.norm(a.astype(np.float64))), 1e-30)


def _orth_err(q: np.ndarray) -> float:
    k = q.shape[-1]
    return float(np.abs(q.mT.astype(np.float64) @ q - np.eye(k)).max()) if q.size else 0.0


@st.composite
def matrices(draw, square: bool = False, max_n: int = 6):
    dt = draw(st.sampled_from(DTYPES))
    lead = tuple(draw(st.lists(st.integers(0 if draw(st.booleans()) else 1, 3), max_size=2)))
    m = draw(st.integers(0, max_n))
    n = m if square else draw(st.integers(0, max_n))
    kind = draw(st.sampled_from(["normal", "rank1", "zero", "ill", "repeated"]))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    shape = lead + (m, n)
    if kind == "normal":
        a = rng.standard_normal(shape)
    elif kind == "rank1":
        a = rng.standard_normal(lead + (m, 1)) @ rng.standard_normal(lead + (1, n))
    elif kind == "zero":
        a = np.zeros(shape)
    elif kind == "ill":  # singular values spread over 1 .. 1e-6 (float32 keeps them apart from its eps)
        a = rng.standard_normal(shape) * np.logspace(0, -6, max(n, 1))[:n]
    else:  # integers: repeated eigen/singular values are common
        a = rng.integers(-1, 2, shape).astype(np.float64)
    a = a.astype(dt)
    transposed = draw(st.booleans()) and square
    return a, transposed


def _wg(a: np.ndarray, transposed: bool) -> wg.Array:
    """a on the device, as a transposed (non-contiguous) view when asked: the view's values are a's."""
    if transposed:
        return wg.asarray(np.ascontiguousarray(a.mT)).mT
    return wg.asarray(a)


@given(matrices(), st.sampled_from(["reduced", "complete"]))
def test_qr(case, mode):
    a, tr = case
    q, r = wg.linalg.qr(_wg(a, tr), mode=mode)
    q, r = q.numpy(), r.numpy()
    m, n = a.shape[-2:]
    k = min(m, n) if mode == "reduced" else m
    assert q.shape == a.shape[:-2] + (m, k) and r.shape == a.shape[:-2] + (k, n)
    assert q.dtype == a.dtype and r.dtype == a.dtype
    assert np.all(np.tril(r, -1) == 0)
    assert _orth_err(q) <= C * max(m, 1) * _eps(a.dtype)
    assert np.abs(q.astype(np.float64) @ r - a).max(initial=0) <= _tol(a)


def _sym(a: np.ndarray) -> np.ndarray:
    return (a + a.mT) / 2


@given(matrices(square=True))
def test_eigh(case):
    check_eigh(case)


def check_eigh(case):
    """The eigh properties of the module docstring (test_linalg_spectral_block.py reuses it on the block path)."""
    a, tr = case
    s = _sym(a)
    w, v = wg.linalg.eigh(_wg(s, tr))
    w, v = w.numpy(), v.numpy()
    assert w.shape == s.shape[:-1] and v.shape == s.shape and w.dtype == s.dtype
    assert np.all(np.diff(w, axis=-1) >= 0)
    tol = _tol(s)
    if s.size:
        assert np.abs(w - np.linalg.eigvalsh(s.astype(np.float64))).max() <= tol
        assert np.abs(s.astype(np.float64) @ v - v * w[..., None, :]).max() <= tol
    assert _orth_err(v) <= C * max(s.shape[-1], 1) * _eps(s.dtype)
    np.testing.assert_array_equal(wg.linalg.eigvalsh(_wg(s, tr)).numpy(), w)


def test_eigh_reads_the_lower_triangle():
    a = np.array([[2.0, 100.0], [1.0, 3.0]])
    np.testing.assert_allclose(wg.linalg.eigvalsh(wg.asarray(a)).numpy(), np.linalg.eigvalsh(a), rtol=1e-14)


@given(matrices(), st.booleans())
def test_svd(case, full):
    check_svd(case, full)


def check_svd(case, full):
    """The svd properties of the module docstring (reused on the block path, as check_eigh)."""
    a, tr = case
    if tr:
        a = np.ascontiguousarray(a)
    u, s, vh = wg.linalg.svd(_wg(a, tr), full_matrices=full)
    u, s, vh = u.numpy(), s.numpy(), vh.numpy()
    m, n = a.shape[-2:]
    k = min(m, n)
    lead = a.shape[:-2]
    assert u.shape == lead + ((m, m) if full else (m, k)) and vh.shape == lead + ((n, n) if full else (k, n))
    assert s.shape == lead + (k,) and s.dtype == a.dtype
    assert np.all(np.diff(s, axis=-1) <= 0) and np.all(s >= 0)
    tol = _tol(a)
    if a.size:
        assert np.abs(s - np.linalg.svd(a.astype(np.float64), compute_uv=False)).max() <= tol
        assert np.abs((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :] - a).max() <= tol
    eps = C * max(m, n, 1) * _eps(a.dtype)
    assert _orth_err(u) <= eps and _orth_err(vh.mT) <= eps
    np.testing.assert_array_equal(wg.linalg.svdvals(_wg(a, tr)).numpy(), s)


@given(matrices())
def test_pinv_and_rank(case):
    check_pinv_and_rank(case)


def check_pinv_and_rank(case):
    a, tr = case
    m, n = a.shape[-2:]
    rtol = max(m, n, 1) * _eps(a.dtype) * 100  # clear of the ill-conditioned cases' smallest singular values
    p = wg.linalg.pinv(_wg(a, tr), rtol=rtol).numpy()
    assert p.shape == a.shape[:-2] + (n, m)
    a64 = a.astype(np.float64)
    expect = np.linalg.pinv(a64, rtol=rtol) if a.size else np.zeros(p.shape)
    scale = max(1.0, float(np.abs(expect).max(initial=0)))
    s = np.linalg.svd(a64, compute_uv=False) if a.size else np.zeros(a.shape[:-2] + (0,))
    close = np.any(np.abs(s - rtol * s.max(axis=-1, keepdims=True, initial=0)) < 1e-3 * s.max(initial=1))
    if not close:  # a singular value near the cutoff decides differently under rounding
        assert np.abs(p - expect).max(initial=0) <= 1e3 * C * max(m, n, 1) * _eps(a.dtype) * scale ** 2
        r = wg.linalg.matrix_rank(_wg(a, tr), rtol=rtol).numpy()
        np.testing.assert_array_equal(r, np.linalg.matrix_rank(a64, rtol=rtol) if a.size else 0)


def test_rank_default_rtol():
    a = np.diag([1.0, 1e-17, 1e-10, 0.0])
    assert int(wg.linalg.matrix_rank(wg.asarray(a)).numpy()) == np.linalg.matrix_rank(a) == 2
    b = np.ones((2, 3, 4), np.float32)
    np.testing.assert_array_equal(wg.linalg.matrix_rank(wg.asarray(b)).numpy(), [1, 1])


@pytest.mark.parametrize("ord", [2, -2, "nuc"])
@pytest.mark.parametrize("dt", DTYPES)
def test_matrix_norm_singular(ord, dt):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((3, 4, 5)).astype(dt)
    got = wg.linalg.matrix_norm(wg.asarray(a), ord=ord, keepdims=True).numpy()
    expect = np.linalg.norm(a.astype(np.float64), ord=ord, axis=(-2, -1), keepdims=True)
    np.testing.assert_allclose(got, expect, rtol=C * 5 * _eps(dt))
    assert got.dtype == dt


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_non_finite_gives_nan(bad):
    """qr and eigh give NaN for the matrix holding NaN/inf (numpy does too); the SVD family does under
    errors("nan") (CuPy's behaviour), and raises numpy's LinAlgError under the default errors("raise")."""
    a = np.eye(3)[None].repeat(2, 0)
    a[1, 2, 0] = bad
    x = wg.asarray(a)
    with wg.linalg.errors("nan"):
        results = (wg.linalg.qr(x), wg.linalg.eigh(x), wg.linalg.svd(x), (wg.linalg.svdvals(x),))
    for res in results + (wg.linalg.qr(x), wg.linalg.eigh(x)):
        for part in res:
            h = part.numpy()
            assert np.all(np.isnan(h[1])) and np.all(np.isfinite(h[0]))
    for f in (wg.linalg.svd, wg.linalg.svdvals, wg.linalg.pinv, wg.linalg.matrix_rank,
              lambda v: wg.linalg.matrix_norm(v, ord=2), lambda v: wg.linalg.matrix_norm(v, ord="nuc")):
        with pytest.raises(np.linalg.LinAlgError, match="SVD did not converge"):
            f(x)  # numpy 2.5 raises the same for NaN (its LAPACK may not return at all for inf)
    np.testing.assert_array_equal(x.numpy(), a)  # the input is untouched
    np.testing.assert_allclose(wg.linalg.svdvals(x[:1]).numpy(), np.ones((1, 3)))  # the device is usable


def test_bad_input():
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        wg.linalg.eigh(wg.ones((2, 3)))
    with pytest.raises(np.linalg.LinAlgError, match="two-dimensional"):
        wg.linalg.svd(wg.ones(3))
    with pytest.raises(ValueError, match="mode"):
        wg.linalg.qr(wg.ones((2, 2)), mode="raw")
    with pytest.raises(TypeError, match="float16"):
        wg.linalg.svdvals(wg.ones((2, 2), dtype=wg.float16))
    x = wg.asarray(np.arange(4.0).reshape(2, 2))
    wg.linalg.qr(x)
    np.testing.assert_array_equal(x.numpy(), np.arange(4.0).reshape(2, 2))  # input untouched


def test_integer_input_in_default_float():
    """One rule for every decomposition (the factorisations' and numpy's): integers compute in float64 where the
    device has it (this half gave float32 while inv/solve gave float64)."""
    q, r = wg.linalg.qr(wg.asarray(np.array([[1, 2], [3, 4]])))
    assert q.dtype == (wg.float64 if wg.default_device().supports(wg.float64) else wg.float32)
    assert wg.linalg.eigvalsh(wg.asarray(np.eye(2, dtype=np.int32))).dtype == wg.linalg.inv(
        wg.asarray(np.eye(2, dtype=np.int32))).dtype
    np.testing.assert_allclose((q @ r).numpy(), [[1, 2], [3, 4]], atol=1e-5)


def test_result_types():
    x = wg.asarray(np.eye(2))
    assert wg.linalg.qr(x)._fields == ("Q", "R")
    assert wg.linalg.eigh(x)._fields == ("eigenvalues", "eigenvectors")
    assert wg.linalg.svd(x)._fields == ("U", "S", "Vh")


@pytest.mark.parametrize("n", [33, 70])
def test_medium_sizes(n):
    """Workgroups of 64 threads striding over longer vectors; an odd n pads the round-robin schedule."""
    rng = np.random.default_rng(n)
    a = rng.standard_normal((n + 3, n))
    q, r = wg.linalg.qr(wg.asarray(a))
    assert np.abs(q.numpy() @ r.numpy() - a).max() <= _tol(a)
    s = _sym(a[:n])
    w, v = (t.numpy() for t in wg.linalg.eigh(wg.asarray(s)))
    assert np.abs(s @ v - v * w).max() <= _tol(s) and _orth_err(v) <= C * n * _eps(np.float64)
    u, sv, vh = (t.numpy() for t in wg.linalg.svd(wg.asarray(a.T), full_matrices=False))
    assert np.abs((u * sv) @ vh - a.T).max() <= _tol(a)


@pytest.mark.slow
@pytest.mark.parametrize("n", [256, pytest.param(1024, marks=pytest.mark.skipif(
    not os.environ.get("WGARRAY_TEST_HEAVY"), reason="minutes of Jacobi sweeps on a software driver: set "
    "WGARRAY_TEST_HEAVY=1 (a GPU)"))])
def test_large(n):
    """The global-memory path at sizes well beyond workgroup memory (minutes on lavapipe at 1024)."""
    rng = np.random.default_rng(n)
    a = rng.standard_normal((n, n)).astype(np.float32)
    q, r = wg.linalg.qr(wg.asarray(a))
    assert np.abs(q.numpy() @ r.numpy() - a).max() <= _tol(a)
    s = _sym(a)
    w = wg.linalg.eigvalsh(wg.asarray(s)).numpy()
    assert np.abs(w - np.linalg.eigvalsh(s.astype(np.float64))).max() <= _tol(s)
    sv = wg.linalg.svdvals(wg.asarray(a)).numpy()
    assert np.abs(sv - np.linalg.svd(a.astype(np.float64), compute_uv=False)).max() <= _tol(a)


def test_module_constants_in_compile_keys(monkeypatch):
    """MAX_WG (the Jacobi's, QR's and ordering's elementwise phases) changed at run time: new kernels at the new
    size (a key never comes with two sources), the answers right.  (REDUCE_WG reaches the kernels through their wg,
    a key part, only past 8 columns: workgroup_for.)"""
    from tests.api.test_linalg_factor import spy_sources
    from wgarray.kernels import linalg_spectral as K
    built = spy_sources(monkeypatch)
    rng = np.random.default_rng(2)
    a = rng.standard_normal((2, 5, 5)).astype(np.float32)
    s = a + np.swapaxes(a, -1, -2)
    sizes = set()
    for max_wg in (256, 128, 256):
        monkeypatch.setattr(K, "MAX_WG", max_wg)
        w = wg.linalg.eigvalsh(wg.asarray(s)).numpy()
        assert np.abs(w - np.linalg.eigvalsh(s)).max() <= _tol(s)
        sv = wg.linalg.svdvals(wg.asarray(a)).numpy()
        assert np.abs(sv - np.linalg.svd(a, compute_uv=False)).max() <= _tol(a)
        q, r = (t.numpy() for t in wg.linalg.qr(wg.asarray(a)))
        assert np.abs(q @ r - a).max() <= _tol(a)
        sizes |= {got[1] for key, got in built.items() if key[0].startswith(("linalg_jacobi", "linalg_qr"))}
    assert {128, 256} <= sizes
