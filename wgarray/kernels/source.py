"""WGSL sources (package data under ``wgarray/shaders``) and the per-dtype WGSL vocabulary.

Templates use ``string.Template`` placeholders (``${NAME}``), which never clash with WGSL's braces.  This module
is the one that knows how a wgarray dtype is spelled, loaded, stored and converted in WGSL; the narrowing on
store (int8 wrap-around, float16 rounding) is the device half of the dtype codec.
"""
from __future__ import annotations

import functools
import re
import string
from importlib import resources
from typing import Iterable

from ..dtypes import DType


@functools.lru_cache(maxsize=None)
def load(name: str) -> str:
    return resources.files("wgarray.shaders").joinpath(name).read_text(encoding="utf-8")


def render(name: str, **subs: object) -> str:
    """Fill a template.  A ``HELPERS`` value is pruned to the helper functions the rest of the shader calls."""
    helpers_text = subs.pop("HELPERS", None)
    text = string.Template(load(name)).substitute({k: str(v) for k, v in subs.items()},
                                                  **({"HELPERS": ""} if helpers_text is not None else {}))
    if helpers_text:
        text = _prune(str(helpers_text), text) + "\n" + text
    return text


_UNSIGNED_OF = {"f32": "u32", "f64": "u64"}
_FLOAT_NAME = {"f32": "float32", "f64": "float64"}


# correctly_rounded.wgsl's substitutions a type: f32 the integer-exact division and square root (numerics_exact.wgsl)
# and wg_sqrt1 as the builtin with one Newton step on its fma residual (within an ulp); f64 the builtins
CORRECTLY_ROUNDED = {
    "f32": dict(DIV="wg_div_f32(x, y)", SQRT="wg_sqrt_f32(x)",
                SQRT1="select(sqrt(x), fma(fma(-sqrt(x), sqrt(x), x), 0.5 / sqrt(x), sqrt(x)), "
                      "x >= 1.17549435e-38 && x < 3.0e38)"),
    "f64": dict(DIV="x / y", SQRT="select(sqrt(x), f64(bitcast<f32>(0x7fc00000u)), x < 0.0)", SQRT1="wg_sqrtcr_f64(x)"),
}


@functools.lru_cache(maxsize=None)
def _helpers_for(wgsl_type: str) -> str:
    if wgsl_type in ("f32", "f64"):
        exact = render("correctly_rounded.wgsl", T=wgsl_type, **CORRECTLY_ROUNDED[wgsl_type])
        if wgsl_type == "f32":
            exact = load("numerics_exact.wgsl") + "\n" + exact
        return (exact + "\n" + render("numerics_float.wgsl", T=wgsl_type, U=_UNSIGNED_OF[wgsl_type]) + "\n"
                + render("math_float.wgsl", T=wgsl_type) + "\n"
                + render("nextafter_float.wgsl", T=wgsl_type, U=_UNSIGNED_OF[wgsl_type], I="i" + wgsl_type[1:],
                         D=_FLOAT_NAME[wgsl_type])
                + "\n" + load(f"random_{wgsl_type}.wgsl"))  # random distributions (kernels/random.py)
    if wgsl_type in ("i32", "i64", "u32", "u64"):
        ints = render("numerics_int_pow.wgsl", T=wgsl_type) + "\n" + render(
            f"numerics_{'s' if wgsl_type[0] == 'i' else 'u'}int.wgsl", T=wgsl_type, BITS=wgsl_type[1:])
        if wgsl_type == "u32":  # Philox4x32-10 and integer draws (kernels/random.py)
            ints += "\n" + load("philox.wgsl")
        return ints
    return ""


# integer compute type -> (least value, one past the greatest value) for the exact int/float comparison
_INT_RANGE = {"i32": (-2**31, 2**31), "u32": (0, 2**32), "i64": (-2**63, 2**63), "u64": (0, 2**64)}


