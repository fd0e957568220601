"""Property tests of the creation functions against numpy: asarray, zeros, ones, empty, full, arange, linspace, eye,
the *_like variants and astype round trips.

Policy (project notes): Python lists default to int32 / float32 / bool (numpy: int64 / float64); numpy arrays keep
their dtype; Python ints that do not fit int32 raise OverflowError unless a wider dtype is asked for; complex,
object and string data raise TypeError.  Integer ranges are exact.  Float ``arange``/``linspace`` are compared with
the exact value start + i * step (numpy's own float32 arange accumulates the rounding error of its first step, so
it is not a better oracle) within a stated tolerance.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, strategies as st
from hypothesis.extra import numpy as hnp

import wgarray as wg

from strategies import assert_same, shapes, subnormal, supported, values, view_of

SUPPORTED = supported()
FLOATS = [d for d in SUPPORTED if d.kind == "f"]
INTS = [d for d in SUPPORTED if d.kind in "iu"]

# float arange / linspace: |got - exact| <= RANGE_ULPS * eps * (|start| + |i * step|) (+ one ulp of the result
# for float16, which wgarray computes in float32 and rounds once)
RANGE_ULPS = 2


# -- asarray -------------------------------------------------------------------------------------------------------
@given(data=st.data())
def test_asarray_from_lists_defaults(data):
    """Nested lists of Python bools / ints / floats give bool / int32 / float32 arrays with numpy's values."""
    kind = data.draw(st.sampled_from(["bool", "int", "float"]), label="kind")
    shape = data.draw(shapes(max_dims=3, max_side=4), label="shape")
    elems = {"bool": st.booleans(), "int": st.integers(-(2 ** 31), 2 ** 31 - 1),
             "float": st.floats(width=32, allow_subnormal=True)}[kind]
    host = data.draw(hnp.arrays({"bool": np.bool_, "int": np.int64, "float": np.float64}[kind], shape,
                                elements=elems), label="values")
    lst = host.tolist()
    a = wg.asarray(lst)
    want_dt = {"bool": wg.bool, "int": wg.int32, "float": wg.float32}[kind] if host.size else wg.float32
    assert a.dtype is want_dt and a.shape == np.asarray(lst).shape  # (0, 0).tolist() is [], of shape (0,)
    assert_same(a.numpy(), np.asarray(lst).astype(want_dt.numpy))


def test_asarray_list_mixtures():
    assert wg.asarray([True, 2]).dtype is wg.int32
    assert wg.asarray([1, 2.5]).dtype is wg.float32
    assert wg.asarray([[1], [2]]).shape == (2, 1)
    assert wg.asarray([]).dtype is wg.float32 and wg.asarray([]).shape == (0,)
    assert wg.asarray(3).shape == () and wg.asarray(3).dtype is wg.int32
    assert wg.asarray(2.5).dtype is wg.float32 and wg.asarray(False).dtype is wg.bool
    assert_same(wg.asarray([math.inf, -0.0, math.nan]).numpy(), np.array([np.inf, -0.0, np.nan], np.float32))
    assert_same(wg.asarray([2 ** 31 - 1, -(2 ** 31)]).numpy(), np.array([2 ** 31 - 1, -(2 ** 31)], np.int32))


@pytest.mark.parametrize("bad", [[2 ** 31], [-(2 ** 31) - 1], [[1, 2], [3, 2 ** 40]], 2 ** 63, [2 ** 64]])
def test_asarray_python_ints_beyond_int32_overflow(bad):
    with pytest.raises(OverflowError):
        wg.asarray(bad)


def test_asarray_wide_ints_with_dtype():
    assert_same(wg.asarray([2 ** 40, -1], dtype=wg.int64).numpy(), np.array([2 ** 40, -1], np.int64))
    assert_same(wg.asarray([2 ** 64 - 1], dtype=wg.uint64).numpy(), np.array([2 ** 64 - 1], np.uint64))
    with pytest.raises(OverflowError):
        wg.asarray([300], dtype=wg.int8)
    with pytest.raises(OverflowError):
        wg.asarray([-1], dtype=wg.uint32)


