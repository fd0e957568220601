"""Issue 13's GPU target: the FFT's default plans and every candidate knob, timed against torch.fft in one process.

`python -m benchmarks.fftgpu_sweep` (a GPU with torch: 1-D 2^24, 2^22, 2^20 and 2-D 4096^2, 1024^2 complex64,
the issue's sizes first; under 150 s, a budget guard skips what is left after ``--budget`` seconds)
`python -m benchmarks.fftgpu_sweep --small` (lavapipe: 2^12, 2^14 and 64^2, 128^2, the GPU capacity emulated by
``capacity_limit`` so the multi-pass plans run)

A variant is ``style[+wgN][+r16][+cN][+wN][+tN][+p][+k][+v][+rwN][+pad][@r=knobs][@s=knobs][:what]``: the plan
style (``kernels.fft.plan_style``: "auto" = the default, "wide" the 256-byte-run plans measured before; "bare": the
default plans' passes with their loads and stores alone, no arithmetic, ``kernels.fft.bare_passes``: a pass's
ceiling at its own access pattern, its answer not checked) and the tiled kernels' options
(``kernels.fft.tile_options``, on top of ``kernels.fft.TILE_DEFAULTS``: "auto" is what a plain call runs): wgN
invocations a workgroup, r16 radix-16 sub-passes, cN tiles of at most N columns (more, smaller workgroups), wN
multi-column tiles of at least N columns where they fit (``min_columns``: 4096^2's columns 64x32 with w32), f
a tile's first sub-pass straight from its loads, f2 also its last straight to the stores (``fused``:
one or two workgroup-memory round trips fewer, R_s loads in flight an invocation; a half row's first sub-pass on
the rows an invocation holds after the split; the default: f2 in transforms of at least 2^18 elements, fmN: of N,
nof: off), tN a
later pass's four-step twiddles looked up every N rows of an invocation (products between), p the sub-pass twiddles
as powers of one lookup a butterfly, k the sizes and strides as shader constants (no column guard where the tiles
divide the columns), v vec4 loads and stores (two columns an invocation), rwN N invocations for one-column tiles
alone (4096^2's rows), pad the one-column tiles' padding, h a contiguous row's one pass in half the workgroup
memory (a radix-2 split as it loads, two half-length transforms: 16 KiB at 4096; h4 a quarter: radix 4, 8 KiB);
"no" before r16/p/k/v/pad/h/f turns that knob off, c0/t0 are the plan's columns / no twiddle groups; @r=knobs
applies knobs to a contiguous row's one pass alone (``tile_options(rows=...)``, 4096^2's rows), @s=knobs to a
strided axis's passes (``strided=...``, its columns), each on top of that axis's ``TILE_DEFAULTS`` entry.
The variant "copy" times ``Array.copy`` of the input (the same bytes read and written once, contiguously: the
ceiling of any pass).  ":kernel" times the kernels alone (``kernels.fft.transform`` on raw buffers, no op layer):
its difference to the plain spec is the host cost of ``wg.fft`` a call; ":rows" / ":cols" (2-D cases) time the one
axis's transform alone (``wg.fft.fft`` along -1 / 0) and ":passes" each tiled pass alone (its dispatch repeated:
time and GB/s), to tell which passes the time goes to. One line a variant: the best time over synchronised samples
(``inner`` back-to-back calls and one synchronize each, warm), "issue" (the host's time to record one call,
unsynchronised: near the total, the call is host-bound), the plan's bytes over the time, the relative L2 error
against torch.fft's answer (numpy.fft's without torch) and the speed over torch.fft's (>= 0.7: issue 13's target;
for ":rows"/":cols" the ratio is to torch's whole fft2). A variant whose plans and options equal an earlier one's is
not timed again.
"""
from __future__ import annotations

import argparse
import contextlib
import re
import time

import numpy as np

import wgarray as wg
from wgarray.alloc.mirror import Mirror
from wgarray.kernels import fft as K, launch

