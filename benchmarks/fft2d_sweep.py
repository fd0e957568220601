"""Issue 13 / issue 17 row 4: the 2-D FFT (``wg.fft.fftn``) of complex64 arrays by default (the columns of a
power-of-two length >= 4096 in one register-held pass, ``kernels.fft.reg_options``: 64 elements an invocation) against
the tiled passes it replaced, the register variants around the default and torch.fft.fft2, in one process; and the
1-D rows (2^24-2^26) the same run, so a change of the default or of the pool shows at every size.

`python -m benchmarks.fft2d_sweep` (a GPU with torch: 4096^2, 2048^2, 4096x4050 (partial column tiles), 8192x4096,
16384x1024, 8192^2, 4096x64 and 4096x512 (narrow: few workgroups), 1-D 2^24, 2^25, 2^26; <= 150 s, a budget
guard skips what is left past a case's share of ``--budget`` seconds)
`python -m benchmarks.fft2d_sweep --small` (lavapipe: 512^2, 2048x256, 1-D 2^16, the register pass forced from 256)

A variant is one of:
  "auto[+gN][:what]"   the default (what a plain call runs); g: the register pass only from N workgroups
                       (``reg_options(min_groups=N)``)
  "tiled[:what]"       the default with the register pass off (the columns in the tiled passes: the default before)
  "reg[+cN][+eN][+rN][+nop][:what]"  the columns in one register-held pass from length 2048 (256 with --small), at
                       every longer length too (the default stops at ``max_length`` 4096):
                       tiles of N columns (c, default 4), N elements an invocation (e, default 64), stages of radix N
                       (r, default 16), g as for auto, nop: the twiddles looked up one a value instead of as
                       powers of one lookup
  "copy"               ``Array.copy`` of the input (one read and one write: the ceiling of one pass)
":cols" / ":rows" times the one axis's transform alone (``wg.fft.fft`` along 0 / -1; 2-D cases only).  Each line:
the best time over synchronised samples, bytes over time (copy), the relative L2 error against torch.fft's answer
(numpy's without torch), the speed over torch's whole transform (fft2 / fft; issue 13's target >= 0.7), the buffers
the timed calls created (0: every temporary came from the pool; a count there is a pool miss a call, ~7 ms at 256
MiB on the H100) and the column plan (register stages, columns, elements and invocations, exchange rounds; or the
tiled passes) or "n/a" where the variant does not apply.
"""
from __future__ import annotations

import argparse
import contextlib
import re
import time

import numpy as np

import wgarray as wg
from wgarray.kernels import fft as K

from .fft_gpu import _best, _torch

# phase 2 (after the H100 sweep of 859c91a set the defaults): at 4096^2 the default (reg, 64 an invocation) against
# the tiled passes it replaced and its neighbours (32 an invocation, radix 8, 16 an invocation); at 2048^2 that the
# tiled default still beats the register pass; partial column tiles (4050 columns); the long columns whose whole
# transform lost ~7 ms a call to the pool (8192x4096; 16384x1024, 8192^2 of the same kind); the 1-D rows.  Phase 3
# (the second H100 sweep, 7e4a6d7: the register pass lost at every column longer than 4096): the default stops at
# ``max_length`` 4096, so the long shapes time it (auto: the tiled passes) against "reg" (the register pass, the
# phase-2 default there).
CASES = {
    "4096x4096": ("auto", "tiled", "copy", "reg+e32", "reg+r8", "reg+e16", "auto:cols", "tiled:cols", "reg+e32:cols",
                  "auto:rows"),
    "2048x2048": ("auto", "reg+e16", "reg+e32", "reg", "auto:cols", "reg+e16:cols"),
    "4096x4050": ("auto", "tiled", "auto:cols", "tiled:cols"),
    "8192x4096": ("auto", "reg", "copy", "auto:cols", "reg:cols", "auto:rows"),
    "16384x1024": ("auto", "reg", "auto:cols", "reg:cols"),
    "8192x8192": ("auto", "reg", "auto:cols", "reg:cols"),
    "4096x64": ("auto:cols", "tiled:cols"),  # 16 workgroups of the register pass: where ``min_groups`` would start
    "4096x512": ("auto:cols", "tiled:cols"),  # 128
    "2^24": ("auto", "copy"),
    "2^25": ("auto",),
    "2^26": ("auto",),
}
SMALL = {"512x512": ("auto", "tiled", "copy", "reg", "reg+e16", "reg+e32:cols", "auto:cols", "auto:rows"),
         "2048x256": ("auto", "tiled", "reg", "reg+e32", "reg+c2+e16", "reg:cols", "tiled:cols"),
         "8192x64": ("auto", "reg"),
         "2^16": ("auto", "copy")}


