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

# float32 normal knobs.  NORMAL_F32_STD: a draw of loc 0 and scale 1 (standard_normal) stores z itself instead of
# 0 + 1 * z (the std row; 4 mul, 4 guards and 4 adds fewer a thread; the same values: only the affine form's
# 0 + -0.0 = +0.0 differs).  It leaves the counter's advance as it is (four elements a block).
# Measured (benchmarks/randgpu_sweep.py on an H100, Vulkan, 2026-12-06, standard_normal float32 2^26): 0.206 ms
# with 0 + 1 * z, 0.199 ms std with random_f32.wgsl's guard an OR, 0.189 ms with it the integer multiply it is now
# (torch.randn 0.155 ms: 0.82x); the same values (z = r cos may be -0.0 where u rounds to 1, as the host
# emulation's r * c).  Float guards (x * 1.0 or x + -0.0 of an opaque constant: 0.179 / 0.182 ms) were measured
# and removed: sound only while a driver does not reassociate around them.  Other transforms (fused multiply-adds,
# WGSL's builtins) were measured and removed: README, "float32 normal variants".
NORMAL_F32_STD = True

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
# The blocks kernel: where the counter's low word plus the blocks does not wrap (the host checks it), the block's
# counter is (c0 + b, c1, c2, c3) without the carry chain (the same bits, ~8 integer instructions a block fewer).
# False: always the carry chain (for the sweep's comparison).
NORMAL_F32_NOCARRY = True


def _blocks_kernel(device, std: bool, nocarry: bool):
    block = ("wg_philox4x32(vec4<u32>(p.c0 + b, p.c1, p.c2, p.c3), vec2<u32>(p.k0, p.k1))" if nocarry
             else "wg_philox_block(p.k0, p.k1, p.c0, p.c1, p.c2, p.c3, b, 0u)")
    z4 = f"wg_rand_boxmuller4_f32({block}, p.nc)"
    normal = z4 if std else f"wg_rand_affine4_f32(lo, span, {z4}, p.nc)"
    dtypes = [dt.float32, dt.uint64] if device.supports(dt.uint64) else [dt.float32]
    key = ("random_normal_blocks", normal, NORMAL_F32_BLOCKS, NORMAL_F32_WG, len(dtypes))
    return launch.compile(device, key, lambda: launch.Kernel(
        "random_normal_blocks.wgsl", (launch.write("out", "array<vec4<f32>>"),),
        dict(HELPERS=source.helpers(dtypes), BLOCKS=NORMAL_F32_BLOCKS, NORMAL=normal), workgroup=NORMAL_F32_WG))


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
    nocarry = NORMAL_F32_NOCARRY and int(counter[0]) + nb <= 1 << 32
    kernel = _blocks_kernel(device, std, nocarry)
    f32bits = [int(np.float32(p.value).view(np.uint32)) for p in params]
    prm = layout.Params().u32(nb, threads, *key, *counter, *f32bits, 0, 0)
    launch.dispatch(device, kernel, [out.mirror.buffer_for_write(whole=True)], prm.bytes(), threads=threads)
    return True


# the std row: z itself for loc 0 and scale 1 (NORMAL_F32_STD); draw() picks it for "random_normal" (the same
# counter advance: PER_BLOCK's)
OPS["random_normal_std"] = EwOp("random_normal_std", 9, "same", {"f": f"wg_rand_normal_f32({_KC}, {{i}}, {{q8}})"},
                                block={"f": f"wg_rand_normal4_f32({_KC}, {{i}}, {{q8}})"})

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
        if std:
            name = "random_normal_std"
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
