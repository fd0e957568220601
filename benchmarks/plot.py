"""PNG plots with matplotlib when it is importable (silently nothing otherwise).

add.png / sum.png: bandwidth (GB/s) against size (elements, log scale), one line per peer.
matmul.png: GFLOP/s per matrix case (square orders, then batched), one bar group per case.
"""
from __future__ import annotations

import os
from typing import Sequence

from .suite import Row


def _pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception:
        return None
    return plt


def plot_all(results: dict[str, list[Row]], outdir: str, title: str) -> list[str]:
    """Write the plots that apply to ``results``; returns the files written."""
    plt = _pyplot()
    if plt is None:
        return []
    written = []
    for name in ("add", "sum"):
        rows = results.get(name)
        if rows:
            written.append(_bandwidth(plt, name, rows, outdir, title))
    if results.get("matmul"):
        written.append(_matmul(plt, results["matmul"], outdir, title))
    return written


def _peers(rows: Sequence[Row]) -> list[str]:
    from .report import _columns
    return _columns(rows)


def _bandwidth(plt, name: str, rows: Sequence[Row], outdir: str, title: str) -> str:
    fig, ax = plt.subplots(figsize=(8, 5))
    for peer in _peers(rows):
        pts = [(r.size, r.value(peer)) for r in rows if peer in r.times]
        if pts:
            xs, ys = zip(*pts)
            ax.plot(xs, ys, marker="o", label=peer)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("elements (float32)")
    ax.set_ylabel("GB/s (median per op, back-to-back calls)")
    ax.set_title(f"{name}: {'c = a + b (3*4*n bytes)' if name == 'add' else 'x.sum() (4*n bytes)'}\n{title}",
                 fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    path = os.path.join(outdir, f"{name}.png")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def _matmul(plt, rows: Sequence[Row], outdir: str, title: str) -> str:
    peers = _peers(rows)
    fig, ax = plt.subplots(figsize=(8, 5))
    width = 0.8 / max(len(peers), 1)
    for k, peer in enumerate(peers):
        xs = [i + k * width for i, r in enumerate(rows) if peer in r.times]
        ys = [r.value(peer) for r in rows if peer in r.times]
        ax.bar(xs, ys, width=width, label=peer)
    ax.set_xticks([i + width * (len(peers) - 1) / 2 for i in range(len(rows))])
    ax.set_xticklabels([r.label for r in rows])
    ax.set_yscale("log")
    ax.set_xlabel("float32 matmul (order^2, batch x order^2)")
    ax.set_ylabel("GFLOP/s (median per op, back-to-back calls)")
    ax.set_title(f"matmul: c = a @ b (2*M*N*K flops)\n{title}", fontsize=10)
    ax.grid(True, axis="y", which="both", alpha=0.3)
    ax.legend()
    path = os.path.join(outdir, "matmul.png")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
