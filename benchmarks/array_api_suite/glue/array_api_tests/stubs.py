"""The standard's stubs for the rebuilt suite (wgarray's glue, not an upstream file).

Upstream's ``stubs`` imports the standard's own stub modules from the ``array-api`` git submodule, which this
machine cannot fetch.  Here every function, method and attribute of the 2024.12 standard comes from the PyPI
package types-array-api 1.1.4 (``array_api/_2024_12.py``, generated from those same stub modules): the signature
of each function's ``__call__`` (annotations dropped, defaults kept) and its docstring, which drives
``test_special_cases`` (the special-case lists) and ``dtype_helpers.func_in_dtypes`` (the input dtypes).  That file
uses Python 3.12 class syntax, so it is read as text, not imported.  Its path: AAT_SPEC_DOCS, else
``<suite>/_spec/array_api/_2024_12.py`` (benchmarks/array_api_suite.sh fetches it there when missing).

The standard's listings put each function in a category (its spec module, upstream's ``*_functions`` modules) and
the two extensions; the lists below are those of the 2024.12 API reference.  Array methods: the spec's dunder
methods plus the in-place ``__i*__`` and reflected ``__r*__`` operators, which the standard requires too (in-place
ones take the signature and docstring of their plain operator).
"""
import os
import re
from pathlib import Path
from types import FunctionType

__all__ = ["name_to_func", "array_methods", "array_attributes", "category_to_funcs", "EXTENSIONS",
           "extension_to_funcs", "info_funcs"]

_SPEC = Path(os.environ.get("AAT_SPEC_DOCS") or Path(__file__).resolve().parents[1] / "_spec" / "array_api"
             / "_2024_12.py")

_CATEGORIES = {
    "creation": "arange asarray empty empty_like eye from_dlpack full full_like linspace meshgrid ones ones_like "
                "tril triu zeros zeros_like",
    "data_type": "astype can_cast finfo iinfo isdtype result_type",
    "elementwise": "abs acos acosh add asin asinh atan atan2 atanh bitwise_and bitwise_left_shift bitwise_invert "
                   "bitwise_or bitwise_right_shift bitwise_xor ceil clip conj copysign cos cosh divide equal exp "
                   "expm1 floor floor_divide greater greater_equal hypot imag isfinite isinf isnan less less_equal "
                   "log log1p log2 log10 logaddexp logical_and logical_not logical_or logical_xor maximum minimum "
                   "multiply negative nextafter not_equal positive pow real reciprocal remainder round sign "
                   "signbit sin sinh square sqrt subtract tan tanh trunc",
    "indexing": "take take_along_axis",
    "inspection": "__array_namespace_info__",
    "linear_algebra": "matmul matrix_transpose tensordot vecdot",
    "manipulation": "broadcast_arrays broadcast_to concat expand_dims flip moveaxis permute_dims repeat reshape "
                    "roll squeeze stack tile unstack",
    "searching": "argmax argmin count_nonzero nonzero searchsorted where",
    "set": "unique_all unique_counts unique_inverse unique_values",
    "sorting": "argsort sort",
    "statistical": "cumulative_prod cumulative_sum max mean min prod std sum var",
    "utility": "all any diff",
}
EXTENSIONS = ["linalg", "fft"]
_EXTENSIONS = {
    "linalg": "cholesky cross det diagonal eigh eigvalsh inv matmul matrix_norm matrix_power matrix_rank "
              "matrix_transpose outer pinv qr slogdet solve svd svdvals tensordot trace vecdot vector_norm",
    "fft": "fft ifft fftn ifftn rfft irfft rfftn irfftn hfft ihfft fftfreq rfftfreq fftshift ifftshift",
}
_INFO = {"capabilities": "", "default_device": "", "default_dtypes": "*, device=None", "devices": "",
         "dtypes": "*, device=None, kind=None"}  # the standard's inspection API (its Info protocol omits defaults)
_INPLACE = "add and floordiv lshift matmul mod mul or pow rshift sub truediv xor"


def _params(text: str, start: int, keep_self: bool = False) -> str:
    """The parameter list of the ``def`` whose ``(`` is at ``start``, annotations dropped, defaults kept; a
    protocol's ``self`` (and a ``/`` right after it) dropped unless ``keep_self``."""
    depth, i = 0, start
    while True:
        c = text[i]
        depth += c in "([{"
        depth -= c in ")]}"
        if depth == 0:
            break
        i += 1
    parts, depth, cur = [], 0, ""
    for c in text[start + 1:i]:
        depth += c in "([{"
        depth -= c in ")]}"
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    out = []
    for part in (p.strip() for p in parts):
        if not part:
            continue
        name, _, rest = part.partition(":")
        default = rest.rpartition("=")[2].strip() if "=" in rest else ""
        out.append(f"{name.strip()}={default}" if default else name.strip())
    if out and out[0] == "self" and not keep_self:
        out = out[2:] if len(out) > 1 and out[1] == "/" else out[1:]
    return ", ".join(out)


def _make(name: str, params: str, doc: str) -> FunctionType:
    scope: dict = {}
    exec(f"def {name}({params}):\n    pass", {}, scope)
    func = scope[name]
    func.__doc__ = doc
    return func


def _docstring(block: str) -> str:
    m = re.search(r'"""(.*?)"""', block, re.S)
    return m.group(1) if m else ""


_text = _SPEC.read_text()
_starts = [m.start() for m in re.finditer(r"^(?:@|class |def )", _text, re.M)] + [len(_text)]
_classes: dict[str, str] = {}
for _a, _b in zip(_starts, _starts[1:]):
    _m = re.match(r"class (\w+)", _text[_a:_b])
    if _m:
        _classes[_m.group(1)] = _text[_a:_b]


def _function(name: str) -> FunctionType:
    block = _classes[name]
    call = block.index("def __call__(") + len("def __call__")
    return _make(name, _params(block, call), _docstring(block))


def _array_members():
    block = _classes["Array"]
    methods, attributes = {}, []
    for m in re.finditer(r"^(    @property\n)?    def (\w+)\(", block, re.M):
        name = m.group(2)
        if m.group(1):
            attributes.append(name)
        elif name != "__init__":
            body = block[block.index("\n", m.end()) + 1:]
            doc = re.match(r'\s*"""(.*?)"""', body, re.S)
            methods[name] = _make(name, _params(block, m.end() - 1, keep_self=True), doc.group(1) if doc else "")
    for op in _INPLACE.split():
        methods[f"__i{op}__"] = _make(f"__i{op}__", "self, other, /", methods[f"__{op}__"].__doc__)
    return list(methods.values()), attributes


category_to_funcs: dict[str, list[FunctionType]] = {
    category: [_function(n) for n in names.split()] for category, names in _CATEGORIES.items()}
extension_to_funcs: dict[str, list[FunctionType]] = {
    ext: [_function(n) for n in names.split()] for ext, names in _EXTENSIONS.items()}


info_funcs: list[FunctionType] = [_make(name, params, "") for name, params in _INFO.items()]
array_methods, array_attributes = _array_members()

name_to_func: dict[str, FunctionType] = {}
for _funcs in [*category_to_funcs.values(), *extension_to_funcs.values(), array_methods]:
    for _f in _funcs:
        name_to_func.setdefault(_f.__name__, _f)
