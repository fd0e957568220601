"""`python -m benchmarks [--quick] [--only add,sum,matmul,tiny,transfer,sort,linalg,fft,...] [--out DIR] [--repeat N]`

Runs wgarray and its peers (numpy, raw wgpu, and torch/cupy when they have a CUDA device) on the same work in
one run and prints a table per work item.  Default sizes are GPU targets; ``--quick`` uses small ones (the whole
suite in well under two minutes on lavapipe).  With ``--out DIR``: results.json and PNG plots (matplotlib).
"""
from __future__ import annotations

import argparse
import datetime
import os
import sys
import time

from . import suite
from .peers import find_cupy, find_torch, versions
from .rawwgpu import RawWgpu
from .report import table, write_json

MiB = 1 << 20


def sizes(quick: bool, cpu_adapter: bool) -> dict:
    if quick:
        mm = [256, 512, 1024, 4096]
        if cpu_adapter:
            mm = [n for n in mm if n <= 512]
        return {"add": [1 << k for k in (16, 18, 20, 22)],
                "sum": [1 << k for k in (16, 18, 20, 22)],
                "matmul": (mm, [(64, 256)]),
                "tiny": (10_000, 1000),
                "transfer": [64 * MiB],
                "sort": ([1 << k for k in (10, 14, 16, 18, 20)], (1 << 10, 1 << 10)),
                "linalg_spectral": [("qr", 1, 64), ("svd", 1, 64), ("eigh", 1, 64), ("qr", 100, 8), ("svd", 100, 8),
                                    ("eigh", 100, 8)],
                "linalg": ([64, 256] if cpu_adapter else [64, 256, 1024], [(1000, 8)]),
                "fft": ([1 << k for k in (10, 14, 18)], [256], [1 << 20]),
                "random": [1 << k for k in (16, 18, 20)],
                "fusion": [(k, 1 << e) for k in (2, 5, 8) for e in (10, 16, 22)] + [(5, 1000)]}
    return {"add": [1 << k for k in range(16, 27)],
            "sum": [1 << k for k in range(16, 27)],
            "matmul": ([1024, 4096, 8192], [(64, 256)]),
            "tiny": (10_000, 1000),
            "transfer": [256 * MiB],
            "sort": ([1 << k for k in range(10, 25, 2)], (1 << 10, 1 << 10)),
            "linalg_spectral": [(op, 1, n) for op in ("qr", "svd", "eigh") for n in (64, 256, 1024)]
            + [("qr", 1, 4096)] + [(op, b, n) for op in ("qr", "svd", "eigh") for b, n in ((10_000, 8), (1000, 32))],
            "linalg": ([64, 256, 1024, 4096], [(10_000, 8), (1_000, 32)]),
            "fft": ([1 << k for k in range(10, 25, 2)], [1024, 4096], [1 << 20]),
            "random": [1 << k for k in range(20, 27, 2)],
            "fusion": [(k, 1 << e) for k in (2, 3, 5, 8) for e in (10, 14, 18, 22, 24, 26)] + [(5, 1000)]}


