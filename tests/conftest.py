import os

os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

_common = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                     HealthCheck.filter_too_much])
settings.register_profile("dev", max_examples=25, **_common)
settings.register_profile("ci", max_examples=40, derandomize=True, print_blob=True, **_common)
settings.register_profile("long", max_examples=400, **_common)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(scope="session")
def dev():
    import wgarray as wg
    return wg.default_device()


def pytest_collection_finish(session):
    """Collect once and freeze what collection built (the test modules, numpy, hypothesis, and dask where installed:
    most of the heap) out of the cycle collector's view: every automatic collection and
    every ``gc.collect()`` a test runs would otherwise scan it again.  Only cycle collection is affected: objects made
    from here on are collected as before, and reference counting frees everything as usual."""
    import gc

    gc.collect()
    gc.freeze()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """`-n N --dist loadfile`: the heaviest file (or group of files sharing kernels) left goes to the next free
    worker (tests/xdist_order.py)."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist_order import heaviest_first_scheduler

    return heaviest_first_scheduler(config, log)