@pytest.mark.parametrize("obj", [[2 ** 63 + 1, 0], [[1], [2 ** 64 - 3]], [True, 2 ** 63 + 7, 5]])
def test_asarray_uint64_beyond_int64_mixed_with_small_ints_is_exact(obj):
    """numpy infers float64 for such lists (2**63 + 1 would round to 2**63); found by the Array API suite's
    test_can_cast (hypothesis builds uint64 arrays from Python lists)."""
    got = wg.asarray(obj, dtype=wg.uint64).numpy()
    assert got.dtype == np.uint64 and got.tolist() == np.array(obj, dtype=object).astype(np.uint64).tolist()
    with pytest.raises(OverflowError):
        wg.asarray([2 ** 64, 0], dtype=wg.uint64)


@given(data=st.data())
def test_asarray_from_numpy_keeps_dtype(data):
    d = data.draw(st.sampled_from(SUPPORTED), label="dtype")
    host = data.draw(values(d, data.draw(shapes(), label="shape")), label="values")
    if data.draw(st.booleans(), label="non-contiguous source"):
        host = host.T if host.ndim >= 2 else host[::-1] if host.ndim else host
    a = wg.asarray(host)
    assert a.dtype is d and a.shape == host.shape
    assert_same(a.numpy(), host)
    host_copy = host.copy()
    host[...] = 0  # the array does not alias the numpy source
    assert_same(a.numpy(), host_copy)


@given(data=st.data())
def test_asarray_dtype_argument(data):
    src = data.draw(st.sampled_from(SUPPORTED), label="src")
    dst = data.draw(st.sampled_from(SUPPORTED), label="dst")
    host = data.draw(values(src, data.draw(shapes(max_dims=2), label="shape"), small=True), label="values")
    if src.kind == "f" and dst.kind in "iu":
        host = np.nan_to_num(host, nan=0, posinf=0, neginf=0)
        info = np.iinfo(dst.numpy)
        host = np.clip(host, max(float(info.min), -100), min(float(info.max), 100)).astype(src.numpy)
    if src.kind in "iu" and dst.kind in "iu":
        info = np.iinfo(dst.numpy)
        host = host[(host.astype(np.float64) >= float(info.min)) & (host.astype(np.float64) <= float(info.max))]
    a = wg.asarray(host, dtype=dst)
    assert a.dtype is dst
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same(a.numpy(), host.astype(dst.numpy))
    # from a wgarray Array: a conversion on the device
    b = wg.asarray(wg.asarray(host), dtype=dst)
    assert b.dtype is dst
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same(b.numpy(), host.astype(dst.numpy))


def test_asarray_copy_semantics():
    a = wg.asarray(np.arange(4, dtype=np.int16))
    assert wg.asarray(a) is a
    assert wg.asarray(a, copy=False) is a
    assert wg.asarray(a, dtype=wg.int16) is a
    c = wg.asarray(a, copy=True)
    assert c is not a and c.dtype is wg.int16
    c[0] = 9
    assert a.numpy()[0] == 0 and c.numpy()[0] == 9
    with pytest.raises(ValueError):
        wg.asarray(a, dtype=wg.int32, copy=False)  # a conversion is a copy
    with pytest.raises(ValueError):
        wg.asarray([1, 2, 3], copy=False)  # a list always needs a copy
    v = a[::2]
    assert_same(wg.asarray(v, copy=True).numpy(), np.array([0, 2], np.int16))


@pytest.mark.parametrize("bad", [np.array(["a"]), ["a", "b"], np.array([object()]), [None, 1],
                                 np.array(["2020-01-01"], dtype="datetime64[D]")])
def test_asarray_unsupported_dtypes_raise_typeerror(bad):
    with pytest.raises(TypeError):
        wg.asarray(bad)


@pytest.mark.parametrize("bad", [object, str, "U3", np.float128 if hasattr(np, "float128") else np.datetime64,
                                 np.complex256 if hasattr(np, "complex256") else "V8"])
def test_unsupported_dtype_arguments_raise_typeerror(bad):
    with pytest.raises(TypeError):
        wg.asarray([1, 2], dtype=bad)
    with pytest.raises(TypeError):
        wg.zeros((2,), dtype=bad)


def test_asarray_ragged_raises_valueerror():
    with pytest.raises(ValueError):
        wg.asarray([[1, 2], [3]])


