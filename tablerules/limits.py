"""Exit statuses, input limits and the wall-clock limit of a run.

Exit statuses (every command):

====  ======================================================================================
0     done, nothing wrong found
1     a rule broken, a check failed, a trace that breaks the rules
2     bad input or an output that cannot be written (one line on standard error)
3     incomplete: stopped by ``--max-seconds`` before it could decide (nothing failed so far)
130   interrupted (Ctrl-C or SIGTERM); nothing half-written is left behind
====  ======================================================================================

A wall-clock limit never decides a verdict: what a run covers is fixed by budgets counted in
states, pairs or games.  The limit only stops a run, which then reports itself incomplete.
"""

from __future__ import annotations

import argparse
import math
import signal
from contextlib import contextmanager
from typing import Callable, Iterator

EXIT_OK = 0
EXIT_FAIL = 1
EXIT_USAGE = 2
EXIT_INCOMPLETE = 3
EXIT_INTERRUPTED = 130
EXIT_STATUSES = (EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_INCOMPLETE, EXIT_INTERRUPTED)

MAX_SECONDS = 7 * 24 * 3600
"""Largest --max-seconds (a week)."""
MAX_STATES = 50_000_000
"""Largest --max-states: about 50 GB of stored states for the larger rule sets."""
MAX_SCALE = 100.0
"""Largest --scale of the check suite's budgeted searches."""
MAX_VECTOR_BYTES = 1 << 30
"""Largest --max-bytes of `vectors verify`."""
MAX_ARGUMENT = 4096
"""Longest --deck value (a file path or a name)."""

STATUS_TEXT = """exit status: 0 nothing wrong found; 1 a rule broken or a check failed; 2 bad input or an
output that cannot be written (one line on standard error); 3 incomplete (stopped by
--max-seconds); 130 interrupted (Ctrl-C or SIGTERM)."""


class TimeLimit(BaseException):
    """The run's wall-clock limit passed: stop and report incomplete (never a FAIL).

    A BaseException, like KeyboardInterrupt, so that no ``except Exception`` inside a check
    can swallow it."""


def number(kind: type, low: float, high: float, *, what: str = "") -> Callable[[str], float | int]:
    """An argparse ``type``: a finite number of ``kind`` with ``low <= value <= high`` for a
    whole number, ``low < value <= high`` for a float (so ``nan``, ``inf`` and 0 seconds are
    refused with one line)."""

    def parse(text: str) -> float | int:
        try:
            value = kind(text)
        except (ValueError, OverflowError):
            raise argparse.ArgumentTypeError(f"expected {'a whole number' if kind is int else 'a number'}, not {text[:40]!r}") from None
        ok = math.isfinite(value) and (low <= value if kind is int else low < value) and value <= high
        if not ok:
            lower = f">= {low:,}" if kind is int else f"> {low:g}"
            raise argparse.ArgumentTypeError(f"must be {lower} and at most {high:,}{what}, not {text[:40]!r}")
        return value

    parse.__name__ = "whole number" if kind is int else "number"
    return parse


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`TimeLimit` in the main thread once ``seconds`` of wall time have passed.

    Uses SIGALRM: it stops work anywhere, also inside a long model call.  Forked workers do
    not inherit the timer; their parent stops them (see ``proofs.impact.run_all``).
    """
    if not seconds or not hasattr(signal, "setitimer"):
        yield
        return

    def ring(signum: int, frame: object) -> None:
        raise TimeLimit(seconds)

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


class Stop:
    """Where an interruption stands: None, "raised" (on its way up), "handled" (the run is
    ending: later signals change nothing)."""

    state: str | None = None


def interrupt(signum: int, frame: object) -> None:
    """The handler of Ctrl-C and SIGTERM alike: stop cleanly, nothing half-written (exit
    status 130); once the run handles the interruption, later signals are ignored."""
    if Stop.state == "handled":
        return
    Stop.state = "raised"
    raise KeyboardInterrupt


def handled() -> None:
    """The run has caught the interruption and is ending."""
    Stop.state = "handled"
