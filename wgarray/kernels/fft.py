"""FFT kernels: batched 1-D complex transforms over contiguous rows, or along a strided axis, of GPU buffers, in WGSL.

* Lengths whose prime factors are 2, 3, 5 and 7 run as tiled passes (``fft_tile.wgsl``, ``plan``).  A pass
  gives each workgroup a tile of C neighbouring columns of one sub-length R and transforms them over R entirely in
  workgroup memory (Stockham sub-passes of radix 8, 4, 2, 7, 5, 3, generated unrolled; no bit reversal).  A row
  that fits one workgroup's memory is one pass (C = 1: load once, all sub-passes, store once); a strided axis
  whose length fits with tiles of at least 32 contiguous bytes is one pass too, read and written in place.
  Longer transforms take the tiled Stockham passes with the fewest passes, n = L_1 L_2 ... L_p (tiles of 4-16
  complex64 columns, 32-128-byte runs; 2^24 complex64: three passes of 256), pass q a Stockham step of radix L_q
  with its twiddles multiplied in as the tile loads and its transpose folded into the store addresses: the
  default, which the H200 measured fastest at every size.  Selectable styles (``plan_style``) keep the plans of
  the 256-byte rule (tiles of 32-64 columns, and for a contiguous row the four-step plan n = n1 n2: the columns
  of the (n1, n2) matrix in tiles, one pass over its rows with the twiddles w_n^(c b) fused into the loads, a
  tiled transpose: ``fft_transpose.wgsl``; four passes at 2^24), measured 15-25% slower there.  ``tile_options``
  (workgroup size, radix-16 sub-passes, narrower tiles) are the candidates ``benchmarks/fftgpu_sweep.py`` ranks
  on a GPU (two-pass plans of 4096-point tiles, of one column or held in registers, measured 1.5-6x slower on
  the H100 and were removed).
* ``reg_options`` (the default for strided axes of length 4096, ``max_length``: measured faster on the H100 there,
  slower at 8192 and 16384): such an axis (4096^2's columns) in one pass, C >= 4 columns a workgroup held in
  registers (64 elements an invocation), the Stockham stages on the registers, the exchanges through workgroup
  memory in rounds (``fft_regcols.wgsl``, ``benchmarks/fft2d_sweep.py``).
* Other lengths use Bluestein's algorithm (``fft_chirp.wgsl``): a cyclic convolution of power-of-two length
  through the transforms above; the chirp's spectrum is computed once per (device, length, dtype, direction).
* Real transforms (``fft_real.wgsl``): an even-length real row is a complex row of half the length (the same
  bytes), transformed and then untangled by a twiddle kernel (rfft), or tangled first and inverse transformed
  (irfft).
* Twiddle tables (``fft_twiddle.wgsl``) are computed on the device from exact integer angles with the project's
  software sin/cos and cached per (device, length, dtype).

Buffers here are raw GPU buffers of ``vec2<f32|f64>`` elements; the caller (``ops/fft.py``) owns layout, dtypes
and norms.  ``transform`` only reads its source buffer (the caller may pass a user's array).
"""
from __future__ import annotations

import contextlib
import functools
import math
import re
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from struct import pack

from ..alloc.mirror import Mirror
from ..dtypes import DType
from . import launch, layout, source

RADICES = (8, 4, 2, 7, 5, 3)  # the order factors are taken in: big radices first (fewer passes)
_PIO2 = {"f32": ("1.5707963705062866", "-4.371138828673793e-08"),
         "f64": ("1.5707963267948966", "6.123233995736766e-17")}
_SQRT_HALF = "0.7071067811865476"  # the correctly rounded sqrt(1/2) of each precision (its literal rounds so)
_CACHE_ENTRIES = 64


# -- plans ---------------------------------------------------------------------------------------------------------
def factors(n: int) -> list[int] | None:
    """The radices of a Stockham plan for length n (their product is n), or None when n has a prime factor
    above 7 (Bluestein's algorithm then; n < 1 too, which would never divide down to 1)."""
    if n < 1:
        return None
    out: list[int] = []
    for r in RADICES:
        while n % r == 0:
            out.append(r)
            n //= r
    return out if n == 1 else None


def bluestein_length(n: int) -> int:
    """The power-of-two convolution length of Bluestein's algorithm for length n."""
    return 1 << (2 * n - 2).bit_length()


def local_capacity(device, itemsize: int) -> int:
    """The most elements one workgroup transforms in workgroup memory (one copy of its tile: each sub-pass stages
    its values in registers across a barrier, so no ping-pong copy is needed).  ``capacity_limit`` lowers it (the
    tests run the multi-pass decomposition at small lengths that way)."""
    own = device.properties.limits.max_compute_workgroup_storage_size // itemsize
    return min(own, _cap_override) if _cap_override else own


_cap_override = 0


@contextlib.contextmanager
def capacity_limit(elements: int):
    """Within the block, transforms plan as if workgroup memory held only ``elements`` elements (for tests)."""
    global _cap_override
    old, _cap_override = _cap_override, int(elements)
    try:
        yield
    finally:
        _cap_override = old


# The tiled kernels' knobs (``tile_options``): invocations a workgroup (0: ``_workgroup``'s rule), radix-16
# sub-passes (two radix-4 stages an invocation between barriers) before 8, the most columns a multi-column tile
# takes (0: the plan's; fewer columns, more and smaller workgroups), the four-step twiddles of a later pass looked
# up once every ``twgroup`` rows of an invocation, the rows between by multiplication (0: a lookup every row), the
# sub-passes' twiddles as powers of one lookup a butterfly (``powers``), the pass's sizes and strides as WGSL
# constants with the column guard dropped where the columns divide evenly (``fixed``: a pipeline per shape), and
# complex64 tiles loaded and stored two columns an invocation as vec4s (``vec4``), and the invocations of one-column
# tiles alone (``row_workgroup``), and multi-column tiles widened to at least ``min_columns`` columns (where the
# axis has them and the tile fits: 4096^2's column tiles 64x32, 256-byte rows, instead of the plan's 64x16), and
# a tile's first (and last) sub-pass done straight from its loads (to its stores): ``fused``, in the transforms of
# at least ``fused_min`` elements (0: all).
# TILE_DEFAULTS is what a plain
# call uses and what ``tile_options`` starts from: set an entry here when ``benchmarks/fftgpu_sweep.py`` measures
# that knob faster on the GPU.  The H100 sweep (2026-12-06, 37daa53) measured c8+r16+k+t4+p best or tied at every
# size (2^24 0.577 -> 0.368 ms, 4096^2 0.472 -> 0.406, 2^20 0.083 -> 0.075, 2^22 0.161 -> 0.143, 1024^2 0.094 ->
# 0.091); every entry off is the kernel measured before.
# ``fixed`` is the fewest elements (rows x n x inner) a transform's passes take shader constants from (True: 1,
# every transform): a pipeline per shape costs a compile (~0.1-1 s on lavapipe) for every new shape, which only
# pays for large transforms (the GPU sweep's sizes, 2^20 and up, are all above the default 2^18).
FIXED_MIN = 1 << 18
# ``pad``: a one-column tile's element of padding after every 16 (the Stockham sub-passes' strided accesses spread
# over the banks; off: 32 KiB instead of 34 KiB for 4096 points).  Per-axis choices: ``rows`` (a contiguous row's
# one pass, e.g. 4096^2's rows) and ``strided`` (the passes along a strided axis, e.g. 4096^2's columns) are dicts
# of the other knobs that replace the general ones for those passes ({}: the same).
# The second H100 sweep (2026-12-06, 75daa92) split 4096^2 by axis: rows best as half-length tiles with vec4 stores
# (0.205 -> 0.152 ms), columns best with the plan's own tile width (0.274 -> 0.245); together 0.433 -> 0.370 ms.
# The fifth H100 sweep (2026-12-06, 2e50f89) measured fused=2 faster at 2^24 (0.388 -> 0.358 ms), 1024^2 (0.114 ->
# 0.108) and 4096^2 (0.371 -> 0.367), slower at 2^20 (0.104 -> 0.110) and 2^22 (0.188 -> 0.198): on from FIXED_MIN
# elements (the sizes measured; a small transform keeps the plain kernels, unmeasured there).
TILE_DEFAULTS = dict(workgroup=0, radix16=True, columns=8, twgroup=4, powers=True, fixed=FIXED_MIN, vec4=False,
                     row_workgroup=0, pad=True, half=False, min_columns=0, fused=2, fused_min=FIXED_MIN,
                     rows=dict(half=True, vec4=True),
                     strided=dict(columns=0))
# UNCHECKED: the tiled passes (fft_tile.wgsl) and the register pass (fft_regcols.wgsl) made without naga's runtime
# checks (launch.compile(checks=False), as matmul's ``_u`` variants).  Their workgroup-memory and private indices are
# in range by construction: every ``buf`` index is ``at(r, c)`` (or ``r * C + c``) of a row r < R and a column
# c = lid mod C (or c < C from the unrolled code), r built from lid and unrolled constants below R (the invocation
# counts divide the tile), plus the pad (<= size / 16 < BUF); the register arrays are indexed by constants only;
# the loops run over constants.  On since the H100 run of 2026-12-06 (``python -m benchmarks.unchecked_sweep``,
# gpu_results s24/8/unchecked.txt): fft 2^24 0.345 -> 0.337 ms (0.81x -> 0.83x torch), fft2 4096² 0.281 -> 0.279.
UNCHECKED = True
_KNOBS = ("workgroup", "radix16", "columns", "twgroup", "powers", "fixed", "vec4", "row_workgroup", "pad", "half",
          "min_columns", "fused", "fused_min")
(_tile_wg, _radix16, _tile_cols, _twgroup, _powers, _fixed, _vec4, _row_wg, _pad, _half, _min_cols, _fused,
 _fused_min, _rows_ov, _strided_ov) = TILE_DEFAULTS.values()


