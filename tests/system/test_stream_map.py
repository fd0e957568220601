"""Host reads map a staging buffer in the reading thread (runtime/stream.py ``Stream._map``).

On the H200 a blocking device poll issued while a map was pending took ~10 ms whenever the device was busy, and
wgpu-py's ``map_async`` wakes a poller thread that races the reader for the GIL; so the stream waits for the device
first and maps through wgpu-native with no poll token.  These tests pin that design and check that reads stay
right when the device is busy, and from several threads at once.
"""
from __future__ import annotations

import threading

import numpy as np
import pytest

import wgarray as wg
from wgarray.runtime import stream as st

pytestmark = pytest.mark.skipif(st._MAP_ASYNC is None or st._POLL is None,
                                reason="another wgpu-py layout: reads use map_sync")


def _poller_tokens(dev) -> int:
    return dev.wgpu_device._poller._token_count


def test_reads_never_wake_wgpu_py_poller():
    dev = wg.default_device()
    a = wg.asarray(np.arange(1000, dtype=np.float32))
    (a + 1).numpy()  # warm: pipelines, staging buffers
    before = _poller_tokens(dev)
    for k in range(5):
        assert float((a + k)[3].numpy()) == 3.0 + k  # ranged read of a device-only result
        np.testing.assert_array_equal((a * 2).numpy(), np.arange(1000, dtype=np.float32) * 2)
    assert _poller_tokens(dev) == before


def test_read_while_the_device_is_busy_sees_the_finished_result():
    x = np.random.default_rng(3).standard_normal((256, 256)).astype(np.float32)
    a = wg.asarray(x)
    c = a
    for _ in range(6):  # several dependent kernels queued, none waited for
        c = (c @ a) * np.float32(1 / 64)
    want = x
    for _ in range(6):
        want = (want @ x) * np.float32(1 / 64)
    np.testing.assert_allclose(c.numpy(), want, rtol=1e-3, atol=1e-3)


def test_reads_from_several_threads():
    dev = wg.default_device()
    arrays = [wg.asarray(np.full(4096, k, np.int32)) for k in range(4)]
    errors: list[BaseException] = []

    def reader(k: int) -> None:
        try:
            for j in range(20):
                got = (arrays[k] + j).numpy()
                assert got[0] == k + j and got[-1] == k + j
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=reader, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    dev.synchronize()
