"""The ``linalg`` work item: cholesky, solve and inv (float32) of one n x n matrix and of stacks of small ones,
wgarray against numpy (LAPACK; it factors float32 in float64), torch (CUDA) and CuPy.

Rates count the textbook flops: cholesky n^3/3, solve (LU + substitution for K = 16 right-hand sides)
2n^3/3 + 2n^2 K, inv 2n^3, per matrix.  Each call is timed synchronised (one call a sample): a factorisation is
a chain of dependent dispatches, so back-to-back calls would only measure queueing.
"""
from __future__ import annotations

import numpy as np

import wgarray as wg

from .suite import Case, Context, Row, _check, _device_peers, _from_peer, _measure_row, _to_peer, _wg_resident

K = 16  # right-hand sides of solve


def _flops(op: str, n: int) -> float:
    return {"cholesky": n ** 3 / 3, "solve": 2 * n ** 3 / 3 + 2 * n * n * K, "inv": 2.0 * n ** 3}[op]


def _peer_fn(peer_module, op: str):
    la = peer_module.linalg
    return {"cholesky": lambda a, b: la.cholesky(a), "solve": la.solve, "inv": lambda a, b: la.inv(a)}[op]


def bench_linalg(ctx: Context, sizes: list[int], batched: list[tuple[int, int]]) -> list[Row]:
    rows = []
    rng = np.random.default_rng(12)
    dev = ctx.dev
    cases = [(1, n) for n in sizes] + list(batched)
    for batch, n in cases:
        shape = (n, n) if batch == 1 else (batch, n, n)
        g = rng.standard_normal(shape).astype(np.float32) / np.sqrt(n)
        a = (g + 2 * np.eye(n, dtype=np.float32)).astype(np.float32)  # well conditioned
        spd = (g @ np.swapaxes(g, -1, -2) + np.eye(n, dtype=np.float32)).astype(np.float32)
        b = rng.standard_normal(shape[:-1] + (K,)).astype(np.float32)
        for op in ("cholesky", "solve", "inv"):
            x = spd if op == "cholesky" else a
            label = f"{op} {n}^2" if batch == 1 else f"{op} {batch}x{n}^2"
            row = Row("linalg", label, n if batch == 1 else f"{batch}x{n}", batch * _flops(op, n), "GFLOP/s")
            rows.append(row)
            ref = _peer_fn(np, op)(x, b)
            rtol = 1e-3

            def wgarray_(x=x, op=op, ref=ref, row=row):
                xa, ba = _wg_resident(dev, x, b)
                f = _peer_fn(wg, op)
                _check(row, "wgarray", f(xa, ba).numpy(), ref, rtol)

                def call(_):
                    f(xa, ba).mirror.buffer()
                return Case("", call, dev.synchronize, counters=dev)

            def device_peer(peer, x=x, op=op, ref=ref, row=row):
                xa, ba = _to_peer(peer, x), _to_peer(peer, b)
                f = _peer_fn(peer.module, op)
                peer.sync()
                _check(row, peer.name, _from_peer(peer, f(xa, ba)), ref, rtol)
                return Case("", lambda _: f(xa, ba), peer.sync)

            f_np = _peer_fn(np, op)
            _measure_row(ctx, row, [("wgarray", wgarray_), ("numpy", lambda x=x, f_np=f_np: Case("", lambda _: f_np(x, b)))]
                         + _device_peers(ctx, row, device_peer))
    return rows
