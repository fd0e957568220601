"""cholesky, solve (16 right-hand sides) and inv of one large float32 matrix: wgarray against numpy (LAPACK on the
host's cores) and torch (cuSOLVER, when CUDA is there), with wgarray's dispatches and submits a call.

    python -m benchmarks.linalg_big                       # n = 1024 and 4096 (the issue 12 rows; ~60 s on an H200)
    python -m benchmarks.linalg_big --sizes 256 512 --reps 3
    python -m benchmarks.linalg_big --sizes 512 --compare /work/main   # the same rows for another tree's wgarray,
                                                                        # each size old then new, in subprocesses

Each call is timed on its own, synchronised (a factorisation is a chain of dependent dispatches: back-to-back calls
would only measure queueing); the best of ``--reps`` after one warm-up call, within ``--budget`` seconds a row.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

K = 16  # right-hand sides of solve
OPS = ("cholesky", "solve", "inv")


def _inputs(n: int):
    rng = np.random.default_rng(12)
    g = (rng.standard_normal((n, n)) / np.sqrt(n)).astype(np.float32)
    a = (g + 2 * np.eye(n, dtype=np.float32)).astype(np.float32)
    spd = (g @ g.T + np.eye(n, dtype=np.float32)).astype(np.float32)
    b = rng.standard_normal((n, K)).astype(np.float32)
    return a, spd, b


def _time(call, sync, reps: int, budget: float) -> float:
    """Best seconds of one synchronised call (after a warm-up), at most ``reps`` calls within ``budget`` s."""
    call()
    sync()
    best = float("inf")
    start = time.perf_counter()
    for _ in range(reps):
        t = time.perf_counter()
        call()
        sync()
        best = min(best, time.perf_counter() - t)
        if time.perf_counter() - start > budget:
            break
    return best


def _residual(op: str, x: np.ndarray, a: np.ndarray, spd: np.ndarray, b: np.ndarray) -> float:
    x = x.astype(np.float64)
    if op == "cholesky":
        return float(np.linalg.norm(x @ x.T - spd) / np.linalg.norm(spd))
    if op == "solve":
        return float(np.linalg.norm(a @ x - b) / (np.linalg.norm(a) * np.linalg.norm(x)))
    return float(np.linalg.norm(a @ x - np.eye(len(a))) / len(a))


def _wg_row(dev, op: str, label: str, n: int, f, inputs, reps: int, budget: float) -> dict:
    res = _residual(op, f().numpy(), *inputs)
    s0 = dev.stats()
    f().mirror.buffer()
    dev.synchronize()
    s1 = dev.stats()
    t = _time(lambda: f().mirror.buffer(), dev.synchronize, reps, budget)
    return dict(op=label, n=n, ms=t * 1e3, resid=res, dispatches=s1.dispatches - s0.dispatches,
                submits=s1.submits - s0.submits)


def measure_wgarray(sizes, reps: int, budget: float) -> list[dict]:
    import wgarray as wg
    dev = wg.default_device()
    rows = []
    for n in sizes:
        a, spd, b = _inputs(n)
        A, S, B = wg.asarray(a), wg.asarray(spd), wg.asarray(b)
        fns = {"cholesky": lambda: wg.linalg.cholesky(S), "solve": lambda: wg.linalg.solve(A, B),
               "inv": lambda: wg.linalg.inv(A)}
        for op in OPS:
            rows.append(_wg_row(dev, op, op, n, fns[op], (a, spd, b), reps, budget))
    return rows


def measure_peers(sizes, reps: int, budget: float) -> dict:
    out: dict = {}
    try:
        import torch
        cuda = torch.cuda.is_available()
    except Exception:  # torch missing or broken: numpy only
        torch, cuda = None, False
    for n in sizes:
        a, spd, b = _inputs(n)
        fns = {"cholesky": lambda: np.linalg.cholesky(spd), "solve": lambda: np.linalg.solve(a, b),
               "inv": lambda: np.linalg.inv(a)}
        for op in OPS:
            out[("numpy", op, n)] = _time(fns[op], lambda: None, reps, budget) * 1e3
        if cuda:
            torch.backends.cuda.matmul.allow_tf32 = False
            ta, ts, tb = (torch.from_numpy(v).cuda() for v in (a, spd, b))
            tfn = {"cholesky": lambda: torch.linalg.cholesky(ts), "solve": lambda: torch.linalg.solve(ta, tb),
                   "inv": lambda: torch.linalg.inv(ta)}
            for op in OPS:
                out[("torch", op, n)] = _time(tfn[op], torch.cuda.synchronize, reps, budget) * 1e3
    return out


def _child(tree: str, sizes, reps: int, budget: float) -> list[dict]:
    """The wgarray rows of another tree (its package first on the path), measured in a subprocess."""
    rest = os.environ.get("PYTHONPATH", "")  # keep the rest of the path (e.g. where wgpu is installed)
    env = dict(os.environ, PYTHONPATH=tree + (os.pathsep + rest if rest else ""))
    cmd = [sys.executable, os.path.abspath(__file__), "--json", "--reps", str(reps), "--budget", str(budget),
           "--sizes", *map(str, sizes)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"the wgarray measurement of {tree} failed (exit {done.returncode}), output above")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1024, 4096])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--budget", type=float, default=3.0, help="seconds a row at most (after the warm-up)")
    ap.add_argument("--compare", metavar="TREE", help="also time another tree's wgarray (e.g. main's checkout)")
    ap.add_argument("--json", action="store_true", help="print wgarray's rows as JSON (for --compare)")
    args = ap.parse_args(argv)
    if args.json:
        print(json.dumps(measure_wgarray(args.sizes, args.reps, args.budget)))
        return
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    new, old = [], []
    for n in args.sizes:  # old then new for each size, so both see the same machine
        if args.compare:
            old += _child(args.compare, [n], args.reps, args.budget)
        new += _child(here, [n], args.reps, args.budget)
    peers = measure_peers(args.sizes, args.reps, args.budget)
    head = f"{'op':11} {'n':>5} {'wgarray ms':>11} {'disp':>5} {'subm':>5} {'resid':>8}"
    if args.compare:
        head += f" {'old ms':>9} {'old disp':>8} {'new/old':>8}"
    head += f" {'numpy ms':>9} {'wg vs np':>8} {'torch ms':>9} {'wg vs torch':>11}"
    print(head)
    olds = {(o["op"], o["n"]): o for o in old}
    for r in new:
        line = f"{r['op']:11} {r['n']:>5} {r['ms']:>11.2f} {r['dispatches']:>5} {r['submits']:>5} {r['resid']:>8.1e}"
        if args.compare:
            o = olds.get((r["op"].split("/")[0], r["n"]))
            line += f" {o['ms']:>9.2f} {o['dispatches']:>8} {r['ms'] / o['ms']:>8.2f}" if o else f" {'-':>9} {'-':>8} {'-':>8}"
        op = r["op"].split("/")[0]
        t_np = peers[("numpy", op, r["n"])]
        line += f" {t_np:>9.2f} {t_np / r['ms']:>7.2f}x"
        t_t = peers.get(("torch", op, r["n"]))
        line += f" {t_t:>9.2f} {t_t / r['ms']:>10.2f}x" if t_t else f" {'-':>9} {'-':>11}"
        print(line)
    print("ratios: the peer's time over wgarray's (> 1: wgarray faster); resid: backward error of wgarray's answer;")


if __name__ == "__main__":
    main()
