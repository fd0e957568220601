"""Property tests of wg.linalg's factorisations (cholesky, solve, inv, det, slogdet, matrix_power) against numpy.

Results are not bit for bit (numpy factors float32 in float64; the blocking differs), so the checks are the
backward-error bounds of the algorithms, with eps the compute dtype's epsilon, n the order and C = 8:

    cholesky  ||L L^T - A||_F / ||A||_F            <= C n eps       (L lower, exact zeros above the diagonal)
    solve     ||A x - b||_F / (||A||_F ||x||_F)     <= C n eps
    inv       ||A inv(A) - I||_F / n               <= C n eps cond(A)
    slogdet   |log|det| - numpy's|                 <= C n eps cond(A)  (sign equal), det likewise relative

Both the small path (one workgroup a matrix in workgroup memory) and the blocked path (forced with tiny panels by
lowering kernels.linalg_factor.SMALL_MAX and wgarray.api.linalg.factor.BLOCK, and small tournament leaves through
kernels.linalg_factor.tslu_rows, plus n = 130 and 300 cases at the real block size) are covered, with inputs that need
pivoting (permutations: exact answers), grow under partial pivoting (Wilkinson's matrix: compared with LAPACK's own
residual), are ill-conditioned, or are singular inside a stack.  The fused trailing update (C -= A @ B in place) is
tested on its own against numpy.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import wgarray as wg
from wgarray.api.linalg import factor as F
from wgarray.kernels import launch, linalg_factor as K

C = 8
FLOATS = [np.float32, np.float64]
SIZES = st.one_of(st.integers(0, 9), st.sampled_from([15, 16, 17, 31, 33, 47, 48, 49, 64, 65, 70]))
BATCH = st.sampled_from([(), (1,), (3,), (2, 2)])


def eps(dt) -> float:
    return float(np.finfo(dt).eps)


def well_conditioned(rng, shape, dt):
    n = shape[-1]
    a = rng.standard_normal(shape) / (2 * np.sqrt(max(n, 1)))  # eigenvalues near 1: det stays in range
    return (a + np.eye(n)).astype(dt)


def spd(rng, shape, dt):
    n = shape[-1]
    a = rng.standard_normal(shape)
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(dt)


def fro(x, axes=(-2, -1)):
    return np.sqrt(np.sum(np.abs(x.astype(np.float64)) ** 2, axis=axes))


@pytest.fixture
def blocked(monkeypatch):
    """Every n >= 1 through the blocked path (``blocked_path``)."""
    blocked_path(monkeypatch)


def blocked_path(monkeypatch) -> None:
    """Every n >= 1 through the blocked path, with 8-column panels (several panels from n = 9 on) and tournament
    leaves of 12 rows (several leaves from n = 13 on, the last one often shorter than a panel is wide)."""
    monkeypatch.setattr(K, "SMALL_MAX", 0)
    monkeypatch.setattr(F, "BLOCK", 8)
    monkeypatch.setattr(K, "tslu_rows", 12)


def check_all(rng, batch, n, dt):
    a = well_conditioned(rng, batch + (n, n), dt)
    s = spd(rng, batch + (n, n), dt)
    b = rng.standard_normal(batch + (n, 3)).astype(dt)
    e, tol = eps(dt), C * max(n, 1) * eps(dt)
    a64, s64 = a.astype(np.float64), s.astype(np.float64)

    L = wg.linalg.cholesky(wg.asarray(s)).numpy()
    assert L.dtype == dt and L.shape == s.shape
    assert np.all(np.triu(L, 1) == 0)
    if n:
        assert np.all(fro(L.astype(np.float64) @ np.swapaxes(L, -1, -2) - s64) <= tol * fro(s64))
    U = wg.linalg.cholesky(wg.asarray(s), upper=True).numpy()
    assert np.all(np.tril(U, -1) == 0)
    np.testing.assert_allclose(U, np.swapaxes(L, -1, -2), rtol=100 * tol, atol=100 * tol * np.sqrt(n + 1))

    x = wg.linalg.solve(wg.asarray(a), wg.asarray(b)).numpy()
    assert x.dtype == dt and x.shape == b.shape
    if n:
        r = fro(a64 @ x - b)
        assert np.all(r <= tol * fro(a64) * fro(x))

    ai = wg.linalg.inv(wg.asarray(a)).numpy()
    assert ai.dtype == dt and ai.shape == a.shape
    cond = np.linalg.cond(a64) if n else np.ones(batch)
    if n:
        assert np.all(fro(a64 @ ai - np.eye(n)) / n <= tol * cond)

    sign, logabs = wg.linalg.slogdet(wg.asarray(a))
    ws, wl = np.linalg.slogdet(a64)
    assert sign.shape == batch and logabs.dtype == dt
    np.testing.assert_array_equal(sign.numpy(), ws)
    assert np.all(np.abs(logabs.numpy() - wl) <= tol * cond + 2 * e * np.abs(wl))
    d = wg.linalg.det(wg.asarray(a)).numpy()
    want = np.linalg.det(a64)
    assert np.all(np.abs(d - want) <= (2 * tol * cond + 4 * e) * np.abs(want))


@settings(max_examples=12)
@given(n=SIZES, batch=BATCH, dt=st.sampled_from(FLOATS), seed=st.integers(0, 2**32 - 1))
def test_factorisations_small_and_mixed(n, batch, dt, seed):
    check_all(np.random.default_rng(seed), batch, n, dt)


@settings(max_examples=6, suppress_health_check=[HealthCheck.function_scoped_fixture])  # the patch holds for all
@given(n=st.integers(1, 30), batch=BATCH, dt=st.sampled_from(FLOATS), seed=st.integers(0, 2**32 - 1))
def test_factorisations_blocked(blocked, n, batch, dt, seed):
    check_all(np.random.default_rng(seed), batch, n, dt)


@pytest.mark.parametrize("dt", FLOATS)
def test_blocked_real_block_size(dt):
    check_all(np.random.default_rng(130), (), 130, dt)


def test_blocked_real_block_size_with_leaves():
    # 300 rows: the first panels' tournaments run two leaves of 256 rows (the second one short), 64 columns wide
    assert K.tslu_plan(300, F.BLOCK)[1] == 2
    check_all(np.random.default_rng(300), (), 300, np.float32)


# -- the blocked path's pivoting, growth, conditioning, singular members ------------------------------------------------
@pytest.mark.parametrize("dt", FLOATS)
def test_blocked_permutations_exact(blocked, dt):
    # every pivot is a row swap away (zeros on the diagonal): inv(P) = P^T and det(P) = +-1 exactly, solve permutes
    rng = np.random.default_rng(7)
    perms = [rng.permutation(30) for _ in range(3)] + [np.arange(30)[::-1].copy()]
    p = np.stack([np.eye(30, dtype=dt)[q] for q in perms])
    np.testing.assert_array_equal(wg.linalg.inv(wg.asarray(p)).numpy(), np.swapaxes(p, -1, -2))
    np.testing.assert_array_equal(wg.linalg.det(wg.asarray(p)).numpy(), np.linalg.det(p.astype(np.float64)))
    b = rng.standard_normal((4, 30, 2)).astype(dt)
    np.testing.assert_array_equal(wg.linalg.solve(wg.asarray(p), wg.asarray(b)).numpy(), np.swapaxes(p, -1, -2) @ b)
    # a well-conditioned matrix with its rows scrambled: the same backward error as unscrambled
    a = well_conditioned(rng, (30, 30), dt)[perms[0]]
    x = wg.linalg.solve(wg.asarray(a), wg.asarray(b[0])).numpy()
    assert fro(a.astype(np.float64) @ x - b[0]) <= C * 30 * eps(dt) * fro(a.astype(np.float64)) * fro(x)


def test_blocked_growth_prone(blocked):
    # Wilkinson's matrix: partial pivoting swaps nothing (ties go to the first row, as LAPACK's) and the last column
    # grows as 2^(n-1): the residual is as large as LAPACK's own, not C n eps
    n = 24
    w = np.tril(-np.ones((n, n)), -1) + np.eye(n)
    w[:, -1] = 1.0
    b = np.random.default_rng(5).standard_normal((n, 1))
    x = wg.linalg.solve(wg.asarray(w), wg.asarray(b)).numpy()
    ref = np.linalg.solve(w, b)
    r, r_np = np.linalg.norm(w @ x - b), np.linalg.norm(w @ ref - b)
    assert r <= 10 * r_np + C * n * eps(np.float64) * np.linalg.norm(w) * np.linalg.norm(x)
    np.testing.assert_allclose(wg.linalg.det(wg.asarray(w)).item(), np.linalg.det(w), rtol=1e-12)
    # the tournament must pick the same pivots as a column search here: the factors are exactly 2^k growth
    assert np.array_equal(wg.linalg.slogdet(wg.asarray(w)).sign.numpy(), np.linalg.slogdet(w)[0])


@pytest.mark.parametrize("cond", [1e3, 1e7])
def test_blocked_ill_conditioned(blocked, cond):
    # backward error stays C n eps whatever the conditioning; inv's residual grows with cond (the stated bound)
    rng = np.random.default_rng(11)
    n = 29
    u, _ = np.linalg.qr(rng.standard_normal((n, n)))
    v, _ = np.linalg.qr(rng.standard_normal((n, n)))
    a = (u * np.geomspace(1, 1 / cond, n)) @ v.T
    b = rng.standard_normal((n, 3))
    x = wg.linalg.solve(wg.asarray(a), wg.asarray(b)).numpy()
    assert fro(a @ x - b) <= C * n * eps(np.float64) * fro(a) * fro(x)
    ai = wg.linalg.inv(wg.asarray(a)).numpy()
    assert fro(a @ ai - np.eye(n)) / n <= C * n * eps(np.float64) * np.linalg.cond(a)
    h = 1.0 / (np.arange(20)[:, None] + np.arange(20)[None, :] + 1)  # Hilbert, cond ~ 1e18: still backward stable
    xh = wg.linalg.solve(wg.asarray(h), wg.ones((20,))).numpy()
    assert np.linalg.norm(h @ xh - 1) <= C * 20 * eps(np.float64) * np.linalg.norm(h) * np.linalg.norm(xh)


@pytest.mark.parametrize("dt", FLOATS)
def test_blocked_singular_inside_stack(blocked, dt):
    # a zero column in the second panel, a zero row, a rank-deficient block: exact zero pivots (in a leaf and at the
    # root alike), between regular matrices; raise mode raises, nan mode gives NaN for exactly those
    rng = np.random.default_rng(9)
    n = 27
    a = well_conditioned(rng, (5, n, n), dt)
    a[1, :, 13] = 0
    a[3, 20, :] = 0
    a[4, :, 9:20] = 0  # rank n - 11
    a[4, :, 9] = a[4, :, 2]
    with pytest.raises(np.linalg.LinAlgError, match="Singular"):
        wg.linalg.inv(wg.asarray(a))
    with pytest.raises(np.linalg.LinAlgError, match="Singular"):
        wg.linalg.solve(wg.asarray(a), wg.ones((5, n, 1), dtype=dt))
    with wg.linalg.errors("nan"):
        ai = wg.linalg.inv(wg.asarray(a)).numpy()
        x = wg.linalg.solve(wg.asarray(a), wg.asarray(np.ones((5, n, 2), dt))).numpy()
    bad = [1, 3, 4]
    assert np.isnan(ai[bad]).all() and np.isnan(x[bad]).all()
    for i in (0, 2):
        assert np.isfinite(ai[i]).all()
        a64 = a[i].astype(np.float64)
        assert fro(a64 @ ai[i] - np.eye(n)) / n <= C * n * eps(dt) * np.linalg.cond(a64)
        assert fro(a64 @ x[i] - 1) <= C * n * eps(dt) * fro(a64) * fro(x[i])
    d = wg.linalg.det(wg.asarray(a)).numpy()
    assert np.all(d[bad] == 0) and np.all(d[[0, 2]] != 0)
    s, logabs = wg.linalg.slogdet(wg.asarray(a))
    assert np.all(s.numpy()[bad] == 0) and np.all(logabs.numpy()[bad] == -np.inf)
    np.testing.assert_array_equal(s.numpy()[[0, 2]], np.linalg.slogdet(a[[0, 2]].astype(np.float64))[0])
    check_chol_fails_inside_stack(rng, n, dt, 17)  # in a later panel


def chol_within_bound(L, s, n, dt) -> bool:
    """Cholesky's backward error bound ||L L^T - A||_F <= C n eps ||A||_F, for each matrix of the stack."""
    return bool(np.all(fro(L.astype(np.float64) @ np.swapaxes(L, -1, -2) - s) <= C * n * eps(dt) * fro(s.astype(np.float64))))


