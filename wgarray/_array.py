"""The Array: shape, dtype, strides and offset (in elements) over a Mirror shared by all views of one base.

Arrays know nothing of WGSL or wgpu: operators go through ``ops`` (which picks dtypes and launches kernels),
and bytes only move when the mirror is asked for a side that is stale.
"""
from __future__ import annotations

import math
import operator

import numpy as np

from .alloc.mirror import Mirror
from .dtypes import DType
from .kernels.layout import contiguous_strides

_STRIDES: dict[tuple[int, ...], tuple[int, ...]] = {}
_MAX_BYTES = int(np.iinfo(np.intp).max)


class Array:
    """An n-dimensional array whose bytes live on a WebGPU device and/or the host, synced on demand."""

    __slots__ = ("mirror", "shape", "strides", "offset", "__weakref__")
    __array_ufunc__ = None  # numpy defers binary operators to ours instead of converting us
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, mirror: Mirror, shape: tuple[int, ...], strides: tuple[int, ...] | None = None,
                 offset: int = 0) -> None:
        self.mirror = mirror
        self.shape = tuple(int(n) for n in shape)
        if 0 in self.shape and math.prod(n for n in self.shape if n) * mirror.dtype.itemsize > _MAX_BYTES:
            # numpy, which holds the host side, cannot represent it (even empty): refuse it as numpy does
            raise ValueError(f"array is too big: shape {self.shape} exceeds numpy's index range")
        self.strides = tuple(strides) if strides is not None else contiguous_strides(self.shape)
        self.offset = int(offset)

    @classmethod
    def _contiguous(cls, mirror: Mirror, shape: tuple[int, ...]) -> "Array":
        """A fresh C-contiguous array over ``mirror`` (hot path: no validation, strides cached per shape)."""
        self = object.__new__(cls)
        self.mirror = mirror
        self.shape = shape
        strides = _STRIDES.get(shape)
        if strides is None:
            if len(_STRIDES) > 4096:
                _STRIDES.clear()
            strides = _STRIDES[shape] = contiguous_strides(shape)
        self.strides = strides
        self.offset = 0
        return self

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
    def T(self) -> "Array":
        if self.ndim != 2:
            raise ValueError(f"x.T requires a 2-D array (got {self.ndim}-D); use permute_dims or mT")
        return self.transpose()

    @property
    def mT(self) -> "Array":
        if self.ndim < 2:
            raise ValueError(f"x.mT requires at least 2 dimensions (got {self.ndim})")
        axes = list(range(self.ndim))
        axes[-1], axes[-2] = axes[-2], axes[-1]
        return self.transpose(axes)

    # -- host interop ----------------------------------------------------------------------------------------
    def _host_view(self, host: np.ndarray) -> np.ndarray:
        item = host.itemsize
        if self.size == 0:
            return np.empty(self.shape, dtype=host.dtype)
        return np.lib.stride_tricks.as_strided(host[self.offset:], self.shape, [s * item for s in self.strides])

    def numpy(self) -> np.ndarray:
        """A numpy copy of the values (downloads the base once if only the device side is valid)."""
        return np.array(self._host_view(self.mirror.host()), copy=True)

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        out = self.numpy()
        return out if dtype is None else out.astype(dtype)

    def __dlpack__(self, /, *, stream=None, max_version=None, dl_device=None, copy=None):
        """Exports a host copy (kDLCPU): the bytes live in a device buffer, so copy=False is a BufferError."""
        if copy is False:
            raise BufferError("wgarray exports a host copy of the data; copy=False cannot be honoured")
        if dl_device is not None and tuple(dl_device) != (1, 0):
            raise BufferError(f"wgarray exports to the host (kDLCPU = (1, 0)) only, not to {dl_device}")
        kwargs = {} if max_version is None else {"max_version": max_version}
        return self.numpy().__dlpack__(**kwargs)

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

    def item(self):
        if self.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
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

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    # -- views -----------------------------------------------------------------------------------------------
    def _view(self, shape, strides, offset) -> "Array":
        return Array(self.mirror, tuple(shape), tuple(strides), offset)

    def transpose(self, axes=None) -> "Array":
        axes = tuple(reversed(range(self.ndim))) if axes is None else tuple(operator.index(a) for a in axes)
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
        _ops.setitem(self, key, value)

    # -- methods that read like numpy's --------------------------------------------------------------------------
    def reshape(self, *shape, copy: bool | None = None) -> "Array":
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = tuple(shape[0])
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

    def sum(self, axis=None, dtype=None, keepdims=False):
        return _ops.reduce("sum", self, axis, keepdims, dtype)

    def prod(self, axis=None, dtype=None, keepdims=False):
        return _ops.reduce("prod", self, axis, keepdims, dtype)

    def mean(self, axis=None, keepdims=False):
        return _ops.reduce("mean", self, axis, keepdims)

    def max(self, axis=None, keepdims=False):
        return _ops.reduce("max", self, axis, keepdims)

    def min(self, axis=None, keepdims=False):
        return _ops.reduce("min", self, axis, keepdims)

    def any(self, axis=None, keepdims=False):
        return _ops.reduce("any", self, axis, keepdims)

    def all(self, axis=None, keepdims=False):
        return _ops.reduce("all", self, axis, keepdims)

    def argmax(self, axis=None, keepdims=False):
        return _ops.argreduce("argmax", self, axis, keepdims)

    def argmin(self, axis=None, keepdims=False):
        return _ops.argreduce("argmin", self, axis, keepdims)


def _binary(name: str, reflected: bool = False):
    def method(self, other, /):
        if type(other) is not Array and not isinstance(other, (Array, bool, int, float, complex, np.ndarray,
                                                               np.generic)):
            return NotImplemented
        args = (other, self) if reflected else (self, other)
        out = _ops.elementwise_fast(name, args)  # the hot path; None: the general one (which raises the errors)
        return _ops.elementwise(name, *args) if out is None else out
    method.__name__ = name
    return method


def _inplace(name: str):
    def method(self, other, /):
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
    res = _ops.matmul(self, other)
    if res.shape != self.shape:
        raise ValueError(f"in-place matmul would change the shape {self.shape} to {res.shape}")
    if not np.can_cast(res.dtype.numpy, self.dtype.numpy, casting="same_kind"):
        raise TypeError(f"cannot store the {res.dtype.name} result of matmul in a {self.dtype.name} array in place")
    _ops.assign(self, res)
    return self


Array.__matmul__ = _matmul
Array.__rmatmul__ = _rmatmul
Array.__imatmul__ = _imatmul

from . import ops as _ops  # noqa: E402  (the operations layer imports Array; import it after the class exists)
