"""Random draws against a + b in one run (``python -m benchmarks.random_ratios [log2 n]``, default 2^22): for a
software driver such as lavapipe, where only same-run ratios mean anything.  Prints, per call, the time, GB/s of
output (4 bytes an element), dispatches and pipelines compiled (the stream's counters), and time / (a + b time).
Samples are interleaved round-robin over the cases (so machine load hits them alike); the median counts."""
from __future__ import annotations

import statistics
import sys
import time

import numpy as np

import wgarray as wg


def main(e: int = 22, rounds: int = 7) -> int:
    n = 1 << e
    dev = wg.default_device()
    g = wg.random.default_rng(0)
    a = wg.asarray(np.ones(n, np.float32))
    b = wg.asarray(np.ones(n, np.float32))
    a.mirror.buffer(), b.mirror.buffer()
    dev.synchronize()
    cases = {
        "a + b": lambda: a + b,
        "random() f32": lambda: g.random(n, dtype=wg.float32),
        "uniform(-1, 3) f32": lambda: g.uniform(-1.0, 3.0, n, dtype=wg.float32),
        "standard_normal f32": lambda: g.standard_normal(n, dtype=wg.float32),
        "normal(2, 3) f32": lambda: g.normal(2.0, 3.0, n, dtype=wg.float32),
        "exponential f32": lambda: g.exponential(1.0, n, dtype=wg.float32),
        "integers(0, 1000) i32": lambda: g.integers(0, 1000, n, dtype=wg.int32),
    }
    if dev.supports(wg.float64):
        cases["standard_normal f64"] = lambda: g.standard_normal(n, dtype=wg.float64)
    counts = {}
    for name, f in cases.items():  # warm: compile, pool; then count one call's work
        f()
        dev.synchronize()
        s0 = dev.stats()
        f()
        dev.synchronize()
        s1 = dev.stats()
        counts[name] = (s1.dispatches - s0.dispatches, s1.pipelines_compiled - s0.pipelines_compiled)
    times: dict[str, list[float]] = {k: [] for k in cases}
    for _ in range(rounds):
        for name, f in cases.items():
            t0 = time.perf_counter()
            f()
            dev.synchronize()
            times[name].append(time.perf_counter() - t0)
    base = statistics.median(times["a + b"])
    print(f"{dev}; n = 2^{e}; median of {rounds} interleaved synchronised calls")
    print(f"{'case':24s} {'ms':>9s} {'GB/s out':>9s} {'dispatches':>10s} {'compiled':>8s} {'/ (a+b)':>8s}")
    for name, ts in times.items():
        t = statistics.median(ts)
        nbytes = 8 * n if name.endswith("f64") else 4 * n
        d, c = counts[name]
        print(f"{name:24s} {t * 1e3:9.2f} {nbytes / t / 1e9:9.2f} {d:10d} {c:8d} {t / base:7.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 22))
