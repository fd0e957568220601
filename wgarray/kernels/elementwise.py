"""Launch any op of the elementwise table over broadcast, strided views into an output view."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence, Union

import numpy as np

from ..dtypes import DType
from . import launch, layout, source
from .ewtable import EwOp
from .layout import MAXD, WORKGROUP, ViewLike

# operand names in expression templates: {x} {y} {z}, then {q3} {q4} ... (random draws take key, counter and
# parameters as scalars)
_NAMES = ("x", "y", "z") + tuple(f"q{k}" for k in range(3, 16))


@dataclass(frozen=True)
class Scalar:
    """A Python scalar operand, already given its dtype; it travels in the parameter block."""

    value: Any
    dtype: DType

    def storage_bytes(self) -> bytes:
        d = self.dtype
        if d.kind == "b":
            return np.array(1 if self.value else 0, dtype=np.uint32).tobytes()
        v = np.array(self.value).astype(d.numpy) if not isinstance(self.value, np.ndarray) else self.value
        return np.asarray(v, dtype=d.numpy).astype(d.storage_numpy).tobytes()


Operand = Union[ViewLike, Scalar]


@dataclass(frozen=True)
class _Plan:
    """Everything about a launch that depends only on dtypes and layout: reused for every call alike."""

    kernel: Any  # from launch.compile
    prefix: bytes  # the parameter block up to the scalars
    grid: tuple[int, int, int]
    scalar_order: tuple[int, ...]  # operand positions of the scalars, in parameter-block order
    out_whole: tuple[bool, ...]  # per output buffer not also an input: the outputs cover every element of it
    work: int  # bytes the launch reads and writes (at most)
    chunks: tuple = ()  # for buffers beyond one binding: (params, grid, window per binding, work) per dispatch


_MAX_PLANS = 4096


def run(device, op: EwOp, operands: Sequence[Operand], out: ViewLike | Sequence[ViewLike], cdt: DType,
        cdts: Sequence[DType] | None = None, rdts: Sequence[DType] | None = None) -> _Plan | None:
    """out[...] = op(operands converted to ``cdt``), converted to ``out.dtype`` on store.

    ``cdts`` gives a compute dtype per operand where they differ (``where``'s condition is bool).  ``out`` is a
    sequence of views (all of one shape) for ops of several results (``op.results``, user kernels), ``rdts`` the
    dtype each result is computed in (default: the op's result rule).  Returns the cached plan it launched (None
    for an empty output or more dimensions than a kernel addresses), which a caller may keep to launch the same
    layouts again (``ops/elementwise.py``'s recipes)."""
    outs = tuple(out) if isinstance(out, (tuple, list)) else (out,)
    if 0 in outs[0].shape:
        return None
    # bindings: one per distinct buffer, inputs first; the outputs' bindings are read_write and inputs sharing them
    # read them.  The plan key: the op, its dtypes, and per operand its dtype (a scalar) or its layout and binding.
    mirrors: list = []  # Mirror has no __eq__: `in` and index() compare identity
    key: list = [op.name, cdt, cdts if cdts is None else tuple(cdts), rdts if rdts is None else tuple(rdts)]
    for o in operands:
        if type(o) is Scalar:
            key.append(o.dtype)
            continue
        m = o.mirror
        if m in mirrors:
            k = mirrors.index(m)
        else:
            k = len(mirrors)
            mirrors.append(m)
        key.append((m.dtype, m.size, o.shape, o.strides, o.offset, k))
    n_in = len(mirrors)
    aliased = None  # outputs whose buffer is also an input's
    for o in outs:
        om = o.mirror
        if om in mirrors:
            k = mirrors.index(om)
            if k < n_in:
                aliased = [om] if aliased is None else aliased + [om]
        else:
            k = len(mirrors)
            mirrors.append(om)
        key.append((o.dtype, o.shape, o.strides, o.offset, om.size, k))
    plans = device.plans
    plan = plans.get(tkey := tuple(key))
    if plan is None:
        out_slots = tuple(d[5] for d in key[-len(outs):])
        plan = _plan(device, op, operands, outs, cdt, cdts, rdts, mirrors, out_slots)
        if plan is None:  # more dimensions than a kernel addresses: one launch per index of the first
            _run_by_first_dim(device, op, operands, outs, cdt, cdts, rdts)
            return None
        if len(plans) >= _MAX_PLANS:
            plans.clear()
        plans[tkey] = plan
    # inputs first (uploaded if host-only), then the outputs' buffers: fresh ones written whole skip the sync
    buffers = [m.buffer() for m in mirrors[:n_in]]
    whole = plan.out_whole
    for k in range(n_in, len(mirrors)):
        buffers.append(mirrors[k].buffer_for_write(whole[k - n_in]))
    if aliased is not None:
        for m in aliased:
            m.buffer_for_write()
    if plan.scalar_order:
        scal = layout.Params()
        for pos in plan.scalar_order:
            o = operands[pos]
            scal.raw(o.storage_bytes(), o.dtype.device_itemsize)
        tail = scal.bytes()
    elif not plan.chunks:  # no scalars, one launch: the prefix itself, so the stream sees a repeated block
        launch.dispatch(device, plan.kernel, buffers, plan.prefix, grid=plan.grid, work=plan.work)
        return plan
    else:
        tail = b""
    if not plan.chunks:
        launch.dispatch(device, plan.kernel, buffers, plan.prefix + tail, grid=plan.grid, work=plan.work)
        return plan
    for prefix, grid, ranges, work in plan.chunks:
        launch.dispatch(device, plan.kernel, buffers, prefix + tail, grid=grid, ranges=ranges, work=work)
    return plan


def _run_by_first_dim(device, op: EwOp, operands, outs, cdt: DType, cdts, rdts) -> None:
    """``run`` for more than MAXD dimensions that cannot be merged: a launch per index of the output's first
    dimension, over views one dimension smaller (recursing while still too many)."""
    shape = tuple(outs[0].shape)
    subs = []
    for o in operands:
        if type(o) is Scalar:
            subs.append(None)
        else:
            st = layout.broadcast_strides(o.shape, o.strides, shape)
            subs.append((o, st))
    for i in range(shape[0]):
        ops = [o if sub is None else layout.View(o.mirror, shape[1:], sub[1][1:], o.offset + i * sub[1][0], o.dtype)
               for o, sub in zip(operands, subs)]
        views = [layout.View(o.mirror, shape[1:], tuple(o.strides[1:]), o.offset + i * o.strides[0], o.dtype)
                 for o in outs]
        run(device, op, ops, views, cdt, cdts, rdts)


def _plan(device, op: EwOp, operands, outs, cdt: DType, cdts, rdts, mirrors, out_slots: tuple[int, ...]
          ) -> _Plan | None:
    if cdts is None:
        cdts = [_bool() if op.compute == "bool" else cdt] * len(operands)
    if rdts is None:
        rdts = [result_dtype(op, cdt)] * len(outs)
    n = math.prod(outs[0].shape)
    shape = tuple(outs[0].shape)
    views = [o for o in operands if not isinstance(o, Scalar)]
    strides = [layout.broadcast_strides(v.shape, v.strides, shape) for v in views] + [tuple(o.strides) for o in outs]
    cshape, cstrides = layout.collapse(shape, strides)
    if len(cshape) > MAXD:
        return None
    if len(views) + len(outs) > 8:
        raise ValueError("too many array operands for one kernel")
    slot = {id(m): k for k, m in enumerate(mirrors)}
    sig = []
    vi = 0
    for o in operands:
        if isinstance(o, Scalar):
            sig.append(("k", o.dtype.name))
        else:
            sig.append(("v", o.dtype.name, slot[id(o.mirror)], layout.variant(cshape, cstrides[vi]), vi))
            vi += 1
    out_sigs = tuple((o.dtype.name, k, layout.variant(cshape, cstrides[len(views) + j]))
                     for j, (o, k) in enumerate(zip(outs, out_slots)))
    mirror_dtypes = tuple(m.dtype.name for m in mirrors)
    n_in = len({slot[id(v.mirror)] for v in views})  # input buffers come first in ``mirrors``
    # an output buffer is written whole (no sync first) when one output alone covers every element of it
    fresh = range(n_in, len(mirrors))
    out_whole = tuple(out_slots.count(k) == 1 and layout.covers_base(outs[out_slots.index(k)].shape,
                                                                      outs[out_slots.index(k)].strides,
                                                                      mirrors[k].size) for k in fresh)
    # 4 elements a thread when every operand is contiguous (or one element) and 4-byte aligned; a partial last
    # vector is only written when it lands in the output base's padding
    vec = (op.vectorize and all(s[2] == "c" and o.offset % 4 == 0 for s, o in zip(out_sigs, outs))
           and (n % 4 == 0 or all(layout.covers_base(o.shape, o.strides, o.mirror.size) for o in outs))
           and all(m.dtype.device_itemsize == 4 for m in mirrors)
           and all(s[3] == "z" or (s[3] == "c" and operands[pos].offset % 4 == 0)
                   for pos, s in enumerate(sig) if s[0] == "v"))
    limits = device.properties.limits
    binding = limits.max_storage_buffer_binding_size
    big = [k for k, m in enumerate(mirrors) if m.size * m.dtype.device_itemsize > binding]
    # contiguous operands at offset 0 of an unsplit launch index with the thread id alone, as a hand-written kernel
    # does (a software Vulkan driver then sees consecutive lanes load consecutive elements)
    offsets = [v.offset for v in views] + [o.offset for o in outs]  # per view, the outputs last (as cstrides)
    vcs = [s[4] for s in sig if s[0] == "v" and s[3] == "c"] + [len(views) + j for j, s in enumerate(out_sigs)
                                                                 if s[2] == "c"]
    plain = () if big else tuple(vi for vi in vcs if offsets[vi] == 0)
    key = ("ew", op.name, cdt.name, tuple(d.name for d in cdts), tuple(d.name for d in rdts), tuple(sig), out_sigs,
           mirror_dtypes, vec, bool(big), plain)
    dtypes = [cdt, *rdts] + [o.dtype for o in operands] + [m.dtype for m in mirrors]
    kernel = launch.compile(device, key, lambda: _build(op, operands, sig, outs, out_sigs, mirrors, cdt, cdts, rdts,
                                                        dtypes, len(views) + len(outs), vec, bool(big), plain))
    threads = math.ceil(n / 4) if vec else n
    lanes = 4 if vec else 1
    itemsizes = [v.dtype.device_itemsize for v in views] + [o.dtype.device_itemsize for o in outs]

    def prefix(start: int, stop: int, offs) -> bytes:  # threads [start, stop), operand offsets as given
        params = layout.Params().u32(stop, len(cshape), start, 0).vec_array(cshape, signed=False)
        params.vec_array([o % (1 << 32) for o in offs], signed=False, length=16)
        for st in cstrides:
            params.vec_array(st, signed=True)
        return params.bytes()

    scal = [pos for pos, o in enumerate(operands) if isinstance(o, Scalar)]
    scal.sort(key=lambda pos: -operands[pos].dtype.device_itemsize)
    wg = launch.grid_for(device, threads=threads)
    work = n * sum(itemsizes)
    if not big:
        return _Plan(kernel, prefix(0, threads, offsets), wg, tuple(scal), out_whole, work)
    # buffers beyond one binding: dispatches over ranges of the output, each binding the window of every large
    # buffer that its elements touch (operand offsets shifted to the window; the shader wraps them modulo 2^32)
    vslot = [slot[id(v.mirror)] for v in views] + list(out_slots)
    align = layout.window_align(limits)
    chunks = []
    start, step = 0, max(WORKGROUP, (binding - align) // max(itemsizes) // (lanes * WORKGROUP) * WORKGROUP)
    while start < threads:
        while True:
            stop = min(start + step, threads)
            spans: dict[int, list[int]] = {}
            for v, k in enumerate(vslot):
                if k in big:
                    lo, hi = layout.span(cshape, cstrides[v], start * lanes, min(stop * lanes, n))
                    have = spans.setdefault(k, [lo + offsets[v], hi + offsets[v]])
                    have[0], have[1] = min(have[0], lo + offsets[v]), max(have[1], hi + offsets[v])
            ranges = [None] * len(mirrors)
            for k, (lo, hi) in spans.items():
                isz = mirrors[k].dtype.device_itemsize
                ranges[k] = layout.window(lo, hi, isz, layout.reach(mirrors[k].size * isz), align)
            if step == 1 or all(r is None or r[1] <= binding for r in ranges):
                break
            step = max(1, step // 2)
        offs = [o - (ranges[k][0] // isz if ranges[k] else 0) for o, k, isz in zip(offsets, vslot, itemsizes)]
        chunk_work = (stop - start) * lanes * sum(itemsizes)
        chunks.append((prefix(start, stop, offs), launch.grid_for(device, threads=stop - start), tuple(ranges),
                       chunk_work))
        start = stop
    return _Plan(kernel, b"", wg, tuple(scal), out_whole, work, tuple(chunks))


def _build(op: EwOp, operands, sig, outs, out_sigs, mirrors, cdt: DType, cdts, rdts, dtypes, nstrides: int,
           vec: bool, split: bool, plain: tuple[int, ...]) -> launch.Kernel:
    """WGSL for one specialisation.  With ``vec`` every thread handles 4 consecutive elements through vec4 loads
    and stores (all operands contiguous or single elements, 4-byte storage, offsets multiple of 4).  An op of
    several results (``op.results``) gives a struct whose members ``o0``, ``o1``, ... go to the outputs in order."""
    lanes = 4 if vec else 1
    written = {id(o.mirror) for o in outs}
    bindings = tuple(launch.Binding(f"b{k}", f"array<{f'vec4<{m.dtype.wgsl}>' if vec else m.dtype.wgsl}>",
                                    "read_write" if id(m) in written else "read") for k, m in enumerate(mirrors))
    scalars, body = [], []
    nv = nstrides - len(outs)  # the first output's view index (inputs' views come first)
    idx_of, out_idx, index = addressing([(s[4], s[3]) for s in sig if s[0] == "v"], [s[2] for s in out_sigs], nv,
                                        vec, plain)
    # operand values
    k = 0
    raws = []
    for pos, (o, s) in enumerate(zip(operands, sig)):
        if s[0] == "k":
            scalars.append((o, f"    s{k}: {o.dtype.wgsl},"))
            raws.append((f"p.s{k}", False))
            k += 1
        elif vec and s[3] == "c":
            body.append(f"    let v{pos} = b{s[2]}[{idx_of[s[4]]}];")
            raws.append((f"v{pos}", True))
        else:
            raws.append((f"b{s[2]}[{idx_of[s[4]]}]", False))
    results: list[list[str]] = [[] for _ in outs]
    # a block expression gives the thread's four elements at once (no array operands, stored as computed)
    kind = "b" if op.compute == "bool" else cdt.kind
    block = (vec and op.block is not None and kind in op.block and len(outs) == 1 and not any(s[0] == "v" for s in sig)
             and source.store_expr(outs[0].dtype, "v") == "v" and source.convert(rdts[0], outs[0].dtype, "v") == "v")
    for lane in range(1 if block else lanes):
        sfx = str(lane) if vec else ""
        for pos, (o, (raw, is_vec)) in enumerate(zip(operands, raws)):
            raw = f"{raw}[{lane}]" if is_vec else raw
            val = source.convert(o.dtype, cdts[pos], source.load_expr(o.dtype, raw))
            body.append(f"    let {_NAMES[pos]}{sfx} = {val};")
        lane_i = "i" if block or not vec else f"(i * 4u + {lane}u)"
        expr = expression(op, cdt, cdts, [n + sfx for n in _NAMES[:len(operands)]], lane_i, block)
        body.append(f"    let r{sfx} = {expr};")
        for j, (o, rdt) in enumerate(zip(outs, rdts)):
            r = f"r{sfx}.o{j}" if op.results > 1 else f"r{sfx}"
            results[j].append(source.store_expr(o.dtype, source.convert(rdt, o.dtype, r)))
    for o, s, idx, res in zip(outs, out_sigs, out_idx, results):
        value = f"vec4<{o.dtype.wgsl}>({', '.join(res)})" if vec and not block else res[0]
        body.append(f"    b{s[1]}[{idx}] = {value};")
    # parameter-block order: widest first (16-byte vec2<f64>, then 8 bytes: every member naturally aligned), else
    # operand order, as ``_plan`` packs them (by position: equal-valued Scalars compare equal, so no lookup by value)
    scalar_block = "\n".join(line for o, line in sorted(scalars, key=lambda ol: -ol[0].dtype.device_itemsize))
    return launch.Kernel("elementwise.wgsl", bindings, dict(
        ENABLES="", HELPERS=source.helpers(dtypes), CODE=op.code, NSTRIDES=nstrides, BASE="p.base + " if split else "",
        SCALARS=scalar_block, INDEX="\n".join(index), BODY="\n".join(body)))


def result_dtype(op: EwOp, cdt: DType) -> DType:
    """The dtype of an op's expression value (before the store converts it to the output dtype)."""
    return _bool() if op.result == "bool" else cdt.component if op.real else cdt


def expression(op: EwOp, cdt: DType, cdts: Sequence[DType] | None, names: Sequence[str], lane_i: str,
               block: bool = False) -> str:
    """The op's WGSL expression over the operand values ``names`` (``{x}``, ``{y}``, ``{z}``, ``{q3}``, ... in
    order; compute dtype ``cdt``, per operand ``cdts``), as the one-op kernel evaluates it; the fused kernels
    (``fused.py``) evaluate each step through it too.  ``block``: the op's vec4 expression (``EwOp.block``), with
    ``lane_i`` the vec4 index."""
    kind = "b" if op.compute == "bool" else cdt.kind
    if "m" in op.exprs and cdts and (cdts[0].kind == "f") != (cdts[1].kind == "f"):
        kind = "m"  # an integer against a float, each in its own type: the exact comparison
    values = dict(zip(_NAMES, list(names) + [""] * (3 - len(names))))
    cd = cdts if cdts else [cdt]
    table = op.block if block and op.block is not None else op.exprs
    return table[kind].format(**values, T=source.ctype(cdt), D=cdt.name, R=cdt.component.wgsl, i=lane_i,
                                 X=source.ctype(cd[0]), Y=source.ctype(cd[-1]))


def addressing(views: Sequence[tuple[int, str]], out_variants: Sequence[str], nv: int, vec: bool,
               plain: tuple[int, ...] = ()) -> tuple[dict[int, str], list[str], list[str]]:
    """WGSL index expressions of the operands of ``elementwise.wgsl``: for each (view number, variant) in
    ``views`` and for the outputs (view numbers ``nv``, ``nv + 1``, ... with ``out_variants``), the element index
    (in vec mode: of the vec4 holding the lane-0 element, or of the single element), plus the lines that walk the
    strided ones.  Shared by the fused
    kernels (``fused.py``), which address their inputs exactly as the one-op kernel does."""
    def off(v: int) -> str:
        return f"p.offs[{v // 4}][{v % 4}]"

    def contiguous(v: int) -> str:
        return "i" if v in plain else f"(u32(i32({off(v)}) >> 2u) + i)" if vec else f"({off(v)} + i)"

    idx_of = {}
    for vi, variant in views:
        if variant == "c":
            idx_of[vi] = contiguous(vi)
        elif variant == "z":
            idx_of[vi] = f"{off(vi)} / 4u][{off(vi)} % 4u" if vec else off(vi)
        else:
            idx_of[vi] = f"u32(j{vi})"
    out_idx = [f"u32(j{nv + j})" if v == "s" else contiguous(nv + j) for j, v in enumerate(out_variants)]
    index: list[str] = []
    walkers = [vi for vi, variant in views if variant == "s"] + [nv + j for j, v in enumerate(out_variants) if v == "s"]
    if walkers:
        index.append("    var rem = i;")
        for w in walkers:
            index.append(f"    var j{w}: i32 = i32({off(w)});")
        index.append("    for (var d: i32 = i32(p.ndim) - 1; d >= 0; d = d - 1) {")
        index.append("        let extent = p.shape[d / 4][d % 4];")
        index.append("        let c = i32(rem % extent);")
        index.append("        rem = rem / extent;")
        for w in walkers:
            index.append(f"        j{w} = j{w} + c * p.st[{w}][d / 4][d % 4];")
        index.append("    }")
    return idx_of, out_idx, index

def _bool() -> DType:
    from .. import dtypes
    return dtypes.bool
