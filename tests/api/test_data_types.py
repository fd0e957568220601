"""Data type functions against numpy: can_cast, result_type, finfo, iinfo, isdtype and astype."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import wgarray as wg

from strategies import array_and_host, check, dtypes, supported

ALL = supported()


def test_can_cast_table():
    for a in ALL:
        for b in ALL:
            same_kind = (a.kind == "b") == (b.kind == "b") and (a.kind in "fc") == (b.kind in "fc")
            want = same_kind and bool(np.can_cast(a.numpy, b.numpy, casting="safe"))
            assert wg.can_cast(a, b) is want, (a, b)
            assert wg.can_cast(wg.ones(1, dtype=a), b) is want, (a, b)


def test_result_type():
    for a in ALL:
        for b in ALL:
            if (a.kind == "b") != (b.kind == "b") or (a.kind in "fc") != (b.kind in "fc"):
                continue
            if {a.name, b.name} & {"uint64"} and {a.kind, b.kind} == {"i", "u"}:
                with pytest.raises(TypeError):
                    wg.result_type(a, b)
                continue
            assert wg.result_type(a, b) == np.result_type(a.numpy, b.numpy), (a, b)
            assert wg.result_type(wg.ones(1, dtype=a), b) == np.result_type(a.numpy, b.numpy)
    # Python scalars (2024.12) take the kind's dtype and do not widen it
    assert wg.result_type(wg.int8, 1000) is wg.int8
    assert wg.result_type(wg.float16, 1.0, 2) is wg.float16
    assert wg.result_type(wg.bool, True) is wg.bool
    assert wg.result_type(wg.uint8, 1.0) is wg.float32  # documented: a float scalar with integers
    assert wg.result_type(wg.ones(2, dtype=wg.int16), wg.int32, 3) is wg.int32
    with pytest.raises(ValueError):
        wg.result_type(1, 2.0)
    with pytest.raises(TypeError):
        wg.result_type(wg.int32, True)
    # complex scalars (2024.12): the complex dtype of the float they meet
    assert wg.result_type(wg.float32, 1j) is wg.complex64
    assert wg.result_type(wg.complex64, 1.0, 2, 1j) is wg.complex64
    assert wg.result_type(wg.int8, 1j) is wg.complex64  # documented: as int-with-float gives the float
    if wg.float64 in ALL:
        assert wg.result_type(wg.float64, 1j) is wg.complex128
        assert wg.result_type(wg.float64, wg.complex64) is wg.complex128
    with pytest.raises(TypeError):
        wg.result_type(wg.bool, 1j)


def test_finfo_iinfo():
    for d in ALL:
        if d.kind in "fc":
            fi, ni = wg.finfo(d), np.finfo(d.numpy)  # complex: the limits (and dtype) of its real parts
            assert (fi.bits, fi.eps, fi.max, fi.min, fi.smallest_normal) == (
                ni.bits, float(ni.eps), float(ni.max), float(ni.min), float(ni.smallest_normal))
            part = d.component
            assert fi.dtype is part and wg.finfo(wg.ones(1, dtype=d)).dtype is part
            assert all(isinstance(v, float) for v in (fi.eps, fi.max, fi.min, fi.smallest_normal))
            with pytest.raises(TypeError):
                wg.iinfo(d)
        elif d.kind in "iu":
            ii, ni = wg.iinfo(d), np.iinfo(d.numpy)
            assert (ii.bits, ii.max, ii.min) == (ni.bits, int(ni.max), int(ni.min))
            assert ii.dtype is d and isinstance(ii.max, int)
            with pytest.raises(TypeError):
                wg.finfo(d)


def test_isdtype():
    groups = {"bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu",
              "real floating": "f", "complex floating": "c", "numeric": "iufc"}
    for d in ALL:
        for kind, kinds in groups.items():
            assert wg.isdtype(d, kind) is (d.kind in kinds)
        assert wg.isdtype(d, d) and wg.isdtype(d, ("complex floating", d))
        assert wg.isdtype(d, ("bool", "numeric"))
    with pytest.raises(ValueError):
        wg.isdtype(wg.int8, "integer")


@given(st.data())
def test_astype(data):
    x, host, dt = data.draw(array_and_host(finite=True, small=True))
    to = data.draw(dtypes())
    got = wg.astype(x, to)
    assert got.mirror is not x.mirror
    check(got, host.astype(to.numpy), to)
    same = wg.astype(x, dt, copy=False)
    assert same is x
    moved = wg.astype(x, to, device=wg.default_device())
    check(moved, host.astype(to.numpy), to)
