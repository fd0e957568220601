"""The Array: shape, dtype, strides and offset (in elements) over a Mirror shared by all views of one base.

Arrays know nothing of WGSL or wgpu: operators go through ``ops`` (which picks dtypes and launches kernels),
and bytes only move when the mirror is asked for a side that is stale.
"""
from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from . import dtypes as _dt
from .alloc.mirror import Mirror, locked
from .dtypes import DType
from .kernels.layout import contiguous_strides

_STRIDES: dict[tuple[int, ...], tuple[int, ...]] = {}
_MAX_BYTES = int(np.iinfo(np.intp).max)


class Array:
    """An n-dimensional array whose bytes live on a WebGPU device and/or the host, synced on demand."""

    __slots__ = ("mirror", "shape", "strides", "offset", "_writeable", "__weakref__")
    __hash__ = None  # type: ignore[assignment]
    # above numpy's 0 and like CuPy's: a library choosing which operand's type to build a result with (Dask's
    # dot and tensordot take the operand of highest priority) picks the device array
    __array_priority__ = 100

    def __init__(self, mirror: Mirror, shape: tuple[int, ...], strides: tuple[int, ...] | None = None,
                 offset: int = 0, writeable: bool = True) -> None:
        shape = tuple(int(n) for n in shape)
        if 0 in shape and math.prod(n for n in shape if n) * mirror.dtype.itemsize > _MAX_BYTES:
            # numpy, which holds the host side, cannot represent it (even empty): refuse it as numpy does
            raise ValueError(f"array is too big: shape {shape} exceeds numpy's index range")
        strides = tuple(int(s) for s in strides) if strides is not None else contiguous_strides(shape)
        _set_view(self, mirror, shape, strides, int(offset), bool(writeable))

    @classmethod
    def _contiguous(cls, mirror: Mirror, shape: tuple[int, ...]) -> "Array":
        """A fresh C-contiguous array over ``mirror`` (hot path: no validation, strides cached per shape)."""
        self = object.__new__(cls)
        _SET_MIRROR(self, mirror)
        _SET_SHAPE(self, shape)
        strides = _STRIDES.get(shape)
        if strides is None:
            if len(_STRIDES) > 4096:
                _STRIDES.clear()
            strides = _STRIDES[shape] = contiguous_strides(shape)
        _SET_STRIDES(self, strides)
        _SET_OFFSET(self, 0)
        _SET_WRITEABLE(self, True)
        return self

    @classmethod
    def _trusted_view(cls, mirror: Mirror, shape: tuple[int, ...], strides: tuple[int, ...], offset: int) -> "Array":
        """A view from an internal hot path whose arguments are already tuples of ints (the blocked linalg
        drivers' blocks: hundreds a call, ~6 us each through ``__init__``): bounds checked, nothing converted."""
        self = object.__new__(cls)
        _set_view(self, mirror, shape, strides, offset, True)
        return self

    # -- memory safety: shape, strides, offset and mirror are set only by the constructors above -----------------
    def __setattr__(self, name: str, value: Any) -> None:
        """numpy's rules: ``x.shape = s`` reshapes in place when no copy is needed; nothing else is writable and
        nothing can be added, so no public attribute lets a kernel or a host copy address memory outside the base."""
        if name == "shape":
            self._reshape_in_place(value)
        elif hasattr(type(self), name):
            raise AttributeError(f"attribute {name!r} of 'wgarray.Array' objects is not writable")
        else:
            raise AttributeError(f"'wgarray.Array' object has no attribute {name!r}")

    def __delattr__(self, name: str) -> None:
        if name == "shape":
            raise AttributeError("Cannot delete array shape")
        raise AttributeError(f"attribute {name!r} of 'wgarray.Array' objects cannot be deleted")

    def _reshape_in_place(self, value: Any) -> None:
        shape = resolve_shape(self.size, value)
        strides = contiguous_strides(shape) if self.size == 0 else nocopy_strides(self.shape, self.strides, shape)
        if strides is None:
            raise AttributeError("Incompatible shape for in-place modification. Use `.reshape()` to make a copy "
                                 "with the desired shape.")
        _SET_SHAPE(self, shape)
        _SET_STRIDES(self, strides)

    # -- attributes ----------------------------------------------------------------------------------------------
    @property
    def dtype(self) -> DType:
        return self.mirror.dtype

    @property
    def device(self):
        return self.mirror.device

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def nbytes(self) -> int:
        """Bytes of the elements on the host (numpy's nbytes)."""
        return self.size * self.dtype.itemsize

    @property
    def device_nbytes(self) -> int:
        """Bytes the base's device side takes (4 per bool element: WGSL has no 1-byte storage)."""
        return self.mirror.device_nbytes

    @property
    def transfer_nbytes(self) -> int:
        """Bytes one upload or download of the base moves (narrow dtypes cross the bus at their host size)."""
        return self.mirror.transfer_nbytes

    @property
    def residency(self) -> frozenset[str]:
        """The valid sides of this array's base: ``{"host"}``, ``{"device"}``, both, or none (never written)."""
        return self.mirror.residency

    @property
    def is_contiguous(self) -> bool:
        """Whether the elements lie in row-major order without gaps (strides of size-1 axes do not matter)."""
        return self.size <= 1 or all(s == c for n, s, c in zip(self.shape, self.strides,
                                                               contiguous_strides(self.shape)) if n != 1)

    @property
    def flags(self) -> "Flags":
        return Flags(self)

    def _writing(self, *others: Any) -> locked:
        """The one gate every write into an existing array passes (``__setitem__``, every in-place operator):
        writes into read-only views raise before anything is written, as numpy's do; the rest run holding the
        locks of the bases involved (this one and any array among ``others``), so threads writing disjoint parts
        of one base get what some serial order gives (lock order: ``alloc/mirror.py``)."""
        if not self._writeable:
            raise ValueError("assignment destination is read-only")
        mirrors = [self.mirror]
        for o in others:
            for a in (o if isinstance(o, tuple) else (o,)):
                if isinstance(a, Array):
                    mirrors.append(a.mirror)
        return locked(mirrors)

    @property
    def T(self) -> "Array":
        """The reversed axes, as numpy's ``x.T`` (a 1-D or 0-d array is returned unchanged)."""
        return self.transpose()

    @property
    def mT(self) -> "Array":
        if self.ndim < 2:
            raise ValueError(f"x.mT requires at least 2 dimensions (got {self.ndim})")
        axes = list(range(self.ndim))
        axes[-1], axes[-2] = axes[-2], axes[-1]
        return self.transpose(axes)

    # -- host interop ----------------------------------------------------------------------------------------
    def _host_view(self, host: np.ndarray, first: int = 0) -> np.ndarray:
        """This view over ``host``, which holds the base's elements from element ``first`` on."""
        item = host.itemsize
        if self.size == 0:
            return np.empty(self.shape, dtype=host.dtype)
        if self.strides == contiguous_strides(self.shape):  # a slice and a reshape: views, and cheaper than
            start = self.offset - first  # as_strided (which a small read otherwise pays for a 0-d result)
            return host[start:start + self.size].reshape(self.shape)
        return np.lib.stride_tricks.as_strided(host[self.offset - first:], self.shape,
                                               [s * item for s in self.strides])

    def numpy(self) -> np.ndarray:
        """A numpy copy of the values.  If only the device side is valid, a view spanning the whole base downloads
        it once (the host side becomes valid); a view spanning less downloads just its span [lo, hi) of elements
        and leaves the host side stale (``x[3].item()`` moves one element, not the base)."""
        m = self.mirror
        if m.device_valid and not m.host_valid:
            lo, hi = self._span()
            if hi - lo < m.size:
                if hi == lo:
                    return np.empty(self.shape, m.dtype.numpy)
                return np.array(self._host_view(m.read_range(lo, hi), lo), copy=True)
        return np.array(self._host_view(m.host()), copy=True)

    def _span(self) -> tuple[int, int]:
        """The elements [lo, hi) of the base this view touches (empty: lo == hi)."""
        if self.size == 0:
            return self.offset, self.offset
        lo = hi = self.offset
        for n, s in zip(self.shape, self.strides):
            if s < 0:
                lo += (n - 1) * s
            else:
                hi += (n - 1) * s
        return lo, hi + 1

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        """numpy 2's protocol.  ``copy=False`` never copies host memory: it returns a *read-only* view of the host
        block when the host side is valid (a write through it would bypass the mirror's sync, so numpy refuses it;
        write through wgarray instead), and raises ValueError when the values are only on the device (a download is
        a copy) or a dtype conversion is asked for.  ``copy=None`` or ``True``: a fresh numpy array."""
        if copy is False:
            if dtype is not None and np.dtype(dtype) != self.dtype.numpy:
                raise ValueError(f"copy=False but converting {self.dtype.name} to {np.dtype(dtype)} is a copy")
            view = self._shared_host("__array__(copy=False)", ValueError)
            view.flags.writeable = False
            return view
        out = self.numpy()
        return out if dtype is None else out.astype(dtype)

    # -- copies and pickles: independent arrays with the logical values, never device handles ----------------------
    def __copy__(self) -> "Array":
        return self.copy()

    def __deepcopy__(self, memo: dict) -> "Array":
        return self.copy()  # copy.deepcopy records the result in ``memo``, so shared arrays stay shared

    def __reduce__(self):
        """A pickle holds the dtype's name, the shape and the C-contiguous host bytes of the values (a view pickles
        as its own elements, not its base); unpickling gives a host-resident array on the default device."""
        return (_unpickle, (self.dtype.name, self.shape, self.numpy().tobytes()))

    def _shared_host(self, what: str, error: type[Exception]) -> np.ndarray:
        """This view over the host block itself (no copy), which needs the host side valid."""
        m = self.mirror
        if not m.host_valid and m.device_valid:
            raise error(f"{what}: the values are only on the device, and downloading them is a copy")
        view = self._host_view(m.host())
        if not self._writeable:  # a broadcast view: its shared elements must not be written through the export
            view.flags.writeable = False
        return view

    def __dlpack__(self, /, *, stream=None, max_version=None, dl_device=None, copy=None):
        """Exports host memory (kDLCPU).  ``copy=False``: the host block itself, which needs the host side valid
        (else BufferError); ``copy=None``: the host block when the host side is valid, else a downloaded copy;
        ``copy=True``: always a copy.  A consumer's writes to a shared export land in the host block; the mirror
        does not learn of them (README, residency): wgarray's host reads see them, device uses only if the host
        was the only valid side until then."""
        if dl_device is not None and tuple(dl_device) != (1, 0):
            raise BufferError(f"wgarray exports to the host (kDLCPU = (1, 0)) only, not to {dl_device}")
        kwargs = {} if max_version is None else {"max_version": max_version}
        if copy is True or (copy is None and not self.mirror.host_valid and self.mirror.device_valid):
            return self.numpy().__dlpack__(**kwargs)
        return self._shared_host("__dlpack__(copy=False)", BufferError).__dlpack__(**kwargs)

    def __dlpack_device__(self, /) -> tuple[int, int]:
        return (1, 0)  # exported from the host side (kDLCPU)

    def __array_namespace__(self, /, *, api_version: str | None = None):
        if api_version not in (None, "2021.12", "2022.12", "2023.12", "2024.12"):
            raise ValueError(f"unsupported Array API version {api_version!r}")
        import wgarray
        return wgarray

    def __repr__(self) -> str:
        body = np.array2string(self.numpy(), separator=", ", prefix="wgarray.Array(")
        return f"wgarray.Array({body}, dtype={self.dtype.name}, device={self.device!r})"

    __str__ = __repr__

    def tolist(self):
        return self.numpy().tolist()

    def item(self, *args):
        """The element as a Python scalar: the only one, ``item(i)`` (flat index) or ``item(i, j, ...)``."""
        if args:
            if len(args) == 1 and isinstance(args[0], tuple):
                args = args[0]
            if len(args) == 1:
                i = operator.index(args[0])
                if not -self.size <= i < self.size:
                    raise IndexError(f"index {i} is out of bounds for size {self.size}")
                args = np.unravel_index(i % self.size, self.shape)
            return self[tuple(int(a) for a in args)].item()
        if self.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        m = self.mirror
        if m.size == 1:  # the only element of its base (a reduction's result): no view or copy to build
            return m.host()[0].item()
        return self.numpy().reshape(()).item()

    def _scalar(self, kind: str):
        if self.size != 1:
            raise TypeError(f"only arrays of size 1 can be converted to Python {kind}, not size {self.size}")
        return self.item()

    def __bool__(self) -> bool:
        if self.size != 1:
            raise ValueError(f"the truth value of an array with {self.size} elements is ambiguous; "
                             "use any() or all()")
        return bool(self.item())

    def __float__(self) -> float:
        return float(self._scalar("float"))

    def __int__(self) -> int:
        return int(self._scalar("int"))

    def __complex__(self) -> complex:
        return complex(self._scalar("complex"))

    def __index__(self) -> int:
        if self.dtype.kind not in "iu":
            raise TypeError(f"only integer arrays can be used as an index, not {self.dtype.name}")
        return int(self._scalar("int"))

    def __len__(self) -> int:
        if self.ndim == 0:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    def __contains__(self, value, /) -> bool:
        """``v in x`` as numpy's ``(x == v).any()``: one comparison, one reduction, one 4-byte read (any ndim),
        not a kernel and a download per element through ``__iter__``."""
        return bool(_ops.reduce("any", _ops.elementwise("equal", self, value), None, False))

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    # -- views -----------------------------------------------------------------------------------------------
    def _view(self, shape, strides, offset, writeable: bool = True) -> "Array":
        """A view of this array's base; views of read-only views are read-only."""
        return Array(self.mirror, tuple(shape), tuple(strides), offset, self._writeable and writeable)

    def transpose(self, *axes) -> "Array":
        """A view with permuted axes: ``x.transpose()``, ``x.transpose((1, 0))`` or numpy's ``x.transpose(1, 0)``."""
        if len(axes) == 1 and (axes[0] is None or not hasattr(axes[0], "__index__")):
            axes = axes[0]
        axes = tuple(reversed(range(self.ndim))) if axes is None or axes == () else \
            tuple(operator.index(a) for a in axes)
        if len(axes) != self.ndim:
            raise ValueError(f"axes {axes} are not a permutation of the {self.ndim} dimensions")
        for a in axes:
            if self.ndim and not -self.ndim <= a < self.ndim:
                raise np.exceptions.AxisError(a, self.ndim)
        if sorted(a % self.ndim if self.ndim else a for a in axes) != list(range(self.ndim)) or len(axes) != self.ndim:
            raise ValueError(f"axes {axes} are not a permutation of the {self.ndim} dimensions")
        axes = tuple(a % self.ndim for a in axes)
        return self._view([self.shape[a] for a in axes], [self.strides[a] for a in axes], self.offset)

    def __getitem__(self, key, /) -> "Array":
        return _ops.getitem(self, key)

    def __setitem__(self, key, value, /) -> None:
        with self._writing(key, value):
            _ops.setitem(self, key, value)

    # -- methods that read like numpy's --------------------------------------------------------------------------
    def reshape(self, *shape, order: str = "C", copy: bool | None = None) -> "Array":
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = tuple(shape[0])
        if order != "C":
            return _numpy_interop().reshape_ordered(self, shape, order, copy)
        return _ops.reshape(self, shape, copy=copy)

    def astype(self, dtype, copy: bool = True) -> "Array":
        return _ops.astype(self, dtype, copy=copy)

    def copy(self) -> "Array":
        return _ops.astype(self, self.dtype, copy=True)

    def to_device(self, device, /, *, stream=None) -> "Array":
        return _ops.to_device(self, device)

    def flatten(self) -> "Array":
        return _ops.reshape(self, (-1,), copy=True)

    def ravel(self) -> "Array":
        return _ops.reshape(self, (-1,))

    def sum(self, axis=None, dtype=None, out=None, keepdims=False):
        if out is None:  # what numpy's adapter does without ``out``, minus its dispatch (a loop of sums pays it)
            return _ops.reduce("sum", self, axis, bool(keepdims), dtype)
        return _np_method("sum", self, axis=axis, dtype=dtype, out=out, keepdims=keepdims)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False):
        if out is None:
            return _ops.reduce("prod", self, axis, bool(keepdims), dtype)
        return _np_method("prod", self, axis=axis, dtype=dtype, out=out, keepdims=keepdims)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False):
        return _np_method("mean", self, axis=axis, dtype=dtype, out=out, keepdims=keepdims)

    def max(self, axis=None, out=None, keepdims=False):
        return _np_method("max", self, axis=axis, out=out, keepdims=keepdims)

    def min(self, axis=None, out=None, keepdims=False):
        return _np_method("min", self, axis=axis, out=out, keepdims=keepdims)

    def any(self, axis=None, out=None, keepdims=False):
        return _np_method("any", self, axis=axis, out=out, keepdims=keepdims)

    def all(self, axis=None, out=None, keepdims=False):
        return _np_method("all", self, axis=axis, out=out, keepdims=keepdims)

    def argmax(self, axis=None, out=None, keepdims=False):
        return _np_method("argmax", self, axis=axis, out=out, keepdims=keepdims)

    def argmin(self, axis=None, out=None, keepdims=False):
        return _np_method("argmin", self, axis=axis, out=out, keepdims=keepdims)

    # -- numpy's protocols and numpy's other methods (issue 14): thin calls into api/interop.py ---------------------
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        """NEP 13: ``np.exp(x)``, ``np.add(x, y, out=z)``, ``np.add.reduce(x)`` run on the device."""
        return _numpy_interop().array_ufunc(ufunc, method, *inputs, **kwargs)

    def __array_function__(self, func, types, args, kwargs):
        """NEP 18: ``np.sum(x)``, ``np.concatenate([x, y])`` run wgarray's implementation (TypeError if none)."""
        return _numpy_interop().array_function(func, types, args, kwargs)

    def get(self, stream=None) -> np.ndarray:
        """A numpy copy (CuPy's name for the explicit download)."""
        return self.numpy()

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def base(self) -> "Array | None":
        """None when this array is its base's whole, C-ordered self; else an array over the whole base (numpy's
        ``base`` is the owner of the memory; wgarray keeps no owner object, so identity with the array a view was
        taken from is not kept)."""
        if self.offset == 0 and self.size == self.mirror.size and self.is_contiguous:
            return None
        return self._view((self.mirror.size,), (1,), 0)

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return _np_method("std", self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims)

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return _np_method("var", self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims)

    def cumsum(self, axis=None, dtype=None, out=None):
        return _np_method("cumsum", self, axis=axis, dtype=dtype, out=out)

    def cumprod(self, axis=None, dtype=None, out=None):
        return _np_method("cumprod", self, axis=axis, dtype=dtype, out=out)

    def ptp(self, axis=None, out=None, keepdims=False):
        return _np_method("ptp", self, axis=axis, out=out, keepdims=keepdims)

    def argsort(self, axis=-1, kind=None, order=None):
        return _np_method("argsort", self, axis=axis, kind=kind, order=order)

    def sort(self, axis=-1, kind=None, order=None) -> None:
        """Sorts in place (numpy's method; ``wg.sort(x)`` returns a sorted copy)."""
        with self._writing():
            _ops.assign(self, _np_method("sort", self, axis=axis, kind=kind, order=order))

    def clip(self, min=None, max=None, out=None):
        return _np_method("clip", self, min, max, out=out)

    def round(self, decimals=0, out=None):
        return _np_method("round", self, decimals=decimals, out=out)

    def dot(self, b, out=None):
        return _np_method("dot", self, b, out=out)

    def squeeze(self, axis=None):
        return _np_method("squeeze", self, axis=axis)

    def swapaxes(self, axis1, axis2):
        return _np_method("swapaxes", self, axis1, axis2)

    def nonzero(self):
        return _np_method("nonzero", self)

    def repeat(self, repeats, axis=None):
        return _np_method("repeat", self, repeats, axis=axis)

    def take(self, indices, axis=None, out=None, mode="raise"):
        return _np_method("take", self, indices, axis=axis, out=out, mode=mode)

    def diagonal(self, offset=0, axis1=0, axis2=1):
        return _np_method("diagonal", self, offset=offset, axis1=axis1, axis2=axis2)

    def trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        return _np_method("trace", self, offset=offset, axis1=axis1, axis2=axis2, dtype=dtype, out=out)

    def fill(self, value) -> None:
        """Every element set to ``value``, on the device."""
        with self._writing(value):
            _ops.assign(self, value)

    def view(self, dtype=None) -> "Array":
        """A new view of the same elements; a different dtype (a reinterpretation of the bytes) is not supported:
        the device holds narrow dtypes widened, so their bytes differ from the host's."""
        from .dtypes import as_dtype
        if dtype is not None and as_dtype(dtype) is not self.dtype:
            raise TypeError(f"wgarray cannot view {self.dtype.name} data as {as_dtype(dtype).name}")
        return self._view(self.shape, self.strides, self.offset)

    def __format__(self, spec: str) -> str:
        """``f"{x:.3f}"`` for one-element arrays (numpy's rule); other arrays format only with an empty spec."""
        if self.ndim == 0:
            return format(self.item(), spec)
        if spec:
            raise TypeError("unsupported format string passed to wgarray.Array.__format__")
        return str(self)

    def __round__(self, ndigits=None):
        """``round(x)``: a 0-d array gives a Python int as a numpy scalar does (ties to even); with ``ndigits``, or
        for other arrays (where numpy has no ``__round__``), the array rounded as ``np.round`` does."""
        if ndigits is None and self.ndim == 0:
            return round(self.item())
        return _np_method("round", self, decimals=0 if ndigits is None else ndigits)


