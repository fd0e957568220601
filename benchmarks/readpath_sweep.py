"""`python -m benchmarks.readpath_sweep [--small]`: the cost of a small read and of small calls (issues 17 row 2, 12),
for each setting of the stream's submit path against torch and CuPy in the same process (~1-2 min on a GPU).

Variants (knobs of ``wgarray.runtime.stream``, switched per call; the default is marked ``*``):
* ``native``: the defaults (records, finishes and submits through wgpu-native's C entry points,
  ``wgarray/runtime/native.py``; a small read maps, copies and unmaps in one native step; ``RING_REUSE``: no ring
  write when the ring already holds the submit's parameters; ``READ_FUSED``: the read's copy recorded inside the
  submit; ``MAP_FIRST`` off: the map is requested after the blocking poll);
* ``no-ring-reuse``, ``no-fused``, ``map-first``: the default with one of those three knobs flipped; ``no-spin``:
  waits by a blocking poll at once (``SPIN_S = 0``; the default spins non-blocking polls first on a GPU);
* ``phase1``: all three flipped (the default before this change); ``submit-only``: phase1 without the native read;
  ``wgpu-py``: neither native path.
(The sum's shorter Python path is in every variant.)

Rows (float32; device-resident before timing; every answer checked against numpy once per variant and peer):
* ``float(a.sum())``: a sum of 1,000 and its 4-byte read, one at a time (the round trip of a convergence check);
* ``s = a.sum()`` and ``c = a + b``: loops of 1,000-element ops, one synchronisation per sample;
* ``cholesky / solve (16 rhs) / inv`` of 10,000 x 8^2 and 1,000 x 32^2 in the default ``errors("raise")`` mode (each
  call reads its 4-byte status word), against torch's checked ``torch.linalg.*`` (which read theirs) and CuPy's.
Per row: median / best microseconds a call, ratio peer / wgarray on the best (> 1: wgarray faster).  Then the
host's process time (CPU, all threads) per ``float(a.sum())`` for each variant: the evidence on a CPU adapter, where
the device's own work is host CPU too.  ``--small``: batches of 1/10 and fewer samples (lavapipe).
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Callable

import numpy as np

import wgarray as wg
from wgarray.runtime import stream as stream_mod

from .peers import find_cupy, find_torch
from .timing import Case, measure_all

K = 16  # right-hand sides of solve
_PHASE1 = {"RING_REUSE": False, "READ_FUSED": False, "MAP_FIRST": False}
VARIANTS: dict[str, dict[str, Any]] = {
    "native": {},
    "no-spin": {"SPIN_S": 0.0},
    "no-ring-reuse": {"RING_REUSE": False},
    "no-fused": {"READ_FUSED": False},
    "map-first": {"MAP_FIRST": True},
    "phase1": _PHASE1,
    "submit-only": {**_PHASE1, "NATIVE_READ": False},
    "wgpu-py": {**_PHASE1, "NATIVE_SUBMIT": False, "NATIVE_READ": False},
}
_KNOBS = ("NATIVE_SUBMIT", "NATIVE_READ", "RING_REUSE", "READ_FUSED", "MAP_FIRST", "SPIN_S")
_DEFAULT = {k: getattr(stream_mod, k) for k in _KNOBS}


def _set(value: dict[str, Any]) -> None:
    for k in _KNOBS:
        setattr(stream_mod, k, value.get(k, _DEFAULT[k]))


def _variant(value: dict[str, Any], f: Callable[[], Any]) -> Callable[[Any], Any]:
    def call(_):
        _set(value)
        return f()
    return call


def phases(a: Any, reads: int = 300) -> list[str]:
    """Where one ``float(a.sum())`` spends its time under the current knobs: each wgpu-native call of the stream
    (wrapped where the stream looks it up) with its calls a read, this thread's CPU time and the wall time a read;
    the rest is Python (and the sum's recording).  CPU close to wall in the blocking poll: the driver spins."""
    from wgarray.runtime import native
    acc: dict[str, list[float]] = {}
    saved: list[tuple[Any, str, Any]] = []

    def wrap(mod: Any, name: str, label: Callable[..., str]) -> None:
        real = getattr(mod, name)

        def timed(*args):
            t0, w0 = time.thread_time_ns(), time.perf_counter_ns()
            try:
                return real(*args)
            finally:
                v = acc.setdefault(label(*args), [0.0, 0.0, 0])
                v[0] += time.thread_time_ns() - t0
                v[1] += time.perf_counter_ns() - w0
                v[2] += 1
        saved.append((mod, name, real))
        setattr(mod, name, timed)

    names = {"_create_encoder": "create encoder", "_begin_pass": "begin pass", "_end_pass": "end pass",
             "_copy": "copy", "_write": "queue write", "_finish": "finish", "_submit": "queue submit",
             "release_pass": "release pass", "release_encoder": "release encoder",
             "_release_commands": "release commands", "_mapped_range": "mapped range", "_unmap": "unmap"}
    for name, label in names.items():
        wrap(native, name, lambda *_, label=label: label)
    wrap(stream_mod, "_DEVICE_POLL", lambda _d, wait, _p: "poll (blocking)" if wait else "poll")
    wrap(stream_mod, "_MAP_ASYNC", lambda *_: "map async")
    for name in ("_SET_PIPELINE", "_SET_GROUP", "_DISPATCH"):
        wrap(stream_mod, name, lambda *_, name=name: name[1:].lower().replace("_", " "))
    try:
        for _ in range(20):
            float(a.sum())
        acc.clear()
        t0, w0 = time.thread_time_ns(), time.perf_counter_ns()
        for _ in range(reads):
            float(a.sum())
        total_t, total_w = (time.thread_time_ns() - t0) / reads / 1e3, (time.perf_counter_ns() - w0) / reads / 1e3
    finally:
        for mod, name, real in saved:
            setattr(mod, name, real)
    lines = [f"  {'call':20s} {'calls/read':>10s} {'thread CPU us':>14s} {'wall us':>9s}"]
    for label, (t, w, n) in sorted(acc.items(), key=lambda kv: -kv[1][1]):
        lines.append(f"  {label:20s} {n / reads:10.2f} {t / reads / 1e3:14.1f} {w / reads / 1e3:9.1f}")
    in_t = sum(v[0] for v in acc.values()) / reads / 1e3
    in_w = sum(v[1] for v in acc.values()) / reads / 1e3
    lines.append(f"  {'wgpu-native, all':20s} {'':10s} {in_t:14.1f} {in_w:9.1f}")
    lines.append(f"  {'the rest (Python)':20s} {'':10s} {total_t - in_t:14.1f} {total_w - in_w:9.1f}")
    lines.append(f"  {'a read, in all':20s} {'':10s} {total_t:14.1f} {total_w:9.1f}")
    return lines


def _linalg_data(rng, batch: int, n: int):
    g = (rng.standard_normal((batch, n, n)) / np.sqrt(n)).astype(np.float32)
    a = (g + 2 * np.eye(n, dtype=np.float32)).astype(np.float32)
    s = (g @ np.swapaxes(g, -1, -2) + np.eye(n, dtype=np.float32)).astype(np.float32)
    b = rng.standard_normal((batch, n, K)).astype(np.float32)
    return a, s, b


def _rows(xp: Any, put: Callable[[np.ndarray], Any], scalar: Callable[[Any], float], small: bool):
    """(row name, call, numpy answer, read back) for the namespace ``xp`` (wgarray, torch or cupy)."""
    rng = np.random.default_rng(17)
    x, y = rng.random(1000, dtype=np.float32), rng.random(1000, dtype=np.float32)
    a, b = put(x), put(y)
    rows = [("float(a.sum())", lambda: scalar(a.sum()), float(x.sum(dtype=np.float64)), float),
            ("s = a.sum()", lambda: a.sum(), float(x.sum(dtype=np.float64)), scalar),
            ("c = a + b", lambda: a + b, x + y, None)]
    la = xp.linalg
    for batch, n in ((10_000, 8), (1_000, 32)):
        batch //= 10 if small else 1
        A, S, B = _linalg_data(rng, batch, n)
        dA, dS, dB = put(A), put(S), put(B)
        tag = f"{batch}x{n}^2"
        rows += [(f"cholesky {tag}", lambda dS=dS: la.cholesky(dS), np.linalg.cholesky(S), None),
                 (f"solve {tag}", lambda dA=dA, dB=dB: la.solve(dA, dB), np.linalg.solve(A, B), None),
                 (f"inv {tag}", lambda dA=dA: la.inv(dA), np.linalg.inv(A), None)]
    return rows


def _check(name: str, got: Any, want: Any, to_numpy: Callable[[Any], np.ndarray]) -> str:
    g = np.asarray(got if isinstance(got, float) else to_numpy(got), dtype=np.float64)
    w = np.asarray(want, dtype=np.float64)
    err = float(np.max(np.abs(g - w)) / max(1.0, float(np.max(np.abs(w))))) if w.size else 0.0
    return "ok" if err < 1e-3 else f"WRONG (rel err {err:.2e})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.readpath_sweep", description=__doc__.split("\n\n")[0])
    ap.add_argument("--small", action="store_true", help="batches of 1/10, fewer samples (a CPU adapter)")
    ap.add_argument("--repeat", type=int, default=0, help="timed samples a case (default 15, --small 5)")
    args = ap.parse_args(argv)
    repeat = args.repeat or (5 if args.small else 15)
    target = 0.02 if args.small else 0.01  # seconds a sample: loops of many calls, one synchronisation
    dev = wg.default_device()
    default_name = "native"
    peers = [("wgarray", wg, lambda x: wg.asarray(x, device=dev), lambda s: float(s), lambda r: r.numpy(),
              dev.synchronize)]
    notes = []
    for p in (find_torch(), find_cupy()):
        if not p.available:
            notes.append(f"{p.name}: {p.reason}")
        elif p.name == "torch":
            t = p.module
            peers.append(("torch", t, lambda x, t=t: t.from_numpy(x).cuda(), lambda s: s.item(),
                          lambda r: r.cpu().numpy(), p.sync))
        else:
            c = p.module
            peers.append(("cupy", c, c.asarray, lambda s: float(s), c.asnumpy, p.sync))
    print(f"readpath sweep on {dev}; default {default_name} ({_DEFAULT}; native: {stream_mod.native.available})"
          + (f"; skipped {', '.join(notes)}" if notes else ""))
    table: dict[str, dict[str, Any]] = {}
    checks: list[str] = []
    try:
        for pname, xp, put, scalar, to_np, sync in peers:
            rows = _rows(xp, put, scalar, args.small)
            variants = VARIANTS.items() if pname == "wgarray" else [(pname, None)]
            for label, value in variants:
                for rname, f, want, _ in rows:
                    if value is not None:
                        _set(value)
                    try:
                        checks.append(f"{label:11s} {rname:24s} {_check(rname, f(), want, to_np)}")
                    except Exception as e:  # a peer without this call: left out of the row
                        checks.append(f"{label:11s} {rname:24s} skipped ({type(e).__name__}: {e})"[:160])
                        continue
                    call = _variant(value, f) if value is not None else (lambda _, f=f: f())
                    name = f"wgarray {label}" if value is not None else label
                    table.setdefault(rname, {})[name] = Case(name, call, sync)
        results = {}
        for rname, cases in table.items():
            results[rname] = measure_all(list(cases.values()), repeat=repeat, target_s=target, budget_s=1.5,
                                         max_inner=2000, on_error=lambda c, e: checks.append(
                                             f"{c.name} failed while timed: {type(e).__name__}: {e}"[:160]))
        cpu = {}
        a = wg.asarray(np.ones(1000, np.float32), device=dev)
        for _ in range(3):
            for label, value in VARIANTS.items():
                _set(value)
                for _ in range(20):
                    float(a.sum())
                t0 = time.process_time()
                for _ in range(300):
                    float(a.sum())
                cpu.setdefault(label, []).append((time.process_time() - t0) / 300 * 1e6)
        breakdown = {}
        for label in ("native", "phase1"):
            _set(VARIANTS[label])
            breakdown[label] = phases(a)
        _set({})
        floors = _floors(dev, a)
    finally:
        _set({})
    print("answers: " + ("all ok" if all(c.endswith(" ok") for c in checks) else "\n  " + "\n  ".join(
        c for c in checks if not c.endswith(" ok"))))
    print(f"{'row':24s} {'variant':24s} {'us a call (median / best)':>26s} {'torch/this':>11s} {'cupy/this':>10s}")
    for rname, res in results.items():
        torch_t, cupy_t = res.get("torch"), res.get("cupy")
        for name, t in res.items():
            mark = "*" if name == f"wgarray {default_name}" else " "
            tr = f"{torch_t.best / t.best:10.2f}x" if torch_t else f"{'-':>11s}"
            cr = f"{cupy_t.best / t.best:9.2f}x" if cupy_t else f"{'-':>10s}"
            print(f"{rname:24s} {name + mark:24s} {t.median * 1e6:12.1f} / {t.best * 1e6:10.1f} {tr} {cr}")
    print("host process time per float(a.sum()) (us, best of 3 x 300 reads): " + ", ".join(
        f"{label} {min(v):.1f}" for label, v in cpu.items()))
    for label, lines in breakdown.items():
        print(f"one float(a.sum()) under {label}, per wgpu-native call (300 reads; each line includes its timing "
              "wrapper, about the cheapest line's cost):")
        print("\n".join(lines))
    print("floors (default; best of 3 x 300, this thread's CPU / wall us a call): " + ", ".join(
        f"{k} {c:.1f} / {w:.1f}" for k, (c, w) in floors.items()))
    return 0


def _floors(dev: Any, a: Any) -> dict[str, tuple[float, float]]:
    """What a read costs without the sum: a 4-byte read with nothing recorded (copy, submit, wait, map), the
    wait of an idle device (``synchronize``), and the sum's recording alone (its submit and wait shared by 300)."""
    st = dev.stream
    s = a.sum()
    dev.synchronize()
    buf, out = s.mirror.buffer(), bytearray(4)

    def sums():
        a.sum()

    cases = {"4-byte read, nothing recorded": lambda: st.read(buf, 0, 4, out),
             "synchronize, idle": dev.synchronize, "a.sum() recorded": sums}
    res = {}
    for name, f in cases.items():
        best = (float("inf"), float("inf"))
        for _ in range(3):
            for _ in range(20):
                f()
            dev.synchronize()
            t0, w0 = time.thread_time(), time.perf_counter()
            for _ in range(300):
                f()
            best = min(best, ((time.thread_time() - t0) / 300 * 1e6, (time.perf_counter() - w0) / 300 * 1e6))
            dev.synchronize()
        res[name] = best
    return res


if __name__ == "__main__":
    sys.exit(main())
