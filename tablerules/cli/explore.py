"""`tablerules explore RULESET`: explore one configuration breadth-first and report.

Exit status 0 when the search was complete and nothing unexpected was found (a gap raised by
a ruling set to ``strict`` is expected: that is what strict mode is for), 1 for a violation,
dead end, model error, a gap of a ruling that is not strict, or (with ``--graph``) states from
which no end can be reached (named by the rule set's endless-play ruling, with the shortest
trace into the nearest closed set), 3 when the search is incomplete: ``--max-seconds`` or the
state budget (``--max-states``) stopped it first, so nothing is known of the states left.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from tablerules.model.core import STRICT, SetupError, options_text, ruling_fields
from tablerules.proofs.discovery import gaps as gp
from tablerules.proofs.endless import closed_set_finding
from tablerules.proofs.explorer import Budget, Finding, explore, finding_traces, graph_analysis

from .. import console
from .common import (
    MEASURED, add_command, add_json, add_max_seconds, add_setup_args, build_setup, emit_json, max_seconds_statuses,
)
from tablerules.proofs.files import check_writable_folder
from ..limits import EXIT_FAIL, EXIT_INCOMPLETE, EXIT_OK, MAX_STATES, number
from ..schemas import document
from ..vectors.traces import finding_json, trace_lines, write_itf

DEFAULT_STATES = 1_000_000



def add_parsers(sub: Any) -> None:
    e = add_command(
        sub, "explore", "explore one configuration breadth-first",
        "Explore every state of one configuration breadth-first from the start (every seat move and every chance "
        "outcome), check every invariant at every state, and list every finding with its shortest trace.  The "
        "state budget decides what is covered; the report says which tile set or deck was explored.",
        [
            "tablerules explore dishes --players 2 --deck 3x4 --graph",
            "tablerules explore dishes --players 2 --deck 3x4 --strict",
            "tablerules explore dishes --players 3 --ruling deal-3-players=spare-layout --max-states 100000",
            "tablerules explore just-desserts --deck jd-rivals --option poaching --json",
            "tablerules explore dishes --deck 2x4 --strict --out-itf traces/",
        ],
        f"Time, {MEASURED}: dishes on 3x4 with 2 players 0.9 s, just-desserts on jd-rivals with poaching 1.3 s; a run "
        f"grows "
        "with --max-states (the budget, in stored states).",
        statuses=max_seconds_statuses(
            "a finding: a violation, dead end, model error, bad chance, trap or unregistered gap",
            "the state budget (--max-states) stopped the search before every state was expanded",
        ),
    )
    add_setup_args(e)
    e.add_argument("--symmetry", default=None, help="symmetry reduction, e.g. colours+types (default: the rule set's)")
    e.add_argument("--no-symmetry", action="store_true", help="explore without symmetry reduction")
    e.add_argument("--max-states", type=number(int, 1, MAX_STATES), default=DEFAULT_STATES,
                   help=f"state budget: distinct states stored (after symmetry reduction) before the search stops "
                        f"(1 to {MAX_STATES:,}; default {DEFAULT_STATES:,})")
    add_max_seconds(e)
    e.add_argument("--graph", action="store_true", help="networkx pass: can every state reach an end; longest game")
    add_json(e, "explore")
    e.add_argument("--out-itf", metavar="DIR", help="write the trace of every finding as an ITF file in DIR")
    e.set_defaults(run=run)


def _symmetry(rules: Any, args: argparse.Namespace) -> str | None:
    symmetry = None if args.no_symmetry else (args.symmetry or getattr(rules, "default_symmetry", None))
    if symmetry and symmetry not in rules.symmetries:
        for part in symmetry.split("+"):
            if part not in rules.symmetries:
                raise SetupError(
                    f"--symmetry: unknown symmetry {part!r} for {rules.id} (known: "
                    f"{', '.join(rules.symmetries) or 'none'})"
                )
    return symmetry


def _strict_rulings(rules: Any, options: Any) -> set[str]:
    return {rid for rid, f in ruling_fields(rules.Options).items() if getattr(options, f.name) == STRICT}


def run(args: argparse.Namespace) -> int:
    rules, setup, comp_text = build_setup(args)
    symmetry = _symmetry(rules, args)
    out_itf = check_writable_folder(args.out_itf, "--out-itf") if args.out_itf else None
    strict = _strict_rulings(rules, setup.options)
    state, options, start_gaps, problem = gp.start_game(rules, gp.Config(setup.players, setup.components, args.deck),
                                                         setup.options)
    if state is None:
        raise SetupError(f"{rules.id}: cannot start a game: {problem}")
    asked = setup
    if options != setup.options:
        setup = rules.setup(setup.players, options, setup.components)
    bar = console.Progress(f"explore {rules.id} {setup.players}p")
    t0 = time.perf_counter()
    try:
        ex = explore(rules, [state], symmetry=symmetry, budget=Budget(args.max_states, args.max_seconds),
                     keep_graph=args.graph, progress=bar)
    finally:
        bar.done()
    seconds = time.perf_counter() - t0
    findings: list[Any] = [
        Finding(
            g.kind, g.key, g.clause, g.detail + f" (then explored with {_default_of(rules, g.key)})", None, trace=(),
            start=None,
        )
        for g in start_gaps
    ]
    findings += finding_traces(ex)
    bad = [f for f in findings if not (f.kind == "gap" and f.key in strict)]
    graph = graph_analysis(ex) if args.graph and ex.complete else None
    if graph is not None and graph.traps:
        trap = closed_set_finding(ex)  # the rule set's endless-play ruling names it (jd.ruling.endless-play)
        if trap is None:  # plumbing: no closed set found, yet traps (cannot happen in a complete graph)
            trap = Finding("trap", "trap", "core.termination", "", graph.trap_example)
        trap.detail = f"{graph.traps:,} states from which no end can be reached" + (trap.detail and ": " + trap.detail)
        findings.append(trap)
        bad.append(trap)
    itf = _write_traces(rules, asked, findings, out_itf) if out_itf else {}
    status = EXIT_FAIL if bad else EXIT_INCOMPLETE if not ex.complete else EXIT_OK
    if args.json:
        emit_json(document("explore", _json(rules, setup, comp_text, ex, graph, findings, bad, itf, status, seconds)))
    else:
        _text(rules, setup, comp_text, ex, graph, findings, bad, itf, seconds, args)
    return status


def _default_of(rules: Any, ruling: str) -> str:
    f = ruling_fields(rules.Options).get(ruling)
    return f"{ruling}={f.metadata['alternatives'][0]}" if f is not None else "the default"


def _write_traces(rules: Any, setup: Any, findings: list[Any], folder: Path) -> dict[int, Path]:
    out = {}
    for f in findings:
        if f.start is None and f.trace:
            continue
        moves = [s.move for s in f.trace] + ([str(f.move)] if f.move is not None else [])
        start_setup = f.start.setup if f.start is not None else setup  # a gap at the start: the setup asked for
        out[id(f)] = write_itf(folder, f"{rules.id}-{f.kind}-{f.key}", rules, start_setup, moves,
                               f"{rules.title}: {f.kind} {f.key} found by `tablerules explore`", note=f.detail)
    return out


def _text(rules: Any, setup: Any, comp_text: str, ex: Any, graph: Any, findings: list[Any], bad: list[Any],
          itf: dict[int, Path], seconds: float, args: argparse.Namespace) -> None:
    out = sys.stdout
    out.write(f"{rules.title}: {setup.players} players, {comp_text}\n")
    console.table(sorted(options_text(setup.options).items()), header=("ruling / option", "alternative"), out=out)
    out.write("\n")
    rows = ex.table()
    if args.graph:
        if graph is not None:
            rows += [("every state can reach an end", "yes" if not graph.traps else f"NO ({graph.traps:,} traps)"),
                     ("longest game", "unbounded (cycle)" if graph.longest is None else f"{graph.longest} steps")]
        else:
            rows.append(("graph analysis", "skipped: exploration incomplete"))
    console.table(rows, out=out)
    if ex.outcomes:
        out.write("\n")
        total = sum(ex.outcomes.values())
        console.table(((k, f"{v:,}", f"{100 * v / total:.1f}%") for k, v in ex.outcomes.most_common()),
                      header=("outcome", "terminal states", "share"), out=out)
    for f in findings:
        count = ex.finding_counts.get((f.kind, f.key), 1)
        expected = "" if f in bad else " (expected: the ruling is strict)"
        out.write(f"\n{f.kind}: {f.key} [{f.clause}] x{count:,}{expected}: {f.detail}\n")
        out.write("".join(line + "\n" for line in trace_lines(rules, f.start, f.trace, f.move)))
        if id(f) in itf:
            out.write(f"  trace written to {itf[id(f)]}\n")
    out.write(f"\n{seconds:.1f} s; {ex.coverage()}\n")
    verdict = "FAIL" if bad else "incomplete" if not ex.complete else "ok"
    console.line(f"{verdict}: {console.plural(len(bad), 'unexpected finding')}"
                 + (f" of {len(findings)}" if len(findings) != len(bad) else "")
                 + ("" if ex.complete or ex.timed_out else
                    f" (the state budget of {ex.budget.max_states:,} states cut the search: states were left "
                    "unexpanded)")
                 + ("" if args.graph else " (whether every state can still reach an end was not asked: --graph asks)"),
                 out, status=verdict)


def _json(rules: Any, setup: Any, comp_text: str, ex: Any, graph: Any, findings: list[Any], bad: list[Any],
          itf: dict[int, Path], status: int, seconds: float) -> dict[str, Any]:
    comp = setup.components
    return {
        "ruleset": rules.id,
        "title": rules.title,
        "players": setup.players,
        "options": options_text(setup.options),
        "components": None
        if comp is None
        else {
            "name": getattr(comp, "name", str(comp)), "text": comp_text,
            "digest": comp.digest() if callable(getattr(comp, "digest", None)) else None,
        },
        "symmetry": ex.symmetry,
        "budget": {"max_states": ex.budget.max_states, "max_seconds": ex.budget.max_seconds},
        "coverage": {
            "complete": ex.complete, "stopped": ex.stopped or None, "timed_out": ex.timed_out,
            "complete_depth": ex.complete_depth, "text": ex.coverage(),
        },
        "states": ex.states, "transitions": ex.transitions, "terminal_states": ex.terminals, "depth": ex.depth,
        "states_by_depth": list(ex.levels),
        "outcomes": dict(ex.outcomes.most_common()),
        "graph": None if graph is None else {"traps": graph.traps, "acyclic": graph.acyclic, "longest": graph.longest},
        "findings": [
            dict(
                finding_json(f, itf.get(id(f))), expected=f not in bad, count=ex.finding_counts.get((f.kind, f.key), 1)
            )
            for f in findings
        ],
        "seconds": round(seconds, 3),
        "exit_status": status,
    }