# -- zeros / ones / empty / full ---------------------------------------------------------------------------------------
@given(shape=shapes(), dtype=st.sampled_from(SUPPORTED))
def test_zeros_ones_empty(shape, dtype):
    z, o, e = wg.zeros(shape, dtype=dtype), wg.ones(shape, dtype=dtype), wg.empty(shape, dtype=dtype)
    for a in (z, o, e):
        assert a.shape == shape and a.dtype is dtype
    assert_same(z.numpy(), np.zeros(shape, dtype.numpy))
    assert_same(o.numpy(), np.ones(shape, dtype.numpy))
    assert e.numpy().shape == shape  # values unspecified


def test_creation_defaults_and_int_shapes():
    assert wg.zeros((2, 3)).dtype is wg.float32 and wg.ones(4).shape == (4,) and wg.empty(0).shape == (0,)
    assert wg.zeros(()).shape == () and wg.zeros(np.int64(3)).shape == (3,)
    assert wg.empty((2,)).dtype is wg.float32
    assert wg.eye(2).dtype is wg.float32 and wg.linspace(0, 1, 3).dtype is wg.float32


@pytest.mark.parametrize("fn", [lambda s: wg.zeros(s), lambda s: wg.ones(s), lambda s: wg.empty(s),
                                lambda s: wg.full(s, 1), lambda s: wg.zeros(s, dtype=wg.int8)])
@pytest.mark.parametrize("shape", [-1, (2, -1), (-3,), (0, -2)])
def test_negative_sizes_raise_valueerror(fn, shape):
    with pytest.raises(ValueError):
        fn(shape)


def test_negative_sizes_other_creators():
    with pytest.raises(ValueError):
        wg.eye(-1)
    with pytest.raises(ValueError):
        wg.eye(2, -3)
    with pytest.raises(ValueError):
        wg.linspace(0, 1, -1)
    with pytest.raises(TypeError):
        wg.zeros((2.5,))


@given(data=st.data())
def test_full(data):
    """Bool, int and float fills, with the dtype inferred (bool / int32 / float32) or given."""
    shape = data.draw(shapes(max_dims=3), label="shape")
    dtype = data.draw(st.one_of(st.none(), st.sampled_from(SUPPORTED)), label="dtype")
    if dtype is None:
        fill = data.draw(st.one_of(st.booleans(), st.integers(-(2 ** 31), 2 ** 31 - 1),
                                   st.floats(width=32, allow_subnormal=True)), label="fill")
        want_dt = wg.bool if isinstance(fill, bool) else wg.int32 if isinstance(fill, int) else wg.float32
    else:
        want_dt = dtype
        if dtype.kind == "b":
            fill = data.draw(st.booleans(), label="fill")
        elif dtype.kind in "iu":
            info = np.iinfo(dtype.numpy)
            fill = data.draw(st.integers(int(info.min), int(info.max)), label="fill")
        else:
            fill = data.draw(st.one_of(st.integers(-(2 ** 40), 2 ** 40), st.floats(allow_subnormal=True)),
                             label="fill")
    a = wg.full(shape, fill, dtype=dtype)
    assert a.dtype is want_dt and a.shape == shape
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.full(shape, np.array(fill).astype(want_dt.numpy), dtype=want_dt.numpy)
    assert_same(a.numpy(), want)


def test_full_edge_cases():
    with pytest.raises(OverflowError):
        wg.full((2,), 300, dtype=wg.int8)
    with pytest.raises(OverflowError):
        wg.full((2,), 2 ** 31)  # the default int32 cannot hold it
    assert_same(wg.full((2,), 2 ** 40, dtype=wg.int64).numpy(), np.full(2, 2 ** 40, np.int64))
    assert_same(wg.full((2,), 2.7, dtype=wg.int32).numpy(), np.full(2, 2.7).astype(np.int32))  # truncates
    assert_same(wg.full((3,), math.nan, dtype=wg.float16).numpy(), np.full(3, np.nan, np.float16))
    assert_same(wg.full((1,), 70000.0, dtype=wg.float16).numpy(), np.array([np.inf], np.float16))
    assert_same(wg.full((2,), -0.0).numpy(), np.array([-0.0, -0.0], np.float32))
    assert_same(wg.full((2,), True, dtype=wg.float32).numpy(), np.ones(2, np.float32))
    assert_same(wg.full((), wg.asarray(5)).numpy(), np.array(5, np.int32))
    with pytest.raises(TypeError):
        wg.full((2,), "x")
    assert wg.full((2,), 1j).dtype is wg.complex64  # the default complex dtype
    with pytest.raises(TypeError):
        wg.full((2,), 1j, dtype=wg.float32)  # complex -> real is refused


