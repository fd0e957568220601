"""complex64 and complex128 against numpy and the standard's special-case tables.

Tolerances: bit for bit (NaN matching any NaN) for + - * / conj real imag negative equal not_equal isnan isinf
isfinite round, which numpy computes with the same formulas (Smith's division included); <= 4 ulp of |w| in each
part for the transcendental functions, against numpy in long double (numpy's complex64 functions call the float32
libm ones, so long double is the fair reference for both dtypes).  Special values: the standard's tables (C99 Annex
G), signs of zeros checked where the standard fixes them, and a grid of specials against numpy where numpy follows
the standard.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

import wgarray as wg

from strategies import ftz, subnormal

COMPLEX = [d for d in (wg.complex64, wg.complex128) if wg.default_device().supports(d)]
REF = np.clongdouble
INF, NAN = np.inf, np.nan
FUNCS = {"sqrt": "sqrt", "exp": "exp", "expm1": "expm1", "log": "log", "log1p": "log1p", "log2": "log2",
         "log10": "log10", "sin": "sin", "cos": "cos", "tan": "tan", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh",
         "asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh", "acosh": "arccosh",
         "atanh": "arctanh", "reciprocal": "reciprocal", "square": "square", "sign": "sign"}


def _quiet():
    return warnings.catch_warnings() if False else np.errstate(all="ignore")


def same_bits(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Per element: both parts equal with the sign of zero, or both NaN."""
    ok = np.ones(got.shape, bool)
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        ok &= ((g == w) & (np.signbit(g) == np.signbit(w))) | (np.isnan(g) & np.isnan(w))
    return ok


def assert_bits(got: np.ndarray, want: np.ndarray):
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype, got.shape, want.shape)
    ok = same_bits(got, want)
    assert ok.all(), f"got {got[~ok][:4]}, want {want[~ok][:4]}"


def assert_ulps(got: np.ndarray, want: np.ndarray, dt, ulps=4.0, where=None):
    """|got - want| <= ulps * eps * |want| in each part (want in long double)."""
    eps = np.finfo(dt.component.numpy).eps
    mag = np.abs(want)
    with _quiet():
        err = np.maximum(np.abs(got.real - want.real), np.abs(got.imag - want.imag)) / (mag * eps)
    big = np.finfo(dt.component.numpy).max
    over = np.isfinite(mag) & ((np.abs(want.real) > big) | (np.abs(want.imag) > big))
    for g, w in ((got.real, want.real), (got.imag, want.imag)):  # a part past the dtype's range is that signed inf
        lost = over & (np.abs(w) > big * (1 + eps))  # past max's rounding half-ulp: no finite float32 near
        assert (g[lost] == np.copysign(np.inf, w[lost])).all(), f"{g[lost][:3]} for parts {w[lost][:3]}"
    bad = np.isfinite(mag) & ~over & (mag > np.finfo(dt.component.numpy).tiny) & ~(err <= ulps)
    if where is not None:
        bad &= where
    assert not bad.any(), f"beyond {ulps} ulp: z={got[bad][:3]} want {want[bad][:3].astype(np.complex128)}"


def parts(n, lo=-8.0, hi=8.0, specials=False):
    """A strategy for n complex values with magnitudes 2^lo .. 2^hi (and specials)."""
    mag = st.builds(lambda s, e, m: s * m * 2.0 ** e, st.sampled_from([-1.0, 1.0]), st.floats(lo, hi),
                    st.floats(1.0, 2.0))
    part = st.one_of(mag, st.sampled_from([0.0, -0.0, INF, -INF, NAN, 1.0, -1.0])) if specials else mag
    return st.lists(st.builds(complex, part, part), min_size=n, max_size=n)


# -- the dtype table --------------------------------------------------------------------------------------------
def test_dtype_rows():
    for d, part, size in ((wg.complex64, wg.float32, 8), (wg.complex128, wg.float64, 16)):
        assert d.kind == "c" and d.component is part and d.itemsize == d.device_itemsize == size
        assert not d.widened and d.storage_numpy == d.numpy  # the same bytes on host and device: no codec
    assert wg.__array_namespace_info__().default_dtypes()["complex floating"] is wg.complex64
    assert wg.isdtype(wg.complex64, "complex floating") and wg.isdtype(wg.complex64, "numeric")
    assert not wg.isdtype(wg.complex64, "real floating")
    assert wg.finfo(wg.complex64).dtype is wg.float32 and wg.finfo(wg.complex64).eps == np.finfo(np.float32).eps
    assert wg.can_cast(wg.float32, wg.complex64) and not wg.can_cast(wg.complex64, wg.float32)
    assert not wg.can_cast(wg.int8, wg.complex64)  # mixed kinds are outside the standard's table