def check_chol_fails_inside_stack(rng, n, dt, at):
    """A stack of 3 SPD matrices whose middle one stops being positive definite at pivot ``at``: LinAlgError, and
    in the "nan" mode NaN for it and the others within the bound."""
    s = spd(rng, (3, n, n), dt)
    s[1, at, at] = -1.0
    with pytest.raises(np.linalg.LinAlgError, match="positive definite"):
        wg.linalg.cholesky(wg.asarray(s))
    with wg.linalg.errors("nan"):
        L = wg.linalg.cholesky(wg.asarray(s)).numpy()
    assert np.isnan(L[1]).all() and np.isfinite(L[[0, 2]]).all() and chol_within_bound(L[[0, 2]], s[[0, 2]], n, dt)


# -- the large path's knobs (issue 12; benchmarks/linbig_sweep.py times them): each forced on small matrices -------------
KNOBS = {"inv_tri_off": {"INV_TRI": False}, "subst12": {"SUBST_BLOCK": 12}, "block_big16": {"BLOCK_BIG": 16, "BIG_N": 20},
         "trsm_reg": {"TRSM_REG": 64}, "finish_reg": {"LU_FINISH_REG": True},  # the defaults on GPUs
         "trsm_loop": {"TRSM_REG": 0}, "finish_loop": {"LU_FINISH_REG": False},  # the defaults on CPU adapters
         "chol_fused": {"CHOL_FUSED": True}, "chol_fused_rows5": {"CHOL_FUSED": True, "CHOL_ROWS": 5},
         "tslu_reg": {"TSLU_REG": True}, "tslu_loop": {"TSLU_REG": False},  # the defaults on GPUs / CPU adapters
         "subst_step": {"SUBST_STEP": True, "SUBST_STEP_MAX_K": None},
         "all": {"INV_TRI": True, "SUBST_BLOCK": 12, "BLOCK_BIG": 16, "BIG_N": 20, "TRSM_REG": 64,
                 "LU_FINISH_REG": True, "CHOL_FUSED": True}}  # (TSLU_* alone: lavapipe compiles them slowly)


