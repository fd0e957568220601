"""The blocked factorisations' GPU-tuned paths, forced on small matrices (issue 12): Cholesky's register diagonal
block and trsm as GEMM (CHOL_INV and its code-generator knobs), the substitution one launch a block (SUBST_STEP), the
two-level substitution and factor (SUBST_OUTER, FACTOR_OUTER) and the tournament's subgroup argmax (TSLU_SUBGROUP),
with test_linalg_factor.py's bounds and helpers (split from it so that pytest-xdist's two workers share the load).
"""
from __future__ import annotations

import numpy as np
import pytest
from test_linalg_factor import (
    FLOATS,
    C,
    blocked_path,
    check_all,
    check_chol_fails_inside_stack,
    chol_within_bound,
    eps,
    fro,
    spd,
    test_blocked_growth_prone as blocked_growth_prone,
    test_blocked_ill_conditioned as blocked_ill_conditioned,
    test_blocked_permutations_exact as blocked_permutations_exact,
    test_blocked_singular_inside_stack as blocked_singular_inside_stack,
    well_conditioned,
)

import wgarray as wg
from wgarray.api.linalg import factor as F
from wgarray.kernels import launch, linalg_factor as K


@pytest.fixture
def blocked(monkeypatch):
    """test_linalg_factor.py's: every n >= 1 through the blocked path (``blocked_path``)."""
    blocked_path(monkeypatch)


# -- CHOL_INV: Cholesky's panel as trsm as GEMM (the diagonal block's inverse W = L11^-T, then L21 = A21 W) ------------
def _spd_cond(rng, n, cond, dt):
    """An SPD matrix with eigenvalues from 1 down to 1 / cond (log-spaced) in random directions."""
    q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    s = (q * np.logspace(0, -np.log10(cond), n)) @ q.T
    return ((s + s.T) / 2).astype(dt)


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("block", [8, 5, 16])
def test_chol_inv(blocked, monkeypatch, dt, block):
    # the knob's kernels are the ones launched (not the fused or the separate panel), and the answers keep the
    # default's bounds: backward error <= C n eps (L L^T against A), exact zeros above the diagonal, upper=True,
    # stacks, n below / at / past the panel width, a matrix failing inside a later diagonal block of a stack (NaN and
    # LinAlgError, the others exact to the bound), a NaN input
    seen = []
    compile_ = launch.compile
    monkeypatch.setattr(launch, "compile", lambda d, key, build, **kw: (seen.append(key[0]), compile_(d, key, build, **kw))[1])
    monkeypatch.setattr(K, "CHOL_INV", True)
    monkeypatch.setattr(K, "CHOL_INV_FUSE_APPLY", False)  # the two launches (the fused one: its own tests below)
    monkeypatch.setattr(F, "BLOCK", block)
    rng = np.random.default_rng(block)
    for n, batch in ((1, ()), (block, (2,)), (block + 1, ()), (3 * block + 2, (3,)), (37, (2, 2))):
        s = spd(rng, batch + (n, n), dt)
        L = wg.linalg.cholesky(wg.asarray(s)).numpy()
        assert np.all(np.triu(L, 1) == 0)
        assert chol_within_bound(L, s, n, dt)
        U = wg.linalg.cholesky(wg.asarray(s), upper=True).numpy()
        np.testing.assert_array_equal(U, np.swapaxes(L, -1, -2))
    assert {"linalg_chol_inv", "linalg_chol_apply"} <= set(seen)
    assert not {"linalg_chol_panel", "linalg_chol_block", "linalg_trsm"} & set(seen)
    n = 3 * block + 4
    check_chol_fails_inside_stack(rng, n, dt, 2 * block + 1)  # inside the third diagonal block, not its first column
    nan = spd(rng, (n, n), dt)
    nan[block + 3, block + 1] = nan[block + 1, block + 3] = np.nan
    with pytest.raises(np.linalg.LinAlgError):
        wg.linalg.cholesky(wg.asarray(nan))


CHOL_INV_GEN = {"gj": {"CHOL_INV_GJ": True}, "recip": {"CHOL_INV_RECIP": True}, "fast": {"CHOL_INV_SQRT": "fast"},
                "flag": {"CHOL_INV_FLAG": True}, "unchecked": {"CHOL_INV_UNCHECKED": True},
                "split4": {"CHOL_INV_SPLIT": 4}, "split2_lean": {"CHOL_INV_SPLIT": 2, "CHOL_INV_RECIP": True,
                                                                "CHOL_INV_SQRT": "fast", "CHOL_INV_FLAG": True},
                "all": {"CHOL_INV_GJ": True, "CHOL_INV_RECIP": True, "CHOL_INV_SQRT": "fast", "CHOL_INV_FLAG": True,
                        "CHOL_INV_UNCHECKED": True}}


@pytest.mark.slow  # (knobs off by default: `make test-long`)
@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("gen", list(CHOL_INV_GEN))
def test_chol_inv_codegen_knobs(blocked, monkeypatch, dt, gen):
    # cholesky_inv's code generator's knobs (cholsg): their own kernels (another compile key, no runtime checks with
    # UNCHECKED; GJ: W made by the
    # factor's steps, no INVERSE solve), the default's bounds, zeros above the diagonal, a non-PD member inside a later
    # diagonal block (NaN, LinAlgError: the failing pivot's flag), a NaN input, an ill-conditioned matrix
    keys = []
    compile_ = launch.compile
    monkeypatch.setattr(launch, "compile", lambda d, key, build, **kw: (
        keys.append((key, kw.get("checks", True))) if key[0] == "linalg_chol_inv" else None,
        compile_(d, key, build, **kw))[1])
    monkeypatch.setattr(K, "CHOL_INV", True)
    monkeypatch.setattr(F, "BLOCK", 8)
    monkeypatch.setattr(F, "REPLAY", False)
    for attr, v in CHOL_INV_GEN[gen].items():
        monkeypatch.setattr(K, attr, v)
    rng = np.random.default_rng(len(gen))
    for n, batch in ((5, (2,)), (8, ()), (21, (3,))):
        s = spd(rng, batch + (n, n), dt)
        L = wg.linalg.cholesky(wg.asarray(s)).numpy()
        assert np.all(np.triu(L, 1) == 0) and chol_within_bound(L, s, n, dt)
    assert keys and all(k[-1] == K._chol_inv_opts() != (False, False, "cr", False, None, False, 1) for k, _ in keys)
    assert all(checks == (not K.CHOL_INV_UNCHECKED) for _, checks in keys)
    body = K.chol_inv_inverse_body(dt_wgsl(dt), 8, K._chol_inv_opts())
    assert (body == "") == K.CHOL_INV_GJ
    assert K._chol_inv_split(16, K._chol_inv_opts()) == K.CHOL_INV_SPLIT  # (16: the blocks' side here)
    check_chol_fails_inside_stack(rng, 20, dt, 13)  # inside the second diagonal block, not its first column
    nan = spd(rng, (20, 20), dt)
    nan[11, 9] = nan[9, 11] = np.nan
    with pytest.raises(np.linalg.LinAlgError):
        wg.linalg.cholesky(wg.asarray(nan))
    s = _spd_cond(np.random.default_rng(7), 40, 1e5 if dt == np.float32 else 1e8, dt)
    assert chol_within_bound(wg.linalg.cholesky(wg.asarray(s)).numpy(), s, 40, dt)


