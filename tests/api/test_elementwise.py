"""Property tests of every elementwise op (namespace functions and operators), ``where`` and ``astype`` against numpy.

The oracle is numpy applied to the same inputs under wgarray's documented dtype policy (see the preamble of the
project notes), which this file restates independently of ``wgarray.dtypes``:

* promotion follows the Array API table; an int with a float promotes to the float; bool promotes to numbers (numpy);
  uint64 with a signed int has no common type (TypeError);
* Python scalars take the array's dtype (a float scalar next to an int array is float32, a bool scalar takes
  any array's dtype, an int scalar that does not fit the array's int dtype raises OverflowError);
* functions that are only defined on floats (sqrt, exp, divide, ...) compute integer and bool inputs in float32,
  so the oracle is numpy on ``x.astype(np.float32)`` (numpy itself would pick float16/float64);
* floor/ceil/trunc/round of integers are the identity (same dtype), ``reciprocal`` of ints is 1/x in float32
  (numpy's integer reciprocal is integer division): policy, not numpy;
* logical_and/or/xor/not take any dtype by truthiness (NaN is true), as numpy does; integer ``pow`` with a
  negative exponent is a documented deviation (numpy raises) tested on its own.

Exact ops are compared bit for bit (NaN payloads aside; the sign of zero counts).  Transcendental functions are
compared within ``TOL`` on the inputs where wgarray promises that accuracy (``DOMAIN``); outside it only
non-finite and special results are checked.
"""
from __future__ import annotations

import math
import operator
import warnings
import zlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import wgarray as wg
from wgarray.kernels.ewtable import BINARY, UNARY

from strategies import (
    assert_same,
    floor_divide,
    flushes_subnormals,
    ftz,
    nextafter,
    shapes,
    subnormal,
    supported,
    values,
    view_of,
)

np.seterr(all="ignore")  # the oracle divides by zero, overflows and takes logs of negatives on purpose

# -- tolerances ------------------------------------------------------------------------------------------------
# ulps of the expected value in the result dtype.  The transcendental functions are wgarray's own software
# implementations (math_float.wgsl); the largest errors measured against numpy on lavapipe (dense sweeps of the
# whole domain, log-uniform, and all 65536 float16 values) were 3 ulp for float32/float64 (tan: 5 ulp for float32
# beyond |x| = 1e5) and 1 ulp for float16 (computed in float32 and rounded once).  pow is numerics_float.wgsl's.
# Non-finite expected values (and the sign of an exact zero) must match exactly.
_T = dict(float16=1, float32=4, float64=4)
TOL: dict[str, dict[str, float]] = {
    **{name: dict(_T) for name in ("exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "asin",
                                   "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "atan2",
                                   "logaddexp", "pow")},
    "tan": dict(float16=1, float32=6, float64=4),
    "hypot": dict(float16=1, float32=2, float64=2),  # m * sqrt(1 + (n/m)^2): two roundings, measured 2
}

# ill-conditioned where the result is much smaller than the inputs: logaddexp(x, y) = max + log1p(exp(-|x - y|))
# cancels when max < 0 and the result is near 0 (numpy computes it the same way), so its error is bounded by ulps
# of the larger input, not of the result: |err| <= TOL ulp(result) + INPUT_ULPS ulp(max(|x|, |y|)).
INPUT_ULPS: dict[str, float] = {"logaddexp": 2}

# |x| ranges (per dtype) on which TOL is promised; elsewhere only non-finite results are checked.  Everything but
# the trigonometric functions holds over the whole range (subnormals included); sin/cos/tan reduce x modulo pi/2
# with pi/2 to ~4 widths of the dtype, which is exact enough up to these magnitudes (beyond, results stay finite
# and in range but lose accuracy: numpy's libm does a full Payne-Hanek reduction).
_TRIG = {"float16": None, "float32": (0.0, 1e9), "float64": (0.0, 1e22)}
DOMAIN: dict[str, dict | None] = {"sin": _TRIG, "cos": _TRIG, "tan": _TRIG}

# Devices that flush float32 subnormals (strategies.flushes_subnormals: NVIDIA's Vulkan driver) keep these promises
# "except where a subnormal is an input or result of arithmetic" (Device.flushes_subnormals).  Subnormal results
# compare as zeros of their sign (assert_same, assert_close; ftz); subnormal inputs depend on how the op reads them:
# * one float operation (arithmetic, comparison, truthiness) reads them as zeros of their sign: the oracle is numpy
#   on ftz(inputs);
DAZ_OPS = {"add", "subtract", "multiply", "square", "maximum", "minimum", "equal", "not_equal", "less", "less_equal",
           "greater", "greater_equal", "logical_not", "logical_and", "logical_or", "logical_xor"}
# * these read the inputs' bits (sqrt, divide and reciprocal are exact in integer arithmetic; nextafter, copysign,
#   abs, sign, classification) or were measured exact on subnormals (the rounding built-ins): numpy on the inputs;
SUBNORMAL_EXACT = {"sqrt", "reciprocal", "divide", "nextafter", "copysign", "abs", "sign", "isnan", "isinf",
                   "isfinite", "signbit", "floor", "ceil", "trunc", "round"}
# * the others mix tests of the bits with arithmetic that flushes (log tests x for zero, then scales a subnormal x
#   by 2^54, which gives 0), so they compute neither f(x) nor f(0): unchecked where an input, the result or (for
#   remainder and floor_divide) their first step fmod(x, y) is subnormal (see unpromised).


