"""A fuzz target: random programs of 10-40 random public operations with random (often bad) arguments.

Every step must either return a result or raise one of the exception classes a user can expect from numpy-style
code (``expect.EXPECTED``), raised by wgarray, numpy or Python itself and not from inside wgpu, with a message, and
without wgpu logging an error.  After each step that raised, the device must still compute correctly and every
array created so far must still read back the values it had before the step.

Arguments are drawn from a pool of live arrays (every dtype the device supports, 0-d, empty, views: strided and
negative-step slices, transposes, broadcasts, all residencies), fresh arrays, Python and numpy scalars, and bad
values: wrong types, None, strings, NaN or floats as sizes and axes, huge and negative integers, out-of-range axes,
arrays of a second device.  The operations come from one table (``OPS``: name -> drawing of the arguments and the
call) covering elementwise functions and operators (in place too), reductions, cumulative and statistical
functions, matmul and linalg, indexing (getitem/setitem, take), creation, manipulation, sorting, searching and set
functions, and conversions to Python scalars.

``STATS`` counts examples, steps, results and the exception classes seen (tests read it; nothing is printed).
"""
from __future__ import annotations

import logging
import math
import operator
from collections import Counter
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, note, settings, strategies as st
from hypothesis.extra import numpy as hnp

import wgarray as wg
from wgarray.kernels.ewtable import BINARY, UNARY

from expect import WgpuLog, unexpected
from strategies import supported

# numpy warns when a cast overflows or meets NaN, and on division by zero in host-side bookkeeping
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

STATS: Counter = Counter()

DTYPES = supported()
POOL_MAX = 8  # live arrays a program keeps (older ones are dropped, which frees their device blocks)
READ_MAX = 4096  # results with more elements are not kept (a huge broadcast view must not be read back)


WGPU_LOG = WgpuLog()
logging.getLogger("wgpu").addHandler(WGPU_LOG)


def same(got: np.ndarray, want: np.ndarray) -> bool:
    """Bit for bit (a host read of an unchanged array)."""
    return got.shape == want.shape and got.dtype == want.dtype and got.tobytes() == want.tobytes()


def same_values(got: np.ndarray, want: np.ndarray) -> bool:
    """Equal values, NaN equal to NaN, -0.0 distinct from 0.0 (a device copy may not keep NaN payloads)."""
    if got.shape != want.shape or got.dtype != want.dtype:
        return False
    if got.dtype.kind == "c":  # each part as a float
        return same_values(np.ascontiguousarray(got.real), np.ascontiguousarray(want.real)) and \
            same_values(np.ascontiguousarray(got.imag), np.ascontiguousarray(want.imag))
    if got.dtype.kind == "f":
        return bool(np.all(((got == want) & (np.signbit(got) == np.signbit(want))) | (np.isnan(got) & np.isnan(want))))
    return bool(np.array_equal(got, want))


# -- values --------------------------------------------------------------------------------------------------------
def make_values(dtype, shape, seed: int) -> np.ndarray:
    """Values of ``dtype`` with extremes and (for floats) NaN, infinities and -0.0."""
    rng = np.random.default_rng(seed)
    npd = dtype.numpy
    n = math.prod(shape)
    if dtype.kind == "b":
        return (rng.random(n) < 0.5).reshape(shape)
    if dtype.kind in "iu":
        info = np.iinfo(npd)
        v = rng.integers(max(info.min, -5), min(info.max, 6) + 1, n, dtype=np.int64).astype(npd)
        extremes = np.array([info.min, info.max, 0, 1], dtype=npd)
    else:
        v = (rng.standard_normal(n) * 3).astype(npd)
        fi = np.finfo(npd)
        extremes = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, fi.max, -fi.max, fi.tiny], dtype=npd)
    special = rng.random(n) < 0.15
    v[special] = rng.choice(extremes, int(special.sum()))
    return v.reshape(shape)


SHAPES = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)
INTS = st.integers(-5, 5)
HUGE_INTS = [2**31, 2**32 + 1, 2**63, 2**64, 2**70, -(2**63) - 1, 10**400]
BAD_COMMON = [None, "abc", "", b"xy", 1j, 1.5, math.nan, math.inf, -math.inf, {"a": 1}, [1, "a"],
              [[1, 2], [3]], np.float64(np.nan), *HUGE_INTS, -1, -7, True, Decimal("1.5"), Fraction(1, 3),
              np.complex64(1j), np.datetime64("2020-01-01"), np.array(["a", "b"]), np.array([1j, 2]),
              np.zeros(2, dtype=[("a", "i4"), ("b", "f4")]), np.zeros(2, dtype="M8[s]"), np.array([object()]),
              np.float32(-0.0), range(3), {1, 2}]


