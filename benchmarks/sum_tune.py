"""`python -m benchmarks.sum_tune [--sizes 26] [--groups 264,...] [--unroll 2,4,8] [--json PATH]`

Times wgarray's full float32 sum (``x.sum()`` of a contiguous 2^e vector) under each setting of the reduction's
first-pass tunables (``wgarray.kernels.reduce.TARGET_GROUPS``: workgroups of 256; ``UNROLL``: vec4 loads in flight
per invocation; the second pass reduces the partials in one workgroup), against ``torch.sum`` (and CuPy) when
importable.  Prints GB/s and the ratio to torch per setting, then the best setting as the two lines to put in
``wgarray/kernels/reduce.py``.

Timing is ``benchmarks.timing.measure_all``: a sample is ``inner`` back-to-back sums and one synchronisation
(>= ``--target-ms``, 50 ms), cases interleaved round by round, the rate from the best of ``--repeat`` (5).  Every
setting's answer is checked once against a float64 sum on the host (relative 1e-5 of the sum of magnitudes).
"""
from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

import wgarray as wg
from wgarray.kernels import reduce as red

from .peers import find_cupy, find_torch
from .suite import _to_peer, _wg_resident
from .timing import Case, measure_all


def settings(groups: list[int], unrolls: list[int]) -> list[tuple[int, int]]:
    """Every (TARGET_GROUPS, UNROLL) pair, today's first."""
    today = (red.TARGET_GROUPS, red.UNROLL)
    return [today] + [(g, u) for g in groups for u in unrolls if (g, u) != today]


def tune_size(dev, peers, e: int, pairs: list[tuple[int, int]], args) -> list[dict]:
    n = 1 << e
    x = np.random.default_rng(5).standard_normal(n, dtype=np.float32)
    a = _wg_resident(dev, x)[0]
    exact = float(np.sum(x, dtype=np.float64))
    tol = 1e-5 * float(np.sum(np.abs(x), dtype=np.float64))
    saved = (red.TARGET_GROUPS, red.UNROLL)
    cases, notes = [], {}
    try:
        for g, u in pairs:
            name = f"groups={g} unroll={u}"
            red.TARGET_GROUPS, red.UNROLL = g, u
            got = float(a.sum().item())
            notes[name] = "" if abs(got - exact) <= tol else f"MISMATCH {got} vs {exact}"

            def fn(_, g=g, u=u):
                red.TARGET_GROUPS, red.UNROLL = g, u
                a.sum()

            cases.append(Case(name, fn, dev.synchronize))
        for p in peers:
            t = _to_peer(p, x)
            p.sync()
            cases.append(Case(p.name, lambda _, t=t, p=p: t.sum(), p.sync))
            notes[p.name] = ""
        print(f"  2^{e}: timing {len(cases)} cases", file=sys.stderr, flush=True)
        times = measure_all(cases, repeat=args.repeat, target_s=args.target_ms / 1e3, max_inner=args.max_inner)
    finally:
        red.TARGET_GROUPS, red.UNROLL = saved
    rows = [{"size": f"2^{e}", "n": n, "name": k, "best_s": t.best, "median_s": t.median, "inner": t.inner,
             "gbs": 4 * n / t.best / 1e9, "note": notes[k]} for k, t in times.items()]
    ref = next((r["best_s"] for r in rows if r["name"] == "torch"), None)
    for r in rows:
        r["x_torch"] = ref / r["best_s"] if ref else None
    rows.sort(key=lambda r: r["best_s"])
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.sum_tune", description=__doc__.split("\n\n")[1])
    ap.add_argument("--sizes", default="26", help="comma-separated exponents e: sums of 2^e float32 (default 26)")
    ap.add_argument("--groups", default="264,528,1056,2112,4224",
                    help="TARGET_GROUPS values (default: 2..32 workgroups an SM of an H200's 132)")
    ap.add_argument("--unroll", default="2,4,8", help="UNROLL values")
    ap.add_argument("--target-ms", type=float, default=50.0)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--max-inner", type=int, default=5000)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    dev = wg.default_device()
    peers = [p for p in (find_torch(), find_cupy()) if p.available]
    print(f"float32 full sum on {dev.properties.name} ({dev.properties.backend}); peers: "
          f"{', '.join(p.name + ' ' + p.version for p in peers) or '-'}; today: TARGET_GROUPS={red.TARGET_GROUPS} "
          f"UNROLL={red.UNROLL}", flush=True)
    pairs = settings([int(g) for g in args.groups.split(",")], [int(u) for u in args.unroll.split(",")])
    all_rows = []
    t0 = time.perf_counter()
    for e in (int(s) for s in args.sizes.split(",")):
        rows = tune_size(dev, peers, e, pairs, args)
        all_rows += rows
        print(f"\n{'size':>6}  {'setting':<24} {'GB/s':>8} {'us':>9} {'x torch':>8}  note")
        for r in rows:
            ratio = f"{r['x_torch']:.2f}" if r["x_torch"] else "-"
            print(f"{r['size']:>6}  {r['name']:<24} {r['gbs']:8.1f} {r['best_s'] * 1e6:9.1f} {ratio:>8}  {r['note']}")
        ok = [r for r in rows if r["name"].startswith("groups=") and not r["note"]]
        if ok:
            best = ok[0]
            g, u = (int(kv.split("=")[1]) for kv in best["name"].split())
            today = next(r for r in rows if r["name"] == f"groups={pairs[0][0]} unroll={pairs[0][1]}")
            print(f"\nbest at 2^{e}: {best['name']} ({best['gbs']:.0f} GB/s"
                  + (f", {best['x_torch']:.2f}x torch" if best["x_torch"] else "")
                  + f"; today {today['gbs']:.0f} GB/s). In wgarray/kernels/reduce.py:\n"
                  f"TARGET_GROUPS = {g}\nUNROLL = {u}")
    print(f"\ntotal {time.perf_counter() - t0:.1f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": dev.properties.name, "rows": all_rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
