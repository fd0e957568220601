"""User kernels (wg.ElementwiseKernel, wg.ReductionKernel, wg.RawKernel) against numpy: broadcasting, views,
dtypes (narrow ones included), placeholders, outputs given or allocated, several outputs, axes; bad input (the
exception, a message naming the problem, arrays intact); invalid WGSL (naga's message, the device usable after)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import wgarray as wg
from tests.strategies import assert_same, dtypes, reduction_args, shapes, values, view_of
from wgarray.api.user_kernels import CompileError

SUB = wg.ElementwiseKernel("T x, T y", "T z", "z = x - y;", "sub")
SUM_DIFF = wg.ElementwiseKernel("T x, T y", "T s, T d", "s = x + y;\nd = x - y;", "sum_diff")
AXPY = wg.ElementwiseKernel("float32 a, float32 x, float32 y", "float32 z", "z = a * x + y;", "axpy")


@given(st.data())
@settings(max_examples=20)
def test_elementwise_broadcast_views_dtypes(data):
    """Two broadcast operands, views of any layout; one subtraction is exact in every dtype (integers wrap as
    numpy's, float16 rounds once from float32 as numpy does)."""
    dt = data.draw(dtypes("iuf"))
    (sa, sb), _ = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=5))
    a, ha = data.draw(view_of(data.draw(values(dt, sa)), dt))
    b, hb = data.draw(view_of(data.draw(values(dt, sb)), dt))
    with np.errstate(all="ignore"):
        want = ha - hb
    got = SUB(a, b)
    assert got.dtype is dt
    assert_same(got.numpy(), want)
    s, d = SUM_DIFF(a, b)
    with np.errstate(all="ignore"):
        assert_same(s.numpy(), ha + hb)
    assert_same(d.numpy(), want)


@given(n=st.integers(0, 9), bcast=st.booleans(), data=st.data())
@settings(max_examples=15)
def test_elementwise_outputs_given_are_read_and_written(n, bcast, data):
    """Outputs passed after the inputs (CuPy's convention) may be strided views; they are read first, so the
    body can accumulate, and the elements between them stay as they were."""
    hx = data.draw(values(wg.float32, (1,) if bcast else (n,), small=True))
    hbase = data.draw(values(wg.float32, (2 * n + 1,), small=True))
    base = wg.asarray(hbase)
    z = base[1::2]
    acc = wg.ElementwiseKernel("float32 x", "float32 z", "z = z + x;", "acc")
    assert acc(wg.asarray(hx), z) is z
    want = hbase.copy()
    want[1::2] += hx
    assert_same(base.numpy(), want)


def test_elementwise_scalars_index_and_size():
    x = wg.asarray(np.arange(5, dtype=np.float32))
    y = wg.asarray(np.ones(5, dtype=np.float32))
    np.testing.assert_array_equal(AXPY(2.0, x, y).numpy(), 2 * np.arange(5, dtype=np.float32) + 1)
    np.testing.assert_array_equal(AXPY(np.float32(3), x, 1).numpy(), 3 * np.arange(5, dtype=np.float32) + 1)
    iota = wg.ElementwiseKernel("", "uint32 z", "z = i * 3u;", "iota")
    np.testing.assert_array_equal(iota(size=7).numpy(), np.arange(7, dtype=np.uint32) * 3)
    # i runs in C order over the broadcast shape, whatever the views' layouts
    idx = wg.ElementwiseKernel("T x", "uint32 z", "z = i;", "idx")
    t = wg.asarray(np.zeros((3, 4), np.float32)).mT
    np.testing.assert_array_equal(idx(t).numpy(), np.arange(12, dtype=np.uint32).reshape(4, 3))
    # wgarray's WGSL helpers are callable, a preamble adds the user's own
    sq = wg.ElementwiseKernel("float32 x", "float32 z", "z = twice(wg_sqrtcr_f32(x));", "sq",
                              preamble="fn twice(v: f32) -> f32 { return 2.0 * v; }")
    np.testing.assert_array_equal(sq(wg.asarray(np.float32([4, 9, 2]))).numpy(),
                                  2 * np.sqrt(np.float32([4, 9, 2])))


