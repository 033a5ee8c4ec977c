"""`tablerules readings RULESET`: the model beside an independent reading of its rulebook.

Walks every state of the rule set's small configurations (2 and 3 players on the teaching
decks, each optional rule alone and all together) and seeded random games on a deck the user
gives (normally the retail one: --retail-deck or $TABLERULES_RETAIL_DECK), with the reading of
``readings/`` beside the model at every state; groups every difference; tries every alternative
of every registered ruling on each group; prints every group and each *finding* (a group no
alternative explains) with its shortest witness (:mod:`tablerules.lockstep`).  Exit status 1
when a finding is left.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from typing import Any

from tablerules.lockstep import report
from tablerules.lockstep import run as lockstep
from tablerules.lockstep.readings import READINGS, ReadingError
from tablerules.model import registry
from tablerules.model.core import SetupError

from .common import (
    MAX_PLAYERS, add_command, add_json, add_max_seconds, add_seed, emit_json, max_seconds_statuses, named_text,
    reproduce_line,
)
from tablerules.proofs.files import check_writable_file, write_atomic
from ..limits import EXIT_FAIL, EXIT_INCOMPLETE, EXIT_OK, MAX_STATES, TimeLimit, number, time_limit
from ..schemas import document

EXAMPLES = [
    "tablerules readings just-desserts --quick",
    "tablerules readings just-desserts --retail-deck just_desserts_2015_deck.json --out readings-jd.txt",
    "tablerules readings just-desserts-2.3 --players 2 --max-states 50000 --json > lockstep.json",
    "tablerules readings all",
]
NOTES = ("Units: a state is a distinct position of the model (every-state walks) or a position of a random game; a "
         "move is a seat's move or a chance outcome; a part is one point where the two part at one state.  Budgets "
         "count states, games and moves, never seconds.  Each reading's author was given only its brief "
         "(readings/<name>/BRIEF.md, kept verbatim) and never saw the model.")


def add_parsers(sub: Any) -> None:
    p = add_command(sub, "readings", "run the model beside an independent reading; every difference, grouped and "
                                     "explained by the registered rulings",
                    "Run the model and an independent reading of the same rulebook in lockstep over every state of "
                    "small configurations and over seeded random games; record every point where they part; group the "
                    "differences by the model's decision point and clause; try every alternative of every registered "
                    "ruling on each group.  A group some alternative removes is that ruling found again; a group none "
                    "removes is a finding, printed with its shortest witness from the deal.",
                    EXAMPLES, NOTES, max_seconds_statuses("a finding: a group of differences that no registered "
                                                          "ruling's alternative explains"))
    p.add_argument("ruleset", choices=sorted(READINGS) + ["all"], metavar="RULESET",
                   help="a rule set with an independent reading (" + ", ".join(sorted(READINGS)) + "), or 'all'")
    p.add_argument("--quick", action="store_true",
                   help="one small configuration with every optional rule on, 3,000 states, 2 random games per player "
                        "count (what CI runs)")
    p.add_argument("--players", "-n", type=number(int, 0, MAX_PLAYERS), action="append", default=[], metavar="N",
                   help="only configurations with this many players; repeatable")
    p.add_argument("--max-states", type=number(int, 1, MAX_STATES), default=None, metavar="N",
                   help=f"states of one configuration's every-state walk (default {lockstep.Budget().max_states:,}; "
                        f"--quick {lockstep.QUICK.max_states:,})")
    p.add_argument("--games", type=number(int, 0, 1_000_000), default=None, metavar="N",
                   help=f"random games per player count and set of optional rules (default {lockstep.Budget().games}; "
                        f"--quick {lockstep.QUICK.games})")
    p.add_argument("--max-moves", type=number(int, 1, 1_000_000), default=None, metavar="N",
                   help=f"moves of one random game (default {lockstep.Budget().max_moves:,})")
    p.add_argument("--rounds", type=number(int, 1, 10), default=lockstep.ROUNDS, metavar="N",
                   help="rounds at most: the first with the model at its defaults, each next with the model set to the "
                        "alternatives that explained the differences so far, to walk past them (default %(default)s)")
    p.add_argument("--retail-deck", metavar="FILE", type=named_text,
                   help="the Just Desserts deck the random games use (default: $TABLERULES_RETAIL_DECK; without "
                        "either, none); Dishes plays its random games on the whole box of tiles")
    p.add_argument("--reading", metavar="MODULE[:CLASS]",
                   help="another reading to run, as a Python module with a class Engine (default: the rule set's own "
                        "in readings/)")
    p.add_argument("--out", metavar="FILE", help="write the report here, in one piece when complete")
    add_seed(p, 1, "the random games (game i plays seed + i)")
    add_max_seconds(p)
    add_json(p, "readings")
    p.set_defaults(run=run)


def budget_of(args: argparse.Namespace) -> lockstep.Budget:
    base = lockstep.QUICK if args.quick else lockstep.Budget()
    return lockstep.Budget(
        max_states=args.max_states if args.max_states is not None else base.max_states,
        games=args.games if args.games is not None else base.games,
        max_moves=args.max_moves if args.max_moves is not None else base.max_moves, seed=args.seed)


def run(args: argparse.Namespace) -> int:
    ids = sorted(READINGS) if args.ruleset == "all" else [args.ruleset]
    if args.out:
        check_writable_file(args.out, "--out")
    deck = args.retail_deck if args.retail_deck is not None else os.environ.get("TABLERULES_RETAIL_DECK") or None
    budget = budget_of(args)
    results, incomplete = [], ""
    for rid in ids:
        rules = registry.get(rid)
        bad = [n for n in args.players if n not in rules.player_counts]
        if bad:
            raise SetupError(f"--players {bad[0]}: {rid} allows {', '.join(map(str, rules.player_counts))}")
        if deck and rid in lockstep.USES_RETAIL_DECK:
            rules.load_components(deck)  # a bad deck file is one line before any work
        configs = lockstep.plan(rules, args.quick, deck, tuple(args.players))

        def done(w: Any, rid: str = rid) -> None:
            state = "complete" if w.complete else ("declined: " + w.declined if w.declined else "stopped by budget")
            aligned = f", aligned with {len(w.config.aligned)} rulings" if w.config.aligned else ""
            print(f"readings {rid} {w.config.label()} ({w.config.kind}{aligned}): {w.states:,} states, "
                  f"{w.parts:,} parts, {state}", file=sys.stderr, flush=True)

        try:
            with time_limit(args.max_seconds):
                results.append(lockstep.run(rules, configs, budget, args.reading, done, args.rounds))
        except TimeLimit:
            incomplete = f"stopped by --max-seconds {args.max_seconds:g} during {rid}"
            break
        except ReadingError as e:
            raise SetupError(str(e)) from None
    findings = sum(report.summary(r)["findings"] for r in results)
    status = EXIT_INCOMPLETE if incomplete else EXIT_FAIL if findings else EXIT_OK
    if args.json:
        emit_json(document("readings", {"rulesets": [report.body(r) for r in results], "incomplete": incomplete,
                                        "findings": findings, "exit_status": status}))
        return status
    buf = io.StringIO()
    for r in results:
        report.write(r, buf)
        buf.write("\n")
    if incomplete:
        buf.write(f"INCOMPLETE: {incomplete}\n")
    buf.write(reproduce_line(args) + "\n")
    if args.out:
        write_atomic(args.out, buf.getvalue())
        print(f"readings: report written to {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(buf.getvalue())
    return status
