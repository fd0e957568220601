"""User kernels with CuPy's API: ``wg.ElementwiseKernel``, ``wg.ReductionKernel`` and ``wg.RawKernel``, in WGSL.

    mad = wg.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = x * y + 1.0;", "mad")
    z = mad(a, b)                                      # broadcasting, a new float32 array
    l2 = wg.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", 0, "l2norm")
    n = l2(a, axis=1)
    k = wg.RawKernel(code, "main"); k((groups,), 64, (x, y, 2.5))

Why through the built-in machinery: an ElementwiseKernel is one more row of the elementwise table
(``kernels/ewtable.EwOp``) whose expression calls a WGSL function made of the user's statement body, so it gets the
same broadcasting, strided and vec4 addressing, storage-binding splits, pipeline cache and stream as ``a + b``; a
ReductionKernel is that elementwise map into the reduce type, a row of the reduction table (``kernels/rtable.RedOp``
with the user's identity and a combine function) run by the one reduction kernel (passes, partials, splits), and
the post-map as another elementwise kernel.  A RawKernel compiles the user's whole shader through the same pipeline
cache (``launch.compile_source``) and records its dispatch on the device's stream (``launch.dispatch``).

Types: parameter types are wgarray dtype names (``float32``, ``int8``, ``bool``, ...) or a placeholder (any other
identifier: ``T``) that takes the dtype of the arrays bound to it.  Inside WGSL a value of dtype d has the type
it is computed in: ``bool``, ``i32`` for int8/int16/int32, ``u32`` for uint8/uint16/uint32, ``f32`` for float16
and float32 (float16 results are rounded to float16 on store), ``i64``/``u64``/``f64`` where the device has them;
a placeholder ``T`` is a WGSL ``alias`` of that type.
"""
from __future__ import annotations

import hashlib
import math
import re
from typing import Any, Sequence

import numpy as np

from .. import dtypes as _dt
from .._array import Array
from ..dtypes import DType
from ..kernels import elementwise as _ew, launch, source
from ..kernels.elementwise import Scalar
from ..kernels.ewtable import EwOp
from ..kernels.rtable import RedOp
from ..ops import core
from ..ops.axes import reduced as _reduced_axes
from ..ops.reduction import reduce as _reduce
from ..ops.shape import broadcast_shapes, reshape

__all__ = ["ElementwiseKernel", "ReductionKernel", "RawKernel", "CompileError"]

CompileError = launch.CompileError

_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
_RESERVED = {"i"}  # the element index every user function receives


class _Param:
    """One declared parameter: its type (a dtype, or a placeholder name) and its name."""

    def __init__(self, text: str, kernel: str, internal: bool = False) -> None:
        parts = text.split()
        if len(parts) != 2:
            hint = " ('raw' parameters are not supported)" if parts and parts[0] == "raw" else ""
            raise ValueError(f"{kernel}: a parameter is 'type name', not {text.strip()!r}{hint}")
        tname, self.name = parts
        if not _IDENT.match(self.name) or self.name in _RESERVED or (self.name.startswith("wg_") and not internal):
            raise ValueError(f"{kernel}: {self.name!r} is not a usable parameter name (a WGSL identifier, not 'i', "
                             "not starting with 'wg_' or '_')")
        try:
            self.dtype: DType | None = _dt.as_dtype(tname)
            self.placeholder: str | None = None
        except (TypeError, ValueError, KeyError):
            if not _IDENT.match(tname):
                raise ValueError(f"{kernel}: {tname!r} is neither a dtype name nor a type placeholder") from None
            self.dtype, self.placeholder = None, tname


def _params(text: str, kernel: str, internal: bool = False) -> list[_Param]:
    return [_Param(t, kernel, internal) for t in text.split(",") if t.strip()]


def _digest(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:20]


def _scalar_dtype(value: Any) -> DType:
    """The dtype a placeholder takes from a scalar alone: a numpy scalar's own, else the default of its kind."""
    if isinstance(value, np.generic):
        return _dt.as_dtype(value.dtype)
    if isinstance(value, (bool, np.bool_)):
        return _dt.bool
    return _dt.default_int if isinstance(value, int) else _dt.default_float