def _numpy_interop():
    from .api import interop
    return interop


def _np_method(name: str, *args, **kwargs):
    """numpy's method ``x.name(...)``: the same adapter ``np.name(x, ...)`` dispatches to."""
    interop = _numpy_interop()
    return interop.FUNCTIONS[getattr(np, name)](*args, **kwargs)


_OPERANDS = (Array, bool, int, float, complex, np.ndarray, np.generic, list, tuple)
_EQ = ("equal", "not_equal")


_SET_MIRROR = Array.__dict__["mirror"].__set__  # the slots' own setters, for the constructors only
_SET_SHAPE = Array.__dict__["shape"].__set__
_SET_STRIDES = Array.__dict__["strides"].__set__
_SET_OFFSET = Array.__dict__["offset"].__set__
_SET_WRITEABLE = Array.__dict__["_writeable"].__set__


def _set_view(self: Array, mirror: Mirror, shape: tuple[int, ...], strides: tuple[int, ...], offset: int,
              writeable: bool) -> None:
    """The checked constructors' common tail: the view must lie inside its base, then the slots are set."""
    if len(strides) != len(shape) or not _inside(mirror.size, shape, strides, offset):
        raise ValueError(f"a view of shape {shape}, strides {strides} and offset {offset} would address "
                         f"elements outside its base of {mirror.size}")
    _SET_MIRROR(self, mirror)
    _SET_SHAPE(self, shape)
    _SET_STRIDES(self, strides)
    _SET_OFFSET(self, offset)
    _SET_WRITEABLE(self, writeable)


