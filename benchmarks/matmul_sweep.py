"""`python -m benchmarks.matmul_sweep [--small] [--shapes KEYS] [--json PATH]`: the float32 matmul's inner-loop
variants against torch (issue 17 row 2; ~1 minute on an H100).

Per shape (1024^2, 4096^2, 8192^2 and 64 x 256^2; ``--small``: 128^2, 200^2, 8 x 64^2 for lavapipe) it times what
wgarray picks today ("auto"), the same variant built without naga's runtime checks (``_u``: the module through
wgpu-native's ``wgpuDeviceCreateShaderModuleTrusted``, no index clamps in the inner loop, no forced loop bound),
the double-buffered loop unrolled by two slices (``_db2``: constant workgroup-memory offsets), the warp layout
(``_w``: 32 consecutive invocations over 8 x 4 register blocks, fewer shared-memory wavefronts a k), and the
runners-up of the last H100 sweep with these; torch (CUDA, TF32 off) alongside.  Each
variant's answer is checked against torch's (numpy's without torch) before timing; a mismatch is flagged in the
note column.  Timing is ``matmul_tune.tune_shape`` (``benchmarks.timing.measure_all``: variants interleaved round
by round, a sample >= 50 ms of back-to-back matmuls and one synchronisation, best of 5).

Reading it: one line per variant, TFLOP/s (best and median) and the ratio to torch.  A ``_u`` variant beating
its checked twin by more than noise (~2%) at a shape means the clamps cost that much there: put the ``_u`` name in
``wgarray/kernels/matmul.py``'s TABLE for that shape (and ``unchecked=True`` into BIG / SMALL / SPLIT_BASE if it
wins at every shape).  Likewise a ``_db2`` beating its ``_db`` twin, a ``_w`` its plain twin (the same tile
otherwise).
"""
from __future__ import annotations

import argparse
import sys
import time
from types import SimpleNamespace

import wgarray as wg
from wgarray import device as wdev
from wgarray.kernels import matmul as mm

from .matmul_tune import label, parse_shape, print_table, tune_shape
from .peers import find_torch

# per shape: the variants to time besides "auto" (auto's own ``_u`` twin is added); from the last H100 sweep's
# leaders (gpu_results s23 6_mm.txt) and the tiles that are plausible for the shape
SHAPES = {
    "1024": "128x128_8x8_k16_r_db2_s4 128x128_8x8_k16_r_db2_s4_u 128x128_8x8_k16_r_w_db_s4_u "
            "128x128_8x8_k16_r_w_db2_s4_u 128x64_8x8_k16_r_db_s2_u 64x64_4x4_k16_db 64x64_4x4_k16_db_u "
            "64x64_4x4_k16_db2 64x64_4x4_k16_db2_u 64x64_4x4_k16_w_db 64x64_4x4_k16_w_db_u 64x64_4x4_k16_w_db2_u "
            "128x128_8x8_k16_r_db_s2_u 64x128_4x8_k16_r_db_u 64x128_4x8_k16_r_w_db_u 64x128_4x8_k16_r_db_s2_u",
    "4096": "128x256_8x16_k8_r_db2 128x256_8x16_k8_r_db2_u 128x256_8x16_k8_r_w_db 128x256_8x16_k8_r_w_db_u "
            "128x128_8x8_k16_r_db_u 128x128_8x8_k16_r_db2_u 128x128_8x8_k16_r_w_db2_u 128x256_8x16_k16_r_db_u "
            "128x128_8x8_k32_r_u",
    "8192": "128x256_8x16_k8_r_db2 128x256_8x16_k8_r_db2_u 128x256_8x16_k8_r_w_db_u 128x128_8x8_k16_r_db2_u",
    # 64 x 256^2 (phase 2): the s24 leader (now TABLE's, auto) and runners-up, against more and smaller workgroups
    # (64x128 / 128x64 tiles: 512 workgroups of 128 invocations instead of 256 of 256), a shallower slice (k8:
    # half the workgroup memory a workgroup, more resident) and split-K 2 (K = 256 in two halves, a sum pass)
    "64x256": "128x128_8x8_k16_w_db2 128x128_8x8_k16_r_db_u 128x128_8x8_k16_r_w_db2_u 128x128_8x8_k16_w_db_u "
              "64x128_4x8_k16_r_w_db2_u 64x128_4x8_k16_w_db2_u 64x128_8x8_k16_w_db2_u 64x128_8x8_k16_r_w_db2_u "
              "128x64_8x8_k16_w_db2_u 128x64_8x8_k16_r_w_db2_u 128x128_8x8_k8_w_db2_u 128x128_8x8_k16_w_db2_s2_u",
}
SMALL = {"128": SHAPES["1024"], "200": SHAPES["4096"], "8x64": SHAPES["64x256"]}


