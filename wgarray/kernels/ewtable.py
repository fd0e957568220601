"""Elementwise operations as a table: name -> accepted kinds, result rule, WGSL expression per kind.

Expressions are WGSL templates over the operands ``{x}``, ``{y}``, ``{z}``, the compute type ``{T}``, the compute
dtype's name ``{D}`` (for ops that depend on the logical width, e.g. float16 computed in f32), the compute types
of the first and second operand ``{X}``, ``{Y}`` (for kind ``m``, mixed) and the flat output index ``{i}``;
``{R}`` is the real type of one part of a complex compute type (``f32`` for ``vec2<f32>``; the same as ``{T}`` for
real types).  One generic kernel (``elementwise.wgsl``) evaluates any of them; later fusion can compose them
because they are expressions, not kernels.  Kinds: b bool, i signed, u unsigned, f float, m an integer against a
float (exact comparisons), c complex (``vec2`` values; the helpers are ``shaders/complex.wgsl``).  An op without a
``c`` entry is undefined for complex input (ordering, floor, maximum, remainder, bitwise, atan2, ...) and raises
TypeError, as the standard and numpy do.

A ``condition`` op (``where``) takes a bool first operand that plays no part in promotion: a Python scalar
there is bool on its own, and an array there must be bool.

Result rules: ``same`` (the promoted dtype), ``bool``, ``float`` (integers promote to the default float, as
functions that are only defined on floats do in array libraries that lack float64 by default).  ``real`` marks
ops whose complex result is real (abs, real, imag: float32 for complex64).
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class EwOp:
    name: str
    arity: int
    result: str  # "same" | "bool" | "float"
    exprs: dict[str, str] = field(hash=False)  # kind -> template; the keys are the accepted kinds
    compute: str = "promoted"  # "promoted" | "bool": what the inputs are converted to before the expression
    condition: bool = False  # the first operand is a bool condition, outside promotion (where)
    real: bool = False  # for complex input the result is the real dtype of its parts (abs, real, imag)
    # False for expressions too heavy to repeat for 4 lanes a thread (compile time grows 4x, nothing is shared)
    vectorize: bool = True
    # kind -> an expression of the four consecutive elements 4{i} .. 4{i} + 3 as one vec4, {i} the thread's vec4
    # index: used in vec4 mode instead of four lane expressions (random draws: one Philox block gives 4 values).
    # Only for ops without array operands whose value is stored as computed (elementwise.py checks both).
    block: dict[str, str] | None = field(default=None, hash=False)
    # user kernels (api/user_kernels.py): results > 1 gives a struct with members o0, o1, ... (one per output);
    # ``code`` is WGSL placed whole in the shader (the function a user kernel's expression calls, its aliases)
    results: int = 1
    code: str = field(default="", hash=False)

    @property
    def kinds(self) -> str:
        return "".join(k for k in self.exprs if k != "m")  # "m" (mixed int/float operands) is not an input kind


def _f(expr: str) -> dict[str, str]:
    return {"f": expr}


def _c(name: str, arity: int = 1) -> dict[str, str]:
    """The complex entry calling ``wg_c<name>_{R}`` of complex.wgsl on the operands."""
    return {"c": f"wg_c{name}_{{R}}({', '.join('{' + v + '}' for v in 'xyz'[:arity])})"}


def _iuf(i: str, u: str | None = None, f: str | None = None) -> dict[str, str]:
    return {"i": i, "u": i if u is None else u, "f": i if f is None else f}


NAN = "{T}(bitcast<f32>(0x7fc00000u))"
INF = "{T}(bitcast<f32>(0x7f800000u))"

_UNARY: list[EwOp] = [
    EwOp("positive", 1, "same", {**_iuf("{x}"), "c": "{x}"}),
    EwOp("negative", 1, "same", {**_iuf("-{x}", "({T}(0) - {x})"), "c": "-{x}"}),
    EwOp("abs", 1, "same", {**_iuf("wg_abs_{T}({x})", "{x}"), **_c("abs")}, real=True),
    EwOp("square", 1, "same", {**_iuf("{x} * {x}"), "c": "wg_cmul_{R}({x}, {x})"}),
    EwOp("sign", 1, "same", {**_iuf("wg_sign_{T}({x})", "select({T}(0), {T}(1), {x} > {T}(0))"), **_c("sign")}),
    EwOp("floor", 1, "same", _iuf("{x}", "{x}", "floor({x})")),
    EwOp("ceil", 1, "same", _iuf("{x}", "{x}", "ceil({x})")),
    EwOp("trunc", 1, "same", _iuf("{x}", "{x}", "wg_trunc_{T}({x})")),  # not WGSL's trunc/round (numerics_float)
    EwOp("round", 1, "same", {**_iuf("{x}", "{x}", "wg_rint_{T}({x})"),  # ties to even, like np.rint
                              "c": "vec2<{R}>(wg_rint_{R}({x}.x), wg_rint_{R}({x}.y))"}),
    EwOp("sqrt", 1, "float", {**_f("wg_sqrtcr_{T}({x})"), **_c("sqrt")}),  # correctly rounded (numerics_exact.wgsl)
    EwOp("reciprocal", 1, "float", {**_f("wg_divide_{T}({T}(1.0), {x})"), **_c("reciprocal")}),
    # software implementations with numpy's special cases (math_float.wgsl): the WGSL built-ins are 32-bit only
    # in SPIR-V (garbage for f64 on lavapipe) and far less accurate than numpy for f32
    EwOp("exp", 1, "float", {**_f("wg_exp_{T}({x})"), **_c("exp")}),
    EwOp("exp2", 1, "float", _f("wg_exp2_{T}({x})")),
    EwOp("expm1", 1, "float", {**_f("wg_expm1_{T}({x})"), **_c("expm1")}),
    EwOp("log", 1, "float", {**_f("wg_log_{T}({x})"), **_c("log")}),
    EwOp("log2", 1, "float", {**_f("wg_log2_{T}({x})"), **_c("log2")}),
    EwOp("log10", 1, "float", {**_f("wg_log10_{T}({x})"), **_c("log10")}),
    EwOp("log1p", 1, "float", {**_f("wg_log1p_{T}({x})"), **_c("log1p")}),
    EwOp("sin", 1, "float", {**_f("wg_sin_{T}({x})"), **_c("sin")}),
    EwOp("cos", 1, "float", {**_f("wg_cos_{T}({x})"), **_c("cos")}),
    EwOp("tan", 1, "float", {**_f("wg_tan_{T}({x})"), **_c("tan")}),
    EwOp("asin", 1, "float", {**_f("wg_asin_{T}({x})"), **_c("asin")}),
    EwOp("acos", 1, "float", {**_f("wg_acos_{T}({x})"), **_c("acos")}),
    EwOp("atan", 1, "float", {**_f("wg_atan_{T}({x})"), **_c("atan")}),
    EwOp("sinh", 1, "float", {**_f("wg_sinh_{T}({x})"), **_c("sinh")}),
    EwOp("cosh", 1, "float", {**_f("wg_cosh_{T}({x})"), **_c("cosh")}),
    EwOp("tanh", 1, "float", {**_f("wg_tanh_{T}({x})"), **_c("tanh")}),
    EwOp("asinh", 1, "float", {**_f("wg_asinh_{T}({x})"), **_c("asinh")}),
    EwOp("acosh", 1, "float", {**_f("wg_acosh_{T}({x})"), **_c("acosh")}),
    EwOp("atanh", 1, "float", {**_f("wg_atanh_{T}({x})"), **_c("atanh")}),
    EwOp("isnan", 1, "bool", {"b": "false", "i": "false", "u": "false", "f": "wg_isnan_{T}({x})", **_c("isnan")}),
    EwOp("isinf", 1, "bool", {"b": "false", "i": "false", "u": "false", "f": "wg_isinf_{T}({x})", **_c("isinf")}),
    EwOp("isfinite", 1, "bool", {"b": "true", "i": "true", "u": "true", "f": "wg_isfinite_{T}({x})", **_c("isfinite")}),
    EwOp("signbit", 1, "bool", _f("wg_signbit_{T}({x})")),
    EwOp("logical_not", 1, "bool", {"b": "!{x}"}, compute="bool"),
    EwOp("bitwise_invert", 1, "same", {"b": "!{x}", "i": "~{x}", "u": "~{x}"}),
    # complex-number functions on real dtypes: real and conj are the identity, imag is zero
    EwOp("real", 1, "same", {**_iuf("{x}"), "c": "{x}.x"}, real=True),
    EwOp("imag", 1, "same", {**_iuf("{T}(0)"), "c": "{x}.y"}, real=True),
    EwOp("conj", 1, "same", {**_iuf("{x}"), "c": "vec2<{R}>({x}.x, -{x}.y)"}),
]

_CMP_B = "(u32({x}) {op} u32({y}))"


# "m": an integer operand against a float operand, each in its own type ({X}, {Y}); wg_cmp_* (compare_mixed.wgsl)
# gives their exact order (-1, 0, 1; 2 for NaN), so no rounding of either side changes the answer
_MIXED = "wg_cmp_{X}_{Y}({x}, {y})"
_MIXED_TEST = {"==": "({r} == 0)", "!=": "({r} != 0)", "<": "({r} == -1)", "<=": "({r} <= 0)", ">": "({r} == 1)",
               ">=": "(u32({r}) <= 1u)"}


def _mixed(op: str) -> str:
    return _MIXED_TEST[op].replace("{r}", _MIXED)


def _cmp(name: str, op: str) -> EwOp:
    return EwOp(name, 2, "bool", {"b": _CMP_B.replace("{op}", op), **_iuf(f"({{x}} {op} {{y}})"), "m": _mixed(op)})


_BINARY: list[EwOp] = [
    EwOp("add", 2, "same", {"b": "({x} || {y})", **_iuf("{x} + {y}"), "c": "({x} + {y})"}),
    EwOp("subtract", 2, "same", {**_iuf("{x} - {y}"), "c": "({x} - {y})"}),
    EwOp("multiply", 2, "same", {"b": "({x} && {y})", **_iuf("{x} * {y}"), **_c("mul", 2)}),
    EwOp("divide", 2, "float", {**_f("wg_divide_{T}({x}, {y})"), **_c("div", 2)}),  # correctly rounded for f32
    EwOp("floor_divide", 2, "same", _iuf("wg_floordiv_{T}({x}, {y})")),
    EwOp("remainder", 2, "same", _iuf("wg_remainder_{T}({x}, {y})")),
    EwOp("pow", 2, "same", {**_iuf("wg_pow_{T}({x}, {y})"), **_c("pow", 2)}),
    EwOp("maximum", 2, "same", _iuf("max({x}, {y})", "max({x}, {y})", "wg_maximum_{T}({x}, {y})")),
    EwOp("minimum", 2, "same", _iuf("min({x}, {y})", "min({x}, {y})", "wg_minimum_{T}({x}, {y})")),
    EwOp("atan2", 2, "float", _f("wg_atan2_{T}({x}, {y})")),
    EwOp("hypot", 2, "float", _f("wg_hypot_{T}({x}, {y})")),
    EwOp("copysign", 2, "float", _f("wg_copysign_{T}({x}, {y})")),
    EwOp("logaddexp", 2, "float", _f("wg_logaddexp_{T}({x}, {y})")),
    EwOp("nextafter", 2, "float", _f("wg_nextafter_{D}({x}, {y})")),  # steps in the dtype's own bit pattern
    EwOp("equal", 2, "bool", {**_cmp("equal", "==").exprs, **_c("eq", 2)}), _cmp("less", "<"), _cmp("less_equal", "<="),
    # not_equal of floats as !(x == y): naga emits an ordered != that is false for NaN
    EwOp("not_equal", 2, "bool", {"b": _CMP_B.replace("{op}", "!="), **_iuf("({x} != {y})", f="(!({x} == {y}))"),
                                  "m": _mixed("!="), "c": "(!wg_ceq_{R}({x}, {y}))"}),
    _cmp("greater", ">"), _cmp("greater_equal", ">="),
    EwOp("logical_and", 2, "bool", {"b": "({x} && {y})"}, compute="bool"),
    EwOp("logical_or", 2, "bool", {"b": "({x} || {y})"}, compute="bool"),
    EwOp("logical_xor", 2, "bool", {"b": "({x} != {y})"}, compute="bool"),
    EwOp("bitwise_and", 2, "same", {"b": "({x} && {y})", "i": "({x} & {y})", "u": "({x} & {y})"}),
    EwOp("bitwise_or", 2, "same", {"b": "({x} || {y})", "i": "({x} | {y})", "u": "({x} | {y})"}),
    EwOp("bitwise_xor", 2, "same", {"b": "({x} != {y})", "i": "({x} ^ {y})", "u": "({x} ^ {y})"}),
    EwOp("bitwise_left_shift", 2, "same", {"i": "wg_lshift_{T}({x}, {y})", "u": "wg_lshift_{T}({x}, {y})"}),
    EwOp("bitwise_right_shift", 2, "same", {"i": "wg_rshift_{T}({x}, {y})", "u": "wg_rshift_{T}({x}, {y})"}),
]

_ANY = {"b": "{x}", **_iuf("{x}"), "c": "{x}"}

_SPECIAL: list[EwOp] = [
    # copy / astype / fill: the value converted to the output dtype on store
    EwOp("copy", 1, "same", _ANY),
    # where(cond, x, y): cond is converted to bool by the launcher, x and y to the promoted dtype
    EwOp("where", 3, "same", {k: "select({z}, {y}, {x})" for k in "biufc"}, condition=True),
    # arange: start {x} + i * step {y}, computed in the output dtype, each operation rounded as numpy's
    # arange(num) * step + start (linspace's float64 path): wg_impl_opaque keeps a GPU driver from contracting the
    # multiply-add into an fma (the H200's did: linspace(1, 0, 9, endpoint=False) came out 2 ulp from numpy's)
    EwOp("arange", 2, "same", {**_iuf("({x} + {T}({i}) * {y})", f="({x} + wg_impl_opaque_{T}({T}({i}) * {y}))"),
                               "c": "({x} + vec2<{R}>(wg_impl_opaque_{R}({R}({i}) * {y}.x), "
                                    "wg_impl_opaque_{R}({R}({i}) * {y}.y)))"}),
    # complex linspace: start {x} + (i * span {y}) / divisions {z} per part (the span and divisions are real
    # per part: numpy's complex linspace is the real one on each part)
    # linspace: start {x} + (i * span {y}) / divisions {z}; one correctly rounded division keeps subnormal steps exact
    EwOp("linspace", 3, "same", {"f": "select({x} + wg_divide_{T}({T}({i}) * {y}, {z}), {x}, {i} == 0u)",
                                 "c": "select({x} + vec2<{R}>(wg_divide_{R}({R}({i}) * {y}.x, {z}.x), "
                                      "wg_divide_{R}({R}({i}) * {y}.y, {z}.x)), {x}, {i} == 0u)"}),
    # eye: 1 where column - row == k; {x} = columns, {y} = k (int32 scalars)
    EwOp("eye", 2, "bool", {"i": "(i32({i} % u32({x})) - i32({i} / u32({x})) == {y})"}),
    # tril / triu masks of a (rows, columns) matrix: column - row <= k / >= k; {x} = columns, {y} = k
    EwOp("tril_mask", 2, "bool", {"i": "(i32({i} % u32({x})) - i32({i} / u32({x})) <= {y})"}),
    EwOp("triu_mask", 2, "bool", {"i": "(i32({i} % u32({x})) - i32({i} / u32({x})) >= {y})"}),
    # clip(x, lo, hi) with numpy's semantics (NaN in any operand propagates); None bounds arrive as extremes
    EwOp("clip", 3, "same", _iuf("min(max({x}, {y}), {z})", "min(max({x}, {y}), {z})",
                                 "wg_minimum_{T}(wg_maximum_{T}({x}, {y}), {z})")),
]

OPS: dict[str, EwOp] = {op.name: op for op in _UNARY + _BINARY + _SPECIAL}
UNARY = tuple(op.name for op in _UNARY)
BINARY = tuple(op.name for op in _BINARY)
