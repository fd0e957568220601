"""Timing: warm up, then time several synchronised samples; report the median and the best.

A sample is ``inner`` calls of ``fn(state)`` issued back to back (results dropped, as a user's loop would)
followed by ONE ``sync()`` (the device finished), where ``state`` comes from an untimed ``setup()`` run before
every sample (``None`` without one).  The time recorded is the sample's time / ``inner``: the time per call.
With ``inner = 1`` (the default) a sample is one synchronised call.  Given a ``target_s``, ``measure_all``
chooses ``inner`` per case so that a sample takes at least about ``target_s``: the synchronisation's latency
(hundreds of microseconds on some GPUs) is then spread over many calls instead of measured with each.

``measure_all`` interleaves the peers of one benchmark: every round times each peer once, so a drift in the
machine's state (other load, clocks, allocator state) lands on all peers alike and the ratios hold.  Rounds stop
early once a peer has used its time budget, so slow peers (numpy on a 8192^2 matmul) do not stall the suite.
"""
from __future__ import annotations

import gc
import math
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass
class Timing:
    """Seconds per call: each timed sample's time / ``inner`` (warm-up excluded).  ``warmup`` holds the
    warm-up samples' whole times, made with ``warmup_inner`` calls each."""

    times: list[float] = field(default_factory=list)
    warmup: list[float] = field(default_factory=list)
    inner: int = 1  # calls per timed sample
    warmup_inner: list[int] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    @property
    def best(self) -> float:
        return min(self.times)

    def to_json(self) -> dict:
        return {"median_s": self.median, "best_s": self.best, "times_s": self.times, "inner": self.inner,
                "warmup_s": self.warmup, "warmup_inner": self.warmup_inner}


@dataclass
class Case:
    """One peer's timed call, made ready (data resident, answer checked) by the benchmark."""

    name: str
    fn: Callable[[Any], Any]
    sync: Callable[[], None] | None = None
    setup: Callable[[], Any] | None = None
    cleanup: Callable[[], None] | None = None
    counters: Any = None  # a wgarray Device: its counters are summed over this case's calls (warm-up included)
    calls: int = 0  # calls of ``fn`` so far (warm-up included), ``inner`` per sample
    stats: Any = None


def _timed(case: Case, inner: int = 1) -> float:
    """One sample: ``inner`` calls back to back, then one sync; returns the sample's whole time."""
    state = case.setup() if case.setup else None
    fn = case.fn
    before = case.counters.stats() if case.counters is not None else None
    gc.disable()
    try:
        t0 = time.perf_counter()
        for _ in range(inner):
            fn(state)
        if case.sync:
            case.sync()
        dt = time.perf_counter() - t0
    finally:
        gc.enable()
    if before is not None:
        delta = case.counters.stats() - before
        case.stats = delta if case.stats is None else _add(case.stats, delta)
    case.calls += inner
    return dt


def _add(a, b):
    return type(a)(**{k: getattr(a, k) + v for k, v in vars(b).items()})


def measure_all(cases: list[Case], *, repeat: int = 5, warmup: int = 1, budget_s: float = 4.0,
                on_error: Callable[[Case, BaseException], None] | None = None, target_s: float | None = None,
                max_inner: int = 1000) -> dict[str, Timing]:
    """Warm every case up, then time them in interleaved rounds.

    Warm-up: ``warmup`` samples of one call each.  Without ``target_s`` every timed sample is one call too.  With
    it, every case gets its own ``inner`` by the same rule: at least two one-call warm-ups (one when a call takes
    a second or more), ``t1`` the fastest; ``inner = ceil(target_s / t1)``, at most ``max_inner``; then one more
    warm-up sample of ``inner`` calls (pools fill for it).  While such a sample still takes less than
    ``target_s`` (``t1`` included a whole synchronisation, which ``inner`` calls now share), ``inner`` is scaled
    by ``target_s / sample time`` and warmed up again, at most 3 times.

    At least one round always runs; after three, rounds stop once some case has spent ``budget_s`` seconds
    (after one, ``3 * budget_s``).  A case that raises is dropped (``on_error`` is told) and the others go on."""
    live = list(cases)
    out = {c.name: Timing() for c in cases}
    gc.collect()

    def sample(case: Case, inner: int, warm: bool) -> float | None:
        """One sample (recorded per call when timed); ``None`` when the case failed and was dropped."""
        t = out[case.name]
        try:
            dt = _timed(case, inner)
        except Exception as e:
            if on_error is None:
                raise
            on_error(case, e)
            live.remove(case)
            del out[case.name]
            return None
        if warm:
            t.warmup.append(dt)
            t.warmup_inner.append(inner)
        else:
            t.times.append(dt / inner)
        return dt

    for case in list(live):
        dt = t1 = None
        for k in range(max(warmup, 2 if target_s is not None else 0)):
            dt = sample(case, 1, warm=True)
            if dt is None:
                break
            t1 = dt if t1 is None else min(t1, dt)
            if target_s is not None and k + 1 >= warmup and dt >= 1.0:  # a long call: one warm-up is enough
                break
        if dt is None or target_s is None:
            continue
        inner, dt = 1, t1
        for _ in range(4):  # the first pick from one call, then at most 3 corrections
            want = min(max_inner, max(inner, math.ceil(inner * target_s / max(dt, 1e-9))))
            if want <= inner:
                break
            inner = want
            dt = sample(case, inner, warm=True)
            if dt is None:
                break
        if case in live:
            out[case.name].inner = inner
    spent = {c.name: 0.0 for c in live}
    for i in range(max(repeat, 1)):
        for case in list(live):
            dt = sample(case, out[case.name].inner, warm=False)
            if dt is not None:
                spent[case.name] += dt
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