def test_promotion_and_scalars():
    h = np.array([1 + 2j, -3j], np.complex64)
    x = wg.asarray(h)
    i8 = np.array([3, -4], np.int8)
    assert_bits((wg.asarray(i8) + x).numpy(), i8.astype(np.complex64) + h)
    assert (x + wg.asarray(np.float32([1, 2]))).dtype is wg.complex64
    assert_bits((x + 1j).numpy(), h + np.complex64(1j))
    assert_bits((2j * x).numpy(), np.complex64(2j) * h)
    assert (wg.asarray(np.float32([1])) * 1j).dtype is wg.complex64
    assert (wg.asarray(np.int16([1])) + 1j).dtype is wg.complex64
    b = np.array([True, False])
    assert_bits((wg.asarray(b) + x).numpy(), b + h)  # bool promotes to numbers (numpy), complex too
    assert (wg.asarray(b) + 1j).dtype is wg.complex64
    y = wg.asarray(np.float32([1, 2]))
    with pytest.raises(TypeError, match="complex"):
        y += 1j  # a complex result does not fit a real array
    x += 1j
    assert_bits(x.numpy(), h + np.complex64(1j))
    if wg.complex128 in COMPLEX:
        assert (x + wg.asarray(np.float64([1, 2]))).dtype is wg.complex128
        assert wg.result_type(wg.float64, wg.complex64) is wg.complex128
        assert (wg.asarray(np.float64([1])) + 1j).dtype is wg.complex128


# -- arithmetic bit for bit ---------------------------------------------------------------------------------------
# multiply is not here: numpy's SIMD loop contracts a*b - c*d into an fma on machines that have one, so its low
# bit depends on the host; wgarray rounds every product (checked to 1 ulp of |w| below)
EXACT_BINARY = ["add", "subtract", "divide", "equal", "not_equal"]
EXACT_UNARY = {"negative": np.negative, "positive": np.positive, "conj": np.conj, "real": np.real, "imag": np.imag,
               "isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite, "round": np.round}


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(COMPLEX), parts(12, -60, 60, specials=True), parts(12, -60, 60, specials=True),
       st.sampled_from(EXACT_BINARY))
def test_binary_bit_exact(dt, a, b, name):
    ha, hb = np.array(a, dt.numpy).reshape(3, 4), np.array(b, dt.numpy).reshape(3, 4)
    with _quiet():
        want = getattr(np, name)(ha, hb)
        assert_bits(np.asarray(getattr(wg, name)(wg.asarray(ha), wg.asarray(hb)).numpy(), want.dtype), want) \
            if want.dtype.kind == "c" else np.testing.assert_array_equal(
                getattr(wg, name)(wg.asarray(ha), wg.asarray(hb)).numpy(), want)
        # broadcasting and strided views: a column against a reversed, stepped row
        col, row = ha[:, :1], hb[::-1, ::2][0]
        w2 = getattr(np, name)(col, row)
        g2 = getattr(wg, name)(wg.asarray(ha)[:, :1], wg.asarray(hb)[::-1, ::2][0]).numpy()
        assert_bits(g2, w2) if w2.dtype.kind == "c" else np.testing.assert_array_equal(g2, w2)


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(COMPLEX), parts(16, -60, 60), parts(16, -60, 60))
def test_multiply_within_1_ulp(dt, a, b):
    ha, hb = np.array(a, dt.numpy), np.array(b, dt.numpy)
    want = ha.astype(REF) * hb.astype(REF)
    assert_ulps((wg.asarray(ha) * wg.asarray(hb)).numpy().astype(REF), want, dt, ulps=1.0)


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(COMPLEX), parts(10, -60, 60, specials=True), st.sampled_from(sorted(EXACT_UNARY)))
def test_unary_bit_exact(dt, a, name):
    h = np.array(a, dt.numpy)
    with _quiet():
        want = EXACT_UNARY[name](h)
    got = getattr(wg, name)(wg.asarray(h)).numpy()
    if want.dtype.kind == "c":
        assert_bits(got, want)
    else:
        assert got.dtype == want.dtype
        assert (((got == want) & (np.signbit(got) == np.signbit(want))) | (np.isnan(got) & np.isnan(want))).all()