# -- *_like ------------------------------------------------------------------------------------------------------------
@given(data=st.data())
def test_like_functions(data):
    d = data.draw(st.sampled_from(SUPPORTED), label="dtype")
    host = data.draw(values(d, data.draw(shapes(max_dims=3), label="shape")), label="values")
    x, _ = data.draw(view_of(host, d), label="view")
    other = data.draw(st.one_of(st.none(), st.sampled_from(SUPPORTED)), label="dtype override")
    want_dt = d if other is None else other
    for fn, want in ((wg.zeros_like, np.zeros_like), (wg.ones_like, np.ones_like)):
        r = fn(x, dtype=other)
        assert r.dtype is want_dt and r.shape == host.shape
        assert_same(r.numpy(), want(host, dtype=want_dt.numpy))
    e = wg.empty_like(x, dtype=other)
    assert e.dtype is want_dt and e.shape == host.shape
    fill = {"b": True, "i": 3, "u": 3, "f": 0.5}[want_dt.kind]
    f = wg.full_like(x, fill, dtype=other)
    assert f.dtype is want_dt
    assert_same(f.numpy(), np.full_like(host, fill, dtype=want_dt.numpy))
    assert x.numpy().shape == host.shape  # the source is untouched
    assert_same(x.numpy(), host)


# -- arange ------------------------------------------------------------------------------------------------------------
@given(start=st.integers(-1000, 1000), stop=st.one_of(st.none(), st.integers(-1000, 1000)),
       step=st.integers(-50, 50).filter(bool), dtype=st.sampled_from([None] + [d for d in INTS]))
def test_arange_ints_exact(start, stop, step, dtype):
    args = (start,) if stop is None else (start, stop, step)
    want = np.arange(*args, dtype=np.int64)
    if dtype is not None:
        info = np.iinfo(dtype.numpy)
        if want.size and (want.min() < info.min or want.max() > info.max):
            with pytest.raises(OverflowError):
                wg.arange(*args, dtype=dtype)
            return
    a = wg.arange(*args, dtype=dtype)
    want_dt = wg.int32 if dtype is None else dtype
    assert a.dtype is want_dt and a.shape == want.shape
    assert_same(a.numpy(), want.astype(want_dt.numpy))


def test_arange_int_edges():
    assert_same(wg.arange(2 ** 31 - 3, 2 ** 31 - 1).numpy(), np.arange(2 ** 31 - 3, 2 ** 31 - 1, dtype=np.int32))
    assert_same(wg.arange(2 ** 40, 2 ** 40 + 3, dtype=wg.int64).numpy(), np.arange(2 ** 40, 2 ** 40 + 3))
    assert_same(wg.arange(10, 0, -3).numpy(), np.array([10, 7, 4, 1], np.int32))
    assert wg.arange(5, 5).shape == (0,) and wg.arange(5, 0).shape == (0,) and wg.arange(0, 5, -1).shape == (0,)
    assert wg.arange(0).dtype is wg.int32
    with pytest.raises(OverflowError):
        wg.arange(2 ** 31, 2 ** 31 + 2)  # int32 by default
    with pytest.raises(ValueError):
        wg.arange(0, 10, 0)
    with pytest.raises(ValueError):
        wg.arange(0.0, 1.0, 0.0)
    with pytest.raises(TypeError):
        wg.arange(0, 3, dtype=wg.bool)


def test_arange_unsigned_negative_step():
    """A negative step is fine for unsigned dtypes as long as the values stay in range (numpy agrees)."""
    assert_same(wg.arange(10, 0, -3, dtype=wg.uint8).numpy(), np.arange(10, 0, -3, dtype=np.uint8))
    assert_same(wg.arange(5, dtype=wg.uint32).numpy(), np.arange(5, dtype=np.uint32))


