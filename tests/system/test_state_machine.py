"""A stateful test of the mirror: random programs over several arrays and views of them, checked against a model.

The model keeps, per base (one Mirror, shared by every view of it):
  * the values (a numpy array) and which of them are known (``empty`` leaves elements unknown, and a few
    conversions whose result is unspecified or backend-dependent mark theirs unknown);
  * ``host_valid`` / ``device_valid``, updated by the residency rules (see tests/system/test_mirror.py).
From those it predicts, for every step, the exact upload/download counts and bytes (``bus_bytes`` of the whole
base), the submits (only at host reads and synchronize, or to order an upload after recorded work) and the residency
of every live array afterwards.  A view is a numpy view of its base's model (and of an array of element numbers,
which tells whether a write covers the whole base), made with the same index, so a write through any view updates
the model exactly as wgarray must update the base.  A kernel over zero elements runs nothing and changes nothing.

Two devices: arrays are created on the default device and ``to_device`` moves them to a second one (opened once per
module) and back; every step checks the transfer counters of both devices (``Expect`` accumulates them per device).
A device-to-device move counts a download on the source and an upload on the destination of the device layout's
bytes (``device_nbytes``, no narrowing and widening); a host-resident (or never written) source is copied on the
host and moves nothing.  Rules never mix arrays of the two devices, except ``mix_devices``, which checks that doing
so raises ValueError and changes nothing.

``matmul`` results are float32 sums computed in another order and precision than the model's: their elements are
"approximate" in the model (``tol`` >= 0: the absolute error allowed, from |a| @ |b|), compared within ``tol`` on a
read, unknown to every other rule (a same-dtype copy keeps ``tol``), and exact again once overwritten.
"""
from __future__ import annotations

import gc
import math
from collections import defaultdict
from dataclasses import fields

import numpy as np
import pytest
from hypothesis import HealthCheck, event, settings, strategies as st
from hypothesis.extra import numpy as hnp
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import wgarray as wg

from strategies import bus_bytes, supported

# numpy warns when a cast overflows or meets NaN (e.g. 70000 into float16, NaN into int); wgarray does as numpy
pytestmark = pytest.mark.filterwarnings("ignore:.*encountered in cast:RuntimeWarning")

DTYPES = supported([wg.bool, wg.int8, wg.int16, wg.int32, wg.int64, wg.uint8, wg.uint16, wg.uint32, wg.uint64,
                    wg.float16, wg.float32, wg.float64])
MAX_HANDLES = 14
_SECOND: list = []  # the second device, opened on first use, closed when the module's tests are done


def second_device() -> wg.Device:
    if not _SECOND:
        _SECOND.append(wg.open_device())
    return _SECOND[0]


@pytest.fixture(scope="module", autouse=True)
def _close_second_device():
    # The ``drop`` rule and each program's start run ``gc.collect()``, whose cost grows with everything the process
    # holds: after the rest of the suite (dask, scikit-learn, SciPy imported) that was ~0.3 s a call and tripled the
    # machine's time.  The earlier tests' objects are collected once here and frozen out of the collector's view;
    # everything the machine creates (its arrays and their cycles) stays collectable, so the rules check the same.
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()
    while _SECOND:
        _SECOND.pop().close()


# -- strategies ----------------------------------------------------------------------------------------------------
def shapes():
    return st.one_of(hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=5),
                     hnp.array_shapes(min_dims=1, max_dims=2, min_side=0, max_side=3))


def _specials(npd: np.dtype) -> np.ndarray:
    if npd.kind == "b":
        return np.array([False, True])
    if npd.kind in "iu":
        info = np.iinfo(npd)
        return np.array([info.min, info.max, 0, 1, info.max - 1] + ([-1] if npd.kind == "i" else []), npd)
    fi = np.finfo(npd)
    return np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, fi.max, -fi.max, fi.tiny,
                     fi.smallest_subnormal, -fi.smallest_subnormal], npd)


def array_values(dtype, shape):
    """Values of ``dtype`` with extremes, NaN, infinities, -0.0 and subnormals.  Small arrays are drawn element by
    element (shrinkable); larger ones from a drawn seed, so that long runs do not exhaust hypothesis's buffer."""
    npd = dtype.numpy
    if math.prod(shape) <= 4:
        elems = st.floats(width=npd.itemsize * 8) if dtype.kind == "f" else None
        return hnp.arrays(npd, shape, elements=elems)

    def seeded(seed: int) -> np.ndarray:
        rng = np.random.default_rng(seed)
        n = math.prod(shape)
        if npd.kind == "b":
            return rng.integers(0, 2, n).astype(bool).reshape(shape)
        # random bit patterns (every value, NaN payloads included) mixed with specials and small numbers
        raw = rng.integers(0, 256, n * npd.itemsize, dtype=np.uint8).view(npd)
        small = rng.integers(-100, 100, n).astype(npd)
        specials = rng.choice(_specials(npd), n)
        pick = rng.integers(0, 3, n)
        return np.where(pick == 0, raw, np.where(pick == 1, small, specials)).reshape(shape)
    return st.integers(0, 2**32 - 1).map(seeded)


def scalars(dtype):
    """Python scalars whose stored value is specified for ``dtype`` (floats into ints only when in range)."""
    if dtype.kind == "b":
        return st.one_of(st.booleans(), st.integers(-3, 3), st.floats(allow_nan=False, allow_infinity=False))
    if dtype.kind in "iu":
        info = np.iinfo(dtype.numpy)
        return st.one_of(st.integers(int(info.min), int(info.max)), st.booleans(),
                         st.floats(max(float(info.min), -1e6), min(float(info.max), 1e6)))
    return st.one_of(st.floats(width=64), st.integers(-70000, 70000), st.booleans())


