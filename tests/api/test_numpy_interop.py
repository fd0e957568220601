"""numpy's protocols (NEP 13 ufuncs, NEP 18 functions), numpy's extra functions and array methods, against numpy.

Oracles: numpy on the same values, bit for bit where the composition is exact (selections, sorts, counts,
integer results) and within float32 tolerances where sums or products round in another order."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import wgarray as wg
from wgarray.api import interop

from strategies import assert_same, flushes_subnormals, shapes, view_of

FAST = settings(max_examples=15, deadline=None)


def floats(shape_st=None, nan=True):
    shape_st = shape_st or shapes(max_dims=3, max_side=5)
    sub = not flushes_subnormals()  # a device that flushes them promises nothing for them (README)
    return shape_st.flatmap(lambda s: hnp.arrays(np.float32, s, elements=st.floats(
        -100, 100, width=32, allow_nan=False, allow_subnormal=sub) if not nan else st.one_of(
        st.floats(-100, 100, width=32, allow_subnormal=sub), st.just(np.float32("nan")))))


def close(got, want, rtol=2e-5, atol=1e-5):
    g = got.get() if isinstance(got, wg.Array) else np.asarray(got)
    want = np.asarray(want)
    assert g.shape == want.shape, (g.shape, want.shape)
    np.testing.assert_allclose(g.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True)


# -- NEP 13 -------------------------------------------------------------------------------------------------------
@FAST
@given(data=st.data(), name=st.sampled_from(sorted(
    n for n in interop.UFUNCS if isinstance(getattr(np, n, None), np.ufunc) and getattr(np, n).nin == 1
    and n not in ("conj", "conjugate"))))
def test_unary_ufuncs_run_the_elementwise_table(dev, data, name):
    h = data.draw(floats(nan=False), label="x")
    x, h = data.draw(view_of(h, wg.float32), label="view")
    uf = getattr(np, name)
    if name in ("invert", "bitwise_not", "bitwise_invert", "logical_not"):
        h = h > 0
        x = wg.asarray(h)
    try:
        want = uf(h)
    except TypeError:
        with pytest.raises(TypeError):
            uf(x)
        return
    with np.errstate(all="ignore"):
        want = uf(h)
    got = uf(x)
    assert isinstance(got, wg.Array)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    close(got, want, rtol=1e-5, atol=1e-6)


@FAST
@given(a=floats(), b=floats(), name=st.sampled_from(["add", "subtract", "multiply", "true_divide", "maximum",
                                                      "minimum", "fmax", "fmin", "power", "arctan2", "hypot",
                                                      "greater", "equal", "logical_and"]))
def test_binary_ufuncs_broadcast_and_upload_numpy_operands(dev, a, b, name):
    try:
        np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        return
    uf = getattr(np, name)
    with np.errstate(all="ignore"):
        want = uf(a, b)
    got = uf(wg.asarray(a), b)  # the numpy operand is uploaded; the result stays on the device
    assert isinstance(got, wg.Array)
    close(got, want, rtol=1e-5, atol=1e-6)
    got = uf(a, wg.asarray(b))
    assert isinstance(got, wg.Array)


def test_ufunc_out_where_reduce_accumulate(dev):
    h = np.arange(12, dtype=np.float32).reshape(3, 4) - 5
    x = wg.asarray(h)
    out = wg.zeros((3, 4), dtype=wg.float32)
    assert np.add(x, 1, out=out) is out
    assert_same(out.get(), h + 1)
    mask = h > 0
    out2 = wg.full((3, 4), -7.0)
    np.sqrt(x, out=out2, where=wg.asarray(mask))
    assert_same(out2.get(), np.where(mask, np.sqrt(np.abs(h)), -7).astype(np.float32))
    assert_same(np.add.reduce(x).get(), np.add.reduce(h))
    assert_same(np.maximum.reduce(x, axis=1, keepdims=True).get(), np.maximum.reduce(h, axis=1, keepdims=True))
    assert_same(np.logical_or.reduce(x > 3, axis=None).get(), np.asarray(np.logical_or.reduce(h > 3, axis=None)))
    assert_same(np.multiply.accumulate(x, axis=1).get(), np.multiply.accumulate(h, axis=1))
    with pytest.raises(TypeError, match="subtract.reduce"):
        np.subtract.reduce(x)
    with pytest.raises(TypeError, match="outer"):
        np.add.outer(x, x)
    with pytest.raises(TypeError, match="download"):
        h2 = h.copy()
        h2 += x  # numpy's out=(h2,): refused, as CuPy does
    with pytest.raises(TypeError):
        np.add(x, x, out=wg.zeros((3, 4), dtype=wg.int32))  # same_kind casting


def test_promotion_as_numpy(dev):
    """bool with numbers and numpy scalars (strong, NEP 50) promote as in numpy 2 (int64/float64 results where
    numpy's are, since the device offers them; Python scalars stay weak)."""
    f32 = np.array([1.5, -2.0, 0.0], np.float32)
    i8 = np.array([1, -2, 3], np.int8)
    b = np.array([True, False, True])
    cases = [(f32, b), (b, i8), (i8, b), (f32, np.float64(2)), (i8, np.int64(3)), (i8, np.float32(0.5)),
             (f32, True), (i8, True), (b, np.bool_(True)), (b, np.int8(2)), (f32, np.float16(2))]
    for p, q in cases:
        wp = wg.asarray(p)
        wq = q if np.ndim(q) == 0 and not isinstance(q, np.ndarray) else wg.asarray(q)
        want = p * q
        got = wp * wq
        if want.dtype in (np.float64,) and p.dtype.kind in "iu":
            continue  # documented: int with float32 gives float32 on wgarray, float64 in numpy
        assert got.dtype == want.dtype, (p.dtype, type(q), got.dtype, want.dtype)
        assert_same(got.get(), want)
    x = wg.asarray(f32)
    assert_same((x * (x > 0)).get(), f32 * (f32 > 0))
    assert (wg.asarray(b) * 2).dtype is wg.int32  # a Python int with bool: the default int (numpy: int64)


# -- NEP 18 -------------------------------------------------------------------------------------------------------
@FAST
@given(data=st.data(), name=st.sampled_from(["sum", "mean", "max", "min", "prod", "std", "var", "argmax",
                                             "argmin", "nansum", "nanmean", "nanmax", "nanmin", "ptp", "median",
                                             "any", "all", "cumsum", "sort", "argsort"]))
def test_reductions_through_array_function(dev, data, name):
    h = data.draw(floats(shapes(min_dims=1, max_dims=3, min_side=1, max_side=5), nan=data.draw(st.booleans())),
                  label="x")
    x, h = data.draw(view_of(h, wg.float32), label="view")
    axis = data.draw(st.one_of(st.none(), st.integers(-h.ndim, h.ndim - 1)), label="axis")
    keep = data.draw(st.booleans(), label="keepdims")
    fn = getattr(np, name)
    kw = {} if name in ("cumsum", "sort", "argsort") else {"keepdims": keep}
    if name in ("sort", "argsort") and axis is None:
        axis = -1
    with np.errstate(all="ignore"), __import__("warnings").catch_warnings():
        __import__("warnings").simplefilter("ignore")
        want = fn(h, axis=axis, **kw)
    got = fn(x, axis=axis, **kw)
    assert isinstance(got, wg.Array)
    if name in ("argmax", "argmin", "argsort"):
        if name == "argsort" and np.isnan(h).any():
            return  # NaN order among NaNs: both stable, but compare the sorted values instead
        assert_same(got.get().astype(np.int64), np.asarray(want).astype(np.int64))
    elif name in ("max", "min", "sort", "nanmax", "nanmin", "any", "all", "median", "ptp"):
        assert_same(got.get(), np.asarray(want).astype(got.get().dtype))
    else:
        close(got, want, rtol=1e-4, atol=1e-4)


@FAST
@given(q=st.lists(st.floats(0, 1), min_size=1, max_size=3), data=st.data())
def test_quantile_percentile(dev, q, data):
    h = data.draw(floats(shapes(min_dims=1, max_dims=2, min_side=1), nan=False), label="x")
    axis = data.draw(st.one_of(st.none(), st.integers(0, h.ndim - 1)))
    x = wg.asarray(h)
    close(np.quantile(x, q, axis=axis), np.quantile(h, q, axis=axis).astype(np.float32), rtol=1e-5, atol=1e-5)
    close(np.percentile(x, 37.5, axis=axis), np.percentile(h, 37.5, axis=axis).astype(np.float32))
    with pytest.raises(ValueError):
        np.quantile(x, 1.5)


@FAST
@given(a=floats(shapes(min_dims=1, max_dims=1, min_side=1, max_side=9), nan=False),
       v=floats(shapes(min_dims=1, max_dims=1, min_side=1, max_side=4), nan=False),
       mode=st.sampled_from(["full", "same", "valid"]))
def test_convolve(dev, a, v, mode):
    close(np.convolve(wg.asarray(a), wg.asarray(v), mode), np.convolve(a, v, mode), rtol=1e-4, atol=1e-3)


@FAST
@given(h=floats(shapes(min_dims=0, max_dims=1, max_side=40)), bins=st.integers(1, 7),
       weighted=st.booleans())
def test_histogram_bincount_digitize(dev, h, bins, weighted):
    x = wg.asarray(h)
    fin = h[np.isfinite(h)]
    if fin.size != h.size:
        with pytest.raises(ValueError):
            np.histogram(x, bins=bins)
    counts, edges = np.histogram(wg.asarray(fin), bins=bins, weights=np.abs(fin) if weighted else None)
    close(edges, np.histogram_bin_edges(fin, bins=bins).astype(np.float32), rtol=1e-6, atol=1e-5)
    # counts: exactly numpy's for wgarray's own edges
    want, _ = np.histogram(fin, bins=edges.get(), weights=np.abs(fin) if weighted else None)
    if weighted:
        close(counts, want.astype(np.float32), rtol=1e-4, atol=1e-3)
    else:
        assert_same(counts.get().astype(np.int64), want)
    ints = np.abs(np.nan_to_num(h)).astype(np.int32).reshape(-1) % 13
    assert_same(np.bincount(wg.asarray(ints), minlength=bins).get().astype(np.int64),
                np.bincount(ints, minlength=bins))
    edges_h = np.sort(np.unique(np.round(np.nan_to_num(h), 0)))[:6].astype(np.float32)
    if edges_h.size:
        for right in (False, True):
            assert_same(np.digitize(x, edges_h, right=right).get().astype(np.int64),
                        np.digitize(h, edges_h, right=right))
            assert_same(np.digitize(x, edges_h[::-1], right=right).get().astype(np.int64),
                        np.digitize(h, edges_h[::-1], right=right))
    with pytest.raises(ValueError):
        np.bincount(wg.asarray(np.array([1, -1], np.int32)))


EINSUMS = [("ij,jk->ik", [(3, 4), (4, 2)]), ("ii->i", [(3, 3)]), ("ii", [(4, 4)]), ("ij->", [(2, 5)]),
           ("i,j->ij", [(3,), (2,)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("...j,j", [(2, 3, 4), (4,)]),
           ("ij->ji", [(2, 3)]), ("ijk,kj->i", [(2, 3, 4), (4, 3)]), ("i,i", [(5,), (5,)]),
           ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]), ("iij->ij", [(3, 3, 2)])]


@pytest.mark.parametrize("sub,shapes_", EINSUMS)
def test_einsum(dev, sub, shapes_):
    rng = np.random.default_rng(len(sub))
    ops = [rng.standard_normal(s).astype(np.float32) for s in shapes_]
    close(np.einsum(sub, *[wg.asarray(o) for o in ops]), np.einsum(sub, *ops), rtol=1e-5, atol=1e-5)
    close(wg.einsum(sub, *ops), np.einsum(sub, *ops), rtol=1e-5, atol=1e-5)


def test_linalg_style_and_manipulation(dev):
    rng = np.random.default_rng(3)
    a = rng.standard_normal((4, 5)).astype(np.float32)
    b = rng.standard_normal((5, 3)).astype(np.float32)
    x, y = wg.asarray(a), wg.asarray(b)
    close(np.dot(x, y), a @ b)
    close(np.dot(x, y[:, 0]), a @ b[:, 0])
    close(np.dot(x, 2.0), a * 2)
    close(np.vdot(x, x), np.vdot(a, a), rtol=1e-5)
    close(np.inner(x, x), np.inner(a, a))
    for f in (np.vstack, np.hstack, np.dstack, np.column_stack):
        assert_same(f([x, x]).get(), f([a, a]))
    assert_same(np.concatenate([x, a], axis=1).get(), np.concatenate([a, a], axis=1))
    assert_same(np.concatenate([x, x], axis=None).get(), np.concatenate([a, a], axis=None))
    for got, want in zip(np.split(x, [1, 3], axis=1), np.split(a, [1, 3], axis=1)):
        assert_same(got.get(), want)
    for got, want in zip(np.array_split(x, 3), np.array_split(a, 3)):
        assert_same(got.get(), want)
    with pytest.raises(ValueError):
        np.split(x, 3)
    for mode in ("constant", "edge", "reflect", "symmetric", "wrap"):
        assert_same(np.pad(x, ((2, 1), (6, 7)), mode).get(), np.pad(a, ((2, 1), (6, 7)), mode))
    assert_same(np.pad(x, 2, constant_values=((1, 2), (3, 4))).get(), np.pad(a, 2, constant_values=((1, 2), (3, 4))))
    assert_same(np.diag(x, 1).get(), np.diag(a, 1))
    assert_same(np.diag(x[0], -2).get(), np.diag(a[0], -2))
    assert_same(np.argwhere(x > 0).get().astype(np.int64), np.argwhere(a > 0))
    assert_same(np.argwhere(x[0, 0] > 0).get().astype(np.int64), np.argwhere(a[0, 0] > 0))
    assert_same(np.isclose(x, x + 1e-6).get(), np.isclose(a, a + 1e-6))
    assert np.allclose(x, a) is True and np.array_equal(x, a) is True and np.array_equal(x, x[:2]) is False
    close(np.cov(x), np.cov(a), rtol=1e-4)
    close(np.corrcoef(x, rowvar=False), np.corrcoef(a, rowvar=False), rtol=1e-4, atol=1e-5)
    close(np.average(x, axis=0, weights=np.arange(1.0, 5.0)), np.average(a, axis=0, weights=np.arange(1.0, 5.0)))
    xp = np.array([0, 1, 2.5, 4], np.float32)
    fp = np.array([1, 3, 2, 0], np.float32)
    xs = np.linspace(-1, 5, 25).astype(np.float32)
    close(np.interp(wg.asarray(xs), xp, fp), np.interp(xs, xp, fp), rtol=1e-6, atol=1e-6)
    close(np.interp(wg.asarray(xs), xp, fp, left=-5, right=9), np.interp(xs, xp, fp, left=-5, right=9))
    with pytest.raises(ValueError, match="All-NaN"):
        np.nanargmax(wg.asarray(np.array([np.nan, np.nan], np.float32)))
    assert wg.get_array_module(x) is wg and wg.get_array_module(a) is np
    assert_same(wg.asnumpy(x), a)


# -- array methods and forms -------------------------------------------------------------------------------------
@FAST
@given(data=st.data())
def test_methods_match_numpy(dev, data):
    h = data.draw(floats(shapes(min_dims=2, max_dims=3, min_side=1, max_side=4), nan=False), label="x")
    x, h = data.draw(view_of(h, wg.float32), label="view")
    assert_same(x.T.get(), h.T)
    assert_same(x.transpose(1, 0, *range(2, h.ndim)).get(), h.transpose(1, 0, *range(2, h.ndim)))
    assert_same(x.swapaxes(0, -1).get(), h.swapaxes(0, -1))
    assert_same(x.reshape(-1, order="F").get(), h.reshape(-1, order="F"))
    assert_same(x.cumsum(axis=1).get(), h.cumsum(axis=1)) if h.shape[1] <= 2 else None
    close(x.cumsum(), h.cumsum(), rtol=1e-5, atol=1e-4)
    close(x.std(axis=0, ddof=1) if h.shape[0] > 1 else x.std(), h.std(axis=0, ddof=1) if h.shape[0] > 1 else h.std())
    close(x.var(), h.var(), rtol=1e-4, atol=1e-4)
    close(x.mean(dtype=wg.float64), h.mean(dtype=np.float64), rtol=1e-12, atol=1e-12)
    assert_same(x.clip(-1, 2).get(), h.clip(-1, 2))
    assert_same(x.round(1).get(), h.round(1))
    assert_same(x.squeeze().get(), h.squeeze())
    assert_same(x.diagonal().get(), h.diagonal())
    close(x.trace(), h.trace(), rtol=1e-5)
    assert_same(x.repeat(2, axis=0).get(), h.repeat(2, axis=0))
    assert_same(x.take([0, -1], axis=1).get(), h.take([0, -1], axis=1))
    assert [v.get().astype(np.int64).tolist() for v in x.nonzero()] == [v.tolist() for v in h.nonzero()]
    assert x.item(0) == h.item(0) and x.item(h.size - 1) == h.item(h.size - 1)
    assert x.item(*([0] * h.ndim)) == h.item(*([0] * h.ndim))
    assert x.itemsize == h.itemsize
    if h.ndim == 2:  # a float32 matmul: the summation order is the device's (FMA on GPUs)
        close(x.dot(x.swapaxes(-1, -2)), h @ h.swapaxes(-1, -2), rtol=1e-5, atol=1e-3)
    s = x.copy()
    s.sort(axis=0)
    assert_same(s.get(), np.sort(h, axis=0))
    assert_same(x.argsort(axis=-1).get().astype(np.int64), h.argsort(axis=-1, kind="stable"))
    f = x.copy()
    f.fill(3.5)
    assert_same(f.get(), np.full_like(h, 3.5))
    assert_same(x.view().get(), h)
    assert_same(x.ptp(axis=0).get(), np.ptp(h, axis=0))


def test_scalar_forms(dev):
    x = wg.asarray(np.array([[1.25, 2.5], [3.5, -0.5]], np.float32))
    assert f"{x[0, 0]:.3f}" == "1.250" and f"{x.sum():.1f}" == "6.8"
    assert f"{x}" == str(x)
    with pytest.raises(TypeError):
        f"{x:.3f}"
    assert round(x[0, 1]) == 2 and round(x[1, 0]) == 4 and isinstance(round(x[0, 1]), int)
    assert_same(round(x, 1).get(), np.round(x.get(), 1))
    assert wg.asarray(np.arange(3)).T.shape == (3,)
    assert x.base is None and x[1:].base is not None
    assert x.get().shape == (2, 2)
    with pytest.raises(TypeError):
        x.view(wg.int32)


def test_readme_table_is_current():
    """The table lists numpy's own namespace, so it is checked against the numpy it was made with."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    if f"| numpy (version {np.__version__.rsplit('.', 1)[0]}) |" not in readme:
        pytest.skip(f"README's table was made with another numpy than {np.__version__}")
    assert interop.table() in readme, "README's numpy table is stale: python -m wgarray.api.interop"
    assert "`sum`" in interop.table() and math.isfinite(len(interop.FUNCTIONS))
