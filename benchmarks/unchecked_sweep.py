"""`python -m benchmarks.unchecked_sweep [--small] [--json PATH]`: the ``UNCHECKED`` knobs beyond matmul (shader
modules without naga's runtime checks, as matmul's ``_u`` variants) off and on, against torch (~1 minute on an
H100).

Families and sizes (issue 17's rows; ``--small``: lavapipe-sized):
  fft2 4096^2 complex64 and fft 2^24 complex64   ``wgarray/kernels/fft.py: UNCHECKED`` (fft_tile, fft_regcols)
  sort and argsort 2^24 float32                  ``wgarray/kernels/radix.py: UNCHECKED`` (GPU hist/dscan/scatter)
(The reductions' knob went after the H100 run of 2026-12-06: x.sum() 2^26 only 1.8% faster without the checks.)
Each case sets its knob before every call, so "off" and "on" run in one process, interleaved round by round
(``benchmarks.timing.measure_all``: a sample >= 50 ms of back-to-back calls and one synchronisation, best of 5).
Answers are checked first (against torch's where there is torch, else numpy's): a mismatch is flagged and that
row is not a candidate.

Reading it: per case, lines "torch", "off" (today's default) and "on", with the best and median time and the speed
over torch (torch's time / ours: > 1 is faster than torch).  Where "on" beats "off" by more than noise (~2%) at the
family's sizes, set that module's ``UNCHECKED = True``.
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import wgarray as wg
from wgarray.kernels import fft as K, radix

from .matmul_sweep import dump, header
from .peers import find_torch
from .timing import Case, measure_all

KNOBS = {"fft": K, "sort": radix}
BIG = dict(fft2=4096, fft=1 << 24, sort=1 << 24)
SMALL = dict(fft2=256, fft=1 << 16, sort=1 << 16)


def _rel(got: np.ndarray, want: np.ndarray) -> float:
    """The relative L2 error of got against want."""
    want = np.asarray(want, dtype=np.complex128 if np.iscomplexobj(want) else np.float64)
    return float(np.linalg.norm(np.asarray(got) - want) / max(np.linalg.norm(want), 1e-300))


def _cases(sizes: dict[str, int], torch, rng) -> list[tuple]:
    """(case name, family, wgarray call, torch call or None, check(result) -> note) per case."""
    T = torch.module if torch.available else None
    out = []
    n2 = sizes["fft2"]
    a = (rng.standard_normal((n2, n2)) + 1j * rng.standard_normal((n2, n2))).astype(np.complex64)
    b = (rng.standard_normal(sizes["fft"]) + 1j * rng.standard_normal(sizes["fft"])).astype(np.complex64)
    for name, host, ours, ref in (
            (f"fft2 {n2}^2", a, wg.fft.fftn, (T.fft.fft2 if T else None, np.fft.fft2)),
            (f"fft 2^{sizes['fft'].bit_length() - 1}", b, wg.fft.fft, (T.fft.fft if T else None, np.fft.fft))):
        x = wg.asarray(host)
        tx = T.from_numpy(host).cuda() if T else None
        want = ref[0](tx).cpu().numpy() if T else ref[1](host)
        bound = 2e-5 if T else 1e-4  # (float32 transforms: ~eps log2(n) rms apart; numpy's is float64)
        out.append((name, "fft", lambda _, f=ours, x=x: f(x), (lambda _, f=ref[0], t=tx: f(t)) if T else None,
                    lambda r, want=want, bound=bound: _note(_rel(r.numpy(), want), bound)))
    s = rng.standard_normal(sizes["sort"]).astype(np.float32)
    xs = wg.asarray(s)
    ts = T.from_numpy(s).cuda() if T else None
    srt = np.sort(s)
    out.append((f"sort 2^{sizes['sort'].bit_length() - 1} f32", "sort", lambda _: wg.sort(xs),
                (lambda _: T.sort(ts)) if T else None,
                lambda r: "" if np.array_equal(r.numpy(), srt) else "WRONG"))
    out.append((f"argsort 2^{sizes['sort'].bit_length() - 1} f32", "sort", lambda _: wg.argsort(xs),
                (lambda _: T.argsort(ts)) if T else None,
                lambda r: "" if np.array_equal(s[r.numpy()], srt) else "WRONG"))
    return out


def _note(err: float, bound: float) -> str:
    return "" if err <= bound else f"WRONG (rel error {err:.1e} > {bound:.0e})"


def _with_knob(module, on: bool, f):
    def call(state):
        module.UNCHECKED = on
        return f(state)
    return call


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.unchecked_sweep", description=__doc__.split("\n\n")[0])
    ap.add_argument("--small", action="store_true", help="lavapipe-sized cases, short samples")
    ap.add_argument("--repeat", type=int, default=5, help="timed samples per row (best is reported)")
    ap.add_argument("--json", default=None, help="write every row to this JSON file")
    ap.add_argument("--budget-s", type=float, default=120.0, help="start no further case after this many seconds")
    args = ap.parse_args(argv)
    target_s, budget = (0.005, 2.0) if args.small else (0.05, 3.0)
    dev = wg.default_device()
    torch = find_torch()
    header("unchecked", dev, torch, "on rows")
    print(f"a sample is `inner` back-to-back calls + 1 sync, >= {target_s * 1e3:g} ms; best of {args.repeat} "
          f"(median also shown); speed = torch's time / ours\n", flush=True)
    defaults = {f: m.UNCHECKED for f, m in KNOBS.items()}
    if args.small and radix._shape(dev).chunked:  # a CPU adapter: its radix kernels are the GPU ones (the knob's)
        radix.CPU = radix.GPU
    sync = dev.synchronize
    t_start = time.perf_counter()
    rows = []
    for name, family, ours, theirs, check in _cases(SMALL if args.small else BIG, torch, np.random.default_rng(0)):
        if time.perf_counter() - t_start > args.budget_s:
            print(f"{name}: SKIPPED (past --budget-s {args.budget_s:g})", flush=True)
            continue
        module = KNOBS[family]
        notes = {}
        cases = []
        if theirs is not None:
            cases.append(Case("torch", theirs, torch.sync))
        for knob in (False, True):
            label = "on" if knob else "off"
            f = _with_knob(module, knob, ours)
            try:
                notes[label] = check(f(None))
            except Exception as e:  # a failing variant is reported, the others go on
                notes[label] = f"FAILED ({type(e).__name__}: {str(e)[:80]})"
                continue
            cases.append(Case(label, f, sync))
        timings = measure_all(cases, repeat=args.repeat, warmup=1, budget_s=budget, target_s=target_s,
                              on_error=lambda c, e: notes.__setitem__(c.name, f"FAILED ({type(e).__name__})"))
        module.UNCHECKED = defaults[family]
        tt = timings["torch"].best if "torch" in timings else None
        print(f"{name}  ({module.__name__}.UNCHECKED, default {defaults[family]})", flush=True)
        for label in ("torch", "off", "on"):
            t = timings.get(label)
            if t is None:
                print(f"  {label:5s} {notes.get(label, 'not timed')}")
                continue
            speed = tt / t.best if tt else None
            note = notes.get(label, "")
            print(f"  {label:5s} best {t.best * 1e3:9.3f} ms  median {t.median * 1e3:9.3f} ms  "
                  f"speed {f'{speed:5.2f}x' if speed else '    -'}  inner {t.inner:4d}  {note}", flush=True)
            rows.append(dict(case=name, knob=label, best_s=t.best, median_s=t.median, x_torch=speed, note=note))
        off, on = timings.get("off"), timings.get("on")
        if off and on and not notes.get("on"):
            print(f"  on / off: {off.best / on.best:.3f}x ({'on faster' if on.best < off.best else 'off faster'})",
                  flush=True)
    print(f"total {time.perf_counter() - t_start:.1f} s")
    dump(args.json, dev, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
