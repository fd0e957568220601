"""The small linalg path's recipes (``api/linalg/factor.py``'s ``_fast``): a repeated call with operands of the same
layouts launches the kept plan on the new bases.  Each test changes one thing a recipe is keyed by (dtype, shape,
strides, offset, base size, device, ``upper``, the knobs) or one thing it must not hold (the error mode) and checks
the answer against numpy, or that a new plan was made."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from test_linalg_factor import spd

import wgarray as wg
from wgarray.api.linalg import factor as F
from wgarray.kernels import linalg_factor as K


def _wc(rng, shape, dt=np.float32):
    n = shape[-1]
    return (rng.standard_normal(shape) / (2 * np.sqrt(n)) + np.eye(n)).astype(dt)


@pytest.fixture
def plans(monkeypatch):
    """The number of small-path plans made (``kernels.linalg_factor.small_plan`` calls) so far: ``plans()``."""
    made = []
    plan = K.small_plan
    monkeypatch.setattr(K, "small_plan", lambda *a, **kw: (made.append(1), plan(*a, **kw))[1])
    return lambda: len(made)


def _calls(rng, shape, dt=np.float32):
    """op name -> (wgarray call, numpy answer) on fresh data of ``shape``."""
    a, s = _wc(rng, shape, dt), spd(rng, shape, dt)
    b = rng.standard_normal(shape[:-1] + (3,)).astype(dt)
    v = rng.standard_normal(shape[-1:]).astype(dt)
    wa, ws, wb, wv = (wg.asarray(x) for x in (a, s, b, v))
    return {"cholesky": (lambda: wg.linalg.cholesky(ws), np.linalg.cholesky(s)),
            "upper": (lambda: wg.linalg.cholesky(ws, upper=True), np.swapaxes(np.linalg.cholesky(s), -1, -2)),
            "solve": (lambda: wg.linalg.solve(wa, wb), np.linalg.solve(a, b)),
            "solve_vector": (lambda: wg.linalg.solve(wa, wv), np.linalg.solve(a, np.broadcast_to(
                v[:, None], shape[:-1] + (1,)))[..., 0]),
            "inv": (lambda: wg.linalg.inv(wa), np.linalg.inv(a)),
            "det": (lambda: wg.linalg.det(wa), np.linalg.det(a.astype(np.float64))),
            "slogdet": (lambda: wg.linalg.slogdet(wa).logabsdet, np.linalg.slogdet(a.astype(np.float64))[1])}


def _close(got, want, dt=np.float32):
    tol = 2e-4 if dt == np.float32 else 1e-10
    assert np.shape(got) == np.shape(want)
    np.testing.assert_allclose(np.asarray(got), want, rtol=tol, atol=tol)


@pytest.mark.parametrize("shape", [(5, 8, 8), (3, 17, 17), (6, 6)])
def test_repeated_call_makes_no_plan_and_one_dispatch(plans, shape):
    """Each op's second call on new data of the same layout: no new plan, one dispatch, numpy's answer."""
    dev = wg.default_device()
    rng = np.random.default_rng(1)
    first = _calls(rng, shape)
    for name in first:
        first[name][0]()
    made = plans()
    for name, (call, want) in _calls(rng, shape).items():
        with wg.linalg.errors("nan"):
            before = dev.stats()
            got = call()
            assert (dev.stats() - before).dispatches == 1, name
        _close(got.numpy(), want)
        _close(call().numpy(), want)  # the 'raise' mode too
    assert plans() == made


def test_key_dtype_shape_strides_offset_base(plans):
    """A recipe of one layout is not reused for another: every changed input gives numpy's answer (a stale recipe
    would read the new operand as the old layout) and a new plan."""
    rng = np.random.default_rng(2)
    a = _wc(rng, (5, 6, 6))
    want = np.linalg.inv(a)
    five = wg.asarray(a)
    _close(wg.linalg.inv(five[:4]).numpy(), want[:4])
    a, want = a[:4], want[:4]
    variants = [("dtype", wg.asarray(a.astype(np.float64)), np.linalg.inv(a.astype(np.float64))),
                ("shape", five[:3], want[:3]),  # the same base, strides and offset
                ("offset", five[1:], np.linalg.inv(np.concatenate([a[1:], five[4:].numpy()]))),  # the same but offset
                ("order", wg.asarray(a[:, :5, :5]), np.linalg.inv(a[:, :5, :5])),
                ("strides", wg.asarray(a).mT, np.linalg.inv(a.transpose(0, 2, 1))),
                ("base", wg.asarray(np.concatenate([a, a]))[:4], want)]
    for name, x, w in variants:
        made = plans()
        _close(wg.linalg.inv(x).numpy(), w, np.float64 if name == "dtype" else np.float32)
        assert plans() == made + 1, name
        _close(wg.linalg.inv(x).numpy(), w, np.float64 if name == "dtype" else np.float32)  # its own recipe now
        assert plans() == made + 1, name


def test_key_solve_right_hand_side(plans):
    """solve's recipe holds both operands: another b (dtype, columns, vector, broadcast stack, layout) is planned
    anew with numpy's answer."""
    rng = np.random.default_rng(3)
    a = _wc(rng, (3, 7, 7))
    b = rng.standard_normal((3, 7, 2)).astype(np.float32)
    wa = wg.asarray(a)
    _close(wg.linalg.solve(wa, wg.asarray(b)).numpy(), np.linalg.solve(a, b))
    wb = wg.asarray(b)
    bt = wg.asarray(b.transpose(0, 2, 1).copy()).mT  # b's shape and base size, other strides
    for rhs in [wb[..., :1], wg.asarray(b[0]), wg.asarray(b[0, :, 0]), bt, wg.asarray(b.astype(np.int32))]:
        r = rhs.numpy()
        want = np.linalg.solve(a, r[:, None])[..., 0] if r.ndim == 1 else np.linalg.solve(a, r)
        _close(wg.linalg.solve(wa, rhs).numpy(), want)
        _close(wg.linalg.solve(wa, rhs).numpy(), want)