from .fft_gpu import _best, _torch

# phase 6: the default (fused=2 from fused_min = 2^18 elements since the fifth H100 sweep; rows as half-length
# tiles with vec4 stores, columns in two passes of the plan's tiles) against the default before (+nof), fused=1
# (+f), fused on one axis alone (@r=nof: the columns, +nof@r=f: the rows), the ceilings ("copy": Array.copy of
# the array; "bare": each pass's loads and stores at its own tile geometry, no arithmetic,
# ``kernels.fft.bare_passes``) and the per-pass times, then the knobs the fifth sweep ranked near the default
# (2^22's w32, 4096^2's columns without twiddle powers / with twiddle groups of 8 / 128 invocations, its rows at
# 128 or 512 invocations)
VARIANTS = (
    "auto", "auto+nof", "auto:passes", "auto+nof:passes", "copy", "bare", "bare:passes", "auto+f", "auto@r=nof",
    "auto+nof@r=f", "auto+w32", "auto+nof+w32", "auto@s=nop", "auto@s=t8", "auto@s=nop+t8", "auto@s=wg128",
    "auto@r=rw128", "auto@r=rw512", "auto@s=nop@r=rw128", "auto@s=w32", "auto+nof@s=nop")
_FLAGS = {"r16": "radix16", "p": "powers", "k": "fixed", "v": "vec4", "pad": "pad", "h": "half", "f": "fused"}
_NUMS = {"wg": "workgroup", "rw": "row_workgroup", "c": "columns", "t": "twgroup", "h": "half", "w": "min_columns",
         "f": "fused", "fm": "fused_min"}


def _knobs(tokens, flags=None, nums=None) -> dict:
    """``tile_options`` keywords of a variant's knob tokens: wgN, rwN, cN, tN (0 allowed: the plan's / off), r16,
    p, k, v, pad, h, and each flag's "no" form (nor16, nop, nok, nov, nopad, noh: off)."""
    flags, nums = flags or _FLAGS, nums or _NUMS
    out = {}
    for tok in tokens:
        neg = tok.startswith("no") and tok[2:] in flags
        if tok in flags or neg:
            out[flags[tok[2:] if neg else tok]] = not neg
            continue
        m = re.fullmatch(rf"({'|'.join(nums)})(\d+)", tok)
        if not m:
            raise ValueError(f"variant knob {tok!r}")
        out[nums[m[1]]] = int(m[2])
    return out


@contextlib.contextmanager
def variant(spec: str):
    """The plan style and tile options of a variant's spec: ``style[+knob...][@r=knob+...][@s=knob+...][:what]``
    (@r: the rows' one pass alone, ``tile_options(rows=...)``; @s: a strided axis's passes, ``strided=...``, each
    on top of ``TILE_DEFAULTS["rows"]`` / ``["strided"]``; a knob not named: ``kernels.fft.TILE_DEFAULTS``'s;
    style "bare": the default plans' passes without arithmetic, ``kernels.fft.bare_passes``)."""
    head, *axes = spec.split(":")[0].split("@")
    parts = head.split("+")
    opts = _knobs(parts[1:])
    for ax in axes:
        key, _, body = ax.partition("=")
        axis = {"r": "rows", "s": "strided"}[key]  # on top of the measured per-axis defaults
        opts[axis] = {**K.TILE_DEFAULTS[axis], **_knobs(body.split("+") if body else [])}
    bare = parts[0] == "bare"
    with K.plan_style("auto" if bare else parts[0]), K.tile_options(**opts), \
            K.bare_passes() if bare else contextlib.nullcontext():
        yield


def _axes(shape, which: str = "") -> list[tuple[int, int, int]]:
    """(rows, n, inner) of each axis's transform: 1-D the row; 2-D the rows, then the columns (``which``: "rows"
    or "cols", that one alone)."""
    if len(shape) == 1:
        return [(1, shape[0], 1)]
    both = [(shape[0], shape[1], 1), (1, shape[0], shape[1])]
    return both[:1] if which == "rows" else both[1:] if which == "cols" else both


