"""Launch matrix products over strided operands (transposed views need no copy).

4-byte dtypes use the register-tiled kernel (``matmul_tiled.wgsl``) in one of several variants (``Variant``: tile
shape, outputs a thread, K depth staged per step, double buffering, split-K), chosen per shape by ``choose``:
the ``override`` hook first (tests and ``benchmarks/matmul_tune.py`` force variants through it), then the
``TABLE`` of measured shapes, then ``heuristic`` (128x128 tiles with 8x8 outputs a thread when there are enough
tiles to fill the device, else 64x64 tiles with 4x4).  8-byte dtypes use the simpler ``matmul.wgsl`` (64x64
tiles, 4x4 scalar accumulators), and so do the complex dtypes (vec2 accumulators, cmul products).

Split-K (``split`` S > 1): the grid's z runs over batch x S slices of K, each workgroup writing its partial tile
(in the compute type) to a temporary [S, batch, M, N]; ``matmul_splitk.wgsl`` sums the S partials into the result.
Integer sums wrap the same whatever the order, so split-K is exact for them too.

Epilogues (``EPILOGUES``): "store" writes C = A @ B; "sub" and "sub_lower" update a strided C in place,
C -= A @ B (the blocked factorisations' trailing updates: C read and written once, no temporary and no second
pass; "sub_lower" skips the tiles wholly above C's diagonal, for Cholesky).
"""
from __future__ import annotations

import contextlib
import math
import re
import struct
from dataclasses import dataclass
from typing import Callable, Iterator, Union

from .. import dtypes as dt
from ..alloc.mirror import Mirror
from ..dtypes import DType
from . import launch, layout, source


