"""The inspection namespace (``wg.__array_namespace_info__()``): capabilities, devices, default dtypes and
dtypes by kind, and that what it reports works.
"""
from __future__ import annotations

import numpy as np
import pytest

import wgarray as wg

from strategies import check


def test_namespace_info():
    info = wg.__array_namespace_info__()
    caps = info.capabilities()
    assert set(caps) == {"boolean indexing", "data-dependent shapes", "max dimensions"}
    assert isinstance(caps["boolean indexing"], bool) and isinstance(caps["data-dependent shapes"], bool)
    assert isinstance(caps["max dimensions"], int) and caps["max dimensions"] >= 4
    # what is reported works
    if caps["boolean indexing"]:
        check(wg.asarray(np.array([1, 2, 3], np.int32))[wg.asarray(np.array([True, False, True]))],
              np.array([1, 3], np.int32))
    if caps["data-dependent shapes"]:
        check(wg.repeat(wg.asarray(np.array([1, 2], np.int32)), wg.asarray(np.array([0, 2]))),
              np.array([2, 2], np.int32))
    # an array with "max dimensions" non-mergeable dimensions goes through a kernel
    nd = caps["max dimensions"]
    host = np.arange(2 ** nd, dtype=np.int32).reshape((2,) * nd)
    view = wg.asarray(np.ascontiguousarray(host.transpose(*range(nd)[::-1]))).transpose(tuple(range(nd)[::-1]))
    check(wg.flip(view, axis=0) + 1, np.flip(host, 0) + 1)
    dev = wg.default_device()
    assert info.default_device() is dev
    assert dev in info.devices()
    defaults = info.default_dtypes()
    assert defaults == {"real floating": wg.float32, "complex floating": wg.complex64, "integral": wg.int32,
                        "indexing": wg.int32}
    assert info.default_dtypes(device=dev) == defaults
    all_dt = info.dtypes()
    assert "float16" not in all_dt  # not one of the standard's dtypes
    for name, d in all_dt.items():
        assert d.name == name and dev.supports(d)
    assert ("float64" in all_dt) == ("shader-f64" in dev.features)
    assert ("int64" in all_dt) == ("shader-int64" in dev.features)
    assert set(info.dtypes(kind="bool")) == {"bool"}
    assert set(info.dtypes(kind="real floating", device=dev)) == {n for n in ("float32", "float64") if n in all_dt}
    assert set(info.dtypes(kind=("signed integer", "bool"))) == {n for n in all_dt if n == "bool" or
                                                                  n.startswith("int")}
    assert set(info.dtypes(kind="complex floating")) == {"complex64"} | ({"complex128"} & set(all_dt))
    assert ("complex128" in all_dt) == ("shader-f64" in dev.features)
    assert set(info.dtypes(kind="numeric")) == set(all_dt) - {"bool"}
    with pytest.raises(ValueError):
        info.dtypes(kind="integer")
