"""Issue 11, item 11: numpy's positional call forms.  Wherever numpy takes a parameter positionally and wgarray
has a parameter of that name, wgarray takes it at numpy's position (``diff(x, 2)``, ``sum(x, 0)``,
``zeros(3, dtype)``, ``linspace(0, 1, 5, False)``, ``expand_dims(x, 1)``).  The rule covers numpy's positional
parameters up to the first one wgarray lacks (``out``, ``order``, ``kind``, ...): past that hole a parameter cannot
sit at numpy's index, so it stays keyword-only.  The standard's positional-only markers stay where numpy also takes
the parameter positionally (a first parameter named ``a`` in numpy and ``x`` in wgarray is positional-only)."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import wgarray as wg

POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def shared_functions():
    out = []
    for name in sorted(set(dir(np)) & set(dir(wg))):
        f, g = getattr(np, name), getattr(wg, name)
        if name.startswith("_") or isinstance(f, (np.ufunc, type)) or isinstance(g, type):
            continue  # ufuncs take their operands positionally anyway; dtypes and classes are not functions
        if not (callable(f) and callable(g)):
            continue
        try:
            inspect.signature(f), inspect.signature(g)
        except (TypeError, ValueError):
            continue
        out.append(name)
    return out


SHARED = shared_functions()


def test_the_walk_covers_the_common_functions():
    assert len(SHARED) > 100
    assert {"sum", "diff", "zeros", "linspace", "expand_dims", "take", "sort"} <= set(SHARED)


@pytest.mark.parametrize("name", SHARED)
def test_numpy_positional_parameters_are_accepted_at_numpy_positions(name):
    npp = list(inspect.signature(getattr(np, name)).parameters.values())
    wgp = list(inspect.signature(getattr(wg, name)).parameters.values())
    names = {p.name: i for i, p in enumerate(wgp)}
    for i, p in enumerate(npp):
        if p.kind not in POSITIONAL:
            break
        if p.name in names:
            q = wgp[names[p.name]]
            assert names[p.name] == i and q.kind in POSITIONAL, (
                f"{name}: numpy takes {p.name!r} at position {i}; wgarray's {q} is at {names[p.name]} ({q.kind.name})")
        elif i < len(wgp) and wgp[i].kind == inspect.Parameter.POSITIONAL_ONLY and wgp[i].name not in (
                q.name for q in npp):
            continue  # the same parameter under the standard's name (a -> x, N -> n_rows), positional-only
        else:
            break  # a numpy parameter wgarray lacks: later ones cannot sit at numpy's index


def test_the_call_forms_of_the_issue():
    x = wg.asarray([1.0, 4.0, 9.0, 16.0])
    h = np.array([1.0, 4.0, 9.0, 16.0])
    np.testing.assert_array_equal(wg.diff(x, 2).numpy(), np.diff(h, 2))
    m = wg.reshape(wg.arange(6), (2, 3))
    np.testing.assert_array_equal(wg.sum(m, 0).numpy(), np.sum(np.arange(6).reshape(2, 3), 0))
    np.testing.assert_array_equal(wg.sum(m, 1, wg.float32).numpy(), [3.0, 12.0])
    z = wg.zeros(3, wg.int16)
    assert z.dtype is wg.int16 and z.shape == (3,)
    got = wg.linspace(0, 1, 5, False)
    np.testing.assert_array_equal(got.numpy(), np.linspace(0, 1, 5, False, dtype=got.dtype.numpy))
    assert wg.expand_dims(x, 1).shape == (4, 1)
    assert wg.full((2,), 7, wg.int8).dtype is wg.int8
    np.testing.assert_array_equal(wg.take(m, wg.asarray([0, 0]), 1).numpy(), [[0, 0], [3, 3]])
    np.testing.assert_array_equal(wg.tril(wg.ones((3, 3)), -1).numpy(), np.tril(np.ones((3, 3)), -1))
    np.testing.assert_array_equal(wg.searchsorted(x, wg.asarray([4.0]), "right").numpy(), [2])
    np.testing.assert_array_equal(wg.eye(3, 3, 1, wg.int32).numpy(), np.eye(3, 3, 1, np.int32))
    np.testing.assert_array_equal(wg.sort(m, 0).numpy(), np.sort(np.arange(6).reshape(2, 3), 0))
    assert wg.asarray([1, 2], wg.int8).dtype is wg.int8
