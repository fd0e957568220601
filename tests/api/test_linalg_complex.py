"""Complex input to inv, solve, pinv, matrix_rank, svdvals, matrix_power (negative powers) and the singular-value
matrix norms, against numpy.  They run through the real embedding E(A) = [[Re A, -Im A], [Im A, Re A]]
(wgarray/api/linalg/embed.py), so the checks are the real kernels' backward-error bounds with the embedding's order
2n (eps the real dtype's epsilon, C = 8):

    inv       ||A inv(A) - I||_F / n                    <= C 2n eps cond(A)
    solve     ||A x - b||_F / (||A||_F ||x||_F)          <= C 2n eps
    svdvals   |s - numpy's s|                            <= C 2k eps ||A||_2   (Weyl; k = max(m, n))
    pinv      ||pinv - numpy's pinv||_F / ||numpy's||_F  <= C 2k eps cond(A)^2
    rank      exactly numpy's, for matrices of known rank r (products of m x r and r x n factors)

cholesky runs through the interleaved embedding (embed.interleaved_hermitian), also of order 2n, and so does
eigvalsh where the real path of order 2n takes the block Jacobi (GPUs); elsewhere eigvalsh is native (its tests:
test_linalg_complex_native.py), and the bound below holds for both:

    cholesky  ||L L^H - A||_F / ||A||_F                  <= C 2n eps, L lower with a real positive diagonal
    eigvalsh  |w - numpy's w|                            <= C 2n eps ||A||_2   (Weyl)
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import wgarray as wg

C = 8
COMPLEX = [np.complex64, np.complex128]
BATCH = st.sampled_from([(), (1,), (3,), (2, 2), (0,)])
DT = st.sampled_from(COMPLEX)
SEED = st.integers(0, 2**32 - 1)


def eps(dt) -> float:
    return float(np.finfo(dt).eps)


def cplx(rng, shape, dt):
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)


def well_conditioned(rng, shape, dt):
    n = shape[-1]
    return (cplx(rng, shape, np.complex128) / (3 * np.sqrt(max(n, 1))) + np.eye(n)).astype(dt)


def frob(a):
    return np.sqrt((np.abs(a) ** 2).sum(axis=(-2, -1)))


@settings(max_examples=8)
@given(dt=DT, n=st.integers(0, 9), batch=BATCH, seed=SEED,
       transposed=st.booleans())
def test_inv(dt, n, batch, seed, transposed):
    rng = np.random.default_rng(seed)
    a = well_conditioned(rng, batch + (n, n), dt)
    x = wg.asarray(a)
    if transposed:  # a strided view: the embedding reads it through real/imag, not its buffer
        a = np.swapaxes(a, -1, -2)
        x = x.mT
    got = wg.linalg.inv(x)
    assert got.dtype == wg.asarray(a).dtype and got.shape == a.shape
    g = got.numpy()
    if a.size == 0:
        return
    resid = frob(a @ g - np.eye(n)) / n
    assert np.all(resid <= C * 2 * n * eps(dt) * np.linalg.cond(a)), resid


@settings(max_examples=8)
@given(dt=DT, n=st.integers(1, 9), k=st.integers(0, 3), batch=BATCH,
       vector=st.booleans(), rhs_real=st.booleans(), seed=SEED)
def test_solve(dt, n, k, batch, vector, rhs_real, seed):
    rng = np.random.default_rng(seed)
    a = well_conditioned(rng, batch + (n, n), dt)
    bshape = (n,) if vector else batch + (n, k)
    b = cplx(rng, bshape, dt)
    if rhs_real:  # real right-hand side of the same precision: the result is still complex, as numpy's
        b = b.real.copy()
    got = wg.linalg.solve(wg.asarray(a), wg.asarray(b))
    want = np.linalg.solve(a, b)
    assert got.dtype == wg.asarray(want).dtype and got.shape == want.shape
    g = got.numpy()
    if g.size == 0:
        return
    ax = a @ (g[..., None] if vector else g)
    bb = np.broadcast_to(b[..., None] if vector else b, ax.shape)
    gx = g[..., None] if vector else g
    resid = frob(ax - bb) / (frob(a) * np.maximum(frob(gx), 1e-300))
    assert np.all(resid <= C * 2 * n * eps(dt)), resid


def test_solve_precision_promotion():
    a = np.eye(2, dtype=np.complex64) * (1 + 1j)
    b = np.ones(2, dtype=np.float64)
    got = wg.linalg.solve(wg.asarray(a), wg.asarray(b))
    assert got.dtype == wg.complex128  # complex64 with float64: complex128, as numpy
    np.testing.assert_allclose(got.numpy(), np.linalg.solve(a, b), rtol=1e-6)


@settings(max_examples=8)
@given(dt=DT, m=st.integers(0, 7), n=st.integers(0, 7), batch=BATCH, seed=SEED)
def test_svdvals_and_norms(dt, m, n, batch, seed):
    rng = np.random.default_rng(seed)
    a = cplx(rng, batch + (m, n), dt)
    s = wg.linalg.svdvals(wg.asarray(a))
    want = np.linalg.svd(a, compute_uv=False)
    assert s.dtype == wg.asarray(want).dtype and s.shape == want.shape
    if want.size == 0:
        return
    bound = C * 2 * max(m, n) * eps(dt) * want[..., :1]
    assert np.all(np.abs(s.numpy() - want) <= bound)
    for ord_ in (2, -2, "nuc"):
        got = wg.linalg.matrix_norm(wg.asarray(a), ord=ord_).numpy()
        ref = np.linalg.norm(a, ord=ord_, axis=(-2, -1))
        assert np.all(np.abs(got - ref) <= bound[..., 0] * min(m, n)), ord_


@settings(max_examples=6)
@given(dt=DT, m=st.integers(1, 7), n=st.integers(1, 7), batch=BATCH, seed=SEED)
def test_pinv(dt, m, n, batch, seed):
    rng = np.random.default_rng(seed)
    a = cplx(rng, batch + (m, n), dt)
    cond = np.linalg.cond(a) if a.size else np.ones(batch)
    if np.any(cond > 1e3):  # keep the bound meaningful; ill-conditioned pinv is numpy's own cutoff question
        a = (a + 4 * np.eye(m, n)).astype(dt)
        cond = np.linalg.cond(a) if a.size else cond
    got = wg.linalg.pinv(wg.asarray(a))
    want = np.linalg.pinv(a)
    assert got.dtype == wg.asarray(want).dtype and got.shape == want.shape
    if want.size == 0:
        return
    err = frob(got.numpy() - want) / frob(want)
    assert np.all(err <= C * 2 * max(m, n) * eps(dt) * cond ** 2), err


@settings(max_examples=6)
@given(dt=DT, m=st.integers(1, 7), n=st.integers(1, 7), data=st.data(),
       seed=SEED)
def test_matrix_rank(dt, m, n, data, seed):
    rng = np.random.default_rng(seed)
    r = data.draw(st.integers(0, min(m, n)), label="rank")
    a = (cplx(rng, (2, m, r), np.complex128) @ cplx(rng, (2, r, n), np.complex128)).astype(dt)
    got = wg.linalg.matrix_rank(wg.asarray(a))
    np.testing.assert_array_equal(got.numpy(), np.linalg.matrix_rank(a))
    assert got.numpy().tolist() == [r, r]


@pytest.mark.parametrize("dt", COMPLEX)
def test_matrix_power_negative(dt):
    rng = np.random.default_rng(7)
    a = well_conditioned(rng, (2, 4, 4), dt)
    got = wg.linalg.matrix_power(wg.asarray(a), -3)
    want = np.linalg.matrix_power(a, -3)
    assert got.dtype == wg.asarray(want).dtype
    np.testing.assert_allclose(got.numpy(), want, rtol=C * 8 * eps(dt) * 50, atol=C * 8 * eps(dt) * 50)


def test_singular_and_non_finite():
    sing = np.array([[1 + 1j, 2 + 2j], [1j * (1 + 1j), 1j * (2 + 2j)]], dtype=np.complex64)  # row 2 = i * row 1
    with pytest.raises(np.linalg.LinAlgError):
        wg.linalg.inv(wg.asarray(sing))
    with wg.linalg.errors("nan"):
        assert np.all(np.isnan(wg.linalg.inv(wg.asarray(sing)).numpy()))
    bad = np.array([[np.nan, 0], [0, 1]], dtype=np.complex128)
    with pytest.raises(np.linalg.LinAlgError):
        wg.linalg.svdvals(wg.asarray(bad))
    x = wg.asarray(bad)
    wg.linalg.inv(wg.asarray(np.eye(2, dtype=np.complex128)))  # the device stays usable; input intact
    np.testing.assert_array_equal(x.numpy(), bad)


def hermitian_pd(rng, shape, dt, garbage: bool):
    """A Hermitian positive-definite stack; with ``garbage`` its strict upper triangle and the imaginary parts of
    its diagonal are overwritten with noise, which the solvers must not read (numpy's do not)."""
    b = cplx(rng, shape, np.complex128)
    a = b @ np.conj(np.swapaxes(b, -1, -2)) + shape[-1] * np.eye(shape[-1])
    if garbage:
        n = shape[-1]
        a = a + np.triu(cplx(rng, shape, np.complex128), 1) + 1j * np.eye(n) * rng.standard_normal(shape[:-1])[..., None]
    return a.astype(dt)


@settings(max_examples=10)
@given(dt=DT, n=st.integers(0, 9), batch=BATCH, seed=SEED, upper=st.booleans(), garbage=st.booleans())
def test_cholesky(dt, n, batch, seed, upper, garbage):
    rng = np.random.default_rng(seed)
    a = hermitian_pd(rng, batch + (n, n), dt, garbage)
    if upper:  # numpy reads the upper triangle then: the garbage goes below it
        a = np.conj(np.swapaxes(a, -1, -2))
    got = wg.linalg.cholesky(wg.asarray(a), upper=upper)
    want = np.linalg.cholesky(a, upper=upper)
    assert got.dtype == wg.asarray(want).dtype and got.shape == want.shape
    g = got.numpy()
    if g.size == 0:
        return
    low = np.conj(np.swapaxes(g, -1, -2)) if upper else g
    assert np.all(np.triu(low, 1) == 0)
    d = np.diagonal(low, axis1=-2, axis2=-1)
    assert np.all(d.imag == 0) and np.all(d.real > 0)
    h = np.conj(np.swapaxes(want, -1, -2)) @ want if upper else want @ np.conj(np.swapaxes(want, -1, -2))
    resid = frob(low @ np.conj(np.swapaxes(low, -1, -2)) - h) / frob(h)
    assert np.all(resid <= C * 2 * n * eps(dt)), resid


@settings(max_examples=10)
@given(dt=DT, n=st.integers(0, 9), batch=BATCH, seed=SEED, garbage=st.booleans(),
       repeated=st.booleans())
def test_eigvalsh(dt, n, batch, seed, garbage, repeated):
    rng = np.random.default_rng(seed)
    if repeated:  # eigenvalues 1 and 2, each about n/2 times: the embedding's pairs meet other pairs
        q = np.linalg.qr(cplx(rng, batch + (n, n), np.complex128))[0]
        lam = 1.0 + (np.arange(n) % 2)
        a = ((q * lam) @ np.conj(np.swapaxes(q, -1, -2))).astype(dt)
    else:
        a = hermitian_pd(rng, batch + (n, n), dt, garbage)
    got = wg.linalg.eigvalsh(wg.asarray(a))
    want = np.linalg.eigvalsh(a)
    assert got.dtype == wg.asarray(want).dtype and got.shape == want.shape
    if want.size:
        bound = C * 2 * n * eps(dt) * np.abs(want).max(axis=-1, keepdims=True)
        assert np.all(np.abs(got.numpy() - want) <= bound)


def test_cholesky_not_positive_definite():
    a = np.array([[[4, 1j], [-1j, 2]], [[1, 2j], [-2j, 1]]], dtype=np.complex64)  # the second is indefinite
    with pytest.raises(np.linalg.LinAlgError):
        wg.linalg.cholesky(wg.asarray(a))
    with wg.linalg.errors("nan"):
        g = wg.linalg.cholesky(wg.asarray(a)).numpy()
    np.testing.assert_allclose(g[0], np.linalg.cholesky(a[0]), rtol=1e-6)
    assert np.all(np.isnan(g[1]))
