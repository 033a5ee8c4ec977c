"""Text output for people: tables and a progress bar (on standard error, only on a terminal)."""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Iterable, Sequence, TextIO


def table(rows: Iterable[Sequence[Any]], header: Sequence[str] | None = None, out: TextIO | None = None) -> str:
    """A plain-text table with aligned columns; returned and, if ``out`` is given, written."""
    rows = [[str(c) for c in r] for r in rows]
    if header:
        rows = [list(header)] + rows
    if not rows:
        return ""
    widths = [max(len(r[i]) if i < len(r) else 0 for r in rows) for i in range(max(map(len, rows)))]
    lines = []
    for n, r in enumerate(rows):
        cells = [c.ljust(widths[i]) if i < len(r) - 1 else c for i, c in enumerate(r)]
        lines.append("  ".join(cells).rstrip())
        if header and n == 0:
            lines.append("  ".join("-" * w for w in widths))
    text = "\n".join(lines) + "\n"
    if out is not None:
        out.write(text)
    return text


class Progress:
    """A one-line progress display for explorations: states, depth, rate, elapsed time.

    Draws on standard error when it is a terminal (or TABLERULES_PROGRESS=1); otherwise it
    prints a plain line at most every 10 seconds so CI logs show that work goes on.
    """

    def __init__(self, label: str, stream: TextIO | None = None) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty() or os.environ.get("TABLERULES_PROGRESS") == "1"
        self.t0 = time.perf_counter()
        self.last_plain = self.t0

    def __call__(self, ex: Any) -> None:
        elapsed = time.perf_counter() - self.t0
        budget = ex.budget
        frac = None
        if budget.max_states:
            frac = ex.states / budget.max_states
        if budget.max_seconds:
            f2 = elapsed / budget.max_seconds
            frac = f2 if frac is None else max(frac, f2)
        bar = ""
        if frac is not None:
            n = int(min(frac, 1.0) * 20)
            bar = "[" + "#" * n + "." * (20 - n) + "] "
        line = (f"{self.label}: {bar}{ex.states:,} states, depth {ex.depth}, "
                f"{ex.states / max(elapsed, 1e-9):,.0f}/s, {elapsed:.0f}s")
        if self.tty:
            self.stream.write("\r\033[K" + line)
            self.stream.flush()
        elif time.perf_counter() - self.last_plain >= 10:
            self.last_plain = time.perf_counter()
            self.stream.write(line + "\n")
            self.stream.flush()

    def done(self) -> None:
        if self.tty:
            self.stream.write("\r\033[K")
            self.stream.flush()
