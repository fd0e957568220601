"""Stable LSD radix sort of the rows of a strided view, all rows in one set of passes.

Each element e = row * L + pos gets an unsigned sort key (``sort.storage_key_expr``: NaNs last, -0.0 == 0.0;
float16 a 16-bit key, ``shaders/radix_key16.wgsl``; complemented for descending order, which keeps equal
elements in their original order) and the payload e.  A pass sorts stably by one digit (``Shape.bits`` wide: 8 on
GPUs, any of 1..16 in the CPU kernels): per-block digit histograms, a scan of the (digit, block) counts and a
scatter.  GPUs (``radix_hist.wgsl``, ``radix_dscan.wgsl``, ``radix_scatter_reg.wgsl`` with its counters in
registers, its straight-line code generated here) rank each tile's keys among equal
digits with counting sorts in workgroup memory; CPU adapters (``radix_hist_cpu.wgsl``, ``radix_dscan.wgsl`` over
all counts at once, ``radix_scatter_cpu.wgsl``) count and place contiguous chunks of thousands of keys an
invocation, without barriers.  A values-only sort of one row of a 32-bit dtype carries the values' bits as the
payload and recomputes each pass's key from it: no key array is written or read after the statistics.

The passes adapt to the keys present, planned on the device: one reduction (``radix_init.wgsl`` +
``radix_stats.wgsl``) gives the keys' (min, max, or, and) and writes the plan, a pass for each digit of the raw
keys that differs somewhere (or ^ and), or for the digits of key - min up to max - min, whichever needs fewer
(``plan_passes`` is the host model of that rule): a bool or an int8 needs one pass, an int16 or float16 at most
two (8-bit digits).  The host records every pass the dtype could need (``key_slots``) and reads nothing back (a
read is a queue round trip, ~0.3 ms on a GPU); a pass past the plan's count returns at once in all three kernels,
and an odd count ends in a copy of the payload (hist and scan return at once, the scatter copies its block) so
the data always end in the first buffer of the ping-pong pair.  Rows (segmented sorts) come last, as the most
significant digits: the row id is the payload divided by L, so no row keys are stored.

A single-pass "decoupled look-back" scan is not used: it spins on flags set by other workgroups, and WGSL gives no
forward-progress guarantee between workgroups (lavapipe runs them in an order where such a spin can deadlock)
nor a device-scope acquire/release fence; three dispatches a pass are what WebGPU guarantees.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from .. import dtypes as dt
from ..alloc.mirror import Mirror
from ..dtypes import DType
from . import launch, layout, rows, sort, source
from .launch import read, write
from .layout import ViewLike

TILE = 1024  # elements the GPU scatter ranks at once by default (2 tiles + counters: < 16 KiB of workgroup memory)
CARRIED = ("f32", "i32", "u32")  # storage types whose values ride as the payload of a values-only sort
SERIAL_DSCAN = 64  # blocks up to which one invocation scans a digit's counts serially


@dataclass(frozen=True)
class Shape:
    """Launch shapes.  GPUs: the register-ranked tiled scatter (256 invocations rank 4 keys each of a 1024-key
    tile: the fastest of ``python -m benchmarks.sortgpu_sweep`` on an H100, 2.07 ms for a 2^24 float32 sort against
    5.05 ms with the former "split4" ranker's 64 x 16, its counters and rolled loops in workgroup memory; removed),
    256 invocations in the other kernels, up to 1024 blocks, the digit
    scan's chunks of 4 block counts in registers, a values-only sort's passes run in its output (``direct``), the
    next tile's inputs prefetched, the scan's segment bases, nibble counters and folded pads (1.46 ms at 2^24 on
    the H100, torch.sort 0.92 ms); pair sorts (argsort) up to 4096 blocks, 16 counts in registers, their payload
    and 32-bit keys staged, the first pass generating the index, an argsort's passes run in its output (1.94 ms).  CPU
    adapters (lavapipe), where a workgroup barrier costs tens of microseconds: the chunked hist and scatter
    (``radix_hist_cpu.wgsl``, ``radix_scatter_cpu.wgsl``: 8 invocations, each counting and placing a contiguous
    chunk of thousands of keys, no barrier), up to 32 blocks (a few a core) of at least 8192 keys, 8-bit digits
    (``python -m benchmarks.sort_shapes`` sweeps the width on a CPU adapter)."""

    wg: int  # scatter invocations (a power of two, 8..256)
    wide: int  # invocations of init, stats, hist, dscan
    max_blocks: int
    chunked: bool = False  # the CPU kernels
    bits: int = 8  # digit width (the GPU scatter's tile ranking takes 8; the CPU kernels 1..16)
    tile: int = TILE  # keys the GPU scatter ranks at once (a power of two, tile / wg of them an invocation); the
    # CPU kernels' block granularity (8192: chunks of >= 1024 keys, so a 2^14 sort counts 2 blocks, not 16, and
    # scans 8x fewer counters: 2.1 against 3.5 ms on lavapipe)
    dscan_regs: int = 0  # GPU digit scan: an invocation's chunk of up to this many block counts is loaded into
    # registers at once (straight-line; 0: loops over memory, a load or store at a time)
    direct: bool = False  # a values-only sort of one 32-bit row into a whole contiguous output runs its passes
    # in the output (its payload is the values' bits) and skips the final copy
    prefetch: bool = False  # the reg scatter loads the next tile's digit inputs (payload or keys) into registers
    # before it ranks the current tile: the global loads' latency overlaps the ranking (a block of several tiles)
    scan_bases: bool = False  # the reg scatter's workgroup scans: the 32 segment invocations compute the segment
    # bases (one more barrier, 3 a scan), not every invocation adding all 32 segment sums (~100 instructions a scan)
    nibbles: bool = False  # the reg ranker's 16 counters an invocation are nibbles of two words (at most 15 keys
    # an invocation), not bytes of a vec4<u32>: ~10 instructions a key and counting sort instead of ~25
    fold_pad: bool = False  # the reg scatter's padded workgroup addresses affine in lid folded to one
    # precomputed pad plus constants (no shift and add an access: ~30 accesses a counting sort)
    stage: bool = False  # with prefetch: the reg scatter also prefetches every pass's payload, keeps it in
    # registers through the ranking and stages it in tb once the tile is ranked (tb is free from then until the next
    # tile's first counting sort), so the writes read no global payload (a pair sort's index was otherwise first
    # read at the write, a load's full latency a tile); no workgroup memory added
    stage_keys: bool = False  # with stage: a key pass's 32-bit stored keys staged likewise, in sc (free then too;
    # at most 8 keys an invocation); 64-bit keys are still read at the write
    gen_index: bool = False  # a sort with an index payload: the init writes no index, the first key pass takes
    # element e's index as e itself (rx_payload); the plan then runs at least one pass (equal keys: a stable sort by
    # digit 0 and the payload copy)
    direct_index: bool = False  # an argsort of one row into a whole contiguous index output runs its passes'
    # payload there (as direct): no final copy
    pair_blocks: int = 0  # a pair sort (stored keys and an index payload: argsort, rows, a sort with indices;
    # not a values-only sort carrying the values' bits) takes this many blocks (0: max_blocks)
    pair_dscan: int = 0  # and this dscan_regs (0: dscan_regs)
    # (the GPU scatter's tile ranking, radix_scatter_reg.wgsl: two 4-bit counting sorts with the counters in
    # registers, Python-generated straight-line WGSL, coalesced loads, padded workgroup arrays)

    def __post_init__(self) -> None:
        if not (1 <= self.bits <= 16 and (self.chunked or self.bits == 8)):
            raise ValueError(f"radix digits of {self.bits} bits need the CPU kernels (the GPU ones take 8)")
        if self.tile & (self.tile - 1) or not self.wg <= self.tile <= 1 << 16:
            raise ValueError(f"a radix tile of {self.tile} keys is not a power of two in [wg, 65536]")
        if not self.chunked and (self.tile // self.wg > 255 or self.tile > 1 << 15):
            # its per-invocation digit counts are bytes, and its scan packs two counts into 16-bit halves
            raise ValueError(f"the reg ranker takes at most 255 keys an invocation and 32768 a tile, not "
                             f"{self.tile // self.wg} and {self.tile}")
        if self.stage and not self.prefetch:
            raise ValueError("Shape.stage needs Shape.prefetch")
        if self.stage_keys and not (self.stage and self.tile // self.wg <= 8):
            raise ValueError("Shape.stage_keys needs Shape.stage and at most 8 keys an invocation")
        if self.nibbles and self.tile // self.wg > 15:
            raise ValueError(f"nibble counters take at most 15 keys an invocation, not {self.tile // self.wg}")

    @property
    def items(self) -> int:
        return self.tile // self.wg

    @property
    def scatter_bytes(self) -> int:
        """Workgroup memory of the GPU scatter: two padded tile arrays, the padded counters (8 words an
        invocation), two 256-entry tables and the workgroup scan's (with Shape.scan_bases its segment bases)."""
        scan = self.wg + self.wg // min(8, self.wg) + 1
        bases = self.wg // min(8, self.wg) + 1 if self.scan_bases else 0
        return 4 * (2 * _padded(self.tile) + _padded(8 * self.wg) + 512 + scan + bases)


# the H100 sweeps of 2026-12-06 (gpu_results s23): phase 5, 1.473 ms for a 2^24 float32 sort (torch.sort 0.916 ms),
# pair sorts fastest with 4096 blocks and dscan_regs 16 (argsort 2.287 ms against 2.505 with 1024 blocks); phase 6,
# stage + stage_keys + gen_index + direct_index: argsort 1.938 ms against 2.322 (the sort 1.456 against 1.461)
GPU = Shape(wg=256, wide=256, max_blocks=1024, tile=1024, dscan_regs=4, direct=True, prefetch=True,
            scan_bases=True, nibbles=True, fold_pad=True, stage=True, stage_keys=True, gen_index=True,
            direct_index=True, pair_blocks=4096, pair_dscan=16)
CPU = Shape(wg=8, wide=64, max_blocks=32, chunked=True, tile=8192)

# UNCHECKED: the GPU passes' kernels (radix_hist.wgsl, radix_dscan.wgsl, radix_scatter_reg.wgsl; not the CPU
# adapters' chunked ones) made without naga's runtime checks (launch.compile(checks=False), as matmul's ``_u``
# variants).  Their workgroup indices are in range by construction: a digit is masked to 0..255 (rx_digit*:
# ``& 255``) before it indexes the 256-entry h/run/tstart, a code's position (``& 0xffff``) is below the tile and
# its rank (``>> 16``) below the tile after each counting sort (the ranks of a tile's codes), the padded tile arrays
# hold rx_pad(tile) + 1 words (j + 1 <= tile; j - 1 taken at max(j, 1)), the counters and scans index by lid and
# constants (the digits run lid * 256 / wg + i < 256), and every loop is bounded by constants or the block's range.
# On since the H100 run of 2026-12-06 (``python -m benchmarks.unchecked_sweep``, gpu_results s24/8/unchecked.txt):
# sort 2^24 float32 1.343 -> 1.275 ms (0.69x -> 0.73x torch.sort), argsort 1.850 -> 1.805.
UNCHECKED = True


def _padded(n: int) -> int:
    """Words of a workgroup array of ``n`` entries padded one word in 32 (``rx_pad`` in radix_scatter_reg.wgsl)."""
    return n + n // 32 + 1


def _scan_text(wg: int) -> str:
    seg = min(8, wg)
    return source.render("radix_wgscan.wgsl", WG=wg, SEG=seg, NSEG=wg // seg)


def _reg_scan_text(wg: int, bases: bool = False) -> str:
    """``radix_wgscan_reg.wgsl``: the reg scatter's workgroup scan, its segment scans and sums generated;
    ``bases`` (Shape.scan_bases): the segment invocations compute the segments' bases and the total into rx_base
    (a third barrier), every invocation then loads two words instead of adding all segment sums."""
    seg = min(8, wg)
    nseg = wg // seg
    ind = "        "
    scan = [f"{ind}let a{i} = rx_sc[rx_pad(f + {i}u)];" for i in range(seg)]
    scan += [f"{ind}rx_sc[rx_pad(f + {i}u)] = {' + '.join(f'a{k}' for k in range(i)) or '0u'};" for i in range(seg)]
    scan.append(f"{ind}rx_seg[lid] = {' + '.join(f'a{k}' for k in range(seg))};")
    ind = "        " if bases else "    "
    sums = [f"{ind}let g{i} = rx_seg[{i}u];" for i in range(nseg)]
    total = " + ".join(f"g{i}" for i in range(nseg))
    if bases:  # segment lid's base; the last segment invocation also stores the total
        before = " + ".join(f"select(0u, g{i}, {i}u < lid)" for i in range(nseg))
        sums = [f"    if (lid < {nseg}u) {{"] + sums + [f"{ind}rx_base[lid] = {before};",
                                                     f"{ind}if (lid == {nseg - 1}u) {{ rx_base[{nseg}u] = {total}; }}",
                                                     "    }", "    workgroupBarrier();",
                                                     f"    rx_sum = rx_base[{nseg}u];", "    let before = rx_base[seg];"]
    else:
        sums.append(f"{ind}rx_sum = {total};")
        sums.append(f"{ind}let before = {' + '.join(f'select(0u, g{i}, {i}u < seg)' for i in range(nseg))};")
    return source.render("radix_wgscan_reg.wgsl", NSEG=nseg, SEG=seg, NSC=_padded(wg), SEGSCAN="\n".join(scan),
                         SEGSUM="\n".join(sums),
                         BASES=f"// the segments' exclusive bases, then the total\nvar<workgroup> rx_base: array<u32, "
                         f"{nseg + 1}>;" if bases else "")


def _kdt(d: DType) -> DType:
    return sort.key_dtype(d)


def _kconst(kdt: DType) -> dict[str, str]:
    if kdt is dt.uint64:
        return dict(K="u64", KMAX="(~u64(0u))", KZERO="u64(0u)", KMIN="((u64(plan[2]) << 32u) | u64(plan[1]))",
                    KHI="u32(kmin >> 32u)", RHI="u32(r >> 32u)", KBYTES="8")
    return dict(K="u32", KMAX="0xffffffffu", KZERO="0u", KMIN="plan[1]", KHI="0u", RHI="0u", KBYTES="4")


def _keyfns(xdt: DType) -> str:
    return sort.key_functions([xdt]) + ("\n" + source.load("radix_key16.wgsl") if xdt is dt.float16 else "")


def _key(xdt: DType, descending: bool, raw: str = "src[src_at(row, pos)]") -> str:
    """The sort key of the storage value ``raw`` of ``xdt``."""
    if xdt is dt.float16:
        k = f"wg_key16_f16({raw})"
        return f"(~{k})" if descending else k
    return sort.storage_key_expr(xdt, raw, descending)


def _reduce4(k: str, wide: int) -> str:
    return source.render("radix_reduce4.wgsl", K=k, WG=wide)


def _build_init(xdt: DType, descending: bool, wide: int, carry: bool, one_row: bool, simple: bool,
                store_idx: bool = True) -> launch.Kernel:
    c = _kconst(_kdt(xdt))
    k = f"array<{c['K']}>"
    return launch.Kernel("radix_init.wgsl", (read("src", f"array<{xdt.wgsl}>"), write("keys", k),
                                             write("idx", "array<u32>"), write("part", k)),
                         dict(KEYFNS=_keyfns(xdt), ROWS_STRUCT=rows.wgsl_struct(), STOREKEY="" if carry else "keys[e] = k;",
                              STOREIDX=f"idx[e] = {'bitcast<u32>(src[src_at(row, pos)])' if carry else 'e'};"
                              if store_idx else "",
                              ROWS_SRC=rows.wgsl_functions("src", "p.src", simple), KEY=_key(xdt, descending), K=c["K"],
                              KMAX=c["KMAX"],
                              KZERO=c["KZERO"],
                              REDUCE4=_reduce4(c["K"], wide), ROWPOS=_ROWPOS[one_row]), wide)


_ROWPOS = {False: "        let row = e / p.L;\n        let pos = e - row * p.L;",
           True: "        let row = 0u;\n        let pos = e;"}


def _stats_fold(wide: int) -> str:
    """radix_stats.wgsl's fold of the blocks' partials, a block an invocation at a time."""
    ind = "    "
    return "\n".join([f"{ind}for (var b = lid; b < p.nb; b = b + {wide}u) {{",
                      f"{ind}    lo = min(lo, part[4u * b]);", f"{ind}    hi = max(hi, part[4u * b + 1u]);",
                      f"{ind}    o = o | part[4u * b + 2u];", f"{ind}    a = a & part[4u * b + 3u];", f"{ind}}}"])


def _build_stats(kdt: DType, wide: int, bits: int, least: int = 0) -> launch.Kernel:
    c = _kconst(kdt)
    k = f"array<{c['K']}>"
    return launch.Kernel("radix_stats.wgsl", (read("part", k), write("plan", "array<u32>")),
                         dict(K=c["K"], KMAX=c["KMAX"], KZERO=c["KZERO"], KHI=c["KHI"], RHI=c["RHI"], BITS=bits,
                              MASK=(1 << bits) - 1, NDIG=_digits(8 * int(c["KBYTES"]), bits), LEAST=least,
                              FOLD=_stats_fold(wide),
                              REDUCE4=_reduce4(c["K"], wide)), wide)


def _digits(nbits: int, bits: int) -> int:
    return -(-nbits // bits)


def _digit(kdt: DType, bits: int, carried) -> str:
    """The pass's digit functions; ``carried`` (dtype name, descending): the payload is the values' own bits (a
    values-only sort of one row), so the key is recomputed from it and no key array is read or written."""
    c = _kconst(kdt)
    keyin, keyof, fns = "keys_in[e]", "k", ""
    if carried:
        xdt = dt.as_dtype(carried[0])
        keyin, fns = _key(xdt, carried[1], f"bitcast<{xdt.wgsl}>(idx_in[e])"), _keyfns(xdt)
        keyof = _key(xdt, carried[1], f"bitcast<{xdt.wgsl}>(i)")
    return source.render("radix_digit.wgsl", K=c["K"], KMIN=c["KMIN"], KZERO=c["KZERO"], BITS=bits,
                         MASK=(1 << bits) - 1, KEYFNS=fns, KEYIN=keyin, KEYOF=keyof,
                         STORE_KEYS="false" if carried else "true")


def _pass_inputs(kdt: DType) -> tuple[launch.Binding, ...]:
    return read("keys_in", f"array<{kdt.wgsl}>"), read("idx_in", "array<u32>"), read("plan", "array<u32>")


def _build_hist(kdt: DType, shp: Shape, carried) -> launch.Kernel:
    bindings = _pass_inputs(kdt) + (write("counts", "array<u32>"),)
    if shp.chunked:
        return launch.Kernel("radix_hist_cpu.wgsl", bindings,
                             dict(DIGIT=_digit(kdt, shp.bits, carried), BITS=shp.bits, RADIX=1 << shp.bits), shp.wg)
    return launch.Kernel("radix_hist.wgsl", bindings, dict(DIGIT=_digit(kdt, 8, carried)), shp.wide)


def _build_dscan(wide: int, regs: int) -> launch.Kernel:
    """The digit scan; an invocation's chunk of up to ``regs`` counts held in named registers (generated)."""
    ind = "        "
    load = [f"{ind}var c{k} = 0u;\n{ind}if (held && lo + {k}u < hi) {{ c{k} = counts[lo + {k}u]; }}" for k in range(regs)]
    load += [f"{ind}s = {' + '.join(f'c{k}' for k in range(regs))};"] if regs else []
    store = [f"{ind}if (held && lo + {k}u < hi) {{ counts[lo + {k}u] = acc; acc = acc + c{k}; }}" for k in range(regs)]
    return launch.Kernel("radix_dscan.wgsl", (read("plan", "array<u32>"), write("counts", "array<u32>"),
                                              write("totals", "array<u32>")),
                         dict(WGSCAN=_scan_text(wide), REGS=regs, LOAD="\n".join(load), STORE="\n".join(store)), wide)


class _Pads:
    """Padded workgroup addresses of the reg scatter (``rx_pad``).  ``fold`` (Shape.fold_pad): addresses affine
    in lid are folded to one precomputed pad (``pl = rx_pad(lid)``, ``pb``, ``pf``) plus constants, exact where no
    32-word boundary falls inside the run: k * wg + lid with wg a multiple of 32, base + i with base = lid * items
    and items <= 32, lid * 8 + w."""

    def __init__(self, fold: bool, wg: int, items: int) -> None:
        self.cols = fold and wg % 32 == 0
        self.runs = fold and items <= 32
        self.fold = fold
        self.wg, self.stride = wg, wg + wg // 32

    def col(self, k: str, plain: str) -> str:
        """rx_pad(k * wg + lid), ``k`` a WGSL u32 expression; unfolded, ``rx_pad(plain)``."""
        return f"{k} * {self.stride}u + pl" if self.cols else f"rx_pad({plain})"

    def run(self, var: str, i: int) -> str:
        """rx_pad(var + i) for var = lid * items (``pb``) or lid * 8 (``pf``), defined by ``define``."""
        short = {"base": "pb", "f": "pf"}[var]
        return f"{short} + {i}u" if (self.runs if var == "base" else self.fold) else f"rx_pad({var} + {i}u)"

    def define(self, var: str, ind: str) -> list[str]:
        short = {"base": "pb", "f": "pf"}[var]
        return [f"{ind}let {short} = rx_pad({var});"] if (self.runs if var == "base" else self.fold) else []


def _reg_split(src: str, dst: str, sh: int, wg: int, items: int, nibbles: bool = False,
               pads: _Pads | None = None) -> str:
    """One stable counting sort of the tile by the 4-bit digit at bit ``sh`` of its codes, ``src`` into ``dst``
    (radix_scatter_reg.wgsl), straight-line: invocation lid ranks codes lid * items .. lid * items + items - 1.
    ``nibbles`` (Shape.nibbles, at most 15 keys an invocation): the 16 counters are 4-bit, digits 0..7 in one word
    and 8..15 in another (fewer instructions a key than the byte counters of a vec4)."""
    r = range(items)
    ind = "            "
    pads = pads or _Pads(False, wg, items)
    out = [f"        {{  // counting sort by bits {sh}..{sh + 3}: {src} -> {dst}",
           f"{ind}let base = lid * {items}u;"] + pads.define("base", ind)
    out += [f"{ind}let v{i} = {src}[{pads.run('base', i)}];" for i in r]
    out += [f"{ind}let d{i} = (v{i} >> {sh}u) & 15u;" for i in r]
    words = []
    if nibbles:
        out += [f"{ind}var ca = 0u;  // 16 nibble counters: digit d in nibble d & 7 of ca (d < 8) or cb",
                f"{ind}var cb = 0u;"]
        # key i: its nibble's shift, word (u: cb), rank among the invocation's equal digits, increment
        step = "let s# = (d# & 7u) * 4u; let u# = d# >= 8u; let l# = (select(ca, cb, u#) >> s#) & 15u; " \
            "let i# = 1u << s#; ca = ca + select(i#, 0u, u#); cb = cb + select(0u, i#, u#);"
        out += [f"{ind}{st.strip()};".replace("#", str(i)) for i in r for st in step.split(";")[:-1]]
        words = [f"((ca >> {4 * w}u) & 15u) | (((cb >> {4 * w}u) & 15u) << 16u)" for w in range(8)]
    else:
        out.append(f"{ind}var c = vec4<u32>(0u);  // 16 byte counters: digit d in byte d & 3 of component d >> 2")
        for i in r:
            out += [f"{ind}let h{i} = select(vec4<u32>(0u), vec4<u32>(1u), vec4<u32>(d{i} >> 2u) == rx_q);",
                    f"{ind}let s{i} = (d{i} & 3u) * 8u;",
                    f"{ind}let l{i} = (dot(c, h{i}) >> s{i}) & 0xffu;",
                    f"{ind}c = c + (h{i} << vec4<u32>(s{i}));"]
    for w in range(8 if not nibbles else 0):
        lo, hi, sb = ("c.x", "c.z", 8 * w) if w < 4 else ("c.y", "c.w", 8 * (w - 4))
        words.append(f"(({lo} >> {sb}u) & 0xffu) | ((({hi} >> {sb}u) & 0xffu) << 16u)")
    out += [f"{ind}sc[{pads.col(f'{w}u', f'{w * wg}u + lid')}] = {words[w]};" for w in range(8)]
    out += [f"{ind}workgroupBarrier();", f"{ind}let f = lid * 8u;"] + pads.define("f", ind)
    out += [f"{ind}let a{w} = sc[{pads.run('f', w)}];" for w in range(8)]
    out.append(f"{ind}let e0 = 0u;")
    out += [f"{ind}let e{w} = e{w - 1} + a{w - 1};" for w in range(1, 8)]
    out += [f"{ind}let ex = rx_exscan(lid, e7 + a7);", f"{ind}let lo_total = rx_sum & 0xffffu;"]
    out += [f"{ind}sc[{pads.run('f', w)}] = ex + e{w};" for w in range(8)]
    out.append(f"{ind}workgroupBarrier();")
    for i in r:
        out += [f"{ind}let q{i} = sc[{pads.col(f'(d{i} & 7u)', f'(d{i} & 7u) * {wg}u + lid')}];",
                f"{ind}{dst}[rx_pad(select(q{i} & 0xffffu, (q{i} >> 16u) + lo_total, d{i} >= 8u) + l{i})] = v{i};"]
    out += [f"{ind}workgroupBarrier();", "        }"]
    return "\n".join(out)


def _reg_load(wg: int, items: int, prefetch: bool, kzero: str | None, pads: _Pads,
              stage: bool = False, stage_keys: bool = False) -> tuple[str, str, str]:
    """radix_scatter_reg.wgsl's PRELOAD (before the tile loop), LOAD (a tile's codes into ta) and STAGE.  ``prefetch``:
    a tile's digit inputs were loaded into registers during the previous tile (the first tile's before the loop),
    and the next tile's are loaded once this one's codes are stored, in flight while it is ranked; ``kzero``: the
    key type's zero when a key pass reads stored keys (None: carried keys, only the payload is loaded);
    ``stage`` (Shape.stage): every pass's payload is prefetched too (rx_payload), this tile's kept (si) while the
    next tile's are in flight, and STAGE (once the tile is ranked) stores it into tb by position; ``stage_keys``: a
    key pass's 32-bit stored keys (sk) into sc likewise."""
    r = range(items)
    ind = "        "
    load = []
    for k in r:
        digit = f"rx_digit_of({f'pk{k}' if kzero else 'rx_key_at(0u)'}, pi{k})" if prefetch else f"rx_digit(t0 + j{k})"
        load += [f"{ind}let j{k} = {k * wg}u + lid;",
                 f"{ind}var c{k} = (0xffu << 16u) | j{k};",
                 f"{ind}if (j{k} < valid) {{ c{k} = ({digit} << 16u) | j{k}; }}"]
    load += [f"{ind}ta[{pads.col(f'{k}u', f'j{k}')}] = c{k};" for k in r]
    load += [f"{ind}let si{k} = pi{k};" for k in r] if stage else []
    load += [f"{ind}let sk{k} = pk{k};" for k in r] if stage_keys and kzero else []
    staged = [f"{ind}tb[{pads.col(f'{k}u', f'j{k}')}] = si{k};" for k in r] if stage else []
    staged += [f"{ind}sc[{pads.col(f'{k}u', f'j{k}')}] = sk{k};" for k in r] if stage_keys and kzero else []
    pl = ["    let pl = rx_pad(lid);"] if pads.cols else []
    if not prefetch:
        return "\n".join(pl), "\n".join(load), ""

    def fetch(at: str, k: int, i: str) -> list[str]:
        e = f"{at} + {k * wg}u + lid"
        return [f"{i}if ({e} < bstop) {{"] + ([f"{i}    pk{k} = rx_key_at({e});"] if kzero else []) + \
            [f"{i}    pi{k} = {'rx_payload' if stage else 'rx_idx_at'}({e});", f"{i}}}"]
    pre = []
    for k in r:
        pre += ([f"    var pk{k} = {kzero};"] if kzero else []) + [f"    var pi{k} = 0u;"] + fetch("bstart", k, "    ")
    load.append(f"{ind}// the next tile's inputs, in flight while this one is ranked")
    for k in r:
        load += fetch(f"t0 + {wg * items}u", k, ind)
    return "\n".join(pl + pre), "\n".join(load), "\n".join(staged)


def _reg_parts(wg: int, items: int, prefetch: bool = False, kzero: str | None = None,
               nibbles: bool = False, fold: bool = False, stage: bool = False,
               stage_keys: bool = False) -> dict[str, str]:
    """radix_scatter_reg.wgsl's generated parts (``prefetch``, ``kzero``, ``stage``, ``stage_keys``: ``_reg_load``;
    ``nibbles``:
    ``_reg_split``; ``fold``: ``_Pads``)."""
    r = range(items)
    ind = "        "
    pads = _Pads(fold, wg, items)
    preload, load, staged = _reg_load(wg, items, prefetch, kzero, pads, stage, stage_keys)
    payload = "tb[rx_pad(o{k} & 0xffffu)]" if stage else "rx_payload(at)"
    key = "sc[rx_pad(o{k} & 0xffffu)]" if stage_keys and kzero else "keys_in[at]"
    starts = []
    for k in r:
        starts += [f"{ind}let o{k} = ta[{pads.col(f'{k}u', f'j{k}')}];",
                   f"{ind}if (j{k} < valid && (j{k} == 0u || (ta[rx_pad(max(j{k}, 1u) - 1u)] >> 16u) != (o{k} >> 16u))) "
                   f"{{ tstart[o{k} >> 16u] = run[o{k} >> 16u] - j{k}; }}",
                   f"{ind}let last{k} = j{k} + 1u == valid || (ta[rx_pad(j{k} + 1u)] >> 16u) != (o{k} >> 16u);"]
    write = []
    for k in r:
        write += [f"{ind}var n{k} = 0u;",
                  f"{ind}if (j{k} < valid) {{",
                  f"{ind}    let d = o{k} >> 16u;",
                  f"{ind}    let dest = tstart[d] + j{k};",
                  f"{ind}    let at = t0 + (o{k} & 0xffffu);",
                  f"{ind}    idx_out[dest] = {payload.format(k=k)};",
                  f"{ind}    if (rx_write_keys) {{ keys_out[dest] = {key.format(k=k)}; }}",
                  f"{ind}    if (last{k}) {{ n{k} = dest + 1u; }}",
                  f"{ind}}}"]
    advance = [f"{ind}if (n{k} != 0u) {{ run[o{k} >> 16u] = n{k}; }}" for k in r]
    return dict(PRELOAD=preload, LOAD=load, SPLIT_LO=_reg_split("ta", "tb", 16, wg, items, nibbles, pads),
                SPLIT_HI=_reg_split("tb", "ta", 20, wg, items, nibbles, pads),
                STARTS="\n".join(starts + ([f"{ind}// Shape.stage: the tile's payload (and keys) by position", staged]
                                           if staged else [])), WRITE="\n".join(write), ADVANCE="\n".join(advance))


def _build_scatter(kdt: DType, shp: Shape, carried) -> launch.Kernel:
    if shp.chunked:
        bindings = _pass_inputs(kdt) + (write("counts", "array<u32>"), write("keys_out", f"array<{kdt.wgsl}>"),
                                        write("idx_out", "array<u32>"))
        return launch.Kernel("radix_scatter_cpu.wgsl", bindings, dict(DIGIT=_digit(kdt, shp.bits, carried)), shp.wg)
    bindings = _pass_inputs(kdt) + (read("counts", "array<u32>"), read("totals", "array<u32>"),
                                    write("keys_out", f"array<{kdt.wgsl}>"), write("idx_out", "array<u32>"))
    wg = shp.wg
    begin = source.render("radix_scatter_begin.wgsl", WG=wg, PER=256 // wg)
    return launch.Kernel("radix_scatter_reg.wgsl", bindings,
                         dict(DIGIT=_digit(kdt, 8, carried), BEGIN=begin, WGSCAN=_reg_scan_text(wg, shp.scan_bases),
                              ITEMS=shp.items, TILE=shp.tile, TP=_padded(shp.tile), SP=_padded(8 * wg),
                              **_reg_parts(wg, shp.items, shp.prefetch,
                                           None if carried else _kconst(kdt)["KZERO"], shp.nibbles,
                                           shp.fold_pad, shp.stage, shp.stage_keys and kdt.itemsize == 4)),
                         wg)


def plan_passes(nbytes: int, kmin: int, kmax: int, kor: int, kand: int, bits: int = 8) -> tuple[int, list[int]]:
    """(the minimum subtracted from every key, the bit shifts of the ``bits``-wide key digits that need a pass),
    from the keys' reduction: raw digits where some keys differ, or digits of key - min up to max - min."""
    diff = kor ^ kand
    mask = (1 << bits) - 1
    raw = [bits * i for i in range(_digits(8 * nbytes, bits)) if (diff >> (bits * i)) & mask]
    rel = list(range(0, (kmax - kmin).bit_length(), bits))
    return (kmin, rel) if len(rel) < len(raw) else (0, raw)


def key_slots(xdt: DType, bits: int = 8) -> int:
    """The key passes recorded for ``xdt``: the most its plan can ask for, rounded up to even (an odd count ends
    in a payload copy), since the plan lives on the device.  The digits of key - min never exceed the values'
    own bits (an int8's key spans 256 values, a float16's has 16 bits)."""
    d = _digits(min(8 * xdt.itemsize, 8 * _kdt(xdt).device_itemsize), bits)
    return d + d % 2


@dataclass
class _Work:
    """The buffers of one sort: keys and payload (two of each, ping-pong), the device plan, the block shape."""

    n: int
    nb: int
    block: int
    kbuf: list
    ibuf: list
    plan: Mirror
    held: list  # the mirrors of kbuf and ibuf: alive until the sort is recorded (a freed block is reused at once)


def _keys_and_plan(device, x: ViewLike, descending: bool, n: int, length: int, rws, shp: Shape,
                   carry: bool = False, final: Mirror | None = None, gen: bool = False) -> _Work:
    """Record the keys/payload init (``carry``: the payload is the values' bits, else their flat index) and the
    statistics that plan the key passes on the device; ``final``: the mirror that serves as the payload's first
    buffer (where the passes end); ``gen``: no payload written (the first key pass generates the index:
    Shape.gen_index), at least one pass planned."""
    kdt = _kdt(x.dtype)
    ntiles = math.ceil(n / shp.tile)
    block = math.ceil(ntiles / shp.max_blocks) * shp.tile
    nb = math.ceil(n / block)
    keys = [Mirror(kdt, n, device), Mirror(kdt, n, device)]
    idxs = [final or Mirror(dt.uint32, n, device), Mirror(dt.uint32, n, device)]
    work = _Work(n, nb, block, [m.buffer_for_write(whole=True) for m in keys],
                 [m.buffer_for_write(whole=True) for m in idxs], Mirror(dt.uint32, 4 + 64, device), keys + idxs)
    part = Mirror(kdt, 4 * nb, device)
    one_row, simple = length == n, rws[0].simple  # no division by L; one multiply-add an address
    kernel = launch.compile(device, ("radix_init", x.dtype.name, descending, shp.wide, carry, one_row, simple,
                                     not gen),
                            lambda: _build_init(x.dtype, descending, shp.wide, carry, one_row, simple, not gen))
    params = layout.Params().u32(n, length, block, 0)
    rws[0].pack(params)
    bufs = [x.mirror.buffer(), work.kbuf[0], work.ibuf[0], part.buffer_for_write(whole=True)]
    launch.dispatch(device, kernel, bufs, params.bytes(), workgroups=nb)
    least = int(gen)
    kernel = launch.compile(device, ("radix_stats", kdt.name, shp.wide, shp.bits, least),
                            lambda: _build_stats(kdt, shp.wide, shp.bits, least))
    bufs = [part.buffer(), work.plan.buffer_for_write(whole=True)]
    launch.dispatch(device, kernel, bufs, layout.Params().u32(nb, 0, 0, 0).bytes(), workgroups=1)
    return work


def _shape(device, pairs: bool = False) -> Shape:
    """CPU on CPU adapters whose storage binding holds its per-chunk counts (4 bytes x 2^bits digits x chunks),
    else GPU (a device opened with a tiny ``binding_limit``), its tile halved until the scatter fits the device's
    workgroup memory; ``pairs`` (stored keys and an index payload): ``Shape.pair_blocks`` / ``pair_dscan``."""
    lim = device.properties.limits
    cpu = device.properties.adapter_type == "CPU" and \
        4 * (1 << CPU.bits) * CPU.max_blocks * CPU.wg <= lim.max_storage_buffer_binding_size
    shp = CPU if cpu else GPU
    if shp.chunked:
        return shp
    if pairs and (shp.pair_blocks or shp.pair_dscan):
        shp = dataclasses.replace(shp, max_blocks=shp.pair_blocks or shp.max_blocks,
                                  dscan_regs=shp.pair_dscan or shp.dscan_regs)
    while shp.scatter_bytes > lim.max_compute_workgroup_storage_size and shp.tile > shp.wg:
        shp = dataclasses.replace(shp, tile=shp.tile // 2)
    return shp


def device_plan(device, x: ViewLike, axis: int, descending: bool) -> tuple[int, list[int]]:
    """(minimum, shifts) that the device plans for sorting ``x`` along ``axis``, read back: for tests of the
    planner against ``plan_passes``; sorting itself never reads it."""
    n_rows, length, rws = rows.split(x.shape, [axis], [(x.offset, x.strides)])
    work = _keys_and_plan(device, x, descending, n_rows * length, length, rws, _shape(device, pairs=True))
    plan = [int(v) for v in work.plan.host()]
    return plan[1] | (plan[2] << 32), plan[4:4 + plan[0] - plan[3]]


def run(device, x: ViewLike, axis: int, descending: bool, values_out: ViewLike | None,
        index_out: ViewLike | None) -> None:
    """Sort ``x`` along ``axis`` into ``values_out`` (same dtype) and/or ``index_out`` (int32), like
    ``sort.run``.  Records a fixed sequence of dispatches and reads nothing back."""
    outs = [o for o in (values_out, index_out) if o is not None]
    n_rows, length, rws = rows.split(x.shape, [axis], [(x.offset, x.strides)] + [(o.offset, o.strides)
                                                                                 for o in outs])
    n = n_rows * length
    if n == 0:
        return
    if n >= 1 << 31:
        raise MemoryError(f"sorting {n} elements is too large for one device buffer")
    kdt = _kdt(x.dtype)
    # a values-only sort of one row carries the values' bits, not their index: no random gather at the end (row
    # passes need the index: the row is index / L)
    carry = index_out is None and n_rows == 1 and x.dtype.wgsl in CARRIED
    shp = _shape(device, pairs=not carry)
    # Shape.direct: such a sort into a whole contiguous output uses it as the payload's first buffer, where the
    # passes end (the output then holds the sorted bits: no gather)
    def whole(out: ViewLike | None, r) -> bool:  # a whole contiguous output of n elements, not the source
        return out is not None and r.offset == 0 and (n == 1 or (r.ishape, r.ist) == ((n,), (1,))) and \
            out.mirror.size == n and out.mirror is not x.mirror
    direct = shp.direct and carry and whole(values_out, rws[1])
    # Shape.direct_index: likewise the index output of an argsort of one row (the passes end in it: no gather)
    final = values_out.mirror if direct else None
    if shp.direct_index and values_out is None and n_rows == 1 and whole(index_out, rws[1]):
        direct, final = True, index_out.mirror
    bits = shp.bits
    passes = [(0, s) for s in range(key_slots(x.dtype, bits))] if length > 1 else []  # (mode, key slot | row shift)
    # Shape.gen_index: an index payload is generated by the first key pass (no payload written by the init)
    gen = shp.gen_index and not carry and bool(passes)
    work = _keys_and_plan(device, x, descending, n, length, rws, shp, carry, final, gen)
    nb, kbuf, ibuf, plan = work.nb, work.kbuf, work.ibuf, work.plan.buffer()
    if passes and n_rows > 1:
        passes += [(1, s) for s in range(0, (n_rows - 1).bit_length(), bits)]
    segs = nb * shp.wg if shp.chunked else nb  # counted segments: the CPU kernels count each chunk of a block
    counts = Mirror(dt.uint32, (1 << bits) * segs, device)
    totals = Mirror(dt.uint32, 256, device)
    per = 0 if nb <= SERIAL_DSCAN else 1  # digits a GPU dscan workgroup scans (0: serially)
    carried = (x.dtype.name, descending) if carry else None  # the passes recompute the keys from the payload
    checks = not UNCHECKED or shp.chunked  # (UNCHECKED: the GPU kernels without runtime checks)
    hist = launch.compile(device, ("radix_hist", kdt.name, shp, carried), lambda: _build_hist(kdt, shp, carried),
                          checks=checks)
    scatter = launch.compile(device, ("radix_scatter", kdt.name, shp, carried),
                             lambda: _build_scatter(kdt, shp, carried), checks=checks)
    regs = 0 if shp.chunked else shp.dscan_regs
    scan = launch.compile(device, ("radix_dscan", shp.wide, regs), lambda: _build_dscan(shp.wide, regs),
                          checks=checks)
    cur = 0
    for mode, arg in passes:
        if mode == 1 and arg == 0:
            cur = 0  # the plan runs an even number of key passes: the keys' order is in the first buffers
        src = ibuf[cur]  # this pass's payload
        params = layout.Params().u32(n, length, nb, work.block, mode, arg if mode else 0, 0 if mode else arg,
                                     int(gen and (mode, arg) == (0, 0))).bytes()
        cbuf = counts.buffer_for_write(whole=True)
        launch.dispatch(device, hist, [kbuf[cur], src, plan, cbuf], params, workgroups=nb)
        if shp.chunked:  # one exclusive scan of the digit-major chunk counts (as one "digit") gives every slot
            launch.dispatch(device, scan, [plan, cbuf, totals.buffer_for_write(whole=True)],
                            layout.Params().u32((1 << bits) * segs, 1, mode, arg).bytes(), workgroups=1)
            bufs = [kbuf[cur], src, plan, cbuf, kbuf[1 - cur], ibuf[1 - cur]]
        else:
            launch.dispatch(device, scan, [plan, cbuf, totals.buffer_for_write(whole=True)],
                            layout.Params().u32(segs, per, mode, arg).bytes(), workgroups=256 // per if per else 1)
            bufs = [kbuf[cur], src, plan, cbuf, totals.buffer(), kbuf[1 - cur], ibuf[1 - cur]]
        launch.dispatch(device, scatter, bufs, params, workgroups=nb)
        cur = 1 - cur
    if passes and passes[-1][0] == 0:
        cur = 0
    if direct:
        return
    sort.gather(device, x, x.mirror.buffer(), ibuf[cur], rws, values_out is not None, index_out is not None,
                n_rows, length, length, length, [o.mirror for o in outs], carried=carry)