def test_abs_is_hypot_in_the_real_dtype():
    for dt in COMPLEX:
        h = np.array([3 + 4j, -0.0 - 0j, complex(INF, NAN), complex(NAN, 1.0), 1e300 + 1e300j if dt is wg.complex128 else
                      3e38 + 3e38j, 1e-45 + 1e-45j], dt.numpy)
        got = wg.abs(wg.asarray(h)).numpy()
        assert got.dtype == dt.component.numpy
        with _quiet():
            want = np.abs(h)
        # a device that flushes subnormals reads 1e-45 + 1e-45j as 0 and writes |.| = 1.4e-45 as 0: unpromised
        promised = ~(subnormal(h) | subnormal(want))
        np.testing.assert_allclose(got[promised], want[promised], rtol=2 * np.finfo(got.dtype).eps)
        assert got[2] == INF and np.isnan(got[3])  # inf beats NaN, as in hypot


# -- the transcendental functions ---------------------------------------------------------------------------------
@settings(max_examples=20, deadline=None)
@given(st.sampled_from(COMPLEX), st.sampled_from(sorted(FUNCS)), parts(16, -12, 6))
@example(wg.complex64, "cosh", [-1 - 1j] * 15 + [-128 - 1j])  # cosh(-128 - 1j) ~ 1e55: past float32, inf + inf j
def test_functions_within_4_ulp(dt, name, a):
    h = np.array(a, dt.numpy)
    ref = h.astype(REF)
    if name == "log1p":  # long double's 1 + z loses what a tiny z needs: keep |z| where it is a fair reference
        where = np.abs(h) > 2.0 ** -9
    else:
        where = None
    with _quiet():
        want = getattr(np, FUNCS[name])(ref)
    got = getattr(wg, name)(wg.asarray(h)).numpy()
    assert got.dtype == dt.numpy
    assert_ulps(got.astype(REF), want, dt, where=where)


@pytest.mark.slow  # ~5 s: in `make test-long` (CI runs it)
def test_small_argument_accuracy():
    """Tiny z: log1p(z) = z - z^2/2, expm1(z) = z + z^2/2, asin/atan/asinh/atanh/sin/tan(z) = z to an ulp."""
    for dt in COMPLEX:
        z = np.array([1e-20 + 3e-21j, -2e-15 + 1e-16j, 3e-8 - 4e-9j], dt.numpy)
        zz = z.astype(REF)
        for name, series in (("log1p", zz - zz * zz / 2), ("expm1", zz + zz * zz / 2), ("asin", zz), ("atan", zz),
                             ("asinh", zz), ("atanh", zz), ("sin", zz), ("tan", zz), ("sinh", zz), ("tanh", zz)):
            assert_ulps(getattr(wg, name)(wg.asarray(z)).numpy().astype(REF), series, dt, ulps=2)


def test_log_near_the_unit_circle():
    """log|z| for |z| ~ 1 is computed in double length (log(hypot) would lose the bits of |z| - 1)."""
    for dt in COMPLEX:
        t = np.linspace(0.1, 1.5, 9)
        z = (np.cos(t) + 1j * np.sin(t)).astype(dt.numpy) * (1 + 1e-6)
        assert_ulps(wg.log(wg.asarray(z)).numpy().astype(REF), np.log(z.astype(REF)), dt, ulps=3)


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(COMPLEX), parts(8, -4, 3), parts(8, -3, 2), st.booleans())
def test_pow(dt, a, b, integral):
    ha = np.array(a, dt.numpy)
    hb = np.round(np.array(b, dt.numpy).real * 4).astype(dt.numpy) if integral else np.array(b, dt.numpy)
    with _quiet():
        want = np.power(ha.astype(REF), hb.astype(REF))
    got = (wg.asarray(ha) ** wg.asarray(hb)).numpy()
    mag = np.abs(hb.astype(REF) * np.log(ha.astype(REF)))  # exp(b log a) carries log's error times |b log a|
    assert_ulps(got.astype(REF), want, dt, ulps=4 + 2 * float(np.max(mag)))
    z = wg.asarray(np.array([0j, 0j, 1 + 1j, 2 + 0j], dt.numpy))
    e = wg.asarray(np.array([2 + 0j, 1j, 0j, -2 + 0j], dt.numpy))
    got = (z ** e).numpy()
    assert got[0] == 0 and np.isnan(got[1].real) and got[2] == 1 and got[3] == 0.25


