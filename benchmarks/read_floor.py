"""Where the time of a small read-back goes (issue 17; `python -m benchmarks.read_floor [--old]`).

Prints: a 4-byte read after a tiny op; the stream's map split into its steps (the current ``Stream._map``); calls
that read a status word (linalg ``errors("raise")``) against the same calls with ``errors("nan")`` and a
synchronize; sort (a 16-byte statistics read); and, with ``--old``, the same rows under the map this session
replaced (wgpu-py ``map_async`` + a blocking poll while the map is pending), which on the H200 of 2026-12-02 cost
~10 ms whenever the device was still busy (cholesky of one 64 x 64 matrix + read: 9.8 ms old, 0.72 ms new).
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import wgpu

import wgarray as wg
from wgarray.__main__ import _time
from wgarray.runtime import stream as st


def _old_map(self, buffer, mode, size):
    """The map before 2026-12-02: wgpu-py's map_async (a poll token wakes its poller thread), then a blocking poll
    issued while the map is pending, then bounded non-blocking polls, then the poller's event."""
    promise = buffer.map_async("READ_NOSYNC" if mode == wgpu.MapMode.READ else mode, 0, size)
    st._POLL_WAIT(self._device)
    for _ in range(10_000):
        if getattr(promise, "_state", "") != "pending":
            break
        st._POLL(self._device)
    promise.sync_wait()


def best(f, n: int = 20, reps: int = 3) -> float:
    """Best mean seconds a call of ``f`` (which synchronises itself) over ``reps`` runs of ``n`` calls."""
    return _time(f, lambda: None, repeat=reps, inner=n)


def rows(dev) -> dict[str, float]:
    """Milliseconds of each small-read case."""
    rng = np.random.default_rng(0)
    a, b = wg.asarray(np.ones(1, np.float32)), wg.asarray(np.ones(1, np.float32))
    out = {"tiny add + 4-byte read": best(lambda: (a + b).numpy(), 200),
           "tiny add + sync + 4-byte read": best(lambda: ((c := a + b), dev.synchronize(), c.numpy()), 200)}

    def spd(batch, n):
        m = rng.standard_normal((batch, n, n)).astype(np.float32)
        x = wg.asarray(m @ m.transpose(0, 2, 1) + n * np.eye(n, dtype=np.float32))
        x.mirror.buffer()
        return x

    for name, x in (("1 x 8^2", spd(1, 8)), ("1 x 64^2", spd(1, 64)), ("10000 x 8^2", spd(10000, 8)),
                    ("1000 x 32^2", spd(1000, 32))):
        out[f"cholesky {name}, errors('raise') + sync"] = best(lambda: (wg.linalg.cholesky(x), dev.synchronize()))
        with wg.linalg.errors("nan"):
            out[f"cholesky {name}, errors('nan') + sync"] = best(lambda: (wg.linalg.cholesky(x), dev.synchronize()))
            out[f"cholesky {name}, errors('nan') + read"] = best(lambda: wg.linalg.cholesky(x).numpy())
    for e in (14, 20):
        y = wg.asarray(rng.standard_normal(1 << e).astype(np.float32))
        out[f"sort 2^{e} + sync"] = best(lambda: (wg.sort(y), dev.synchronize()), 5)
    return {k: v * 1e3 for k, v in out.items()}


def map_steps(dev) -> None:
    """The current map's steps for a 4-byte read after a tiny op (median / max microseconds)."""
    steps: dict[str, list[float]] = {}
    clock = time.perf_counter
    saved_wait, saved_async = st._POLL_WAIT, st._MAP_ASYNC

    def timed(name, fn):
        def call(*args):
            t0 = clock()
            r = fn(*args)
            steps.setdefault(name, []).append(clock() - t0)
            return r
        return call

    st._POLL_WAIT, st._MAP_ASYNC = timed("blocking poll", saved_wait), timed("map request", saved_async)
    try:
        a = wg.asarray(np.ones(1, np.float32))
        for _ in range(100):
            (a + a).numpy()
    finally:
        st._POLL_WAIT, st._MAP_ASYNC = saved_wait, saved_async
    for k, v in steps.items():
        print(f"  map step {k}: median {np.median(v) * 1e6:.1f} us, max {max(v) * 1e6:.1f} us ({len(v)} calls)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--old", action="store_true", help="also time the map this session replaced")
    args = ap.parse_args()
    dev = wg.default_device()
    print(dev)
    new = rows(dev)
    if st._MAP_ASYNC is not None:
        map_steps(dev)
    old = None
    if args.old and st._POLL is not None:
        saved = st.Stream._map
        st.Stream._map = _old_map
        try:
            old = rows(dev)
        finally:
            st.Stream._map = saved
    for k, v in new.items():
        print(f"{k}: {v:.3f} ms" + (f" (old map: {old[k]:.3f} ms, {old[k] / v:.1f}x)" if old else ""))


if __name__ == "__main__":
    main()