# -- the ops, restated: accepted kinds (of the promoted dtype), result rule, numpy function ---------------------
_ROUNDING = {"floor": np.floor, "ceil": np.ceil, "trunc": np.trunc, "round": np.rint}
SPEC: dict[str, tuple[str, str, object]] = {
    "positive": ("iuf", "same", np.positive), "negative": ("iuf", "same", np.negative),
    "abs": ("iuf", "same", np.abs), "square": ("iuf", "same", np.square), "sign": ("iuf", "same", np.sign),
    **{k: ("iuf", "same", f) for k, f in _ROUNDING.items()},
    "sqrt": ("biuf", "float", np.sqrt), "reciprocal": ("biuf", "float", np.reciprocal),
    "exp": ("biuf", "float", np.exp), "exp2": ("biuf", "float", np.exp2), "expm1": ("biuf", "float", np.expm1),
    "log": ("biuf", "float", np.log), "log2": ("biuf", "float", np.log2), "log10": ("biuf", "float", np.log10),
    "log1p": ("biuf", "float", np.log1p), "sin": ("biuf", "float", np.sin), "cos": ("biuf", "float", np.cos),
    "tan": ("biuf", "float", np.tan), "asin": ("biuf", "float", np.arcsin), "acos": ("biuf", "float", np.arccos),
    "atan": ("biuf", "float", np.arctan), "sinh": ("biuf", "float", np.sinh), "cosh": ("biuf", "float", np.cosh),
    "tanh": ("biuf", "float", np.tanh), "asinh": ("biuf", "float", np.arcsinh),
    "acosh": ("biuf", "float", np.arccosh), "atanh": ("biuf", "float", np.arctanh),
    "isnan": ("biuf", "bool", np.isnan), "isinf": ("biuf", "bool", np.isinf),
    "isfinite": ("biuf", "bool", np.isfinite), "signbit": ("f", "bool", np.signbit),
    "logical_not": ("biuf", "bool", np.logical_not), "bitwise_invert": ("biu", "same", np.invert),
    "real": ("iuf", "same", np.real), "imag": ("iuf", "same", np.imag), "conj": ("iuf", "same", np.conj),
    # binary
    "add": ("biuf", "same", np.add), "subtract": ("iuf", "same", np.subtract),
    "multiply": ("biuf", "same", np.multiply), "divide": ("biuf", "float", np.divide),
    "floor_divide": ("iuf", "same", floor_divide), "remainder": ("iuf", "same", np.remainder),
    "pow": ("iuf", "same", np.power), "maximum": ("iuf", "same", np.maximum),
    "minimum": ("iuf", "same", np.minimum), "atan2": ("biuf", "float", np.arctan2),
    "hypot": ("biuf", "float", np.hypot), "copysign": ("biuf", "float", np.copysign),
    "logaddexp": ("biuf", "float", np.logaddexp), "nextafter": ("biuf", "float", nextafter),
    "equal": ("biuf", "bool", np.equal), "not_equal": ("biuf", "bool", np.not_equal),
    "less": ("biuf", "bool", np.less), "less_equal": ("biuf", "bool", np.less_equal),
    "greater": ("biuf", "bool", np.greater), "greater_equal": ("biuf", "bool", np.greater_equal),
    "logical_and": ("biuf", "bool", np.logical_and), "logical_or": ("biuf", "bool", np.logical_or),
    "logical_xor": ("biuf", "bool", np.logical_xor),
    "bitwise_and": ("biu", "same", np.bitwise_and), "bitwise_or": ("biu", "same", np.bitwise_or),
    "bitwise_xor": ("biu", "same", np.bitwise_xor),
    "bitwise_left_shift": ("iu", "same", np.left_shift), "bitwise_right_shift": ("iu", "same", np.right_shift),
}
LOGICAL = {"logical_not", "logical_and", "logical_or", "logical_xor"}
SUPPORTED = supported()
FLOAT_DTYPES = [d for d in SUPPORTED if d.kind == "f"]


