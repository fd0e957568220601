"""``wg.random``: numpy's ``Generator`` API with every number drawn on the device by Philox4x32-10.

    rng = wg.random.default_rng(42)
    z = rng.standard_normal((1000, 3), dtype=wg.float32)   # on the default device
    k = rng.integers(0, 10, size=5, device=other)          # any device: the same numbers on every one

Why counter-based: element e of a draw is a pure function of (key, counter, e) (``kernels/random.py``), so the
numbers do not depend on the device, the launch shape or how a large output is split over storage bindings.  The
host keeps only bookkeeping: the key (derived from the seed by numpy's ``SeedSequence``), the 128-bit counter,
and parameter checks.  A draw of n elements advances the counter by the Philox blocks it consumed
(``kernels.random.blocks``: four float32/uint32 elements a block, two float64/integer elements a block), so two
draws of n and m equal one of n + m whenever n is a multiple of the elements a block holds.

Differences from numpy (stated, not hidden): the numbers differ from numpy's (another bit generator and other
transforms: Box-Muller instead of the ziggurat); ``size=None`` gives a 0-d array, not a Python float (as CuPy);
the default float dtype is float64 only on devices with ``shader-f64`` (else float32) and the default integer dtype
int64 only with ``shader-int64`` (else int32); ``low``/``high``/``loc``/``scale`` are scalars (no broadcasting of
array parameters); ``uniform``/``normal``/``exponential`` also take ``dtype=``.
"""
from __future__ import annotations

import math
import numbers
import operator
from typing import Any, Sequence

import numpy as np

from .. import dtypes as _dt
from .._array import Array
from ..kernels import random as _kr
from ..kernels.elementwise import Scalar
from ..ops import core as _core
from ..ops.reduction import reduce as _reduce
from ..ops.shape import reshape as _reshape

__all__ = ["Philox", "Generator", "default_rng", "SeedSequence"]

SeedSequence = np.random.SeedSequence
_MASK128 = (1 << 128) - 1


class Philox:
    """The Philox4x32-10 bit generator's state: a 64-bit key and a 128-bit counter (numpy's ``Philox`` is the
    4x64 variant, so its streams differ).  ``seed`` goes through ``SeedSequence`` to give the key, unless ``key``
    is given directly (an int below 2^64, or two u32 words, low first)."""

    def __init__(self, seed: Any = None, *, counter: int | Sequence[int] | None = None,
                 key: int | Sequence[int] | None = None) -> None:
        if key is not None and seed is not None:
            raise ValueError("seed and key cannot both be used")
        if key is not None:
            self.seed_seq = None
            self._key = _words(key, 2, "key")
        else:
            self.seed_seq = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
            state = self.seed_seq.generate_state(2, np.uint32)
            self._key = (int(state[0]), int(state[1]))
        self._counter = 0 if counter is None else _join(_words(counter, 4, "counter"))

    @property
    def key(self) -> tuple[int, int]:
        """The key as two u32 words, low first."""
        return self._key

    @property
    def counter(self) -> int:
        """The 128-bit counter of the next block."""
        return self._counter

    @property
    def state(self) -> dict:
        return {"bit_generator": "Philox4x32-10", "key": self._key, "counter": self._counter}

    def advance(self, blocks: int) -> tuple[int, int, int, int]:
        """Reserve ``blocks`` Philox blocks; returns the counter words (low first) of the first one."""
        c = self._counter
        self._counter = (c + int(blocks)) & _MASK128
        return tuple((c >> (32 * k)) & 0xFFFFFFFF for k in range(4))  # type: ignore[return-value]

    def spawn(self, n_children: int) -> list["Philox"]:
        """Independent bit generators from the seed sequence's children (numpy's ``BitGenerator.spawn``)."""
        if self.seed_seq is None:
            raise TypeError("spawn needs a bit generator seeded through a SeedSequence (not a raw key)")
        return [Philox(s) for s in self.seed_seq.spawn(n_children)]

    def __repr__(self) -> str:
        return f"Philox(key=({self._key[0]:#010x}, {self._key[1]:#010x}), counter={self._counter:#x})"


def _words(value, count: int, name: str) -> tuple[int, ...]:
    """An int (below 2^(32 count)) or ``count`` u32 words, low first -> u32 words, low first."""
    if isinstance(value, numbers.Integral):
        v = int(value)
        if not 0 <= v < 1 << (32 * count):
            raise ValueError(f"{name} must be in [0, 2**{32 * count})")
        return tuple((v >> (32 * k)) & 0xFFFFFFFF for k in range(count))
    ws = tuple(int(w) for w in value)
    if len(ws) != count or any(not 0 <= w < 1 << 32 for w in ws):
        raise ValueError(f"{name} must be an int or {count} words in [0, 2**32)")
    return ws


