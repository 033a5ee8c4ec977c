"""Timing shared by the benchmarks that set two things side by side.

``alternate`` is the way to compare: the two sides take turns, A B A B ..., for a number of
rounds, so that whatever else the machine is doing (other jobs, a cpu that slows down when it
warms) falls on both sides alike; the ratio reported is the median of the per-round ratios, and
their least and greatest show how far one round may be off.  ``best`` is the fewest seconds of
one side on its own, for figures that are not a ratio.
"""

from __future__ import annotations

import gc
import os
import statistics
import time
from dataclasses import dataclass
from typing import Any, Callable


def best(repeats: int, run: Callable[[], Any]) -> tuple[float, Any]:
    """(fewest seconds of ``repeats`` runs, the last run's result); each run starts from a
    collected heap, so that no run pays for the garbage of the one before."""
    seconds, result = float("inf"), None
    for _ in range(repeats):
        result = None
        gc.collect()
        t0 = time.perf_counter()
        result = run()
        seconds = min(seconds, time.perf_counter() - t0)
    return seconds, result


@dataclass(frozen=True)
class Alternation:
    """Two sides timed in turn, A B A B ...: per round, each side's units of work and seconds.

    A *rate* is units per second (units are the caller's: actions, values, files, or 1 for "one
    run"); a round's *ratio* is A's rate over B's rate in that round, so with equal work on both
    sides it is B's seconds over A's: how many times faster A ran than B."""

    a_units: tuple[float, ...]
    a_seconds: tuple[float, ...]
    b_units: tuple[float, ...]
    b_seconds: tuple[float, ...]
    a_result: Any = None
    """The last result of side A (what its call returned in the last round)."""
    b_result: Any = None

    @property
    def rounds(self) -> int:
        return len(self.a_seconds)

    @property
    def a_rates(self) -> tuple[float, ...]:
        return tuple(u / s for u, s in zip(self.a_units, self.a_seconds))

    @property
    def b_rates(self) -> tuple[float, ...]:
        return tuple(u / s for u, s in zip(self.b_units, self.b_seconds))

    @property
    def ratios(self) -> tuple[float, ...]:
        """A's rate over B's, round by round."""
        return tuple(a / b for a, b in zip(self.a_rates, self.b_rates))

    @property
    def a_rate(self) -> float:
        """Median rate of side A (units per second)."""
        return statistics.median(self.a_rates)

    @property
    def b_rate(self) -> float:
        return statistics.median(self.b_rates)

    @property
    def a_median_seconds(self) -> float:
        return statistics.median(self.a_seconds)

    @property
    def b_median_seconds(self) -> float:
        return statistics.median(self.b_seconds)

    @property
    def ratio(self) -> float:
        """The median of the per-round ratios (not the ratio of the median rates)."""
        return statistics.median(self.ratios)

    @property
    def spread(self) -> tuple[float, float]:
        """(least, greatest) per-round ratio."""
        return min(self.ratios), max(self.ratios)

    def ratio_text(self, digits: int = 2) -> str:
        """The median ratio and its spread, as ``5.80x (5.12-6.31x)``."""
        low, high = self.spread
        return f"{self.ratio:.{digits}f}x ({low:.{digits}f}-{high:.{digits}f}x)"


def alternate(
    rounds: int,
    a: Callable[[], Any],
    b: Callable[[], Any],
    units: Callable[[Any], float] = lambda result: 1,
    seconds: Callable[[Any], float] | None = None,
) -> Alternation:
    """Call ``a`` then ``b``, ``rounds`` times (A B A B ...), each call from a collected heap.

    ``units(result)`` is the work a call did (default 1: one run).  A call's seconds are the wall
    clock around it, or ``seconds(result)`` where the side times itself (a subprocess that counts
    only its play, not its start)."""
    if rounds < 1:
        raise ValueError(f"rounds must be 1 or more, not {rounds}")
    done: dict[str, tuple[list[float], list[float]]] = {"a": ([], []), "b": ([], [])}
    last: dict[str, Any] = {}
    for _ in range(rounds):
        for side, run in (("a", a), ("b", b)):
            last[side] = None
            gc.collect()
            t0 = time.perf_counter()
            result = run()
            took = time.perf_counter() - t0
            last[side] = result
            done[side][0].append(units(result))
            done[side][1].append(seconds(result) if seconds is not None else took)
    return Alternation(tuple(done["a"][0]), tuple(done["a"][1]), tuple(done["b"][0]), tuple(done["b"][1]),
                       last["a"], last["b"])


def load_average() -> str:
    """The machine's load average over 1, 5 and 15 minutes (runnable processes), as printed beside a run."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} / {five:.2f} / {fifteen:.2f} (1 / 5 / 15 min)"
