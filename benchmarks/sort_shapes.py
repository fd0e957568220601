"""Radix sort launch shapes (issue 18): ``python -m benchmarks.sort_shapes [log2 sizes...]``.

Times wg.sort and wg.argsort of 2^14, 2^20 and 2^24 float32 (or the log2 sizes given) with wgarray's shape, then
wg.sort of the largest under other shapes: on a GPU the tiled scatter's invocations x tile (keys an invocation =
tile / invocations) x maximum blocks, on a CPU adapter (lavapipe) the digit width x maximum blocks of the chunked
kernels; against torch.sort (stable for argsort) when a CUDA torch imports.  Each case is checked against numpy
(computed once a size), untimed; times are the best of three synchronised loops after warm-up.  Prints one line
a case (``SORT_SHAPES_SWEEP=gpu`` sweeps the GPU kernels on a CPU adapter too); the ``speed`` column is torch
time / wgarray time (>= 0.5 is the issue's target).  Under 60 s on an H200."""
from __future__ import annotations

import dataclasses
import os
import sys

import numpy as np

import wgarray as wg
from wgarray.kernels import radix

from benchmarks.sort_ratio import best as _best

GPU_SWEEP = [(wgs, tile, blocks) for wgs, tile in ((64, 1024), (128, 1024), (256, 1024), (64, 2048), (128, 2048),
                                                    (256, 2048), (128, 4096), (256, 4096))
             for blocks in (1024, 4096, 16384)]
CPU_SWEEP = [(bits, blocks) for bits in (8, 11) for blocks in (8, 16, 32)]


def main() -> None:
    dev = wg.default_device()
    cpu = dev.properties.adapter_type == "CPU"
    print(f"adapter: {dev.properties.adapter_type} {dev.properties.name}; shape in use: {radix._shape(dev)}")
    try:
        import torch
        cuda = torch.cuda.is_available()
    except Exception:  # noqa: BLE001 - torch is optional
        torch, cuda = None, False
    sizes = [int(v) for v in sys.argv[1:]] or [14, 20, 24]  # log2 sizes; the shape sweep sorts the largest
    top = max(sizes)
    rng = np.random.default_rng(0)
    data = {e: rng.standard_normal(1 << e).astype(np.float32) for e in sizes}
    arrays, wants = {}, {}
    for e, x in data.items():
        a = wg.asarray(x)
        a.mirror.buffer()
        arrays[e] = a
        wants[e, "sort"] = np.sort(x)
        wants[e, "argsort"] = np.argsort(x, kind="stable")
    dev.synchronize()
    ref: dict = {}

    def torch_ms(e: int, stable: bool) -> float | None:
        if not cuda:
            return None
        key = (e, stable)
        if key not in ref:
            t = torch.from_numpy(data[e]).cuda()
            ref[key] = _best(lambda: torch.sort(t, stable=stable), torch.cuda.synchronize, 20)
        return ref[key]

    def row(label: str, e: int, op: str, reps: int) -> None:
        a = arrays[e]
        f = getattr(wg, op)
        ok = np.array_equal(f(a).numpy(), wants[e, op])
        t = _best(lambda: f(a), dev.synchronize, reps)
        tt = torch_ms(e, op == "argsort")
        extra = f", torch {tt * 1e3:.3f} ms, speed {tt / t:.3f}" if tt else ""
        print(f"{label:<34} {op:<7} 2^{e}: {t * 1e3:8.3f} ms{extra}{'' if ok else '  !! MISMATCH'}", flush=True)

    for e in sizes:
        for op in ("sort", "argsort"):
            row("default", e, op, 20 if e < 24 else 5)
    default = radix.GPU, radix.CPU
    limit = dev.properties.limits.max_compute_workgroup_storage_size
    try:
        if cpu and os.environ.get("SORT_SHAPES_SWEEP") != "gpu":
            for bits, blocks in CPU_SWEEP:
                radix.CPU = dataclasses.replace(default[1], bits=bits, max_blocks=blocks)
                row(f"cpu bits={bits} max_blocks={blocks}", top, "sort", 3)
        else:
            for wgs, tile, blocks in GPU_SWEEP:
                shp = radix.Shape(wg=wgs, wide=256, max_blocks=blocks, tile=tile)
                if shp.scatter_bytes > limit:
                    print(f"wg={wgs} tile={tile}: {shp.scatter_bytes} bytes of workgroup memory > {limit}, skipped")
                    continue
                radix.GPU = radix.CPU = shp  # the GPU kernels on any adapter
                try:
                    row(f"wg={wgs} tile={tile} max_blocks={blocks}", top, "sort", 5)
                except Exception as exc:  # noqa: BLE001 - report a shape the device refuses, keep sweeping
                    print(f"wg={wgs} tile={tile} max_blocks={blocks}: failed: {type(exc).__name__}: {exc}"[:300])
    finally:
        radix.GPU, radix.CPU = default


if __name__ == "__main__":
    main()