def _check_scalar(value: Any, to: DType, kernel: str, pname: str) -> None:
    """A scalar argument may go to ``to`` when numpy casts its type there safely (a Python int to any integer or
    float type it fits, a Python float to a float type)."""
    if isinstance(value, np.generic):
        ok = np.can_cast(value.dtype, to.numpy, "safe")
    elif isinstance(value, (bool, np.bool_)):
        ok = True
    elif isinstance(value, int):
        ok = to.kind in "iuf"
    elif isinstance(value, float):
        ok = to.kind == "f"
    else:
        raise TypeError(f"{kernel}: argument {pname!r} is a {type(value).__name__}, not an array or a scalar")
    if not ok:
        raise TypeError(f"{kernel}: cannot cast {type(value).__name__} {value!r} to {to.name} (parameter "
                        f"{pname!r}) safely")


class ElementwiseKernel:
    """An elementwise kernel from a WGSL statement body (CuPy's ``ElementwiseKernel``).

    ``operation`` assigns the outputs from the inputs (``"z = x * y + 1.0;"``); it may use ``i`` (the flat index of
    the element, u32, C order over the broadcast shape), any helper in ``preamble`` and wgarray's WGSL helpers
    (``wg_exp_f32`` ...).  A call takes the inputs, optionally followed by the outputs (CuPy's convention); outputs
    not given are allocated with the broadcast shape.  Outputs given are read first, so ``"z = z + x;"``
    accumulates; allocated ones start at 0.  Returns the output, or a tuple of them."""

    def __init__(self, in_params: str, out_params: str, operation: str, name: str = "kernel",
                 preamble: str = "", vectorize: bool = True, *, _internal: bool = False) -> None:
        self.name = name
        self.in_params = _params(in_params, name)
        self.out_params = _params(out_params, name, _internal)
        if not self.out_params:
            raise ValueError(f"{name}: at least one output parameter is needed")
        names = [p.name for p in self.in_params + self.out_params]
        if len(set(names)) != len(names):
            raise ValueError(f"{name}: parameter names must differ: {names}")
        if len(self.in_params) + len(self.out_params) > len(_ew._NAMES):
            raise ValueError(f"{name}: at most {len(_ew._NAMES)} parameters")
        self.operation = operation
        self.preamble = preamble
        self.vectorize = vectorize  # four elements a thread where the layout allows (False: heavy bodies)
        self._ops: dict = {}

    def _types(self, args: Sequence[Any], outs: Sequence[Array]) -> tuple[list[DType], list[DType], dict]:
        """The dtype of every parameter, placeholders bound from the arrays (then numpy scalars, then Python
        scalars' default kinds); a placeholder bound to two dtypes is a TypeError, as in CuPy."""
        bound: dict[str, DType] = {}

        def bind(p: _Param, d: DType) -> None:
            have = bound.setdefault(p.placeholder, d)  # type: ignore[arg-type]
            if have is not d:
                raise TypeError(f"{self.name}: type placeholder {p.placeholder} is bound to both {have.name} and "
                                f"{d.name}")

        pairs = list(zip(self.in_params, args)) + list(zip(self.out_params, outs))
        for p, a in pairs:
            if p.placeholder and isinstance(a, Array):
                bind(p, a.dtype)
        for p, a in pairs:
            if p.placeholder and p.placeholder not in bound and isinstance(a, np.generic):
                bind(p, _scalar_dtype(a))
        for p, a in pairs:
            if p.placeholder and p.placeholder not in bound:
                bind(p, _scalar_dtype(a))

        def resolve(p: _Param) -> DType:
            if p.dtype is not None:
                return p.dtype
            if p.placeholder not in bound:
                raise TypeError(f"{self.name}: cannot infer the type placeholder {p.placeholder} of output "
                                f"{p.name!r} (bind it through an input, or pass the output)")
            return bound[p.placeholder]  # type: ignore[index]
        return [resolve(p) for p in self.in_params], [resolve(p) for p in self.out_params], bound

    def _op(self, in_dts: list[DType], out_dts: list[DType], bound: dict, scalar_in: tuple[bool, ...],
            init: bool) -> EwOp:
        """The elementwise-table row of one typing: a WGSL function of the inputs (and the outputs' initial values)
        returning the outputs."""
        key = (tuple(in_dts), tuple(out_dts), scalar_in, init)
        op = self._ops.get(key)
        if op is not None:
            return op
        tag = _digest(self.name, [(p.name, p.dtype, p.placeholder) for p in self.in_params + self.out_params],
                      self.operation, self.preamble, key)
        fn = f"wg_user_{tag}"
        args, prologue = [], []
        for p, d in zip(self.in_params, in_dts):
            args.append(f"{p.name}_wg_in: {source.ctype(d)}")
            prologue.append(f"    var {p.name}: {source.ctype(d)} = {p.name}_wg_in;")
        for p, d in zip(self.out_params, out_dts):
            if init:
                args.append(f"{p.name}_wg_in: {source.ctype(d)}")
                prologue.append(f"    var {p.name}: {source.ctype(d)} = {p.name}_wg_in;")
            else:
                prologue.append(f"    var {p.name}: {source.ctype(d)};")
        args.append("i: u32")
        several = len(out_dts) > 1
        ret = f"{fn}_out" if several else source.ctype(out_dts[0])
        lines = [f"alias {name} = {source.ctype(d)};" for name, d in sorted(bound.items())]
        if self.preamble:
            lines.append(self.preamble)
        if several:
            lines.append(f"struct {ret} {{ " + ", ".join(f"o{j}: {source.ctype(d)}" for j, d in enumerate(out_dts))
                         + " }")
        lines.append(f"fn {fn}({', '.join(args)}) -> {ret} {{")
        lines += prologue
        lines.append("    {")
        lines += ["        " + line for line in self.operation.strip().splitlines()]
        lines.append("    }")
        outs = ", ".join(p.name for p in self.out_params)
        lines.append(f"    return {ret}({outs});" if several else f"    return {outs};")
        lines.append("}")
        arity = len(in_dts) + (len(out_dts) if init else 0)
        call = f"{fn}({', '.join('{' + n + '}' for n in _ew._NAMES[:arity])}{', ' if arity else ''}{{i}})"
        op = EwOp(f"user:{self.name}:{tag}", arity, "same", {k: call for k in "biuf"},
                  vectorize=self.vectorize, results=len(out_dts), code="\n".join(lines))
        self._ops[key] = op
        return op

    def __call__(self, *args, size: int | None = None, device=None):
        n_in, n_out = len(self.in_params), len(self.out_params)
        if len(args) not in (n_in, n_in + n_out):
            raise TypeError(f"{self.name}: wrong number of arguments: {len(args)} (takes {n_in} inputs, optionally "
                            f"followed by {n_out} outputs)")
        ins, outs = list(args[:n_in]), list(args[n_in:])
        for p, a in zip(self.in_params + self.out_params, ins + outs):
            if isinstance(a, (np.ndarray, list, tuple)):
                raise TypeError(f"{self.name}: argument {p.name!r} is a {type(a).__name__}; pass a wgarray Array "
                                "(wg.asarray) or a scalar")
        for p, o in zip(self.out_params, outs):
            if not isinstance(o, Array):
                raise TypeError(f"{self.name}: output {p.name!r} must be an Array, not {type(o).__name__}")
        arrays = [a for a in ins + outs if isinstance(a, Array)]
        dev = core.common_device(arrays) if arrays else core.resolve_device(device)
        if arrays and device is not None and core.resolve_device(device) is not dev:
            raise ValueError(f"{self.name}: the arrays are on {dev}, not on the device= given")
        in_dts, out_dts, bound = self._types(ins, outs)
        for d in {*in_dts, *out_dts}:
            core.check_supported(d, dev)
        for p, a, d in zip(self.in_params, ins, in_dts):
            if isinstance(a, Array):
                if not np.can_cast(a.dtype.numpy, d.numpy, "safe"):
                    raise TypeError(f"{self.name}: cannot cast input {p.name!r} of dtype {a.dtype.name} to {d.name} "
                                    "safely")
            else:
                _check_scalar(a, d, self.name, p.name)
        for p, o, d in zip(self.out_params, outs, out_dts):
            if o.dtype is not d:
                raise TypeError(f"{self.name}: output {p.name!r} has dtype {o.dtype.name}, the kernel writes {d.name}")
        shapes = [a.shape for a in arrays]
        if shapes:
            shape = broadcast_shapes(self.name, shapes)
            if size is not None:
                raise ValueError(f"{self.name}: size= is only for calls without array arguments")
        elif size is None:
            raise ValueError(f"{self.name}: give size= when no argument is an array")
        else:
            shape = (int(size),)
        for p, o in zip(self.out_params, outs):
            if o.shape != shape:
                raise ValueError(f"{self.name}: output {p.name!r} has shape {o.shape}, the broadcast shape is {shape}")
        if not outs:
            outs = [core.new_array(shape, d, dev) for d in out_dts]
        operands: list = [a if isinstance(a, Array) else core.scalar_for(a, d) for a, d in zip(ins, in_dts)]
        given = len(args) > n_in
        op = self._op(in_dts, out_dts, bound, tuple(isinstance(o, Scalar) for o in operands), given)
        cdts = list(in_dts)
        if given:
            operands += outs
            cdts += out_dts
        for o in outs:  # an input overlapping an output in another layout is read from a copy
            operands = core.unalias(operands, o)
        try:
            _ew.run(dev, op, operands, outs, (in_dts or out_dts)[0], cdts, out_dts)
        except CompileError as e:
            raise CompileError(f"{self.name}: {e}") from e.__cause__
        return outs[0] if n_out == 1 else tuple(outs)


