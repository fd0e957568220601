"""Fused elementwise kernels: a chain (a DAG) of rows of the elementwise table rendered as one WGSL kernel.

A ``Program`` lists ``Step``s in evaluation order; every step is one eager op exactly as ``elementwise.py`` would
run it: its operands converted from their stored dtype to the compute dtype(s), the row's expression template, and
the result narrowed to the step's dtype as the eager op's store would narrow it (``source.store_expr``: float16
rounded, int8/int16 wrapped, uint8/uint16 masked, bool normalised).  The next step reads that stored value, so a
fused chain computes bit for bit what the chain of eager ops stores, with one pass over memory.

The kernel is ``elementwise.wgsl`` with a longer body: its inputs are addressed as the one-op kernel addresses its
operands (``elementwise.addressing``: contiguous, one broadcast element, or strided), its outputs are fresh and
contiguous.  ``map_function`` renders the same program as the map of a fused map-reduce (``reduce.Map``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

from ..dtypes import DType
from . import launch, layout, source
from .elementwise import Scalar, addressing, expression, result_dtype
from .ewtable import EwOp
from .layout import MAXD

_NAMES = "xyz"


@dataclass(frozen=True)
class Step:
    """One op of a chain.  ``args``: ("in", k) input k, ("s", k) scalar slot k, ("t", k) the result of step k."""

    op: EwOp
    args: tuple[tuple[str, int], ...]
    dtypes: tuple[DType, ...]  # each operand's stored dtype
    cdts: tuple[DType, ...]  # each operand's compute dtype
    cdt: DType  # the op's compute dtype (the expression's {T})
    out: DType  # the dtype the eager op stores


@dataclass(frozen=True)
class Program:
    steps: tuple[Step, ...]
    inputs: tuple[DType, ...]  # mirror dtype of each input view
    scalars: tuple[DType, ...]  # dtype of each scalar slot
    outputs: tuple[int, ...]  # the step each output holds

    def dtypes(self) -> list[DType]:
        out = list(self.inputs) + list(self.scalars)
        for s in self.steps:
            out += [s.cdt, s.out, *s.cdts]
        return out


def emit(program: Program, value: Callable[[int, int], str], scalar: Callable[[int], str], lane: int | None,
         lane_index: str) -> tuple[list[str], list[str]]:
    """WGSL lines computing every step for one element (``lane``: the vec4 lane, or None), and the names holding
    the outputs' stored values.  ``value(k, lane)`` is input k's stored element, ``scalar(k)`` scalar slot k."""
    sfx = "" if lane is None else f"_{lane}"
    lines = []
    for n, st in enumerate(program.steps):
        names = []
        for pos, (ref, dt, cdt) in enumerate(zip(st.args, st.dtypes, st.cdts)):
            kind, k = ref
            raw = value(k, lane or 0) if kind == "in" else scalar(k) if kind == "s" else f"t{k}{sfx}"
            name = f"{_NAMES[pos]}{n}{sfx}"
            lines.append(f"    let {name} = {source.convert(dt, cdt, source.load_expr(dt, raw))};")
            names.append(name)
        rdt = result_dtype(st.op, st.cdt)
        expr = expression(st.op, st.cdt, st.cdts, names, lane_index)
        stored = source.store_expr(st.out, source.convert(rdt, st.out, expr))
        if st.out.wgsl in ("f32", "f64"):
            # the eager op stores this value: rounded there, never part of a contracted a * b + c (GPU drivers
            # fuse such chains into FMAs within one kernel; wg_impl_opaque keeps the rounding, as complex.wgsl does)
            stored = f"wg_impl_opaque_{st.out.wgsl}({stored})"
        lines.append(f"    let t{n}{sfx} = {stored};")
    return lines, [f"t{k}{sfx}" for k in program.outputs]


def _scalar_decls(program: Program, prefix: str) -> tuple[str, tuple[int, ...]]:
    """Parameter-block members of the scalar slots (widest first, so each is naturally aligned), and the
    slots in that order."""
    order = sorted(range(len(program.scalars)), key=lambda k: -program.scalars[k].device_itemsize)
    return "\n".join(f"    {prefix}{k}: {program.scalars[k].wgsl}," for k in order), tuple(order)


def scalar_bytes(scalars: Sequence[Scalar], order: Sequence[int]) -> bytes:
    """The scalars' part of a parameter block, in the order ``_scalar_decls`` declared them."""
    if not order:
        return b""
    params = layout.Params()
    for k in order:
        params.raw(scalars[k].storage_bytes(), scalars[k].dtype.device_itemsize)
    return params.bytes()


