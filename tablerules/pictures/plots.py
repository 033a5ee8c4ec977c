"""The site's figures drawn with matplotlib (the ``docs`` extra), returned as SVG text.

Every axis names its unit.  The SVG carries no date and a fixed hash salt, so the same
numbers give the same file.
"""

from __future__ import annotations

import io
from collections import Counter
from typing import Any, Mapping, Sequence

from .figures import Effect


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "tablerules"
    matplotlib.rcParams["svg.fonttype"] = "none"
    matplotlib.rcParams["font.family"] = "DejaVu Sans"
    import matplotlib.pyplot as plt

    return plt


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    _pyplot().close(fig)
    return buf.getvalue()


def levels_figure(series: Mapping[str, Sequence[int]], unit: str,
                  xlabel: str = "level: actions played from the start") -> str:
    """States per level, one line per configuration, on a log scale; ``unit`` says what a state is."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for label, counts in series.items():
        ax.plot(range(len(counts)), counts, marker="o", markersize=3, label=f"{label} ({sum(counts):,} in all)")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(unit)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8)
    return _svg(fig)


def lengths_figure(series: Mapping[str, tuple[Counter, int]], games: int) -> str:
    """Distribution of game lengths (seat moves), one step histogram per configuration."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for label, (counts, unfinished) in series.items():
        if not counts:
            continue
        xs = list(range(min(counts), max(counts) + 1))
        ys = [counts.get(x, 0) / games for x in xs]
        mean = sum(k * v for k, v in counts.items()) / sum(counts.values())
        extra = f", {unfinished} unfinished" if unfinished else ""
        ax.step(xs, ys, where="mid", label=f"{label} (mean {mean:.1f}{extra})")
    ax.set_xlabel("game length: seat moves per game (chance events not counted)")
    ax.set_ylabel(f"share of {games} random games")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    return _svg(fig)


def effects_figure(effects: Sequence[Effect], title: str) -> str:
    """Left: each seat's chance of losing per alternative; right: expected game length."""
    plt = _pyplot()
    seats = max((len(e.lose) for e in effects), default=0)
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.2), gridspec_kw={"width_ratios": [3, 2]})
    names = [e.alternative for e in effects]
    width = 0.8 / max(seats, 1)
    for s in range(seats):
        xs = [i + (s - (seats - 1) / 2) * width for i in range(len(effects))]
        left.bar(xs, [e.lose[s] if s < len(e.lose) else 0 for e in effects], width, label=f"seat {s}")
    gaps = [e.gap for e in effects]
    if any(gaps):
        left.plot(range(len(effects)), gaps, "kx", label="hits a rule gap")
    left.set_xticks(range(len(effects)), names, rotation=20, ha="right", fontsize=8)
    left.set_ylim(0, 1)
    left.set_ylabel("chance of losing")
    left.legend(fontsize=7)
    left.grid(True, axis="y", alpha=0.3)
    errs = [[e.length - (e.length_low if e.length_low is not None else e.length) for e in effects],
            [(e.length_high if e.length_high is not None else e.length) - e.length for e in effects]]
    right.bar(range(len(effects)), [e.length for e in effects], 0.6, yerr=errs, color="#9bbb59", capsize=3)
    right.set_xticks(range(len(effects)), names, rotation=20, ha="right", fontsize=8)
    right.set_ylabel("expected seat moves per game")
    right.grid(True, axis="y", alpha=0.3)
    fig.suptitle(title, fontsize=9)
    return _svg(fig)
