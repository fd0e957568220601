"""wg.fuse and wg.lazy(): fused results are the eager results bit for bit (tobytes equality), in one dispatch."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import wgarray as wg

from strategies import supported

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

DTYPES = supported([wg.bool, wg.int8, wg.int16, wg.int32, wg.int64, wg.uint8, wg.uint32, wg.float16, wg.float32,
                    wg.float64])
NUMERIC = [d for d in DTYPES if d.kind != "b"]


def values(dtype, shape):
    npd = dtype.numpy
    if npd.kind == "f":
        el = st.floats(width=npd.itemsize * 8, allow_nan=True, allow_infinity=True, allow_subnormal=False)
    elif npd.kind == "b":
        el = st.booleans()
    else:
        info = np.iinfo(npd)
        el = st.integers(int(info.min), int(info.max))
    return hnp.arrays(npd, shape, elements=el)


@st.composite
def operand(draw, dtype, shape):
    """An Array of ``shape`` as a plain array, a transposed, strided or reversed view, or a broadcast one."""
    how = draw(st.sampled_from(["plain", "transposed", "strided", "reversed", "broadcast"]))
    if how == "transposed" and len(shape) == 2:
        host = draw(values(dtype, shape[::-1]))
        return wg.asarray(host).T, host.T
    if how == "strided":
        host = draw(values(dtype, shape[:-1] + (shape[-1] * 2,))) if shape else draw(values(dtype, shape))
        return (wg.asarray(host)[..., ::2], host[..., ::2]) if shape else (wg.asarray(host), host)
    if how == "reversed" and shape:
        host = draw(values(dtype, shape))
        return wg.asarray(host)[..., ::-1], host[..., ::-1]
    if how == "broadcast" and shape:
        host = draw(values(dtype, (1,) + shape[1:]))
        return wg.broadcast_to(wg.asarray(host), shape), np.broadcast_to(host, shape)
    host = draw(values(dtype, shape))
    return wg.asarray(host), host


SHAPES = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=6)


def chain(x, y, s):
    """Five ops over two arrays and a scalar, with a comparison and where."""
    t = (x * y + s) - x
    return wg.where(t > y, t, y * s)


def same(got, want):
    g, w = got.numpy(), want.numpy()
    assert g.dtype == w.dtype and g.shape == w.shape
    assert g.tobytes() == w.tobytes(), (g, w)


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_fused_chain_bit_identical(data):
    dx = data.draw(st.sampled_from(NUMERIC), label="dx")
    dy = data.draw(st.sampled_from(NUMERIC), label="dy")
    shape = data.draw(SHAPES, label="shape")
    x, _ = data.draw(operand(dx, shape), label="x")
    y, _ = data.draw(operand(dy, shape[1:] if shape and data.draw(st.booleans()) else shape), label="y")
    s = data.draw(st.sampled_from([2, 3.5, -1, True, np.float32(1.5), np.int8(3)]), label="s")
    f = wg.fuse(chain)
    try:
        want = chain(x, y, s)
    except (TypeError, OverflowError) as e:
        with pytest.raises(type(e)):
            f(x, y, s)
        return
    same(f(x, y, s), want)
    with wg.lazy():
        lz = chain(x, y, s)
    assert lz.residency == frozenset()
    same(lz, want)


@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_fused_narrow_dtypes_and_astype(data):
    """float16 rounding, int8/int16 wrap, uint8 masking and bool normalisation of every intermediate."""
    d = data.draw(st.sampled_from(DTYPES), label="dtype")
    shape = data.draw(SHAPES, label="shape")
    x, _ = data.draw(operand(d, shape), label="x")
    to = data.draw(st.sampled_from(DTYPES), label="to")

    def g(a):
        b = (a + a) if a.dtype.kind != "b" else wg.logical_xor(a, True)
        c = b.astype(to)
        return (c * c) if to.kind != "b" else wg.logical_not(c)

    same(wg.fuse(g)(x), g(x))
    with wg.lazy():
        lz = g(x)
    same(lz, g(x))


@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_fused_reduction_bit_identical(data):
    d = data.draw(st.sampled_from(NUMERIC), label="dtype")
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=7), label="shape")
    x, _ = data.draw(operand(d, shape), label="x")
    y, _ = data.draw(operand(d, shape), label="y")
    name = data.draw(st.sampled_from(["sum", "prod", "max", "min", "mean", "any", "all"]), label="op")
    axis = data.draw(st.sampled_from([None, -1, 0] + ([(0, 1)] if len(shape) > 1 else [])), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    red = getattr(wg, name)

    def h(a, b):
        return red(a * b + 1, axis=axis, keepdims=keepdims)

    same(wg.fuse(h)(x, y), h(x, y))


def test_one_dispatch_and_the_cache():
    dev = wg.default_device()
    x = wg.asarray(np.linspace(-3, 3, 4096, dtype=np.float32))
    y = wg.asarray(np.linspace(1, 2, 4096, dtype=np.float32))
    f = wg.fuse(chain)
    f(x, y, 2.0)
    before = dev.stats()
    out = f(x, y, 3.0)
    d = dev.stats() - before
    assert d.dispatches == 1 and d.pipelines_compiled == 0
    same(out, chain(x, y, 3.0))
    g = wg.fuse(lambda a, b: wg.sum(a * b - a))
    g(x, y)
    before = dev.stats()
    r = g(x, y)
    d = dev.stats() - before
    eager = wg.sum(x * y - x)
    assert d.pipelines_compiled == 0
    # the map-reduce's first pass reads the inputs once; the eager path needs two elementwise kernels more
    before = dev.stats()
    wg.sum(x * y - x)
    assert d.dispatches == (dev.stats() - before).dispatches - 2
    same(r, eager)
    with wg.lazy():
        t = x * y + 1
        u = wg.exp(t) - x
        before = dev.stats()
        v = u * 2
        assert (dev.stats() - before).dispatches == 0
    before = dev.stats()
    v.numpy()
    assert (dev.stats() - before).dispatches == 1


def test_unsupported_op_names_it():
    x = wg.asarray(np.ones((3, 3), np.float32))
    with pytest.raises(TypeError, match="sort"):
        wg.fuse(lambda a: wg.sort(a + 1))(x)
    with pytest.raises(TypeError, match="matmul"):
        wg.fuse(lambda a: (a + 1) @ a)(x)
    with pytest.raises(TypeError, match="reshape"):
        wg.fuse(lambda a: (a + 1).reshape(-1))(x)
    with pytest.raises(TypeError, match="indexing"):
        wg.fuse(lambda a: (a + 1)[0])(x)
    with pytest.raises(TypeError, match="last operation"):
        wg.fuse(lambda a: wg.sum(a) + 1)(x)
    with pytest.raises(ValueError):  # the eager op's broadcast error
        wg.fuse(lambda a, b: a + b)(x, wg.ones((4,)))


def test_lazy_defers_and_keeps_values():
    a = wg.asarray(np.arange(6, dtype=np.int16))
    with wg.lazy():
        b = a * 3
        c = b + 1  # b's first use: inlined
        d = b - 1  # b's second use: b is computed first
        a[0] = 100  # a is written: the deferred results that read it are computed first
    assert c.numpy().tolist() == [1, 4, 7, 10, 13, 16]
    assert d.numpy().tolist() == [-1, 2, 5, 8, 11, 14]
    assert b.numpy().tolist() == [0, 3, 6, 9, 12, 15]
    with wg.lazy():
        e = a.astype(wg.float32) * 0.5
    assert wg.sum(e).item() == float(np.sum((np.arange(6) * 1).astype(np.float32)[1:] * 0.5) + 50)