# The per-op hypothesis tests below (one per op or operator, ~130 of them) take half the profile's examples: every
# op's values, dtypes and specials are covered deterministically by the sweeps, so these add layouts, mixed dtypes
# and scalars, and the file stays within a minute on the ci profile.
PER_OP = settings(max_examples=max(10, settings.default.max_examples // 2))


def approximate(name: str, cdt) -> bool:
    """Ops compared within TOL rather than bit for bit."""
    return name in TOL and (name != "pow" or cdt.kind == "f")


# -- the dtype policy, restated ------------------------------------------------------------------------------------
def promote(*dts):
    out = dts[0]
    for d in dts[1:]:
        if d is out:
            continue
        if "b" in (out.kind, d.kind):  # numpy: bool promotes to the other operand's number type
            out = d if out.kind == "b" else out
            continue
        if out.kind == "f" or d.kind == "f":
            fl = [x for x in (out, d) if x.kind == "f"]
            out = max(fl, key=lambda x: x.bits)
        elif out.kind == d.kind:
            out = max((out, d), key=lambda x: x.bits)
        else:
            s, u = (out, d) if out.kind == "i" else (d, out)
            if s.bits > u.bits:
                out = s
            elif u.bits == 64:
                raise TypeError("no signed type holds uint64")
            else:
                out = {8: wg.int16, 16: wg.int32, 32: wg.int64}[u.bits]
    return out


def scalar_dtype(value, partner):
    """dtype of a Python scalar next to arrays of (promoted) dtype ``partner`` (None: no array)."""
    if isinstance(value, bool):
        return wg.bool if partner is None else partner
    if isinstance(value, int):
        return wg.int32 if partner is None or partner.kind == "b" else partner
    return partner if partner is not None and partner.kind == "f" else wg.float32


def plan(name: str, dts):
    """(compute dtype, result dtype) of op ``name`` on operands of dtypes ``dts``; TypeError if undefined."""
    kinds, result, _ = SPEC[name]
    promoted = promote(*dts)
    cdt = wg.float32 if result == "float" and promoted.kind != "f" else promoted
    if cdt.kind not in kinds:
        raise TypeError(f"{name} rejects {promoted}")
    return cdt, (wg.bool if result == "bool" else cdt)


def oracle(name: str, operands, dts) -> np.ndarray:
    """numpy's result of ``name`` on ``operands`` (numpy arrays or Python scalars) of wgarray dtypes ``dts``."""
    cdt, out = plan(name, dts)
    fn = SPEC[name][2]
    conv = np.bool_ if name in LOGICAL else cdt.numpy
    args = [np.asarray(o, dtype=d.numpy) for o, d in zip(operands, dts)]
    if name in DAZ_OPS:
        args = [ftz(a) for a in args]  # what a device that flushes subnormals reads (the identity elsewhere)
    kinds = {d.kind for d in dts}
    if name in _EXACT_CMP and "f" in kinds and kinds & {"i", "u"} and np.finfo(np.longdouble).nmant >= 63:
        # comparisons across kinds are exact (README "dtype policy"): long double holds every int64 / uint64 and
        # float64 value exactly (uint16 65520 >= float16 inf is False, though 65520 rounds to inf in float16)
        conv = np.longdouble
    args = [a.astype(conv) for a in args]
    # signalling NaNs (hypothesis draws them) are quiet NaNs to wgarray (WGSL does not tell them apart), while
    # numpy's C library lets them win where a quiet NaN would lose (hypot(inf, sNaN) is NaN, not inf)
    args = [np.where(np.isnan(a), np.copysign(np.array(np.nan, a.dtype), a), a) if a.dtype.kind == "f" else a
            for a in args]
    if name in _ROUNDING and cdt.kind in "iu":
        res = args[0]
    else:
        res = np.asarray(fn(*args))
    if name in ("maximum", "minimum") and cdt.kind == "f":
        # wgarray's documented choice (numerics_float.wgsl): for equal operands the second is returned, so
        # maximum(-0.0, 0.0) is 0.0 and maximum(0.0, -0.0) is -0.0.  numpy does that for float32/float64 on
        # x86-64 but returns the first operand for float16; the sign of a zero maximum is unspecified there.
        res = np.where(args[0] == args[1], args[1], res)
    assert res.dtype == out.numpy, f"oracle bug: numpy gave {res.dtype} for {name}, policy says {out}"
    return res


# -- comparison ----------------------------------------------------------------------------------------------------
def assert_close(got: np.ndarray, want: np.ndarray, ulps: float, atol: float = 0.0, mask=None, inputs=()):
    """|got - want| <= ulps * spacing(want) (or <= atol) where want is finite; non-finite values must match.

    ``mask`` selects where the tolerance is promised; elsewhere only non-finite expected values are checked."""
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    got, want = ftz(got), ftz(want)  # subnormal results are signed zeros on a flushing device
    g, w = got.astype(np.float64), want.astype(np.float64)
    fin = np.isfinite(w)
    special_ok = np.where(np.isnan(w), np.isnan(g), g == w)
    err = np.abs(g - w)
    bound = np.maximum(ulps * np.spacing(np.abs(want)).astype(np.float64), atol)
    close_ok = np.isfinite(g) & (err <= bound)
    if mask is not None:
        close_ok |= ~np.broadcast_to(mask, got.shape)
    ok = np.where(fin, close_ok, special_ok)
    if not ok.all():
        bad = np.flatnonzero(~ok.reshape(-1))[:6]
        ins = [np.broadcast_to(np.asarray(a), got.shape).reshape(-1) for a in inputs]
        rows = [f"  f({', '.join(repr(a[i]) for a in ins)}) = {got.reshape(-1)[i]!r}, want "
                f"{want.reshape(-1)[i]!r} ({err.reshape(-1)[i] / np.spacing(np.abs(want.reshape(-1)[i])):.3g} ulp)"
                for i in bad]
        raise AssertionError(f"{(~ok).sum()} of {ok.size} outside {ulps} ulp / atol {atol}:\n" + "\n".join(rows))


def _domain(name: str, dtype) -> tuple[float, float] | None:
    dom = DOMAIN.get(name)
    return None if dom is None else dom[np.dtype(dtype).name]


def in_domain(name: str, x: np.ndarray, dtype=None) -> np.ndarray:
    """Where TOL is promised for input ``x`` (computed in ``dtype``, by default x's own float dtype)."""
    x = np.asarray(x)
    a = np.abs(x.astype(np.float64))
    ok = np.isfinite(a)
    dt = dtype if dtype is not None else (x.dtype if x.dtype.kind == "f" else np.float32)
    dom = _domain(name, dt)
    if dom is not None:
        ok &= (a >= dom[0]) & (a <= dom[1])
    return ok


def unpromised(name: str, operands, dts, want: np.ndarray) -> np.ndarray:
    """Where a device that flushes subnormals promises nothing for op ``name`` (see SUBNORMAL_EXACT); all False on
    other devices."""
    out = np.zeros(want.shape, bool)
    if name in DAZ_OPS or name in SUBNORMAL_EXACT:
        return out
    ins = [np.asarray(o, dtype=d.numpy) for o, d in zip(operands, dts)]
    if name in ("remainder", "floor_divide"):
        ins.append(np.fmod(*[a.astype(plan(name, dts)[0].numpy) for a in ins]))
    for a in ins + [want]:
        out |= subnormal(a)
    return out


def check(name: str, got, operands, dts, mask=None):
    """Compare a wgarray result with the oracle: dtype, shape, then bits or TOL."""
    want = oracle(name, operands, dts)
    got_np = got.numpy()
    assert got.dtype is plan(name, dts)[1]
    cdt = plan(name, dts)[0]
    skip = unpromised(name, operands, dts, want)
    if skip.any():  # only on a device that flushes subnormals
        got_np = np.where(skip, want, got_np).astype(got_np.dtype)
    if approximate(name, cdt):
        atol = 0.0
        if name in INPUT_ULPS:
            big = np.maximum(*[np.abs(np.asarray(o, dtype=d.numpy).astype(want.dtype)) for o, d in zip(operands, dts)])
            atol = INPUT_ULPS[name] * np.spacing(np.where(np.isfinite(big), big, 0)).astype(np.float64)
        assert_close(got_np, want, TOL[name][want.dtype.name], atol=atol, mask=mask, inputs=operands)
    else:
        assert_same(got_np, want)


# -- strategies ----------------------------------------------------------------------------------------------------
def accepted(name: str):
    return [d for d in SUPPORTED if _ok(name, d)]


def _ok(name, *dts) -> bool:
    try:
        plan(name, dts)
        return True
    except TypeError:
        return False


def domain_values(name: str, dtype, shape):
    """Values where TOL is promised (log-uniform magnitudes, both signs), mixed with specials."""
    npd = dtype.numpy
    fi = np.finfo(npd)
    dom = _domain(name, npd) or (0, float(fi.max))
    lo = max(dom[0], float(fi.smallest_subnormal))
    hi = min(dom[1], float(fi.max))
    mag = st.floats(math.log2(lo), math.log2(hi)).map(lambda e: min(hi, 2.0 ** min(e, 1023.9)))
    finite = st.builds(lambda m, s: s * m, mag, st.sampled_from([1.0, -1.0]))
    small = st.floats(-4, 4) if (dom[1] >= 4) else st.floats(-dom[1], dom[1])
    elems = st.one_of(finite, small, st.sampled_from([0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan]))
    return hnp.arrays(npd, shape, elements=elems.map(lambda v: np.array(v).astype(npd).item()))


def op_values(name: str, dtype, shape):
    if name in TOL and dtype.kind == "f":
        return domain_values(name, dtype, shape)
    return values(dtype, shape)


def fix_operands(name: str, xs: list[np.ndarray], dts) -> list[np.ndarray]:
    """Restrict inputs where numpy has no defined answer: integer pow with a negative exponent (numpy raises)."""
    if name == "pow" and plan(name, dts)[0].kind in "iu" and dts[1].kind == "i":
        y = xs[1].copy()
        y[y < 0] = ~y[y < 0]
        xs = [xs[0], y]
    return xs


@st.composite
def dtype_pair(draw, name):
    """Two operand dtypes the op accepts together: half the time equal, else any promotable pair."""
    d1 = draw(st.sampled_from(accepted(name)))
    if draw(st.booleans()):
        return d1, d1
    return d1, draw(st.sampled_from([d for d in SUPPORTED if _ok(name, d1, d)]))


# -- coverage of the table -------------------------------------------------------------------------------------------
def test_spec_covers_table():
    assert set(SPEC) == set(UNARY) | set(BINARY)
    assert set(TOL) <= set(SPEC)
    for name in set(UNARY) | set(BINARY) | {"where"}:
        assert callable(getattr(wg, name))


@pytest.mark.parametrize("name", sorted(SPEC))
def test_rejected_dtypes_raise(name):
    """Every dtype the op does not accept raises TypeError (before any kernel is built)."""
    arity = 1 if name in UNARY else 2
    for d in SUPPORTED:
        if not _ok(name, *[d] * arity):
            x = wg.zeros((2,), dtype=d)
            with pytest.raises(TypeError):
                getattr(wg, name)(*[x] * arity)


def test_promotion_table(dev):
    """Result dtypes of mixed-dtype operands (int8 + int16 -> int16, int + float -> the float, ...) and the
    pairs without a common type (uint64 with signed) raising TypeError; bool with a number gives the number."""
    for a in SUPPORTED:
        for b in SUPPORTED:
            x, y = wg.zeros((), dtype=a), wg.ones((), dtype=b)
            try:
                want = promote(a, b)
            except TypeError:
                with pytest.raises(TypeError):
                    wg.equal(x, y)
                with pytest.raises(TypeError):
                    x + y
                continue
            assert wg.equal(x, y).dtype is wg.bool
            if want.kind != "b":
                r = wg.subtract(x, y)
                assert r.dtype is want, (a, b, r.dtype, want)
                assert r.numpy() == np.array(-1).astype(want.numpy)


# -- deterministic sweeps: every accepted dtype, specials and extremes ---------------------------------------------------
def special_values(dtype) -> np.ndarray:
    npd = dtype.numpy
    rng = np.random.default_rng(1234)
    if dtype.kind == "b":
        return np.array([False, True])
    if dtype.kind in "iu":
        info = np.iinfo(npd)
        base = [0, 1, 2, 3, 5, 7, 8, 15, 16, 31, 32, 63, 64, 100, 127, 128, 255, 256, 32767, 65535,
                info.max, info.max - 1, info.max // 2, info.min, info.min + 1, info.min // 2]
        base += [-v for v in base]
        vals = [v for v in base if info.min <= v <= info.max]
        vals += rng.integers(info.min, info.max, 24, dtype=npd, endpoint=True).tolist()
        return np.array(sorted(set(vals)), dtype=npd)
    fi = np.finfo(npd)
    sub = fi.smallest_subnormal
    base = [0.0, 1.0, 0.5, 1.5, 2.5, 3.0, 0.1, 2.0 / 3, 1.0 + float(fi.eps), 1.0 - float(fi.epsneg), 100.0, 1e4,
            float(fi.max), float(fi.tiny), float(sub), float(sub) * 3, float(fi.tiny) - float(sub), 65504.0,
            math.pi, 1e-3, 7.0, 2.0 ** 20 + 0.5, float(2 ** 31), float(2 ** 63)]
    vals = base + [-v for v in base] + [math.inf, -math.inf, math.nan]
    vals += (rng.standard_normal(12) * 10).tolist()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.unique(np.array(vals, dtype=npd))


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_sweep(name):
    """Every accepted dtype, contiguous, with specials, extremes, subnormals and random values."""
    for d in accepted(name):
        x = special_values(d)
        if name in TOL and d.kind == "f":
            x = np.concatenate([x, _dense(name, d, 4000)])
        got = getattr(wg, name)(wg.asarray(x))
        check(name, got, [x], [d], mask=in_domain(name, x) if name in TOL else None)


def _dense(name, d, n) -> np.ndarray:
    """Log-uniform magnitudes over the promised domain, both signs (deterministic)."""
    fi = np.finfo(d.numpy)
    dom = _domain(name, d.numpy) or (0, float(fi.max))
    lo, hi = max(dom[0], float(fi.smallest_subnormal)), min(dom[1], float(fi.max))
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    mag = np.exp2(rng.uniform(np.log2(lo), np.log2(hi), n))
    return (mag * rng.choice([-1.0, 1.0], n)).astype(d.numpy)


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_sweep(name):
    """Every accepted dtype with itself: all pairs of specials/extremes (x varies slowest)."""
    for d in accepted(name):
        if not _ok(name, d, d):
            continue
        s = special_values(d)
        x, y = np.repeat(s, len(s)), np.tile(s, len(s))
        x, y = fix_operands(name, [x, y], [d, d])
        got = getattr(wg, name)(wg.asarray(x), wg.asarray(y))
        mask = None
        if name in TOL:
            mask = in_domain(name, x) & in_domain(name, y)
        check(name, got, [x, y], [d, d], mask=mask)


# -- hypothesis: layouts (0-d, empty, odd, broadcast, strided/negative/transposed views) and mixed dtypes -----------
@pytest.mark.parametrize("name", sorted(UNARY))
@PER_OP
@given(data=st.data())
def test_unary(name, data):
    d = data.draw(st.sampled_from(accepted(name)), label="dtype")
    shape = data.draw(shapes(), label="shape")
    x = data.draw(op_values(name, d, shape), label="x")
    xv, _ = data.draw(view_of(x, d), label="view")
    got = getattr(wg, name)(xv)
    check(name, got, [x], [d], mask=in_domain(name, x) if name in TOL else None)


@pytest.mark.parametrize("name", sorted(BINARY))
@PER_OP
@given(data=st.data())
def test_binary(name, data):
    d1, d2 = data.draw(dtype_pair(name), label="dtypes")
    s1, s2 = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4, max_side=5),
                       label="shapes").input_shapes
    x = data.draw(op_values(name, d1, s1), label="x")
    y = data.draw(op_values(name, d2, s2), label="y")
    x, y = fix_operands(name, [x, y], [d1, d2])
    xv, _ = data.draw(view_of(x, d1), label="xview")
    yv, _ = data.draw(view_of(y, d2), label="yview")
    got = getattr(wg, name)(xv, yv)
    mask = (in_domain(name, x) & in_domain(name, y)) if name in TOL else None
    check(name, got, [x, y], [d1, d2], mask=mask)


# -- Python scalars --------------------------------------------------------------------------------------------------
def int_scalars(dtype):
    """Python ints for an array of ``dtype``: mostly in its range (extremes included), sometimes just outside."""
    if dtype.kind in "iu":
        info = np.iinfo(dtype.numpy)
        lo, hi = int(info.min), int(info.max)
    else:
        lo, hi = -(2 ** 63), 2 ** 63 - 1
    return st.one_of(st.integers(lo, hi), st.sampled_from([lo, hi, 0, 1, -1 if lo < 0 else 2, hi - 1]),
                     st.sampled_from([lo - 1, hi + 1, hi + 2 ** 40, lo - 2 ** 40]))


def py_scalars(dtype):
    return st.one_of(int_scalars(dtype), st.booleans(),
                     st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True),
                     st.sampled_from([0.0, -0.0, 0.5, -2.5, 1e-40, 3e38, 1e300, math.nan, math.inf, -math.inf]))


