"""Sorting along an axis of a strided view: a bitonic sort of (key, original index) pairs per row.

Values become unsigned keys whose order is the value order (``shaders/sortkey*.wgsl``: NaNs last and equal to
each other, -0.0 equal to 0.0; descending sorts use the complemented key), and pairs order by key, then index,
so the sort is stable (descending too: equal values keep their original order, NaNs come first).  Rows are
padded to a power of two N and laid out contiguously.  Passes: one local sort of every 1024-pair tile in
workgroup memory (all stages up to min(N, 1024)); then for each larger merge stage k the steps with strides
>= 1024 as global passes and the rest as one local pass; finally a gather writes values and/or indices.
"""
from __future__ import annotations

import math

from .. import dtypes as dt
from ..alloc.mirror import Mirror
from ..dtypes import DType
from . import layout, rows, source
from .layout import ViewLike

WG = layout.WORKGROUP
TILE = 1024  # pairs a workgroup sorts in workgroup memory (12 KiB with 64-bit keys)


def key_dtype(d: DType) -> DType:
    """The unsigned dtype of ``d``'s sort keys (from its storage type)."""
    return dt.uint64 if d.device_itemsize == 8 else dt.uint32


def key_functions(dtypes) -> str:
    """WGSL of the key functions that the given (storage or compute) dtypes need."""
    text = source.load("sortkey32.wgsl")
    if any(key_dtype(d) is dt.uint64 for d in dtypes):
        text += "\n" + source.load("sortkey64.wgsl")
    return text


def key_expr(d: DType, v: str, descending: bool = False) -> str:
    """The sort key of the compute value ``v`` of dtype ``d`` (complemented for descending order)."""
    if d.kind == "b":
        k = f"select(0u, 1u, {v})"
    else:
        k = f"wg_key_{d.wgsl}({v})"
    return f"(~{k})" if descending else k


def storage_key_expr(d: DType, raw: str, descending: bool = False) -> str:
    """The sort key of a storage element ``raw`` of dtype ``d``."""
    k = f"wg_key_{d.wgsl}({raw})"
    return f"(~{k})" if descending else k


def _maxkey(k: DType) -> str:
    return "0xffffffffu" if k is dt.uint32 else "(~u64(0u))"


