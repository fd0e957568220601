"""eigh and svd (float32, one n x n matrix; issue 12 / 17 row 3): where the block Jacobi's time goes, and every knob
of ``wgarray/api/linalg/blockjac.py`` / ``wgarray/kernels/linalg_spectral.py`` against the default, next to numpy
(LAPACK on the host's cores) and torch (cuSOLVER) in the same process.

    python -m benchmarks.spectral_sweep --ops eigh   # n = 1024 (the GPU run, one op a run: <= 150 s on an H100)
    python -m benchmarks.spectral_sweep --ops svd
    python -m benchmarks.spectral_sweep --small      # n = 64, b = 16 with the same variants (lavapipe)
    python -m benchmarks.spectral_sweep --ops eigh svd --variants default nofeed check6 check6_nofeed

Two tables an op:

- variants: the whole call for the default and every knob setting (``VARIANTS`` below: name -> settings), its best
  and median synchronised time (timed in rounds: every variant once a round, so drift hits all alike), ratio to
  numpy and to torch (> 1: wgarray faster), the block size b, dispatches a call, outer sweeps, the backward error (eigh
  max|A V - V W|, svd max|A - U S V^T|, over eps n ||A||) and the values' error against numpy's (max |w - w_numpy|
  over eps n ||A||); "BAD" above 10 (the tests' C).  A variant whose solver does not fit the device's workgroup
  memory says so.
- phases (the default, and the fastest variant when that is another): one call recorded launch by launch (the block
  path's init, solve (+ permute: eigh's one dispatch), permute, Gram / rotation matmuls,
  extract), then each kind's launches replayed alone, back to back in one synchronised sample (best of a few): ms a
  call, launches, us a launch, share of the call.  Replays run on the call's own buffers, each writing the same
  output as its original (so consecutive replays are ordered as the real chain is).  One launch of each kind is
  kept a sweep (its second step's) and replayed for all the launches of its sweep, so ~20 MB x sweeps stay alive,
  not the whole run; a sweep's first step (its pairs' own blocks not yet diagonal) costs the solver more than the
  replay says.  "solve alone" / "permute alone" split the combined dispatch (not summed); "rest" is the call's time
  less the summed kinds (the flag reads, one a sweep; ordering, U; host gaps).

How to read it: a variant that beats "default" for an op at n = 1024 should become the default there; the knob and
its file are in ``VARIANTS`` (K = kernels/linalg_spectral.py, B = api/linalg/blockjac.py, S = runtime/stream.py):
``nofeed`` faster for both ops -> ``stream.WORK_FEED`` costs the spectral ops (the lead's knob, shared by every op);
``check6*`` faster -> ``blockjac.CHECK_FROM = 6``; ``nopad*`` faster -> ``J_PAD = 0`` (not expected: 152 against 91
ms for eigh on the H100); ``inner2`` -> ``INNER_SWEEPS = 2``.  If "solve" dominates the phases table, the subproblem
solver is still the thing to speed; if the matmuls do, it is their shape (k batched 2b x 2b by 2b x (n + N)).
"""
from __future__ import annotations

import argparse
import contextlib
import importlib
import time
from unittest import mock

import numpy as np

from benchmarks.linalg_big import _time
from benchmarks.spectral_block import _check, _wg_call

# name -> settings {(module, attribute): value}; K = wgarray.kernels.linalg_spectral, B = wgarray.api.linalg.blockjac,
# S = wgarray.runtime.stream
VARIANTS: dict[str, dict] = {  # the likelier winners first (the time guard skips the tail)
    # The default: b = 32 (the largest that fits: K.block_size), one inner sweep a step from n = 256 (K.INNER_SWEEPS,
    # K.CONVERGE_BELOW), the packed subproblem, two barriers an inner step, J's rows padded (K.J_PAD = 1), main's
    # WORK_FEED (S: early submits with its back-off) on.  Knobs: WORK_FEED (None: off), CHECK_FROM (B: the first
    # sweep whose convergence flag is read), J_PAD (0: phase 2's default), BLOCK (B), INNER_SWEEPS (K).
    "default": {},
    "nofeed": {("S", "WORK_FEED"): None},
    "check6": {("B", "CHECK_FROM"): 6},
    "check6_nofeed": {("B", "CHECK_FROM"): 6, ("S", "WORK_FEED"): None},
    "nopad": {("K", "J_PAD"): 0},
    "nopad_nofeed": {("K", "J_PAD"): 0, ("S", "WORK_FEED"): None},
    "inner2": {("K", "INNER_SWEEPS"): 2},
    "old": {("B", "BLOCK"): 16, ("K", "INNER_SWEEPS"): 30, ("K", "J_PAD"): 0},  # phase 1's: b = 16, to convergence
}
OPS = ("eigh", "svd")
SMALL = False  # --small: n = 64 with b = 16 (two block pairs a step) and the inner sweeps of n >= 256