class World:
    """One program's state: the pool of live arrays with the values each must read back, and the draws."""

    def __init__(self, data, other) -> None:
        self.data = data
        self.other = other
        self.pool: list[wg.Array] = []
        self.known: list[np.ndarray] = []
        self.bad_objects = [object(), wg, wg.default_device(), operator.add]

    # -- drawing ----------------------------------------------------------------------------------------------
    def draw(self, strategy, label=None):
        return self.data.draw(strategy, label=label)

    def chance(self, percent: int) -> bool:
        return self.draw(st.integers(0, 99)) < percent

    def pick(self, options):
        return self.draw(st.sampled_from(options))

    def bad(self):
        """A value no function should accept where an array, a size, an axis or a dtype is expected."""
        k = self.draw(st.integers(0, len(BAD_COMMON) + len(self.bad_objects)))
        if k < len(BAD_COMMON):
            return BAD_COMMON[k]
        if k < len(BAD_COMMON) + len(self.bad_objects):
            return self.bad_objects[k - len(BAD_COMMON)]
        return self.fresh(device=self.other)  # an array of the other device

    def fresh(self, dtype=None, shape=None, device=None) -> wg.Array:
        dtype = self.pick(DTYPES) if dtype is None else dtype
        if shape is None:
            shape = self.draw(SHAPES) if self.chance(95) else tuple(self.draw(st.lists(
                st.integers(1, 2), min_size=5, max_size=11)))  # more dimensions than a kernel addresses
        host = make_values(dtype, shape, self.draw(st.integers(0, 2**32 - 1)))
        x = wg.asarray(host, device=device)
        how = self.pick(["host", "device", "both"])
        if how == "device":
            x = x.copy()
        elif how == "both":
            x.copy()  # uploads x
        return x

    def view(self, x: wg.Array) -> wg.Array:
        how = self.pick(["slice", "T", "newaxis", "flip", "bcast", "index"])
        if x.ndim == 0 or how == "newaxis":
            return x[None]
        if how == "slice":
            key = tuple(slice(self.pick([None, 0, 1, -1]), self.pick([None, -1, 3]), self.pick([1, 2, -1, -2, 3]))
                        for _ in range(x.ndim))
            return x[key]
        if how == "T":
            return x.mT if x.ndim >= 2 else x[::-1]
        if how == "flip":
            return wg.flip(x)
        if how == "bcast":
            return wg.broadcast_to(x, (2,) + x.shape)
        return x[0] if x.shape[0] else x[None]

    def array(self, bad=10):
        """An array argument: mostly a pool array, else a fresh one or a view; sometimes a bad value."""
        if self.chance(bad):
            return self.bad()
        r = self.draw(st.integers(0, 9))
        if r < 6 and self.pool:
            return self.pick(self.pool)
        if r < 8 or not self.pool:
            return self.fresh()
        return self.view(self.pick(self.pool))

    def int_array(self):
        if self.chance(70):
            dt = self.pick([d for d in DTYPES if d.kind in "iu"])
            shape = self.draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=4))
            vals = self.draw(hnp.arrays(np.int64, shape, elements=st.integers(-5, 5)))
            if dt.kind == "u":
                vals = np.abs(vals)
            return wg.asarray(vals.astype(dt.numpy))
        return self.array()

    def scalar(self):
        return self.pick([0, 1, -1, 2, 7, -3, 0.5, -2.5, 0.0, -0.0, math.nan, math.inf, -math.inf, True, False,
                          255, 65536, 2**31 - 1, -(2**31), 2**40, 1e30, np.float32(1.5), np.int8(-3),
                          np.uint16(9), np.bool_(True), np.float64(-0.0)])

    def value(self):
        """An operand: an array, a Python or numpy scalar, a list, or a bad value."""
        r = self.draw(st.integers(0, 19))
        if r < 11:
            return self.array(bad=0)
        if r < 16:
            return self.scalar()
        if r < 18:
            return self.pick([[1, 2, 3], [[1.5], [-2.0]], [True, False], np.arange(4, dtype=np.int16),
                              np.ones((2, 1), np.float32), [], 3 + 0j])
        return self.bad()

    def axis(self):
        r = self.draw(st.integers(0, 9))
        if r < 3:
            return None
        if r < 7:
            return self.draw(st.integers(-4, 4))
        if r < 9:
            return tuple(self.draw(st.lists(st.integers(-4, 4), max_size=3)))
        return self.bad()

    def axis1(self):
        return self.bad() if self.chance(10) else self.draw(st.integers(-4, 4))

    def size(self):
        if self.chance(15):
            return self.bad()
        return self.draw(st.integers(0, 5)) if self.chance(85) else self.pick([-1, -5, 2**40, 2**62])

    def shape(self, allow_minus_one=False):
        r = self.draw(st.integers(0, 19))
        if r < 13:
            return tuple(self.draw(st.lists(st.sampled_from([0, 1, 2, 3, 4] + ([-1] if allow_minus_one else [])),
                                            max_size=4)))
        if r < 15:
            return self.draw(st.integers(0, 6))
        if r < 17:
            return tuple(self.pick([(2, -3), (-1,), (2**40, 2**40), (2**31, 0), (3, 2**62), (1.5, 2), ("3",),
                                    (math.nan,), (None, 2), [2, 3], np.array([2, 2])]))
        return self.bad()

    def dtype(self):
        r = self.draw(st.integers(0, 9))
        if r < 4:
            return None
        if r < 8:
            return self.pick(DTYPES)
        return self.pick(["float32", "int8", np.float64, np.dtype("uint16"), bool, int, float, "complex64",
                          np.complex128, "abc", object, str, 5, "float128" if hasattr(np, "float128") else "V8",
                          np.dtype("M8[s]")])

    def flag(self):
        return self.pick([True, False, None, 0, 1, "yes"]) if self.chance(20) else self.pick([True, False])

    def device(self):
        return self.pick([None, None, wg.default_device(), self.other, "cpu", 0, "llvmpipe"])

    def partner(self, x):
        """A second operand for x: often one that broadcasts with it (same shape, its last dimension, all ones, a
        scalar), else any operand."""
        if not isinstance(x, wg.Array) or self.chance(35):
            return self.value()
        r = self.draw(st.integers(0, 4))
        if r == 0:
            return self.scalar()
        shape = [x.shape, x.shape[-1:], (1,) * x.ndim, x.shape[1:]][r - 1]
        y = self.fresh(shape=shape)
        return self.view(y) if self.chance(20) and y.ndim else y

    def valid_key(self, x: wg.Array):
        """An index that fits x: in-range integers, slices, one kind of integer-array index, a full mask, None
        and ... (bad entries come from ``key``)."""
        if x.ndim and self.chance(12):
            return wg.asarray(make_values(wg.bool, x.shape, self.draw(st.integers(0, 2**32 - 1))))
        parts = []
        k = self.draw(st.integers(1, 3))
        for d, n in enumerate(x.shape):  # noqa: B007
            r = self.draw(st.integers(0, 5))
            if r == 0 and n:
                parts.append(self.draw(st.integers(-n, n - 1)))
            elif r == 1:
                parts.append(slice(self.draw(st.integers(-n - 1, n + 1)), self.draw(st.integers(-n - 1, n + 1)),
                                   self.pick([1, 2, -1, -3, None])))
            elif r == 2 and n:
                vals = self.draw(hnp.arrays(np.int64, (k,), elements=st.integers(-n, n - 1)))
                parts.append(self.pick([wg.asarray(vals.astype(np.int32)), vals.tolist(), vals]))
            else:
                parts.append(slice(None))
        if self.chance(25):
            parts.insert(self.draw(st.integers(0, len(parts))), self.pick([None, Ellipsis]))
        if self.chance(30) and parts:
            parts = parts[:self.draw(st.integers(0, len(parts)))]
        return tuple(parts) if len(parts) != 1 or self.chance(50) else parts[0]

    def set_value(self, x, key):
        """A value for x[key] = value: mostly one that fits the selection."""
        r = self.draw(st.integers(0, 9))
        if r < 4 or not isinstance(x, wg.Array):
            return self.scalar() if r < 3 else self.value()
        try:
            shape = x[key].shape
        except Exception:  # noqa: BLE001 - the key is bad: any value will do
            return self.value()
        shape = shape if r < 8 else shape[1:]
        v = self.fresh(shape=shape, dtype=self.pick([x.dtype] + DTYPES))
        return v if self.chance(80) else v.numpy().tolist()

    def key(self, x):
        """An index for x: integers, slices, None, ..., boolean masks, integer arrays, lists, or bad entries."""
        if isinstance(x, wg.Array) and self.chance(60):
            return self.valid_key(x)
        nd = x.ndim if isinstance(x, wg.Array) else 1
        n = self.draw(st.integers(0, max(nd, 1) + 1))
        parts = []
        for d in range(n):
            r = self.draw(st.integers(0, 19))
            if r < 5:
                parts.append(self.draw(st.integers(-5, 5)))
            elif r < 10:
                parts.append(slice(self.pick([None, 0, 1, -1, -3, 5]), self.pick([None, 0, 2, -1, 9]),
                                   self.pick([None, 1, 2, -1, -2, 3, 0])))
            elif r < 11:
                parts.append(None)
            elif r < 12:
                parts.append(Ellipsis)
            elif r < 14:  # a boolean mask over the next dimensions (often matching)
                m_shape = tuple(x.shape[d:d + self.draw(st.integers(1, 2))]) if isinstance(x, wg.Array) else (2,)
                if self.chance(20):
                    m_shape = self.draw(SHAPES)
                parts.append(wg.asarray(make_values(wg.bool, m_shape, self.draw(st.integers(0, 2**32 - 1)))))
            elif r < 16:
                parts.append(self.int_array())
            elif r < 17:
                parts.append(self.pick([[0, 1], [-1], [], [[0], [1]], [True, False], np.array([1, 0, 2])]))
            else:
                parts.append(self.pick([1.5, "a", math.nan, 2**70, True, [1.5], np.float32(1), np.array([0.5]),
                                        self.fresh(device=self.other), self.fresh(dtype=wg.float32, shape=(2,))]))
        if n == 1 and self.chance(50):
            return parts[0]
        return tuple(parts)

    def arrays(self):
        """A list of arrays for concat/stack/meshgrid/broadcast_arrays (often alike), or a bad value."""
        if self.chance(10):
            return self.bad()
        first = self.array(bad=0)
        k = self.draw(st.integers(0, 3))
        out = [first]
        for _ in range(k):
            if isinstance(first, wg.Array) and self.chance(60):
                out.append(self.fresh(shape=first.shape, dtype=self.pick([first.dtype] + DTYPES)))
            else:
                out.append(self.value())
        return out if self.chance(70) else tuple(out)

    # -- the pool -------------------------------------------------------------------------------------------------
    def collect(self, result) -> None:
        if isinstance(result, wg.Array):
            if result.size <= READ_MAX and not result.device.closed:
                self.pool.append(result)
                self.known.append(result.numpy())  # a result that was returned must read back
                if len(self.pool) > POOL_MAX:
                    del self.pool[0], self.known[0]
        elif isinstance(result, (tuple, list)):
            for r in result[:4]:
                self.collect(r)

    def refresh(self) -> None:
        """After a write that succeeded: what every live array reads now."""
        self.known = [x.numpy() for x in self.pool]

    def check_pool(self, what: str) -> None:
        """Every live array reads back what it held (a host read where the host side is valid)."""
        for i, (x, k) in enumerate(zip(self.pool, self.known)):
            got = x.numpy()
            assert same(got, k), f"pool array {i} {describe(x)} changed after {what}: {got!r} != {k!r}"

    def check_intact(self, what: str) -> None:
        """The devices compute, and every live array holds its values on the host and on the device."""
        dev = wg.default_device()
        assert not dev.closed
        y = wg.asarray(np.array([1, 2, 3], np.int32))
        assert (y * 2).numpy().tolist() == [2, 4, 6], f"the device computes wrongly after {what}"
        assert wg.sum(wg.asarray(np.array([1.5, 2.5], np.float32))).item() == 4.0
        o = wg.asarray(np.array([1.0, 2.0], np.float32), device=self.other)
        assert (o + 1).numpy().tolist() == [2.0, 3.0], f"the second device computes wrongly after {what}"
        self.check_pool(what)
        for i, (x, k) in enumerate(zip(self.pool, self.known)):
            if x.residency:  # never written (wg.empty): host and device garbage differ
                got = x.copy().numpy()  # through the device side
                assert same_values(got, k), f"pool array {i} {describe(x)} changed on the device after {what}: " \
                                            f"{got!r} != {k!r}"


