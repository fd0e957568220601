"""Stable LSD radix sort of the rows of a strided view, all rows in one set of passes.

Each element e = row * L + pos gets an unsigned sort key (``sort.storage_key_expr``: NaNs last, -0.0 == 0.0;
float16 a 16-bit key, ``shaders/radix_key16.wgsl``; complemented for descending order, which keeps equal
elements in their original order) and the payload e.  A pass sorts stably by one 8-bit digit: per-block digit
histograms (``radix_hist.wgsl``), a scan of the (digit, block) counts (``radix_dscan.wgsl``) and a scatter that
ranks each tile's elements among equal digits with a counting sort in workgroup memory (``radix_scatter.wgsl``).

The passes adapt to the keys present: one reduction (``radix_init.wgsl`` + ``radix_stats.wgsl``) gives the keys'
(min, max, or, and), the host reads those 16 or 32 bytes and runs a pass only for the digits of the raw keys that
differ somewhere (or ^ and), or for the digits of key - min up to max - min, whichever needs fewer passes: a bool
or an int8 sorts in one pass, an int16 or float16 in at most two.  Rows (segmented sorts) come last, as the most
significant digits: the row id is the payload divided by L, so no row keys are stored.

A single-pass "decoupled look-back" scan is not used: it spins on flags set by other workgroups, and WGSL gives no
forward-progress guarantee between workgroups (lavapipe runs them in an order where such a spin can deadlock)
nor a device-scope acquire/release fence; three dispatches a pass are what WebGPU guarantees.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .. import dtypes as dt
from ..alloc.mirror import Mirror
from ..dtypes import DType
from . import launch, layout, rows, sort, source
from .launch import read, write
from .layout import ViewLike

TILE = 1024  # elements the scatter ranks at once in workgroup memory (2 tiles + counters: < 16 KiB)
SERIAL_DSCAN = 64  # blocks up to which one invocation scans a digit's counts serially


@dataclass(frozen=True)
class Shape:
    """Launch shapes.  GPUs: the tiled scatter (64 invocations rank 16 elements each), 256 invocations in the
    other kernels, up to 1024 blocks.  CPU adapters (lavapipe), where a workgroup barrier costs tens of
    microseconds and workgroup memory is plentiful: the chunked scatter (``radix_scatter_cpu.wgsl``, 8
    invocations, 256 counters each, two barriers a block), up to 32 blocks (a few a core)."""

    wg: int  # scatter invocations (a power of two, 8..256)
    wide: int  # invocations of init, stats, hist, dscan
    max_blocks: int
    chunked: bool = False  # the CPU scatter

    @property
    def items(self) -> int:
        return TILE // self.wg


GPU = Shape(wg=64, wide=256, max_blocks=1024)
CPU = Shape(wg=8, wide=64, max_blocks=32, chunked=True)


def _scan_text(wg: int) -> str:
    seg = min(8, wg)
    return source.render("radix_wgscan.wgsl", WG=wg, SEG=seg, NSEG=wg // seg)


def _kdt(d: DType) -> DType:
    return sort.key_dtype(d)


def _kconst(kdt: DType) -> dict[str, str]:
    if kdt is dt.uint64:
        return dict(K="u64", KMAX="(~u64(0u))", KZERO="u64(0u)",
                    KMIN="((u64(p.kmin_hi) << 32u) | u64(p.kmin_lo))")
    return dict(K="u32", KMAX="0xffffffffu", KZERO="0u", KMIN="p.kmin_lo")


def _key(xdt: DType, descending: bool) -> str:
    raw = "src[src_at(row, pos)]"
    if xdt is dt.float16:
        k = f"wg_key16_f16({raw})"
        return f"(~{k})" if descending else k
    return sort.storage_key_expr(xdt, raw, descending)


def _reduce4(k: str, wide: int) -> str:
    return source.render("radix_reduce4.wgsl", K=k, WG=wide)


def _build_init(xdt: DType, descending: bool, wide: int) -> launch.Kernel:
    keyfns = sort.key_functions([xdt]) + ("\n" + source.load("radix_key16.wgsl") if xdt is dt.float16 else "")
    c = _kconst(_kdt(xdt))
    k = f"array<{c['K']}>"
    return launch.Kernel("radix_init.wgsl", (read("src", f"array<{xdt.wgsl}>"), write("keys", k),
                                             write("idx", "array<u32>"), write("part", k)),
                         dict(KEYFNS=keyfns, ROWS_STRUCT=rows.wgsl_struct(), ROWS_SRC=rows.wgsl_functions("src", "p.src"),
                              KEY=_key(xdt, descending), K=c["K"], KMAX=c["KMAX"], KZERO=c["KZERO"],
                              REDUCE4=_reduce4(c["K"], wide)), wide)


def _build_stats(kdt: DType, wide: int) -> launch.Kernel:
    c = _kconst(kdt)
    k = f"array<{c['K']}>"
    return launch.Kernel("radix_stats.wgsl", (read("part", k), write("stats", k)),
                         dict(K=c["K"], KMAX=c["KMAX"], KZERO=c["KZERO"], REDUCE4=_reduce4(c["K"], wide)), wide)


def _digit(kdt: DType) -> str:
    c = _kconst(kdt)
    return source.render("radix_digit.wgsl", K=c["K"], KMIN=c["KMIN"])


def _pass_inputs(kdt: DType) -> tuple[launch.Binding, ...]:
    return read("keys_in", f"array<{kdt.wgsl}>"), read("idx_in", "array<u32>")


def _build_hist(kdt: DType, wide: int) -> launch.Kernel:
    return launch.Kernel("radix_hist.wgsl", _pass_inputs(kdt) + (write("counts", "array<u32>"),),
                         dict(DIGIT=_digit(kdt)), wide)


def _build_dscan(wide: int) -> launch.Kernel:
    return launch.Kernel("radix_dscan.wgsl", (write("counts", "array<u32>"), write("totals", "array<u32>")),
                         dict(WGSCAN=_scan_text(wide)), wide)


def _build_scatter(kdt: DType, wg: int, chunked: bool) -> launch.Kernel:
    bindings = _pass_inputs(kdt) + (read("counts", "array<u32>"), read("totals", "array<u32>"),
                                    write("keys_out", f"array<{kdt.wgsl}>"), write("idx_out", "array<u32>"))
    if chunked:
        return launch.Kernel("radix_scatter_cpu.wgsl", bindings, dict(DIGIT=_digit(kdt), CNT=256 * wg), wg)
    return launch.Kernel("radix_scatter.wgsl", bindings,
                         dict(DIGIT=_digit(kdt), WGSCAN=_scan_text(wg), ITEMS=TILE // wg, TILE=TILE,
                              TILE2=2 * TILE, CNT=16 * wg, PER=256 // wg), wg)


def plan_passes(nbytes: int, kmin: int, kmax: int, kor: int, kand: int) -> tuple[int, list[int]]:
    """(the minimum subtracted from every key, the bit shifts of the key digits that need a pass), from the
    keys' reduction: raw digits where some keys differ, or digits of key - min up to max - min."""
    diff = kor ^ kand
    raw = [8 * i for i in range(nbytes) if (diff >> (8 * i)) & 0xFF]
    rel = list(range(0, (kmax - kmin).bit_length(), 8))
    return (kmin, rel) if len(rel) < len(raw) else (0, raw)