# -- special values --------------------------------------------------------------------------------------------
PI2, PI4 = np.pi / 2, np.pi / 4
Z = object()  # a zero of either sign (the standard leaves it unspecified)
N = object()  # NaN
ANYINF = object()  # an infinity of either sign
# the standard's tables (C99 Annex G) for the first quadrant; symmetries cover the rest in the grid test below
TABLE = {
    "sqrt": [((0.0, 0.0), (0.0, 0.0)), ((1.0, INF), (INF, INF)), ((NAN, INF), (INF, INF)), ((1.0, NAN), (N, N)),
             ((-INF, 1.0), (0.0, INF)), ((INF, 1.0), (INF, 0.0)), ((-INF, NAN), (N, INF)),
             ((INF, NAN), (INF, N)), ((NAN, 1.0), (N, N)), ((NAN, NAN), (N, N)), ((-4.0, 0.0), (0.0, 2.0)),
             ((-4.0, -0.0), (0.0, -2.0))],
    "exp": [((0.0, 0.0), (1.0, 0.0)), ((-0.0, 0.0), (1.0, 0.0)), ((1.0, INF), (N, N)), ((1.0, NAN), (N, N)),
            ((INF, 0.0), (INF, 0.0)), ((-INF, 1.0), (0.0, 0.0)), ((INF, 1.0), (INF, INF)), ((-INF, INF), (Z, Z)),
            ((INF, INF), (INF, N)), ((-INF, NAN), (Z, Z)), ((INF, NAN), (INF, N)), ((NAN, 0.0), (N, 0.0)),
            ((NAN, 1.0), (N, N)), ((NAN, NAN), (N, N))],
    "expm1": [((0.0, 0.0), (0.0, 0.0)), ((1.0, INF), (N, N)), ((1.0, NAN), (N, N)), ((INF, 0.0), (INF, 0.0)),
              ((-INF, 1.0), (-1.0, 0.0)), ((INF, 1.0), (INF, INF)), ((-INF, INF), (-1.0, Z)), ((INF, INF), (INF, N)),
              ((-INF, NAN), (-1.0, Z)), ((INF, NAN), (INF, N)), ((NAN, 0.0), (N, 0.0)), ((NAN, 1.0), (N, N))],
    "log": [((-0.0, 0.0), (-INF, np.pi)), ((0.0, 0.0), (-INF, 0.0)), ((1.0, INF), (INF, PI2)), ((1.0, NAN), (N, N)),
            ((-INF, 1.0), (INF, np.pi)), ((INF, 1.0), (INF, 0.0)), ((-INF, INF), (INF, 3 * PI4)),
            ((INF, INF), (INF, PI4)), ((INF, NAN), (INF, N)), ((-INF, NAN), (INF, N)), ((NAN, 1.0), (N, N)),
            ((NAN, INF), (INF, N)), ((NAN, NAN), (N, N)), ((-1.0, 0.0), (0.0, np.pi)), ((-1.0, -0.0), (0.0, -np.pi))],
    "log1p": [((-1.0, 0.0), (-INF, 0.0)), ((1.0, INF), (INF, PI2)), ((-INF, 1.0), (INF, np.pi)),
              ((INF, 1.0), (INF, 0.0)), ((INF, NAN), (INF, N)), ((NAN, INF), (INF, N)), ((0.0, 0.0), (0.0, 0.0))],
    "sinh": [((0.0, 0.0), (0.0, 0.0)), ((0.0, INF), (Z, N)), ((0.0, NAN), (Z, N)), ((INF, 0.0), (INF, 0.0)),
             ((INF, 1.0), (INF, INF)), ((INF, INF), (INF, N)), ((INF, NAN), (INF, N)), ((1.0, INF), (N, N)),
             ((1.0, NAN), (N, N)), ((NAN, 0.0), (N, 0.0)), ((NAN, 1.0), (N, N)), ((NAN, NAN), (N, N))],
    "cosh": [((0.0, 0.0), (1.0, 0.0)), ((0.0, INF), (N, Z)), ((0.0, NAN), (N, Z)), ((INF, 0.0), (INF, 0.0)),
             ((INF, 1.0), (INF, INF)), ((INF, INF), (INF, N)), ((INF, NAN), (INF, N)), ((1.0, INF), (N, N)),
             ((1.0, NAN), (N, N)), ((NAN, 0.0), (N, Z)), ((NAN, 1.0), (N, N)), ((NAN, NAN), (N, N))],
    "tanh": [((0.0, 0.0), (0.0, 0.0)), ((0.0, INF), (0.0, N)), ((0.0, NAN), (0.0, N)), ((1.0, INF), (N, N)),
             ((1.0, NAN), (N, N)), ((INF, 1.0), (1.0, 0.0)), ((INF, 2.0), (1.0, -0.0)), ((INF, INF), (1.0, Z)),
             ((INF, NAN), (1.0, Z)), ((NAN, 0.0), (N, 0.0)), ((NAN, 1.0), (N, N)), ((NAN, NAN), (N, N))],
    "asinh": [((0.0, 0.0), (0.0, 0.0)), ((1.0, INF), (INF, PI2)), ((1.0, NAN), (N, N)), ((INF, 1.0), (INF, 0.0)),
              ((INF, INF), (INF, PI4)), ((INF, NAN), (INF, N)), ((NAN, 0.0), (N, 0.0)), ((NAN, 1.0), (N, N)),
              ((NAN, INF), (INF, N)), ((NAN, NAN), (N, N))],
    "acos": [((0.0, 0.0), (PI2, -0.0)), ((-0.0, 0.0), (PI2, -0.0)), ((0.0, NAN), (PI2, N)), ((1.0, INF), (PI2, -INF)),
             ((1.0, NAN), (N, N)), ((-INF, 1.0), (np.pi, -INF)), ((INF, 1.0), (0.0, -INF)),
             ((-INF, INF), (3 * PI4, -INF)), ((INF, INF), (PI4, -INF)), ((INF, NAN), (N, ANYINF)),
             ((NAN, 1.0), (N, N)), ((NAN, INF), (N, -INF)), ((NAN, NAN), (N, N)), ((2.0, 0.0), (0.0, -1.3169578969248166)),
             ((2.0, -0.0), (0.0, 1.3169578969248166))],
    "acosh": [((0.0, 0.0), (0.0, PI2)), ((-0.0, 0.0), (0.0, PI2)), ((1.0, INF), (INF, PI2)), ((1.0, NAN), (N, N)),
              ((-INF, 1.0), (INF, np.pi)), ((INF, 1.0), (INF, 0.0)), ((-INF, INF), (INF, 3 * PI4)),
              ((INF, INF), (INF, PI4)), ((INF, NAN), (INF, N)), ((-INF, NAN), (INF, N)), ((NAN, 1.0), (N, N)),
              ((NAN, INF), (INF, N)), ((NAN, NAN), (N, N))],
    "atanh": [((0.0, 0.0), (0.0, 0.0)), ((0.0, NAN), (0.0, N)), ((1.0, 0.0), (INF, 0.0)), ((1.0, INF), (0.0, PI2)),
              ((1.0, NAN), (N, N)), ((INF, 1.0), (0.0, PI2)), ((INF, INF), (0.0, PI2)), ((INF, NAN), (0.0, N)),
              ((NAN, 1.0), (N, N)), ((NAN, INF), (Z, PI2)), ((NAN, NAN), (N, N)), ((2.0, 0.0), (0.5493061443340549, PI2)),
              ((2.0, -0.0), (0.5493061443340549, -PI2))],
    "divide": [],
}


