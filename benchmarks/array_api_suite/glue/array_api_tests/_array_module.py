"""The array module under test (wgarray's glue for the rebuilt suite, not an upstream file).

ARRAY_API_TESTS_MODULE names the module (``wgarray`` for benchmarks/array_api_suite.sh).  Every attribute is read
from it; a name it lacks becomes an ``_UndefinedStub`` that fails when used, so that collection never fails on a
missing name (the suite's own ``_array_module`` behaves so).  The ``_*_dtypes`` name lists are what the suite's
older helpers (array_helpers) import.
"""
import os
from importlib import import_module

mod_name = os.environ.get("ARRAY_API_TESTS_MODULE")
if not mod_name:
    raise RuntimeError("set ARRAY_API_TESTS_MODULE to the array module under test (e.g. wgarray)")
mod = import_module(mod_name)


class _UndefinedStub:
    """Stands for a name the module under test lacks; any use fails."""

    def __init__(self, name):
        self.name = name

    def _raise(self, *args, **kwargs):
        raise AssertionError(f"{self.name} is not defined in {mod_name}")

    def __repr__(self):
        return f"<undefined stub for {self.name!r}>"

    __call__ = _raise
    __getattr__ = _raise


_integer_dtypes = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
_floating_dtypes = ["float32", "float64"]
_numeric_dtypes = _integer_dtypes + _floating_dtypes
_boolean_dtypes = ["bool"]
_dtypes = _boolean_dtypes + _numeric_dtypes


def __getattr__(name):
    if name.startswith("__") and name.endswith("__") and name != "__array_namespace_info__":
        raise AttributeError(name)
    try:
        return getattr(mod, name)
    except AttributeError:
        return _UndefinedStub(name)
