"""``import wgarray.dask``: wgarray as a Dask chunk type (the module is ``wgarray/api/dask.py``; this name is the
same module object, so ``wgarray.dask.DevicePlugin`` is ``wgarray.api.dask.DevicePlugin``).  Needs Dask."""
import sys

from .api import dask as _impl

sys.modules[__name__] = _impl
