"""The Array API inspection namespace: ``wg.__array_namespace_info__()``.

Capabilities are reported as they are (probed, not declared), dtypes per device (no float64 without the adapter
feature ``shader-f64``, no 64-bit integers without ``shader-int64``).  Only the standard's dtypes are listed:
float16, which wgarray also has, is not one of them.
"""
from __future__ import annotations

import numpy as np

from .. import device as _device, dtypes as _dt
from ..kernels.layout import MAXD
from ..ops.core import resolve_device

__all__ = ["__array_namespace_info__"]

_STANDARD = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32",
             "float64", "complex64", "complex128")
_KINDS = {"bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu", "real floating": "f",
          "complex floating": "c", "numeric": "iufc"}


def _boolean_indexing_works() -> bool:
    """Asks the indexing code itself (with empty operands, so nothing is compiled or dispatched)."""
    try:
        import wgarray
        x = wgarray.asarray(np.zeros((0, 2), dtype=np.int32))
        got = x[wgarray.asarray(np.zeros((0, 2), dtype=np.bool_))]
        return got.shape == (0,)
    except (IndexError, TypeError, NotImplementedError, ValueError):
        return False


def _data_dependent_shapes_work() -> bool:
    import wgarray
    return all(hasattr(wgarray, name) for name in ("nonzero", "unique_all", "unique_counts", "unique_inverse",
                                                   "unique_values", "repeat"))


class Info:
    """Inspection utilities (the standard's ``Info`` object)."""

    __slots__ = ()

    def capabilities(self) -> dict:
        """{"boolean indexing", "data-dependent shapes", "max dimensions"} as wgarray supports them now.

        "max dimensions" is the number of dimensions every kernel addresses after merging the ones it can; arrays
        with more dimensions exist, but only operations that merge them down to this many can run on them."""
        return {"boolean indexing": _boolean_indexing_works(),
                "data-dependent shapes": _data_dependent_shapes_work(),
                "max dimensions": MAXD}

    def default_device(self) -> _device.Device:
        return _device.default_device()

    def devices(self) -> list[_device.Device]:
        """The open devices (the default first); open others with ``wg.open_device``."""
        return _device.devices()

    def default_dtypes(self, *, device=None) -> dict:
        """Default dtypes (the same on every device: float32, complex64 and int32 are always supported)."""
        resolve_device(device)
        return {"real floating": _dt.default_float, "complex floating": _dt.default_complex, "integral": _dt.default_int,
                "indexing": _dt.default_int}

    def dtypes(self, *, device=None, kind=None) -> dict:
        """The standard's dtypes ``device`` supports, by name, optionally only those of ``kind`` (a kind name or a
        tuple of kind names)."""
        dev = resolve_device(device)
        kinds = (kind,) if isinstance(kind, str) else kind
        if kinds is not None:
            if not isinstance(kinds, tuple):
                raise TypeError(f"kind must be None, a string or a tuple of strings, not {type(kind).__name__}")
            for k in kinds:
                if k not in _KINDS:
                    raise ValueError(f"unknown dtype kind {k!r}")
        out = {}
        for name in _STANDARD:
            d = _dt.as_dtype(name)
            if not dev.supports(d):
                continue
            if kinds is None or any(d.kind in _KINDS[k] for k in kinds):
                out[name] = d
        return out


_INFO = Info()


def __array_namespace_info__() -> Info:
    """The inspection utilities: capabilities(), default_device(), default_dtypes(), dtypes(), devices()."""
    return _INFO
