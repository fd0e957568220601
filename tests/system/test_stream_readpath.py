"""The small read's path (runtime/stream.py): the parameter ring's write is skipped when the ring buffer already
holds a submit's parameter bytes (``stream.RING_REUSE``), a read records its copy inside the submit
(``stream.READ_FUSED``), and a read may request its map before the blocking poll (``stream.MAP_FIRST``).  These tests
pin that a repeated op and read skips the write, that any change of parameters (shorter, longer, different bytes, a
batch too large to remember) is written, that a failed submit forgets what the ring holds, and that reads stay right
(and a bad read still raises) under every setting, on both submit paths."""
from __future__ import annotations

import numpy as np
import pytest
import wgpu
from hypothesis import given, settings, strategies as hst

import wgarray as wg
from wgarray.runtime import stream as stream_mod


@pytest.fixture(params=[True, False], ids=["native", "wgpu-py"])
def submit_path(request, monkeypatch):
    monkeypatch.setattr(stream_mod, "NATIVE_SUBMIT", request.param and stream_mod.NATIVE_SUBMIT)
    monkeypatch.setattr(stream_mod, "RING_REUSE", True)
    return request.param


def test_a_repeated_read_skips_the_ring_write(submit_path):
    dev = wg.default_device()
    st = dev.stream
    x = np.arange(1000, dtype=np.float32)
    a = wg.asarray(x)
    for _ in range(2):  # the first sum of a layout may take another route (the reduce plan is remembered)
        assert float(a.sum()) == float(x.sum())
    before = st.ring_skips
    for _ in range(5):
        assert float(a.sum()) == float(x.sum())
    assert st.ring_skips - before == 5


def test_without_the_knob_every_submit_writes(monkeypatch):
    monkeypatch.setattr(stream_mod, "RING_REUSE", False)
    st = wg.default_device().stream
    a = wg.asarray(np.arange(10, dtype=np.float32))
    before = st.ring_skips
    for _ in range(3):
        assert float(a.sum()) == 45.0
    assert st.ring_skips == before and st._ring_sent == b""


@settings(max_examples=25, deadline=None)
@given(hst.lists(hst.tuples(hst.integers(1, 300), hst.integers(-3, 3), hst.integers(1, 3)), min_size=1, max_size=8))
def test_changing_parameters_are_always_written(ops):
    """Sums of prefixes scaled and shifted by varying amounts, one to three ops a batch, each read at once: every
    batch's parameters differ from, extend, shorten or repeat the previous batch's; each answer matches numpy."""
    old, stream_mod.RING_REUSE = stream_mod.RING_REUSE, True
    try:
        x = np.arange(300, dtype=np.float32) % 7
        a = wg.asarray(x)
        for n, k, depth in ops:
            b, want = a[:n], x[:n]
            for d in range(depth):
                b, want = b * np.float32(k) + np.float32(d), want * np.float32(k) + np.float32(d)
            assert float(b.sum()) == pytest.approx(float(want.sum(dtype=np.float64)), rel=1e-5, abs=1e-3)
    finally:
        stream_mod.RING_REUSE = old


def test_a_batch_larger_than_ring_keep_is_written_and_forgotten(monkeypatch):
    monkeypatch.setattr(stream_mod, "RING_REUSE", True)
    monkeypatch.setattr(stream_mod, "RING_KEEP", 64)
    st = wg.default_device().stream
    x = np.arange(100, dtype=np.float32)
    a = wg.asarray(x)
    b = a
    for i in range(8):  # eight parameter blocks: more than 64 bytes of ring
        b = b + np.float32(i)
    assert float(b.sum()) == float((x + 28).sum())
    assert st._ring_sent == b""
    assert float(b.sum()) == float((x + 28).sum())


