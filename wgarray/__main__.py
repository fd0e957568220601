"""`python -m wgarray`: the adapters, the chosen device's properties, a self-check against numpy, and timings."""
from __future__ import annotations

import sys
import time

import numpy as np

import wgarray as wg


def _time(fn, sync, repeat: int = 5, inner: int = 20) -> float:
    """Best per-call time over ``repeat`` samples of ``inner`` back-to-back calls and one synchronisation."""
    fn()
    sync()
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        sync()
        best = min(best, (time.perf_counter() - t0) / inner)
    return best


def self_check(dev) -> list[tuple[str, bool]]:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((37, 129)).astype(np.float32)
    y = rng.standard_normal((129,)).astype(np.float32)
    i = rng.integers(-1000, 1000, (64, 33)).astype(np.int32)
    a, b, ai = wg.asarray(x, device=dev), wg.asarray(y, device=dev), wg.asarray(i, device=dev)
    checks = [
        ("a + b * 2 > 0.5", np.array_equal((a + b * 2 > 0.5).numpy(), x + y * np.float32(2) > 0.5)),
        ("sqrt(abs(a))", np.array_equal(wg.sqrt(wg.abs(a)).numpy(), np.sqrt(np.abs(x)))),
        ("int // 7, int % -7", np.array_equal((ai // 7).numpy(), i // 7) and np.array_equal((ai % -7).numpy(), i % -7)),
        ("sum(axis=0)", np.allclose(a.sum(axis=0).numpy(), x.sum(axis=0), rtol=1e-5, atol=1e-4)),
        ("max, argmin", a.max().item() == x.max() and a.argmin(axis=1).numpy().tolist() == x.argmin(axis=1).tolist()),
        ("matmul", np.allclose((a @ a.T).numpy(), x @ x.T, rtol=1e-4, atol=1e-3)),
        ("strided view a[::-2, 3:]", np.array_equal((a[::-2, 3:] * 1).numpy(), x[::-2, 3:])),
        ("bool round trip", np.array_equal(wg.asarray(x > 0, device=dev).numpy(), x > 0)),
    ]
    return checks


def timings(dev) -> list[tuple[str, float, float]]:
    rows = []
    for n in (1 << 16, 1 << 22):
        x = np.random.default_rng(1).standard_normal(n).astype(np.float32)
        a = wg.asarray(x, device=dev)
        b = a + 1  # resident on the device
        rows.append((f"a + b, {n:>8} f32", _time(lambda: a + b, dev.synchronize), _time(lambda: x + x, lambda: None)))
        rows.append((f"a.sum(), {n:>8} f32", _time(lambda: a.sum(), dev.synchronize),
                     _time(lambda: x.sum(), lambda: None)))
    m = np.random.default_rng(2).standard_normal((512, 512)).astype(np.float32)
    am = wg.asarray(m, device=dev)
    rows.append(("a @ a, 512x512 f32", _time(lambda: am @ am, dev.synchronize), _time(lambda: m @ m, lambda: None)))
    return rows


def numpy_protocol_line(dev) -> bool:
    """numpy code on a wgarray array (NEP 13/18): ``np.sum(np.exp(x))`` dispatches on the device, no download."""
    h = np.linspace(-1, 1, 4096, dtype=np.float32)
    x = wg.asarray(h, device=dev)
    dev.synchronize()
    before = dev.stats()
    s = np.sum(np.exp(x))
    d = dev.stats() - before
    good = isinstance(s, wg.Array) and d.downloads == 0 and bool(np.isclose(float(s), np.exp(h).sum(), rtol=1e-5))
    print(f"\nnumpy on the device: np.sum(np.exp(x)) -> {type(s).__name__} {float(s):.4f} "
          f"(numpy {np.exp(h).sum():.4f}); {d.dispatches} dispatches, {d.downloads} downloads before float()")
    return good


def main() -> int:
    print("adapters:")
    for info in wg.adapters():
        print(f"  {info}")
        print(f"      {wg.adapter_properties(info)}")
    dev = wg.default_device()
    print(f"\nchosen: {dev}")
    print(f"  {dev.properties}")
    lim = dev.properties.limits
    print(f"  max buffer {lim.max_buffer_size >> 20} MiB, storage binding {lim.max_storage_buffer_binding_size >> 20} "
          f"MiB, workgroups/dim {lim.max_compute_workgroups_per_dimension}")
    print("\nself-check against numpy:")
    ok = True
    for name, good in self_check(dev):
        ok &= bool(good)
        print(f"  {'ok  ' if good else 'FAIL'} {name}")
    ok &= numpy_protocol_line(dev)
    print("\ntimings per call (best of 5 samples of 20 back-to-back calls, one device synchronisation each):")
    print(f"  {'work':<24} {'wgarray':>10} {'numpy':>10} {'ratio':>8}")
    for name, tw, tn in timings(dev):
        print(f"  {name:<24} {tw * 1e3:>8.3f}ms {tn * 1e3:>8.3f}ms {tw / tn:>7.2f}x")
    print(f"\nstats: {dev.stats()}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
