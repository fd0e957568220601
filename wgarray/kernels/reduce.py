"""Launch reductions of the table over any axes of a strided view, in as many passes as the size needs."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import dtypes as dt
from ..alloc.mirror import Mirror
from ..dtypes import DType
from . import launch, layout, source
from .layout import MAXD, WORKGROUP, ViewLike
from .rtable import RedOp, accumulator

_PER_GROUP = WORKGROUP * 8  # a workgroup reduces at least this many elements before splitting a row
# Tunables of the first pass (benchmarks/sum_tune.py times them against torch.sum on a GPU; plans key on both):
# TARGET_GROUPS: workgroups a reduction aims at over all its rows (enough to fill a large GPU: an H200 keeps 8
# workgroups of 256 on each of its 132 SMs, 1056 at once); UNROLL: vec4 loads each invocation issues before using
# any (memory-level parallelism; the summation order does not depend on it: each of the 4 lane accumulators still
# adds its elements in index order).  From the H200 sweeps of 2026-12-02 (`python -m benchmarks.gpu_tune`, two runs): on
# a 2^26 float32 sum 264 x 4, 528 x 2, 1056 x 4 and 264 x 8 are within noise of each other (3490-3565 GB/s, 0.89-0.91x
# torch; 2048 x 4 gave 2245-3490); 1056 (8 an SM) keeps 4x the threads of 264 for reductions whose elements cost
# more than a load (strided, broadcast, arg ops), which are latency-bound on a GPU.
TARGET_GROUPS = 1056
UNROLL = 4
_MAX_PLANS = 4096  # launch plans a device keeps (as in elementwise.py)
_SHORT_ROW = 64  # rows this short, WORKGROUP or more of them: one invocation a row (a workgroup a row idles its
# lanes and pays a barrier tree per row: 21 s for sum(axis=1) of 200,000 x 10 on lavapipe, 1,170x an add)


class _Partial:
    """A contiguous [n_out, nchunks] temporary (values, and indices for arg ops)."""

    def __init__(self, device, acc: DType, n: int, arg: bool) -> None:
        self.values = Mirror(acc, n, device)
        self.index = Mirror(dt.uint32, n, device) if arg else None


def _identity(op: RedOp, acc: DType) -> str:
    if op.literal is not None:
        return op.literal
    if op.identity in ("false", "true"):
        return op.identity
    if op.identity in ("zero", "one"):
        return source.literal(acc, 0 if op.identity == "zero" else 1)
    low = op.identity == "lowest"
    if acc.kind == "f":
        return source.literal(acc, -math.inf if low else math.inf)
    info = np.iinfo(acc.numpy)
    return source.literal(acc, info.min if low else info.max)


def _wins(op: RedOp, acc: DType) -> str:
    if op.order is None:
        return "    return true;"
    cmp = ">" if op.order == "max" else "<"
    lines = []
    if acc.kind == "f":
        t = acc.wgsl
        lines += [f"    if (wg_isnan_{t}(b)) {{ return wg_isnan_{t}(v) && vi < bi; }}",
                  f"    if (wg_isnan_{t}(v)) {{ return true; }}"]
    lines.append(f"    return v {cmp} b || (v == b && vi < bi);")
    return "\n".join(lines)


@dataclass(frozen=True, eq=False)
class Map:
    """The map of a fused map-reduce: the first pass reduces ``wg_map(o, j)`` (row o, element j of the [kept,
    reduced] view of ``shape``), a WGSL function over several inputs (``kernels/fused.map_function``), instead of
    one source view.  The reduction sees what the eager chain would have stored, a contiguous array of ``dtype``,
    and reduces it in the same order; each input is addressed through its own strides (over ``shape``) and offset,
    packed after the pass's own parameters (then ``scalars``: bytes that vary per call)."""

    key: tuple  # identifies the function (its program and bindings)
    dtype: DType
    function: str
    members: str  # parameter-block members the function reads
    bindings: tuple  # its input bindings (launch.Binding)
    buffers: tuple  # their buffers, for this call
    strides: tuple[tuple[int, ...], ...]  # per input, broadcast to shape
    offsets: tuple[int, ...]
    scalars: bytes = b""
    helpers: tuple = ()  # dtypes whose helper functions the map calls

    @property
    def mirror(self):  # a Map stands where a view would: ``_window`` asks for a mirror of one binding at most
        return None


