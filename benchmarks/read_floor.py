"""Where the time of a small read-back goes (issue 17): a 4-byte read after a tiny op, the stream's map split into
its steps, the same under a short GIL switch interval, and the calls that read a status word (linalg, sort) with
and without that read (`python -m benchmarks.read_floor`)."""
import cProfile
import io
import pstats
import sys
import time

import numpy as np

import wgarray as wg
from wgarray.runtime import stream as st

dev = wg.default_device()
print(dev)
steps: dict[str, list[float]] = {}
_orig = st.Stream._map


def _timed_map(self, buffer, mode, size):
    """The stream's map with a clock between its steps (the same logic as Stream._map)."""
    t0 = time.perf_counter()
    promise = buffer.map_async("READ_NOSYNC" if mode == st.wgpu.MapMode.READ else mode, 0, size)
    t1 = time.perf_counter()
    st._POLL_WAIT(self._device)
    t2 = time.perf_counter()
    spins = 0
    for _ in range(st._MAP_SPINS):
        if getattr(promise, "_state", "") != "pending":
            break
        spins += 1
        st._POLL(self._device)
    t3 = time.perf_counter()
    promise.sync_wait()
    t4 = time.perf_counter()
    for k, v in (("map_async", t1 - t0), ("poll_wait", t2 - t1), ("spin", t3 - t2), ("sync_wait", t4 - t3),
                 ("spins", spins)):
        steps.setdefault(k, []).append(v)


def best(f, n=50, reps=3):
    f()
    b = 1e9
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(n):
            f()
        b = min(b, (time.perf_counter() - t0) / n)
    return b


a = wg.asarray(np.ones(1, np.float32))
b = wg.asarray(np.ones(1, np.float32))


def tiny_read():
    (a + b).numpy()


def sync_then_read():
    c = a + b
    dev.synchronize()
    c.numpy()


for label in ("default", "switch 1e-6"):
    if label != "default":
        sys.setswitchinterval(1e-6)
    print(f"[{label}] tiny add + 4-byte read: {best(tiny_read, 200)*1e6:.1f} us; add + sync + read: "
          f"{best(sync_then_read, 200)*1e6:.1f} us")
sys.setswitchinterval(0.005)
st.Stream._map = _timed_map
steps.clear()
best(tiny_read, 100, 1)
for k, v in steps.items():
    v = np.array(v)
    print(f"  map step {k}: median {np.median(v)*(1 if k == 'spins' else 1e6):.1f}{'' if k == 'spins' else ' us'}, "
          f"max {v.max()*(1 if k == 'spins' else 1e6):.1f}")
st.Stream._map = _orig

rng = np.random.default_rng(0)


def spd(batch, n):
    m = rng.standard_normal((batch, n, n)).astype(np.float32)
    return wg.asarray(m @ m.transpose(0, 2, 1) + n * np.eye(n, dtype=np.float32))


cases = [("cholesky 1 x 8^2", spd(1, 8)), ("cholesky 1 x 64^2", spd(1, 64)), ("cholesky 10000 x 8^2", spd(10000, 8)),
         ("cholesky 1000 x 32^2", spd(1000, 32)), ("cholesky 1 x 1024^2", spd(1, 1024))]
for mode in ("raise", "nan"):
    with wg.linalg.errors(mode):
        for name, x in cases:
            x.mirror.buffer()
            dev.synchronize()
            t = best(lambda: (wg.linalg.cholesky(x), dev.synchronize()), 10)
            print(f"[{mode}] {name}: {t*1e3:.2f} ms")
for e in (14, 20, 24):
    x = wg.asarray(rng.standard_normal(1 << e).astype(np.float32))
    x.mirror.buffer()
    print(f"sort 2^{e}: {best(lambda: (wg.sort(x), dev.synchronize()), 5)*1e3:.2f} ms")
for title, f in (("cholesky 1 x 64^2 raise", lambda: (wg.linalg.cholesky(cases[1][1]), dev.synchronize())),
                 ("sort 2^20", lambda: (wg.sort(x[: 1 << 20]), dev.synchronize()))):
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(20):
        f()
    pr.disable()
    s = io.StringIO()
    pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(10)
    print(f"--- profile of 20 x {title}\n" + s.getvalue()[:2500])
