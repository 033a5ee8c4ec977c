"""`tablerules check` and `tablerules prove`: run the check suites and report.

What each check covers is decided by budgets counted in states, pairs or games, so the
report is the same on any machine and under any load, timings aside (the ``time`` column
and the ``total`` line).  ``--max-seconds`` may stop a run: the check under way is then
``incomplete``, the rest ``not run``, and the exit status 3, unless a check has already
failed.  Ctrl-C does the same with exit status 130, SIGTERM with 143.

The items that play random games add ``--seed`` to their own seeds on record (0 by default:
the games on record); the report names the command line that plays the same games.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from tablerules.model import registry
from tablerules.model.core import SetupError
from tablerules.model.decks import load_deck
from tablerules.proofs.checks import FAIL, INCOMPLETE, NOT_RUN, PASS, CheckItem, CheckResult, Context

from .. import console
from .check_jobs import INTERRUPTED, run_in_workers
from .common import (
    MEASURED, DECK_LIMITS, add_command, add_json, add_max_seconds, add_seed, emit_json, named_text, reproduce_line,
    ruleset_arg, unique,
)
from tablerules.proofs.files import check_writable_folder
from ..limits import (
    BY_MAX_SECONDS, EXIT_FAIL, EXIT_INCOMPLETE, EXIT_OK, MAX_SCALE, Statuses, TimeLimit, check_signal, handled,
    interrupted_status, interrupted_text, number, time_limit,
)
from ..schemas import document
from ..vectors.traces import finding_json, trace_lines, write_itf

MAX_JOBS = 64
"""Largest --jobs."""

CHECK_STATUSES = Statuses(fail="a check failed: a rule broken, a proof result other than the one on record, a check "
                               "that crashed, a rule set that does not load",
                          incomplete=(BY_MAX_SECONDS + " (the check under way is incomplete, the rest not run; a FAIL "
                                      "found before still exits 1)",))
SAMPLED = ("the random games (the compiled playouts, the retail deck's games, the mutation subset's recorded games, "
           "the decision points' random games, the gap finder's and clause-reach searches' probing games), added to "
           "each item's seed on record, so 0 plays the games on record")
"""What --seed of `tablerules check` decides (its --help)."""
SEED = 0
"""The default --seed: every sampling item plays the games it has always played."""


PROVE_STATUSES = Statuses(fail="a proof result other than the one on record, or a proof that crashed")


# --------------------------------------------------------------------------- arguments



def add_parsers(sub: Any) -> None:
    c = add_command(
        sub, "check", "run the whole verification on the defaults and print a report",
        "Run the check suite of every rule set (or of those named): exhaustive explorations of small "
        "configurations, every ruling alternative, strict mode, budgeted explorations of the full games, "
        "and the z3 proofs against their expected results.  Budgets count states, never seconds, so the "
        "verdict does not depend on the machine.",
        [
            "tablerules check", "tablerules check dishes --quick",
            "tablerules check just-desserts --retail-deck deck.json", "tablerules check --json > report.json",
            "tablerules check --max-seconds 600 --out-itf traces/",
        ],
        statuses=CHECK_STATUSES,
    )
    c.add_argument("rulesets", nargs="*", type=ruleset_arg, metavar="RULESET",
                   help="rule sets to check (default: all): " + ", ".join(registry.ruleset_ids()))
    c.add_argument(
        "--ruleset", action="append", default=[], type=ruleset_arg, help="the same, as an option (repeatable)"
    )
    c.add_argument("--quick", action="store_true",
                   help="fewer configurations and a tenth of each budgeted search (measured on two cores, 2026-12-02: "
                        "79 s for all three rule sets without the retail deck; the whole check took 236 s with it, "
                        "beside a docs build)")
    c.add_argument("--retail-deck", metavar="FILE", type=named_text,
                   help=f"also check facts and random games on this deck file (default: $TABLERULES_RETAIL_DECK; "
                        f"{DECK_LIMITS})")
    c.add_argument("--scale", type=number(float, 0, MAX_SCALE), default=1.0,
                   help=f"multiply the state budgets of the budgeted searches (> 0, at most {MAX_SCALE:g}; default 1)")
    add_seed(c, SEED, SAMPLED)
    c.add_argument("--jobs", type=number(int, 1, MAX_JOBS), default=1, metavar="N",
                   help=f"run the checks side by side in N worker processes (1 to {MAX_JOBS}; default 1): the "
                        "verdicts, figures and the report's order are the same, only the timings and the order of "
                        "the progress lines change")
    add_max_seconds(c)
    add_json(c, "check")
    c.add_argument("--out-itf", metavar="DIR", help="write the trace of every finding as an ITF file in DIR")
    c.set_defaults(run=run_check)

    p = add_command(sub, "prove", "run a rule set's z3 proofs and compare with the expected results",
                    "Run the z3 proofs and fact checks of one rule set and compare each result with the one on "
                    "record in proofs/manifests/.",
                    ["tablerules prove dishes", "tablerules prove just-desserts --json"],
                    f"Time, {MEASURED}: dishes 1.9 s, just-desserts 2.8 s, just-desserts-2.3 0.9 s.",
                    statuses=PROVE_STATUSES)
    p.add_argument("ruleset", type=ruleset_arg, help="rule set id: " + ", ".join(registry.ruleset_ids()))
    add_json(p, "prove")
    p.set_defaults(run=run_prove)


# --------------------------------------------------------------------------- running


def _items(ruleset: str, ctx: Context) -> list[CheckItem]:
    entry = registry.ENTRIES[ruleset]
    return list(importlib.import_module(entry.check).checks(ctx))


def build_items(rulesets: list[str], ctx: Context) -> list[CheckItem]:
    """The check items of these rule sets, in the report's order (each worker of ``--jobs``
    builds the same list)."""
    return [item for r in rulesets for item in _items(r, ctx)]


def run_items(items: list[CheckItem], ctx: Context, max_seconds: float | None = None,
              after_each: Any = None) -> tuple[list[CheckResult], str]:
    """Run the items in order; (results, how the run stopped: "" for done, "time limit" or
    "interrupted").  A crashing check is a FAIL with its cause; a stopped one is incomplete and
    the items after it are not run."""
    results: list[CheckResult] = []
    stopped = ""
    err = sys.stderr
    try:  # around the limit itself: it may ring before the loop starts (a busy machine) or as it is disarmed
        with time_limit(max_seconds):
            for n, item in enumerate(items, 1):
                err.write(f"[{n}/{len(items)}] {item.ruleset}: {item.name} ...\n")
                err.flush()
                console.activity(f"[{n}/{len(items)}] {item.ruleset}: {item.name}")
                try:
                    r = item.verdict(ctx)
                    check_signal()  # a signal the check swallowed (a worker that died of it) is no verdict
                except TimeLimit:
                    stopped = f"time limit ({max_seconds:g} s)"
                    results.append(CheckResult(item.ruleset, item.name, INCOMPLETE, f"stopped by the {stopped}"))
                    break
                except KeyboardInterrupt:
                    handled()
                    stopped = INTERRUPTED
                    results.append(CheckResult(item.ruleset, item.name, INCOMPLETE, interrupted_text()))
                    break
                if after_each is not None:
                    after_each()  # the item's progress display goes before its result line
                results.append(r)
                console.line(f"      {r.status} in {r.seconds:.1f} s: {r.summary}", err, status=r.status)
    except (TimeLimit, KeyboardInterrupt) as e:  # between two items, before the first or after the last
        if isinstance(e, KeyboardInterrupt):
            handled()
        if not stopped and (isinstance(e, KeyboardInterrupt) or len(results) < len(items)):
            stopped = INTERRUPTED if isinstance(e, KeyboardInterrupt) else f"time limit ({max_seconds:g} s)"
    done = {(r.ruleset, r.name) for r in results}
    results += [CheckResult(i.ruleset, i.name, NOT_RUN, f"not run: the run was stopped ({stopped})")
                for i in items if (i.ruleset, i.name) not in done]
    return results, stopped


def exit_status(results: list[CheckResult], stopped: str) -> int:
    if stopped == INTERRUPTED:
        return interrupted_status()
    if any(r.status == FAIL for r in results):
        return EXIT_FAIL
    if stopped or any(r.status in (INCOMPLETE, NOT_RUN) for r in results):
        return EXIT_INCOMPLETE
    return EXIT_OK


def run_check(args: argparse.Namespace) -> int:
    wanted = unique(args.rulesets + args.ruleset) or registry.ruleset_ids()
    deck = args.retail_deck or os.environ.get("TABLERULES_RETAIL_DECK") or None
    if deck:
        load_deck(deck)  # a deck that cannot be read is bad input (exit 2), not a failing check
    out_itf = check_writable_folder(args.out_itf, "--out-itf") if args.out_itf else None
    factory, close = console.progress_factory()
    ctx = Context(quick=args.quick, progress=factory, retail_deck=deck, scale=args.scale, seed=args.seed)
    items: list[CheckItem] = []
    broken: list[CheckResult] = []
    loaded: list[str] = []
    for r in wanted:
        try:
            items += _items(r, ctx)
            loaded.append(r)
        except Exception as e:  # a rule set that cannot load fails the check, the others still run
            broken.append(CheckResult(r, "load the rule set and its checks", FAIL, f"{type(e).__name__}: {e}"))
    t0 = time.perf_counter()
    try:
        if args.jobs > 1:
            results, stopped = run_in_workers(build_items, loaded, items, ctx, args.jobs, args.max_seconds)
        else:
            results, stopped = run_items(items, ctx, args.max_seconds, after_each=close)
    finally:
        close()
    results = broken + results
    itf = _write_traces(results, out_itf) if out_itf else {}
    status = exit_status(results, stopped)
    seconds = time.perf_counter() - t0
    if args.json:
        emit_json(document("check", _report_json(results, status, stopped, seconds, itf, {
            "rulesets": wanted, "quick": args.quick, "scale": args.scale, "retail_deck": deck,
            "max_seconds": args.max_seconds, "seed": args.seed})))
    else:
        print_report(results, stopped=stopped, itf=itf)
        print(reproduce_line(args))
        tail = "" if deck else "; retail deck not given (set TABLERULES_RETAIL_DECK to include its facts)"
        print(f"total {seconds:.0f} s{tail}")
    return status


def run_prove(args: argparse.Namespace) -> int:
    factory, close = console.progress_factory()
    ctx = Context(progress=factory, retail_deck=os.environ.get("TABLERULES_RETAIL_DECK") or None)
    items = [i for i in _items(args.ruleset, ctx) if i.name.startswith("prove ")]
    t0 = time.perf_counter()
    try:
        results, stopped = run_items(items, ctx, after_each=close)
    finally:
        close()
    status = exit_status(results, stopped)
    if args.json:
        emit_json(document("prove", _report_json(results, status, stopped, time.perf_counter() - t0, {},
                                                 {"rulesets": [args.ruleset]})))
    else:
        print_report(results, stopped=stopped)
    return status


# --------------------------------------------------------------------------- traces of findings


def _rules_of(ruleset: str) -> Any:
    try:
        return registry.get(ruleset)
    except (SetupError, ImportError):
        return None


def _write_traces(results: list[CheckResult], folder: Path) -> dict[int, Path]:
    """Every finding whose trace starts at the start of a game, as ITF; id(finding) -> path."""
    out: dict[int, Path] = {}
    for r in results:
        rules = _rules_of(r.ruleset)
        for f in r.findings:
            start = getattr(f, "start", None)
            if rules is None or start is None or start != rules.new_game(start.setup):
                continue
            moves = [s.move for s in f.trace] + ([str(f.move)] if f.move is not None else [])
            out[id(f)] = write_itf(folder, f"{r.ruleset}-{r.name}-{f.kind}-{f.key}", rules, start.setup, moves,
                                   f"{r.ruleset}: {f.kind} {f.key} found by `tablerules check` ({r.name})",
                                   note=f.detail)
    return out


# --------------------------------------------------------------------------- the report


def print_report(results: list[CheckResult], out: TextIO | None = None, stopped: str = "",
                 itf: dict[int, Path] | None = None) -> None:
    out = out or sys.stdout
    out.write("\n== tablerules check ==\n\n")
    console.table(((r.ruleset, r.name, r.status, r.summary, f"{r.seconds:.1f} s") for r in results),
                  header=("rule set", "check", "status", "result", "time"), out=out, status_column=2, timing_column=4)
    for r in results:
        if not r.rows and not r.findings:
            continue
        out.write(f"\n-- {r.ruleset}: {r.name} [")
        console.line(f"{r.status}]", out, status=r.status)
        if r.rows:
            console.table(r.rows, out=out)
        rules = _rules_of(r.ruleset)
        for f in r.findings:
            out.write(f"  {f.kind} {f.key} [{f.clause}]: {f.detail}\n")
            lines = trace_lines(rules, getattr(f, "start", None), f.trace, f.move, indent="    ") if rules else []
            out.write("".join(line + "\n" for line in lines))
            if itf and id(f) in itf:
                out.write(f"    trace written to {itf[id(f)]}\n")
    counts = _counts(results)
    parts = [f"{counts[PASS]} passed", f"{counts[FAIL]} failed"]
    parts += [f"{counts[k]} {k}" for k in (INCOMPLETE, NOT_RUN) if counts[k]]
    if stopped:
        parts[-1] += f"; {interrupted_text()}" if stopped == INTERRUPTED else f"; stopped by the {stopped}"
    out.write("\n")
    console.line(", ".join(parts), out, status="failed" if counts[FAIL] else None)


def _counts(results: list[CheckResult]) -> dict[str, int]:
    counts = {PASS: 0, FAIL: 0, INCOMPLETE: 0, NOT_RUN: 0}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    return counts


def _report_json(results: list[CheckResult], status: int, stopped: str, seconds: float, itf: dict[int, Path],
                 head: dict[str, Any]) -> dict[str, Any]:
    counts = _counts(results)
    overall = ("interrupted" if stopped == INTERRUPTED else "fail" if counts[FAIL] else
               "incomplete" if stopped or counts[INCOMPLETE] or counts[NOT_RUN] else "pass")
    return {
        **head,
        "status": overall,
        "exit_status": status,
        "stopped": stopped or None,
        "counts": {"passed": counts[PASS], "failed": counts[FAIL], "incomplete": counts[INCOMPLETE],
                   "not_run": counts[NOT_RUN]},
        "seconds": round(seconds, 3),
        "checks": [{
            "ruleset": r.ruleset, "name": r.name, "status": r.status, "summary": r.summary,
            "seconds": round(r.seconds, 3),
            "details": [[str(k), str(v)] for k, v in r.rows],
            "findings": [finding_json(f, itf.get(id(f))) for f in r.findings],
        } for r in results],
    }
