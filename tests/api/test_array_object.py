"""The array object's protocol against numpy: device and to_device, __array_namespace__, mT and T, every
operator forward, reflected and in place, and the Python conversions (complex, float, int, bool, __index__).
"""
from __future__ import annotations

import numpy as np
import pytest

import wgarray as wg

from strategies import check


def test_array_object_protocol():
    host = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = wg.asarray(host)
    dev = wg.default_device()
    assert x.device is dev
    assert x.to_device(dev) is x
    assert x.to_device(dev, stream=None) is x
    assert x.__array_namespace__() is wg and x.__array_namespace__(api_version="2024.12") is wg
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="1999.01")
    check(x.mT, host.T)
    check(x.T, host.T)
    check(+x, host)
    check(abs(-x), host)
    check(x @ x.mT, host @ host.T)
    check(host @ x.mT, host @ host.T)
    y = wg.asarray(np.eye(3, dtype=np.float32))
    z = wg.asarray(host.copy())
    z @= y
    check(z, host)
    with pytest.raises(ValueError):
        z @= wg.ones((3, 4))
    zi = wg.asarray(np.ones((3, 3), np.int32))
    with pytest.raises(TypeError):
        zi @= y
    s = wg.asarray(np.float32(2.5))
    assert complex(s) == 2.5 + 0j and float(s) == 2.5 and int(s) == 2 and bool(s)
    i = wg.asarray(np.int16(4))
    assert [10, 11, 12, 13, 14, 15][i] == 14 and i.__index__() == 4
    with pytest.raises(TypeError):
        s.__index__()
    # every operator, forward, reflected and in place
    a = wg.asarray(np.array([5, 6, 7], np.int32))
    an = np.array([5, 6, 7], np.int32)
    for op in ("add", "sub", "mul", "floordiv", "mod", "pow", "and", "or", "xor", "lshift", "rshift"):
        fwd = getattr(a, f"__{op}__")(2)
        check(fwd, getattr(an, f"__{op}__")(2))
        check(getattr(a, f"__r{op}__")(2), getattr(an, f"__r{op}__")(2))
        c, cn = wg.asarray(an.copy()), an.copy()
        c = getattr(c, f"__i{op}__")(2)
        cn = getattr(cn, f"__i{op}__")(2)
        check(c, cn)
    check(a / 2, (an / 2).astype(np.float32))
    for op in ("lt", "le", "gt", "ge", "eq", "ne"):
        check(getattr(a, f"__{op}__")(6), getattr(an, f"__{op}__")(6))
    check(~a, ~an)
    check(-a, -an)
