"""wgarray: numpy-style arrays on any GPU through WebGPU.

    import wgarray as wg
    a = wg.asarray(np_a); c = (a + a * 2 > 0.5); c.numpy(); c.sum()
"""

from . import dtypes as _dtypes_module
from ._array import Array
from ._elementwise import *  # noqa: F401,F403
from ._elementwise import __all__ as _ew_all
from ._elementwise import where
from ._ops import arange, asarray, astype as _astype, empty, eye, full, linspace
from ._ops import reshape as _reshape
from .device import Device, AdapterInfo, adapter_properties, adapters, default_device, devices, open_device
from .dtypes import (bool, float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
                     isdtype, DType)
from .runtime.stats import Stats
from ._namespace import *  # noqa: F401,F403
from ._namespace import __all__ as _ns_all
from ._constants import e, inf, nan, newaxis, pi
from ._creation import from_dlpack, meshgrid, tril, triu
from ._data_types import can_cast, finfo, iinfo, result_type
from ._manipulation import (broadcast_arrays, broadcast_to, concat, expand_dims, flip, moveaxis, permute_dims,
                            repeat, reshape, roll, squeeze, stack, tile, unstack)
from ._statistics import diff, std, var
from . import linalg
from .linalg import matmul, matrix_transpose, tensordot, vecdot
from ._info import __array_namespace_info__
from ._statistical_extra import cumulative_prod, cumulative_sum
from ._sorting import argsort, sort
from ._searching import count_nonzero, nonzero, searchsorted
from ._set import unique_all, unique_counts, unique_inverse, unique_values
from ._indexing import take, take_along_axis
from .kernels import codec as _codec  # noqa: F401  (installs the device-side codec)

__version__ = "0.1.0"
__array_api_version__ = "2024.12"
