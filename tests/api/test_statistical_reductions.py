"""Property tests of the reductions (sum, prod, mean, max, min, any, all, argmax, argmin) against numpy.

Exact: integer/bool sums and products (wrap-around in the result dtype; + and * are associative modulo 2**bits,
so the summation order cannot matter), max/min, any/all, argmax/argmin (first index on ties, NaN wins).

Floating-point sums, means and products are compared with the exact (float64, or exact integer) result:

* sum/mean: |got - exact| <= eps_acc * (ceil(m / 256) + 24) * sum(|x|) + eps_res * |exact| + m * tiny_acc,
  where m is the number of reduced elements, eps_acc the epsilon of the accumulator (float32 for float16 and for
  integer means) and eps_res the result dtype's epsilon.  This is the worst-case error bound of wgarray's
  summation scheme (each invocation adds up at most ceil(m / 256) elements in order, then at most 24 tree levels
  over all passes), and it is tight enough that dropping or doubling one element fails it.  m * tiny covers
  subnormal inputs that a device flushes to zero.  For a mean, sum(|x|) and |exact| are divided by m.
* prod: |got - exact| <= (m * eps_acc + eps_res) * |exact| + m * tiny_res, the order-independent bound of a
  product of m factors (each multiplication rounds once).

Result dtypes (preamble policy): sum/prod of bool and signed ints -> int32 (int64 for int64), of unsigned ints ->
uint32 (uint64 for uint64), floats keep their dtype; mean of ints/bool -> float32; argmax/argmin -> int32.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import wgarray as wg
from wgarray.kernels import launch
from wgarray.kernels.layout import WORKGROUP

from strategies import assert_same, dtypes, shapes, supported, values, view_of

ALL_NAMES = ["sum", "prod", "mean", "max", "min", "any", "all", "argmax", "argmin"]
NO_IDENTITY = {"max", "min", "argmax", "argmin"}

# -- the documented result-dtype policy (written out, not taken from wgarray) -----------------------------------
_SUM_RESULT = {"bool": "int32", "int8": "int32", "int16": "int32", "int32": "int32", "int64": "int64",
               "uint8": "uint32", "uint16": "uint32", "uint32": "uint32", "uint64": "uint64",
               "float16": "float16", "float32": "float32", "float64": "float64"}


def result_dtype(name: str, dtype) -> np.dtype:
    if name in ("sum", "prod"):
        return np.dtype(_SUM_RESULT[dtype.name])
    if name == "mean":
        return dtype.numpy if dtype.kind == "f" else np.dtype(np.float32)
    if name in ("any", "all"):
        return np.dtype(np.bool_)
    if name in ("argmax", "argmin"):
        return np.dtype(np.int32)
    return dtype.numpy


# -- strategies ----------------------------------------------------------------------------------------------------
@st.composite
def axes(draw, ndim: int, tuples: bool = True):
    """None, an int (possibly negative), or a tuple of distinct axes (possibly negative, any order, maybe ())."""
    kinds = ["none"] + (["int"] if ndim else []) + (["tuple"] if tuples else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "none":
        return None
    if kind == "int":
        return draw(st.integers(-ndim, ndim - 1))
    chosen = draw(st.permutations(range(ndim)))[:draw(st.integers(0, ndim))]
    return tuple(a - ndim if draw(st.booleans()) else a for a in chosen)


def reduced_count(shape, axis) -> int:
    if axis is None:
        return math.prod(shape)
    ax = (axis,) if isinstance(axis, int) else axis
    return math.prod(shape[a] for a in ax)


def bounded_values(dtype, shape, bound, specials=True, subnormal=True):
    """Finite values in [-bound, bound] (subnormals included), sometimes NaN, +-inf or -0.0."""
    finite = st.floats(-bound, bound, width=dtype.numpy.itemsize * 8, allow_subnormal=subnormal)
    if specials:
        elems = st.one_of(finite, finite, finite, finite, finite, finite, finite, finite,
                          st.sampled_from([math.nan, math.inf, -math.inf, -0.0]))
    else:
        elems = finite
    return hnp.arrays(dtype.numpy, shape, elements=elems)


def call(draw, name, x, **kw):
    """The namespace function or the method, keyword arguments alike."""
    if draw(st.booleans()):
        return getattr(wg, name)(x, **kw)
    return getattr(x, name)(**kw)


def numpy_reduce(name, h, axis, keepdims, dtype=None):
    """numpy's answer (for mean: in float64 then compared with a tolerance)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        if name in ("argmax", "argmin"):
            return np.asarray(getattr(np, name)(h, axis=axis, keepdims=keepdims))
        kw = {"dtype": dtype} if dtype is not None else {}
        return np.asarray(getattr(np, name)(h, axis=axis, keepdims=keepdims, **kw))