def _reg_knobs(head: str) -> dict:
    out = {}
    for tok in head.split("+")[1:]:
        if tok == "nop":
            out["powers"] = False
            continue
        m = re.fullmatch(r"([cerg])(\d+)", tok)
        if not m:
            raise ValueError(f"register variant knob {tok!r}")
        out[{"c": "columns", "e": "per", "r": "radix", "g": "min_groups"}[m[1]]] = int(m[2])
    return out


@contextlib.contextmanager
def variant(spec: str, min_length: int):
    head = spec.split(":")[0]
    if head.startswith("reg"):
        ctx = K.reg_options(on=True, min_length=min_length, max_length=1 << 30, **_reg_knobs(head))
    elif head == "tiled":
        ctx = K.reg_options(on=False)
    elif head.startswith("auto+"):
        ctx = K.reg_options(**_reg_knobs(head))
    elif head in ("auto", "copy"):
        ctx = contextlib.nullcontext()
    else:
        raise ValueError(f"variant {spec!r}: auto, tiled, reg[+knobs] or copy")
    with ctx:
        yield


def _plan_text(dev, shape) -> str:
    """The column axis's plan under the options in force."""
    if len(shape) == 1:
        return "1-D: " + K.plan(shape[0], 1, K.local_capacity(dev, 8), 8).describe()
    rp = K.reg_choice(dev, 8, 1, shape[0], shape[1])
    if rp is None:
        return "columns: tiled passes " + K.plan(shape[0], shape[1], K.local_capacity(dev, 8), 8).describe()
    radices, C, E, G = rp
    return (f"columns in one register pass: stages {'x'.join(map(str, radices))}, {C} columns, {E} an invocation "
            f"({shape[0] // E * C} invocations), {G} exchange rounds")