def describe(v, depth=0) -> str:
    if isinstance(v, wg.Array):
        where = "" if v.device is wg.default_device() else f"@dev{v.device.index}"
        return f"<{v.dtype.name}{list(v.shape)}{where}>"
    if isinstance(v, np.ndarray):
        return f"np<{v.dtype}{list(v.shape)}>"
    if isinstance(v, (list, tuple)) and depth < 3:
        inner = ", ".join(describe(e, depth + 1) for e in v[:6])
        return f"[{inner}]" if isinstance(v, list) else f"({inner}{',' if len(v) == 1 else ''})"
    r = repr(v)
    return r if len(r) < 60 else r[:57] + "..."


# -- the operations --------------------------------------------------------------------------------------------
# Each entry draws its arguments from the world and returns (call description, thunk, mutates).
OPS: dict = {}


def op(name, mutates=False):
    def register(fn):
        OPS[name] = (fn, mutates)
        return fn
    return register


def _kw(w: World, **gens) -> dict:
    """Keyword arguments, each present half the time."""
    return {k: g() for k, g in gens.items() if w.chance(50)}


BINOPS = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod,
          operator.pow, operator.and_, operator.or_, operator.xor, operator.lshift, operator.rshift, operator.lt,
          operator.le, operator.gt, operator.ge, operator.eq, operator.ne, operator.matmul]
