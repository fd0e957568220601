"""GPU radix sort variants (issue 18's GPU target): ``python -m benchmarks.sortgpu_sweep [--small] [--quick]``.

Times, in one process, wg.sort of 2^20, 2^22 and 2^24 float32 and wg.argsort of 2^24 with the default shape
(``radix.GPU``) and with every variant of the subgroup ranker (``Shape.ranker = "subgroup"``,
``shaders/radix_scatter_sg.wgsl``): invocations x keys an invocation x staged writes x atomic totals or stepwise
ranking, with the subgroup histogram (``sghist``; a few without it, with 1024 blocks; and the default with the
subgroup histogram), each against torch.sort (stable for argsort) in the same process when a CUDA torch
imports.  Every result is checked (against torch on CUDA, else numpy), untimed.  Times are the best of three
synchronised loops after a warm-up.  Then a phase breakdown of the default and of the subgroup variants that won:
the 2^24 sort's time with the scatter, the histogram, the digit scan or all three of a pass's kernels left out (the
result is then wrong and not checked), so full minus "no X" is the time of X's dispatches.

One line a case: ``<variant> <op> 2^e: <ms> ms, torch <ms> ms, speed <torch/ours>`` (speed >= 0.5 is the target)
and the shape the device resolved (a variant the device cannot run falls back to split4: its ``ranker`` then says
so).  ``--small``: sizes 2^10..2^14 and three shapes that fit a CPU adapter (lavapipe, subgroups of 8), to check
that it runs.  ``--quick``: the 2^24 rows only.  ``--only=TEXT`` (repeatable): the default and the variants whose
label contains TEXT (e.g. ``--only="items=8 staged=1"``).  Under 150 s on an H100/H200."""
from __future__ import annotations

import dataclasses
import sys
import time

import numpy as np

import wgarray as wg
from wgarray.kernels import launch, radix

from benchmarks.sort_ratio import best as _best

BUDGET_S = 105  # seconds of variants, then the phase breakdown (the whole run under 150 s on an H100/H200)


def variants(small: bool) -> list[tuple[str, radix.Shape]]:
    out = [("default", radix.GPU)]
    if small:
        for wgs, items, staged, atomic, step in ((64, 4, False, False, False), (64, 8, True, True, False),
                                                 (64, 8, True, False, True)):
            out.append((f"sg wg={wgs} items={items} staged={int(staged)} atomic={int(atomic)} stepwise={int(step)}"
                        f" sghist={int(atomic or step)}",
                        radix.Shape(wg=wgs, wide=256, max_blocks=16, tile=wgs * items, ranker="subgroup", sgmin=8,
                                    staged=staged, atomic_totals=atomic, sghist=atomic or step, stepwise=step)))
        return out

    def sg(wgs: int, items: int, staged: bool, atomic: bool, blocks: int = 4096, sghist: bool = True,
           stepwise: bool = False, **kw) -> None:
        label = f"sg wg={wgs} items={items} staged={int(staged)} atomic={int(atomic)} stepwise={int(stepwise)}"
        label += f" sghist={int(sghist)} blocks={blocks}" + "".join(f" {k}={v}" for k, v in kw.items())
        out.append((label, radix.Shape(wg=wgs, wide=256, max_blocks=blocks, tile=wgs * items, ranker="subgroup",
                                       staged=staged, atomic_totals=atomic, sghist=sghist, stepwise=stepwise,
                                       **kw)))
    out.append(("default sghist=1", dataclasses.replace(radix.GPU, sghist=True)))
    # the likeliest first (a sweep past its time budget skips the rest)
    for items in (8, 4, 16):
        for wgs in (256, 128):
            for staged, atomic, stepwise in ((1, 1, 0), (1, 0, 1), (0, 1, 0), (0, 0, 1), (1, 0, 0), (0, 0, 0)):
                sg(wgs, items, bool(staged), bool(atomic), stepwise=bool(stepwise))
    sg(256, 8, True, True, sghist=False)
    sg(256, 8, False, False, sghist=False)
    sg(256, 8, True, True, blocks=1024)
    sg(256, 8, False, False, blocks=1024)
    sg(256, 8, True, True, sgmin=32)  # a device that reports a smaller minimum than the 32 it runs
    sg(64, 16, True, True)
    return out


class _Skip:
    """Leaves the dispatches of the named radix kernels out while active (the phase breakdown)."""

    def __init__(self) -> None:
        self.names: dict[int, str] = {}
        self.skip: set[str] = set()
        self._compile, self._dispatch = launch.compile, launch.dispatch

        def compile(device, key, build):
            k = self._compile(device, key, build)
            if isinstance(key, tuple) and key and isinstance(key[0], str):
                self.names[id(k[0])] = key[0]
            return k

        def dispatch(device, kernel, *a, **kw):
            if self.names.get(id(kernel[0])) in self.skip:
                return None
            return self._dispatch(device, kernel, *a, **kw)
        launch.compile, launch.dispatch = compile, dispatch

    def close(self) -> None:
        launch.compile, launch.dispatch = self._compile, self._dispatch


