"""The host cost of small linalg calls, per variant of ``api/linalg/factor.py``'s SMALL_RECIPES (issue 12):
``python -m benchmarks.smallhost_sweep`` (a GPU, < 150 s), ``--small`` (lavapipe: batches of 1/10, fewer rows).

Variants: ``recipes_off`` (SMALL_RECIPES = False: every call checks its input, decides dtypes, broadcasts, builds
views and packs its parameters) and ``recipes_on`` (the default: a repeated layout launches its kept plan).  Rows:
cholesky, solve (16 right-hand sides; and one vector for every matrix), inv, det and slogdet of 10,000 x 8^2,
1,000 x 32^2 float32 and one 64^2.  Per row and variant, all in the ``"nan"`` error mode (no status read), best ms a call:

* ``host``: one call alone, the device idle before it (its Python and recording), and ``host/add``: that over the
  same measure of a tiny ``one + one`` (printed first), so that hosts of different speeds compare;
* ``x20``: 20 calls back to back, one sync, per call;
* ``sync``: one call + ``synchronize()`` (median / best), against torch's ``*_ex`` (no check) + sync: ``torch/wg``
  > 1 means wgarray is faster (cholesky_ex, solve_ex, inv_ex, det, slogdet).

Every variant's answer is checked against numpy (max relative error printed).
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import wgarray as wg
from wgarray.api.linalg import factor as F

from .linalg_small import _data
from .peers import find_torch
from .timing import Case, measure_all

VARIANTS = {"recipes_off": False, "recipes_on": True}


def _ops(la, a, s, b, v, torch: bool = False) -> dict:
    """row op -> a call of ``la`` (wg.linalg, or torch.linalg's unchecked forms with ``torch``)."""
    if torch:
        return {"cholesky": lambda: la.cholesky_ex(s), "solve": lambda: la.solve_ex(a, b),
                "solve_vec": lambda: la.solve_ex(a, v), "inv": lambda: la.inv_ex(a), "det": lambda: la.det(a),
                "slogdet": lambda: la.slogdet(a)}
    return {"cholesky": lambda: la.cholesky(s), "solve": lambda: la.solve(a, b), "solve_vec": lambda: la.solve(a, v),
            "inv": lambda: la.inv(a), "det": lambda: la.det(a), "slogdet": lambda: la.slogdet(a).logabsdet}


def _reference(op: str, a, s, b, v):
    a64, s64 = a.astype(np.float64), s.astype(np.float64)
    return {"cholesky": lambda: np.linalg.cholesky(s64), "solve": lambda: np.linalg.solve(a64, b),
            "solve_vec": lambda: np.linalg.solve(a64, v[:, None])[..., 0], "inv": lambda: np.linalg.inv(a64),
            "det": lambda: np.linalg.det(a64), "slogdet": lambda: np.linalg.slogdet(a64)[1]}[op]()


def _variant(on: bool, f):
    def call(_):
        F.SMALL_RECIPES = on
        with wg.linalg.errors("nan"):
            return f()
    return call


def _loop(on: bool, f, inner: int):
    def call(_):
        F.SMALL_RECIPES = on
        with wg.linalg.errors("nan"):
            for _ in range(inner):
                f()
    return call


def main() -> None:
    saved = F.SMALL_RECIPES
    try:
        _main()
    finally:
        F.SMALL_RECIPES = saved


def _main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--small", action="store_true", help="batches of 1/10, fewer samples (a CPU adapter)")
    ap.add_argument("--ops", default="cholesky,solve,solve_vec,inv,det,slogdet")
    args = ap.parse_args()
    t0 = time.perf_counter()
    dev = wg.default_device()
    torch = find_torch()
    print(dev, "|", f"torch {torch.version} on {torch.device_name}" if torch.available else f"torch: {torch.reason}")
    repeat = 8 if args.small else 25
    one = wg.asarray(np.ones(1, np.float32), device=dev)
    add_host = measure_all([Case("add host", lambda _: one + one, setup=dev.synchronize)], repeat=4 * repeat,
                           budget_s=0.5)["add host"].best
    print(f"floor  tiny add host (alone, device idle) {add_host * 1e6:7.1f} us (best)")
    if torch.available:
        tone = torch.module.ones(1, device="cuda")
        tt = measure_all([Case("t", lambda _: tone + tone, torch.sync)], repeat=4 * repeat, budget_s=0.5)["t"]
        print(f"floor  torch tiny add + sync              {tt.best * 1e6:7.1f} us (best)")
    scale = 10 if args.small else 1
    rng = np.random.default_rng(12)
    ops = args.ops.split(",")
    print(f"\n{'row':24s} {'variant':12s} {'host us':>8s} {'host/add':>8s} {'x20 us':>8s} {'sync ms med / best':>19s} "
          f"{'torch_ex ms':>19s} {'torch/wg':>8s}  check")
    budget = 0.4 if args.small else 1.0
    for batch, n in [(10_000 // scale, 8), (1_000 // scale, 32), (1, 64)]:
        a, s, b = _data(rng, batch, n)
        v = b.reshape(-1, n, b.shape[-1])[0, :, 0].copy()  # one vector (broadcast over a stack)
        wa, ws, wb, wv = (wg.asarray(x, device=dev) for x in (a, s, b, v))
        for x in (wa, ws, wb, wv):
            x.mirror.buffer()
        dev.synchronize()
        wcalls = _ops(wg.linalg, wa, ws, wb, wv)
        tcalls = None
        if torch.available:
            ta, ts, tb, tv = (torch.module.from_numpy(x).cuda() for x in (a, s, b, v))
            tcalls = _ops(torch.module.linalg, ta, ts, tb, tv, torch=True)
        label_n = f"{n}^2" if batch == 1 else f"{batch}x{n}^2"
        for op in ops:
            f = wcalls[op]
            ref = _reference(op, a, s, b, v)
            errs = {}
            for name, on in VARIANTS.items():
                got = _variant(on, f)(None).numpy()
                errs[name] = float(np.max(np.abs(got - ref)) / max(float(np.max(np.abs(ref))), 1e-30))
            cases = [Case(name, _variant(on, f), dev.synchronize) for name, on in VARIANTS.items()]
            if tcalls is not None:
                tf = tcalls[op]
                cases.append(Case("torch_ex", lambda _, tf=tf: tf(), torch.sync))
            times = measure_all(cases, repeat=repeat, budget_s=budget)
            tx = times.get("torch_ex")
            for name, on in VARIANTS.items():
                host = measure_all([Case("h", _variant(on, f), setup=dev.synchronize)], repeat=5 * repeat,
                                   budget_s=budget / 2)["h"].best
                dev.synchronize()
                inner = 20
                loop = measure_all([Case("x", _loop(on, f, inner), dev.synchronize)], repeat=max(3, repeat // 5),
                                   budget_s=budget / 2)["x"].best / inner
                t = times[name]
                ok = "ok" if errs[name] < 1e-3 else "WRONG"
                print(f"{op + ' ' + label_n:24s} {name:12s} {host * 1e6:8.1f} {host / add_host:8.2f} "
                      f"{loop * 1e6:8.1f} {t.median * 1e3:8.3f} / {t.best * 1e3:7.3f} "
                      f"{(f'{tx.median * 1e3:8.3f} / {tx.best * 1e3:7.3f}' if tx else '-'):>19s} "
                      f"{(f'{tx.median / t.median:7.2f}x' if tx else '-'):>8s}  {ok} (max rel err {errs[name]:.1e})",
                      flush=True)
    print(f"\nbest us a call for host / x20; torch/wg from the sync medians.  {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
