"""Property tests of matmul / ``@`` against numpy.

Integer results are exact, with wrap-around in the result dtype (compared with numpy's product computed in 64-bit
integers, which wraps modulo 2**64 and so agrees with any narrower wrap-around).  bool @ bool is logical
(or of ands).  Float results are compared with the float64 product of the same (exactly converted) operands:

    |got - exact| <= (K + 2) * eps_acc * (|A| @ |B|) + eps_res * |exact| + K * tiny_acc

the standard error bound of a length-K dot product (each multiply and add rounds once), eps_acc being the epsilon
of the dtype the kernel accumulates in (float32 for float16) and eps_res the result dtype's epsilon (the final
rounding to float16); K * tiny covers subnormal products a device flushes to zero.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import wgarray as wg

from strategies import assert_same, dtypes, supported, values, view_of

SIZES = st.one_of(st.integers(0, 9), st.sampled_from([15, 16, 17, 63, 64, 65, 70, 97, 130]))


def promoted(a, b):
    try:
        return wg.result_type(a, b)
    except TypeError:
        return None


def operand_values(dtype, shape, res):
    """Full-range values when the result is an integer (wrap-around is part of the test), else values every
    dtype converts exactly: small integers for int operands, bounded floats for float operands."""
    if res.kind != "f":
        return values(dtype, shape)
    if dtype.kind == "f":
        return hnp.arrays(dtype.numpy, shape,
                          elements=st.floats(-4, 4, width=dtype.numpy.itemsize * 8, allow_subnormal=False))
    if dtype.kind == "b":
        return hnp.arrays(dtype.numpy, shape)
    lo = 0 if dtype.kind == "u" else -100
    return hnp.arrays(dtype.numpy, shape, elements=st.integers(lo, 100))


def reference(a: np.ndarray, b: np.ndarray, res: np.dtype):
    """(exact value, tolerance) of a @ b in ``res``."""
    if res == np.bool_:
        return np.matmul(a, b), None
    if res.kind in "iu":
        wide = np.uint64 if res == np.uint64 else np.int64
        with np.errstate(over="ignore"):
            return np.matmul(a.astype(wide), b.astype(wide)).astype(res), None
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    exact = np.matmul(a64, b64)
    K = a.shape[-1]
    acc = np.finfo(np.float32 if res == np.float16 else res)
    bound = np.matmul(np.abs(a64), np.abs(b64))
    tol = (K + 2) * acc.eps * bound + np.finfo(res).eps * np.abs(exact) + K * acc.smallest_normal
    return exact, tol


def check(got: wg.Array, a: np.ndarray, b: np.ndarray, res):
    out = got.numpy()
    exact, tol = reference(a, b, res.numpy)
    assert out.dtype == res.numpy
    assert out.shape == np.shape(exact), (out.shape, np.shape(exact))
    if tol is None:
        assert_same(out, np.asarray(exact))
    else:
        err = np.abs(out.astype(np.float64) - exact)
        assert (err <= tol).all(), f"max error {np.max(err - tol)} above tolerance; got {out}, want {exact}"


@st.composite
def operand(draw, shape, dtype, res):
    host = draw(operand_values(dtype, shape, res))
    return draw(view_of(host, dtype))


def mm(draw, x, y):
    """x @ y through the operator, the function, or the reflected operator with a numpy left operand."""
    how = draw(st.sampled_from(["op", "fn", "rop"]))
    if how == "op":
        return x @ y
    if how == "fn":
        return wg.matmul(x, y)
    return x.numpy() @ y


# -- 2-D, all dtypes, transposed and strided operands -----------------------------------------------------------
@given(data=st.data())
def test_matmul_2d(data):
    da = data.draw(dtypes(), label="a_dtype")
    db = data.draw(st.one_of(st.just(da), dtypes()), label="b_dtype")
    res = promoted(da, db)
    M, K, N = data.draw(SIZES, label="M"), data.draw(SIZES, label="K"), data.draw(SIZES, label="N")
    if res is None:
        with pytest.raises(TypeError):
            wg.matmul(wg.zeros((M, K), dtype=da), wg.zeros((K, N), dtype=db))
        return
    x, a = data.draw(operand((M, K), da, res), label="a")
    y, b = data.draw(operand((K, N), db, res), label="b")
    check(mm(data.draw, x, y), a, b, res)
    np.testing.assert_array_equal(x.numpy(), a)  # operands untouched
    np.testing.assert_array_equal(y.numpy(), b)


@pytest.mark.parametrize("dtype", supported(), ids=lambda d: d.name)
def test_matmul_larger_than_a_tile(dtype):
    """130x70 @ 70x97: several 64x64 tiles, partial edge tiles and a K loop with a partial last step; also with
    .T / .mT views of transposed bases and a strided view."""
    rng = np.random.default_rng(5)
    if dtype.kind == "f":
        a = rng.uniform(-2, 2, (130, 70)).astype(dtype.numpy)
        b = rng.uniform(-2, 2, (70, 97)).astype(dtype.numpy)
    elif dtype.kind == "b":
        a = rng.random((130, 70)) < 0.02
        b = rng.random((70, 97)) < 0.02
    else:
        info = np.iinfo(dtype.numpy)
        a = rng.integers(info.min, info.max, (130, 70), dtype=dtype.numpy, endpoint=True)
        b = rng.integers(info.min, info.max, (70, 97), dtype=dtype.numpy, endpoint=True)
    x, y = wg.asarray(a), wg.asarray(b)
    check(x @ y, a, b, dtype)
    xt = wg.asarray(np.ascontiguousarray(a.T)).T
    yt = wg.asarray(np.ascontiguousarray(b.T)).mT
    check(xt @ yt, a, b, dtype)
    check(xt @ y, a, b, dtype)
    big = np.zeros((260, 141), dtype=dtype.numpy)
    big[::2, 1::2] = a
    check(wg.asarray(big)[::2, 1::2] @ y, a, b, dtype)
    check(wg.asarray(big[::-1])[::-2, 1::2] @ yt, a, b, dtype)  # negative row stride: rev[259 - 2i] = a[i]


# -- 1-D operands ---------------------------------------------------------------------------------------------
@given(data=st.data())
def test_matmul_vectors(data):
    dtype = data.draw(dtypes(), label="dtype")
    kind = data.draw(st.sampled_from(["1@2", "2@1", "1@1", "1@3", "3@1"]), label="kind")
    K, N = data.draw(SIZES, label="K"), data.draw(SIZES, label="N")
    shapes = {"1@2": ((K,), (K, N)), "2@1": ((N, K), (K,)), "1@1": ((K,), (K,)),
              "1@3": ((K,), (2, K, N)), "3@1": ((3, N, K), (K,))}[kind]
    x, a = data.draw(operand(shapes[0], dtype, dtype), label="a")
    y, b = data.draw(operand(shapes[1], dtype, dtype), label="b")
    check(mm(data.draw, x, y), a, b, dtype)


# -- batches with broadcasting ------------------------------------------------------------------------------------
@given(data=st.data())
def test_matmul_batched_broadcasting(data):
    dtype = data.draw(dtypes("iuf"), label="dtype")
    shapes = data.draw(hnp.mutually_broadcastable_shapes(signature=np.matmul.signature, max_dims=3, max_side=6),
                       label="shapes")
    sa, sb = shapes.input_shapes
    x, a = data.draw(operand(sa, dtype, dtype), label="a")
    y, b = data.draw(operand(sb, dtype, dtype), label="b")
    check(mm(data.draw, x, y), a, b, dtype)


@pytest.mark.parametrize("sa, sb", [((2, 1, 3, 4), (5, 4, 2)), ((5, 4, 2), (2, 1, 2, 3)), ((1, 3, 4), (6, 4, 5)),
                                    ((7, 3, 4), (4, 5)), ((3, 4), (7, 4, 5)), ((2, 3, 0, 4), (4, 2)),
                                    ((2, 3, 4), (2, 4, 0)), ((4, 1, 70, 65), (3, 65, 66))])
@pytest.mark.parametrize("dtype", [wg.float32, wg.int32, wg.uint8], ids=lambda d: d.name)
def test_matmul_batched_cases(sa, sb, dtype):
    rng = np.random.default_rng(11)
    a = rng.integers(0, 50, sa).astype(dtype.numpy)
    b = rng.integers(0, 50, sb).astype(dtype.numpy)
    check(wg.asarray(a) @ wg.asarray(b), a, b, dtype)
    # the same batch through transposed (non-contiguous) matrices
    x = wg.asarray(np.ascontiguousarray(np.swapaxes(a, -1, -2))).mT
    y = wg.asarray(np.ascontiguousarray(np.swapaxes(b, -1, -2))).mT
    check(x @ y, a, b, dtype)


@pytest.mark.parametrize("sa, sb", [((256, 20, 36), (256, 36, 24)), ((256, 21, 33), (33, 19)), ((2, 128, 5, 8), (8, 12)),
                                    ((257, 4, 4), (4, 4))])
@pytest.mark.parametrize("layout", ["plain", "transposed", "strided"])
@pytest.mark.parametrize("dtype", [wg.float32, wg.uint16, wg.float16], ids=lambda d: d.name)
def test_matmul_big_tiles(sa, sb, layout, dtype):
    """Enough output tiles (>= 256) for the 128x128-tile kernel, with aligned (vec4 loads) and odd sizes."""
    rng = np.random.default_rng(17)
    a = rng.integers(0, 9, sa).astype(dtype.numpy)
    b = rng.integers(0, 9, sb).astype(dtype.numpy)
    if layout == "plain":
        x, y = wg.asarray(a), wg.asarray(b)
    elif layout == "transposed":
        x = wg.asarray(np.ascontiguousarray(np.swapaxes(a, -1, -2))).mT
        y = wg.asarray(np.ascontiguousarray(np.swapaxes(b, -1, -2))).mT
    else:
        x = wg.asarray(np.repeat(a, 2, axis=-1))[..., ::2]
        y = wg.asarray(np.repeat(b, 3, axis=-2))[..., ::3, :]
    check(x @ y, a, b, dtype)


# -- special cases -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", supported(), ids=lambda d: d.name)
def test_matmul_k_zero(dtype):
    """K = 0: a (M, N) array of zeros (False for bool), not left uninitialised."""
    for M, N in [(3, 4), (70, 130), (1, 1)]:
        # a fresh base first filled with garbage, so an unwritten result would show
        junk = wg.full((M * N,), 7 if dtype.kind != "b" else True, dtype=dtype)
        del junk
        got = wg.matmul(wg.empty((M, 0), dtype=dtype), wg.empty((0, N), dtype=dtype)).numpy()
        assert got.shape == (M, N) and got.dtype == dtype.numpy
        assert (got == 0).all()
    assert wg.matmul(wg.empty((0,), dtype=dtype), wg.empty((0,), dtype=dtype)).item() == 0
    assert wg.matmul(wg.empty((0, 3), dtype=dtype), wg.empty((3, 5), dtype=dtype)).shape == (0, 5)
    assert wg.matmul(wg.empty((2, 3), dtype=dtype), wg.empty((3, 0), dtype=dtype)).shape == (2, 0)


def test_matmul_wraps_integers():
    a = np.full((3, 300), 100, dtype=np.int8)
    b = np.full((300, 2), 100, dtype=np.int8)
    got = (wg.asarray(a) @ wg.asarray(b)).numpy()
    assert got.dtype == np.int8
    assert (got == np.array(100 * 100 * 300).astype(np.int8)).all()  # 3_000_000 mod 256, as int8: -64
    u = np.full((2, 5), 2**63, dtype=np.uint64)
    got = (wg.asarray(u) @ wg.asarray(np.ones((5, 1), dtype=np.uint64))).numpy()
    assert (got == np.uint64(2**63)).all()  # 5 * 2**63 mod 2**64


def test_matmul_bool_is_logical():
    a = np.array([[True, False, True], [False, False, False]])
    b = np.array([[True, False], [True, True], [True, False]])
    got = (wg.asarray(a) @ wg.asarray(b)).numpy()
    assert_same(got, np.matmul(a, b))


@pytest.mark.parametrize("dtype", [wg.float16, wg.float32, wg.float64], ids=lambda d: d.name)
def test_matmul_nan_inf(dtype):
    if not wg.default_device().supports(dtype):
        pytest.skip("unsupported dtype")
    a = np.ones((4, 5), dtype=dtype.numpy)
    b = np.ones((5, 3), dtype=dtype.numpy)
    a[1, 2] = np.nan
    a[2, 0] = np.inf
    b[0, 1] = 0.0
    got = (wg.asarray(a) @ wg.asarray(b)).numpy()
    with np.errstate(invalid="ignore"):
        want = a.astype(np.float64) @ b.astype(np.float64)
    assert_same(got, want.astype(dtype.numpy))


def test_matmul_inplace_operator():
    a = np.arange(9, dtype=np.float32).reshape(3, 3)
    x = wg.asarray(a)
    x @= wg.asarray(np.eye(3, dtype=np.float32) * 2)
    assert_same(x.numpy(), a * 2)


# -- errors -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("sa, sb", [((2, 3), (4, 5)), ((3,), (4,)), ((3,), (4, 2)), ((2, 3), (2,)),
                                    ((2, 3, 4), (3, 4, 5)), ((2, 2, 3), (3, 3, 2))])
def test_matmul_shape_mismatch(sa, sb):
    x, y = wg.zeros(sa), wg.zeros(sb)
    with pytest.raises(ValueError):
        np.matmul(np.zeros(sa), np.zeros(sb))  # numpy agrees that it is an error
    with pytest.raises(ValueError, match="matmul"):
        x @ y
    assert (wg.ones((2, 2)) @ wg.ones((2, 2))).numpy().tolist() == [[2, 2], [2, 2]]


@pytest.mark.parametrize("sa, sb", [((), (3,)), ((3,), ()), ((), ())])
def test_matmul_zero_d(sa, sb):
    with pytest.raises(ValueError, match="0-d|dimension"):
        wg.matmul(wg.zeros(sa), wg.zeros(sb))
    with pytest.raises(ValueError):
        wg.zeros(sa) @ wg.zeros(sb)


def test_matmul_promotion_errors():
    # bool mixes with numbers as in numpy (issue 14): bool @ int32 is an int32 matmul
    a, b = np.array([[True, False], [True, True]]), np.arange(4, dtype=np.int32).reshape(2, 2)
    got = wg.matmul(wg.asarray(a), wg.asarray(b))
    assert got.dtype == wg.int32 and np.array_equal(got.numpy(), a @ b)
    if wg.default_device().supports(wg.uint64):
        with pytest.raises(TypeError):
            wg.matmul(wg.zeros((2, 2), dtype=wg.uint64), wg.zeros((2, 2), dtype=wg.int8))


# -- kernel variants of the register-tiled kernel, each forced through the override hook --------------------------
from wgarray.kernels import matmul as _mm  # noqa: E402

# the default run covers the original set, a few of the wide-tile and row-mapped ones and split-K; the rest of
# candidates() (all passing on lavapipe) run under -m slow
_FAST_NEW = {"128x256_8x16_k8_r_db", "256x128_16x8_k16_r", "64x64_4x4_k16_r_db", "128x128_8x8_k32_r"}
_ORIGINAL = _mm.candidates()[:16]  # the original 8 tile shapes, plain and double buffered
VARIANTS = [v.name if v in _ORIGINAL or v.name in _FAST_NEW else pytest.param(v.name, marks=pytest.mark.slow)
            for v in _mm.candidates()] + [
    "128x128_8x8_k16_r_db_s3", "64x128_4x8_k8_r_s2", "64x64_4x4_k16_s2", "128x128_8x8_k8_db_s3", "128x64_8x4_k16_s4",
    "64x64_8x8_k8_db_s8", "64x128_4x8_k16_db_s5",
    # without naga's runtime checks (the module through wgpuDeviceCreateShaderModuleTrusted)
    "128x128_8x8_k16_r_db_u", "128x128_8x8_k16_r_db_s3_u", "64x64_4x4_k16_db_u", "128x256_8x16_k8_r_db_u",
    # the double-buffered loop unrolled by two slices (odd and even slice counts, split slices of either parity)
    "128x128_8x8_k16_r_db2", "64x64_4x4_k8_db2_s3_u", "128x256_8x16_k8_r_db2_u",
    # 32 consecutive invocations over 8 x 4 register blocks
    "64x64_4x4_k16_w_db_u", "128x128_8x8_k16_r_w_db2_s3", "64x64_8x8_k8_w"]


def _ints(rng, shape, dtype=np.float32):
    """Small integers: every float32 product and partial sum is exact, so any summation order gives the same."""
    return rng.integers(-8, 9, shape).astype(dtype)


def _variant_operands(rng, B, M, K, N):
    """(x, y, a, b): wgarray operands x, y equal to numpy a, b in several layouts."""
    a, b = _ints(rng, (B, M, K)), _ints(rng, (B, K, N))
    yield wg.asarray(a), wg.asarray(b), a, b  # contiguous
    yield (wg.asarray(np.ascontiguousarray(np.swapaxes(a, -1, -2))).mT,  # both transposed
           wg.asarray(np.ascontiguousarray(np.swapaxes(b, -1, -2))).mT, a, b)
    # views at offsets into larger bases (aligned offsets keep vec4 loads), a with a negative row stride
    abig = _ints(rng, (B, M + 8, K + 8))
    bbig = _ints(rng, (B, K + 4, N + 12))
    x = wg.asarray(abig)[:, M + 3:3:-1, 8:8 + K]
    y = wg.asarray(bbig)[:, 2:2 + K, 4:4 + N]
    yield x, y, abig[:, M + 3:3:-1, 8:8 + K], bbig[:, 2:2 + K, 4:4 + N]
    yield wg.asarray(a), wg.asarray(b[0]), a, b[0]  # b broadcast over the batch (batch stride 0)


@pytest.mark.parametrize("name", VARIANTS)
def test_matmul_variant(name):
    """Each variant against numpy: M, N not multiples of any tile, K not a multiple of the slice count or depth,
    batches, transposed operands, views at aligned and odd offsets (vec4 and strided loads), odd N (scalar
    stores), K smaller than the slice count."""
    rng = np.random.default_rng(23)
    if not _mm.fits(_mm.as_variant(name), wg.default_device(), 132, 100, 72, 3):
        pytest.skip(f"{name} needs more than this device offers (workgroup memory or size)")
    with _mm.forced(name):
        assert _mm.choose(7, 7, 7, 1).name == name
        for B, M, K, N in [(1, 132, 72, 100), (3, 36, 52, 20)]:
            for x, y, a, b in _variant_operands(rng, B, M, K, N):
                check(x @ y, a, b, wg.float32)
        # odd sizes: strided scalar loads, scalar stores; the operands at odd offsets, one with stride 2
        for B, M, K, N in [(2, 33, 70, 37), (1, 5, 3, 6)]:
            abig, bbig = _ints(rng, (B, M + 1, 2 * K + 3)), _ints(rng, (B, K + 3, N + 1))
            x, a = wg.asarray(abig)[:, 1:, 3::2], abig[:, 1:, 3::2]
            y, b = wg.asarray(bbig)[:, 3:, 1:], bbig[:, 3:, 1:]
            check(x @ y, a, b, wg.float32)


@pytest.mark.parametrize("name", ["128x128_8x8_k8_db_s3", "64x64_4x4_k16_s2", "128x64_8x4_k8_db"])
@pytest.mark.parametrize("dtype", [wg.float16, wg.int32, wg.uint8, wg.bool], ids=lambda d: d.name)
def test_matmul_variant_dtypes(name, dtype):
    """Narrow results (float16 rounded once, after the partial sums), integer wrap-around across split-K slices,
    bool; K = 0 through a split writes zeros."""
    rng = np.random.default_rng(29)
    M, K, N = 70, 90, 36
    if dtype.kind == "b":
        a, b = rng.random((M, K)) < 0.05, rng.random((K, N)) < 0.05
    elif dtype.kind == "f":
        a, b = rng.uniform(-2, 2, (M, K)).astype(dtype.numpy), rng.uniform(-2, 2, (K, N)).astype(dtype.numpy)
    else:
        info = np.iinfo(dtype.numpy)
        a = rng.integers(info.min, info.max, (M, K), dtype=dtype.numpy, endpoint=True)
        b = rng.integers(info.min, info.max, (K, N), dtype=dtype.numpy, endpoint=True)
    with _mm.forced(name):
        check(wg.asarray(a) @ wg.asarray(b), a, b, dtype)
        got = wg.matmul(wg.empty((M, 0), dtype=dtype), wg.empty((0, N), dtype=dtype)).numpy()
        assert got.shape == (M, N) and (got == 0).all()


def test_matmul_unchecked_module(monkeypatch):
    """A ``_u`` variant's module is made without runtime checks (through ``device.shader_module_unchecked``, and
    that through the trusted entry point where the library has it); the checked variant never goes there; without
    the entry point the checked module is made and the answer is the same."""
    from wgarray import device as wdev
    made = []
    real = wdev.shader_module_unchecked
    monkeypatch.setattr(wdev, "shader_module_unchecked", lambda d, code: made.append(code) or real(d, code))
    rng = np.random.default_rng(31)
    a, b = _ints(rng, (2, 45, 29)), _ints(rng, (2, 29, 51))
    assert _mm.Variant.parse("64x128_4x8_k8_r_db_s2_u").unchecked
    with _mm.forced("64x128_4x8_k8_r_db_s2"):
        check(wg.asarray(a) @ wg.asarray(b), a, b, wg.float32)
    assert not made
    with _mm.forced("64x128_4x8_k8_r_db_s2_u"):
        check(wg.asarray(a) @ wg.asarray(b), a, b, wg.float32)
    assert len(made) == 1 and "workgroupBarrier" in made[0]
    assert wdev.unchecked_available()  # wgpu-native exports wgpuDeviceCreateShaderModuleTrusted
    monkeypatch.setattr(wdev, "unchecked_available", lambda: False)
    with _mm.forced("64x128_4x8_k16_r_s2_u"):
        check(wg.asarray(a) @ wg.asarray(b), a, b, wg.float32)
    assert len(made) == 2


def test_matmul_unchecked_knob(monkeypatch):
    """matmul.UNCHECKED turns the table's and the heuristic's choices into their ``_u`` twins (the same tile), the
    override's never; the products stay right."""
    shape = (1024, 1024, 1024, 1)
    plain = _mm.choose(*shape), _mm.choose(40, 50, 60, 1)
    monkeypatch.setattr(_mm, "UNCHECKED", True)
    for v, (M, N, K, B) in zip(plain, [shape, (40, 50, 60, 1)]):
        assert _mm.choose(M, N, K, B) == v.replace(unchecked=True)
    with _mm.forced("64x64_4x4_k8"):
        assert not _mm.choose(*shape).unchecked
    rng = np.random.default_rng(41)
    a, b = _ints(rng, (3, 40, 60)), _ints(rng, (60, 50))
    check(wg.asarray(a) @ wg.asarray(b), a, b, wg.float32)


