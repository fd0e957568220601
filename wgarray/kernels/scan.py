"""Prefix scans (sum, prod) along the rows of strided views: a workgroup scan per block of a row, and for rows
longer than one block a scan of the block totals (the same kernel, recursively) plus a pass adding them back;
many short rows are scanned one invocation per row instead.

Also the device half of stream compaction: ``positions`` turns a nonzero test of a view into exclusive output
positions and the total (include_initial), so only the total has to be read back.
"""
from __future__ import annotations

import math

from .. import dtypes as dt
from ..alloc.mirror import Mirror
from ..dtypes import DType
from . import launch, layout, rows, source
from .rows import Rows

WG = layout.WORKGROUP
ITEMS = 4  # elements an invocation scans serially
BLOCK = WG * ITEMS
SERIAL = 64  # rows up to this long are scanned by one invocation each

_COMBINE = {"sum": "(a + b)", "prod": "(a * b)"}


def _combine(op: str, acc: DType) -> str:
    """How two accumulator values a, b join (a complex product is cmul, not the lane-wise ``*``)."""
    if op == "prod" and acc.kind == "c":
        return f"wg_cmul_{acc.component.wgsl}(a, b)"
    return _COMBINE[op]
_IDENTITY = {"sum": 0, "prod": 1}


def accumulator(out: DType) -> DType:
    """The dtype a scan into ``out`` runs in (modular integer arithmetic makes narrow results exact)."""
    if out.kind == "b":
        return dt.uint32  # a count (sum) or a product of 0/1 (prod), stored as "nonzero"
    if out is dt.float16:
        return dt.float32
    if out.kind in "iu" and out.bits < 32:
        return dt.int32 if out.kind == "i" else dt.uint32
    return out


def _load(kind: str, src: DType, acc: DType, raw: str) -> str:
    if kind == "nonzero":
        return source.convert(dt.bool, acc, source.convert(src, dt.bool, source.load_expr(src, raw)))
    return source.convert(src, acc, source.load_expr(src, raw))


def run(device, op: str, src, src_dtype: DType, load: str, src_rows: Rows, n_rows: int, length: int,
        dst, dst_dtype: DType, dst_rows: Rows, shift: int) -> None:
    """dst[row, j + shift] = op-scan over k <= j of load(src[row, k]); with shift 1 also dst[row, 0] = the
    initial value (+0 / 1; the scan itself starts a float sum from -0.0, ``_identity``).

    ``src``/``dst`` are GPU buffers; ``load`` is "convert" (the value) or "nonzero" (1 where the value is not 0)."""
    if n_rows == 0 or length == 0:
        return
    acc = accumulator(dst_dtype)
    if length <= SERIAL and n_rows > 1:
        _serial(device, op, src, src_dtype, load, src_rows, n_rows, length, dst, dst_dtype, dst_rows, shift)
        return
    nblocks = math.ceil(length / BLOCK)
    if nblocks == 1:
        _block(device, op, src, src_dtype, load, src_rows, n_rows, length, dst, dst_dtype, dst_rows, shift, None)
        return
    tmp = Mirror(acc, n_rows * length, device)
    sums = Mirror(acc, n_rows * nblocks, device)
    scanned = Mirror(acc, n_rows * nblocks, device)
    tmp_buf = tmp.buffer_for_write(whole=True)
    sums_buf = sums.buffer_for_write(whole=True)
    _block(device, op, src, src_dtype, load, src_rows, n_rows, length, tmp_buf, acc,
           rows.contiguous(n_rows, length), 0, sums_buf)
    scanned_buf = scanned.buffer_for_write(whole=True)
    block_rows = rows.contiguous(n_rows, nblocks)
    run(device, op, sums_buf, acc, "convert", block_rows, n_rows, nblocks, scanned_buf, acc, block_rows, 0)
    _add(device, op, tmp_buf, scanned_buf, acc, n_rows, length, nblocks, dst, dst_dtype, dst_rows, shift)


def positions(device, x, out: Mirror) -> None:
    """out[0..n] (uint32, n + 1 elements) = exclusive positions of the nonzero elements of the view ``x`` in C
    order, and out[n] = their count."""
    n = math.prod(x.shape)
    _, _, (src_rows,) = rows.split(x.shape, range(len(x.shape)), [(x.offset, x.strides)])
    dst = out.buffer_for_write(whole=True)
    run(device, "sum", x.mirror.buffer(), x.dtype, "nonzero", src_rows, 1, n, dst, dt.uint32,
        rows.line(n + 1, 1), 1)


def _store(dst_dtype: DType, acc: DType) -> str:
    return source.store_expr(dst_dtype, source.convert(acc, dst_dtype, "v"))


def _identity(op: str, acc: DType) -> str:
    """The scan's neutral start: a float sum starts from -0.0 (-0.0 + x is x for every x, -0.0 included), so that
    each prefix is what numpy's accumulate gives (its first element is x[0] itself: cumsum([-0.0]) is -0.0)."""
    if op == "sum" and acc.kind in "fc":
        return source.literal(acc, complex(-0.0, -0.0) if acc.kind == "c" else -0.0)
    return source.literal(acc, _IDENTITY[op])