def no_signed_zero(a: np.ndarray) -> np.ndarray:
    """-0.0 -> 0.0 (which of two equal zeros max/min returns is not specified, numpy's SIMD loops differ)."""
    return a + a.dtype.type(0) if a.dtype.kind == "f" else a


def assert_within(got: np.ndarray, exact: np.ndarray, tol: np.ndarray):
    """got (any float dtype) against the float64 exact value: NaN where exact is NaN, equal infinities, else
    |got - exact| <= tol."""
    got64 = got.astype(np.float64)
    exact = np.asarray(exact, dtype=np.float64)
    assert got64.shape == exact.shape
    nan = np.isnan(exact)
    assert np.array_equal(np.isnan(got64), nan), f"NaN mismatch: got {got64}, want {exact}"
    inf = np.isinf(exact)
    assert np.array_equal(got64[inf], exact[inf]), f"inf mismatch: got {got64[inf]}, want {exact[inf]}"
    fin = ~nan & ~inf
    err = np.abs(got64[fin] - exact[fin])
    tol = np.broadcast_to(tol, exact.shape)[fin]
    assert (err <= tol).all(), (f"error {err[err > tol][:5]} above tolerance {tol[err > tol][:5]}: got "
                                f"{got64[fin][err > tol][:5]}, want {exact[fin][err > tol][:5]}")


def sum_tolerance(m: int, acc_eps: float, res_eps: float, tiny: float, abs_sum, exact, res_sub: float = 0.0):
    """``res_sub``: the result dtype's smallest subnormal, for results that round into its subnormal range (where
    the relative bound res_eps does not hold)."""
    return acc_eps * (math.ceil(m / 256) + 24) * abs_sum + res_eps * np.abs(exact) + m * tiny + res_sub


def _fin(d: np.dtype):
    return np.finfo(d)


