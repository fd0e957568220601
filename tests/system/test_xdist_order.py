"""`make test`'s order of files (tests/xdist_order.py): xdist's file scheduler, driven with stand-in workers, hands out
the heaviest unit left first, keeps the grouped files in one unit, and every file the weights name exists."""
from __future__ import annotations

from pathlib import Path

import pytest

from xdist_order import FILE_GROUPS, FILE_SECONDS, FILE_WEIGHT_PER_TEST, GROUP_OF, file_weight, heaviest_first_scheduler

pytest.importorskip("xdist")

ROOT = Path(__file__).resolve().parents[2]


class Config:
    """What xdist's LoadFileScheduling reads of pytest's config."""

    def __init__(self, workers: int) -> None:
        self.values = {"tx": ["popen"] * workers, "dist": "loadfile"}
        self.option = type("Option", (), {"loadscopereorder": True})()

    def getvalue(self, name):
        return self.values[name]


class Worker:
    def __init__(self, name: str, handed: list) -> None:
        self.name, self.shutting_down, self.sent, self.handed = name, False, [], handed
        self.gateway = type("Gateway", (), {"id": name})()

    def send_runtest_some(self, indexes) -> None:
        self.sent.extend(indexes)
        self.handed.append((self.name, list(indexes)))

    def shutdown(self) -> None:
        self.shutting_down = True


def test_every_weighted_file_exists():
    named = set(FILE_SECONDS) | {f for group in FILE_GROUPS for f in group}
    assert all((ROOT / f).is_file() for f in named), sorted(f for f in named if not (ROOT / f).is_file())


def test_weights():
    assert file_weight("tests/system/test_large.py", 3) == FILE_SECONDS["tests/system/test_large.py"]
    assert file_weight("tests/api/not_listed.py", 50) == pytest.approx(50 * FILE_WEIGHT_PER_TEST)
    for first, *rest in FILE_GROUPS:
        assert file_weight(first, 10) == sum(FILE_SECONDS[f] for f in (first, *rest))
    assert len(GROUP_OF) == sum(len(g) for g in FILE_GROUPS)  # no file in two groups


def test_heaviest_unit_first_and_groups_in_one_worker():
    # xdist's own order would start with the 40 light tests (most tests first)
    factor = next(g for g in FILE_GROUPS if g[0] == "tests/api/test_linalg_factor.py")
    reductions = "tests/api/test_statistical_reductions.py"  # in no group, lighter than the factorisations' group
    assert reductions not in GROUP_OF and file_weight(reductions, 1) < file_weight(factor[0], 1)
    light = [f"tests/api/test_namespace.py::t{i}" for i in range(40)]
    collection = ["tests/api/test_constants.py::t", *light, f"{factor[0]}::a", f"{factor[0]}::b",
                  "tests/system/test_state_machine.py::m", f"{reductions}::r",
                  *[f"{f}::c" for f in factor[1:]], "tests/api/test_inspection.py::i"]
    sched = heaviest_first_scheduler(Config(2), None)
    if sched is None:
        pytest.skip("this pytest-xdist's internals differ: its own scheduler is used")
    handed: list = []  # (worker, indexes of the tests sent), in the order sent
    workers = [Worker("gw0", handed), Worker("gw1", handed)]
    for w in workers:
        sched.add_node(w)
    for w in workers:
        sched.add_node_collection(w, collection)
    sched.schedule()
    ran = {w: 0 for w in workers}
    while any(ran[w] < len(w.sent) for w in workers):
        for w in workers:  # each worker runs its next test
            if ran[w] < len(w.sent):
                sched.mark_test_complete(w, w.sent[ran[w]])
                ran[w] += 1
    handed = [(name, sorted({collection[i].split("::")[0] for i in sent})) for name, sent in handed]
    assert handed[:3] == [("gw0", sorted(factor)), ("gw1", [reductions]),
                          ("gw1", ["tests/system/test_state_machine.py"])], handed
    assert [files for _, files in handed[3:]] == [["tests/api/test_namespace.py"], ["tests/api/test_constants.py"],
                                                  ["tests/api/test_inspection.py"]], handed
    assert sched.tests_finished