def _matches(got: float, want, dt) -> bool:
    if want is N:
        return bool(np.isnan(got))
    if want is Z:
        return got == 0
    if want is ANYINF:
        return bool(np.isinf(got))
    if want == 0:
        return got == 0 and np.signbit(got) == np.signbit(want)
    return bool(np.isclose(got, want, rtol=4 * np.finfo(dt.component.numpy).eps, atol=0))


@pytest.mark.parametrize("name", [n for n in TABLE if TABLE[n]])
def test_standard_special_cases(name):
    for dt in COMPLEX:
        cases = TABLE[name]
        z = np.array([complex(*c[0]) for c in cases], dt.numpy)
        z.real, z.imag = [c[0][0] for c in cases], [c[0][1] for c in cases]  # complex() drops -0.0 imag signs
        got = getattr(wg, name)(wg.asarray(z)).numpy()
        for (inp, (re, im)), g in zip(cases, got):
            assert _matches(g.real, re, dt) and _matches(g.imag, im, dt), (dt, name, inp, g, (re, im))


GRID = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, INF, -INF, NAN, 1e3, -3.0]
# where numpy departs from the standard (numpy's own expm1 and sign formulas) or the standard leaves a sign open
NUMPY_DEPARTS = {"expm1", "sign"}


@pytest.mark.parametrize("name", sorted(FUNCS))
def test_special_grid_against_numpy(name):
    """Every pair of special parts; where numpy's result is not NaN in a part, the same value (zero signs too,
    unless the input holds a NaN or an infinity, where the standard leaves them open)."""
    for dt in COMPLEX:
        re, im = np.meshgrid(GRID, GRID)
        z = np.empty(re.size, dt.numpy)
        z.real, z.imag = re.ravel(), im.ravel()
        with _quiet():
            want = getattr(np, FUNCS[name])(z)
        got = getattr(wg, name)(wg.asarray(z)).numpy()
        finite_in = np.isfinite(z.real) & np.isfinite(z.imag)
        keep = (finite_in & np.isfinite(want)) if name in NUMPY_DEPARTS else np.ones(z.shape, bool)
        eps = np.finfo(dt.component.numpy).eps
        for g, w in ((got.real, want.real), (got.imag, want.imag)):
            with _quiet():
                close = (np.isnan(g) & np.isnan(w)) | (g == w) | (np.abs(g - w) <= 8 * eps * np.abs(want))
            sign_open = ~finite_in & (w == 0)
            ok = close & ((np.signbit(g) == np.signbit(w)) | sign_open | (w != 0))
            assert ok[keep].all(), (dt, name, z[keep][~ok[keep]][:4], got[keep][~ok[keep]][:4],
                                    want[keep][~ok[keep]][:4])