def _read(v, dtype):
    """``v`` as the device reads it from a ``dtype`` parameter: a zero of its sign if it flushes the subnormal."""
    return math.copysign(0.0, v) if subnormal(np.asarray(v, dtype.numpy)) else v


def _flush_slack(dtype) -> float:
    """How far a device moves a result of ``dtype`` by flushing it to zero: below tiny if it flushes, else 0."""
    fi = np.finfo(dtype.numpy)
    return float(fi.tiny) if subnormal(fi.smallest_subnormal) else 0.0


def _assert_range_close(got: np.ndarray, start, step, dtype, n):
    """got[i] close to start + i * step (start and step as the device reads them: see _read)."""
    assert got.shape == (n,) and got.dtype == dtype.numpy
    i = np.arange(n, dtype=np.float64)
    exact = float(start) + i * float(step)
    eps = float(np.finfo(dtype.numpy).eps)
    # + (i + 1) smallest subnormals: a subnormal start or step is stored with an absolute error of up to half of
    # one, which i multiplies
    bound = RANGE_ULPS * eps * (abs(float(start)) + np.abs(i * float(step))) + (i + 1) * float(
        np.finfo(dtype.numpy).smallest_subnormal)
    if dtype is wg.float16:
        bound = bound + np.spacing(np.abs(exact).astype(np.float16)).astype(np.float64)
    bound = bound + _flush_slack(dtype)
    err = np.abs(got.astype(np.float64) - exact)
    bad = ~(err <= bound)
    assert not bad.any(), f"at {np.flatnonzero(bad)[:5]}: got {got[bad][:5]}, exact {exact[bad][:5]}"


@given(start=st.floats(-1e4, 1e4), span=st.floats(-1e4, 1e4), num=st.integers(0, 300),
       dtype=st.sampled_from([None] + FLOATS))
def test_arange_floats(start, span, num, dtype):
    step = span / num if num else span
    assume(step != 0)
    stop = start + step * num
    a = wg.arange(start, stop, step, dtype=dtype)
    want_dt = wg.float32 if dtype is None else dtype
    n = len(np.arange(start, stop, step))  # numpy's length rule: ceil((stop - start) / step)
    assert a.dtype is want_dt
    _assert_range_close(a.numpy(), _read(start, want_dt), _read(step, want_dt), want_dt, n)


def test_arange_float_edges():
    assert wg.arange(0.0, 1.0, 0.1).shape == np.arange(0.0, 1.0, 0.1).shape
    assert wg.arange(1.0, 0.0, -0.25).shape == (4,)
    assert wg.arange(0.5).dtype is wg.float32 and wg.arange(0.5).shape == (1,)
    assert wg.arange(1.0, 0.0).shape == (0,)
    _assert_range_close(wg.arange(3.0, -3.0, -0.5).numpy(), 3.0, -0.5, wg.float32, 12)
    assert wg.arange(0, 5, 0.5).dtype is wg.float32


# -- linspace ----------------------------------------------------------------------------------------------------------
@given(start=st.floats(-1e4, 1e4), stop=st.floats(-1e4, 1e4), num=st.integers(0, 300), endpoint=st.booleans(),
       dtype=st.sampled_from([None] + FLOATS))
def test_linspace(start, stop, num, endpoint, dtype):
    a = wg.linspace(start, stop, num, endpoint=endpoint, dtype=dtype)
    want_dt = wg.float32 if dtype is None else dtype
    assert a.dtype is want_dt and a.shape == (num,)
    got = a.numpy()
    div = (num - 1) if endpoint else num
    step = _read(stop - start, want_dt) / div if div > 0 else 0.0  # wgarray computes start + (i * span) / div
    if num:
        n_free = num - 1 if endpoint and num > 1 else num
        _assert_range_close(got[:n_free], _read(start, want_dt), step, want_dt, n_free)
    if endpoint and num > 1:
        assert_same(got[-1:], np.array([stop], want_dt.numpy))  # the end point is exact
    if num == 1:
        assert_same(got, np.array([start], want_dt.numpy))
    # and numpy agrees within the same tolerance
    if num:
        np_vals = np.linspace(start, stop, num, endpoint=endpoint)
        tol = RANGE_ULPS * float(np.finfo(want_dt.numpy).eps) * (abs(start) + abs(stop)) + (
            float(np.spacing(np.float16(max(abs(start), abs(stop))))) if want_dt is wg.float16 else 0) + float(
            np.finfo(want_dt.numpy).smallest_subnormal) * max(num, 1) + (  # numpy's i*step grows by i/2 subnormal ulps
            3 * _flush_slack(want_dt))  # a flushing device reads start and span and writes the result as zeros
        assert np.all(np.abs(got.astype(np.float64) - np_vals) <= tol)