def test_matmul_variant_choice(monkeypatch):
    """Precedence: the override hook (a variant, a name, or a callable; None falls through), then TABLE, then
    the heuristic; names round-trip; a bad configuration is refused."""
    monkeypatch.setattr(_mm, "UNCHECKED", False)  # (test_matmul_unchecked_knob covers it on)
    shape = (1024, 1024, 1024, 1)
    assert _mm.override is None
    default = _mm.choose(*shape)
    assert default == (_mm.as_variant(_mm.TABLE[shape]) if shape in _mm.TABLE else _mm.heuristic(*shape))
    saved = dict(_mm.TABLE)
    try:
        _mm.TABLE[shape] = "64x128_4x8_k16_db_s2"
        assert _mm.choose(*shape) == _mm.Variant(64, 128, 4, 8, 16, True, 2)
        with _mm.forced(lambda M, N, K, batch: None):
            assert _mm.choose(*shape).name == "64x128_4x8_k16_db_s2"
        with _mm.forced(lambda M, N, K, batch: "64x64_4x4_k8" if K == 1024 else None):
            assert _mm.choose(*shape).name == "64x64_4x4_k8"
            assert _mm.choose(8, 8, 8, 1) == _mm.heuristic(8, 8, 8, 1)
        with _mm.forced(_mm.Variant(128, 64, 8, 4, 8)):
            assert _mm.choose(*shape).name == "128x64_8x4_k8"
        assert _mm.override is None
    finally:
        _mm.TABLE.clear()
        _mm.TABLE.update(saved)
    assert _mm.choose(*shape) == default
    for v in _mm.candidates():
        assert _mm.Variant.parse(v.name) == v
    for name in ["128x128_8x8_k16_r_db_s4_u", "64x64_4x4_k8_u"]:
        assert _mm.Variant.parse(name).name == name and _mm.Variant.parse(name).unchecked
    for name in ["128x128_8x8_k16_r_db2", "64x64_4x4_k8_db2_s2_u"]:
        v = _mm.Variant.parse(name)
        assert v.name == name and v.pair and v.db
    with pytest.raises(ValueError):
        _mm.Variant(pair=True)  # the paired loop is a double-buffered one
    assert _mm.Variant.parse("128x128_8x8_k16_r_w_db2_s2_u") == _mm.Variant(128, 128, 8, 8, 16, True, 2, True, True,
                                                                            True, True)
    with pytest.raises(ValueError):
        _mm.Variant.parse("128x64_8x16_k8_w")  # 4 column blocks: no 8 x 4 warp layout
    for bad in ["128x128", "128x128_8x8_k9", "100x64_8x4_k8", "64x64_2x2_k8", "64x64_4x4_k8_s0", "64x64_4x4_k8_u_db"]:
        with pytest.raises(ValueError):
            _mm.Variant.parse(bad)