def _join(ws: Sequence[int]) -> int:
    return sum(int(w) << (32 * k) for k, w in enumerate(ws))


def _shape(size) -> tuple[int, ...]:
    if size is None:
        return ()
    if isinstance(size, numbers.Integral):
        size = (size,)
    out = tuple(operator.index(n) for n in size)
    if any(n < 0 for n in out):
        raise ValueError(f"negative dimensions are not allowed: {out}")
    return out


def _float_dtype(dtype, dev, name: str) -> _dt.DType:
    if dtype is None:
        return _dt.float64 if dev.supports(_dt.float64) else _dt.float32
    d = _dt.as_dtype(dtype)
    if d not in (_dt.float32, _dt.float64):
        raise TypeError(f"Unsupported dtype {d.name} for {name}: float32 or float64")
    _core.check_supported(d, dev)
    return d


def _int_dtype(dtype, dev) -> _dt.DType:
    if dtype is None:
        return _dt.int64 if dev.supports(_dt.int64) else _dt.int32
    d = _dt.as_dtype(dtype)
    if d.kind not in "biu":
        raise TypeError(f"Unsupported dtype {d.name} for integers")
    _core.check_supported(d, dev)
    return d


def _real(v, name: str) -> float:
    if isinstance(v, Array):
        if v.ndim:
            raise TypeError(f"{name} must be a scalar (array parameters are not supported)")
        v = v.item()
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (numbers.Real, np.floating, np.integer)):
        raise TypeError(f"{name} must be a real number, not {type(v).__name__}")
    return float(v)


