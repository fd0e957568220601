"""Statistical functions beyond the reductions and scans: var and std (float sums in another order than numpy's,
so within a tolerance), and reductions of views with more dimensions than one kernel addresses.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

import wgarray as wg

from strategies import array_and_host, check, close, reduction_args, shapes


@given(st.data())
def test_var_std(data):
    x, host, dt = data.draw(array_and_host(shapes(max_dims=3, max_side=6), kinds="iuf", finite=True, small=True))
    axis = data.draw(reduction_args(host.ndim))
    correction = data.draw(st.sampled_from([0, 1, 0.5, 2.0]))
    keepdims = data.draw(st.booleans())
    res = dt if dt.kind == "f" else wg.float32
    ref = host.astype(np.float64)
    with np.errstate(all="ignore"):
        want_var = np.var(ref, axis=axis, ddof=correction, keepdims=keepdims)
        want_std = np.std(ref, axis=axis, ddof=correction, keepdims=keepdims)
    scale = np.max(np.abs(ref)) if ref.size else 0.0
    eps = {16: 2e-3, 32: 1e-6, 64: 1e-14}[res.bits]
    close(wg.var(x, axis=axis, correction=correction, keepdims=keepdims), want_var, res, rtol=eps * 8,
          atol=eps * 8 * scale * scale)
    close(wg.std(x, axis=axis, correction=correction, keepdims=keepdims), want_std, res, rtol=eps * 8,
          atol=math.sqrt(eps * 8) * scale)


def test_var_edge_cases():
    x = wg.asarray(np.array([1.0, 2.0, 4.0], np.float32))
    with np.errstate(all="ignore"):
        check(wg.var(x, correction=3), np.var(np.array([1.0, 2.0, 4.0], np.float32), ddof=3))  # divisor 0: inf
        check(wg.var(wg.ones((0,))), np.var(np.ones((0,), np.float32)))  # empty: NaN
    assert wg.var(x).dtype is wg.float32 and wg.var(wg.asarray([1, 2])).dtype is wg.float32


@pytest.mark.parametrize("nd", [9, 11])
def test_reductions_beyond_the_kernels_dimensions(nd):
    """Reductions of views whose kept or reduced dimensions do not merge into 8: the input is copied into rows."""
    host = np.random.default_rng(nd).standard_normal((2,) * nd).astype(np.float32)
    perm = tuple(range(0, nd, 2)) + tuple(range(1, nd, 2))
    x = wg.permute_dims(wg.asarray(host), perm)
    want = np.transpose(host, perm)
    every_other = tuple(range(0, nd, 2))
    for axis in (None, every_other, 3):
        np.testing.assert_allclose(wg.sum(x, axis=axis).numpy(), want.sum(axis=axis), rtol=1e-5, atol=1e-5)
        check(wg.max(x, axis=axis), want.max(axis=axis))
    check(wg.argmax(x), np.array(np.argmax(want), np.int32))
    check(wg.argmin(x, axis=3), np.argmin(want, axis=3).astype(np.int32))
