"""Several devices at once: each with its own allocator, stream, pipelines and stats; explicit transfers only."""
import numpy as np
import pytest

import wgarray as wg
from wgarray.alloc import HOST


@pytest.fixture(scope="module")
def second():
    dev = wg.open_device()
    yield dev
    dev.close()


def test_devices_are_independent(dev, second):
    assert second is not dev
    assert second in wg.devices() and wg.devices()[0] is dev  # the default first
    assert dev.allocator.dev is dev and second.allocator.dev is second
    assert HOST.dev is None
    assert dev.stream is not second.stream
    before0, before1 = dev.stats(), second.stats()
    x = wg.asarray(np.arange(10, dtype=np.float32), device=second)
    y = (x * 2).numpy()
    assert np.array_equal(y, np.arange(10, dtype=np.float32) * 2)
    d0, d1 = dev.stats() - before0, second.stats() - before1
    assert d0.dispatches == 0 and d0.uploads == 0
    assert d1.dispatches == 1 and d1.uploads == 1 and d1.downloads == 1


def test_properties_are_typed_and_frozen(dev):
    props = dev.properties
    assert isinstance(props, wg.device.DeviceProperties)
    with pytest.raises(Exception):  # noqa: B017  (FrozenInstanceError or AttributeError, by Python version)
        props.name = "x"
    assert props.limits.max_compute_workgroups_per_dimension >= 65535
    assert "float32" in props.dtypes and "bool" in props.dtypes
    assert props.name in repr(props)
    for info in wg.adapters():
        p = wg.adapter_properties(info)
        assert ("float64" in p.dtypes) == ("shader-f64" in p.features)


@pytest.mark.parametrize("dtype", ["bool", "int8", "float16", "float32", "int32"])
def test_to_device_moves_device_layout(dev, second, dtype):
    rng = np.random.default_rng(1)
    host = (rng.standard_normal(3001) * 50).astype(dtype)
    a = wg.asarray(host, device=dev)
    a = wg.astype(a, a.dtype, copy=True)  # device-resident only
    assert a.residency == {"device"}
    s0, s1 = dev.stats(), second.stats()
    b = a.to_device(second)
    assert b.device is second and b.residency == {"device"}
    nbytes = host.size * a.dtype.device_itemsize
    assert (dev.stats() - s0).bytes_downloaded == nbytes
    assert (second.stats() - s1).bytes_uploaded == nbytes
    assert np.array_equal(b.numpy(), host)


def test_to_device_of_views_and_host_data(second):
    host = np.arange(60, dtype=np.int32).reshape(6, 10)
    a = wg.asarray(host)
    v = a[::-2, 3:7]
    b = v.to_device(second)
    assert b.shape == (3, 4) and np.array_equal(b.numpy(), host[::-2, 3:7])
    c = a.to_device(second)  # host-resident source: copied on the host, uploaded lazily
    assert c.residency == {"host"}
    assert np.array_equal((c + 1).numpy(), host + 1)
    assert a.to_device(a.device) is a


def test_to_device_of_a_whole_base_with_size_one_axes_copies_nothing_on_the_source(dev, second):
    """x[None] and x[:, None] hold their base in order (a size-1 axis's stride does not matter): moving them needs
    no contiguous copy on the source device, and host-resident data is copied on the host."""
    h = np.arange(12, dtype=np.float32).reshape(3, 4)
    for view in (lambda x: x[None], lambda x: x[:, None], lambda x: x[None, :, :, None]):
        x = wg.asarray(h, device=dev)
        v = view(x)
        assert v.is_contiguous
        before = dev.stats()
        y = v.to_device(second)
        assert (dev.stats() - before).dispatches == 0
        assert y.residency == {"host"} and y.shape == v.shape
        np.testing.assert_array_equal(y.numpy(), view(h))


def test_large_transfer_in_chunks(second):
    n = (40 << 20) // 4 + 7  # more than two 16 MiB staging chunks
    host = np.random.default_rng(2).random(n, dtype=np.float32)
    a = wg.asarray(host) * 1
    b = a.to_device(second)
    assert np.array_equal(b.numpy(), host)


def test_mixing_devices_is_an_error_naming_both(dev, second):
    a = wg.ones(4)
    b = wg.ones(4, device=second)
    for fn in (lambda: a + b, lambda: wg.where(a > 0, a, b), lambda: a @ b.reshape(4, 1)):
        with pytest.raises(ValueError) as e:
            fn()
        assert str(dev) in str(e.value) and str(second) in str(e.value)
    assert np.array_equal((a + 1).numpy(), np.full(4, 2, np.float32))  # both still usable
    assert np.array_equal((b + 1).numpy(), np.full(4, 2, np.float32))


def test_closed_device_fails_clearly_and_others_continue(dev):
    d = wg.open_device()
    x = wg.arange(5, device=d) * 3
    d.close()
    assert d.closed and d not in wg.devices()
    for fn in (lambda: x + 1, lambda: x.numpy(), lambda: wg.zeros(3, device=d), lambda: x.to_device(dev)):
        with pytest.raises(RuntimeError, match="closed"):
            fn()
    d.close()  # closing twice is harmless
    assert np.array_equal((wg.arange(5) * 3).numpy(), np.arange(5) * 3)


def test_lost_device_fails_clearly_and_others_continue(dev):
    """A device the driver loses (simulated with wgpu's destroy()): every operation that needs it raises a
    RuntimeError saying it was lost (never a wgpu error, never a MemoryError), host copies stay readable, other
    devices keep working, and closing it afterwards is harmless."""
    d = wg.open_device()
    on_host = wg.asarray(np.arange(6, dtype=np.float32), device=d)
    on_device = on_host * 2
    read_back = on_host + 1
    read_back.numpy()  # valid on both sides
    d.wgpu_device.destroy()
    calls = [lambda: (on_device + 1).numpy(), lambda: on_device.numpy(), lambda: wg.ones(4, device=d).numpy(),
             lambda: float(wg.sum(on_host)), lambda: wg.sort(on_host), lambda: d.synchronize(),
             lambda: on_device.to_device(dev)]
    for call in calls:
        with pytest.raises(RuntimeError, match="lost"):
            call()
    assert d.closed and "lost" in repr(d)
    np.testing.assert_array_equal(read_back.numpy(), np.arange(6, dtype=np.float32) + 1)  # its host copy
    np.testing.assert_array_equal((wg.asarray(np.arange(3, dtype=np.float32)) * 2).numpy(), [0.0, 2.0, 4.0])
    d.close()
    d.close()


def test_device_without_int64_and_f64_rejects_them():
    gl = [i for i in wg.adapters() if "shader-f64" not in wg.adapter_properties(i).features]
    if not gl:
        pytest.skip("every adapter here offers shader-f64")
    try:
        d = wg.open_device(gl[0])
    except RuntimeError as e:  # NVIDIA's OpenGL adapter refuses a compute device through wgpu
        pytest.skip(f"the adapter without shader-f64 refuses a device: {e}")
    try:
        with pytest.raises(TypeError, match="shader-f64"):
            wg.asarray(np.zeros(3, np.float64), device=d)
        with pytest.raises(TypeError, match="shader-int64"):
            wg.zeros(3, dtype=wg.int64, device=d)
        x = wg.asarray(np.arange(6, dtype=np.float32), device=d)
        assert np.array_equal((x * 2 + 1).numpy(), np.arange(6, dtype=np.float32) * 2 + 1)
        assert float(x.sum()) == 15.0
    finally:
        d.close()
