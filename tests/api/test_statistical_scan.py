"""cumulative_sum / cumulative_prod (WGSL block scan + scan of block totals) against numpy.

Integer and bool scans are exact: numpy computes in wgarray's result dtype (sum's rules: bool and narrow signed
ints -> int32, narrow unsigned -> uint32, 64-bit kept), where + and * wrap modulo 2**bits exactly as on the
device.  Float scans combine in a tree, so they are compared with a float64 reference within a tolerance.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import wgarray as wg

from strategies import dtypes, shapes, supported, values, view_of

_SUM_RESULT = {"bool": "int32", "int8": "int32", "int16": "int32", "int32": "int32", "int64": "int64",
               "uint8": "uint32", "uint16": "uint32", "uint32": "uint32", "uint64": "uint64",
               "float16": "float16", "float32": "float32", "float64": "float64"}
_FUNCS = {"sum": (wg.cumulative_sum, np.cumulative_sum), "prod": (wg.cumulative_prod, np.cumulative_prod)}
_RTOL = {"float16": 2e-2, "float32": 2e-5, "float64": 1e-12}


def _reference(op, a, axis, res, include_initial):
    ref = _FUNCS[op][1]
    if res.kind == "f":
        with np.errstate(all="ignore"):
            exact = ref(a.astype(np.float64), axis=axis, include_initial=include_initial)
            return exact.astype(res).astype(np.float64)  # overflow to inf where the result dtype does
    with np.errstate(all="ignore"):
        return ref(a, axis=axis, dtype=res, include_initial=include_initial)


def _check(got, want, res):
    assert got.dtype == res, (got.dtype, res)
    assert got.shape == want.shape, (got.shape, want.shape)
    if res.kind == "f":
        np.testing.assert_allclose(got.astype(np.float64), want, rtol=_RTOL[res.name], atol=1e-30, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


def _float_values(dtype, shape, op):
    pool = [-2.0, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 1.5, 2.0] if op == "prod" else None
    if pool is not None:
        return st.lists(st.sampled_from(pool), min_size=int(np.prod(shape)), max_size=int(np.prod(shape))).map(
            lambda v: np.array(v, dtype=dtype.numpy).reshape(shape))
    return values(dtype, shape, finite=True, small=True)


@given(data=st.data())
def test_cumulative_matches_numpy(data):
    op = data.draw(st.sampled_from(["sum", "prod"]), label="op")
    dtype = data.draw(dtypes(), label="dtype")
    shape = data.draw(shapes(min_dims=1, max_dims=3, max_side=6), label="shape")
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    include_initial = data.draw(st.booleans(), label="include_initial")
    if dtype.kind == "f":
        host = data.draw(_float_values(dtype, shape, op), label="x")
    else:
        host = data.draw(values(dtype, shape), label="x")
    x, host = data.draw(view_of(host, dtype), label="view")
    kwargs = {"include_initial": include_initial}
    if len(shape) > 1 or data.draw(st.booleans(), label="pass axis"):
        kwargs["axis"] = axis
    else:
        axis = 0
    got = _FUNCS[op][0](x, **kwargs).numpy()
    res = np.dtype(_SUM_RESULT[dtype.name])
    _check(got, _reference(op, host, axis, res, include_initial), res)


@given(data=st.data())
def test_cumulative_dtype_argument(data):
    op = data.draw(st.sampled_from(["sum", "prod"]), label="op")
    src = data.draw(dtypes("biu"), label="dtype")
    res = data.draw(st.sampled_from([d for d in supported() if d.kind in "iuf"]), label="result dtype")
    shape = data.draw(shapes(min_dims=1, max_dims=2, min_side=1, max_side=6), label="shape")
    host = data.draw(values(src, shape, small=True), label="x")
    got = _FUNCS[op][0](wg.asarray(host), axis=-1, dtype=res).numpy()
    want = _reference(op, host.astype(res.numpy), -1, res.numpy, False)
    _check(got, want, res.numpy)


@pytest.mark.parametrize("n", [1023, 1024, 1025, 5000, 70001, 1_100_000])
def test_long_rows_exact(n):
    """Multi-block rows: one, two and three levels of block totals (1024 elements a block)."""
    rng = np.random.default_rng(n)
    a = rng.integers(-1000, 1000, n, dtype=np.int32)
    _check(wg.cumulative_sum(wg.asarray(a)).numpy(), np.cumsum(a, dtype=np.int32), np.dtype(np.int32))
    got = wg.cumulative_sum(wg.asarray(a), include_initial=True).numpy()
    _check(got, np.cumulative_sum(a, include_initial=True, dtype=np.int32), np.dtype(np.int32))
    m = rng.integers(0, 2, n).astype(np.uint8)  # products of 0/1 and wrapping sums of uint8
    _check(wg.cumulative_prod(wg.asarray(m)).numpy(), np.cumprod(m, dtype=np.uint32), np.dtype(np.uint32))


def test_long_rows_strided_float():
    rng = np.random.default_rng(1)
    a = rng.random((5000, 3), dtype=np.float32)
    x = wg.asarray(a)[::-1]  # negative stride along the scanned axis
    got = wg.cumulative_sum(x, axis=0).numpy()
    np.testing.assert_allclose(got, np.cumsum(a[::-1].astype(np.float64), axis=0), rtol=1e-5)
    b = rng.random(70000, dtype=np.float64)
    got = wg.cumulative_sum(wg.asarray(b)[::2], include_initial=True).numpy()
    np.testing.assert_allclose(got, np.cumulative_sum(b[::2], include_initial=True), rtol=1e-12)


@pytest.mark.parametrize("length", [64, 65, 300, 2500])
def test_medium_rows(length):
    """Rows around the serial/workgroup switch (64) and several rows of one and more blocks."""
    a = (np.arange(9 * length, dtype=np.int32).reshape(9, length) * 7919) % 201 - 100
    x = wg.asarray(a)
    _check(wg.cumulative_sum(x, axis=1).numpy(), np.cumsum(a, axis=1, dtype=np.int32), np.dtype(np.int32))
    _check(wg.cumulative_sum(x.mT, axis=0, include_initial=True).numpy(),
           np.cumulative_sum(a.T, axis=0, include_initial=True, dtype=np.int32), np.dtype(np.int32))


def test_many_short_rows():
    a = np.arange(3 * 70000, dtype=np.int64).reshape(70000, 3) % 7 - 3
    x = wg.asarray(a)
    _check(wg.cumulative_prod(x, axis=1).numpy(), np.cumprod(a, axis=1), np.dtype(np.int64))
    _check(wg.cumulative_sum(x.mT, axis=0, include_initial=True).numpy(),
           np.cumulative_sum(a.T, axis=0, include_initial=True), np.dtype(np.int64))


def test_special_values_and_empty():
    a = np.array([1.0, np.inf, -np.inf, 2.0, np.nan, 3.0], dtype=np.float32)
    with np.errstate(invalid="ignore"):
        want = np.cumsum(a)
    np.testing.assert_array_equal(wg.cumulative_sum(wg.asarray(a)).numpy(), want)
    e = wg.cumulative_sum(wg.zeros((3, 0)), axis=1, include_initial=True)
    assert e.shape == (3, 1) and (e.numpy() == 0).all()
    p = wg.cumulative_prod(wg.zeros((0,), dtype=wg.int8), include_initial=True)
    assert p.dtype == wg.int32 and p.numpy().tolist() == [1]
    assert wg.cumulative_sum(wg.zeros((0, 4)), axis=0).shape == (0, 4)
    b = wg.cumulative_sum(wg.asarray([True, False, True]), dtype=wg.bool)  # logical or, like numpy
    assert b.numpy().tolist() == [True, True, True]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.float16])
@pytest.mark.parametrize("length", [1, 2, 7, 64, 65, 1500])  # the serial rows, one block, several blocks
def test_signed_zeros_as_numpys_accumulate(dtype, length):
    # numpy's cumsum starts from x[0] itself: a prefix of -0.0 alone is -0.0, any +0.0 makes it +0.0; include_initial's
    # first element is +0.0 (the standard's zero).  Rows of random signed zeros, one row and many (serial and block
    # kernels), bit for bit
    if np.dtype(dtype) == np.float64 and "shader-f64" not in wg.default_device().features:
        pytest.skip("no float64")
    rng = np.random.default_rng(length)
    for rows in (1, 3):
        a = np.where(rng.random((rows, length)) < 0.9, -0.0, 0.0).astype(dtype)
        a[0] = -0.0  # an all -0.0 row
        if np.dtype(dtype).kind == "c":
            a.imag = np.where(rng.random((rows, length)) < 0.9, -0.0, 0.0)
        want = np.cumsum(a, axis=1)
        got = wg.cumulative_sum(wg.asarray(a), axis=1).numpy()
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
        first = wg.cumulative_sum(wg.asarray(a), axis=1, include_initial=True).numpy()
        assert first[:, 1:].tobytes() == want.tobytes()
        assert not np.signbit(first[:, 0].real).any() and not np.signbit(first[:, 0].imag).any()


def test_errors():
    with pytest.raises(ValueError):
        wg.cumulative_sum(wg.asarray(1.0))
    with pytest.raises(ValueError):
        wg.cumulative_sum(wg.zeros((2, 3)))
    with pytest.raises(np.exceptions.AxisError):
        wg.cumulative_prod(wg.zeros((2, 3)), axis=2)
    with pytest.raises(TypeError):
        wg.cumulative_sum(wg.zeros((2, 3)), axis=(0,))


def test_result_stays_on_device():
    x = wg.asarray(np.arange(5000, dtype=np.int32)) + 0
    dev = wg.default_device()
    before = dev.stats()
    y = wg.cumulative_sum(x)
    delta = dev.stats() - before
    assert y.residency == {"device"}
    assert delta.bytes_downloaded == 0 and delta.bytes_uploaded == 0