@pytest.mark.parametrize("knob", list(KNOBS))
def test_blocked_knobs(blocked, monkeypatch, knob):
    # the knob's path is taken (its launches differ from the default's), with the default's backward errors, exact
    # answers for permutations and NaN / LinAlgError for singular and non-PD members
    dev = wg.default_device()
    seen = []  # swap's reverse flags and the kernels compiled (looked up) during one inv
    swap, compile_ = K.swap, launch.compile
    monkeypatch.setattr(F, "REPLAY", False)  # the launches observed through the drivers
    monkeypatch.setattr(K, "swap", lambda *a, **kw: (seen.append(kw.get("reverse", False)), swap(*a, **kw))[1])
    monkeypatch.setattr(launch, "compile", lambda d, key, build, **kw: (
        seen.extend([key[0]] + ([key] if key[0].startswith("linalg_tslu") else [])), compile_(d, key, build, **kw))[1])
    a = wg.asarray(well_conditioned(np.random.default_rng(1), (30, 30), np.float32))
    s = wg.asarray(spd(np.random.default_rng(1), (30, 30), np.float32))

    def launches():
        seen.clear()
        s0 = dev.stats()
        wg.linalg.inv(a)
        wg.linalg.cholesky(s)
        return (dev.stats() - s0).dispatches, seen[:]

    launches()  # warm: the ops layer's one-time recipes (an elementwise op's first call) out of the comparison
    before = launches()
    for attr, v in KNOBS[knob].items():
        monkeypatch.setattr(K if hasattr(K, attr) else F, attr, v)
    after = launches()
    reg = K._reg_default(dev)
    # knobs equal to this device's defaults launch as the default does (on GPUs the fused Cholesky panel is the
    # default, and its rows per workgroup change only the grid)
    same = (("trsm_reg", "finish_reg", "chol_fused", "chol_fused_rows5", "tslu_reg") if reg else
            ("trsm_loop", "finish_loop", "tslu_loop"))
    assert (after == before) == (knob in same) and (True in after[1]) == F.INV_TRI
    # inv's 30 right-hand sides take SUBST_STEP's launches where it applies (GPUs by default: up to
    # SUBST_STEP_MAX_K right-hand sides), else the trsm
    subst = "linalg_lu_subst" in after[1]
    assert subst == (bool(reg if K.SUBST_STEP is None else K.SUBST_STEP)
                     and (K.SUBST_STEP_MAX_K is None or 30 <= K.SUBST_STEP_MAX_K))
    assert ("linalg_trsm_reg" in after[1]) == (bool(reg if K.TRSM_REG is None else K.TRSM_REG) and not subst)
    assert ("linalg_lu_finish_reg" in after[1]) == (reg if K.LU_FINISH_REG is None else K.LU_FINISH_REG)
    tslu_reg = reg if K.TSLU_REG is None else K.TSLU_REG
    assert ("linalg_tslu_reg" in after[1]) == tslu_reg and ("linalg_tslu" in after[1]) != tslu_reg
    # the Cholesky of order 30: CHOL_INV where it applies (GPUs by default; its diagonal blocks one fused launch
    # each there, CHOL_INV_FUSE_APPLY), else the fused panel (None: the device's default, as the register paths) or
    # the block kernels
    big = 30 >= F.BIG_N
    chol_inv = K.chol_inv(dev, wg.float32, F.CHOL_BLOCK_BIG if big and F.CHOL_BLOCK_BIG else F._width(30, False), big)
    assert any(k.startswith("linalg_chol_inv") for k in after[1] if isinstance(k, str)) == chol_inv
    fused = not chol_inv and (reg if K.CHOL_FUSED is None else K.CHOL_FUSED)
    assert ("linalg_chol_panel" in after[1]) == fused
    assert ("linalg_chol_block" in after[1]) == (not chol_inv and not fused)
    rng = np.random.default_rng(12)
    for n, batch, dt in ((1, (), np.float32), (9, (2,), np.float64), (23, (), np.float32), (30, (2,), np.float32)):
        check_all(rng, batch, n, dt)
    test_blocked_permutations_exact(None, np.float32)
    test_blocked_singular_inside_stack(None, np.float32)


@pytest.mark.slow  # ~70 s on lavapipe (compiling the 64-row straight-line trsm); in `make test-long`
def test_knobs_real_block_size(monkeypatch):
    # every knob on at once with 64-column panels (the register kernels' full width, unpadded) and n = 130
    for attr, v in KNOBS["all"].items():
        monkeypatch.setattr(K if hasattr(K, attr) else F, attr, v)
    monkeypatch.setattr(F, "BIG_N", 2048)
    check_all(np.random.default_rng(131), (), 130, np.float32)


# -- the fused trailing update: C -= A @ B in place (kernels.matmul EPILOGUES) --------------------------------------------
@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("epilogue", ["sub", "sub_lower"])
@pytest.mark.parametrize("shape", [(70, 70, 8), (150, 150, 64), (37, 5, 3), (130, 260, 16)])
def test_fused_update(dt, epilogue, shape):
    from wgarray._array import Array
    from wgarray.kernels import matmul as MM
    M, N, Kd = shape
    rng = np.random.default_rng(M + N + Kd)
    big = rng.standard_normal((2, max(M, N) + 11, N + Kd + 13)).astype(dt)  # C, A and B: views of one buffer
    w = wg.asarray(big)
    rs, bs = big.shape[2], big.shape[1] * big.shape[2]

    def view(r, c, h, wd):
        return Array(w.mirror, (2, h, wd), (bs, rs, 1), r * rs + c)
    c, a = view(3, 0, M, N), view(3, N, M, Kd)
    b = Array(w.mirror, (2, Kd, N), (bs, 1, rs), 4 * rs + N)  # rows 4.., columns N.. transposed: k-contiguous
    want = big.astype(np.float64).copy()
    prod = want[:, 3:3 + M, N:N + Kd] @ np.swapaxes(want[:, 4:4 + N, N:N + Kd], -1, -2)
    MM.run(w.device, a, b, c, 2, bs, bs, epilogue=epilogue)
    got = w.numpy()
    exp = want[:, 3:3 + M, :N] - prod
    tol = 4 * Kd * eps(dt) * (np.abs(want[:, 3:3 + M, :N]) + np.abs(prod).max())
    rows, cols = np.indices((M, N))
    if epilogue == "sub":
        assert np.all(np.abs(got[:, 3:3 + M, :N] - exp) <= tol)
    else:  # every element on or below the diagonal updated; tiles wholly above it untouched
        low = rows >= cols
        assert np.all((np.abs(got[:, 3:3 + M, :N] - exp) <= tol)[:, low])
        changed = got[:, 3:3 + M, :N] != big[:, 3:3 + M, :N]
        assert not changed[:, cols > rows + 127].any()
    outside = np.ones(big.shape, bool)
    outside[:, 3:3 + M, :N] = False
    np.testing.assert_array_equal(got[outside], big[outside])  # A, B and the rest of the buffer intact


def test_paths_agree_with_threshold():
    # the small path's limit follows the device's workgroup memory
    dev = wg.default_device()
    lim = dev.properties.limits.max_compute_workgroup_storage_size
    for d in (wg.float32, wg.float64):
        n = K.small_limit(dev, d)
        assert 0 < n <= K.SMALL_MAX and K._shared_bytes(n, d) <= lim