@dataclass(frozen=True)
class Plan:
    """A fused launch for one signature: everything but the buffers and the scalar values."""

    kernel: tuple  # from launch.compile
    prefix: bytes
    grid: tuple[int, int, int]
    order: tuple[int, ...]  # scalar slots in parameter-block order
    nbind: int  # distinct input buffers (the outputs' bindings follow)
    work: int


def fits(device, program: Program, views: Sequence, slots: Sequence[int], shape: tuple[int, ...]) -> bool:
    """Whether one kernel binds every buffer: few enough for a shader stage, each within one binding."""
    limits = device.properties.limits
    n = math.prod(shape)
    nbind = max(slots, default=-1) + 1
    if nbind + len(program.outputs) > limits.max_storage_buffers_per_shader_stage or len(views) > 15:
        return False
    binding = limits.max_storage_buffer_binding_size
    return not (any(v.mirror.size * v.dtype.device_itemsize > binding for v in views)
                or any(n * program.steps[k].out.device_itemsize > binding for k in program.outputs))


def plan(device, program: Program, views: Sequence, slots: Sequence[int], shape: tuple[int, ...]) -> Plan | None:
    """The launch of ``program`` over input views (``slots``: the binding of each; views of one base share one)
    into fresh contiguous outputs of ``shape``.  None when one kernel cannot do it (more dimensions than it
    addresses, more buffers than a stage binds, a buffer beyond one binding): the caller runs the steps one by one.
    """
    if not fits(device, program, views, slots, shape):
        return None
    n = math.prod(shape)
    strides = [layout.broadcast_strides(v.shape, v.strides, shape) for v in views]
    cshape, cstrides = layout.collapse(shape, strides + [layout.contiguous_strides(shape)])
    if len(cshape) > MAXD:
        return None
    variants = tuple(layout.variant(cshape, st) for st in cstrides[:-1])
    widths = {program.inputs[k].device_itemsize for k in range(len(views))} | \
        {program.steps[k].out.device_itemsize for k in program.outputs}
    vec = (widths == {4} and all(va == "z" or (va == "c" and v.offset % 4 == 0) for va, v in zip(variants, views)))
    key = ("fused", program, tuple(slots), variants, vec)
    kernel = launch.compile(device, key, lambda: _build(program, slots, variants, vec))
    threads = math.ceil(n / 4) if vec else n
    params = layout.Params().u32(threads, len(cshape), 0, 0).vec_array(cshape, signed=False)
    params.vec_array([v.offset % (1 << 32) for v in views] + [0], signed=False, length=16)
    for st in cstrides[:-1]:
        params.vec_array(st, signed=True)
    params.vec_array(cstrides[-1], signed=True)
    order = _scalar_decls(program, "s")[1]
    work = n * (sum(v.dtype.device_itemsize for v in views)
                + sum(program.steps[k].out.device_itemsize for k in program.outputs))
    return Plan(kernel, params.bytes(), launch.grid_for(device, threads=threads), order, max(slots, default=-1) + 1,
                work)


def run(device, p: Plan, buffers: Sequence, outs: Sequence, scalars: Sequence[Scalar]) -> None:
    """One dispatch of a fused plan: ``buffers`` the distinct input buffers (by slot), ``outs`` fresh mirrors."""
    bufs = list(buffers) + [m.buffer_for_write(whole=True) for m in outs]
    launch.dispatch(device, p.kernel, bufs, p.prefix + scalar_bytes(scalars, p.order), grid=p.grid, work=p.work)


