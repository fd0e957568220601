"""Issue 11, item 5: DType equality returns a bool for any object, None is no dtype, numpy reads DType objects."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import wgarray as wg
from wgarray.dtypes import ALL_DTYPES, as_dtype

_ODD = [",", "(2,3", "", "f4,", "[", "i4:", "float33", "()", ")", "O", "U10", "S", "V3"]


@pytest.mark.parametrize("other", _ODD + [None, wg.zeros(3), np.zeros(3), [1, 2], (1, 2), {}, object(), 1.5, 0,
                                          True, 2 ** 80, b",", ("f4", 2), [("a", "f4")]],
                         ids=lambda o: "object()" if type(o) is object else repr(o))  # no address: xdist
def test_equality_with_odd_objects_is_false_and_never_raises(other):
    for d in ALL_DTYPES:
        assert (d == other) is False
        assert (d != other) is True
        assert (other == d) is False or other is None or isinstance(other, np.ndarray)


def test_none_is_not_float64():
    assert (wg.float64 == None) is False  # noqa: E711
    assert (None == wg.float64) is False  # noqa: E711
    x = wg.zeros(3)
    assert (x.dtype == None) is False and (None == x.dtype) is False  # noqa: E711
    assert wg.float64 != None  # noqa: E711


def test_what_compared_equal_before_still_does():
    assert wg.float32 == "float32" and wg.float32 == np.float32 and wg.float32 == np.dtype("float32")
    assert wg.int64 == "int64" and wg.bool == np.bool_ and wg.float64 == "f8" and wg.float32 == b"float32"
    assert wg.float32 != wg.float64 and wg.float32 != "float64" and wg.int32 != 1
    assert wg.float32 == wg.float32 and hash(wg.float32) == hash(as_dtype("float32"))
    assert len({wg.float32, as_dtype("float32"), wg.float64}) == 2


def test_numpy_reads_dtype_objects():
    x = wg.zeros(3)
    assert np.dtype(wg.float32) == np.float32
    assert np.zeros(3, dtype=x.dtype).dtype == np.float32
    assert np.issubdtype(x.dtype, np.floating) and not np.issubdtype(wg.int8, np.floating)
    assert np.array([1, 2], dtype=wg.uint16).dtype == np.uint16
    assert wg.float16.dtype == np.float16


_OBJECTS = st.one_of(st.text(max_size=12), st.integers(), st.none(), st.floats(allow_nan=False),
                     st.tuples(st.text(max_size=4), st.integers(-3, 3)),
                     st.lists(st.tuples(st.text(max_size=3), st.sampled_from(["f4", "i2", ",", "("]))),
                     st.sampled_from([np.dtype(t) for t in "?bhilqBHILQefdgFDO"] + [wg.zeros(2), np.ones(2)]),
                     st.sampled_from(ALL_DTYPES))


@given(d=st.sampled_from(ALL_DTYPES), other=_OBJECTS)
def test_equality_with_any_object_is_a_bool_consistent_with_hash(d, other):
    eq = d == other
    ne = d != other
    assert type(eq) is bool and type(ne) is bool and eq is not ne
    if isinstance(other, wg.DType):
        assert eq is (d is other)
        assert (hash(d) == hash(other)) or not eq
    if eq:
        assert isinstance(other, (str, bytes, type, np.dtype, wg.DType)) and np.dtype(other) == d.numpy
