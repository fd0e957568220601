"""Radix sort cost against the same run's ``a + b`` (issue 18): ``python -m benchmarks.sort_ratio [max_log2]``.

For n = 2^14 .. 2^max (default 22) float32 prints sort, argsort and a + b times (best of a few synchronised
loops), the ratios sort/add and argsort/add, the dispatches one sort records, and whether the sort read anything
back to the host.  Runs on any adapter (lavapipe here); torch.sort is timed too when a CUDA torch imports."""
from __future__ import annotations

import sys

import numpy as np

import wgarray as wg
from wgarray.__main__ import _time


def best(f, sync, reps: int) -> float:
    """Seconds a call of ``f``: the best of three synchronised loops of ``reps`` calls, after a warm-up."""
    return _time(f, sync, repeat=3, inner=reps)


def _count(dev, f) -> tuple[int, int]:
    """(dispatches, host reads) that one call of ``f`` records."""
    stream = dev.stream
    calls = [0, 0]
    disp, sync = stream.dispatch, dev.synchronize
    dev.synchronize()

    def d(*a, **k):
        calls[0] += 1
        return disp(*a, **k)

    stream.dispatch = d
    from wgarray.alloc import mirror
    host = mirror.Mirror.host

    def h(self, *a, **k):
        calls[1] += 1
        return host(self, *a, **k)

    mirror.Mirror.host = h
    try:
        f()
    finally:
        stream.dispatch = disp
        mirror.Mirror.host = host
    sync()
    return calls[0], calls[1]


def main() -> None:
    top = int(sys.argv[1]) if len(sys.argv) > 1 else 22
    dev = wg.default_device()
    try:
        import torch
        tdev = torch.cuda.is_available()
    except Exception:  # noqa: BLE001 - torch is optional
        torch, tdev = None, False
    print(f"adapter: {dev.properties.adapter_type} {getattr(dev.properties, 'name', '')}")
    print(f"{'n':>6} {'add ms':>8} {'sort ms':>8} {'argsort':>8} {'sort/add':>9} {'arg/add':>8} {'disp':>5} {'reads':>5}"
          + ("  torch ms  torch/sort" if tdev else ""))
    rng = np.random.default_rng(0)
    for e in range(14, top + 1, 2):
        n = 1 << e
        x = rng.standard_normal(n).astype(np.float32)
        a, b = wg.asarray(x), wg.asarray(x[::-1].copy())
        a.mirror.buffer()
        b.mirror.buffer()
        dev.synchronize()
        assert np.array_equal(wg.sort(a).numpy(), np.sort(x))
        assert np.array_equal(wg.argsort(a).numpy(), np.argsort(x, kind="stable"))
        reps = max(2, min(50, (1 << 22) // n))
        ta = best(lambda: a + b, dev.synchronize, 4 * reps)
        ts = best(lambda: wg.sort(a), dev.synchronize, reps)
        tg = best(lambda: wg.argsort(a), dev.synchronize, reps)
        nd, nr = _count(dev, lambda: wg.sort(a))
        line = (f"2^{e:<4} {ta*1e3:8.3f} {ts*1e3:8.3f} {tg*1e3:8.3f} {ts/ta:9.1f} {tg/ta:8.1f} {nd:5d} {nr:5d}")
        if tdev:
            t = torch.from_numpy(x).cuda()
            tt = best(lambda: torch.sort(t), torch.cuda.synchronize, 20)
            line += f"  {tt*1e3:8.3f}  {tt/ts:9.3f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
