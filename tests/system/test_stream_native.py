"""The stream's native submit path (runtime/native.py, ``stream.NATIVE_SUBMIT``): the encoder, pass, copies, finish
and submit go through wgpu-native's C entry points with bare handles.  These tests pin that it behaves as wgpu-py's
objects did: a bad command still raises wgpu's validation error (and the stream goes on), every handle it opens is
released, the encoder is opened lazily after a read, and the knob may change between batches."""
from __future__ import annotations

import numpy as np
import pytest
import wgpu

import wgarray as wg
from wgarray.kernels import launch
from wgarray.runtime import native, stream as stream_mod

pytestmark = pytest.mark.skipif(not stream_mod.NATIVE_SUBMIT, reason="another wgpu-py layout: no native path")

COPY = """
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
@group(1) @binding(0) var<uniform> p: vec4<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < p.x) {
        y[g.x] = x[g.x];
    }
}
"""


@pytest.fixture(params=[True, False], ids=["native", "wgpu-py"])
def knob(request, monkeypatch):
    monkeypatch.setattr(stream_mod, "NATIVE_SUBMIT", request.param)
    return request.param


def _fresh(dev):
    """The stream with nothing recorded (so the next encoder follows the knob)."""
    dev.stream.flush()
    return dev.stream


def test_default_is_native_where_available():
    assert stream_mod.NATIVE_SUBMIT is (native.available and stream_mod._SET_PIPELINE is not None)


def test_a_bad_copy_raises_wgpus_validation_error_and_the_stream_goes_on(knob):
    dev = wg.default_device()
    st = _fresh(dev)
    buf = dev.wgpu_device.create_buffer(size=16, usage=wgpu.BufferUsage.COPY_SRC | wgpu.BufferUsage.COPY_DST)
    st.copy(buf, 0, buf, 0, 16)  # a copy within one buffer: wgpu-native reports it when the encoder finishes
    assert st._native is knob
    with pytest.raises(wgpu.GPUValidationError, match="same buffer"):
        st.flush()
    assert not st.recording
    a = wg.asarray(np.arange(10, dtype=np.float32))
    assert float(a.sum()) == 45.0


def test_a_bad_dispatch_raises_wgpus_validation_error_and_the_stream_goes_on(knob):
    dev = wg.default_device()
    st = _fresh(dev)
    kernel = launch.compile_source(dev, ("test_stream_native", "copy"), COPY, (True, False), 64)
    x, y = wg.asarray(np.ones(64, np.float32)), wg.zeros(64, dtype=wg.float32)
    bx, by = x.mirror.buffer(), y.mirror.buffer()
    too_many = dev.properties.limits.max_compute_workgroups_per_dimension + 1
    st.dispatch(kernel[0], kernel[1], [bx, by], np.array([64, 0, 0, 0], np.uint32).tobytes(), (too_many, 1, 1))
    with pytest.raises(wgpu.GPUValidationError, match="dispatch"):
        st.flush()
    launch.dispatch(dev, kernel, [bx, by], np.array([64, 0, 0, 0], np.uint32).tobytes(), threads=64)
    np.testing.assert_array_equal(st.read(by, 0, 256).cast("f").tolist(), np.ones(64))
    assert float((x + x).sum()) == 128.0


def test_every_native_handle_is_released(monkeypatch):
    """Over many reads, dispatches and copies, each encoder and pass opened is released once (none leaks, none is
    released twice), and wgpu-native's registry of command buffers does not grow."""
    from wgpu.backends.wgpu_native._helpers import generate_report
    dev = wg.default_device()
    _fresh(dev)
    counts = dict.fromkeys(("new_encoder", "begin_pass", "release_encoder", "release_pass"), 0)
    def counting(name):
        real = getattr(native, name)

        def counted(*args):
            counts[name] += 1
            return real(*args)
        return counted

    for name in counts:
        monkeypatch.setattr(native, name, counting(name))
    a = wg.asarray(np.arange(1000, dtype=np.float32))
    float(a.sum())
    live = generate_report()["hub"]["commandBuffers"]["allocated"]
    for i in range(200):
        b = a + i
        if i % 2:
            assert float(b.sum()) == float(np.arange(1000, dtype=np.float32).sum() + 1000 * i)
        else:
            dev.synchronize()
    assert counts["new_encoder"] >= 200
    assert counts["new_encoder"] == counts["release_encoder"]
    assert counts["begin_pass"] == counts["release_pass"] >= 200
    assert generate_report()["hub"]["commandBuffers"]["allocated"] <= live


