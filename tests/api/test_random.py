"""wg.random: Philox4x32-10 known answers, reproducibility across devices and launch splits, distribution tests
with fixed seeds, and numpy's exceptions for bad input.

Statistical tests use fixed seeds, so they pass or fail deterministically; each is a real test of the law (a
broken transform fails it).  Significance level alpha = 0.001 throughout; the critical values are the asymptotic
ones (Kolmogorov: sqrt(-ln(alpha/2)/2)/sqrt(n) = 1.949/sqrt(n); chi-square: Wilson-Hilferty's approximation of the
upper quantile), sample sizes are given per test.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

import wgarray as wg
from wgarray import random as wr

ALPHA = 0.001
Z_ALPHA = 3.090  # upper 0.001 quantile of the standard normal


# -- a host reference of Philox4x32-10 (the test's oracle: Random123's specification) ----------------------------
def _philox_ref(ctr, key, rounds=10):
    c, k = list(ctr), list(key)
    m = 0xFFFFFFFF
    for r in range(rounds):
        if r:
            k = [(k[0] + 0x9E3779B9) & m, (k[1] + 0xBB67AE85) & m]
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & m, (p0 >> 32) ^ c[3] ^ k[1], p0 & m]
    return c


def _bits(key, counter, n, device=None):
    """Raw 32-bit draws (element e = word e % 4 of block counter + e // 4)."""
    g = wr.Generator(wr.Philox(key=key, counter=counter))
    dev = device or wg.default_device()
    return g._draw("random_bits", (n,), wg.uint32, [], dev).numpy()


# Random123's published known-answer vectors for philox4x32-10 (kat_vectors): counter, key -> output
KAT = [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((0xFFFFFFFF,) * 4, (0xFFFFFFFF,) * 2, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
     (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
]


@pytest.mark.parametrize("ctr,key,want", KAT)
def test_philox_known_answers(ctr, key, want):
    """The device's Philox4x32-10 block and the host reference both give Random123's values.  (numpy's
    ``np.random.Philox`` is the 4x64 variant, so its raw output cannot serve as the oracle here.)"""
    assert tuple(_philox_ref(ctr, key)) == want
    assert tuple(int(v) for v in _bits(key, ctr, 4)) == want


@given(st.integers(0, 2**64 - 1), st.integers(0, 2**128 - 1), st.integers(1, 40))
def test_philox_matches_reference(key, counter, n):
    """Random keys and counters (carries across all four counter words included) against the host reference."""
    got = _bits(key, counter, n)
    kw = (key & 0xFFFFFFFF, key >> 32)
    want = []
    for b in range(-(-n // 4)):
        c = (counter + b) % 2**128
        want += _philox_ref([(c >> (32 * k)) & 0xFFFFFFFF for k in range(4)], kw)
    np.testing.assert_array_equal(got, np.array(want[:n], dtype=np.uint32))


# -- reproducibility --------------------------------------------------------------------------------------------
def _all_draws(dev, seed=7):
    g = wr.default_rng(seed)
    out = [g.random(1001, dtype=wg.float32, device=dev), g.standard_normal(1003, dtype=wg.float32, device=dev),
           g.exponential(2.0, 999, dtype=wg.float32, device=dev), g.integers(-7, 1000, 1005, dtype=wg.int32,
                                                                              device=dev),
           g.integers(0, 200, 77, dtype=wg.uint8, device=dev), g.permutation(300, device=dev)]
    if dev.supports(wg.float64):
        out += [g.random(1001, device=dev), g.normal(1.0, 3.0, 1001, device=dev), g.exponential(size=501, device=dev)]
    if dev.supports(wg.int64):
        out += [g.integers(-2**62, 2**63 - 1, 1001, dtype=wg.int64, device=dev),
                g.integers(0, 2**64 - 1, 33, dtype=wg.uint64, endpoint=True, device=dev)]
    return [a.numpy() for a in out], g.bit_generator.counter


@pytest.fixture(scope="module")
def small():
    return wg.open_device(binding_limit=4096)


def test_same_bits_on_another_device_and_split_launches(dev, small):
    """The same seed gives bit-identical draws on a second device and on a device that binds 4 KiB at most
    (outputs beyond 1024 elements are written by several dispatches), and advances the counter alike."""
    base, c0 = _all_draws(dev)
    other = wg.open_device()
    try:
        for dv in (other, small):
            got, c1 = _all_draws(dv)
            assert c1 == c0
            for a, b in zip(base, got):
                assert a.dtype == b.dtype
                np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))
    finally:
        other.close()
    before = small.stats().dispatches
    wr.default_rng(1).random(5000, dtype=wg.float32, device=small)
    small.synchronize()
    assert small.stats().dispatches - before > 1  # the draw really was split


@pytest.mark.parametrize("method,dtype,per", [("random", "float32", 4), ("random", "float64", 2),
                                              ("standard_normal", "float32", 4), ("standard_normal", "float64", 2),
                                              ("standard_exponential", "float32", 4)])
def test_calls_concatenate(dev, method, dtype, per):
    """Two draws of n (a multiple of the elements a block holds) equal one draw of 2n: the counter advances by
    the blocks consumed, whatever the split."""
    d = getattr(wg, dtype)
    if not dev.supports(d):
        pytest.skip("needs float64")
    n = 64 * per + per
    g1, g2 = wr.default_rng(11), wr.default_rng(11)
    whole = getattr(g1, method)(2 * n, dtype=d).numpy()
    parts = np.concatenate([getattr(g2, method)(n, dtype=d).numpy(), getattr(g2, method)(n, dtype=d).numpy()])
    np.testing.assert_array_equal(whole, parts)
    assert g1.bit_generator.counter == g2.bit_generator.counter == 2 * n // per
    # and consecutive calls give fresh numbers
    g3 = wr.default_rng(11)
    a, b = getattr(g3, method)(n, dtype=d).numpy(), getattr(g3, method)(n, dtype=d).numpy()
    assert not np.array_equal(a, b)


def test_seeding_and_spawn():
    a, b = wr.default_rng(5), wr.default_rng(5)
    np.testing.assert_array_equal(a.random(10, dtype=wg.float32).numpy(), b.random(10, dtype=wg.float32).numpy())
    key = tuple(int(w) for w in np.random.SeedSequence(5).generate_state(2, np.uint32))
    assert a.bit_generator.key == key
    c1, c2 = a.spawn(2)
    x1, x2 = c1.random(64, dtype=wg.float32).numpy(), c2.random(64, dtype=wg.float32).numpy()
    assert not np.array_equal(x1, x2)
    d1, _ = wr.default_rng(5).spawn(2)
    np.testing.assert_array_equal(d1.random(64, dtype=wg.float32).numpy(), x1)
    assert not np.array_equal(wr.default_rng(6).random(8, dtype=wg.float32).numpy(),
                              wr.default_rng(5).random(8, dtype=wg.float32).numpy())
    assert wr.default_rng(a) is a
    assert wr.default_rng().bit_generator.key != wr.default_rng().bit_generator.key  # fresh entropy


def test_shapes_and_dtypes(dev):
    g = wr.default_rng(0)
    fdt = wg.float64 if dev.supports(wg.float64) else wg.float32
    idt = wg.int64 if dev.supports(wg.int64) else wg.int32
    r = g.random()
    assert r.shape == () and r.dtype == fdt  # size=None: a 0-d array (numpy: a Python float)
    assert g.random((2, 3, 0)).shape == (2, 3, 0)
    assert g.normal(size=(4, 5)).shape == (4, 5)
    assert g.integers(5, size=(3,)).dtype == idt
    assert g.integers(5, size=7, dtype=wg.uint16).dtype == wg.uint16
    assert g.integers(0, 2, size=7, dtype=wg.bool).dtype == wg.bool
    assert g.permutation(5).dtype == idt
    assert g.choice(5, size=(2, 2)).shape == (2, 2)
    x = wg.asarray(np.arange(12).reshape(6, 2))
    c = g.choice(x, size=(2, 3), replace=False)
    assert c.shape == (2, 3, 2)
    rows = c.numpy().reshape(-1, 2)
    assert len({tuple(r) for r in rows}) == 6 and all(r[1] == r[0] + 1 for r in rows)


def test_value_ranges(dev):
    g = wr.default_rng(3)
    u = g.random(4096, dtype=wg.float32).numpy()
    assert u.min() >= 0 and u.max() < 1 and np.all(u * 2**24 == np.floor(u * 2**24))
    v = g.uniform(-2.0, 5.0, 4096, dtype=wg.float32).numpy()
    assert v.min() >= -2 and v.max() <= 5
    e = g.exponential(3.0, 4096, dtype=wg.float32).numpy()
    assert e.min() >= 0 and np.isfinite(e).all()
    z = g.standard_normal(4096, dtype=wg.float32).numpy()
    assert np.isfinite(z).all() and np.abs(z).max() < 6.8
    for lo, hi, d in [(-128, 127, wg.int8), (0, 65535, wg.uint16), (-2**31, 2**31 - 1, wg.int32),
                      (0, 2**32 - 1, wg.uint32), (5, 5, wg.int32)]:
        k = g.integers(lo, hi, 2000, dtype=d, endpoint=True).numpy()
        assert k.min() >= lo and k.max() <= hi
    if dev.supports(wg.int64):
        k = g.integers(-2**63, 2**63 - 1, 2000, dtype=wg.int64, endpoint=True).numpy()
        assert k.min() < -2**61 and k.max() > 2**61  # the full range is reached
        k = g.integers(2**40, 2**40 + 3, 2000, dtype=wg.uint64).numpy()
        assert set(k.tolist()) == {2**40, 2**40 + 1, 2**40 + 2}


# -- statistics ---------------------------------------------------------------------------------------------------
def _ks(sample, cdf):
    x = np.sort(np.asarray(sample, dtype=np.float64))
    n = len(x)
    f = cdf(x)
    return max((np.arange(1, n + 1) / n - f).max(), (f - np.arange(n) / n).max())


def _ks_critical(n):
    return math.sqrt(-math.log(ALPHA / 2) / 2) / math.sqrt(n)


def _normal_cdf(x):
    return 0.5 * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))


def _chi2_critical(df):
    """Wilson-Hilferty: the upper-alpha quantile of chi-square with df degrees of freedom."""
    return df * (1 - 2 / (9 * df) + Z_ALPHA * math.sqrt(2 / (9 * df))) ** 3


def _chi2(counts, expected):
    counts, expected = np.asarray(counts, float), np.asarray(expected, float)
    return float(((counts - expected) ** 2 / expected).sum())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_ks_uniform_normal_exponential(dev, dtype):
    """Kolmogorov-Smirnov at alpha = 0.001, n = 20000 each: uniform(-1, 3), normal(2, 0.5), exponential(1.5).
    The same test rejects a wrong law (the uniform sample against a normal CDF)."""
    d = getattr(wg, dtype)
    if not dev.supports(d):
        pytest.skip("needs float64")
    g = wr.default_rng(20240)
    n = 20000
    u = g.uniform(-1.0, 3.0, n, dtype=d).numpy()
    z = g.normal(2.0, 0.5, n, dtype=d).numpy()
    e = g.exponential(1.5, n, dtype=d).numpy()
    crit = _ks_critical(n)
    assert _ks(u, lambda x: np.clip((x + 1) / 4, 0, 1)) < crit
    assert _ks(z, lambda x: _normal_cdf((x - 2.0) / 0.5)) < crit
    assert _ks(e, lambda x: 1 - np.exp(-x / 1.5)) < crit
    assert _ks(u, lambda x: _normal_cdf((x - 1.0) / 1.2)) > crit  # the test has power


def test_normal_pairs_independent(dev):
    """Box-Muller's two outputs of a pair are uncorrelated: |corr| < 4/sqrt(n), n = 20000 pairs."""
    z = wr.default_rng(8).standard_normal(40000, dtype=wg.float32).numpy().reshape(-1, 2)
    assert abs(np.corrcoef(z[:, 0], z[:, 1])[0, 1]) < 4 / math.sqrt(len(z))


@pytest.mark.parametrize("lo,hi,dtype", [(0, 10, "int32"), (-3, 17, "int8"), (0, 7, "uint32"), (-50, 50, "int64")])
def test_chi2_integers(dev, lo, hi, dtype):
    """Chi-square at alpha = 0.001, n = 30000 draws over hi - lo categories."""
    d = getattr(wg, dtype)
    if not dev.supports(d):
        pytest.skip("needs int64")
    n = 30000
    k = wr.default_rng(99).integers(lo, hi, n, dtype=d).numpy().astype(np.int64)
    counts = np.bincount(k - lo, minlength=hi - lo)
    assert len(counts) == hi - lo
    assert _chi2(counts, np.full(hi - lo, n / (hi - lo))) < _chi2_critical(hi - lo - 1)


def test_integers_unbiased_for_large_range():
    """A range just above 2^31 (Lemire's rejection matters most near 2^32 / 2): the low and high halves of the
    range are equally likely (binomial z-score < 3.3, n = 40000)."""
    r = 3 * 2**30
    k = wr.default_rng(4).integers(0, r, 40000, dtype=wg.uint32).numpy().astype(np.int64)
    for cut in (r // 3, r // 2, 2 * r // 3):
        frac = (k < cut).mean()
        p = cut / r
        assert abs(frac - p) / math.sqrt(p * (1 - p) / len(k)) < 3.3


def test_chi2_choice_with_p(dev):
    """choice with p= (inverse CDF on the device): chi-square at alpha = 0.001, n = 30000 draws, 6 categories
    (one of probability 0, which must never be drawn)."""
    p = np.array([0.1, 0.25, 0.0, 0.3, 0.05, 0.3])
    n = 30000
    k = wr.default_rng(5).choice(6, n, p=p).numpy()
    counts = np.bincount(k, minlength=6)
    assert counts[2] == 0
    keep = p > 0
    assert _chi2(counts[keep], n * p[keep]) < _chi2_critical(int(keep.sum()) - 1)
    # float32 p on any device
    k32 = wr.default_rng(5).choice(6, n, p=wg.asarray(p.astype(np.float32))).numpy()
    assert np.bincount(k32, minlength=6)[2] == 0


def test_choice_without_replacement_with_p(dev):
    """Exponential race (Gumbel-top-k): every sample distinct, zero-p entries never drawn, and first picks
    follow p (chi-square at alpha = 0.001, 200 calls of size 1)."""
    p = np.array([0.5, 0.2, 0.0, 0.3])
    g = wr.default_rng(12)
    for _ in range(3):
        s = g.choice(4, 3, replace=False, p=p).numpy()
        assert len(set(s.tolist())) == 3 and 2 not in s
    with pytest.raises(ValueError, match="non-zero"):
        g.choice(4, 4, replace=False, p=p)
    # the first pick of the race follows p exactly
    firsts = [int(g.choice(4, 1, replace=False, p=p).numpy()[0]) for _ in range(200)]
    counts = np.bincount(firsts, minlength=4)
    assert counts[2] == 0
    keep = p > 0
    assert _chi2(counts[keep], 200 * p[keep]) < _chi2_critical(2)


def test_permutation_uniform(dev):
    """Uniform permutations: (1) in one permutation of 4n = 9600 elements, the relative order of the values in
    each block of 4 consecutive positions is one of 24 orders, equally likely (blocks are exchangeable and nearly
    independent): chi-square at alpha = 0.001 over 24 categories, n = 2400 blocks; (2) the first element of
    permutation(5) over 100 calls: chi-square at alpha = 0.001 over 5 categories."""
    g = wr.default_rng(2024)
    n = 2400
    perm = g.permutation(4 * n).numpy().reshape(n, 4)
    codes = np.argsort(perm, axis=1) @ np.array([64, 16, 4, 1])
    counts = np.unique(codes, return_counts=True)[1]
    assert len(counts) == 24
    assert _chi2(counts, np.full(24, n / 24)) < _chi2_critical(23)
    first = np.bincount([int(g.permutation(5).numpy()[0]) for _ in range(100)], minlength=5)
    assert _chi2(first, np.full(5, 20)) < _chi2_critical(4)


def test_permutation_shuffle_choice_values(dev):
    g = wr.default_rng(1)
    p = g.permutation(1000).numpy()
    assert sorted(p.tolist()) == list(range(1000))
    x = wg.asarray(np.arange(30, dtype=np.float32).reshape(10, 3))
    y = g.permutation(x).numpy()
    assert sorted(y[:, 0].tolist()) == list(range(0, 30, 3)) and np.all(y[:, 1] == y[:, 0] + 1)
    g.shuffle(x)
    xs = x.numpy()
    assert sorted(xs[:, 0].tolist()) == list(range(0, 30, 3)) and np.all(xs[:, 2] == xs[:, 0] + 2)
    assert not np.array_equal(xs, np.arange(30).reshape(10, 3))
    s = g.choice(50, 50, replace=False).numpy()
    assert sorted(s.tolist()) == list(range(50))
    a = g.choice(wg.asarray(np.array([10, 20, 30])), 100).numpy()
    assert set(a.tolist()) <= {10, 20, 30} and len(set(a.tolist())) == 3
    assert g.permutation(0).shape == (0,)
    assert g.choice(3, 0).shape == (0,)


# -- bad input ---------------------------------------------------------------------------------------------------
def test_bad_input(dev):
    g = wr.default_rng(0)
    with pytest.raises(ValueError):
        g.integers(5, 5)
    with pytest.raises(ValueError):
        g.integers(5, 4, endpoint=True)
    with pytest.raises(ValueError, match="out of bounds"):
        g.integers(0, 300, dtype=wg.uint8)
    with pytest.raises(ValueError, match="out of bounds"):
        g.integers(-1, 3, dtype=wg.uint8)
    with pytest.raises(TypeError):
        g.integers(0.5, 3)
    with pytest.raises(TypeError):
        g.integers(0, 3, dtype=wg.float32)
    with pytest.raises(TypeError):
        g.random(3, dtype=wg.int32)
    with pytest.raises(ValueError, match="scale"):
        g.normal(0, -1.0)
    with pytest.raises(ValueError, match="scale"):
        g.exponential(-2.0)
    with pytest.raises(ValueError, match="sum to 1"):
        g.choice(3, p=[0.5, 0.4, 0.2])
    with pytest.raises(ValueError, match="non-negative"):
        g.choice(3, p=[1.5, -0.5, 0.0])
    with pytest.raises(ValueError, match="NaN"):
        g.choice(2, p=[float("nan"), 1.0])
    with pytest.raises(ValueError, match="same size"):
        g.choice(3, p=[0.5, 0.5])
    with pytest.raises(ValueError, match="larger sample"):
        g.choice(3, 4, replace=False)
    with pytest.raises(ValueError):
        g.choice(0, 2)
    with pytest.raises(ValueError):
        g.random(-1)
    with pytest.raises(OverflowError):
        g.uniform(-1e308, 1e308)
    with pytest.raises(IndexError):
        g.permutation(wg.asarray(3.0))
    before = g.bit_generator.counter
    with pytest.raises(ValueError):
        g.normal(0, -1.0, 10)
    assert g.bit_generator.counter == before  # a refused call draws nothing
    assert g.random(3, dtype=wg.float32).shape == (3,)  # the device is still usable


def test_device_without_float64_int64():
    """On an adapter without shader-f64 / shader-int64 the defaults are float32 / int32 and asking for the
    wide dtypes raises TypeError naming the feature."""
    names = [a for a in wg.adapters() if "shader-f64" not in wg.adapter_properties(a).features]
    if not names:
        pytest.skip("every adapter here offers shader-f64")
    try:
        d = wg.open_device(names[0])
    except RuntimeError as e:  # the H200 host's OpenGL adapter refuses a device
        pytest.skip(f"the adapter without shader-f64 does not open here: {e}")
    try:
        g = wr.default_rng(0)
        assert g.random(3, device=d).dtype == wg.float32
        with pytest.raises(TypeError, match="shader-f64"):
            g.random(3, dtype=wg.float64, device=d)
        base = wr.default_rng(0).random(9, dtype=wg.float32).numpy()
        np.testing.assert_array_equal(wr.default_rng(0).random(9, dtype=wg.float32, device=d).numpy(), base)
    finally:
        d.close()
