"""Issue 11, item 4: copy.copy, copy.deepcopy and pickle give independent arrays with the logical values."""
import copy
import pickle

import numpy as np
import pytest

import wgarray as wg
from wgarray.dtypes import ALL_DTYPES


def _values(dt):
    return (np.arange(24) % 3 == 0).reshape(4, 6) if dt.kind == "b" else np.arange(24).reshape(4, 6).astype(dt.numpy)


def _layouts(x):
    return {"whole": x, "slice": x[1:, ::2], "transpose": x.T, "reversed": x[::-1, 3], "0-d": x[2, 2],
            "empty": x[:0], "broadcast": wg.broadcast_to(x[0], (3, 6))}


@pytest.mark.parametrize("how", ["copy", "deepcopy", "pickle"])
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=lambda d: d.name)
def test_copies_are_independent_and_hold_the_values(dt, how):
    if not wg.default_device().supports(dt):
        pytest.skip("dtype not on this device")
    for device_resident in (False, True):
        x = wg.asarray(_values(dt))
        if device_resident:
            x = x.copy()
        for name, v in _layouts(x).items():
            ref = v.numpy()
            c = {"copy": copy.copy, "deepcopy": copy.deepcopy,
                 "pickle": lambda a: pickle.loads(pickle.dumps(a))}[how](v)
            assert c.mirror is not x.mirror and c.dtype is v.dtype and c.shape == v.shape, name
            assert c.flags.writeable, name
            np.testing.assert_array_equal(c.numpy(), ref, err_msg=name)
            if c.size:
                c[...] = _values(dt).reshape(-1)[1]
                np.testing.assert_array_equal(v.numpy(), ref, err_msg=name)  # the original is untouched


def test_deepcopy_respects_the_memo():
    a = wg.arange(5)
    d = {"a": a, "b": a, "c": [a, a[1:]]}
    c = copy.deepcopy(d)
    assert c["a"] is c["b"] is c["c"][0] and c["a"] is not a
    c["a"][0] = 9
    assert int(a[0]) == 0 and int(c["c"][0][0]) == 9


def test_pickle_holds_host_bytes_and_no_device_handles():
    x = wg.arange(6, dtype=wg.float32) * 2  # device-only
    data = pickle.dumps(x[::2])
    assert b"wgpu" not in data and b"GPUBuffer" not in data and b"Mirror" not in data
    y = pickle.loads(data)
    assert y.residency == {"host"} and y.device is wg.default_device() and y.is_contiguous
    np.testing.assert_array_equal(y.numpy(), [0, 4, 8])
    assert len(data) < 300  # the three values, not the base of six or its device layout
