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
from . import launch, layout, rows, source
from .layout import ViewLike

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


BITONIC_MAX = 1024  # longest row the bitonic network sorts on a GPU (one workgroup tile, one pass)


def run(device, x: ViewLike, axis: int, descending: bool, values_out: ViewLike | None,
        index_out: ViewLike | None) -> None:
    """Sort ``x`` along ``axis`` into fresh arrays of ``x``'s shape: the values (same dtype) and/or the indices
    (int32) that sort each row.  On GPUs rows up to BITONIC_MAX long sort in the bitonic network (one
    workgroup-memory pass and a gather, against the radix sort's 3 dispatches a pass), longer ones in the radix
    sort; on CPU adapters (lavapipe) always the radix sort, measured as fast at 1024 and 2-3x faster for many
    short rows (1024 x 1024: 1.0 s against 2.2 s), since a workgroup barrier costs tens of microseconds there."""
    cpu = device.properties.adapter_type == "CPU"
    if x.ndim and (cpu or x.shape[axis] > BITONIC_MAX):
        from . import radix  # radix builds on this module's key functions and gather

        radix.run(device, x, axis, descending, values_out, index_out)
        return
    bitonic(device, x, axis, descending, values_out, index_out)


def bitonic(device, x: ViewLike, axis: int, descending: bool, values_out: ViewLike | None,
            index_out: ViewLike | None) -> None:
    """The bitonic sort of (key, index) pairs (see the module docstring)."""
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
    tiles = launch.grid_for(device, workgroups=math.ceil(total / TILE))

    def local(init: bool, k_lo: int, k_hi: int) -> None:
        key = ("sort_local", x.dtype.name if init else kdt.name, init, descending if init else None)
        kernel = launch.compile(device, key, lambda: _build_local(x.dtype, kdt, init, descending))
        params = layout.Params().u32(n_rows, length, logn, total, k_lo, k_hi, 0, 0)
        rws[0].pack(params)
        buffers = ([src] if init else []) + [kbuf, ibuf]
        launch.dispatch(device, kernel, buffers, params.bytes(), grid=tiles)

    local(True, 2, min(n, TILE))
    k = 2 * TILE
    while k <= n:
        j = k // 2
        while j >= TILE:
            kernel = launch.compile(device, ("sort_global", kdt.name), lambda: _build_global(kdt))
            params = layout.Params().u32(total, logn, k, j)
            launch.dispatch(device, kernel, [kbuf, ibuf], params.bytes(), threads=total // 2)
            j //= 2
        local(False, k, k)
        k *= 2
    gather(device, x, src, ibuf, rws, values_out is not None, index_out is not None, n_rows, length, n, 0,
           [o.mirror for o in outs])


def gather(device, x, src, ibuf, rws, values: bool, indices: bool, n_rows, length, stride, base, out_mirrors,
           carried: bool = False):
    """Write the sorted values and/or indices of each row from the sorted payload ``ibuf`` (row r's position j
    at ``r * stride + j``, holding ``r * base`` + the element's index in its row; ``carried``: holding the value's
    own 32 bits, copied out)."""
    simple = tuple(r.simple for r in rws)
    key = ("sort_gather", x.dtype.name, values, indices, carried, n_rows == 1, simple)
    kernel = launch.compile(device, key, lambda: _build_gather(x.dtype, values, indices, carried, n_rows == 1,
                                                               simple))
    params = layout.Params().u32(n_rows, length, stride, base)
    rws[0].pack(params)
    k = 1
    for want in (values, indices):  # unused Rows members stay zero
        if want:
            rws[k].pack(params)
            k += 1
        else:
            rows.Rows(0, (), (), (), ()).pack(params)
    buffers = ([src] if values and not carried else []) + [ibuf] + [m.buffer_for_write(whole=True) for m in out_mirrors]
    launch.dispatch(device, kernel, buffers, params.bytes(), threads=n_rows * length)


def _build_local(xdt: DType, kdt: DType, init: bool, descending: bool) -> launch.Kernel:
    k = kdt.wgsl
    if init:
        bind = [launch.read("src", f"array<{xdt.wgsl}>")]
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
    bind += [launch.write("keys", f"array<{k}>"), launch.write("idxs", "array<u32>")]
    return launch.Kernel("sort_local.wgsl", tuple(bind), dict(
        HELPERS="", KEYFNS=key_functions([xdt]), ROWS_STRUCT=rows.wgsl_struct(),
        ROWS_SRC=rows.wgsl_functions("src", "p.src"), K=k, TILE=TILE, MAXK=_maxkey(kdt), LOAD=load))


def _build_global(kdt: DType) -> launch.Kernel:
    return launch.Kernel("sort_global.wgsl", (launch.write("keys", f"array<{kdt.wgsl}>"),
                                              launch.write("idxs", "array<u32>")), dict(K=kdt.wgsl))


def _build_gather(xdt: DType, values: bool, indices: bool, carried: bool, one_row: bool,
                  simple: tuple[bool, ...]) -> launch.Kernel:
    """The gather; ``one_row``: no division by the row length, ``simple``: per Rows of (src, outputs...), the
    one-multiply-add addressing (rows.Rows.simple)."""
    bind, write = [], []
    if values and not carried:
        bind.append(launch.read("src", f"array<{xdt.wgsl}>"))
    bind.append(launch.read("idxs", "array<u32>"))
    if values:
        bind.append(launch.write("vout", f"array<{xdt.wgsl}>"))
        write.append(f"    vout[vout_at(row, pos)] = bitcast<{xdt.wgsl}>(id);" if carried else
                     "    vout[vout_at(row, pos)] = src[src_at(row, id)];")
    if indices:
        bind.append(launch.write("iout", "array<i32>"))
        write.append("    iout[iout_at(row, pos)] = i32(id);")
    outs = [nm for nm, want in (("vout", values), ("iout", indices)) if want]
    flags = dict(zip(["src"] + outs, simple))
    fns = "\n".join(rows.wgsl_functions(nm, f"p.{nm}", flags.get(nm, True)) for nm in ("src", "vout", "iout"))
    rowpos = ("    let row = 0u;\n    let pos = e;" if one_row else "    let row = e / p.L;\n    let pos = e % p.L;")
    return launch.Kernel("sort_gather.wgsl", tuple(bind), dict(ROWS_STRUCT=rows.wgsl_struct(), ROWS_FNS=fns,
                                                              WRITE="\n".join(write), ROWPOS=rowpos))
