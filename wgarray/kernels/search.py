"""searchsorted: a binary search per element in WGSL (``shaders/searchsorted.wgsl``) over sort keys, so the
order is the one ``sort`` produces (NaNs last, -0.0 == 0.0)."""
from __future__ import annotations

import math

from ..dtypes import DType
from . import launch, layout, rows, sort as _sort, source
from .layout import ViewLike


def searchsorted(device, x1: ViewLike, x2: ViewLike, cdt: DType, right: bool, out: ViewLike) -> None:
    """out (int32, contiguous, x2's shape) = insertion points of x2's values into the sorted 1-D ``x1``, both
    compared as ``cdt``."""
    n = math.prod(x2.shape)
    if n == 0:
        return
    _, _, (x2_rows,) = rows.split(x2.shape, range(len(x2.shape)), [(x2.offset, x2.strides)])
    key = ("searchsorted", x1.dtype.name, x2.dtype.name, cdt.name)
    kernel = launch.compile(device, key, lambda: _build(x1.dtype, x2.dtype, cdt))
    params = layout.Params().u32(n, x1.shape[0], int(right), 0)
    params.raw(layout.pack("<iiII", x1.offset, x1.strides[0] if x1.shape[0] > 1 else 0, 0, 0), 4)
    x2_rows.pack(params)
    buffers = [x1.mirror.buffer(), x2.mirror.buffer(), out.mirror.buffer_for_write(whole=True)]
    launch.dispatch(device, kernel, buffers, params.bytes(), threads=n)


def _build(d1: DType, d2: DType, cdt: DType) -> launch.Kernel:
    bindings = (launch.read("x1", f"array<{d1.wgsl}>"), launch.read("x2", f"array<{d2.wgsl}>"),
                launch.write("out", "array<i32>"))
    k1 = _sort.key_expr(cdt, source.convert(d1, cdt, source.load_expr(d1, "x1[u32(p.x1_off + i32(mid) * p.x1_st)]")))
    k2 = _sort.key_expr(cdt, source.convert(d2, cdt, source.load_expr(d2, "x2[x2_at(0u, i)]")))
    return launch.Kernel("searchsorted.wgsl", bindings, dict(
        HELPERS=source.helpers([d1, d2, cdt]), KEYFNS=_sort.key_functions([cdt]), ROWS_STRUCT=rows.wgsl_struct(),
        ROWS_X2=rows.wgsl_functions("x2", "p.x2"), KEY1=k1, KEY2=k2))
