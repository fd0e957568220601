"""Issue 11, item 5: numpy's indexing layout and 0-d boolean indices, as a property against numpy.

Random mixed keys (ints, slices with negative steps, None, ``...`` spanning zero or more axes, integer arrays,
boolean arrays including 0-d ones, Python bools) on random views (transposed, strided, reversed) give numpy's
result for ``x[key]`` and leave numpy's base after ``x[key] = value``; a key numpy refuses raises the same class.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import wgarray as wg
from keys import apply_view, base_and_view, key_for, numpy_result


def _unique_targets(base, vkey, nkey) -> bool:
    flat = apply_view(np.arange(base.size).reshape(base.shape), vkey)
    sel = flat[nkey]
    return np.unique(sel).size == sel.size


def check_get_set(data, base, vkey, device_arrays=True):
    view_np = apply_view(base, vkey)
    nkey, wkey = data.draw(key_for(view_np.shape, device_arrays))
    x = apply_view(wg.asarray(base), vkey)
    want, err = numpy_result(lambda: view_np[nkey])
    if err is not None:
        with pytest.raises(err):
            x[wkey]
        return
    got = x[wkey].numpy()
    assert got.shape == want.shape and got.dtype == want.dtype, (nkey, got.shape, want.shape)
    np.testing.assert_array_equal(got, want)
    # set: a scalar, or (targets unique, so that the written value is defined) an array of the result's shape
    expect = base.copy()
    if _unique_targets(base, vkey, nkey) and data.draw(st.booleans()):
        value = np.arange(want.size, dtype=np.float32).reshape(want.shape) + 100
        wvalue = wg.asarray(value) if data.draw(st.booleans()) else value
    else:
        value = wvalue = 99.0
    apply_view(expect, vkey)[nkey] = value
    xb = wg.asarray(base)
    apply_view(xb, vkey)[wkey] = wvalue
    np.testing.assert_array_equal(xb.numpy(), expect)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_random_keys_match_numpy(data):
    base, vkey = data.draw(base_and_view())
    check_get_set(data, base, vkey)


@pytest.mark.parametrize("shape, key, want", [
    ((2, 4, 1), (slice(None), [0, 1, 2], Ellipsis, 0), (3, 2)),  # ... spanning zero axes separates
    ((2, 4, 1), (slice(None), [0, 1, 2], 0), (2, 3)),
    ((2, 3, 4), (True,), (1, 2, 3, 4)),
    ((2, 3, 4), (False,), (0, 2, 3, 4)),
    ((2, 3, 4), (slice(None), True, [0, 1]), (2, 2, 4)),
    ((2, 3, 4), (0, True), (1, 3, 4)),
    ((2, 3, 4), (True, Ellipsis, [0, 1]), (2, 2, 3)),
])
def test_layout_examples(shape, key, want):
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    x = wg.asarray(a)
    assert a[key].shape == want
    np.testing.assert_array_equal(x[key].numpy(), a[key])
    x[key] = -1.0
    a[key] = -1.0
    np.testing.assert_array_equal(x.numpy(), a)


def test_zero_d_masks():
    s = wg.asarray(3.0)
    assert s[s > 1].shape == (1,) and s[s > 5].shape == (0,)
    m = s > 1
    s[m] = 0.0
    assert float(s) == 0.0
    s[s > 1] = 7.0  # False: nothing written
    assert float(s) == 0.0
    np.testing.assert_array_equal(wg.arange(3)[wg.asarray(True)].numpy(), [[0, 1, 2]])
    assert wg.arange(3)[wg.asarray(False)].shape == (0, 3)
    x = wg.arange(3)
    x[True] = 5
    np.testing.assert_array_equal(x.numpy(), [5, 5, 5])
    x[np.False_] = 1
    np.testing.assert_array_equal(x.numpy(), [5, 5, 5])


@pytest.mark.parametrize("shape, mask_shape", [
    ((1,), (0,)), ((3,), (0,)), ((2, 3), (0, 3)), ((2, 3), (2, 0)), ((2, 3), (0,)), ((0,), (0,)),
    ((2, 3), (1, 0)), ((2, 3), (0, 5)), ((2, 3), (3,)),
])
def test_mask_sides_of_zero(shape, mask_shape):
    """A mask side of 0 selects nothing against any side of x (numpy's rule, which the standard's suite checks);
    any other mismatch is numpy's IndexError, naming the axis."""
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    x = wg.asarray(a)
    mask = np.zeros(mask_shape, dtype=bool)
    try:
        want = a[mask]
    except IndexError:
        with pytest.raises(IndexError, match="boolean index did not match"):
            x[wg.asarray(mask)]
        with pytest.raises(IndexError, match="boolean index did not match"):
            x[wg.asarray(mask)] = 1.0
        np.testing.assert_array_equal(x.numpy(), a)
        return
    got = x[wg.asarray(mask)]
    assert got.shape == want.shape
    x[wg.asarray(mask)] = -1.0
    np.testing.assert_array_equal(x.numpy(), a)