@dataclass(frozen=True)
class _Pass:
    kernel: tuple  # from launch.compile
    params: bytes
    grid: tuple[int, int, int]
    temp: int  # elements of the partials this pass writes (0: it writes the output)


def _chunks(m: int, n_out: int) -> int:
    """Workgroups a pass gives each of ``n_out`` rows of ``m`` elements (each writes one partial)."""
    return max(1, min(math.ceil(m / _PER_GROUP), math.ceil(TARGET_GROUPS / max(n_out, 1))))


def fits(device, x: ViewLike, n_out: int) -> bool:
    """Whether ``run`` can reduce ``x`` into ``n_out`` outputs: the elements of ``x`` lie within one binding window
    and the outputs (and partials) within one binding.  Otherwise the caller splits the reduction."""
    limits = device.properties.limits
    binding = limits.max_storage_buffer_binding_size
    partials = n_out * _chunks(math.prod(x.shape) // max(n_out, 1), n_out)
    if max(n_out, partials) * 8 > binding:  # outputs or first-pass partials (at most 8 bytes each)
        return False
    window = _window(x, limits)
    return window is None or window[1] <= binding


def addressable(x: ViewLike, axes: tuple[int, ...]) -> bool:
    """Whether the kept and the reduced dimensions of ``x`` each merge into at most MAXD (else the caller copies
    the input into rows first)."""
    keep = [d for d in range(len(x.shape)) if d not in axes]
    oshape, _ = layout.collapse([x.shape[d] for d in keep], [[x.strides[d] for d in keep]])
    ishape, _ = layout.collapse([x.shape[d] for d in axes], [[x.strides[d] for d in axes]])
    return len(oshape) <= MAXD and len(ishape) <= MAXD


def _window(x: ViewLike, limits):
    """The (byte offset, byte size) window ``x``'s elements need when its buffer is beyond one binding, else None."""
    if x.mirror is None:  # the contiguous view a fused map stands for (its inputs fit one binding each)
        return None
    isz = x.dtype.device_itemsize
    if x.mirror.size * isz <= limits.max_storage_buffer_binding_size:
        return None
    lo, hi = layout.span(x.shape, x.strides, 0, math.prod(x.shape))
    return layout.window(lo + x.offset, hi + x.offset, isz, layout.reach(x.mirror.size * isz),
                         layout.window_align(limits))


def run(device, op: RedOp, x: ViewLike, axes: tuple[int, ...], out: ViewLike, mapped: Map | None = None) -> None:
    """Reduce ``x`` over ``axes`` into the fresh contiguous view ``out`` (its shape: the kept dimensions).  ``x``
    may lie in a buffer beyond one binding when ``fits`` says so: the first pass then binds its window.  With
    ``mapped``, ``x`` is the contiguous view (no mirror) of ``mapped``'s values that the first pass computes."""
    window = _window(x, device.properties.limits)
    offset = x.offset - (window[0] // x.dtype.device_itemsize if window else 0)
    key = ("reduce", op.name, x.dtype, x.shape, x.strides, offset, axes, out.dtype, TARGET_GROUPS, UNROLL)
    if mapped is not None:
        key += (mapped.key, mapped.strides, mapped.offsets)
    passes = device.plans.get(key)
    if passes is None:
        if len(device.plans) >= _MAX_PLANS:  # shapes and offsets vary without end in some loops: stay bounded
            device.plans.clear()
        passes = device.plans[key] = _plan(device, op, x, offset, axes, out, mapped)
    if mapped is None:
        src, ranges = [x.mirror.buffer()], [window]
    else:
        src, ranges = list(mapped.buffers), [None] * len(mapped.buffers)
    first = True
    keep_alive = []  # partials live until the passes that read them are recorded
    for p in passes:
        if p.temp:
            acc = accumulator(op, x.dtype, out.dtype if not (op.order or op.logical or op.arg) else None)
            part = _Partial(device, acc, p.temp, op.arg)
            keep_alive.append(part)
            dst = [part.values.buffer_for_write(whole=True)]
            if op.arg:
                dst.append(part.index.buffer_for_write(whole=True))
        else:
            dst = [out.mirror.buffer_for_write(whole=True)]
        params = p.params + mapped.scalars if first and mapped is not None else p.params
        launch.dispatch(device, p.kernel, src + dst, params, grid=p.grid, ranges=ranges + [None] * len(dst))
        src, ranges, first = dst, [None] * len(dst), False


def _plan(device, op: RedOp, x: ViewLike, offset: int, axes: tuple[int, ...], out: ViewLike,
          mapped: Map | None = None) -> list[_Pass]:
    """The passes of a reduction: pipelines, parameters and grids (everything but the buffers)."""
    keep = [d for d in range(len(x.shape)) if d not in axes]
    every = [x.strides] + (list(mapped.strides) if mapped is not None else [])
    oshape, ostr = layout.collapse([x.shape[d] for d in keep], [[st[d] for d in keep] for st in every])
    ishape, istr = layout.collapse([x.shape[d] for d in axes], [[st[d] for d in axes] for st in every])
    if len(oshape) > MAXD or len(ishape) > MAXD:
        raise ValueError(f"wgarray kernels address at most {MAXD} non-mergeable dimensions")
    vec_ok = True
    if mapped is not None:  # the order of the eager reduction of the stored chain: its vec4 loop where it had one
        _, (vo_st,) = layout.collapse([x.shape[d] for d in keep], [[x.strides[d] for d in keep]])
        vi_sh, (vi_st,) = layout.collapse([x.shape[d] for d in axes], [[x.strides[d] for d in axes]])
        vec_ok = len(vi_sh) <= 1 and tuple(vi_st) == (1,) and all(st % 4 == 0 for st in vo_st)
    n_out = math.prod(oshape)
    m = math.prod(ishape)
    count = m  # elements per output (a mean divides by it); m becomes the partial count in later passes
    acc = accumulator(op, x.dtype, out.dtype if not (op.order or op.logical or op.arg) else None)
    src_dtype, nsrc, in_off, partial_in = x.dtype, 1, offset, False
    shape_strides = (oshape, ostr[0], ishape, istr[0])
    passes = []
    rows = m <= _SHORT_ROW and n_out >= WORKGROUP
    while True:
        nchunks = 1 if rows else _chunks(m, n_out)
        chunk = math.ceil(math.ceil(m / nchunks) / WORKGROUP) * WORKGROUP
        nchunks = math.ceil(m / chunk)
        final = nchunks == 1
        ndst = 1 if final or not op.arg else 2
        o_sh, o_st, i_sh, i_st = shape_strides
        inner_lin = len(i_sh) <= 1
        # vec4 loads when rows are contiguous, 4-aligned and a multiple of 4 long
        fmap = mapped if not partial_in else None
        if fmap is not None:
            vec = vec_ok and src_dtype.device_itemsize == 4 and m % 4 == 0
        else:
            vec = (not partial_in and inner_lin and tuple(i_st) == (1,) and src_dtype.device_itemsize == 4
                   and m % 4 == 0 and in_off % 4 == 0 and all(st % 4 == 0 for st in o_st))
        vec = vec and not rows
        key = ("reduce", op.name, src_dtype.name, acc.name, out.dtype.name if final else None, partial_in, final,
               inner_lin, vec, None if fmap is None else fmap.key, rows, UNROLL if vec else None)
        kernel = launch.compile(device, key, lambda: _build(op, src_dtype, acc, out.dtype, partial_in, final,
                                                            inner_lin, nsrc, ndst, vec, fmap, rows))
        params = (layout.Params().u32(n_out, m, nchunks, chunk, len(o_sh), len(i_sh), in_off, count)
                  .vec_array(o_sh, False).vec_array(o_st, True).vec_array(i_sh, False).vec_array(i_st, True))
        if fmap is not None:
            params.vec_array([o % (1 << 32) for o in fmap.offsets], False, length=16)
            for k in range(len(fmap.strides)):
                params.vec_array(ostr[1 + k], True)
            for k in range(len(fmap.strides)):
                params.vec_array(istr[1 + k], True)
            if not fmap.strides:
                params.vec_array((), True).vec_array((), True)
        wg = launch.grid_for(device, threads=n_out) if rows else launch.grid_for(device, workgroups=n_out * nchunks)
        passes.append(_Pass(kernel, params.bytes(), wg, 0 if final else n_out * nchunks))
        if final:
            return passes
        # next pass: reduce the contiguous [n_out, nchunks] partials
        src_dtype, nsrc, in_off, partial_in = acc, ndst, 0, True
        m = nchunks
        shape_strides = ((n_out,) if n_out > 1 else (), (nchunks,) if n_out > 1 else (), (nchunks,), (1,))


def _build(op: RedOp, src: DType, acc: DType, res: DType, partial_in: bool, final: bool, inner_lin: bool,
           nsrc: int, ndst: int, vec: bool, fmap: Map | None = None, rows: bool = False) -> launch.Kernel:
    T = source.ctype(acc)
    elem = f"vec4<{src.wgsl}>" if vec else src.wgsl
    bind = list(fmap.bindings) if fmap is not None else [launch.read("src", f"array<{elem}>")]
    if nsrc == 2:
        bind.append(launch.read("src_idx", "array<u32>"))
    bind.append(launch.write("dst", f"array<{res.wgsl if final else acc.wgsl}>"))
    if ndst == 2:
        bind.append(launch.write("dst_idx", "array<u32>"))
    if inner_lin:
        inner = "        let idx = u32(base + i32(j) * p.ist[0][0]);"
    else:
        inner = "\n".join([
            "        var r2 = j;",
            "        var off = base;",
            "        for (var d: i32 = i32(p.indim) - 1; d >= 0; d = d - 1) {",
            "            let e = p.ishape[d / 4][d % 4];",
            "            off = off + i32(r2 % e) * p.ist[d / 4][d % 4];",
            "            r2 = r2 / e;",
            "        }",
            "        let idx = u32(off);"])
    if partial_in:
        load = source.load_expr(acc, "src[idx]")
        vindex = "src_idx[idx]" if nsrc == 2 else "j"
    elif fmap is not None:
        load = source.convert(src, acc, source.load_expr(src, "wg_map(o, j)"))
        vindex = "j"
        inner = ""
    else:
        load = source.convert(src, acc, source.load_expr(src, "src[idx]"))
        vindex = "j"

    def comb(a: str, b: str) -> str:
        combine = op.combine_for(acc)
        return combine.format(a=a, b=b, T=T) if combine else b

    if final:
        if op.arg:
            write = "        dst[g] = i32(wi);"
        else:
            r = "r"
            if op.mean:  # a complex mean divides each part by the count
                part = acc.component.wgsl
                r = (f"vec2<{part}>(wg_divide_{part}(r.x, {part}(p.count)), wg_divide_{part}(r.y, {part}(p.count)))"
                     if acc.kind == "c" else f"wg_divide_{acc.wgsl}(r, {T}(p.count))")
            write = f"        dst[g] = {source.store_expr(res, source.convert(acc, res, r))};"
    else:
        write = f"        dst[g] = {source.store_expr(acc, 'r')};"
        if ndst == 2:
            write += "\n        dst_idx[g] = wi;"
    if vec:
        loop = _vec_loop(op, src, acc, comb, fmap is not None, UNROLL)
    else:
        first, step = ("start", "1u") if rows else ("start + lid", f"{WORKGROUP}u")
        loop = "\n".join([
            f"    for (var j = {first}; j < stop; j = j + {step}) {{", inner,
            f"        let v: {T} = {load};", f"        let vi: u32 = {vindex};",
            "        if (wins(v, vi, acc, ai)) {", f"            acc = {comb('acc', 'v')};", "            ai = vi;",
            "        }", "    }"])
    if rows:
        shared, row = "", _ROWS_ROW
        finish = f"    let r: {T} = acc;\n    let wi = ai;\n{write}"
    else:
        shared, row = _TREE_SHARED.format(acc=acc.wgsl, wg=WORKGROUP), _TREE_ROW
        finish = _TREE_FINISH.format(lo=source.load_expr(acc, "sv[lid]"), hi=source.load_expr(acc, "sv[lid + s]"),
                                     comb=source.store_expr(acc, comb("a", "b")), acc=T,
                                     store=source.store_expr(acc, "acc"), first=source.load_expr(acc, "sv[0]"),
                                     write=write, wg=WORKGROUP)
    helpers = [src, acc, res] + (list(fmap.helpers) if fmap is not None else [])
    return launch.Kernel("reduce.wgsl", tuple(bind), dict(
        MAP_PARAMS=fmap.members if fmap is not None else "", MAP_FN=fmap.function if fmap is not None else "",
        HELPERS=source.helpers(helpers), CODE=op.code, ACC=T, WINS=_wins(op, acc), IDENTITY=_identity(op, acc),
        LOOP=loop, SHARED=shared, ROW=row, FINISH=finish))


# The two forms of the reduction kernel (shaders/reduce.wgsl's ROW, SHARED and FINISH): a workgroup reduces a chunk
# of a row through a tree in workgroup memory, or ("rows") one invocation reduces a whole short row in order.
_TREE_SHARED = "var<workgroup> sv: array<{acc}, {wg}>;\nvar<workgroup> si: array<u32, {wg}>;"
_TREE_ROW = """    let g = group_index;
    if (g >= p.n_out * p.nchunks) {
        return;
    }
    let o = g / p.nchunks;
    let c = g % p.nchunks;
    let start = c * p.chunk;
    let stop = min(p.m, start + p.chunk);"""
_ROWS_ROW = """    let g = thread_index;
    if (g >= p.n_out) {
        return;
    }
    let o = g;
    let start = 0u;
    let stop = p.m;"""
_TREE_FINISH = """    sv[lid] = {store};
    si[lid] = ai;
    workgroupBarrier();
    for (var s = {wg}u / 2u; s > 0u; s = s >> 1u) {{
        if (lid < s) {{
            let a: {acc} = {lo};
            let b: {acc} = {hi};
            if (wins(b, si[lid + s], a, si[lid])) {{
                sv[lid] = {comb};
                si[lid] = si[lid + s];
            }}
        }}
        workgroupBarrier();
    }}
    if (lid == 0u) {{
        let r: {acc} = {first};
        let wi = si[0];
{write}
    }}"""


def _vec_loop(op: RedOp, src: DType, acc: DType, comb, mapped: bool = False, unroll: int = 4) -> str:
    """The accumulation loop over vec4 loads.  Combining ops keep four independent accumulators and issue
    ``unroll`` loads before using any (memory-level parallelism), merging the accumulators at the end; order ops keep the
    winner and its index.  ``mapped``: the same order over ``wg_map`` values (a fused map-reduce reduces exactly
    as the eager reduction of the stored chain would)."""
    T = source.ctype(acc)
    W = WORKGROUP
    head = ["    let vbase = u32(base) / 4u;", "    let vstop = stop / 4u;", "    var j = start / 4u + lid;"]

    def load(k: int, q: str, lane: int) -> str:  # element `lane` of the k-th vec4 of this step
        if mapped:
            raw = f"wg_map(o, (j + {k * W}u) * 4u + {lane}u)"
        else:
            raw = f"{q}[{lane}]"
        return source.convert(src, acc, source.load_expr(src, raw))

    def fetch(k: int, name: str) -> list[str]:
        return [] if mapped else [f"        let {name} = src[vbase + j + {k * W}u];"]

    if op.order is None:
        U = unroll
        vals = [load(k, f"q{k}", lane) for k in range(U) for lane in range(4)]
        lines = head + [f"    var acc0: {T} = acc;"] + [f"    var acc{k}: {T} = {_identity(op, acc)};" for k in (1, 2, 3)]
        lines.append(f"    for (; j + {(U - 1) * W}u < vstop; j = j + {U * W}u) {{")
        for k in range(U):
            lines += fetch(k, f"q{k}")
        for k in range(U):
            for lane in range(4):
                lines.append(f"        acc{lane} = {comb(f'acc{lane}', vals[4 * k + lane])};")
        lines.append("    }")
        lines.append(f"    for (; j < vstop; j = j + {W}u) {{")
        lines += fetch(0, "q0")
        lines += [f"        acc{lane} = {comb(f'acc{lane}', vals[lane])};" for lane in range(4)]
        lines += ["    }", f"    acc = {comb(comb('acc0', 'acc1'), comb('acc2', 'acc3'))};", "    ai = 0u;"]
        return "\n".join(lines)
    vals = [load(0, "q", k) for k in range(4)]
    lines = head + [f"    for (; j < vstop; j = j + {W}u) {{"] + fetch(0, "q")
    for k in range(4):
        lines += [f"        let v{k}: {T} = {vals[k]};",
                  f"        if (wins(v{k}, j * 4u + {k}u, acc, ai)) {{ acc = v{k}; ai = j * 4u + {k}u; }}"]
    lines.append("    }")
    return "\n".join(lines)
