"""The small linalg path against torch, with where a call's time goes (issue 12; `python -m benchmarks.linalg_small`).

Rows: cholesky / solve (16 right-hand sides) / inv of 10,000 x 8^2 and 1,000 x 32^2 float32, and of one 64^2.
Per row, interleaved (``timing.measure_all``; median and best of the samples, milliseconds a call):

* ``raise``: one call in the default error mode (its status word: a 4-byte write, one dispatch, a 4-byte read),
  then ``synchronize()``; against torch's ``linalg.cholesky/solve/inv`` (which read their info word too) + sync.
* ``nan+sync``: ``errors("nan")`` (no read), then ``synchronize()``; against torch's ``*_ex`` (no check) + sync.
* ``nan x20``: 20 calls back to back, one sync, per call (host recording and device work overlapped); against
  ``torch x20``: 20 of torch's ``*_ex`` calls back to back, one sync (the throughput of a stream of calls).
* ``host``: one ``errors("nan")`` call alone, the device idle before it (the Python and recording cost), and
  ``host/add``: that over the same measure of a tiny add (the floor "tiny add host"), comparable across hosts.
* counters per call (dispatches, submits, uploads, downloads) of the ``raise`` case.

Floors printed first: ``synchronize()`` alone, a tiny add + sync, a tiny add + 4-byte read.  Under a minute on a
GPU (``--repeat`` samples a case, default 25); ``--quick`` uses batches of 1/10 (for lavapipe).

``--ops`` / ``--sizes`` (BATCHxN, e.g. ``1000x32``) pick rows; ``--small-chol-reg SETTING ...`` prints the cholesky
rows once per setting of ``kernels.linalg_factor.SMALL_CHOL_REG`` (the small path's Cholesky through cholesky_inv's
register code), next to each other: ``default`` (the knob as it is), ``off`` (linalg_small.wgsl), ``on``, ``split1``
/ ``split2`` / ``split4`` (on, with SMALL_CHOL_REG_SPLIT invocations a row).  The old-vs-new run (H100, < 60 s):

    python -m benchmarks.linalg_small --ops cholesky --sizes 1000x16 1000x32 1000x64 --small-chol-reg off on split1 split2

``--small-lu-reg SETTING ...`` likewise prints the solve / inv rows once per setting of ``SMALL_LU_REG`` (the small
path's solve / inv with the rows in registers, linalg_lu_small_reg.wgsl; SMALL_LU_REG_SPLIT invocations a row):
``python -m benchmarks.smalllu_sweep``.  A size ``N`` alone is one N x N matrix (as ``1xN``).
"""
from __future__ import annotations

import argparse

import numpy as np

import wgarray as wg
from wgarray.kernels import linalg_factor as _K

from .peers import find_torch
from .timing import Case, measure_all

K = 16  # right-hand sides of solve


def _data(rng, batch: int, n: int):
    shape = (n, n) if batch == 1 else (batch, n, n)
    g = (rng.standard_normal(shape) / np.sqrt(n)).astype(np.float32)
    a = (g + 2 * np.eye(n, dtype=np.float32)).astype(np.float32)
    s = (g @ np.swapaxes(g, -1, -2) + np.eye(n, dtype=np.float32)).astype(np.float32)
    b = rng.standard_normal(shape[:-1] + (K,)).astype(np.float32)
    return a, s, b


def _calls(la, a, s, b, ex: bool = False):
    """op -> a call of the namespace ``la`` (wg.linalg or torch.linalg; ``ex``: torch's unchecked forms)."""
    if ex:
        return {"cholesky": lambda: la.cholesky_ex(s), "solve": lambda: la.solve_ex(a, b),
                "inv": lambda: la.inv_ex(a)}
    return {"cholesky": lambda: la.cholesky(s), "solve": lambda: la.solve(a, b), "inv": lambda: la.inv(a)}


def _in_mode(mode: str, f):
    def call(_):
        with wg.linalg.errors(mode):
            f()
    return call


# --small-chol-reg's settings: (SMALL_CHOL_REG, SMALL_CHOL_REG_SPLIT)
REG = {"default": None, "off": (False, None), "on": (True, None), "split1": (True, 1), "split2": (True, 2),
       "split4": (True, 4)}
SIZES = ["10000x8", "1000x32", "1x64"]


def _reg(setting: str) -> None:
    if REG[setting] is not None:
        _K.SMALL_CHOL_REG, _K.SMALL_CHOL_REG_SPLIT = REG[setting]