def _fits(value, dtype) -> bool:
    if isinstance(value, bool) or not isinstance(value, int) or dtype.kind not in "iu":
        return True
    info = np.iinfo(dtype.numpy)
    return info.min <= value <= info.max


_EXACT_CMP = {"equal": operator.eq, "not_equal": operator.ne, "less": operator.lt, "less_equal": operator.le,
              "greater": operator.gt, "greater_equal": operator.ge}


@pytest.mark.parametrize("name", sorted(BINARY))
@PER_OP
@given(data=st.data())
def test_binary_python_scalar(name, data):
    """Array op scalar and scalar op array: the scalar takes the array's dtype (float with int -> float32);
    a bool scalar takes any array's dtype; an int out of the array's range is an OverflowError, except in
    comparisons with an integer array, which compare the scalar's exact value (numpy 2)."""
    d = data.draw(st.sampled_from(SUPPORTED), label="dtype")
    shape = data.draw(shapes(max_dims=2), label="shape")
    x = data.draw(op_values(name, d, shape), label="x")
    s = data.draw(py_scalars(d), label="scalar")
    left = data.draw(st.booleans(), label="scalar on the left")
    xv, _ = data.draw(view_of(x, d), label="view")
    fn = getattr(wg, name)
    call = (lambda: fn(s, xv)) if left else (lambda: fn(xv, s))
    try:
        sd = scalar_dtype(s, d)
        dts = [sd, d] if left else [d, sd]
        plan(name, dts)
    except TypeError:
        with pytest.raises(TypeError):
            call()
        return
    if name in _EXACT_CMP and d.kind in "iu":  # compared by value, exactly (issue 11): Python's own comparison
        py = _EXACT_CMP[name]
        want = np.array([py(s, int(a)) if left else py(int(a), s) for a in x.reshape(-1).tolist()], bool)
        np.testing.assert_array_equal(call().numpy(), want.reshape(x.shape))
        return
    if not _fits(s, sd):
        with pytest.raises(OverflowError):
            call()
        return
    operands = [s, x] if left else [x, s]
    if name == "pow" and plan(name, dts)[0].kind in "iu":
        if left:
            x = np.where(x < 0, ~x, x) if d.kind == "i" else x
            xv = wg.asarray(x, dtype=d)
            operands = [s, x]
        elif s < 0:
            s = ~s
            operands = [x, s]
        call = (lambda: fn(s, xv)) if left else (lambda: fn(xv, s))
    got = call()
    mask = None
    if name in TOL:
        sv = np.asarray(s, dtype=sd.numpy)
        mask = in_domain(name, x) & in_domain(name, sv)
    check(name, got, operands, dts, mask=mask)


