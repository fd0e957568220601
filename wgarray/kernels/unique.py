"""The device half of the set functions: group boundaries of a sorted 1-D array, a scatter of each group's
value, start, first occurrence and the inverse indices, and group sizes (``shaders/unique_*.wgsl``).  The scan
between the boundary flags and the scatter is ``scan.run``; only the number of groups is read back."""
from __future__ import annotations

from ..alloc.mirror import Mirror
from ..dtypes import DType
from . import launch, layout, source
from .layout import ViewLike


def flags(device, s: ViewLike, out: Mirror) -> None:
    """out[i] (uint32) = 1 where the contiguous sorted ``s`` starts a new group (complex: where either part
    differs from its predecessor's)."""
    n = s.shape[0]
    d = s.dtype
    kernel = launch.compile(device, ("unique_flags", d.name), lambda: launch.Kernel(
        "unique_flags.wgsl", (launch.read("s", f"array<{d.wgsl}>"), launch.write("flags", "array<u32>")),
        dict(HELPERS=source.helpers([d]), LOAD_A=source.load_expr(d, "s[i]"),
             LOAD_B=source.load_expr(d, "s[i - 1u]"), SAME="all(a == b)" if d.kind == "c" else "a == b")))
    launch.dispatch(device, kernel, [s.mirror.buffer(), out.buffer_for_write(whole=True)],
                    layout.Params().u32(n, 0, 0, 0).bytes(), threads=n)


def scatter(device, s: ViewLike, pos: Mirror, count: int, perm: ViewLike | None, values: ViewLike,
            starts: Mirror | None, first: ViewLike | None, inverse: ViewLike | None) -> None:
    """Per group: values (s's dtype), starts (uint32), first occurrences (int32, needs ``perm``); per element:
    inverse indices (int32, needs ``perm``).  All outputs contiguous."""
    n = s.shape[0]
    want = (starts is not None, first is not None, inverse is not None)
    key = ("unique_scatter", s.dtype.name, want)
    kernel = launch.compile(device, key, lambda: _build_scatter(s.dtype, *want))
    buffers = [s.mirror.buffer(), pos.buffer()]
    if perm is not None and (want[1] or want[2]):
        buffers.append(perm.mirror.buffer())
    buffers.append(values.mirror.buffer_for_write(whole=True))
    if starts is not None:
        buffers.append(starts.buffer_for_write(whole=True))
    for o in (first, inverse):
        if o is not None:
            buffers.append(o.mirror.buffer_for_write(whole=True))
    launch.dispatch(device, kernel, buffers, layout.Params().u32(n, count, 0, 0).bytes(), threads=n)


def _build_scatter(d: DType, starts: bool, first: bool, inverse: bool) -> launch.Kernel:
    bind = [launch.read("s", f"array<{d.wgsl}>"), launch.read("pos", "array<u32>")]
    if first or inverse:
        bind.append(launch.read("perm", "array<i32>"))
    bind.append(launch.write("values", f"array<{d.wgsl}>"))
    every, head = [], ["        values[u] = s[i];"]
    if starts:
        bind.append(launch.write("starts", "array<u32>"))
        head.append("        starts[u] = i;")
    if first:
        bind.append(launch.write("first", "array<i32>"))
        head.append("        first[u] = perm[i];")
    if inverse:
        bind.append(launch.write("inverse", "array<i32>"))
        every.append("    inverse[u32(perm[i])] = i32(pos[i + 1u]) - 1;  // the group holding element i")
    return launch.Kernel("unique_scatter.wgsl", tuple(bind), dict(EVERY="\n".join(every), FIRST="\n".join(head)))


def counts(device, starts: Mirror, n: int, count: int, out: ViewLike) -> None:
    """out[u] (int32) = size of group u."""
    kernel = launch.compile(device, ("unique_counts",), lambda: launch.Kernel(
        "unique_counts.wgsl", (launch.read("starts", "array<u32>"), launch.write("counts", "array<i32>"))))
    launch.dispatch(device, kernel, [starts.buffer(), out.mirror.buffer_for_write(whole=True)],
                    layout.Params().u32(n, count, 0, 0).bytes(), threads=count)
