"""Arrays larger than one storage binding: elementwise ops, reductions, copies and transfers work on them, bit for
bit against numpy where numpy is exact.

Most tests run on a device opened with ``binding_limit=4096`` (wgarray then binds at most 4 KiB to one kernel
argument), so arrays of a few thousand elements take the windowed paths that a 128 MiB lavapipe or 2 GiB GPU
binding takes only for huge arrays; every such test also checks that the split really happened (more than one
dispatch).  One test at the end uses real arrays beyond lavapipe's 128 MiB binding on the default device.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import wgarray as wg
from wgarray.kernels import layout

from strategies import assert_same, bus_bytes

SMALL = 4096  # bytes per binding on the test device


@pytest.fixture(scope="module")
def small():
    d = wg.open_device(binding_limit=SMALL)
    yield d
    d.close()


def supported(dev, kinds="biuf"):
    return [d for d in (wg.bool, wg.int8, wg.int16, wg.int32, wg.int64, wg.uint8, wg.uint16, wg.uint32, wg.uint64,
                        wg.float16, wg.float32, wg.float64) if dev.supports(d) and d.kind in kinds]


def host_values(seed: int, dtype, shape) -> np.ndarray:
    """Random values of ``dtype`` over its whole range, with the specials sprinkled in (NaN, inf, -0.0, extremes)."""
    rng = np.random.default_rng(seed)
    npd = dtype.numpy
    n = math.prod(shape)
    if dtype.kind == "b":
        return rng.random(shape) > 0.5
    if dtype.kind == "f":
        out = (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n)).astype(npd)
        specials = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, np.finfo(npd).max, -np.finfo(npd).max], npd)
    else:
        info = np.iinfo(npd)
        out = rng.integers(info.min, info.max, n, dtype=npd, endpoint=True)
        specials = np.array([info.min, info.max, 0], npd)
    picks = rng.integers(0, n, max(1, n // 50))
    out[picks] = specials[rng.integers(0, len(specials), len(picks))]
    return out.reshape(shape)


@st.composite
def big_shapes(draw, itemsize: int = 4):
    """Shapes of several times ``SMALL`` device bytes."""
    nd = draw(st.integers(1, 3))
    low = math.ceil((3 * SMALL // itemsize) ** (1 / nd))
    return tuple(draw(st.integers(low, 2 * low)) for _ in range(nd))


def make_view(dev, host: np.ndarray, dtype, how: str, seed: int):
    """A view on ``dev`` whose values equal ``host``, laid out as ``how`` says, and its base's numpy twin."""
    if how == "plain" or host.ndim == 0:
        return wg.asarray(host, dtype=dtype, device=dev)
    if how == "transposed" and host.ndim >= 2:
        return wg.asarray(np.ascontiguousarray(np.swapaxes(host, -1, -2)), dtype=dtype, device=dev).mT
    if how == "reversed":
        return wg.asarray(np.ascontiguousarray(host[::-1]), dtype=dtype, device=dev)[::-1]
    # strided: embedded in a larger base with steps of 2 (negative on the first axis) and an offset
    base = host_values(seed + 1, dtype, tuple(2 * n + 3 for n in host.shape))
    idx = (slice(2 * host.shape[0], 0, -2),) + tuple(slice(3, 3 + 2 * n, 2) for n in host.shape[1:])
    base[idx] = host
    view = wg.asarray(base, dtype=dtype, device=dev)[idx]
    assert view.shape == host.shape
    return view


HOWS = ["plain", "transposed", "reversed", "strided"]


def split(dev, before) -> int:
    return (dev.stats() - before).dispatches


