"""Type aliases the suite's modules import (wgarray's glue for the rebuilt suite, not an upstream file)."""
from typing import Any, Union

__all__ = ["DataType", "Scalar", "ScalarType", "Array", "Shape", "AtomicIndex", "Index", "Param"]

DataType = type[Any]
Scalar = Union[bool, int, float, complex]
ScalarType = Union[type[bool], type[int], type[float], type[complex]]
Array = Any
Shape = tuple[int, ...]
AtomicIndex = Union[int, "ellipsis", slice, None]  # noqa: F821
Index = Union[AtomicIndex, tuple[AtomicIndex, ...]]
Param = tuple
