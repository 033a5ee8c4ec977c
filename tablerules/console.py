"""Output for people: tables, pass/fail marks and progress lines, drawn with ``rich``.

Colour and live drawing only on a terminal (and never with ``NO_COLOR`` set); piped or
redirected output is plain text, the same bytes on every run.  Progress goes to standard
error: on a terminal a live line, elsewhere a plain line every few seconds in the manner of
TLC (distinct states, frontier, depth, rate), so a CI log shows that work goes on.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterable, Iterator, Sequence, TextIO

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from .limits import remind, swallowed

PLAIN_WIDTH = 200
"""Width of tables written to a file or a pipe (a terminal uses its own width)."""
TIMING_WIDTH = 10
"""Width of a column of timings (`12345.6 s`)."""
PROGRESS_EVERY = float(os.environ.get("TABLERULES_PROGRESS_SECONDS") or 5.0)
"""Seconds between progress lines when standard error is not a terminal, and the longest
silence on standard error the heartbeat allows (TABLERULES_PROGRESS_SECONDS)."""

STYLES = {"pass": "bold green", "ok": "bold green", "FAIL": "bold red", "fail": "bold red",
          "incomplete": "bold yellow", "not run": "yellow", "interrupted": "bold yellow", "unreadable": "bold red"}


class _Console(Console):
    """rich's console, except that a reader that went away raises BrokenPipeError (the
    command line's exit status 2: an output that cannot be written) where rich would exit
    with status 1, which here means a broken rule."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError


def console(stream: TextIO | None = None, stderr: bool = False) -> Console:
    """A rich console on ``stream`` (default: standard output, or standard error)."""
    stream = stream or (sys.stderr if stderr else sys.stdout)
    tty = _isatty(stream)
    return _Console(file=stream, force_terminal=tty, no_color=not tty or bool(os.environ.get("NO_COLOR")),
                   width=None if tty else int(os.environ.get("COLUMNS") or PLAIN_WIDTH), highlight=False,
                   soft_wrap=not tty, emoji=False)


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def plural(n: int, word: str) -> str:
    """`1 suit`, `5 suits`, `1,200 states`."""
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def mark(status: str) -> Text:
    """A status word, coloured on a terminal (green pass, red FAIL, yellow incomplete)."""
    return Text(status, style=STYLES.get(status, ""))


def table(rows: Iterable[Sequence[Any]], header: Sequence[str] | None = None, out: TextIO | None = None,
          status_column: int | None = None, timing_column: int | None = None, title: str | None = None) -> None:
    """Print aligned columns; ``status_column`` holds status words to mark; ``timing_column``
    (timings, which differ from run to run) gets a fixed width so that the other columns lay
    out the same on every run."""
    t = Table(box=box.SIMPLE_HEAD if header else None, show_header=bool(header), show_edge=False, pad_edge=False,
              title=title, title_justify="left", header_style="bold")
    rows = [list(r) for r in rows]
    ncols = max([len(header or ())] + [len(r) for r in rows]) if rows or header else 0
    wrap = ncols - 1 - (timing_column == ncols - 1)  # the last column of text takes what width is left
    for i in range(ncols):
        name = header[i] if header and i < len(header) else ""
        if i == timing_column:
            t.add_column(name, no_wrap=True, min_width=TIMING_WIDTH, max_width=TIMING_WIDTH, justify="right")
        else:
            t.add_column(name, overflow="fold", no_wrap=i != wrap)
    for r in rows:
        cells: list[Any] = []
        for i in range(ncols):
            value = r[i] if i < len(r) else ""
            cells.append(mark(str(value)) if i == status_column else Text(str(value)))
        t.add_row(*cells)
    c = console(out)
    if c.is_terminal:
        c.print(t)
        return
    with c.capture() as captured:
        c.print(t)
    (out or sys.stdout).write("".join(line.rstrip() + "\n" for line in captured.get().splitlines()))


def line(text: str, out: TextIO | None = None, status: str | None = None) -> None:
    """One line of text; ``status`` (a word inside it) is marked."""
    c = console(out)
    if status and status in text and c.is_terminal:
        head, _, tail = text.partition(status)
        c.print(Text(head) + mark(status) + Text(tail))
    else:
        c.print(Text(text))