@pytest.mark.parametrize("dt", [wg.int8, wg.int16, wg.uint8, wg.uint16, wg.float16])
def test_elementwise_narrow_dtypes_wrap_and_round(dt):
    """Narrow dtypes compute in their 32-bit type and are narrowed on store as numpy's (wrap, round to f16)."""
    h = np.array([0, 1, 100, 127, 200, 255], dtype=np.int64).astype(dt.numpy)
    sq = wg.ElementwiseKernel("T x", "T z", "z = x * x;", "square")
    with np.errstate(all="ignore"):
        want = (h * h).astype(dt.numpy)
    assert_same(sq(wg.asarray(h)).numpy(), want)


def test_elementwise_bad_input_raises_and_keeps_arrays():
    a = wg.asarray(np.arange(4, dtype=np.int32))
    before = a.numpy().copy()
    f32 = wg.ElementwiseKernel("float32 x", "float32 z", "z = x;", "f32")
    with pytest.raises(TypeError, match="int32 to float32"):  # int32 -> float32 is not a safe cast
        f32(a)
    with pytest.raises(TypeError, match="float 1.5 to int32"):
        wg.ElementwiseKernel("int32 x", "int32 z", "z = x;", "i32")(1.5)
    with pytest.raises(TypeError, match="placeholder T is bound to both"):
        SUB(a, wg.asarray(np.float32([1])))
    with pytest.raises(TypeError, match="wrong number of arguments"):
        SUB(a)
    with pytest.raises(TypeError, match="has dtype int32, the kernel writes float32"):
        AXPY(1.0, wg.ones(4), wg.ones(4), a)
    with pytest.raises(ValueError, match="has shape"):
        AXPY(1.0, wg.ones((2, 4)), wg.ones(4), wg.ones(4))
    with pytest.raises(ValueError, match="broadcast"):
        SUB(a, wg.asarray(np.int32([1, 2, 3])))
    with pytest.raises(TypeError, match="numpy|ndarray"):
        SUB(np.arange(3), a)
    with pytest.raises(ValueError, match="type name"):
        wg.ElementwiseKernel("float32", "float32 z", "z = 1.0;")
    with pytest.raises(ValueError, match="not a usable parameter name"):
        wg.ElementwiseKernel("float32 i", "float32 z", "z = 1.0;")
    with pytest.raises(ValueError, match="must differ"):
        wg.ElementwiseKernel("float32 x", "float32 x", "x = 1.0;")
    with pytest.raises(TypeError, match="cannot infer"):
        wg.ElementwiseKernel("float32 x", "U z", "z = x;", "u")(wg.ones(2))
    np.testing.assert_array_equal(a.numpy(), before)


def test_elementwise_invalid_wgsl_names_the_line_and_device_stays_usable():
    bad = wg.ElementwiseKernel("float32 x", "float32 z", "z = x +* 2.0;", "broken")
    a = wg.asarray(np.float32([1, 2]))
    with pytest.raises(CompileError) as info:
        bad(a)
    msg = str(info.value)
    assert "broken" in msg and "z = x +* 2.0;" in msg and "wgsl:" in msg
    assert isinstance(info.value, ValueError)
    np.testing.assert_array_equal((a + 1).numpy(), [2, 3])
    with pytest.raises(CompileError):  # not cached: compiling again fails again
        bad(a)


@given(st.data())
@settings(max_examples=15)
def test_reduction_kernel_axes_keepdims(data):
    shape = data.draw(shapes(max_dims=3, max_side=6))
    axis = data.draw(reduction_args(len(shape)))
    keepdims = data.draw(st.booleans())
    h = data.draw(values(wg.int32, shape, small=True))
    x, h = data.draw(view_of(h, wg.int32))
    ssq = wg.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", 0, "ssq")
    got = ssq(x, axis=axis, keepdims=keepdims)
    want = np.sum(h.astype(np.int32) ** 2, axis=axis, keepdims=keepdims, dtype=np.int32)
    assert got.dtype is wg.int32
    assert_same(got.numpy(), want)


