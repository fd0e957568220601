"""Issue 11, item 8: copy semantics of ``asarray``, ``__array__`` and ``__dlpack__`` (the README's residency
table states the rules these tests pin).

* ``asarray(h, copy=False)`` for a C-contiguous, aligned, writeable numpy array of the dtype's host layout adopts
  ``h``'s memory as the mirror's host block: no copy, one upload at the first device use; anything needing a
  conversion raises ValueError.
* ``Array.__array__(copy=False)``: a read-only view of the host block when the host side is valid, else ValueError
  (a download is a copy); a dtype change with copy=False raises.
* ``__dlpack__(copy=False)``: the host block exported (writeable) when the host side is valid, else BufferError;
  ``copy=True`` always copies; ``copy=None`` shares when the host side is valid, else exports a downloaded copy.
"""
from __future__ import annotations

import numpy as np
import pytest

import wgarray as wg


def host_of(x):
    return x.mirror.host()


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.bool_, np.uint8, np.int64, np.complex64])
def test_asarray_copy_false_adopts_the_host_memory(dtype):
    h = (np.arange(6) % 3).astype(dtype)
    dev = wg.default_device()
    before = dev.stats()
    x = wg.asarray(h, copy=False)
    assert x.dtype.numpy == np.dtype(dtype) and x.shape == h.shape
    assert np.shares_memory(x.mirror._host, h)  # no host copy
    assert x.residency == {"host"}
    h[1] = h[2]  # the host side is still the valid side: the first device use uploads this
    mid = dev.stats()
    assert (mid - before).uploads == 0
    y = x + x if dtype is not np.bool_ else x | x
    after = dev.stats()
    assert (after - mid).uploads == 1 and (after - mid).bytes_uploaded == x.transfer_nbytes
    np.testing.assert_array_equal(y.numpy(), (h + h) if dtype is not np.bool_ else h)
    # the device side is valid now: the mirror does not watch h, so later writes to h are not seen by device uses
    h[0] = h[2]
    np.testing.assert_array_equal((x + x if dtype is not np.bool_ else x | x).numpy(), y.numpy())
    # a device write to x lands in h at x's next host read (h is its host block)
    x[...] = wg.zeros_like(x)
    assert x.residency == {"device"} and not bool(wg.any(x != 0))
    x.numpy()
    assert not h.any()


def test_asarray_copy_false_2d_and_views():
    base = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = wg.asarray(base, copy=False)
    assert x.shape == (3, 4) and np.shares_memory(x.mirror._host, base)
    row = base[1]  # a C-contiguous view of another array is adopted too (its base is kept alive)
    r = wg.asarray(row, copy=False)
    row[0] = -1
    assert r.numpy()[0] == -1


@pytest.mark.parametrize("make", [
    lambda: np.arange(8, dtype=np.float32)[::2],  # not contiguous
    lambda: np.asfortranarray(np.ones((2, 3), np.float32)),  # not C-contiguous
    lambda: np.frombuffer(bytes(16), np.float32),  # read-only
    lambda: np.arange(4, dtype=">f4"),  # not the host layout (byte order)
    lambda: np.frombuffer(bytearray(17), np.int32, count=4, offset=1),  # misaligned
    lambda: [1, 2, 3],  # a list
    lambda: np.float32(1),  # a numpy scalar: a 0-d array must be made
])
def test_asarray_copy_false_raises_when_a_copy_is_needed(make):
    obj = make()
    with pytest.raises(ValueError, match="copy=False"):
        wg.asarray(obj, copy=False)
    if isinstance(obj, np.ndarray) and obj.dtype.isnative:
        np.testing.assert_array_equal(wg.asarray(obj).numpy(), obj)  # copy=None copies instead


def test_asarray_copy_false_with_a_dtype_change_raises():
    with pytest.raises(ValueError, match="copy=False"):
        wg.asarray(np.arange(3, dtype=np.int32), dtype=wg.float32, copy=False)
    h = np.arange(3, dtype=np.int32)
    assert np.shares_memory(wg.asarray(h, dtype=wg.int32, copy=False).mirror._host, h)


def test_asarray_copy_none_and_true_copy_host_arrays():
    h = np.arange(4, dtype=np.float32)
    for copy in (None, True):
        x = wg.asarray(h, copy=copy)
        assert not np.shares_memory(x.mirror._host, h)
        h[0] = 7
        assert x.numpy()[0] == 0
        h[0] = 0


def test_array_protocol_copy_false():
    x = wg.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    v = np.asarray(x, copy=False)  # numpy 2 passes copy=False to __array__
    assert np.shares_memory(v, host_of(x)) and not v.flags.writeable
    np.testing.assert_array_equal(v, np.arange(6).reshape(2, 3))
    t = np.asarray(x.T, copy=False)  # any view: the host block viewed with its strides
    np.testing.assert_array_equal(t, np.arange(6).reshape(2, 3).T)
    with pytest.raises(ValueError, match="copy"):
        x.__array__(dtype=np.float64, copy=False)  # a conversion is a copy
    np.testing.assert_array_equal(x.__array__(dtype=np.float64), np.arange(6).reshape(2, 3))
    c = np.asarray(x, copy=True)
    assert not np.shares_memory(c, host_of(x)) and c.flags.writeable
    d = x * 2  # device only: a download is a copy
    assert d.residency == {"device"}
    with pytest.raises(ValueError, match="device"):
        np.asarray(d, copy=False)
    np.testing.assert_array_equal(np.asarray(d), np.arange(6).reshape(2, 3) * 2)  # copy=None downloads


def test_dlpack_copy_modes():
    x = wg.asarray(np.arange(5, dtype=np.float32))
    shared = np.from_dlpack(x, copy=False)
    assert np.shares_memory(shared, host_of(x))
    assert np.shares_memory(np.from_dlpack(x), host_of(x))  # copy=None: no copy needed
    copied = np.from_dlpack(x, copy=True)
    assert not np.shares_memory(copied, host_of(x))
    # a consumer's write lands in the host block; while the host is the only valid side, device uses see it
    shared[0] = 10
    assert x.residency == {"host"}
    assert float(wg.sum(x)) == 20.0
    # once the device side is valid the mirror does not learn of consumer writes: device uses keep the old values
    shared[1] = 100
    assert float(wg.sum(x)) == 20.0
    d = x * 1  # device only
    with pytest.raises(BufferError):
        d.__dlpack__(copy=False)
    got = np.from_dlpack(d)  # copy=None: a downloaded copy
    np.testing.assert_array_equal(got, [10, 1, 2, 3, 4])  # the device's values: shared[1] = 100 is not seen


def test_from_dlpack_copy_false_shares_a_contiguous_producer():
    h = np.arange(4, dtype=np.int32)
    x = wg.from_dlpack(h, copy=False)
    assert np.shares_memory(x.mirror._host, h)
    with pytest.raises(BufferError):
        wg.from_dlpack(h[::2], copy=False)
