"""Several Python threads on one device and on different devices get correct results."""
import threading

import numpy as np

import wgarray as wg


def _worker(seed: int, device, results: dict, errors: list) -> None:
    try:
        rng = np.random.default_rng(seed)
        for step in range(40):  # noqa: B007
            x = rng.standard_normal(int(rng.integers(1, 3000))).astype(np.float32)
            y = rng.integers(-50, 50, x.shape).astype(np.int32)
            a, b = wg.asarray(x, device=device), wg.asarray(y, device=device)
            c = (a * 2 + b) // 3
            v = c[::2].copy()
            v[0] = -1
            s = c.sum()
            want = (x * np.float32(2) + y.astype(np.float32)) // np.float32(3)
            np.testing.assert_array_equal(c.numpy(), want)
            want_v = want[::2].copy()
            want_v[0] = -1
            np.testing.assert_array_equal(v.numpy(), want_v)
            np.testing.assert_allclose(float(s), float(want.astype(np.float64).sum()), rtol=1e-4, atol=1e-2)
        results[seed] = True
    except Exception as e:  # surfaced in the main thread
        errors.append(e)


def _run(devices):
    results, errors = {}, []
    threads = [threading.Thread(target=_worker, args=(seed, devices[seed % len(devices)], results, errors))
               for seed in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]
    assert len(results) == 4


def test_threads_share_one_device(dev):
    _run([dev])
    assert np.array_equal((wg.arange(4) + 1).numpy(), np.arange(1, 5))


def test_threads_on_two_devices(dev):
    other = wg.open_device()
    try:
        _run([dev, other])
    finally:
        other.close()