class Progress:
    """Progress of a long search on standard error.

    Called with the search object (anything with ``states``, ``depth`` and, where known,
    ``frontier`` and ``budget.max_states``); draws at most a few times a second on a
    terminal, and a plain line every PROGRESS_EVERY seconds elsewhere::

        explore dishes 2p: 113,865 distinct states, frontier 52,301, depth 16, 4,555 states/s, 25 s
    """

    def __init__(self, label: str, stream: TextIO | None = None) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.tty = _isatty(self.stream) or os.environ.get("TABLERULES_PROGRESS") == "1"
        self.t0 = time.perf_counter()
        self.last = self.t0
        self._live: Any = None
        self._task: Any = None

    def text(self, search: Any) -> str:
        elapsed = time.perf_counter() - self.t0
        frontier = getattr(search, "frontier", None)
        parts = [f"{search.states:,} distinct states"]
        if frontier is not None:
            parts.append(f"frontier {frontier:,}")
        parts += [f"depth {search.depth}", f"{search.states / max(elapsed, 1e-9):,.0f} states/s", f"{elapsed:.0f} s"]
        return f"{self.label}: " + ", ".join(parts)

    def __call__(self, search: Any) -> None:
        swallowed()
        now = time.perf_counter()
        if self.tty:
            if now - self.last < 0.2:
                return
            self.last = now
            self._draw(search)
        elif now - self.last >= PROGRESS_EVERY:
            self.last = now
            self.stream.write(self.text(search) + "\n")
            self.stream.flush()

    def _draw(self, search: Any) -> None:
        from rich.progress import BarColumn, Progress as Live, TextColumn

        budget = getattr(getattr(search, "budget", None), "max_states", None)
        if self._live is None:
            self._live = Live(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[info]}"),
                              console=console(self.stream), transient=True, auto_refresh=False)
            self._live.start()
            with _Beat.lock:
                _Beat.live += 1
            self._task = self._live.add_task(escape(self.label), total=budget or None, info="")
        info = self.text(search)[len(self.label) + 2:]
        self._live.update(self._task, completed=min(search.states, budget) if budget else None, info=escape(info))
        self._live.refresh()

    def done(self) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None
            with _Beat.lock:
                _Beat.live = max(0, _Beat.live - 1)


def progress_factory():
    """A ``label -> Progress`` factory that remembers its bars, and a function closing them all."""
    bars: list[Progress] = []

    def factory(label: str) -> Progress:
        for b in bars:
            b.done()
        bar = Progress(label)
        bars.append(bar)
        return bar

    def close() -> None:
        for b in bars:
            b.done()
        bars.clear()

    return factory, close


# --------------------------------------------------------------------------- the heartbeat


class _Beat:
    """What the heartbeat knows: the activity under way, its counter, when standard error
    last got a line.  Every field is read and written under ``lock``."""

    lock = threading.RLock()
    last = 0.0
    """When standard error last got a whole line (time.monotonic())."""
    open_line = False
    """The last write left a line unfinished: a heartbeat now would break it."""
    latest = ""
    """The last line written: the activity when none was named."""
    latest_at = 0.0
    partial = ""
    what = ""
    since = 0.0
    done: int | None = None
    total: int | None = None
    unit = ""
    live = 0
    """Live displays drawing on a terminal: the heartbeat keeps quiet while one draws."""
    running = False


def _reset_after_fork() -> None:
    """A forked worker gets a fresh lock (the heartbeat thread may have held the old one) and no heartbeat."""
    _Beat.lock = threading.RLock()
    _Beat.running = False


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_after_fork)


def activity(what: str, total: int | None = None, unit: str = "") -> None:
    """Name what the run does now (``[9/69] dishes: mutation coverage``); with ``total``, the
    heartbeat also says how far it got (:func:`advance`) and at what rate.  A signal that
    something swallowed ends the run here (:func:`tablerules.limits.swallowed`)."""
    swallowed()
    with _Beat.lock:
        _Beat.what, _Beat.since = what, time.monotonic()
        _Beat.done, _Beat.total, _Beat.unit = (0 if total is not None or unit else None), total, unit


