"""Advanced indexing (integer arrays, boolean masks) in x[...] and x[...] = v, take and take_along_axis,
against numpy.

Keys mix integer arrays (any integer dtype, negative values, broadcasting, strided wgarray views, numpy arrays
or lists) with slices, integers, None and ..., so numpy's placement rule (adjacent advanced indices keep their
place, separated ones go first; integers count as advanced) is exercised.  Where numpy raises IndexError,
wgarray must too.  Masks cost one 4-byte read (the count), x[mask] = scalar none.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import wgarray as wg

from strategies import assert_same, dtypes, shapes, supported, values, view_of

INDEX_DTYPES = [d for d in supported() if d.kind in "iu"]


@st.composite
def index_array(draw, shape, n):
    """(numpy index array, the form passed to wgarray): values in [-n, n) (>= 0 for unsigned dtypes), sometimes
    out of range when n == 0."""
    dtype = draw(st.sampled_from(INDEX_DTYPES))
    lo = 0 if dtype.kind == "u" else -n
    hi = max(n - 1, 0)
    h = draw(hnp.arrays(dtype.numpy, shape, elements=st.integers(lo, hi)))
    form = draw(st.sampled_from(["wg", "view", "numpy", "list"]))
    if form == "wg":
        return h, wg.asarray(h)
    if form == "view":
        return h, draw(view_of(h, dtype))[0]
    if form == "list" and h.size:
        return h.astype(np.int32), h.astype(np.int32).tolist()
    return h, h


@st.composite
def advanced_key(draw, shape):
    """(numpy key, wgarray key) with at least one integer array."""
    ndim = len(shape)
    kinds = [draw(st.sampled_from(["slice", "int", "array", "array"])) if shape[d] else
             draw(st.sampled_from(["slice", "array"])) for d in range(ndim)]
    if "array" not in kinds:
        kinds[draw(st.integers(0, ndim - 1))] = "array"
    bshape = draw(shapes(min_dims=0, max_dims=2, min_side=0, max_side=3))
    np_key, wg_key = [], []
    for d, kind in enumerate(kinds):
        n = shape[d]
        if kind == "slice":
            s = slice(draw(st.one_of(st.none(), st.integers(-n - 1, n + 1))),
                      draw(st.one_of(st.none(), st.integers(-n - 1, n + 1))),
                      draw(st.one_of(st.none(), st.sampled_from([1, 2, -1, -3]))))
            np_key.append(s)
            wg_key.append(s)
        elif kind == "int":
            i = draw(st.integers(-n, n - 1))
            np_key.append(i)
            wg_key.append(i)
        else:
            drop = draw(st.integers(0, len(bshape)))
            shp = tuple(1 if draw(st.booleans()) else s for s in bshape[drop:])
            h, w = draw(index_array(shp, n))
            np_key.append(h)
            wg_key.append(w)
    if draw(st.booleans()):  # a new axis somewhere
        at = draw(st.integers(0, len(np_key)))
        np_key.insert(at, None)
        wg_key.insert(at, None)
    if np_key and isinstance(np_key[-1], slice) and np_key[-1] == slice(None) and draw(st.booleans()):
        np_key[-1] = wg_key[-1] = Ellipsis
    return tuple(np_key), tuple(wg_key)


def _numpy_or_error(h, key):
    try:
        return h[key], None
    except IndexError as e:
        return None, e


@given(data=st.data())
def test_getitem_integer_arrays(data):
    dtype = data.draw(dtypes(), label="dtype")
    shape = data.draw(shapes(min_dims=1, max_dims=4, min_side=0, max_side=5), label="shape")
    host = data.draw(values(dtype, shape), label="x")
    x, host = data.draw(view_of(host, dtype), label="view")
    np_key, wg_key = data.draw(advanced_key(shape), label="key")
    want, err = _numpy_or_error(host, np_key)
    if err is not None:
        with pytest.raises(IndexError):
            x[wg_key]
        return
    got = x[wg_key]
    assert got.dtype is dtype
    assert_same(got.numpy(), want)


@st.composite
def mask_key(draw, shape):
    """(numpy key, wgarray key): a boolean mask over some consecutive dimensions, slices or an integer array
    around it."""
    ndim = len(shape)
    start = draw(st.integers(0, ndim - 1))
    k = draw(st.integers(1, ndim - start))
    mask = draw(hnp.arrays(np.bool_, shape[start:start + k]))
    np_key, wg_key = [slice(None)] * start, [slice(None)] * start
    form = draw(st.sampled_from(["wg", "view", "numpy"]))
    np_key.append(mask)
    wg_key.append(wg.asarray(mask) if form == "wg" else
                  draw(view_of(mask, wg.bool))[0] if form == "view" else mask)
    rest = ndim - start - k
    if rest and draw(st.booleans()):
        n = shape[start + k]
        count = int(mask.sum())
        idx = draw(hnp.arrays(np.int64, (count,) if draw(st.booleans()) else (1,),
                              elements=st.integers(-n, n - 1) if n else st.just(0)))
        np_key.append(idx)
        wg_key.append(wg.asarray(idx))
    return tuple(np_key), tuple(wg_key)


@given(data=st.data())
def test_getitem_boolean_masks(data):
    dtype = data.draw(dtypes(), label="dtype")
    shape = data.draw(shapes(min_dims=1, max_dims=3, min_side=0, max_side=6), label="shape")
    host = data.draw(values(dtype, shape), label="x")
    x, host = data.draw(view_of(host, dtype), label="view")
    np_key, wg_key = data.draw(mask_key(shape), label="key")
    want, err = _numpy_or_error(host, np_key)
    if err is not None:
        with pytest.raises(IndexError):
            x[wg_key]
        return
    assert_same(x[wg_key].numpy(), want)


def _unique_targets(h: np.ndarray, key) -> bool:
    pos = np.arange(h.size).reshape(h.shape)[key]
    return np.unique(pos).size == pos.size


@given(data=st.data())
def test_setitem_advanced(data):
    dtype = data.draw(dtypes(), label="dtype")
    shape = data.draw(shapes(min_dims=1, max_dims=3, min_side=0, max_side=5), label="shape")
    host = data.draw(values(dtype, shape), label="x")
    use_mask = data.draw(st.booleans(), label="mask")
    np_key, wg_key = data.draw(mask_key(shape) if use_mask else advanced_key(shape), label="key")
    x = wg.asarray(host)
    if data.draw(st.booleans(), label="device resident"):
        x = wg.astype(x, dtype, copy=True)
    want = host.copy()
    try:
        target_shape = host[np_key].shape
    except IndexError:
        with pytest.raises(IndexError):
            x[wg_key] = 0
        assert_same(x.numpy(), host)  # nothing written
        return
    kind = data.draw(st.sampled_from(["scalar", "array", "wg"]), label="value kind")
    if kind == "scalar" or not _unique_targets(host, np_key):
        v = data.draw(values(dtype, ()), label="value")[()]
        v_np = v_wg = v.item()
    else:
        vshape = target_shape[data.draw(st.integers(0, len(target_shape)), label="value dims"):]
        v_np = data.draw(values(dtype, vshape), label="value")
        v_wg = wg.asarray(v_np) if kind == "wg" else v_np
    want[np_key] = v_np
    x[wg_key] = v_wg
    assert_same(x.numpy(), want)


@given(data=st.data())
def test_take(data):
    dtype = data.draw(dtypes(), label="dtype")
    shape = data.draw(shapes(min_dims=1, max_dims=3, min_side=1, max_side=6), label="shape")
    host = data.draw(values(dtype, shape), label="x")
    x, host = data.draw(view_of(host, dtype), label="view")
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    n = shape[axis]
    idx, idx_wg = data.draw(index_array((data.draw(st.integers(0, 8), label="m"),), n), label="indices")
    assert_same(wg.take(x, idx_wg, axis=axis).numpy(), np.take(host, idx.astype(np.intp), axis=axis))
    if len(shape) == 1:
        assert_same(wg.take(x, idx_wg).numpy(), np.take(host, idx.astype(np.intp)))


@given(data=st.data())
def test_take_along_axis(data):
    dtype = data.draw(dtypes(), label="dtype")
    shape = data.draw(shapes(min_dims=1, max_dims=3, min_side=1, max_side=5), label="shape")
    host = data.draw(values(dtype, shape), label="x")
    x, host = data.draw(view_of(host, dtype), label="view")
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    ishape = tuple(data.draw(st.integers(0, 6)) if d == axis % len(shape) else
                   data.draw(st.sampled_from([1, s])) for d, s in enumerate(shape))
    idx, idx_wg = data.draw(index_array(ishape, shape[axis]), label="indices")
    got = wg.take_along_axis(x, idx_wg, axis=axis)
    assert_same(got.numpy(), np.take_along_axis(host, idx.astype(np.intp), axis=axis))


def test_out_of_range_raises():
    h = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = wg.asarray(h)
    for key in [(np.array([3]),), (slice(None), [0, 4]), (slice(None), [-5]), ([0, 1], [0, 9])]:
        with pytest.raises(IndexError, match="out of bounds"):
            x[key]
        with pytest.raises(IndexError, match="out of bounds"):
            x[key] = 1.0
    assert_same(x.numpy(), h)
    with pytest.raises(IndexError):
        wg.take(x, wg.asarray([0, 3]), axis=0)
    with pytest.raises(IndexError):
        wg.take_along_axis(x, wg.asarray([[0, 1, 2, 4]]), axis=1)
    with pytest.raises(IndexError):
        x[wg.asarray([True, False])]  # mask shape mismatch
    with pytest.raises(IndexError):
        x[[0, 1], [0, 1, 2]]  # index arrays do not broadcast
    with pytest.raises(IndexError):
        x[wg.asarray([0.5])]  # float index array
    with pytest.raises(ValueError):
        x[[0, 1]] = np.ones((3, 4), dtype=np.float32)


def test_large_gather_and_mask():
    rng = np.random.default_rng(11)
    h = rng.random(70000, dtype=np.float32)
    x = wg.asarray(h)
    idx = rng.integers(-70000, 70000, 5000)
    assert_same(x[idx].numpy(), h[idx])
    m = h > 0.7
    assert_same(x[wg.asarray(m)].numpy(), h[m])
    g = h.reshape(700, 100)
    y = wg.asarray(g)
    rows, cols = rng.integers(0, 700, (50, 1)), rng.integers(0, 100, (1, 40))
    assert_same(y[rows, cols].numpy(), g[rows, cols])
    y[rows[:, 0], 5:7] = -1.0
    g = g.copy()
    g[rows[:, 0], 5:7] = -1.0
    assert_same(y.numpy(), g)


def test_mask_reads_back_only_the_count():
    rng = np.random.default_rng(4)
    h = rng.random((300, 70), dtype=np.float32)
    x = wg.astype(wg.asarray(h), wg.float32, copy=True)
    m = x > 0.5  # device-resident mask
    dev = wg.default_device()
    before = dev.stats()
    r = x[m]
    delta = dev.stats() - before
    assert delta.downloads == 1 and delta.bytes_downloaded == 4 and delta.uploads == 0, delta
    assert r.residency == {"device"}
    before = dev.stats()
    x[m] = 0.0  # a where in place: nothing read back
    x[m[:, 0]] = -1.0  # a mask over the leading dimension
    delta = dev.stats() - before
    assert delta.downloads == 0 and delta.bytes_downloaded == 0 and delta.uploads == 0, delta
    want = h.copy()
    want[h > 0.5] = 0.0
    want[(h > 0.5)[:, 0]] = -1.0
    assert_same(x.numpy(), want)
    assert_same(r.numpy(), h[h > 0.5])


def test_integer_index_reads_back_only_the_flag():
    x = wg.astype(wg.asarray(np.arange(10000, dtype=np.int32)), wg.int32, copy=True)
    i = wg.astype(wg.asarray(np.arange(0, 10000, 7, dtype=np.int32)), wg.int32, copy=True)
    dev = wg.default_device()
    before = dev.stats()
    r = x[i]
    delta = dev.stats() - before
    assert delta.bytes_downloaded == 4 and delta.uploads == 0, delta
    assert r.numpy().tolist() == list(range(0, 10000, 7))


def test_placement_rules():
    h = np.arange(2 * 3 * 4 * 5, dtype=np.int16).reshape(2, 3, 4, 5)
    x = wg.asarray(h)
    for key in [(slice(None), 0, [1, 2]), (0, slice(None), [1, 2]), ([1, 0], slice(None), [3, 2]),
                (Ellipsis, [[0], [1]], [2, 3]), ([1], None, [2]), (np.array(1),), (slice(None), [True, False, True]),
                ([True, False], 1, [[0, 3]])]:
        want = h[key]
        got = x[key].numpy()
        assert got.shape == want.shape, (key, got.shape, want.shape)
        assert_same(got, want)
    assert math.prod(x[[]].shape) == 0 and x[[]].shape == h[np.array([], dtype=np.intp)].shape
