"""Launch the tiled matmul over strided operands (transposed views need no copy)."""
from __future__ import annotations

import math

from .. import dtypes as dt
from ..dtypes import DType
from . import layout, source

TM = TN = 64
_R = 4  # outputs per invocation along each axis


def compute_dtype(res: DType) -> DType:
    if res.kind == "b":
        return dt.uint32
    if res is dt.float16:
        return dt.float32
    return res


def run(device, a, b, out, batch: int, a_bs: int, b_bs: int) -> None:
    """out[z] = a[z] @ b[z] for z < batch; a and b are 2-D views (their last two dims) plus batch strides."""
    M, K = a.shape[-2:]
    N = b.shape[-1]
    if M * N * batch == 0:
        return
    res = out.dtype
    cdt = compute_dtype(res)
    if batch > device.properties.limits.max_compute_workgroups_per_dimension:
        raise ValueError(f"batch of {batch} matrices exceeds the device's grid limit")
    bufs = [a.mirror.buffer(), b.mirror.buffer()]
    bufs.append(out.mirror.buffer_for_write(whole=True))
    key = ("matmul", a.dtype.name, b.dtype.name, res.name)
    pipe, bgl = device.pipeline(key, lambda: _build(a.dtype, b.dtype, res, cdt))
    params = layout.Params().u32(M, N, K, batch, a.offset, b.offset, out.offset, 0)
    params.raw(_i32s(a.strides[-2], a.strides[-1], a_bs, 0), 4)
    params.raw(_i32s(b.strides[-2], b.strides[-1], b_bs, 0), 4)
    group = device.stream.bind_group(bgl, bufs)
    device.stream.dispatch(pipe, group, bufs, params.bytes(), (math.ceil(N / TN), math.ceil(M / TM), batch))


def _i32s(*v: int) -> bytes:
    import struct
    return struct.pack(f"<{len(v)}i", *v)


def _build(adt: DType, bdt: DType, res: DType, cdt: DType):
    T = source.ctype(cdt)
    declare = "\n".join(f"    var c{i}{j}: {T} = {T}(0);" for i in range(_R) for j in range(_R))
    inner = []
    for i in range(_R):
        inner.append(f"            let a{i} = As[kk][lid.y * {_R}u + {i}u];")
    for j in range(_R):
        inner.append(f"            let b{j} = Bs[kk][lid.x * {_R}u + {j}u];")
    for i in range(_R):
        for j in range(_R):
            inner.append(f"            c{i}{j} = c{i}{j} + a{i} * b{j};")
    write = ["    let cbase = p.c_off + bz * p.M * p.N;"]
    for i in range(_R):
        for j in range(_R):
            store = source.store_expr(res, source.convert(cdt, res, f"c{i}{j}"))
            write.append(f"    {{ let r = row0 + lid.y * {_R}u + {i}u; let q = col0 + lid.x * {_R}u + {j}u;"
                         f" if (r < p.M && q < p.N) {{ c[cbase + r * p.N + q] = {store}; }} }}")
    src = source.render(
        "matmul.wgsl", HELPERS=source.helpers([adt, bdt, res, cdt]), T=T, TM=TM, TN=TN, A_ST=adt.wgsl,
        B_ST=bdt.wgsl, C_ST=res.wgsl, LOAD_A=source.convert(adt, cdt, source.load_expr(adt, "a[u32(idx)]")),
        LOAD_B=source.convert(bdt, cdt, source.load_expr(bdt, "b[u32(idx)]")), DECLARE=declare,
        INNER="\n".join(inner), WRITE="\n".join(write))
    return src, [True, True, False]