@pytest.mark.parametrize("dtype", [d for d in SUPPORTED if d.kind in "iu"], ids=str)
def test_scalar_out_of_range_overflows(dtype):
    info = np.iinfo(dtype.numpy)
    x = wg.asarray(np.array([1, 2], dtype=dtype.numpy))
    for v in (int(info.max) + 1, int(info.min) - 1, 2 ** 64, -(2 ** 64)):
        for call in (lambda: x + v, lambda: v + x, lambda: wg.maximum(x, v), lambda: v * x):
            with pytest.raises(OverflowError):
                call()
        # comparisons answer by value (numpy 2), elementwise
        np.testing.assert_array_equal((x < v).numpy(), [v > 0] * 2)
        with pytest.raises(OverflowError):
            y = x[:1]
            y += v
    # the extremes themselves are fine
    assert_same((x + int(info.max)).numpy(), np.array([1, 2], dtype.numpy) + dtype.numpy.type(info.max))
    assert_same((x * int(info.min)).numpy(), np.array([1, 2], dtype.numpy) * dtype.numpy.type(info.min))


def test_scalar_dtype_policy():
    i8 = wg.asarray(np.array([1, -2], np.int8))
    f16 = wg.asarray(np.array([1, -2], np.float16))
    b = wg.asarray([True, False])
    assert (i8 + 1).dtype is wg.int8
    assert (i8 + 1.5).dtype is wg.float32  # float scalar with an int array: the default float
    assert (f16 + 1).dtype is wg.float16 and (f16 + 1.5).dtype is wg.float16
    assert (b + True).dtype is wg.bool and (b | False).dtype is wg.bool
    assert (b + 1).dtype is wg.int32  # a Python int with a bool array: the default int (numpy's rule)
    assert (i8 + True).dtype is wg.int8  # a Python bool is weak: it takes any number dtype
    assert_same((f16 + 70000).numpy(), np.array([np.inf, np.inf], np.float16))  # the scalar rounds to float16
    assert_same((i8 / 2).numpy(), np.array([0.5, -1.0], np.float32))
    assert (i8 + 1j).dtype is wg.complex64  # a complex scalar: the default complex (as a float scalar: float32)


# -- operators ---------------------------------------------------------------------------------------------------------
BINOPS = {"+": ("add", operator.add, operator.iadd), "-": ("subtract", operator.sub, operator.isub),
          "*": ("multiply", operator.mul, operator.imul), "/": ("divide", operator.truediv, operator.itruediv),
          "//": ("floor_divide", operator.floordiv, operator.ifloordiv),
          "%": ("remainder", operator.mod, operator.imod), "**": ("pow", operator.pow, operator.ipow),
          "&": ("bitwise_and", operator.and_, operator.iand), "|": ("bitwise_or", operator.or_, operator.ior),
          "^": ("bitwise_xor", operator.xor, operator.ixor),
          "<<": ("bitwise_left_shift", operator.lshift, operator.ilshift),
          ">>": ("bitwise_right_shift", operator.rshift, operator.irshift),
          "<": ("less", operator.lt, None), "<=": ("less_equal", operator.le, None),
          ">": ("greater", operator.gt, None), ">=": ("greater_equal", operator.ge, None),
          "==": ("equal", operator.eq, None), "!=": ("not_equal", operator.ne, None)}
UNOPS = {"-": ("negative", operator.neg), "+": ("positive", operator.pos), "abs": ("abs", abs),
         "~": ("bitwise_invert", operator.invert)}


@pytest.mark.parametrize("sym", sorted(BINOPS))
@PER_OP
@given(data=st.data())
def test_binary_operator(sym, data):
    """x op y on arrays (broadcast, views, mixed dtypes) and with a Python scalar on either side (reflected)."""
    name, fn, _ = BINOPS[sym]
    d1, d2 = data.draw(dtype_pair(name), label="dtypes")
    s1, s2 = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=4)).input_shapes
    x = data.draw(op_values(name, d1, s1), label="x")
    y = data.draw(op_values(name, d2, s2), label="y")
    x, y = fix_operands(name, [x, y], [d1, d2])
    xv, _ = data.draw(view_of(x, d1), label="xview")
    yv, _ = data.draw(view_of(y, d2), label="yview")
    mask = (in_domain(name, x) & in_domain(name, y)) if name in TOL else None
    check(name, fn(xv, yv), [x, y], [d1, d2], mask=mask)
    # a Python scalar on the left goes through the reflected method (or the swapped comparison)
    s = data.draw(st.sampled_from([0, 1, 2, 3, 7]) if d2.kind in "iu" else
                  st.sampled_from([True, False]) if d2.kind == "b" else st.sampled_from([0.5, -2.0, 3.0, 0.0]),
                  label="left scalar")
    sd = scalar_dtype(s, d2)
    if _ok(name, sd, d2):
        if name == "pow" and plan(name, [sd, d2])[0].kind in "iu" and d2.kind == "i":
            y = np.where(y < 0, ~y, y)  # no negative integer exponents (numpy raises)
            yv = wg.asarray(y, dtype=d2)
        check(name, fn(s, yv), [s, y], [sd, d2], mask=in_domain(name, y) if name in TOL else None)
    else:
        with pytest.raises(TypeError):
            fn(s, yv)


