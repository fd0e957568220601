"""Launch any op of the elementwise table over broadcast, strided views into an output view."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence, Union

import numpy as np

from ..dtypes import DType
from . import layout, source
from .ewtable import EwOp
from .layout import MAXD, WORKGROUP, ViewLike

_NAMES = "xyz"


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


def _is_whole(v: ViewLike) -> bool:
    size = math.prod(v.shape)
    return v.offset == 0 and size == v.mirror.size and tuple(v.strides) == layout.contiguous_strides(v.shape)


def run(device, op: EwOp, operands: Sequence[Operand], out: ViewLike, cdt: DType,
        cdts: Sequence[DType] | None = None) -> None:
    """out[...] = op(operands converted to ``cdt``), converted to ``out.dtype`` on store.

    ``cdts`` gives a compute dtype per operand where they differ (``where``'s condition is bool)."""
    if cdts is None:
        cdts = [_bool() if op.compute == "bool" else cdt] * len(operands)
    n = math.prod(out.shape)
    if n == 0:
        return
    shape = tuple(out.shape)
    views = [o for o in operands if not isinstance(o, Scalar)]
    strides = [layout.broadcast_strides(v.shape, v.strides, shape) for v in views] + [tuple(out.strides)]
    cshape, cstrides = layout.collapse(shape, strides)
    if len(cshape) > MAXD:
        raise ValueError(f"wgarray kernels address at most {MAXD} non-mergeable dimensions, got {len(cshape)}")
    if len(views) + 1 > 8:
        raise ValueError("too many array operands for one kernel")

    # bindings: one per distinct buffer; the output's binding is read_write and inputs sharing it read it
    buffers: list = []
    mirrors: list = []
    for v in views:
        buf = v.mirror.buffer()
        if not any(m is v.mirror for m in mirrors):
            mirrors.append(v.mirror)
            buffers.append(buf)
    out_buf = out.mirror.buffer_for_write(whole=_is_whole(out) and all(v.mirror is not out.mirror for v in views))
    if not any(m is out.mirror for m in mirrors):
        mirrors.append(out.mirror)
        buffers.append(out_buf)
    slot = {id(m): k for k, m in enumerate(mirrors)}
    out_slot = slot[id(out.mirror)]

    sig = []
    vi = 0
    for o in operands:
        if isinstance(o, Scalar):
            sig.append(("k", o.dtype.name))
        else:
            sig.append(("v", o.dtype.name, slot[id(o.mirror)], layout.variant(cshape, cstrides[vi]), vi))
            vi += 1
    out_sig = (out.dtype.name, out_slot, layout.variant(cshape, cstrides[-1]))
    mirror_dtypes = tuple(m.dtype.name for m in mirrors)
    key = ("ew", op.name, cdt.name, tuple(d.name for d in cdts), tuple(sig), out_sig, mirror_dtypes)
    dtypes = [cdt, out.dtype] + [o.dtype for o in operands] + [m.dtype for m in mirrors]
    pipe, bgl = device.pipeline(key, lambda: _build(op, operands, sig, out, out_sig, mirrors, cdt, cdts, dtypes,
                                                    len(views) + 1))

    params = layout.Params().u32(n, len(cshape), 0, 0).vec_array(cshape, signed=False)
    offs = [v.offset for v in views] + [out.offset]
    params.vec_array(offs, signed=False, length=16)
    for s in cstrides:
        params.vec_array(s, signed=True)
    for o in _scalar_order(operands):
        params.raw(o.storage_bytes(), o.dtype.device_itemsize)
    group = device.stream.bind_group(bgl, buffers)
    wg = layout.grid(math.ceil(n / WORKGROUP), device.properties.limits.max_compute_workgroups_per_dimension)
    device.stream.dispatch(pipe, group, buffers, params.bytes(), wg)


def _build(op: EwOp, operands, sig, out, out_sig, mirrors, cdt: DType, cdts, dtypes, nstrides: int):
    readonly = [m is not out.mirror for m in mirrors]
    bindings = "\n".join(
        f"@group(0) @binding({k}) var<storage, {'read' if ro else 'read_write'}> b{k}: array<{m.dtype.wgsl}>;"
        for k, (m, ro) in enumerate(zip(mirrors, readonly)))
    scalars, index, body = [], [], []
    strided = [s for s in sig if s[0] == "v" and s[3] == "s"]
    out_strided = out_sig[2] == "s"
    # index expressions
    idx_of = {}
    for s in sig:
        if s[0] != "v":
            continue
        vi = s[4]
        if s[3] == "c":
            idx_of[vi] = f"(p.offs[{vi // 4}][{vi % 4}] + i)"
        elif s[3] == "z":
            idx_of[vi] = f"p.offs[{vi // 4}][{vi % 4}]"
        else:
            idx_of[vi] = f"u32(j{vi})"
    nv = nstrides - 1
    out_idx = f"u32(j{nv})" if out_strided else f"(p.offs[{nv // 4}][{nv % 4}] + i)"
    if strided or out_strided:
        walkers = [s[4] for s in strided] + ([nv] if out_strided else [])
        index.append("    var rem = i;")
        for w in walkers:
            index.append(f"    var j{w}: i32 = i32(p.offs[{w // 4}][{w % 4}]);")
        index.append("    for (var d: i32 = i32(p.ndim) - 1; d >= 0; d = d - 1) {")
        index.append("        let extent = p.shape[d / 4][d % 4];")
        index.append("        let c = i32(rem % extent);")
        index.append("        rem = rem / extent;")
        for w in walkers:
            index.append(f"        j{w} = j{w} + c * p.st[{w}][d / 4][d % 4];")
        index.append("    }")
    # operand values
    k = 0
    for pos, (o, s) in enumerate(zip(operands, sig)):
        name = _NAMES[pos]
        if s[0] == "k":
            scalars.append((o, f"    s{k}: {o.dtype.wgsl},"))
            raw = f"p.s{k}"
            k += 1
        else:
            raw = f"b{s[2]}[{idx_of[s[4]]}]"
        val = source.convert(o.dtype, cdts[pos], source.load_expr(o.dtype, raw))
        body.append(f"    let {name} = {val};")
    kind = "b" if op.compute == "bool" else cdt.kind
    expr = op.exprs[kind].format(x="x", y="y", z="z", T=source.ctype(cdt), i="i")
    rdt = _bool() if op.result == "bool" else cdt
    body.append(f"    let r = {expr};")
    body.append(f"    b{out_sig[1]}[{out_idx}] = {source.store_expr(out.dtype, source.convert(rdt, out.dtype, 'r'))};")
    order = _scalar_order([o for o, _ in scalars])
    scalar_block = "\n".join(line for o, line in sorted(scalars, key=lambda ol: order.index(ol[0])))
    src = source.render("elementwise.wgsl", ENABLES="", HELPERS=source.helpers(dtypes), NSTRIDES=nstrides,
                        SCALARS=scalar_block, BINDINGS=bindings, WG=WORKGROUP, INDEX="\n".join(index),
                        BODY="\n".join(body))
    return src, readonly


def _scalar_order(operands) -> list[Scalar]:
    """Scalars in parameter-block order: 8-byte ones first, so every member is naturally aligned."""
    scal = [o for o in operands if isinstance(o, Scalar)]
    return sorted(scal, key=lambda o: o.dtype.device_itemsize != 8)


def _bool() -> DType:
    from .. import dtypes
    return dtypes.bool