@contextlib.contextmanager
def tile_options(workgroup: int | None = None, radix16: bool | None = None, columns: int | None = None,
                 twgroup: int | None = None, powers: bool | None = None, fixed: bool | int | None = None,
                 vec4: bool | None = None, row_workgroup: int | None = None, pad: bool | None = None,
                 half: bool | int | None = None, min_columns: int | None = None, fused: bool | int | None = None,
                 fused_min: int | None = None, rows: dict | None = None, strided: dict | None = None):
    """Within the block, the tiled passes use these options (None: TILE_DEFAULTS's): ``workgroup`` invocations
    a workgroup (a power of two from 32; 0: the default rule, capped by the device and raised to the tile's
    columns), ``radix16`` sub-passes of radix 16 (a 4096-point tile: 3 sub-passes and barriers instead of 4),
    tiles of at most ``columns`` columns (a power of two; 0: the plan's).  ``twgroup`` g > 1: a later pass's
    four-step twiddles w^(k r) are two table loads for every g-th row of an invocation and one product for the
    rows between (w^(k r0) times the powers of w^(k step), each from at most ~2 log2 g products); ``powers``: a
    sub-pass butterfly's twiddles w^(k j), j < radix, are powers of its one looked-up w^k (instead of radix - 1
    loads); ``fixed``: the pass's sizes and strides are constants of its shader (divisions by them become shifts
    or multiplies, the column guard goes where the tiles divide the columns evenly), for transforms of at least
    ``fixed`` elements (True: all; the default ``FIXED_MIN``: a pipeline per shape only where it pays);
    ``vec4``: complex64 tiles of an even number of columns (of an even count and length) are read and written as
    vec4s, two neighbouring columns an invocation (16-byte accesses, half the load and store instructions);
    ``row_workgroup``: the invocations of one-column tiles (a contiguous row's single pass, e.g. 4096^2's rows)
    instead of ``workgroup``'s (0: ``workgroup``'s); ``pad``: one-column tiles padded in workgroup memory; ``half``
    (True or 4): a contiguous row's one pass in 1/2 or 1/4 of the workgroup memory (``_build_half``);
    ``min_columns`` (a power of two; 0: off): multi-column tiles take at least that many columns where the axis
    has them and the tile fits the workgroup memory (``columns`` caps the plan's width, this raises it);
    ``fused``: a tile's first sub-pass (radix R_s) straight from its loads: each invocation loads the R_s rows of
    one butterfly (R_s loads in flight, not R / workgroup), transforms them in registers and writes the outputs to
    workgroup memory (one store, barrier and load round trip fewer; the workgroup shrinks to the butterflies'
    count where it is larger, not below 32; vec4 pairs and half tiles keep the plain loads); ``fused=2`` also the last
    sub-pass's outputs stored straight to global memory where they are the store's runs (tiles that store whole
    column runs, i.e. later passes, and one-column tiles: one more round trip and barrier fewer), in transforms of at
    least ``fused_min`` elements (rows x n x inner; 0: every transform; the default ``FIXED_MIN``: the sizes the
    GPU sweep measured it at);
    ``rows`` /
    ``strided``: dicts of these knobs (not rows/strided) that replace the others for a contiguous row's one pass /
    the passes along a strided axis (e.g. ``strided=dict(columns=16, radix16=False)``)."""
    global _tile_wg, _radix16, _tile_cols, _twgroup, _powers, _fixed, _vec4, _row_wg, _pad, _half, _min_cols
    global _fused, _fused_min, _rows_ov, _strided_ov
    given = dict(workgroup=workgroup, radix16=radix16, columns=columns, twgroup=twgroup, powers=powers,
                 fixed=fixed, vec4=vec4, row_workgroup=row_workgroup, pad=pad, half=half, min_columns=min_columns,
                 fused=fused, fused_min=fused_min, rows=rows, strided=strided)
    o = {k: TILE_DEFAULTS[k] if v is None else v for k, v in given.items()}
    for key in ("rows", "strided"):
        bad = set(o[key]) - set(_KNOBS)
        if bad:
            raise ValueError(f"{key} options {sorted(bad)}: need some of {_KNOBS}")
        with _nothing() if not o[key] else tile_options(**{**{k: v for k, v in o.items() if k in _KNOBS},
                                                           **o[key]}, rows={}, strided={}):
            pass  # the per-axis options checked as a whole (without per-axis options of their own)
    for key in ("workgroup", "row_workgroup"):
        if o[key] and (o[key] < 32 or o[key] & (o[key] - 1)):
            raise ValueError(f"workgroup of {o[key]} invocations: need 0 or a power of two >= 32")
    for key in ("columns", "min_columns"):
        if o[key] < 0 or o[key] & (o[key] - 1):
            raise ValueError(f"tiles of {o[key]} columns ({key}): need 0 or a power of two")
    if o["twgroup"] < 0 or o["fixed"] < 0 or o["fused_min"] < 0:
        raise ValueError(f"twiddle groups of {o['twgroup']} rows, fixed from {o['fixed']}, fused from "
                         f"{o['fused_min']}: need 0 or more")
    if o["fused"] not in (0, 1, 2):
        raise ValueError(f"fused={o['fused']}: need False, True (1) or 2")
    if o["half"] not in (0, 1, 2, 4):  # every check before any knob is set: a refused call changes nothing
        raise ValueError(f"half={o['half']}: need False, True (2) or 4")
    old = _current()
    _tile_wg, _radix16, _tile_cols = int(o["workgroup"]), bool(o["radix16"]), int(o["columns"])
    _twgroup, _powers, _fixed, _vec4 = int(o["twgroup"]), bool(o["powers"]), int(o["fixed"]), bool(o["vec4"])
    _row_wg, _pad, _half, _min_cols = int(o["row_workgroup"]), bool(o["pad"]), int(o["half"]), int(o["min_columns"])
    _fused, _fused_min = int(o["fused"]), int(o["fused_min"])
    _rows_ov, _strided_ov = dict(o["rows"]), dict(o["strided"])
    try:
        yield
    finally:
        (_tile_wg, _radix16, _tile_cols, _twgroup, _powers, _fixed, _vec4, _row_wg, _pad, _half, _min_cols, _fused,
         _fused_min, _rows_ov, _strided_ov) = old.values()


_nothing = contextlib.nullcontext
_bare = False


@contextlib.contextmanager
def bare_passes():
    """Within the block (benchmarks only: wrong answers), the tiled passes keep their tiles, workgroups, loads and
    stores but do no arithmetic (no sub-passes, twiddles or half-split butterflies): each pass's memory ceiling at
    its own access pattern."""
    global _bare
    old, _bare = _bare, True
    try:
        yield
    finally:
        _bare = old


def _current() -> dict:
    """The knobs in force (``tile_options``'s keywords)."""
    return dict(zip(_KNOBS + ("rows", "strided"), (_tile_wg, _radix16, _tile_cols, _twgroup, _powers, _fixed,
                                                    _vec4, _row_wg, _pad, _half, _min_cols, _fused, _fused_min,
                                                    _rows_ov, _strided_ov)))


def pass_options(inner: int, passes: int):
    """The knobs of the passes of one transform along an axis (``inner`` > 1: a strided axis, ``strided``'s
    options; a contiguous row in one pass: ``rows``'s; else the general ones), as a context."""
    over = _strided_ov if inner > 1 else _rows_ov if passes == 1 else {}
    return tile_options(**{**_current(), **over}) if over else _nothing()


def _subplan(R: int) -> list[int]:
    """The sub-pass radices of a tile of length R (``factors``; with ``tile_options(radix16=True)`` as many
    radix-16 sub-passes as 16 divides R, then ``factors`` of the rest)."""
    sub = factors(R) or []
    if not _radix16:
        return sub
    out: list[int] = []
    while R % 16 == 0:
        out.append(16)
        R //= 16
    return out + (factors(R) or [])