@pytest.mark.parametrize("split", [1, 4])
def test_chol_inv_inf_pivot_as_numpy(blocked, monkeypatch, split):
    # an inf on the diagonal: numpy's factor has one inf (the pivot) and no NaN; SPLIT's update of the pivot's own row
    # must not meet its finished columns with t = inf / inf (0 * NaN): the review of the fifth session found 5 NaN
    monkeypatch.setattr(K, "CHOL_INV", True)
    monkeypatch.setattr(F, "BLOCK", 16)
    monkeypatch.setattr(F, "REPLAY", False)
    monkeypatch.setattr(K, "CHOL_INV_SPLIT", split)
    n = 48
    s = spd(np.random.default_rng(0), (n, n), np.float32)
    s[5, 5] = np.inf
    want = np.linalg.cholesky(s)
    with wg.linalg.errors("nan"):
        got = wg.linalg.cholesky(wg.asarray(s)).numpy()
    assert (np.isnan(got) == np.isnan(want)).all() and (np.isinf(got) == np.isinf(want)).all()
    np.testing.assert_allclose(got[np.isfinite(want)], want[np.isfinite(want)], rtol=1e-4, atol=1e-5)


def test_chol_inv_codegen_knobs_replay(blocked, monkeypatch):
    # the code generator's knobs are part of REPLAY's recipe key: a knob changed after a recorded call records anew
    # (its kernels launched), never replays the other setting's kernels
    monkeypatch.setattr(F, "REPLAY", True)
    monkeypatch.setattr(F, "_recipes", type(F._recipes)())
    monkeypatch.setattr(K, "CHOL_INV", True)
    calls = []
    f = K.cholesky_inv
    monkeypatch.setattr(K, "CHOL_INV_FUSE_APPLY", False)  # (the two-launch path's kernels observed)
    monkeypatch.setattr(K, "cholesky_inv", lambda *a, **kw: (calls.append(K._chol_inv_opts()), f(*a, **kw))[1])
    s = spd(np.random.default_rng(9), (20, 20), np.float32)
    for gj in (False, True, True):
        monkeypatch.setattr(K, "CHOL_INV_GJ", gj)
        L = wg.linalg.cholesky(wg.asarray(s)).numpy()
        assert chol_within_bound(L, s, 20, np.float32)
    assert {c[0] for c in calls} == {False, True} and sum(len(c) for c in F._recipes.values()) == 2


def dt_wgsl(dt) -> str:
    return "f32" if dt == np.float32 else "f64"


def test_chol_inv_sub_panels(blocked, monkeypatch):
    # panels wider than CHOL_INV_INNER: sub-panels (the last one shorter), each updating the panel's columns right
    # of it, then the whole panel's trailing update; n ending inside a panel and inside a sub-panel
    inv = []
    cinv = K.cholesky_inv
    monkeypatch.setattr(K, "cholesky_inv", lambda *a, **kw: (inv.append(a[6:8]), cinv(*a, **kw))[1])
    monkeypatch.setattr(K, "CHOL_INV", True)
    monkeypatch.setattr(K, "CHOL_INV_FUSE_APPLY", False)  # (the two-launch path's kernels observed)
    monkeypatch.setattr(K, "CHOL_INV_INNER", 8)
    monkeypatch.setattr(F, "BLOCK", 20)
    rng = np.random.default_rng(20)
    for n in (45, 58, 60):
        s = spd(rng, (2, n, n), np.float32)
        L = wg.linalg.cholesky(wg.asarray(s)).numpy()
        assert np.all(np.triu(L, 1) == 0)
        assert chol_within_bound(L, s, n, np.float32)
    assert inv[:4] == [(0, 8), (8, 8), (16, 4), (20, 8)]


@pytest.mark.parametrize("rows", [16, 32])
def test_chol_inv_apply_rows(blocked, monkeypatch, rows):
    # cholesky_apply with fewer rows a workgroup (several row blocks a panel, the last one partly past n)
    monkeypatch.setattr(K, "CHOL_INV", True)
    monkeypatch.setattr(K, "CHOL_APPLY_ROWS", rows)
    monkeypatch.setattr(F, "BLOCK", 16)
    assert K._chol_apply_rows(wg.default_device(), wg.float32, 16) == rows
    s = spd(np.random.default_rng(rows), (2, 75, 75), np.float32)
    L = wg.linalg.cholesky(wg.asarray(s)).numpy()
    assert np.all(np.triu(L, 1) == 0) and chol_within_bound(L, s, 75, np.float32)


@pytest.mark.parametrize("panel_wg", [64, 128])
def test_panel_wg_in_kernels_and_keys(blocked, monkeypatch, panel_wg):
    # PANEL_WG is part of every panel kernel's build and cache key: CHOL_INV's cholesky_apply derives its grid
    # (PANEL_WG / 16 rows of invocations; the old 16 x 16 grid left rows of L21 unwritten at 64: a false
    # LinAlgError), lu_subst's rows of invocations follow it, and a kernel built at 256 is never reused at another
    # size (nor the other way round)
    keys = {}
    compile_ = launch.compile
    monkeypatch.setattr(launch, "compile", lambda d, key, build, **kw: (
        keys.setdefault(K.PANEL_WG, set()).add(key), compile_(d, key, build, **kw))[1])
    monkeypatch.setattr(K, "CHOL_INV", True)
    monkeypatch.setattr(K, "SUBST_STEP", True)
    monkeypatch.setattr(K, "CHOL_INV_FUSE_APPLY", False)  # (the two-launch path's kernels observed)
    monkeypatch.setattr(K, "SUBST_STEP_MAX_K", None)
    monkeypatch.setattr(F, "BLOCK", 16)
    monkeypatch.setattr(F, "REPLAY", False)  # the launches observed through compile
    rng = np.random.default_rng(panel_wg)
    s = spd(rng, (40, 40), np.float32)
    a = well_conditioned(rng, (2, 40, 40), np.float32)
    b = rng.standard_normal((2, 40, 20)).astype(np.float32)
    a64, tol = a.astype(np.float64), C * 40 * eps(np.float32)
    for w in (panel_wg, 256, panel_wg):
        monkeypatch.setattr(K, "PANEL_WG", w)
        assert K._chol_apply_rows(wg.default_device(), wg.float32, 16) > 0  # chol_inv takes it
        L = wg.linalg.cholesky(wg.asarray(s)).numpy()
        assert np.all(np.triu(L, 1) == 0) and chol_within_bound(L, s, 40, np.float32)
        x = wg.linalg.solve(wg.asarray(a), wg.asarray(b)).numpy()
        assert np.all(fro(a64 @ x - b) <= tol * fro(a64) * fro(x))
    names = ("linalg_chol_apply", "linalg_lu_subst", "linalg_tslu")
    for name in names:
        assert any(k[0].startswith(name) for k in keys[panel_wg]), name
    assert not {k for k in keys[panel_wg] if k[0].startswith(names)} & keys[256]
    monkeypatch.setattr(K, "PANEL_WG", 24)  # not a whole number of 16-wide rows: chol_inv refuses, the others factor
    assert not K.chol_inv(wg.default_device(), wg.float32, 16)


