"""The radix sort (wgarray/kernels/radix.py), which sort/argsort/unique use for rows longer than 1024.

References: numpy's ``kind="stable"`` argsort; stable descending is the stable argsort of the negated dense
rank (np.unique's inverse: NaNs one value, last; -0.0 == 0.0), so equal elements keep their original order.
Sorted values are compared bit for bit through the reference permutation.  Short rows are sorted through
``radix.run`` directly (the public functions send them to the bitonic network), which also covers the
segmented passes (many rows, row ids as the most significant digits) cheaply.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import wgarray as wg
from wgarray.kernels import radix, sort as _sort
from wgarray.ops import core as _ops

from strategies import assert_same, dtypes, values, view_of


def ref_argsort_1d(a: np.ndarray, descending: bool) -> np.ndarray:
    if not descending:
        return np.argsort(a, kind="stable")
    inv = np.unique(a, return_inverse=True)[1].reshape(-1)
    return np.argsort(-inv.astype(np.int64), kind="stable")


def ref_argsort(a: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    return np.apply_along_axis(ref_argsort_1d, axis, a, descending).astype(np.int32).reshape(a.shape)


def run_radix(x, axis: int, descending: bool):
    dev = x.device
    out = _ops.new_array(x.shape, x.dtype, dev)
    idx = _ops.new_array(x.shape, wg.int32, dev)
    radix.run(dev, x, axis % max(x.ndim, 1), descending, out, idx)  # normalised, as sort.run gets it
    return out.numpy(), idx.numpy()


@st.composite
def pooled(draw, dtype, n):
    """Any values (extremes, NaN, inf, -0.0), or many duplicates drawn from a small pool of them."""
    if draw(st.booleans()):
        return draw(values(dtype, (n,)))
    pool = draw(values(dtype, (6,)))
    if dtype.kind == "f":
        pool = np.concatenate([pool, np.array([np.nan, -0.0, 0.0, -np.inf, np.inf], dtype=dtype.numpy)])
    seed = draw(st.integers(0, 2**32 - 1))
    return pool[np.random.default_rng(seed).integers(0, len(pool), n)]


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_radix_matches_numpy_stable(data):
    dtype = data.draw(dtypes(), label="dtype")
    n = data.draw(st.sampled_from([0, 1, 2, 7, 255, 1023, 1024, 1025, 3001]), label="n")
    descending = data.draw(st.booleans(), label="descending")
    host = data.draw(pooled(dtype, n), label="x")
    x, host = data.draw(view_of(host, dtype), label="view")
    got_v, got_i = run_radix(x, 0, descending)
    want = ref_argsort(host, 0, descending)
    np.testing.assert_array_equal(got_i, want)
    assert_same(got_v, host[want])
    out = _ops.new_array(x.shape, x.dtype, x.device)  # values only: 32-bit values ride as the payload
    radix.run(x.device, x, 0, descending, out, None)
    assert_same(out.numpy(), host[want])


@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_radix_segmented_rows_and_axes(data):
    """Many rows in one set of passes (including > 256 rows: two row digits), any axis of a strided view."""
    dtype = data.draw(dtypes(), label="dtype")
    shape = data.draw(st.sampled_from([(3, 5), (300, 3), (2, 3, 40), (1, 700), (9, 1), (257, 2)]), label="shape")
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    descending = data.draw(st.booleans(), label="descending")
    host = data.draw(pooled(dtype, int(np.prod(shape))), label="x").reshape(shape)
    x, host = data.draw(view_of(host, dtype), label="view")
    got_v, got_i = run_radix(x, axis, descending)
    want = ref_argsort(host, axis, descending)
    np.testing.assert_array_equal(got_i, want)
    assert_same(got_v, np.take_along_axis(host, want.astype(np.intp), axis=axis))


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
                                   "uint64", "float16", "float32", "float64"])
def test_public_sort_beyond_one_tile(dtype):
    if dtype not in wg.default_device().properties.dtypes:
        pytest.skip(f"{dtype} not on this device")
    rng = np.random.default_rng(1)
    n = 5000
    if dtype == "bool":
        a = rng.integers(0, 2, n).astype(bool)
    elif dtype.startswith("float"):
        a = (rng.standard_normal(n) * 1e3).astype(dtype)
        a[rng.random(n) < 0.05] = np.nan
        a[rng.random(n) < 0.05] = -0.0
        a[rng.random(n) < 0.05] = 0.0
        a[:3] = [np.inf, -np.inf, np.nan]
    else:
        info = np.iinfo(dtype)
        a = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
        a[::4] = a[1]  # duplicates
    x = wg.asarray(a)
    for desc in (False, True):
        want = ref_argsort(a, 0, desc)
        np.testing.assert_array_equal(wg.argsort(x, descending=desc).numpy(), want)
        assert_same(wg.sort(x, descending=desc).numpy(), a[want])


def test_nan_signed_zero_placement_and_stability():
    a = np.tile(np.array([0.0, np.nan, -0.0, np.inf, -np.inf, 1.0], dtype=np.float32), 500)
    x = wg.asarray(a)
    i = wg.argsort(x).numpy()
    assert np.array_equal(i[-500:], np.flatnonzero(np.isnan(a)))  # NaNs last, in original order
    zeros = np.flatnonzero(a == 0)  # -0.0 and 0.0 are one key: original order
    assert np.array_equal(i[500:1500], zeros)
    assert np.array_equal(i, ref_argsort(a, 0, False))
    d = wg.argsort(x, descending=True).numpy()
    assert np.array_equal(d[:500], np.flatnonzero(np.isnan(a)))  # NaNs first, in original order
    assert np.array_equal(d, ref_argsort(a, 0, True))
    eq = wg.argsort(wg.zeros(3000), descending=True).numpy()  # all equal: the identity, either way
    assert np.array_equal(eq, np.arange(3000))


def _plan(dev, x) -> tuple[int, list[int]]:
    return radix.device_plan(dev, x, 0, False)


@pytest.mark.parametrize("dtype,lo,hi,nbits", [("bool", 0, 2, 1), ("int8", -128, 128, 8), ("uint8", 0, 256, 8),
                                               ("int16", -32768, 32768, 16), ("int32", -100, 100, 8),
                                               ("int32", 0, 2**20, 20), ("float16", -10, 10, 16),
                                               ("int64", -5, 5, 4), ("int64", 0, 2**40, 40)])
def test_device_plan_adapts_to_key_width(dtype, lo, hi, nbits):
    """The device's plan (radix_stats.wgsl) runs a pass per digit of the nbits that vary (bool and int8: one),
    all keys equal: none; an odd count ends in a payload copy.  The host records the same dispatches whatever the
    plan, and reads nothing."""
    dev = wg.default_device()
    bits = radix._shape(dev).bits
    a = np.random.default_rng(0).integers(lo, hi, 2000).astype(dtype)
    kmin, shifts = _plan(dev, wg.asarray(a))
    assert len(shifts) == -(-nbits // bits) and len(set(shifts)) == len(shifts)
    assert len(shifts) <= radix.key_slots(getattr(wg, dtype), bits)
    assert _plan(dev, wg.asarray(np.full(2000, 3, dtype=dtype)))[1] == []
    x = wg.asarray(a)
    idx = _ops.new_array(x.shape, wg.int32, dev)
    x.mirror.buffer(), idx.mirror.buffer()
    before = dev.stats().dispatches, dev.stats().downloads
    radix.run(dev, x, 0, False, None, idx)
    after = dev.stats().dispatches, dev.stats().downloads
    # a whole contiguous index output of one row: Shape.direct_index (the GPU default) ends the passes in it, no gather
    gather = 0 if radix._shape(dev, pairs=True).direct_index else 1
    assert after[0] - before[0] == 2 + gather + 3 * radix.key_slots(getattr(wg, dtype), bits)
    assert after[1] == before[1]  # no read
    np.testing.assert_array_equal(idx.numpy(), ref_argsort(a, 0, False))


def test_device_plan_matches_host_model():
    """The WGSL planner against plan_passes, on keys whose statistics are known: uint32 keys are the values."""
    dev = wg.default_device()
    bits = radix._shape(dev).bits
    for a in ([0x100, 0x7F00, 0x300], [5, 0xFFFFFFFF, 0], [0x12345678, 0x12345679], [7, 7, 0x7000007],
              [0x400000, 0x7FF, 0]):
        v = np.array(a * 700, dtype=np.uint32)
        o, n = np.bitwise_or.reduce(v), np.bitwise_and.reduce(v)
        kmin, shifts = radix.plan_passes(4, int(v.min()), int(v.max()), int(o), int(n), bits)
        assert _plan(dev, wg.asarray(v)) == (kmin, shifts)


def test_inactive_key_passes_then_rows_across_tiles():
    """Few passes of the recorded slots active (small int32 range), then two row digits, rows longer than a tile
    so they straddle tile and block boundaries."""
    a = np.random.default_rng(3).integers(-3, 3, (260, 1030)).astype(np.int32)
    x = wg.asarray(a)
    got_v, got_i = run_radix(x, 1, False)
    want = ref_argsort(a, 1, False)
    np.testing.assert_array_equal(got_i, want)
    np.testing.assert_array_equal(got_v, np.take_along_axis(a, want.astype(np.intp), axis=1))


def test_plan_passes():
    assert radix.plan_passes(4, 0, 0xFFFFFFFF, 0xFFFFFFFF, 0) == (0, [0, 8, 16, 24])
    assert radix.plan_passes(4, 0x7FFFFF80, 0x8000007F, 0xFFFFFFFF, 0) == (0x7FFFFF80, [0])  # int8 keys
    assert radix.plan_passes(4, 0x100, 0x7F00, 0x7F00, 0x100) == (0, [8])  # one varying byte
    assert radix.plan_passes(8, 5, 5, 5, 5) == (0, [])
    assert radix.plan_passes(4, 0, 0xFFFFFFFF, 0xFFFFFFFF, 0, 11) == (0, [0, 11, 22])
    assert radix.plan_passes(4, 0x7FFFFF80, 0x8000007F, 0xFFFFFFFF, 0, 11) == (0x7FFFFF80, [0])
    assert radix.plan_passes(4, 0x800, 0x400000, 0x400800, 0, 11) == (0, [11, 22])  # raw: bits 11 and 22 vary
    assert radix.plan_passes(8, 0, 2**64 - 1, 2**64 - 1, 0, 11) == (0, [0, 11, 22, 33, 44, 55])
    assert [radix.key_slots(getattr(wg, d), b) for d in ("bool", "int16", "float32", "int64") for b in (8, 11)] == \
        [2, 2, 2, 2, 4, 4, 8, 6]


def test_unique_beyond_one_tile():
    a = np.random.default_rng(2).integers(-30, 30, 4000).astype(np.float32)
    a[::50] = np.nan
    r = wg.unique_all(wg.asarray(a))
    v, first, inv, cnt = np.unique(a, return_index=True, return_inverse=True, return_counts=True, equal_nan=False)
    assert_same(r.values.numpy(), v)
    np.testing.assert_array_equal(r.indices.numpy(), first)
    np.testing.assert_array_equal(r.inverse_indices.numpy(), inv.reshape(a.shape))
    np.testing.assert_array_equal(r.counts.numpy(), cnt)


def test_beyond_one_binding_raises_memory_error_and_device_survives():
    dev = wg.open_device(binding_limit=4096)
    a = np.arange(3000, 0, -1, dtype=np.float32)  # 12 KB: beyond one 4 KiB binding
    x = wg.asarray(a, device=dev)
    with pytest.raises(MemoryError):
        wg.sort(x)
    with pytest.raises(MemoryError):
        wg.argsort(x, descending=True)
    np.testing.assert_array_equal(x.numpy(), a)
    small = wg.asarray(np.arange(600, 0, -1, dtype=np.float32), device=dev)  # fits: the bitonic path works
    np.testing.assert_array_equal(wg.sort(small).numpy(), np.arange(1, 601, dtype=np.float32))


@pytest.mark.parametrize("shape,axis", [((7,), 0), ((1024,), 0), ((5, 300), 1), ((40, 3), 0)])
def test_bitonic_network_still_sorts(shape, axis):
    """The bitonic network (GPUs' path for rows up to 1024; lavapipe takes the radix sort) against numpy."""
    a = np.random.default_rng(4).integers(-20, 20, shape).astype(np.float32)
    x = wg.asarray(a)
    for desc in (False, True):
        idx = _ops.new_array(x.shape, wg.int32, x.device)
        _sort.bitonic(x.device, x, axis, desc, None, idx)
        np.testing.assert_array_equal(idx.numpy(), ref_argsort(a, axis, desc))


@pytest.mark.parametrize("dtype", ["float32", "int64", "uint8"])
def test_gpu_tiled_scatter_on_any_adapter(monkeypatch, dtype):
    """The GPUs' tiled scatter (radix_scatter_reg.wgsl, 64 invocations x 16 keys), forced on this adapter: several
    tiles a block, a partial last tile, rows."""
    monkeypatch.setattr(radix, "CPU", radix.Shape(wg=64, wide=256, max_blocks=2))
    monkeypatch.setattr(radix, "GPU", radix.Shape(wg=64, wide=256, max_blocks=2))
    rng = np.random.default_rng(6)
    a = rng.integers(0, 200, (3, 2100)).astype(dtype)
    x = wg.asarray(a)
    for axis, desc in ((1, False), (1, True), (0, False)):
        got_v, got_i = run_radix(x, axis, desc)
        want = ref_argsort(a, axis, desc)
        np.testing.assert_array_equal(got_i, want)
        assert_same(got_v, np.take_along_axis(a, want.astype(np.intp), axis=axis))


# Launch shapes forced on this adapter: the CPU kernels with 8-, 11- and 3-bit digits (3: many passes, odd
# digit counts that end in a payload copy, row digits of 3 bits) and few blocks, so a few thousand elements span
# several blocks and every chunk of a block; the GPU's tiled scatter with several tiles a block, 8, 16 and 1 keys
# an invocation.
SHAPES = {"cpu8": radix.Shape(wg=8, wide=64, max_blocks=3, chunked=True, bits=8),
          "cpu11": radix.Shape(wg=8, wide=64, max_blocks=5, chunked=True, bits=11),
          "cpu3": radix.Shape(wg=4, wide=32, max_blocks=2, chunked=True, bits=3),
          "gpu": radix.Shape(wg=64, wide=256, max_blocks=2),
          "gpu2k": radix.Shape(wg=128, wide=256, max_blocks=2, tile=2048),
          "gpu1": radix.Shape(wg=256, wide=256, max_blocks=3, tile=256)}


def _hard(dtype: str, n: int, rng) -> np.ndarray:
    """Few distinct keys (long runs of equal keys that a stable sort must keep in order), extremes included."""
    if dtype == "bool":
        return rng.integers(0, 2, n).astype(bool)
    if dtype.startswith("float"):
        pool = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 1.5, -1.5, 1e-30, -3e4], dtype=dtype)
    else:
        info = np.iinfo(dtype)
        pool = np.array([info.min, info.max, 0, 1, info.max - 1, info.min + 1], dtype=dtype)
    return pool[rng.integers(0, len(pool), n)]