def test_division_scaled_against_overflow():
    """Smith's division runs on a divisor scaled by an exact power of two where its larger part is beyond 2^+-60
    (f32) / 2^+-500 (f64): no intermediate overflows (the naive formula gives NaN for (big + big i) / (big + big
    i)) or turns subnormal (numpy's scale 1 / (y.x + y.y r) does there: a device that flushes subnormals gave 0
    for that quotient).  Elsewhere numpy's arithmetic to the bit."""
    for dt in COMPLEX:
        info = np.finfo(dt.component.numpy)
        big = info.max / 4
        # moderate divisors (no scaling): numpy's bits, the special quotient by 0 included
        a = np.array([1 + 1j, complex(1, 0), 1 + 2j, 3 - 1j, -2.5 + 0.75j, complex(-0.0, 0.0)], dt.numpy)
        b = np.array([2 - 3j, complex(0, 0), 0.5 - 0.25j, 1e-30 + 1j, 7 + 1e-3j, 1 - 1j], dt.numpy)
        with _quiet():
            assert_bits((wg.asarray(a) / wg.asarray(b)).numpy(), a / b)
        # extreme divisors: within 2 ulp of |quotient| in each part, against long double
        s = 2.0 ** (info.maxexp // 2 + 8)  # beyond the scaling threshold, parts of the quotient still normal
        a = np.array([complex(big, big), 1 + 1j, 3 - 4j, complex(big, -big / 3), complex(1 / s, 2 / s),
                      complex(3 * s, -s)], dt.numpy)
        b = np.array([complex(big, big), complex(big, big), complex(big / 3, -big), complex(big, big / 7),
                      complex(2 / s, -1 / s), complex(s / 8, s / 2)], dt.numpy)
        got = (wg.asarray(a) / wg.asarray(b)).numpy()
        want = a.astype(REF) / b.astype(REF)
        assert np.isfinite(got).all(), got
        assert_ulps(got.astype(REF), want, dt, ulps=2)
        assert abs(got[0] - 1) <= info.eps  # the naive formula overflows to NaN; numpy's scale is subnormal
        # an exact quotient that is subnormal itself: 2^-70 / 2^70 (f32), flushed only where the device flushes
        e = 7 - info.minexp // 2
        a = np.array([complex(2.0 ** -e, -(2.0 ** -e)), complex(0.0, 2.0 ** -e)], dt.numpy)
        b = np.array([complex(2.0 ** e, 0.0), complex(0.0, 2.0 ** e)], dt.numpy)
        want = np.array([complex(2.0 ** (-2 * e), -(2.0 ** (-2 * e))), complex(2.0 ** (-2 * e), 0.0)], dt.numpy)
        assert_bits((wg.asarray(a) / wg.asarray(b)).numpy(), ftz(want))


# -- reductions, linear algebra ---------------------------------------------------------------------------------
@settings(max_examples=12, deadline=None)
@given(st.sampled_from(COMPLEX), parts(24, -3, 3), st.sampled_from([None, 0, 1]))
def test_reductions(dt, a, axis):
    h = np.array(a, dt.numpy).reshape(4, 6)[:, ::-1]
    x = wg.asarray(np.array(a, dt.numpy).reshape(4, 6))[:, ::-1]
    rtol = 8 * np.finfo(dt.component.numpy).eps * 6
    for name, ref in (("sum", np.sum), ("prod", np.prod), ("mean", np.mean)):
        got = getattr(wg, name)(x, axis=axis)
        assert got.dtype is dt
        want = ref(h.astype(REF), axis=axis)
        np.testing.assert_allclose(got.numpy(), want.astype(np.complex128), rtol=rtol, atol=rtol * np.abs(want).max())
    ax = 1 if axis is None else axis
    for name, ref in (("cumulative_sum", np.cumsum), ("cumulative_prod", np.cumprod)):
        want = ref(h.astype(REF), axis=ax)
        got = getattr(wg, name)(x, axis=ax).numpy()
        np.testing.assert_allclose(got, want.astype(np.complex128), rtol=rtol * 4, atol=rtol * np.abs(want).max())
    assert_bits(np.asarray(wg.any(x, axis=axis).numpy()), np.asarray(np.any(h, axis=axis)).astype(bool)) \
        if False else np.testing.assert_array_equal(wg.any(x, axis=axis).numpy(), np.any(h, axis=axis))
    np.testing.assert_array_equal(wg.all(x, axis=axis).numpy(), np.all(h, axis=axis))


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(COMPLEX), st.integers(1, 9), st.integers(1, 9), st.integers(1, 9), st.data())
def test_matmul_family(dt, m, k, n, data):
    a = np.array(data.draw(parts(m * k, -2, 2)), dt.numpy).reshape(m, k)
    b = np.array(data.draw(parts(k * n, -2, 2)), dt.numpy).reshape(k, n)
    tol = 16 * np.finfo(dt.component.numpy).eps * k
    x, y = wg.asarray(a), wg.asarray(b)
    ref = a.astype(REF) @ b.astype(REF)
    scale = np.abs(a).max() * np.abs(b).max() * k
    np.testing.assert_allclose((x @ y).numpy(), ref.astype(np.complex128), atol=tol * scale, rtol=0)
    np.testing.assert_allclose((wg.matrix_transpose(y) @ wg.matrix_transpose(x)).numpy(),
                               ref.T.astype(np.complex128), atol=tol * scale, rtol=0)  # strided operands
    np.testing.assert_allclose(wg.tensordot(x, y, axes=1).numpy(), ref.astype(np.complex128), atol=tol * scale)
    # vecdot conjugates x1 (the standard; numpy.vecdot)
    v = np.vecdot(a.astype(REF), a[::-1].astype(REF))
    np.testing.assert_allclose(wg.vecdot(x, x[::-1]).numpy(), v.astype(np.complex128), atol=tol * scale)
    np.testing.assert_allclose(wg.linalg.vecdot(x, x[::-1]).numpy(), v.astype(np.complex128), atol=tol * scale)
    assert np.all(np.abs(wg.vecdot(x, x).numpy().imag) <= tol * scale)  # <x, x> is real
    for ordv in (2, 1, np.inf, 0, 3):
        got = wg.linalg.vector_norm(x, axis=1, ord=ordv)
        assert got.dtype is dt.component
        np.testing.assert_allclose(got.numpy(), np.linalg.norm(a.astype(np.complex128), ord=ordv, axis=1),
                                   rtol=tol * 4)
    for ordm in ("fro", 1, np.inf, -1):
        got = wg.linalg.matrix_norm(x, ord=ordm)
        assert got.dtype is dt.component
        np.testing.assert_allclose(got.numpy(), np.linalg.norm(a.astype(np.complex128), ord=ordm), rtol=tol * 4)