@st.composite
def basic_index(draw, shape):
    """A basic index (ints, slices with any step, None, one Ellipsis) valid for ``shape``; often all of it."""
    if draw(st.integers(0, 3)) == 0:
        whole = [(Ellipsis,), (None, Ellipsis)] + [(slice(None, None, -1), Ellipsis)] * bool(shape)
        return draw(st.sampled_from(whole))
    parts = []
    for n in shape:
        kind = draw(st.sampled_from(["slice", "slice", "int", "full"]) if n else st.just("slice"))
        if kind == "int":
            parts.append(draw(st.integers(-n, n - 1)))
        elif kind == "full":
            parts.append(slice(None))
        else:
            bound = st.one_of(st.none(), st.integers(-n - 1, n + 1))
            parts.append(slice(draw(bound), draw(bound), draw(st.sampled_from([None, 1, 2, 3, -1, -2]))))
    # drop a suffix (implicit trailing slices), maybe put an Ellipsis and some Nones in
    keep = draw(st.integers(0, len(parts)))
    if keep < len(parts) and draw(st.booleans()):
        parts = parts[:keep] + [Ellipsis]
    elif keep < len(parts):
        parts = parts[:keep]
    for _ in range(draw(st.integers(0, 1))):
        parts.insert(draw(st.integers(0, len(parts))), None)
    if Ellipsis not in parts:  # the same meaning, and numpy then returns a view (not a scalar) for all-int keys
        parts.append(Ellipsis)
    return tuple(parts)


# -- the model -----------------------------------------------------------------------------------------------------
class Base:
    """What the model knows about one mirror."""

    def __init__(self, dtype, vals: np.ndarray, known: np.ndarray, host_valid: bool, device_valid: bool,
                 device: wg.Device, tol: np.ndarray):
        self.dtype = dtype
        self.vals = vals
        self.known = known
        self.tol = tol  # >= 0: an approximate element (a matmul result), the absolute error allowed; else -1
        self.host_valid = host_valid
        self.device_valid = device_valid
        self.device = device

    @property
    def size(self) -> int:
        return self.vals.size

    @property
    def device_nbytes(self) -> int:
        return self.size * self.dtype.device_itemsize  # what the device block holds

    @property
    def bus_nbytes(self) -> int:
        return bus_bytes(self.dtype, self.size)  # what one upload or download moves

    @property
    def residency(self) -> frozenset:
        return frozenset([s for s, v in (("host", self.host_valid), ("device", self.device_valid)) if v])


class Handle:
    """A live wgarray array with its numpy twin: views of its base's model values, known-mask, tolerances and
    element numbers (``idx``: which elements of the base the view holds)."""

    def __init__(self, arr: wg.Array, vals: np.ndarray, known: np.ndarray, base: Base, idx: np.ndarray | None = None,
                 tol: np.ndarray | None = None):
        idx = np.arange(vals.size).reshape(vals.shape) if idx is None else idx
        tol = base.tol if tol is None else tol
        assert arr.shape == vals.shape == known.shape == idx.shape == tol.shape, (
            arr.shape, vals.shape, known.shape, idx.shape, tol.shape)
        self.arr, self.vals, self.known, self.base, self.idx, self.tol = arr, vals, known, base, idx, tol

    def sub(self, arr: wg.Array, view) -> "Handle":
        """The handle of ``arr``, made from this one's array as ``view`` makes a numpy view of a numpy array."""
        return Handle(arr, view(self.vals), view(self.known), self.base, view(self.idx), view(self.tol))

    def __repr__(self) -> str:
        return f"<{self.arr.dtype.name}{list(self.arr.shape)} base {id(self.base) % 10000} on {self.arr.device}>"


class Moves:
    """Transfers of one device."""

    def __init__(self):
        self.uploads = self.bytes_uploaded = self.downloads = self.bytes_downloaded = 0

    def moved(self):
        return (self.uploads, self.bytes_uploaded, self.downloads, self.bytes_downloaded)


class Expect:
    """Transfers a step must cause, per device, accumulated while the model applies the rules."""

    def __init__(self):
        self.by_device: dict = defaultdict(Moves)

    def on(self, dev: wg.Device) -> Moves:
        return self.by_device[dev]

    def read_device(self, base: Base) -> None:
        """A kernel reads ``base``: uploaded when only the host side is valid."""
        if base.host_valid and not base.device_valid:
            m = self.on(base.device)
            m.uploads += 1
            m.bytes_uploaded += base.bus_nbytes
            base.device_valid = True

    def write_device(self, base: Base, whole: bool) -> None:
        """A kernel writes ``base``; a partial write reads (syncs) it first."""
        if not whole:
            self.read_device(base)
        base.device_valid, base.host_valid = True, False

    def read_host(self, base: Base) -> None:
        if base.device_valid and not base.host_valid:
            m = self.on(base.device)
            m.downloads += 1
            m.bytes_downloaded += base.bus_nbytes
            base.host_valid = True

    def read_view(self, base: Base, idx: np.ndarray) -> None:
        """A host read of a view holding base elements ``idx``: from a device-only base, a view spanning less than
        the base downloads only its span (device layout, host side stays stale); else ``read_host``."""
        lo, hi = (int(idx.min()), int(idx.max()) + 1) if idx.size else (0, 0)
        if base.device_valid and not base.host_valid and hi - lo < base.size:
            if hi > lo:
                m = self.on(base.device)
                m.downloads += 1
                m.bytes_downloaded += (hi - lo) * base.dtype.device_itemsize
            return
        self.read_host(base)

    @staticmethod
    def write_host(base: Base) -> None:
        base.host_valid, base.device_valid = True, False