def _identity_value(identity: Any, kernel: str) -> bool | int | float:
    """CuPy's identity string (or a number) as a Python number: ints, floats, 'inf', '-inf', 'nan', true/false."""
    if identity is None:
        raise TypeError(f"{kernel}: a ReductionKernel needs an identity (the value of an empty reduction and of "
                        "padding lanes)")
    if isinstance(identity, (bool, int, float, np.generic)):
        return identity.item() if isinstance(identity, np.generic) else identity
    text = str(identity).strip()
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        return int(text, 0)
    except ValueError:
        pass
    try:
        return float(text.rstrip("fF") if not text.lower().endswith("inf") else text)
    except ValueError:
        raise ValueError(f"{kernel}: identity {identity!r} is not a number") from None


class ReductionKernel:
    """A reduction from WGSL expressions (CuPy's ``ReductionKernel``): ``map_expr`` over the inputs (broadcast),
    combined pairwise by ``reduce_expr`` over ``a`` and ``b`` starting from ``identity`` (in ``reduce_type``,
    default: the first output's type), then ``post_map_expr`` (a statement over ``a``, the reduced value) into the
    outputs.  ``reduce_expr`` must be associative and commutative (the tree combines in any order).
    Called as ``kernel(*inputs, axis=None, keepdims=False)``."""

    def __init__(self, in_params: str, out_params: str, map_expr: str, reduce_expr: str, post_map_expr: str,
                 identity: Any, name: str = "reduce_kernel", reduce_type: str | None = None, preamble: str = "") -> None:
        self.name = name
        self.identity = _identity_value(identity, name)
        outs = _params(out_params, name)
        if not outs:
            raise ValueError(f"{name}: at least one output parameter is needed")
        if reduce_type is None:
            first = outs[0]
            reduce_type = first.placeholder or first.dtype.name  # type: ignore[union-attr]
        if "a" in [p.name for p in _params(in_params, name)]:
            raise ValueError(f"{name}: 'a' names the reduced value in post_map_expr; rename the input")
        body = post_map_expr.strip()
        body = body if body.endswith((";", "}")) else body + ";"
        self.reduce_expr = reduce_expr
        self.reduce_type = reduce_type
        self.preamble = preamble
        try:  # the WGSL spelling of the reduce type (a placeholder is an alias of its own name)
            wgsl_rt = source.ctype(_dt.as_dtype(reduce_type))
        except (TypeError, ValueError, KeyError):
            wgsl_rt = reduce_type
        self._map = ElementwiseKernel(in_params, f"{reduce_type} wg_m", f"wg_m = {wgsl_rt}({map_expr});",
                                      name + "_map", preamble=preamble, _internal=True)
        self._post = ElementwiseKernel(f"{reduce_type} a", out_params, body, name + "_post", preamble=preamble)
        self._ops: dict[DType, RedOp] = {}

    def _redop(self, rt: DType, bound: dict) -> RedOp:
        op = self._ops.get(rt)
        if op is None:
            acc = _dt.float32 if rt is _dt.float16 else rt  # as the reduction table accumulates float16
            t = source.ctype(acc)
            tag = _digest(self.name, self.reduce_expr, self.identity, rt.name, self.preamble)
            fn = f"wg_user_reduce_{tag}"
            aliases = "".join(f"alias {name} = {source.ctype(d)};\n" for name, d in sorted(bound.items()))
            preamble = self.preamble + "\n" if self.preamble else ""
            helpers = f"{aliases}{preamble}fn {fn}(a: {t}, b: {t}) -> {t} {{\n    return {t}({self.reduce_expr});\n}}"
            op = RedOp(f"user:{self.name}:{tag}", "zero", f"{fn}({{a}}, {{b}})", empty=self.identity,
                       ufunc=self.name, literal=source.literal(acc, self.identity), code=helpers)
            self._ops[rt] = op
        return op

    def __call__(self, *args, axis=None, keepdims: bool = False):
        mapped = self._map(*args)
        _, _, bound = self._map._types(list(args), [])
        op = self._redop(mapped.dtype, bound)
        axes = _reduced_axes(axis, mapped.ndim)
        try:
            red = _reduce(op, mapped, axis=axes, dtype=mapped.dtype)
        except CompileError as e:
            raise CompileError(f"{self.name} (reduce_expr): {e}") from e.__cause__
        out = self._post(red)
        if not keepdims:
            return out
        kept = tuple(1 if d in axes else n for d, n in enumerate(mapped.shape))
        return tuple(reshape(o, kept) for o in out) if isinstance(out, tuple) else reshape(out, kept)


