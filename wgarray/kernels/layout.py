"""Shape bookkeeping for kernels: broadcasting strides, collapsing dimensions, binding windows, packing params.

Everything here is host-side integer arithmetic on shapes and strides (in elements, never bytes).
"""
from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from typing import Protocol, Sequence

MAXD = 8  # dimensions a kernel addresses after collapsing
WORKGROUP = 256


class ViewLike(Protocol):
    """What a kernel needs of an array view (``Array`` satisfies it)."""

    mirror: object
    shape: tuple[int, ...]
    strides: tuple[int, ...]  # in elements
    offset: int  # in elements
    dtype: object


@dataclass(frozen=True)
class View:
    """A view made by a kernel launcher (a slice of an operand): what ``ViewLike`` asks, nothing more."""

    mirror: object
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    offset: int
    dtype: object


def contiguous_strides(shape: Sequence[int]) -> tuple[int, ...]:
    out, acc = [], 1
    for n in reversed(shape):
        out.append(acc)
        acc *= max(n, 1)
    return tuple(reversed(out))


def broadcast_strides(shape: Sequence[int], strides: Sequence[int], out_shape: Sequence[int]) -> tuple[int, ...]:
    """Strides of a view broadcast to ``out_shape`` (0 where a dimension is stretched or added)."""
    pad = len(out_shape) - len(shape)
    if pad < 0:
        raise ValueError(f"cannot broadcast shape {tuple(shape)} to {tuple(out_shape)}")
    res = [0] * pad
    for n, s, m in zip(shape, strides, out_shape[pad:]):
        if n == m:
            res.append(s if n != 1 else 0)
        elif n == 1:
            res.append(0)
        else:
            raise ValueError(f"cannot broadcast shape {tuple(shape)} to {tuple(out_shape)}")
    return tuple(res)


