"""eigh and svd (float32, one n x n matrix): wgarray's block Jacobi, against its scalar Jacobi (``--old``), numpy
(LAPACK on the host's cores) and torch (CUDA), in one process; dispatches a call and the errors checked.

`python -m benchmarks.spectral_block [--sizes 256,1024] [--old] [--repeat 3] [--blocks 16,32] [--inner 1,30]`

Each call is timed synchronised (it ends with a host read of the results' first element, so the whole chain of
dependent dispatches is in); best of ``--repeat`` after one warm-up call.  Ratios are wgarray's speed over the
peer's (> 1: wgarray faster).
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import wgarray as wg
from wgarray.api.linalg import blockjac
from wgarray.kernels import linalg_spectral


def _best(f, repeat: int, warm: bool = True) -> float:
    if warm:
        f()
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    return best


def _wg_call(op: str, a: wg.Array):
    def run():
        if op == "eigh":
            w, v = wg.linalg.eigh(a)
            return w, v
        u, s, vh = wg.linalg.svd(a)
        return s, u, vh
    return run


def _check(op: str, x: np.ndarray, res) -> float:
    """The backward error ||A V - V W|| (eigh) or ||A - U S Vh|| (svd) over eps n ||A||."""
    x64 = x.astype(np.float64)
    n = x.shape[-1]
    if op == "eigh":
        w, v = (t.numpy().astype(np.float64) for t in res)
        err = np.abs(x64 @ v - v * w).max()
    else:
        s, u, vh = (t.numpy().astype(np.float64) for t in res)
        err = np.abs((u * s) @ vh - x64).max()
    return float(err / (np.finfo(np.float32).eps * n * np.linalg.norm(x64)))


def main() -> None:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.spectral_block")
    ap.add_argument("--sizes", default="256,1024")
    ap.add_argument("--ops", default="eigh,svd")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--old", action="store_true", help="also time the scalar (one rotation set a dispatch) Jacobi")
    ap.add_argument("--blocks", default="", help="block sizes b to time (default: the device's choice)")
    ap.add_argument("--inner", default="", help="caps of the subproblem's sweeps to time (default: INNER_SWEEPS)")
    ap.add_argument("--no-peers", action="store_true")
    args = ap.parse_args()
    dev = wg.default_device()
    print(dev)
    torch = None
    if not args.no_peers:
        try:
            import torch as _torch
            if _torch.cuda.is_available():
                torch = _torch
        except Exception as e:  # noqa: BLE001 - a broken torch install is only a missing peer
            print("torch:", e)
    saved = dict(blockjac.MIN_N), linalg_spectral.INNER_SWEEPS
    blockjac.ON_CPU = True  # measure the block path on a software adapter too
    blocks = [int(b) for b in args.blocks.split(",") if b] or [None]
    inners = [int(i) for i in args.inner.split(",") if i] or [saved[1]]
    rng = np.random.default_rng(6)
    for n in (int(s) for s in args.sizes.split(",")):
        for op in args.ops.split(","):
            x = rng.standard_normal((n, n), dtype=np.float32)
            if op == "eigh":
                x = (x + x.T) / 2
            a = wg.asarray(x)
            a.mirror.buffer()
            variants = [(f"block b={b or 'auto'} inner={i}", 0, b, i) for b in blocks for i in inners]
            variants += [("scalar", 1 << 30, None, saved[1])] if args.old else []
            times = {}
            for name, min_n, b, inner in variants:
                blockjac.MIN_N = {"eigh": min_n, "svd": min_n}
                blockjac.BLOCK, linalg_spectral.INNER_SWEEPS = b, inner
                f = _wg_call(op, a)

                def call(f=f):
                    res = f()
                    res[0][:1].numpy()
                    return res
                err = _check(op, x, call())  # also the warm-up (pipelines compiled)
                before = dev.stats()
                t0 = time.perf_counter()
                call()
                first = time.perf_counter() - t0
                disp = (dev.stats() - before).dispatches
                times[name] = min(first, _best(call, args.repeat - 1, warm=False)) if args.repeat > 1 else first
                print(f"{op} {n}: wgarray {name:22s} {times[name] * 1e3:9.2f} ms  {disp:6d} dispatches  "
                      f"backward error {err:.2f} eps n ||A||")
            blockjac.MIN_N, linalg_spectral.INNER_SWEEPS, blockjac.BLOCK = dict(saved[0]), saved[1], None
            best = min(times, key=lambda v: times[v] if v != "scalar" else float("inf"))
            f_np = (lambda: np.linalg.eigh(x)) if op == "eigh" else (lambda: np.linalg.svd(x))
            t_np = _best(f_np, args.repeat)
            line = f"{op} {n}: numpy {t_np * 1e3:9.2f} ms  -> wgarray ({best})/numpy {t_np / times[best]:.2f}x"
            if "scalar" in times:
                line += f"; block over scalar {times['scalar'] / times[best]:.2f}x"
            if torch is not None:
                xt = torch.from_numpy(x).cuda()
                tf = (lambda: torch.linalg.eigh(xt)) if op == "eigh" else (lambda: torch.linalg.svd(xt))

                def tcall(tf=tf):
                    tf()
                    torch.cuda.synchronize()
                t_t = _best(tcall, args.repeat)
                line += f"; torch {t_t * 1e3:.2f} ms -> wgarray/torch {t_t / times[best]:.2f}x"
            print(line, flush=True)


if __name__ == "__main__":
    main()
