"""Stream compaction of nonzero elements: their positions come from the scan (``scan.positions``), only the
count is read back, and ``shaders/nonzero.wgsl`` scatters each nonzero element's coordinates."""
from __future__ import annotations

import math

from .. import dtypes as dt
from ..alloc.mirror import Mirror
from . import launch, layout, rows, scan as _scan, source
from .layout import MAXD, ViewLike


def read_u32(device, mirror: Mirror, index: int) -> int:
    """Element ``index`` of a uint32 device buffer, downloading 4 bytes (not the whole buffer)."""
    one = Mirror(dt.uint32, 1, device)
    device.stream.copy(mirror.buffer(), index * 4, one.buffer_for_write(whole=True), 0, 4)
    return int(one.host()[0])


def count_nonzero(device, x: ViewLike) -> tuple[Mirror, int]:
    """(exclusive positions of the nonzero elements of ``x`` plus their count at the end, the count)."""
    n = math.prod(x.shape)
    pos = Mirror(dt.uint32, n + 1, device)
    _scan.positions(device, x, pos)
    return pos, read_u32(device, pos, n)


def nonzero(device, x: ViewLike, pos: Mirror, count: int, out: ViewLike) -> None:
    """out (int32, contiguous [ndim, count]) = coordinates of the nonzero elements of ``x``, in C order."""
    n = math.prod(x.shape)
    if n == 0 or count == 0:
        return
    if len(x.shape) > MAXD:
        raise ValueError(f"nonzero supports at most {MAXD} dimensions")
    _, _, (src_rows,) = rows.split(x.shape, range(len(x.shape)), [(x.offset, x.strides)])
    key = ("nonzero", x.dtype.name)
    kernel = launch.compile(device, key, lambda: _build(x.dtype))
    params = layout.Params().u32(n, len(x.shape), count, 0).vec_array(x.shape, False)
    src_rows.pack(params)
    buffers = [x.mirror.buffer(), pos.buffer(), out.mirror.buffer_for_write(whole=True)]
    launch.dispatch(device, kernel, buffers, params.bytes(), threads=n)


def _build(xdt) -> launch.Kernel:
    bindings = (launch.read("src", f"array<{xdt.wgsl}>"), launch.read("pos", "array<u32>"),
                launch.write("out", "array<i32>"))
    test = source.convert(xdt, dt.bool, source.load_expr(xdt, "src[src_at(0u, i)]"))
    return launch.Kernel("nonzero.wgsl", bindings, dict(
        HELPERS=source.helpers([xdt]), ROWS_STRUCT=rows.wgsl_struct(), ROWS_SRC=rows.wgsl_functions("src", "p.src"),
        TEST=test))
