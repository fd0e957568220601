"""Issue 11, items 6 and 12: comparisons are exact across kinds and take numpy 2's operands.

* an integer against a float (arrays of every int x float dtype pair, both orders, operators and functions;
  numpy and Python scalars) gives the mathematically exact answer: the oracle is Python's own int/float
  comparison, which is exact.  Values sit near 2^24, 2^31, 2^53, 2^63 and the dtypes' extremes, with NaN, +-inf
  and -0.0.  (numpy agrees except for 64-bit integers against float64, which numpy rounds to float64 first.)
* an integer array against a Python int outside its dtype answers by value (``uint8 == -1`` is all False), as in
  numpy 2, instead of raising OverflowError;
* lists and tuples broadcast as arrays (``x == [0, 1, 2]`` is an array), ``x == None`` is elementwise False
  (``!=`` True).
"""
from __future__ import annotations

import operator

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import wgarray as wg

from strategies import FLOATS, INTS, supported

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # casts of huge test values to float16

OPS = [("equal", operator.eq), ("not_equal", operator.ne), ("less", operator.lt), ("less_equal", operator.le),
       ("greater", operator.gt), ("greater_equal", operator.ge)]
CENTRES = [0, 1, 2**11, 2**24, 2**31, 2**32, 2**53, 2**63, 2**64]


def _ints(dtype):
    info = np.iinfo(dtype.numpy)
    lo, hi = int(info.min), int(info.max)
    near = st.builds(lambda c, s, k: max(lo, min(hi, s * c + k)), st.sampled_from(CENTRES), st.sampled_from([1, -1]),
                     st.integers(-3, 3))
    return near | st.integers(lo, hi) | st.sampled_from([lo, hi])


def _floats(dtype):
    near = st.builds(lambda c, s, k: s * c + k, st.sampled_from(CENTRES), st.sampled_from([1.0, -1.0]),
                     st.sampled_from([0.0, 0.5, -0.5, 1.0, -1.0, 3.0]))
    special = st.sampled_from([0.0, -0.0, float("nan"), float("inf"), float("-inf")])
    return (near | special | st.floats(allow_nan=True, width=64)).map(
        lambda v: float(np.array(v).astype(dtype.numpy)))  # the dtype's own (rounded) value, exactly


def _round(v: int, dtype) -> float:
    with np.errstate(over="ignore"):
        return float(np.array(float(v)).astype(dtype.numpy))


def _exact(op, a, b) -> bool:
    """Python's int/float comparison: exact (NaN compares unequal to everything)."""
    return op(a, b)


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_int_float_arrays_exact(data):
    idt = data.draw(st.sampled_from(supported(INTS)))
    fdt = data.draw(st.sampled_from(supported(FLOATS)))
    n = data.draw(st.integers(1, 6))
    iv = data.draw(st.lists(_ints(idt), min_size=n, max_size=n))
    # often the partner's own value rounded to the float dtype: the case a rounding comparison gets wrong
    fv = [data.draw(_floats(fdt) | st.integers(-2, 2).map(lambda k, a=a: _round(a + k, fdt))) for a in iv]
    xi = wg.asarray(np.array(iv, dtype=idt.numpy))
    xf = wg.asarray(np.array(fv, dtype=fdt.numpy))
    name, op = data.draw(st.sampled_from(OPS))
    fn = getattr(wg, name)
    want = [_exact(op, a, b) for a, b in zip(iv, fv)]
    np.testing.assert_array_equal(fn(xi, xf).numpy(), want, err_msg=f"{idt.name} {name} {fdt.name}")
    np.testing.assert_array_equal(op(xi, xf).numpy(), want)
    want_r = [_exact(op, b, a) for a, b in zip(iv, fv)]
    np.testing.assert_array_equal(fn(xf, xi).numpy(), want_r, err_msg=f"{fdt.name} {name} {idt.name}")
    np.testing.assert_array_equal(op(xf, xi).numpy(), want_r)


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_int_array_vs_scalars_exact(data):
    idt = data.draw(st.sampled_from(supported(INTS)))
    iv = data.draw(st.lists(_ints(idt), min_size=1, max_size=5))
    x = wg.asarray(np.array(iv, dtype=idt.numpy))
    v = data.draw(_floats(wg.float64) | st.integers(-2**70, 2**70) | st.builds(
        lambda c, k: c + k, st.sampled_from([-2**64, -2**63, -2**31, 2**31, 2**63, 2**64]), st.integers(-2, 2))
        | st.sampled_from([np.float32(16777216.5), np.float64(2.0**63), np.float32("nan")]))
    name, op = data.draw(st.sampled_from(OPS))
    exact_v = v.item() if isinstance(v, np.generic) else v
    np.testing.assert_array_equal(op(x, v).numpy(), [op(a, exact_v) for a in iv], err_msg=f"{idt.name} {name} {v!r}")
    np.testing.assert_array_equal(op(v, x).numpy(), [op(exact_v, a) for a in iv])
    np.testing.assert_array_equal(getattr(wg, name)(x, v).numpy(), [op(a, exact_v) for a in iv])


