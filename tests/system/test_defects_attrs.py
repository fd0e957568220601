"""Issue 11, item 1: no public attribute or call lets a kernel or a host copy address memory outside an array's base.

``shape`` assigns as numpy's does (a reshape without a copy, else AttributeError / ValueError); every other
attribute is read-only, and unknown attributes cannot be added (numpy: AttributeError for both).
"""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import wgarray as wg

_MSG = "Incompatible shape for in-place modification"


def _inside_base(x: wg.Array) -> bool:
    """Every element the view addresses lies in [0, base size)."""
    if x.size == 0:
        return True
    lo = hi = x.offset
    for n, s in zip(x.shape, x.strides):
        lo += min(0, (n - 1) * s)
        hi += max(0, (n - 1) * s)
    return 0 <= lo and hi < x.mirror.size


def test_shape_assignment_reshapes_without_copy_as_numpy():
    x = wg.asarray(np.arange(12, dtype=np.float32).reshape(3, 4))
    x.shape = (2, 6)
    assert x.shape == (2, 6) and x.strides == (6, 1)
    np.testing.assert_array_equal(x.numpy(), np.arange(12, dtype=np.float32).reshape(2, 6))
    x.shape = (-1, 3)
    assert x.shape == (4, 3)
    x.shape = 12
    assert x.shape == (12,)
    view = wg.asarray(np.arange(24, dtype=np.int32).reshape(3, 8))[:, ::2]  # strides (8, 2): (3, 4) -> (12,) fails
    ref = np.arange(24, dtype=np.int32).reshape(3, 8)[:, ::2]
    view.shape = (3, 2, 2)
    ref.shape = (3, 2, 2)
    assert view.strides == tuple(s // 4 for s in ref.strides)
    np.testing.assert_array_equal(view.numpy(), ref)


def test_shape_assignment_refuses_what_numpy_refuses():
    w = wg.asarray(np.arange(4, dtype=np.float32))
    with pytest.raises(ValueError, match="cannot reshape array of size 4 into shape"):
        w.shape = (2000,)
    t = wg.asarray(np.zeros((3, 4), np.float32)).T
    with pytest.raises(AttributeError, match=_MSG):
        t.shape = (12,)
    with pytest.raises(AttributeError, match="Cannot delete array shape"):
        del w.shape
    with pytest.raises(TypeError):
        w.shape = "x"
    assert w.shape == (4,) and t.shape == (4, 3)
    w[...] = 7  # the refused assignments left everything usable
    np.testing.assert_array_equal(w.numpy(), np.full(4, 7, np.float32))


@pytest.mark.parametrize("name", ["strides", "offset", "mirror", "dtype", "device", "ndim", "size", "T", "mT",
                                  "nbytes", "residency"])
def test_other_attributes_are_read_only(name):
    x = wg.asarray(np.arange(4, dtype=np.float32).reshape(2, 2))
    before = getattr(x, name)
    for value in [(1000,), 1000, None, wg.float64]:
        with pytest.raises(AttributeError):
            setattr(x, name, value)
    with pytest.raises(AttributeError):
        delattr(x, name)
    after = getattr(x, name)
    assert after is before or (isinstance(after, wg.Array) or after == before)


def test_unknown_attributes_cannot_be_added():
    x = wg.zeros(3)
    with pytest.raises(AttributeError):
        x.foo = 1
    assert not hasattr(x, "foo")


def test_the_constructor_refuses_views_outside_the_base():
    x = wg.asarray(np.arange(4, dtype=np.float32))
    for shape, strides, offset in [((2000,), (1,), 0), ((4,), (1,), 1), ((2,), (-1,), 0), ((3,), (2,), 0)]:
        with pytest.raises(ValueError):
            wg.Array(x.mirror, shape, strides, offset)
    np.testing.assert_array_equal(wg.Array(x.mirror, (2,), (-2,), 3).numpy(), [3, 1])


_NAMES = st.sampled_from(["shape", "strides", "offset", "mirror", "dtype", "device", "ndim", "size", "T", "mT",
                          "flags", "nbytes", "foo", "_offset", "__dict__", "__class__"]) | st.text(max_size=8)
_VALUES = st.one_of(st.none(), st.integers(-5000, 5000), st.tuples(st.integers(-3, 30)),
                    st.tuples(st.integers(-3, 30), st.integers(-3, 30)),
                    st.tuples(st.integers(-3, 30), st.integers(-3, 30), st.integers(-3, 30)),
                    st.sampled_from([wg.float64, "float32", (), [2, 6], 2.5]))


@given(ops=st.lists(st.tuples(st.integers(0, 3), _NAMES, _VALUES), min_size=1, max_size=12))
def test_random_attribute_assignments_keep_values_and_bounds(ops):
    base = np.arange(24, dtype=np.float32).reshape(4, 6)
    x = wg.asarray(base)
    arrays = [x, x[1:, ::2], x.T, x[::-1, 3]]
    models = [base, base[1:, ::2], base.T, base[::-1, 3]]
    for which, name, value in ops:
        a, m = arrays[which], models[which]
        expected = None
        if name == "shape":
            expected = m.view()
            try:
                expected.shape = value
            except (AttributeError, ValueError, TypeError):
                expected = None
        try:
            setattr(a, name, value)
        except (AttributeError, ValueError, TypeError):
            assert expected is None, f"numpy accepts shape = {value!r} for {m.shape}, wgarray refused it"
        else:
            assert name == "shape", f"setting {name!r} was accepted"
            assert expected is not None, f"numpy refuses shape = {value!r} for {m.shape}, wgarray accepted it"
            models[which] = expected
        assert _inside_base(a)
        if expected is not None:
            assert a.shape == expected.shape
        for arr, mod in zip(arrays, models):
            assert _inside_base(arr) and arr.mirror.size == 24
            np.testing.assert_array_equal(arr.numpy(), mod)
