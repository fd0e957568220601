"""What one dependent launch costs on the device (`python -m benchmarks.chain_floor`): raw wgpu-py, no wgarray code.

The blocked factorisations are chains of a few hundred small launches, each reading what the one before wrote (a
4096^2 Cholesky: ~190; their kernels' own work is a few microseconds each).  This times a chain of N launches of a
trivial kernel recorded in one compute pass and one submit, the host's recording excluded (the command buffer is
built before the clock starts): every launch writing the same buffer (wgpu puts a barrier between them), every launch
its own buffer (no barrier needed), each with 1 and 132 workgroups; and CUDA's peer where torch is importable: N
dependent ``x.add_(1)`` on a 1-element tensor (its launches queue asynchronously), timed the same way.  Per launch,
best of 5, us.  The gap between "same buffer" and "own buffers" is the barrier; "same buffer" is the floor under
every launch of a factorisation.
"""
from __future__ import annotations

import argparse
import time

import wgpu

from wgarray.runtime import stream as S

from .submit_floor import raw_device


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1000, help="launches a chain")
    args = ap.parse_args()
    dev, pipe = raw_device()
    bu = wgpu.BufferUsage
    bufs = [dev.create_buffer(size=256, usage=bu.STORAGE) for _ in range(args.n)]
    groups = [dev.create_bind_group(layout=pipe.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": {"buffer": b, "offset": 0, "size": 256}}]) for b in bufs]

    def chain(own: bool, wgs: int):
        enc = dev.create_command_encoder()
        p = enc.begin_compute_pass()
        p.set_pipeline(pipe)
        for k in range(args.n):
            p.set_bind_group(0, groups[k if own else 0])
            p.dispatch_workgroups(wgs)
        p.end()
        return enc.finish()

    def timed(own: bool, wgs: int) -> float:
        best = 1e9
        for _ in range(6):
            cmd = chain(own, wgs)
            S._POLL_WAIT(dev)  # idle
            t0 = time.perf_counter()
            dev.queue.submit([cmd])
            S._POLL_WAIT(dev)  # a blocking poll: returns once the submit is done
            best = min(best, time.perf_counter() - t0)
        return best / args.n * 1e6

    for wgs in (1, 132):
        print(f"wgpu {wgs:4d} workgroups: same buffer {timed(False, wgs):7.2f} us a launch | own buffers "
              f"{timed(True, wgs):7.2f}", flush=True)
    try:
        import torch
        x = torch.zeros(1, device="cuda")
        best = 1e9
        for _ in range(6):
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            for _ in range(args.n):
                x.add_(1)
            torch.cuda.synchronize()
            best = min(best, time.perf_counter() - t0)
        print(f"torch x.add_(1) chain: {best / args.n * 1e6:7.2f} us a launch (host-bound if near its Python cost)")
    except Exception as e:  # noqa: BLE001 - no CUDA torch here
        print("torch: not available:", type(e).__name__)


if __name__ == "__main__":
    main()
