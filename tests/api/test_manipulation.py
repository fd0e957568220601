"""Property tests of the Array API manipulation functions against numpy.

Every function is checked on random shapes (0-d and empty included), every supported dtype and non-contiguous
inputs (strided, negative-step and transposed views from ``strategies.view_of``).  Results are compared bit for
bit.  The functions whose result is a view must share the input's mirror and move no bytes; the copying ones
must leave their result on the device only (the copy kernel wrote it; numpy computed nothing).
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import wgarray as wg

from strategies import assert_same, dtypes, shapes, supported, values, view_of


@st.composite
def array_and_host(draw, shape_st=None, kinds="biuf"):
    dt = draw(dtypes(kinds))
    shape = draw(shape_st if shape_st is not None else shapes())
    host = draw(values(dt, shape))
    x, host = draw(view_of(host, dt))
    return x, host, dt


def check(got: wg.Array, want: np.ndarray, dtype=None) -> None:
    if dtype is not None:
        assert got.dtype is dtype
    assert_same(got.numpy(), np.asarray(want))


def is_view(got: wg.Array, x: wg.Array) -> bool:
    return got.mirror is x.mirror


def on_device(got: wg.Array) -> bool:
    return got.size == 0 or got.residency == frozenset({"device"})


def axis_of(draw, ndim: int, allow_negative=True) -> int:
    return draw(st.integers(-ndim if allow_negative else 0, ndim - 1))


# -- views ---------------------------------------------------------------------------------------------------------
@given(st.data())
def test_broadcast_to(data):
    x, host, dt = data.draw(array_and_host(shapes(max_dims=3, max_side=4)))
    extra = data.draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=1, max_side=3))
    target = tuple(extra) + tuple(n if n != 1 else data.draw(st.sampled_from([1, 3])) for n in host.shape)
    got = wg.broadcast_to(x, target)
    assert is_view(got, x)
    check(got, np.broadcast_to(host, target), dt)
    with pytest.raises(ValueError):
        wg.broadcast_to(wg.ones((2, 3)), (3, 3))


@given(st.data())
def test_broadcast_arrays(data):
    shp = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=3, max_side=4))
    xs, hosts = [], []
    for s in shp.input_shapes:
        x, h, _ = data.draw(array_and_host(st.just(s)))
        xs.append(x)
        hosts.append(h)
    got = wg.broadcast_arrays(*xs)
    assert isinstance(got, list) and len(got) == 3
    for g, x, want in zip(got, xs, np.broadcast_arrays(*hosts)):
        assert is_view(g, x)
        check(g, want, x.dtype)
    with pytest.raises(ValueError):
        wg.broadcast_arrays(wg.ones((2,)), wg.ones((3,)))


@given(st.data())
def test_expand_dims(data):
    x, host, dt = data.draw(array_and_host())
    axis = data.draw(st.integers(-host.ndim - 1, host.ndim))
    got = wg.expand_dims(x, axis=axis)
    assert is_view(got, x)
    check(got, np.expand_dims(host, axis), dt)
    if x.is_contiguous:
        assert got.is_contiguous  # the inserted stride keeps view-reshapes possible
    with pytest.raises(IndexError):
        wg.expand_dims(x, axis=host.ndim + 1)
    with pytest.raises(IndexError):
        wg.expand_dims(x, axis=-host.ndim - 2)


@given(st.data())
def test_squeeze(data):
    x, host, dt = data.draw(array_and_host(shapes(max_side=3)))
    ones = [d for d, n in enumerate(host.shape) if n == 1]
    if ones:
        axes = tuple(data.draw(st.lists(st.sampled_from(ones), min_size=1, unique=True)))
        axis = axes[0] if len(axes) == 1 and data.draw(st.booleans()) else axes
        got = wg.squeeze(x, axis)
        assert is_view(got, x)
        check(got, np.squeeze(host, axis), dt)
    others = [d for d, n in enumerate(host.shape) if n != 1]
    if others:
        with pytest.raises(ValueError):
            wg.squeeze(x, others[0])


@given(st.data())
def test_flip(data):
    x, host, dt = data.draw(array_and_host())
    if host.ndim and data.draw(st.booleans()):
        axis = tuple(data.draw(st.lists(st.integers(0, host.ndim - 1), min_size=1, max_size=host.ndim,
                                        unique=True)))
        if len(axis) == 1 and data.draw(st.booleans()):
            axis = axis[0] - host.ndim
    else:
        axis = None
    got = wg.flip(x, axis=axis)
    assert is_view(got, x)
    check(got, np.flip(host, axis), dt)
    # a kernel reading the negative-stride view
    if dt.kind in "iuf":
        check(wg.negative(got) if dt.kind != "u" else wg.positive(got),
              np.negative(np.flip(host, axis)) if dt.kind != "u" else np.flip(host, axis))


@given(st.data())
def test_permute_dims_and_moveaxis(data):
    x, host, dt = data.draw(array_and_host(shapes(min_dims=1)))
    perm = data.draw(st.permutations(range(host.ndim)))
    got = wg.permute_dims(x, tuple(perm))
    assert is_view(got, x)
    check(got, np.transpose(host, perm), dt)
    k = data.draw(st.integers(1, host.ndim))
    src = data.draw(st.lists(st.integers(-host.ndim, host.ndim - 1), min_size=k, max_size=k,
                             unique_by=lambda a: a % host.ndim))
    dst = data.draw(st.lists(st.integers(-host.ndim, host.ndim - 1), min_size=k, max_size=k,
                             unique_by=lambda a: a % host.ndim))
    if k == 1 and data.draw(st.booleans()):
        src, dst = src[0], dst[0]
    got = wg.moveaxis(x, src, dst)
    assert is_view(got, x)
    check(got, np.moveaxis(host, src, dst), dt)
    with pytest.raises(ValueError):
        wg.permute_dims(x, tuple(range(host.ndim + 1)))


@given(st.data())
def test_unstack(data):
    x, host, dt = data.draw(array_and_host(shapes(min_dims=1, max_side=4)))
    axis = axis_of(data.draw, host.ndim)
    got = wg.unstack(x, axis=axis)
    assert isinstance(got, tuple) and len(got) == host.shape[axis]
    for g, want in zip(got, np.moveaxis(host, axis, 0)):
        assert is_view(g, x)
        check(g, want, dt)


@given(st.data())
def test_reshape(data):
    x, host, dt = data.draw(array_and_host())
    target = list(np.random.default_rng(data.draw(st.integers(0, 99))).permutation(host.shape))
    if target and data.draw(st.booleans()) and host.size:
        target[0] = -1
    got = wg.reshape(x, tuple(target))
    check(got, np.reshape(host, target), dt)
    if x.is_contiguous:
        assert is_view(got, x)
    copied = wg.reshape(x, tuple(target), copy=True)
    assert not is_view(copied, x) and on_device(copied)
    check(copied, np.reshape(host, target), dt)
    if not x.is_contiguous and host.size > 1:
        with pytest.raises(ValueError):
            wg.reshape(x, (-1,), copy=False)


# -- copies ----------------------------------------------------------------------------------------------------------
SAME_KIND = {"b": [wg.bool], "i": [wg.int8, wg.int16, wg.int32, wg.int64],
             "u": [wg.uint8, wg.uint16, wg.uint32, wg.uint64], "f": [wg.float16, wg.float32, wg.float64]}


@given(st.data())
def test_concat(data):
    kind = data.draw(st.sampled_from("biuf"))
    base = list(data.draw(shapes(min_dims=1, max_dims=3, max_side=4)))
    axis = axis_of(data.draw, len(base))
    k = data.draw(st.integers(1, 4))
    xs, hosts = [], []
    for _ in range(k):
        dt = data.draw(st.sampled_from(supported(SAME_KIND[kind])))
        shp = list(base)
        shp[axis] = data.draw(st.integers(0, 4))
        h = data.draw(values(dt, tuple(shp)))
        x, h = data.draw(view_of(h, dt))
        xs.append(x)
        hosts.append(h)
    res = wg.result_type(*xs)
    got = wg.concat(xs if data.draw(st.booleans()) else tuple(xs), axis=axis)
    assert on_device(got)
    check(got, np.concatenate([h.astype(res.numpy) for h in hosts], axis=axis), res)
    flat = wg.concat(xs, axis=None)
    check(flat, np.concatenate([h.astype(res.numpy).reshape(-1) for h in hosts]), res)
    bad = list(base)
    bad[(axis + 1) % len(base)] += 1
    if len(base) > 1:
        with pytest.raises(ValueError):
            wg.concat([xs[0], wg.zeros(tuple(bad), dtype=xs[0].dtype)], axis=axis)


def test_concat_errors():
    with pytest.raises(ValueError):
        wg.concat([wg.asarray(1.0), wg.asarray(2.0)])
    with pytest.raises(ValueError):
        wg.concat([])
    assert wg.concat([wg.ones(2, dtype=wg.int32), wg.ones(2, dtype=wg.bool)]).dtype is wg.int32  # bool promotes
    with pytest.raises(TypeError):
        wg.concat([wg.ones(2, dtype=wg.int32), wg.ones(2, dtype=wg.uint64)])
    check(wg.concat([wg.asarray(1.0), wg.asarray(2.0)], axis=None), np.array([1.0, 2.0], np.float32))


@given(st.data())
def test_stack(data):
    kind = data.draw(st.sampled_from("biuf"))
    shape = data.draw(shapes(max_dims=3, max_side=4))
    axis = data.draw(st.integers(-len(shape) - 1, len(shape)))
    k = data.draw(st.integers(1, 4))
    xs, hosts = [], []
    for _ in range(k):
        dt = data.draw(st.sampled_from(supported(SAME_KIND[kind])))
        x, h = data.draw(view_of(data.draw(values(dt, shape)), dt))
        xs.append(x)
        hosts.append(h)
    res = wg.result_type(*xs)
    got = wg.stack(xs, axis=axis)
    assert on_device(got)
    check(got, np.stack([h.astype(res.numpy) for h in hosts], axis=axis), res)
    with pytest.raises(ValueError):
        wg.stack([xs[0], wg.zeros(tuple(shape) + (2,), dtype=xs[0].dtype)])


@given(st.data())
def test_roll(data):
    x, host, dt = data.draw(array_and_host())
    shift_st = st.integers(-9, 9)
    how = data.draw(st.sampled_from(["none", "int", "tuple"]) if host.ndim else st.just("none"))
    if how == "none":
        shift = data.draw(shift_st)
        got, want = wg.roll(x, shift), np.roll(host, shift)
    elif how == "int":
        axis, shift = axis_of(data.draw, host.ndim), data.draw(shift_st)
        got, want = wg.roll(x, shift, axis=axis), np.roll(host, shift, axis=axis)
    else:
        k = data.draw(st.integers(1, 3))
        axes = tuple(data.draw(st.lists(st.integers(0, host.ndim - 1), min_size=k, max_size=k)))
        shifts = tuple(data.draw(st.lists(shift_st, min_size=k, max_size=k)))
        got, want = wg.roll(x, shifts, axis=axes), np.roll(host, shifts, axis=axes)
    assert on_device(got) and not is_view(got, x)
    check(got, want, dt)


@given(st.data())
def test_tile(data):
    x, host, dt = data.draw(array_and_host(shapes(max_dims=4, max_side=3)))
    reps = tuple(data.draw(st.lists(st.integers(0, 3), min_size=0, max_size=5)))
    got = wg.tile(x, reps)
    assert on_device(got)
    check(got, np.tile(host, reps), dt)


def test_tile_many_dimensions():
    # (r, n) pairs of 6 dimensions exceed what one kernel addresses: tiled axis by axis instead
    host = np.arange(2 * 3 * 2 * 3 * 2 * 3, dtype=np.int32).reshape(2, 3, 2, 3, 2, 3)
    check(wg.tile(wg.asarray(host)[..., ::-1], (2, 1, 3, 2, 1, 2)), np.tile(host[..., ::-1], (2, 1, 3, 2, 1, 2)))


@given(st.data())
def test_repeat(data):
    x, host, dt = data.draw(array_and_host(shapes(max_dims=3, max_side=4)))
    axis = None if host.ndim == 0 or data.draw(st.booleans()) else axis_of(data.draw, host.ndim)
    n = host.size if axis is None else host.shape[axis]
    kind = data.draw(st.sampled_from(["int", "array", "array1"]))
    if kind == "int":
        reps = data.draw(st.integers(0, 4))
        got = wg.repeat(x, reps, axis=axis)
        want = np.repeat(host, reps, axis=axis)
    else:
        size = n if kind == "array" else 1
        counts = np.array(data.draw(st.lists(st.integers(0, 3), min_size=size, max_size=size)), dtype=np.int32)
        rdt = data.draw(st.sampled_from(supported([wg.int32, wg.int64, wg.uint8])))
        got = wg.repeat(x, wg.asarray(counts, dtype=rdt), axis=axis)
        want = np.repeat(host, counts, axis=axis)
    assert on_device(got)
    check(got, want, dt)


def test_repeat_errors():
    x = wg.ones((2, 3))
    with pytest.raises(ValueError):
        wg.repeat(x, -1, axis=0)
    with pytest.raises(ValueError):
        wg.repeat(x, wg.asarray([1, -1]), axis=0)
    with pytest.raises(ValueError):
        wg.repeat(x, wg.asarray([1, 2]), axis=1)
    with pytest.raises(TypeError):
        wg.repeat(x, wg.asarray([1.0, 2.0]), axis=0)


def test_repeat_large_gather():
    # many output elements (folded grid) through the gather kernel
    host = np.arange(70_000, dtype=np.float32)
    counts = np.arange(70_000) % 3
    check(wg.repeat(wg.asarray(host), wg.asarray(counts)), np.repeat(host, counts))


def test_copies_move_no_host_data():
    """concat/stack/roll/tile/repeat of device-resident inputs download nothing."""
    a = wg.arange(12, dtype=wg.float32).reshape((3, 4))
    dev = a.device
    dev.synchronize()
    before = dev.stats()
    outs = [wg.concat([a, a], axis=1), wg.stack([a, a]), wg.roll(a, 1, axis=0), wg.tile(a, (2, 1)),
            wg.repeat(a, 2, axis=1), wg.flip(a), wg.expand_dims(a, axis=1)]
    dev.synchronize()
    delta = dev.stats() - before
    assert delta.downloads == 0 and delta.uploads == 0
    assert all(o.residency == frozenset({"device"}) for o in outs)