def test_reduction_kernel_float_identity_post_map_two_inputs():
    rng = np.random.default_rng(0)
    h = rng.standard_normal((7, 300)).astype(np.float32)
    l2 = wg.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", 0, "l2norm")
    np.testing.assert_allclose(l2(wg.asarray(h), axis=1).numpy(), np.linalg.norm(h, axis=1), rtol=1e-5)
    mx = wg.ReductionKernel("float32 x", "float32 y", "x", "max(a, b)", "y = a", "-inf", "mx")
    np.testing.assert_array_equal(mx(wg.asarray(h), axis=0).numpy(), h.max(axis=0))
    assert mx(wg.zeros((0,), dtype=wg.float32)).numpy() == -np.inf  # empty: the identity
    dot = wg.ReductionKernel("float32 x, float32 y", "float32 z", "x * y", "a + b", "z = a", 0, "dot")
    w = rng.standard_normal(300).astype(np.float32)
    np.testing.assert_allclose(dot(wg.asarray(h), wg.asarray(w), axis=1).numpy(), h @ w, rtol=1e-4, atol=1e-4)
    # a reduce type wider than the inputs: counts of a bool mask
    count = wg.ReductionKernel("bool m", "int32 c", "m", "a + b", "c = a", 0, "count", reduce_type="int32")
    mask = h > 0
    np.testing.assert_array_equal(count(wg.asarray(mask), axis=1).numpy(), mask.sum(axis=1))
    with pytest.raises(TypeError, match="identity"):
        wg.ReductionKernel("float32 x", "float32 y", "x", "a + b", "y = a", None)
    with pytest.raises(CompileError, match="bad"):
        wg.ReductionKernel("float32 x", "float32 y", "x", "a +* b", "y = a", 0, "bad")(wg.asarray(h))


SCALE = """
struct P { k: f32, n: u32 }
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
@group(1) @binding(0) var<uniform> p: P;

@compute @workgroup_size(64)
fn scale(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < p.n) {
        y[g.x] = p.k * x[g.x];
    }
}
"""


def test_raw_kernel_binds_arrays_and_packs_scalars():
    k = wg.RawKernel(SCALE, "scale")
    h = np.arange(100, dtype=np.float32)
    x = wg.asarray(h)  # host-only: uploaded first
    y = wg.zeros(100, dtype=wg.float32)
    y.numpy()  # host-valid before the launch: the launch must make it stale
    k((2,), 64, (x, y, 2.5, np.uint32(70)))
    want = np.where(np.arange(100) < 70, 2.5 * h, 0).astype(np.float32)
    np.testing.assert_array_equal(y.numpy(), want)
    np.testing.assert_array_equal(x.numpy(), h)
    np.testing.assert_array_equal((y + 1).numpy(), want + 1)  # device-valid for the next kernel too
    with pytest.raises(ValueError, match="workgroup_size"):
        k((2,), 32, (x, y, 2.5, np.uint32(70)))
    with pytest.raises(ValueError, match="view"):
        k((1,), 64, (x[1:], y, 2.5, np.uint32(1)))
    with pytest.raises(ValueError, match="already bound"):
        k((1,), 64, (y, y, 2.5, np.uint32(1)))
    with pytest.raises(TypeError, match="str"):
        k((1,), 64, (x, y, "2.5", np.uint32(1)))


def test_raw_kernel_narrow_dtypes_are_words():
    """int8 and bool arrays are i32 / u32 words on the device; stores narrow on download as numpy's astype."""
    code = """
@group(0) @binding(0) var<storage, read_write> a: array<i32>;
@group(0) @binding(1) var<storage, read_write> m: array<u32>;
@group(1) @binding(0) var<uniform> n: i32;
@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    let j = i32(g.x);
    if (j < n) {
        a[j] = a[j] * 2 - 1;
        m[j] = select(0u, 1u, a[j] > 0);
    }
}
"""
    h = np.array([-3, 0, 5, 60, -64, 1], dtype=np.int8)
    a = wg.asarray(h)
    m = wg.zeros(6, dtype=wg.bool)
    wg.RawKernel(code)((1,), 8, (a, m, 6))
    wide = h.astype(np.int32) * 2 - 1  # the kernel computes on i32 words: -64 gives -129 there
    np.testing.assert_array_equal(a.numpy(), wide.astype(np.int8))  # narrowed on download (wraps to 127)
    np.testing.assert_array_equal(m.numpy(), wide > 0)


def test_raw_kernel_invalid_wgsl_then_device_usable():
    bad = wg.RawKernel("@compute @workgroup_size(1)\nfn main() {\n    let v: f32 = 1u;\n}\n")
    with pytest.raises(CompileError) as info:
        bad((1,), 1, ())
    msg = str(info.value)
    assert "wgsl:3:" in msg and "let v: f32 = 1u;" in msg  # naga's message with the line
    missing = wg.RawKernel("@compute @workgroup_size(1)\nfn main() {}\n", "other")
    with pytest.raises(CompileError, match="other"):
        missing((1,), 1, ())
    np.testing.assert_array_equal((wg.arange(3) * 2).numpy(), [0, 2, 4])
