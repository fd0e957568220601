"""pytest glue of the rebuilt Array API suite (wgarray's, not an upstream file), with upstream's options and marks.

Options: ``--max-examples N`` (hypothesis examples a test; tests marked ``unvectorized`` get a tenth, at least 1,
as upstream's conftest gives them, unless ``--unvectorized-max-examples M`` says otherwise: 0 gives them N too),
``--disable-deadline``, ``--derandomize``, ``--disable-extension NAME``.
Marks: ``min_version(V)`` skips below ARRAY_API_TESTS_VERSION V; ``xp_extension(NAME)`` skips when the module
lacks the extension or it is disabled; ``unvectorized``, ``data_dependent_shapes`` and ``ci`` only label.
"""
import os
import sys

import pytest
from hypothesis import settings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # ``array_api_tests`` absolute imports

from array_api_tests import api_version, xp  # noqa: E402


def pytest_addoption(parser):
    parser.addoption("--max-examples", type=int, default=100, help="hypothesis examples a test")
    parser.addoption("--disable-deadline", action="store_true", help="no hypothesis deadline")
    parser.addoption("--derandomize", action="store_true", help="hypothesis derandomize")
    parser.addoption("--disable-extension", action="append", default=[], help="skip an extension's tests")
    parser.addoption("--unvectorized-max-examples", type=int, default=None,
                     help="examples for tests marked unvectorized (default max-examples // 10; 0: max-examples)")


def pytest_configure(config):
    for mark in ("xp_extension(name): the test needs an extension", "min_version(version): the test needs a "
                 "standard version", "unvectorized: loops over elements (fewer examples)",
                 "data_dependent_shapes: output shapes depend on values", "ci: a smoke test"):
        config.addinivalue_line("markers", mark)
    settings.register_profile("array-api-tests", max_examples=config.getoption("--max-examples"),
                              deadline=None if config.getoption("--disable-deadline") else 800,
                              derandomize=config.getoption("--derandomize"))
    settings.load_profile("array-api-tests")


def pytest_collection_modifyitems(config, items):
    disabled = set(config.getoption("--disable-extension"))
    unvectorized = config.getoption("--unvectorized-max-examples")
    if unvectorized is None:
        unvectorized = max(1, config.getoption("--max-examples") // 10)
    for item in items:
        for mark in item.iter_markers("xp_extension"):
            ext = mark.args[0]
            if ext in disabled or not hasattr(xp, ext):
                item.add_marker(pytest.mark.skip(reason=f"extension {ext!r} disabled or absent"))
        for mark in item.iter_markers("min_version"):
            if api_version < mark.args[0]:
                item.add_marker(pytest.mark.skip(reason=f"needs ARRAY_API_TESTS_VERSION >= {mark.args[0]}"))
        obj = getattr(item, "obj", None)
        if unvectorized and any(item.iter_markers("unvectorized")) and hasattr(obj, "hypothesis") and \
                not getattr(obj, "_hypothesis_internal_settings_applied", False):
            item.obj = settings(max_examples=unvectorized)(obj)