# -- views, broadcasting, dtypes --------------------------------------------------------------------------------------
def test_views():
    rng = np.random.default_rng(1)
    base = well_conditioned(rng, (2, 10, 10), np.float64)
    big = np.zeros((2, 20, 20))
    big[:, ::2, ::2] = base
    for host, view in [(base.transpose(0, 2, 1), wg.asarray(base).mT),
                       (base, wg.asarray(big)[:, ::2, ::2])]:
        np.testing.assert_allclose(wg.linalg.inv(view).numpy(), np.linalg.inv(host), rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(wg.linalg.det(view).numpy(), np.linalg.det(host), rtol=1e-10)
        b = rng.standard_normal((10,))
        np.testing.assert_allclose(wg.linalg.solve(view, wg.asarray(b)).numpy(), np.linalg.solve(host, b),
                                   rtol=1e-10, atol=1e-12)


def test_solve_broadcast_and_vector_rule():
    rng = np.random.default_rng(2)
    a = well_conditioned(rng, (2, 1, 5, 5), np.float64)
    b = rng.standard_normal((3, 5, 4))
    np.testing.assert_allclose(wg.linalg.solve(wg.asarray(a), wg.asarray(b)).numpy(), np.linalg.solve(a, b),
                               rtol=1e-10, atol=1e-12)
    v = rng.standard_normal(5)  # x2.ndim == 1: one vector for every system of the stack
    got = wg.linalg.solve(wg.asarray(a), wg.asarray(v)).numpy()
    assert got.shape == (2, 1, 5)
    np.testing.assert_allclose(got, np.linalg.solve(a, v), rtol=1e-10, atol=1e-12)
    m = rng.standard_normal((2, 1, 5, 1))  # 2-D and more: a stack of (M, K) matrices, even with K = 1
    assert wg.linalg.solve(wg.asarray(a), wg.asarray(m)).shape == (2, 1, 5, 1)
    with pytest.raises(ValueError):
        wg.linalg.solve(wg.asarray(a[:, 0]), wg.asarray(rng.standard_normal((3, 5, 2))))  # (2,) with (3,)
    with pytest.raises(ValueError):
        wg.linalg.solve(wg.asarray(a), wg.asarray(rng.standard_normal((6, 2))))


def test_integer_input_promotes_like_numpy():
    a = np.array([[4, 1], [1, 3]])
    assert wg.linalg.inv(wg.asarray(a)).dtype == wg.float64
    np.testing.assert_allclose(wg.linalg.inv(wg.asarray(a)).numpy(), np.linalg.inv(a), rtol=1e-14)
    np.testing.assert_allclose(wg.linalg.det(wg.asarray(a)).numpy(), np.linalg.det(a), rtol=1e-14)
    np.testing.assert_allclose(wg.linalg.cholesky(wg.asarray(a)).numpy(), np.linalg.cholesky(a), rtol=1e-14)
    with pytest.raises(TypeError):
        wg.linalg.inv(wg.asarray(a.astype(np.float16)))


# -- bad and hard input -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("fn", [wg.linalg.cholesky, wg.linalg.inv, wg.linalg.det, wg.linalg.slogdet,
                                lambda x: wg.linalg.matrix_power(x, 2), lambda x: wg.linalg.solve(x, x)])
def test_not_square(fn):
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        fn(wg.ones((2, 3)))
    with pytest.raises(np.linalg.LinAlgError, match="two-dimensional"):
        fn(wg.ones((3,)))
    assert wg.linalg.LinAlgError is np.linalg.LinAlgError


def test_empty_matrices():
    z = wg.zeros((2, 0, 0))
    assert wg.linalg.det(z).numpy().tolist() == [1.0, 1.0]
    s, logabs = wg.linalg.slogdet(z)
    assert s.numpy().tolist() == [1.0, 1.0] and logabs.numpy().tolist() == [0.0, 0.0]
    assert wg.linalg.inv(z).shape == (2, 0, 0) and wg.linalg.cholesky(z).shape == (2, 0, 0)
    assert wg.linalg.solve(z, wg.zeros((2, 0, 3))).shape == (2, 0, 3)
    assert wg.linalg.det(wg.zeros((0, 3, 3))).shape == (0,)


@pytest.mark.parametrize("path", ["small", "blocked"])
@pytest.mark.parametrize("dt", FLOATS)
def test_singular_and_not_pd(request, path, dt):
    if path == "blocked":
        request.getfixturevalue("blocked")
    sing = np.array([[[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]], np.eye(3) * 2]).astype(dt)
    zero = np.zeros((3, 3), dt)
    for m in (sing, zero):
        with pytest.raises(np.linalg.LinAlgError, match="Singular"):
            wg.linalg.inv(wg.asarray(m))
        with pytest.raises(np.linalg.LinAlgError, match="Singular"):
            wg.linalg.solve(wg.asarray(m), wg.ones(m.shape[:-1] + (1,), dtype=dt))
    assert wg.linalg.det(wg.asarray(zero)).item() == 0.0
    s, logabs = wg.linalg.slogdet(wg.asarray(sing))
    assert s.numpy().tolist() == [0.0, 1.0] and logabs.numpy()[0] == -np.inf
    np.testing.assert_allclose(logabs.numpy()[1], 3 * np.log(2), rtol=1e-6)
    assert wg.linalg.det(wg.asarray(sing)).numpy()[0] == 0.0
    with wg.linalg.errors("nan"):
        assert wg.linalg.errors() == "nan"
        got = wg.linalg.inv(wg.asarray(sing)).numpy()
        assert np.isnan(got[0]).all()  # the singular one: NaN, never a wrong finite answer
        np.testing.assert_allclose(got[1], np.eye(3) / 2)
        x = wg.linalg.solve(wg.asarray(sing), wg.ones((2, 3, 2), dtype=dt)).numpy()
        assert np.isnan(x[0]).all() and np.isfinite(x[1]).all()
    assert wg.linalg.errors() == "raise"
    not_pd = np.array([[[1.0, 2.0], [2.0, 1.0]], [[4.0, 0.0], [0.0, -1.0]], [[2.0, 0.0], [0.0, 2.0]]]).astype(dt)
    with pytest.raises(np.linalg.LinAlgError, match="positive definite"):
        wg.linalg.cholesky(wg.asarray(not_pd))
    with wg.linalg.errors("nan"):
        got = wg.linalg.cholesky(wg.asarray(not_pd)).numpy()
    assert np.isnan(got[:2]).all()
    np.testing.assert_allclose(got[2], np.sqrt(2) * np.eye(2), rtol=1e-6)
    with pytest.raises(ValueError):
        wg.linalg.errors("ignore")


def test_nan_and_inf_input():
    a = np.eye(4)
    a[1, 2] = np.nan
    assert np.isnan(wg.linalg.det(wg.asarray(a)).item())
    assert np.isnan(wg.linalg.slogdet(wg.asarray(a)).logabsdet.item())
    with wg.linalg.errors("nan"):
        assert np.isnan(wg.linalg.inv(wg.asarray(a)).numpy()).any()
        assert np.isnan(wg.linalg.solve(wg.asarray(a), wg.ones((4,))).numpy()).any()
    with pytest.raises(np.linalg.LinAlgError):  # numpy (LAPACK potrf) rejects a NaN pivot too
        wg.linalg.cholesky(wg.asarray(np.full((2, 2), np.nan)))
    b = np.eye(3)
    b[0, 0] = np.inf
    assert not np.isfinite(wg.linalg.det(wg.asarray(b)).item())


NAN_PIVOTS = [  # getrf's choices with NaN (isamax: a NaN wins only as the first element, at position j)
    [[np.nan, 1], [0, 1]],  # a NaN at position 0 is kept: numpy NaN (it was 0 against an exact zero)
    [[0, 1], [np.nan, 1]],  # a NaN below position 0 never wins: the zero is the pivot, det 0
    [[1, 1, 3], [0, np.nan, 1], [2, 2, 1]],  # after the swap of rows 0 and 2, row 1 is at position 1: NaN kept
    [[1, np.nan, 3], [0, 0, 1], [2, 2, 1]],  # ... and row 0 (NaN) is not at position 1: the zero, det 0
    [[0, 1, 5, 0], [0, 0, 1, 0], [0, 0, np.nan, 1], [1, 0, 0, 0]],  # positions after a chain of swaps
    [[0, 1, 0, 0], [0, 0, np.nan, 0], [0, 0, 0, 1], [1, 0, 0, 0]],
]