# -- creation, indexing, manipulation -----------------------------------------------------------------------------
def test_creation_and_transfers():
    for dt in COMPLEX:
        assert_bits(wg.zeros((2, 3), dtype=dt).numpy(), np.zeros((2, 3), dt.numpy))
        assert_bits(wg.ones(3, dtype=dt).numpy(), np.ones(3, dt.numpy))
        assert_bits(wg.full((2,), 1 - 2j, dtype=dt).numpy(), np.full(2, 1 - 2j, dt.numpy))
        assert_bits(wg.eye(3, k=1, dtype=dt).numpy(), np.eye(3, k=1, dtype=dt.numpy))
        assert wg.empty((4,), dtype=dt).dtype is dt
        np.testing.assert_allclose(wg.linspace(1j, 2 - 3j, 7, dtype=dt).numpy(), np.linspace(1j, 2 - 3j, 7),
                                   rtol=2 * np.finfo(dt.component.numpy).eps)
        assert_bits(wg.asarray(wg.zeros(3, dtype=dt) + 1).numpy(), np.ones(3, dt.numpy))
        h = np.array([[1 + 2j, -0.0 - 0j], [INF + NAN * 1j, 3e-40 + 1j]], dt.numpy)
        x = wg.asarray(h)
        assert_bits(x.numpy(), h)  # host -> device -> host keeps every bit (a copy: never flushed)
        assert_bits((x + 0).numpy(), ftz(h + 0))  # arithmetic: 3e-40 is 0 on a device that flushes subnormals
    assert wg.full((2,), 1j).dtype is wg.complex64
    assert wg.linspace(0, 1j, 3).dtype is wg.complex64
    spec = np.fft.rfft(np.arange(8.0))
    got = wg.asarray(spec)
    assert got.dtype is (wg.complex128 if wg.complex128 in COMPLEX else got.dtype)
    assert_bits(got.numpy(), spec)
    r = wg.asarray(np.float32([1, -2]))
    assert_bits(r.astype(wg.complex64).numpy(), np.complex64([1, -2]))  # real -> complex: imag 0
    assert_bits(wg.asarray(np.array([True, False])).astype(wg.complex64).numpy(), np.complex64([1, 0]))
    with pytest.raises(TypeError, match="real"):
        wg.astype(wg.ones(2, dtype=wg.complex64), wg.float32)  # documented: the standard's "should not"


