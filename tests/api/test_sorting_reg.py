"""The radix sort's register ranker (shaders/radix_scatter_reg.wgsl, the GPU scatter), forced on this adapter (lavapipe) through
``radix.GPU``/``radix.CPU`` as the GPU tests of test_sorting_radix.py do.  Reference: numpy's stable argsort
(stable descending: the stable argsort of the negated dense rank, NaNs one value, -0.0 == 0.0)."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from test_sorting_radix import ref_argsort, run_radix

import wgarray as wg
from wgarray.kernels import radix
from wgarray.ops import core as _ops

from strategies import assert_same

# invocations x keys an invocation (tiles of 256..1024 keys), two or three blocks at most (many tiles a block),
# the GPU default's 256 x 4 (its digit scan's chunks in registers, direct values-only sorts).
SHAPES = {"reg64x4": radix.Shape(wg=64, wide=256, max_blocks=3, tile=256),
          "reg32x16": radix.Shape(wg=32, wide=64, max_blocks=2, tile=512),
          "reg128x8": radix.Shape(wg=128, wide=256, max_blocks=2, tile=1024),
          "default": dataclasses.replace(radix.GPU, max_blocks=2, pair_blocks=3),
          # issue 18 phase 5's knobs together: prefetched tiles, segment bases in the scan, nibble counters, folded
          # pads
          "knobs64x4": radix.Shape(wg=64, wide=256, max_blocks=3, tile=256, prefetch=True,
                                   scan_bases=True, nibbles=True, fold_pad=True)}

_POOL = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 1.5, -1.5, 1e-30, -3e4, 7.0, 2.0 ** 40], dtype=np.float32)


def _force(monkeypatch, shape: radix.Shape) -> None:
    monkeypatch.setattr(radix, "CPU", shape)
    monkeypatch.setattr(radix, "GPU", shape)


def _check(a: np.ndarray, axis: int, desc: bool) -> None:
    got_v, got_i = run_radix(wg.asarray(a), axis, desc)
    want = ref_argsort(a, axis, desc)
    np.testing.assert_array_equal(got_i, want)
    assert_same(got_v, np.take_along_axis(a, want.astype(np.intp), axis=axis))


def test_forced_shapes_in_use(monkeypatch):
    """The forced shapes run as given here (they fit lavapipe's workgroup memory); a bad knob is refused."""
    # the H100 sweeps' fastest (gpu_results s23): 1024 blocks, pairs 4096, phase 6's pair knobs on
    g = radix.GPU
    assert (g.wg, g.items, g.max_blocks, g.dscan_regs, g.direct, g.prefetch, g.scan_bases, g.nibbles,
            g.fold_pad, g.pair_blocks, g.pair_dscan) == (256, 4, 1024, 4, True, True, True, True, True, 4096, 16)
    assert (g.stage, g.stage_keys, g.gen_index, g.direct_index) == (True,) * 4
    for shape in SHAPES.values():
        _force(monkeypatch, shape)
        assert radix._shape(wg.default_device()) == shape
        pairs = radix._shape(wg.default_device(), pairs=True)
        assert (pairs.max_blocks, pairs.dscan_regs) == (shape.pair_blocks or shape.max_blocks,
                                                        shape.pair_dscan or shape.dscan_regs)
    big = radix.Shape(wg=256, wide=256, max_blocks=2, tile=1 << 15)
    _force(monkeypatch, big)
    fit = radix._shape(wg.default_device())  # halved until they fit
    lim = wg.default_device().properties.limits.max_compute_workgroup_storage_size
    assert fit.scatter_bytes <= lim and fit.tile < big.tile
    with pytest.raises(ValueError):
        radix.Shape(wg=64, wide=256, max_blocks=2, stage=True)  # stage needs prefetch


# and every shape's float32; the other pairs are slow
_QUICK = {("reg32x16", "int64"), ("reg64x4", "uint8"), ("default", "int64")}


@pytest.mark.parametrize("shape,dtype", [pytest.param(s, d, marks=() if d == "float32" or (s, d) in _QUICK
                                                      else pytest.mark.slow)
                                         for s in SHAPES for d in ("float32", "int64", "uint8")])
def test_forced_shape_stable(monkeypatch, shape, dtype):
    """Many equal keys (stability), a partial last tile and several tiles a block, ascending and descending,
    values and indices, rows along either axis, and a values-only sort (keys recomputed from the payload)."""
    _force(monkeypatch, SHAPES[shape])
    rng = np.random.default_rng(11)
    pool = _POOL.astype(dtype) if dtype.startswith("float") else rng.integers(0, 200, 9).astype(dtype)
    for shp, axis, desc in (((2049,), 0, False), ((2049,), 0, True), ((3, 700), 1, True), ((37, 61), 0, False)):
        _check(pool[rng.integers(0, len(pool), int(np.prod(shp)))].reshape(shp), axis, desc)
    a = pool[rng.integers(0, len(pool), 1500)]
    x = wg.asarray(a)
    out = _ops.new_array(x.shape, x.dtype, x.device)
    radix.run(x.device, x, 0, True, out, None)
    assert_same(out.numpy(), a[ref_argsort(a, 0, True)])


@settings(deadline=None, max_examples=15)
@given(n=st.sampled_from([1, 2, 7, 8, 9, 255, 256, 257, 511, 512, 513, 767, 1023, 1025, 1537]),
       distinct=st.integers(1, 12), desc=st.booleans(), seed=st.integers(0, 2 ** 31 - 1),
       shape=st.sampled_from(sorted(SHAPES)))
def test_forced_shape_property(n, distinct, desc, seed, shape):
    """Lengths around invocation, tile and block boundaries; few distinct keys (NaN, -0.0/0.0, inf among them)."""
    rng = np.random.default_rng(seed)
    pool = rng.choice(_POOL, size=distinct)
    a = pool[rng.integers(0, distinct, n)]
    saved = radix.GPU, radix.CPU
    radix.GPU = radix.CPU = dataclasses.replace(SHAPES[shape], max_blocks=1 + seed % 3)
    try:
        _check(a, 0, desc)
    finally:
        radix.GPU, radix.CPU = saved


def test_reg_ranker_public_api(monkeypatch):
    """wg.sort / wg.argsort / unique through the forced ranker (rows longer than 1024 take the radix sort)."""
    _force(monkeypatch, SHAPES["reg32x16"])
    rng = np.random.default_rng(12)
    a = _POOL[rng.integers(0, len(_POOL), 3001)]
    x = wg.asarray(a)
    np.testing.assert_array_equal(wg.argsort(x).numpy(), np.argsort(a, kind="stable"))
    assert_same(wg.sort(x).numpy(), a[np.argsort(a, kind="stable")])
    b = rng.integers(-50, 50, 3001).astype(np.int32)
    np.testing.assert_array_equal(wg.unique_values(wg.asarray(b)).numpy(), np.unique(b))


def test_reg_scatter_has_no_private_arrays():
    """The reg scatter keeps an invocation's state in named scalars/vectors: every array is a binding or in
    workgroup memory (private arrays indexed in loops spill to local memory on NVIDIA's Vulkan stack)."""
    import re

    from wgarray import dtypes as dt
    shp = radix.Shape(wg=256, wide=256, max_blocks=4096, tile=4096)
    text = radix._build_scatter(dt.uint32, shp, None).source()
    assert "rx_pad(base + 15u)" in text  # 16 keys an invocation, unrolled
    arrays = re.findall(r"var(<[^>]*>)?\s+\w+\s*:\s*array", text)
    assert arrays and all(a.startswith(("<workgroup", "<storage")) for a in arrays), arrays


@pytest.mark.parametrize("n", [4500, 6400, 8320])
def test_dscan_regs(monkeypatch, n):
    """Shape.dscan_regs: the digit scan's chunks held in registers (65-130 blocks of 64 keys over 64 invocations:
    chunks of 2 held, of 3 past the 2 registers scanned in the loops), stable against numpy."""
    shp = radix.Shape(wg=32, wide=64, max_blocks=200, tile=64, dscan_regs=2)
    _force(monkeypatch, shp)
    assert "c1 = counts[lo + 1u]" in radix._build_dscan(64, 2).source()
    rng = np.random.default_rng(n)
    a = rng.integers(-300, 300, n).astype(np.int32)
    np.testing.assert_array_equal(wg.argsort(wg.asarray(a)).numpy(), np.argsort(a, kind="stable"))
    b = _POOL[rng.integers(0, len(_POOL), n)]
    assert_same(wg.sort(wg.asarray(b)).numpy(), b[np.argsort(b, kind="stable")])


@pytest.mark.parametrize("dtype", ["float32", "int32", "uint32"])
def test_direct_values_sort(monkeypatch, dtype):
    """Shape.direct: a values-only sort of one 32-bit row into a fresh contiguous output runs its passes there and
    records no gather; strided outputs and rows still gather (an argsort of one row does not: the default's
    direct_index).  Against numpy's sort (NaNs last)."""
    _force(monkeypatch, dataclasses.replace(radix.GPU, max_blocks=3, pair_blocks=0, direct=True))
    from wgarray.kernels import sort as _sort
    gathers = []
    real = _sort.gather
    monkeypatch.setattr(_sort, "gather", lambda *a, **k: (gathers.append(1), real(*a, **k)))
    rng = np.random.default_rng(5)
    pool = _POOL.astype(dtype) if dtype == "float32" else rng.integers(0, 2 ** 31, 9).astype(dtype)
    for n in (1025, 3000):  # rows longer than 1024 take the radix sort
        a = pool[rng.integers(0, len(pool), n)]
        assert_same(wg.sort(wg.asarray(a)).numpy(), a[np.argsort(a, kind="stable")])
        assert_same(wg.sort(wg.asarray(a), descending=True).numpy(), a[ref_argsort(a, 0, True)])
    x = wg.asarray(pool[:1])
    out = _ops.new_array(x.shape, x.dtype, x.device)
    radix.run(x.device, x, 0, False, out, None)  # one element: no pass, the output holds the init's payload
    assert_same(out.numpy(), pool[:1])
    assert not gathers
    a = pool[rng.integers(0, len(pool), 2000)]
    x = wg.asarray(a)
    out = _ops.new_array((4000,), x.dtype, x.device)
    radix.run(x.device, x, 0, False, out[::2], None)  # strided: gathered
    assert_same(out.numpy()[::2], a[np.argsort(a, kind="stable")])
    x.sort()  # in place: a fresh result assigned back
    assert_same(x.numpy(), a[np.argsort(a, kind="stable")])
    b = a.reshape(2, 1000)
    assert_same(wg.sort(wg.asarray(b), axis=1).numpy(),
                np.take_along_axis(b, np.argsort(b, axis=1, kind="stable"), axis=1))
    np.testing.assert_array_equal(wg.argsort(wg.asarray(a)).numpy(), np.argsort(a, kind="stable"))
    assert len(gathers) == 2


def test_stats_fold_over_many_blocks(monkeypatch):
    """The statistics fold 130 blocks' partials over 32 invocations (5 rounds): the device plan equals
    plan_passes with the extreme key in the last block, the first block or elsewhere; int64 keys (u64 partials)
    and sorts against numpy."""
    _force(monkeypatch, radix.Shape(wg=32, wide=32, max_blocks=130, tile=64))
    dev = wg.default_device()
    n = 130 * 64
    for at in (n - 1, 0, 4321):
        v = np.full(n, 0x300, dtype=np.uint32)
        v[at], v[(at + 77) % n] = 0x7F0000, 0x5
        o, a = np.bitwise_or.reduce(v), np.bitwise_and.reduce(v)
        want = radix.plan_passes(4, int(v.min()), int(v.max()), int(o), int(a), 8)
        assert radix.device_plan(dev, wg.asarray(v), 0, False) == want
        np.testing.assert_array_equal(wg.sort(wg.asarray(v)).numpy(), np.sort(v))
    b = np.random.default_rng(3).integers(-2 ** 40, 2 ** 40, n)
    np.testing.assert_array_equal(wg.argsort(wg.asarray(b)).numpy(), np.argsort(b, kind="stable"))


def test_reg_shape_limits():
    # the reg ranker's per-invocation digit counts are bytes and its scan packs two counts into 16-bit halves:
    # shapes beyond those refuse at construction rather than sort wrongly on a device with enough workgroup memory
    with pytest.raises(ValueError, match="255 keys an invocation"):
        radix.Shape(wg=32, wide=256, max_blocks=64, tile=8192)
    with pytest.raises(ValueError, match="32768 a tile"):
        radix.Shape(wg=256, wide=256, max_blocks=64, tile=65536)
    radix.Shape(wg=256, wide=256, max_blocks=64, tile=32768)  # 128 keys an invocation: fine


_KNOB_MARK = {"prefetch": "pi3 = rx_idx_at(t0 + 1024u + 768u + lid)", "scan_bases": "rx_base[lid] =",
              "nibbles": "cb = cb + select(0u, i3, u3)", "fold_pad": "sc[(d3 & 7u) * 264u + pl]"}


@pytest.mark.parametrize("knob", sorted(_KNOB_MARK))
def test_phase5_knob(monkeypatch, knob):
    """Each of Shape.prefetch / scan_bases / nibbles / fold_pad alone on the GPU default shape (3 blocks of several tiles; the
    generated text has the knob's code): values and indices (stored keys: float32, int64), a values-only sort
    (keys from the payload), rows (row passes read the payload), NaN/-0.0/ties, both orders, against numpy."""
    alone = dict(prefetch=False, scan_bases=False, nibbles=False, fold_pad=False, stage=False, stage_keys=False)
    shp = dataclasses.replace(radix.GPU, max_blocks=3, pair_blocks=0, **{**alone, knob: True})
    _force(monkeypatch, shp)
    for carried in (None, ("float32", False)):
        text = radix._build_scatter(wg.uint32, shp, carried).source()
        assert _KNOB_MARK[knob] in text
        off = dataclasses.replace(shp, **{knob: False})
        assert _KNOB_MARK[knob] not in radix._build_scatter(wg.uint32, off, carried).source()
    rng = np.random.default_rng(21)
    for dtype, cases in (("float32", (((3100,), 0, False), ((3100,), 0, True), ((3, 1100), 1, True))),
                         ("int64", (((3100,), 0, True), ((40, 61), 0, False)))):
        pool = _POOL.astype(dtype) if dtype == "float32" else rng.integers(-2 ** 40, 2 ** 40, 9)
        for shp_, axis, desc in cases:
            _check(pool[rng.integers(0, len(pool), int(np.prod(shp_)))].reshape(shp_), axis, desc)
    a = rng.standard_normal(3100).astype(np.float32)
    a[::7] = -0.0
    a[::11] = np.nan
    a[::13] = 0.0
    for desc in (False, True):
        assert_same(wg.sort(wg.asarray(a), descending=desc).numpy(), a[ref_argsort(a, 0, desc)])


@pytest.mark.slow
def test_fold_pad_narrow(monkeypatch):
    """Shape.fold_pad with 16 invocations: only the runs' pads fold (k * 16 + lid crosses 32-word boundaries)."""
    shp = radix.Shape(wg=16, wide=64, max_blocks=3, tile=128, prefetch=True, scan_bases=True,
                      nibbles=True, fold_pad=True)
    _force(monkeypatch, shp)
    text = radix._build_scatter(wg.uint32, shp, None).source()
    assert "let pb = rx_pad(base)" in text and "let pl" not in text and "+ pl]" not in text
    rng = np.random.default_rng(3)
    for shp_, axis, desc in (((2049,), 0, False), ((3, 700), 1, True)):
        _check(_POOL[rng.integers(0, len(_POOL), int(np.prod(shp_)))].reshape(shp_), axis, desc)


@pytest.mark.parametrize("shape", ["gpu", "cpu"])
def test_gen_index_direct_index(monkeypatch, shape):
    """Shape.gen_index (the init writes no index, the first key pass takes e itself) and Shape.direct_index (an
    argsort of one row runs its passes' payload in its whole contiguous output: no gather), alone and together:
    argsorts of stored keys (float32 NaN/-0.0/ties, int64), equal keys (one pass, then the copy), one element,
    rows (row passes read the generated index), both orders, against numpy's stable argsort."""
    base = {"gpu": dataclasses.replace(radix.GPU, max_blocks=3, pair_blocks=0),
            "cpu": dataclasses.replace(radix.CPU, max_blocks=3)}[shape]
    from wgarray.kernels import sort as _sort
    gathers = []
    real = _sort.gather
    monkeypatch.setattr(_sort, "gather", lambda *a, **k: (gathers.append(1), real(*a, **k)))
    rng = np.random.default_rng(17)
    a = rng.standard_normal(3100).astype(np.float32)
    a[::7], a[::11], a[::13] = -0.0, np.nan, 0.0
    cases = [a, np.full(2100, 7, np.float32), a[:1], rng.integers(-2 ** 40, 2 ** 40, 2500)]
    for gen, direct in ((True, False), (False, True), (True, True)):
        _force(monkeypatch, dataclasses.replace(base, gen_index=gen, direct_index=direct))
        del gathers[:]
        for v in cases:
            for desc in (False, True):
                np.testing.assert_array_equal(wg.argsort(wg.asarray(v), descending=desc).numpy(),
                                              ref_argsort(v, 0, desc))
        # on a GPU a row of at most BITONIC_MAX (here the one element) takes the bitonic network, which gathers
        bitonic = 0 if wg.default_device().properties.adapter_type == "CPU" else \
            sum(len(v) <= _sort.BITONIC_MAX for v in cases)
        assert len(gathers) == 2 * bitonic + (0 if direct else 2 * (len(cases) - bitonic))
        _check(a[:3000].reshape(3, 1000), 1, True)  # rows: gathered
        _check(a[:3000].reshape(30, 100), 0, False)


@pytest.mark.parametrize("gen,keys", [(False, False), (True, True), (False, True)])
def test_stage(monkeypatch, gen, keys):
    """Shape.stage (with prefetch): every pass's payload prefetched, held through the ranking and staged in tb (sc
    for stage_keys' 32-bit keys); the writes read no global payload.  Several tiles a block (4 x 256, 3 blocks):
    argsort (stored keys float32 with NaN/-0.0/ties, int64), a values-only sort (carried bits), rows (row passes),
    both orders, with and without gen_index (the first pass's staged payload generated), with and without
    stage_keys (a key pass's stored keys staged: uint32 and int64 keys), against numpy."""
    with pytest.raises(ValueError, match="prefetch"):
        radix.Shape(wg=64, wide=256, max_blocks=3, tile=256, stage=True)
    with pytest.raises(ValueError, match="stage"):
        radix.Shape(wg=64, wide=256, max_blocks=3, tile=256, prefetch=True, stage_keys=True)
    shp = radix.Shape(wg=64, wide=256, max_blocks=3, tile=256, prefetch=True, stage=True,
                      stage_keys=keys, gen_index=gen, fold_pad=gen)
    _force(monkeypatch, shp)
    text = radix._build_scatter(wg.uint32, shp, None).source()
    pad3 = "3u * 66u + pl" if gen else "rx_pad(j3)"  # fold_pad with gen
    assert f"tb[{pad3}] = si3;" in text and "idx_out[dest] = tb[rx_pad(o3 & 0xffffu)];" in text
    assert ("keys_out[dest] = sc[rx_pad(o3 & 0xffffu)];" in text) == keys
    assert f"sc[{pad3}] = sk3;" not in radix._build_scatter(wg.uint32, shp, ("float32", False)).source()
    assert f"sc[{pad3}] = sk3;" not in radix._build_scatter(wg.uint64, shp, None).source()  # 64-bit: not staged
    assert shp.scatter_bytes == dataclasses.replace(shp, stage=False, stage_keys=False).scatter_bytes
    assert "rx_payload(at)" in radix._build_scatter(wg.uint32, dataclasses.replace(shp, stage=False, stage_keys=False),
                                                None).source()
    rng = np.random.default_rng(23)
    a = rng.standard_normal(3100).astype(np.float32)
    a[::7], a[::11], a[::13] = -0.0, np.nan, 0.0
    b = rng.integers(-2 ** 40, 2 ** 40, 9)[rng.integers(0, 9, 2900)]
    for v, axis, desc in ((a, 0, False), (a, 0, True), (b, 0, True), (a[:3000].reshape(3, 1000), 1, False),
                          (b[:2900].reshape(29, 100), 0, True)):
        _check(v, axis, desc)
    for desc in (False, True):
        assert_same(wg.sort(wg.asarray(a), descending=desc).numpy(), a[ref_argsort(a, 0, desc)])