IOPS = [operator.iadd, operator.isub, operator.imul, operator.itruediv, operator.ifloordiv, operator.imod,
        operator.ipow, operator.iand, operator.ior, operator.ixor, operator.ilshift, operator.irshift,
        operator.imatmul]


@op("unary")
def _unary(w):
    f = getattr(wg, w.pick(UNARY))
    return f, (w.array(),), {}


@op("binary")
def _binary(w):
    f = getattr(wg, w.pick(BINARY))
    x = w.array()
    args = (x, w.partner(x)) if w.chance(70) else (w.partner(x), x)
    return f, args, {}


@op("operator")
def _operator(w):
    f = w.pick(BINOPS)
    x = w.array(bad=0)
    args = (x, w.partner(x)) if w.chance(70) else (w.partner(x), x)
    return f, args, {}


@op("unary_operator")
def _unary_operator(w):
    return w.pick([operator.neg, operator.pos, operator.abs, operator.invert]), (w.array(bad=0),), {}


@op("inplace", mutates=True)
def _inplace(w):
    x = w.array(bad=0)
    return w.pick(IOPS), (x, w.partner(x)), {}


@op("where")
def _where(w):
    cond = w.array() if w.chance(50) else w.fresh(dtype=wg.bool)
    return wg.where, (cond, w.partner(cond), w.partner(cond)), {}


