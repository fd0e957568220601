"""Issue 11, item 6: sin, cos and tan within the README's ulp bounds for every finite argument, both precisions.

Arguments of 2^20 (float32) / 2^32 (float64) and beyond are reduced by Payne-Hanek (math_float.wgsl); the oracle
here is an exact reduction with Python integers (pi to 3000 bits) and fixed-point Taylor series, correctly rounded,
because the host's libm is itself off by 8 ulp at the classic worst case (cos(6381956970095103 * 2^797)).
"""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, strategies as st

import wgarray as wg

# README "Numerics" / the TOL table of tests/test_elementwise.py: ulps of the expected value
ULPS = {"sin": {"float32": 4, "float64": 4}, "cos": {"float32": 4, "float64": 4},
        "tan": {"float32": 6, "float64": 4}}

_PREC = 3000  # pi to 3000 bits: k pi/2 for |x| up to 2^1024 keeps ~1900 exact bits after the point
_F = 320  # fixed-point bits of the reduced argument


def _pi_scaled() -> int:
    one = 1 << _PREC

    def arctan_inv(n: int) -> int:
        total, term, k, sign = 0, one // n, 1, 1
        while term:
            total += sign * (term // k)
            term //= n * n
            k += 2
            sign = -sign
        return total
    return 4 * (4 * arctan_inv(5) - arctan_inv(239))


_PI = _pi_scaled()  # floor(pi 2^_PREC), within a few units


def _exact(name: str, x: float) -> float:
    """f(x) correctly rounded to float64 (x finite and |x| >= 2^-60)."""
    q = Fraction(x)
    num = q.numerator << _PREC
    half_pi = _PI // 2
    k = (2 * num // q.denominator + half_pi) // (2 * half_pi)  # round(x / (pi/2))
    r = Fraction(num, q.denominator) - k * half_pi  # x - k pi/2, in units of 2^-_PREC
    rf = int(r * (1 << _F) / (1 << _PREC))  # |r| <= pi/4, to 2^-_F
    one = 1 << _F
    r2 = rf * rf >> _F
    s, t, n = 0, rf, 1
    while t:
        s += t
        t = -t * r2 // ((n + 1) * (n + 2)) >> _F
        n += 2
    c, t, n = 0, one, 0
    while t:
        c += t
        t = -t * r2 // ((n + 1) * (n + 2)) >> _F
        n += 2
    sin, cos = [(s, c), (c, -s), (-s, -c), (-c, s)][k % 4]
    if name == "sin":
        return float(Fraction(sin, one))
    if name == "cos":
        return float(Fraction(cos, one))
    return float(Fraction(sin, cos))


def _oracle(name: str, xs: np.ndarray) -> np.ndarray:
    out = np.empty(xs.shape, np.float64)
    for i, x in enumerate(xs.astype(np.float64)):
        out[i] = _exact(name, float(x)) if np.isfinite(x) and abs(x) >= 2.0 ** -60 else getattr(np, name)(x)
    with np.errstate(over="ignore"):
        return out.astype(xs.dtype)  # float32: the float64 result rounded once more (within 0.5 + 2^-29 ulp)


def _check(name: str, xs: np.ndarray) -> None:
    got = getattr(wg, name)(wg.asarray(xs)).numpy()
    want = _oracle(name, xs)
    assert got.dtype == xs.dtype
    fin = np.isfinite(xs)
    assert np.isnan(got[~fin]).all()
    g, w = got[fin].astype(np.float64), want[fin].astype(np.float64)
    ulps = np.abs(g - w) / np.spacing(np.abs(want[fin])).astype(np.float64)
    tol = ULPS[name][xs.dtype.name]
    bad = np.flatnonzero(ulps > tol)
    assert not bad.size, [(float(xs[fin][i]), float(g[i]), float(w[i]), float(ulps[i])) for i in bad[:5]]


# bit patterns of the hardest reductions: float64's closest approach to a multiple of pi/2 (6381956970095103 * 2^797,
# |x - k pi/2| ~ 2^-61), 1e22, the two values of the issue, the largest float; float32's largest and 1e22
_HARD64 = [6381956970095103 * 2.0 ** 797, -6381956970095103 * 2.0 ** 797, 1e22, 4.676982676478407e+153, 1.1579e77,
           1.7976931348623157e308, 2.0 ** 1023, 5.319372648326541e+255, 2.0 ** 32, 2.0 ** 32 - 1, 1e9, 3e300]
_HARD32 = [3.4028234663852886e38, 1e22, 2.0 ** 20, 16777216.0, 1e30, 2.0 ** 127, 1.5e10, -3e37, 8.0e18]

# correctly rounded values (float.hex), pinned so a broken oracle shows: sin(1e22) = -0.8522008497671888017727...
# and cos(6381956970095103 * 2^797) = -4.68716592425462761e-19 as published (Muller, Elementary Functions)
_TABLE64 = {
    ("sin", 4.676982676478407e+153): "0x1.c89ee410b1a8bp-1",
    ("tan", 1.1579e77): "0x1.0da87ff07124bp+0",
    ("cos", 6381956970095103 * 2.0 ** 797): "-0x1.14ae72e6ba22fp-61",
    ("sin", 1e22): "-0x1.b453ab76bf397p-1",
}


def test_the_table_is_the_exact_value():
    for (name, x), hexval in _TABLE64.items():
        assert _exact(name, x) == float.fromhex(hexval), (name, x)


@pytest.mark.parametrize("name", ["sin", "cos", "tan"])
def test_hard_cases(name):
    if wg.default_device().supports(wg.float64):
        _check(name, np.array(_HARD64, np.float64))
        for (n, x), hexval in _TABLE64.items():
            if n == name:
                got = float(getattr(wg, name)(wg.asarray(np.array([x])))[0])
                assert abs(got - float.fromhex(hexval)) <= ULPS[name]["float64"] * np.spacing(abs(got)), (x, got)
    _check(name, np.array(_HARD32, np.float32))


def _near_multiples(k: int, dtype) -> float:
    """The float nearest k pi/2: where a reduction cancels most."""
    v = float(Fraction(k * (_PI // 2), 1 << _PREC))
    return float(np.asarray(v, dtype))


def _bits(dtype, ubits: int):
    """Finite and non-finite floats of ``dtype`` from uniform bit patterns: every exponent equally likely."""
    return st.integers(0, 2 ** ubits - 1).map(lambda u: float(np.array(u, f"u{ubits // 8}").view(dtype)))


_F64 = _bits(np.float64, 64) | st.floats(min_value=2.0 ** 20, max_value=1.7976931348623157e308) | st.sampled_from(
    [0.0, -0.0, np.inf, -np.inf, np.nan, 1.7976931348623157e308, 5e-324, 2.0 ** 32])
_F32 = _bits(np.float32, 32) | st.floats(min_value=2.0 ** 14, max_value=3.4028234663852886e38, width=32) | \
    st.sampled_from([0.0, -0.0, np.inf, -np.inf, np.nan, 3.4028234663852886e38, 1e-45, 2.0 ** 20])


@pytest.mark.parametrize("name", ["sin", "cos", "tan"])
@given(xs=st.lists(_F64, min_size=1, max_size=8), ks=st.lists(st.integers(1, 2 ** 1000), max_size=4),
       neg=st.booleans())
def test_float64_all_finite_arguments(name, xs, ks, neg):
    if not wg.default_device().supports(wg.float64):
        pytest.skip("no float64")
    arr = np.array(xs + [_near_multiples(k, np.float64) for k in ks], np.float64)
    _check(name, -arr if neg else arr)


@pytest.mark.parametrize("name", ["sin", "cos", "tan"])
@given(xs=st.lists(_F32, min_size=1, max_size=8), ks=st.lists(st.integers(1, 2 ** 127), max_size=4),
       neg=st.booleans())
def test_float32_all_finite_arguments(name, xs, ks, neg):
    arr = np.array(xs + [_near_multiples(k, np.float32) for k in ks], np.float32)
    _check(name, -arr if neg else arr)
