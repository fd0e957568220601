"""GPU radix sort variants (issue 18's GPU target): ``python -m benchmarks.sortgpu_sweep [--small] [--quick]``.

Times, in one process, wg.sort of 2^20, 2^22 and 2^24 float32 and wg.argsort of 2^24 with the default shape
(``radix.GPU`` as imported) and with variants of the register ranker (``shaders/radix_scatter_reg.wgsl``:
invocations x keys, blocks, ``dscan_regs``, ``direct``, ``prefetch`` (pf), ``scan_bases`` (sb), ``nibbles`` (nib),
``fold_pad`` (fp), phase 6's pair knobs ``stage`` (st), ``stage_keys`` (sk), ``gen_index`` (gen), ``direct_index``
(di), on by default since phase 7 (the H100 sweep of gpu_results s23: argsort 1.94 ms against 2.32); blocks and
dscan regs as sorts/pair sorts), each against torch.sort (stable for argsort) in the same process when a CUDA torch
imports. Every result is checked (against torch on CUDA, else numpy), untimed. Times are the best of three
synchronised loops after a warm-up. Then a phase breakdown of the default and of the two fastest variants (sort),
and of the default and the fastest argsort (argsort): the 2^24 sort's time with only some kernels recorded (the
result is then wrong and not checked): scatter = full - (all but the scatters), hist = (init, stats, histograms,
gather) - (init, stats, gather), dscan likewise, gather = full - (all but the gather); init+stats alone, nothing
recorded (the host's and the allocations' share), and the host's time to record (not run) one sort: if that is near
init+stats, those phases are host time that the full sort overlaps. (Without the scatters the later histograms
count a buffer no pass wrote: if it holds zeros, one digit contends for one counter, so hist is then an upper
bound.)

One line a case: ``<variant> <op> 2^e: <ms> ms, torch <ms> ms, speed <torch/ours>`` (speed >= 0.5 is the target)
and the shape the device resolved (a tile that does not fit the device's workgroup memory is halved: the printed
shape says so). ``--small``: sizes 2^10 and 2^12 and shapes that fit a CPU adapter (lavapipe), to check that it
runs. ``--quick``: the 2^24 rows only. ``--only=TEXT`` (repeatable): the default and the variants whose label
contains TEXT (e.g. ``--only="reg wg=256"``). Under 150 s on an H100/H200."""
from __future__ import annotations

import dataclasses
import sys
import time

import numpy as np

import wgarray as wg
from wgarray.kernels import launch, radix

from benchmarks.sort_ratio import best as _best

BUDGET_S = 70  # seconds of variants, then the phase breakdown (the whole run under 100 s on an H100/H200)


DEFAULT = radix.GPU  # the default GPU shape, before the sweep replaces radix.GPU


_FLAGS = (("prefetch", "pf"), ("scan_bases", "sb"), ("nibbles", "nib"), ("fold_pad", "fp"), ("stage", "st"),
          ("stage_keys", "sk"), ("gen_index", "gen"), ("direct_index", "di"), ("direct", "direct"))


def label(shp: radix.Shape) -> str:
    """wg, keys an invocation, blocks/dscan (sorts; pair sorts after the slash), knobs."""
    pb, pd = shp.pair_blocks or shp.max_blocks, shp.pair_dscan or shp.dscan_regs
    out = [f"reg wg={shp.wg} items={shp.items} blocks={shp.max_blocks}/{pb} dscan={shp.dscan_regs}/{pd}"]
    return " ".join(out + [short for name, short in _FLAGS if getattr(shp, name)])


def variants(small: bool) -> list[tuple[str, radix.Shape]]:
    out = [("default", DEFAULT)]

    def var(base: radix.Shape | None = None, **knobs) -> None:
        shp = dataclasses.replace(base or DEFAULT, **knobs)
        out.append((label(shp), shp))

    pairs_off = dict(stage=False, stage_keys=False, gen_index=False, direct_index=False)
    if small:  # lavapipe: 4-16 blocks of 1024-key tiles
        small_ = dataclasses.replace(DEFAULT, max_blocks=4, dscan_regs=4, pair_blocks=16, pair_dscan=16)
        var(small_)
        var(small_, **pairs_off)
        for knob in ("stage_keys", "gen_index", "direct_index"):
            var(small_, **{knob: False})
        var(radix.Shape(wg=64, wide=256, max_blocks=8, tile=256, prefetch=True, stage=True,
                        stage_keys=True, gen_index=True, direct_index=True))
        return out
    # phase 7: the default (phase 6's pair knobs on) against phase 6's default (them off) and each knob left out
    # (stage without stage_keys: the staged payload alone); phase 6's runners-up: 128 x 8 with 4096 blocks, 2048
    # pair blocks; phase 5's reference (4096 blocks, dscan 16,
    # none of the knobs)
    var(**pairs_off)
    var(stage_keys=False)
    var(gen_index=False)
    var(direct_index=False)
    var(gen_index=False, direct_index=False)
    var(wg=128, tile=1024, max_blocks=4096, dscan_regs=16)
    var(pair_blocks=2048, pair_dscan=8)
    var(max_blocks=4096, dscan_regs=16, prefetch=False, scan_bases=False, nibbles=False, fold_pad=False, **pairs_off)
    return out


