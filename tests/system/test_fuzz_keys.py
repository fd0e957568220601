"""Fuzz target (issue 11, "done when"): random attribute assignments, writes through broadcast views, and mixed
basic/advanced keys with ``...`` and ``None`` on random views, each compared with numpy.

* an attribute assignment either raises AttributeError/ValueError/TypeError or leaves the array as numpy's
  same assignment leaves numpy's (shape and values);
* a write through a broadcast view either raises ValueError (read-only destination) or writes what a writable
  numpy broadcast view of the same base would;
* ``x[key]`` and ``x[key] = v`` on random views (transposed, strided, reversed) match numpy, errors included.

The CI variant runs a few examples; the slow one (``make test-long``) runs many.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import wgarray as wg
from api.test_indexing_numpy_layout import check_get_set
from keys import apply_view, base_and_view, key_for

pytestmark = pytest.mark.filterwarnings("ignore:Setting the strides:DeprecationWarning")

_ATTRS = ["shape", "dtype", "device", "ndim", "size", "T", "mT", "nbytes", "itemsize", "strides", "foo", "flags"]


def _attribute_case(data):
    base, vkey = data.draw(base_and_view(max_dims=3))
    view_np = apply_view(base, vkey)
    x = apply_view(wg.asarray(base), vkey)
    name = data.draw(st.sampled_from(_ATTRS))
    value = data.draw(st.sampled_from([(), (-1,), view_np.shape[::-1], (view_np.size,), 3, None, "f4", wg.float32]))
    try:
        setattr(x, name, value)
    except (AttributeError, ValueError, TypeError):
        np.testing.assert_array_equal(x.numpy(), view_np)  # refused: nothing changed
        return
    try:
        setattr(view_np, name, value)  # wgarray accepted it: numpy must too, with the same outcome
    except (AttributeError, ValueError, TypeError) as e:
        raise AssertionError(f"wgarray accepted x.{name} = {value!r}, which numpy refuses ({e})") from None
    assert x.shape == view_np.shape
    np.testing.assert_array_equal(x.numpy(), view_np)


def _broadcast_case(data):
    n = data.draw(st.integers(1, 4))
    base = np.arange(n, dtype=np.float32)
    shape = (data.draw(st.integers(1, 3)), n)
    x = wg.asarray(base)
    bx = wg.broadcast_to(x, shape)
    writable = np.lib.stride_tricks.as_strided(base, shape, (0, base.strides[0]))  # numpy's view, made writable
    nkey, wkey = data.draw(key_for(shape, device_arrays=False))
    try:
        writable[nkey]
    except (IndexError, ValueError, TypeError):
        return
    try:
        bx[wkey] = -7.0
    except ValueError as e:
        assert "read-only" in str(e)
        np.testing.assert_array_equal(x.numpy(), np.arange(n, dtype=np.float32))
        return
    writable[nkey] = -7.0
    np.testing.assert_array_equal(x.numpy(), base)


def _key_case(data):
    base, vkey = data.draw(base_and_view())
    check_get_set(data, base, vkey)


def _program(data, steps, cases):
    for _ in range(steps):
        data.draw(st.sampled_from(cases))(data)


_CASES = [_broadcast_case, _key_case, _key_case]


@settings(max_examples=15, deadline=None)
@given(st.data())
def test_fuzz_keys_short(data):
    _program(data, 3, _CASES)


@settings(max_examples=15, deadline=None)
@given(st.data())
def test_fuzz_attributes_short(data):
    _program(data, 3, [_attribute_case])


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.data())
def test_fuzz_keys_long(data):
    _program(data, 10, _CASES + [_attribute_case])