def _modules():
    from wgarray.api.linalg import blockjac
    from wgarray.kernels import linalg_spectral
    from wgarray.runtime import stream
    return {"B": blockjac, "K": linalg_spectral, "S": stream}


@contextlib.contextmanager
def knobs(settings: dict):
    """The knob settings in force inside the block (the old values back after); the block path on any adapter,
    and with ``SMALL`` blocks of 16 and the inner sweeps of n >= 256 at the small sizes too."""
    mods = _modules()
    small = {("B", "BLOCK"): 16, ("K", "CONVERGE_BELOW"): 0} if SMALL else {}
    settings = {("B", "ON_CPU"): True, **small, **settings}
    with contextlib.ExitStack() as stack:
        for (m, attr), v in settings.items():
            stack.enter_context(mock.patch.object(mods[m], attr, v))
        yield


def _fits(dev, settings: dict, n: int) -> bool:
    import wgarray as wg
    mods = _modules()
    with knobs(settings):
        b = mods["B"]._block(dev, wg.float32, n)
        return mods["K"].block_bytes(b, wg.float32) <= dev.properties.limits.max_compute_workgroup_storage_size


def _inputs(n: int) -> dict:
    rng = np.random.default_rng(17)
    x = rng.standard_normal((n, n), dtype=np.float32)
    return {"eigh": ((x + x.T) / 2).astype(np.float32), "svd": x}


def _call(op: str, a):
    """One call of the op, ended by a host read of its values' first element (so the device finished)."""
    f = _wg_call(op, a)

    def run():
        res = f()
        res[0][:1].numpy()
        return res
    return run


def _errors(op: str, x: np.ndarray, res, ref_vals: np.ndarray) -> tuple[float, float]:
    """(backward error, values' error against numpy's), both over eps n ||A||."""
    scale = np.finfo(np.float32).eps * x.shape[-1] * np.linalg.norm(x.astype(np.float64))
    return _check(op, x, res), float(np.abs(res[0].numpy().astype(np.float64) - ref_vals).max() / scale)


