"""Random draws as rows of the elementwise table: each row's WGSL expression calls a Philox4x32-10
distribution function (``shaders/philox.wgsl``, ``random_f32.wgsl``, ``random_f64.wgsl``, ``random_i64.wgsl``)
with the key and counter as parameter-block scalars and the flat output index ``{i}``.

Going through ``kernels/elementwise.py`` gives random draws the same launch path, pipeline cache, vec4 stores and
splitting of outputs beyond one storage binding as every elementwise op; because the value of element ``e``
depends only on (key, counter, e), a split launch writes the same bits as a single one.

Blocks per element (how far a call advances the generator's counter): ``PER_BLOCK`` elements share one Philox
block; a call of n elements consumes ceil(n / PER_BLOCK) blocks.
"""
from __future__ import annotations

import math
import weakref
from typing import Sequence

import numpy as np

from .. import dtypes as dt
from ..dtypes import DType
from . import elementwise as _ew, launch, layout, source
from .elementwise import Scalar
from .ewtable import EwOp
from .layout import ViewLike

# key and counter words: the first six operands of every row ({x} is a uint64 scalar on devices with shader-int64;
# see ``draw``)
_KC = "u32({x}), {y}, {z}, {q3}, {q4}, {q5}"

# one thread a Philox block in vec4 mode (``block``: the block's four float32 / uint32 elements as a vec4, one
# Philox call and, for normals, two logarithms, square roots and sin/cos pairs per four outputs); the one-element
# forms (float64, unaligned outputs) index the same functions.  The float rows' last operand is ``nc``, a zero
# read from the parameter block (``draw`` appends it): OR-ed into every product that feeds a sum, it keeps a
# driver from contracting the two into an FMA (random_f32.wgsl), so the bits are the same everywhere.
OPS: dict[str, EwOp] = {op.name: op for op in [
    # 32 raw bits an element (permutation sort keys)
    EwOp("random_bits", 6, "same", {"u": f"wg_rand_bits({_KC}, {{i}})"},
         block={"u": f"wg_philox_block({_KC}, {{i}}, 0u)"}),
    # low {q6} + span {q7} * u, u uniform on [0, 1) (random(), uniform())
    EwOp("random_uniform", 9, "same",
         {"f": f"({{q6}} + wg_impl_opaque_{{T}}({{q7}} * wg_rand_uniform_{{T}}({_KC}, {{i}}, {{q8}})))"},
         block={"f": f"wg_rand_affine4_f32({{q6}}, {{q7}}, wg_rand_uniform4_f32({_KC}, {{i}}, {{q8}}), {{q8}})"}),
    # loc {q6} + scale {q7} * z, z standard normal (Box-Muller)
    EwOp("random_normal", 9, "same",
         {"f": f"({{q6}} + wg_impl_opaque_{{T}}({{q7}} * wg_rand_normal_{{T}}({_KC}, {{i}}, {{q8}})))"},
         block={"f": f"wg_rand_affine4_f32({{q6}}, {{q7}}, wg_rand_normal4_f32({_KC}, {{i}}, {{q8}}), {{q8}})"}),
    # scale {q6} * standard exponential
    EwOp("random_exponential", 8, "same", {"f": f"({{q6}} * wg_rand_exponential_{{T}}({_KC}, {{i}}, {{q7}}))"},
         block={"f": f"({{q6}} * wg_rand_exponential4_f32({_KC}, {{i}}, {{q7}}))"}),
    # low + [0, r) for dtypes of at most 32 bits: {q6} low word, {q7} {q8} r, {q9} {q10} threshold
    EwOp("random_int32", 11, "same", {k: f"bitcast<{{T}}>(wg_rand_int32({_KC}, {{i}}, {{q6}}, {{q7}}, {{q8}}, "
                                         f"{{q9}}, {{q10}}))" for k in "iu"},
         block={k: f"bitcast<vec4<{{T}}>>(wg_rand_int32x4({_KC}, {{i}}, {{q6}}, {{q7}}, {{q8}}, {{q9}}, {{q10}}))"
                for k in "iu"}),
    # the same for 64-bit dtypes: {q6} {q7} low, {q8} {q9} r, {q10} {q11} threshold
    EwOp("random_int64", 12, "same", {k: f"bitcast<{{T}}>(wg_rand_int64({_KC}, {{i}}, {{q6}}, {{q7}}, {{q8}}, "
                                         f"{{q9}}, {{q10}}, {{q11}}))" for k in "iu"}),
]}

