"""`tablerules mutants RULESET`: does the text, as the properties state it, decide every
branch of the model?  (Mutation coverage: tablerules.proofs.discovery.mutation.)

Per rule set: the coverage table (decision points, mutants, killed, equivalent, not reached,
uncovered, and of the uncovered: playing as a registered alternative, registered in
spec/mutants/<rule set>.toml, and unregistered), then every uncovered mutant with the change,
where model and mutant part (the shortest trace found) and its triage.  Exit status 1 when
a mutant is uncovered and unregistered.  Units: a *mutant* is one change at one decision
point; a *state* is one state the mutant was asked about through the core API.  Each run of
the unchanged model ends with a few seeded random games (``--seed``); the report names the
command line that records the same games.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Sequence, TextIO

from tablerules.model import registry
from tablerules.proofs.discovery.mutation.coverage import (PLAYS_AS, REGISTERED, Coverage, CoverageBudget, WorkerDied,
                                                           run_coverage)
from tablerules.proofs.discovery.mutation.judge import STOPPED, UNCOVERED, Budget
from tablerules.proofs.discovery.mutation.mutants import short_id
from tablerules.proofs.properties import clause_table

from .common import (
    UsageError, add_command, add_json, add_max_seconds, add_seed, emit_json, max_seconds_statuses, measured,
    reproduce_line, unique,
)
from ..limits import EXIT_FAIL, EXIT_INCOMPLETE, EXIT_OK, number
from ..report import table
from ..schemas import document

TIMES = measured("2026-12-02", "with other jobs running") + ": dishes 28 s; as the " \
        "opening of the full rulings report (the same budget): just-desserts 426 s, just-desserts-2.3 21 s; " \
        "--every 9 with shorter records (the check's subset) 16 s, 37 s and 6 s (dishes, just-desserts, 2.3)"


def add_parsers(sub: Any) -> None:
    p = add_command(
        sub, "mutants", "mutation coverage: does the rulebook's text decide every branch of the model?",
        "Change the model at every decision point of its step API, one change at a time (a test negated, a "
        "branch forced, a term dropped, a comparison moved, a count changed), run each mutant beside the "
        "unchanged model on the small configurations, and say which mutants a text property, an example or an "
        "invariant rejects (killed), which change nothing the API shows (equivalent), and which change play "
        "unnoticed (uncovered: the text, as the properties state it, does not decide that branch).  An "
        "uncovered mutant is triaged: it plays exactly as an alternative of a registered ruling, or the register "
        "spec/mutants/RULESET.toml names the ruling or the reason it is equivalent; otherwise it is unregistered "
        "(exit status 1).",
        ["tablerules mutants dishes", "tablerules mutants all --every 8",
         "tablerules mutants just-desserts --json > mutants.json",
         "tablerules mutants dishes --mutant m1a2b3c4d"],
        f"Time: {TIMES}.  Units: a mutant is one change at one decision point; states count the states a mutant "
        "was asked about.",
        statuses=max_seconds_statuses("an uncovered mutant that is not registered (spec/mutants/RULESET.toml)",
                                      "a worker process died (killed by a signal, or by the system for lack of "
                                      "memory): its mutants have no verdict"))
    p.add_argument("ruleset", nargs="+", metavar="RULESET",
                   help="rule set id(s), or 'all': " + ", ".join(registry.ruleset_ids()))
    p.add_argument("--every", type=number(int, 1, 1000), default=1, metavar="N",
                   help="judge every Nth mutant only (a fixed subset, the same on every machine; default 1: all)")
    p.add_argument("--mutant", action="append", default=[], metavar="ID",
                   help="judge only this mutant (its full id or its short id mXXXXXXXX); repeatable")
    p.add_argument("--states", type=number(int, 10, 1_000_000), default=Budget().states, metavar="N",
                   help=f"states each mutant is asked about, over all its runs (default {Budget().states:,})")
    p.add_argument("--record-states", type=number(int, 10, 1_000_000), default=CoverageBudget().record_states,
                   metavar="N", help="states recorded breadth-first per run of the unchanged model "
                                     f"(default {CoverageBudget().record_states:,})")
    p.add_argument("--workers", type=number(int, 1, 64), default=2, metavar="N",
                   help="worker processes (default 2); the verdicts do not depend on it")
    add_seed(p, CoverageBudget().seed, "the random games recorded after the breadth-first part of each run of the "
                                       "unchanged model (run i plays from S + i + 1)")
    add_max_seconds(p)
    add_json(p, "mutants")
    p.set_defaults(run=run)


def _rulesets(names: Sequence[str]) -> list[str]:
    out = []
    for n in names:
        if n == "all":
            out += registry.ruleset_ids()
        elif n in registry.ENTRIES:
            out.append(n)
        else:
            raise argparse.ArgumentTypeError(
                f"unknown rule set {n!r} (known: {', '.join(registry.ruleset_ids())}, all)"
            )
    return unique(out)


def _holding(names: Sequence[str], wanted: Sequence[str]) -> list[str]:
    """The rule sets among ``names`` that hold a mutant of ``wanted`` (full or short ids), before
    any work; UsageError naming the first id none of them holds."""
    from tablerules.proofs.discovery.mutation.mutants import write_mutants

    ids = {name: {i for m in write_mutants(name) for i in (m.mutant.id, short_id(m.mutant.id))} for name in names}
    for w in wanted:
        if not any(w in held for held in ids.values()):
            raise UsageError(f"tablerules mutants: --mutant {w[:80]!r}: no such mutant of {', '.join(names)} (its id "
                             "or short id mXXXXXXXX, as a report prints it)")
    return [name for name in names if ids[name] & set(wanted)]


def _progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    try:
        names = _rulesets(args.ruleset)
    except argparse.ArgumentTypeError as e:
        raise UsageError(f"tablerules mutants: {e}") from None
    if args.mutant:
        names = _holding(names, args.mutant)
    budget = CoverageBudget(record_states=args.record_states, mutant=Budget(states=args.states), every=args.every,
                            seed=args.seed)
    t0 = time.perf_counter()
    deadline = t0 + args.max_seconds if args.max_seconds else None
    results: list[Coverage] = []
    for name in names:
        left = None if deadline is None else max(1.0, deadline - time.perf_counter())
        try:
            results.append(run_coverage(name, budget, workers=args.workers, progress=_progress, max_seconds=left,
                                        only=args.mutant or None))
        except WorkerDied as e:  # its task is lost: no verdict for this rule set, and none is made up
            print(f"tablerules mutants: incomplete: {name}: {e}", file=sys.stderr)
            return EXIT_INCOMPLETE
    complete = all(c.complete for c in results)
    failed = any(c.unregistered() for c in results)
    status = EXIT_FAIL if failed else EXIT_OK if complete else EXIT_INCOMPLETE
    if args.json:
        emit_json(document("mutants", {"rulesets": [dict(c.to_json(), clauses=clause_rows(c.ruleset)) for c in results],
                                       "complete": complete, "exit_status": status, "seed": args.seed}))
    else:
        for c in results:
            write_report(sys.stdout, c)
        print(reproduce_line(args))
    return status


COLUMNS = ("decision points", "mutants", "killed", "equivalent", "not reached", "stopped", "uncovered",
           "plays as an alternative", "registered", "uncovered and unregistered")
SHORT = {"decision points": "points", "plays as an alternative": "as alternative",
         "uncovered and unregistered": "unregistered"}
"""Narrower headings for the terminal table (the JSON keys are the long names)."""


def coverage_rows(results: Sequence[Coverage]) -> list[list[str]]:
    return [[c.ruleset] + [f"{c.counts()[k]:,}" for k in COLUMNS] for c in results]


def triage_text(r: Any) -> str:
    if r.triage == PLAYS_AS:
        return f"plays as {r.ruling} = {r.alternative}"
    if r.triage == REGISTERED:
        return f"registered: {r.ruling}"
    return "UNREGISTERED"


def clause_rows(ruleset: str) -> list[dict[str, Any]]:
    """Every clause with the properties that state it (or why a text clause has none)."""
    return [{"clause": r.clause, "basis": r.basis, "properties": list(r.properties), "why_not": r.why_not}
            for r in clause_table(ruleset)]


def clause_summary(ruleset: str) -> str:
    rows = [r for r in clause_table(ruleset) if r.basis == "text"]
    stated = sum(1 for r in rows if r.properties)
    without = [f"{r.clause} ({r.why_not or 'NO REASON GIVEN'})" for r in rows if not r.properties]
    return (f"text clauses: {stated} of {len(rows)} stated as properties or examples"
            + (f"; without one: {'; '.join(without)}" if without else ""))


def write_report(out: TextIO, c: Coverage) -> None:
    """The coverage table and the uncovered mutants of one rule set, for people."""
    counts = c.counts()
    print(f"mutation coverage: {c.ruleset} ({'complete' if c.complete else 'INCOMPLETE'}; {c.seconds:.0f} s)", file=out)
    table(coverage_rows([c]), header=("rule set",) + tuple(SHORT.get(k, k) for k in COLUMNS), out=out)
    print(f"  killed includes {counts['crashed']} where the mutant's model raised; {c.runs} runs (configurations x "
          f"settings), {c.recorded_states:,} states recorded; {c.budget.text()}", file=out)
    print(f"  {clause_summary(c.ruleset)}", file=out)
    uncovered = [r for r in c.results if r.verdict.verdict == UNCOVERED]
    if uncovered:
        print(f"\nuncovered mutants ({len(uncovered)}):", file=out)
    for r in uncovered:
        m, v = r.source.mutant, r.verdict
        print(f"  {short_id(m.id)}  {m.where} {m.function}: {m.description}", file=out)
        print(f"      parts from the model after {len(v.trace)} steps on {v.run}: {v.detail}", file=out)
        print(f"      triage: {triage_text(r)}", file=out)
    stopped = [r for r in c.results if r.verdict.verdict == STOPPED]
    if stopped:
        print(f"\nstopped by the time limit on one mutant, no verdict ({len(stopped)}):", file=out)
    for r in stopped:
        print(f"  {short_id(r.source.mutant.id)}  {r.source.mutant.where} {r.source.mutant.function}: "
              f"{r.source.mutant.description}", file=out)
    if uncovered or stopped:
        print(f"  again: tablerules mutants {c.ruleset} --mutant ID (--json gives each whole trace)", file=out)
    print(file=out)