def record(dev, call) -> tuple[dict[str, list], int]:
    """One call with the block path's launches wrapped: ({kind: [replay closures, one a sweep]}, launches of each
    kind in ``counts``), and the outer sweeps."""
    mm_mod = importlib.import_module("wgarray.ops.matmul")  # the module (wgarray.ops.matmul is also its function)
    mods = _modules()
    B, K = mods["B"], mods["K"]
    kinds: dict[str, list] = {}
    counts: dict[str, int] = {}
    sweeps = [0]
    orig_phase, orig_matmul, orig_flagged, orig_run = K.block_phase, B._matmul, B._flagged, mm_mod._mm.run
    state = {"in_step": 0, "every": 1}

    def keep(kind: str, fn, once: bool = False) -> None:
        # one launch a sweep: its second step's (the first step of a sweep is the costlier one: its pairs' own
        # blocks are not diagonal yet), all of a kind launched once
        c = counts.get(kind, 0)
        counts[kind] = c + 1
        if once or c % state["every"] == min(1, state["every"] - 1):
            kinds.setdefault(kind, []).append(fn)

    def phase(device, ph, two_sided, shape, arrays, spare, **kw):
        orig_phase(device, ph, two_sided, shape, arrays, spare, **kw)
        state["every"] = 2 * shape.k - 1  # steps a sweep: keep one launch of each kind a sweep
        if ph != 1:
            keep("init" if ph == 0 else "extract", lambda: orig_phase(device, ph, two_sided, shape, arrays, spare, **kw),
                 once=True)
            state["in_step"] = 0
            return
        def again(**over):
            return lambda: orig_phase(device, ph, two_sided, shape, arrays, spare, **{**kw, **over})
        if two_sided:  # one dispatch solves and permutes (eigh)
            keep("solve+permute", again())
            keep("  solve alone", again(threads=0))
            keep("  permute alone", again(sg=0))
        elif kw.get("sg", 0):
            keep("solve", again())
        else:
            keep("permute", again())
        state["in_step"] = 1

    def matmul(a, b):
        seen = []

        def run(*args, **kw):
            seen.append((args, kw))
            return orig_run(*args, **kw)
        mm_mod._mm.run = run
        try:
            out = orig_matmul(a, b)
        finally:
            mm_mod._mm.run = orig_run
        # eigh: J^T X then A' = J^T R^T; svd: the Gram matrices, then (after the solve) J^T X
        label = {(True, 1): "matmul J^T X", (True, 2): "matmul A'=J^T R^T"}.get(
            (state["two_sided"], state["in_step"]), "matmul")
        if not state["two_sided"]:
            label = "matmul Gram" if state["svd_gram"] else "matmul J^T X"
            state["svd_gram"] = not state["svd_gram"]
        state["in_step"] += 1
        keep(label, lambda: [orig_run(*args, **kw) for args, kw in seen])
        return out

    def flagged(flag, sweep):
        sweeps[0] = sweep + 1
        return orig_flagged(flag, sweep)

    orig_eigh, orig_svd = B.eigh, B.svd

    def eigh(*args, **kw):
        state["two_sided"] = True
        return orig_eigh(*args, **kw)

    def svd(*args, **kw):
        state["two_sided"], state["svd_gram"] = False, True
        return orig_svd(*args, **kw)

    K.block_phase, B._matmul, B._flagged, B.eigh, B.svd = phase, matmul, flagged, eigh, svd
    try:
        call()
        dev.synchronize()
    finally:
        K.block_phase, B._matmul, B._flagged, B.eigh, B.svd = orig_phase, orig_matmul, orig_flagged, orig_eigh, orig_svd
    return {k: (v, counts[k], state["every"]) for k, v in kinds.items()}, sweeps[0]


