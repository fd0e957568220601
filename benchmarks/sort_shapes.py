"""Radix sort launch shapes on a GPU (issue 18): ``python -m benchmarks.sort_shapes``.

Times wg.sort and wg.argsort of 2^14, 2^20 and 2^24 float32 (or the log2 sizes given) with wgarray's shape, then
wg.sort of the largest under the GPU kernels with other shapes (scatter invocations x maximum blocks), against
torch.sort (stable for argsort) when a CUDA torch imports.
Each case is checked against numpy once, untimed; times are the best of three synchronised loops after warm-up.
Prints one line a case; the ``speed`` column is torch time / wgarray time (>= 0.5 is the issue's target)."""
from __future__ import annotations

import sys

import numpy as np

import wgarray as wg
from wgarray.kernels import radix

from benchmarks.sort_ratio import best as _best


def main() -> None:
    dev = wg.default_device()
    print(f"adapter: {dev.properties.adapter_type} {dev.properties.name}; radix.GPU = {radix.GPU}")
    try:
        import torch
        cuda = torch.cuda.is_available()
    except Exception:  # noqa: BLE001 - torch is optional
        torch, cuda = None, False
    sizes = [int(v) for v in sys.argv[1:]] or [14, 20, 24]  # log2 sizes; the shape sweep sorts the largest
    top = max(sizes)
    rng = np.random.default_rng(0)
    data = {e: rng.standard_normal(1 << e).astype(np.float32) for e in sizes}
    arrays = {}
    for e, x in data.items():
        a = wg.asarray(x)
        a.mirror.buffer()
        arrays[e] = a
    dev.synchronize()
    ref = {}

    def torch_ms(e: int, stable: bool) -> float | None:
        if not cuda:
            return None
        key = (e, stable)
        if key not in ref:
            t = torch.from_numpy(data[e]).cuda()
            ref[key] = _best(lambda: torch.sort(t, stable=stable), torch.cuda.synchronize, 20)
        return ref[key]

    def row(label: str, e: int, op: str, reps: int) -> None:
        a, x = arrays[e], data[e]
        f = getattr(wg, op)
        want = np.sort(x) if op == "sort" else np.argsort(x, kind="stable")
        ok = np.array_equal(f(a).numpy(), want)
        t = _best(lambda: f(a), dev.synchronize, reps)
        tt = torch_ms(e, op == "argsort")
        extra = f", torch {tt * 1e3:.3f} ms, speed {tt / t:.3f}" if tt else ""
        print(f"{label:<28} {op:<7} 2^{e}: {t * 1e3:8.3f} ms{extra}{'' if ok else '  !! MISMATCH'}", flush=True)

    for e in sizes:
        for op in ("sort", "argsort"):
            row("default", e, op, 20 if e < 24 else 5)
    default = radix.GPU, radix.CPU
    try:
        for wgs in (64, 128, 256):
            for blocks in (1024, 2048, 4096, 8192, 16384):
                radix.GPU = radix.CPU = radix.Shape(wg=wgs, wide=256, max_blocks=blocks)  # any adapter
                row(f"wg={wgs} max_blocks={blocks}", top, "sort", 5)
    finally:
        radix.GPU, radix.CPU = default


if __name__ == "__main__":
    main()