def test_key_upper():
    rng = np.random.default_rng(4)
    s = spd(rng, (2, 5, 5), np.float32)
    ws = wg.asarray(s)
    low = np.linalg.cholesky(s)
    for _ in range(2):
        _close(wg.linalg.cholesky(ws).numpy(), low)
        _close(wg.linalg.cholesky(ws, upper=True).numpy(), low.transpose(0, 2, 1))


def test_error_mode_read_at_each_call():
    """The mode is not part of a recipe: one made in 'nan' raises in 'raise', one made in 'raise' returns NaN
    in 'nan' (for cholesky, solve and inv; det never raises)."""
    rng = np.random.default_rng(5)
    good, bad = spd(rng, (3, 6, 6), np.float32), spd(rng, (3, 6, 6), np.float32)
    bad[1] = 0
    b = rng.standard_normal((3, 6, 1)).astype(np.float32)
    ops = [lambda x: wg.linalg.cholesky(x), lambda x: wg.linalg.inv(x), lambda x: wg.linalg.solve(x, wg.asarray(b))]
    for op in ops:
        with wg.linalg.errors("nan"):
            op(wg.asarray(good)).numpy()  # the recipe, made in 'nan'
        with pytest.raises(np.linalg.LinAlgError):
            op(wg.asarray(bad))
        with wg.linalg.errors("nan"):
            got = op(wg.asarray(bad)).numpy()
        assert np.isnan(got[1]).all() and np.isfinite(got[[0, 2]]).all()
    assert wg.linalg.det(wg.asarray(bad)).numpy()[1] == 0
    good, bad = good[:2], bad[:2]  # another layout: its recipes made in 'raise'
    b = b[:2]
    for op in ops:
        op(wg.asarray(good)).numpy()  # the recipe, made in 'raise'
        with wg.linalg.errors("nan"):
            got = op(wg.asarray(bad)).numpy()
        assert np.isnan(got[1]).all() and np.isfinite(got[0]).all()
        with pytest.raises(np.linalg.LinAlgError):
            op(wg.asarray(bad))


def test_recipes_off_makes_and_uses_none(plans, monkeypatch):
    """SMALL_RECIPES = False: every call plans its launch, and none is kept for later."""
    monkeypatch.setattr(F, "SMALL_RECIPES", False)
    dev = wg.default_device()
    a = _wc(np.random.default_rng(8), (4, 5, 5))
    kept = sum(1 for k in dev.plans if k and k[0] is F._RECIPE)
    for _ in range(2):
        np.testing.assert_allclose(wg.linalg.inv(wg.asarray(a)).numpy(), np.linalg.inv(a), rtol=1e-3, atol=1e-4)
    assert plans() == 2 and sum(1 for k in dev.plans if k and k[0] is F._RECIPE) == kept


