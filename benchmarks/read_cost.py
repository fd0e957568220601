"""Where the time of one small read goes: ``float(a.sum())`` of 1,000 float32, with the stream's and wgpu-py's calls
on its path wrapped in timers (``python -m benchmarks.read_cost``; a few seconds).

Prints µs per read for each wrapped call (nested calls are counted in both: flush contains finish and submit), then
``a.sum(); synchronize()`` for comparison.  The wrappers add their own cost, so the total is a little above an
unwrapped read's (``python -m benchmarks.tiny_ops`` gives that, beside torch and CuPy)."""
from __future__ import annotations

import time

import numpy as np
import wgpu.backends.wgpu_native._api as api

import wgarray as wg
from wgarray.runtime import stream as S


def _wrap(owner, name: str, label: str, acc: dict) -> None:
    f = getattr(owner, name)

    def timed(*args, **kw):
        t0 = time.perf_counter()
        try:
            return f(*args, **kw)
        finally:
            acc[label] = acc.get(label, 0.0) + time.perf_counter() - t0
    setattr(owner, name, timed)


def main(reads: int = 300) -> None:
    dev = wg.default_device()
    a = wg.asarray(np.ones(1000, np.float32))
    acc: dict[str, float] = {}
    for n in ("flush", "copy", "_map", "dispatch"):
        _wrap(S.Stream, n, "Stream." + n, acc)
    for owner, names in ((api.GPUBuffer, ("read_mapped", "unmap")), (api.GPUQueue, ("submit",)),
                         (api.GPUCommandEncoder, ("finish", "copy_buffer_to_buffer", "begin_compute_pass")),
                         (api.GPUDevice, ("create_command_encoder",))):
        for n in names:
            _wrap(owner, n, f"{owner.__name__}.{n}", acc)
    for _ in range(20):
        float(a.sum())
    acc.clear()
    t0 = time.perf_counter()
    for _ in range(reads):
        float(a.sum())
    total = (time.perf_counter() - t0) / reads * 1e6
    print(f"{dev}: float(a.sum()) {total:.1f} us a read (wrapped)")
    for k, v in sorted(acc.items(), key=lambda kv: -kv[1]):
        print(f"  {k:36s} {v / reads * 1e6:8.1f} us a read")
    t0 = time.perf_counter()
    for _ in range(reads):
        a.sum()
        dev.synchronize()
    print(f"a.sum(); synchronize(): {(time.perf_counter() - t0) / reads * 1e6:.1f} us")


if __name__ == "__main__":
    main()