# -- exact reductions ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["max", "min", "any", "all", "argmax", "argmin"])
@given(data=st.data())
def test_exact_reductions_match_numpy(name, data):
    dtype = data.draw(dtypes(), label="dtype")
    shape = data.draw(shapes(max_dims=4, max_side=7), label="shape")
    host = data.draw(values(dtype, shape), label="host")
    x, h = data.draw(view_of(host, dtype), label="view")
    axis = data.draw(axes(len(shape), tuples=not name.startswith("arg")), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    if name in NO_IDENTITY and reduced_count(shape, axis) == 0 and _np_raises(name, h, axis):
        with pytest.raises(ValueError):
            call(data.draw, name, x, axis=axis, keepdims=keepdims)
        return
    got = call(data.draw, name, x, axis=axis, keepdims=keepdims)
    assert isinstance(got, wg.Array)
    want = numpy_reduce(name, h, axis, keepdims)
    want = want.astype(result_dtype(name, dtype))
    out = got.numpy()
    assert out.dtype == result_dtype(name, dtype)
    assert_same(no_signed_zero(out), no_signed_zero(want))
    np.testing.assert_array_equal(host, x.numpy())  # the input is untouched


def _np_raises(name, h, axis) -> bool:
    try:
        getattr(np, name)(h, axis=axis)
    except ValueError:
        return True
    return False


# -- integer sums and products: exact with wrap-around ------------------------------------------------------------
@pytest.mark.parametrize("name", ["sum", "prod"])
@given(data=st.data())
def test_integer_sum_prod_exact(name, data):
    dtype = data.draw(dtypes("biu"), label="dtype")
    shape = data.draw(shapes(max_dims=4, max_side=7), label="shape")
    host = data.draw(values(dtype, shape), label="host")
    x, h = data.draw(view_of(host, dtype), label="view")
    axis = data.draw(axes(len(shape)), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    got = call(data.draw, name, x, axis=axis, keepdims=keepdims).numpy()
    res = result_dtype(name, dtype)
    want = numpy_reduce(name, h, axis, keepdims, dtype=res)  # numpy accumulates in res too: the same wrap-around
    assert got.dtype == res
    assert_same(got, want)


@pytest.mark.parametrize("name", ["sum", "prod"])
@given(data=st.data())
def test_dtype_argument(name, data):
    """sum/prod(dtype=...) computes and returns in that dtype (narrow ints wrap in it, as numpy's do)."""
    src = data.draw(dtypes("biuf"), label="src")
    res = data.draw(dtypes("iuf" if src.kind != "f" else "f"), label="res")
    shape = data.draw(shapes(max_dims=3, max_side=5), label="shape")
    if src.kind == "f" or res.kind == "f":
        # <= 125 factors in {-1, 0, 1, 2}: every partial product and sum is exact in a float32 accumulator, so
        # the order cannot matter (no inf * 0); only the final rounding to the result dtype may overflow
        small = {"b": st.booleans(), "u": st.integers(0, 2)}.get(src.kind, st.integers(-1, 2))
        host = data.draw(hnp.arrays(src.numpy, shape, elements=small), label="host")
    else:
        host = data.draw(values(src, shape), label="host")
    x, h = data.draw(view_of(host, src), label="view")
    axis = data.draw(axes(len(shape)), label="axis")
    got = call(data.draw, name, x, axis=axis, dtype=res).numpy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = numpy_reduce(name, h, axis, False, dtype=res.numpy)
    assert got.dtype == res.numpy
    if res.kind == "f":
        with np.errstate(over="ignore"):
            want = np.asarray(getattr(np, name)(h.astype(np.float64), axis=axis)).astype(res.numpy)
    assert_same(no_signed_zero(got), no_signed_zero(want))


# -- floating-point sums and means: tolerance relative to sum(|x|) --------------------------------------------------
_BOUND = {"float16": 10.0, "float32": 100.0, "float64": 100.0}  # float16 sums of <= 2401 terms stay finite


@pytest.mark.parametrize("name", ["sum", "mean"])
@given(data=st.data())
def test_float_sum_mean(name, data):
    dtype = data.draw(dtypes("f"), label="dtype")
    shape = data.draw(shapes(max_dims=4, max_side=7), label="shape")
    host = data.draw(bounded_values(dtype, shape, _BOUND[dtype.name]), label="host")
    x, h = data.draw(view_of(host, dtype), label="view")
    axis = data.draw(axes(len(shape)), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    got = call(data.draw, name, x, axis=axis, keepdims=keepdims).numpy()
    assert got.dtype == dtype.numpy
    m = reduced_count(shape, axis)
    h64 = h.astype(np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        exact = np.sum(h64, axis=axis, keepdims=keepdims)
        abs_sum = np.sum(np.where(np.isfinite(h64), np.abs(h64), 0), axis=axis, keepdims=keepdims)
        if name == "mean":
            exact, abs_sum = exact / m, abs_sum / max(m, 1)
    assert got.shape == exact.shape
    acc = np.dtype(np.float32) if dtype is wg.float16 else dtype.numpy
    tol = sum_tolerance(m, _fin(acc).eps, _fin(dtype.numpy).eps, _fin(acc).smallest_normal, abs_sum, exact,
                        _fin(dtype.numpy).smallest_subnormal)
    if name == "mean":
        tol = tol + _fin(acc).eps * np.abs(exact)  # the division rounds once more
    assert_within(got, exact, tol)


@given(data=st.data())
def test_integer_mean(data):
    dtype = data.draw(dtypes("biu"), label="dtype")
    shape = data.draw(shapes(max_dims=4, max_side=7), label="shape")
    host = data.draw(values(dtype, shape), label="host")
    x, h = data.draw(view_of(host, dtype), label="view")
    axis = data.draw(axes(len(shape)), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    got = call(data.draw, "mean", x, axis=axis, keepdims=keepdims).numpy()
    assert got.dtype == np.float32
    m = reduced_count(shape, axis)
    # exact sums with Python ints (object arithmetic), so 64-bit inputs are not rounded by the reference
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        total = np.sum(h.astype(object), axis=axis, keepdims=keepdims)
        abs_total = np.sum(np.abs(h.astype(object)), axis=axis, keepdims=keepdims)
        exact = np.asarray(np.asarray(total, dtype=np.float64) / m if m else np.full(np.shape(total), np.nan))
        abs_mean = np.asarray(abs_total, dtype=np.float64) / max(m, 1)
    eps = _fin(np.float32).eps
    # each integer is rounded to float32 on the way in: one more eps * |x| per term
    tol = sum_tolerance(m, eps, eps, _fin(np.float32).smallest_normal, abs_mean, exact) + 2 * eps * abs_mean
    assert_within(got, exact, tol)


@given(data=st.data())
def test_float_prod(data):
    dtype = data.draw(dtypes("f"), label="dtype")
    shape = data.draw(shapes(max_dims=3, max_side=4), label="shape")  # <= 64 factors in [0.875, 1.125]: finite, normal float16
    mag = st.floats(0.875, 1.125, width=dtype.numpy.itemsize * 8)
    elem = st.one_of(mag, mag.map(lambda v: -v), st.sampled_from([0.0, -0.0, 1.0, -1.0]))
    host = data.draw(hnp.arrays(dtype.numpy, shape, elements=elem), label="host")
    x, h = data.draw(view_of(host, dtype), label="view")
    axis = data.draw(axes(len(shape)), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    got = call(data.draw, "prod", x, axis=axis, keepdims=keepdims).numpy()
    assert got.dtype == dtype.numpy
    m = reduced_count(shape, axis)
    exact = np.prod(h.astype(np.float64), axis=axis, keepdims=keepdims)
    acc = np.dtype(np.float32) if dtype is wg.float16 else dtype.numpy
    tol = (m * _fin(acc).eps + _fin(dtype.numpy).eps) * np.abs(exact) + m * _fin(dtype.numpy).smallest_normal
    assert_within(got, exact, tol)
    # zeros: exactly zero, and the sign of a zero product follows the signs of the factors
    zero = exact == 0
    assert (got[zero] == 0).all()


# -- special values: NaN propagation, infinities, ties -----------------------------------------------------------------
@pytest.mark.parametrize("name", ["max", "min", "argmax", "argmin", "sum", "prod", "mean"])
@given(data=st.data())
def test_nan_propagates(name, data):
    """One or more NaNs in a reduced row: max/min/sum/prod/mean give NaN, argmax/argmin the first NaN's index."""
    dtype = data.draw(dtypes("f"), label="dtype")
    n = data.draw(st.integers(1, 700), label="n")
    host = data.draw(hnp.arrays(dtype.numpy, (n,), elements=st.floats(-8, 8, width=dtype.numpy.itemsize * 8)),
                     label="host")
    where = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=4), label="nans")
    host[where] = np.nan
    if data.draw(st.booleans(), label="with_inf"):
        host[data.draw(st.integers(0, n - 1))] = np.inf if name != "min" else -np.inf
        host[where] = np.nan
    x = wg.asarray(host)
    got = getattr(wg, name)(x).numpy()
    if name.startswith("arg"):
        assert got == min(where), (got, min(where))
        assert got == getattr(np, name)(host)
    else:
        assert np.isnan(got)


@pytest.mark.parametrize("name", ["max", "min", "argmax", "argmin"])
@given(data=st.data())
def test_ties_take_first_index(name, data):
    """Few distinct values over rows long enough to span several workgroups and passes: argmax/argmin return the
    first occurrence; max/min agree with numpy.  Includes -inf/+inf and the dtype extremes as values."""
    dtype = data.draw(dtypes("iuf"), label="dtype")
    rows = data.draw(st.integers(1, 3), label="rows")
    n = data.draw(st.sampled_from([1, 2, 255, 256, 257, 2048, 2049, 40000]), label="n")
    if dtype.kind == "f":
        pool = [-np.inf, np.inf, 0.0, 1.0, -1.0]
    else:
        info = np.iinfo(dtype.numpy)
        pool = [info.min, info.max, 0, 1]
    choice = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3, unique=True), label="pool")
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    host = rng.choice(np.array(choice, dtype=dtype.numpy), size=(rows, n))
    axis = data.draw(st.sampled_from([None, 1, -1]), label="axis")
    transpose = data.draw(st.booleans(), label="transpose")
    x = wg.asarray(np.ascontiguousarray(host.T)).mT if transpose else wg.asarray(host)
    got = getattr(wg, name)(x, axis=axis).numpy()
    want = np.asarray(getattr(np, name)(host, axis=axis)).astype(result_dtype(name, dtype))
    assert_same(got, want)


@given(data=st.data())
def test_infinities_in_sums(data):
    """+inf and -inf together give NaN, one sign alone gives that infinity (in every summation order)."""
    dtype = data.draw(dtypes("f"), label="dtype")
    n = data.draw(st.integers(1, 3000), label="n")
    host = np.ones(n, dtype=dtype.numpy)
    signs = data.draw(st.lists(st.sampled_from([np.inf, -np.inf]), min_size=1, max_size=3), label="infs")
    pos = data.draw(st.lists(st.integers(0, n - 1), min_size=len(signs), max_size=len(signs)), label="pos")
    host[pos] = signs
    with np.errstate(invalid="ignore"):
        want = host.astype(np.float64).sum()
    got = wg.sum(wg.asarray(host)).numpy()
    assert (np.isnan(got) and np.isnan(want)) or got == want, (got, want)


@pytest.mark.parametrize("dtype", supported(), ids=lambda d: d.name)
def test_every_dtype_every_reduction(dtype):
    """A deterministic sweep (hypothesis draws dtypes at random): every reduction of every dtype over a few axes
    of a contiguous array and of a transposed, reversed view; exact where the op is, else the tolerance above."""
    rng = np.random.default_rng(99)
    if dtype.kind == "f":
        h = rng.uniform(-3, 3, (4, 3, 10)).astype(dtype.numpy)
        h[0, 1, 2] = np.nan
    elif dtype.kind == "b":
        h = rng.random((4, 3, 10)) < 0.5
    else:
        info = np.iinfo(dtype.numpy)
        h = rng.integers(info.min, info.max, (4, 3, 10), dtype=dtype.numpy, endpoint=True)
    views = [(wg.asarray(h), h), (wg.permute_dims(wg.asarray(np.ascontiguousarray(h.T)), (2, 1, 0))[::-1], h[::-1])]
    for x, hv in views:
        for name in ALL_NAMES:
            for axis in ([None, 0, -1] if name.startswith("arg") else [None, 1, (0, 2)]):
                got = getattr(wg, name)(x, axis=axis).numpy()
                res = result_dtype(name, dtype)
                assert got.dtype == res
                if name in ("sum", "prod", "mean") and (dtype.kind == "f" or name == "mean"):
                    if name == "prod":
                        continue  # products of 10+ factors in [-3, 3]: covered with bounded factors above
                    m = reduced_count(hv.shape, axis)
                    exact = np.sum(hv.astype(np.float64), axis=axis) / (m if name == "mean" else 1)
                    abs_ = np.sum(np.abs(hv.astype(np.float64)), axis=axis) / (m if name == "mean" else 1)
                    acc = np.float32 if (dtype is wg.float16 or dtype.kind != "f") else dtype.numpy
                    tol = sum_tolerance(m, _fin(acc).eps, _fin(res).eps, 0, abs_, exact) + 2 * _fin(acc).eps * abs_
                    assert_within(got, exact, tol)
                else:
                    want = numpy_reduce(name, hv, axis, False, dtype=res if name in ("sum", "prod") else None)
                    assert_same(no_signed_zero(got), no_signed_zero(want.astype(res)))


# -- shapes: 0-d, empty, size 1 ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ALL_NAMES)
@pytest.mark.parametrize("dtype", supported(), ids=lambda d: d.name)
def test_zero_d(name, dtype):
    h = np.asarray(np.array(3 if dtype.kind != "b" else True, dtype=dtype.numpy))
    x = wg.asarray(h)
    got = getattr(wg, name)(x).numpy()
    assert got.shape == ()
    assert got.dtype == result_dtype(name, dtype)
    want = numpy_reduce(name, h, None, False).astype(result_dtype(name, dtype))
    assert_same(got, want)
    # keepdims of a 0-d reduction is 0-d; axis=() reduces nothing
    assert getattr(x, name)(keepdims=True).shape == ()
    if not name.startswith("arg"):
        assert_same(getattr(wg, name)(x, axis=()).numpy(), want)
    # numpy's reductions take axis 0 and -1 on a 0-d array (regression: -1 raised AxisError) and nothing else
    for axis in (0, -1):
        assert_same(getattr(wg, name)(x, axis=axis).numpy(), want)
        if name != "mean":  # (np.mean alone raises AxisError here; wgarray treats all reductions alike)
            assert_same(np.asarray(numpy_reduce(name, h, axis, False)).astype(result_dtype(name, dtype)), want)
    for axis in (1, -2):
        with pytest.raises(np.exceptions.AxisError):
            getattr(wg, name)(x, axis=axis)


_EMPTY = {"sum": 0, "prod": 1, "any": False, "all": True}


@pytest.mark.parametrize("name", ALL_NAMES)
@pytest.mark.parametrize("dtype", supported(), ids=lambda d: d.name)
def test_empty(name, dtype):
    for shape in [(0,), (3, 0), (0, 4, 2)]:
        x = wg.asarray(np.zeros(shape, dtype=dtype.numpy))
        if name in NO_IDENTITY:
            with pytest.raises(ValueError, match="zero-size|empty|identity"):
                getattr(wg, name)(x)
            continue
        got = getattr(wg, name)(x).numpy()
        assert got.shape == () and got.dtype == result_dtype(name, dtype)
        if name == "mean":
            assert np.isnan(got)
        else:
            assert got == _EMPTY[name]
    # an empty reduced axis with a non-empty rest: filled with the identity (error for max & co)
    x = wg.asarray(np.zeros((3, 0), dtype=dtype.numpy))
    if name in NO_IDENTITY:
        with pytest.raises(ValueError):
            getattr(wg, name)(x, axis=1)
        # reducing the non-empty axis of an empty array is fine: an empty result
        assert getattr(wg, name)(x, axis=0).shape == (0,)
    else:
        got = getattr(wg, name)(x, axis=1, keepdims=True).numpy()
        assert got.shape == (3, 1)
        if name == "mean":
            assert np.isnan(got).all()
        else:
            assert (got == _EMPTY[name]).all()
        assert getattr(wg, name)(x, axis=0).shape == (0,)
    # the device still works
    assert wg.sum(wg.asarray(np.ones(5, dtype=np.int32))).item() == 5


# -- large arrays: several passes --------------------------------------------------------------------------------
# ~3M elements: several workgroups per row and a second pass over the partials; the odd size takes the scalar
# loads, the multiple of 4 the vec4 loads
N_SIZES = [3_000_017, 3_000_000]


@pytest.fixture(scope="module", params=N_SIZES, ids=["odd", "aligned"])
def large(request):
    rng = np.random.default_rng(1234)
    ints = rng.integers(-1000, 1000, request.param, dtype=np.int32)
    ints_dev = wg.asarray(ints)
    return ints, ints_dev


def test_large_integer_sum_and_integer_valued_float_sum(large):
    ints, x = large
    N_LARGE = ints.size
    assert wg.sum(x).item() == int(ints.astype(np.int64).sum())
    assert x[::-1].sum().item() == int(ints.astype(np.int64).sum())  # a negative-stride view
    assert x[1::3].sum().item() == int(ints[1::3].astype(np.int64).sum())
    # integer-valued float32 sums stay exact (every partial is an integer below 2**24)
    f = wg.asarray(ints.astype(np.float32))
    assert wg.sum(f).item() == float(ints.astype(np.int64).sum())
    # mean divides by the full count, not by the number of partials of the last pass
    assert wg.mean(f).item() == pytest.approx(ints.astype(np.float64).mean(), rel=1e-6, abs=1e-6)
    assert wg.mean(x).item() == pytest.approx(ints.astype(np.float64).mean(), rel=1e-6, abs=1e-6)
    ones = wg.ones((N_LARGE,), dtype=wg.float32)
    assert wg.mean(ones).item() == 1.0
    assert wg.sum(ones).item() == N_LARGE


def test_large_random_float_sum_tolerance(large):
    N_LARGE = large[0].size
    rng = np.random.default_rng(7)
    h = rng.standard_normal(N_LARGE).astype(np.float32)
    got = wg.sum(wg.asarray(h)).numpy()
    exact = h.astype(np.float64).sum()
    tol = sum_tolerance(N_LARGE, _fin(np.float32).eps, _fin(np.float32).eps, 0, np.abs(h.astype(np.float64)).sum(),
                        exact)
    assert abs(float(got) - exact) <= tol
    got = wg.mean(wg.asarray(h)).numpy()
    assert abs(float(got) - exact / N_LARGE) <= tol / N_LARGE + _fin(np.float32).eps * abs(exact / N_LARGE)


def test_large_order_and_logical(large):
    ints, x = large
    N_LARGE = ints.size
    h = ints.copy()
    h[[17, 2_000_000, 2_999_999]] = 5000  # ties of the maximum in different chunks: the first wins
    h[[1_500_000, 2_500_000]] = -5000
    y = wg.asarray(h)
    assert wg.max(y).item() == 5000 and wg.min(y).item() == -5000
    assert wg.argmax(y).item() == 17 and wg.argmin(y).item() == 1_500_000
    assert wg.argmax(y[::-1]).item() == N_LARGE - 1 - 2_999_999
    f = h.astype(np.float32)
    f[[2_100_000, 2_900_000]] = np.nan
    fy = wg.asarray(f)
    assert np.isnan(wg.max(fy).item()) and np.isnan(wg.min(fy).item())
    assert wg.argmax(fy).item() == 2_100_000 and wg.argmin(fy).item() == 2_100_000
    b = np.zeros(N_LARGE, dtype=bool)
    bx = wg.asarray(b)
    assert not wg.any(bx).item() and not wg.all(bx).item()
    b[2_999_998] = True
    assert wg.any(wg.asarray(b)).item()
    b[:] = True
    b[1_234_567] = False
    assert not wg.all(wg.asarray(b)).item()


@pytest.mark.parametrize("cols", [200_003, 200_000])
def test_large_rows_multipass_2d(cols):
    """A few long rows: several chunks per row, and a second pass over [rows, chunks] partials."""
    rng = np.random.default_rng(3)
    h = rng.integers(-50, 50, (3, cols), dtype=np.int16)
    h[1, 150_000] = 100
    h[2, 7] = 100
    h[2, 180_000] = 100
    x = wg.asarray(h)
    assert_same(wg.sum(x, axis=1).numpy(), h.sum(axis=1, dtype=np.int32))
    assert_same(wg.argmax(x, axis=1).numpy(), h.argmax(axis=1).astype(np.int32))
    assert_same(wg.argmin(x, axis=-1).numpy(), h.argmin(axis=1).astype(np.int32))
    assert_same(wg.max(x, axis=1).numpy(), h.max(axis=1))
    m = wg.mean(x, axis=1).numpy()
    np.testing.assert_allclose(m, h.astype(np.float64).mean(axis=1), rtol=1e-5, atol=1e-5)
    # the same through a transposed (column-major) view
    xt = wg.asarray(np.ascontiguousarray(h.T)).mT
    assert_same(wg.sum(xt, axis=1).numpy(), h.sum(axis=1, dtype=np.int32))
    assert_same(wg.argmax(xt, axis=1).numpy(), h.argmax(axis=1).astype(np.int32))
    assert_same(wg.sum(xt, axis=0).numpy(), h.sum(axis=0, dtype=np.int32))


# -- regressions -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["max", "min", "argmax", "argmin"])
def test_bool_order_reductions(name):
    """max/min/argmax/argmin of bool arrays (were: ValueError 'Invalid integer data type' building the kernel)."""
    h = np.array([[False, True, True], [False, False, False], [True, True, True]])
    x = wg.asarray(h)
    for axis in (None, 0, 1):
        want = np.asarray(getattr(np, name)(h, axis=axis)).astype(result_dtype(name, wg.bool))
        assert_same(getattr(wg, name)(x, axis=axis).numpy(), want)


def test_mean_of_multipass_reduction():
    """mean of a reduction that needs a second pass divides by the element count (was: by the partial count)."""
    x = wg.ones((3_000_000,), dtype=wg.float32)
    assert wg.mean(x).item() == 1.0
    y = wg.full((2, 300_000), 2.0, dtype=wg.float64)
    assert_same(wg.mean(y, axis=1).numpy(), np.array([2.0, 2.0]))


# -- short rows: one invocation a row (kernels/reduce.py _SHORT_ROW) ------------------------------------------------
@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "argmax", "argmin", "any", "all", "mean"])
@settings(max_examples=8)
@given(data=st.data())
def test_short_rows_one_invocation_a_row(name, data):
    """Many short rows (>= 256 outputs, <= 64 elements each, contiguous, transposed or split over two reduced
    axes) reduce in one dispatch and agree with numpy: exactly for order and logical ops and integer sums, and for
    float sums/means of small integers (every partial sum exact), NaN and tie rules included."""
    dtype = data.draw(st.sampled_from([d for d in supported() if d.kind in "biuf"]), label="dtype")
    rows = data.draw(st.integers(256, 600), label="rows")
    a, b = data.draw(st.integers(1, 8), label="a"), data.draw(st.integers(1, 8), label="b")
    layout = data.draw(st.sampled_from(["rows", "columns", "two axes"]), label="layout")
    if name == "mean" and dtype.kind != "f":
        return
    small = {"b": st.booleans(), "u": st.integers(0, 3), "i": st.integers(-3, 3)}.get(dtype.kind)
    if small is None:
        small = st.sampled_from([-2.0, -1.0, -0.0, 0.0, 1.0, 3.0] + ([math.nan] if name not in ("sum", "mean") else []))
    host = data.draw(hnp.arrays(dtype.numpy, (rows, a, b), elements=small), label="host")
    if layout == "rows":
        h, axis = host.reshape(rows, a * b), 1
    elif layout == "columns":
        h, axis = np.ascontiguousarray(host.reshape(rows, a * b).T), 0
    else:
        h, axis = host, (1, 2)
    if name in ("argmax", "argmin") and layout == "two axes":
        h, axis = host.reshape(rows, a * b), 1
    x = wg.asarray(h)
    x.mirror.buffer()
    grids = []

    def spy(device, kernel, buffers, params, **kw):
        grids.append(kw.get("grid"))
        return dispatch(device, kernel, buffers, params, **kw)

    dispatch = launch.dispatch
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(launch, "dispatch", spy)
        got = getattr(wg, name)(x, axis=axis)
    assert len(grids) == 1 and math.prod(grids[0]) == math.ceil(rows / WORKGROUP)  # a workgroup a row: rows
    want = getattr(np, name)(h, axis=axis)
    assert_same(no_signed_zero(got.numpy()), no_signed_zero(want.astype(result_dtype(name, dtype))))