class Flags:
    """numpy's ``x.flags``, as far as wgarray has flags: ``writeable`` (False for broadcast views, whose zero
    strides alias several elements, and every view of them).  It can be cleared, and set again only where it
    is already set (numpy's rule for views of read-only data)."""

    __slots__ = ("_array",)

    def __init__(self, array: Array) -> None:
        object.__setattr__(self, "_array", array)

    @property
    def writeable(self) -> bool:
        return self._array._writeable

    @writeable.setter
    def writeable(self, value: bool) -> None:
        if value and not self._array._writeable:
            raise ValueError("cannot set WRITEABLE flag to True of this array")
        _SET_WRITEABLE(self._array, bool(value))

    @property
    def c_contiguous(self) -> bool:
        return self._array.is_contiguous

    def __repr__(self) -> str:
        return f"  C_CONTIGUOUS : {self.c_contiguous}\n  WRITEABLE : {self.writeable}"


def _unpickle(dtype_name: str, shape: tuple[int, ...], data: bytes) -> Array:
    dt = _dt.as_dtype(dtype_name)
    return _ops.asarray(np.frombuffer(data, dtype=dt.numpy).reshape(shape), dtype=dt)


def resolve_shape(size: int, shape: Any) -> tuple[int, ...]:
    """A requested shape (an int or a sequence) for ``size`` elements, as numpy reads it: one negative entry, of any
    value (numpy takes -2 as it takes -1), stands for the dimension the others leave."""
    dims = [operator.index(shape)] if isinstance(shape, (int, np.integer)) else [operator.index(n) for n in shape]
    unknown = [i for i, n in enumerate(dims) if n < 0]
    if len(unknown) > 1:
        raise ValueError("can only specify one unknown dimension")
    if unknown:
        known = math.prod(n for n in dims if n >= 0)
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape array of size {size} into shape {tuple(dims)}")
        dims[unknown[0]] = size // known
    if math.prod(dims) != size:
        raise ValueError(f"cannot reshape array of size {size} into shape {tuple(dims)}")
    return tuple(dims)


