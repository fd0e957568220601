"""Launch matrix products over strided operands (transposed views need no copy).

4-byte dtypes use the register-tiled kernel (``matmul_tiled.wgsl``): 128x128 tiles with 8x8 outputs a thread when
there are enough tiles to fill the device, else 64x64 tiles with 4x4.  8-byte dtypes use the simpler
``matmul.wgsl`` (64x64 tiles, 4x4 scalar accumulators).
"""
from __future__ import annotations

import math

from .. import dtypes as dt
from ..dtypes import DType
from . import layout, source

_BIG_TILE_MIN_GROUPS = 256  # below this many 128x128 tiles, 64x64 tiles keep more of the device busy


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
    a_rs, a_ks = a.strides[-2:]
    b_ks, b_cs = b.strides[-2:]
    bufs = [a.mirror.buffer(), b.mirror.buffer()]
    bufs.append(out.mirror.buffer_for_write(whole=True))
    params = layout.Params().u32(M, N, K, batch, a.offset, b.offset, out.offset, 0)
    params.raw(layout.pack("<4i", a_rs, a_ks, a_bs, 0), 4).raw(layout.pack("<4i", b_ks, b_cs, b_bs, 0), 4)
    if cdt.device_itemsize == 4:
        big = math.ceil(M / 128) * math.ceil(N / 128) * batch >= _BIG_TILE_MIN_GROUPS
        tile = 128 if big else 64

        def aligned(*vals: int) -> bool:
            return all(v % 4 == 0 for v in vals)

        amode = ("k4" if a_ks == 1 and aligned(a_rs, a_bs, a.offset, K) else
                 "m4" if a_rs == 1 and aligned(a_ks, a_bs, a.offset, M) else "s")
        bmode = ("n4" if b_cs == 1 and aligned(b_ks, b_bs, b.offset, N) else
                 "k4" if b_ks == 1 and aligned(b_cs, b_bs, b.offset, K) else "s")
        if a.dtype.wgsl != source.ctype(cdt) and cdt.kind != "u":
            amode = "s"
        if b.dtype.wgsl != source.ctype(cdt) and cdt.kind != "u":
            bmode = "s"
        cvec = N % 4 == 0 and out.offset % 4 == 0
        key = ("matmul_tiled", a.dtype.name, b.dtype.name, res.name, tile, amode, bmode, cvec)
        pipe, bgl = device.pipeline(key, lambda: _build_tiled(a.dtype, b.dtype, res, cdt, tile, amode, bmode, cvec))
        grid = (math.ceil(N / tile), math.ceil(M / tile), batch)
    else:
        key = ("matmul", a.dtype.name, b.dtype.name, res.name)
        pipe, bgl = device.pipeline(key, lambda: _build(a.dtype, b.dtype, res, cdt))
        grid = (math.ceil(N / 64), math.ceil(M / 64), batch)
    group = device.stream.bind_group(bgl, bufs)
    device.stream.dispatch(pipe, group, bufs, params.bytes(), grid)


def _common(T: str, a_elem: str, b_elem: str, c_elem: str, load_a: str, load_b: str) -> str:
    return source.render("matmul_common.wgsl", T=T, A_ELEM=a_elem, B_ELEM=b_elem, C_ELEM=c_elem, LOAD_A=load_a,
                         LOAD_B=load_b)


def _load(d: DType, cdt: DType, raw: str) -> str:
    return source.convert(d, cdt, source.load_expr(d, raw))