def plan(dev, table: dict[str, str]) -> list[tuple[tuple[int, int, int, int], list[mm.Variant]]]:
    out = []
    for spec, names in table.items():
        shape = parse_shape(spec)
        auto = mm.choose(*shape)
        vs = [auto.replace(unchecked=True)] + [mm.as_variant(n) for n in names.split()]
        seen, keep = {auto}, []
        for v in vs:
            if v not in seen and mm.fits(v, dev, *shape):
                seen.add(v)
                keep.append(v)
        out.append((shape, keep))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.matmul_sweep", description=__doc__.split("\n\n")[0])
    ap.add_argument("--small", action="store_true", help="small shapes, short samples (lavapipe)")
    ap.add_argument("--repeat", type=int, default=5, help="timed samples per variant (best is reported)")
    ap.add_argument("--json", default=None, help="write every row to this JSON file")
    ap.add_argument("--budget-s", type=float, default=120.0,
                    help="start no further shape after this many seconds (the run's limit is 150 s)")
    ap.add_argument("--shapes", default=None,
                    help="comma-separated keys of the shape table to run (e.g. 64x256; --small: 8x64); default all")
    args = ap.parse_args(argv)
    table = SMALL if args.small else SHAPES
    if args.shapes:
        table = {k: table[k] for k in args.shapes.split(",")}
    targs = SimpleNamespace(repeat=args.repeat, budget=2.0 if args.small else 4.0,
                            target_ms=5.0 if args.small else 50.0, max_inner=20000)
    dev = wg.default_device()
    torch = find_torch()
    header("matmul", dev, torch, "_u rows")
    print(f"float32; a sample is `inner` back-to-back matmuls + 1 sync, >= {targs.target_ms:g} ms; best of "
          f"{targs.repeat} samples (median also shown)\n", flush=True)
    rows = []
    t_start = time.perf_counter()
    for shape, vs in plan(dev, table):
        if time.perf_counter() - t_start > args.budget_s:
            print(f"{label(shape)}: SKIPPED (past --budget-s {args.budget_s:g})", flush=True)
            continue
        t0 = time.perf_counter()
        rows += tune_shape(dev, torch, shape, vs, targs)
        print(f"{label(shape)}: {len(vs) + 1} variants in {time.perf_counter() - t0:.1f} s", file=sys.stderr,
              flush=True)
    print_table(rows, None)
    bad = [r for r in rows if r["note"]]
    print("answers: " + ("all checked ok" if not bad else f"{len(bad)} flagged: "
                         + ", ".join(f"{r['shape']} {r['name']} {r['note']}" for r in bad)))
    print("best per shape: " + "; ".join(
        f"{s} {r['name'] if r['name'] != 'auto' else 'auto=' + r['variant']} {r['x_torch'] or 0:.2f}x"
        for s in dict.fromkeys(r["shape"] for r in rows)
        for r in [next(r for r in rows if r["shape"] == s and r["name"] != "torch" and not r["note"])]))
    print(f"total {time.perf_counter() - t_start:.1f} s")
    dump(args.json, dev, rows)
    return 0


def header(what: str, dev, torch, rows: str) -> None:
    """The sweep's first line: the adapter, torch, and whether modules without runtime checks exist (else the
    ``rows`` named are checked modules)."""
    props = dev.properties
    print(f"{what} sweep on {props.name} ({props.backend}, driver {props.driver}); torch: "
          f"{torch.device_name + ' ' + torch.version if torch.available else '- (' + torch.reason + ')'}; "
          f"unchecked modules: {'yes' if wdev.unchecked_available() else f'NO (the {rows} are checked modules)'}")


def dump(path: str | None, dev, rows: list[dict]) -> None:
    """Every row to the JSON file ``path`` (None: nothing)."""
    if path:
        import json
        props = dev.properties
        with open(path, "w") as f:
            json.dump({"device": f"{props.name} ({props.backend}) driver {props.driver}", "rows": rows}, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