def _inside(base_size: int, shape: tuple[int, ...], strides: tuple[int, ...], offset: int) -> bool:
    """Whether every element a view addresses lies in its base (an empty view addresses none)."""
    lo = hi = offset
    for n, s in zip(shape, strides):
        if n == 0:
            return True
        if s < 0:
            lo += (n - 1) * s
        else:
            hi += (n - 1) * s
    return 0 <= lo and hi < base_size


def nocopy_strides(old_shape: tuple[int, ...], old_strides: tuple[int, ...],
                   new_shape: tuple[int, ...]) -> tuple[int, ...] | None:
    """Strides that give ``new_shape`` over the same elements without a copy (row-major order), or None where
    none exist: numpy's ``_attempt_nocopy_reshape``, for a non-empty view."""
    old = [(n, s) for n, s in zip(old_shape, old_strides) if n != 1]
    od = [n for n, _ in old]
    os_ = [s for _, s in old]
    new = list(new_shape)
    out = [0] * len(new)
    ni = oi = 0
    nj = oj = 1
    while ni < len(new) and oi < len(od):
        np_, op = new[ni], od[oi]
        while np_ != op:
            if np_ < op:
                np_ *= new[nj]
                nj += 1
            else:
                op *= od[oj]
                oj += 1
        for ok in range(oi, oj - 1):  # the old axes merged here must be contiguous with one another
            if os_[ok] != od[ok + 1] * os_[ok + 1]:
                return None
        out[nj - 1] = os_[oj - 1]
        for nk in range(nj - 1, ni, -1):
            out[nk - 1] = out[nk] * new[nk]
        ni, oi = nj, oj
        nj, oj = nj + 1, oj + 1
    last = out[ni - 1] if ni >= 1 else 1
    for nk in range(ni, len(new)):
        out[nk] = last
    return tuple(out)