# float32 normal variants (knobs; the functions of shaders/random_f32_variants.wgsl, the variant rows' ``code``).
# NORMAL_F32: the transforms: "exact" random_f32.wgsl's (the default rows above); "fma" the same algorithms with
# every product that feeds a sum fused (opaque ORs only where a driver could factor or reassociate): WGSL's fma where
# the device's rounds once (``fma_fused``, a GPU), else an exact emulation ("fmaexact", random_f32_fma_exact.wgsl:
# lavapipe), so other bits than "exact" but the same on every device; "builtin" WGSL's log/sqrt/cos/sin
# (driver-dependent bits: a measurement of the transforms' cost, never a default). NORMAL_F32_PHILOX: "loop"
# (philox.wgsl) or "unrolled" (rounds written out, the same bits).  NORMAL_F32_STD: a draw of loc 0 and scale 1
# (standard_normal) stores z itself instead of 0 + 1 * z (4 mul, 4 OR and 4 adds fewer a thread; the same values:
# only the affine form's 0 + -0.0 = +0.0 differs).  All three leave the counter's advance as it is (four elements a
# block).
# Defaults (measured, benchmarks/randgpu_sweep.py on an H100, Vulkan, 2026-12-06, standard_normal float32 2^26):
# "exact" "loop" 0.329 ms, "exact" "unrolled" 0.206 ms, "exact" "unrolled" std 0.199 ms with random_f32.wgsl's
# guard an OR, 0.189 ms with it the integer multiply it is now (torch.randn 0.155 ms: 0.82x); the same bits (std: the
# same values; z = r cos may be -0.0 where u rounds to 1, as the host emulation's r * c).  Float guards (x * 1.0 or
# x + -0.0 of an opaque constant: 0.179 / 0.182 ms) were measured and removed: sound only while a driver does not
# reassociate around them.  "fma" (0.159) changes the stream and is 4-5x slower where fma must be emulated
# (lavapipe): not a default.
NORMAL_F32 = "exact"
NORMAL_F32_PHILOX = "unrolled"
NORMAL_F32_STD = True
_TRANSFORM = {"exact": ("wg_rand_boxmuller4_f32", "wg_rand_affine4_f32"),
              "fma": ("wg_rv_boxmuller4_fma", "wg_rv_affine4_fma"),
              "fmaexact": ("wg_rv_boxmuller4_fma", "wg_rv_affine4_fma"),  # "fma" where fma is not fused
              "builtin": ("wg_rv_boxmuller4_builtin", "wg_rand_affine4_f32")}
_PHILOX = {"loop": "wg_philox_block({}, 0u)", "unrolled": "wg_rv_block_unrolled({})"}
_VARIANT_CODE = source.load("random_f32_variants.wgsl")
_CODE = {t: _VARIANT_CODE + "\n" + source.load("random_f32_fma_exact.wgsl" if t == "fmaexact" else "random_f32_fma.wgsl")
         for t in _TRANSFORM}
_FUSED: "weakref.WeakKeyDictionary[object, bool]" = weakref.WeakKeyDictionary()  # device -> its WGSL fma rounds once
# (weak: a closed device is not kept alive by its probe's answer)
_FMA_PROBE = EwOp("random_fma_probe", 2, "same", {"f": "fma({x}, {x}, {y})"})


def fma_fused(device) -> bool:
    """Whether ``device``'s WGSL fma rounds once (probed once a device, one dispatch and a 4-byte read):
    (1 + 2^-12)^2 - (1 + 2^-11) is 2^-24 fused, 0 when the product is rounded first."""
    got = _FUSED.get(device)
    if got is None:
        from ..alloc.mirror import Mirror
        out = layout.View(Mirror(dt.float32, 1, device), (1,), (1,), 0, dt.float32)
        _ew.run(device, _FMA_PROBE, [Scalar(1 + 2.0 ** -12, dt.float32), Scalar(-(1 + 2.0 ** -11), dt.float32)],
                out, dt.float32, [dt.float32, dt.float32])
        got = _FUSED[device] = float(out.mirror.read_range(0, 1)[0]) == 2.0 ** -24
    return got


