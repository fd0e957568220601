"""Second look at small reads (issue 17): where a 4-byte read's time goes (profile by cumulative time), whether
synchronize() waits for long kernels, and cholesky 64^2's raise/nan gap (`python -m benchmarks.read_floor2`)."""
import cProfile
import io
import pstats
import time

import numpy as np

import wgarray as wg

dev = wg.default_device()


def best(f, n=20, reps=3):
    f()
    b = 1e9
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(n):
            f()
        b = min(b, (time.perf_counter() - t0) / n)
    return b


def profile(title, f, n=100, rows=28):
    f()
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(n):
        f()
    pr.disable()
    s = io.StringIO()
    pstats.Stats(pr, stream=s).sort_stats("cumulative").print_stats(rows)
    text = s.getvalue()
    print(f"--- {n} x {title}\n" + text[text.find("ncalls"):][:4000])


a = wg.asarray(np.ones(1, np.float32))
b = wg.asarray(np.ones(1, np.float32))
profile("tiny add + 4-byte read", lambda: (a + b).numpy())
m = wg.asarray(np.random.default_rng(0).standard_normal((8192, 8192)).astype(np.float32))
m.mirror.buffer()
dev.synchronize()
print(f"matmul 8192^2 + sync: {best(lambda: (m @ m, dev.synchronize()), 3)*1e3:.2f} ms; "
      f"+ 4-byte read: {best(lambda: (m @ m)[0, 0].numpy(), 3)*1e3:.2f} ms")
rng = np.random.default_rng(0)
x = rng.standard_normal((64, 64)).astype(np.float32)
x = wg.asarray(x @ x.T + 64 * np.eye(64, dtype=np.float32))
x.mirror.buffer()
with wg.linalg.errors("nan"):
    print(f"[nan] cholesky 64^2 + sync: {best(lambda: (wg.linalg.cholesky(x), dev.synchronize()))*1e3:.2f} ms; "
          f"+ 4-byte read of L: {best(lambda: wg.linalg.cholesky(x)[0, 0].numpy())*1e3:.2f} ms")
    profile("[nan] cholesky 64^2 + read", lambda: wg.linalg.cholesky(x)[0, 0].numpy(), 20)
profile("[raise] cholesky 64^2 + sync", lambda: (wg.linalg.cholesky(x), dev.synchronize()), 20)
y = wg.asarray(rng.standard_normal(1 << 20).astype(np.float32))
y.mirror.buffer()
profile("sort 2^20 + sync", lambda: (wg.sort(y), dev.synchronize()), 20)
