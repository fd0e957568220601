"""Issue 13 / issue 17 row 4: the large complex64 FFTs, wgarray against torch.fft (cuFFT) in one process.

`python -m benchmarks.fft_gpu` (defaults: 1-D 2^20, 2^22, 2^24 and 2-D 1024^2, 4096^2, each under the default
plans ("auto"), the wide-run plans everywhere ("wide": runs of 256-512 bytes, the four-step plan for long rows),
the same with runs of exactly 256 bytes ("wide:256"), the four-step plan whose row pass stores transposed instead
of a transpose pass ("direct": 3 passes at 2^24, scattered stores) and the plans before the four-step one
("legacy", the same run's baseline); a style whose plans equal an earlier one's is not timed again; under a minute on a GPU)
`python -m benchmarks.fft_gpu --sizes 20,22 --sizes2d 2048 --inner 1 --samples 3 --cpu` (the lavapipe run of the
README: CPU seconds, robust to other load on the machine)

Each case prints its plan under every style (per axis: the passes, the kind of each, the bytes they move in global
memory) and then one line a style: the best time over several synchronised samples (warm: plans, twiddle tables
and pipelines built by the warm-up; a sample is ``inner`` back-to-back calls and one synchronize), the dispatches
one call records, the effective bandwidth (the plan's bytes / the time), the passes-equivalent (the time / the
time of ``a + b`` on float32 arrays of the same bytes, which reads two buffers and writes one: about 1.5
read+write passes), the speed relative to the legacy plan, and torch.fft's time with the ratio torch / wgarray
(>= 0.7 is issue 17's target) when torch has a CUDA device.  Results are checked against numpy.fft (relative L2
error).
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import wgarray as wg
from wgarray.kernels import fft as K

_clock = time.perf_counter


def _best(f, sync, inner: int, samples: int) -> float:
    for _ in range(2):  # warm: pipelines, plans, twiddle tables
        f()
        sync()
    best = float("inf")
    for _ in range(samples):
        t0 = _clock()
        for _ in range(inner):
            f()
        sync()
        best = min(best, (_clock() - t0) / inner)
    return best


def _torch():
    try:
        import torch
        if torch.cuda.is_available():
            return torch
    except Exception:  # no torch, or a broken CUDA install: wgarray's figures alone
        pass
    return None


def _style(spec: str):
    name, _, wide = spec.partition(":")
    return K.plan_style(name, int(wide) if wide else K.WIDE)


def _plans(dev, shape) -> tuple[str, int]:
    """The plan of each axis of a transform of ``shape`` (1-D: the row; 2-D: rows, then columns) and the bytes
    moved, under the current plan style."""
    cap = K.local_capacity(dev, 8)
    size = int(np.prod(shape))
    axes = [(shape[0], 1)] if len(shape) == 1 else [(shape[1], 1), (shape[0], shape[1])]
    text, traffic = [], 0
    for n, inner in axes:
        p = K.plan(n, inner, cap, 8)
        traffic += p.traffic(size, 8)
        text.append(f"{'rows' if inner == 1 else 'cols'} {p.passes} pass{'es' if p.passes > 1 else ''}: "
                    f"{p.describe()}")
    return "; ".join(text), traffic


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="20,22,24", help="log2 of the 1-D lengths, comma separated")
    ap.add_argument("--sizes2d", default="1024,4096", help="sides of the 2-D squares, comma separated")
    ap.add_argument("--styles", default="auto,wide,wide:256,direct,legacy",
                    help="plan styles (kernels.fft.plan_style; ':W' = tile runs of up to W bytes), the last the "
                         "baseline of the speed ratio")
    ap.add_argument("--inner", type=int, default=10, help="calls a sample")
    ap.add_argument("--samples", type=int, default=5)
    ap.add_argument("--cpu", action="store_true",
                    help="time the process's CPU seconds (all threads) instead of the wall clock: on lavapipe, a "
                         "software device sharing a loaded machine, the work done rather than the waiting")
    a = ap.parse_args(argv)
    global _clock
    if a.cpu:
        _clock = time.process_time
    dev = wg.default_device()
    torch = _torch()
    print(f"device: {dev.properties.name} ({dev.properties.backend}); workgroup memory "
          f"{dev.properties.limits.max_compute_workgroup_storage_size} B ({K.local_capacity(dev, 8)} complex64); "
          f"torch: {torch.cuda.get_device_name() if torch else 'no CUDA device'}")
    styles = a.styles.split(",")
    rng = np.random.default_rng(0)
    cases = [(f"fft 2^{e}", (1 << e,), wg.fft.fft, np.fft.fft, "fft") for e in map(int, a.sizes.split(",") if a.sizes else [])]
    cases += [(f"fft2 {s}x{s}", (s, s), wg.fft.fftn, np.fft.fft2, "fft2")
              for s in map(int, a.sizes2d.split(",") if a.sizes2d else [])]
    for label, shape, wgf, npf, tname in cases:
        x = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64)
        want = npf(x.astype(np.complex128))
        xa = wg.asarray(x)
        xa.mirror.buffer()
        fa = wg.asarray(rng.standard_normal(2 * x.size).astype(np.float32))
        fb = wg.asarray(rng.standard_normal(2 * x.size).astype(np.float32))
        fa.mirror.buffer()
        fb.mirror.buffer()
        dev.synchronize()
        ta = _best(lambda: fa + fb, dev.synchronize, a.inner, a.samples)
        tt = None
        if torch is not None:
            t = torch.from_numpy(x).cuda()
            tf = torch.fft.fft if tname == "fft" else torch.fft.fft2
            tt = _best(lambda: tf(t), torch.cuda.synchronize, a.inner, a.samples)
        print(f"{label} complex64 ({x.nbytes >> 20} MiB): a+b {ta * 1e3:.3f} ms" +
              (f"; torch.fft {tt * 1e3:.3f} ms" if tt else ""), flush=True)
        times: dict[str, float] = {}
        seen: dict[str, str] = {}
        for spec in styles:
            with _style(spec):
                plans, traffic = _plans(dev, shape)
                if plans in seen:
                    times[spec] = times[seen[plans]]
                    print(f"  {spec:9s} the plans of {seen[plans]}", flush=True)
                    continue
                seen[plans] = spec
                got = wgf(xa).numpy()
                err = float(np.linalg.norm(got - want) / np.linalg.norm(want))
                before = dev.stats()
                wgf(xa)
                dispatches = (dev.stats() - before).dispatches
                tw = times[spec] = _best(lambda: wgf(xa), dev.synchronize, a.inner, a.samples)
            line = (f"  {spec:9s} {tw * 1e3:8.3f} ms  {dispatches} dispatches, {traffic / 2 ** 20:.0f} MiB moved = "
                    f"{traffic / tw / 1e9:.1f} GB/s, {tw / ta:.2f} x a+b, rel err {err:.1e}")
            if tt:
                line += f"; speed / torch {tt / tw:.2f}"
            print(line + f"  [{plans}]", flush=True)
        base = times[styles[-1]]
        print("  speed / " + styles[-1] + ": " + ", ".join(f"{s} {base / v:.2f}" for s, v in times.items()),
              flush=True)


if __name__ == "__main__":
    main()
