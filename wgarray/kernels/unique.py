"""The device half of the set functions: group boundaries of a sorted 1-D array, a scatter of each group's
value, start, first occurrence and the inverse indices, and group sizes (``shaders/unique_*.wgsl``).  The scan
between the boundary flags and the scatter is ``scan.run``; only the number of groups is read back."""
from __future__ import annotations

import math

from ..alloc.mirror import Mirror
from ..dtypes import DType
from . import layout, source
from .layout import ViewLike

WG = layout.WORKGROUP


def _dispatch(device, pipe, bgl, buffers, params: bytes, threads: int) -> None:
    grid = layout.grid(math.ceil(threads / WG), device.properties.limits.max_compute_workgroups_per_dimension)
    device.stream.dispatch(pipe, device.stream.bind_group(bgl, buffers), buffers, params, grid)


def flags(device, s: ViewLike, out: Mirror) -> None:
    """out[i] (uint32) = 1 where the contiguous sorted ``s`` starts a new group."""
    n = s.shape[0]
    d = s.dtype
    pipe, bgl = device.pipeline(("unique_flags", d.name), lambda: (source.render(
        "unique_flags.wgsl", HELPERS=source.helpers([d]), ST=d.wgsl, WG=WG,
        LOAD_A=source.load_expr(d, "s[i]"), LOAD_B=source.load_expr(d, "s[i - 1u]")), [True, False]))
    _dispatch(device, pipe, bgl, [s.mirror.buffer(), out.buffer_for_write(whole=True)],
              layout.Params().u32(n, 0, 0, 0).bytes(), n)


def scatter(device, s: ViewLike, pos: Mirror, count: int, perm: ViewLike | None, values: ViewLike,
            starts: Mirror | None, first: ViewLike | None, inverse: ViewLike | None) -> None:
    """Per group: values (s's dtype), starts (uint32), first occurrences (int32, needs ``perm``); per element:
    inverse indices (int32, needs ``perm``).  All outputs contiguous."""
    n = s.shape[0]
    want = (starts is not None, first is not None, inverse is not None)
    key = ("unique_scatter", s.dtype.name, want)
    pipe, bgl = device.pipeline(key, lambda: _build_scatter(s.dtype, *want))
    buffers = [s.mirror.buffer(), pos.buffer()]
    if perm is not None and (want[1] or want[2]):
        buffers.append(perm.mirror.buffer())
    buffers.append(values.mirror.buffer_for_write(whole=True))
    if starts is not None:
        buffers.append(starts.buffer_for_write(whole=True))
    for o in (first, inverse):
        if o is not None:
            buffers.append(o.mirror.buffer_for_write(whole=True))
    _dispatch(device, pipe, bgl, buffers, layout.Params().u32(n, count, 0, 0).bytes(), n)


def _build_scatter(d: DType, starts: bool, first: bool, inverse: bool):
    bind, ro = [], []

    def add(decl: str, readonly: bool) -> None:
        bind.append(f"@group(0) @binding({len(bind)}) {decl}")
        ro.append(readonly)

    add(f"var<storage, read> s: array<{d.wgsl}>;", True)
    add("var<storage, read> pos: array<u32>;", True)
    if first or inverse:
        add("var<storage, read> perm: array<i32>;", True)
    add(f"var<storage, read_write> values: array<{d.wgsl}>;", False)
    every, head = [], ["        values[u] = s[i];"]
    if starts:
        add("var<storage, read_write> starts: array<u32>;", False)
        head.append("        starts[u] = i;")
    if first:
        add("var<storage, read_write> first: array<i32>;", False)
        head.append("        first[u] = perm[i];")
    if inverse:
        add("var<storage, read_write> inverse: array<i32>;", False)
        every.append("    inverse[u32(perm[i])] = i32(pos[i + 1u]) - 1;  // the group holding element i")
    text = source.render("unique_scatter.wgsl", BINDINGS="\n".join(bind), WG=WG, EVERY="\n".join(every),
                         FIRST="\n".join(head))
    return text, ro


def counts(device, starts: Mirror, n: int, count: int, out: ViewLike) -> None:
    """out[u] (int32) = size of group u."""
    pipe, bgl = device.pipeline(("unique_counts",), lambda: (source.render("unique_counts.wgsl", WG=WG),
                                                             [True, False]))
    _dispatch(device, pipe, bgl, [starts.buffer(), out.mirror.buffer_for_write(whole=True)],
              layout.Params().u32(n, count, 0, 0).bytes(), count)