class Generator:
    """numpy's ``Generator`` methods on the device.  Every method takes ``device=`` (default: the default
    device), as the standard's creation functions do; the generator's state is the bit generator's, shared by
    all devices (a draw on any device advances it)."""

    def __init__(self, bit_generator: Philox) -> None:
        if not isinstance(bit_generator, Philox):
            raise TypeError(f"bit_generator must be a wgarray.random.Philox, not {type(bit_generator).__name__}")
        self._bitgen = bit_generator

    @property
    def bit_generator(self) -> Philox:
        return self._bitgen

    def spawn(self, n_children: int) -> list["Generator"]:
        """Independent generators (numpy's ``Generator.spawn``)."""
        return [Generator(b) for b in self._bitgen.spawn(n_children)]

    def __repr__(self) -> str:
        return f"Generator({self._bitgen!r})"

    # -- the one launch ------------------------------------------------------------------------------------------
    def _draw(self, name: str, shape: tuple[int, ...], dtype: _dt.DType, params: Sequence[Scalar], dev) -> Array:
        out = _core.new_array(shape, dtype, dev)
        n = out.size
        if n:
            counter = self._bitgen.advance(_kr.blocks(name, dtype, n))
            _kr.draw(dev, name, self._bitgen.key, counter, params, out)
        return out

    # -- floats --------------------------------------------------------------------------------------------------
    def random(self, size=None, dtype=None, out=None, *, device=None) -> Array:
        """Uniform on [0, 1): the top 24 (float32) or 53 (float64) bits of the Philox output.  ``out``: as numpy's,
        a wgarray array to fill (its shape is the size, its dtype the dtype)."""
        if out is not None:
            return self._fill(out, self.random(out.shape, out.dtype if dtype is None else dtype, device=out.device))
        dev = _core.resolve_device(device)
        d = _float_dtype(dtype, dev, "random")
        return self._draw("random_uniform", _shape(size), d, [Scalar(0.0, d), Scalar(1.0, d)], dev)

    @staticmethod
    def _fill(out, values: Array) -> Array:
        if not isinstance(out, Array) or out.shape != values.shape or out.dtype != values.dtype:
            raise ValueError("out must be a wgarray array of the requested size and dtype")
        out[...] = values
        return out

    def uniform(self, low=0.0, high=1.0, size=None, *, dtype=None, device=None) -> Array:
        """low + (high - low) * u, u uniform on [0, 1) (numpy's formula)."""
        dev = _core.resolve_device(device)
        d = _float_dtype(dtype, dev, "uniform")
        lo, hi = _real(low, "low"), _real(high, "high")
        span = hi - lo
        if not math.isfinite(span) or not math.isfinite(lo):
            raise OverflowError("Range exceeds valid bounds")
        return self._draw("random_uniform", _shape(size), d, [Scalar(lo, d), Scalar(span, d)], dev)

    def standard_normal(self, size=None, dtype=None, out=None, *, device=None) -> Array:
        """Standard normal by Box-Muller (tails reach 6.8 sigma in float32, 9.1 in float64); ``out`` as ``random``."""
        if out is not None:
            return self._fill(out, self.normal(0.0, 1.0, out.shape, dtype=out.dtype if dtype is None else dtype,
                                               device=out.device))
        return self.normal(0.0, 1.0, size, dtype=dtype, device=device)

    def normal(self, loc=0.0, scale=1.0, size=None, *, dtype=None, device=None) -> Array:
        """loc + scale * z, z standard normal."""
        dev = _core.resolve_device(device)
        d = _float_dtype(dtype, dev, "normal")
        loc, scale = _real(loc, "loc"), _real(scale, "scale")
        if scale < 0:
            raise ValueError("scale < 0")
        return self._draw("random_normal", _shape(size), d, [Scalar(loc, d), Scalar(scale, d)], dev)

    def standard_exponential(self, size=None, dtype=None, *, device=None) -> Array:
        return self.exponential(1.0, size, dtype=dtype, device=device)

    def exponential(self, scale=1.0, size=None, *, dtype=None, device=None) -> Array:
        """scale * -log(u), u uniform on (0, 1]."""
        dev = _core.resolve_device(device)
        d = _float_dtype(dtype, dev, "exponential")
        scale = _real(scale, "scale")
        if scale < 0:
            raise ValueError("scale < 0")
        return self._draw("random_exponential", _shape(size), d, [Scalar(scale, d)], dev)

    # -- integers ------------------------------------------------------------------------------------------------
    def integers(self, low, high=None, size=None, dtype=None, endpoint=False, *, device=None) -> Array:
        """Unbiased integers in [low, high) (or [low, high] with ``endpoint``), by Lemire's method on 64 random
        bits an element with rejection (``shaders/philox.wgsl``)."""
        dev = _core.resolve_device(device)
        d = _int_dtype(dtype, dev)
        lo, hi = _int_bound(low, "low"), _int_bound(high, "high") if high is not None else None
        if hi is None:
            lo, hi = 0, lo
        if not endpoint:
            hi -= 1
            if lo > hi:
                raise ValueError("low >= high")
        elif lo > hi:
            raise ValueError("low > high")
        info = (0, 1) if d.kind == "b" else (int(np.iinfo(d.numpy).min), int(np.iinfo(d.numpy).max))
        if lo < info[0]:
            raise ValueError(f"low is out of bounds for {d.name}")
        if hi > info[1]:
            raise ValueError(f"high is out of bounds for {d.name}")
        r = hi - lo + 1  # at most 2^64
        t = (1 << 64) % r
        rw, tw = _kr.words(r % (1 << 64), 2), _kr.words(t, 2)
        if d.bits == 64:
            params = [Scalar(w, _dt.uint32) for w in (*_kr.words(lo % (1 << 64), 2), *rw, *tw)]
            return self._draw("random_int64", _shape(size), d, params, dev)
        params = [Scalar(w, _dt.uint32) for w in (lo % (1 << 32), *rw, *tw)]
        if d.kind == "b":
            return _core.astype(self._draw("random_int32", _shape(size), _dt.uint32, params, dev), _dt.bool)
        return self._draw("random_int32", _shape(size), d, params, dev)

    # -- permutations and choice -----------------------------------------------------------------------------
    def _perm_indices(self, n: int, dev) -> Array:
        """A uniformly random permutation of range(n) as int32: argsort of 64-bit random keys (two stable sorts
        of u32 halves, so every device sorts the same keys the same way); equal 64-bit keys (chance about
        n^2 / 2^65) keep index order, the only bias."""
        bits = self._draw("random_bits", (2, n), _dt.uint32, [], dev)
        from .indexing import take
        from .sorting import argsort
        idx = argsort(bits[1], stable=True)
        return take(idx, argsort(take(bits[0], idx), stable=True))

    def permutation(self, x, *, device=None) -> Array:
        """A permuted range (``x`` an int) or a permuted copy of ``x`` along axis 0."""
        from .indexing import take
        if isinstance(x, numbers.Integral) and not isinstance(x, (bool, np.bool_)):
            dev = _core.resolve_device(device)
            n = int(x)
            if n < 0:
                raise ValueError("x must be a non-negative integer")
            return _core.astype(self._perm_indices(n, dev), _int_dtype(None, dev))
        arr = x if isinstance(x, Array) else _core.asarray(x, device=device)
        if arr.ndim == 0:
            raise IndexError("x must be an integer or at least 1-dimensional")
        return take(arr, self._perm_indices(arr.shape[0], arr.device), axis=0)

    def shuffle(self, x: Array) -> None:
        """Permute ``x`` in place along axis 0 (a wgarray Array)."""
        if not isinstance(x, Array):
            raise TypeError("shuffle needs a wgarray Array (it permutes in place)")
        if x.ndim == 0:
            raise TypeError("shuffle needs an array of at least 1 dimension")
        if x.shape[0] > 1:
            x[...] = self.permutation(x)

    def choice(self, a, size=None, replace: bool = True, p=None, *, device=None) -> Array:
        """Samples of ``a`` (an int: of range(a); an array: along axis 0).  With ``p``: inverse CDF on the
        device (cumulative_sum + searchsorted of uniforms); without replacement: the first k of a random
        permutation, or with ``p`` the k smallest exponential(1) / p (the exponential race, equivalent to
        Gumbel-top-k), all on the device."""
        from .indexing import take
        if isinstance(a, numbers.Integral) and not isinstance(a, (bool, np.bool_)):
            pop, arr = int(a), None
            dev = _core.resolve_device(device)
        else:
            arr = a if isinstance(a, Array) else _core.asarray(a, device=device)
            if arr.ndim == 0:
                raise ValueError("a must be a sequence or an integer, not a 0-d array")
            pop, dev = arr.shape[0], arr.device
        shape = _shape(size)
        k = math.prod(shape)
        if pop < 0 or (pop == 0 and k):
            raise ValueError("a must be a positive integer unless no samples are taken")
        if p is not None:
            p = _check_p(p, pop, dev)
        if not replace and k > pop:
            raise ValueError("Cannot take a larger sample than population when replace is False")
        idx_dtype = _int_dtype(None, dev)
        if k == 0:
            idx = _core.new_array(shape, idx_dtype, dev)
        elif replace and p is None:
            idx = self.integers(0, pop, shape, dtype=idx_dtype, device=dev)
        elif replace:
            from .searching import searchsorted
            from .statistical import cumulative_sum
            cdf = cumulative_sum(p)
            cdf = cdf / cdf[-1]
            u = self.random(shape, dtype=p.dtype, device=dev)
            idx = _core.astype(_reshape(searchsorted(cdf, _reshape(u, (-1,)), side="right"), shape),
                              idx_dtype)
        else:
            if p is None:
                order = self._perm_indices(pop, dev)
            else:
                from .searching import count_nonzero
                from .sorting import argsort
                if int(count_nonzero(p).item()) < k:
                    raise ValueError("Fewer non-zero entries in p than size")
                order = argsort(self.exponential(1.0, pop, dtype=p.dtype, device=dev) / p, stable=True)
            idx = _core.astype(_reshape(order[:k], shape), idx_dtype)
        if arr is None:
            return idx
        out = take(arr, _reshape(idx, (-1,)), axis=0)
        return _reshape(out, shape + arr.shape[1:])