_WORKGROUP_SIZE = r"@workgroup_size\s*\(([^)]*)\)"
_GROUP0 = r"@group\s*\(\s*0\s*\)"
_BINDING = r"@binding\s*\(\s*(\d+)\s*\)"
_STORAGE = r"\s*var\s*<\s*storage\s*(?:,\s*(read_write|read)\s*)?>"
_DECLS = [re.compile(_GROUP0 + r"\s*" + _BINDING + _STORAGE), re.compile(_BINDING + r"\s*" + _GROUP0 + _STORAGE)]


def _read_only_bindings(code: str) -> set[int]:
    """Group-0 storage bindings the shader declares read-only (``var<storage, read>`` or ``var<storage>``)."""
    return {int(m.group(1)) for rx in _DECLS for m in rx.finditer(code) if m.group(2) != "read_write"}


class RawKernel:
    """A whole WGSL compute shader (CuPy's ``RawKernel``), launched as ``kernel(grid, workgroup_size, args)``.

    * ``grid``: workgroups per dimension (an int or up to 3); ``workgroup_size`` must equal the entry point's
      ``@workgroup_size`` (WGSL fixes it at compile time; it is checked when written as integer literals).
    * Arrays in ``args`` are bound in argument order at ``@group(0) @binding(0..k-1)`` as storage buffers the
      shader declares ``var<storage, read_write>`` (or ``var<storage, read>``: bound read-only, left host-valid).
      Each must be C-contiguous at offset 0 of its buffer (a view into another array's buffer is refused: bind
      the base or a copy).  The device sees every element as a 4-byte word (bool as u32 0/1, int8/int16 as i32,
      uint8/uint16 as u32, float16 as f32) or an 8-byte one (int64, uint64, float64); the host narrows a word on
      download as numpy's astype does (a bool is ``!= 0``, an int8 keeps the low 8 bits, a float16 rounds), so a
      kernel should store values of the dtype's range.  After the launch every writable bound array holds the
      device's values (host copies are stale and download when read); host-only inputs are uploaded first.
    * Scalars in ``args`` are packed in argument order into the uniform at ``@group(1) @binding(0)`` (declare a
      struct of them there): a Python int as i32, a float as f32, a bool as u32, a numpy scalar as its dtype's device
      type; each aligned to its size, as WGSL lays out a uniform struct of scalars.
    """

    def __init__(self, code: str, entry_point: str = "main") -> None:
        if not _IDENT.match(entry_point):
            raise ValueError(f"RawKernel: {entry_point!r} is not a WGSL function name")
        self.code = code
        self.entry_point = entry_point
        self._read_only = _read_only_bindings(code)
        m = re.search(_WORKGROUP_SIZE + r"[^{;]*?\bfn\s+" + re.escape(entry_point) + r"\s*\(", code)
        sizes = [s.strip() for s in m.group(1).split(",") if s.strip()] if m else []
        self.workgroup_size: tuple[int, ...] | None = (
            tuple(int(s.rstrip("uUiI"), 0) for s in sizes) + (1,) * (3 - len(sizes))
            if sizes and all(re.fullmatch(r"(0x[0-9a-fA-F]+|\d+)[uUiI]?", s) for s in sizes) else None)

    def _kernel(self, dev, nbind: int, invocations: int):
        readonly = tuple(k in self._read_only for k in range(nbind))
        try:
            return launch.compile_source(dev, ("raw", self.entry_point, self.code, nbind), self.code, readonly,
                                         invocations, self.entry_point)
        except CompileError as e:
            raise CompileError(f"RawKernel {self.entry_point}: {e}") from e.__cause__

    def compile(self, nbindings: int, device=None) -> None:
        """Compile now for ``nbindings`` arrays (a launch compiles on first use); CompileError when invalid."""
        self._kernel(core.resolve_device(device), nbindings, 1)

    def __call__(self, grid, workgroup_size, args: Sequence[Any], *, device=None) -> None:
        grid3 = _triple(grid, "grid")
        block = _triple(workgroup_size, "workgroup_size")
        if self.workgroup_size is not None and block != self.workgroup_size:
            raise ValueError(f"RawKernel {self.entry_point}: workgroup_size {block} differs from the shader's "
                             f"@workgroup_size{self.workgroup_size}")
        arrays = [a for a in args if isinstance(a, Array)]
        dev = core.common_device(arrays) if arrays else core.resolve_device(device)
        mirrors = []
        params = _Uniform()
        for k, a in enumerate(args):
            if isinstance(a, Array):
                if a.offset != 0 or not a.is_contiguous:
                    raise ValueError(f"RawKernel {self.entry_point}: argument {k} is a view (offset {a.offset}, "
                                     f"strides {a.strides}); bind a contiguous array that starts its buffer")
                if any(a.mirror is m for m in mirrors):
                    raise ValueError(f"RawKernel {self.entry_point}: argument {k} binds a buffer already bound")
                mirrors.append(a.mirror)
            else:
                params.add(a, k, dev)
        limit = dev.properties.limits.max_compute_workgroups_per_dimension
        if any(g > limit for g in grid3):
            raise ValueError(f"RawKernel {self.entry_point}: grid {grid3} exceeds {limit} workgroups a dimension")
        kernel = self._kernel(dev, len(mirrors), math.prod(block))
        if 0 in grid3:
            return
        buffers = [m.buffer() for m in mirrors]  # host-only inputs uploaded first
        for k, m in enumerate(mirrors):  # then every writable binding is the device's (the kernel may write it)
            if k not in self._read_only:
                m.buffer_for_write()
        launch.dispatch(dev, kernel, buffers, params.bytes(), grid=grid3,
                        work=sum(m.size * m.dtype.device_itemsize for m in mirrors))


