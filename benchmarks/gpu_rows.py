"""Issue 17 rows 4 (sort) and 6 (fusion) on a CUDA GPU: synchronised timing loops, torch in the same process (`python -m benchmarks.gpu_rows`)."""
import time

import numpy as np
import torch

import wgarray as wg

from benchmarks.fusion import chain

dev = wg.default_device()
def bench(f, sync, n=20):
    f(); sync(); f(); sync()
    best = 1e9
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(n): f()
        sync(); best = min(best, (time.perf_counter() - t0) / n)
    return best
tsync = torch.cuda.synchronize
for e in (20, 24):
    x = np.random.default_rng(0).standard_normal(1 << e).astype(np.float32)
    a = wg.asarray(x); a.mirror.buffer(); dev.synchronize()
    t = torch.from_numpy(x).cuda()
    assert np.array_equal(wg.sort(a).numpy(), np.sort(x))
    tw = bench(lambda: wg.sort(a), dev.synchronize, 5); tt = bench(lambda: torch.sort(t), tsync, 20)
    print(f"sort 2^{e} float32: wgarray {tw*1e3:.2f} ms, torch {tt*1e3:.2f} ms, wgarray/torch speed {tt/tw:.3f}")
    tw = bench(lambda: wg.argsort(a), dev.synchronize, 5); tt = bench(lambda: torch.sort(t, stable=True), tsync, 20)
    print(f"argsort 2^{e} float32: wgarray {tw*1e3:.2f} ms, torch (stable sort, values+indices) {tt*1e3:.2f} ms, speed {tt/tw:.3f}")
for e in (22, 26):
    n = 1 << e
    x = np.random.default_rng(1).standard_normal(n).astype(np.float32)
    a = wg.asarray(x); a.mirror.buffer(); dev.synchronize()
    f = wg.fuse(lambda v: chain(v, 5), kernel_name="chain5")
    ref = chain(x, 5)
    assert np.allclose(f(a).numpy(), ref, rtol=1e-6, atol=1e-6)
    tf = bench(lambda: f(a), dev.synchronize, 50); tu = bench(lambda: chain(a, 5), dev.synchronize, 50)
    t = torch.from_numpy(x).cuda()
    g = torch.compile(lambda v: chain(v, 5))
    tc = bench(lambda: g(t), tsync, 50); te = bench(lambda: chain(t, 5), tsync, 50)
    gb = lambda s: 8 * n / s / 1e9
    print(f"5-op chain 2^{e}: wg.fuse {gb(tf):.0f} GB/s, wgarray unfused {gb(tu):.0f} GB/s, torch.compile {gb(tc):.0f} GB/s, torch eager {gb(te):.0f} GB/s; fused/torch.compile {tc/tf:.3f}")