def _binary(name: str, reflected: bool = False):
    def method(self, other, /):
        if type(other) is Array:  # the hot path (None: the general one, which also raises the errors)
            out = _ops.binary(name, other, self) if reflected else _ops.binary(name, self, other)
            if out is not None:
                return out
        elif not isinstance(other, _OPERANDS) and not (other is None and name in _EQ):
            return NotImplemented  # lists and tuples broadcast as numpy's; x == None is elementwise (numpy 2)
        else:
            out = _ops.elementwise_fast(name, (other, self) if reflected else (self, other))
            if out is not None:
                return out
        return _ops.elementwise(name, other, self) if reflected else _ops.elementwise(name, self, other)
    method.__name__ = name
    return method


def _inplace(name: str):
    def method(self, other, /):
        with self._writing(other):
            _ops.inplace(name, self, other)
        return self
    return method


def _unary(name: str):
    def method(self, /):
        return _ops.elementwise(name, self)
    return method


_OPERATORS = {
    "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide", "floordiv": "floor_divide",
    "mod": "remainder", "pow": "pow", "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
    "lshift": "bitwise_left_shift", "rshift": "bitwise_right_shift",
}
for _py, _op in _OPERATORS.items():
    setattr(Array, f"__{_py}__", _binary(_op))
    setattr(Array, f"__r{_py}__", _binary(_op, reflected=True))
    setattr(Array, f"__i{_py}__", _inplace(_op))