@pytest.mark.parametrize("M,N,K", [(32, 32, 5000), (3, 17, 3000), (5000, 4, 32), (4, 700, 96), (1, 1, 2049)])
def test_narrow_products_take_narrow_tiles(M, N, K):
    """A side of at most matmul.NARROW takes a tile no wider than it (split-K for a small output with a long K),
    and the product is exact on small integers (every partial sum exact in float32, whatever the slice order)."""
    from wgarray.kernels import matmul as mm
    v = mm.choose(M, N, K, 1)
    assert (v.bm <= mm.NARROW if M <= mm.NARROW else True) and (v.bn <= mm.NARROW if N <= mm.NARROW else True)
    if M <= mm.NARROW and N <= mm.NARROW and K >= 2 * mm.NARROW_SLICE:
        assert v.split > 1
    rng = np.random.default_rng(M + N + K)
    a = rng.integers(-3, 4, (M, K)).astype(np.float32)
    b = rng.integers(-3, 4, (K, N)).astype(np.float32)
    np.testing.assert_array_equal((wg.asarray(a) @ wg.asarray(b)).numpy(), a @ b)
    np.testing.assert_array_equal((wg.asarray(a.T.copy()).T @ wg.asarray(b.T.copy()).T).numpy(), a @ b)  # views