SLOW_SHAPES = ("gpu2k", "gpu1")  # 128/256 invocations a workgroup: slow barriers on lavapipe


@pytest.mark.parametrize("shape", [s if s not in SLOW_SHAPES else pytest.param(s, marks=pytest.mark.slow)
                                   for s in SHAPES])
@pytest.mark.parametrize("dtype", ["float32", "int16", "uint8", "bool", "int64", "float16"])
def test_shapes_stable_many_equal_keys(monkeypatch, shape, dtype):
    """Stability among many equal keys (NaN, -0.0 == 0.0, inf, integer extremes) at odd lengths spanning several
    chunks and blocks, ascending and descending, values and indices, and rows (> 8 rows: several 3-bit row
    digits) along either axis."""
    if dtype not in wg.default_device().properties.dtypes:
        pytest.skip(f"{dtype} not on this device")
    monkeypatch.setattr(radix, "CPU", SHAPES[shape])
    monkeypatch.setattr(radix, "GPU", SHAPES[shape])
    rng = np.random.default_rng(7)
    for shp, axis, desc in (((4099,), 0, False), ((4099,), 0, True), ((3, 1001), 1, True), ((37, 61), 0, False)):
        a = _hard(dtype, int(np.prod(shp)), rng).reshape(shp)
        got_v, got_i = run_radix(wg.asarray(a), axis, desc)
        want = ref_argsort(a, axis, desc)
        np.testing.assert_array_equal(got_i, want)
        assert_same(got_v, np.take_along_axis(a, want.astype(np.intp), axis=axis))
    a = _hard(dtype, 2047, rng)
    x = wg.asarray(a)
    for desc in (False, True):  # values only: 32-bit values ride as the payload, their keys recomputed from it
        out = _ops.new_array(x.shape, x.dtype, x.device)
        radix.run(x.device, x, 0, desc, out, None)
        assert_same(out.numpy(), a[ref_argsort(a, 0, desc)])