def run(device, x: ViewLike, axis: int, descending: bool, values_out: ViewLike | None,
        index_out: ViewLike | None) -> None:
    """Sort ``x`` along ``axis`` into ``values_out`` (same dtype) and/or ``index_out`` (int32), like
    ``sort.run``."""
    outs = [o for o in (values_out, index_out) if o is not None]
    n_rows, length, rws = rows.split(x.shape, [axis], [(x.offset, x.strides)] + [(o.offset, o.strides)
                                                                                 for o in outs])
    n = n_rows * length
    if n == 0:
        return
    if n >= 1 << 31:
        raise MemoryError(f"sorting {n} elements is too large for one device buffer")
    kdt = _kdt(x.dtype)
    ntiles = math.ceil(n / TILE)
    shp = CPU if device.properties.adapter_type == "CPU" else GPU
    block = math.ceil(ntiles / shp.max_blocks) * TILE
    nb = math.ceil(n / block)
    keys = [Mirror(kdt, n, device), Mirror(kdt, n, device)]
    idxs = [Mirror(dt.uint32, n, device), Mirror(dt.uint32, n, device)]
    kbuf = [m.buffer_for_write(whole=True) for m in keys]
    ibuf = [m.buffer_for_write(whole=True) for m in idxs]
    part = Mirror(kdt, 4 * nb, device)
    stats = Mirror(kdt, 4, device)
    src = x.mirror.buffer()

    kernel = launch.compile(device, ("radix_init", x.dtype.name, descending, shp.wide),
                            lambda: _build_init(x.dtype, descending, shp.wide))
    params = layout.Params().u32(n, length, block, 0)
    rws[0].pack(params)
    bufs = [src, kbuf[0], ibuf[0], part.buffer_for_write(whole=True)]
    launch.dispatch(device, kernel, bufs, params.bytes(), workgroups=nb)
    kernel = launch.compile(device, ("radix_stats", kdt.name, shp.wide), lambda: _build_stats(kdt, shp.wide))
    bufs = [part.buffer(), stats.buffer_for_write(whole=True)]
    launch.dispatch(device, kernel, bufs, layout.Params().u32(nb, 0, 0, 0).bytes(), workgroups=1)
    kmin, kmax, kor, kand = (int(v) for v in stats.host())  # the one host read: 16 or 32 bytes

    kmin, shifts = plan_passes(kdt.device_itemsize, kmin, kmax, kor, kand)
    passes = [(0, s) for s in shifts] if length > 1 else []
    if passes and n_rows > 1:
        passes += [(1, s) for s in range(0, (n_rows - 1).bit_length(), 8)]
    per = 0 if nb <= SERIAL_DSCAN else 1  # digits a dscan workgroup scans (0: one an invocation, serially)
    counts = Mirror(dt.uint32, 256 * nb, device)
    totals = Mirror(dt.uint32, 256, device)
    cur = 0
    for i, (mode, shift) in enumerate(passes):
        write_keys = any(m == 0 for m, _ in passes[i + 1:])
        params = layout.Params().u32(n, length, nb, block, mode, shift, kmin & 0xFFFFFFFF, kmin >> 32,
                                     int(write_keys), 0, 0, 0).bytes()
        cbuf = counts.buffer_for_write(whole=True)
        kernel = launch.compile(device, ("radix_hist", kdt.name, shp.wide), lambda: _build_hist(kdt, shp.wide))
        launch.dispatch(device, kernel, [kbuf[cur], ibuf[cur], cbuf], params, workgroups=nb)
        kernel = launch.compile(device, ("radix_dscan", shp.wide), lambda: _build_dscan(shp.wide))
        launch.dispatch(device, kernel, [cbuf, totals.buffer_for_write(whole=True)],
                        layout.Params().u32(nb, per, 0, 0).bytes(), workgroups=256 // per if per else 1)
        kernel = launch.compile(device, ("radix_scatter", kdt.name, shp.wg, shp.chunked),
                                lambda: _build_scatter(kdt, shp.wg, shp.chunked))
        launch.dispatch(device, kernel, [kbuf[cur], ibuf[cur], cbuf, totals.buffer(), kbuf[1 - cur], ibuf[1 - cur]],
                        params, workgroups=nb)
        cur = 1 - cur
    sort.gather(device, x, src, ibuf[cur], rws, values_out is not None, index_out is not None, n_rows, length,
                length, length, [o.mirror for o in outs])