class _Skip:
    """Leaves the dispatches of the named radix kernels out while active (the phase breakdown)."""

    def __init__(self) -> None:
        self.names: dict[int, str] = {}
        self.skip: set[str] = set()
        self._compile, self._dispatch = launch.compile, launch.dispatch

        def compile(device, key, build, **kw):
            k = self._compile(device, key, build, **kw)
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
    print(f"adapter: {dev.properties.adapter_type} {dev.properties.name}; workgroup memory "
          f"{dev.properties.limits.max_compute_workgroup_storage_size} B; default shape {radix._shape(dev)}",
          flush=True)
    try:
        import torch
        cuda = torch.cuda.is_available()
    except Exception:  # noqa: BLE001 - torch is optional
        torch, cuda = None, False
    sizes = [10, 12] if small else [20, 22, 24]
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
    listed = variants(small)
    names = dict(listed)
    assert len(names) == len(listed), "two variants with one label"
    results: dict[tuple[str, str], float] = {}

    def row(label: str, e: int, op: str, check: bool = True) -> float:
        a = arrays[e]
        f = getattr(wg, op)
        ok = np.array_equal(f(a).numpy(), wants[e, op]) if check else True
        t = _best(lambda: f(a), dev.synchronize, reps[e])
        tt = ref.get((e, op))
        extra = f", torch {tt * 1e3:.3f} ms, speed {tt / t:.3f}" if tt else ""
        print(f"{label:<86} {op:<7} 2^{e}: {t * 1e3:8.3f} ms{extra}{'' if ok else '  !! MISMATCH'}", flush=True)
        return t

    try:
        only = [a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--only=")]
        for label, shp in names.items():
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
                    if e == top:
                        results[label, op] = t
            except Exception as exc:  # noqa: BLE001 - report a shape the device refuses, keep sweeping
                print(f"{label}: failed: {type(exc).__name__}: {exc}"[:400], flush=True)
        best = {}
        for op in ("sort", "argsort"):
            ranked = sorted((t, lab) for (lab, o), t in results.items() if o == op and lab != "default")
            best[op] = [lab for _, lab in ranked[:1 if small else 2]]
            print(f"-- best at 2^{top} {op}: " + "; ".join(f"{lab} {t * 1e3:.3f} ms" for t, lab in ranked[:5]))
        skip = _Skip()
        try:
            for op, label in [("sort", "default")] + [("sort", lab) for lab in best["sort"]] + \
                    [("argsort", "default")] + [("argsort", lab) for lab in best["argsort"][:1]]:
                radix.GPU = radix.CPU = names[label]
                full = row(f"phases {label}: full", top, op, check=False)
                # the host's share: recording (not running) one sort, the device idle before each call
                a = arrays[top]
                rec = []
                for _ in range(5):
                    dev.synchronize()
                    t0 = time.perf_counter()
                    getattr(wg, op)(a)
                    rec.append(time.perf_counter() - t0)
                dev.synchronize()
                print(f"phases {label}: recording one {op} on the host {min(rec) * 1e3:.3f} ms", flush=True)
                t = {}
                # kernels left out: with the histograms and scans in place the scatter gets valid counts; a
                # histogram or scan alone runs on valid keys (its cost does not depend on the counts it reads)
                for name, parts in (("none", ("radix_hist", "radix_dscan", "radix_scatter")),
                                    ("hist", ("radix_dscan", "radix_scatter")), ("dscan", ("radix_hist", "radix_scatter")),
                                    ("hist+dscan", ("radix_scatter",)), ("no gather", ("sort_gather",)),
                                    ("only init+stats", ("radix_hist", "radix_dscan", "radix_scatter", "sort_gather")),
                                    ("nothing", ("radix_init", "radix_stats", "radix_hist", "radix_dscan", "radix_scatter",
                                                 "sort_gather"))):
                    skip.skip = set(parts)
                    shown = name if name in ("no gather", "only init+stats", "nothing") else \
                        "init+stats+gather" + ("" if name == "none" else f"+{name}")
                    t[name] = row(f"phases {label}: {shown}", top, op, check=False)
                    skip.skip = set()
                print(f"   => {op}: scatter {(full - t['hist+dscan']) * 1e3:.3f} ms, hist {(t['hist'] - t['none']) * 1e3:.3f}, "
                      f"dscan {(t['dscan'] - t['none']) * 1e3:.3f}, gather {(full - t['no gather']) * 1e3:.3f}, "
                      f"init+stats+gather {t['none'] * 1e3:.3f}, init+stats {t['only init+stats'] * 1e3:.3f}, "
                      f"nothing recorded {t['nothing'] * 1e3:.3f} of {full * 1e3:.3f} ms")
        finally:
            skip.close()
    finally:
        radix.GPU, radix.CPU = default
    print(f"-- {time.perf_counter() - t_start:.1f} s")


if __name__ == "__main__":
    main()