def test_the_encoder_opens_lazily_after_a_read(knob):
    dev = wg.default_device()
    st = _fresh(dev)
    a = wg.asarray(np.arange(8, dtype=np.float32))
    a.mirror.buffer()
    st.flush()
    assert float(a.sum()) == 28.0
    assert not st.recording and st._encoder is None and st._pass is None  # nothing opened after the read
    b = a + 1
    assert st.recording and st._native is knob
    np.testing.assert_array_equal(b.numpy(), np.arange(8) + 1)
    assert not st.recording


def test_switching_the_knob_between_batches(monkeypatch):
    dev = wg.default_device()
    st = _fresh(dev)
    a = wg.asarray(np.arange(100, dtype=np.float32))
    total = 0.0
    for i in range(6):
        monkeypatch.setattr(stream_mod, "NATIVE_SUBMIT", bool(i % 2))
        b = a * 2 + i  # recorded under the setting of the encoder it opened
        assert st._encoder is not None and st._native == bool(i % 2)
        monkeypatch.setattr(stream_mod, "NATIVE_SUBMIT", not i % 2)  # switched mid-batch: the batch keeps its own
        c = b - 1
        assert st._native == bool(i % 2)
        total += float(c.sum())
    want = sum(float((np.arange(100, dtype=np.float32) * 2 + i - 1).sum()) for i in range(6))
    assert total == want


@pytest.mark.parametrize("native_read", [True, False], ids=["native-read", "chunked-read"])
def test_reads_of_every_size_and_offset_interleaved_with_chunked_reads(native_read, monkeypatch, request):
    """Small reads (one piece, mapped and unmapped through wgpu-native) leave the staging buffer as wgpu-py knows
    it (unmapped), so a read larger than one chunk (wgpu-py's mapped ranges, the same staging buffer) still works
    after them, and the other way round."""
    monkeypatch.setattr(stream_mod, "NATIVE_READ", native_read)
    dev = wg.default_device()
    st = _fresh(dev)
    st.trim_staging()  # staging buffers are made _CHUNK bytes: new ones for the smaller chunk, and after it
    request.addfinalizer(st.trim_staging)
    monkeypatch.setattr(stream_mod, "_CHUNK", 1 << 12)  # so that a 9 KiB read takes three pieces
    data = np.arange(9 << 8, dtype=np.uint32)  # 9 KiB
    buf = dev.wgpu_device.create_buffer(size=data.nbytes, usage=wgpu.BufferUsage.COPY_SRC | wgpu.BufferUsage.COPY_DST)
    st.write(buf, 0, data)
    raw = data.view(np.uint8)
    for offset, size in [(0, 4), (8, 4), (4, 12), (0, 4096), (4092, 4), (0, data.nbytes), (16, 4000), (0, 4)]:
        got = st.read(buf, offset, size)
        assert bytes(got) == raw[offset:offset + size].tobytes()
        out = bytearray(size)
        assert st.read(buf, offset, size, out) is not None and bytes(out) == raw[offset:offset + size].tobytes()
        for stager in st._stagers.values():
            assert stager.map_state == "unmapped"
    buf.destroy()


@pytest.mark.skipif(not stream_mod._NATIVE_MAP, reason="another wgpu-py layout: reads use map_sync")
def test_maps_reuse_one_callback():
    """Every map of a stream fires the same cffi callback (making one per read cost microseconds)."""
    dev = wg.default_device()
    a = wg.asarray(np.arange(10, dtype=np.float32))
    assert float(a.sum()) == 45.0
    first = dev.stream._on_mapped
    for i in range(5):
        assert float((a + i).sum()) == 45.0 + 10 * i
    assert dev.stream._on_mapped is first is not None


def test_reads_of_contiguous_views_take_a_slice_not_as_strided(monkeypatch):
    """A contiguous view's host copy is a slice and a reshape of the host block (no ``as_strided``, which a small
    read paid for its 0-d result); offsets into the block and into a partial download (``first``) both hold."""
    calls = []
    real = np.lib.stride_tricks.as_strided
    monkeypatch.setattr(np.lib.stride_tricks, "as_strided", lambda *a, **k: calls.append(1) or real(*a, **k))
    h = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    a = wg.asarray(h) + 0  # device-valid only
    np.testing.assert_array_equal(a[1].numpy(), h[1])  # a partial download: elements 12..23, first = 12
    np.testing.assert_array_equal(a[1, 2].numpy(), h[1, 2])
    assert float(a[1, 2, 3]) == 23.0 and float(a.sum()) == float(h.sum())
    np.testing.assert_array_equal(a.numpy(), h)  # the whole base: the host side becomes valid
    np.testing.assert_array_equal(a[1, 1:].numpy(), h[1, 1:])
    assert not calls
    np.testing.assert_array_equal(a[:, 1].numpy(), h[:, 1])  # not contiguous: as_strided
    np.testing.assert_array_equal(a.mT.numpy(), np.swapaxes(h, -1, -2))
    assert calls
