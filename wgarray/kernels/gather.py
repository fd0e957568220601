"""Gather and scatter through integer index arrays: the kernel behind numpy-style advanced indexing, ``take``
and ``take_along_axis`` (``shaders/gather.wgsl``).

The caller describes the indexing result's shape, the target's offset and strides in that shape (0 along the
dimensions the index arrays produce), and per index array its strides in that shape, the stride and length of
the target axis it selects along, and whether it must be bounds-checked (user indices) or is known to be in
range (coordinates from ``nonzero``).  Host-side work is shape bookkeeping only.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from ..dtypes import DType
from . import launch, layout, source
from .layout import MAXD, ViewLike


@dataclass(frozen=True)
class Index:
    view: ViewLike  # the index array
    strides: tuple[int, ...]  # its strides in the result shape
    axis_stride: int  # stride (in the target) of the axis it selects along
    extent: int  # length of that axis
    checked: bool  # validate bounds (user input) or trust (nonzero coordinates)


def max_indices(device) -> int:
    """Index arrays one launch can bind (three bindings go to the target, the other operand and the flag)."""
    return min(8, device.properties.limits.max_storage_buffers_per_shader_stage - 3)


def run(device, mode: str, shape: Sequence[int], indices: Sequence[Index], target: ViewLike | None = None,
        target_strides: Sequence[int] = (), other: ViewLike | None = None, other_strides: Sequence[int] = (),
        flag=None, flag_base: int = 0) -> None:
    """mode "gather": other (fresh, contiguous, of ``shape``) = target[indices]; "scatter": target[indices] =
    other (broadcast by ``other_strides``); "check": only validate ``indices`` over ``shape``.  ``flag`` is a
    uint32 mirror raised to flag_base + 1 + k when index array k holds an out-of-bounds value."""
    n = math.prod(shape)
    if n == 0:
        return
    if len(indices) > max_indices(device):
        raise IndexError(f"too many index arrays ({len(indices)}) for one kernel on {device}")
    if mode == "gather":
        other_strides = layout.contiguous_strides(shape)
    walk = [list(target_strides) if target is not None else [0] * len(shape),
            list(other_strides) if other is not None else [0] * len(shape)] + [list(ix.strides) for ix in indices]
    cshape, cstr = layout.collapse(list(shape), walk)
    if len(cshape) > MAXD:
        raise ValueError(f"wgarray kernels address at most {MAXD} non-mergeable dimensions")
    checked = tuple(ix.checked for ix in indices)
    idx_dtypes = tuple(ix.view.dtype for ix in indices)
    tdt = target.dtype if target is not None else None
    odt = other.dtype if other is not None else None
    with_flag = any(checked) and flag is not None
    key = ("gather", mode, tdt and tdt.name, odt and odt.name, tuple(d.name for d in idx_dtypes), checked,
           with_flag)
    kernel = launch.compile(device, key, lambda: _build(mode, tdt, odt, idx_dtypes, checked, with_flag))
    offs = [target.offset if target is not None else 0, other.offset if other is not None else 0]
    offs += [ix.view.offset for ix in indices]
    params = layout.Params().u32(n, len(cshape), flag_base, 0).vec_array(cshape, False)
    params.vec_array(offs, True, length=16)
    for s in cstr:
        params.vec_array(s, True)
    params.vec_array([ix.axis_stride for ix in indices], True)
    params.vec_array([ix.extent for ix in indices], True)
    buffers = []
    if mode == "gather":
        buffers.append(target.mirror.buffer())
    elif mode == "scatter":
        buffers.append(other.mirror.buffer())
    buffers += [ix.view.mirror.buffer() for ix in indices]
    if mode == "gather":
        buffers.append(other.mirror.buffer_for_write(whole=True))
    elif mode == "scatter":
        buffers.append(target.mirror.buffer_for_write(whole=False))
    if with_flag:
        buffers.append(flag.buffer_for_write(whole=False))
    launch.dispatch(device, kernel, buffers, params.bytes(), threads=n)


def _index_code(k: int, d: DType, checked: bool, with_flag: bool) -> str:
    t = d.wgsl
    ext = f"p.extent[{k // 4}][{k % 4}]"
    lines = [f"    var q{k} = idx{k}[u32(j{k})];"]
    if checked:
        if d.kind == "i":
            ext_t = f"{t}({ext})"
            lines += [f"    if (q{k} < {t}(0)) {{", f"        q{k} = q{k} + {ext_t};", "    }",
                      f"    if (q{k} < {t}(0) || q{k} >= {ext_t}) {{"]
        else:
            ext_t = f"{t}(u32({ext}))"
            lines.append(f"    if (q{k} >= {ext_t}) {{")
        if with_flag:
            lines.append(f"        atomicMax(&flag[0], p.flag_base + {k + 1}u);")
        lines += [f"        q{k} = {t}(0);", "    }"]
    lines.append(f"    xa = xa + i32(q{k}) * p.axis_st[{k // 4}][{k % 4}];")
    return "\n".join(lines)


def _build(mode: str, tdt: DType | None, odt: DType | None, idx_dtypes, checked, with_flag: bool) -> launch.Kernel:
    bind = []
    if mode == "gather":
        bind.append(launch.read("x", f"array<{tdt.wgsl}>"))
    elif mode == "scatter":
        bind.append(launch.read("vals", f"array<{odt.wgsl}>"))
    bind += [launch.read(f"idx{k}", f"array<{d.wgsl}>") for k, d in enumerate(idx_dtypes)]
    if mode == "gather":
        bind.append(launch.write("out", f"array<{odt.wgsl}>"))
    elif mode == "scatter":
        bind.append(launch.write("x", f"array<{tdt.wgsl}>"))
    if with_flag:
        bind.append(launch.write("flag", "array<atomic<u32>>"))
    nk = len(idx_dtypes)
    decl = ["    var xa: i32 = p.offs[0][0];", "    var va: i32 = p.offs[0][1];"]
    walk = ["        xa = xa + c * p.st[0][d / 4][d % 4];", "        va = va + c * p.st[1][d / 4][d % 4];"]
    for k in range(nk):
        w = k + 2
        decl.append(f"    var j{k}: i32 = p.offs[{w // 4}][{w % 4}];")
        walk.append(f"        j{k} = j{k} + c * p.st[{w}][d / 4][d % 4];")
    index = "\n".join(_index_code(k, d, c, with_flag) for k, (d, c) in enumerate(zip(idx_dtypes, checked)))
    if mode == "gather":
        body = "    out[i] = x[u32(xa)];"
    elif mode == "scatter":
        val = source.convert(odt, tdt, source.load_expr(odt, "vals[u32(va)]"))
        body = f"    x[u32(xa)] = {source.store_expr(tdt, val)};"
    else:
        body = ""
    dtypes = [d for d in (tdt, odt) if d is not None] + list(idx_dtypes)
    return launch.Kernel("gather.wgsl", tuple(bind), dict(HELPERS=source.helpers(dtypes), NWALK=nk + 2,
                                                        DECL="\n".join(decl), WALK="\n".join(walk), INDEX=index,
                                                        BODY=body))