def test_a_failed_submit_forgets_the_ring(submit_path):
    dev = wg.default_device()
    st = dev.stream
    a = wg.asarray(np.arange(10, dtype=np.float32))
    assert float(a.sum()) == 45.0
    assert st._ring_sent != b""
    buf = dev.wgpu_device.create_buffer(size=16, usage=wgpu.BufferUsage.COPY_SRC | wgpu.BufferUsage.COPY_DST)
    st.copy(buf, 0, buf, 0, 16)  # invalid: raised at the submit
    with pytest.raises(wgpu.GPUValidationError):
        st.flush()
    assert st._ring_sent == b""
    assert float(a.sum()) == 45.0


@pytest.mark.skipif(not stream_mod._NATIVE_MAP, reason="another wgpu-py layout: reads use map_sync")
@pytest.mark.parametrize("first", [True, False], ids=["map-first", "wait-first"])
def test_reads_under_both_map_orders(first, monkeypatch):
    """Small reads, a read behind queued dependent work (the map is requested while the device is busy) and a
    read of several chunks, with the map requested before or after the blocking poll."""
    monkeypatch.setattr(stream_mod, "MAP_FIRST", first)
    x = np.random.default_rng(5).standard_normal((128, 128)).astype(np.float32)
    a = wg.asarray(x)
    assert float(a[3, 4]) == float(x[3, 4])
    c, want = a, x
    for _ in range(4):
        c, want = (c @ a) * np.float32(1 / 32), (want @ x) * np.float32(1 / 32)
    np.testing.assert_allclose(c.numpy(), want, rtol=1e-3, atol=1e-3)
    assert float(c.sum()) == pytest.approx(float(want.sum(dtype=np.float64)), rel=1e-3, abs=1e-2)
    monkeypatch.setattr(stream_mod, "_CHUNK", 1 << 12)
    st = wg.default_device().stream
    st.trim_staging()
    try:
        np.testing.assert_array_equal((a + 1).numpy(), x + 1)  # 64 KiB: 16 chunks through wgpu-py's mapped ranges
    finally:
        st.trim_staging()


@pytest.mark.parametrize("fused", [True, False], ids=["fused", "copy-then-flush"])
def test_fused_reads_with_and_without_pending_work(fused, submit_path, monkeypatch):
    monkeypatch.setattr(stream_mod, "READ_FUSED", fused)
    dev = wg.default_device()
    st = dev.stream
    st.flush()
    x = np.arange(64, dtype=np.float32)
    buf = dev.wgpu_device.create_buffer(size=256, usage=wgpu.BufferUsage.COPY_SRC | wgpu.BufferUsage.COPY_DST)
    st.write(buf, 0, x)
    st.flush()
    assert not st.recording
    assert bytes(st.read(buf, 8, 12)) == x[2:5].tobytes()  # nothing recorded: the read opens its own encoder
    a = wg.asarray(x)
    b = a * 3  # recorded, not submitted: the read's copy follows it in the same submit
    assert st.recording
    assert float(b[5]) == 15.0 and float(b.sum()) == float((x * 3).sum())
    assert not st.recording and st._encoder is None
    with pytest.raises(wgpu.GPUValidationError):
        st.read(buf, 252, 8)  # past the end: wgpu-native reports it when the submit finishes the encoder
    assert not st.recording
    assert float(a.sum()) == float(x.sum())
    buf.destroy()


def test_a_scalar_result_is_read_without_building_a_view(monkeypatch):
    """``item()`` (so ``float``, ``int``, ``bool``, ``complex``) of the only element of its base reads the host
    element directly, not through ``numpy()``; every dtype gives numpy's Python scalar, and the host side stays valid
    (a second read downloads nothing)."""
    calls = []
    real = wg.Array.numpy
    monkeypatch.setattr(wg.Array, "numpy", lambda self: calls.append(1) or real(self))
    dev = wg.default_device()
    for dt in ("bool", "int32", "uint32", "float32", "complex64", "int64", "float64", "float16"):
        try:
            a = wg.asarray(np.arange(1, 6).astype(dt))
            s = a.sum() if dt != "bool" else a.any()
        except Exception:  # a dtype this adapter lacks
            continue
        want = (np.arange(1, 6).astype(dt).sum() if dt != "bool" else np.arange(1, 6).astype(dt).any()).item()
        got = s.item()
        assert type(got) is type(want) and got == want, dt
        downloads = dev.counters.downloads
        assert s.item() == want and dev.counters.downloads == downloads
    assert not calls
    v = wg.asarray(np.arange(4, dtype=np.float32)) + 0
    assert v[2].item() == 2.0 and calls  # an element of a larger base: numpy() downloads just its span