# -- the span arithmetic the windows rest on ---------------------------------------------------------------------
@given(st.lists(st.tuples(st.integers(1, 5), st.integers(-9, 9)), min_size=1, max_size=4), st.data())
def test_span_matches_brute_force(dims, data):
    shape = [n for n, _ in dims]
    strides = [s for _, s in dims]
    size = math.prod(shape)
    start = data.draw(st.integers(0, size - 1))
    stop = data.draw(st.integers(start + 1, size))
    offsets = [sum(i * s for i, s in zip(idx, strides)) for idx in itertools.product(*map(range, shape))]
    assert layout.span(shape, strides, start, stop) == (min(offsets[start:stop]), max(offsets[start:stop]))


# -- elementwise ---------------------------------------------------------------------------------------------------
def _maximum(a, b):
    """numpy's maximum with wgarray's documented tie rule (the second operand: maximum(-0.0, 0.0) is 0.0), which
    numpy follows for float32 / float64 but not for float16 (the first operand there)."""
    return np.where(a == b, b, np.maximum(a, b))


_BINARY = {"add": np.add, "multiply": np.multiply, "maximum": _maximum, "subtract": np.subtract}


@settings(max_examples=20)
@given(st.data())
def test_elementwise_beyond_one_binding(small, data):
    dtype = data.draw(st.sampled_from(supported(small, "iuf")), label="dtype")
    shape = data.draw(big_shapes(dtype.device_itemsize), label="shape")
    name = data.draw(st.sampled_from(sorted(_BINARY)), label="op")
    how_a, how_b = data.draw(st.sampled_from(HOWS)), data.draw(st.sampled_from(HOWS + ["broadcast"]))
    seed = data.draw(st.integers(0, 1 << 16))
    a = host_values(seed, dtype, shape)
    b = host_values(seed + 7, dtype, shape[1:] if how_b == "broadcast" else shape)
    x = make_view(small, a, dtype, how_a, seed)
    y = make_view(small, b, dtype, "plain" if how_b == "broadcast" else how_b, seed + 3)
    before = small.stats()
    got = getattr(wg, name)(x, y).numpy()
    assert split(small, before) > 1
    with np.errstate(all="ignore"):
        want = _BINARY[name](a, b)
    assert_same(got, want)


@settings(max_examples=20)
@given(st.data())
def test_copies_and_writes_beyond_one_binding(small, data):
    dtype = data.draw(st.sampled_from(supported(small)), label="dtype")
    shape = data.draw(big_shapes(dtype.device_itemsize), label="shape")
    how = data.draw(st.sampled_from(HOWS), label="how")
    seed = data.draw(st.integers(0, 1 << 16))
    a = host_values(seed, dtype, shape)
    x = make_view(small, a, dtype, how, seed)
    before = small.stats()
    c = wg.reshape(x, (-1,))  # a copy unless x is contiguous
    assert_same(c.numpy(), a.reshape(-1))
    # in-place writes into a strided view of a device-resident array beyond one binding
    z = wg.asarray(a, dtype=dtype, device=small).copy()  # a device copy: the array lives on the device
    z[::2] = x[::2] if dtype.kind != "b" else wg.logical_not(x[::2])
    want = a.copy()
    want[::2] = a[::2] if dtype.kind != "b" else ~a[::2]
    assert_same(z.numpy(), want)
    assert split(small, before) > 2


def test_inplace_and_creation_beyond_one_binding(small):
    before = small.stats()
    x = wg.arange(10000, dtype=wg.int32, device=small)
    x += 5
    x[::-3] *= 2
    want = np.arange(10000, dtype=np.int32) + 5
    want[::-3] *= 2
    assert_same(x.numpy(), want)
    e = wg.eye(70, 90, k=3, device=small)
    assert_same(e.numpy(), np.eye(70, 90, k=3, dtype=np.float32))
    assert split(small, before) > 4


# -- reductions ------------------------------------------------------------------------------------------------------
_EXACT = ["max", "min", "argmax", "argmin", "any", "all"]