def tile_columns(R: int, C: int, mcols: int, cap: int) -> int:
    """The columns of a pass's tiles as the kernels take them: the plan's C for a pass of length R over ``mcols``
    columns, capped by the columns there are and ``tile_options(columns=)``, and a multi-column tile widened to
    ``min_columns`` where the columns are there and R times that fits ``cap`` elements."""
    C = max(1, min(C, _pow2_floor(mcols), _tile_cols or C))
    if C > 1 and _min_cols > C:
        C = max(C, min(_min_cols, _pow2_floor(mcols), _pow2_floor(cap // R)))
    return C


def _workgroup(device, size: int, plan: list[int], columns: int = 1) -> int:
    """Invocations for a tile of ``size`` elements: enough that the smallest radix's sub-pass gives every
    invocation one butterfly, a power of two from 32 to 256 (or the device's limit); ``tile_options``
    overrides (``row_workgroup`` for one-column tiles, ``workgroup`` for all)."""
    most = device.properties.limits.max_compute_invocations_per_workgroup
    if columns == 1 and _row_wg:
        return min(_row_wg, most)
    if _tile_wg:
        return max(columns, min(_tile_wg, most))
    most = min(256, most)
    want = size // min(plan) if plan else 1
    wg = 32
    while wg < want and wg < most:
        wg *= 2
    return min(wg, most)


def _pow2_floor(x: int) -> int:
    return 1 << (x.bit_length() - 1) if x >= 1 else 0


def _primes(n: int) -> list[int]:
    out = []
    for q in (7, 5, 3, 2):
        while n % q == 0:
            out.append(q)
            n //= q
    return out


def _split(n: int, parts: int, limit: int) -> list[int] | None:
    """n as ``parts`` factors, each at most ``limit``, as balanced as a greedy assignment of its prime factors
    (largest first, each to the currently smallest factor) makes them; None when one exceeds the limit."""
    bins = [1] * parts
    for q in _primes(n):
        i = min(range(parts), key=lambda b: bins[b])
        bins[i] *= q
    bins.sort(reverse=True)
    return bins if bins[0] <= limit else None


# The contiguous runs of a tiled pass (bytes): at least one 256-byte run (two 128-byte lines, a DRAM burst's worth
# on every current GPU) where a plan with such runs exists, up to 512 bytes (a tile of 64 complex64 columns);
# a single strided pass (the whole axis in one tile) may use runs of one 32-byte sector, which beats a second pass.
RUN, WIDE, ONE_RUN = 256, 512, 32
_LEGACY = (32, 128, 32)  # the runs of the plans before the four-step one (``plan_style("legacy")``, benchmarks)
STYLES = ("auto", "wide", "fourstep", "direct", "tiles", "legacy")
_style, _wide = "auto", WIDE


@contextlib.contextmanager
def plan_style(style: str, wide: int = WIDE):
    """Within the block, transforms plan as ``style``: "auto" (the default: "legacy", which the H200 measured
    fastest at every size, 2^20 to 2^24 and 1024^2 to 4096^2, once the tiles' loads were unrolled), "legacy" (the
    fewest-pass tiled plans, 32-128-byte runs), "wide" (tiles of >= 256-byte runs, and for long rows the four-step
    plan where it needs no more passes than the tiled one), "fourstep" or "tiles" (the one or the other, forced;
    for tests), "direct" (the four-step plan with its row pass storing transposed, element by element, instead of
    the transpose pass: one pass fewer, scattered 8-16-byte stores); multi-pass wide tiles have runs of up to
    ``wide`` bytes (the benchmark compares 256 and 512)."""
    global _style, _wide
    if style not in STYLES:
        raise ValueError(f"plan style {style!r} is not one of {STYLES}")
    if wide < RUN or wide & (wide - 1):
        raise ValueError(f"tile runs of {wide} bytes: need a power of two >= {RUN}")
    old, _style, _wide = (_style, _wide), style, wide
    try:
        yield
    finally:
        _style, _wide = old


def pass_plan(n: int, inner: int, cap: int, itemsize: int, run: int = RUN, wide: int = WIDE,
              one_run: int = ONE_RUN) -> list[tuple[int, int]]:
    """The tiled (Stockham) passes of a transform of length n whose elements lie ``inner`` apart (a 7-smooth n):
    a list of (sub-length, tile columns).  One pass when one tile of the whole length fits (rows: one column;
    strided axes: tiles whose rows are runs of at least ``one_run`` bytes); otherwise the fewest passes whose
    sub-lengths fit with tiles whose rows are runs of ``run`` to ``wide`` bytes (the widest such tile each), and
    only where no such plan exists (a prime factor too large for so wide a tile) shorter runs."""
    cmin, cmax = max(1, run // itemsize), max(1, wide // itemsize)
    if inner == 1 and n <= cap:
        return [(n, 1)]
    if inner > 1:
        c = min(cmax, _pow2_floor(cap // n) if n <= cap else 0, _pow2_floor(inner))
        if c >= 1 and c >= min(max(1, one_run // itemsize), _pow2_floor(inner)):
            return [(n, c)]
    for lo, hi in ((cmin, cmax), (1, cmin // 2)):
        for parts in range(2, 64):
            c = hi
            while c >= lo:
                split = _split(n, parts, cap // c)
                if split is not None:
                    return [(L, min(hi, _pow2_floor(cap // L))) for L in split]
                c //= 2
    raise MemoryError(f"FFT length {n} cannot be planned in {cap} elements of workgroup memory")


@dataclass(frozen=True)
class Plan:
    """The global passes of one transform along an axis.  ``tiles`` are tiled Stockham passes (sub-length, tile
    columns) along the axis itself, or, for a four-step plan (``n2`` > 0), along the strided axis of length
    n / n2 of the (n / n2, n2) matrix the row is viewed as; a four-step plan then has a row pass (length n2,
    contiguous, the four-step twiddles multiplied in as it loads) and a tiled transpose."""

    tiles: tuple[tuple[int, int], ...]
    n2: int = 0
    direct: bool = False  # the row pass stores transposed (no transpose pass)

    @property
    def passes(self) -> int:
        return len(self.tiles) + (0 if not self.n2 else 1 if self.direct else 2)

    def traffic(self, elements: int, itemsize: int) -> int:
        """Bytes read and written in global memory by the passes (each reads and writes every element once;
        twiddle tables, a few KiB and cached, not counted)."""
        return 2 * elements * itemsize * self.passes

    def describe(self) -> str:
        tiles = " ".join(f"{L}x{C}" for L, C in self.tiles)
        if self.n2:
            n1 = math.prod(L for L, _ in self.tiles)
            end = "stored transposed" if self.direct else "transpose"
            return f"four-step {n1}x{self.n2}: columns [{tiles}], rows {self.n2}, {end}"
        return f"tiles [{tiles}]"


def _divisors(n: int) -> list[int]:
    out = [1]
    for q in (2, 3, 5, 7):
        e = 0
        while n % q == 0:
            n //= q
            e += 1
        out = [d * q ** k for d in out for k in range(e + 1)]
    return sorted(out)


def plan(n: int, inner: int, cap: int, itemsize: int) -> Plan:
    """The plan of a 7-smooth transform: the tiled passes of ``pass_plan``, or for a contiguous row longer than one
    workgroup's memory the four-step plan n = n1 n2 (n2 the longest row that fits, n1 along the strided axis in
    tiles of >= 256-byte runs) when it needs no more passes: its row pass and transpose read and write whole
    contiguous rows or square tiles, and its column passes' twiddles are one per column tile row (broadcast)
    where the tiled plan's vary along every run.  Four passes at 2^24 complex64 are the fewest with 256-byte runs:
    a tile holds 12 of the index's 24 bits (4096 elements), the first pass's runs are input bits transformed only
    last, the last pass's runs output bits produced first, the second pass's runs 5 more bits: 24 + 3 x 5 > 3 x 12.
    The default style ("auto") takes the legacy plans instead (``plan_style``).  Plans are memoised per (length,
    axis, capacity, style): planning 2^24 took ~0.2 ms of host time a call (``_split``'s search), on every call."""
    return _plan(n, inner, cap, itemsize, _style, _wide)


@functools.lru_cache(maxsize=512)
def _plan(n: int, inner: int, cap: int, itemsize: int, style: str, wide: int) -> Plan:
    if style in ("auto", "legacy"):  # the legacy plans: measured fastest on the H200 and H100 at every size
        return Plan(tuple(pass_plan(n, inner, cap, itemsize, *_LEGACY)))
    tiles = pass_plan(n, inner, cap, itemsize, wide=wide)
    if inner != 1 or n <= cap or style == "tiles":
        return Plan(tuple(tiles))
    n2 = max(d for d in _divisors(n) if d <= cap)
    if n2 > 1:
        down = pass_plan(n // n2, n2, cap, itemsize, wide=wide, one_run=RUN)
        if len(down) + 2 <= len(tiles) or style in ("fourstep", "direct"):
            return Plan(tuple(down), n2, style == "direct")
    return Plan(tuple(tiles))


# -- device caches (twiddle tables, Bluestein spectra) -------------------------------------------------------------
_caches: "weakref.WeakKeyDictionary[object, OrderedDict]" = weakref.WeakKeyDictionary()


def _cached(device, key: tuple, make):
    cache = _caches.setdefault(device, OrderedDict())
    hit = cache.get(key)
    if hit is not None:
        cache.move_to_end(key)
        return hit
    value = make()
    cache[key] = value
    while len(cache) > _CACHE_ENTRIES:
        cache.popitem(last=False)
    return value


class _Scratch:
    """A temporary device buffer; the mirror is held as long as the buffer is in use (a dropped mirror returns
    its block to the pool, and the next scratch would get the same buffer)."""

    def __init__(self, device, cdtype: DType, count: int) -> None:
        self.mirror = Mirror(cdtype, max(count, 1), device)
        self.buffer = self.mirror.buffer_for_write(whole=True)


def _scratch(device, cdtype: DType, count: int):
    return _Scratch(device, cdtype, count)


def twiddles(device, cdtype: DType, n: int) -> Mirror:
    """exp(-2 pi i k / n) for k < n, computed on the device (cached)."""
    return _cached(device, ("twiddle", cdtype.name, n), lambda: _table(device, cdtype, n, n, 0))


def _table(device, cdtype: DType, count: int, L: int, mode: int, mul: int = 1) -> Mirror:
    if L >= 1 << 30:
        raise MemoryError(f"FFT length {L} is beyond the twiddle kernel's exact angle range (2^30)")
    t = cdtype.component.wgsl
    out = Mirror(cdtype, max(count, 1), device)
    kernel = launch.compile(device, ("fft_twiddle", t), lambda: launch.Kernel(
        "fft_twiddle.wgsl", (launch.write("out", f"array<vec2<{t}>>"),),
        dict(HELPERS=source.helpers([cdtype.component]), T=t, PIO2_HI=_PIO2[t][0], PIO2_LO=_PIO2[t][1])))
    params = layout.Params().u32(count, L, mode, mul)
    launch.dispatch(device, kernel, [out.buffer_for_write(whole=True)], params.bytes(), threads=count)
    return out


def _scaled(params: layout.Params, t: str, scale: float) -> bytes:
    return params.raw(pack("<d", scale) if t == "f64" else pack("<f", scale), 8 if t == "f64" else 4).bytes()


# -- butterflies (generated WGSL over named values: no arrays of hot values) ------------------------------------------
def _times_i(t: str, e: str, inverse: bool) -> str:
    """e times the quarter root of unity -i (forward) or +i (inverse)."""
    return f"vec2<{t}>(-({e}).y, ({e}).x)" if inverse else f"vec2<{t}>(({e}).y, -({e}).x)"


def _dft4(t: str, a: list[str], out: str, inverse: bool) -> list[str]:
    return [f"let {out}s0 = {a[0]} + {a[2]};", f"let {out}s1 = {a[0]} - {a[2]};",
            f"let {out}s2 = {a[1]} + {a[3]};", f"let {out}s3 = {_times_i(t, f'{a[1]} - {a[3]}', inverse)};",
            f"let {out}0 = {out}s0 + {out}s2;", f"let {out}1 = {out}s1 + {out}s3;",
            f"let {out}2 = {out}s0 - {out}s2;", f"let {out}3 = {out}s1 - {out}s3;"]


def butterfly(R: int, t: str, inverse: bool, n_expr: str) -> list[str]:
    """WGSL statements turning v0..v(R-1) into their R-point DFT u0..u(R-1).  Radix 2, 4, 8: the split
    formulas (the eighth roots as sqrt(1/2) literals); 3, 5, 7: the direct sum over the R-th roots of unity
    read from the row's twiddle table (``n_expr`` is the row length, a multiple of R)."""
    v = [f"v{r}" for r in range(R)]
    if R == 2:
        return ["let u0 = v0 + v1;", "let u1 = v0 - v1;"]
    if R == 4:
        return _dft4(t, v, "u", inverse)
    if R == 16:
        return _dft16(t, inverse)
    if R == 8:
        s = f"{t}({_SQRT_HALF})"
        lines = _dft4(t, v[0::2], "e", inverse) + _dft4(t, v[1::2], "o", inverse)
        # o_k times the eighth roots w8^k: w8 = (s, -s) forward, (s, s) inverse
        lines.append(f"let p1 = vec2<{t}>({s} * (o1.x + o1.y), {s} * (o1.y - o1.x));" if not inverse else
                     f"let p1 = vec2<{t}>({s} * (o1.x - o1.y), {s} * (o1.y + o1.x));")
        lines.append(f"let p2 = {_times_i(t, 'o2', inverse)};")
        lines.append(f"let p3 = vec2<{t}>({s} * (o3.y - o3.x), -{s} * (o3.x + o3.y));" if not inverse else
                     f"let p3 = vec2<{t}>(-{s} * (o3.x + o3.y), {s} * (o3.x - o3.y));")
        lines += ["let p0 = o0;"]
        lines += [f"let u{k} = e{k} + p{k};" for k in range(4)] + [f"let u{k + 4} = e{k} - p{k};" for k in range(4)]
        return lines
    lines = [f"let w{q} = tw({q}u * ({n_expr} / {R}u));" for q in range(1, R)]
    lines.append("let u0 = " + " + ".join(v) + ";")
    for k in range(1, R):
        terms = ["v0"] + [f"cmul(v{r}, w{(r * k) % R})" for r in range(1, R)]
        lines.append(f"let u{k} = " + " + ".join(terms) + ";")
    return lines


# cos and sin of 2 pi e / 16 for e = 1, 2, 3 (correctly rounded literals; WGSL's abstract floats keep them)
_W16 = {1: ("0.9238795325112867", "0.3826834323650898"), 2: (_SQRT_HALF, _SQRT_HALF),
        3: ("0.3826834323650898", "0.9238795325112867")}


def _dft16(t: str, inverse: bool) -> list[str]:
    """v0..v15 -> u0..u15, their 16-point DFT as 4 x 4: DFT4s down the columns (x[4 a + b] over a), the
    twiddles w16^(b k1), DFT4s along the rows (over b): u[k1 + 4 k2]."""
    lines: list[str] = []
    for b in range(4):
        lines += _dft4(t, [f"v{4 * a + b}" for a in range(4)], f"c{b}_", inverse)
    sign = "" if inverse else "-"
    for b in range(1, 4):
        for k1 in range(1, 4):
            e = (b * k1) % 16
            x = f"c{b}_{k1}"
            if e == 4:
                w = _times_i(t, x, inverse)
            elif e in _W16:
                co, si = _W16[e]
                w = f"cmul({x}, vec2<{t}>({t}({co}), {sign}{t}({si})))"
            else:  # e = 6, 9 (the other products b k1 of 1..3)
                co, si = {6: (f"-{_SQRT_HALF}", _SQRT_HALF), 9: ("-0.9238795325112867", "-0.3826834323650898")}[e]
                w = f"cmul({x}, vec2<{t}>({t}({co}), {sign}{t}({si})))"
            lines.append(f"let d{b}_{k1} = {w};")
    for k1 in range(4):
        col = [f"c0_{k1}"] + [f"d{b}_{k1}" if k1 else f"c{b}_0" for b in range(1, 4)]
        lines += _dft4(t, col, f"r{k1}_", inverse)
        lines += [f"let u{k1 + 4 * k2} = r{k1}_{k2};" for k2 in range(4)]
    return lines


def _common(t: str, inverse: bool | None = None) -> dict[str, str]:
    """The shared WGSL pieces: cmul, and the table lookup tw() for kernels that bind a twiddle table."""
    out = {"COMMON": source.render("fft_common.wgsl", T=t)}
    if inverse is not None:
        out["TABLE"] = source.render("fft_table.wgsl", T=t, SIGN="-" if inverse else "")
    return out


def _indent(lines: list[str], depth: int) -> str:
    return "\n".join("    " * depth + ln for ln in lines)


# -- the complex transform ----------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=1024)
def strided_ok(n: int) -> bool:
    """Whether ``transform`` takes ``inner`` > 1 for length n (Stockham lengths; Bluestein needs rows)."""
    return factors(n) is not None


def transform(device, cdtype: DType, src, dst, rows: int, n: int, inverse: bool, scale: float,
              inner: int = 1) -> None:
    """dst = scale * DFT_n(src) (the inverse DFT, unnormalised, when ``inverse``) along the middle axis of the
    contiguous (rows, n, inner) block of ``vec2`` elements (inner 1: contiguous rows; inner > 1 only for the
    lengths ``strided_ok`` accepts).  ``src`` is only read."""
    if rows == 0 or inner == 0:
        return
    if not strided_ok(n):
        if inner != 1:
            raise ValueError(f"Bluestein's length {n} needs contiguous rows")
        _bluestein(device, cdtype, src, dst, rows, n, inverse, scale)
        return
    # the register pass is the default plans' choice: a forced plan style and bare_passes (benchmarks) take the tiles
    reg = inner > 1 and _reg["on"] and not _bare and _style in ("auto", "legacy")
    rp = reg_choice(device, cdtype.device_itemsize, rows, n, inner) if reg else None
    if rp is not None:
        _reg_pass(device, cdtype, src, dst, rows, n, inner, inverse, scale, rp)
        return
    _passes(device, cdtype, src, dst, rows, n, inner, inverse, scale)


def _passes(device, cdtype, src, dst, rows, n, inner, inverse, scale) -> None:
    """The plan of ``plan`` for one transform: its tiled passes, or the four-step passes."""
    cap = local_capacity(device, cdtype.device_itemsize)
    pl = plan(n, inner, cap, cdtype.device_itemsize)
    scratch = _scratch(device, cdtype, rows * n * inner) if pl.passes > 1 else None
    tmp = scratch.buffer if scratch is not None else None
    if not pl.n2:
        _tiles(device, cdtype, src, dst, tmp, rows, n, inner, list(pl.tiles), inverse, scale)
        return
    # four-step: the columns of each (n1, n2) block (src -> ... -> dst), its rows times w_n^(c b) (dst -> tmp), the
    # transpose (tmp -> dst); "direct": the columns end in tmp, the rows are stored transposed into dst
    n2 = pl.n2
    n1 = n // n2
    if pl.direct:
        _tiles(device, cdtype, src, tmp, dst, rows, n1, n2, list(pl.tiles), inverse, 1.0)
        _tiles(device, cdtype, tmp, dst, None, rows * n1, n2, 1, [(n2, 1)], inverse, scale, fourstep=(n, n1, True))
        return
    _tiles(device, cdtype, src, dst, tmp, rows, n1, n2, list(pl.tiles), inverse, 1.0)
    _tiles(device, cdtype, dst, tmp, None, rows * n1, n2, 1, [(n2, 1)], inverse, scale, fourstep=(n, n1, False))
    _transpose(device, cdtype, tmp, dst, rows, n1, n2)


def _tiles(device, cdtype, src, dst, tmp, rows, n, inner, tiles, inverse, scale, fourstep=None) -> None:
    """The tiled passes ``tiles`` of a transform of length n along the middle axis of (rows, n, inner): pass q is
    the Stockham step of radix L_q (done in workgroup memory) with ns = L_1 ... L_(q-1), its twiddles fused into
    the loads and its transpose into the store addresses; the passes alternate between ``tmp`` and ``dst``, ending
    in dst.  ``fourstep`` = (N, n1, direct): one pass over rows of a four-step plan, row c (mod n1) of which is
    multiplied by w_N^(c r) as it loads (and, direct, stored transposed: element r of row c of block b at
    b N + r n1 + c).  The passes' kernels, tables, parameter blocks and grids are computed once per transform
    shape and options (``_steps``): a call only records the dispatches."""
    key = (cdtype.name, rows, n, inner, tuple(tiles), inverse, scale, fourstep, local_capacity(device, 8), _bare, UNCHECKED,
           tuple((k, tuple(sorted(v.items())) if isinstance(v, dict) else v) for k, v in _current().items()))
    cache = _recipes.setdefault(device, OrderedDict())
    steps = cache.get(key)
    if steps is None:
        steps = cache[key] = _steps(device, cdtype, rows, n, inner, tiles, inverse, scale, fourstep)
        while len(cache) > _RECIPES:
            cache.popitem(last=False)
    # write targets, from the last pass back: dst, tmp, dst, ... (no pass writes the buffer it reads, nor src)
    last = len(steps) - 1
    cur = src
    for i, (kernel, tables, params, grid, work) in enumerate(steps):
        out = dst if (last - i) % 2 == 0 else tmp
        launch.dispatch(device, kernel, [cur, out, *tables], params, grid=grid, work=work)
        cur = out


_recipes: "weakref.WeakKeyDictionary[object, OrderedDict]" = weakref.WeakKeyDictionary()
_RECIPES = 256


def _steps(device, cdtype, rows, n, inner, tiles, inverse, scale, fourstep) -> tuple:
    """``_tiles``'s passes: (kernel, table buffers, parameter block, grid, bytes moved) each (the tables' mirrors are
    held by the twiddle cache; a recipe outliving them there keeps them, ``_Held``)."""
    t = cdtype.component.wgsl
    cap = local_capacity(device, cdtype.device_itemsize)
    N = fourstep[0] if fourstep else n
    tb = 1 << ((N.bit_length() + 1) // 2)  # the two-level twiddle table's split
    lo = hi = None
    if len(tiles) > 1 or fourstep:
        lo = _cached(device, ("twiddle2", cdtype.name, N, 0), lambda: _table(device, cdtype, tb, N, 0))
        hi = _cached(device, ("twiddle2", cdtype.name, N, 1), lambda: _table(device, cdtype, -(-N // tb), N, 0, tb))
    with pass_options(inner, len(tiles)) if not fourstep else _nothing():
        return _steps_of(device, cdtype, rows, n, inner, tiles, scale, fourstep, t, cap, N, tb, lo, hi, inverse)


def _steps_of(device, cdtype, rows, n, inner, tiles, scale, fourstep, t, cap, N, tb, lo, hi, inverse) -> tuple:
    out, ns = [], 1
    for i, (R, C) in enumerate(tiles):
        mcols = n // R * inner
        C = tile_columns(R, C, mcols, cap)
        nsp = ns * inner
        store = "tr" if fourstep and fourstep[2] else "row1" if nsp == 1 else "col" if nsp % C == 0 else "row"
        twiddle = "row" if fourstep else "col" if ns > 1 else ""
        sub = _subplan(R)
        wg = _workgroup(device, R * C, sub, C)
        split = 4 if _half == 4 else 2
        half = split if _half and C == 1 and mcols == 1 and store == "row1" and not twiddle and R % split == 0 and \
            R >= 32 * split else 0
        if half:  # a contiguous row in 1 / split of the workgroup memory: the sub-passes of R / split
            sub = _subplan(R // half)
            wg = _workgroup(device, R // half, sub, 1)
        size = R // half if half else R
        pad = _pad and C == 1 and size >= 32 and size + size // 16 <= cap
        groups = -(-mcols // C)
        # the four-step row pass: ``inner`` carries n1 (the row index c = batch mod n1), the twiddle stride is 1
        values = (groups, rows, mcols, nsp, fourstep[1] if fourstep else inner,
                  1 if fourstep else n // (ns * R) if ns > 1 else 0, tb, tb.bit_length() - 1)
        # fixed: every size but the batch count (a pipeline per pass of a length and axis, not per batch)
        fixed = tuple((k, v) for k, v in zip(_PARAMS, values) if k != "batches") if _fixed_consts(rows, n, inner) else ()
        pairs = _vec4 and t == "f32" and R % 2 == 0 and (  # half: its (even, odd) output pairs as vec4s
            C % 2 == 0 and mcols % 2 == 0 and store in ("col", "row1")
            or C == 1 and mcols == 1 and store == "row1" and not twiddle)  # a contiguous row: element pairs
        fused = _fused if (not pairs or half) and twiddle in ("", "col") and sub and not _bare and \
            rows * n * inner >= _fused_min else 0
        if fused and half:  # a half row: each invocation's held rows lid + it wg are the first sub-pass's inputs
            its = R // half // wg  # where the invocations divide the half and their count is a radix
            if its in (2, 3, 4, 5, 7, 8, 16) and its * wg == R // half:
                sub = [its] + _subplan(R // half // its)
            else:
                fused = 0
        elif fused:  # the first sub-pass's butterflies an invocation each (fewer invocations where they are fewer)
            items = R // sub[0] * C
            wg = min(wg, items)
            if wg % C or wg < 32:  # (fewer than a warp's butterflies: the plain loads)
                fused = 0
                wg = _workgroup(device, R * C, sub, C)
        opts = (_twgroup, _powers, fixed, pairs, half, fused)
        if _bare:  # (bare_passes) the loads and stores alone
            sub, twiddle = [], ""
        kernel = launch.compile(device, ("fft_tile", t, R, C, store, twiddle, pad, inverse, wg, tuple(sub),
                                         opts),
                                lambda R=R, C=C, store=store, twiddle=twiddle, pad=pad, sub=sub, wg=wg, opts=opts:
                                _build_tile(cdtype, R, C, sub, store, twiddle, pad, inverse, wg, *opts),
                                checks=not UNCHECKED)
        table = twiddles(device, cdtype, R)
        mirrors = (table, lo if lo is not None else table, hi if hi is not None else table)
        params = _scaled(layout.Params().u32(*values), t, scale if i == len(tiles) - 1 else 1.0)
        grid = launch.grid_for(device, workgroups=groups * rows)
        out.append((kernel, _Held(mirrors), params, grid, 2 * rows * n * inner * cdtype.device_itemsize))
        ns *= R
    return tuple(out)


class _Held(tuple):
    """The buffers of a recipe's tables, with their mirrors held (a mirror dropped from the twiddle cache would
    otherwise return its buffer to the pool while the recipe still binds it)."""

    def __new__(cls, mirrors):
        self = super().__new__(cls, [m.buffer() for m in mirrors])
        self._held = mirrors
        return self


def _fixed_consts(rows: int, n: int, inner: int) -> bool:
    """Whether a transform's passes take their sizes as shader constants (``tile_options(fixed=N)``: N elements on)."""
    return bool(_fixed) and rows * n * inner >= _fixed


_PARAMS = ("groups", "batches", "mcols", "ns", "inner", "tstride", "tb", "tbits")  # fft_tile.wgsl's u32 fields


def _transpose(device, cdtype, src, dst, rows, n1, n2) -> None:
    """dst[b, d, c] = src[b, c, d] over ``rows`` blocks of n1 x n2 (``fft_transpose.wgsl``): the four-step plan's
    last pass, square tiles of S x S elements (S: 256-byte runs) so that loads and stores both move whole runs."""
    t = cdtype.component.wgsl
    side = max(8, min(32, RUN // cdtype.device_itemsize))
    kernel = launch.compile(device, ("fft_transpose", t, side), lambda: launch.Kernel(
        "fft_transpose.wgsl", (launch.read("src", f"array<vec2<{t}>>"), launch.write("dst", f"array<vec2<{t}>>")),
        dict(T=t, S=side, S1=side + 1, TILE=side * (side + 1)), workgroup=256))
    t1, t2 = -(-n1 // side), -(-n2 // side)
    params = layout.Params().u32(t1, t2, rows, n1, n2)
    launch.dispatch(device, kernel, [src, dst], params.bytes(), workgroups=t1 * t2 * rows)


# The four-step twiddles of a pass's loads: "col" (a later Stockham pass: w_N^(k r tstride), k the column's index
# within its group of ns: ``kq`` of each lane, set up by ``_load``) or "row" (the row pass of a four-step plan:
# w_N^(c r), c = the row, as the product of the invocation's own w_N^(c lid) and w_N^(c (r - lid)), which is the
# same for the whole workgroup: one scattered table lookup per invocation, the rest broadcast).
_TW_BASE = {"row": "let kq = batch % p.inner;\nlet w0 = twn(kq * min(lid, {last}u));"}
_TW_APPLY = {"col": "v = cmul(v, twn(kq * r * p.tstride));",
             "row": "v = cmul(v, cmul(w0, twn(kq * (r - lid))));"}


def _powers_of(base: str, name: str, count: int) -> list[str]:
    """WGSL lets {name}1 .. {name}(count - 1), the powers of ``base``: a power of two by squaring, any other
    power b as the product of the highest power of two below it and b - that (at most ~2 log2 b products deep,
    so the rounding errors stay a few ulp)."""
    lines = [f"let {name}1 = {base};"] if count > 1 else []
    for b in range(2, count):
        hi = _pow2_floor(b)
        lines.append(f"let {name}{b} = cmul({name}{b // 2}, {name}{b // 2});" if hi == b else
                     f"let {name}{b} = cmul({name}{hi}, {name}{b - hi});")
    return lines


def _load(t: str, R: int, C: int, wg: int, twiddle: str, twgroup: int = 0, pairs: bool = False) -> list[str]:
    """The tile's loads, unrolled: every invocation first issues all its global loads (rows lid / C, + wg / C,
    ...: a constant count, so they are all in flight at once rather than one a loop iteration), then multiplies
    in the four-step twiddles and stores into workgroup memory.  Columns past the axis load zeros.  ``twgroup``
    g > 1 (a later pass's twiddles, "col"): w^(k r) looked up for every g-th row of the invocation only, the
    rows between as that times a power of w^(k step).  ``pairs``: an invocation holds two neighbouring columns
    (c, c + 1), loaded as one vec4 (``src`` bound as vec4s), each with its own twiddles; a contiguous row (C = 1,
    no twiddles) the neighbouring elements (r, r + 1)."""
    along = pairs and C == 1  # pairs of a row's elements
    h = C // 2 if pairs and not along else C  # invocations a tile row
    step = 2 * wg if along else wg // h
    its = -(-R // step)
    vec = f"vec4<{t}>" if pairs else f"vec2<{t}>"
    at_src = "(base + r{it} * p.mcols + col) / 2u" if pairs else "base + r{it} * p.mcols + col"
    rows = [f"2u * lid + {it * step}u" if along else f"lid / {h}u + {it * step}u" if it else f"lid / {h}u"
            for it in range(its)]
    ok = ["live" if (it + 1) * step <= R else f"live && r{it} < {R}u" for it in range(its)]
    lines = [f"let r{it} = {rows[it]};" for it in range(its)]
    lines += [f"var v{it} = {vec}({t}(0.0));" for it in range(its)]
    lines += [f"if ({ok[it]}) {{ v{it} = src[{at_src.format(it=it)}]; }}" for it in range(its)]
    # the lanes of an invocation: (name suffix, component of v, column)
    lanes = [("", ".xy", "c"), ("b", ".zw", "c + 1u")] if pairs else [("", "", "c")]
    if along:
        assert not twiddle
        lanes = [("", ".xy", "c"), ("b", ".zw", "c")]
    head = []
    if twiddle == "col":
        head = [f"let kq{x} = (({'col' if x == '' else 'col + 1u'}) % p.ns) / p.inner;" for x, _, _ in lanes]
    elif twiddle:
        head = _TW_BASE[twiddle].format(last=R - 1).split("\n")
    group = twgroup > 1 and twiddle == "col" and its > 1
    g = min(twgroup, its)
    if group:  # after the loads (in flight meanwhile): the few lookups and the powers of the row step
        for x, _, _ in lanes:
            lines += _powers_of(f"twn(kq{x} * {step}u * p.tstride)", f"ts{x}_", g)
            for it in range(0, its, g):
                r = f"r{it}" if (it + 1) * step <= R else f"min(r{it}, {R - 1}u)"
                lines.append(f"let tg{x}_{it // g} = twn(kq{x} * {r} * p.tstride);")
    for it in range(its):
        body = [f"let r = r{it};"]
        for x, comp, cexpr in lanes:
            body.append(f"var v{x} = v{it}{comp};")
            if group:
                a, b = divmod(it, g)
                w = f"cmul(tg{x}_{a}, ts{x}_{b})" if b else f"tg{x}_{a}"
                body.append(f"if (live) {{ v{x} = cmul(v{x}, {w}); }}")
            elif twiddle:
                body.append(f"if (live) {{ {_TW_APPLY[twiddle].replace('kq', 'kq' + x).replace('v', 'v' + x)} }}")
            body.append(f"buf[at(r{' + 1u' if along and x else ''}, {cexpr})] = v{x};")
        cond = "true" if (it + 1) * step <= R else f"r{it} < {R}u"
        lines.append(f"if ({cond}) {{\n" + _indent(body, 1) + "\n}")
    return head + lines


def _load_fused(t: str, R: int, C: int, R_s: int, wg: int, twiddle: str, twgroup: int, inverse: bool) -> list[str]:
    """``tile_options(fused=True)``'s loads: invocation lid handles the first sub-pass's butterflies u = lid,
    lid + wg, ... (column c = u mod C = lid mod C, as wg is a multiple of C; butterfly jj = u / C), loading its
    R_s rows jj + r m (m = R / R_s) all at once, multiplying in a later pass's four-step twiddles w^(k row) (``twn``
    looked up every ``twgroup``-th r, the rows between times powers of w^(k m)), transforming them in registers
    and writing the outputs to rows jj R_s + r of the tile (the Stockham sub-pass of ns = 1)."""
    m = R // R_s
    items = m * C
    per = -(-items // wg)
    ok = ["true" if (it + 1) * wg <= items else f"lid + {it * wg}u < {items}u" for it in range(per)]
    lines = ["let kq = (col % p.ns) / p.inner;"] if twiddle == "col" else []
    for it in range(per):
        lines.append(f"let jj{it} = (lid + {it * wg}u) / {C}u;")
        lines += [f"var a{it}_{r} = vec2<{t}>({t}(0.0));" for r in range(R_s)]
        live = "live" if ok[it] == "true" else f"live && {ok[it]}"
        lines += [f"if ({live}) {{ a{it}_{r} = src[base + (jj{it} + {r * m}u) * p.mcols + col]; }}" for r in range(R_s)]
    g = max(1, min(twgroup, R_s))
    for it in range(per):
        body = [f"var v{r} = a{it}_{r};" for r in range(R_s)]
        if twiddle == "col":
            tw = []
            if g > 1:
                tw += _powers_of(f"twn(kq * {m}u * p.tstride)", "ts_", g)
            for r in range(R_s):
                a, b = divmod(r, g)
                if b == 0:
                    tw.append(f"let tg_{a} = twn(kq * (jj{it} + {r * m}u) * p.tstride);")
                tw.append(f"v{r} = cmul(v{r}, {f'cmul(tg_{a}, ts_{b})' if b else f'tg_{a}'});")
            body += ["if (live) {"] + ["    " + x for x in tw] + ["}"]
        body += butterfly(R_s, t, inverse, f"{R}u")
        body += [f"buf[at(jj{it} * {R_s}u + {r}u, c)] = u{r};" for r in range(R_s)]
        lines.append(f"if ({ok[it]}) {{\n" + _indent(body, 1) + "\n}")
    return lines


def _stage_twiddles(R_s: int, ns: int, stride: int, powers: bool) -> list[str]:
    """A Stockham butterfly's twiddles: v_r times w^(k r stride) (k = the butterfly's index within its group of
    ns; none where ns = 1), from the table (``tw``) one lookup a value or (``powers``) as powers of one lookup."""
    if ns == 1:
        return []
    if powers:
        return _powers_of(f"tw(k * {stride}u)", "sw", R_s) + [f"v{r} = cmul(v{r}, sw{r});" for r in range(1, R_s)]
    return [f"v{r} = cmul(v{r}, tw(k * {r * stride}u));" for r in range(1, R_s)]


def _subpasses(t: str, R: int, C: int, plan: list[int], inverse: bool, wg: int, powers: bool = False,
               tscale: int = 1, ns0: int = 1, store_at: str = "") -> list[str]:
    """The sub-passes of ``plan`` over an R x C tile in workgroup memory (``at``), unrolled with their constants
    baked in, each staging its butterflies' outputs in registers between the barrier that ends its reads and the
    writes, and ending with a barrier.  ``powers``: a butterfly's twiddles w^(k j) are the powers of its w^k;
    ``tscale``: the bound twiddle table is of length R tscale (its every tscale-th entry is w_R); ``ns0``: the
    product of the radices of sub-passes done before (``_load_fused``'s); ``store_at``: the last sub-pass stores
    its outputs straight to ``dst`` at this index ({row}: the output's row in the tile; ``fused=2``), no barrier."""
    passes, ns = [], ns0
    for i, R_s in enumerate(plan):
        m = R // R_s
        items = m * C
        per = -(-items // wg)
        decl = [f"var y{it}_{r}: vec2<{t}>;" for it in range(per) for r in range(R_s)]
        reads, writes = [], []
        for it in range(per):
            body = [f"let jj = u / {C}u;", f"let c = u % {C}u;", f"let k = jj % {ns}u;"]
            body += [f"var v{r} = buf[at(jj + {r * m}u, c)];" for r in range(R_s)]
            body += _stage_twiddles(R_s, ns, R // (ns * R_s) * tscale, powers)
            body += butterfly(R_s, t, inverse, f"{R * tscale}u")
            cond = f"u < {items}u" if (it + 1) * wg > items else "true"  # the guard only where it can fail
            if store_at and i == len(plan) - 1:  # outputs to global memory: no staging, no barrier
                body += [f"let q = (jj - k) * {R_s}u + k;", "if (live) {"]
                body += [f"    dst[{store_at.format(row=f'q + {r * ns}u')}] = u{r} * p.scale;" for r in range(R_s)]
                reads.append(f"{{\n    let u = lid + {it * wg}u;\n    if ({cond}) {{\n" + _indent(body + ["}"], 2)
                             + "\n    }\n}")
                continue
            body += [f"y{it}_{r} = u{r};" for r in range(R_s)]
            wbody = [f"let jj = u / {C}u;", f"let c = u % {C}u;", f"let k = jj % {ns}u;",
                     f"let q = (jj - k) * {R_s}u + k;"]
            wbody += [f"buf[at(q + {r * ns}u, c)] = y{it}_{r};" for r in range(R_s)]
            for out, lines in ((reads, body), (writes, wbody)):
                out.append(f"{{\n    let u = lid + {it * wg}u;\n    if ({cond}) {{\n" + _indent(lines, 2) + "\n    }\n}")
        block = decl + reads + ["workgroupBarrier();"] + writes + ["workgroupBarrier();"] if writes else reads
        passes.append("    {\n" + _indent("\n".join(block).split("\n"), 2) + "\n    }")
        ns *= R_s
    return passes


def _build_tile(cdtype, R, C, plan, store, twiddle, pad, inverse, wg, twgroup=0, powers=False,
                fixed=(), pairs=False, half=False, fused=False) -> launch.Kernel:
    """The WGSL of one tiled pass (``fft_tile.wgsl``): the sub-passes of ``plan`` over the ${R} x ${C} tile,
    unrolled with their constants baked in, each staging its butterflies' outputs in registers between the
    barrier that ends its reads and the writes.  ``twgroup``, ``powers``: ``tile_options``'s; ``fixed``: the
    (name, value) pairs of the parameter block's sizes that become constants of the shader; ``pairs``: src and
    dst bound as vec4s, an invocation loading and storing two neighbouring columns (C even, the columns and R
    even, a "col" or "row1" store: every access 16-byte aligned); ``fused``: the first sub-pass done as the tile
    loads (``_load_fused``)."""
    t = cdtype.component.wgsl
    if half:
        return _build_half(cdtype, R, plan, pad, inverse, wg, powers, fixed, pairs, half, fused)
    size = R * C
    # fused=2: the last sub-pass stores to dst itself where its outputs' runs are the store's (a "col" store's
    # column runs, a one-column tile's row)
    last = fused == 2 and (store == "col" or store == "row1" and C == 1) and len(plan) >= 2
    col_at = "base + (col - {k}) * " + f"{R}u" + " + {k} + ({row}) * p.ns"  # a "col" store's index of row {row}
    passes = _subpasses(t, R, C, plan[1:] if fused else plan, inverse, wg, powers, ns0=plan[0] if fused else 1,
                        store_at=(f"base + col * {R}u + ({{row}})" if store == "row1" else col_at.replace("{k}", "kk")) if last
                        else "")
    load = _load_fused(t, R, C, plan[0], wg, twiddle, twgroup, inverse) if fused else \
        _load(t, R, C, wg, twiddle, twgroup, pairs)
    if last and store == "col":
        load.insert(0, "let kk = col % p.ns;")
    even = dict(fixed).get("mcols", 1) % C == 0 if fixed else False  # every tile's columns are the axis's
    # the tile's layout in workgroup memory: columns swizzled (C > 1), or one row with an element of padding
    # after every 16 (``pad``: the Stockham writes at strides 4-8 then spread over the banks)
    at = f"r * {C}u + (c ^ (r & {C - 1}u))" if C > 1 else "r + (r >> 4u)" if pad else "r + c"
    h = C // 2 if pairs and C > 1 else C  # invocations a tile row
    step = wg // h
    if last:
        lines = []
    elif store == "col":  # C contiguous outputs a row: the same invocation-to-column map as the loads
        lines = ["let k = col % p.ns;", "if (live) {"]
        for it in range(-(-R // step)):
            r = f"lid / {h}u + {it * step}u"
            at_dst = col_at.format(k="k", row=r)
            st = (f"dst[({at_dst}) / 2u] = vec4<{t}>(buf[at({r}, c)], buf[at({r}, c + 1u)]) * p.scale;" if pairs
                  else f"dst[{at_dst}] = buf[at({r}, c)] * p.scale;")
            lines.append("    " + (st if (it + 1) * step <= R else f"if ({r} < {R}u) {{ {st} }}"))
        lines.append("}")
    elif store == "tr":  # a four-step row pass stored transposed (C = 1; ``inner`` is n1)
        lines = ["let b0 = batch / p.inner;", "let at0 = b0 * p.inner * " + f"{R}u + batch - b0 * p.inner;"]
        for it in range(-(-R // wg)):
            st = f"dst[at0 + (lid + {it * wg}u) * p.inner] = buf[at(lid + {it * wg}u, 0u)] * p.scale;"
            lines.append(st if (it + 1) * wg <= R else f"if (lid + {it * wg}u < {R}u) {{ {st} }}")
    else:  # the first pass (ns = 1, rows of R contiguous outputs) or ns not a multiple of C
        addr = f"cs * {R}u + r" if store == "row1" else f"(cs - cs % p.ns) * {R}u + cs % p.ns + r * p.ns"
        lines = []
        ok = "true" if even else "cs < p.mcols"
        k = 2 if pairs else 1  # outputs an invocation stores at a time (pairs: row1 only, R even)
        for it in range(-(-size // (k * wg))):
            first = f"{k}u * (lid + {it * wg}u)" if pairs else f"lid + {it * wg}u"
            st = (f"dst[(base + {addr}) / 2u] = vec4<{t}>(buf[at(r, cc)], buf[at(r + 1u, cc)]) * p.scale;" if pairs
                  else f"dst[base + {addr}] = buf[at(r, cc)] * p.scale;")
            body = [f"let t = {first};", f"let cc = t / {R}u;", f"let r = t % {R}u;", "let cs = col0 + cc;",
                    f"if ({ok if (it + 1) * wg * k <= size else f'{ok} && t < {size}u'}) {{", f"    {st}", "}"]
            lines += ["{"] + ["    " + b for b in body] + ["}"]
    io = f"array<vec{4 if pairs else 2}<{t}>>"
    bind = (launch.read("src", io), launch.write("dst", io),
            launch.read("table", f"array<vec2<{t}>>"), launch.read("tlo", f"array<vec2<{t}>>"),
            launch.read("thi", f"array<vec2<{t}>>"))
    return _Fixed("fft_tile.wgsl", bind, dict(
        T=t, R=R, C=C, BUF=size + size // 16 if pad else size, PLAN=", ".join(map(str, plan)) or "none",
        PASSES="\n".join(passes), AT=at, STORE=_indent(lines, 1),
        LOAD=_indent(load, 1),
        LANE=f"2u * (lid % {h}u)" if pairs and C > 1 else f"lid % {C}u",
        LIVE="true" if even else "col < p.mcols", SIGN="-" if inverse else "", **_common(t, inverse)),
        workgroup=wg, consts=tuple(fixed))


def _build_half(cdtype, R, plan, pad, inverse, wg, powers, fixed, pairs=False, split=2,
                fused=False) -> launch.Kernel:
    """A contiguous row's one pass in 1 / ``split`` of the workgroup memory (``tile_options(half=True)``: 2,
    ``half=4``: 4): a radix-s decimation-in-frequency step as the row loads (y_k,r = sum_j a_(r+jH) w_s^(jk), times
    w_R^(rk), H = R / s, r < H, held in registers), then for k = 0 .. s - 1 the H-point transform of y_k in
    workgroup memory (the outputs X_(s m + k), held in registers), each invocation storing its outputs
    X_(s r) .. X_(s r + s - 1) contiguously (``pairs``: dst bound as vec4s, one 16-byte store a pair).  ``plan`` is
    the sub-plan of H (empty: ``bare_passes``, no arithmetic); the bound twiddle table is of length R.  ``fused``
    (plan[0] = H / wg, the rows each invocation holds): the first sub-pass's butterflies are done on the held
    values (invocation lid's rows lid + it wg are butterfly lid's inputs), their outputs written to workgroup
    memory: one store, barrier and load round trip fewer each of the s transforms."""
    t = cdtype.component.wgsl
    H = R // split
    its = -(-H // wg)
    fused = bool(fused) and plan[0] == its and its * wg == H
    passes = "\n".join(_subpasses(t, H, 1, plan[1:] if fused else plan, inverse, wg, powers, tscale=split,
                                   ns0=plan[0] if fused else 1))
    ok = [f"r{it} < {H}u" if (it + 1) * wg > H else "true" for it in range(its)]
    zero = f"vec2<{t}>({t}(0.0))"
    body = [f"let r{it} = lid + {it * wg}u;" for it in range(its)]
    body += [f"var {x}{it}_{k} = {zero};" for it in range(its) for x in "ade" for k in range(split)]
    body += [f"if ({ok[it]}) {{ " + " ".join(f"a{it}_{j} = src[base + r{it} + {j * H}u];" for j in range(split))
             + " }" for it in range(its)]
    for it in range(its):  # the radix-s butterfly and its twiddles, in registers
        lines = [f"let v{j} = a{it}_{j};" for j in range(split)] + butterfly(split, t, inverse, f"{R}u")
        lines += [f"d{it}_0 = u0;"] + [f"d{it}_{k} = cmul(u{k}, tw(r{it} * {k}u));" for k in range(1, split)]
        if not plan:
            lines = [f"d{it}_{k} = a{it}_{k};" for k in range(split)]
        body.append(f"if ({ok[it]}) {{\n" + _indent(lines, 1) + "\n}")
    for k in range(split):
        if k:
            body.append("workgroupBarrier();")
        if fused:  # butterfly lid of the first sub-pass (ns = 1) on the held rows, its outputs to rows lid its + q
            lines = [f"let v{it} = d{it}_{k};" for it in range(its)] + butterfly(its, t, inverse, f"{R}u")
            lines += [f"buf[at(lid * {its}u + {q}u, 0u)] = u{q};" for q in range(its)]
            body.append("{\n" + _indent(lines, 1) + "\n}")
        else:
            body += [f"if ({ok[it]}) {{ buf[at(r{it}, 0u)] = d{it}_{k}; }}" for it in range(its)]
        body += ["workgroupBarrier();", passes]
        body += [f"if ({ok[it]}) {{ e{it}_{k} = buf[at(r{it}, 0u)]; }}" for it in range(its)]
    if pairs:  # base is even (R is)
        store = [f"dst[base / 2u + {split // 2}u * r{it} + {q}u] = vec4<{t}>(e{it}_{2 * q}, e{it}_{2 * q + 1}) * p.scale;"
                 for it in range(its) for q in range(split // 2)]
    else:
        store = [f"dst[base + {split}u * r{it} + {k}u] = e{it}_{k} * p.scale;" for it in range(its) for k in range(split)]
    per = len(store) // its
    body += [f"if ({ok[it]}) {{\n" + _indent(store[it * per:(it + 1) * per], 1) + "\n}" for it in range(its)]
    bind = (launch.read("src", f"array<vec2<{t}>>"), launch.write("dst", f"array<vec{4 if pairs else 2}<{t}>>"),
            launch.read("table", f"array<vec2<{t}>>"), launch.read("tlo", f"array<vec2<{t}>>"),
            launch.read("thi", f"array<vec2<{t}>>"))
    return _Fixed("fft_tile.wgsl", bind, dict(
        T=t, R=R, C=1, BUF=H + H // 16 if pad else H, PLAN=", ".join(map(str, [split] + plan)), PASSES="",
        AT="r + (r >> 4u)" if pad else "r + c", STORE="", LOAD=_indent("\n".join(body).split("\n"), 1),
        LANE="0u", LIVE="true", SIGN="-" if inverse else "", **_common(t, inverse)), workgroup=wg, consts=tuple(fixed))


@dataclass(frozen=True, eq=False)
class _Fixed(launch.Kernel):
    """A kernel whose parameter-block fields named in ``consts`` are WGSL literals in its source (p.name -> the
    value): one pipeline per set of values, its divisions and bounds by constants."""

    consts: tuple[tuple[str, int], ...] = ()

    def source(self) -> str:
        text, values = super().source(), dict(self.consts)
        return re.sub(r"\bp\.(\w+)\b", lambda m: f"{values[m[1]]}u" if m[1] in values else m[0], text)


# -- the register-held strided pass (``reg_options``) ---------------------------------------------------------------
# A strided axis of a power-of-two length n (4096^2's columns) as ONE pass instead of two: a workgroup holds C >= 4
# neighbouring columns (complex64 rows of 32 bytes: whole sectors on read and write), the whole column length in
# registers (``per`` elements an invocation, n C / per invocations), the Stockham stages (radix ``radix``, the rest
# a smaller power of two) done on the registers, the exchanges between stages through workgroup memory in rounds
# of as many elements as it holds (4096 x 4 complex64 = 128 KiB: 4 rounds at 32 or 48 KiB).  ``min_length``: the
# shortest axis it takes; ``complex128``: complex128 axes too (unmeasured on GPUs: off); ``min_groups``: the fewest
# workgroups (column tiles x batches) it takes, narrower transforms keep the tiled passes, whose workgroups are
# many more (0: every width; unmeasured: (4096, 64) is 16 workgroups, the sweep times it).  The H100 sweep
# (``benchmarks/fft2d_sweep.py``, 2026-12-06, 859c91a) set the defaults: 64 elements an invocation (256 invocations
# at 4096 x 4) fastest, 4096^2 fft2 0.346 -> 0.297 ms (columns alone 0.217 -> 0.182; 16 an invocation, 1024
# invocations, 0.365: spills); at 2048^2 every register variant lost (0.165-0.179 ms against the tiled 0.143): from
# 4096 only.  ``max_length``: the longest axis it takes; the second H100 sweep (7e4a6d7) had it lose at every longer
# column: 8192 x 4096 0.862 ms against the tiled 0.650 (columns alone 0.631 / 0.418), 16384 x 1024 1.311 / 0.372
# (1.186 / 0.215), 8192^2's columns 1.194 / 0.854, while 4096 x 4050 won (0.556 / 0.766): 4096 only.
REG_DEFAULTS = dict(on=True, columns=4, per=64, radix=16, powers=True, min_length=4096, max_length=4096,
                    complex128=False, min_groups=0)
_reg = dict(REG_DEFAULTS)


@contextlib.contextmanager
def reg_options(**kw):
    """Within the block, strided power-of-two axes of ``min_length`` to ``max_length`` take the register-held one-pass
    kernel where it fits (``on``): tiles of ``columns`` columns (a power of two, 2-16), ``per`` elements an
    invocation (a power of two that every stage's radix divides), stages of ``radix`` (4, 8 or 16) and one of the
    rest, twiddles as ``powers`` of one lookup a butterfly; complex128 axes only with ``complex128``; transforms of
    at least ``min_groups`` workgroups (column tiles times batches)."""
    bad = set(kw) - set(REG_DEFAULTS)
    if bad:
        raise ValueError(f"reg_options {sorted(bad)}: need some of {tuple(REG_DEFAULTS)}")
    new = {**_reg, **{k: v for k, v in kw.items() if v is not None}}
    for key in ("columns", "per", "radix"):
        v = new[key]
        if v < 2 or v & (v - 1):
            raise ValueError(f"reg_options {key}={v}: need a power of two >= 2")
    if new["min_groups"] < 0:
        raise ValueError(f"reg_options min_groups={new['min_groups']}: need 0 or more")
    if new["columns"] > 16 or new["radix"] not in (4, 8, 16) or new["per"] % new["radix"]:
        raise ValueError(f"reg_options {new}: columns <= 16, radix 4, 8 or 16 dividing per")
    old = dict(_reg)
    _reg.update(new)
    try:
        yield
    finally:
        _reg.clear()
        _reg.update(old)


def reg_plan(device, itemsize: int, n: int, inner: int):
    """(radices, columns, per, rounds) of the register-held pass for a strided axis of length n with ``inner``
    columns, or None where it does not apply (off, n not a power of two or outside ``min_length``-``max_length``,
    fewer columns than a tile, too many invocations, a round's elements beyond the workgroup memory)."""
    C, E, R = _reg["columns"], _reg["per"], _reg["radix"]
    if not _reg["on"] or inner < C or n < max(_reg["min_length"], E, 4) or n > _reg["max_length"] or \
            n & (n - 1) or itemsize > 8 and not _reg["complex128"]:
        return None
    radices, rest = [], n
    while rest % R == 0 and rest > 1:
        radices.append(R)
        rest //= R
    if rest > 1:
        radices.insert(0, rest)  # the smaller radix first: its stage has the most butterflies an invocation
    if len(radices) < 2 or any(E % r for r in radices):
        return None
    W = n // E * C
    if W > device.properties.limits.max_compute_invocations_per_workgroup or W < C:
        return None
    cap = local_capacity(device, itemsize)
    G = 1
    while n * C // G > cap:
        G *= 2
    if G > E or any(math.prod(radices[s + 1:]) % G for s in range(len(radices) - 1)):
        return None
    return tuple(radices), C, E, G


def reg_choice(device, itemsize: int, rows: int, n: int, inner: int):
    """``reg_plan`` where ``transform`` takes it for ``rows`` batches: None too below ``min_groups`` workgroups."""
    rp = reg_plan(device, itemsize, n, inner)
    return rp if rp is not None and rows * -(-inner // rp[1]) >= _reg["min_groups"] else None


def _build_reg(cdtype, n: int, radices: tuple, C: int, E: int, G: int, inverse: bool, powers: bool,
               fixed=()) -> launch.Kernel:
    """The WGSL of the register-held pass (``fft_regcols.wgsl``): loads of rows t + i T, the Stockham stages on the
    registers (stage s of radix R: butterflies jj = t + b T, b < E / R, inputs x[b + r E / R]), the exchanges in
    ``G`` rounds (round g: the outputs at positions [g n / G, (g + 1) n / G) written, a barrier, the registers
    i in [g E / G, (g + 1) E / G) read back, a barrier), the last stage's outputs stored as they come."""
    t = cdtype.component.wgsl
    T = n // E
    P = n // G  # positions a round per column
    lines = [f"var x{i} = vec2<{t}>({t}(0.0));" for i in range(E)]
    lines += [f"if (live) {{ x{i} = src[base + (t + {i * T}u) * p.mcols + col]; }}" for i in range(E)]
    lines += [f"var y{i}: vec2<{t}>;" for i in range(E)]
    ns = 1
    for s, R in enumerate(radices):
        B = E // R
        last = s == len(radices) - 1
        stride = n // (ns * R)
        for b in range(B):
            body = [f"let jj = t + {b * T}u;", f"let k = jj & {ns - 1}u;"]
            body += [f"var v{r} = x{b + r * B};" for r in range(R)]
            body += _stage_twiddles(R, ns, stride, powers)
            body += butterfly(R, t, inverse, f"{n}u")
            if last:  # k = jj: the outputs are rows jj + r ns
                body += ["if (live) {"] + [f"    dst[base + (jj + {r * ns}u) * p.mcols + col] = u{r} * p.scale;"
                                           for r in range(R)] + ["}"]
            else:
                body += [f"y{b * R + r} = u{r};" for r in range(R)]
            lines.append("{\n" + _indent(body, 1) + "\n}")
        if last:
            break
        # the exchange: output (b, r) of this stage is at position (jj - k) R + k + r ns (jj = t + b T)
        for g in range(G):
            if G > 1 and B % G == 0:
                owners = [b for b in range(B) if b // (B // G) == g]
                cond = {b: "" for b in owners}
            else:  # the round of a butterfly's outputs depends on the invocation: (t + b T) / (m / G)
                owners = list(range(B))
                cond = {b: f"(t + {b * T}u) / {n // R // G}u == {g}u" for b in owners} if G > 1 else \
                    {b: "" for b in owners}
            for b in owners:
                st = [f"let jj = t + {b * T}u;", f"let q = (jj - (jj & {ns - 1}u)) * {R}u + (jj & {ns - 1}u) - {g * P}u;"]
                st += [f"buf[at{s}(q + {r * ns}u, c)] = y{b * R + r};" for r in range(R)]
                block = "{\n" + _indent(st, 1) + "\n}"
                lines.append(f"if ({cond[b]}) " + block if cond[b] else block)
            lines.append("workgroupBarrier();")
            lines += [f"x{i} = buf[at{s}(t + {i * T - g * P}u, c)];" for i in range(g * E // G, (g + 1) * E // G)]
            lines.append("workgroupBarrier();")
        ns *= R
    # the exchanges' layouts: element (q, c) at q C + c, the position bits next to the column's (the bank pair of
    # a 16-lane half) xor-ed with the bits above the stage's butterfly span (which vary across its writers' lanes)
    funcs = []
    ns = 1
    for s, R in enumerate(radices[:-1]):
        sh = (R * ns).bit_length() - 1
        lo = max(0, 4 - (C.bit_length() - 1))
        sw = f" ^ (((q >> {sh}u) & {(1 << lo) - 1}u) * {C}u)" if 0 < lo <= sh and (1 << sh) < P else ""
        funcs.append(f"fn at{s}(q: u32, c: u32) -> u32 {{\n    return (q * {C}u + c){sw};\n}}")
        ns *= R
    bind = (launch.read("src", f"array<vec2<{t}>>"), launch.write("dst", f"array<vec2<{t}>>"),
            launch.read("table", f"array<vec2<{t}>>"))
    return _Fixed("fft_regcols.wgsl", bind, dict(
        T=t, N=n, C=C, E=E, G=G, PLAN=", ".join(map(str, radices)), BUF=P * C,
        LIVE="true" if dict(fixed).get("mcols", 1) % C == 0 else "col < p.mcols",  # no guard: whole tiles
        FUNCS="\n\n".join(funcs), BODY=_indent("\n".join(lines).split("\n"), 1), **_common(t, inverse)),
        workgroup=n // E * C, consts=tuple(fixed))


def _reg_pass(device, cdtype, src, dst, rows, n, inner, inverse, scale, rp) -> None:
    """One register-held pass (``reg_plan``'s ``rp``) of the transform along the middle axis of (rows, n, inner)."""
    radices, C, E, G = rp
    t = cdtype.component.wgsl
    groups = -(-inner // C)
    fixed = (("groups", groups), ("mcols", inner)) if _fixed_consts(rows, n, inner) else ()
    kernel = launch.compile(device, ("fft_regcols", t, n, radices, C, E, G, inverse, _reg["powers"], fixed),
                            lambda: _build_reg(cdtype, n, radices, C, E, G, inverse, _reg["powers"], fixed),
                            checks=not UNCHECKED)
    table = twiddles(device, cdtype, n)
    params = _scaled(layout.Params().u32(groups, rows, inner, 0), t, scale)
    launch.dispatch(device, kernel, [src, dst, table.buffer()], params,
                    grid=launch.grid_for(device, workgroups=groups * rows), work=2 * rows * n * inner * cdtype.device_itemsize)


# -- Bluestein ------------------------------------------------------------------------------------------------------
def _chirp_kernel(device, cdtype: DType, mode: str, inverse: bool):
    t = cdtype.component.wgsl
    bind = (launch.read("src", f"array<vec2<{t}>>"), launch.read("aux", f"array<vec2<{t}>>"),
            launch.write("dst", f"array<vec2<{t}>>"))
    return launch.compile(device, ("fft_chirp", t, mode, inverse), lambda: launch.Kernel(
        "fft_chirp.wgsl", bind, dict(T=t, MODE=mode, SIGN="-" if inverse else "", **_common(t))))


def _chirp_params(t: str, rows: int, n: int, M: int, scale: float) -> bytes:
    return _scaled(layout.Params().u32(rows, n, M, 0), t, scale)


def _bluestein(device, cdtype, src, dst, rows, n, inverse, scale) -> None:
    t = cdtype.component.wgsl
    M = bluestein_length(n)
    chirp = _cached(device, ("chirp", cdtype.name, n), lambda: _table(device, cdtype, n, 2 * n, 1)).buffer()
    spectrum = _cached(device, ("bluestein", cdtype.name, n, inverse),
                       lambda: _chirp_spectrum(device, cdtype, chirp, n, M, inverse)).buffer()
    a_s, A_s = _scratch(device, cdtype, rows * M), _scratch(device, cdtype, rows * M)
    a, A = a_s.buffer, A_s.buffer
    launch.dispatch(device, _chirp_kernel(device, cdtype, "pre", inverse), [src, chirp, a],
                    _chirp_params(t, rows, n, M, 1.0), threads=rows * M)
    transform(device, cdtype, a, A, rows, M, False, 1.0)
    launch.dispatch(device, _chirp_kernel(device, cdtype, "mul", inverse), [A, spectrum, a],
                    _chirp_params(t, rows, n, M, 1.0), threads=rows * M)
    transform(device, cdtype, a, A, rows, M, True, 1.0)
    launch.dispatch(device, _chirp_kernel(device, cdtype, "post", inverse), [A, chirp, dst],
                    _chirp_params(t, rows, n, M, scale / M), threads=rows * n)


def _chirp_spectrum(device, cdtype, chirp, n, M, inverse) -> Mirror:
    t = cdtype.component.wgsl
    b_s = _scratch(device, cdtype, M)
    b = b_s.buffer
    launch.dispatch(device, _chirp_kernel(device, cdtype, "kernel", inverse), [chirp, chirp, b],
                    _chirp_params(t, 1, n, M, 1.0), threads=M)
    out = Mirror(cdtype, M, device)
    transform(device, cdtype, b, out.buffer_for_write(whole=True), 1, M, False, 1.0)
    return out


# -- real transforms ------------------------------------------------------------------------------------------------
def _real_kernel(device, cdtype: DType, mode: str):
    t = cdtype.component.wgsl
    bind = (launch.read("src", f"array<vec2<{t}>>"), launch.write("dst", f"array<vec2<{t}>>"),
            launch.read("table", f"array<vec2<{t}>>"))
    return launch.compile(device, ("fft_real", t, mode), lambda: launch.Kernel(
        "fft_real.wgsl", bind, dict(T=t, MODE=mode, **_common(t))))


def rfft_even(device, cdtype: DType, src, dst, rows: int, n: int, scale: float) -> None:
    """dst (rows of n/2 + 1) = scale * rfft of the real rows of even length n in ``src`` (bound as n/2 complex
    elements a row; overwritten)."""
    h = n // 2
    t = cdtype.component.wgsl
    z_s = _scratch(device, cdtype, rows * h)
    z = z_s.buffer
    transform(device, cdtype, src, z, rows, h, False, 1.0)
    table = twiddles(device, cdtype, n).buffer()
    launch.dispatch(device, _real_kernel(device, cdtype, "rpost"), [z, dst, table],
                    _scaled(layout.Params().u32(rows, h, n, 0), t, scale), threads=rows * (h + 1))


def irfft_even(device, cdtype: DType, src, dst, rows: int, n: int, scale: float) -> None:
    """dst (real rows of even length n, bound as n/2 complex elements) = scale * the unnormalised inverse real
    transform of the rows of n/2 + 1 coefficients in ``src``."""
    h = n // 2
    t = cdtype.component.wgsl
    z_s = _scratch(device, cdtype, rows * h)
    z = z_s.buffer
    table = twiddles(device, cdtype, n).buffer()
    launch.dispatch(device, _real_kernel(device, cdtype, "rpre"), [src, z, table],
                    _scaled(layout.Params().u32(rows, h, n, 0), t, 1.0), threads=rows * h)
    transform(device, cdtype, z, dst, rows, h, True, scale)


def hermitian(device, cdtype: DType, src, dst, rows: int, n: int) -> None:
    """dst (rows of n) = the Hermitian extension of the rows of n // 2 + 1 coefficients in ``src``."""
    t = cdtype.component.wgsl
    table = twiddles(device, cdtype, 1).buffer()  # unused by this mode; the kernel's layout binds one
    launch.dispatch(device, _real_kernel(device, cdtype, "herm"), [src, dst, table],
                    _scaled(layout.Params().u32(rows, n // 2 + 1, n, 0), t, 1.0), threads=rows * n)