def run(device, x: ViewLike, axis: int, descending: bool, values_out: ViewLike | None,
        index_out: ViewLike | None) -> None:
    """Sort ``x`` along ``axis`` into fresh arrays of ``x``'s shape: the values (same dtype) and/or the indices
    (int32) that sort each row."""
    outs = [o for o in (values_out, index_out) if o is not None]
    n_rows, length, rws = rows.split(x.shape, [axis], [(x.offset, x.strides)] + [(o.offset, o.strides)
                                                                                 for o in outs])
    if n_rows * length == 0:
        return
    logn = (length - 1).bit_length()
    n = 1 << logn
    total = n_rows * n
    if total >= 1 << 31:
        raise MemoryError(f"sorting {n_rows} rows padded to {n} elements is too large for one device buffer")
    kdt = key_dtype(x.dtype)
    keys = Mirror(kdt, total, device)
    idxs = Mirror(dt.uint32, total, device)
    kbuf = keys.buffer_for_write(whole=True)
    ibuf = idxs.buffer_for_write(whole=True)
    src = x.mirror.buffer()
    max_dim = device.properties.limits.max_compute_workgroups_per_dimension
    tiles = layout.grid(math.ceil(total / TILE), max_dim)

    def local(init: bool, k_lo: int, k_hi: int) -> None:
        key = ("sort_local", x.dtype.name if init else kdt.name, init, descending if init else None)
        pipe, bgl = device.pipeline(key, lambda: _build_local(x.dtype, kdt, init, descending))
        params = layout.Params().u32(n_rows, length, logn, total, k_lo, k_hi, 0, 0)
        rws[0].pack(params)
        buffers = ([src] if init else []) + [kbuf, ibuf]
        device.stream.dispatch(pipe, device.stream.bind_group(bgl, buffers), buffers, params.bytes(), tiles)

    local(True, 2, min(n, TILE))
    k = 2 * TILE
    while k <= n:
        j = k // 2
        while j >= TILE:
            pipe, bgl = device.pipeline(("sort_global", kdt.name), lambda: _build_global(kdt))
            params = layout.Params().u32(total, logn, k, j)
            buffers = [kbuf, ibuf]
            device.stream.dispatch(pipe, device.stream.bind_group(bgl, buffers), buffers, params.bytes(),
                                   layout.grid(math.ceil(total // 2 / WG), max_dim))
            j //= 2
        local(False, k, k)
        k *= 2
    _gather(device, x, src, ibuf, rws, values_out is not None, index_out is not None, n_rows, length, logn,
            [o.mirror for o in outs])


def _gather(device, x, src, ibuf, rws, values: bool, indices: bool, n_rows, length, logn, out_mirrors):
    key = ("sort_gather", x.dtype.name, values, indices)
    pipe, bgl = device.pipeline(key, lambda: _build_gather(x.dtype, values, indices))
    params = layout.Params().u32(n_rows, length, logn, 0)
    rws[0].pack(params)
    k = 1
    for want in (values, indices):  # unused Rows members stay zero
        if want:
            rws[k].pack(params)
            k += 1
        else:
            rows.Rows(0, (), (), (), ()).pack(params)
    buffers = ([src] if values else []) + [ibuf] + [m.buffer_for_write(whole=True) for m in out_mirrors]
    grid = layout.grid(math.ceil(n_rows * length / WG), device.properties.limits.max_compute_workgroups_per_dimension)
    device.stream.dispatch(pipe, device.stream.bind_group(bgl, buffers), buffers, params.bytes(), grid)


def _build_local(xdt: DType, kdt: DType, init: bool, descending: bool):
    k = kdt.wgsl
    if init:
        bind = [f"@group(0) @binding(0) var<storage, read> src: array<{xdt.wgsl}>;"]
        load = "\n".join([
            "            let row = f >> p.logn;",
            "            let pos = f & mask;",
            "            if (pos < p.L) {",
            f"                key = {storage_key_expr(xdt, 'src[src_at(row, pos)]', descending)};",
            "                idx = pos;",
            "            }"])
    else:
        bind = []
        load = "            key = keys[f];\n            idx = idxs[f];"
    nb = len(bind)
    bind += [f"@group(0) @binding({nb}) var<storage, read_write> keys: array<{k}>;",
             f"@group(0) @binding({nb + 1}) var<storage, read_write> idxs: array<u32>;"]
    text = source.render(
        "sort_local.wgsl", HELPERS="", KEYFNS=key_functions([xdt]), ROWS_STRUCT=rows.wgsl_struct(),
        BINDINGS="\n".join(bind), ROWS_SRC=rows.wgsl_functions("src", "p.src"), K=k, TILE=TILE, WG=WG,
        MAXK=_maxkey(kdt), LOAD=load)
    return text, [True] * (nb == 1) + [False, False]


def _build_global(kdt: DType):
    return source.render("sort_global.wgsl", K=kdt.wgsl, WG=WG), [False, False]


def _build_gather(xdt: DType, values: bool, indices: bool):
    bind, ro, write = [], [], []
    if values:
        bind.append(f"var<storage, read> src: array<{xdt.wgsl}>;")
        ro.append(True)
    bind.append("var<storage, read> idxs: array<u32>;")
    ro.append(True)
    if values:
        bind.append(f"var<storage, read_write> vout: array<{xdt.wgsl}>;")
        ro.append(False)
        write.append("    vout[vout_at(row, pos)] = src[src_at(row, id)];")
    if indices:
        bind.append("var<storage, read_write> iout: array<i32>;")
        ro.append(False)
        write.append("    iout[iout_at(row, pos)] = i32(id);")
    fns = "\n".join(rows.wgsl_functions(nm, f"p.{nm}") for nm in ("src", "vout", "iout"))
    text = source.render(
        "sort_gather.wgsl", ROWS_STRUCT=rows.wgsl_struct(),
        BINDINGS="\n".join(f"@group(0) @binding({i}) {b}" for i, b in enumerate(bind)), ROWS_FNS=fns, WG=WG,
        WRITE="\n".join(write))
    return text, ro
