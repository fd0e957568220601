"""Creation functions beyond test_creation.py, against numpy: meshgrid, tril, triu, from_dlpack, and the
keyword-only dtype of the creation signatures.  Results are compared bit for bit.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import wgarray as wg

from strategies import array_and_host, assert_same, check, dtypes, shapes, values, view_of


@given(st.data())
def test_meshgrid(data):
    k = data.draw(st.integers(0, 4))
    xs, hosts = [], []
    for _ in range(k):
        dt = data.draw(dtypes())
        h = data.draw(values(dt, (data.draw(st.integers(0, 4)),)))
        x, h = data.draw(view_of(h, dt))
        xs.append(x)
        hosts.append(h)
    indexing = data.draw(st.sampled_from(["xy", "ij"]))
    got = wg.meshgrid(*xs, indexing=indexing)
    want = np.meshgrid(*hosts, indexing=indexing)
    assert isinstance(got, list) and len(got) == len(want)
    for g, w, x in zip(got, want, xs):
        assert g.mirror is not x.mirror
        check(g, w, x.dtype)
    with pytest.raises(ValueError):
        wg.meshgrid(wg.ones(2), indexing="xz")
    with pytest.raises(ValueError):
        wg.meshgrid(wg.ones((2, 2)))


@given(st.data())
def test_tril_triu(data):
    x, host, dt = data.draw(array_and_host(shapes(min_dims=2, max_dims=4, max_side=6)))
    k = data.draw(st.one_of(st.integers(-8, 8), st.sampled_from([-(2 ** 40), 2 ** 40])))
    check(wg.tril(x, k=k), np.tril(host, k), dt)
    check(wg.triu(x, k=k), np.triu(host, k), dt)
    assert wg.tril(x).residency <= frozenset({"device"})
    with pytest.raises(ValueError):
        wg.tril(wg.ones(3))


def test_from_dlpack():
    host = np.arange(12, dtype=np.int16).reshape(3, 4)[:, ::2]
    got = wg.from_dlpack(host)
    check(got, host, wg.int16)
    x = wg.asarray(np.arange(5, dtype=np.float32))
    assert wg.from_dlpack(x) is x
    y = wg.from_dlpack(x, copy=True)
    assert y.mirror is not x.mirror
    check(y, np.arange(5, dtype=np.float32))
    with pytest.raises(BufferError):
        wg.from_dlpack(host, copy=False)  # a strided producer cannot be the host block
    with pytest.raises(TypeError):
        wg.from_dlpack([1, 2, 3])
    # round trip through numpy's consumer, from a device-only strided view
    z = (wg.arange(10, dtype=wg.float32) * 2)[::3]
    assert_same(np.from_dlpack(z), np.arange(10, dtype=np.float32)[::3] * 2)
    assert z.__dlpack_device__() == (1, 0)
    with pytest.raises(BufferError):  # device only: sharing the host block would need a download (a copy)
        ((wg.arange(10, dtype=wg.float32) * 2)[::3]).__dlpack__(copy=False)
    assert np.shares_memory(np.from_dlpack(z, copy=False), z.mirror.host())  # z's download made the host valid


def test_creation_signatures_take_numpys_positional_dtype():
    assert wg.empty((2,), wg.float32).dtype is wg.float32  # numpy's position (tests/api/test_call_forms.py)
    assert wg.full((2,), 1.0, wg.float16).dtype is wg.float16
    with pytest.raises(TypeError):
        wg.empty((2,), wg.float32, wg.default_device())  # device stays keyword-only (numpy's order comes first)
    check(wg.full((2,), 1.5, dtype=wg.float16), np.full(2, 1.5, np.float16), wg.float16)