def run_bench(name: str, ctx: suite.Context, cfg: dict) -> list[suite.Row]:
    if name == "add":
        return suite.bench_add(ctx, cfg["add"])
    if name == "sum":
        return suite.bench_sum(ctx, cfg["sum"])
    if name == "matmul":
        square, batched = cfg["matmul"]
        return suite.bench_matmul(ctx, square, batched)
    if name == "tiny":
        count, n = cfg["tiny"]
        return suite.bench_tiny(ctx, count, n)
    if name == "transfer":
        return suite.bench_transfer(ctx, cfg["transfer"])
    if name == "sort":
        return suite.bench_sort(ctx, *cfg["sort"])
    if name == "linalg_spectral":
        return suite.bench_linalg_spectral(ctx, cfg["linalg_spectral"])
    if name == "fusion":
        from . import fusion
        return fusion.bench_fusion(ctx, cfg["fusion"])
    if name == "linalg":
        from . import linalg
        return linalg.bench_linalg(ctx, *cfg["linalg"])
    if name == "fft":
        return suite.bench_fft(ctx, *cfg["fft"])
    if name == "random":
        return suite.bench_random(ctx, cfg["random"])
    raise ValueError(name)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n\n")[1])
    ap.add_argument("--quick", action="store_true", help="small sizes (the whole suite in < 2 min on lavapipe)")
    ap.add_argument("--only", default="", help=f"comma-separated subset of: {','.join(suite.BENCHES)}")
    ap.add_argument("--out", default=None, help="directory for results.json and PNG plots")
    ap.add_argument("--repeat", type=int, default=None, help="timed rounds per measurement (default 7; quick 5)")
    ap.add_argument("--budget", type=float, default=None,
                    help="after 3 rounds, stop once a peer has spent this many seconds timed (default 4; quick 1)")
    ap.add_argument("--sample-ms", type=float, default=5.0,
                    help="add/sum/matmul: back-to-back calls a sample until it takes this long (default 5); a GPU "
                         "whose synchronisation costs milliseconds needs more to amortise it")
    ap.add_argument("-v", "--verbose", action="store_true", help="log each measurement to stderr")
    args = ap.parse_args(argv)

    names = [s.strip() for s in args.only.split(",") if s.strip()] or list(suite.BENCHES)
    unknown = [s for s in names if s not in suite.BENCHES]
    if unknown:
        ap.error(f"unknown benchmark(s) {unknown}; choose from {list(suite.BENCHES)}")
    repeat = args.repeat if args.repeat is not None else (5 if args.quick else 7)
    budget = args.budget if args.budget is not None else (1.0 if args.quick else 4.0)

    import wgarray as wg
    dev = wg.default_device()
    props = dev.properties
    torch, cupy = find_torch(), find_cupy()
    ctx = suite.Context(dev=dev, raw=RawWgpu(dev.wgpu_device), torch=torch, cupy=cupy, repeat=repeat,
                        quick=args.quick, budget_s=budget, sample_s=args.sample_ms / 1e3,
                        log=(lambda s: print(s, file=sys.stderr, flush=True)) if args.verbose else (lambda s: None))
    cfg = sizes(args.quick, ctx.cpu_adapter)
    vers = versions()
    title = f"{props.name} ({props.backend}, {props.adapter_type})"
    print(f"wgarray benchmarks on {title}; wgpu {vers['wgpu']}, numpy {vers['numpy']}, "
          f"torch {vers['torch'] if torch.available else '- (' + torch.reason + ')'}, "
          f"cupy {vers['cupy'] if cupy.available else '- (' + cupy.reason + ')'}")
    if torch.available:
        print(f"torch device: {torch.device_name}")
    if cupy.available:
        print(f"cupy device: {cupy.device_name}")
    print(f"{'quick sizes' if args.quick else 'full sizes'}, median of up to {repeat} synchronised samples (peers "
          f"interleaved) after warm-up; host: {os.cpu_count()} CPUs")
    print(f"add, sum, matmul: throughput, time per op; a sample is `inner` back-to-back calls and one "
          f"synchronisation, inner per peer so that a sample takes >= {ctx.sample_s * 1e3:g} ms (<= {ctx.max_inner})")
    if ctx.cpu_adapter and not args.quick:
        print("note: a CPU (software) adapter with the full GPU sizes will be very slow; try --quick")
    print(flush=True)

    results: dict[str, list[suite.Row]] = {}
    t_start = time.perf_counter()
    for name in names:
        t0 = time.perf_counter()
        results[name] = run_bench(name, ctx, cfg)
        print(table(name, results[name]))
        print(f"   ({time.perf_counter() - t0:.1f} s)\n", flush=True)
    print(f"total {time.perf_counter() - t_start:.1f} s")

    if args.out:
        os.makedirs(args.out, exist_ok=True)
        meta = {
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "argv": sys.argv[1:] if argv is None else argv,
            "quick": args.quick, "repeat": repeat, "budget_s": budget,
            "sample_s": ctx.sample_s, "max_inner": ctx.max_inner,
            "amortised": [n for n in names if suite.BENCHES[n].amortised],
            "device": {"name": props.name, "vendor": props.vendor, "backend": props.backend,
                       "adapter_type": props.adapter_type, "driver": props.driver,
                       "max_storage_buffer_binding_size": props.limits.max_storage_buffer_binding_size},
            "torch_device": torch.device_name or None, "torch_skipped": torch.reason or None,
            "cupy_device": cupy.device_name or None, "cupy_skipped": cupy.reason or None,
            "cpu_count": os.cpu_count(),
            "versions": vers,
            "sizes": {k: v for k, v in cfg.items() if k in names},
        }
        path = os.path.join(args.out, "results.json")
        write_json(path, meta, results)
        written = [path]
        from .plot import plot_all
        written += plot_all(results, args.out, title)
        print("wrote " + ", ".join(written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