@op("clip")
def _clip(w):
    return wg.clip, (w.array(),), _kw(w, min=w.value, max=w.value)


@op("reduce")
def _reduce(w):
    name = w.pick(["sum", "prod", "mean", "max", "min", "any", "all", "argmax", "argmin", "count_nonzero"])
    kw = _kw(w, axis=w.axis, keepdims=w.flag)
    if name in ("sum", "prod") and w.chance(40):
        kw["dtype"] = w.dtype()
    return getattr(wg, name), (w.array(),), kw


@op("method_reduce")
def _method_reduce(w):
    x = w.array(bad=0)
    name = w.pick(["sum", "prod", "mean", "max", "min", "any", "all", "argmax", "argmin"])
    if not isinstance(x, wg.Array):
        return wg.sum, (x,), {}
    return getattr(x, name), (), _kw(w, axis=w.axis, keepdims=w.flag)


@op("cumulative")
def _cumulative(w):
    f = w.pick([wg.cumulative_sum, wg.cumulative_prod])
    return f, (w.array(),), _kw(w, axis=lambda: w.axis1() if w.chance(70) else None, dtype=w.dtype,
                                include_initial=w.flag)


@op("statistics")
def _statistics(w):
    f = w.pick([wg.std, wg.var])
    return f, (w.array(),), _kw(w, axis=w.axis, correction=lambda: w.pick([0, 1, 1.5, 7, -1, None, "1", math.nan]),
                                keepdims=w.flag)


@op("diff")
def _diff(w):
    x = w.array()
    extra = (lambda: w.partner(x)) if isinstance(x, wg.Array) else w.value
    return wg.diff, (x,), _kw(w, axis=lambda: w.axis1() if w.chance(50) else -1, n=w.size, prepend=extra,
                              append=extra)


@op("matmul")
def _matmul(w):
    if w.chance(60):  # shapes that fit, of random dtypes and layouts
        m, k, n = (w.draw(st.integers(0, 5)) for _ in range(3))
        batch = tuple(w.draw(st.lists(st.integers(1, 2), max_size=2)))
        a = w.fresh(shape=batch + (m, k))
        b = w.fresh(shape=(k, n) if w.chance(50) else (k,))
        if w.chance(30):
            a = a.mT.mT if a.ndim >= 2 else a
        return w.pick([wg.matmul, operator.matmul, wg.linalg.matmul]), (a, b), {}
    return w.pick([wg.matmul, operator.matmul]), (w.array(), w.array()), {}