def _describe(dev, shape, cap: int, which: str = "", effective=None) -> tuple[str, int]:
    """The plans of a case's axes (tiles as the kernels take them, sub-pass radices) and their bytes moved;
    ``effective`` (a list) receives each axis's knobs in force."""
    size = int(np.prod(shape))
    text, traffic = [], 0
    effective = [] if effective is None else effective
    for _, n, inner in _axes(shape, which):
        p = K.plan(n, inner, cap, 8)
        traffic += p.traffic(size, 8)
        with K.pass_options(inner, len(p.tiles)):  # the axis's own knobs (rows / strided)
            sub = "/".join(",".join(map(str, K._subplan(L))) for L, _ in p.tiles)
            s = 4 if K._half == 4 else 2
            if K._half and inner == 1 and len(p.tiles) == 1 and n % s == 0 and n >= 32 * s:  # half: s then n / s's
                sub = f"{s}|" + ",".join(map(str, K._subplan(n // s)))
            # the tiles' columns as the kernels take them (capped by the axis's columns and by tile_options)
            cols = [K.tile_columns(L, C, n // L * inner, cap) for L, C in p.tiles]
            knobs = {k: v for k, v in K._current().items() if k not in ("rows", "strided")}
            if not any(C == 1 for C in cols):
                knobs.pop("row_workgroup")
            if knobs["fixed"]:
                knobs["fixed"] = size >= knobs["fixed"]
            effective.append(knobs)
        what = p.describe() if p.n2 else "tiles [" + " ".join(f"{L}x{C}" for (L, _), C in zip(p.tiles, cols)) + "]"
        text.append(f"{p.passes}p {what} radices {sub}")
    return "; ".join(text), traffic


def _reference(torch, x: np.ndarray, axis: int) -> np.ndarray:
    """The 1-D transform of x along ``axis`` (torch.fft's where there is torch, else numpy's)."""
    if torch is None:
        return np.fft.fft(x.astype(np.complex128), axis=axis)
    return torch.fft.fft(torch.from_numpy(x).cuda(), dim=axis).cpu().numpy().astype(np.complex128)


def _kernel_call(dev, xa, shape):
    """The default's kernels alone: transform() over raw buffers (2-D: rows into a scratch, columns into out)."""
    cd = xa.dtype
    size = int(np.prod(shape))
    keep = (Mirror(cd, size, dev), Mirror(cd, size, dev))  # held by the closure: a dropped mirror's buffer is reused
    a, b = (m.buffer_for_write(whole=True) for m in keep)
    src = xa.mirror.buffer()
    axes = _axes(shape)

    def call():
        assert keep
        cur = src
        for i, (rows, n, inner) in enumerate(axes):
            out = a if i % 2 == 0 else b
            K.transform(dev, cd, cur, out, rows, n, False, 1.0, inner)
            cur = out
    return call


def _pass_times(dev, xa, shape, cap: int, inner: int, samples: int) -> list[tuple[str, float]]:
    """Each tiled pass of the variant's plans timed alone (its recorded dispatch repeated, src -> a scratch):
    (tile, seconds) per pass, the axes in order (a four-step plan's row pass and transpose are not listed)."""
    cd = xa.dtype
    size = int(np.prod(shape))
    keep = Mirror(cd, size, dev)
    out, src = keep.buffer_for_write(whole=True), xa.mirror.buffer()
    times = []
    for rows, n, inner_ in _axes(shape):
        p = K.plan(n, inner_, cap, 8)
        if p.n2:
            n, inner_ = n // p.n2, p.n2
        steps = K._steps(dev, cd, rows, n, inner_, list(p.tiles), False, 1.0, None)
        for (L, _), (kernel, tables, params, grid, work) in zip(p.tiles, steps):
            def one():
                launch.dispatch(dev, kernel, [src, out, *tables], params, grid=grid, work=work)
            times.append((f"{L}", _best(one, dev.synchronize, inner, samples)))
    return times


def _issue(f, sync, inner: int) -> float:
    """The host's time per call to record ``inner`` calls (no synchronisation inside)."""
    sync()
    t0 = time.perf_counter()
    for _ in range(inner):
        f()
    dt = time.perf_counter() - t0
    sync()
    return dt / inner


def _line(spec: str, tw: float, ti: float, traffic: int, err: float, tt, plans: str) -> str:
    """One variant's line: its time, issue time, bytes over time, error and speed over torch's."""
    line = (f"  {spec:28s} {tw * 1e3:8.3f} ms  issue {ti * 1e3:6.3f} ms  {traffic / tw / 1e9:7.1f} GB/s"
            f"  rel err {err:.1e}")
    if tt:
        line += f"  speed / torch {tt / tw:.2f}"
    return line + f"  [{plans}]"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", action="store_true", help="lavapipe sizes, the GPU's capacity emulated")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--cases", default="",
                    help="1-D lengths as log2 (< 64) and 2-D sides (>= 64), comma separated, in this order "
                         "(default 24,4096,20,1024,22; --small: 12,14,64,128)")
    ap.add_argument("--inner", type=int, default=10, help="calls a sample")
    ap.add_argument("--samples", type=int, default=5)
    ap.add_argument("--budget", type=float, default=135.0,
                    help="seconds; a case's variants past its share of it are skipped")
    a = ap.parse_args(argv)
    start = time.perf_counter()
    dev = wg.default_device()
    torch = _torch()
    spec = a.cases or ("12,14,64,128" if a.small else "24,4096,20,1024,22")
    cases = [(1 << v,) if v < 64 else (v, v) for v in map(int, spec.split(","))]
    cap = 64 if a.small else 0  # --small: 4096 = 64 x 64 in one-column tiles, as 2^24 = 4096 x 4096 at 48 KiB
    inner, samples = (min(a.inner, 3), min(a.samples, 3)) if a.small else (a.inner, a.samples)
    limit = K.capacity_limit(cap) if cap else contextlib.nullcontext()
    print(f"device: {dev.properties.name} ({dev.properties.backend}); workgroup memory "
          f"{dev.properties.limits.max_compute_workgroup_storage_size} B; invocations "
          f"{dev.properties.limits.max_compute_invocations_per_workgroup}; capacity "
          f"{cap or K.local_capacity(dev, 8)} complex64; torch: "
          f"{torch.cuda.get_device_name() if torch else 'none'}; tile defaults {K.TILE_DEFAULTS}", flush=True)
    rng = np.random.default_rng(0)
    with limit:
        for i, shape in enumerate(cases):
            # a case's share of the budget left: 1.4 x an even share while later cases wait (the variants are
            # ordered by promise, so a case cut short loses its least promising ones)
            now, left = time.perf_counter(), len(cases) - i
            until = now + (a.budget - (now - start)) / left * (1.4 if left > 1 else 1.0)
            label = f"fft 2^{shape[0].bit_length() - 1}" if len(shape) == 1 else f"fft2 {shape[0]}^2"
            x = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64)
            wgf = wg.fft.fft if len(shape) == 1 else wg.fft.fftn
            tt = None
            if torch is not None:
                t = torch.from_numpy(x).cuda()
                tf = torch.fft.fft if len(shape) == 1 else torch.fft.fft2
                want = tf(t).cpu().numpy().astype(np.complex128)
                tt = _best(lambda: tf(t), torch.cuda.synchronize, inner, samples)
                del t
            else:
                want = np.fft.fftn(x.astype(np.complex128))
            xa = wg.asarray(x)
            xa.mirror.buffer()
            dev.synchronize()
            print(f"{label} complex64 ({x.nbytes >> 20} MiB)" + (f": torch.fft {tt * 1e3:.3f} ms" if tt else ""),
                  flush=True)
            seen: dict[str, str] = {}
            whole: dict[str, float] = {}  # the whole transform's time of each plain variant (no ":what")
            ref: dict[int, np.ndarray] = {}  # the one-axis answers (":rows", ":cols"), when first asked
            for spec in a.variants.split(","):
                if time.perf_counter() > until:
                    print(f"  {spec:28s} skipped: past this case's share of the {a.budget:.0f} s budget", flush=True)
                    continue
                what = spec.partition(":")[2]
                if what in ("rows", "cols") and len(shape) == 1:
                    continue
                if spec == "copy":  # the ceiling: the array's bytes read and written once, contiguously
                    err = float(np.linalg.norm(xa.copy().numpy() - x) / np.linalg.norm(x))
                    tw, ti = _best(xa.copy, dev.synchronize, inner, samples), _issue(xa.copy, dev.synchronize, inner)
                    print(_line(spec, tw, ti, 2 * x.nbytes, err, tt, "plain copy: Array.copy"), flush=True)
                    continue
                with variant(spec):
                    knobs: list[dict] = []
                    plans, traffic = _describe(dev, shape, cap or K.local_capacity(dev, 8), what, knobs)
                    # the same plans (tiles as the kernels take them) and knobs in force on each axis: timed already
                    key = f"{plans} {knobs} {what} bare={K._bare}"
                    if key in seen:
                        print(f"  {spec:28s} the plans and options of {seen[key]}", flush=True)
                        continue
                    seen[key] = spec
                    if what == "passes":
                        try:
                            times = _pass_times(dev, xa, shape, cap or K.local_capacity(dev, 8), inner, samples)
                        except Exception as e:  # a variant the device refuses: report it, sweep on
                            print(f"  {spec:28s} failed: {type(e).__name__}: {str(e)[:200]}", flush=True)
                            continue
                        each = "  ".join(f"{L}: {t * 1e3:.3f} ms {2 * x.nbytes / t / 1e9:.0f} GB/s" for L, t in times)
                        print(f"  {spec:28s} each pass alone: {each}  [{plans}]", flush=True)
                        continue
                    if what == "kernel" or K._bare:  # (bare: no arithmetic, its answer is not the transform's)
                        f = _kernel_call(dev, xa, shape) if what == "kernel" else lambda: wgf(xa)
                        err = float("nan")
                    else:
                        axis = {"rows": -1, "cols": 0}.get(what)
                        if axis is not None and axis not in ref:
                            ref[axis] = _reference(torch, x, axis)

                        def f():
                            return wgf(xa) if axis is None else wg.fft.fft(xa, axis=axis)
                        try:
                            got = f().numpy()
                        except Exception as e:  # a variant the device refuses: report it, sweep on
                            print(f"  {spec:28s} failed: {type(e).__name__}: {str(e)[:200]}", flush=True)
                            continue
                        goal = want if axis is None else ref[axis]
                        err = float(np.linalg.norm(got - goal) / np.linalg.norm(goal))
                    try:
                        tw = _best(f, dev.synchronize, inner, samples)
                        ti = _issue(f, dev.synchronize, inner)
                    except Exception as e:  # a variant the device refuses: report it, sweep on
                        print(f"  {spec:28s} failed: {type(e).__name__}: {str(e)[:200]}", flush=True)
                        continue
                print(_line(spec, tw, ti, traffic, err, tt, plans), flush=True)
                if not what and not spec.startswith("bare"):
                    whole[spec] = tw
            if whole:
                best = min(whole, key=whole.get)
                base = whole.get(next(iter(a.variants.split(","))), whole[best])
                print(f"  best {best}: {whole[best] * 1e3:.3f} ms, {base / whole[best]:.2f} x the first variant's speed"
                      + (f", {tt / whole[best]:.2f} x torch.fft's" if tt else ""), flush=True)
    print(f"total {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