@functools.lru_cache(maxsize=None)
def _compare_mixed(i: str, f: str) -> str:
    """``wg_cmp_<I>_<F>`` / ``wg_cmp_<F>_<I>``: the exact order of an integer and a float (compare_mixed.wgsl)."""
    lo, hi = _INT_RANGE[i]
    if i == "u64":  # f64/f32 -> u64 of values >= 2^63 goes through i64 after subtracting 2^63 (exact there)
        toint = (f"select(u64(i64(fl)), u64(i64(fl - {f}(9223372036854775808.0))) + (u64(1) << 63u), "
                 f"fl >= {f}(9223372036854775808.0))")
    else:
        toint = f"{i}(fl)"
    return render("compare_mixed.wgsl", I=i, F=f, LO=f"{float(lo)!r}", HI=f"{float(hi)!r}", TOINT=toint)


_FN = re.compile(r"\bfn\s+(wg_\w+)")
_USE = re.compile(r"\bwg_\w+")


def _prune(text: str, uses: str) -> str:
    """Only the helper functions ``uses`` calls, directly or through other helpers (smaller shaders compile
    faster).  Helper files hold only functions (and comments), split here at each top-level ``fn``."""
    chunks = re.split(r"\n(?=fn\s)", text)
    defined = {}
    for ch in chunks:
        m = _FN.search(ch)
        if m:
            defined.setdefault(m.group(1), []).append(ch)
    keep, todo = set(), set(_USE.findall(uses))
    while todo:
        name = todo.pop()
        if name in keep or name not in defined:
            continue
        keep.add(name)
        for ch in defined[name]:
            todo |= set(_USE.findall(ch))
    return "\n".join(ch for ch in chunks if (m := _FN.search(ch)) and m.group(1) in keep)


def helpers(dtypes: Iterable[DType], uses: str | None = None) -> str:
    """The numerics helper functions for every WGSL type the given dtypes compute in; with ``uses`` (the
    kernel's own text), only those it calls."""
    if uses is not None:
        return _prune(helpers(dtypes), uses)
    types = {"u32", "i32", "f32"}  # always present: index math and conversions use them
    complex_parts = set()
    for d in dtypes:
        w = d.component.wgsl  # a complex dtype computes in its parts' real type, plus the complex helpers
        types.add(w)
        if d.kind == "c":
            complex_parts.add(w)
        if w == "f64":
            types.add("u64")
    parts = [_helpers_for(t) for t in sorted(types)]
    parts += [_compare_mixed(i, f) for i in sorted(types & set(_INT_RANGE)) for f in sorted(types & {"f32", "f64"})]
    parts += [render("complex.wgsl", T=w) for w in sorted(complex_parts)]
    parts.append(load("numerics_f16.wgsl"))
    if "f64" in types:
        parts.append(load("narrow_f64.wgsl"))
    if types & {"i64", "u64"}:
        parts.append(load("random_i64.wgsl"))  # 64-bit integer draws (kernels/random.py)
    # Philox's 32 x 32 -> 64 high word: one native wide multiply where the kernel has 64-bit integers
    parts.append(load("philox_mulhi64.wgsl" if types & {"i64", "u64"} else "philox_mulhi32.wgsl"))
    parts.append(load("nextafter_f16.wgsl"))
    return "\n".join(parts)


# -- per-dtype vocabulary ----------------------------------------------------------------------------------------
def ctype(d: DType) -> str:
    """The WGSL type values of ``d`` are computed in."""
    return "bool" if d.kind == "b" else d.wgsl


def literal(d: DType, value) -> str:
    """A WGSL literal of compute type ``ctype(d)``."""
    t = ctype(d)
    if d.kind == "c":
        z = complex(value)
        return f"{t}({literal(d.component, z.real)}, {literal(d.component, z.imag)})"
    if t == "bool":
        return "true" if value else "false"
    if t == "f32" or t == "f64":
        import math
        v = float(value)
        if math.isnan(v):
            return "bitcast<f32>(0x7fc00000u)" if t == "f32" else "f64(bitcast<f32>(0x7fc00000u))"
        if math.isinf(v):
            inf = "bitcast<f32>(0x7f800000u)" if v > 0 else "bitcast<f32>(0xff800000u)"
            return inf if t == "f32" else f"f64({inf})"
        if v == 0 and math.copysign(1.0, v) < 0:  # -0.0 by its bits (no constant folding to forget the sign)
            return "bitcast<f32>(0x80000000u)" if t == "f32" else "f64(bitcast<f32>(0x80000000u))"
        return f"{t}({v!r})"
    v = int(value)
    if t == "u64" and v >= 1 << 63:
        return f"(~{t}({(1 << 64) - 1 - v}))"
    if t == "i64" and v < -(1 << 62):
        return f"({t}({v + 1}) - {t}(1))"
    return f"{t}({v})"


