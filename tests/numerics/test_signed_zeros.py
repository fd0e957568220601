"""Zero signs by construction (issue 17: NVIDIA's Vulkan driver folded ``select(0.0, -0.0, c)`` to -0.0, so
``cosh(0+0j)`` gave 1-0j).  WGSL does not promise signed-zero-exact float arithmetic under a driver's optimiser, so
the shaders make every zero whose sign the standard fixes with integer sign-bit operations (``wg_impl_neg``,
``wg_impl_mul_sign``, ``wg_impl_xor_sign``, ``wg_impl_signed_zero`` of numerics_float.wgsl).  This module keeps
negative float zero constants out of the WGSL and checks the signs of underflowing products against numpy (the
special grids of tests/api/test_complex.py check the signed-zero special cases)."""
from __future__ import annotations

import pathlib
import re

import numpy as np
import pytest

import wgarray as wg
from wgarray.kernels import ewtable

PKG = pathlib.Path(wg.__file__).parent
# -0.0 written as a float constant: -0.0, -T(0.0), T(-0.0), -f32(0.0), -${T}(0.0), -{T}(0.0), 0x-0p0 forms
NEG_ZERO = re.compile(r"-\s*0\.0\b|-\s*(?:f32|f64|\$\{T\}|\{T\}|\{R\}|\$\{R\})\(\s*0(?:\.0*)?\s*\)"
                      r"|(?:f32|f64|\$\{T\}|\{T\}|\{R\})\(\s*-\s*0(?:\.0*)?\s*\)")


def _code(text: str) -> str:
    return "\n".join(line.split("//", 1)[0] for line in text.splitlines())


@pytest.mark.parametrize("path", sorted((PKG / "shaders").glob("*.wgsl")), ids=lambda p: p.name)
def test_no_negative_zero_constants_in_shaders(path):
    code = _code(path.read_text())
    hits = [m.group(0) for m in NEG_ZERO.finditer(code)]
    assert not hits, f"{path.name}: {hits}: make signed zeros with wg_impl_signed_zero / wg_impl_neg (sign bits)"


def test_no_negative_zero_constants_in_the_elementwise_table():
    assert ewtable.OPS
    for op in ewtable.OPS.values():
        for expr in op.exprs.values():
            assert not NEG_ZERO.search(expr), (op.name, expr)


def test_the_pattern_sees_what_it_should():
    for bad in ("select(${T}(0.0), -${T}(0.0), c)", "-0.0", "f32(-0.0)", "-{T}(0.0)", "- f64(0)"):
        assert NEG_ZERO.search(bad), bad
    for ok in ("x - 0.5", "1.0 - 0.0625", "f32(0.0)", "a -0.25"):
        assert not NEG_ZERO.search(ok), ok


@pytest.mark.parametrize("name", ["exp", "expm1", "sinh", "cosh", "sin", "cos", "tanh", "tan"])
def test_underflowing_parts_keep_numpys_zero_signs(name):
    """exp(x + iy) for x far below the underflow threshold is 0 cis y: zeros with the signs of cos y and sin y; the
    hyperbolic and circular functions at +-0 real (or imaginary) parts multiply zeros by cos/sin of either sign."""
    for dt in (wg.complex64, wg.complex128):
        if not wg.default_device().supports(dt):
            continue
        x = -200.0 if dt is wg.complex64 else -1000.0
        re = [x, x, x, x, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0]
        im = [1.0, 2.0, -1.0, -2.0, 2.0, 2.0, -3.0, -3.0, 4.0, -4.0]
        if name in ("sin", "cos", "tan"):
            re, im = im, re  # the circular functions are the hyperbolic ones of i z
        z = np.empty(len(re), dt.numpy)
        z.real, z.imag = re, im
        with np.errstate(all="ignore"):
            want = getattr(np, name)(z)
        got = getattr(wg, name)(wg.asarray(z)).numpy()
        for g, w in ((got.real, want.real), (got.imag, want.imag)):
            zero = w == 0
            assert (g[zero] == 0).all() and (np.signbit(g[zero]) == np.signbit(w[zero])).all(), (name, dt, z, got, want)


# np.rint and np.trunc at the values where a driver's WGSL round()/trunc() went wrong (Debian's Mesa 22.3.6-1+deb12u2
# lavapipe on f64: round(1.5) = 1, trunc(-0.5) = +0, fractions kept beyond 2^31; an older one beyond 2^52): zeros'
# signs, subnormals (NVIDIA flushes them in comparisons, not in floor: trunc(-1e-40) was -1 there), ties to even, the
# 2^31 / 2^mantissa boundaries, integers beyond them, inf and NaN.
ROUNDING = [-0.0, 0.0, -1e-40, 1e-40, -5e-324, 5e-324, -0.4, 0.4, -0.5, 0.5, -0.6, 0.6, 1.5, 2.5, -2.5, 3.5, -1e-300,
            0.49999999999999994, 2.0**31 - 0.5, 2.0**31 + 0.5, -(2.0**31) - 0.5, 4294967295.3, 3e9 + 0.5,
            2.0**52 - 0.5, 2.0**52 + 1, 2.0**23 - 0.5, 2.0**23 + 1, 2.0**24 + 2, 1e300, -1e300, np.inf, -np.inf, np.nan]


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("name,ref", [("round", np.rint), ("trunc", np.trunc)])
def test_rounding_exact_with_zero_signs(dt, name, ref):
    if dt in (np.complex64, np.complex128) and name == "trunc":
        pytest.skip("trunc has no complex form")
    x = np.array(ROUNDING, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        if np.dtype(dt).kind == "c":  # both parts rounded alone (1j * inf: nan + inf j, a NaN real part too)
            x = x + 1j * x[::-1]
        x = x.astype(dt)
    try:
        a = wg.asarray(x)
    except TypeError:
        pytest.skip(f"{np.dtype(dt).name} not offered by this device")
    got, want = getattr(wg, name)(a).numpy(), ref(x)
    for part in ((lambda v: v.real, lambda v: v.imag) if np.dtype(dt).kind == "c" else (lambda v: v,)):
        g, w = part(got), part(want)
        assert np.array_equal(g, w, equal_nan=True) and np.array_equal(np.signbit(g), np.signbit(w)), \
            [(v, gi, wi) for v, gi, wi in zip(x, g, w) if not (gi == wi and np.signbit(gi) == np.signbit(wi))
             and not (np.isnan(gi) and np.isnan(wi))]