def _transform(device) -> str:
    """NORMAL_F32 as a row's transform on ``device`` ("fma" emulated where its fma is not fused)."""
    return "fmaexact" if NORMAL_F32 == "fma" and not fma_fused(device) else NORMAL_F32


# NORMAL_F32_BLOCKS > 1 or NORMAL_F32_WG != 256: float32 normals (contiguous, a multiple of 4 elements, one
# binding) through shaders/random_normal_blocks.wgsl instead of the elementwise path: that many Philox blocks an
# invocation, workgroups of NORMAL_F32_WG (the same bits; more work a thread amortises its index math and gives
# the compiler two independent chains).
NORMAL_F32_BLOCKS = 1
NORMAL_F32_WG = 256
# "blocks": float32 normals through the blocks kernel whenever it suits the output (and has at most
# NORMAL_F32_BLOCKS_MAX elements, 0: any size), also for NORMAL_F32_BLOCKS = 1 and NORMAL_F32_WG = 256 (other
# values of those two imply it); "elementwise": the EwOp rows.  H100 2026-12-06 (randgpu_sweep, both guards): at
# 2^22 the blocks kernel (blocks=1 wg=256) 0.047-0.054 ms against 0.082-0.083 elementwise, at 2^26 0.192-0.209
# against 0.189-0.199, so the blocks kernel up to 2^22 elements, elementwise above.
NORMAL_F32_KERNEL = "blocks"
NORMAL_F32_BLOCKS_MAX = 1 << 22
# The blocks kernel with the unrolled Philox: where the counter's low word plus the blocks does not wrap (the
# host checks it), the block's counter is (c0 + b, c1, c2, c3) without the carry chain (the same bits, ~8 integer
# instructions a block fewer).  False: always the carry chain (for the sweep's comparison).
NORMAL_F32_NOCARRY = True


def _blocks_kernel(device, transform: str, philox: str, std: bool, nocarry: bool):
    fn, affine = _TRANSFORM[transform]
    block = ("wg_rv_rounds(vec4<u32>(p.c0 + b, p.c1, p.c2, p.c3), p.k0, p.k1)" if nocarry
             else _PHILOX[philox].format('p.k0, p.k1, p.c0, p.c1, p.c2, p.c3, b'))
    z4 = f"{fn}({block}, p.nc)"
    normal = z4 if std else f"{affine}(lo, span, {z4}, p.nc)"
    dtypes = [dt.float32, dt.uint64] if device.supports(dt.uint64) else [dt.float32]
    key = ("random_normal_blocks", transform, normal, NORMAL_F32_BLOCKS, NORMAL_F32_WG, len(dtypes))
    return launch.compile(device, key, lambda: launch.Kernel(
        "random_normal_blocks.wgsl", (launch.write("out", "array<vec4<f32>>"),),
        dict(HELPERS=source.helpers(dtypes), CODE=_CODE[transform], BLOCKS=NORMAL_F32_BLOCKS, NORMAL=normal),
        workgroup=NORMAL_F32_WG))