@pytest.mark.parametrize("cond", [1e2, 1e5])
def test_chol_inv_ill_conditioned(blocked, monkeypatch, cond):
    # the bound the inverted diagonal blocks are held to: for SPD A (float32, cond(A) up to 1e5, so the diagonal
    # blocks' cond(L11) = sqrt(cond(A11)) <= ~316) the backward error stays within the default's C n eps; measured on
    # lavapipe at n = 256 / 64-wide panels (cond 1e2 .. 1e7): 1.0 .. 1.24 times the fused path's, ~0.005 n eps
    monkeypatch.setattr(K, "CHOL_INV", True)
    n = 70
    s = _spd_cond(np.random.default_rng(int(cond)), n, cond, np.float32)
    L = wg.linalg.cholesky(wg.asarray(s)).numpy()
    assert chol_within_bound(L, s, n, np.float32)


def test_chol_inv_fits_the_device(monkeypatch):
    # CHOL_INV takes a width only where both kernels' workgroup memory fits for its diagonal blocks (float64
    # 64-wide: 32 KiB + 2 rows > 32 KiB: the other paths factor it)
    from wgarray import dtypes as D
    dev = wg.default_device()
    limit = dev.properties.limits.max_compute_workgroup_storage_size
    monkeypatch.setattr(K, "CHOL_INV", False)
    assert not K.chol_inv(dev, D.float32, 8)
    monkeypatch.setattr(K, "CHOL_INV", True)
    assert K.chol_inv(dev, D.float32, 8) and K.chol_inv(dev, D.float32, 128)  # 128: sub-panels of CHOL_INV_INNER
    assert K.chol_inv(dev, D.float64, 64) == (66 * 64 * 8 <= limit)
    assert K._chol_apply_rows(dev, D.float32, 64) == (64 if 128 * 64 * 4 <= limit else 32)
    for gpu in (True, False):  # None: on GPUs at every order (big: n >= factor.BIG_N), off on CPU adapters
        monkeypatch.setattr(K, "CHOL_INV", None)
        monkeypatch.setattr(K, "_reg_default", lambda device, gpu=gpu: gpu)
        assert K.chol_inv(dev, D.float32, 128, big=True) == gpu
        assert K.chol_inv(dev, D.float32, 64) == gpu
    monkeypatch.setattr(K, "CHOL_INV", True)
    monkeypatch.setattr(K, "CHOL_INV_INNER", 65)  # the register kernels' rows: at most 64
    assert not K.chol_inv(dev, D.float32, 8) and K.chol_inv(dev, D.float32, 8, big=True)
    monkeypatch.setattr(K, "CHOL_INV_INNER_BIG", 65)
    assert not K.chol_inv(dev, D.float32, 8, big=True)


@pytest.mark.parametrize("gpu", [True, False])
def test_chol_default_by_order(blocked, monkeypatch, gpu):
    # the default (CHOL_INV = None): on GPUs CHOL_INV (each diagonal block one fused launch: CHOL_INV_FUSE_APPLY),
    # from factor.BIG_N on with CHOL_BLOCK_BIG-wide panels of CHOL_INV_INNER_BIG-wide diagonal blocks, below it
    # BLOCK-wide panels; on CPU adapters neither (the separate diagonal block and trsm) -- here with the widths
    # scaled down (BIG_N 40, panels 16 of blocks 4 against 8)
    monkeypatch.setattr(K, "_reg_default", lambda device: gpu)
    monkeypatch.setattr(K, "TRSM_REG", 0)  # (the 16-row register trsm: not under test)
    monkeypatch.setattr(F, "BIG_N", 40)
    monkeypatch.setattr(F, "CHOL_BLOCK_BIG", 16)
    monkeypatch.setattr(K, "CHOL_INV_INNER_BIG", 4)
    calls = []
    for name in ("cholesky_inv", "cholesky_inv_apply", "cholesky_panel", "cholesky_block"):
        f = getattr(K, name)
        monkeypatch.setattr(K, name, lambda *a, f=f, name=name, **kw: (calls.append((name,) + a[6:8]), f(*a, **kw))[1])
    rng = np.random.default_rng(40)
    want = "cholesky_inv_apply" if gpu else "cholesky_block"
    for n in (39, 41):
        calls.clear()
        s = spd(rng, (2, n, n), np.float32)
        L = wg.linalg.cholesky(wg.asarray(s)).numpy()
        assert np.all(np.triu(L, 1) == 0) and chol_within_bound(L, s, n, np.float32)
        assert {c[0] for c in calls} == {want}
        if gpu and n > 40:  # 4-wide blocks: 16-wide panels' sub-panels, the last one 1 wide
            assert [c[1:] for c in calls[:5]] == [(0, 4), (4, 4), (8, 4), (12, 4), (16, 4)] and calls[-1][1:] == (40, 1)
        elif gpu:
            assert calls[1][1:] == (8, 8) and calls[-1][1:] == (32, 7)  # BLOCK = 8 below BIG_N


@pytest.mark.slow  # ~50-120 s on lavapipe (compiling the 64-row straight-line factor and inverse)
def test_chol_inv_real_block_size(monkeypatch):
    monkeypatch.setattr(K, "CHOL_INV", True)
    rng = np.random.default_rng(130)
    for dt in FLOATS:
        s = spd(rng, (2, 130, 130), dt)
        L = wg.linalg.cholesky(wg.asarray(s)).numpy()
        assert np.all(np.triu(L, 1) == 0)
        assert chol_within_bound(L, s, 130, dt)


# -- CHOL_INV_FUSE_APPLY: cholesky_inv and cholesky_apply as ONE launch a diagonal block (cholesky_inv_apply) ----------
def _chol_both(s, monkeypatch, upper=False):
    """cholesky(s) without and with CHOL_INV_FUSE_APPLY (the raw factor arrays)."""
    out = []
    for fuse in (False, True):
        monkeypatch.setattr(K, "CHOL_INV_FUSE_APPLY", fuse)
        out.append(wg.linalg.cholesky(wg.asarray(s), upper=upper).numpy())
    return out


