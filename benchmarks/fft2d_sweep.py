"""Issue 13 / issue 17 row 4: the 2-D FFT of 4096^2 complex64 in two passes (``kernels.fft.reg_options``: the
columns in one register-held pass) against today's three-pass default and torch.fft.fft2, in one process.

`python -m benchmarks.fft2d_sweep` (``wg.fft.fftn`` of a 2-D array; a GPU with torch: 4096^2, then 2048^2 and
8192x4096 complex64; <= 150 s, a budget guard skips what is left past a case's share of ``--budget`` seconds)
`python -m benchmarks.fft2d_sweep --small` (lavapipe: 512^2 and 2048x256, the register pass forced from length 256)

A variant is one of:
  "auto[@...][:what]"  the default plans (``benchmarks.fftgpu_sweep.variant``'s specs: "auto" is what a plain call
                       runs, "auto@s=nop" the best column knob of the last H100 sweep); the columns in two passes
  "reg[+cN][+eN][+rN][+nop][:what]"  the columns in one register-held pass (``reg_options(on=True)``): tiles of N
                       columns (c, default 4: 32-byte rows; c2: 16-byte rows), N elements an invocation (e, default 16: 1024
                       invocations at 4096 x 4), stages of radix N (r, default 16), nop: the twiddles looked up
                       one a value instead of as powers of one lookup a butterfly
  "copy"               ``Array.copy`` of the input (one read and one write: the ceiling of one pass)
":cols" / ":rows" times the one axis's transform alone (``wg.fft.fft`` along 0 / -1).  Each line: the best time
over synchronised samples, bytes over time, the relative L2 error against torch.fft's answer (numpy's without
torch; "--" where the variant does not apply to the shape: it would run the default) and the speed over
torch.fft.fft2's (issue 13's target: >= 0.7).  The register variants print their plan (stages, columns, elements
an invocation, rounds of the exchanges) or "n/a" where ``reg_plan`` refuses the shape (too many invocations: a
longer column needs more elements an invocation).
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
from .fftgpu_sweep import variant as _tile_variant

# phase 1: the default and the last sweep's best column knob, the copy ceiling, then the register pass: its
# default (4 columns, 16 elements an invocation: 1024 invocations, at most 64 registers each on the H100), fewer
# invocations (32, 64 elements: 512 / 256 invocations, room for registers), 2 columns (16-byte rows, half sectors
# that neighbouring workgroups complete in L2; half the data a workgroup: two workgroups an SM, one computing while
# the other loads), radix 8 stages, direct twiddles, the
# columns alone of the default and of the register variants, 8 columns (64-byte rows; its 256 KiB of data fill
# the H100's register file: expected to spill, a data point)
VARIANTS = ("auto", "copy", "reg", "reg+e32", "reg+e64", "reg+c2", "reg+c2+e32", "auto@s=nop", "reg+nop",
            "reg+e32+nop", "reg+e64+nop", "reg+r8", "reg+r8+e32", "reg+r8+e64", "auto:cols", "reg:cols", "reg+e32:cols",
            "reg+e64:cols", "reg+c2:cols", "auto:rows", "reg+c8+e64")


def _reg_knobs(head: str) -> dict:
    out = {}
    for tok in head.split("+")[1:]:
        if tok == "nop":
            out["powers"] = False
            continue
        m = re.fullmatch(r"([cer])(\d+)", tok)
        if not m:
            raise ValueError(f"register variant knob {tok!r}")
        out[{"c": "columns", "e": "per", "r": "radix"}[m[1]]] = int(m[2])
    return out


@contextlib.contextmanager
def variant(spec: str, min_length: int):
    head = spec.split(":")[0]
    if head.startswith("reg"):
        with K.reg_options(on=True, min_length=min_length, **_reg_knobs(head)):
            yield
    else:
        with _tile_variant(head):
            yield


def _plan_text(dev, shape, spec: str) -> tuple[str, bool]:
    """The column axis's register plan under the variant in force (and whether it applies)."""
    if not spec.startswith("reg"):
        return "columns: default tiled passes", True
    rp = K.reg_plan(dev, 8, shape[0], shape[1])
    if rp is None:
        return "n/a: reg_plan refuses this shape", False
    radices, C, E, G = rp
    return (f"columns in one pass: stages {'x'.join(map(str, radices))}, {C} columns, {E} an invocation "
            f"({shape[0] // E * C} invocations), {G} exchange rounds"), True


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", action="store_true", help="lavapipe sizes")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--cases", default="", help="RxC shapes, comma separated (default 4096x4096,2048x2048,"
                                                "8192x4096; --small: 512x512,2048x256)")
    ap.add_argument("--inner", type=int, default=10, help="calls a sample")
    ap.add_argument("--samples", type=int, default=5)
    ap.add_argument("--budget", type=float, default=135.0)
    a = ap.parse_args(argv)
    start = time.perf_counter()
    dev = wg.default_device()
    torch = _torch()
    spec = a.cases or ("512x512,2048x256" if a.small else "4096x4096,2048x2048,8192x4096")
    cases = [tuple(map(int, c.split("x"))) for c in spec.split(",")]
    inner, samples = (min(a.inner, 3), min(a.samples, 2)) if a.small else (a.inner, a.samples)
    min_length = 256 if a.small else 2048
    lim = dev.properties.limits
    print(f"device: {dev.properties.name} ({dev.properties.backend}); workgroup memory "
          f"{lim.max_compute_workgroup_storage_size} B; invocations {lim.max_compute_invocations_per_workgroup}; "
          f"torch: {torch.cuda.get_device_name() if torch else 'none'}; reg defaults {K.REG_DEFAULTS}", flush=True)
    rng = np.random.default_rng(0)
    shares = [4.0] + [1.0] * (len(cases) - 1)  # 4096^2 first and most
    for i, shape in enumerate(cases):
        now = time.perf_counter()
        until = now + (a.budget - (now - start)) * shares[i] / sum(shares[i:])
        x = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64)
        tt = None
        if torch is not None:
            t = torch.from_numpy(x).cuda()
            want = torch.fft.fft2(t).cpu().numpy().astype(np.complex128)
            tt = _best(lambda: torch.fft.fft2(t), torch.cuda.synchronize, inner, samples)
            ref = {0: torch.fft.fft(t, dim=0).cpu().numpy().astype(np.complex128),
                   1: torch.fft.fft(t, dim=1).cpu().numpy().astype(np.complex128)}
            del t
        else:
            want = np.fft.fft2(x.astype(np.complex128))
            ref = {0: np.fft.fft(x.astype(np.complex128), axis=0), 1: np.fft.fft(x.astype(np.complex128), axis=1)}
        xa = wg.asarray(x)
        xa.mirror.buffer()
        dev.synchronize()
        print(f"fft2 {shape[0]}x{shape[1]} complex64 ({x.nbytes >> 20} MiB)"
              + (f": torch.fft.fft2 {tt * 1e3:.3f} ms" if tt else ""), flush=True)
        whole = {}
        for v in a.variants.split(","):
            if time.perf_counter() > until:
                print(f"  {v:24s} skipped: past this case's share of the {a.budget:.0f} s budget", flush=True)
                continue
            what = v.partition(":")[2]
            if v == "copy":
                f, goal, plans, ok = xa.copy, x.astype(np.complex128), "plain copy: Array.copy", True
                passes = 1
            else:
                axis = {"cols": 0, "rows": 1}.get(what)
                with variant(v, min_length):
                    plans, ok = _plan_text(dev, shape, v) if axis != 1 else ("rows: default", True)
                if not ok:
                    print(f"  {v:24s} {plans}", flush=True)
                    continue

                def f(axis=axis):
                    return wg.fft.fftn(xa) if axis is None else wg.fft.fft(xa, axis=axis)
                goal = want if axis is None else ref[axis]
                passes = 0
            try:  # the variant's knobs in force around the check and the timing (not entered a call)
                with contextlib.nullcontext() if v == "copy" else variant(v, min_length):
                    got = f().numpy()
                    err = float(np.linalg.norm(got - goal) / np.linalg.norm(goal))
                    del got
                    tw = _best(f, dev.synchronize, inner, samples)
            except Exception as e:  # a variant the device refuses: report it, sweep on
                print(f"  {v:24s} failed: {type(e).__name__}: {str(e)[:300]}", flush=True)
                continue
            line = f"  {v:24s} {tw * 1e3:8.3f} ms  rel err {err:.1e}"
            if passes:
                line += f"  {2 * x.nbytes / tw / 1e9:7.1f} GB/s"
            if tt:
                line += f"  speed / torch {tt / tw:.2f}"
            print(line + f"  [{plans}]", flush=True)
            if not what and v != "copy":
                whole[v] = tw
        if whole:
            best = min(whole, key=whole.get)
            base = whole.get("auto", whole[best])
            print(f"  best {best}: {whole[best] * 1e3:.3f} ms, {base / whole[best]:.2f} x auto's speed"
                  + (f", {tt / whole[best]:.2f} x torch.fft.fft2's" if tt else ""), flush=True)
    print(f"total {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