@settings(max_examples=20)
@given(st.data())
def test_reductions_beyond_one_binding(small, data):
    name = data.draw(st.sampled_from(_EXACT + ["sum", "prod", "mean"]), label="op")
    kinds = "b" if name in ("any", "all") else "iuf" if name != "mean" else "f"
    dtype = data.draw(st.sampled_from(supported(small, kinds)), label="dtype")
    shape = data.draw(big_shapes(dtype.device_itemsize), label="shape")
    how = data.draw(st.sampled_from(HOWS), label="how")
    seed = data.draw(st.integers(0, 1 << 16))
    if name.startswith("arg"):
        axis = data.draw(st.sampled_from([None] + list(range(len(shape)))), label="axis")
    else:
        axis = data.draw(st.sampled_from([None, 0, -1, tuple(range(len(shape)))[1:] or None]), label="axis")
    a = host_values(seed, dtype, shape)
    if name in ("sum", "prod", "mean") and dtype.kind == "f":  # tame values: sums compare within a tolerance
        a = np.nan_to_num(a, posinf=1.0, neginf=-1.0).clip(-4, 4).astype(a.dtype)
    if name == "prod" and dtype.kind == "f":
        a = (1.0 + a / 400).astype(a.dtype)
    x = make_view(small, a, dtype, how, seed)
    before = small.stats()
    got = getattr(wg, name)(x, axis=axis).numpy()
    assert split(small, before) > 1
    if name in _EXACT:
        want = getattr(np, name)(a, axis=axis)
        assert_same(got, np.asarray(want).astype(got.dtype))
    elif dtype.kind == "f":
        want = getattr(np, name)(a.astype(np.float64), axis=axis)
        tol = 1e-2 if dtype is wg.float16 else 1e-4
        np.testing.assert_allclose(got.astype(np.float64), want, rtol=tol, atol=tol * math.prod(shape) ** 0.5)
    else:  # integer sums and products wrap as numpy's do in the result dtype
        want = getattr(np, name)(a.astype(got.dtype), axis=axis, dtype=got.dtype)
        assert_same(got, np.asarray(want))


def test_argmax_prefers_the_first_of_equal_extremes_across_pieces(small):
    a = np.zeros(9000, np.float32)
    a[[1200, 5000, 8000]] = 3.0  # three equal maxima in different pieces
    a[7000] = np.nan  # numpy: the first NaN wins
    x = wg.asarray(a, device=small)
    assert int(wg.argmax(x)) == 7000 and int(wg.argmin(x)) == 7000
    a[7000] = 0.0
    x = wg.asarray(a, device=small)
    assert int(wg.argmax(x)) == 1200 == int(np.argmax(a))
    assert int(wg.argmin(-x)) == 1200


# -- transfers -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [wg.bool, wg.int8, wg.uint16, wg.float16, wg.float32, wg.int32],
                         ids=lambda d: d.name)
def test_transfers_beyond_one_binding_move_exact_bytes(small, dtype):
    a = host_values(11, dtype, (5003,))
    before = small.stats()
    x = wg.asarray(a, device=small)
    y = x.copy()  # uploads x, copies on the device
    del x
    got = y.numpy()
    spent = small.stats() - before
    assert_same(got, a)
    assert (spent.uploads, spent.downloads) == (1, 1)
    assert spent.bytes_uploaded == spent.bytes_downloaded == bus_bytes(dtype, a.size)
    assert spent.dispatches > 2  # the copy (and widen/narrow for narrow dtypes) split


def test_to_device_beyond_one_binding(small):
    a = host_values(5, wg.float32, (3000,))
    x = wg.asarray(a, device=small) * 1
    y = x.to_device(wg.default_device())
    z = (y + 0).to_device(small)
    assert_same(z.numpy(), a + 0)
    b = host_values(6, wg.bool, (3000,))
    assert_same(wg.logical_not(wg.asarray(b, device=small)).to_device(wg.default_device()).numpy(), ~b)


