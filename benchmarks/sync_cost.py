"""The cost of device.synchronize() alone, after a tiny op, and a tiny-op loop, against torch (`python -m benchmarks.sync_cost`)."""
import time

import numpy as np

import wgarray as wg

d = wg.default_device(); print(d)
a = wg.asarray(np.ones(1000, np.float32)); b = wg.asarray(np.ones(1000, np.float32)); (a + b).numpy()
def t(f, n):
    best = 1e9
    for _ in range(5):
        t0 = time.perf_counter(); f(n); best = min(best, (time.perf_counter() - t0) / n)
    return best * 1e6
def sync_only(n):
    for _ in range(n): d.synchronize()
def op_sync(n):
    for _ in range(n): c = a + b; d.synchronize()
def ops(n):
    for _ in range(n): c = a + b
    d.synchronize()
print(f"synchronize() alone: {t(sync_only, 200):.1f} us")
print(f"one tiny add + synchronize(): {t(op_sync, 200):.1f} us")
print(f"tiny add, 10000 back to back + 1 sync: {t(ops, 10000):.2f} us/op")
try:
    import torch
    x = torch.ones(1000, device="cuda"); y = torch.ones(1000, device="cuda")
    def tsync(n):
        for _ in range(n): torch.cuda.synchronize()
    def tops(n):
        for _ in range(n): z = x + y
        torch.cuda.synchronize()
    print(f"torch synchronize alone: {t(tsync, 200):.1f} us; torch tiny add: {t(tops, 10000):.2f} us/op")
except Exception as e: print("torch:", e)
import cProfile
import io
import pstats

pr = cProfile.Profile(); pr.enable(); op_sync(300); pr.disable()
s = io.StringIO(); pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(12); print(s.getvalue()[:3000])