def det_as_numpy(a: np.ndarray) -> None:
    """det and slogdet of the matrix a: NaN where numpy's are, numpy's exact values elsewhere."""
    d = wg.linalg.det(wg.asarray(a)).item()
    s, la = (t.item() for t in wg.linalg.slogdet(wg.asarray(a)))
    with np.errstate(invalid="ignore"):
        wd, (ws, wla) = np.linalg.det(a), np.linalg.slogdet(a)
    assert np.isnan(d) == np.isnan(wd) and np.isnan(la) == np.isnan(wla), a
    if not np.isnan(wd):
        assert d == wd and s == ws and la == wla, a


@pytest.mark.parametrize("dt", FLOATS)
def test_small_nan_pivot_as_isamax(dt):
    # the small path's pivot search keeps getrf's choice where the column holds a NaN: NaN where numpy's det is
    # NaN, numpy's exact (0, 0, -inf) or value elsewhere
    for m in NAN_PIVOTS:
        det_as_numpy(np.array(m, dtype=dt))


def _nan_cases(n):
    """(name, matrix of order n) pairs with a NaN or inf that the blocked path's pivot search can pass over."""
    cases = []
    for name, (i, j, v) in {"diag first panel": (0, 0, np.nan), "diag later panel": (10, 10, np.nan),
                            "L part": (12, 5, np.nan), "U part": (5, 12, np.nan), "last": (n - 1, n - 1, np.nan),
                            "inf U part": (5, 12, np.inf)}.items():
        a = np.eye(n)
        a[i, j] = v
        cases.append((name, a))
    a = np.eye(n)  # a row never chosen as a pivot: its column is zero elsewhere, so a zero pivot is taken instead
    a[:, n - 3] = 0
    a[n - 3, 3] = np.nan
    cases.append(("row never a pivot", a))
    a = np.eye(n)  # a NaN in a column past a zero pivot (numpy's det: 0, LAPACK's info; ours NaN)
    a[:, 2] = 0
    a[15, 15] = np.nan
    cases.append(("NaN past a zero pivot", a))
    a = np.eye(n)  # inf / inf = NaN in row 12 after the first column (numpy's det: inf; ours NaN, never finite)
    a[0, 0] = a[12, 0] = np.inf
    cases.append(("inf makes NaN", a))
    rng = np.random.default_rng(n)
    a = rng.standard_normal((n, n)) + 4 * np.eye(n)
    a[15, 2] = np.nan
    cases.append(("dense", a))
    return cases


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("reg", [False, True])
def test_blocked_nan_never_finite(blocked, monkeypatch, dt, reg):
    # the tournament's pivot search passes over NaN (a zero pivot wins against it), where getrf would take it:
    # every NaN of the input (or made by inf - inf, inf / inf) is seen by some panel's loads and marks its matrix
    # (info = NAN_INFO): det and log|det| NaN (sign NaN), solve / inv NaN and no LinAlgError in the 'raise' mode
    # (the small path's "NaN input gives NaN"), the stack's other members untouched
    monkeypatch.setattr(K, "TSLU_REG", reg)
    n = 20
    rng = np.random.default_rng(1)
    for name, m in _nan_cases(n):
        good = well_conditioned(rng, (n, n), dt)
        a = np.stack([good, m.astype(dt), good[::-1]])
        d = wg.linalg.det(wg.asarray(a)).numpy()
        s, la = (t.numpy() for t in wg.linalg.slogdet(wg.asarray(a)))
        x = wg.linalg.solve(wg.asarray(a), wg.ones((3, n, 2), dtype=dt)).numpy()  # 'raise': no LinAlgError
        ai = wg.linalg.inv(wg.asarray(a)).numpy()
        assert np.isnan(d[1]) and np.isnan(la[1]), name  # (the sign: NaN where marked, else +-1 as numpy's)
        assert np.isnan(x[1]).all() and np.isnan(ai[1]).all(), name
        for k in (0, 2):  # the other members keep their answers
            wd = np.linalg.det(a[k].astype(np.float64))
            assert abs(d[k] - wd) <= C * n * eps(dt) * np.linalg.cond(a[k].astype(np.float64)) * abs(wd), name
            assert np.isfinite(x[k]).all() and np.isfinite(ai[k]).all(), name
    sing = np.eye(n, dtype=dt)
    sing[:, 4] = 0  # a singular member beside a NaN one: still LinAlgError, and det 0 for it
    a = np.stack([_nan_cases(n)[0][1].astype(dt), sing])
    with pytest.raises(np.linalg.LinAlgError, match="Singular"):
        wg.linalg.solve(wg.asarray(a), wg.ones((2, n, 1), dtype=dt))
    s, la = (t.numpy() for t in wg.linalg.slogdet(wg.asarray(a)))
    assert np.isnan(la[0]) and s[1] == 0 and la[1] == -np.inf


def test_ill_conditioned():
    n = 12
    h = 1.0 / (np.arange(n)[:, None] + np.arange(n)[None, :] + 1)  # Hilbert, cond ~ 1e16
    x = wg.linalg.solve(wg.asarray(h), wg.ones((n,))).numpy()
    assert np.linalg.norm(h @ x - 1) <= C * n * eps(np.float64) * np.linalg.norm(h) * np.linalg.norm(x)
    # log|det| is only as good as cond(h) allows (numpy's own differs from the exact value by ~0.04 here)
    got = wg.linalg.slogdet(wg.asarray(h))
    assert got.sign.item() == 1.0 and abs(got.logabsdet.item() - np.linalg.slogdet(h)[1]) < 1.0


# -- matrix_power ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("k", [-3, -1, 0, 1, 2, 5])
def test_matrix_power(k):
    rng = np.random.default_rng(3)
    a = well_conditioned(rng, (2, 4, 4), np.float64) / 3
    np.testing.assert_allclose(wg.linalg.matrix_power(wg.asarray(a), k).numpy(), np.linalg.matrix_power(a, k),
                               rtol=1e-10, atol=1e-12)
    ia = np.arange(9).reshape(3, 3) % 4
    got = wg.linalg.matrix_power(wg.asarray(ia), k if k >= 0 else 2)
    want = np.linalg.matrix_power(ia, k if k >= 0 else 2)
    assert got.dtype == wg.asarray(want).dtype
    np.testing.assert_array_equal(got.numpy(), want)


def test_matrix_power_bad_exponent():
    with pytest.raises(TypeError):
        wg.linalg.matrix_power(wg.eye(2), 1.5)
    m = wg.eye(2)
    assert wg.linalg.matrix_power(m, 1) is not m


# -- the small path: several matrices a workgroup, one dispatch a call ------------------------------------------------
def _small_orders(dt):
    lim = K.small_limit(wg.default_device(), wg.float32 if dt == np.float32 else wg.float64)
    return sorted({1, 2, 3, 5, 8, 9, 16, 17, 31, 32, 33, lim} - {n for n in (33,) if n > lim})


