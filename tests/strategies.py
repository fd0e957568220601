"""Shared hypothesis strategies: dtypes the device supports, shapes (0-d, empty, odd), values with specials,
and views (slices with steps, negative steps, transposes) so kernels see non-contiguous operands."""
from __future__ import annotations

import os

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import wgarray as wg

ALL = [wg.bool, wg.int8, wg.int16, wg.int32, wg.int64, wg.uint8, wg.uint16, wg.uint32, wg.uint64,
       wg.float16, wg.float32, wg.float64]


def supported(dtypes=None):
    dev = wg.default_device()
    return [d for d in (dtypes or ALL) if dev.supports(d)]


INTS = [wg.int8, wg.int16, wg.int32, wg.int64, wg.uint8, wg.uint16, wg.uint32, wg.uint64]
FLOATS = [wg.float16, wg.float32, wg.float64]


def dtypes(kinds="biuf"):
    return st.sampled_from([d for d in supported() if d.kind in kinds])


def shapes(min_dims=0, max_dims=4, min_side=0, max_side=7):
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side)


def bus_bytes(dtype, size: int) -> int:
    """Bytes an upload or download of ``size`` elements moves: narrow dtypes travel at their host size (whole
    4-byte words), widened on the device; the others at their device size."""
    if dtype.device_itemsize != dtype.itemsize:
        return (size * dtype.itemsize + 3) // 4 * 4
    return size * dtype.device_itemsize


def flushes_subnormals() -> bool:
    """Whether the test device flushes f32 subnormals in arithmetic (NVIDIA's Vulkan driver does): there,
    generated inputs avoid subnormals and expected subnormal results compare as signed zeros.

    ``WGARRAY_TEST_ASSUME_FTZ=1`` pretends the device flushes (a smoke test of the flushing code paths of the tests
    on a device that does not: expect failures where subnormals are involved)."""
    return os.environ.get("WGARRAY_TEST_ASSUME_FTZ") == "1" or wg.default_device().flushes_subnormals


def ftz(x):
    """``x`` as a device that flushes subnormals reads or writes it: float32 values with 0 < |x| < tiny become a
    zero of their sign, in each part of a complex64.  The identity elsewhere (other dtypes: float16 is held in
    f32, where its subnormals are normal; only f32 arithmetic flushes) and on devices that keep subnormals."""
    if isinstance(x, (np.ndarray, np.generic)) and x.dtype == np.complex64 and flushes_subnormals():
        out = np.empty(np.shape(x), np.complex64)
        out.real, out.imag = ftz(np.real(x)), ftz(np.imag(x))
        return out if isinstance(x, np.ndarray) else out[()]
    if not (isinstance(x, (np.ndarray, np.generic)) and x.dtype == np.float32 and flushes_subnormals()):
        return x
    return np.where(np.abs(x) < np.finfo(np.float32).tiny, np.copysign(np.zeros_like(x), x), x)


def subnormal(x) -> np.ndarray:
    """Where ``ftz`` changes ``x`` (all False unless the device flushes; for complex64, in either part)."""
    x = np.asarray(x)
    if x.dtype == np.complex64:
        return subnormal(x.real) | subnormal(x.imag)
    return (ftz(x) == 0) & (x != 0)


def nextafter(a, b):
    """``np.nextafter`` with wgarray's float16 choice for two zeros: y, as numpy 2.5, C and numpy's float32/64 (numpy
    2.4 and older return x for float16), so the reference does not depend on the installed numpy."""
    with np.errstate(all="ignore"):
        out = np.nextafter(a, b)
    if np.asarray(out).dtype == np.float16:
        a, b = np.asarray(a), np.asarray(b)
        out = np.where((a == b) & (a == 0), b, out).astype(np.float16)
    return out


def floor_divide(x, y):
    """The floor_divide wgarray computes: numpy's, except where exactly one float operand is infinite (and neither
    is NaN): there the array API standard's special cases, floor(x / y) itself (+-inf // finite an infinity,
    finite // +-inf a zero, each with the sign of x / y), where numpy gives NaN, or -1 for signs that differ."""
    with np.errstate(all="ignore"):
        out = np.floor_divide(x, y)
    if out.dtype.kind != "f":
        return out
    x, y = np.broadcast_arrays(np.asarray(x, out.dtype), np.asarray(y, out.dtype))
    ix, iy = np.isinf(x), np.isinf(y)
    fix = (ix != iy) & ~np.isnan(x) & ~np.isnan(y) & (y != 0)
    if fix.any():
        neg = np.signbit(x) != np.signbit(y)
        std = np.where(ix, np.inf, 0.0).astype(out.dtype)
        std = np.where(neg, -std, std)
        out = np.where(fix, std, out).astype(out.dtype)
    return out[()] if out.ndim == 0 else out


def values(dtype, shape, finite=False, small=False):
    """numpy arrays of ``dtype``'s numpy type: extremes, NaN/inf/-0.0 and subnormals for floats (subnormals only
    on devices that keep them)."""
    npd = dtype.numpy
    if dtype.kind == "f":
        elems = st.floats(width=npd.itemsize * 8, allow_nan=not (finite or small),
                          allow_infinity=not (finite or small), allow_subnormal=not flushes_subnormals(),
                          **({"min_value": -100, "max_value": 100} if small else {}))
    elif dtype.kind in "iu" and small:
        info = np.iinfo(npd)
        elems = st.integers(max(info.min, -100), min(info.max, 100))
    else:
        elems = None
    return hnp.arrays(npd, shape, elements=elems)