def _shape(spec: str) -> tuple:
    if spec.startswith("2^"):
        return (1 << int(spec[2:]),)
    return tuple(map(int, spec.split("x")))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", action="store_true", help="lavapipe sizes")
    ap.add_argument("--variants", default="", help="comma separated, for every case (default: each case's own)")
    ap.add_argument("--cases", default="", help="RxC shapes or 2^k lengths, comma separated (default: "
                                                + ",".join(CASES) + "; --small: " + ",".join(SMALL) + ")")
    ap.add_argument("--inner", type=int, default=10, help="calls a sample")
    ap.add_argument("--samples", type=int, default=5)
    ap.add_argument("--budget", type=float, default=135.0)
    a = ap.parse_args(argv)
    start = time.perf_counter()
    dev = wg.default_device()
    torch = _torch()
    table = SMALL if a.small else CASES
    cases = a.cases.split(",") if a.cases else list(table)
    inner, samples = (min(a.inner, 3), min(a.samples, 2)) if a.small else (a.inner, a.samples)
    min_length = 256 if a.small else 2048
    lim = dev.properties.limits
    print(f"device: {dev.properties.name} ({dev.properties.backend}); workgroup memory "
          f"{lim.max_compute_workgroup_storage_size} B; invocations {lim.max_compute_invocations_per_workgroup}; "
          f"torch: {torch.cuda.get_device_name() if torch else 'none'}; reg defaults {K.REG_DEFAULTS}; "
          f"pool limit {dev.allocator.limit >> 20} MiB", flush=True)
    rng = np.random.default_rng(0)
    for i, spec in enumerate(cases):
        now = time.perf_counter()
        until = now + (a.budget - (now - start)) / (len(cases) - i)
        shape = _shape(spec)
        x = (rng.standard_normal(shape, np.float32) + 1j * rng.standard_normal(shape, np.float32)).astype(np.complex64)
        refs: dict = {}

        def ref(axis, x=x, refs=refs):  # torch's (or numpy's) answer, computed when first asked
            if axis not in refs:
                if torch is not None:
                    t = torch.from_numpy(x).cuda()
                    r = torch.fft.fftn(t) if axis is None else torch.fft.fft(t, dim=axis)
                    refs[axis] = r.cpu().numpy()
                    del t, r
                else:
                    refs[axis] = (np.fft.fftn(x) if axis is None else np.fft.fft(x, axis=axis)).astype(np.complex64)
            return refs[axis]
        tt = None
        if torch is not None:
            t = torch.from_numpy(x).cuda()
            tt = _best(lambda: torch.fft.fftn(t), torch.cuda.synchronize, inner, samples)
            del t
            torch.cuda.empty_cache()
        try:
            xa = wg.asarray(x)
            xa.mirror.buffer()
            dev.synchronize()
        except Exception as e:  # a size the device refuses: report it, sweep on
            print(f"{spec}: failed to upload: {type(e).__name__}: {str(e)[:300]}", flush=True)
            continue
        name = f"fft2 {spec}" if len(shape) == 2 else f"fft {spec}"
        print(f"{name} complex64 ({x.nbytes >> 20} MiB)" + (f": torch {tt * 1e3:.3f} ms" if tt else ""), flush=True)
        whole = {}
        for v in (a.variants.split(",") if a.variants else table.get(spec, ("auto", "tiled", "copy"))):
            if time.perf_counter() > until:
                print(f"  {v:16s} skipped: past this case's share of the {a.budget:.0f} s budget", flush=True)
                continue
            what = v.partition(":")[2]
            axis = {"cols": 0, "rows": -1}.get(what)
            if what and len(shape) == 1:
                print(f"  {v:16s} n/a: a 1-D case", flush=True)
                continue
            if v == "copy":
                f, plans = xa.copy, "plain copy: Array.copy"
            else:
                with variant(v, min_length):
                    plans = _plan_text(dev, shape) if axis != -1 else "rows: default"
                if v.startswith("reg") and axis != -1 and "register" not in plans:
                    print(f"  {v:16s} n/a: reg_plan refuses this shape", flush=True)
                    continue

                def f(axis=axis, xa=xa):
                    return wg.fft.fftn(xa) if axis is None else wg.fft.fft(xa, axis=axis)
            try:  # the variant's knobs in force around the check and the timing (not entered a call)
                with variant(v, min_length):
                    got = f().numpy()
                    goal = x if v == "copy" else ref(None if axis is None else axis % len(shape))
                    err = float(np.linalg.norm(got - goal) / np.linalg.norm(goal))
                    del got
                    before = dev.stats()
                    tw = _best(f, dev.synchronize, inner, samples)
                    made = (dev.stats() - before).buffers_allocated
            except Exception as e:  # a variant the device refuses: report it, sweep on
                print(f"  {v:16s} failed: {type(e).__name__}: {str(e)[:300]}", flush=True)
                continue
            line = f"  {v:16s} {tw * 1e3:8.3f} ms  rel err {err:.1e}"
            if v == "copy":
                line += f"  {2 * x.nbytes / tw / 1e9:7.1f} GB/s"
            if tt:
                line += f"  speed / torch {tt / tw:.2f}"
            print(line + f"  new buffers {made}  [{plans}]", flush=True)
            if not what and v != "copy":
                whole[v] = tw
        del xa
        if whole:
            best = min(whole, key=whole.get)
            base = whole.get("auto", whole[best])
            print(f"  best {best}: {whole[best] * 1e3:.3f} ms, {base / whole[best]:.2f} x auto's speed"
                  + (f", {tt / whole[best]:.2f} x torch's" if tt else ""), flush=True)
    print(f"total {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