def test_key_knobs(plans, monkeypatch):
    """SMALL_MAX (which path) and SMALL_GROUP (matrices a workgroup) are part of the key."""
    dev = wg.default_device()
    rng = np.random.default_rng(6)
    a = _wc(rng, (9, 8, 8))
    wa = wg.asarray(a)
    _close(wg.linalg.inv(wa).numpy(), np.linalg.inv(a))
    made = plans()
    monkeypatch.setattr(K, "SMALL_GROUP", 16)  # 2 matrices a workgroup instead of 8
    _close(wg.linalg.inv(wa).numpy(), np.linalg.inv(a))
    assert plans() == made + 1
    monkeypatch.setattr(K, "SMALL_MAX", 0)  # the blocked path now
    monkeypatch.setattr(F, "BLOCK", 4)
    before = dev.stats()
    _close(wg.linalg.inv(wa).numpy(), np.linalg.inv(a))
    assert (dev.stats() - before).dispatches > 1 and plans() == made + 1


def test_key_device():
    """A recipe is its device's: the same layout on another device is planned there, and answers there."""
    rng = np.random.default_rng(7)
    a = _wc(rng, (2, 5, 5))
    _close(wg.linalg.det(wg.asarray(a)).numpy(), np.linalg.det(a.astype(np.float64)))
    other = wg.open_device()
    try:
        x = wg.asarray(a, device=other)
        for _ in range(2):
            got = wg.linalg.det(x)
            assert got.device is other
            _close(got.numpy(), np.linalg.det(a.astype(np.float64)))
        with pytest.raises(ValueError):  # operands on two devices: the general path's error, recipe or not
            wg.linalg.solve(wg.asarray(a), wg.asarray(a[..., :1], device=other))
    finally:
        other.close()


@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["inv", "solve", "det", "cholesky"]), st.sampled_from([1, 3, 8, 9]),
                          st.sampled_from([(), (2,), (1, 3)]), st.booleans(), st.sampled_from([0, 1])),
                min_size=2, max_size=6), st.integers(0, 2 ** 32 - 1))
def test_sequences_match_numpy(seq, seed):
    """Calls in any order over layouts that share and differ in parts of their keys (transposed, offset)."""
    rng = np.random.default_rng(seed)
    for op, n, batch, transpose, off in seq:
        a = spd(rng, (off + 1,) + batch + (n, n), np.float32) if op == "cholesky" else _wc(rng, (off + 1,) + batch + (n, n))
        x = wg.asarray(a)[off]
        a = a[off]
        if transpose:
            x, a = x.mT, np.swapaxes(a, -1, -2)
        if op == "inv":
            _close(wg.linalg.inv(x).numpy(), np.linalg.inv(a))
        elif op == "det":
            _close(wg.linalg.det(x).numpy(), np.linalg.det(a.astype(np.float64)))
        elif op == "cholesky":
            _close(wg.linalg.cholesky(x).numpy(), np.linalg.cholesky(a))
        else:
            b = rng.standard_normal(batch + (n, 2)).astype(np.float32)
            _close(wg.linalg.solve(x, wg.asarray(b)).numpy(), np.linalg.solve(a, b))


def test_key_base_size():
    """The base's size decides whether the kernel may bind it whole (the device's binding limit): the same view of
    a base beyond the limit is copied first, not bound through a small base's recipe."""
    rng = np.random.default_rng(8)
    a = _wc(rng, (2, 5, 5))
    dev = wg.open_device(binding_limit=4096)
    try:
        _close(wg.linalg.inv(wg.asarray(a, device=dev)).numpy(), np.linalg.inv(a))
        big = wg.asarray(np.concatenate([a.ravel(), np.zeros(2000, np.float32)]), device=dev)  # 8,200 bytes
        x = big[:50].reshape(2, 5, 5)
        assert (x.shape, x.strides, x.offset) == ((2, 5, 5), (25, 5, 1), 0)
        for _ in range(2):
            _close(wg.linalg.inv(x).numpy(), np.linalg.inv(a))
    finally:
        dev.close()
