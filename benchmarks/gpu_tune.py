"""`python -m benchmarks.gpu_tune [--skip matmul,sum,tiny]`: issue 17 row 2's sweep in one run (~2-4 minutes on
an H200).

1. ``benchmarks.matmul_tune --shapes 1024,4096,8192,64x256``: every plausible matmul variant per shape vs torch;
   ends with the whole ``TABLE`` for ``wgarray/kernels/matmul.py`` (paste over it).
2. ``benchmarks.sum_tune --sizes 26``: the full float32 sum's ``TARGET_GROUPS`` / ``UNROLL`` settings vs
   torch.sum; ends with the two lines for ``wgarray/kernels/reduce.py``.
3. The tiny-op loop (10,000 x ``c = a + b`` on 1,000 float32, one synchronisation): us/op for wgarray, CuPy and
   torch, best of 5 loops.
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import wgarray as wg

from . import matmul_tune, sum_tune
from .peers import find_cupy, find_torch
from .suite import _to_peer, _wg_resident


def tiny(count: int = 10_000, n: int = 1000, repeat: int = 5) -> None:
    """Per-op time of a loop of small adds, one synchronisation at the end, for each peer."""
    dev = wg.default_device()
    rng = np.random.default_rng(4)
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    peers = [("wgarray", *_wg_resident(dev, x, y), dev.synchronize)]
    for p in (find_cupy(), find_torch()):
        if p.available:
            peers.append((p.name, _to_peer(p, x), _to_peer(p, y), p.sync))
    print(f"\ntiny ops: {count} x c = a + b on {n} float32, one sync; best of {repeat} loops")
    for name, a, b, sync in peers:
        for _ in range(200):  # warm-up: pipelines, pools
            c = a + b
        sync()
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            for _ in range(count):
                c = a + b  # noqa: F841
            sync()
            best = min(best, time.perf_counter() - t0)
        print(f"  {name:<8} {best / count * 1e6:7.2f} us/op", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.gpu_tune", description=__doc__.split("\n\n")[0])
    ap.add_argument("--skip", default="", help="comma-separated parts to leave out: matmul, sum, tiny")
    ap.add_argument("--quick", action="store_true", help="small sizes, few settings (a lavapipe smoke test)")
    args = ap.parse_args(argv)
    skip = set(args.skip.split(","))
    t0 = time.perf_counter()
    if "tiny" not in skip:  # first: the cheapest, and before the sweeps fill the pools
        tiny(count=500, repeat=2) if args.quick else tiny()
    if "sum" not in skip:
        print("\n== sum ==", flush=True)
        sum_tune.main(["--sizes", "18", "--groups", "64,256", "--unroll", "4,8", "--target-ms", "5", "--repeat", "2"]
                      if args.quick else ["--sizes", "26"])
    if "matmul" not in skip:
        print("\n== matmul ==", flush=True)
        matmul_tune.main(["--quick", "--repeat", "2"] if args.quick else ["--shapes", "1024,4096,8192,64x256", "--top", "8"])
    print(f"\ngpu_tune total {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