def _factor_info(s, dt):
    """The blocked factor's raw matrices (upper triangle as left, before nanfill) and info words."""
    from wgarray import dtypes as D
    w = F._stack(wg.asarray(s).reshape((-1,) + s.shape[-2:]), D.float32 if dt == np.float32 else D.float64)
    info, piv = F._status(w.shape[0], w.shape[1], w.device)
    F._factor(w, info, piv, False)
    return w.numpy(), info.numpy()


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("split", [1, 4])
def test_chol_inv_fuse_apply_same_bits(blocked, monkeypatch, dt, split):
    # the fused launch gives bit for bit the unfused path's factor (the same generated factor code in every
    # workgroup, the same GEMM): n below / at / past a block, 3 blocks + 2 (the last block 2 wide), stacks, upper=True;
    # only cholesky_inv_apply is launched (neither cholesky_inv nor cholesky_apply), its key holding the knobs
    seen = []
    compile_ = launch.compile
    monkeypatch.setattr(launch, "compile", lambda d, key, build, **kw: (
        seen.append((key, kw.get("checks", True))) if K.CHOL_INV_FUSE_APPLY else None, compile_(d, key, build, **kw))[1])
    monkeypatch.setattr(K, "CHOL_INV", True)
    monkeypatch.setattr(K, "CHOL_INV_SPLIT", split)
    monkeypatch.setattr(F, "BLOCK", 16)
    monkeypatch.setattr(F, "REPLAY", False)  # the launches observed through compile
    rng = np.random.default_rng(split)
    for n, batch in ((5, ()), (16, (2,)), (17, ()), (50, (3,)), (37, (2, 2))):
        s = spd(rng, batch + (n, n), dt)
        L0, L1 = _chol_both(s, monkeypatch)
        np.testing.assert_array_equal(L1, L0)
        assert np.all(np.triu(L1, 1) == 0) and chol_within_bound(L1, s, n, dt)
        U0, U1 = _chol_both(s, monkeypatch, upper=True)
        np.testing.assert_array_equal(U1, U0)
        np.testing.assert_array_equal(U1, np.swapaxes(L1, -1, -2))
    names = {k[0] for k, _ in seen}
    assert "linalg_chol_inv_apply" in names and not {"linalg_chol_inv", "linalg_chol_apply"} & names
    fused = [(k, c) for k, c in seen if k[0] == "linalg_chol_inv_apply"]
    assert all(k[-1] == K._chol_inv_opts() and c == (not K.CHOL_INV_UNCHECKED) for k, c in fused)


@pytest.mark.parametrize("dt", FLOATS)
def test_chol_inv_fuse_apply_failures(blocked, monkeypatch, dt):
    # a member not positive definite inside a later diagonal block of a stack: the same info word as the unfused path
    # (written once, by workgroup 0), LinAlgError in "raise", NaN in "nan"; a NaN input; every block's L11 (written a
    # launch late from the scratch slots) as the unfused path's
    monkeypatch.setattr(K, "CHOL_INV", True)
    monkeypatch.setattr(F, "BLOCK", 16)
    monkeypatch.setattr(F, "REPLAY", False)
    rng = np.random.default_rng(3)
    n = 3 * 16 + 4
    s = spd(rng, (3, n, n), dt)
    s[1, 37, 37] = -1.0
    s[2, 20, 18] = s[2, 18, 20] = np.nan
    got = []
    for fuse in (False, True):
        monkeypatch.setattr(K, "CHOL_INV_FUSE_APPLY", fuse)
        got.append(_factor_info(s, dt))
    np.testing.assert_array_equal(got[1][0], got[0][0])
    np.testing.assert_array_equal(got[1][1], got[0][1])
    assert got[1][1][0] == 0 and got[1][1][1] == 38 and got[1][1][2] != 0
    monkeypatch.setattr(K, "CHOL_INV_FUSE_APPLY", True)
    check_chol_fails_inside_stack(rng, n, dt, 2 * 16 + 1)  # inside the third diagonal block, not its first column
    nan = spd(rng, (n, n), dt)
    nan[16 + 3, 16 + 1] = nan[16 + 1, 16 + 3] = np.nan
    with pytest.raises(np.linalg.LinAlgError):
        wg.linalg.cholesky(wg.asarray(nan))
    with wg.linalg.errors("nan"):
        assert np.isnan(wg.linalg.cholesky(wg.asarray(nan)).numpy()).all()


@pytest.mark.slow  # (~15 s on lavapipe: both paths' kernels for three settings; knobs off by default)
@pytest.mark.parametrize("gen", [{"CHOL_INV_RECIP": False, "CHOL_INV_SQRT": "cr", "CHOL_INV_FLAG": False,
                                  "CHOL_INV_UNCHECKED": False, "CHOL_INV_SPLIT": 1},  # the first cholesky_inv's code
                                 {"CHOL_INV_GJ": True, "CHOL_INV_SPLIT": 1}, {"CHOL_INV_SPLIT": 2, "CHOL_INV_FLAG": False}])
def test_chol_inv_fuse_apply_codegen_knobs(blocked, monkeypatch, gen):
    # the code generator's other settings through the fused kernel (the per-step failure report without FLAG, the
    # inverse by division, GJ's W from the factor's steps): the same bits and info words as the unfused kernels
    monkeypatch.setattr(K, "CHOL_INV", True)
    monkeypatch.setattr(F, "BLOCK", 16)
    monkeypatch.setattr(F, "REPLAY", False)
    for attr, v in gen.items():
        monkeypatch.setattr(K, attr, v)
    s = spd(np.random.default_rng(11), (3, 40, 40), np.float32)
    s[1, 21, 21] = -1.0
    got = []
    for fuse in (False, True):
        monkeypatch.setattr(K, "CHOL_INV_FUSE_APPLY", fuse)
        got.append(_factor_info(s, np.float32))
    np.testing.assert_array_equal(got[1][0], got[0][0])
    np.testing.assert_array_equal(got[1][1], got[0][1])
    assert list(got[1][1]) == [0, 22, 0]