for _py, _op in {"lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal",
                 "eq": "equal", "ne": "not_equal"}.items():
    setattr(Array, f"__{_py}__", _binary(_op))
for _py, _op in {"neg": "negative", "pos": "positive", "abs": "abs", "invert": "bitwise_invert"}.items():
    setattr(Array, f"__{_py}__", _unary(_op))


def _matmul(self, other, /):
    if not isinstance(other, (Array, np.ndarray)):
        return NotImplemented
    return _ops.matmul(self, other)


def _rmatmul(self, other, /):
    if not isinstance(other, (Array, np.ndarray)):
        return NotImplemented
    return _ops.matmul(other, self)


def _imatmul(self, other, /):
    with self._writing(other):
        res = _ops.matmul(self, other)
        if res.shape != self.shape:
            raise ValueError(f"in-place matmul would change the shape {self.shape} to {res.shape}")
        if not np.can_cast(res.dtype.numpy, self.dtype.numpy, casting="same_kind"):
            raise TypeError(f"cannot store the {res.dtype.name} result of matmul in a {self.dtype.name} array "
                            "in place")
        _ops.assign(self, res)
    return self


Array.__matmul__ = _matmul
Array.__rmatmul__ = _rmatmul
Array.__imatmul__ = _imatmul

from . import ops as _ops  # noqa: E402  (the operations layer imports Array; import it after the class exists)
