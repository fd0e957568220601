"""Issue 13 / issue 17 row 4: the large complex64 FFTs, wgarray against torch.fft (cuFFT) in one process.

`python -m benchmarks.fft_gpu` (defaults: 1-D 2^24 and 2-D 4096^2, the issue's sizes; under a minute on a GPU)
`python -m benchmarks.fft_gpu --sizes 20,22 --sizes2d 2048 --inner 1 --samples 3 --cpu` (the lavapipe run of the
README: CPU seconds, robust to other load on the machine)

Each line: the best time over several synchronised samples (warm: plans, twiddle tables and pipelines built by
the warm-up; a sample is ``inner`` back-to-back calls and one synchronize), the dispatches one call records, the
passes-equivalent (the fft's time / the time of ``a + b`` on float32 arrays of the same bytes, which reads two
buffers and writes one: about 1.5 read+write passes), and torch.fft's time with the ratio torch / wgarray (the
speed relative to cuFFT; >= 0.7 is issue 17's target) when torch has a CUDA device.  Results are checked against
numpy.fft (relative L2 error).  Works with any wgarray tree on PYTHONPATH (the before/after comparison runs the
same script against main's checkout).
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import wgarray as wg

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


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="24", help="log2 of the 1-D lengths, comma separated")
    ap.add_argument("--sizes2d", default="4096", help="sides of the 2-D squares, comma separated")
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
          f"{dev.properties.limits.max_compute_workgroup_storage_size} B; torch: "
          f"{torch.cuda.get_device_name() if torch else 'no CUDA device'}")
    rng = np.random.default_rng(0)
    cases = [(f"fft 2^{e}", (1 << e,), wg.fft.fft, np.fft.fft, "fft") for e in map(int, a.sizes.split(",") if a.sizes else [])]
    cases += [(f"fft2 {s}x{s}", (s, s), wg.fft.fft2 if hasattr(wg.fft, "fft2") else wg.fft.fftn, np.fft.fft2, "fft2")
              for s in map(int, a.sizes2d.split(",") if a.sizes2d else [])]
    for label, shape, wgf, npf, tname in cases:
        x = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64)
        xa = wg.asarray(x)
        xa.mirror.buffer()
        dev.synchronize()
        got = wgf(xa).numpy()
        want = npf(x.astype(np.complex128))
        err = float(np.linalg.norm(got - want) / np.linalg.norm(want))
        before = dev.stats()
        wgf(xa)
        dispatches = (dev.stats() - before).dispatches
        tw = _best(lambda: wgf(xa), dev.synchronize, a.inner, a.samples)
        fa = wg.asarray(rng.standard_normal(2 * x.size).astype(np.float32))
        fb = wg.asarray(rng.standard_normal(2 * x.size).astype(np.float32))
        fa.mirror.buffer()
        fb.mirror.buffer()
        ta = _best(lambda: fa + fb, dev.synchronize, a.inner, a.samples)
        line = (f"{label} complex64: wgarray {tw * 1e3:.3f} ms ({dispatches} dispatches, {tw / ta:.2f} x a+b = "
                f"{ta * 1e3:.3f} ms), rel err {err:.1e}")
        if torch is not None:
            t = torch.from_numpy(x).cuda()
            tf = torch.fft.fft if tname == "fft" else torch.fft.fft2
            tt = _best(lambda: tf(t), torch.cuda.synchronize, a.inner, a.samples)
            line += f"; torch.fft {tt * 1e3:.3f} ms; wgarray speed / torch {tt / tw:.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
