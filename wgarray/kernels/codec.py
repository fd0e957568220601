"""Widening after upload and narrowing before download on the device, so that narrow dtypes cross the bus at
their host size (1 byte a bool).  The Mirror calls these through ``device.codec``; the rules per dtype are the
same as the host codec's (``DType.widen``/``narrow``): 0/1 for bools, sign or zero extension for integers,
exact float16 <-> float32 for float16.

``register()`` installs the codec on ``Device`` (``Device.codec_factory``); ``wgarray/__init__`` calls it once.
Importing this module changes nothing."""
from __future__ import annotations

import math

from ..device import Device
from ..dtypes import DType
from . import launch, layout, source
from .launch import Kernel, read, write

# per dtype: (bits on the host, widen expression of `raw`, narrow expression of `v`), all as u32 bit patterns
_RULES = {
    "bool": (8, "select(0u, 1u, raw != 0u)", "select(0u, 1u, v != 0u)"),
    "uint8": (8, "raw", "v & 0xffu"),
    "int8": (8, "bitcast<u32>(bitcast<i32>(raw << 24u) >> 24u)", "v & 0xffu"),
    "uint16": (16, "raw", "v & 0xffffu"),
    "int16": (16, "bitcast<u32>(bitcast<i32>(raw << 16u) >> 16u)", "v & 0xffffu"),
    "float16": (16, "bitcast<u32>(wg_impl_f16_value(raw))", "wg_impl_f16_bits(bitcast<f32>(v))"),
}


def handles(dtype: DType) -> bool:
    return dtype.name in _RULES


class Codec:
    """One per device (``device.codec``): records widen/narrow dispatches on the device's stream."""

    def __init__(self, device: Device) -> None:
        self.device = device

    def widen(self, dtype: DType, packed, wide, n: int) -> None:
        """``wide`` (n storage elements) <- ``packed`` (n host elements, packed in u32 words)."""
        self._run(dtype, "widen", packed, wide, n, n)

    def narrow(self, dtype: DType, wide, packed, n: int) -> None:
        """``packed`` (ceil(n * bytes / 4) words) <- ``wide`` (n storage elements)."""
        per = 32 // _RULES[dtype.name][0]
        self._run(dtype, "narrow", wide, packed, n, math.ceil(n / per))

    def _run(self, dtype: DType, direction: str, src, dst, n: int, threads: int) -> None:
        if n == 0:
            return
        dev = self.device
        key = ("codec", dtype.name, direction)
        kernel = launch.compile(dev, key, lambda: _build(dtype, direction))
        per = 32 // _RULES[dtype.name][0]
        limits = dev.properties.limits
        binding = limits.max_storage_buffer_binding_size
        buffers = [src, dst]
        if src.size <= binding and dst.size <= binding:
            self._dispatch(kernel, buffers, None, n, per, threads)
            return
        # beyond one binding: element ranges whose packed and wide windows both start aligned and fit
        unit = 4 * layout.window_align(limits)
        step = max(unit, binding // 4 // unit * unit)
        for start in range(0, n, step):
            count = min(step, n - start)
            packed = (start // per * 4, -(-count // per) * 4)
            wide = (start * 4, count * 4)
            ranges = [packed, wide] if direction == "widen" else [wide, packed]
            self._dispatch(kernel, buffers, ranges, count, per, count if direction == "widen" else -(-count // per))

    def _dispatch(self, kernel, buffers, ranges, n: int, per: int, threads: int) -> None:
        params = layout.Params().u32(n, math.ceil(n / per), 0, 0).bytes()
        launch.dispatch(self.device, kernel, buffers, params, threads=threads, ranges=ranges)


def _build(dtype: DType, direction: str) -> Kernel:
    bits, widen, narrow = _RULES[dtype.name]
    per = 32 // bits
    mask = "0xffu" if bits == 8 else "0xffffu"
    if direction == "widen":
        body = ["    if (t >= p.n) {", "        return;", "    }",
                f"    let raw = (src[t / {per}u] >> ((t % {per}u) * {bits}u)) & {mask};",
                "    dst[t] = widen(raw);"]
    else:
        body = ["    if (t >= p.words) {", "        return;", "    }", "    var word = 0u;"]
        for k in range(per):
            body += [f"    if (t * {per}u + {k}u < p.n) {{",
                     f"        word = word | ((narrow(src[t * {per}u + {k}u]) & {mask}) << {k * bits}u);", "    }"]
        body.append("    dst[t] = word;")
    from .. import dtypes
    return Kernel("codec.wgsl", (read("src", "array<u32>"), write("dst", "array<u32>")), dict(
        HELPERS=source.helpers([dtypes.float32]), PER=per, WIDEN=widen, NARROW=narrow, BODY="\n".join(body)))


def register() -> None:
    """Make every device (those open now included) widen and narrow narrow dtypes with ``Codec``."""
    Device.codec_factory = Codec