@st.composite
def view_of(draw, host: np.ndarray, dtype):
    """A wgarray view whose values equal ``host``: sometimes the whole array, sometimes a strided slice of a
    larger base, sometimes a transpose of a transposed base.  Returns (wg_array, numpy_equivalent)."""
    how = draw(st.sampled_from(["plain", "strided", "transposed"]))
    if how == "plain" or host.ndim == 0:
        return wg.asarray(host, dtype=dtype), host
    if how == "transposed":
        if host.ndim < 2:
            return wg.asarray(host, dtype=dtype), host
        base = np.ascontiguousarray(np.swapaxes(host, -1, -2))  # .mT swaps the last two axes back
        return wg.asarray(base, dtype=dtype).mT, host
    # embed host into a bigger base with a step and an offset, then slice it back out (negative steps too)
    steps = [draw(st.sampled_from([1, 2, -1, -2])) for _ in range(host.ndim)]
    big_shape = [n * abs(s) + 1 for n, s in zip(host.shape, steps)]
    base = np.zeros(big_shape, dtype=host.dtype)
    idx = []
    for n, s in zip(host.shape, steps):
        if s > 0:
            idx.append(slice(1, 1 + n * s, s))
        else:
            idx.append(slice(n * -s - 1 if n else 0, None, s) if n else slice(0, 0))
    idx = tuple(idx)
    base[idx] = host
    view = wg.asarray(base, dtype=dtype)[idx]
    assert view.shape == host.shape, (view.shape, host.shape)
    return view, host


def assert_same(got: np.ndarray, want: np.ndarray, rtol=None, atol=0.0, ulps=None):
    """Bit-for-bit equality (NaN == NaN, and -0.0 distinct from 0.0) unless a tolerance is given; float32
    subnormals compare as signed zeros on a device that flushes them."""
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    got, want = ftz(got), ftz(want)  # subnormal results are signed zeros on a flushing device
    if want.dtype == np.float32 and flushes_subnormals():
        # such a device detects tininess before rounding: an exact result just below the smallest normal that
        # rounds up to it is flushed too (NVIDIA: (1 - 2^-24) * 2^-126 gives 0, numpy 2^-126)
        edge = (np.abs(want) == np.finfo(np.float32).tiny) & (got == 0) & (np.signbit(got) == np.signbit(want))
        got = np.where(edge, want, got)
    if got.dtype.kind == "f":
        if rtol is None and ulps is None:
            same = (got == want) & (np.signbit(got) == np.signbit(want)) | (np.isnan(got) & np.isnan(want))
            assert same.all(), f"mismatch at {np.argwhere(~same)[:5].tolist()}: got {got[~same][:5]}, want {want[~same][:5]}"
        elif ulps is not None:  # within ulps of want's spacing (or atol); NaN matches NaN, inf matches inf
            g, w = got.astype(np.float64), want.astype(np.float64)
            bound = np.maximum(ulps * np.spacing(np.abs(want)).astype(np.float64), atol)
            with np.errstate(invalid="ignore"):
                ok = (g == w) | (np.isnan(g) & np.isnan(w)) | (np.abs(g - w) <= bound)
            assert ok.all(), f"beyond {ulps} ulp at {np.argwhere(~ok)[:5].tolist()}: got {got[~ok][:5]}, want {want[~ok][:5]}"
        else:
            np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


# Helpers of the Array API section suites (tests/api/): a drawn array with its numpy twin, exact and close checks,
# the axis argument of a reduction.
@st.composite
def array_and_host(draw, shape_st=None, kinds="biuf", finite=False, small=False):
    dt = draw(dtypes(kinds))
    shape = draw(shape_st if shape_st is not None else shapes())
    host = draw(values(dt, shape, finite=finite, small=small))
    x, host = draw(view_of(host, dt))
    return x, host, dt


def check(got, want, dtype=None):
    if dtype is not None:
        assert got.dtype is dtype, (got.dtype, dtype)
    assert_same(got.numpy(), np.asarray(want))


def close(got, want, dtype, rtol=None, atol=0.0):
    assert got.dtype is dtype, (got.dtype, dtype)
    g = got.numpy()
    want = np.asarray(want).astype(dtype.numpy)
    if rtol is None:
        rtol = {16: 4e-3, 32: 2e-5, 64: 1e-12}[dtype.bits]
    assert g.shape == want.shape, (g.shape, want.shape)
    np.testing.assert_allclose(g.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol,
                               equal_nan=True)


@st.composite
def reduction_args(draw, x_ndim):
    if draw(st.booleans()) or x_ndim == 0:
        return None
    axes = draw(st.lists(st.integers(-x_ndim, x_ndim - 1), min_size=1, max_size=x_ndim,
                         unique_by=lambda a: a % x_ndim))
    return axes[0] if len(axes) == 1 and draw(st.booleans()) else tuple(axes)