@pytest.mark.parametrize("sym", sorted(UNOPS))
@PER_OP
@given(data=st.data())
def test_unary_operator(sym, data):
    name, fn = UNOPS[sym]
    d = data.draw(st.sampled_from(SUPPORTED), label="dtype")
    x = data.draw(values(d, data.draw(shapes(max_dims=3))), label="x")
    xv, _ = data.draw(view_of(x, d), label="view")
    if _ok(name, d):
        check(name, fn(xv), [x], [d])
    else:
        with pytest.raises(TypeError):
            fn(xv)


@pytest.mark.parametrize("sym", sorted(s for s in BINOPS if BINOPS[s][2] is not None))
@PER_OP
@given(data=st.data())
def test_inplace_operator_on_view(sym, data):
    """base[view] op= other writes the op's result, cast to the target dtype, into the view only; a result that
    cannot be cast same-kind (a float into an int array, ...) raises TypeError and leaves the base unchanged."""
    name, _, ifn = BINOPS[sym]
    d = data.draw(st.sampled_from(SUPPORTED), label="target dtype")
    shape = data.draw(shapes(min_dims=1, max_dims=3, max_side=5), label="shape")
    base = data.draw(values(d, shape), label="base")
    idx = tuple(data.draw(st.sampled_from([slice(None), slice(None, None, 2), slice(None, None, -1),
                                           slice(1, None)])) for _ in shape)
    target_np = base[idx]
    kind = data.draw(st.sampled_from(["array", "broadcast", "scalar"]), label="other")
    if kind == "scalar":
        other = data.draw(st.sampled_from([0, 1, 3, -2, 0.5, -1.5, True, False]), label="scalar")
        try:
            od = scalar_dtype(other, d)
        except TypeError:
            od = None
    else:
        od = data.draw(st.sampled_from(SUPPORTED), label="other dtype")
        oshape = target_np.shape if kind == "array" else target_np.shape[target_np.ndim // 2:]
        other = data.draw(values(od, oshape), label="other values")
    a = wg.asarray(base)
    view = a[idx]
    if od is not None and kind == "scalar" and not _fits(other, d):
        with pytest.raises(OverflowError):
            ifn(view, other)
        return
    if od is None or not _ok(name, d, od) or not np.can_cast(plan(name, [d, od])[1].numpy, d.numpy, "same_kind"):
        other_wg = other if kind == "scalar" else wg.asarray(other, dtype=od)
        with pytest.raises(TypeError):
            ifn(view, other_wg)
        assert_same(a.numpy(), base)
        return
    cdt = plan(name, [d, od])[0]
    if name == "pow" and cdt.kind in "iu" and od.kind == "i":
        if kind == "scalar":
            if other < 0:
                return  # negative integer exponents: see test_int_pow_negative_exponent
        else:
            other = np.where(other < 0, ~other, other)
    other_wg = other if kind == "scalar" else data.draw(view_of(other, od), label="other view")[0]
    res = ifn(view, other_wg)
    assert res is view
    want, got = base.copy(), a.numpy().copy()
    ref = oracle(name, [target_np, other], [d, od])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want[idx] = ref.astype(d.numpy)
    got[idx] = np.where(unpromised(name, [target_np, other], [d, od], ref), want[idx], got[idx])
    if approximate(name, cdt):
        assert_close(got, want, TOL[name][d.name])
    else:
        assert_same(got, want)


def test_inplace_errors():
    x = wg.asarray(np.arange(6, dtype=np.int32).reshape(2, 3))
    with pytest.raises(TypeError):
        x += 1.5  # float result into an int array
    with pytest.raises(TypeError):
        x /= 2  # divide always gives a float
    with pytest.raises(ValueError):
        x[0] += x  # the result (2, 3) does not fit the target (3,)
    assert_same(x.numpy(), np.arange(6, dtype=np.int32).reshape(2, 3))
    # overlapping operands behave like numpy (the right-hand side is read before it is written)
    y = wg.asarray(np.arange(6, dtype=np.int32))
    y[1:] += y[:-1]
    want = np.arange(6, dtype=np.int32)
    want[1:] += want[:-1].copy()
    assert_same(y.numpy(), want)


# -- where -----------------------------------------------------------------------------------------------------------
@given(data=st.data())
def test_where(data):
    """where(cond, x1, x2): cond broadcast with both (which may be views, scalars, or of different dtypes)."""
    d1, d2 = data.draw(dtype_pair("equal"), label="dtypes")
    sc, s1, s2 = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=4, max_side=5)).input_shapes
    c = data.draw(values(wg.bool, sc), label="cond")
    x = data.draw(values(d1, s1), label="x1")
    y = data.draw(values(d2, s2), label="x2")
    cv, _ = data.draw(view_of(c, wg.bool), label="cview")
    xv, _ = data.draw(view_of(x, d1), label="xview")
    yv, _ = data.draw(view_of(y, d2), label="yview")
    if data.draw(st.booleans(), label="scalar x2"):
        y = data.draw(st.sampled_from([0, 1, 7]) if d1.kind in "iu" else st.sampled_from([False, True])
                      if d1.kind == "b" else st.sampled_from([0.5, -0.0, math.inf, math.nan]), label="x2 scalar")
        yv = y
        d2 = scalar_dtype(y, d1)
    got = wg.where(cv, xv, yv)
    dt = promote(d1, d2)
    assert got.dtype is dt
    want = np.where(c, np.asarray(x, dtype=d1.numpy).astype(dt.numpy), np.asarray(y, dtype=d2.numpy).astype(dt.numpy))
    assert_same(got.numpy(), want)


def test_where_errors():
    x = wg.asarray(np.arange(4, dtype=np.int32))
    with pytest.raises(TypeError):
        wg.where(x, x, x)  # the condition must be bool
    assert wg.where(x > 1, x, wg.asarray([True, False, True, False])).dtype is wg.int32  # bool promotes
    with pytest.raises(ValueError):
        wg.where(x > 1, x, wg.zeros((3,), dtype=wg.int32))
    assert_same(wg.where(x > 1, x, 1.5).numpy(), np.array([1.5, 1.5, 2, 3], np.float32))
    assert_same(wg.where(x > 1, 0, x).numpy(), np.array([0, 1, 0, 0], np.int32))


def test_where_python_bool_condition():
    x = wg.asarray(np.arange(3, dtype=np.int16))
    assert_same(wg.where(True, x, 5).numpy(), np.arange(3, dtype=np.int16))
    assert_same(wg.where(False, x, 5).numpy(), np.full(3, 5, np.int16))