def _build_tiled(adt: DType, bdt: DType, res: DType, cdt: DType, tile: int, amode: str, bmode: str, cvec: bool):
    T = source.ctype(cdt)
    BM = BN = tile
    BK = 8 if tile == 128 else 16
    R = tile // 16  # outputs per thread along each axis (8 or 4)
    H = R // 4  # vec4 accumulators per row (2 or 1)
    BM4, BN4 = BM // 4, BN // 4
    uint = cdt.kind == "u" or cdt.kind == "b"
    # accumulators acc{row}_{h}: row r of the thread's block, h-th vec4 of its columns
    declare = "\n".join(f"    var acc{r}_{h}: vec4<{T}> = vec4<{T}>({T}(0));" for r in range(R) for h in range(H))
    loads = []
    # A tile: BM x BK into As[k * BM4 + m / 4][m % 4]
    if amode == "k4":
        per = BK // 4
        loads += [f"        {{ let r = tid / {per}u; let kq = (tid % {per}u) * 4u;",
                  "          var v = vec4<%s>(%s(0));" % (T, T),
                  "          if (row0 + r < p.M && k0 + kq < p.K) {",
                  "            v = vec4<%s>(a[(u32(i32(p.a_off) + i32(bz) * p.a_bs + i32(row0 + r) * p.a_rs) + k0 + kq) / 4u]);" % T,
                  "          }"]
        loads += [f"          As[(kq + {i}u) * {BM4}u + r / 4u][r % 4u] = v[{i}];" for i in range(4)]
        loads.append("        }")
    elif amode == "m4":
        loads += [f"        {{ let kk = tid / {BM4}u; let mq = (tid % {BM4}u) * 4u;",
                  "          var v = vec4<%s>(%s(0));" % (T, T),
                  "          if (row0 + mq < p.M && k0 + kk < p.K) {",
                  "            v = vec4<%s>(a[(u32(i32(p.a_off) + i32(bz) * p.a_bs + i32(k0 + kk) * p.a_ks) + row0 + mq) / 4u]);" % T,
                  "          }",
                  f"          As[kk * {BM4}u + mq / 4u] = v;", "        }"]
    else:
        for e in range(BM * BK // 256):
            loads.append(f"        {{ let q = tid + {e * 256}u; let kk = q / {BM}u; let m = q % {BM}u;"
                         f" As[kk * {BM4}u + m / 4u][m % 4u] = a_at(bz, row0 + m, k0 + kk); }}")
    # B tile: BK x BN into Bs[k * BN4 + n / 4][n % 4]
    if bmode == "n4":
        loads += [f"        {{ let kk = tid / {BN4}u; let nq = (tid % {BN4}u) * 4u;",
                  "          var v = vec4<%s>(%s(0));" % (T, T),
                  "          if (k0 + kk < p.K && col0 + nq < p.N) {",
                  "            v = vec4<%s>(b[(u32(i32(p.b_off) + i32(bz) * p.b_bs + i32(k0 + kk) * p.b_ks) + col0 + nq) / 4u]);" % T,
                  "          }",
                  f"          Bs[kk * {BN4}u + nq / 4u] = v;", "        }"]
    elif bmode == "k4":
        per = BK // 4
        loads += [f"        {{ let n = tid / {per}u; let kq = (tid % {per}u) * 4u;",
                  "          var v = vec4<%s>(%s(0));" % (T, T),
                  "          if (col0 + n < p.N && k0 + kq < p.K) {",
                  "            v = vec4<%s>(b[(u32(i32(p.b_off) + i32(bz) * p.b_bs + i32(col0 + n) * p.b_cs) + k0 + kq) / 4u]);" % T,
                  "          }"]
        loads += [f"          Bs[(kq + {i}u) * {BN4}u + n / 4u][n % 4u] = v[{i}];" for i in range(4)]
        loads.append("        }")
    else:
        for e in range(BN * BK // 256):
            loads.append(f"        {{ let q = tid + {e * 256}u; let kk = q / {BN}u; let n = q % {BN}u;"
                         f" Bs[kk * {BN4}u + n / 4u][n % 4u] = b_at(bz, k0 + kk, col0 + n); }}")
    # inner product over the staged slice, fully unrolled
    comp = []
    for kk in range(BK):
        for h in range(H):
            comp.append(f"        let a{kk}_{h} = As[{kk * BM4}u + {h * 16}u + ty];")
            comp.append(f"        let b{kk}_{h} = Bs[{kk * BN4}u + {h * 16}u + tx];")
        for hr in range(H):
            for i in range(4):
                r = hr * 4 + i
                for h in range(H):
                    comp.append(f"        acc{r}_{h} = acc{r}_{h} + a{kk}_{hr}[{i}] * b{kk}_{h};")
    # write the block: rows (hr*64 + ty*4 + i), columns (h*64 + tx*4 .. +3)
    write = ["    let cbase = p.c_off + bz * p.M * p.N;"]
    for hr in range(H):
        for i in range(4):
            r = hr * 4 + i
            for h in range(H):
                row = f"row0 + {hr * 64}u + ty * 4u + {i}u"
                col = f"col0 + {h * 64}u + tx * 4u"
                comps = [source.store_expr(res, source.convert(cdt, res, f"acc{r}_{h}[{j}]")) for j in range(4)]
                if cvec:
                    write.append(f"    {{ let rr = {row}; let cc = {col}; if (rr < p.M && cc < p.N) {{"
                                 f" c[(cbase + rr * p.N + cc) / 4u] = vec4<{res.wgsl}>({', '.join(comps)}); }} }}")
                else:
                    for j in range(4):
                        write.append(f"    {{ let rr = {row}; let cc = {col} + {j}u; if (rr < p.M && cc < p.N) {{"
                                     f" c[cbase + rr * p.N + cc] = {comps[j]}; }} }}")
    a_elem = f"vec4<{adt.wgsl}>" if amode != "s" else adt.wgsl
    b_elem = f"vec4<{bdt.wgsl}>" if bmode != "s" else bdt.wgsl
    c_elem = f"vec4<{res.wgsl}>" if cvec else res.wgsl
    common = _common(T, a_elem, b_elem, c_elem,
                     _load(adt, cdt, "a[u32(idx)]") if amode == "s" else f"{T}(0)",
                     _load(bdt, cdt, "b[u32(idx)]") if bmode == "s" else f"{T}(0)")
    src = source.render(
        "matmul_tiled.wgsl", HELPERS=source.helpers([adt, bdt, res, cdt]), T=T, BM=BM, BN=BN, BK=BK, R=R, RC=R,
        COMMON=common, AS_LEN=BK * BM4, BS_LEN=BK * BN4, DECLARE=declare, LOAD_TILES="\n".join(loads), COMPUTE="\n".join(comp), WRITE="\n".join(write))
    return src, [True, True, False]


def _build(adt: DType, bdt: DType, res: DType, cdt: DType):
    """The generic kernel: 64x64 tiles, 4x4 outputs an invocation, scalar strided loads (any dtype)."""
    T = source.ctype(cdt)
    R = 4
    declare = "\n".join(f"    var c{i}{j}: {T} = {T}(0);" for i in range(R) for j in range(R))
    inner = []
    for i in range(R):
        inner.append(f"            let a{i} = As[kk][lid.y * {R}u + {i}u];")
    for j in range(R):
        inner.append(f"            let b{j} = Bs[kk][lid.x * {R}u + {j}u];")
    for i in range(R):
        for j in range(R):
            inner.append(f"            c{i}{j} = c{i}{j} + a{i} * b{j};")
    write = ["    let cbase = p.c_off + bz * p.M * p.N;"]
    for i in range(R):
        for j in range(R):
            store = source.store_expr(res, source.convert(cdt, res, f"c{i}{j}"))
            write.append(f"    {{ let r = row0 + lid.y * {R}u + {i}u; let q = col0 + lid.x * {R}u + {j}u;"
                         f" if (r < p.M && q < p.N) {{ c[cbase + r * p.N + q] = {store}; }} }}")
    common = _common(T, adt.wgsl, bdt.wgsl, res.wgsl, _load(adt, cdt, "a[u32(idx)]"), _load(bdt, cdt, "b[u32(idx)]"))
    src = source.render(
        "matmul.wgsl", HELPERS=source.helpers([adt, bdt, res, cdt]), T=T, TM=64, TN=64, COMMON=common,
        DECLARE=declare, INNER="\n".join(inner), WRITE="\n".join(write))
    return src, [True, True, False]