def phases(dev, call, whole_ms: float, reps: int) -> list[str]:
    rec, _ = record(dev, call)
    lines, summed = [], 0.0
    for kind, (fns, count, every) in rec.items():
        def replay(fns=fns, count=count, every=every):
            for i in range(count):
                fns[min(i // every, len(fns) - 1)]()
        ms = _time(replay, dev.synchronize, reps, 3.0) * 1e3
        if not kind.startswith(" "):
            summed += ms
        lines.append(f"    {kind:22} {count:>7} {ms:>9.2f} {ms / count * 1e3:>10.1f} {100 * ms / whole_ms:>6.1f}%")
    lines.append(f"    {'rest':22} {'':>7} {whole_ms - summed:>9.2f} {'':>10} {100 * (whole_ms - summed) / whole_ms:>6.1f}%")
    return lines


def peers(op: str, x: np.ndarray, reps: int) -> dict:
    f = (lambda: np.linalg.eigh(x)) if op == "eigh" else (lambda: np.linalg.svd(x))
    out = {"numpy": _time(f, lambda: None, reps, 5.0) * 1e3}
    try:
        import torch
        if not torch.cuda.is_available():
            return out
    except Exception:  # noqa: BLE001 - a missing or broken torch is only a missing peer
        return out
    xt = torch.from_numpy(x).cuda()
    tf = (lambda: torch.linalg.eigh(xt)) if op == "eigh" else (lambda: torch.linalg.svd(xt))
    out["torch"] = _time(tf, torch.cuda.synchronize, reps, 5.0) * 1e3
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", action="store_true", help="n = 64, b = 16 (lavapipe)")
    ap.add_argument("--sizes", type=int, nargs="+")
    ap.add_argument("--ops", nargs="+", choices=OPS, default=list(OPS))
    ap.add_argument("--variants", nargs="+", choices=list(VARIANTS), help="default: all")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--no-phases", action="store_true")
    ap.add_argument("--max-seconds", type=float, default=120.0,
                    help="past this, remaining variants are skipped (and said so); each op gets an equal share")
    args = ap.parse_args(argv)
    global SMALL
    SMALL = args.small
    sizes = args.sizes or ([64] if args.small else [1024])
    names = args.variants or list(VARIANTS)
    import wgarray as wg
    dev = wg.default_device()
    print(f"device: {dev}")
    t_start = time.perf_counter()
    jobs = [(n, op) for n in sizes for op in args.ops]
    for i, (n, op) in enumerate(jobs):
        deadline = args.max_seconds * (i + 1) / len(jobs)
        x = _inputs(n)[op]
        ref_vals = (np.linalg.eigvalsh(x.astype(np.float64)) if op == "eigh"
                    else np.linalg.svd(x.astype(np.float64), compute_uv=False))
        ref = peers(op, x, args.reps)
        a = wg.asarray(x)
        a.mirror.buffer()
        t_np, t_t = ref["numpy"], ref.get("torch")
        print(f"\n== {op} n={n} float32: numpy {t_np:.2f} ms, torch " + (f"{t_t:.2f} ms" if t_t else "-"))
        print(f"  {'variant':20} {'ms':>9} {'median':>9} {'vs numpy':>9} {'vs torch':>9} {'b':>3} {'disp':>6} {'sweeps':>6} "
              f"{'backerr':>8} {'valerr':>8}")
        rows, calls = {}, {}
        for name in names:
            settings = VARIANTS[name]
            if time.perf_counter() - t_start > deadline and name != "default":
                print(f"  {name:20} skipped (past this op's share of --max-seconds)")
                continue
            if not _fits(dev, settings, n):
                print(f"  {name:20} skipped (its solver does not fit the workgroup memory)")
                continue
            f = _call(op, a)
            try:
                with knobs(settings):
                    _, sweeps = record(dev, f)  # the warm-up (pipelines compiled) and the outer sweeps
                    s0 = dev.stats()
                    res = f()
                    disp = dev.stats().dispatches - s0.dispatches
                    back, valerr = _errors(op, x, res, ref_vals)
                    del res
                    b = _modules()["B"]._block(dev, wg.float32, n)
            except Exception as e:  # a variant that fails to build or run: say so, go on
                print(f"  {name:20} FAILED {type(e).__name__}: {e}")
                continue
            rows[name], calls[name] = (b, disp, sweeps, back, valerr), f
        # timed in rounds, every variant once a round (f ends with a host read: synchronised), so a drift of the
        # clocks or of the host's load hits all variants alike; best and median of the rounds
        samples: dict[str, list] = {name: [] for name in calls}
        for rnd in range(args.reps):
            if rnd and time.perf_counter() - t_start > deadline:
                break
            for name, f in calls.items():
                with knobs(VARIANTS[name]):
                    t = time.perf_counter()
                    f()
                    samples[name].append((time.perf_counter() - t) * 1e3)
        results = {name: min(v) for name, v in samples.items()}
        for name, (b, disp, sweeps, back, valerr) in rows.items():
            ms, med = results[name], float(np.median(samples[name]))
            vt = f"{t_t / ms:>8.3f}x" if t_t else f"{'-':>9}"
            bad = " BAD" if not (back < 10 and valerr < 10) else ""
            print(f"  {name:20} {ms:>9.2f} {med:>9.2f} {t_np / ms:>8.3f}x {vt} {b:>3} {disp:>6} {sweeps:>6} "
                  f"{back:>8.3f} {valerr:>8.3f}{bad}", flush=True)
        best = min(results, key=results.get, default=None)
        for name in dict.fromkeys(["default"] * ("default" in results) + [best] * (best is not None)):
            if args.no_phases or time.perf_counter() - t_start > deadline + 10:
                print(f"  phases of {name} skipped")
                continue
            print(f"  phases of {name} ({'kind':14} {'launches':>8} {'ms/call':>9} {'us/launch':>10} {'share':>7})")
            with knobs(VARIANTS[name]):
                for line in phases(dev, _call(op, a), results[name], max(2, args.reps - 1)):
                    print(line, flush=True)
    print(f"\ntotal {time.perf_counter() - t_start:.1f} s; ratios: the peer's time over wgarray's (> 1: wgarray "
          "faster); errors over eps n ||A||")


if __name__ == "__main__":
    main()
