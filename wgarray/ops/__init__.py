"""The operations layer (layer 6, beside ``_array``): turns calls on Arrays into dtype decisions, result arrays
and kernel launches.  It imports only ``_array``, ``kernels``, ``alloc``, ``device`` and ``dtypes``; the
namespace (``wgarray/api``) imports it.

* ``core``: devices, new arrays, arrays from Python data, scalars and operands, astype, to_device
* ``axes``: the one axis normaliser (and its 0-d rule)
* ``shape``: shape arguments, broadcasting, reshape and broadcast_to views
* ``elementwise``: dtype decisions from the elementwise table and the generic launch (``a + b``)
* ``reduction``: reductions from the reduction table
* ``indexing``: all of ``x[key]`` and ``x[key] = v`` (basic and advanced), ``assign``
* ``matmul``: the matrix product

The names below are what ``Array``'s methods and operators call.
"""
from .core import asarray, astype, to_device
from .elementwise import binary, elementwise, elementwise_fast, inplace
from .indexing import assign, getitem, setitem
from .matmul import matmul
from .reduction import argreduce, reduce
from .shape import reshape

__all__ = ["argreduce", "asarray", "assign", "astype", "binary", "elementwise", "elementwise_fast", "getitem",
           "inplace", "matmul", "reduce", "reshape", "setitem", "to_device"]
