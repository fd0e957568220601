"""Text tables and results.json."""
from __future__ import annotations

import json
from typing import Sequence

from .suite import BENCHES, Row
from .timing import fmt_rate, fmt_time

PEER_ORDER = ("wgarray", "wgarray push", "numpy", "raw-wgpu", "raw-wgpu submit/op", "raw-wgpu 1 pass", "torch",
              "cupy")


def _columns(rows: Sequence[Row]) -> list[str]:
    seen = {p for r in rows for p in r.times}
    return [p for p in PEER_ORDER if p in seen] + sorted(seen - set(PEER_ORDER))


def _cell(row: Row, peer: str) -> str:
    t = row.times.get(peer)
    if t is None:
        return "-"
    return f"{fmt_time(t.median)} ({fmt_rate(row.value(peer))})"


def table(name: str, rows: Sequence[Row]) -> str:
    """One benchmark's table: median time (rate) per peer, then wgarray/peer ratios."""
    bench = BENCHES[name]
    unit = rows[0].unit if rows else ""
    peers = _columns(rows)
    ratio_peers = [p for p in bench.ratio_peers if any(r.ratio(p) is not None for r in rows)]
    head = ["size"] + peers + [f"wg/{p}" for p in ratio_peers] + (["inner"] if bench.amortised else [])
    body = []
    for r in rows:
        line = [r.label] + [_cell(r, p) for p in peers]
        for p in ratio_peers:
            v = r.ratio(p)
            line.append("-" if v is None else f"{v:.2f}x")
        if bench.amortised:
            line.append("/".join(str(r.times[p].inner) if p in r.times else "-" for p in peers))
        body.append(line)
    widths = [max(len(h), *(len(b[i]) for b in body)) if body else len(h) for i, h in enumerate(head)]

    def fmt(cells):
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    out = [f"== {name}: {bench.work}"]
    if bench.amortised:
        out += [f"   cells: median time PER OP ({unit}), amortised over back-to-back calls with one synchronisation:",
                f"   a sample is `inner` calls then one sync, time = sample / inner (column inner: {'/'.join(peers)});",
                "   wg/X = wgarray median time / X median time (> 1: wgarray slower)"]
    else:
        out.append(f"   cells: median time ({unit}); wg/X = wgarray median time / X median time (> 1: wgarray slower)")
    out += [fmt(head), fmt(["-" * w for w in widths])]
    out += [fmt(b) for b in body]
    skipped: dict[str, str] = {}
    for r in rows:
        for p, why in r.skipped.items():
            skipped.setdefault(f"{p}: {why}", r.label)
    for what in skipped:
        out.append(f"   skipped {what}")
    for r in rows:
        for note in r.notes:
            out.append(f"   !! {r.label}: {note}")
        if name == "tiny":
            st = r.extra.get("counters_per_call", {}).get("wgarray")
            if st:
                out.append("   wgarray counters per op: " + ", ".join(f"{k}={v / r.amount:.3g}" for k, v in st.items()))
    return "\n".join(out)


def write_json(path: str, meta: dict, results: dict[str, list[Row]]) -> None:
    doc = {"meta": meta, "results": {name: [r.to_json() for r in rows] for name, rows in results.items()}}
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, default=str)
