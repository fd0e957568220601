"""Recipes (``ops/elementwise.binary``): a repeated binary operator on two Arrays launches the plan cached for its
operands' layouts without ``kernels.elementwise.run``; every layout gives numpy's answer on the first (recording)
and the later (recipe) calls, and anything a recipe does not cover goes the general way."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

import wgarray as wg

kew = importlib.import_module("wgarray.kernels.elementwise")
oew = importlib.import_module("wgarray.ops.elementwise")  # (``wgarray.ops.elementwise`` is also a function's name)


def _recipes(dev) -> int:
    return sum(1 for k in dev.plans if k and k[0] is oew._RECIPE)


def _no_run(monkeypatch):
    """Make ``run`` fail: a call that still reaches it is not a recipe's launch."""
    def fail(*a, **k):
        raise AssertionError("run() called on a recipe hit")
    monkeypatch.setattr(kew, "run", fail)
    monkeypatch.setattr(oew._ew, "run", fail)


LAYOUTS = {  # name: (x, y) as views of host data, both on the default device
    "contiguous": lambda x, y: (x, y),
    "offsets": lambda x, y: (x[3:], y[:-3]),
    "strided": lambda x, y: (x[::2], y[1::2]),
    "one base": lambda x, y: (x[:-1], x[1:]),
    "same array": lambda x, y: (x, x),
    "broadcast": lambda x, y: (x.reshape((6, 10)), y[:10]),
    "0-d": lambda x, y: (x[0], y[5]),
}


CALLS = {"add": (lambda x, y: x + y, np.add), "multiply": (lambda x, y: x * y, np.multiply),
         "less": (lambda x, y: x < y, np.less), "maximum": (wg.maximum, np.maximum)}  # operators and a function


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("name", list(CALLS))
def test_a_recipe_gives_numpys_answer_for_every_layout(layout, name, monkeypatch):
    rng = np.random.default_rng(7)
    xh = rng.standard_normal(60).astype(np.float32)
    xh[[4, 9]] = np.nan, -0.0
    yh = rng.standard_normal(60).astype(np.float32)
    x, y = LAYOUTS[layout](wg.asarray(xh), wg.asarray(yh))
    hx, hy = LAYOUTS[layout](xh, yh)
    fn, ref = CALLS[name]
    want = ref(hx, hy)
    np.testing.assert_array_equal(fn(x, y).numpy(), want)  # the general path (it decides the dtypes) ...
    first = fn(x, y)  # ... then the fast path, which records the recipe
    np.testing.assert_array_equal(first.numpy(), want)
    assert _recipes(x.device) >= 1
    _no_run(monkeypatch)
    for _ in range(3):  # recipe hits: the same bits in fresh result arrays
        again = fn(x, y)
        assert again is not first and again.dtype == first.dtype and again.shape == want.shape
        np.testing.assert_array_equal(again.numpy(), want)


def test_what_recipes_leave_to_the_general_path(monkeypatch):
    a = wg.asarray(np.arange(8, dtype=np.float32))
    b = wg.asarray(np.ones(8, np.float32))
    a + b
    a + b  # records the recipe
    other = wg.open_device()
    try:
        c = wg.asarray(np.ones(8, np.float32), device=other)
        with pytest.raises(ValueError, match="device"):  # same layouts, another device: not the recipe
            a + c
        c2 = wg.asarray(np.arange(8, dtype=np.float32), device=other)
        np.testing.assert_array_equal((c2 + c).numpy(), np.arange(8) + 1.0)  # that device records its own
    finally:
        other.close()
    with pytest.raises(ValueError):  # shapes that do not broadcast never make a recipe
        a + wg.asarray(np.ones(3, np.float32))
    x = wg.asarray(np.arange(8, dtype=np.int32))
    before = _recipes(a.device)
    for _ in range(2):
        np.testing.assert_array_equal((x + 1).numpy(), np.arange(8) + 1)  # a scalar operand: no recipe
    assert _recipes(a.device) == before
    for _ in range(2):
        np.testing.assert_array_equal((x + x).numpy(), np.arange(8) * 2)
    assert _recipes(a.device) == before + 1
    with wg.lazy():  # deferred results: the lazy path, not a recipe's launch
        _no_run(monkeypatch)
        d = a + b
        monkeypatch.undo()
    np.testing.assert_array_equal(d.numpy(), np.arange(8) + 1.0)
