"""`python -m benchmarks.tiny_ops [--count 10000] [--n 1000] [--repeat 7]`: the per-op cost of tiny work (issue 17
row 2), wgarray against torch and CuPy in the same process (~20-40 s on an H200 with both peers).

Rows (float32 vectors of ``n`` elements, device-resident before timing):
* ``c = a + b``: a loop of ``count`` adds, one synchronisation at the end (the issue's row);
* ``s = a.sum()``: the same loop of full sums (a 1-element result each);
* ``float(a.sum())``: a sum and its 4-byte read, one at a time (the round trip a convergence check pays).

Each row: best and median over ``repeat`` loops, after a warm-up loop, peers interleaved round by round so that a
drift of the machine lands on all of them.  Then, for wgarray's add loop, where its time goes: the loop's host time
before the synchronisation (recording, and the submits of full batches) against the wait after it, dispatches and
submits per op, and the Python and C function calls per op (``sys.setprofile``), which do not depend on the
machine's speed.  Ratios are the peer's time over wgarray's (> 1: wgarray faster).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any, Callable

import numpy as np
import wgpu

import wgarray as wg
from wgarray.runtime import stream as stream_mod

from .peers import find_cupy, find_torch
from .suite import _to_peer, _wg_resident


def _add(a, b, k: int) -> None:
    for _ in range(k):
        c = a + b  # noqa: F841


def _sum(a, b, k: int) -> None:
    for _ in range(k):
        s = a.sum()  # noqa: F841


def _sum_read(a, b, k: int) -> None:
    for _ in range(k):
        float(a.sum())


ROWS: list[tuple[str, Callable[[Any, Any, int], None], int]] = [  # (name, loop, calls per loop as a count divisor)
    ("c = a + b", _add, 1), ("s = a.sum()", _sum, 1), ("float(a.sum())", _sum_read, 10)]


def _sample(loop, a, b, k: int, sync) -> tuple[float, float]:
    """(seconds per call until the loop returned, seconds per call including the final synchronisation)."""
    t0 = time.perf_counter()
    loop(a, b, k)
    t1 = time.perf_counter()
    sync()
    return (t1 - t0) / k, (time.perf_counter() - t0) / k


def _calls_per_op(loop, a, b, k: int, sync) -> tuple[float, float]:
    """(Python calls, C calls) per call of the loop's body, counted by a profile hook."""
    counts = {"call": 0, "c_call": 0}

    def hook(frame, event, arg):
        if event in counts:
            counts[event] += 1

    sys.setprofile(hook)
    try:
        loop(a, b, k)
    finally:
        sys.setprofile(None)
    sync()
    # the loop function's own frame and the setprofile(None) call are not the op's
    return (counts["call"] - 1) / k, (counts["c_call"] - 1) / k


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.tiny_ops", description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=10_000, help="ops per timed loop")
    ap.add_argument("--n", type=int, default=1000, help="elements per vector")
    ap.add_argument("--repeat", type=int, default=7, help="timed loops per peer and row")
    args = ap.parse_args(argv)
    dev = wg.default_device()
    rng = np.random.default_rng(4)
    x, y = rng.random(args.n, dtype=np.float32), rng.random(args.n, dtype=np.float32)
    peers: list[tuple[str, Any, Any, Callable[[], None]]] = [("wgarray", *_wg_resident(dev, x, y), dev.synchronize)]
    skipped = []
    for p in (find_torch(), find_cupy()):
        if p.available:
            peers.append((p.name, _to_peer(p, x), _to_peer(p, y), p.sync))
        else:
            skipped.append(f"{p.name}: {p.reason}")
    print(f"tiny ops on {dev} (wgarray {wg.__version__}, wgpu {wgpu.__version__}): {args.n} float32, {args.count} ops "
          f"a loop, best/median of {args.repeat} loops" + (f"; skipped {', '.join(skipped)}" if skipped else ""))
    results: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for name, loop, div in ROWS:
        k = max(1, args.count // div)
        for _peer, a, b, sync in peers:  # warm-up: pipelines, pools, plans, caches
            _sample(loop, a, b, min(k, 500), sync)
        for _ in range(args.repeat):
            for peer, a, b, sync in peers:
                results.setdefault((name, peer), []).append(_sample(loop, a, b, k, sync))
    names = [p[0] for p in peers]
    head = f"{'work':<16}" + "".join(f"{n + ' us/op':>16}" for n in names) + "".join(
        f"{n + '/wgarray':>16}" for n in names[1:])
    print(head)
    for name, _, _ in ROWS:
        totals = {p: [s[1] * 1e6 for s in results[(name, p)]] for p in names}
        line = f"{name:<16}" + "".join(f"{min(v):8.2f}/{statistics.median(v):<7.2f}" for v in totals.values())
        line += "".join(f"{min(totals[p]) / min(totals['wgarray']):15.2f}x" for p in names[1:])
        print(line)
    rec = [s[0] * 1e6 for s in results[("c = a + b", "wgarray")]]
    tot = [s[1] * 1e6 for s in results[("c = a + b", "wgarray")]]
    before = dev.stats()
    _add(peers[0][1], peers[0][2], args.count)
    dev.synchronize()
    delta = dev.stats() - before
    py, c = _calls_per_op(_add, peers[0][1], peers[0][2], 1000, dev.synchronize)
    print(f"wgarray c = a + b: host time before the sync {min(rec):.2f} us/op (median {statistics.median(rec):.2f}), "
          f"the wait after it {min(tot) - min(rec):.2f} us/op; {delta.dispatches / args.count:.2f} dispatches and "
          f"{delta.submits / args.count:.4f} submits an op; {py:.1f} Python calls and {c:.1f} C calls an op")
    print("  (host time close to the total: the loop is bound by the host's recording; a long wait: by the device)")
    feed(peers[0][1], peers[0][2], args.count, args.repeat, dev.synchronize)
    return 0


def feed(a, b, count: int, repeat: int, sync) -> None:
    """wgarray's add loop with the stream's early submits to an idle device (``FEED_AFTER``) and without, rounds
    interleaved: what feeding the device saves at the final synchronisation, and what the extra submits cost."""
    default = stream_mod.FEED_AFTER
    times: dict[str, list[float]] = {}
    try:
        for _ in range(repeat):
            for label, value in ((f"FEED_AFTER={default}", default), ("FEED_AFTER=None", None)):
                stream_mod.FEED_AFTER = value
                before = a.device.stats()
                times.setdefault(label, []).append(_sample(_add, a, b, count, sync)[1] * 1e6)
                submits = (a.device.stats() - before).submits
                times.setdefault(label + " submits", []).append(submits)
    finally:
        stream_mod.FEED_AFTER = default
    print("wgarray c = a + b, early submits to an idle device on / off: " + "; ".join(
        f"{label} {min(v):.2f}/{statistics.median(v):.2f} us/op ({int(statistics.median(times[label + ' submits']))}"
        f" submits)" for label, v in times.items() if not label.endswith("submits")))


if __name__ == "__main__":
    sys.exit(main())
