"""Set functions of the Array API (``unique_all``, ``unique_counts``, ``unique_inverse``, ``unique_values``).

On the device: a stable sort of the flattened input (values and permutation), boundary flags where a value
differs from its predecessor, an exclusive scan of the flags, and a scatter of each group's value, first
occurrence, size and every element's group; only the number of unique values (4 bytes) is read back.
Values compare with ==: every NaN is its own unique value (as the standard requires), -0.0 and 0.0 are one
value (represented by the first that occurs).  Unique values come out sorted (NaNs last; complex ones by real
part, then imaginary part, values with NaN parts last, as numpy orders them).  indices, inverse
indices and counts are int32 (wgarray's default index dtype).
"""
from __future__ import annotations

from typing import NamedTuple

from .. import dtypes as _dt
from .._array import Array
from ..alloc.mirror import Mirror
from ..kernels import compact as _compact, rows as _rows, scan as _scan, sort as _sort, unique as _uk
from ..ops import core
from ..ops.elementwise import elementwise
from ..ops.indexing import getitem
from ..ops.shape import reshape

__all__ = ["unique_all", "unique_counts", "unique_inverse", "unique_values"]


class UniqueAllResult(NamedTuple):
    values: Array
    indices: Array
    inverse_indices: Array
    counts: Array


class UniqueCountsResult(NamedTuple):
    values: Array
    counts: Array


class UniqueInverseResult(NamedTuple):
    values: Array
    inverse_indices: Array


def _unique(x, indices: bool, inverse: bool, counts: bool):
    x = core.as_array(x)
    dev = core.common_device([x])
    flat = reshape(x, (-1,))
    n = flat.size
    if n == 0:
        empty = core.new_array((0,), x.dtype, dev)
        idx = core.new_array((0,), _dt.int32, dev)
        return empty, idx, core.new_array(x.shape, _dt.int32, dev), core.new_array((0,), _dt.int32, dev)
    if x.dtype.kind == "c":
        s, perm = _lexsorted(flat, dev)
    else:
        s = core.new_array((n,), x.dtype, dev)
        perm = core.new_array((n,), _dt.int32, dev) if (indices or inverse) else None
        _sort.run(dev, flat, 0, False, s, perm)
    flags = Mirror(_dt.uint32, n, dev)
    _uk.flags(dev, s, flags)
    pos = Mirror(_dt.uint32, n + 1, dev)
    _scan.run(dev, "sum", flags.buffer(), _dt.uint32, "convert", _rows.line(n, 1), 1, n,
              pos.buffer_for_write(whole=True), _dt.uint32, _rows.line(n + 1, 1), 1)
    count = _compact.read_u32(dev, pos, n)
    values = core.new_array((count,), x.dtype, dev)
    first = core.new_array((count,), _dt.int32, dev) if indices else None
    inv = core.new_array(x.shape, _dt.int32, dev) if inverse else None
    starts = Mirror(_dt.uint32, count, dev) if counts else None
    _uk.scatter(dev, s, pos, count, perm, values, starts, first, inv)
    cnt = None
    if counts:
        cnt = core.new_array((count,), _dt.int32, dev)
        _uk.counts(dev, starts, n, count, cnt)
    return values, first, inv, cnt


def _lexsorted(flat: Array, dev) -> tuple[Array, Array]:
    """A complex 1-D array in numpy's sort order for complex numbers, and the permutation doing it: values
    without NaN parts by (real, imag), then those with only a NaN imaginary part (by real), then those with only
    a NaN real part (by imag), then NaN + NaN j.  Three stable sorts on the device: by the imaginary part, by the
    real part, by that NaN class.  The sort keys hold -0.0 equal to 0.0, so equal values (under ==) end up
    adjacent, which is all grouping needs; stability keeps each group's elements in input order (first
    occurrence first)."""
    n = flat.size
    re, im = elementwise("real", flat), elementwise("imag", flat)
    perm = None
    for key in (im, re, core.astype(elementwise("isnan", re), _dt.uint8, copy=True) * 2
                + core.astype(elementwise("isnan", im), _dt.uint8, copy=True)):
        p = core.new_array((n,), _dt.int32, dev)
        _sort.run(dev, key if perm is None else getitem(key, (perm,)), 0, False, None, p)
        perm = p if perm is None else getitem(perm, (p,))
    assert perm is not None
    return getitem(flat, (perm,)), perm


def unique_all(x, /) -> UniqueAllResult:
    """Unique values, the index of each one's first occurrence, every element's unique index, and the counts."""
    return UniqueAllResult(*_unique(x, True, True, True))


def unique_counts(x, /) -> UniqueCountsResult:
    values, _, _, counts = _unique(x, False, False, True)
    return UniqueCountsResult(values, counts)


def unique_inverse(x, /) -> UniqueInverseResult:
    values, _, inverse, _ = _unique(x, False, True, False)
    return UniqueInverseResult(values, inverse)


def unique_values(x, /) -> Array:
    return _unique(x, False, False, False)[0]
