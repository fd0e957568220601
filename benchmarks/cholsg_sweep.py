"""Cholesky's diagonal-block kernel (``cholesky_inv``, ``shaders/linalg_chol_inv.wgsl``) alone and in the whole call,
for every setting of its code generator's knobs (``kernels/linalg_factor.py`` CHOL_INV_GJ, CHOL_INV_RECIP,
CHOL_INV_SQRT, CHOL_INV_FLAG, CHOL_INV_UNCHECKED, CHOL_INV_SPLIT; CHOL_INV_PART for the timing-only halves), next to torch
(cuSOLVER) in the same process.

    python -m benchmarks.cholsg_sweep              # n = 4096 (the GPU run, ~1 min on an H100/H200)
    python -m benchmarks.cholsg_sweep --small      # n = 256 with 32-wide diagonal blocks as at 4096 (lavapipe; the
                                                   # *i64 variants only when named: minutes to compile there)

Why: linbig_sweep's phase table gave cholesky_inv 34.9 us a launch (128 launches at n = 4096, 51% of the call) where
its instructions say well under 10 us; but that table replays each phase through the Python drivers (~30 us of host
time a launch unreplayed), so a short kernel's row there can be the host's.  Here the call's cholesky_inv launches
(one a 32-wide diagonal block, each at its real k0, each writing the matrix and the scratch the next one writes:
dependent launches as in the call) are recorded once and replayed through ``launch.dispatch`` alone (~1-3 us of host a
launch), ``--chain`` times back to back, then one synchronisation; best of several samples.  "empty" is the floor:
as many launches of a kernel that does nothing but write one word (one workgroup of 32 invocations).

Columns: ``us/launch`` the device's time a launch in that chain (host issue time a launch in ``host``: near
us/launch means the row is the host's), ``call ms`` the whole ``wg.linalg.cholesky`` (best synchronised call),
``vs torch`` torch's time over it (> 1: wgarray faster), ``resid`` ||L L^T - A|| / ||A|| (timing-only rows: "-").

How to read it: a variant whose call ms beats "default" (and its us/launch too) should become the default: set its
knobs' values in ``wgarray/kernels/linalg_factor.py`` (``CHOL_INV_GJ = True`` etc.; the knobs sit just above
``chol_inv_factor_body``).  ``factor`` / ``inverse`` (answers wrong: timing only) say which half of the kernel
costs; ``empty`` how much of a launch is the launch.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from benchmarks.linalg_big import _inputs, _time as _best
from benchmarks.linbig_sweep import knobs

BASE = {("K", "CHOL_INV"): True}  # the GPU default at n >= BIG_N (forced: lavapipe takes the same path)
GEN = ("CHOL_INV_GJ", "CHOL_INV_RECIP", "CHOL_INV_SQRT", "CHOL_INV_FLAG")
LEAN = {("K", "CHOL_INV_RECIP"): True, ("K", "CHOL_INV_SQRT"): "fast", ("K", "CHOL_INV_FLAG"): True,
        ("K", "CHOL_INV_UNCHECKED"): True}
# name -> (knob settings, timing only)
VARIANTS: dict[str, tuple[dict, bool]] = {
    "default": ({}, False),
    "empty": ({}, True),  # the floor: a launch of a kernel that does (almost) nothing
    "factor": ({("K", "CHOL_INV_PART"): "factor"}, True),  # the factor alone (no inverse)
    "inverse": ({("K", "CHOL_INV_PART"): "inverse"}, True),  # the inverse alone (no factor)
    "fast": ({("K", "CHOL_INV_SQRT"): "fast"}, False),  # the device's sqrt and a Newton step, not wg_sqrtcr
    "recip": ({("K", "CHOL_INV_RECIP"): True}, False),  # reciprocals and multiplications, not divisions
    "flag": ({("K", "CHOL_INV_FLAG"): True}, False),  # no branch a step for the failure's info word
    "unchecked": ({("K", "CHOL_INV_UNCHECKED"): True}, False),  # no naga runtime checks (bounds clamps, loop bounds)
    "gj": ({("K", "CHOL_INV_GJ"): True}, False),  # the inverse carried through the factor's steps
    "lean": (LEAN, False),  # fast + recip + flag + unchecked
    "lean_factor": ({**LEAN, ("K", "CHOL_INV_PART"): "factor"}, True),
    "gj+lean": ({("K", "CHOL_INV_GJ"): True, **LEAN}, False),
    "gj+fast+flag": ({("K", "CHOL_INV_GJ"): True, ("K", "CHOL_INV_SQRT"): "fast", ("K", "CHOL_INV_FLAG"): True},
                     False),
    "gj+unchecked": ({("K", "CHOL_INV_GJ"): True, ("K", "CHOL_INV_UNCHECKED"): True}, False),
    # several invocations a row (a warp a part at SB = 32; the GJ inverse): shorter FMA chains a step
    "split4": ({("K", "CHOL_INV_SPLIT"): 4}, False),
    "split2+lean": ({("K", "CHOL_INV_SPLIT"): 2, **LEAN}, False),
    "split4+lean": ({("K", "CHOL_INV_SPLIT"): 4, **LEAN}, False),
    "split8+lean": ({("K", "CHOL_INV_SPLIT"): 8, **LEAN}, False),
    # 64-wide diagonal blocks (half the cholesky_inv / cholesky_apply launches; lost with the old kernel: H100 9.19 against
    # 8.62 ms): us/launch is then a 64-wide block's
    "i64": ({("K", "CHOL_INV_INNER_BIG"): 64}, False),
    "gj+lean+i64": ({("K", "CHOL_INV_GJ"): True, **LEAN, ("K", "CHOL_INV_INNER_BIG"): 64}, False),
    "split4+lean+i64": ({("K", "CHOL_INV_SPLIT"): 4, **LEAN, ("K", "CHOL_INV_INNER_BIG"): 64}, False),
}

EMPTY = """@group(0) @binding(0) var<storage, read_write> x: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) i: u32) {
    if (i == 0u) { x[0] = x[0] + 1.0; }
}
"""


def _modules():
    from wgarray.api.linalg import factor
    from wgarray.kernels import linalg_factor
    return {"F": factor, "K": linalg_factor}


def _recorded(dev, n: int, nb: int, empty: bool) -> list:
    """The cholesky_inv launches of one call (k0 = 0, nb, ..., the last block without its inverse) on fresh
    buffers, recorded (or as many launches of the empty kernel)."""
    import wgarray as wg
    from wgarray.alloc.mirror import Mirror
    from wgarray.kernels import launch
    K = _modules()["K"]
    a = wg.asarray(np.eye(n, dtype=np.float32) * 2.0 + 0.01)
    info = wg.zeros(1, dtype=wg.uint32)
    ws = Mirror(a.dtype, K._bucket(nb) ** 2, dev)
    steps = list(range(0, n, nb))
    with launch.recording() as rec:
        if empty:
            x = wg.zeros(4, dtype=wg.float32)
            kern = wg.RawKernel(EMPTY)
            for _ in steps:
                kern((1,), (32,), (x,))
        else:
            for k0 in steps:
                K.cholesky_inv(dev, a.reshape((1, n, n)), info, ws, n, 1, k0, min(nb, n - k0), k0 + nb < n)
    dev.synchronize()
    keep = (a, info, ws, x) if empty else (a, info, ws)
    return [r for r in rec], keep


def _chain(dev, rec: list, chain: int, reps: int, budget: float) -> tuple[float, float]:
    """(device us a launch, host us a launch) replaying ``rec`` ``chain`` times back to back a sample."""
    from wgarray.kernels import launch

    def run():
        for _ in range(chain):
            for d, kernel, bufs, params, grid, work, ranges in rec:
                launch.dispatch(d, kernel, bufs, params, grid=grid, work=work, ranges=ranges)
    total = _best(run, dev.synchronize, reps, budget)
    host = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        run()
        host = min(host, time.perf_counter() - t)
        dev.synchronize()
    count = chain * len(rec)
    return total / count * 1e6, host / count * 1e6


def _resid(L: np.ndarray, s: np.ndarray) -> float:
    try:
        import torch
        if torch.cuda.is_available():
            tl, ts = torch.from_numpy(L).cuda().double(), torch.from_numpy(s).cuda().double()
            return float(torch.linalg.norm(tl @ tl.T - ts) / torch.linalg.norm(ts))
    except Exception:
        pass
    L = L.astype(np.float64)
    return float(np.linalg.norm(L @ L.T - s) / np.linalg.norm(s))


def _torch_ms(s: np.ndarray, reps: int, budget: float) -> float | None:
    try:
        import torch
        if not torch.cuda.is_available():
            return None
    except Exception:
        return None
    ts = torch.from_numpy(s).cuda()
    return _best(lambda: torch.linalg.cholesky(ts), torch.cuda.synchronize, reps, budget) * 1e3


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", action="store_true", help="n = 256 (lavapipe)")
    ap.add_argument("--n", type=int)
    ap.add_argument("--variants", nargs="+", choices=list(VARIANTS), help="default: all")
    ap.add_argument("--chain", type=int, default=0, help="replays of the call's launches a sample (0: 8, 1 small)")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--budget", type=float, default=1.5, help="seconds a timed row at most (after the warm-up)")
    ap.add_argument("--max-seconds", type=float, default=130.0, help="variants past this are skipped (said so)")
    args = ap.parse_args(argv)
    n = args.n or (256 if args.small else 4096)
    chain = args.chain or (1 if args.small else 8)
    names = args.variants or [v for v in VARIANTS if not (args.small and v.endswith("i64"))]  # (lavapipe: minutes
    # to compile a 64-row body)
    import wgarray as wg
    dev = wg.default_device()
    F, K = _modules()["F"], _modules()["K"]
    base = dict(BASE)
    if n < F.BIG_N:  # the 4096 plan (128-wide panels of 32-wide diagonal blocks) at a small n
        base[("F", "BIG_N")] = min(n, 128)
    t0 = time.perf_counter()
    s = _inputs(n)[1]
    sw = wg.asarray(s)
    t_t = _torch_ms(s, args.reps, args.budget)
    nb = K.chol_inv_inner(True)
    print(f"device: {dev}\ncholesky n={n} float32, {nb}-wide diagonal blocks ({-(-n // nb)} cholesky_inv launches a "
          f"call; *i64: 64-wide, half as many), chain x{chain}: torch " + (f"{t_t:.3f} ms" if t_t else "-"))
    print(f"  {'variant':14} {'us/launch':>10} {'host us':>8} {'call ms':>9} {'vs torch':>9} {'resid':>9}")
    for name in names:
        settings, timing_only = VARIANTS[name]
        if time.perf_counter() - t0 > args.max_seconds:
            print(f"  {name:14} skipped (past --max-seconds)")
            continue
        try:
            with knobs({**base, **settings}):
                assert F._chol_plan(sw.reshape((1, n, n)))[0] == "inv", "not the CHOL_INV path"
                rec, keep = _recorded(dev, n, K.chol_inv_inner(True), name == "empty")
                us, host = _chain(dev, rec, chain, args.reps, args.budget)
                del keep
                if name == "empty":
                    ms, vt, res = "", "", "-"
                else:
                    with wg.linalg.errors("nan"):
                        L = wg.linalg.cholesky(sw).numpy()
                        ms_f = _best(lambda: wg.linalg.cholesky(sw).mirror.buffer(), dev.synchronize, args.reps,
                                     args.budget) * 1e3
                    r = _resid(L, s)
                    ms = f"{ms_f:.3f}"
                    vt = f"{t_t / ms_f:.3f}x" if t_t else "-"
                    res = "-" if timing_only else f"{r:.1e}" + (" BAD" if not r < 1e-3 else "")
        except Exception as e:  # a variant that fails to build or run: say so, go on
            print(f"  {name:14} FAILED {type(e).__name__}: {e}")
            continue
        print(f"  {name:14} {us:>10.2f} {host:>8.2f} {ms:>9} {vt:>9} {res:>9}" + ("  (timing only)" * timing_only))
    print(f"\ntotal {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
