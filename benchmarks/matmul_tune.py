"""`python -m benchmarks.matmul_tune [--quick] [--shapes 1024,4096,64x256] [--variants NAME,...] [--json PATH]`

Times every applicable variant of wgarray's register-tiled float32 matmul (``wgarray.kernels.matmul.Variant``,
forced through the module's ``override`` hook), the variant wgarray picks today ("auto"), and torch (CUDA, TF32
off) when importable, on square float32 products of order n and batched ``b x n^2`` ones.  Prints one table (TFLOP/s
and the ratio to torch, per variant) and then, per shape, the best variant and a ``TABLE`` snippet for
``wgarray/kernels/matmul.py``.

Timing is ``benchmarks.timing.measure_all`` (the suite's): a sample is ``inner`` back-to-back matmuls and one
synchronisation, ``inner`` chosen per variant so that a sample takes >= ``--target-ms`` (50 ms); cases of a shape
are interleaved round by round; the rate is from the best of ``--repeat`` (5) samples.  Each variant's answer is
checked once (untimed, on the device) against the reference; a mismatch is flagged in the table.

Variants per shape: the plausible tile configurations for it (``matmul.candidates(shape)``: 128x128 / 128x256 /
256x128 tiles where the product fills the device, 64x64 .. 128x128 where it does not) the device can run, plus
split-K (2, 4 slices) of those whose launch has fewer workgroups than SMs (``--sms``, 132 for an H200) while each
slice keeps >= 128 of K.  ``--all``: every configuration of ``matmul.candidates()``, split-K (2, 4, 8) below 2
workgroups an SM.  ``--quick``: small shapes and a few variants, for lavapipe.  Progress goes to stderr.

The run ends with the whole ``TABLE`` for ``wgarray/kernels/matmul.py`` (today's entries with the measured
shapes' best variants put in): paste it over the module's ``TABLE``.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time

import numpy as np

import wgarray as wg
from wgarray.kernels import matmul as mm

from .peers import find_torch
from .suite import _to_peer, _wg_resident
from .timing import Case, measure_all

FULL_SHAPES = "512,1024,2048,4096,8192,64x256"
QUICK_SHAPES = "128,200,8x64"
QUICK_VARIANTS = ("128x128_8x8_k8,128x128_8x8_k8_db,64x64_4x4_k16,64x64_4x4_k16_db,128x64_8x4_k16,64x64_8x8_k8,"
                  "64x64_4x4_k16_s2,128x128_8x8_k8_db_s2")


KEEP_MARGIN = 1.02  # the printed TABLE changes a shape's variant only when the best beats today's by this factor


def parse_shape(spec: str) -> tuple[int, int, int, int]:
    """'1024' -> (M, N, K, batch) = (1024, 1024, 1024, 1); '64x256' -> 64 matrices of 256^2; 'MxNxK' or
    'BxMxNxK' for non-square products."""
    parts = [int(p) for p in spec.lower().split("x")]
    if len(parts) == 1:
        return parts[0], parts[0], parts[0], 1
    if len(parts) == 2:
        return parts[1], parts[1], parts[1], parts[0]
    if len(parts) == 3:
        return parts[0], parts[1], parts[2], 1
    if len(parts) == 4:
        return parts[1], parts[2], parts[3], parts[0]
    raise ValueError(f"bad shape {spec!r}")


def label(shape: tuple[int, int, int, int]) -> str:
    M, N, K, B = shape
    core = f"{M}^2" if M == N == K else f"{M}x{N}x{K}"
    return core if B == 1 else f"{B}x{core}"


def variants_for(dev, shape, sms: int, names: list[str] | None, split: bool, every: bool = False) -> list[mm.Variant]:
    M, N, K, B = shape
    if names == ["auto"]:  # only what wgarray picks today (timed as "auto" beside torch)
        return []
    if names:
        out = [mm.as_variant(n) for n in names]
    else:
        out = []
        below, slices = (2 * sms, (2, 4, 8)) if every else (sms, (2, 4))
        for v in (mm.candidates() if every else mm.candidates(shape)):
            out.append(v)
            if split and v.groups(M, N, B) < below:
                out += [v.replace(split=s) for s in slices if K // s >= 128]
    seen, res = set(), []
    for v in out:
        if v not in seen and mm.fits(v, dev, M, N, K, B):
            seen.add(v)
            res.append(v)
    return res


def tune_shape(dev, torch, shape, variants, args) -> list[dict]:
    M, N, K, B = shape
    rng = np.random.default_rng(7)
    xs = (B, M, K) if B > 1 else (M, K)
    ys = (B, K, N) if B > 1 else (K, N)
    x = rng.standard_normal(xs, dtype=np.float32)
    y = rng.standard_normal(ys, dtype=np.float32)
    a, b = _wg_resident(dev, x, y)
    flops = 2.0 * B * M * N * K
    cases, info = [], {}
    tx = ty = None
    if torch.available:
        tx, ty = _to_peer(torch, x), _to_peer(torch, y)
        torch.sync()
        ref_host = (tx @ ty).cpu().numpy()
    else:
        ref_host = x @ y
    ref = _wg_resident(dev, ref_host)[0]
    scale = float(np.max(np.abs(ref_host)))
    tol = 1e-4 * math.sqrt(K) * scale

    def check(name: str) -> str:
        try:
            err = float(wg.max(wg.abs((a @ b) - ref)).item())
        except Exception as e:  # a variant that fails to compile or launch
            return f"FAILED {type(e).__name__}: {str(e).splitlines()[0][:100] if str(e) else ''}"
        return "" if err <= tol else f"MISMATCH err {err:.3g} > {tol:.3g}"

    auto = mm.choose(M, N, K, B)
    print(f"  {label(shape)}: compiling and checking {len(variants) + 1} variants", file=sys.stderr, flush=True)
    for v in [None] + variants:
        name = "auto" if v is None else v.name
        mm.override = v
        try:
            t0 = time.perf_counter()
            note = check(name)
            info[name] = {"variant": (auto if v is None else v).name, "note": note,
                          "prepare_s": time.perf_counter() - t0}
        finally:
            mm.override = None
        if note.startswith("FAILED"):
            print(f"  {label(shape)} {name}: {note}", file=sys.stderr)
            continue

        def fn(_, v=v):
            mm.override = v
            a @ b

        cases.append(Case(name, fn, dev.synchronize))
    if torch.available:
        cases.append(Case("torch", lambda _: tx @ ty, torch.sync))
        info["torch"] = {"variant": "torch", "note": ""}

    def failed(case, e):
        info[case.name]["note"] = f"FAILED {type(e).__name__}"

    print(f"  {label(shape)}: timing {len(cases)} cases", file=sys.stderr, flush=True)
    try:
        times = measure_all(cases, repeat=args.repeat, budget_s=args.budget, target_s=args.target_ms / 1e3,
                            max_inner=args.max_inner, on_error=failed)
    finally:
        mm.override = None
    rows = []
    for name, t in times.items():
        rows.append({"shape": label(shape), "M": M, "N": N, "K": K, "batch": B, "name": name, **info[name],
                     "best_s": t.best, "median_s": t.median, "inner": t.inner,
                     "tflops": flops / t.best / 1e12, "tflops_median": flops / t.median / 1e12})
    torch_rate = next((r["tflops"] for r in rows if r["name"] == "torch"), None)
    for r in rows:
        r["x_torch"] = r["tflops"] / torch_rate if torch_rate else None
    rows.sort(key=lambda r: -r["tflops"])
    return rows


def print_table(all_rows: list[dict], top: int | None) -> None:
    print(f"{'shape':>12}  {'variant':<28} {'TFLOP/s':>8} {'median':>8} {'x torch':>8} {'inner':>6}  note")
    for shape in dict.fromkeys(r["shape"] for r in all_rows):
        rows = [r for r in all_rows if r["shape"] == shape]
        shown = rows if top is None else [r for i, r in enumerate(rows) if i < top or r["name"] in ("auto", "torch")]
        for r in shown:
            name = r["name"] if r["name"] != "auto" else f"auto={r['variant']}"
            ratio = f"{r['x_torch']:.2f}" if r["x_torch"] else "-"
            print(f"{shape:>12}  {name:<28} {r['tflops']:8.4g} {r['tflops_median']:8.4g} {ratio:>8} {r['inner']:6d}  "
                  f"{r['note']}")
        if len(shown) < len(rows):
            print(f"{'':>12}  ({len(rows) - len(shown)} slower variants not shown)")
        print()


def summary(all_rows: list[dict]) -> None:
    print("best variant per shape (answer checked):")
    snippet = []
    for shape in dict.fromkeys(r["shape"] for r in all_rows):
        rows = [r for r in all_rows if r["shape"] == shape]
        ok = [r for r in rows if r["name"] not in ("auto", "torch") and not r["note"]]
        auto = next((r for r in rows if r["name"] == "auto"), None)
        tr = next((r for r in rows if r["name"] == "torch"), None)
        if not ok:
            continue
        best = ok[0]
        line = f"  {shape:>12}: {best['name']:<28} {best['tflops']:7.4g} TFLOP/s"
        if best["x_torch"]:
            line += f" ({best['x_torch']:.2f}x torch {tr['tflops']:.4g})"
        if auto:
            line += f"; auto {auto['variant']} {auto['tflops']:.4g}"
        keep = auto is not None and not auto["note"] and best["tflops"] < KEEP_MARGIN * auto["tflops"]
        if keep:
            line += f" -> kept {auto['variant']} (best within {KEEP_MARGIN - 1:.0%} of it)"
        print(line)
        snippet.append(((best['M'], best['N'], best['K'], best['batch']), auto["variant"] if keep else best['name']))
    table = {k: mm.as_variant(v).name for k, v in mm.TABLE.items()}
    table.update(snippet)
    print("\nTABLE for wgarray/kernels/matmul.py (today's entries, the measured shapes replaced; paste over TABLE):")
    print("TABLE: dict[tuple[int, int, int, int], VariantLike] = {")
    for k, v in table.items():
        print(f"    {k}: \"{v}\",")
    print("}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.matmul_tune", description=__doc__.split("\n\n")[1])
    ap.add_argument("--quick", action="store_true", help="small shapes and a few variants (lavapipe smoke test)")
    ap.add_argument("--shapes", default=None, help=f"comma-separated: n, bxn, MxNxK, BxMxNxK (default {FULL_SHAPES})")
    ap.add_argument("--variants", default=None,
                    help="comma-separated variant names (default: all applicable; 'auto': only today's pick)")
    ap.add_argument("--all", action="store_true", help="every configuration of matmul.candidates() for every shape")
    ap.add_argument("--no-split", action="store_true", help="leave out split-K variants")
    ap.add_argument("--sms", type=int, default=132, help="SMs/CUs of the GPU: split-K applies below 2 groups an SM")
    ap.add_argument("--target-ms", type=float, default=None, help="sample length (default 50; quick 5)")
    ap.add_argument("--repeat", type=int, default=5, help="timed samples per variant (best is reported)")
    ap.add_argument("--budget", type=float, default=4.0, help="after 3 rounds, stop once a case spent this long")
    ap.add_argument("--max-inner", type=int, default=20000, help="most back-to-back calls a sample")
    ap.add_argument("--top", type=int, default=12,
                    help="show the N fastest variants a shape, plus auto and torch (default 12; 0: all)")
    ap.add_argument("--list", action="store_true", help="list the variants per shape and exit")
    ap.add_argument("--json", default=None, help="write every row to this JSON file")
    args = ap.parse_args(argv)
    shapes = [parse_shape(s) for s in (args.shapes or (QUICK_SHAPES if args.quick else FULL_SHAPES)).split(",")]
    names = [s.strip() for s in (args.variants or (QUICK_VARIANTS if args.quick else "")).split(",") if s.strip()]
    if args.target_ms is None:
        args.target_ms = 5.0 if args.quick else 50.0

    dev = wg.default_device()
    torch = find_torch()
    props = dev.properties
    print(f"matmul variants on {props.name} ({props.backend}, {props.adapter_type}, driver {props.driver}); "
          f"torch: {torch.device_name + ' ' + torch.version if torch.available else '- (' + torch.reason + ')'}")
    print(f"float32; a sample is `inner` back-to-back matmuls + 1 sync, >= {args.target_ms:g} ms; rate from the best "
          f"of {args.repeat} samples (median also shown)\n", flush=True)
    plan = [(s, variants_for(dev, s, args.sms, names, not args.no_split, args.all)) for s in shapes]
    if args.list:
        for s, vs in plan:
            print(f"{label(s)} ({len(vs)}): {' '.join(v.name for v in vs)}")
        return 0
    all_rows = []
    t_start = time.perf_counter()
    for s, vs in plan:
        t0 = time.perf_counter()
        print(f"{label(s)}: {len(vs)} variants ...", file=sys.stderr, flush=True)
        all_rows += tune_shape(dev, torch, s, vs, args)
        print(f"{label(s)}: done in {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    print_table(all_rows, args.top or None)
    summary(all_rows)
    print(f"\ntotal {time.perf_counter() - t_start:.1f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": f"{props.name} ({props.backend}) driver {props.driver}",
                       "torch": torch.device_name if torch.available else None, "rows": all_rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
