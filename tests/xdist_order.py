"""The order `make test` (`-n 2 --dist loadfile`) hands the test files to its workers (conftest's
``pytest_xdist_make_scheduler``).

pytest-xdist gives a free worker the next file of its queue, which it sorts by number of tests; a file with few but
long tests (the bad-input sweep, test_large, the state machine) could then come last and run alone while the other
worker idles.  Heaviest first instead (longest-processing-time order): the files left at the end are the short ones,
so the workers finish within about a second of each other.

``FILE_SECONDS``: seconds of one worker's time per file on lavapipe, summed per file over two `make test` runs
(2026-12-06; test_clients_sklearn.py's includes importing scikit-learn).  A file not listed counts
``FILE_WEIGHT_PER_TEST`` a test.  The figures only order the queue: a stale one costs balance, never a test.
"""
from __future__ import annotations

from collections import OrderedDict

_FILE_SECONDS = """
api/test_elementwise 56   api/test_linalg_factor 27   api/test_statistical_reductions 20
api/test_linalg_spectral_block 17   api/test_linalg_matmul 16   api/test_linalg_factor_large 15
api/test_fft_passes 13   system/test_large 12   api/test_complex 12   system/test_bad_input_sweep 11
system/test_memory 7   api/test_fft 7   system/test_fuzz 6   system/test_clients_sklearn 5
api/test_sorting_reg 4.5   system/test_state_machine 4.5   numerics/test_wgsl_numerics 4.5
numerics/test_signed_zeros 4   system/test_architecture 4   api/test_linalg_spectral 4   api/test_indexing 4
api/test_sorting_radix 3.5   api/test_indexing_advanced 3.5   api/test_elementwise_extras 3.5
api/test_linalg_complex_native 3   api/test_manipulation 2.5   api/test_searching 2.5
api/test_elementwise_compare_exact 2.5   api/test_linalg 2.5   api/test_random 2.5
system/test_defects_threads 2.5   api/test_set 2   api/test_fusion 2   system/test_devices 2
api/test_statistical_scan 2   numerics/test_defects_trig 2   api/test_creation 2   system/test_dask 2
api/test_linalg_complex 2   api/test_fft_regcols 1.5   api/test_linalg_small_recipes 1.5
api/test_numpy_interop 1.5   system/test_threads 1.5
"""
FILE_SECONDS = {f"tests/{name}.py": float(sec) for name, sec in zip(*[iter(_FILE_SECONDS.split())] * 2)}
FILE_WEIGHT_PER_TEST = 0.04

# Files that compile many of the same kernels run in one worker, one after the other (collection order), as one unit
# of work: a worker compiles each shader once, another worker would compile them again.  Lavapipe's compile seconds of
# the second file on a worker of its own -> after the first (runs of 2026-12-06): test_elementwise_extras.py 2.3 ->
# 0.1, test_signed_zeros.py 3.5-4.3 -> 0.0 (the complex kernels, the slowest to compile), test_linalg_factor_large.py
# 2.9 -> 1.0-1.2, test_linalg_small_recipes.py 1.2-1.7 -> 0.15-0.4.  (test_fft.py after test_fft_passes.py compiles
# as much as alone: they stay apart.)
FILE_GROUPS = [("tests/api/test_elementwise.py", "tests/api/test_elementwise_extras.py"),
               ("tests/api/test_complex.py", "tests/numerics/test_signed_zeros.py"),
               ("tests/api/test_linalg_factor.py", "tests/api/test_linalg_factor_large.py",
                "tests/api/test_linalg_small_recipes.py")]
GROUP_OF = {f: group[0] for group in FILE_GROUPS for f in group}


def file_weight(scope: str, n_tests: int) -> float:
    """Expected seconds of a unit of work: a file (its path) or a group (named by its first file)."""
    files = next((g for g in FILE_GROUPS if g[0] == scope), (scope,))
    return sum(FILE_SECONDS.get(f, FILE_WEIGHT_PER_TEST * n_tests / len(files)) for f in files)


class HeaviestFirst(OrderedDict):
    """xdist's queue of units (scope -> {test id: done}): taking from its front gives the heaviest unit left (ties:
    the first queued)."""

    def popitem(self, last=True):
        scope = max(self, key=lambda s: file_weight(s, len(self[s])))
        return scope, self.pop(scope)


def heaviest_first_scheduler(config, log):
    """xdist's file scheduler with GROUP_OF's units and HeaviestFirst's queue; None (xdist's own scheduler) where this
    xdist's internals differ from those it was written against (3.5-3.8: ``_split_scope``, ``workqueue``)."""
    try:
        from xdist.scheduler import LoadFileScheduling
    except ImportError:
        return None
    if not hasattr(LoadFileScheduling, "_split_scope"):
        return None

    class GroupedFiles(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = super()._split_scope(nodeid)
            return GROUP_OF.get(path, path)

    sched = GroupedFiles(config, log)
    if not isinstance(getattr(sched, "workqueue", None), OrderedDict):
        return None
    sched.workqueue = HeaviestFirst()
    return sched
