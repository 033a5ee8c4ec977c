"""`tablerules check --jobs N`: the check items run side by side in N worker processes.

Every item is independent of the others: its budgets count states, pairs or games, and its
random games have their own seed on record.  So running items side by side changes the
timings and the order of the progress lines, never a verdict, a figure or the report's order
(the report lists the items as the serial run does).

The workers are started fresh (``spawn``), so they inherit no thread or lock of this process;
each builds the same items from the same rule sets and context and runs the ones it is given
by index.  Results come back pickled.  A worker that dies (killed, out of memory) fails the
item it was running with the cause, and the run goes on with the workers left; the time limit
or a signal stops every worker at once and reports the items under way as incomplete.
"""

from __future__ import annotations

import multiprocessing as mp
import pickle
import signal
import sys
from dataclasses import dataclass, replace
from multiprocessing.connection import wait
from typing import Any, Callable

from tablerules.proofs.checks import FAIL, INCOMPLETE, NOT_RUN, CheckItem, CheckResult, Context

from .. import console
from ..limits import TimeLimit, check_signal, handled, interrupted_text, time_limit

INTERRUPTED = "interrupted"
POLL = 0.5
"""Seconds between two looks at the workers while no result comes (a death is noticed then)."""

Build = Callable[[list[str], Context], list[CheckItem]]


def _no_progress(label: str) -> None:
    return None


def _worker(build: Build, rulesets: list[str], ctx: Context, conn: Any) -> None:
    """Run the item whose index the parent sends, send its result back; until a None.

    Not a daemon (some checks start workers of their own): it stops by itself when its parent
    is gone (the pipe closes)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent hears Ctrl-C and stops the workers
    items = build(rulesets, ctx)
    conn.send(len(items))
    while True:
        try:
            index = conn.recv()
        except EOFError:
            return
        if index is None:
            return
        item = items[index]
        r = item.verdict(ctx)
        try:
            blob = pickle.dumps(r)
        except Exception as e:  # a result that cannot travel is reported, not lost
            blob = pickle.dumps(CheckResult(item.ruleset, item.name, FAIL,
                                            f"check result could not be sent back: {type(e).__name__}: {e}"))
        conn.send(blob)


@dataclass
class _Worker:
    process: Any
    conn: Any
    gone: bool = False
    """It has ended: it will send nothing more."""
    index: int | None = None
    """The item it runs now."""


def run_in_workers(build: Build, rulesets: list[str], items: list[CheckItem], ctx: Context, jobs: int,
                   max_seconds: float | None = None) -> tuple[list[CheckResult], str]:
    """Run ``items`` (built by ``build(rulesets, ctx)``) in ``jobs`` workers; the same
    (results, how the run stopped) as the serial run, results in the items' order."""
    spawn = mp.get_context("spawn")
    plain = replace(ctx, progress=_no_progress)  # no progress bars from the workers
    workers: list[_Worker] = []
    for _ in range(max(1, min(jobs, len(items)))):
        mine, theirs = spawn.Pipe()
        w = _Worker(spawn.Process(target=_worker, args=(build, rulesets, plain, theirs)), mine)
        w.process.start()
        theirs.close()
        workers.append(w)
    results: dict[int, CheckResult] = {}
    waiting = list(range(len(items)))
    stopped = ""
    err = sys.stderr
    n = len(items)

    def give(w: _Worker) -> None:
        if not waiting:
            w.conn.send(None)
            w.ready = False
            return
        w.index = waiting.pop(0)
        w.conn.send(w.index)
        item = items[w.index]
        err.write(f"[{w.index + 1}/{n}] {item.ruleset}: {item.name} ...\n")
        err.flush()

    def finish(w: _Worker, r: CheckResult) -> None:
        assert w.index is not None
        results[w.index] = r
        console.line(f"      [{w.index + 1}/{n}] {r.status} in {r.seconds:.1f} s: {r.summary}", err, status=r.status)
        w.index = None
        under_way = sum(x.index is not None for x in workers)
        console.activity(f"check: {len(results)} of {n} items done, {under_way} under way")

    try:
        with time_limit(max_seconds):
            while len(results) < n:
                live = [w for w in workers if not w.gone]
                if not live:
                    for i in waiting:
                        results[i] = CheckResult(items[i].ruleset, items[i].name, FAIL, "not run: no worker left")
                    break
                ready = wait([w.conn for w in live] + [w.process.sentinel for w in live], timeout=POLL)
                check_signal()
                for w in live:
                    if w.conn in ready:
                        try:
                            message = w.conn.recv()
                        except EOFError:  # it ended: after its last item, or it died
                            _gone(w, items, finish)
                            continue
                        if w.index is not None:
                            finish(w, pickle.loads(message))
                        give(w)  # the first message says its items are built
                    elif w.process.sentinel in ready:
                        _gone(w, items, finish)
    except TimeLimit:
        stopped = f"time limit ({max_seconds:g} s)"
    except KeyboardInterrupt:
        handled()
        stopped = INTERRUPTED
    finally:
        for w in workers:
            if w.process.is_alive():
                w.process.kill()
            w.process.join()
            w.conn.close()
    if stopped:
        why = interrupted_text() if stopped == INTERRUPTED else f"stopped by the {stopped}"
        for w in workers:
            if w.index is not None and w.index not in results:
                results[w.index] = CheckResult(items[w.index].ruleset, items[w.index].name, INCOMPLETE, why)
        for index, item in enumerate(items):
            if index not in results:
                results[index] = CheckResult(item.ruleset, item.name, NOT_RUN,
                                             f"not run: the run was stopped ({stopped})")
    return [results[i] for i in range(n)], stopped


def _gone(w: _Worker, items: list[CheckItem], finish: Callable[[_Worker, CheckResult], None]) -> None:
    """A worker that ended; if it died running an item, that item fails with its exit code."""
    w.gone = True
    w.process.join()
    if w.index is not None:
        item = items[w.index]
        finish(w, CheckResult(item.ruleset, item.name, FAIL,
                              f"the worker running this check died (exit code {w.process.exitcode})"))