def _initial(op: str, acc: DType) -> str:
    """include_initial's first element: the standard's zero (or one) of the sum (product), +0.0 for floats."""
    return source.literal(acc, _IDENTITY[op])


def _block(device, op, src, src_dtype, load, src_rows, n_rows, length, dst, dst_dtype, dst_rows, shift, sums):
    acc = accumulator(dst_dtype)
    nblocks = math.ceil(length / BLOCK)
    key = ("scan", op, src_dtype.name, load, dst_dtype.name, sums is not None)
    kernel = launch.compile(device, key, lambda: _build_block(op, src_dtype, load, acc, dst_dtype, sums is not None))
    params = layout.Params().u32(n_rows, length, nblocks, shift)
    src_rows.pack(params)
    dst_rows.pack(params)
    buffers = [src, dst] + ([sums] if sums is not None else [])
    launch.dispatch(device, kernel, buffers, params.bytes(), workgroups=n_rows * nblocks)


def _build_block(op, src_dtype, load, acc, dst_dtype, with_sums) -> launch.Kernel:
    bind = [launch.read("src", f"array<{src_dtype.wgsl}>"), launch.write("dst", f"array<{dst_dtype.wgsl}>")]
    sums = ""
    if with_sums:
        bind.append(launch.write("sums", f"array<{acc.wgsl}>"))
        sums = f"    if (lid == {WG - 1}u) {{\n        sums[g] = sh[lid];\n    }}"
    return launch.Kernel("scan.wgsl", tuple(bind), dict(
        HELPERS=source.helpers([src_dtype, acc, dst_dtype]), ROWS_STRUCT=rows.wgsl_struct(),
        ROWS_SRC=rows.wgsl_functions("src", "p.src"), ROWS_DST=rows.wgsl_functions("dst", "p.dst"),
        ACC=source.ctype(acc), ITEMS=ITEMS, BLOCK=BLOCK, COMBINE=_combine(op, acc), IDENTITY=_identity(op, acc),
        INITIAL=_initial(op, acc),
        LOAD=_load(load, src_dtype, acc, "src[idx]"), STORE_V=_store(dst_dtype, acc), SUMS=sums))


def _serial(device, op, src, src_dtype, load, src_rows, n_rows, length, dst, dst_dtype, dst_rows, shift):
    acc = accumulator(dst_dtype)
    key = ("scan_serial", op, src_dtype.name, load, dst_dtype.name)
    kernel = launch.compile(device, key, lambda: _build_serial(op, src_dtype, load, acc, dst_dtype))
    params = layout.Params().u32(n_rows, length, 0, shift)
    src_rows.pack(params)
    dst_rows.pack(params)
    launch.dispatch(device, kernel, [src, dst], params.bytes(), threads=n_rows)


def _build_serial(op, src_dtype, load, acc, dst_dtype) -> launch.Kernel:
    bind = (launch.read("src", f"array<{src_dtype.wgsl}>"), launch.write("dst", f"array<{dst_dtype.wgsl}>"))
    return launch.Kernel("scan_serial.wgsl", bind, dict(
        HELPERS=source.helpers([src_dtype, acc, dst_dtype]), ROWS_STRUCT=rows.wgsl_struct(),
        ROWS_SRC=rows.wgsl_functions("src", "p.src"), ROWS_DST=rows.wgsl_functions("dst", "p.dst"),
        ACC=source.ctype(acc), COMBINE=_combine(op, acc), IDENTITY=_identity(op, acc), INITIAL=_initial(op, acc),
        LOAD=_load(load, src_dtype, acc, "src[idx]"), STORE_V=_store(dst_dtype, acc)))


def _add(device, op, tmp, scanned, acc, n_rows, length, nblocks, dst, dst_dtype, dst_rows, shift):
    key = ("scan_add", op, acc.name, dst_dtype.name)
    kernel = launch.compile(device, key, lambda: _build_add(op, acc, dst_dtype))
    params = layout.Params().u32(n_rows, length, nblocks, shift)
    dst_rows.pack(params)
    launch.dispatch(device, kernel, [tmp, scanned, dst], params.bytes(), threads=n_rows * length)


def _build_add(op, acc, dst_dtype) -> launch.Kernel:
    bind = (launch.read("tmp", f"array<{acc.wgsl}>"), launch.read("sums", f"array<{acc.wgsl}>"),
            launch.write("dst", f"array<{dst_dtype.wgsl}>"))
    return launch.Kernel("scan_add.wgsl", bind, dict(
        HELPERS=source.helpers([acc, dst_dtype]), ROWS_STRUCT=rows.wgsl_struct(),
        ROWS_DST=rows.wgsl_functions("dst", "p.dst"), ACC=source.ctype(acc), BLOCK=BLOCK, COMBINE=_combine(op, acc),
        IDENTITY=_identity(op, acc), INITIAL=_initial(op, acc), STORE_V=_store(dst_dtype, acc)))