@pytest.mark.parametrize("name", ["128x128_8x8_k16_r_db2_u", "64x64_4x4_k8_db2"])
@pytest.mark.parametrize("epilogue", ["sub", "sub_lower"])
def test_fused_update_variants(name, epilogue):
    """The in-place epilogues (C -= A @ B on a strided C, A and B views of C's buffer) under the unchecked and
    paired-loop variants: the rest of the buffer untouched (no write outside the view without the clamps)."""
    from wgarray._array import Array
    rng = np.random.default_rng(37)
    M, N, Kd = 130, 70, 40
    big = _ints(rng, (2, M + 11, N + Kd + 13))
    w = wg.asarray(big)
    rs, bs = big.shape[2], big.shape[1] * big.shape[2]
    c = Array(w.mirror, (2, M, N), (bs, rs, 1), 3 * rs)
    a = Array(w.mirror, (2, M, Kd), (bs, rs, 1), 3 * rs + N)
    b = Array(w.mirror, (2, Kd, N), (bs, 1, rs), 4 * rs + N)  # k-contiguous
    prod = big[:, 3:3 + M, N:N + Kd] @ np.swapaxes(big[:, 4:4 + N, N:N + Kd], -1, -2)
    with _mm.forced(name):
        _mm.run(w.device, a, b, c, 2, bs, bs, epilogue=epilogue)
    got = w.numpy()
    exp = big[:, 3:3 + M, :N] - prod
    rows, cols = np.indices((M, N))
    inside = np.ones((M, N), bool) if epilogue == "sub" else rows >= cols
    np.testing.assert_array_equal(got[:, 3:3 + M, :N][:, inside], exp[:, inside])
    outside = np.ones(big.shape, bool)
    outside[:, 3:3 + M, :N] = False
    np.testing.assert_array_equal(got[outside], big[outside])