def test_bool_is_one_pass():
    """A bool sort plans one digit (the issue's one pass) and its copy, whatever the digit width."""
    dev = wg.default_device()
    a = np.random.default_rng(8).integers(0, 2, 3000).astype(bool)
    assert _plan(dev, wg.asarray(a))[1] == [0]
    assert radix.key_slots(wg.bool, radix._shape(dev).bits) == 2
    np.testing.assert_array_equal(wg.argsort(wg.asarray(a)).numpy(), np.argsort(a, kind="stable"))


def test_shape_rejects_wide_gpu_digits():
    with pytest.raises(ValueError, match="8"):
        radix.Shape(wg=64, wide=256, max_blocks=8, bits=11)


@pytest.mark.parametrize("shape", SLOW_SHAPES)
def test_gpu_tile_sizes(monkeypatch, shape):
    """The GPU scatter with 2048-key tiles (16 keys an invocation) and 256-key tiles (one), cheaply: one uint8
    digit and its copy, a partial last tile, many equal keys, rows along axis 0."""
    monkeypatch.setattr(radix, "CPU", SHAPES[shape])
    monkeypatch.setattr(radix, "GPU", SHAPES[shape])
    rng = np.random.default_rng(9)
    for shp, axis, desc in (((5001,), 0, True), ((41, 70), 0, False)):
        a = _hard("uint8", int(np.prod(shp)), rng).reshape(shp)
        got_v, got_i = run_radix(wg.asarray(a), axis, desc)
        want = ref_argsort(a, axis, desc)
        np.testing.assert_array_equal(got_i, want)
        np.testing.assert_array_equal(got_v, np.take_along_axis(a, want.astype(np.intp), axis=axis))
