"""The round-trip floor under wgarray (`python -m benchmarks.submit_floor`): raw wgpu-py, no wgarray code on the path.

How long does the device take to come back from the smallest submit, and how much of wgarray's small-call time
(``a.sum()`` + ``synchronize()``, ``float(a.sum())``) is beneath wgarray?  Each case is timed both ways a host can
wait: a blocking device poll (sleeps in the driver) and spinning non-blocking polls (``Stream.spin``).  Cases:
an empty submit; one command buffer with one tiny dispatch; the same plus a 4-byte copy, a map and the read.  torch's
``x.add_(1); synchronize()`` and ``float(x.sum())`` in the same process where importable.  Best of 5 x 300 calls, us.
"""
from __future__ import annotations

import time

import wgpu

from wgarray.runtime import stream as S

_SHADER = """
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x == 0u) { o[0] = o[0] + 1u; }
}
"""


def best_us(f, n=300, rep=5) -> float:
    for _ in range(20):
        f()
    b = 1e9
    for _ in range(rep):
        t0 = time.perf_counter()
        for _ in range(n):
            f()
        b = min(b, (time.perf_counter() - t0) / n)
    return b * 1e6


def raw_device():
    """(device, pipeline of the one-counter kernel) on the high-performance adapter through raw wgpu-py (printed)."""
    if S._SET_PIPELINE is None or S._POLL_WAIT is None:
        raise SystemExit("needs wgpu-native's poll (wgpu-py's native backend)")
    adapter = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
    print("adapter:", adapter.info.get("device", ""), adapter.info.get("backend_type", ""))
    dev = adapter.request_device_sync()
    return dev, dev.create_compute_pipeline(layout="auto", compute={
        "module": dev.create_shader_module(code=_SHADER), "entry_point": "main"})


def main() -> None:
    dev, pipe = raw_device()
    bu = wgpu.BufferUsage
    buf = dev.create_buffer(size=256, usage=bu.STORAGE | bu.COPY_SRC)
    stage = dev.create_buffer(size=256, usage=bu.MAP_READ | bu.COPY_DST)
    group = dev.create_bind_group(layout=pipe.get_bind_group_layout(0),
                                  entries=[{"binding": 0, "resource": {"buffer": buf, "offset": 0, "size": 256}}])

    def spin() -> None:
        h = dev._internal
        while not (S._DEVICE_POLL(h, 0, S._NULL) & 1):
            pass

    def block() -> None:
        S._POLL_WAIT(dev)  # the stream's own blocking poll

    def record(copy: bool):
        enc = dev.create_command_encoder()
        p = enc.begin_compute_pass()
        p.set_pipeline(pipe)
        p.set_bind_group(0, group)
        p.dispatch_workgroups(1)
        p.end()
        if copy:
            enc.copy_buffer_to_buffer(buf, 0, stage, 0, 4)
        return enc.finish()

    for wname, wait in (("block", block), ("spin", spin)):
        def empty():
            dev.queue.submit([])
            wait()

        def dispatch():
            dev.queue.submit([record(False)])
            wait()

        def read():
            dev.queue.submit([record(True)])
            wait()
            stage.map_sync(wgpu.MapMode.READ, 0, 4)
            stage.read_mapped(0, 4)
            stage.unmap()

        print(f"{wname:5s}: empty submit {best_us(empty):7.1f} | dispatch+wait {best_us(dispatch):7.1f} | "
              f"dispatch+copy+map+read {best_us(read):7.1f}", flush=True)
    try:
        import torch
        x = torch.zeros(1000, device="cuda")

        def tadd():
            x.add_(1)
            torch.cuda.synchronize()

        print(f"torch: add_+synchronize {best_us(tadd):7.1f} | float(x.sum()) {best_us(lambda: float(x.sum())):7.1f}")
    except Exception as e:  # noqa: BLE001 - no CUDA torch here
        print("torch: not available:", type(e).__name__)


if __name__ == "__main__":
    main()