def moved(s: wg.Stats):
    return (s.uploads, s.bytes_uploaded, s.downloads, s.bytes_downloaded)


def total(diffs) -> wg.Stats:
    """The sum of per-device stats differences."""
    return type(diffs[0])(**{f.name: sum(getattr(d, f.name) for d in diffs) for f in fields(diffs[0])})


def is_whole(h: Handle) -> bool:
    """The view holds every element of its base, in any order: a kernel that writes it needs no sync first."""
    return h.idx.size == h.base.size and np.unique(h.idx).size == h.base.size


def _subnormal(v: np.ndarray) -> np.ndarray:
    if v.dtype.kind != "f":
        return np.zeros(v.shape, bool)
    with np.errstate(invalid="ignore"):
        return (v != 0) & (np.abs(v) < np.finfo(v.dtype).tiny)


def exact_cast(v: np.ndarray, dst: np.dtype) -> np.ndarray:
    """Where ``v.astype(dst)`` is specified and the same on every backend (numpy's result)."""
    src = v.dtype
    ones = np.ones(v.shape, bool)
    if src == dst or dst.kind == "b" or src.kind == "b":
        return ones
    if src.kind in "iu" and dst.kind in "iu":
        return ones  # wrap-around, as numpy
    if src.kind in "iu":  # int -> float: exact when the f32 (or f64) the kernel converts through holds it
        limit = 2.0**53 if dst.itemsize == 8 else 2.0**24
        return np.abs(v.astype(np.float64)) <= limit
    if dst.kind in "iu":  # float -> int: specified for finite values in range
        info = np.iinfo(dst)
        with np.errstate(invalid="ignore"):
            t = np.trunc(v.astype(np.float64))
            return np.isfinite(t) & (t >= float(info.min)) & (t <= float(info.max)) & (
                np.abs(t) < 2.0**53)
    if dst.itemsize >= src.itemsize:
        return ones  # float widening
    if src.itemsize == 8:  # f64 -> f32 / f16: single rounding only when the value is an f32
        with np.errstate(over="ignore", invalid="ignore"):
            return (v.astype(np.float32).astype(np.float64) == v) | np.isnan(v)
    return ones  # f32 -> f16: the kernels round like numpy


def assert_known_equal(got: np.ndarray, vals: np.ndarray, known: np.ndarray, what: str) -> None:
    assert got.shape == vals.shape, (what, got.shape, vals.shape)
    assert got.dtype == vals.dtype, (what, got.dtype, vals.dtype)
    if vals.dtype.kind == "f":
        same = (got == vals) & (np.signbit(got) == np.signbit(vals)) | (np.isnan(got) & np.isnan(vals))
    else:
        same = got == vals
    bad = known & ~same
    assert not bad.any(), (f"{what}: wrong values at {np.argwhere(bad)[:5].tolist()}: "
                           f"got {got[bad][:5]!r}, want {vals[bad][:5]!r}")


def assert_close(got: np.ndarray, vals: np.ndarray, tol: np.ndarray, what: str) -> None:
    """Approximate elements (``tol`` >= 0) are finite and within ``tol`` of the model's value."""
    approx = tol >= 0
    if not approx.any():
        return
    g, w = got.astype(np.float64), vals.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        ok = np.isfinite(g) & (np.abs(g - w) <= tol)
    bad = approx & ~ok
    assert not bad.any(), (f"{what}: beyond the tolerance at {np.argwhere(bad)[:5].tolist()}: got {got[bad][:5]!r}, "
                           f"want {vals[bad][:5]!r} within {tol[bad][:5]!r}")


def matmul_model(a: Handle, b: Handle):
    """The model of ``a.arr @ b.arr`` (float32 matrices): values, known-mask and tolerances.  An output element is
    NaN when its row of ``a`` or column of ``b`` holds a NaN (in any order and precision); approximate when both are
    finite and the sums of |products| stay far below float32's range (the f64 product rounded to f32, within
    (K + 2) f32 epsilons of that sum, plus a few smallest normals for underflow, plus the products of subnormal
    operands, which a device that flushes subnormals reads as zeros); unknown otherwise (infinities, overflow,
    unknown operands)."""
    av, bv = a.vals.astype(np.float64), b.vals.astype(np.float64)
    K = av.shape[1]
    known_in = a.known.all(axis=1)[:, None] & b.known.all(axis=0)[None, :]
    finite = np.isfinite(av).all(axis=1)[:, None] & np.isfinite(bv).all(axis=0)[None, :]
    nan = (np.isnan(av) & a.known).any(axis=1)[:, None] | (np.isnan(bv) & b.known).any(axis=0)[None, :]
    fa, fb = np.where(np.isfinite(av), av, 0.0), np.where(np.isfinite(bv), bv, 0.0)
    ref = fa @ fb
    bound = np.abs(fa) @ np.abs(fb)
    f32 = np.finfo(np.float32)
    tiny = float(f32.tiny)
    sa, sb = np.where(np.abs(fa) < tiny, np.abs(fa), 0.0), np.where(np.abs(fb) < tiny, np.abs(fb), 0.0)
    flushed = sa @ np.abs(fb) + np.abs(fa) @ sb
    approx = known_in & finite & (bound <= float(f32.max) / 4)
    with np.errstate(over="ignore", invalid="ignore"):
        vals = np.where(nan, np.nan, np.where(approx, ref, 0.0)).astype(np.float32)
    tol = np.where(approx, (K + 2) * float(f32.eps) * bound + (2 * K + 2) * tiny + flushed, -1.0)
    return vals, nan, tol