def test_indexing_and_manipulation():
    h = (np.arange(24).reshape(4, 6) + 1j * np.arange(24)[::-1].reshape(4, 6)).astype(np.complex64)
    x = wg.asarray(h)
    assert_bits(x[1:, ::2].numpy(), h[1:, ::2])
    assert_bits(x[wg.asarray(h.real > 5)].numpy(), h[h.real > 5])
    assert_bits(wg.take(x, wg.asarray([3, 0]), axis=0).numpy(), np.take(h, [3, 0], axis=0))
    assert_bits(wg.where(wg.asarray(h.imag > 10), x, 1j).numpy(), np.where(h.imag > 10, h, np.complex64(1j)))
    assert_bits(wg.concat([x, x[::-1]], axis=1).numpy(), np.concatenate([h, h[::-1]], axis=1))
    assert_bits(wg.stack([x, x]).numpy(), np.stack([h, h]))
    assert_bits(wg.reshape(x, (3, 8)).numpy(), h.reshape(3, 8))
    assert_bits(wg.flip(x, axis=1).numpy(), np.flip(h, 1))
    assert_bits(wg.roll(x, 5).numpy(), np.roll(h, 5))
    assert_bits(wg.permute_dims(x, (1, 0)).numpy(), h.T)
    y = wg.asarray(h.copy())
    y[1, 2] = 5 - 5j
    y[0] = wg.asarray(np.full(6, 2j, np.complex64))
    hh = h.copy()
    hh[1, 2] = 5 - 5j
    hh[0] = 2j
    assert_bits(y.numpy(), hh)
    z = np.array([0, 1j, 0, 2, -0.0, NAN], np.complex64)
    np.testing.assert_array_equal(wg.nonzero(wg.asarray(z))[0].numpy(), np.nonzero(z)[0])
    assert int(wg.count_nonzero(wg.asarray(z))) == np.count_nonzero(z)
    assert complex(wg.asarray(np.complex64([1 + 2j]))[0]) == 1 + 2j


UNDEFINED = {
    "less": lambda x: x < x, "greater_equal": lambda x: x >= x, "floor": wg.floor, "ceil": wg.ceil,
    "trunc": wg.trunc, "maximum": lambda x: wg.maximum(x, x), "minimum": lambda x: wg.minimum(x, x),
    "remainder": lambda x: x % x, "floor_divide": lambda x: x // x, "atan2": lambda x: wg.atan2(x, x),
    "bitwise_and": lambda x: x & x, "clip": lambda x: wg.clip(x, 0, 1), "max": wg.max, "argmin": wg.argmin,
    "sort": wg.sort, "argsort": wg.argsort, "signbit": wg.signbit,  # unique_*: defined (tests/api/test_set.py)
    "copysign": lambda x: wg.copysign(x, x), "hypot": lambda x: wg.hypot(x, x),
    "searchsorted": lambda x: wg.searchsorted(x, x), "logaddexp": lambda x: wg.logaddexp(x, x),
}


@pytest.mark.parametrize("name", sorted(UNDEFINED))
def test_undefined_for_complex_is_type_error(name):
    h = np.array([1 + 1j, 2 - 1j], np.complex64)
    x = wg.asarray(h)
    with pytest.raises(TypeError):
        UNDEFINED[name](x)
    assert_bits(x.numpy(), h)  # the operand is intact and the device usable
    assert_bits((x + x).numpy(), h + h)