def load_expr(d: DType, raw: str) -> str:
    """Storage element -> compute value."""
    return f"({raw} != 0u)" if d.kind == "b" else raw


_WRAP = {
    "int8": "((({v}) << 24u) >> 24u)", "int16": "((({v}) << 16u) >> 16u)",
    "uint8": "(({v}) & 0xffu)", "uint16": "(({v}) & 0xffffu)",
    "float16": "wg_round_f16({v})", "bool": "select(0u, 1u, {v})",
}


def store_expr(d: DType, v: str) -> str:
    """Compute value of ``d`` -> storage element, narrowed to ``d``'s width (the device half of the codec)."""
    return _WRAP.get(d.name, "{v}").format(v=v)


def convert(src: DType, dst: DType, v: str) -> str:
    """Compute value of ``src`` -> compute value of ``dst`` (numpy's ``astype`` semantics, unsafe casting).

    Complex: a real value becomes (value, 0) in the parts' type; complex to bool is "not 0+0j"; complex to another
    real dtype keeps the real part (the namespace's astype refuses that cast, as the standard asks; kernels that
    need it, such as abs's result, convert explicitly)."""
    s, t = ctype(src), ctype(dst)
    if src.kind == "c" or dst.kind == "c":
        if src.kind == "c" and dst.kind == "c":
            return v if s == t else f"{t}({v})"
        if dst.kind == "c":
            r = dst.component
            return f"{t}({convert(src, r, v)}, {r.wgsl}(0.0))"
        if dst.kind == "b":
            return f"(!(({v}).x == {src.component.wgsl}(0.0) && ({v}).y == {src.component.wgsl}(0.0)))"
        return convert(src.component, dst, f"({v}).x")
    if dst.kind == "b":
        if src.kind == "b":
            return v
        if src.kind == "f":  # !(v == 0), not v != 0: naga emits an ordered != that is false for NaN
            return f"(!({v} == {s}(0.0)))"
        return f"({v} != {s}(0))"
    if src.kind == "b":
        return f"select({t}(0), {t}(1), {v})"
    if src.kind == "f" and dst.kind == "u":
        # numpy goes through a signed conversion, so negative floats wrap around instead of clamping to 0
        signed = "i64" if t == "u64" else "i32"
        v = f"select({t}({v}), {t}({signed}({v})), {v} < {s}(0.0))"
        return v
    if dst.name == "float16" and src.kind in "iu":
        # an int promoted to float16 is rounded to float16 (int16 2049 -> 2048, 70000 -> inf) before it is used
        return f"wg_round_f16(f32({v}))"
    if s == t:
        return v
    if s == "i32" and t == "i64":
        # sign extension by shifts: on lavapipe an i64(i32) compared with a constant gives wrong answers
        # (i64(-1) < 0 is false), which broke e.g. int32 >> int64 and floor_divide(int8, int64)
        return f"(bitcast<i64>(u64(bitcast<u32>({v})) << 32u) >> 32u)"
    # widening to 64 bits extends by the source's signedness (a direct u64(i32) zero-extends, i64(u32)
    # sign-extends): widen within the source's signedness first, then reinterpret
    if s == "i32" and t == "u64":
        return f"u64(i64({v}))"
    if s == "u32" and t == "i64":
        return f"i64(u64({v}))"
    if s == "f64" and dst.name == "float16":  # to f32 rounded to odd; the float16 store then rounds once, exactly
        return f"wg_f64_to_f32_odd({v})"
    return f"{t}({v})"