def _build(program: Program, slots: Sequence[int], variants: Sequence[str], vec: bool) -> launch.Kernel:
    nin = len(variants)
    nbind = max(slots, default=-1) + 1
    lanes = 4 if vec else 1
    in_types = {}
    for k, s in enumerate(slots):
        in_types[s] = program.inputs[k].wgsl
    bindings = [launch.read(f"b{s}", f"array<vec4<{in_types[s]}>>" if vec else f"array<{in_types[s]}>")
                for s in range(nbind)]
    for j, k in enumerate(program.outputs):
        t = program.steps[k].out.wgsl
        bindings.append(launch.write(f"o{j}", f"array<vec4<{t}>>" if vec else f"array<{t}>"))
    nv = nin  # the outputs' (unused) strides follow the inputs'
    idx_of, _, index = addressing(list(enumerate(variants)), ["c"], nv, vec, (nv,))
    body = []
    for k, va in enumerate(variants):
        if vec and va == "c":
            body.append(f"    let v{k} = b{slots[k]}[{idx_of[k]}];")

    def value(k: int, lane: int) -> str:
        if vec and variants[k] == "c":
            return f"v{k}[{lane}]"
        return f"b{slots[k]}[{idx_of[k]}]"

    results = []
    for lane in range(lanes):
        lines, outs = emit(program, value, lambda k: f"p.s{k}", lane if vec else None,
                           f"(i * 4u + {lane}u)" if vec else "i")
        body += lines
        results.append(outs)
    for j in range(len(program.outputs)):
        t = program.steps[program.outputs[j]].out.wgsl
        val = f"vec4<{t}>({', '.join(r[j] for r in results)})" if vec else results[0][j]
        body.append(f"    o{j}[i] = {val};")
    decls, _ = _scalar_decls(program, "s")
    return launch.Kernel("elementwise.wgsl", tuple(bindings), dict(
        ENABLES="", HELPERS=source.helpers(program.dtypes()), CODE="", NSTRIDES=nin + 1, BASE="", SCALARS=decls,
        INDEX="\n".join(index), BODY="\n".join(body)))


# -- the map of a fused map-reduce -----------------------------------------------------------------------------
def map_function(program: Program, slots: Sequence[int]) -> tuple[str, str, tuple[launch.Binding, ...], tuple]:
    """``fn wg_map(o, j)``: the stored value of ``program``'s one output at row ``o``, element ``j`` of a
    reduction's [kept, reduced] view, its parameter-block members, its input bindings and its scalar order.  Every
    input k is addressed through its own offset and strides over the kept (``most``) and reduced (``mist``)
    dimensions, which ``reduce.py`` packs after its own parameters."""
    nin = len(program.inputs)
    nbind = max(slots, default=-1) + 1
    types = {s: program.inputs[k].wgsl for k, s in enumerate(slots)}
    bindings = tuple(launch.read(f"m{s}", f"array<{types[s]}>") for s in range(nbind))
    out = program.steps[program.outputs[0]].out
    lines = [f"fn wg_map(o: u32, j: u32) -> {out.wgsl} {{", "    var ro = o;", "    var rj = j;"]
    lines += [f"    var a{k}: i32 = i32(p.moff[{k // 4}][{k % 4}]);" for k in range(nin)]
    for walk, shp, st in (("ro", "oshape", "ondim"), ("rj", "ishape", "indim")):
        mst = "most" if walk == "ro" else "mist"
        lines += [f"    for (var d: i32 = i32(p.{st}) - 1; d >= 0; d = d - 1) {{",
                  f"        let e = p.{shp}[d / 4][d % 4];", f"        let c = i32({walk} % e);",
                  f"        {walk} = {walk} / e;"]
        lines += [f"        a{k} = a{k} + c * p.{mst}[{k}][d / 4][d % 4];" for k in range(nin)]
        lines.append("    }")
    body, outs = emit(program, lambda k, lane: f"m{slots[k]}[u32(a{k})]", lambda k: f"p.ms{k}", None, "j")
    lines += body + [f"    return {outs[0]};", "}"]
    decls, order = _scalar_decls(program, "ms")
    members = "\n".join([
        "    moff: array<vec4<u32>, 4>,",
        f"    most: array<array<vec4<i32>, 2>, {max(nin, 1)}>,",
        f"    mist: array<array<vec4<i32>, 2>, {max(nin, 1)}>,"] + ([decls] if decls else []))
    return "\n".join(lines), members, bindings, order

