"""Issue 11, item 3: threads writing disjoint parts of one array get what some serial order gives.

Each thread loops a read-modify-write on its own part of one shared array; the mirror's state transitions
(validity flags, downloads into the host block, uploads, host writes with their invalidation, device writes with
theirs) are atomic with respect to other threads using the same base, so no update is lost.
"""
import threading

import numpy as np
import pytest

import wgarray as wg


def _host_step(s, sl):
    s[sl] = s[sl].numpy() + 1  # a download (maybe), then a host write (or a device one if the base is there)


def _device_step(s, sl):
    s[sl] += 1  # a device kernel writes


def _mixed_step(s, sl):
    s[sl] = s[sl] + 1  # a kernel reads, then a write into the base


_STEPS = {"host": _host_step, "device": _device_step, "mixed": _mixed_step}


def _hammer(kinds, reps, n=64, start_on_device=False):
    s = wg.zeros(n, dtype=wg.int32) if start_on_device else wg.asarray(np.zeros(n, np.int32))
    parts = len(kinds)
    width = n // parts
    slices = [slice(i * width, (i + 1) * width) for i in range(parts)]
    errors = []
    barrier = threading.Barrier(parts)

    def work(kind, sl):
        try:
            barrier.wait()
            step = _STEPS[kind]
            for _ in range(reps):
                step(s, sl)
        except Exception as e:  # surfaced in the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k, sl)) for k, sl in zip(kinds, slices)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]
    got = s.numpy()
    for k, sl in zip(kinds, slices):
        assert (got[sl] == reps).all(), f"{k} part ended at {sorted(set(got[sl].tolist()))}, not {reps}"


_KINDS = [("host", "host"), ("host", "device"), ("device", "host"), ("mixed", "host"), ("device", "device"),
          ("host", "host", "device", "mixed")]


@pytest.mark.parametrize("kinds", _KINDS, ids="-".join)
@pytest.mark.parametrize("start_on_device", [False, True], ids=["host-start", "device-start"])
def test_disjoint_writes_from_threads_are_not_lost(kinds, start_on_device):
    for _ in range(2):
        _hammer(kinds, 120, start_on_device=start_on_device)


@pytest.mark.slow
@pytest.mark.parametrize("kinds", _KINDS, ids="-".join)
@pytest.mark.parametrize("start_on_device", [False, True], ids=["host-start", "device-start"])
def test_disjoint_writes_from_threads_are_not_lost_long(kinds, start_on_device):
    for _ in range(10):
        _hammer(kinds, 400, start_on_device=start_on_device)


def test_opposite_in_place_operators_do_not_deadlock():
    a, b = wg.zeros(32, dtype=wg.int32), wg.asarray(np.zeros(32, np.int32))
    errors = []

    def work(x, y):
        try:
            for _ in range(150):
                x += y[::-1] * 0 + 1  # reads the other array while writing its own
        except Exception as e:
            errors.append(e)

    threads = [threading.Thread(target=work, args=(a, b)), threading.Thread(target=work, args=(b, a))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "deadlock"
    assert not errors, errors[0]
    assert (a.numpy() == 150).all() and (b.numpy() == 150).all()