def test_read_into_a_short_buffer_refuses():
    # the native small read copies without a length check of its own: a destination shorter than the read is
    # refused before anything is copied (no write past its end), and the stream stays usable
    x = wg.asarray(np.arange(8, dtype=np.float32))
    buf = x.mirror.buffer()
    out = bytearray(4)
    with pytest.raises(ValueError, match="32-byte read into a 4-byte buffer"):
        x.device.stream.read(buf, 0, 32, out)
    assert out == bytearray(4)
    np.testing.assert_array_equal((x + 1).numpy(), np.arange(8, dtype=np.float32) + 1)


class _Polls:
    """Stands in for wgpu-native's device poll: counts blocking and non-blocking calls; ``stall`` non-blocking polls
    report a busy queue before the real answer comes back."""

    def __init__(self, real, stall: int = 0):
        self.real, self.stall, self.spins, self.blocks = real, stall, 0, 0

    def __call__(self, handle, wait, index):
        if wait:
            self.blocks += 1
            return self.real(handle, wait, index)
        self.spins += 1
        if self.stall:
            self.stall -= 1
            return 0
        return self.real(handle, wait, index)


needs_native_poll = pytest.mark.skipif(stream_mod._SET_PIPELINE is None, reason="wgpu-native's poll not reachable")


@needs_native_poll
@pytest.mark.parametrize("spin", [True, False], ids=["spin", "block"])
def test_waits_spin_only_where_asked(spin, monkeypatch):
    """A GPU stream spins non-blocking polls before it blocks (``Stream.spin``, ``SPIN_S``); a CPU adapter's stream
    (lavapipe's, by default) only blocks.  Reads and synchronize() give the same answers either way."""
    dev = wg.default_device()
    st = dev.stream
    assert st.spin == (dev.properties.adapter_type != "CPU")
    monkeypatch.setattr(st, "spin", spin)
    monkeypatch.setattr(stream_mod, "SPIN_S", 0.5)
    polls = _Polls(stream_mod._DEVICE_POLL)
    monkeypatch.setattr(stream_mod, "_DEVICE_POLL", polls)
    x = np.arange(2000, dtype=np.float32)
    a = wg.asarray(x)
    for _ in range(3):
        assert float((a * 2).sum()) == float((x * 2).sum())
        dev.synchronize()
    if spin:
        assert polls.spins > 0 and polls.blocks == 0  # every wait ended inside its spin (SPIN_S is long)
    else:
        assert polls.blocks >= 6  # one blocking poll a read and a synchronize


@needs_native_poll
def test_a_spin_that_runs_out_falls_back_to_blocking(monkeypatch):
    """A wait longer than SPIN_S ends in the blocking poll, not in a spin forever or an early return."""
    dev = wg.default_device()
    monkeypatch.setattr(dev.stream, "spin", True)
    monkeypatch.setattr(stream_mod, "SPIN_S", 0.001)
    polls = _Polls(stream_mod._DEVICE_POLL, stall=10**9)  # the queue never looks empty to a non-blocking poll
    monkeypatch.setattr(stream_mod, "_DEVICE_POLL", polls)
    x = np.arange(4096, dtype=np.float32).reshape(64, 64)
    a = wg.asarray(x)
    b = a @ a
    dev.synchronize()
    assert polls.blocks >= 1 and polls.spins >= 64
    polls.stall = 0
    np.testing.assert_allclose(b.numpy(), x @ x, rtol=1e-6)