def _draw_blocks(device, key, counter, params, out, std: bool) -> bool:
    """The normal draw through random_normal_blocks.wgsl when ``out`` suits it (else False: nothing done)."""
    n = math.prod(out.shape)
    limits = device.properties.limits
    if (out.dtype != dt.float32 or n % 4 or n == 0 or out.offset != 0 or out.mirror.size != n
            or tuple(out.strides) != layout.contiguous_strides(out.shape)
            or n * 4 > limits.max_storage_buffer_binding_size):
        return False
    nb = n // 4
    threads = -(-nb // NORMAL_F32_BLOCKS)
    nocarry = NORMAL_F32_NOCARRY and NORMAL_F32_PHILOX == "unrolled" and int(counter[0]) + nb <= 1 << 32
    kernel = _blocks_kernel(device, _transform(device), NORMAL_F32_PHILOX, std, nocarry)
    f32bits = [int(np.float32(p.value).view(np.uint32)) for p in params]
    prm = layout.Params().u32(nb, threads, *key, *counter, *f32bits, 0, 0)
    launch.dispatch(device, kernel, [out.mirror.buffer_for_write(whole=True)], prm.bytes(), threads=threads)
    return True


def _normal_row(transform: str, philox: str, std: bool) -> EwOp:
    fn, affine = _TRANSFORM[transform]
    z4 = f"{fn}({_PHILOX[philox].format(_KC + ', {i}')}, {{q8}})"
    z1 = f"{fn}({_PHILOX[philox].format(_KC + ', {i} / 4u')}, {{q8}})[{{i}} % 4u]"
    block = z4 if std else f"{affine}({{q6}}, {{q7}}, {z4}, {{q8}})"
    one = z1 if std else f"{affine}({{q6}}, {{q7}}, vec4<f32>({z1}), {{q8}}).x"
    return EwOp(_normal_name(transform, philox, std), 9, "same", {"f": one}, block={"f": block},
                code=_CODE[transform])


def _normal_name(transform: str, philox: str, std: bool) -> str:
    return f"random_normal_{transform}_{philox}{'_std' if std else ''}"


for _row in [_normal_row(t, p, s) for t in _TRANSFORM for p in _PHILOX for s in (False, True)]:
    OPS[_row.name] = _row  # draw() picks one for "random_normal" (the same counter advance: PER_BLOCK's)

_FLOAT_ROWS = ("random_uniform", "random_normal", "random_exponential")

# elements a Philox block feeds, by row and output width
PER_BLOCK = {("random_bits", 4): 4, ("random_uniform", 4): 4, ("random_uniform", 8): 2,
             ("random_normal", 4): 4, ("random_normal", 8): 2, ("random_exponential", 4): 4,
             ("random_exponential", 8): 2, ("random_int32", 4): 2, ("random_int64", 8): 2}


def blocks(name: str, out_dtype: DType, n: int) -> int:
    """Philox blocks a draw of ``n`` elements of ``out_dtype`` consumes (the counter's advance)."""
    per = PER_BLOCK[(name, 8 if out_dtype.bits == 64 else 4)]
    return -(-n // per)


def words(value: int, count: int) -> list[int]:
    """``value`` as ``count`` u32 words, most significant first."""
    return [(value >> (32 * (count - 1 - k))) & 0xFFFFFFFF for k in range(count)]


def draw(device, name: str, key: Sequence[int], counter: Sequence[int], params: Sequence[Scalar],
         out: ViewLike) -> None:
    """out[e] = row ``name`` at element e, for Philox key (2 words) and counter (4 words, least significant
    first); ``params`` are the row's further scalars.  Computed in the output dtype."""
    if name == "random_normal" and out.dtype == dt.float32:
        std = NORMAL_F32_STD and [float(p.value) for p in params] == [0.0, 1.0]
        blocks = NORMAL_F32_KERNEL == "blocks" and (not NORMAL_F32_BLOCKS_MAX
                                                    or math.prod(out.shape) <= NORMAL_F32_BLOCKS_MAX)
        if ((blocks or (NORMAL_F32_BLOCKS, NORMAL_F32_WG) != (1, 256))
                and _draw_blocks(device, key, counter, params, out, std)):
            return
        if (NORMAL_F32, NORMAL_F32_PHILOX, std) != ("exact", "loop", False):
            name = _normal_name(_transform(device), NORMAL_F32_PHILOX, std)
    words = [Scalar(int(w), dt.uint32) for w in (*key, *counter)]
    if device.supports(dt.uint64):
        # the same value as a u64 scalar puts 64-bit integers among the kernel's dtypes, so its helpers compute
        # Philox's mulhi as one native wide multiply (source.helpers, philox_mulhi64.wgsl): the same bits, faster
        words[0] = Scalar(int(key[0]), dt.uint64)
    operands = words + list(params)
    if name.startswith(_FLOAT_ROWS):
        operands.append(Scalar(0, dt.uint32))  # nc: the run-time zero of the float rows

    cdt = out.dtype
    _ew.run(device, OPS[name], operands, out, cdt, [o.dtype for o in operands])