# -- integer edge cases, named -------------------------------------------------------------------------------------
INT_DTYPES = [d for d in SUPPORTED if d.kind in "iu"]


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=str)
def test_int_division_edge_cases(dtype):
    """// and % by zero give 0; INT_MIN // -1 wraps to INT_MIN and INT_MIN % -1 is 0; floor rounding of signs."""
    info = np.iinfo(dtype.numpy)
    xs = [0, 1, 7, int(info.max), int(info.min)] + ([-1, -7] if dtype.kind == "i" else [])
    ys = [0, 1, 2, 3, int(info.max)] + ([-1, -2, -3, int(info.min)] if dtype.kind == "i" else [])
    x = np.array([a for a in xs for _ in ys], dtype.numpy)
    y = np.array([b for _ in xs for b in ys], dtype.numpy)
    xw, yw = wg.asarray(x), wg.asarray(y)
    assert_same((xw // yw).numpy(), np.floor_divide(x, y))
    assert_same((xw % yw).numpy(), np.remainder(x, y))
    assert ((xw // 0).numpy() == 0).all() and ((xw % 0).numpy() == 0).all()
    if dtype.kind == "i":
        m = wg.asarray(np.array([info.min], dtype.numpy))
        assert_same((m // -1).numpy(), np.array([info.min], dtype.numpy))
        assert_same((m % -1).numpy(), np.array([0], dtype.numpy))
        assert_same(abs(m).numpy(), np.array([info.min], dtype.numpy))  # abs(INT_MIN) wraps, like numpy
        assert_same((-m).numpy(), np.array([info.min], dtype.numpy))


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=str)
def test_int_shifts_out_of_range(dtype):
    """Shift counts >= the bit width (of the logical dtype) or negative give 0 (-1 for >> of negatives)."""
    bits = dtype.bits
    info = np.iinfo(dtype.numpy)
    counts = [0, 1, bits - 1, bits, bits + 1, 31, 32, 33, 63, 64, 65, 100]
    counts = [c for c in counts if c <= info.max] + ([-1, -bits, int(info.min)] if dtype.kind == "i" else [])
    xs = [0, 1, 5, int(info.max)] + ([-1, -5, int(info.min)] if dtype.kind == "i" else [])
    x = np.array([a for a in xs for _ in counts], dtype.numpy)
    c = np.array([b for _ in xs for b in counts], dtype.numpy)
    assert_same((wg.asarray(x) << wg.asarray(c)).numpy(), np.left_shift(x, c))
    assert_same((wg.asarray(x) >> wg.asarray(c)).numpy(), np.right_shift(x, c))


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=str)
def test_int_wraparound(dtype):
    info = np.iinfo(dtype.numpy)
    x = np.array([info.max, info.min, info.max // 2 + 1], dtype.numpy)
    xw = wg.asarray(x)
    assert_same((xw + 1).numpy(), x + dtype.numpy.type(1))
    assert_same((xw * 3).numpy(), x * dtype.numpy.type(3))
    assert_same((xw - xw - 1).numpy(), x - x - dtype.numpy.type(1))
    assert_same(wg.square(xw).numpy(), np.square(x))
    assert_same((xw ** 3).numpy(), x ** dtype.numpy.type(3))
    assert_same((-xw).numpy(), -x)


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=str)
def test_int_pow(dtype):
    """Exact, wrapping, for non-negative exponents (0 ** 0 == 1)."""
    info = np.iinfo(dtype.numpy)
    base = np.array([0, 1, 2, 3, 7, 10, int(info.max)] + ([-1, -2, -3, int(info.min)] if dtype.kind == "i" else []),
                    dtype.numpy)
    exps = np.array([0, 1, 2, 3, 7, 8, 15, 16, 31, 33, 64, 100, int(info.max)], dtype=dtype.numpy)
    x, y = np.repeat(base, len(exps)), np.tile(exps, len(base))
    assert_same((wg.asarray(x) ** wg.asarray(y)).numpy(), np.power(x, y))


@pytest.mark.parametrize("dtype", [d for d in INT_DTYPES if d.kind == "i"], ids=str)
def test_int_pow_negative_exponent(dtype):
    """Documented deviation (numpy raises): 1 ** -n == 1, (-1) ** -n == +-1, other bases give 0."""
    x = np.array([1, -1, -1, 2, -3, 0, 5], dtype.numpy)
    y = np.array([-1, -1, -2, -1, -3, -1, -100], dtype.numpy)
    assert_same((wg.asarray(x) ** wg.asarray(y)).numpy(), np.array([1, -1, 1, 0, 0, 0, 0], dtype.numpy))


@pytest.mark.parametrize("small", [d for d in INT_DTYPES if d.bits <= 32], ids=str)
def test_narrow_ints_with_int64(small):
    """Narrow ints promoted to int64/uint64 keep their sign in comparisons with constants inside the helpers
    (regression: lavapipe got i64(i32(-1)) < 0 wrong, so int32 >> int64 and floor_divide(int8, int64) failed)."""
    wide = wg.uint64 if small.kind == "u" else wg.int64
    info = np.iinfo(small.numpy)
    x = np.array([int(info.min), -5 if small.kind == "i" else 5, -1 if small.kind == "i" else 1, 0, 7,
                  int(info.max)], small.numpy)
    y = np.array([-1, 70, 1, 3, -2, 2] if wide is wg.int64 else [1, 70, 1, 3, 2, 2], wide.numpy)
    for name in ("bitwise_right_shift", "bitwise_left_shift", "floor_divide", "remainder", "maximum", "minimum",
                 "less", "greater_equal", "sign", "abs"):
        if name in ("sign", "abs"):
            check(name, getattr(wg, name)(wg.asarray(x).astype(wide)), [x.astype(wide.numpy)], [wide])
        else:
            check(name, getattr(wg, name)(wg.asarray(x), wg.asarray(y)), [x, y], [small, wide])
    assert_same(wg.asarray(x).astype(wide).numpy(), x.astype(wide.numpy))


# -- float special values, named ------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=str)
def test_float_nan_semantics(dtype):
    """NaN compares unequal to everything (!= is True), is truthy, propagates through min/max and arithmetic."""
    n = dtype.numpy
    x = np.array([np.nan, 1.0, np.nan, -0.0, 0.0, np.inf], n)
    y = np.array([np.nan, np.nan, 1.0, 0.0, -0.0, np.inf], n)
    xw, yw = wg.asarray(x), wg.asarray(y)
    for name in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "maximum", "minimum",
                 "add", "multiply", "logical_and", "logical_or", "logical_xor", "copysign"):
        check(name, getattr(wg, name)(xw, yw), [x, y], [dtype, dtype])
    for name in ("logical_not", "sign", "abs", "isnan", "signbit", "negative", "sqrt", "floor", "round"):
        check(name, getattr(wg, name)(xw), [x], [dtype])
    assert_same(xw.astype(wg.bool).numpy(), x.astype(bool))


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "sqrt", "floor_divide", "remainder"])
def test_float_subnormals_exact(name):
    """Arithmetic on subnormal float32/float64 inputs and results is exact (no flush to zero).  Where the device
    flushes float32 subnormals, float32 is checked only for the ops in SUBNORMAL_EXACT."""
    for d in FLOAT_DTYPES:
        if d is wg.float32 and flushes_subnormals() and name not in SUBNORMAL_EXACT:
            continue
        fi = np.finfo(d.numpy)
        s = np.array([fi.smallest_subnormal, fi.smallest_subnormal * 3, fi.tiny / 2, fi.tiny, fi.tiny * 1.5,
                      -fi.smallest_subnormal, 0.5, 2.0, -0.75], d.numpy)
        if name == "sqrt":
            check(name, wg.sqrt(wg.asarray(np.abs(s))), [np.abs(s)], [d])
            continue
        x, y = np.repeat(s, len(s)), np.tile(s, len(s))
        check(name, getattr(wg, name)(wg.asarray(x), wg.asarray(y)), [x, y], [d, d])


def test_float16_exhaustive_unary():
    """All 65536 float16 bit patterns through the exact unary ops and the transcendental ones (within TOL)."""
    x = np.arange(65536, dtype=np.uint16).view(np.float16)
    xw = wg.asarray(x)
    for name in UNARY:
        if not _ok(name, wg.float16):
            continue
        check(name, getattr(wg, name)(xw), [x], [wg.float16], mask=in_domain(name, x) if name in TOL else None)


def test_mixed_int_float16_rounds_the_int():
    """int with float16 promotes to float16: the int is rounded to float16 first (2049 -> 2048, 70000 -> inf),
    except in comparisons, which are exact."""
    i = np.array([2049, 70000, 32767, -2049, 3], np.int32)
    h = np.array([0.5, -50000, 0, -0.5, 0.25], np.float16)
    for name in ("add", "subtract", "multiply", "divide", "maximum", "atan2"):
        check(name, getattr(wg, name)(wg.asarray(i), wg.asarray(h)), [i, h], [wg.int32, wg.float16])
    # comparisons do not round: they are exact across kinds (issue 11), so int16 2049 != float16 2048
    i16 = np.array([2049, -32768], np.int16)
    got = wg.equal(wg.asarray(i16), wg.asarray(np.array([2048, -32768], np.float16)))
    np.testing.assert_array_equal(got.numpy(), [False, True])


def test_subnormal_inputs_transcendental():
    """Subnormal inputs give values within TOL (the WGSL built-ins flush them on lavapipe: log(1e-40) was -88).
    Not for float32 on a device whose arithmetic flushes float32 subnormals (see SUBNORMAL_EXACT)."""
    for d in FLOAT_DTYPES:
        if d is wg.float32 and flushes_subnormals():
            continue
        fi = np.finfo(d.numpy)
        x = np.array([fi.smallest_subnormal, fi.smallest_subnormal * 7, fi.tiny / 3, fi.tiny * 0.99], d.numpy)
        x = np.concatenate([x, -x])
        for name in UNARY:
            if name in TOL:
                check(name, getattr(wg, name)(wg.asarray(x)), [x], [d])


# -- astype ------------------------------------------------------------------------------------------------------------
def castable_values(src, dst, shape):
    """Values of ``src`` whose conversion to ``dst`` is defined (float -> int only in range, NaN excluded)."""
    if src.kind == "f" and dst.kind in "iu":
        info = np.iinfo(dst.numpy)
        fmax = float(np.finfo(src.numpy).max)
        lo, hi = max(float(info.min), -fmax), min(float(info.max), fmax)
        # keep away from the top of the range where the bound itself rounds up in src (2**63 - 1 -> 2**63)
        hi = float(np.nextafter(np.array(hi, src.numpy), np.array(0, src.numpy))) if float(
            np.array(hi, src.numpy)) > info.max else hi
        elems = st.floats(lo, hi, width=src.numpy.itemsize * 8, allow_subnormal=True)
        return hnp.arrays(src.numpy, shape, elements=elems)
    return values(src, shape)


@given(data=st.data())
def test_astype_all_pairs(data):
    src = data.draw(st.sampled_from(SUPPORTED), label="src")
    dst = data.draw(st.sampled_from(SUPPORTED), label="dst")
    shape = data.draw(shapes(), label="shape")
    x = data.draw(castable_values(src, dst, shape), label="x")
    xv, _ = data.draw(view_of(x, src), label="view")
    got = xv.astype(dst)
    assert got.dtype is dst
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same(got.numpy(), ftz(x).astype(dst.numpy))  # a flushing device converts subnormals as zeros


@pytest.mark.parametrize("src", SUPPORTED, ids=str)
def test_astype_sweep(src):
    """Every destination dtype from the specials/extremes of ``src`` (float -> int only for in-range values)."""
    x = special_values(src)
    xw = wg.asarray(x)
    for dst in SUPPORTED:
        xs = x
        if src.kind == "f" and dst.kind in "iu":
            info = np.iinfo(dst.numpy)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                xs = x[np.isfinite(x) & (x.astype(np.float64) > float(info.min) - 1) &
                       (x.astype(np.float64) < float(info.max) + 1)]
                xs = xs[xs.astype(np.float64) < 2.0 ** (dst.bits - (dst.kind == "i"))]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert_same(wg.asarray(xs).astype(dst).numpy(), ftz(xs).astype(dst.numpy))
    assert_same(xw.astype(wg.bool).numpy(), ftz(x).astype(bool))  # a flushing device reads subnormals as zeros


def test_astype_float64_to_float16_rounds_once():
    """float64 -> float16 is rounded once (numpy), not via float32 (double rounding)."""
    x = np.array([1 + 2 ** -11 + 2 ** -40, -(1 + 2 ** -11 + 2 ** -40), 2049 + 2 ** -30, 65519.99999999,
                  2.0 ** -25 + 2.0 ** -60, 6.0e-8 * (1 + 2 ** -30)], np.float64)
    assert_same(wg.asarray(x).astype(wg.float16).numpy(), x.astype(np.float16))


def test_astype_copy_semantics():
    x = wg.asarray(np.arange(5, dtype=np.int16))
    assert x.astype(wg.int16, copy=False) is x
    y = x.astype(wg.int16)
    assert y is not x
    y[0] = 100
    assert x.numpy()[0] == 0
    assert wg.astype(x, wg.float32).dtype is wg.float32


# -- grids past 65535 workgroups -------------------------------------------------------------------------------------
def test_more_than_65535_workgroups(dev):
    """17M elements (> 65535 * 256): the grid is folded into 2-D; every element (the last ones included) is
    computed once, contiguous and through a negative-step view."""
    n = 65535 * 256 + 4099
    assert math.ceil(n / 256) > dev.properties.limits.max_compute_workgroups_per_dimension
    rng = np.random.default_rng(7)
    x = rng.integers(-128, 128, n, dtype=np.int8)
    y = rng.integers(-128, 128, n, dtype=np.int8)
    xw, yw = wg.asarray(x), wg.asarray(y)
    assert_same((xw + yw).numpy(), x + y)
    b = (xw[::-1] < yw)
    assert_same(b.numpy(), x[::-1] < y)
    del xw, yw, b
