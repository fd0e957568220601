"""The ``fusion`` work item: a chain of k elementwise ops on float32 (one input array, scalars in between),
``wg.fuse``d (one dispatch) against the same ops unfused (k dispatches), numpy, and torch.compile / cupy.fuse when
importable on a device.  ``wg/unfused`` is the fused time over the unfused time."""
from __future__ import annotations

import numpy as np

from . import suite
from .timing import Case

# the chain's ops in turn: times a constant, plus a constant, times the input, minus a constant
_STEPS = (("mul", 1.5), ("add", 0.5), ("mulx", None), ("sub", 0.25))


def chain(x, k: int):
    t = x
    for i in range(k):
        op, c = _STEPS[i % 4]
        t = t * c if op == "mul" else t + c if op == "add" else t * x if op == "mulx" else t - c
    return t


def bench_fusion(ctx: suite.Context, cases: list[tuple[int, int]]) -> list[suite.Row]:
    import wgarray as wg
    rows = []
    rng = np.random.default_rng(3)
    dev = ctx.dev
    for k, n in cases:
        row = suite.Row("fusion", f"{k} ops, {suite._pow2_label(n)}", n, 2 * 4 * n, "GB/s")
        rows.append(row)
        x = rng.random(n, dtype=np.float32)
        ref = chain(x, k)

        def fused_(k=k, x=x, ref=ref):
            (a,) = suite._wg_resident(dev, x)
            f = wg.fuse(lambda v: chain(v, k), kernel_name=f"chain{k}")
            suite._check(row, "wgarray", f(a).numpy(), ref, 1e-6)
            return Case("", lambda _: f(a), dev.synchronize, counters=dev)

        def unfused_(k=k, x=x, ref=ref):
            (a,) = suite._wg_resident(dev, x)
            suite._check(row, "unfused", chain(a, k).numpy(), ref, 1e-6)
            return Case("", lambda _: chain(a, k), dev.synchronize, counters=dev)

        def device_peer(peer, k=k, x=x, ref=ref):
            a = suite._to_peer(peer, x)
            if peer.name == "torch":
                f = peer.module.compile(lambda v: chain(v, k))
            else:
                f = peer.module.fuse()(lambda v: chain(v, k))
            peer.sync()
            suite._check(row, peer.name, suite._from_peer(peer, f(a)), ref, 1e-6)
            return Case("", lambda _: f(a), peer.sync)

        suite._measure_row(ctx, row, [("wgarray", fused_), ("unfused", unfused_),
                                      ("numpy", lambda k=k, x=x: Case("", lambda _: chain(x, k)))]
                           + suite._device_peers(ctx, row, device_peer))
    return rows
