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
    """Collect once and freeze what collection built (the test modules, numpy, hypothesis, and dask, scikit-learn
    and SciPy where installed: most of the heap) out of the cycle collector's view: every automatic collection and
    every ``gc.collect()`` a test runs would otherwise scan it again.  Only cycle collection is affected: objects made
    from here on are collected as before, and reference counting frees everything as usual."""
    import gc

    gc.collect()
    gc.freeze()


# -- the order `-n N --dist loadfile` hands the files out in ------------------------------------------------------
# pytest-xdist gives a free worker the next file of its queue, which it sorts by number of tests; a file with few but
# long tests (the bad-input sweep, test_large, the state machine) could then come last and run alone while the other
# worker idles.  Heaviest first instead (longest-processing-time order): the files left at the end are the short
# ones, so the workers finish within about a second of each other.  Seconds of one worker's time per file on lavapipe
# (`--durations=0`, summed per file, 2026-12-06); a file not listed counts FILE_WEIGHT_PER_TEST a test.
_FILE_SECONDS = """
api/test_elementwise 60   api/test_linalg_factor 30   api/test_statistical_reductions 25
api/test_linalg_spectral_block 18   api/test_linalg_factor_large 16   api/test_linalg_matmul 15
api/test_fft_passes 15   system/test_large 12   system/test_bad_input_sweep 12   api/test_complex 11
api/test_fft 8   system/test_memory 7   system/test_fuzz 6   system/test_state_machine 5   api/test_indexing 5
api/test_linalg_spectral 5   api/test_sorting_reg 5   numerics/test_wgsl_numerics 4   system/test_architecture 4
api/test_linalg_complex_native 4   numerics/test_signed_zeros 4   api/test_sorting_radix 3.5
api/test_elementwise_extras 3.5   api/test_elementwise_compare_exact 3   api/test_linalg 3
api/test_manipulation 2.5   api/test_statistical_scan 2.5   api/test_random 2.5   system/test_dask 2.5
system/test_defects_threads 2.5   api/test_set 2   api/test_linalg_complex 2   api/test_fusion 2
system/test_threads 1.5
"""
FILE_SECONDS = {f"tests/{name}.py": float(sec) for name, sec in zip(*[iter(_FILE_SECONDS.split())] * 2)}
FILE_WEIGHT_PER_TEST = 0.04
# files that compile many of the same kernels run in one worker, one after the other, as one unit of work (a worker
# compiles each shader once; the other worker would compile them again): the blocked factorisations' two files share
# ~60 kernels (~3 s of lavapipe compiles)
FILE_GROUPS = [("tests/api/test_linalg_factor.py", "tests/api/test_linalg_factor_large.py")]
GROUP_OF = {f: group[0] for group in FILE_GROUPS for f in group}


def file_weight(scope: str, n_tests: int) -> float:
    files = next((g for g in FILE_GROUPS if g[0] == scope), None)
    if files is not None:
        return sum(FILE_SECONDS.get(f, FILE_WEIGHT_PER_TEST * n_tests / len(files)) for f in files)
    return FILE_SECONDS.get(scope, FILE_WEIGHT_PER_TEST * n_tests)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadfile":
        return None
    from collections import OrderedDict

    from xdist.scheduler import LoadFileScheduling

    class HeaviestFirst(OrderedDict):
        """xdist's queue of files (file -> {test id: done}): taking from its front gives the heaviest file left."""

        def popitem(self, last=True):
            scope = max(self, key=lambda s: file_weight(s, len(self[s])))  # ties: the first
            return scope, self.pop(scope)

    class GroupedFiles(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = super()._split_scope(nodeid)
            return GROUP_OF.get(path, path)

    sched = GroupedFiles(config, log)
    sched.workqueue = HeaviestFirst()
    return sched