def test_chol_inv_fuse_apply_pending_copy(blocked, monkeypatch):
    # each block's L11 waits in a scratch slot until the next block's launch copies it into the matrix (the apply
    # workgroups read A11 meanwhile): every diagonal block as the unfused path's, n ending inside a block and on one;
    # the same run with the copy skipped (prev = -1 passed) leaves raw A11 there: this test sees it
    monkeypatch.setattr(K, "CHOL_INV", True)
    monkeypatch.setattr(F, "BLOCK", 16)
    monkeypatch.setattr(F, "REPLAY", False)
    rng = np.random.default_rng(5)
    for n in (64, 71):
        s = spd(rng, (2, n, n), np.float32)
        L0, L1 = _chol_both(s, monkeypatch)
        for k0 in range(0, n, 16):
            k1 = min(k0 + 16, n)
            np.testing.assert_array_equal(L1[:, k0:k1, k0:k1], L0[:, k0:k1, k0:k1])
    f = K.cholesky_inv_apply
    monkeypatch.setattr(K, "cholesky_inv_apply", lambda *a: f(*a[:8], -1, *a[9:]))
    L2 = wg.linalg.cholesky(wg.asarray(s)).numpy()
    assert not np.array_equal(L2[:, :16, :16], L0[:, :16, :16])
    np.testing.assert_array_equal(L2[:, -7:, -7:], L0[:, -7:, -7:])  # the last block: straight into the matrix


def test_chol_inv_fuse_apply_narrower_block_after_wider(blocked, monkeypatch):
    # sub-panels of CHOL_INV_INNER = 32 in 40-wide panels: a 32-wide block (side 32) then an 8-wide one (side 16) whose
    # launch copies the previous L11 with the previous side's row stride; the scratch sized for two 32 x 32 slots
    monkeypatch.setattr(K, "CHOL_INV", True)
    monkeypatch.setattr(K, "CHOL_INV_INNER", 32)
    monkeypatch.setattr(F, "BLOCK", 40)
    monkeypatch.setattr(F, "REPLAY", False)
    s = spd(np.random.default_rng(6), (2, 90, 90), np.float32)
    monkeypatch.setattr(K, "CHOL_INV_FUSE_APPLY", True)
    w = F._stack(wg.asarray(s), wg.float32)
    assert F._chol_scratch(w, F._chol_plan(w)).size == 2 * 2 * 32 * 32
    L0, L1 = _chol_both(s, monkeypatch)
    np.testing.assert_array_equal(L1, L0)