@pytest.mark.parametrize("dt", FLOATS)
def test_small_stacks_with_failures_inside(dt):
    """21 matrices (not a multiple of the 2-8 a workgroup) with failing ones at workgroup edges (0, 7, 8, 20):
    only those come back NaN (det 0), every other one matches numpy, and 'raise' raises."""
    rng = np.random.default_rng(21)
    bad = [0, 7, 8, 20]
    for n in _small_orders(dt):
        e, tol = eps(dt), C * n * eps(dt)
        a = well_conditioned(rng, (21, n, n), dt)
        s = spd(rng, (21, n, n), dt)
        b = rng.standard_normal((21, n, 3)).astype(dt)
        a[bad, :, n // 2] = 0  # a zero column: singular
        s[bad, n - 1, n - 1] = -1.0  # the last pivot negative: not positive definite
        good = [k for k in range(21) if k not in bad]
        with wg.linalg.errors("nan"):
            L = wg.linalg.cholesky(wg.asarray(s)).numpy()
            U = wg.linalg.cholesky(wg.asarray(s), upper=True).numpy()
            x = wg.linalg.solve(wg.asarray(a), wg.asarray(b)).numpy()
            ai = wg.linalg.inv(wg.asarray(a)).numpy()
        for got in (L, U, x, ai):
            assert np.isnan(got[bad]).all(), n
            assert np.isfinite(got[good]).all(), n
        s64, a64 = s[good].astype(np.float64), a[good].astype(np.float64)
        Lg = L[good].astype(np.float64)
        assert np.all(np.triu(L[good], 1) == 0) and np.all(np.tril(U[good], -1) == 0)
        assert np.all(fro(Lg @ np.swapaxes(Lg, -1, -2) - s64) <= tol * fro(s64)), n
        np.testing.assert_array_equal(U[good], np.swapaxes(L[good], -1, -2))
        assert np.all(fro(a64 @ x[good] - b[good]) <= tol * fro(a64) * fro(x[good])), n
        cond = np.linalg.cond(a64)
        assert np.all(fro(a64 @ ai[good] - np.eye(n)) / n <= tol * cond), n
        sign, logabs = wg.linalg.slogdet(wg.asarray(a))
        ws, wl = np.linalg.slogdet(a64)
        assert np.all(sign.numpy()[bad] == 0) and np.all(logabs.numpy()[bad] == -np.inf)
        np.testing.assert_array_equal(sign.numpy()[good], ws)
        assert np.all(np.abs(logabs.numpy()[good] - wl) <= tol * cond + 2 * e * np.abs(wl)), n
        assert np.all(wg.linalg.det(wg.asarray(a)).numpy()[bad] == 0)
        with pytest.raises(np.linalg.LinAlgError, match="positive definite"):
            wg.linalg.cholesky(wg.asarray(s))
        with pytest.raises(np.linalg.LinAlgError, match="Singular"):
            wg.linalg.inv(wg.asarray(a))
        with pytest.raises(np.linalg.LinAlgError, match="Singular"):
            wg.linalg.solve(wg.asarray(a), wg.asarray(b))
        # the good ones alone: no error in 'raise' mode (the status word starts at zero each call)
        wg.linalg.cholesky(wg.asarray(s[good]))
        wg.linalg.inv(wg.asarray(a[good]))


def test_small_nan_input_stays_in_its_matrix():
    rng = np.random.default_rng(5)
    for n in (4, 12, 30):
        a = well_conditioned(rng, (19, n, n), np.float32)
        s = spd(rng, (19, n, n), np.float32)
        a[9, 1, 2] = np.nan
        s[9, 0, 0] = np.nan
        with wg.linalg.errors("nan"):
            ai = wg.linalg.inv(wg.asarray(a)).numpy()
            L = wg.linalg.cholesky(wg.asarray(s)).numpy()
        assert np.isnan(ai[9]).any() and np.isfinite(np.delete(ai, 9, axis=0)).all()
        assert np.isnan(L[9]).all() and np.isfinite(np.delete(L, 9, axis=0)).all()
        assert np.isnan(wg.linalg.det(wg.asarray(a)).numpy()[9])
        with pytest.raises(np.linalg.LinAlgError):
            wg.linalg.cholesky(wg.asarray(s))


def test_small_one_dispatch_reads_views_in_place():
    """An input already in the compute dtype is read where it lies (transposed, strided, offset, broadcast): one
    dispatch, no copy; 'raise' adds only the 4-byte status write and read, in the same submission."""
    dev = wg.default_device()
    rng = np.random.default_rng(8)
    base = well_conditioned(rng, (4, 14, 14), np.float32)
    big = wg.asarray(np.pad(base, ((0, 0), (3, 1), (2, 5))))  # offset and row stride 21
    views = [(base[1:3, :7, :7].transpose(0, 2, 1), big[1:3, 3:10, 2:9].mT),
             (base[:, ::2, ::2], big[:, 3:17:2, 2:16:2]),
             (base[2, :9, :9], big[2, 3:12, 2:11])]
    b = rng.standard_normal((5, 7, 2)).astype(np.float32)
    for host, view in views:
        view.mirror.buffer()
        with wg.linalg.errors("nan"):
            before = dev.stats()
            got = wg.linalg.inv(view)
            assert (dev.stats() - before).dispatches == 1
        np.testing.assert_allclose(got.numpy(), np.linalg.inv(host), rtol=1e-4, atol=1e-5)
        before = dev.stats()
        got = wg.linalg.inv(view).numpy()
        d = dev.stats() - before
        assert (d.dispatches, d.uploads, d.downloads, d.submits) == (1, 1, 2, 2)  # status read, then the result
        np.testing.assert_allclose(got, np.linalg.inv(host), rtol=1e-4, atol=1e-5)
    one = wg.asarray(base[0, :7, :7])  # one matrix against a stack (batch stride 0), and the reverse
    bw = wg.asarray(b)
    np.testing.assert_allclose(wg.linalg.solve(one, bw).numpy(), np.linalg.solve(base[0, :7, :7], b), rtol=1e-4,
                               atol=1e-5)
    stack = wg.asarray(base[:, :7, :7])
    np.testing.assert_allclose(wg.linalg.solve(stack, bw[0]).numpy(), np.linalg.solve(base[:, :7, :7], b[0]),
                               rtol=1e-4, atol=1e-5)
    rev = wg.asarray(base)[::-1, ::-1]  # negative strides: copied first, same answer
    np.testing.assert_allclose(wg.linalg.det(rev).numpy(), np.linalg.det(base[::-1, ::-1].astype(np.float64)),
                               rtol=1e-3)
    x = wg.asarray(base[:, :6, :6])
    np.testing.assert_allclose(wg.linalg.solve(x, x).numpy(), np.broadcast_to(np.eye(6), (4, 6, 6)), atol=1e-5)


def test_lu_panels_capped_by_lu_block(blocked, monkeypatch):
    # LU_BLOCK caps LU's panel width (solve, inv) and leaves Cholesky's at BLOCK: the panels' sizes as launched
    widths = []
    tslu, chol = K.tslu, K.cholesky_block
    monkeypatch.setattr(F, "REPLAY", False)  # the launches observed through the drivers
    monkeypatch.setattr(K, "tslu", lambda *a, **kw: (widths.append(("lu", a[7])), tslu(*a, **kw))[1])
    monkeypatch.setattr(K, "cholesky_block", lambda *a, **kw: (widths.append(("chol", a[6])), chol(*a, **kw))[1])
    monkeypatch.setattr(K, "CHOL_FUSED", False)
    monkeypatch.setattr(K, "CHOL_INV", False)
    monkeypatch.setattr(F, "LU_BLOCK", 4)
    a = well_conditioned(np.random.default_rng(2), (20, 20), np.float32)
    s = spd(np.random.default_rng(2), (20, 20), np.float32)
    x = wg.linalg.solve(wg.asarray(a), wg.asarray(np.eye(20, dtype=np.float32)))
    np.testing.assert_allclose(x.numpy() @ a, np.eye(20), atol=1e-4)
    low = wg.linalg.cholesky(wg.asarray(s)).numpy()
    np.testing.assert_allclose(low @ low.T, s, rtol=1e-4, atol=1e-4)
    assert {w for k, w in widths if k == "lu"} == {4} and {w for k, w in widths if k == "chol"} == {8, 4}


@pytest.mark.parametrize("gpu", [True, False])
def test_tslu_reg_default_follows_the_adapter(blocked, monkeypatch, gpu):
    # TSLU_REG = None: the register tournament on GPUs, the loop on CPU adapters (as TRSM_REG / LU_FINISH_REG); the
    # first tournament kernel looked up says which (stopped there: lavapipe compiles the register body slowly)
    class Seen(Exception):
        pass

    def compile_(d, key, build, **kw):  # (kw: matmul's checks=False for its unchecked variants)
        if key[0].startswith("linalg_tslu"):
            raise Seen(key[0])
        return compile_orig(d, key, build, **kw)
    compile_orig = launch.compile
    monkeypatch.setattr(K, "TSLU_REG", None)
    monkeypatch.setattr(K, "_reg_default", lambda device: gpu)
    monkeypatch.setattr(F, "REPLAY", False)  # the launches observed through the drivers
    monkeypatch.setattr(launch, "compile", compile_)
    with pytest.raises(Seen) as seen:
        wg.linalg.inv(wg.asarray(well_conditioned(np.random.default_rng(3), (20, 20), np.float32)))
    assert str(seen.value) == ("linalg_tslu_reg" if gpu else "linalg_tslu")


def test_chol_rows_beyond_the_workgroup_refuse(blocked, monkeypatch):
    # the fused panel solves a row an invocation: more rows a workgroup than invocations would leave rows unsolved
    monkeypatch.setattr(K, "CHOL_FUSED", True)
    monkeypatch.setattr(K, "CHOL_INV", False)  # (CHOL_INV, the GPUs' default, takes precedence)
    monkeypatch.setattr(K, "CHOL_ROWS", K.PANEL_WG + 1)
    s = wg.asarray(spd(np.random.default_rng(3), (20, 20), np.float32))
    with pytest.raises(ValueError, match="CHOL_ROWS"):
        wg.linalg.cholesky(s)
    monkeypatch.setattr(K, "CHOL_ROWS", 7)
    low = wg.linalg.cholesky(s).numpy()
    np.testing.assert_allclose(low @ low.T, s.numpy(), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("reg", [True, False])  # ~12 / 7 s on lavapipe
def test_tslu_several_rows_an_invocation(blocked, monkeypatch, reg):
    # 32-invocation tournament workgroups: leaves of 70 rows and the root's candidates take 1-3 rows an invocation
    # (the register body's v{k}_{c} for k > 0; at the real sizes the leaves of n = 4096 take 2): solve, inv and
    # det with the default's backward errors, and NaN / LinAlgError for singular members (LU only: Cholesky's
    # kernels assume 64 invocations or more)
    monkeypatch.setattr(K, "PANEL_WG", 32)
    monkeypatch.setattr(K, "tslu_rows", 70)
    monkeypatch.setattr(K, "TSLU_REG", reg)
    rng = np.random.default_rng(5)
    for n, dt in ((40, np.float64), (150, np.float32)):  # the root alone (2 rows each), then 3 leaves
        a = well_conditioned(rng, (2, n, n), dt)
        a[1] = a[1][rng.permutation(n)]  # pivots everywhere
        a[0, :, 30] = 0  # singular, exactly
        b = rng.standard_normal((2, n, 3)).astype(dt)
        tol = C * n * eps(dt)
        with wg.linalg.errors("nan"):
            x = wg.linalg.solve(wg.asarray(a), wg.asarray(b)).numpy()
            ai = wg.linalg.inv(wg.asarray(a)).numpy()
        assert np.isnan(x[0]).all() and np.isnan(ai[0]).all()
        a64 = a[1].astype(np.float64)
        assert fro(a64 @ x[1] - b[1]) <= tol * fro(a64) * fro(x[1])
        assert fro(a64 @ ai[1] - np.eye(n)) / n <= tol * np.linalg.cond(a64)
        with pytest.raises(np.linalg.LinAlgError, match="Singular"):
            wg.linalg.solve(wg.asarray(a), wg.asarray(b))
        s_, logabs = wg.linalg.slogdet(wg.asarray(a))
        ws_, wl = np.linalg.slogdet(a64)
        assert s_.numpy()[0] == 0 and s_.numpy()[1] == ws_
        assert abs(logabs.numpy()[1] - wl) <= tol * np.linalg.cond(a64) + 2 * eps(dt) * abs(wl)


def spy_sources(monkeypatch) -> dict:
    """launch.compile spied: a key must always come with the same WGSL and workgroup size (a module constant that
    shapes a kernel but is missing from its key would reuse the stale pipeline built under the old value)."""
    built: dict = {}
    compile_ = launch.compile

    def spy(d, key, build, **kw):
        k = build()
        got = (k.source(), k.invocations)
        assert built.setdefault(key, got) == got, f"{key}: another kernel under the same key"
        return compile_(d, key, build, **kw)
    monkeypatch.setattr(launch, "compile", spy)
    return built


def test_module_constants_in_compile_keys(blocked, monkeypatch):
    # WG (trsm, swap, lu_finish, det, lu_global, nanfill, nanscan) and TSLU_IDS (the root's ids) changed at run time:
    # new kernels, built at the new values, and the answers right under each
    built = spy_sources(monkeypatch)
    monkeypatch.setattr(F, "REPLAY", False)  # the launches observed through compile
    rng = np.random.default_rng(11)
    n = 20
    a = well_conditioned(rng, (2, n, n), np.float32)
    b = rng.standard_normal((2, n, 3)).astype(np.float32)
    c = (a + 1j * well_conditioned(rng, (2, n, n), np.float32)).astype(np.complex64)
    a64, tol = a.astype(np.float64), C * n * eps(np.float32)
    sizes = set()
    for wgs, ids in ((64, 2048), (32, 1024), (64, 2048)):
        monkeypatch.setattr(K, "WG", wgs)
        monkeypatch.setattr(K, "TSLU_IDS", ids)
        x = wg.linalg.solve(wg.asarray(a), wg.asarray(b)).numpy()
        assert np.all(fro(a64 @ x - b) <= tol * fro(a64) * fro(x))
        ai = wg.linalg.inv(wg.asarray(a)).numpy()
        assert np.all(fro(a64 @ ai - np.eye(n)) / n <= tol * np.linalg.cond(a64))
        s, la = (t.numpy() for t in wg.linalg.slogdet(wg.asarray(a)))
        np.testing.assert_allclose(la, np.linalg.slogdet(a64)[1], atol=tol * np.linalg.cond(a64).max())
        np.testing.assert_allclose(wg.linalg.det(wg.asarray(c)).numpy(), np.linalg.det(c.astype(np.complex128)),
                                   rtol=1e-3)
        sizes |= {got[1] for key, got in built.items() if key[0] in ("linalg_swap", "linalg_det")}
    assert sizes == {32, 64}
    assert len({key for key in built if key[0].startswith("linalg_tslu") and not key[2]}) >= 2  # the root at both TSLU_IDS


def test_trusted_view_checks_bounds():
    # the blocked drivers' fast views (Array._trusted_view) still refuse to address outside their base
    w = wg.zeros((2, 4, 4))
    v = wg.Array._trusted_view(w.mirror, (2, 2, 3), (16, 4, 1), 5)
    assert v.shape == (2, 2, 3) and v.strides == (16, 4, 1) and v.offset == 5
    np.testing.assert_array_equal(v.numpy(), np.zeros((2, 2, 3)))
    for shape, strides, offset in (((2, 2, 3), (16, 4, 1), 22), ((2, 4, 4), (16, 4, 1), -1), ((2, 4), (16, 4, 1), 0)):
        with pytest.raises(ValueError, match="outside its base"):
            wg.Array._trusted_view(w.mirror, shape, strides, offset)


def test_replay_swaps_buffers_and_follows_knobs(blocked, monkeypatch):
    # REPLAY: the second solve / inv of a shape replays the first one's launches (the drivers not called) on the new
    # call's buffers: the answers of other data bit for bit those of the drivers, singular members NaN; a knob
    # change records anew
    monkeypatch.setattr(F, "REPLAY", True)
    monkeypatch.setattr(F, "_recipes", type(F._recipes)())
    calls = []
    tslu = K.tslu
    monkeypatch.setattr(K, "tslu", lambda *a, **kw: (calls.append(1), tslu(*a, **kw))[1])
    rng = np.random.default_rng(21)
    n = 30
    a0 = well_conditioned(rng, (2, n, n), np.float32)
    b0 = rng.standard_normal((2, n, 3)).astype(np.float32)
    wg.linalg.solve(wg.asarray(a0), wg.asarray(b0))
    wg.linalg.inv(wg.asarray(a0))
    recorded = len(calls)
    assert recorded > 0 and sum(len(c) for c in F._recipes.values()) == 2
    for seed in (1, 2):
        r = np.random.default_rng(seed)
        a = well_conditioned(r, (2, n, n), np.float32)
        a[1, :, 7] = 0  # singular
        b = r.standard_normal((2, n, 3)).astype(np.float32)
        with wg.linalg.errors("nan"):
            x = wg.linalg.solve(wg.asarray(a), wg.asarray(b)).numpy()
            ai = wg.linalg.inv(wg.asarray(a)).numpy()
        assert len(calls) == recorded  # replayed
        monkeypatch.setattr(F, "REPLAY", False)
        with wg.linalg.errors("nan"):
            np.testing.assert_array_equal(x, wg.linalg.solve(wg.asarray(a), wg.asarray(b)).numpy())
            np.testing.assert_array_equal(ai, wg.linalg.inv(wg.asarray(a)).numpy())
        monkeypatch.setattr(F, "REPLAY", True)
        recorded = len(calls)
        assert np.isnan(x[1]).all() and np.isnan(ai[1]).all() and np.isfinite(x[0]).all()
        a64 = a[0].astype(np.float64)
        assert fro(a64 @ x[0] - b[0]) <= C * n * eps(np.float32) * fro(a64) * fro(x[0])
    monkeypatch.setattr(F, "SUBST_BLOCK", 12)  # another recipe
    x = wg.linalg.solve(wg.asarray(a0), wg.asarray(b0)).numpy()
    assert len(calls) > recorded and sum(len(c) for c in F._recipes.values()) == 3
    np.testing.assert_allclose(np.einsum("bij,bjk->bik", a0, x), b0, atol=1e-4)
    from wgarray.kernels import matmul as MM
    monkeypatch.setattr(MM, "UNCHECKED", not MM.UNCHECKED)  # matmul's tile choice changes: another recipe
    recorded = len(calls)
    x = wg.linalg.solve(wg.asarray(a0), wg.asarray(b0)).numpy()
    assert len(calls) > recorded and sum(len(c) for c in F._recipes.values()) == 4
    np.testing.assert_allclose(np.einsum("bij,bjk->bik", a0, x), b0, atol=1e-4)


@pytest.mark.parametrize("path", ["inv", "fused", "loop"])
def test_cholesky_replay(blocked, monkeypatch, path):
    # REPLAY covers cholesky's blocked paths: the second call of a shape replays the first one's launches (the
    # kernels' drivers not called) on the new call's buffers, bit for bit the drivers' answer, a non-positive-definite
    # member NaN; a knob change records anew
    monkeypatch.setattr(F, "REPLAY", True)
    monkeypatch.setattr(F, "_recipes", type(F._recipes)())
    monkeypatch.setattr(K, "CHOL_INV", path == "inv")
    monkeypatch.setattr(K, "CHOL_FUSED", path == "fused")
    calls = []
    for name in ("cholesky_inv", "cholesky_inv_apply", "cholesky_panel", "cholesky_block"):
        f = getattr(K, name)
        monkeypatch.setattr(K, name, lambda *a, f=f, **kw: (calls.append(1), f(*a, **kw))[1])
    n = 20
    wg.linalg.cholesky(wg.asarray(spd(np.random.default_rng(4), (2, n, n), np.float32)))
    recorded = len(calls)
    assert recorded > 0 and sum(len(c) for c in F._recipes.values()) == 1
    s = spd(np.random.default_rng(5), (2, n, n), np.float32)
    s[1, 11, 11] = -1.0  # not positive definite
    with wg.linalg.errors("nan"):
        low = wg.linalg.cholesky(wg.asarray(s)).numpy()
    assert len(calls) == recorded  # replayed
    monkeypatch.setattr(F, "REPLAY", False)
    with wg.linalg.errors("nan"):
        np.testing.assert_array_equal(low, wg.linalg.cholesky(wg.asarray(s)).numpy())
    assert np.isnan(low[1]).all() and np.isfinite(low[0]).all()
    s64 = s[0].astype(np.float64)
    assert fro(low[0].astype(np.float64) @ low[0].T - s64) <= C * n * eps(np.float32) * fro(s64)
    monkeypatch.setattr(F, "REPLAY", True)
    monkeypatch.setattr(F, "BLOCK", 4)  # another recipe
    recorded = len(calls)
    with wg.linalg.errors("nan"):
        low = wg.linalg.cholesky(wg.asarray(s)).numpy()
    assert len(calls) > recorded and sum(len(c) for c in F._recipes.values()) == 2
    np.testing.assert_allclose(low[0] @ low[0].T, s[0], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("module, name, value", [("F", "_OUTER_GPU", 64), ("K", "SG_MIN", 64)])
def test_replay_key_holds_default_sizes(monkeypatch, module, name, value):
    # the values behind the None defaults (SUBST_OUTER / FACTOR_OUTER's GPU size, TSLU_SUBGROUP's smallest subgroup)
    # shape the launches: a recipe recorded under the old value must not be replayed under the new one
    before = F._knobs()
    monkeypatch.setattr(F if module == "F" else K, name, value)
    assert F._knobs() != before


def test_replay_keeps_no_recipe_binding_other_buffers(monkeypatch):
    # a recorded run that binds a buffer outside the given mirrors is not kept (its replay would miss that buffer);
    # one that binds only them is, and replays on other mirrors' buffers
    dev = wg.default_device()
    monkeypatch.setattr(F, "REPLAY", True)
    monkeypatch.setattr(F, "_recipes", type(F._recipes)())

    def arrays():
        return wg.asarray(np.array([1], np.uint32)), wg.zeros(8, dtype=wg.float32)
    info, x = arrays()
    F._replayed(dev, ("test",), [x.mirror], lambda: K.nanfill(dev, info, x, 8, 1))
    assert np.isnan(x.numpy()).all() and not F._recipes.get(dev)
    F._replayed(dev, ("test",), [info.mirror, x.mirror], lambda: K.nanfill(dev, info, x, 8, 1))
    assert len(F._recipes[dev]) == 1
    info2, x2 = arrays()
    F._replayed(dev, ("test",), [info2.mirror, x2.mirror], lambda: 1 / 0)  # replayed: not called
    assert np.isnan(x2.numpy()).all()
