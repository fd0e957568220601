"""Package glue of the rebuilt Array API suite (wgarray's, not an upstream file): the module under test ``xp``,
hypothesis' array-API strategies ``xps`` for it, and the standard version the run targets ``api_version``
(ARRAY_API_TESTS_VERSION, else the module's ``__array_api_version__``)."""
import os

from hypothesis.extra import array_api

from ._array_module import mod as xp

api_version = os.environ.get("ARRAY_API_TESTS_VERSION", getattr(xp, "__array_api_version__", "2024.12"))
xps = array_api.make_strategies_namespace(xp, api_version=api_version)

__all__ = ["xp", "api_version", "xps"]