@pytest.mark.parametrize("a, adt, b, bdt, name, want", [
    (16777217, "int32", 16777216.0, "float32", "equal", False),
    (2**31 - 1, "int32", 2.0**31, None, "equal", False),
    (2**40 + 1, "int64", 2.0**40, "float32", "greater", True),
    (2**53 + 1, "int64", 2.0**53, "float64", "equal", False),  # numpy: True (it rounds the int64 to float64)
    (2**64 - 1, "uint64", 2.0**64, "float64", "less", True),
    (0, "int32", -0.0, "float32", "equal", True),
    (5, "int8", float("nan"), "float16", "not_equal", True),
])
def test_examples(a, adt, b, bdt, name, want):
    if not wg.default_device().supports(getattr(wg, adt)) or (bdt and not wg.default_device().supports(getattr(wg, bdt))):
        pytest.skip("dtype not supported here")
    x = wg.asarray(np.array([a], dtype=adt))
    y = b if bdt is None else wg.asarray(np.array([b], dtype=bdt))
    assert getattr(wg, name)(x, y).numpy().tolist() == [want]


def test_out_of_range_python_ints():
    u = wg.asarray(np.array([0, 1, 255], np.uint8))
    np.testing.assert_array_equal((u == -1).numpy(), np.array([0, 1, 255], np.uint8) == -1)
    np.testing.assert_array_equal((u != -1).numpy(), [True] * 3)
    np.testing.assert_array_equal((u > -1).numpy(), [True] * 3)
    np.testing.assert_array_equal((wg.asarray(np.array([1, -128], np.int8)) < 1000).numpy(), [True, True])
    np.testing.assert_array_equal((1000 > wg.asarray(np.array([1], np.int8))).numpy(), [True])
    np.testing.assert_array_equal(wg.less_equal(u, 2**70).numpy(), [True] * 3)


@pytest.mark.parametrize("name, op", OPS)
def test_sequences_and_none(name, op):
    a = np.arange(3, dtype=np.int32)
    x = wg.asarray(a)
    for seq in ([0, 1, 2], (2, 1, 0), [[0], [5]]):
        got = op(x, seq)
        assert isinstance(got, wg.Array)
        np.testing.assert_array_equal(got.numpy(), op(a, np.array(seq)))
        np.testing.assert_array_equal(op(seq, x).numpy(), op(np.array(seq), a))
    if name in ("equal", "not_equal"):
        got = op(x, None)
        assert isinstance(got, wg.Array) and got.dtype == wg.bool
        np.testing.assert_array_equal(got.numpy(), op(a, None))
        np.testing.assert_array_equal(op(None, x).numpy(), op(None, a))
    else:
        with pytest.raises(TypeError):
            op(x, None)


def test_arithmetic_with_sequences():
    a = np.arange(3, dtype=np.int32)
    x = wg.asarray(a)
    for op in (operator.add, operator.sub, operator.mul):
        np.testing.assert_array_equal(op(x, [1, 2, 3]).numpy(), op(a, np.array([1, 2, 3], np.int32)))
        np.testing.assert_array_equal(op((1, 2, 3), x).numpy(), op(np.array([1, 2, 3], np.int32), a))
    with pytest.raises(TypeError):
        x + None