def advance(done: int) -> None:
    """How many ``unit`` of the current activity are done (cheap: no output; the heartbeat reads
    it).  A signal that something swallowed ends the run here."""
    swallowed()
    _Beat.done = done


def heartbeat_text(now: float | None = None) -> str:
    """The heartbeat's line: the activity, how far, the rate, the time it has taken."""
    now = time.monotonic() if now is None else now
    with _Beat.lock:
        named = bool(_Beat.what) and (_Beat.done is not None or _Beat.since >= _Beat.latest_at or not _Beat.latest)
        what = (_Beat.what if named else _Beat.latest) or "starting"  # the named activity, or a newer line
        elapsed = now - (_Beat.since if named else _Beat.latest_at)
        parts = []
        if _Beat.done is not None:
            of = f" of {_Beat.total:,}" if _Beat.total is not None else ""
            unit = f" {_Beat.unit}" if _Beat.unit else ""
            parts.append(f"{_Beat.done:,}{of}{unit}")
            parts.append(f"{_Beat.done / max(elapsed, 1e-9):,.1f}{unit or ' units'}/s")
        parts.append(f"{elapsed:.0f} s")
    return f"  ... {what.strip()[:160]}: still working, " + ", ".join(parts)


class _Watched:
    """Standard error, noting when each line goes out (so that the heartbeat speaks only into
    a silence) and keeping the heartbeat's lines from cutting into anyone else's."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        with _Beat.lock:
            n = self._stream.write(text)
            if text:
                lines = (_Beat.partial + text).split("\n")
                _Beat.partial = lines.pop()[-400:]  # what follows the last newline (print writes the newline apart)
                _Beat.open_line = bool(_Beat.partial)
                done = [x.strip() for x in lines if x.strip()]
                if done:
                    _Beat.latest, _Beat.latest_at = done[-1], time.monotonic()
                if not _Beat.open_line:
                    _Beat.last = time.monotonic()
        return n

    def writelines(self, lines: Iterable[str]) -> None:
        for text in lines:
            self.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _beat_loop(stop: threading.Event, out: TextIO, every: float) -> None:
    tick = min(every / 10, 0.5)
    while not stop.wait(tick):  # speaks after every - 2 ticks of silence: a line at least every ``every`` s
        now = time.monotonic()
        remind(now)  # a signal the main thread swallowed and never met again
        with _Beat.lock:
            if now - _Beat.last < every - 2 * tick or _Beat.open_line or _Beat.live:
                continue
            try:
                out.write(heartbeat_text(now) + "\n")
                out.flush()
            except (OSError, ValueError):  # standard error went away: nobody to tell
                return
            _Beat.last = now


@contextmanager
def heartbeat(every: float | None = None) -> Iterator[None]:
    """While the block runs, a line on standard error at least every ``every`` seconds
    (default PROGRESS_EVERY), terminal or not: when nothing else was written for that long, a
    background thread writes what the run is doing (:func:`activity`), how far and at what
    rate.  Standard output is never touched.  Nested uses share the outer heartbeat."""
    if _Beat.running or threading.current_thread() is not threading.main_thread():
        yield
        return
    every = PROGRESS_EVERY if every is None else every
    saved = sys.stderr
    watched = _Watched(saved)
    stop = threading.Event()
    with _Beat.lock:
        _Beat.running, _Beat.last, _Beat.open_line, _Beat.latest, _Beat.live = True, time.monotonic(), False, "", 0
        _Beat.latest_at, _Beat.partial = _Beat.last, ""
        _Beat.what, _Beat.done, _Beat.total, _Beat.unit = "", None, None, ""
    sys.stderr = watched  # type: ignore[assignment]
    thread = threading.Thread(target=_beat_loop, args=(stop, saved, every), name="tablerules-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
        if sys.stderr is watched:
            sys.stderr = saved
        with _Beat.lock:
            _Beat.running = False


@contextmanager
def quiet() -> Iterator[None]:
    """While the block runs, the heartbeat keeps quiet (as for a live display): for a command
    that waits on purpose, a server waiting for its pages' requests, whose silence is no sign
    of work under way."""
    with _Beat.lock:
        _Beat.live += 1
    try:
        yield
    finally:
        with _Beat.lock:
            _Beat.live -= 1