def test_chol_inv_fuse_apply_fits_the_device(monkeypatch):
    # the fused kernel's workgroup memory (W, the factor's col, R rows of A21) must fit: R shrinks (a multiple of the
    # GEMM grid's rows), and where nothing fits (float64 64-wide on 32 KiB) the unfused kernels take the blocks;
    # None: on GPUs only
    from wgarray import dtypes as D
    dev = wg.default_device()
    limit = dev.properties.limits.max_compute_workgroup_storage_size
    monkeypatch.setattr(K, "CHOL_INV_SPLIT", 4)
    for side, d in ((16, D.float32), (64, D.float32), (64, D.float64)):
        r = K._chol_fuse_rows(dev, d, side)
        fixed = 4 * side + 1 + side * side
        assert r == 0 or ((fixed + r * side) * d.device_itemsize <= limit and r % (side * 4 // 16) == 0)
        assert r == 0 or r + side * 4 // 16 > K.CHOL_APPLY_ROWS or (fixed + (r + side // 4) * side) * d.device_itemsize > limit
    if limit <= 32768:
        assert K._chol_fuse_rows(dev, D.float32, 64) == 48 and K._chol_fuse_rows(dev, D.float64, 64) == 0
    monkeypatch.setattr(K, "CHOL_INV_FUSE_APPLY", True)
    assert K.chol_inv_fuse(dev, D.float32, 16) and K.chol_inv_fuse(dev, D.float32, 5)
    for gpu in (True, False):
        monkeypatch.setattr(K, "CHOL_INV_FUSE_APPLY", None)
        monkeypatch.setattr(K, "_reg_default", lambda device, gpu=gpu: gpu)
        assert K.chol_inv_fuse(dev, D.float32, 16) == gpu
    monkeypatch.setattr(K, "CHOL_INV_FUSE_APPLY", False)
    assert not K.chol_inv_fuse(dev, D.float32, 16)


def test_chol_inv_fuse_apply_replay(blocked, monkeypatch):
    # the knob is part of REPLAY's recipe key: switched after a recorded call, the other path's launches run
    monkeypatch.setattr(F, "REPLAY", True)
    monkeypatch.setattr(F, "_recipes", type(F._recipes)())
    monkeypatch.setattr(K, "CHOL_INV", True)
    monkeypatch.setattr(F, "BLOCK", 16)
    calls = []
    f = K.cholesky_inv_apply
    monkeypatch.setattr(K, "cholesky_inv_apply", lambda *a: (calls.append(a[6]), f(*a))[1])
    s = spd(np.random.default_rng(9), (40, 40), np.float32)
    got = []
    for fuse in (False, True, True, False):
        monkeypatch.setattr(K, "CHOL_INV_FUSE_APPLY", fuse)
        got.append(wg.linalg.cholesky(wg.asarray(s)).numpy())
    assert calls == [0, 16, 32] and sum(len(c) for c in F._recipes.values()) == 2
    for g in got[1:]:
        np.testing.assert_array_equal(g, got[0])


# -- SUBST_STEP: the LU substitution (solve, inv) one launch a block (lu_subst) -----------------------------------------
@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("sblock", [None, 12])
def test_subst_step(blocked, monkeypatch, dt, sblock):
    # the knob's kernels replace the trsm and the update; the answers keep the default's bounds for stacks, n below /
    # at / past the block, 1 .. 40 right-hand sides (column tiles of 16 and 32, the last partial), a replayed second
    # call equal to the first, exact permutations, singular members NaN
    seen = []
    compile_ = launch.compile
    monkeypatch.setattr(launch, "compile", lambda d, key, build, **kw: (seen.append(key[0]), compile_(d, key, build, **kw))[1])
    monkeypatch.setattr(K, "SUBST_STEP", True)
    monkeypatch.setattr(K, "SUBST_STEP_MAX_K", None)  # inv's n right-hand sides too (the default keeps them off)
    monkeypatch.setattr(F, "SUBST_BLOCK", sblock)
    rng = np.random.default_rng(7 + (sblock or 0))
    for n, batch, k in ((1, (), 1), (8, (2,), 3), (9, (), 1), (23, (3,), 17), (30, (2,), 40), (37, (2, 2), 2)):
        a = well_conditioned(rng, batch + (n, n), dt)
        b = rng.standard_normal(batch + (n, k)).astype(dt)
        a64, tol = a.astype(np.float64), C * n * eps(dt)
        x = wg.linalg.solve(wg.asarray(a), wg.asarray(b)).numpy()
        assert np.all(fro(a64 @ x - b) <= tol * fro(a64) * fro(x))
        np.testing.assert_array_equal(wg.linalg.solve(wg.asarray(a), wg.asarray(b)).numpy(), x)  # the replay
        ai = wg.linalg.inv(wg.asarray(a)).numpy()
        assert np.all(fro(a64 @ ai - np.eye(n)) / n <= tol * np.linalg.cond(a64))
    assert "linalg_lu_subst" in seen
    assert not any(key.startswith("linalg_trsm") for key in seen)
    blocked_permutations_exact(None, dt)
    blocked_singular_inside_stack(None, dt)


@pytest.mark.parametrize("cols", [16, 64])
def test_subst_step_columns(blocked, monkeypatch, cols):
    # SUBST_COLS: 64 (and 16) columns a workgroup, with 70 right-hand sides (the last tile partial)
    monkeypatch.setattr(K, "SUBST_STEP", True)
    monkeypatch.setattr(K, "SUBST_STEP_MAX_K", None)
    monkeypatch.setattr(K, "SUBST_COLS", cols)
    rng = np.random.default_rng(cols)
    a = well_conditioned(rng, (2, 29, 29), np.float32)
    b = rng.standard_normal((2, 29, 70)).astype(np.float32)
    x = wg.linalg.solve(wg.asarray(a), wg.asarray(b)).numpy()
    assert np.all(fro(a.astype(np.float64) @ x - b) <= C * 29 * eps(np.float32) * fro(a.astype(np.float64)) * fro(x))


def test_subst_step_where_it_applies(blocked, monkeypatch):
    # None by default: on GPUs (off on this CPU adapter); SUBST_STEP_MAX_K (16 by default) keeps wide right-hand sides
    # (inv) on the old path; INV_TRI's triangular forward pass (X's first (t + 1) block columns at block t, the pivots
    # on the columns at the end); blocks past 64 rows or tiles beyond the device's workgroup memory (float64 64-row
    # blocks on 32 KiB) refuse
    from wgarray import dtypes as D
    dev = wg.default_device()
    limit = dev.properties.limits.max_compute_workgroup_storage_size
    assert K.subst_step(dev, D.float32, 32, 16) == K._reg_default(dev)  # None: on GPUs
    for gpu in (True, False):
        monkeypatch.setattr(K, "SUBST_STEP", None)
        monkeypatch.setattr(K, "_reg_default", lambda device, gpu=gpu: gpu)
        assert K.subst_step(dev, D.float32, 32, 16) == gpu
    monkeypatch.setattr(K, "SUBST_STEP", True)
    assert not K.subst_step(dev, D.float32, 65, 16)
    assert K.subst_step(dev, D.float64, 64, 16) == ((64 * 64 + 64 * 32) * 8 <= limit)
    monkeypatch.setattr(K, "SUBST_STEP_MAX_K", 16)
    assert K.subst_step(dev, D.float32, 32, 16) and not K.subst_step(dev, D.float32, 32, 17)
    steps = []
    orig = K.lu_subst
    monkeypatch.setattr(K, "lu_subst", lambda *a, **kw: (steps.append(a[2].shape[-1]), orig(*a, **kw))[1])
    monkeypatch.setattr(F, "REPLAY", False)
    rng = np.random.default_rng(3)
    a = well_conditioned(rng, (20, 20), np.float32)
    wg.linalg.solve(wg.asarray(a), wg.ones((20, 2)))
    wg.linalg.inv(wg.asarray(a))
    assert steps and set(steps) == {2}  # inv's 20 columns: the old path
    monkeypatch.setattr(K, "SUBST_STEP_MAX_K", None)
    monkeypatch.setattr(F, "INV_TRI", True)  # the forward pass on the columns left of each block's end only
    monkeypatch.setattr(F, "SUBST_BLOCK", 4)
    kcs = []
    monkeypatch.setattr(K, "lu_subst", lambda *a, **kw: (kcs.append(kw.get("kc")), orig(*a, **kw))[1])
    for b in ((), (3,)):
        a = well_conditioned(rng, b + (21, 21), np.float64)
        ai = wg.linalg.inv(wg.asarray(a)).numpy()
        assert np.all(fro(a @ ai - np.eye(21)) / 21 <= C * 21 * eps(np.float64) * np.linalg.cond(a))
    assert kcs[:7] == [4, 8, 12, 16, 20, 24, None]
    p = np.eye(21)[np.random.default_rng(1).permutation(21)]
    np.testing.assert_array_equal(wg.linalg.inv(wg.asarray(p)).numpy(), p.T)


@pytest.mark.parametrize("cond", [1e3, 1e7])
def test_subst_step_ill_conditioned(blocked, monkeypatch, cond):
    # the workgroup's triangle solve keeps the default's backward error C n eps whatever the conditioning (Hilbert's
    # cond ~ 1e18 included: test_blocked_ill_conditioned's checks)
    monkeypatch.setattr(K, "SUBST_STEP", True)
    blocked_ill_conditioned(None, cond)
    blocked_growth_prone(None)


# -- SUBST_OUTER: the trsm-and-update substitution in two levels ---------------------------------------------------------
@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("outer,tri,step", [(16, False, False), (20, True, False), (8, True, False), (24, True, True),
                                            (24, False, True)])
def test_subst_outer(blocked, monkeypatch, dt, outer, tri, step):
    # outer blocks of SUBST_OUTER rows (20: rounded down to 16, two 8-row blocks): inside one the blocks' trsm and
    # updates of the outer block's rows only (SUBST_OUTER_STEP: one lu_subst launch a block instead), then one update
    # with k = the outer block's height for all rows past it (both directions; with INV_TRI the forward pass's outer
    # updates on the columns left of the outer block's end only); the answers keep the default's bounds for stacks and
    # n below / at / past the blocks, exact permutations, singular members NaN / LinAlgError
    monkeypatch.setattr(K, "SUBST_STEP", False)  # the trsm-and-update path (GPUs take SUBST_STEP for <= 16 rhs)
    monkeypatch.setattr(F, "SUBST_OUTER", outer)
    monkeypatch.setattr(F, "SUBST_OUTER_STEP", step)
    monkeypatch.setattr(F, "INV_TRI", tri)
    monkeypatch.setattr(F, "REPLAY", False)  # the launches observed through the drivers
    calls, steps = [], []
    update, lu_subst = K.update, K.lu_subst
    monkeypatch.setattr(K, "update", lambda dev, c, a, b, tri=False: (
        calls.append((c.shape[1:], a.shape[-1])), update(dev, c, a, b, tri=tri))[1])
    monkeypatch.setattr(K, "lu_subst", lambda *a, **kw: (steps.append(a[6:11] + (kw.get("kc"),)), lu_subst(*a, **kw))[1])
    rng = np.random.default_rng(outer + tri)
    for n, batch, k in ((1, (), 1), (8, (2,), 3), (17, (), 2), (30, (3,), 5), (37, (2, 2), 1)):
        a = well_conditioned(rng, batch + (n, n), dt)
        b = rng.standard_normal(batch + (n, k)).astype(dt)
        a64, tol = a.astype(np.float64), C * n * eps(dt)
        x = wg.linalg.solve(wg.asarray(a), wg.asarray(b)).numpy()
        assert np.all(fro(a64 @ x - b) <= tol * fro(a64) * fro(x))
        calls.clear()
        steps.clear()
        ai = wg.linalg.inv(wg.asarray(a)).numpy()
        assert np.all(fro(a64 @ ai - np.eye(n)) / n <= tol * np.linalg.cond(a64))
    # the substitution's updates of n = 37 in 8-row blocks
    c = (lambda j: j) if tri else (lambda j: 37)  # the forward pass's columns
    if step:  # outer blocks (0, 24), (24, 37): (src, tgt, upper, p0, p1, kc) a block, one GEMM an outer block a way
        kc = (lambda j: j) if tri else (lambda j: None)
        assert steps == [(None, 0, False, 8, 8, kc(8)), (0, 1, False, 16, 24, kc(16)), (1, 2, False, 24, 24, kc(24)),
                         (None, 3, False, 32, 32, kc(32)), (3, 4, False, 37, 37, kc(40)),
                         (None, 4, True, 24, 24, None), (4, 3, True, 24, 24, None),
                         (None, 2, True, 0, 0, None), (2, 1, True, 0, 8, None), (1, 0, True, 0, 0, None)]
        assert calls[-2:] == [((13, c(24)), 24), ((24, 37), 13)]
    else:
        assert not steps
        if outer == 8:  # one GEMM a block
            fwd = [((29, c(8)), 8), ((21, c(16)), 8), ((13, c(24)), 8), ((5, c(32)), 8)]
            bwd = [((32, 37), 5), ((24, 37), 8), ((16, 37), 8), ((8, 37), 8)]
        else:  # outer blocks (0, 16), (16, 32), (32, 37): forward inner, outer, inner, outer; backward mirrored
            fwd = [((8, c(8)), 8), ((21, c(16)), 16), ((8, c(24)), 8), ((5, c(32)), 16)]
            bwd = [((32, 37), 5), ((8, 37), 8), ((16, 37), 16), ((8, 37), 8)]
        assert calls[-8:] == fwd + bwd
    blocked_permutations_exact(None, dt)
    blocked_singular_inside_stack(None, dt)


def test_subst_outer_height(monkeypatch):
    # SUBST_OUTER rounded down to the substitution block (at least one block); 0: one level (the outer block the whole
    # matrix); None: 256 on GPUs, one level on CPU adapters.  FACTOR_OUTER the same in panels, its None from BIG_N on
    dev = wg.default_device()
    for outer, want in ((0, 4096), (256, 256), (100, 96), (20, 32)):
        monkeypatch.setattr(F, "SUBST_OUTER", outer)
        monkeypatch.setattr(F, "FACTOR_OUTER", outer)
        assert F._subst_outer(dev, 4096, 32) == want and F._factor_outer(dev, 4096, 32) == want
        assert F._factor_outer(dev, 1024, 32) == min(want, 1024)  # a set size: at every order
    monkeypatch.setattr(F, "SUBST_OUTER", None)
    monkeypatch.setattr(F, "FACTOR_OUTER", None)
    for gpu in (True, False):
        monkeypatch.setattr(K, "_reg_default", lambda device: gpu)
        assert F._subst_outer(dev, 4096, 32) == (256 if gpu else 4096)
        assert F._subst_outer(dev, 1024, 64) == (256 if gpu else 1024)
        assert F._factor_outer(dev, 4096, 32) == (256 if gpu else 4096)
        assert F._factor_outer(dev, 2047, 32) == 2047 and F._factor_outer(dev, 2048, 32) == (256 if gpu else 2048)


@pytest.mark.parametrize("gpu", [True, False])
def test_outer_default_by_order(blocked, monkeypatch, gpu):
    # the defaults (SUBST_OUTER, SUBST_OUTER_STEP, FACTOR_OUTER = None, INV_TRI): on GPUs inv's substitution in outer
    # blocks with one lu_subst launch a block inside them, and from BIG_N on LU's trailing update in outer panels; on
    # CPU adapters one level (trsm and update a block); INV_TRI's column swaps on both -- here with the sizes scaled
    # down (outer blocks / panels of 16 for 256, BIG_N 40, 8-row blocks)
    monkeypatch.setattr(K, "_reg_default", lambda device: gpu)
    for attr, v in (("TRSM_REG", 0), ("LU_FINISH_REG", False), ("TSLU_REG", False)):  # (not under test: compile time)
        monkeypatch.setattr(K, attr, v)
    monkeypatch.setattr(F, "_OUTER_GPU", 16)
    monkeypatch.setattr(F, "BIG_N", 40)
    monkeypatch.setattr(F, "BLOCK_BIG", 8)
    monkeypatch.setattr(F, "REPLAY", False)  # the launches observed through the drivers
    calls = []
    for name in ("update", "lu_subst", "swap"):
        f = getattr(K, name)
        monkeypatch.setattr(K, name, lambda *a, f=f, name=name, **kw: (
            calls.append((name, a[2].shape[-1] if name == "update" else kw.get("reverse", False))), f(*a, **kw))[1])
    rng = np.random.default_rng(41)
    for n in (39, 41):
        a = well_conditioned(rng, (2, n, n), np.float32)
        a64 = a.astype(np.float64)
        calls.clear()
        wg.linalg.det(wg.asarray(a))  # the factorisation's updates: k = 16 past each outer panel from BIG_N on (GPUs)
        assert ({k for name, k in calls if name == "update"} == ({8, 16} if gpu and n >= 40 else {8}))
        calls.clear()
        ai = wg.linalg.inv(wg.asarray(a)).numpy()
        assert np.all(fro(a64 @ ai - np.eye(n)) / n <= C * n * eps(np.float32) * np.linalg.cond(a64))
        ks = {k for name, k in calls if name == "update"}  # inv's: the factorisation's and the substitution's
        assert ("lu_subst" in {c[0] for c in calls}) == gpu  # GPUs: lu_subst inside the outer blocks
        assert max(ks) == 16 if gpu else max(ks) <= 8  # GPUs: one GEMM past each outer block; CPU: rank-8 updates
        assert calls[-1] == ("swap", True)  # INV_TRI: X P last
    blocked_permutations_exact(None, np.float32)
    blocked_singular_inside_stack(None, np.float32)


@pytest.mark.parametrize("outer", [16, 20])
def test_factor_outer(blocked, monkeypatch, outer):
    # FACTOR_OUTER (20: rounded down to 16, two 8-column panels): LU's panels update the outer panel's columns below
    # them and its rows right of them, then one update with k = 16 for the rest (det of n = 37: the factorisation's
    # updates only); every op keeps the default's bounds (both dtypes, stacks), exact permutations, Wilkinson's growth,
    # singular members NaN / LinAlgError
    monkeypatch.setattr(F, "FACTOR_OUTER", outer)
    calls = []
    update = K.update
    monkeypatch.setattr(K, "update", lambda dev, c, a, b, tri=False: (
        calls.append((c.shape[1:], a.shape[-1])), update(dev, c, a, b, tri=tri))[1])
    wg.linalg.det(wg.asarray(well_conditioned(np.random.default_rng(0), (37, 37), np.float32)))
    assert calls == [((29, 8), 8), ((8, 21), 8), ((21, 21), 16), ((13, 8), 8), ((8, 5), 8), ((5, 5), 16)]
    rng = np.random.default_rng(outer)
    for n, batch, dt in ((1, (), np.float32), (9, (2,), np.float64), (23, (), np.float32), (37, (2,), np.float32)):
        check_all(rng, batch, n, dt)
    for dt in FLOATS:
        blocked_permutations_exact(None, dt)
        blocked_singular_inside_stack(None, dt)
    blocked_growth_prone(None)


# -- the tournament's pivot search by subgroup operations (TSLU_SUBGROUP) ------------------------------------------------
def _sg_cases(rng, n, dt):
    """Panels whose pivot searches meet ties, repeated values, NaN / inf and zero columns."""
    cases = [rng.standard_normal((n, n)), rng.integers(-3, 4, (n, n)).astype(np.float64),  # random; repeated values
             np.where(rng.random((n, n)) < 0.5, -1.0, 1.0),  # every candidate of a column ties (exact, +-1)
             np.ones((n, n)) + np.eye(n)]  # ties after elimination too
    z = rng.standard_normal((n, n))
    z[:, 3] = 0  # a zero column (a zero pivot)
    z[:, 9:11] = 0
    cases.append(z)
    w = rng.standard_normal((n, n))
    w[5, 2], w[17, 2], w[1, 6], w[2, 6] = np.inf, -np.inf, np.nan, np.nan
    w[:, 12] = np.nan
    cases.append(w)
    return np.stack(cases).astype(dt)


def _tslu_factors(monkeypatch, a, sg):
    monkeypatch.setattr(K, "TSLU_SUBGROUP", sg)
    dev = wg.default_device()
    batch, n, _ = a.shape
    w = wg.asarray(a.copy())
    info, piv = F._status(batch, n, dev)
    F._factor(w, info, piv, True)
    return w.numpy(), piv.numpy(), info.numpy()


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("reg, final", [(False, False), pytest.param(True, False, marks=pytest.mark.slow),
                                        pytest.param(False, True, marks=pytest.mark.slow)])  # (reg: ~10 s on lavapipe)
def test_tslu_subgroup_same_bits_as_the_tree(blocked, monkeypatch, dt, reg, final):
    # the subgroup argmax (its winners' reduction by a loop or, TSLU_SG_FINAL, by subgroup operations) picks what the
    # tree picks (largest key, smaller row on ties, NaN below every number): the factors, the pivots and the info
    # words bit for bit the same, over several leaves and panels
    dev = wg.default_device()
    if "subgroup" not in dev.features:
        pytest.skip("no subgroup feature on this device")
    keys = []
    compile_ = launch.compile
    monkeypatch.setattr(F, "REPLAY", False)
    monkeypatch.setattr(launch, "compile", lambda d, key, build, **kw: (
        keys.append(key) if key[0].startswith("linalg_tslu") else None, compile_(d, key, build, **kw))[1])
    monkeypatch.setattr(K, "TSLU_REG", reg)
    monkeypatch.setattr(K, "TSLU_SG_FINAL", final)
    monkeypatch.setattr(K, "tslu_rows", 16 if reg else 12)
    n = 30 if reg else 40
    a = _sg_cases(np.random.default_rng(7), n, dt)
    tree = _tslu_factors(monkeypatch, a, False)
    assert keys and not any(k[-1] for k in keys)
    keys.clear()
    sg = _tslu_factors(monkeypatch, a, True)
    assert keys and all(k[-1] and k[-2] == final for k in keys)
    for x, y in zip(tree, sg):
        assert x.tobytes() == y.tobytes()
    assert (tree[2] != 0).any()  # the zero and NaN columns were met


def test_tslu_subgroup_default_and_fallback(monkeypatch):
    # None: on with the register tournament where the device has the feature, unless it reports subgroups of fewer
    # than SG_MIN (an unreported size, wgpu-py 0.32's, is taken; True: with any subgroup size); a device without the
    # feature takes the tree whatever the knob says
    dev = wg.default_device()

    class Dev:
        features = frozenset({"subgroup"})
        subgroup_sizes = (8, 8)
    monkeypatch.setattr(K, "TSLU_SUBGROUP", None)
    assert K.tslu_subgroup(Dev, True) and not K.tslu_subgroup(Dev, False)
    monkeypatch.setattr(K, "TSLU_SUBGROUP", True)
    assert K.tslu_subgroup(Dev, False)
    Dev.subgroup_sizes = (2, 64)
    assert K.tslu_subgroup(Dev, True)
    monkeypatch.setattr(K, "TSLU_SUBGROUP", None)
    assert not K.tslu_subgroup(Dev, True)
    Dev.subgroup_sizes = (0, 0)  # unknown
    assert K.tslu_subgroup(Dev, True) and not K.tslu_subgroup(Dev, False)
    monkeypatch.setattr(K, "TSLU_SUBGROUP", True)
    Dev.subgroup_sizes, Dev.features = (32, 32), frozenset()
    assert not K.tslu_subgroup(Dev, True)
    monkeypatch.setattr(K, "TSLU_SUBGROUP", False)
    Dev.features = frozenset({"subgroup"})
    assert not K.tslu_subgroup(Dev, True)
    # the real device without the feature: the tree's kernels (compile keys end in sg = False), right answers
    monkeypatch.setattr(K, "TSLU_SUBGROUP", True)
    monkeypatch.setattr(dev, "features", dev.features - {"subgroup"})
    monkeypatch.setattr(K, "SMALL_MAX", 0)
    monkeypatch.setattr(F, "BLOCK", 8)
    monkeypatch.setattr(K, "tslu_rows", 12)
    monkeypatch.setattr(K, "TSLU_REG", False)
    monkeypatch.setattr(F, "REPLAY", False)
    keys = []
    compile_ = launch.compile
    monkeypatch.setattr(launch, "compile", lambda d, key, build, **kw: (
        keys.append(key) if key[0].startswith("linalg_tslu") else None, compile_(d, key, build, **kw))[1])
    a = well_conditioned(np.random.default_rng(2), (20, 20), np.float32)
    x = wg.linalg.solve(wg.asarray(a), wg.ones((20, 1), dtype=wg.float32)).numpy()
    assert keys and not any(k[-1] for k in keys)
    np.testing.assert_allclose(a.astype(np.float64) @ x, 1, atol=1e-4)