def test_linspace_edges():
    assert wg.linspace(0, 1, 0).shape == (0,)
    assert_same(wg.linspace(2, 5, 1).numpy(), np.array([2], np.float32))
    assert_same(wg.linspace(2, 5, 1, endpoint=False).numpy(), np.array([2], np.float32))
    assert_same(wg.linspace(0, 1, 5).numpy(), np.linspace(0, 1, 5).astype(np.float32))
    assert_same(wg.linspace(0, 1, 4, endpoint=False).numpy(), np.array([0, 0.25, 0.5, 0.75], np.float32))
    assert_same(wg.linspace(1, 0, 3, dtype=wg.float64).numpy(), np.array([1, 0.5, 0]))
    with pytest.raises(TypeError):
        wg.linspace(0, 1, 3, dtype=wg.int32)
    with pytest.raises(TypeError):
        wg.linspace(0, 1, 2.5)


# -- eye ---------------------------------------------------------------------------------------------------------------
@given(n=st.integers(0, 9), m=st.one_of(st.none(), st.integers(0, 9)), k=st.integers(-11, 11),
       dtype=st.sampled_from([None] + SUPPORTED))
def test_eye(n, m, k, dtype):
    a = wg.eye(n, m, k=k, dtype=dtype)
    want_dt = wg.float32 if dtype is None else dtype
    assert a.dtype is want_dt
    assert_same(a.numpy(), np.eye(n, m, k=k, dtype=want_dt.numpy))


def test_eye_large_offsets():
    assert_same(wg.eye(3, k=2 ** 40).numpy(), np.zeros((3, 3), np.float32))
    assert_same(wg.eye(3, 5, k=-(2 ** 40)).numpy(), np.zeros((3, 5), np.float32))


# -- astype round trips of created arrays ----------------------------------------------------------------------------
@given(data=st.data())
def test_astype_round_trip(data):
    """Every value of an integer or bool dtype survives a trip through any dtype that holds it exactly."""
    src = data.draw(st.sampled_from(SUPPORTED), label="src")
    host = data.draw(values(src, data.draw(shapes(max_dims=2), label="shape")), label="values")
    mantissa = {16: 11, 32: 24, 64: 53}
    # numpy calls int64 -> float64 "safe" although 2**53 + 1 does not survive it: require a wide enough mantissa
    holders = [d for d in SUPPORTED if d is src or (np.can_cast(src.numpy, d.numpy, casting="safe") and not (
        d.kind == "f" and src.kind in "iu" and src.bits >= mantissa[d.bits]))]
    mid = data.draw(st.sampled_from(holders), label="through")
    a = wg.asarray(host)
    back = a.astype(mid).astype(src)
    assert back.dtype is src
    assert_same(back.numpy(), host)
    assert a.astype(mid).dtype is mid


def test_linspace_equal_valued_scalars_fresh_device():
    """Regression: the parameter struct ordered scalars by looking up equal-valued Scalars, so the first
    compile of linspace with start == divisions swapped span and divisions (wrong values ever after)."""
    import wgarray as wg
    d = wg.open_device()
    try:
        np.testing.assert_array_equal(wg.linspace(4.0, 7.0, 4, endpoint=False, device=d).numpy(),
                                      np.linspace(4.0, 7.0, 4, endpoint=False, dtype=np.float32))
        np.testing.assert_array_equal(wg.linspace(1.0, 9.0, 5, endpoint=False, device=d).numpy(),
                                      np.linspace(1.0, 9.0, 5, endpoint=False, dtype=np.float32))
    finally:
        d.close()