# --small-lu-reg's settings: (SMALL_LU_REG, SMALL_LU_REG_SPLIT; None: as it is)
LU_REG = {"default": None, "off": (False, None), "on": (True, None), "split1": (True, 1), "split2": (True, 2),
          "split4": (True, 4)}


def _lu_reg(setting: str) -> None:
    if LU_REG[setting] is not None:
        on, split = LU_REG[setting]
        _K.SMALL_LU_REG = on
        if split is not None:
            _K.SMALL_LU_REG_SPLIT = split


def _size(x: str) -> tuple[int, int]:
    b, m = x.split("x") if "x" in x else ("1", x)
    return int(b), int(m)


def _ms(t) -> str:
    return f"{t.median * 1e3:7.3f} / {t.best * 1e3:7.3f}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=25)
    ap.add_argument("--quick", action="store_true", help="batches of 1/10 (a CPU adapter)")
    ap.add_argument("--ops", nargs="+", choices=("cholesky", "solve", "inv"), default=["cholesky", "solve", "inv"])
    ap.add_argument("--sizes", nargs="+", default=SIZES, help="BATCHxN rows (default: %(default)s)")
    ap.add_argument("--small-chol-reg", nargs="+", choices=tuple(REG), default=["default"],
                    help="cholesky rows once per SMALL_CHOL_REG setting")
    ap.add_argument("--small-lu-reg", nargs="+", choices=tuple(LU_REG), default=["default"],
                    help="solve / inv rows once per SMALL_LU_REG setting")
    args = ap.parse_args()
    dev = wg.default_device()
    torch = find_torch()
    print(dev, "|", f"torch {torch.version} on {torch.device_name}" if torch.available else f"torch: {torch.reason}")
    one = wg.asarray(np.ones(1, np.float32), device=dev)
    floors = [Case("synchronize() alone", lambda _: dev.synchronize()),
              Case("tiny add + sync", lambda _: one + one, dev.synchronize),
              Case("tiny add + 4-byte read", lambda _: (one + one).numpy())]
    if torch.available:
        tone = torch.module.ones(1, device="cuda")
        floors += [Case("torch tiny add + sync", lambda _: tone + tone, torch.sync),
                   Case("torch tiny add + .item()", lambda _: (tone + tone).item())]
    for name, t in measure_all(floors, repeat=4 * args.repeat, budget_s=2.0).items():
        print(f"floor  {name:28s} {t.median * 1e3:7.3f} / {t.best * 1e3:7.3f} ms (median / best)")
    add_host = measure_all([Case("add", lambda _: one + one, setup=dev.synchronize)], repeat=4 * args.repeat,
                           budget_s=1.0)["add"].best  # as the host column measures a call
    print(f"floor  {'tiny add host':28s} {add_host * 1e3:7.3f} ms (best; one add alone, the device idle)")
    scale = 10 if args.quick else 1
    rng = np.random.default_rng(12)
    print(f"\n{'row':27s} {'raise':>17s} {'nan+sync':>17s} {'nan x20':>8s} {'torch x20':>8s} {'ratio':>5s} "
          f"{'host':>7s} | {'torch':>17s} "
          f"{'torch _ex':>17s} | torch/wg raise, _ex/nan | host/add | per raise call: dispatches submits up down")
    for batch, n in [(max(1, b // scale), m) for b, m in map(_size, args.sizes)]:
        a, s, b = _data(rng, batch, n)
        wa, ws, wb = (wg.asarray(x, device=dev) for x in (a, s, b))
        for x in (wa, ws, wb):
            x.mirror.buffer()
        dev.synchronize()
        wcalls = _calls(wg.linalg, wa, ws, wb)
        tcalls = tex = None
        if torch.available:
            ta, ts, tb = (torch.module.from_numpy(x).cuda() for x in (a, s, b))
            tcalls, tex = _calls(torch.module.linalg, ta, ts, tb), _calls(torch.module.linalg, ta, ts, tb, ex=True)
        default = (_K.SMALL_CHOL_REG, _K.SMALL_CHOL_REG_SPLIT, _K.SMALL_LU_REG, _K.SMALL_LU_REG_SPLIT)
        settings = {"cholesky": args.small_chol_reg, "solve": args.small_lu_reg, "inv": args.small_lu_reg}
        rows = [(op, setting) for op in args.ops for setting in settings[op]]
        for op, setting in rows:
            _K.SMALL_CHOL_REG, _K.SMALL_CHOL_REG_SPLIT, _K.SMALL_LU_REG, _K.SMALL_LU_REG_SPLIT = default
            if setting != "default":
                (_reg if op == "cholesky" else _lu_reg)(setting)
            f = wcalls[op]
            ref = {"cholesky": lambda: np.linalg.cholesky(s), "solve": lambda: np.linalg.solve(a, b),
                   "inv": lambda: np.linalg.inv(a)}[op]()
            err = float(np.max(np.abs(f().numpy() - ref)) / max(float(np.max(np.abs(ref))), 1e-30))
            cases = [Case("raise", _in_mode("raise", f), dev.synchronize, counters=dev),
                     Case("nan", _in_mode("nan", f), dev.synchronize)]
            if tcalls is not None and tex is not None:
                tf, tx = tcalls[op], tex[op]
                cases += [Case("torch", lambda _, tf=tf: tf(), torch.sync),
                          Case("torch_ex", lambda _, tx=tx: tx(), torch.sync)]
            times = measure_all(cases, repeat=args.repeat, budget_s=3.0)
            # alone, so that the work it leaves recorded lands in no other case's sample
            host = measure_all([Case("host", _in_mode("nan", f), setup=dev.synchronize)], repeat=args.repeat,
                               budget_s=1.0)["host"]
            dev.synchronize()
            inner = 20
            loop_t = measure_all([Case("x", lambda _: [_in_mode("nan", f)(None) for _ in range(inner)],
                                       dev.synchronize)], repeat=max(3, args.repeat // 5), budget_s=2.0)["x"]
            tloop = None
            if tex is not None:
                tloop = measure_all([Case("tx", lambda _, tx=tex[op]: [tx() for _ in range(inner)], torch.sync)],
                                    repeat=max(3, args.repeat // 5), budget_s=2.0)["tx"].best / inner
            c = next(x for x in cases if x.name == "raise")
            per = {k: getattr(c.stats, k) / c.calls for k in ("dispatches", "submits", "uploads", "downloads")}
            label = (f"{op} {n}^2" if batch == 1 else f"{op} {batch}x{n}^2") + (
                f" {setting}" if len(settings[op]) > 1 else "")
            tt, tx_ = times.get("torch"), times.get("torch_ex")
            ratio = (f"{tt.median / times['raise'].median:5.2f}x, {tx_.median / times['nan'].median:5.2f}x"
                     if tt and tx_ else "   -")
            x20 = (f"{tloop * 1e3:8.3f} {tloop / (loop_t.best / inner):5.2f}x" if tloop else f"{'-':>8s} {'-':>5s}")
            print(f"{label:27s} {_ms(times['raise'])} {_ms(times['nan'])} {loop_t.best / inner * 1e3:8.3f} {x20} "
                  f"{host.best * 1e3:7.3f} | {(_ms(tt) if tt else '-'):>17s} {(_ms(tx_) if tx_ else '-'):>17s}"
                  f" | {ratio} | {host.best / add_host:8.2f} | {per['dispatches']:.0f} {per['submits']:.0f} "
                  f"{per['uploads']:.0f} {per['downloads']:.0f}  (max rel err {err:.1e})", flush=True)
            assert err < 1e-3, f"{label}: max rel err {err:.1e} against numpy"
        _K.SMALL_CHOL_REG, _K.SMALL_CHOL_REG_SPLIT, _K.SMALL_LU_REG, _K.SMALL_LU_REG_SPLIT = default
    print("\nms a call, median / best; torch/wg > 1: wgarray faster.  nan x20, torch x20 (ratio: torch/wg) and host: "
          "best.")
    if len(args.small_chol_reg) > 1:
        print("cholesky rows per SMALL_CHOL_REG setting: the setting with the largest 'nan x20' ratio (torch x20 / wg) "
              "at 1000x32^2 (and not slower at 16^2 / 64^2) should become the default (kernels/linalg_factor.py "
              "SMALL_CHOL_REG, SMALL_CHOL_REG_SPLIT, SMALL_CHOL_REG_MIN).")
    if len(args.small_lu_reg) > 1:
        print("solve / inv rows per SMALL_LU_REG setting: the setting with the largest 'nan x20' ratio at 1000x32^2 "
              "and at 64^2 (and not slower than 'off' at 16^2) should become the default (kernels/linalg_factor.py "
              "SMALL_LU_REG = None (on GPUs), SMALL_LU_REG_SPLIT; SMALL_LU_REG_MIN = the smallest order it wins at).")


if __name__ == "__main__":
    main()
