"""Utility functions against numpy: diff (exact), with prepend/append and its errors (all/any are in
test_statistical_reductions.py).
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import wgarray as wg

from strategies import array_and_host, check, shapes, values


@given(st.data())
def test_diff(data):
    x, host, dt = data.draw(array_and_host(shapes(min_dims=1, max_dims=3, max_side=6)))
    axis = data.draw(st.integers(-host.ndim, host.ndim - 1))
    n = data.draw(st.integers(0, 4))
    kw = {}
    if data.draw(st.booleans()):
        shp = list(host.shape)
        shp[axis] = data.draw(st.integers(0, 2))
        pre = data.draw(values(dt, tuple(shp)))
        kw["prepend"] = pre
    if data.draw(st.booleans()):
        kw["append"] = data.draw(values(dt, ()))
    got = wg.diff(x, axis=axis, n=n, **{k: wg.asarray(v) for k, v in kw.items()})
    with np.errstate(all="ignore"):
        if n == 0:  # the standard: the result has M - n elements along axis, M counting prepend/append;
            # numpy returns x unchanged for n=0, ignoring them
            parts = [kw.get("prepend"), host, kw.get("append")]
            shp = list(host.shape)
            shp[axis] = 1
            want = np.concatenate([p if p.ndim else np.broadcast_to(p, shp) for p in parts if p is not None],
                                  axis=axis)
        else:
            want = np.diff(host, n=n, axis=axis, **kw)
    check(got, want, dt)


def test_diff_errors():
    with pytest.raises(ValueError):
        wg.diff(wg.asarray(1.0))
    with pytest.raises(ValueError):
        wg.diff(wg.ones(3), n=-1)