# -- variants -----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Variant:
    """One configuration of the register-tiled kernel.

    A workgroup of (bm / tm) x (bn / tn) invocations computes a bm x bn tile of C, each invocation tm x tn
    outputs (tm, tn in {4, 8}); the K loop stages bk-deep slices of A and B in workgroup memory.  ``db``: double
    buffered staging (one barrier a slice; the next slice's global loads are in flight during the products).
    ``split``: K split into that many slices, summed by a second kernel.  ``rows``: an operand contiguous along k
    (A of a C-ordered product, B of ``x @ y.T``) is staged with consecutive invocations on consecutive rows, so
    that its transposed scalar stores into workgroup memory hit consecutive banks (the default mapping puts
    consecutive invocations along k: wider global reads of one row, but 4-way bank conflicts on the stores).
    ``unchecked`` (name suffix ``_u``): the shader module is made without naga's runtime checks (every dynamic
    index into the staged tiles otherwise gets a ``min(i, len - 1)`` clamp, and the K loop a forced loop-bound
    counter); the kernel's indices are in range by construction.  Where the library lacks the entry point the
    checked module is used (``device.unchecked_available``).  ``pair`` (with ``db``; name ``_db2``): the double
    buffered K loop unrolled by two slices, the first computing from buffer 0 and the second from buffer 1, so
    that every workgroup-memory index in the products is ``ty``/``tx`` plus a constant (no ``cur * len``
    offset recomputed a slice, and a clamp a compiler that knows the invocation id's range can drop).
    ``warp`` (name ``_w``): each 32 consecutive invocations (an NVIDIA warp) take 8 column blocks x 4 row blocks
    instead of a run of TXN column blocks: per k their vec4 reads of the staged tiles touch 8 distinct vec4 of B
    and 4 of A (one 128-byte wavefront each) instead of 16 and 2 (three wavefronts: the 4x4 tiles' products
    are about as many cycles as these reads)."""

    bm: int = 128
    bn: int = 128
    tm: int = 8
    tn: int = 8
    bk: int = 8
    db: bool = False
    split: int = 1
    rows: bool = False
    unchecked: bool = False
    pair: bool = False
    warp: bool = False

    def __post_init__(self) -> None:
        ok = (self.tm in (4, 8, 16) and self.tn in (4, 8, 16) and self.bm % (4 * self.tm) == 0 and self.bn % (4 * self.tn) == 0
              and self.bk in (4, 8, 16, 32) and 1 <= self.split <= 64 and 32 <= self.threads <= 1024
              and (self.db or not self.pair)
              and (not self.warp or (self.bn // self.tn) % 8 == 0 and (self.bm // self.tm) % 4 == 0))
        if not ok:
            raise ValueError(f"matmul variant {self.name}: unsupported configuration")

    @property
    def threads(self) -> int:
        return (self.bm // self.tm) * (self.bn // self.tn)

    @property
    def shared_bytes(self) -> int:
        return (self.bm + self.bn) * self.bk * 4 * (2 if self.db else 1)

    @property
    def name(self) -> str:
        return (f"{self.bm}x{self.bn}_{self.tm}x{self.tn}_k{self.bk}" + ("_r" if self.rows else "")
                + ("_w" if self.warp else "")
                + ("_db2" if self.pair else "_db" if self.db else "")
                + (f"_s{self.split}" if self.split > 1 else "") + ("_u" if self.unchecked else ""))

    def __str__(self) -> str:
        return self.name

    @classmethod
    def parse(cls, name: str) -> "Variant":
        """The variant a ``name`` spells, e.g. ``128x128_8x8_k8``, ``64x64_4x4_k16_db_s4``, ``128x256_8x16_k8_r_db``,
        ``128x128_8x8_k16_r_db_s4_u``, ``128x128_8x8_k16_r_w_db2_u``."""
        m = re.fullmatch(r"(\d+)x(\d+)_(\d+)x(\d+)_k(\d+)(_r)?(_w)?(_db2?)?(?:_s(\d+))?(_u)?", name)
        if not m:
            raise ValueError(f"not a matmul variant name: {name!r} (like '128x128_8x8_k8_r_db_s4')")
        bm, bn, tm, tn, bk = (int(g) for g in m.groups()[:5])
        return cls(bm, bn, tm, tn, bk, bool(m.group(8)), int(m.group(9) or 1), bool(m.group(6)), bool(m.group(10)),
                   m.group(8) == "_db2", bool(m.group(7)))

    def replace(self, **kw) -> "Variant":
        return Variant(**{**self.__dict__, **kw})

    def groups(self, M: int, N: int, batch: int) -> int:
        """Workgroups of one launch (split slices included)."""
        return math.ceil(M / self.bm) * math.ceil(N / self.bn) * batch * self.split


VariantLike = Union[Variant, str]

# Defaults measured on an H200 (Vulkan, 2026-11-30, benchmarks/matmul_tune.py): BK 16 with double buffering gained
# 12-15% over BK 8 on large squares; split-K in two lifted 1024^2 from 20.7 to 30.3 TFLOP/s; 512^2 is launch-bound.
BIG = Variant(128, 128, 8, 8, 16, True)  # enough 128x128 tiles
SMALL = Variant(64, 64, 4, 4, 16, True)  # fewer
BIG_MIN_GROUPS = 256  # below this many BIG tiles, SMALL keeps more of the device busy
# split-K rule (off while SPLIT_MAX_GROUPS is 0): when SMALL would launch fewer than SPLIT_MAX_GROUPS workgroups
# and K >= SPLIT_MIN_K, use SPLIT_BASE split into the fewest slices (<= SPLIT_MAX) reaching SPLIT_TARGET_GROUPS
SPLIT_MAX_GROUPS = 1024
SPLIT_MIN_K = 1024
SPLIT_BASE = Variant(128, 128, 8, 8, 16, True)
SPLIT_TARGET_GROUPS = 128
SPLIT_MAX = 8

NARROW = 32  # an output side this small takes a tile no wider (``_narrow``)
NARROW_SLICE = 1024
NARROW_SPLIT_MAX = 32

# Measured choices: (M, N, K, batch) -> variant (name or Variant), set from benchmarks/matmul_tune.py on a GPU (the H200
# sweep of 2026-12-02, `python -m benchmarks.gpu_tune`: 1024^2 27.1, 4096^2 37.6, 8192^2 38.0 TFLOP/s, 0.71-0.75x torch).
TABLE: dict[tuple[int, int, int, int], VariantLike] = {
    (512, 512, 512, 1): "64x64_4x4_k16_db",
    (1024, 1024, 1024, 1): "128x128_8x8_k16_r_db_s2",  # H100 2026-12-06 (as _u, UNCHECKED): 32.8 TFLOP/s, 0.86x
    (2048, 2048, 2048, 1): "128x128_8x8_k16_db",
    (4096, 4096, 4096, 1): "128x256_8x16_k8_r_db",
    (8192, 8192, 8192, 1): "128x256_8x16_k8_r_db",
    (256, 256, 256, 64): "128x128_8x8_k8_w_db2",  # H100 2026-12-06 (as _u, s24/8/mm64.txt): 36.5 TFLOP/s, 0.86x
}

# The override hook: a variant (name or Variant) used for every 4-byte matmul, or a callable
# (M, N, K, batch) -> variant or None (None: the usual choice).  See ``forced``.
override: VariantLike | Callable[[int, int, int, int], VariantLike | None] | None = None


def choice_state() -> tuple:
    """Everything ``choose`` reads besides the shape: a recording of launches (linalg's REPLAY) is valid for it only."""
    return (id(override), UNCHECKED, tuple(TABLE.items()), BIG, SMALL, BIG_MIN_GROUPS, SPLIT_MAX_GROUPS, SPLIT_MIN_K,
            SPLIT_BASE, SPLIT_TARGET_GROUPS, SPLIT_MAX, NARROW, NARROW_SLICE, NARROW_SPLIT_MAX)


def as_variant(v: VariantLike) -> Variant:
    return v if isinstance(v, Variant) else Variant.parse(v)


def heuristic(M: int, N: int, K: int, batch: int) -> Variant:
    """The choice for shapes outside TABLE (the lead's measured defaults live in the constants above)."""
    if min(M, N) <= NARROW:
        return _narrow(M, N, K, batch)
    if BIG.groups(M, N, batch) >= BIG_MIN_GROUPS:
        return BIG
    if SPLIT_MAX_GROUPS and K >= SPLIT_MIN_K and SMALL.groups(M, N, batch) < SPLIT_MAX_GROUPS:
        base = SPLIT_BASE.groups(M, N, batch)
        s = 2
        while s < SPLIT_MAX and base * s < SPLIT_TARGET_GROUPS:
            s *= 2
        return SPLIT_BASE.replace(split=s)
    return SMALL


def _narrow(M: int, N: int, K: int, batch: int) -> Variant:
    """Products with a side of at most NARROW (Gram matrices XᵀX of tall data, X @ centresᵀ, one-hot @ X): a tile
    no wider than that side (a 128-wide tile over 4 columns computes 32x the work), and for a small output with a
    long K, split-K into slices of >= NARROW_SLICE so that more than a few workgroups share the K loop.  Measured on
    lavapipe (2 cores, /tmp timings in the session note of 2026-12-02): 32 x 25,000 @ 25,000 x 32 646 -> 77 ms,
    25,000 x 32 @ 32 x 4 270 -> 111 ms."""
    if M <= NARROW and N <= NARROW:
        v = _NARROW_BOTH
        s = 1
        while s < NARROW_SPLIT_MAX and K // (2 * s) >= NARROW_SLICE and v.groups(M, N, batch) * s < SPLIT_TARGET_GROUPS:
            s *= 2
        return v.replace(split=s) if s > 1 else v
    return _NARROW_N if N <= NARROW else _NARROW_M


# _narrow's tiles, built once (a Variant costs a few us of host time; the blocked linalg substitutions' updates
# with 16 right-hand sides take _NARROW_N hundreds of times a call)
_NARROW_BOTH, _NARROW_N, _NARROW_M = Variant(32, 32, 4, 4, 16), Variant(128, 32, 8, 4, 16), Variant(32, 128, 4, 8, 16)


# UNCHECKED: every choice but the override's made without runtime checks (its ``_u`` twin).  H100 2026-12-06
# (`python -m benchmarks.matmul_sweep`, gpu_results s24/6_mm1.txt, TFLOP/s vs torch with TF32 off): 1024^2 auto
# 27.3 (0.71x) -> its _u twin 30.5 (0.80x), 128x128_8x8_k16_r_db_s2_u 32.8 (0.86x, TABLE); 4096^2 38.0 (0.74x) -> 42.9
# (0.83x); 8192^2 38.3 -> 43.0 (0.83x); 64 x 256^2 30.7 (0.72x) -> 128x128_8x8_k8_w_db2_u 36.5 (0.86x, TABLE;
# s24/8/mm64.txt).
UNCHECKED = True
_UNCHECKED_TWIN: dict[Variant, Variant] = {}  # a Variant costs microseconds to build: each twin made once


def choose(M: int, N: int, K: int, batch: int) -> Variant:
    """The variant for an (M, K) @ (K, N) product over ``batch`` matrices: override, TABLE, heuristic (the last
    two made unchecked under ``UNCHECKED``)."""
    hook = override
    v = hook(M, N, K, batch) if callable(hook) else hook
    if v is not None:
        return as_variant(v)
    v = TABLE.get((M, N, K, batch))
    v = as_variant(v) if v is not None else heuristic(M, N, K, batch)
    if UNCHECKED and not v.unchecked:
        twin = _UNCHECKED_TWIN.get(v)
        if twin is None:
            twin = _UNCHECKED_TWIN[v] = v.replace(unchecked=True)
        return twin
    return v


@contextlib.contextmanager
def forced(v: VariantLike | Callable[[int, int, int, int], VariantLike | None] | None) -> Iterator[None]:
    """``with forced("64x64_4x4_k16_s2"): ...`` runs every 4-byte matmul inside with that variant."""
    global override
    saved, override = override, (v if v is None or callable(v) else as_variant(v))
    try:
        yield
    finally:
        override = saved


# Tile configurations the tuner times.  ``_BASE``: the original set (each plain and double buffered).  ``_LARGE`` /
# ``_SMALL``: the plausible ones for products that fill the device with 128x128 tiles, and for those that do not
# (``candidates(shape)``), including the wider register tiles (8x16 / 16x8 outputs a thread over 128x256 /
# 256x128 tiles) and the row-mapped staging (``_r``); BK 32 and 128x256 at BK 16 double buffered need 48-64 KiB
# of workgroup memory and are left to ``fits`` (lavapipe offers 32 KiB, an H200 48).
_BASE = [(128, 128, 8, 8, 8), (128, 128, 8, 8, 16), (128, 64, 8, 4, 8), (128, 64, 8, 4, 16), (64, 128, 4, 8, 16),
         (64, 64, 4, 4, 16), (128, 64, 8, 8, 16), (64, 64, 8, 8, 8)]
_LARGE = ("128x128_8x8_k16_db 128x128_8x8_k16 128x128_8x8_k8_db 128x128_8x8_k8_r_db 128x128_8x8_k16_r_db "
          "128x128_8x8_k16_r 128x128_8x8_k32 128x128_8x8_k32_r 128x256_8x16_k8_db 128x256_8x16_k8_r_db "
          "128x256_8x16_k16_r 128x256_8x16_k16_db 128x256_8x16_k16_r_db 256x128_16x8_k8_r_db 256x128_16x8_k16_r "
          "128x128_8x16_k16_r_db 128x128_16x8_k16_r_db").split()
_SMALL = ("64x64_4x4_k16_db 64x64_4x4_k16_r_db 64x64_4x4_k8_r_db 64x64_4x4_k32_r 128x64_8x4_k16_r_db "
          "64x128_4x8_k16_r_db 64x64_8x8_k16_r_db 128x64_8x8_k16_r_db 128x128_8x8_k16_db 128x128_8x8_k16_r_db "
          "128x128_8x8_k16 128x128_8x8_k8_r_db 128x128_8x16_k16_r_db").split()


def candidates(shape: tuple[int, int, int, int] | None = None) -> list[Variant]:
    """The tile configurations the tuner times (split-K is added per shape by the tuner).  Without ``shape``,
    all of them: the original set plain and double buffered, and every new configuration.  With an (M, N, K,
    batch) ``shape``, the plausible ones for it (large: >= BIG_MIN_GROUPS tiles of BIG)."""
    extra = [as_variant(n) for n in dict.fromkeys(_LARGE + _SMALL)]
    if shape is not None:
        M, N, K, batch = shape
        return [as_variant(n) for n in (_LARGE if BIG.groups(M, N, batch) >= 2 * BIG_MIN_GROUPS else _SMALL)]
    out = [Variant(bm, bn, tm, tn, bk, db) for bm, bn, tm, tn, bk in _BASE for db in (False, True)]
    return out + [v for v in extra if v not in out]


def fits(v: Variant, device, M: int, N: int, K: int, batch: int) -> bool:
    """Whether ``device`` can run ``v`` on this shape (workgroup size, workgroup memory, grid, temporary)."""
    lim = device.properties.limits
    if v.threads > lim.max_compute_invocations_per_workgroup or v.shared_bytes > lim.max_compute_workgroup_storage_size:
        return False
    if max(math.ceil(M / v.bm), math.ceil(N / v.bn), batch * v.split) > lim.max_compute_workgroups_per_dimension:
        return False
    return v.split == 1 or v.split * batch * M * N * 4 <= lim.max_storage_buffer_binding_size


def compute_dtype(res: DType) -> DType:
    if res.kind == "b":
        return dt.uint32
    if res is dt.float16:
        return dt.float32
    return res


# Epilogues: "store" C = A @ B (C contiguous); "sub" C -= A @ B in place on a strided C (its last stride 1: the
# blocked factorisations' trailing updates, one read and one write of C instead of a temporary and a subtract);
# "sub_lower": "sub" on the tiles that hold an element on or below C's diagonal only (Cholesky's trailing update:
# the upper triangle is never read again, so half the tiles return at once).
EPILOGUES = ("store", "sub", "sub_lower")


def run(device, a, b, out, batch: int, a_bs: int, b_bs: int, epilogue: str = "store") -> None:
    """out[z] = a[z] @ b[z] for z < batch (or ``out[z] -= a[z] @ b[z]``, see EPILOGUES); a and b are 2-D views
    (their last two dims) plus batch strides; for "sub", out is a (batch, M, N) view with unit column stride."""
    M, K = a.shape[-2:]
    N = b.shape[-1]
    if M * N * batch == 0:
        return
    res = out.dtype
    cdt = compute_dtype(res)
    if batch > device.properties.limits.max_compute_workgroups_per_dimension:
        raise ValueError(f"batch of {batch} matrices exceeds the device's grid limit")
    fused = epilogue != "store"
    if fused and (out.strides[-1] != 1 or res.wgsl != source.ctype(cdt)):
        raise ValueError("matmul: the in-place update needs a unit column stride and a float result")
    c_rs, c_bs = (out.strides[-2], out.strides[0] if out.ndim == 3 and batch > 1 else 0) if fused else (N, M * N)
    a_rs, a_ks = a.strides[-2:]
    b_ks, b_cs = b.strides[-2:]
    bufs = [a.mirror.buffer(), b.mirror.buffer()]
    if cdt.device_itemsize != 4:
        bufs.append(out.mirror.buffer_for_write(whole=not fused))
        key = ("matmul", a.dtype.name, b.dtype.name, res.name, epilogue)
        kernel = launch.compile(device, key, lambda: _build(a.dtype, b.dtype, res, cdt, epilogue))
        params = _params(M, N, K, batch, a, b, out.offset, 0, a_rs, a_ks, a_bs, b_ks, b_cs, b_bs, c_rs, c_bs)
        launch.dispatch(device, kernel, bufs, params, grid=(math.ceil(N / 64), math.ceil(M / 64), batch))
        return
    v = choose(M, N, K, batch)
    if fused:
        # the partials' sum writes a contiguous C; the updates' K (one panel) is short.  (A new Variant costs
        # ~15 us of host time: only where it differs; the factorisations make hundreds of these launches)
        v = v.replace(split=1) if v.split != 1 else v
    if not fits(v, device, M, N, K, batch):
        v = v.replace(split=1) if v.split != 1 else v
        if not fits(v, device, M, N, K, batch):
            v = SMALL

    # x % 4 == 0 for every one of some ints (negative strides included) <=> their bitwise or's low 2 bits are 0
    amode = ("k4" if a_ks == 1 and not (a_rs | a_bs | a.offset | K) & 3 else
             "m4" if a_rs == 1 and not (a_ks | a_bs | a.offset | M) & 3 else "s")
    bmode = ("n4" if b_cs == 1 and not (b_ks | b_bs | b.offset | N) & 3 else
             "k4" if b_ks == 1 and not (b_cs | b_bs | b.offset | K) & 3 else "s")
    if a.dtype.wgsl != source.ctype(cdt) and cdt.kind != "u":
        amode = "s"
    if b.dtype.wgsl != source.ctype(cdt) and cdt.kind != "u":
        bmode = "s"
    split = v.split
    grid = (math.ceil(N / v.bn), math.ceil(M / v.bm), batch * split)
    if split == 1:
        cvec = N % 4 == 0 and out.offset % 4 == 0 and c_rs % 4 == 0 and c_bs % 4 == 0
        bufs.append(out.mirror.buffer_for_write(whole=not fused))
        ks, c_off = K, out.offset
    else:
        cvec = N % 4 == 0  # partials: contiguous [split, batch, M, N] from element 0
        part = Mirror(cdt, split * batch * M * N, device)  # lives until both launches are recorded
        bufs.append(part.buffer_for_write(whole=True))
        ks, c_off = math.ceil(math.ceil(K / split) / v.bk) * v.bk, 0
    key = ("matmul_tiled", a.dtype.name, b.dtype.name, res.name, v, amode, bmode, cvec, epilogue)
    build = lambda: _build_tiled(a.dtype, b.dtype, res, cdt, v, amode, bmode, cvec, epilogue)  # noqa: E731
    kernel = launch.compile(device, key, build, checks=not v.unchecked)
    params = _params(M, N, K, batch, a, b, c_off, ks, a_rs, a_ks, a_bs, b_ks, b_cs, b_bs, c_rs, c_bs)
    launch.dispatch(device, kernel, bufs, params, grid=grid)
    if split > 1:
        _sum_partials(device, bufs[2], out, cdt, split, batch * M * N)


_PARAMS = struct.Struct("<8I8i")  # _params' block in one pack (hundreds of launches a blocked factorisation)


def _params(M, N, K, batch, a, b, c_off, ks, a_rs, a_ks, a_bs, b_ks, b_cs, b_bs, c_rs, c_bs) -> bytes:
    try:
        return _PARAMS.pack(M, N, K, batch, a.offset, b.offset, c_off, ks, a_rs, a_ks, a_bs, c_rs, b_ks, b_cs, b_bs,
                            c_bs)
    except struct.error:  # a value beyond 32 bits: the general path raises layout.pack's MemoryError
        pass
    params = layout.Params().u32(M, N, K, batch, a.offset, b.offset, c_off, ks)
    params.raw(layout.pack("<4i", a_rs, a_ks, a_bs, c_rs), 4).raw(layout.pack("<4i", b_ks, b_cs, b_bs, c_bs), 4)
    return params.bytes()


def _sum_partials(device, part_buf, out, cdt: DType, split: int, n: int) -> None:
    """out (contiguous, n elements) = the sum of the ``split`` partials [split, n] in ``part_buf``."""
    res = out.dtype
    vec = n % 4 == 0 and out.offset % 4 == 0
    unit = 4 if vec else 1
    key = ("matmul_splitk", res.name, split, vec)
    kernel = launch.compile(device, key, lambda: _build_splitk(res, cdt, split, vec))
    bufs = [part_buf, out.mirror.buffer_for_write(whole=True)]
    params = layout.Params().u32(n // unit, n // unit, out.offset // unit, 0).bytes()
    launch.dispatch(device, kernel, bufs, params, threads=n // unit)


def _build_splitk(res: DType, cdt: DType, split: int, vec: bool) -> launch.Kernel:
    T = source.ctype(cdt)
    total = "\n".join(f"    s = s + part[{s}u * p.stride + i];" for s in range(1, split))
    if vec:
        comps = [source.store_expr(res, source.convert(cdt, res, f"s[{j}]")) for j in range(4)]
        store = f"vec4<{res.wgsl}>({', '.join(comps)})"
    else:
        store = source.store_expr(res, source.convert(cdt, res, "s"))
    bind = (launch.read("part", f"array<{f'vec4<{T}>' if vec else T}>"),
            launch.write("c", f"array<{f'vec4<{res.wgsl}>' if vec else res.wgsl}>"))
    return launch.Kernel("matmul_splitk.wgsl", bind, dict(HELPERS=source.helpers([res, cdt]), T=T, SPLIT=split,
                                                         UNIT="vec4" if vec else "element", SUM=total, STORE=store))


def _common(T: str, load_a: str, load_b: str) -> str:
    return source.render("matmul_common.wgsl", T=T, LOAD_A=load_a, LOAD_B=load_b)


def _bindings(a_elem: str, b_elem: str, c_elem: str, fused: bool = False) -> tuple[launch.Binding, ...]:
    """The three operands.  The in-place epilogues bind A and B read_write too: they are often views of C's own
    buffer (a trailing update reads L21 and U12 from the matrix it updates), and a buffer bound writable may not
    also be bound read-only in one dispatch; the regions read and written are disjoint."""
    operand = launch.write if fused else launch.read
    return (operand("a", f"array<{a_elem}>"), operand("b", f"array<{b_elem}>"), launch.write("c", f"array<{c_elem}>"))


def _load(d: DType, cdt: DType, raw: str) -> str:
    return source.convert(d, cdt, source.load_expr(d, raw))


def _staging(op: str, mode: str, rows: int, bk: int, threads: int, T: str, by_rows: bool = False):
    """How the invocations stage one bk-deep slice of an operand (``op`` 'a': A, ``rows`` = BM, its rows; 'b': B,
    ``rows`` = BN, its columns) into workgroup memory, in two halves: ``fetch(k)`` loads the slice at depth k into
    registers ``{op}f{e}`` (zero outside the matrix and beyond ``kend``); ``store(off)`` writes them to the
    staging array at vec4 offset ``off``.  ``by_rows`` (mode k4 only): consecutive invocations take consecutive
    rows (conflict-free transposed stores) rather than consecutive vec4 along k.  Returns (declarations, fetch,
    store)."""
    S = "As" if op == "a" else "Bs"
    R4 = rows // 4
    lim, base, rs, ks = (("p.M", "row0", "p.a_rs", "p.a_ks") if op == "a" else ("p.N", "col0", "p.b_cs", "p.b_ks"))
    bstride = f"i32(bz) * p.{op}_bs"
    start = f"i32(p.{op}_off) + {bstride}"
    vec = mode != "s"
    count = rows * bk // 4 if vec else rows * bk  # vec4 (or scalar) loads per slice
    decl, fetch, store = [], [], []
    for e in range(math.ceil(count / threads)):
        reg = f"{op}f{e}"
        q = f"{op}q{e}"
        guard = f"{q} < {count}u" if (e + 1) * threads > count else None
        decl.append(f"    let {q} = tid + {e * threads}u;")
        decl.append(f"    var {reg}: vec4<{T}> = vec4<{T}>({T}(0));" if vec else f"    var {reg}: {T} = {T}(0);")
        if mode == "k4":  # contiguous along k: vec4 along k, stored transposed (k-major)
            per = bk // 4
            if by_rows:
                decl.append(f"    let {op}r{e} = {q} % {rows}u; let {op}k{e} = ({q} / {rows}u) * 4u;")
            else:
                decl.append(f"    let {op}r{e} = {q} / {per}u; let {op}k{e} = ({q} % {per}u) * 4u;")
            decl.append(f"    let {op}p{e} = u32({start} + i32({base} + {op}r{e}) * {rs}) + {op}k{e};")
            cond = f"{base} + {op}r{e} < {lim} && {{k}} + {op}k{e} < kend"
            addr = f"({op}p{e} + {{k}}) / 4u"
            put = [f"{S}[{{off}} + ({op}k{e} + {i}u) * {R4}u + {op}r{e} / 4u][{op}r{e} % 4u] = {reg}[{i}];"
                   for i in range(4)]
        elif mode in ("m4", "n4"):  # contiguous along m (A) or n (B): vec4 rows of the k-major slice
            decl.append(f"    let {op}k{e} = {q} / {R4}u; let {op}r{e} = ({q} % {R4}u) * 4u;")
            decl.append(f"    let {op}p{e} = u32({start} + i32({op}k{e}) * {ks}) + {base} + {op}r{e};")
            cond = f"{base} + {op}r{e} < {lim} && {{k}} + {op}k{e} < kend"
            addr = f"({op}p{e} + u32(i32({{k}}) * {ks})) / 4u"
            put = [f"{S}[{{off}} + {op}k{e} * {R4}u + {op}r{e} / 4u] = {reg};"]
        else:  # strided scalars through a_at / b_at (zero outside the matrix; k >= kend reads as k = K)
            decl.append(f"    let {op}k{e} = {q} / {rows}u; let {op}r{e} = {q} % {rows}u;")
            kk = f"select(p.K, {{k}} + {op}k{e}, {{k}} + {op}k{e} < kend)"
            at = (f"a_at(bz, row0 + {op}r{e}, {kk})" if op == "a" else f"b_at(bz, {kk}, col0 + {op}r{e})")
            put = [f"{S}[{{off}} + {op}k{e} * {R4}u + {op}r{e} / 4u][{op}r{e} % 4u] = {reg};"]
        if vec:
            body = [f"{reg} = vec4<{T}>({T}(0));", f"if ({cond}) {{ {reg} = vec4<{T}>({op}[{addr}]); }}"]
        else:
            body = [f"{reg} = {at};"]
        if guard:
            fetch.append(f"        if ({guard}) {{ " + " ".join(body) + " }")
            store.append(f"        if ({guard}) {{ " + " ".join(put) + " }")
        else:
            fetch += ["        " + x for x in body]
            store += ["        " + x for x in put]
    return decl, fetch, store


def _skip_upper(bm: int, bn: int) -> str:
    """WGSL returning from a workgroup whose bm x bn tile lies wholly above C's diagonal (epilogue "sub_lower";
    uniform: it depends on the workgroup id only)."""
    return f"    if (wid.x * {bn}u > wid.y * {bm}u + {bm - 1}u) {{\n        return;\n    }}"


def _build_tiled(adt: DType, bdt: DType, res: DType, cdt: DType, v: Variant, amode: str, bmode: str,
                 cvec: bool, epilogue: str = "store") -> launch.Kernel:
    T = source.ctype(cdt)
    BM, BN, BK, TM, TN = v.bm, v.bn, v.bk, v.tm, v.tn
    TYN, TXN = BM // TM, BN // TN  # invocations down M, across N
    HM, HN = TM // 4, TN // 4  # vec4 of A and of B an invocation reads per k
    BM4, BN4 = BM // 4, BN // 4
    AS, BS = BK * BM4, BK * BN4  # vec4 of one staged slice
    threads = v.threads
    # accumulators acc{r}_{h}: row r of the invocation's block, h-th vec4 of its columns
    declare = [f"    var acc{r}_{h}: vec4<{T}> = vec4<{T}>({T}(0));" for r in range(TM) for h in range(HN)]
    adecl, afetch, astore = _staging("a", amode, BM, BK, threads, T, v.rows)
    bdecl, bfetch, bstore = _staging("b", bmode, BN, BK, threads, T, v.rows)
    declare += adecl + bdecl

    def fetch(k: str) -> list[str]:
        return [x.replace("{k}", k) for x in afetch + bfetch]

    def store(aoff: str, boff: str) -> list[str]:
        return [x.replace("{off}", aoff) for x in astore] + [x.replace("{off}", boff) for x in bstore]

    def compute(aoff: str, boff: str) -> list[str]:
        """The inner product over the staged slice, fully unrolled."""
        out = []
        for kk in range(BK):
            for hr in range(HM):
                out.append(f"        let a{kk}_{hr} = As[{aoff} + {kk * BM4 + hr * TYN}u + ty];")
            for h in range(HN):
                out.append(f"        let b{kk}_{h} = Bs[{boff} + {kk * BN4 + h * TXN}u + tx];")
            for hr in range(HM):
                for i in range(4):
                    for h in range(HN):
                        r = hr * 4 + i
                        out.append(f"        acc{r}_{h} = acc{r}_{h} + a{kk}_{hr}[{i}] * b{kk}_{h};")
        return out

    if v.pair:  # two slices an iteration, buffer 0 then buffer 1: constant offsets (the break is uniform)
        loop = (fetch("kbeg") + store("0u", "0u") + ["    workgroupBarrier();",
                f"    for (var k0 = kbeg; k0 < kend; k0 = k0 + {2 * BK}u) {{"]
                + fetch(f"(k0 + {BK}u)") + ["        {"] + compute("0u", "0u") + ["        }"] + store(f"{AS}u", f"{BS}u")
                + ["        workgroupBarrier();", f"        if (k0 + {BK}u >= kend) {{ break; }}"]
                + fetch(f"(k0 + {2 * BK}u)") + ["        {"] + compute(f"{AS}u", f"{BS}u") + ["        }"]
                + store("0u", "0u")
                + ["        workgroupBarrier();", "    }"])
    elif v.db:
        loop = (fetch("kbeg") + store("0u", "0u") + ["    workgroupBarrier();", "    var cur = 0u;",
                f"    for (var k0 = kbeg; k0 < kend; k0 = k0 + {BK}u) {{",
                f"        let ao = cur * {AS}u;", f"        let bo = cur * {BS}u;"]
                + fetch(f"(k0 + {BK}u)") + compute("ao", "bo") + store(f"({AS}u - ao)", f"({BS}u - bo)")
                + ["        workgroupBarrier();", "        cur = 1u - cur;", "    }"])
    else:
        loop = ([f"    for (var k0 = kbeg; k0 < kend; k0 = k0 + {BK}u) {{"] + fetch("k0") + store("0u", "0u")
                + ["        workgroupBarrier();"] + compute("0u", "0u") + ["        workgroupBarrier();", "    }"])
    # write the block: rows row0 + hr*4*TYN + ty*4 + i, columns col0 + h*4*TXN + tx*4 .. +3
    split = v.split > 1
    ctype_ = T if split else res.wgsl  # partials stay in the compute type
    fused = epilogue != "store"
    crs = "u32(p.c_rs)" if fused else "p.N"
    if split:
        write = ["    let cbase = (sl * p.batch + bz) * p.M * p.N;"]
    elif fused:
        write = ["    let cbase = p.c_off + bz * u32(p.c_bs);"]
    else:
        write = ["    let cbase = p.c_off + bz * p.M * p.N;"]
    for hr in range(HM):
        for i in range(4):
            r = hr * 4 + i
            for h in range(HN):
                row = f"row0 + {hr * 4 * TYN}u + ty * 4u + {i}u"
                col = f"col0 + {h * 4 * TXN}u + tx * 4u"
                if split:
                    comps = [f"acc{r}_{h}[{j}]" for j in range(4)]
                    whole = f"acc{r}_{h}"
                else:
                    comps = [source.store_expr(res, source.convert(cdt, res, f"acc{r}_{h}[{j}]")) for j in range(4)]
                    whole = f"vec4<{res.wgsl}>({', '.join(comps)})"
                if cvec:
                    at = f"c[(cbase + rr * {crs} + cc) / 4u]"
                    val = f"{at} - acc{r}_{h}" if fused else whole
                    write.append(f"    {{ let rr = {row}; let cc = {col}; if (rr < p.M && cc < p.N) {{"
                                 f" {at} = {val}; }} }}")
                else:
                    for j in range(4):
                        at = f"c[cbase + rr * {crs} + cc]"
                        val = f"{at} - acc{r}_{h}[{j}]" if fused else comps[j]
                        write.append(f"    {{ let rr = {row}; let cc = {col} + {j}u; if (rr < p.M && cc < p.N) {{"
                                     f" {at} = {val}; }} }}")
    a_elem = f"vec4<{adt.wgsl}>" if amode != "s" else adt.wgsl
    b_elem = f"vec4<{bdt.wgsl}>" if bmode != "s" else bdt.wgsl
    c_elem = f"vec4<{ctype_}>" if cvec else ctype_
    common = _common(T, _load(adt, cdt, "a[u32(idx)]") if amode == "s" else f"{T}(0)",
                     _load(bdt, cdt, "b[u32(idx)]") if bmode == "s" else f"{T}(0)")
    return launch.Kernel("matmul_tiled.wgsl", _bindings(a_elem, b_elem, c_elem, fused), dict(
        HELPERS=source.helpers([adt, bdt, res, cdt]), T=T, BM=BM, BN=BN, BK=BK, TM=TM, TN=TN, TXN=TXN, TYN=TYN,
        TX=f"(tid / 32u) % {TXN // 8}u * 8u + tid % 8u" if v.warp else f"tid % {TXN}u",
        TY=f"(tid / 32u) / {TXN // 8}u * 4u + (tid % 32u) / 8u" if v.warp else f"tid / {TXN}u",
        THREADS=threads, SPLIT=v.split, COMMON=common, AS_LEN=AS * (2 if v.db else 1), BS_LEN=BS * (2 if v.db else 1),
        SKIP=_skip_upper(BM, BN) if epilogue == "sub_lower" else "", DECLARE="\n".join(declare),
        MAIN_LOOP="\n".join(loop), WRITE="\n".join(write)), workgroup=threads)


def _build(adt: DType, bdt: DType, res: DType, cdt: DType, epilogue: str = "store") -> launch.Kernel:
    """The generic kernel: 64x64 tiles, 4x4 outputs an invocation, scalar strided loads (any dtype; complex
    products through cmul, so complex64/complex128 run here: 16 / 32 KiB of workgroup memory for the tiles)."""
    T = source.ctype(cdt)
    R = 4
    declare = "\n".join(f"    var c{i}{j}: {T} = {T}(0);" for i in range(R) for j in range(R))
    inner = []
    for i in range(R):
        inner.append(f"            let a{i} = As[kk][lid3.y * {R}u + {i}u];")
    for j in range(R):
        inner.append(f"            let b{j} = Bs[kk][lid3.x * {R}u + {j}u];")
    for i in range(R):
        for j in range(R):
            prod = f"wg_cmul_{cdt.component.wgsl}(a{i}, b{j})" if cdt.kind == "c" else f"a{i} * b{j}"
            inner.append(f"            c{i}{j} = c{i}{j} + {prod};")
    fused = epilogue != "store"
    write = ["    let cbase = p.c_off + bz * " + ("u32(p.c_bs);" if fused else "p.M * p.N;")]
    crs = "u32(p.c_rs)" if fused else "p.N"
    for i in range(R):
        for j in range(R):
            at = f"c[cbase + r * {crs} + q]"
            store = f"{at} - c{i}{j}" if fused else source.store_expr(res, source.convert(cdt, res, f"c{i}{j}"))
            write.append(f"    {{ let r = row0 + lid3.y * {R}u + {i}u; let q = col0 + lid3.x * {R}u + {j}u;"
                         f" if (r < p.M && q < p.N) {{ {at} = {store}; }} }}")
    common = _common(T, _load(adt, cdt, "a[u32(idx)]"), _load(bdt, cdt, "b[u32(idx)]"))
    return launch.Kernel("matmul.wgsl", _bindings(adt.wgsl, bdt.wgsl, res.wgsl, fused), dict(
        HELPERS=source.helpers([adt, bdt, res, cdt]), T=T, TM=64, TN=64, COMMON=common, DECLARE=declare,
        SKIP=_skip_upper(64, 64) if epilogue == "sub_lower" else "",
        INNER="\n".join(inner), WRITE="\n".join(write)), workgroup=(16, 16))