def main() -> None:
    small = "--small" in sys.argv
    quick = "--quick" in sys.argv
    t_start = time.perf_counter()
    dev = wg.default_device()
    print(f"adapter: {dev.properties.adapter_type} {dev.properties.name}; subgroup sizes {dev.subgroup_sizes}, "
          f"features subgroup={'subgroup' in dev.features}; default shape {radix._shape(dev)}", flush=True)
    try:
        import torch
        cuda = torch.cuda.is_available()
    except Exception:  # noqa: BLE001 - torch is optional
        torch, cuda = None, False
    sizes = [10, 12, 14] if small else [20, 22, 24]
    if quick:
        sizes = sizes[-1:]
    top = sizes[-1]
    cases = [(e, "sort") for e in sizes] + [(top, "argsort")]
    rng = np.random.default_rng(0)
    data = {e: rng.standard_normal(1 << e).astype(np.float32) for e in sizes}
    arrays, wants, ref = {}, {}, {}
    for e, op in cases:
        x = data[e]
        if e not in arrays:
            arrays[e] = wg.asarray(x)
            arrays[e].mirror.buffer()
        if cuda:
            t = torch.from_numpy(x).cuda()
            stable = op == "argsort"
            r = torch.sort(t, stable=stable)
            wants[e, op] = (r.values if op == "sort" else r.indices).cpu().numpy()
            ref[e, op] = _best(lambda: torch.sort(t, stable=stable), torch.cuda.synchronize, 20)
        else:
            wants[e, op] = np.sort(x) if op == "sort" else np.argsort(x, kind="stable")
    dev.synchronize()
    reps = {e: (20 if e < 22 else 5) for e in sizes}
    default = radix.GPU, radix.CPU
    results: dict[str, float] = {}

    def row(label: str, e: int, op: str, check: bool = True) -> float:
        a = arrays[e]
        f = getattr(wg, op)
        ok = np.array_equal(f(a).numpy(), wants[e, op]) if check else True
        t = _best(lambda: f(a), dev.synchronize, reps[e])
        tt = ref.get((e, op))
        extra = f", torch {tt * 1e3:.3f} ms, speed {tt / t:.3f}" if tt else ""
        print(f"{label:<52} {op:<7} 2^{e}: {t * 1e3:8.3f} ms{extra}{'' if ok else '  !! MISMATCH'}", flush=True)
        return t

    try:
        only = [a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--only=")]
        for label, shp in variants(small):
            if only and label != "default" and not any(o in label for o in only):
                continue
            if time.perf_counter() - t_start > BUDGET_S:
                print(f"-- {label}: skipped (past the {BUDGET_S} s budget)", flush=True)
                continue
            radix.GPU = radix.CPU = shp  # the GPU kernels on any adapter
            used = radix._shape(dev)
            print(f"-- {label}: {used}", flush=True)
            try:
                for e, op in cases:
                    t = row(label, e, op)
                    if e == top and op == "sort":
                        results[label] = t
            except Exception as exc:  # noqa: BLE001 - report a shape the device refuses, keep sweeping
                print(f"{label}: failed: {type(exc).__name__}: {exc}"[:400], flush=True)
        ranked = sorted((t, label) for label, t in results.items() if label != "default")
        print(f"-- best at 2^{top} sort: " + "; ".join(f"{lab} {t * 1e3:.3f} ms" for t, lab in ranked[:5]))
        skip = _Skip()
        try:
            names = dict(variants(small))
            for label in ["default"] + [lab for _, lab in ranked[:1 if small else 2]]:
                radix.GPU = radix.CPU = names[label]
                full = row(f"phases {label}: full", top, "sort", check=False)
                for parts in (("radix_scatter",), ("radix_hist",), ("radix_dscan",),
                              ("radix_hist", "radix_dscan", "radix_scatter")):
                    skip.skip = set(parts)
                    t = row(f"phases {label}: no {'+'.join(p[6:] for p in parts)}", top, "sort", check=False)
                    print(f"   => {'+'.join(p[6:] for p in parts)}: {(full - t) * 1e3:.3f} ms of {full * 1e3:.3f}")
                    skip.skip = set()
        finally:
            skip.close()
    finally:
        radix.GPU, radix.CPU = default
    print(f"-- {time.perf_counter() - t_start:.1f} s")


if __name__ == "__main__":
    main()