def _int_bound(v, name: str) -> int:
    if isinstance(v, Array):
        if v.ndim:
            raise TypeError(f"{name} must be a scalar (array bounds are not supported)")
        v = v.item()
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Integral):
        raise TypeError(f"{name} must be an integer, not {type(v).__name__}")
    return int(v)


def _check_p(p, pop: int, dev) -> Array:
    """p as a float array on ``dev`` after numpy's checks: 1-D, as long as the population, no NaN, non-negative,
    summing to 1 within sqrt(eps) (one reduction each on the device, two scalars read back)."""
    p = p if isinstance(p, Array) else _core.asarray(p, device=dev)
    if p.device is not dev:
        raise ValueError(f"p is on {p.device}, the population on {dev}")
    if p.ndim != 1:
        raise ValueError("p must be 1-dimensional")
    if p.shape[0] != pop:
        raise ValueError("a and p must have same size")
    if p.dtype.kind != "f":
        p = _core.astype(p, _float_dtype(None, dev, "choice"))
    elif p.dtype is _dt.float16:
        p = _core.astype(p, _dt.float32)
    from .manipulation import stack
    lo, total = (float(v) for v in stack([_reduce("min", p), _reduce("sum", p)]).numpy())  # 8-16 bytes
    if math.isnan(lo) or math.isnan(total):
        raise ValueError("probabilities contain NaN")
    if lo < 0:
        raise ValueError("probabilities are not non-negative")
    if abs(total - 1.0) > math.sqrt(float(np.finfo(p.dtype.numpy).eps)):
        raise ValueError("probabilities do not sum to 1")
    return p


def default_rng(seed: Any = None) -> Generator:
    """A Generator over Philox4x32-10 seeded through ``SeedSequence`` (numpy's ``default_rng``); a Generator or
    Philox passed in is used as it is."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, Philox):
        return Generator(seed)
    return Generator(Philox(seed))