def collapse(shape: Sequence[int], strides: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    """Drop size-1 dimensions and merge neighbours that every operand walks contiguously."""
    keep = [d for d, n in enumerate(shape) if n != 1]
    cshape = [shape[d] for d in keep]
    cstr = [[s[d] for d in keep] for s in strides]
    d = len(cshape) - 2
    while d >= 0:
        if all(s[d] == s[d + 1] * cshape[d + 1] for s in cstr):
            cshape[d] *= cshape[d + 1]
            del cshape[d + 1]
            for s in cstr:
                s[d] = s[d + 1]
                del s[d + 1]
        d -= 1
    return tuple(cshape), [tuple(s) for s in cstr]


def covers_base(shape: Sequence[int], strides: Sequence[int], base_size: int) -> bool:
    """Whether a view (in bounds of its base, as every view is) holds each of the base's ``base_size`` elements
    exactly once, in any order (transposed, reversed, with size-1 axes): then writing it overwrites the whole base."""
    if math.prod(shape) != base_size:
        return False
    expect = 1
    for s, n in sorted((abs(s), n) for n, s in zip(shape, strides) if n != 1):
        if s != expect:
            return False
        expect *= n
    return True


def variant(cshape: Sequence[int], strides: Sequence[int]) -> str:
    """How a kernel addresses an operand: 'c' contiguous (offset + i), 'z' one element, 's' strided."""
    if all(s == 0 for s in strides):
        return "z"
    if tuple(strides) == contiguous_strides(cshape):
        return "c"
    return "s"


MAX_ELEMENTS = 2**31 - 1  # the most elements one kernel addresses in an operand (32-bit sizes, strides, offsets)


def pack(fmt: str, *values: int) -> bytes:
    """``struct.pack`` for kernel parameters.  A value beyond 32 bits (the size, a stride or an offset of more than
    2**31 elements, as a huge broadcast view has) is a size the kernels cannot address: the README's error table
    makes that a MemoryError naming the limit (not struct.error or OverflowError, which mean a bad Python int)."""
    try:
        return struct.pack(fmt, *values)
    except struct.error:
        raise MemoryError(f"a kernel parameter does not fit in 32 bits (one of {list(values)}): wgarray's kernels "
                          f"address at most {MAX_ELEMENTS} (2**31 - 1) elements of an operand") from None


_U32S: dict[int, struct.Struct] = {}  # values -> the Struct packing them padded to 16 bytes (``u32s``)


def u32s(*values: int) -> bytes:
    """``Params().u32(*values).bytes()`` in one step: a parameter block of u32 scalars only, padded to 16 bytes (the
    hot path of the blocked linalg drivers' hundreds of launches a call: one cached Struct, no bytearray)."""
    st = _U32S.get(len(values))
    if st is None:
        st = _U32S[len(values)] = struct.Struct(f"<{len(values)}I{-4 * len(values) % 16}x")
    try:
        return st.pack(*values)
    except struct.error:
        return pack(f"<{len(values)}I", *values)  # raises pack's MemoryError (a negative value: struct's error)


class Params:
    """Packs a uniform parameter block, following WGSL's uniform layout rules for the members used here."""

    def __init__(self) -> None:
        self._buf = bytearray()

    def _align(self, n: int) -> None:
        self._buf.extend(b"\0" * (-len(self._buf) % n))

    def u32(self, *values: int) -> "Params":
        self._align(4)
        self._buf.extend(pack(f"<{len(values)}I", *values))
        return self

    def vec_array(self, values: Sequence[int], signed: bool, length: int = MAXD) -> "Params":
        """array<vec4<u32|i32>, length/4> padded with zeros."""
        self._align(16)
        vals = list(values) + [0] * (length - len(values))
        self._buf.extend(pack(f"<{length}{'i' if signed else 'I'}", *vals))
        return self

    def raw(self, data: bytes, align: int) -> "Params":
        self._align(align)
        self._buf.extend(data)
        return self

    def bytes(self) -> bytes:
        self._align(16)
        return bytes(self._buf)


# -- windows: binding part of a buffer larger than one storage binding --------------------------------------------
def _box(shape: Sequence[int], strides: Sequence[int]) -> tuple[int, int]:
    lo = sum(min(0, (n - 1) * s) for n, s in zip(shape, strides))
    hi = sum(max(0, (n - 1) * s) for n, s in zip(shape, strides))
    return lo, hi


def span(shape: Sequence[int], strides: Sequence[int], start: int, stop: int) -> tuple[int, int]:
    """The lowest and highest element offsets (relative to the view's offset) that the row-major positions
    ``[start, stop)`` of a view touch (``start < stop``): a flat range is a union of at most two partial boxes per
    dimension and one full box, and a box's extremes are sums of per-dimension extremes."""
    if not shape:
        return 0, 0
    inner = math.prod(shape[1:])
    if start == 0 and stop == inner * shape[0]:
        return _box(shape, strides)
    s0, rest, rstr = strides[0], shape[1:], strides[1:]
    a, b = start // inner, (stop - 1) // inner
    if a == b:
        lo, hi = span(rest, rstr, start - a * inner, stop - a * inner)
        return lo + a * s0, hi + a * s0
    lo1, hi1 = span(rest, rstr, start - a * inner, inner)
    lo2, hi2 = span(rest, rstr, 0, stop - b * inner)
    lo, hi = min(lo1 + a * s0, lo2 + b * s0), max(hi1 + a * s0, hi2 + b * s0)
    if b - a > 1:
        blo, bhi = _box(rest, rstr)
        ends = ((a + 1) * s0, (b - 1) * s0)
        lo, hi = min(lo, min(ends) + blo), max(hi, max(ends) + bhi)
    return lo, hi


def window_align(limits) -> int:
    """Byte alignment of a window's start: the device's storage offset alignment, and at least one vec4."""
    return max(16, limits.min_storage_buffer_offset_alignment)


def reach(nbytes: int) -> int:
    """How far into its buffer a window over ``nbytes`` bytes of data may reach: the data rounded up to whole
    vec4s (the allocator's buffers are at least that large)."""
    return -(-nbytes // 16) * 16


def window(lo: int, hi: int, itemsize: int, buffer_bytes: int, align: int) -> tuple[int, int]:
    """(byte offset, byte size) of a binding window holding elements ``lo..hi`` of a buffer: the start rounded
    down to ``align``, the size rounded up to whole vec4s (but not past the buffer's end)."""
    start = lo * itemsize // align * align
    stop = min(-(-(hi + 1) * itemsize // 16) * 16, buffer_bytes)
    return start, stop - start
