"""Timing: warm up, then time several synchronised repeats; report the median and the best.

A timed call is ``fn(state)`` followed by ``sync()`` (the device finished), where ``state`` comes from an untimed
``setup()`` run before every repeat (``None`` without one).  ``measure_all`` interleaves the peers of one
benchmark: every round times each peer once, so a drift in the machine's state (other load, clocks, allocator
state) lands on all peers alike and the ratios hold.  Repeats stop early once a peer has used its time budget,
so slow peers (numpy on a 8192^2 matmul) do not stall the suite.
"""
from __future__ import annotations

import gc
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass
class Timing:
    """Seconds per timed repeat (warm-up excluded)."""

    times: list[float] = field(default_factory=list)
    warmup: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    @property
    def best(self) -> float:
        return min(self.times)

    def to_json(self) -> dict:
        return {"median_s": self.median, "best_s": self.best, "times_s": self.times, "warmup_s": self.warmup}


@dataclass
class Case:
    """One peer's timed call, made ready (data resident, answer checked) by the benchmark."""

    name: str
    fn: Callable[[Any], Any]
    sync: Callable[[], None] | None = None
    setup: Callable[[], Any] | None = None
    cleanup: Callable[[], None] | None = None
    counters: Any = None  # a wgarray Device: its counters are summed over this case's calls (warm-up included)
    calls: int = 0
    stats: Any = None


def _timed(case: Case) -> float:
    state = case.setup() if case.setup else None
    before = case.counters.stats() if case.counters is not None else None
    gc.disable()
    try:
        t0 = time.perf_counter()
        case.fn(state)
        if case.sync:
            case.sync()
        dt = time.perf_counter() - t0
    finally:
        gc.enable()
    if before is not None:
        delta = case.counters.stats() - before
        case.stats = delta if case.stats is None else _add(case.stats, delta)
    case.calls += 1
    return dt


def _add(a, b):
    return type(a)(**{k: getattr(a, k) + v for k, v in vars(b).items()})


def measure_all(cases: list[Case], *, repeat: int = 5, warmup: int = 1, budget_s: float = 4.0,
                on_error: Callable[[Case, BaseException], None] | None = None) -> dict[str, Timing]:
    """Warm every case up, then time them in interleaved rounds.

    At least one round always runs; after three, rounds stop once some case has spent ``budget_s`` seconds
    (after one, ``3 * budget_s``).  A case that raises is dropped (``on_error`` is told) and the others go on."""
    live = list(cases)
    out = {c.name: Timing() for c in cases}
    gc.collect()

    def run(case: Case, record: list[float]) -> bool:
        try:
            record.append(_timed(case))
            return True
        except Exception as e:
            if on_error is None:
                raise
            on_error(case, e)
            live.remove(case)
            del out[case.name]
            return False

    for case in list(live):
        for _ in range(max(warmup, 0)):
            if not run(case, out[case.name].warmup):
                break
    spent = {c.name: 0.0 for c in live}
    for i in range(max(repeat, 1)):
        for case in list(live):
            if run(case, out[case.name].times):
                spent[case.name] += out[case.name].times[-1]
        top = max(spent.values(), default=0.0)
        if (i + 1 >= 3 and top > budget_s) or top > 3 * budget_s:
            break
    return out


def fmt_time(s: float) -> str:
    """A duration with a unit that keeps 3-4 significant digits."""
    if s < 1e-3:
        return f"{s * 1e6:.1f}us"
    if s < 1.0:
        return f"{s * 1e3:.2f}ms"
    return f"{s:.2f}s"


def fmt_rate(v: float) -> str:
    if v >= 1000:
        return f"{v:.0f}"
    if v >= 10:
        return f"{v:.1f}"
    return f"{v:.2f}"