@op("linalg")
def _linalg(w):
    name = w.pick(["tensordot", "vecdot", "outer", "trace", "diagonal", "cross", "vector_norm", "matrix_norm",
                   "matrix_transpose"])
    f = getattr(wg.linalg, name)
    if name == "tensordot":
        return f, (w.array(), w.array()), _kw(w, axes=lambda: w.pick([0, 1, 2, 3, -1, ((0,), (1,)), ([0, 1], [1]),
                                                                     "x", 1.5, None]))
    if name in ("vecdot", "cross"):
        return f, (w.array(), w.array()), _kw(w, axis=w.axis1)
    if name == "outer":
        return f, (w.array(), w.array()), {}
    if name in ("trace", "diagonal"):
        return f, (w.array(),), _kw(w, offset=lambda: w.pick([0, 1, -1, 5, -9, 2**40, 1.5]))
    if name == "vector_norm":
        return f, (w.array(),), _kw(w, axis=w.axis, keepdims=w.flag,
                                    ord=lambda: w.pick([1, 2, 0, 3, math.inf, -math.inf, 0.5, -1, "fro", None]))
    if name == "matrix_norm":
        return f, (w.array(),), _kw(w, keepdims=w.flag,
                                    ord=lambda: w.pick(["fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf, 3, None]))
    return f, (w.array(),), {}


@op("getitem")
def _getitem(w):
    x = w.array(bad=0)
    return operator.getitem, (x, w.key(x)), {}


@op("setitem", mutates=True)
def _setitem(w):
    x = w.array(bad=0)
    key = w.key(x)
    return operator.setitem, (x, key, w.set_value(x, key)), {}


def _aug_setitem(x, key, value):
    x[key] += value


@op("aug_setitem", mutates=True)
def _aug(w):
    x = w.array(bad=0)
    key = w.key(x)
    return _aug_setitem, (x, key, w.set_value(x, key)), {}


@op("take")
def _take(w):
    x = w.array()
    if w.chance(50):
        return wg.take, (x, w.int_array()), _kw(w, axis=lambda: w.axis1() if w.chance(80) else None)
    return wg.take_along_axis, (x, w.int_array()), _kw(w, axis=w.axis1)


@op("fill_creation")
def _fill_creation(w):
    name = w.pick(["zeros", "ones", "empty", "full"])
    args = (w.shape(),) + ((w.scalar() if w.chance(85) else w.bad(),) if name == "full" else ())
    return getattr(wg, name), args, _kw(w, dtype=w.dtype, device=w.device)


@op("like_creation")
def _like_creation(w):
    name = w.pick(["zeros_like", "ones_like", "empty_like", "full_like"])
    args = (w.array(),) + ((w.scalar() if w.chance(85) else w.bad(),) if name == "full_like" else ())
    return getattr(wg, name), args, _kw(w, dtype=w.dtype, device=w.device)


def _number(w):
    return w.pick([0, 1, 3, -2, 5, 0.5, 2.5, -1.5, 0.1, np.int16(4), np.float32(2.0)]) if w.chance(85) else w.bad()


@op("range_creation")
def _range_creation(w):
    name = w.pick(["arange", "linspace", "eye"])
    if name == "arange":
        args = tuple(_number(w) for _ in range(w.draw(st.integers(1, 3))))
        return wg.arange, args, _kw(w, dtype=w.dtype, device=w.device)
    if name == "linspace":
        return wg.linspace, (_number(w), _number(w), w.size()), _kw(w, dtype=w.dtype, endpoint=w.flag,
                                                                    device=w.device)
    args = (w.size(),) + ((w.size(),) if w.chance(50) else ())
    return wg.eye, args, _kw(w, k=lambda: w.pick([0, 1, -1, 3, -7, 2**40, 1.5, None]), dtype=w.dtype)


@op("asarray")
def _asarray(w):
    obj = w.pick([w.array(bad=0), w.scalar(), [1, 2], [[1.5, 2], [3, 4]], [True], [], [[]], [2**40], [2**70],
                  [1, 2.5], np.arange(6, dtype=np.uint8).reshape(2, 3), np.ones((2, 0)), np.float16(3.5),
                  memoryview(b"abcd"), np.arange(3)[::-1], range(4), w.bad()])
    return wg.asarray, (obj,), _kw(w, dtype=w.dtype, copy=w.flag, device=w.device)


@op("other_creation")
def _other_creation(w):
    name = w.pick(["meshgrid", "tril", "triu", "from_dlpack"])
    if name == "meshgrid":
        arrays = [w.fresh(shape=(w.draw(st.integers(0, 4)),)) if w.chance(80) else w.array()
                  for _ in range(w.draw(st.integers(0, 3)))]
        return wg.meshgrid, tuple(arrays), _kw(w, indexing=lambda: w.pick(["xy", "ij", "ab", None]))
    if name in ("tril", "triu"):
        return getattr(wg, name), (w.array(),), _kw(w, k=lambda: w.pick([0, 1, -1, 9, -9, 2**40, 1.5]))
    src = w.pick([w.array(bad=0), np.arange(5, dtype=np.float32), np.ones((2, 2), np.int64), w.bad()])
    return wg.from_dlpack, (src,), _kw(w, copy=w.flag, device=w.device)


@op("reshape")
def _reshape(w):
    x = w.array()
    if isinstance(x, wg.Array) and w.chance(50):  # a shape of the right size
        shape = w.pick([(-1,), (x.size,), (1, -1), (-1, 1), x.shape[::-1], (*x.shape, 1), ()])
    else:
        shape = w.shape(allow_minus_one=True)
    if w.chance(50) and isinstance(x, wg.Array):
        return x.reshape, (shape,), _kw(w, copy=w.flag)
    return wg.reshape, (x, shape), _kw(w, copy=w.flag)


@op("broadcast")
def _broadcast(w):
    if w.chance(50):
        return wg.broadcast_to, (w.array(), w.shape()), {}
    a = w.arrays()
    return wg.broadcast_arrays, (tuple(a) if isinstance(a, (list, tuple)) else (a,)), {}


@op("join")
def _join(w):
    f = w.pick([wg.concat, wg.stack])
    return f, (w.arrays(),), _kw(w, axis=lambda: w.axis1() if w.chance(85) else None)


@op("views")
def _views(w):
    name = w.pick(["expand_dims", "squeeze", "flip", "moveaxis", "permute_dims", "unstack", "matrix_transpose"])
    x = w.array()
    if name == "moveaxis":
        return wg.moveaxis, (x, w.axis1() if w.chance(70) else w.axis(), w.axis1() if w.chance(70) else w.axis()), {}
    if name == "permute_dims":
        nd = x.ndim if isinstance(x, wg.Array) else 1
        perm = list(range(nd))
        w.data.draw(st.randoms(use_true_random=False)).shuffle(perm)
        if w.chance(25):
            perm = w.pick([perm[:-1], perm + [0], [0] * nd, [p - nd for p in perm], [1.5] * nd, None])
        return wg.permute_dims, (x, perm), {}
    if name == "squeeze":
        return wg.squeeze, (x, w.axis()), {}
    if name in ("expand_dims", "unstack"):
        return getattr(wg, name), (x,), _kw(w, axis=w.axis1)
    if name == "flip":
        return wg.flip, (x,), _kw(w, axis=w.axis)
    return wg.matrix_transpose, (x,), {}


@op("copies")
def _copies(w):
    name = w.pick(["roll", "tile", "repeat"])
    x = w.array()
    if name == "roll":
        shift = w.pick([1, -2, 7, 0, (1, 2), [3], 2**40, 1.5, None])
        return wg.roll, (x, shift), _kw(w, axis=w.axis)
    if name == "tile":
        reps = w.pick([2, (2, 1), (1, 3, 2), (), 0, -1, (2**40,), 1.5, None, [2, 2]])
        return wg.tile, (x, reps), {}
    reps = w.size() if w.chance(70) else w.int_array()
    return wg.repeat, (x, reps), _kw(w, axis=lambda: w.axis1() if w.chance(80) else None)


@op("astype")
def _astype(w):
    x = w.array()
    r = w.draw(st.integers(0, 3))
    if r == 0 and isinstance(x, wg.Array):
        return x.astype, (w.dtype(),), _kw(w, copy=w.flag)
    if r == 1:
        return wg.astype, (x, w.dtype()), _kw(w, copy=w.flag, device=w.device)
    if r == 2 and isinstance(x, wg.Array):
        return x.to_device, (w.device(),), {}
    return (lambda v: v.copy()), (w.array(bad=0),), {}


@op("sorting")
def _sorting(w):
    f = w.pick([wg.sort, wg.argsort])
    return f, (w.array(),), _kw(w, axis=w.axis1, descending=w.flag, stable=w.flag)


@op("set")
def _set(w):
    f = w.pick([wg.unique_values, wg.unique_counts, wg.unique_inverse, wg.unique_all, wg.nonzero])
    return f, (w.array(),), {}


@op("searchsorted")
def _searchsorted(w):
    x1 = wg.sort(w.fresh(shape=(w.draw(st.integers(0, 6)),))) if w.chance(70) else w.array()
    kw = _kw(w, side=lambda: w.pick(["left", "right", "middle", None]))
    if w.chance(20):
        kw["sorter"] = w.int_array()
    return wg.searchsorted, (x1, w.value()), kw


@op("to_python")
def _to_python(w):
    x = w.array(bad=0)
    f = w.pick([lambda v: v.item(), float, int, bool, len, complex, operator.index, lambda v: v.tolist(), repr,
                lambda v: list(iter(v)), lambda v: np.asarray(v), lambda v: np.from_dlpack(v),
                lambda v: v.__dlpack__(copy=False), lambda v: v.T, lambda v: v.mT, lambda v: v.flatten(),
                lambda v: v.ravel(), lambda v: v.__array_namespace__(api_version="1999.01")])
    return f, (x,), {}


@op("dtype_functions")
def _dtype_functions(w):
    name = w.pick(["result_type", "can_cast", "finfo", "iinfo", "isdtype"])
    if name == "result_type":
        return wg.result_type, tuple(w.pick([w.array(bad=0), w.dtype(), w.scalar()]) for _ in range(
            w.draw(st.integers(0, 3)))), {}
    if name == "can_cast":
        return wg.can_cast, (w.pick([w.array(bad=0), w.dtype()]), w.dtype()), {}
    if name == "isdtype":
        return wg.isdtype, (w.dtype(), w.pick(["bool", "integral", "real floating", "numeric", ("integral", "bool"),
                                               "complex floating", "nope", 3, None, wg.float32])), {}
    return getattr(wg, name), (w.pick([w.array(bad=0), w.dtype()]),), {}


OP_NAMES = sorted(OPS)


# -- the program -------------------------------------------------------------------------------------------------
def run_program(data, other) -> None:
    w = World(data, other)
    for _ in range(data.draw(st.integers(2, 4), label="initial arrays")):
        w.collect(w.fresh())
    STATS["examples"] += 1
    for i in range(data.draw(st.integers(10, 40), label="steps")):
        name = w.pick(OP_NAMES)
        make, mutates = OPS[name]
        fn, args, kwargs = make(w)
        call = f"{name}: {getattr(fn, '__name__', fn)}({', '.join(describe(a) for a in args)}" + "".join(
            f", {k}={describe(v)}" for k, v in kwargs.items()) + ")"
        note(f"step {i}: {call}")
        logged = len(WGPU_LOG.records)
        STATS["steps"] += 1
        try:
            result = fn(*args, **kwargs)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as e:  # noqa: BLE001 - classifying every exception is the point
            why = unexpected(e)
            assert why is None, f"step {i} {call}: {why}: {e!r}"
            STATS[f"raised {type(e).__name__}"] += 1
            STATS[f"op {name} raised"] += 1
            del e
            w.check_intact(f"step {i} {call} raised")
        else:
            STATS["results"] += 1
            STATS[f"op {name} result"] += 1
            if mutates:
                w.refresh()
            else:
                w.check_pool(f"step {i} {call}")  # an operation that returned must not have written its inputs
            w.collect(result)
        new = WGPU_LOG.records[logged:]
        assert not new, f"step {i} {call}: wgpu logged errors: {[r.getMessage()[:300] for r in new]}"
    wg.default_device().synchronize()
    other.synchronize()
    w.check_intact("the program")


@pytest.fixture(scope="module")
def other_device():
    dev = wg.open_device()
    yield dev
    dev.close()


# A program takes ~0.13 s on lavapipe (its reads and the device checks after each refused step): ci runs 50 of
# them (~1,250 steps, each of the table's operations ~35 times; ``test_fuzz_reached_every_operation`` checks that
# none was left out); the slow variant runs 1,500 longer ones.
@settings(max_examples=50)
@given(data=st.data())
def test_fuzz_programs(other_device, data):
    run_program(data, other_device)


def test_fuzz_reached_every_operation():
    """The programs above called every operation of the table (a short run must not leave one out), and more than
    a tenth of all steps returned a result.  Runs after them (pytest keeps the file's order)."""
    if not STATS["examples"]:
        pytest.skip("test_fuzz_programs did not run in this session")
    called = {name for name in OPS if STATS[f"op {name} result"] + STATS[f"op {name} raised"]}
    assert called == set(OPS), sorted(set(OPS) - called)
    assert STATS["results"] > STATS["steps"] // 10, STATS


@pytest.mark.slow
@settings(max_examples=1500)
@given(data=st.data())
def test_fuzz_programs_long(other_device, data):
    run_program(data, other_device)


def test_fuzz_table_covers_the_groups():
    """The table reaches every group of the public namespace the fuzz is meant to cover."""
    for name in ("unary", "binary", "operator", "inplace", "reduce", "matmul", "getitem", "setitem",
                 "fill_creation", "range_creation", "asarray", "reshape", "join", "views", "copies", "sorting", "set",
                 "searchsorted", "take", "astype"):
        assert name in OPS
