"""wgarray: numpy-style arrays on any GPU through WebGPU.

    import wgarray as wg
    a = wg.asarray(np_a); c = (a + a * 2 > 0.5); c.numpy(); c.sum()
"""
from __future__ import annotations

from . import dtypes as _dtypes_module
from ._array import Array
from ._elementwise import *  # noqa: F401,F403
from ._elementwise import __all__ as _ew_all
from ._elementwise import where
from ._ops import arange, asarray, astype as _astype, broadcast_to, empty, eye, full, linspace, matmul
from ._ops import reshape as _reshape
from .device import Device, AdapterInfo, adapters, default_device, devices, open_device
from .dtypes import (bool, float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
                     isdtype, result_type, DType)
from .runtime.stats import Stats
from ._namespace import *  # noqa: F401,F403
from ._namespace import __all__ as _ns_all

__version__ = "0.1.0"
__array_api_version__ = "2024.12"