# -- what does not split -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["sort", "cumulative_sum", "matmul", "nonzero", "unique_values", "take"])
def test_ops_that_need_one_binding_raise_memory_error(small, name):
    a = host_values(3, wg.float32, (64, 64))
    keep = wg.asarray(a, device=small) + 0
    calls = {"sort": lambda: wg.sort(keep, axis=None if keep.ndim == 1 else -1),
             "cumulative_sum": lambda: wg.cumulative_sum(keep, axis=1),
             "matmul": lambda: keep @ keep,
             "nonzero": lambda: wg.nonzero(keep),
             "unique_values": lambda: wg.unique_values(keep),
             "take": lambda: wg.take(keep, wg.asarray(np.arange(0, 64, 3), device=small), axis=0)}
    with pytest.raises(MemoryError, match="storage binding"):
        calls[name]()
    assert_same(keep.numpy(), a + 0)  # nothing lost
    small_x = wg.asarray(np.arange(5, dtype=np.float32), device=small)
    assert (small_x * 2).numpy().tolist() == [0.0, 2.0, 4.0, 6.0, 8.0]  # the device works


def test_binding_limit_is_checked():
    with pytest.raises(ValueError, match="multiple of 256"):
        wg.open_device(binding_limit=5000)
    with pytest.raises(ValueError, match="multiple of 256"):
        wg.open_device(binding_limit=256)
    with pytest.raises(TypeError, match="int"):
        wg.open_device(binding_limit=4096.0)


# -- the real thing: beyond lavapipe's 128 MiB binding ----------------------------------------------------------------
@pytest.mark.slow  # 14 s on lavapipe: in `make test-long` (CI runs it); the split paths stay in the default run above
def test_arrays_beyond_the_devices_binding(dev):
    binding = dev.properties.limits.max_storage_buffer_binding_size
    n = binding // 4 + (1 << 20)  # float32 elements: a MiB-odd beyond one binding
    if n * 4 * 4 > dev.properties.limits.max_buffer_size * 2 or binding > (256 << 20):
        pytest.skip("the device's binding is too large to exceed in a test")
    h = np.random.default_rng(0).standard_normal(n, dtype=np.float32)
    x = wg.asarray(h, device=dev)
    y = x * 2 + 1
    want = h * 2 + 1
    assert int(wg.argmax(y)) == int(np.argmax(want))
    np.testing.assert_allclose(float(wg.sum(y)), float(want.astype(np.float64).sum()), rtol=1e-5)
    assert_same(y.numpy(), want)
    b = h > 0.5  # bool: 1 byte on the host, 4 on the device
    nb = wg.logical_not(wg.asarray(b, device=dev))
    assert_same(nb.numpy(), ~b)
    assert int(wg.sum(nb)) == int((~b).sum())


@pytest.mark.slow
def test_array_at_the_devices_buffer_limit(dev):
    """The largest float32 array the device's buffer limit allows (2 GiB on lavapipe): fill, in-place arithmetic,
    writes, whole-array reductions and small views of it (one such array alive at a time: ~2 GiB of memory)."""
    limit = dev.properties.limits.max_buffer_size // 16 * 16
    if limit > (4 << 30):
        pytest.skip("the device's buffer limit is larger than a test should allocate")
    n = limit // 4
    x = wg.full((n,), 1.5, device=dev)
    x *= 2
    x -= 1  # 2.0 everywhere
    x[n - 3:] = 7.0
    x[5] = -4.0
    assert float(wg.max(x)) == 7.0 and int(wg.argmax(x)) == n - 3
    assert float(wg.min(x)) == -4.0 and int(wg.argmin(x)) == 5
    assert float(wg.sum(x[n - 6:])) == 27.0  # a view at the far end of the buffer
    assert_same(x[n - 6::2].copy().numpy(), np.array([2.0, 2.0, 7.0], np.float32))
    assert x.residency == {"device"}  # nothing was downloaded
    with pytest.raises(MemoryError, match="limit"):
        wg.zeros((n + 4,), device=dev)  # one vec4 beyond the limit
