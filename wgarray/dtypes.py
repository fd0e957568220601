"""Logical dtypes as data, and the one place that knows host and device sizes differ.

WGSL storage buffers hold only 4- or 8-byte scalars, so ``bool`` and the 8/16-bit integers live on the device
widened to ``u32``/``i32``, and ``float16`` widened to ``f32``.  Each :class:`DType` names its numpy dtype, the
WGSL type it is stored and computed in, the device item size, and the codec that widens on upload and narrows on
download.  Every other module asks a ``DType`` instead of hard-coding a size.

complex64 and complex128 are stored as ``vec2<f32>`` / ``vec2<f64>``: numpy's interleaved (real, imag) pairs are
the same bytes on host and device, so they need no codec; ``array<vec2<f32>>`` has an 8-byte stride and
``array<vec2<f64>>`` a 16-byte one, and offsets are kept in elements, so views need nothing special.

float16 is held in ``f32`` on every device, even where ``shader-f16`` exists: numpy computes float16 ufuncs in
float32 and rounds the result to float16, and the kernels do exactly that (``wg_round_f16`` on store), so the
results are bit-identical to numpy on every adapter.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = [
    "DType", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128", "ALL_DTYPES", "as_dtype", "result_type", "isdtype",
    "default_float", "default_int", "default_uint", "default_complex", "scalar_dtype",
]

_builtin_bool = bool
_DEVICE_ITEMSIZE = {"u32": 4, "i32": 4, "f32": 4, "u64": 8, "i64": 8, "f64": 8, "vec2<f32>": 8, "vec2<f64>": 16}


@dataclass(frozen=True, eq=False)
class DType:
    """A wgarray dtype.  Compared by identity; ``DType == numpy dtype`` also works for convenience."""

    name: str
    numpy: np.dtype
    kind: str  # "b" bool, "i" signed int, "u" unsigned int, "f" real float, "c" complex float
    bits: int  # logical width (of the whole element: 64 for complex64)
    wgsl: str  # WGSL type of the device storage (also the compute type, bool aside); vec2 for complex
    feature: str | None = None  # adapter feature the dtype needs, if any
    # Bytes per element in a device buffer (4, 8 or 16: WGSL has no narrower storage).  A field computed once
    # from ``wgsl``, not a property: every result array's allocation reads it.
    device_itemsize: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "device_itemsize", _DEVICE_ITEMSIZE[self.wgsl])

    # -- sizes: the only place that knows them ---------------------------------------------------------
    @property
    def itemsize(self) -> int:
        """Bytes per element on the host (numpy's itemsize)."""
        return self.numpy.itemsize

    @property
    def storage_numpy(self) -> np.dtype:
        """numpy dtype with the device layout (what the bytes in a device buffer look like)."""
        return np.dtype({"u32": np.uint32, "i32": np.int32, "f32": np.float32, "u64": np.uint64, "i64": np.int64,
                         "f64": np.float64, "vec2<f32>": np.complex64, "vec2<f64>": np.complex128}[self.wgsl])

    @property
    def component(self) -> "DType":
        """The real dtype of one part of a complex dtype (float32 for complex64); a real dtype is its own."""
        return _COMPONENT.get(self.name, self)

    @property
    def widened(self) -> _builtin_bool:
        return self.device_itemsize != self.itemsize

    # -- the codec -----------------------------------------------------------------------------------------
    def widen(self, host: np.ndarray) -> np.ndarray:
        """Host elements -> contiguous device-layout elements.  Exact for every value."""
        host = np.ascontiguousarray(host, dtype=self.numpy)
        if not self.widened:
            return host
        return host.astype(self.storage_numpy)

    def narrow(self, device: np.ndarray, out: np.ndarray) -> None:
        """Device-layout elements -> host elements written into ``out``.  Exact for every value the kernels store."""
        if not self.widened:
            out[...] = device.view(self.numpy)
        elif self.kind == "b":
            np.not_equal(device, 0, out=out)
        else:
            out[...] = device.astype(self.numpy, casting="unsafe")

    # -- conveniences --------------------------------------------------------------------------------------
    @property
    def dtype(self) -> np.dtype:
        """The numpy dtype: ``np.dtype(obj)`` reads a ``dtype`` attribute, so ``np.dtype(wg.float32)`` works and
        libraries that normalise a chunk's dtype through numpy (Dask's ``normalize_chunks``, ``np.empty(...,
        dtype=x.dtype)``) accept a wgarray dtype."""
        return self.numpy

    @property
    def type(self) -> type:
        """numpy's scalar type (``np.float32``), as ``np.dtype.type``: Dask builds fill values and reduction
        identities with ``x.dtype.type(0)``."""
        return self.numpy.type

    def __repr__(self) -> str:
        return f"wgarray.{self.name}"

    __str__ = __repr__

    def __eq__(self, other: Any) -> _builtin_bool:
        """Identity between DTypes; equal to a numpy dtype, a dtype name or a scalar type naming the same numpy
        dtype; False for anything else (None is no dtype here, though numpy reads it as float64).  Never raises:
        the standard's test suite compares dtypes with arbitrary strings."""
        if isinstance(other, DType):
            return self is other
        if isinstance(other, np.dtype):
            return other == self.numpy
        if not isinstance(other, (str, bytes, type)):
            return False
        spec: Any = other  # numpy's parser takes any name or scalar type; its stubs list only literals
        try:
            return _builtin_bool(np.dtype(spec) == self.numpy)
        except Exception:  # numpy's parser raises SyntaxError, ValueError, TypeError ... for odd strings
            return False

    def __ne__(self, other: Any) -> _builtin_bool:
        return not self.__eq__(other)

    __hash__ = object.__hash__  # singletons: identity hashing is right, and C-speed on hot paths

    def __reduce__(self):  # dtypes are singletons; pickling returns the same object
        return (as_dtype, (self.name,))


bool = DType("bool", np.dtype(np.bool_), "b", 8, "u32")
int8 = DType("int8", np.dtype(np.int8), "i", 8, "i32")
int16 = DType("int16", np.dtype(np.int16), "i", 16, "i32")
int32 = DType("int32", np.dtype(np.int32), "i", 32, "i32")
int64 = DType("int64", np.dtype(np.int64), "i", 64, "i64", "shader-int64")
uint8 = DType("uint8", np.dtype(np.uint8), "u", 8, "u32")
uint16 = DType("uint16", np.dtype(np.uint16), "u", 16, "u32")
uint32 = DType("uint32", np.dtype(np.uint32), "u", 32, "u32")
uint64 = DType("uint64", np.dtype(np.uint64), "u", 64, "u64", "shader-int64")
float16 = DType("float16", np.dtype(np.float16), "f", 16, "f32")
float32 = DType("float32", np.dtype(np.float32), "f", 32, "f32")
float64 = DType("float64", np.dtype(np.float64), "f", 64, "f64", "shader-f64")

complex64 = DType("complex64", np.dtype(np.complex64), "c", 64, "vec2<f32>")
complex128 = DType("complex128", np.dtype(np.complex128), "c", 128, "vec2<f64>", "shader-f64")

_COMPONENT = {"complex64": float32, "complex128": float64}
_COMPLEX_OF = {float16: complex64, float32: complex64, float64: complex128}

ALL_DTYPES: tuple[DType, ...] = (bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
                                 float16, float32, float64, complex64, complex128)
_BY_NAME = {d.name: d for d in ALL_DTYPES}
_BY_NUMPY = {d.numpy: d for d in ALL_DTYPES}

default_float = float32
default_int = int32
default_uint = uint32
default_complex = complex64  # the complex dtype of the default float (float32), as the standard pairs them


def as_dtype(spec: Any) -> DType:
    """Turn a DType, name, numpy dtype or Python type into a wgarray DType; TypeError if unsupported."""
    if isinstance(spec, DType):
        return spec
    if spec is None:
        return default_float
    if spec is _builtin_bool:
        return bool
    if spec is int:
        return default_int
    if spec is float:
        return default_float
    if spec is complex:
        return default_complex
    if isinstance(spec, str) and spec in _BY_NAME:
        return _BY_NAME[spec]
    try:
        npd = np.dtype(spec)
    except TypeError:
        raise TypeError(f"data type {spec!r} not understood") from None
    try:
        return _BY_NUMPY[npd]
    except KeyError:
        raise TypeError(f"wgarray does not support the data type {npd} "
                        f"(supported: {', '.join(d.name for d in ALL_DTYPES)})") from None


# -- promotion: the Array API standard's table, plus numpy's bool-with-number and int-with-float -> the float ---
def _promote_pair(a: DType, b: DType) -> DType:
    if a is b:
        return a
    if a.kind == "b" or b.kind == "b":  # numpy: bool promotes to any number type (bool * float32 -> float32)
        return b if a.kind == "b" else a
    if a.kind == "c" or b.kind == "c":
        # complex with a real float: the complex of the wider float (float64 + complex64 -> complex128);
        # with an integer: the complex (as int + float gives the float)
        bits = max(x.component.bits for x in (a, b) if x.kind in "fc")
        return complex128 if bits == 64 else complex64
    if a.kind == "f" or b.kind == "f":
        if a.kind == "f" and b.kind == "f":
            return a if a.bits >= b.bits else b
        return a if a.kind == "f" else b  # integer with float: the float (a documented choice)
    if a.kind == b.kind:
        return a if a.bits >= b.bits else b
    s, u = (a, b) if a.kind == "i" else (b, a)
    if s.bits > u.bits:
        return s
    wider = {8: int16, 16: int32, 32: int64}.get(u.bits)
    if wider is None:
        raise TypeError(f"no promotion between {a.name} and {b.name} (no signed type holds both)")
    return wider


def complex_of(d: DType) -> DType:
    """The complex dtype whose parts are the real float ``d`` (float16 and float32 -> complex64)."""
    return d if d.kind == "c" else _COMPLEX_OF.get(d, default_complex)


def result_type(*dtypes: DType) -> DType:
    """Promote dtypes by the Array API table; TypeError for pairs it leaves undefined."""
    if not dtypes:
        raise ValueError("at least one array or dtype is required")
    out = as_dtype(dtypes[0])
    for d in dtypes[1:]:
        out = _promote_pair(out, as_dtype(d))
    return out


def scalar_dtype(value: Any, partner: DType | None) -> DType:
    """dtype a scalar takes next to an array of dtype ``partner``.

    Python scalars are weak (NEP 50): they take the partner's dtype where their kind fits it (a bool fits every
    kind, an int every number kind, a float the float kinds), else the default dtype of their kind.  numpy
    scalars (``np.float64(1)``) are strong, as in numpy 2: they keep their own dtype and promote like arrays."""
    if isinstance(value, np.generic):
        return as_dtype(value.dtype)
    if isinstance(value, _builtin_bool):
        return bool if partner is None else partner
    if isinstance(value, (int, np.integer)):
        if partner is None or partner.kind == "b":
            return default_int
        return partner
    if isinstance(value, (float, np.floating)):
        if partner is None or partner.kind not in "fc":
            return default_float
        return partner
    if isinstance(value, (complex, np.complexfloating)):
        if partner is None or partner.kind not in "fc":
            return default_complex
        return complex_of(partner)
    raise TypeError(f"unsupported scalar type {type(value).__name__}")


_KIND_GROUPS = {
    "bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu",
    "real floating": "f", "complex floating": "c", "numeric": "iufc",
}


def isdtype(dtype: DType, kind: Any) -> _builtin_bool:
    """Array API ``isdtype``: is ``dtype`` of ``kind`` (a DType, a kind name, or a tuple of them)?"""
    dtype = as_dtype(dtype)
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, DType):
        return dtype is kind
    if isinstance(kind, str):
        if kind not in _KIND_GROUPS:
            raise ValueError(f"unknown dtype kind {kind!r}")
        return dtype.kind in _KIND_GROUPS[kind]
    raise TypeError(f"kind must be a dtype, a kind name or a tuple, not {type(kind).__name__}")
