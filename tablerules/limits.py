"""Exit statuses, input limits and the wall-clock limit of a run.

Exit statuses (each command states in its ``--help`` those it can return, with its own
causes: :class:`Statuses`):

====  ======================================================================================
0     done, nothing wrong found
1     a rule broken, a check failed, a trace that breaks the rules
2     bad input or an output that cannot be written (one line on standard error)
3     incomplete: stopped before it could decide (nothing failed so far), e.g. by ``--max-seconds``
130   interrupted by Ctrl-C (SIGINT); nothing half-written is left behind
143   interrupted by SIGTERM; nothing half-written is left behind
====  ======================================================================================

A signal always ends the run with its status and is never turned into a verdict: the handler
records it before it raises, so a run that swallowed the interruption somewhere (a worker that
died of it, a broad ``except``, a C extension that cleared the error) still ends with 130 or
143 (:func:`signalled`), and ends soon: at its next progress step (:func:`swallowed`), or when
the heartbeat delivers the signal again (:func:`remind`).

A wall-clock limit never decides a verdict: what a run covers is fixed by budgets counted in
states, pairs or games.  The limit only stops a run, which then reports itself incomplete.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import signal
import sys
import textwrap
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

EXIT_OK = 0
EXIT_FAIL = 1
EXIT_USAGE = 2
EXIT_INCOMPLETE = 3
EXIT_INTERRUPTED = 130
"""128 + SIGINT, as a shell reports a program Ctrl-C ended."""
EXIT_TERMINATED = 143
"""128 + SIGTERM."""
EXIT_STATUSES = (EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_INCOMPLETE, EXIT_INTERRUPTED, EXIT_TERMINATED)

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

BY_MAX_SECONDS = "--max-seconds stopped the run before it could decide"


@dataclass(frozen=True)
class Statuses:
    """The exit statuses one command can return, and its own causes of 1 and 3; its --help
    lists exactly these (:meth:`text`), and the command line holds the command to them."""

    fail: str | None = None
    """What makes the command exit 1; None: it never does."""
    incomplete: tuple[str, ...] = ()
    """What makes it exit 3 (stopped before it could decide); empty: it never does."""

    def codes(self) -> tuple[int, ...]:
        return tuple(c for c, meaning in self.meanings())

    def meanings(self) -> list[tuple[int, str]]:
        rows = [(EXIT_OK, "done, nothing wrong found")]
        if self.fail:
            rows.append((EXIT_FAIL, self.fail))
        rows.append((EXIT_USAGE, "bad input or an output that cannot be written (one line on standard error)"))
        if self.incomplete:
            rows.append((EXIT_INCOMPLETE, "incomplete: " + "; or ".join(self.incomplete)))
        rows += [(EXIT_INTERRUPTED, "interrupted by Ctrl-C (SIGINT)"), (EXIT_TERMINATED, "interrupted by SIGTERM")]
        return rows

    def text(self) -> str:
        """The ``exit status:`` block of a --help: one status a line."""
        return "exit status:\n" + "\n".join(
            textwrap.fill(meaning, 92, initial_indent=f"  {code:<4} ", subsequent_indent=" " * 7)
            for code, meaning in self.meanings()
        )


NO_VERDICT = Statuses()
"""A command that only reads or lists: 0, 2 and the signals."""
EVERY_COMMAND = Statuses(fail="a rule broken, a check failed, a trace that breaks the rules",
                         incomplete=("stopped before it could decide (each command's --help says by what)",))
"""What the commands together can return (the top-level --help)."""
STATUS_TEXT = EVERY_COMMAND.text()


class TimeLimit(BaseException):
    """The run's wall-clock limit passed: stop and report incomplete (never a FAIL).

    A BaseException, like KeyboardInterrupt, so that no ``except Exception`` inside a check
    can swallow it.  Raised inside a foreign call it can still be turned into another error
    (ctypes reports it as an ArgumentError of z3's call): ``rang`` remembers that it came, and
    :func:`check_signal` raises it again."""

    rang = False


WHOLE_NUMBER = re.compile(r"-?[0-9]{1,30}")
"""How a whole number is written on the command line: ASCII digits, a minus sign at most."""
DECIMAL_NUMBER = re.compile(r"-?([0-9]{1,30}(\.[0-9]{0,30})?|\.[0-9]{1,30})([eE][-+]?[0-9]{1,3})?")
"""How a number of seconds (or a scale) is written: ASCII digits, a decimal point, an exponent."""


def number(kind: type, low: float, high: float, *, what: str = "") -> Callable[[str], float | int]:
    """An argparse ``type``: a finite number of ``kind`` with ``low <= value <= high`` for a
    whole number, ``low < value <= high`` for a float (so ``nan``, ``inf`` and 0 seconds are
    refused with one line).  Written in ASCII digits only (:data:`WHOLE_NUMBER`,
    :data:`DECIMAL_NUMBER`): ``1e30`` is not a whole number, and other scripts' digits (``\uff13``),
    underscores, spaces and signs other than one minus are no number at all."""

    def parse(text: str) -> float | int:
        form = WHOLE_NUMBER if kind is int else DECIMAL_NUMBER
        if not (text.isascii() and form.fullmatch(text)):
            raise argparse.ArgumentTypeError(
                f"expected {'a whole number' if kind is int else 'a number'} in ASCII digits, not {text[:40]!r}"
            )
        value = kind(text)
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
    not inherit the timer; their parent stops them (see ``proofs.discovery.impact.run_all``).
    """
    if not seconds or not hasattr(signal, "setitimer"):
        yield
        return

    def ring(signum: int, frame: object) -> None:
        TimeLimit.rang = True
        if Deferral.depth:  # compiled code is running: the limit lands when it is back
            Deferral.alarm = seconds
            return
        raise TimeLimit(seconds)

    TimeLimit.rang = False
    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        TimeLimit.rang = False


class Stop:
    """Where an interruption stands: None, "raised" (on its way up), "handled" (the run is
    ending: later signals change nothing); ``signum``: the first signal that came; ``at``: when
    it came, and ``reminded``: when it was last delivered again (time.monotonic())."""

    state: str | None = None
    signum: int | None = None
    at = 0.0
    reminded = 0.0


REMIND_AFTER = 5.0
"""Seconds a signal may stay on its way up (state "raised") before :func:`remind` delivers it
again: longer than any clean-up a run does while it unwinds."""


def interrupt(signum: int, frame: object) -> None:
    """The handler of Ctrl-C and SIGTERM alike: stop cleanly, nothing half-written (exit
    status 130 for SIGINT, 143 for SIGTERM); once the run handles the interruption, later
    signals are ignored."""
    if Stop.state == "handled":
        return
    if Stop.signum is None:
        Stop.signum, Stop.at = signum, time.monotonic()
    Stop.state = "raised"
    if Deferral.depth:  # compiled code is running: the signal lands when it is back
        Deferral.signal = True
        return
    raise KeyboardInterrupt


class Deferral:
    """Signals and the time limit held back while compiled loops run (:func:`deferred`): a signal
    that came during a call of numba's compiled code killed the process with a segmentation fault
    (``simulate dishes`` interrupted 3 s in: 6 runs in 177).  ``depth``: deferred blocks under
    way; ``signal``, ``alarm``: what came meanwhile, delivered when the outermost one ends."""

    depth = 0
    signal = False
    alarm: float | None = None


@contextmanager
def deferred() -> Iterator[None]:
    """Run the block with Ctrl-C, SIGTERM and the time limit held back (:class:`Deferral`); what
    came meanwhile is raised when it ends."""
    Deferral.depth += 1
    try:
        yield
    finally:
        Deferral.depth -= 1
        if not Deferral.depth:
            _land()


def _land() -> None:
    """Raise what came while signals were held back: the signal first, then the time limit."""
    if Deferral.signal:
        Deferral.signal = False
        if Stop.state == "raised":
            raise KeyboardInterrupt
    if Deferral.alarm is not None:
        seconds, Deferral.alarm = Deferral.alarm, None
        raise TimeLimit(seconds)


def unraisable_hook(default: Callable[[Any], None]) -> Callable[[Any], None]:
    """``sys.unraisablehook`` for a run.  An interruption (a signal, the time limit) that lands
    inside a finalizer (``__del__``) cannot leave it, and Python would print it and carry on:
    it is delivered again instead, a moment later.  After a signal, whatever else a half-built
    object's finalizer raises while it is torn down (an LLVM pass cut short inside a cold Numba
    compile) is no news: the run says it was interrupted, in one line.  Anything else goes to
    ``default``."""

    def handle(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            if Stop.state != "handled":
                _deliver_again(Stop.signum or signal.SIGINT)
        elif isinstance(unraisable.exc_value, TimeLimit) and callable(signal.getsignal(signal.SIGALRM)):
            _deliver_again(signal.SIGALRM)
        elif Stop.signum is None:
            default(unraisable)

    return handle


def _deliver_again(signum: int) -> None:
    """Send ``signum`` again a moment later, from another thread: raised in the thread that
    calls this (inside an unraisable hook), the handler's exception would be lost with the hook's."""
    timer = threading.Timer(0.01, os.kill, (os.getpid(), signum))
    timer.daemon = True
    timer.start()


def swallowed() -> None:
    """Raise KeyboardInterrupt if a signal came and the run is not ending: called where the main
    thread says how far it got (progress lines, the heartbeat's counters), so that a signal that
    something swallowed on its way up (a C extension that cleared the error, a bare ``except``)
    still ends the run at the next step of the work."""
    if Stop.state == "raised" and threading.current_thread() is threading.main_thread():
        raise KeyboardInterrupt


def remind(now: float | None = None) -> None:
    """Deliver the signal again if it has been on its way up for :data:`REMIND_AFTER` seconds
    without the run handling it (called from the heartbeat's thread): the last resort for work
    that swallowed a signal and reports no progress."""
    if Stop.state != "raised" or Stop.signum is None:
        return
    now = time.monotonic() if now is None else now
    if now - max(Stop.at, Stop.reminded) >= REMIND_AFTER:
        Stop.reminded = now
        os.kill(os.getpid(), Stop.signum)


def install() -> None:
    """Take Ctrl-C and SIGTERM from here on (the first thing a run does: before any heavy
    import, so that a signal during start-up or a compile ends the run too)."""
    Stop.state = Stop.signum = None
    Stop.at = Stop.reminded = 0.0
    signal.signal(signal.SIGINT, interrupt)
    signal.signal(signal.SIGTERM, interrupt)
    sys.unraisablehook = unraisable_hook(sys.__unraisablehook__)
    sys.excepthook = _quiet_after_signal(sys.__excepthook__)


def _quiet_after_signal(default: Callable[..., None]) -> Callable[..., None]:
    """``sys.excepthook`` for a run: C code that prints the error it met and goes on
    (``PyErr_Print``, seen when a signal landed in an import such code made) prints nothing
    for the interruption itself, which the run reports in one line; anything else as always."""

    def hook(exc_type: type, value: BaseException, tb: Any) -> None:
        if not (issubclass(exc_type, KeyboardInterrupt) and Stop.signum is not None):
            default(exc_type, value, tb)

    return hook


def signalled() -> bool:
    """A signal came (whether or not whatever it interrupted let the KeyboardInterrupt through)."""
    return Stop.signum is not None


def interrupted_status() -> int:
    """The exit status of an interrupted run: 143 after SIGTERM, else 130 (Ctrl-C)."""
    return EXIT_TERMINATED if Stop.signum == signal.SIGTERM else EXIT_INTERRUPTED


def interrupted_text() -> str:
    """`interrupted (Ctrl-C)` or `interrupted (SIGTERM)`, for the report and the last line."""
    return "interrupted (SIGTERM)" if Stop.signum == signal.SIGTERM else "interrupted (Ctrl-C)"


def check_signal() -> None:
    """Raise KeyboardInterrupt (or :class:`TimeLimit`) again where a signal (or the time limit)
    came and something swallowed it (a worker that died of it, a broad ``except``, a foreign
    call that turned it into its own error): so that it never turns into a verdict."""
    if Stop.signum is not None and Stop.state != "handled":
        raise KeyboardInterrupt
    if TimeLimit.rang:
        raise TimeLimit()


def handled() -> None:
    """The run has caught the interruption and is ending."""
    Stop.state = "handled"
