"""wgarray: numpy-style arrays on any GPU through WebGPU.

    import wgarray as wg
    a = wg.asarray(np_a); c = (a + a * 2 > 0.5); c.numpy(); c.sum()

The names below are grouped and ordered as the Array API standard lists them; each comes from its section's
module in ``wgarray/api`` (see its docstring).
"""
import sys as _sys

from .kernels import codec as _codec

_codec.register()  # the device-side widen/narrow kernels of narrow dtypes (the mirror asks device.codec)

# -- array object ------------------------------------------------------------------------------------------------
from ._array import Array  # noqa: E402

# -- constants ---------------------------------------------------------------------------------------------------
from .api.constants import e, inf, nan, newaxis, pi  # noqa: E402

# -- creation functions ------------------------------------------------------------------------------------------
from .api.creation import (arange, asarray, empty, empty_like, eye, from_dlpack, full, full_like,  # noqa: E402
                           linspace, meshgrid, ones, ones_like, tril, triu, zeros, zeros_like)

# -- data type functions -----------------------------------------------------------------------------------------
from .api.data_types import astype, can_cast, finfo, iinfo, isdtype, result_type  # noqa: E402

# -- data types --------------------------------------------------------------------------------------------------
from .dtypes import (DType, bool, complex64, complex128, float16, float32, float64, int8, int16,  # noqa: E402
                     int32, int64, uint8, uint16, uint32, uint64)

# -- elementwise functions ---------------------------------------------------------------------------------------
from .api.elementwise import (abs, acos, acosh, add, asin, asinh, atan, atan2, atanh, bitwise_and,  # noqa: E402
                              bitwise_invert, bitwise_left_shift, bitwise_or, bitwise_right_shift, bitwise_xor,
                              ceil, clip, conj, copysign, cos, cosh, divide, equal, exp, exp2, expm1, floor,
                              floor_divide, greater, greater_equal, hypot, imag, isfinite, isinf, isnan, less,
                              less_equal, log, log1p, log2, log10, logaddexp, logical_and, logical_not,
                              logical_or, logical_xor, maximum, minimum, multiply, negative, nextafter,
                              not_equal, positive, pow, real, reciprocal, remainder, round, sign, signbit, sin,
                              sinh, sqrt, square, subtract, tan, tanh, trunc)

# -- the fft extension (wg.fft, also importable as wgarray.fft) -------------------------------------------------
from .api import fft  # noqa: E402

_sys.modules[__name__ + ".fft"] = fft

# -- indexing functions ------------------------------------------------------------------------------------------
from .api.indexing import take, take_along_axis  # noqa: E402

# -- inspection --------------------------------------------------------------------------------------------------
from .api.inspection import __array_namespace_info__  # noqa: E402

# -- linear algebra functions (and the linalg extension, also importable as wgarray.linalg) ----------------------
from .api import linalg  # noqa: E402
from .api.linalg import matmul, matrix_transpose, tensordot, vecdot  # noqa: E402

_sys.modules[__name__ + ".linalg"] = linalg

# -- manipulation functions --------------------------------------------------------------------------------------
from .api.manipulation import (broadcast_arrays, broadcast_to, concat, expand_dims, flip,  # noqa: E402
                               moveaxis, permute_dims, repeat, reshape, roll, squeeze, stack, tile, unstack)

# -- searching functions -----------------------------------------------------------------------------------------
from .api.searching import argmax, argmin, count_nonzero, nonzero, searchsorted, where  # noqa: E402

# -- set functions -----------------------------------------------------------------------------------------------
from .api.set import unique_all, unique_counts, unique_inverse, unique_values  # noqa: E402

# -- sorting functions -------------------------------------------------------------------------------------------
from .api.sorting import argsort, sort  # noqa: E402

# -- statistical functions ---------------------------------------------------------------------------------------
from .api.statistical import cumulative_prod, cumulative_sum, max, mean, min, prod, std, sum, var  # noqa: E402

# -- utility functions -------------------------------------------------------------------------------------------
from .api.utility import all, any, diff  # noqa: E402

# -- numpy's everyday functions beyond the standard (numpy's signatures), and numpy's protocols (NEP 13/18) ---------
from .api.numpy_extras import (allclose, argwhere, array_equal, array_split, asnumpy, atleast_1d,  # noqa: E402
                               atleast_2d, atleast_3d, average, bincount, column_stack, concatenate, convolve,
                               corrcoef, cov, diag, digitize, dot, dstack, einsum, get_array_module, histogram,
                               hstack, inner, interp, isclose, median, nanargmax, nanargmin, nanmax, nanmean,
                               nanmin, nansum, pad, percentile, ptp, quantile, split, vdot, vstack)

# -- wgarray's own: random numbers (numpy's Generator API on Philox4x32-10; also importable as wgarray.random) --
from .api import random  # noqa: E402

_sys.modules[__name__ + ".random"] = random

# -- wgarray's own: user kernels in WGSL (CuPy's ElementwiseKernel, ReductionKernel, RawKernel) ------------------
from .api.user_kernels import ElementwiseKernel, RawKernel, ReductionKernel  # noqa: E402

# -- wgarray's own: fusion (one kernel for a chain of elementwise ops) -------------------------------------------
from .api.fusion import fuse, lazy  # noqa: E402

# -- wgarray's own: devices and their counters -------------------------------------------------------------------
from .api.utility import stats, synchronize  # noqa: E402
from .device import AdapterInfo, Device, adapter_properties, adapters, default_device, devices, open_device  # noqa: E402,E501
from .runtime.stats import Stats  # noqa: E402

__version__ = "0.1.0"
__array_api_version__ = "2024.12"

# -- Dask (``import wgarray.dask``): a process that has loaded Dask before wgarray (a Dask worker unpickling its
# first wgarray chunk) gets the chunk-type registrations now; dask itself never imports wgarray unless asked for
# the "wgarray" array backend (the entry point in pyproject.toml)
if "dask.array" in _sys.modules or "distributed" in _sys.modules:
    from .api import dask as _dask_registrations  # noqa: E402,F401