def _triple(v, what: str) -> tuple[int, int, int]:
    t = (v,) if isinstance(v, (int, np.integer)) else tuple(v)
    if not 1 <= len(t) <= 3 or any(not isinstance(x, (int, np.integer)) or x < 0 for x in t):
        raise ValueError(f"{what} must be 1 to 3 non-negative ints, not {v!r}")
    return tuple(int(x) for x in t) + (1,) * (3 - len(t))  # type: ignore[return-value]


class _Uniform:
    """A RawKernel's scalars, packed as a WGSL uniform struct of scalars in argument order."""

    def __init__(self) -> None:
        self._buf = bytearray()

    def add(self, value: Any, k: int, dev) -> None:
        if isinstance(value, np.generic):
            d = _dt.as_dtype(value.dtype)
        elif isinstance(value, (bool, np.bool_)):
            d = _dt.bool
        elif isinstance(value, int):
            d = _dt.int32
        elif isinstance(value, float):
            d = _dt.float32
        else:
            raise TypeError(f"RawKernel: argument {k} is a {type(value).__name__}, not an Array or a scalar")
        core.check_supported(d, dev)
        data = core.scalar_for(value, d).storage_bytes()
        self._buf.extend(b"\0" * (-len(self._buf) % len(data)))
        self._buf.extend(data)

    def bytes(self) -> bytes:
        """The block padded to 16 bytes (a uniform struct's size rounds up to 16); 16 zero bytes when empty."""
        data = bytes(self._buf) or b"\0" * 16
        return data + b"\0" * (-len(data) % 16)