# -- the machine ---------------------------------------------------------------------------------------------------
class MirrorMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.dev = wg.default_device()
        self.second = second_device()
        self.devices = (self.dev, self.second)
        self.handles: list[Handle] = []

    @initialize(data=st.data())
    def start(self, data):
        gc.collect()
        for d in self.devices:
            d.synchronize()  # an empty batch: no earlier test's work can fill it during this run
        self.create_asarray(data)
        self.create_full(data)

    # -- helpers ---------------------------------------------------------------------------------------------------
    def pick(self, data, label="handle", where=None) -> Handle:
        pool = [h for h in self.handles if where is None or where(h)]
        return data.draw(st.sampled_from(pool), label=label)

    def run(self, fn, expect: Expect, *, sync: wg.Device | None = None):
        """Run ``fn``, check the transfers it caused on each device against ``expect`` and the submits against the
        rules; returns fn's result and the stats differences summed over the devices."""
        before = [d.stats() for d in self.devices]
        recording = [d.stream.recording for d in self.devices]
        out = fn()
        diffs = [d.stats() - b for d, b in zip(self.devices, before)]
        assert not set(expect.by_device) - set(self.devices), expect.by_device
        for d, s, rec in zip(self.devices, diffs, recording):
            e = expect.on(d)
            assert moved(s) == e.moved(), (f"transfers on {d} (up, up bytes, down, down bytes): "
                                           f"{moved(s)} != {e.moved()}")
            if sync is d:
                assert s.submits == int(rec)  # a synchronize submits what is recorded, and nothing when idle
            elif e.downloads:
                # a host read submits once (and an upload into a buffer that recorded work uses may submit first)
                assert e.downloads <= s.submits <= e.downloads + e.uploads, (d, s)
            else:
                # no submit per op: only when an upload lands in a buffer that recorded work still uses
                assert s.submits <= e.uploads, (d, s)
        return out, total(diffs)

    def add(self, arr: wg.Array, vals: np.ndarray, known: np.ndarray, hv: bool, dv: bool, keep=True,
            tol: np.ndarray | None = None) -> Handle:
        assert arr.dtype.numpy == vals.dtype, (arr.dtype, vals.dtype)
        tol = np.full(vals.shape, -1.0) if tol is None else np.array(tol, dtype=np.float64, order="C")
        h = Handle(arr, vals, known, Base(arr.dtype, vals, known, hv, dv, arr.device, tol))
        if keep:
            self.handles.append(h)
        return h

    def add_result(self, arr: wg.Array, vals: np.ndarray, known: np.ndarray, keep=True,
                   tol: np.ndarray | None = None) -> Handle:
        """A kernel's fresh result: device-only, unless it has no elements (a kernel over nothing runs nothing)."""
        return self.add(arr, np.array(vals, order="C"), np.array(known, order="C"), False, arr.size > 0, keep, tol)

    # -- creation --------------------------------------------------------------------------------------------------
    @precondition(lambda self: len(self.handles) < MAX_HANDLES)
    @rule(data=st.data())
    def create_asarray(self, data):
        dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
        host = data.draw(array_values(dtype, data.draw(shapes(), label="shape")), label="values")
        arr, s = self.run(lambda: wg.asarray(host), Expect())
        assert s.dispatches == 0
        assert arr.residency == {"host"}
        self.add(arr, host.copy(), np.ones(host.shape, bool), True, False)

    @precondition(lambda self: len(self.handles) < MAX_HANDLES)
    @rule(data=st.data())
    def create_full(self, data):
        dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
        shape = data.draw(shapes(), label="shape")
        how = data.draw(st.sampled_from(["zeros", "ones", "full"]), label="how")
        value = {"zeros": 0, "ones": 1}.get(how)
        if how == "full":
            value = data.draw(scalars(dtype), label="fill")
        make = {"zeros": lambda: wg.zeros(shape, dtype=dtype), "ones": lambda: wg.ones(shape, dtype=dtype),
                "full": lambda: wg.full(shape, value, dtype=dtype)}[how]
        arr, _ = self.run(make, Expect())
        with np.errstate(over="ignore"):
            want = np.full(shape, np.array(value).astype(dtype.numpy), dtype=dtype.numpy)
        self.add_result(arr, want, np.ones(shape, bool))

    @precondition(lambda self: len(self.handles) < MAX_HANDLES)
    @rule(data=st.data())
    def create_empty(self, data):
        """empty() (never written), then maybe a whole or a partial write from the host."""
        dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
        shape = data.draw(shapes(), label="shape")
        arr, s = self.run(lambda: wg.empty(shape, dtype=dtype), Expect())
        assert s.dispatches == 0
        assert arr.residency == frozenset()
        vals = np.zeros(shape, dtype.numpy)
        h = self.add(arr, vals, np.zeros(shape, bool), False, False)
        how = data.draw(st.sampled_from(["keep", "whole", "part"]), label="then")
        if how == "whole":
            host = data.draw(array_values(dtype, shape), label="values")
            _, s = self.run(lambda: arr.__setitem__(..., host), Expect())
            assert s.dispatches == 0
            vals[...] = host
            h.known[...] = True
            Expect.write_host(h.base)
        elif how == "part":
            self.setitem_on(h, data)

    # -- writes through __setitem__ ------------------------------------------------------------------------------
    @precondition(lambda self: self.handles)
    @rule(data=st.data())
    def setitem(self, data):
        self.setitem_on(self.pick(data), data)

    def setitem_on(self, h: Handle, data):
        key = data.draw(basic_index(h.arr.shape), label="key")
        tv, tk, tt = h.vals[key], h.known[key], h.tol[key]
        target_shape = tv.shape
        T = h.base
        dtype = h.arr.dtype
        kind = data.draw(st.sampled_from(["scalar", "numpy", "list", "array", "fresh"]), label="value kind")
        sources = [v for v in self.handles
                   if (v.arr.shape == target_shape or v.arr.ndim == 0) and v.arr.device is h.arr.device]
        if kind == "array" and not sources:
            kind = "fresh"
        e = Expect()
        n = math.prod(target_shape)
        if kind in ("numpy", "list", "fresh"):
            # the value's shape: the target's, or a suffix of it (broadcast), or with 1s for broadcasting
            vshape = list(target_shape[data.draw(st.integers(0, len(target_shape)), label="drop dims"):])
            vshape = tuple(1 if data.draw(st.booleans(), label="bcast") else m for m in vshape)
        if kind == "fresh":  # a new array on the device (of this dtype or another) as the value
            vdt = data.draw(st.sampled_from([dtype, dtype] + DTYPES), label="value dtype")
            fill = data.draw(scalars(vdt), label="value fill")
            with np.errstate(over="ignore", invalid="ignore"):
                fvals = np.full(vshape, np.array(fill).astype(vdt.numpy), vdt.numpy)
            sources = [self.add_result(wg.full(vshape, fill, dtype=vdt, device=h.arr.device), fvals,
                                       np.ones(vshape, bool),
                                       keep=len(self.handles) < MAX_HANDLES)]
            kind = "array"
        if kind == "scalar":
            value = data.draw(scalars(dtype), label="scalar")
            with np.errstate(over="ignore", invalid="ignore"):
                new_vals = np.array(value).astype(dtype.numpy)
            new_known, new_tol = np.ones((), bool), -1.0
            if T.device_valid:
                if n:
                    e.write_device(T, whole=True)  # device valid: no sync either way
            else:
                e.write_host(T)
        elif kind in ("numpy", "list"):
            value = data.draw(array_values(dtype, vshape), label="value")
            new_vals, new_known, new_tol = value, np.ones(value.shape, bool), -1.0
            if kind == "list" and value.size:  # (nested empty lists lose their shape)
                value = value.tolist()  # a Python scalar when 0-d
            if T.device_valid:
                if n and (kind == "numpy" or isinstance(value, list)):
                    m = e.on(T.device)  # the value, converted to the target's dtype, uploaded to be copied from
                    m.uploads += 1
                    m.bytes_uploaded += bus_bytes(dtype, math.prod(vshape))
                if n:
                    e.write_device(T, whole=True)  # valid on the device already: nothing to sync
            else:
                e.write_host(T)
        else:
            src = data.draw(st.sampled_from(sources), label="value array")
            assert src.arr.shape == target_shape or np.broadcast_shapes(src.arr.shape, target_shape) == target_shape
            value = src.arr
            with np.errstate(over="ignore", invalid="ignore"):
                new_vals = src.vals.astype(dtype.numpy)
            new_known = src.known & exact_cast(src.vals, dtype.numpy)
            new_tol = src.tol.copy() if src.arr.dtype is dtype else -1.0  # a same-dtype copy keeps approximations
            V = src.base
            event(f"setitem array: target {sorted(T.residency)}, value {sorted(V.residency)}")
            if T.device_valid or V.residency == {"device"}:
                target = h.sub(h.arr[key], lambda v: v[key])
                same_view = V is T and src.idx.shape == target.idx.shape and (src.idx == target.idx).all()
                if n:
                    e.read_device(V)  # (an overlapping value is first copied on the device: the same read)
                    e.write_device(T, whole=is_whole(target) and not same_view)
            else:
                e.read_host(V)  # valid on the host (or never written): nothing moves
                e.write_host(T)
        _, s = self.run(lambda: h.arr.__setitem__(key, value), e)
        if T.residency == {"host"} and kind != "array":
            assert s.dispatches == 0
        with np.errstate(over="ignore", invalid="ignore"):
            tv[...] = new_vals
        tk[...] = new_known
        tt[...] = new_tol

    # -- ops that make new arrays on the device ----------------------------------------------------------------------
    @precondition(lambda self: self.handles and len(self.handles) < MAX_HANDLES)
    @rule(data=st.data())
    def device_op(self, data):
        h = self.pick(data)
        a, dtype = h.arr, h.arr.dtype
        ops = ["copy", "eq", "astype", "any"]
        if dtype.kind in "iuf":
            ops += ["neg", "add_scalar", "add_pair"]
        if dtype.kind in "biu":
            ops += ["sum"]
        if dtype.kind in "iu" and a.size:
            ops += ["max"]
        if not a.is_contiguous:
            ops += ["reshape_copy"]
        op = data.draw(st.sampled_from(ops), label="op")
        e = Expect()
        v, k = h.vals, h.known
        bases = [h.base]
        wt = None  # the result's tolerances: copies keep approximate elements approximate
        with np.errstate(all="ignore"):
            if op == "copy":
                fn, want, wk, wt = (lambda: a.astype(dtype, copy=True)), v, k, h.tol
            elif op == "reshape_copy":
                fn, want, wk, wt = (lambda: a.reshape(-1)), v.reshape(-1), k.reshape(-1), h.tol.reshape(-1)
            elif op == "eq":
                fn, want, wk = (lambda: a == a), v == v, k
            elif op == "neg":
                fn, want = (lambda: -a), np.negative(v)
                wk = k & ~_subnormal(v)
            elif op == "add_scalar":
                c = data.draw(st.integers(-5, 5) if dtype.kind in "iu" else st.sampled_from([1.0, -2.5, 0.0]),
                              label="scalar")
                if dtype.kind == "u":
                    c = abs(c)
                fn = lambda: a + c  # noqa: E731
                want = v + np.array(c, dtype.numpy)
                wk = k & ~_subnormal(v) & ~_subnormal(want)
            elif op == "add_pair":
                o = self.pick(data, "other", lambda g: g.arr.shape == a.shape and g.arr.dtype is dtype
                              and g.arr.device is a.device)
                fn = lambda: a + o.arr  # noqa: E731
                want = v + o.vals
                wk = k & o.known & ~_subnormal(v) & ~_subnormal(o.vals) & ~_subnormal(want)
                bases.append(o.base)
            elif op == "astype":
                to = data.draw(st.sampled_from(DTYPES), label="to")
                fn, want = (lambda: a.astype(to)), v.astype(to.numpy)
                wk = k & exact_cast(v, to.numpy)
            elif op == "any":
                fn, want, wk = (lambda: wg.any(a)), np.array(v.astype(bool).any()), np.array(k.all())
            elif op == "sum":
                res = {"b": np.int32, "i": np.int64 if dtype.bits == 64 else np.int32,
                       "u": np.uint64 if dtype.bits == 64 else np.uint32}[dtype.kind]
                axis = data.draw(st.sampled_from([None] + list(range(a.ndim))), label="axis")
                fn = lambda: a.sum(axis=axis)  # noqa: E731
                want = np.sum(v, axis=axis, dtype=res)
                wk = np.all(k, axis=axis)
            elif op == "max":
                fn, want, wk = (lambda: a.max()), np.max(v), np.array(k.all())
        want, wk = np.asarray(want), np.asarray(wk)
        if want.size and a.size:  # a kernel runs: each input base is read on the device
            for b in dict.fromkeys(bases):
                e.read_device(b)
        out, _ = self.run(fn, e)
        assert out.residency == (frozenset({"device"}) if out.size else frozenset()), out.residency
        assert out.mirror is not a.mirror and out.device is a.device
        self.add_result(out, want, wk, tol=wt)

    @precondition(lambda self: any(h.arr.dtype.kind in "iuf" and h.arr.size for h in self.handles))
    @rule(data=st.data())
    def lazy_chain(self, data):
        """A few elementwise ops inside ``wg.lazy()``: nothing runs and nothing moves until the read, which computes
        the chain with one kernel (its inputs read on the device as the eager ops would) and downloads the result
        once; the values are the eager ones."""
        h = self.pick(data, where=lambda g: g.arr.dtype.kind in "iuf" and g.arr.size)
        a, dtype, v = h.arr, h.arr.dtype, h.vals
        c = data.draw(st.integers(0, 5) if dtype.kind in "iu" else st.sampled_from([1.0, -2.5, 0.0]), label="c")
        pair = data.draw(st.booleans(), label="pair")
        o = self.pick(data, "other", lambda g: g.arr.shape == a.shape and g.arr.dtype is dtype
                      and g.arr.device is a.device) if pair else h
        bases = list(dict.fromkeys([h.base, o.base]))

        def build():
            with wg.lazy():
                t = -a + c
                return t * o.arr if pair else t

        out, s = self.run(build, Expect())
        assert s.dispatches == 0 and out.residency == frozenset()
        with np.errstate(all="ignore"):
            t = np.negative(v) + np.array(c, dtype.numpy)
            want = t * o.vals if pair else t
        wk = h.known & o.known & ~_subnormal(v) & ~_subnormal(t) & ~_subnormal(want) & ~_subnormal(o.vals)
        e = Expect()
        for b in bases:
            e.read_device(b)
        res = Base(dtype, np.array(want, order="C"), np.array(wk, order="C"), False, True, a.device,
                   np.full(want.shape, -1.0))
        e.read_host(res)
        got, s = self.run(out.numpy, e)
        m = e.on(a.device)
        assert s.dispatches <= 1 + m.downloads + m.uploads  # the fused kernel (+ the codec's widening, narrowing)
        assert_known_equal(got, res.vals, res.known, f"lazy chain of {h}")
        hnew = Handle(out, res.vals, res.known, res)
        if len(self.handles) < MAX_HANDLES:
            self.handles.append(hnew)

    # -- in-place ops --------------------------------------------------------------------------------------------------
    @precondition(lambda self: any(h.arr.dtype.kind in "iuf" for h in self.handles))
    @rule(data=st.data())
    def inplace(self, data):
        h = self.pick(data, where=lambda g: g.arr.dtype.kind in "iuf")
        T = h.base
        e = Expect()
        others = ["scalar", "array"] + ["reversed", "shifted"] * (h.arr.ndim > 0)
        other = data.draw(st.sampled_from(others), label="other")
        if other == "shifted":  # h[1:] += h[:-1]: the value overlaps the target
            h, o = h.sub(h.arr[1:], lambda m: m[1:]), h.sub(h.arr[:-1], lambda m: m[:-1])
        elif other == "reversed":  # h += h[::-1]
            o = h.sub(h.arr[::-1], lambda m: m[::-1])
        a, dtype = h.arr, h.arr.dtype
        if other == "array":
            o = self.pick(data, "other", lambda g: g.arr.shape == a.shape and g.arr.dtype is dtype
                          and g.arr.device is a.device)
        if other == "scalar":
            c = data.draw(st.integers(0, 5) if dtype.kind in "iu" else st.sampled_from([1.0, 0.5, -3.0]),
                          label="scalar")
            rhs, ov, ok, ob = c, np.array(c, dtype.numpy), np.ones((), bool), None
        else:
            rhs, ov, ok, ob = o.arr, o.vals.copy(), o.known.copy(), o.base  # numpy semantics: read, then write
        if a.size:
            if ob is not None:
                e.read_device(ob)  # an overlapping view of the target is copied first: the same read
            e.read_device(T)
            e.write_device(T, whole=False)
        self.run(lambda: a.__iadd__(rhs), e)
        with np.errstate(all="ignore"):
            new = h.vals + ov
        h.known[...] = h.known & ok & ~_subnormal(h.vals) & ~_subnormal(ov) & ~_subnormal(new)
        h.tol[...] = -1.0  # (an approximate element was unknown, and so is its sum)
        h.vals[...] = new

    # -- matrix products ---------------------------------------------------------------------------------------------
    def fresh_matrix(self, data, shape: tuple[int, int], dev: wg.Device, label: str) -> Handle:
        """A new float32 matrix of ``shape`` on ``dev`` from the host (small values, or values with specials), or a
        transposed view of one; kept in the pool while there is room (and room for a product)."""
        how = data.draw(st.sampled_from(["small", "small", "specials", "transposed"]), label=f"{label} values")
        stored = shape[::-1] if how == "transposed" else shape
        if how == "specials":
            host = data.draw(array_values(wg.float32, stored), label=f"{label} host")
        else:
            host = data.draw(hnp.arrays(np.float32, stored, elements=st.floats(-100, 100, width=32)),
                             label=f"{label} host")
        arr, s = self.run(lambda: wg.asarray(host, device=dev), Expect())
        assert s.dispatches == 0
        h = self.add(arr, host.copy(), np.ones(stored, bool), True, False, keep=False)
        if how == "transposed":
            h = h.sub(arr.mT, lambda m: m.T)
        if len(self.handles) < MAX_HANDLES - 1:
            self.handles.append(h)
        return h

    @precondition(lambda self: len(self.handles) < MAX_HANDLES)
    @rule(data=st.data())
    def matmul(self, data):
        """a @ b of float32 matrices (views of the pool's arrays, or fresh ones): read on the device, uploaded if
        needed; the product stays on the device (no download until it is read)."""
        def matrix(g: Handle) -> bool:
            return g.arr.dtype is wg.float32 and g.arr.ndim == 2

        side = st.integers(0, 5)
        if any(matrix(g) for g in self.handles) and data.draw(st.booleans(), label="a from the pool"):
            a = self.pick(data, "a", matrix)
        else:
            a = self.fresh_matrix(data, (data.draw(side, label="M"), data.draw(side, label="K")), self.dev, "a")
        dev = a.arr.device
        M, K = a.arr.shape
        if (any(matrix(g) and g.arr.device is dev and g.arr.shape[0] == K for g in self.handles)
                and data.draw(st.booleans(), label="b from the pool")):
            b = self.pick(data, "b", lambda g: matrix(g) and g.arr.device is dev and g.arr.shape[0] == K)
        else:
            b = self.fresh_matrix(data, (K, data.draw(side, label="N")), dev, "b")
        N = b.arr.shape[1]
        event(f"matmul: a {sorted(a.base.residency)}, b {sorted(b.base.residency)}, one base {a.base is b.base}")
        e = Expect()
        if M * N:  # a kernel runs (over K == 0 too: it writes zeros) and reads both bases
            for base in dict.fromkeys([a.base, b.base]):
                e.read_device(base)
        out, _ = self.run(lambda: a.arr @ b.arr, e)
        assert out.shape == (M, N) and out.dtype is wg.float32 and out.device is dev
        assert out.residency == (frozenset({"device"}) if out.size else frozenset()), out.residency
        vals, known, tol = matmul_model(a, b)
        self.add_result(out, vals, known, tol=tol)

    # -- moves between devices ---------------------------------------------------------------------------------------
    @precondition(lambda self: self.handles and len(self.handles) < MAX_HANDLES)
    @rule(data=st.data())
    def to_device(self, data):
        """Move an array (or view) to the other device.  A whole base (the view is its base, in order) that is
        valid on the host, or was never written, is copied on the host and moves nothing; otherwise the device
        data goes device to device (a view first copied contiguous on its own device): a download of the device
        layout's bytes on the source and an upload of them on the destination."""
        h = self.pick(data)
        if h.arr.ndim and data.draw(st.booleans(), label="a reversed view of it"):
            h = h.sub(h.arr[::-1], lambda m: m[::-1])
        a, src = h.arr, h.base
        if data.draw(st.integers(0, 7), label="to its own device") == 0:
            out, s = self.run(lambda: a.to_device(a.device), Expect())
            assert out is a and s.dispatches == 0
            return
        dst = self.second if a.device is self.dev else self.dev
        in_order = h.idx.size == src.size and np.array_equal(h.idx.reshape(-1), np.arange(src.size))
        whole = a.offset == 0 and a.size == a.mirror.size and a.is_contiguous  # to_device's test (_ops.py)
        assert in_order or not whole, f"{h}: to_device would move a view that is not its whole base in order"
        on_host = a.size == 0 or (whole and (src.host_valid or not src.device_valid))
        event(f"to_device: {'whole' if whole else 'view'}, source {sorted(src.residency)}, on host {on_host}")
        e = Expect()
        if not on_host:
            if not whole:
                e.read_device(src)  # the contiguous copy on the source device reads its base
            nbytes = a.size * a.dtype.device_itemsize
            ms, md = e.on(a.device), e.on(dst)
            ms.downloads += 1
            ms.bytes_downloaded += nbytes
            md.uploads += 1
            md.bytes_uploaded += nbytes
        out, _ = self.run(lambda: a.to_device(dst), e)
        assert out.device is dst and out.shape == a.shape and out.dtype is a.dtype
        assert out.mirror is not a.mirror
        assert out.residency == ({"host"} if on_host else {"device"}), out.residency
        self.add(out, h.vals.copy(), h.known.copy(), on_host, not on_host, tol=h.tol)

    @precondition(lambda self: len({h.arr.device for h in self.handles}) > 1)
    @rule(data=st.data())
    def mix_devices(self, data):
        """An operation on arrays of two devices raises ValueError, and nothing moves, runs or changes."""
        h = self.pick(data)
        o = self.pick(data, "other", lambda g: g.arr.device is not h.arr.device)
        a, b = h.arr, o.arr
        how = data.draw(st.sampled_from(["add", "iadd", "setitem", "matmul"]), label="how")
        fn = {"add": lambda: a + b, "iadd": lambda: a.__iadd__(b), "setitem": lambda: a.__setitem__(..., b),
              "matmul": lambda: a @ b}[how]

        def attempt():
            with pytest.raises(ValueError, match="different devices"):
                fn()
        _, s = self.run(attempt, Expect())
        assert s.dispatches == 0

    # -- reads -----------------------------------------------------------------------------------------------------
    @precondition(lambda self: self.handles)
    @rule(data=st.data())
    def read(self, data):
        h = self.pick(data)
        e = Expect()
        how = data.draw(st.sampled_from(["numpy", "asarray", "tolist", "synchronize first"]), label="how")
        if how == "synchronize first":  # waits for recorded work; moves no array bytes
            d = h.arr.device
            self.run(d.synchronize, Expect(), sync=d)
            how = "numpy"
        e.read_view(h.base, h.idx)
        fn = {"numpy": h.arr.numpy, "asarray": lambda: np.asarray(h.arr),
              "tolist": lambda: np.array(h.arr.tolist(), dtype=h.vals.dtype).reshape(h.arr.shape)}[how]
        got, s = self.run(fn, e)
        assert s.dispatches <= e.on(h.arr.device).downloads  # at most the device codec's narrowing of what is downloaded
        assert_known_equal(got, h.vals, h.known, f"read of {h}")
        assert_close(got, h.vals, h.tol, f"read of {h}")
        if (h.tol >= 0).any():
            event("read: approximate elements")

    # -- views -----------------------------------------------------------------------------------------------------
    @precondition(lambda self: self.handles and len(self.handles) < MAX_HANDLES)
    @rule(data=st.data())
    def view(self, data):
        h = self.pick(data)
        a = h.arr
        how = data.draw(st.sampled_from(["index", "index", "transpose"] + ["reshape"] * a.is_contiguous),
                        label="how")
        if how == "index":
            key = data.draw(basic_index(a.shape), label="key")
            make, view = (lambda: a[key]), (lambda m: m[key])
        elif how == "transpose":
            perm = data.draw(st.permutations(range(a.ndim)), label="axes")
            make, view = (lambda: a.transpose(perm)), (lambda m: m.transpose(perm))
        else:
            shape = data.draw(st.sampled_from([(-1,), (1, -1), (-1, 1, 1)]), label="to shape")
            make, view = (lambda: a.reshape(shape)), (lambda m: m.reshape(shape))
        v, s = self.run(make, Expect())
        assert s.dispatches == 0
        assert v.mirror is a.mirror
        new = h.sub(v, view)
        assert new.vals.size == 0 or np.shares_memory(new.vals, h.vals), "the model's view copied"
        self.handles.append(new)

    @precondition(lambda self: len(self.handles) > 1)
    @rule(data=st.data())
    def drop(self, data):
        """Forget an array (its views keep the base alive); freeing moves no bytes."""
        h = self.pick(data)
        self.handles.remove(h)
        del h
        _, s = self.run(gc.collect, Expect())
        assert s.dispatches == 0

    # -- after every step ----------------------------------------------------------------------------------------
    @invariant()
    def residency_follows_the_rules(self):
        for h in self.handles:
            assert h.arr.residency == h.base.residency, (h, h.arr.residency, h.base.residency)
            assert h.arr.device_nbytes == h.base.device_nbytes
            assert h.arr.device is h.base.device

    @invariant()
    def views_of_one_base_share_one_mirror(self):
        by_base = {}
        for h in self.handles:
            m = by_base.setdefault(id(h.base), h.arr.mirror)
            assert h.arr.mirror is m


# ~15-20 s under HYPOTHESIS_PROFILE=ci (derandomized) on lavapipe; the slow variant (`make test-long`) ~3-4 min
FAST = settings(max_examples=40, stateful_step_count=40, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])
TestMirrorMachine = MirrorMachine.TestCase
TestMirrorMachine.settings = FAST


class LongMirrorMachine(MirrorMachine):
    """The same machine with its own TestCase class (hypothesis caches one per machine class)."""


@pytest.mark.slow
class TestMirrorMachineLong(LongMirrorMachine.TestCase):
    settings = settings(FAST, max_examples=200, stateful_step_count=80)
