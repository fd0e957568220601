"""Issue 11, item 2: views whose zero strides alias several elements (broadcast_to, broadcast_arrays) are read-only.

Every write into one raises numpy's ``ValueError("assignment destination is read-only")`` before anything is
written; views of such a view stay read-only; copies and results are writable.
"""
import numpy as np
import pytest

import wgarray as wg

_RO = "assignment destination is read-only"


def _writes():
    """Every public way to write into an array."""
    def setitem_all(z): z[...] = 5
    def setitem_int(z): z[0] = 5
    def setitem_slice(z): z[1:3] = 5
    def setitem_mask(z): z[wg.asarray(np.ones(z.shape, bool))] = 5
    def setitem_index(z): z[wg.asarray(np.array([0, 1], np.int32))] = 5
    def iadd(z): z += 1
    def imul(z): z *= 2
    def isub_array(z): z -= wg.ones(z.shape, dtype=z.dtype)
    def ipow(z): z **= 2
    def imatmul(z): z @= wg.eye(z.shape[-1], dtype=z.dtype)
    # numpy's names (api/interop.py, api/numpy_extras.py): out= arguments and the in-place methods
    def fill(z): z.fill(5)
    def sort_method(z): z.sort()
    def ufunc_out(z): np.add(wg.ones(z.shape, dtype=z.dtype), 1, out=z)
    def ufunc_where_out(z): np.multiply(wg.ones(z.shape, dtype=z.dtype), 3, out=(z,), where=True)
    def reduce_out(z): np.sum(wg.ones((2,) + z.shape, dtype=z.dtype), axis=0, out=z)
    def ufunc_reduce_out(z): np.add.reduce(wg.ones((2,) + z.shape, dtype=z.dtype), axis=0, out=z)
    def cumsum_out(z): np.cumsum(wg.ones(z.shape, dtype=z.dtype), axis=0, out=z)
    def method_out(z): wg.ones(z.shape, dtype=z.dtype).clip(0, 1, out=z)
    def concat_out(z): np.concatenate([wg.ones(z.shape, dtype=z.dtype)], axis=0, out=z)
    return [setitem_all, setitem_int, setitem_slice, setitem_mask, setitem_index, iadd, imul, isub_array, ipow,
            imatmul, fill, sort_method, ufunc_out, ufunc_where_out, reduce_out, ufunc_reduce_out, cumsum_out,
            method_out, concat_out]


def _read_only_views(y):
    z = wg.broadcast_to(y, (6, 4))
    a, _ = wg.broadcast_arrays(y, wg.zeros((6, 4)))
    return {"broadcast_to": z, "broadcast_arrays": a, "slice": z[1:4], "one row": z[2:3], "transpose": z.T.T,
            "reshape": wg.reshape(z[2:3], (2, 2)), "expand_dims": wg.expand_dims(z, axis=0)[0],
            "flip": wg.flip(z, axis=1), "permute": wg.permute_dims(wg.permute_dims(z, (1, 0)), (1, 0)),
            # numpy's view functions and methods (api/interop.py, api/numpy_extras.py) inherit the flag too
            "np.swapaxes": np.swapaxes(np.swapaxes(z, 0, 1), 0, 1), "view": z.view(), "base": z.base,
            "np.squeeze": np.squeeze(wg.expand_dims(z, axis=1)), "np.broadcast_to": np.broadcast_to(y, (6, 4)),
            "transpose(1, 0)": z.transpose(1, 0).transpose(1, 0), "np.atleast_2d": np.atleast_2d(z),
            "np.moveaxis": np.moveaxis(np.moveaxis(z, 0, 1), 0, 1)}


@pytest.mark.parametrize("write", _writes(), ids=lambda f: f.__name__)
def test_every_write_into_a_broadcast_view_raises_and_writes_nothing(write):
    ref = np.arange(4, dtype=np.float32)
    for host_only in (True, False):
        y = wg.asarray(ref)
        if not host_only:
            y += 0  # device-resident base: the device write path
        for name, z in _read_only_views(y).items():
            assert not z.flags.writeable, name
            with pytest.raises(ValueError, match=_RO):
                write(z)
            np.testing.assert_array_equal(y.numpy(), ref, err_msg=name)
            assert z.flags.writeable is False, name


def test_views_of_writable_arrays_stay_writable():
    """The flag is inherited, not cleared: numpy's view functions of a writable array give writable views."""
    x = wg.asarray(np.arange(24, dtype=np.float32).reshape(6, 4))
    views = [x[1:], x.T, x.view(), np.swapaxes(x, 0, 1), np.squeeze(x[None]), np.moveaxis(x, 0, 1), x[1:].base,
             wg.reshape(x, (4, 6)), wg.linalg.diagonal(x), np.atleast_2d(x)]
    for v in views:
        assert v.flags.writeable
    views[0][...] = 0  # a write through a view reaches the base
    np.testing.assert_array_equal(x.numpy()[1:], 0)


def test_broadcast_views_read_like_numpy_and_copies_are_writable():
    y = wg.asarray(np.arange(4, dtype=np.float32))
    z = wg.broadcast_to(y, (1000, 4))
    assert y.flags.writeable and not z.flags.writeable
    for c in [z.copy(), z.astype(wg.float64), z + 1, wg.reshape(z, (4000,)), z * 1]:
        assert c.flags.writeable
        c += 1
    np.testing.assert_array_equal(y.numpy(), np.arange(4, dtype=np.float32))
    np.testing.assert_array_equal(z.numpy(), np.broadcast_to(np.arange(4, dtype=np.float32), (1000, 4)))
    y[0] = 10  # the base stays writable, and the view sees the write
    assert float(z[999, 0]) == 10


def test_flags_writeable_follows_numpy():
    x = wg.zeros(4)
    x.flags.writeable = False
    assert not x.flags.writeable and not x[1:].flags.writeable
    with pytest.raises(ValueError, match=_RO):
        x[0] = 1
    z = wg.broadcast_to(wg.zeros(4), (3, 4))
    with pytest.raises(ValueError):
        z.flags.writeable = True
    assert not z.flags.writeable
