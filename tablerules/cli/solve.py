"""`tablerules solve`: a whole game counted and solved exactly (proofs/exact/levels.py).

Prints what the exact engine found in tables (or, with ``--json``, one JSON document, the
schema ``solve`` in spec/schemas/).  Units are those of :mod:`tablerules.proofs.exact.levels`.
"""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from typing import Any

from tablerules.model import registry
from tablerules.model.core import SetupError, options_text

from tablerules.proofs.files import removed_unless_kept

from .common import MACHINE, add_max_seconds, declare_statuses, max_seconds_statuses
from ..limits import number
from ..report import table

SCHEMA_VERSION = 1
MAX_ENGINE_STATES = 10**15
"""Largest --max-states: far beyond any disk (72 bytes an engine state, docs/exact.rst)."""

EXAMPLES = """examples:
  tablerules solve dishes --players 2                      # the boxed game, every deal, default rulings
  tablerules solve dishes --players 2 --json > solve.json  # the same as one JSON document
  tablerules solve dishes --players 2 --deck 3x4 --ruling movable-stacks=any-stack
  tablerules solve dishes --players 2 --deal red,yellow,c3,c4,red,yellow/yellow,c3,c4,red,yellow,c3
  tablerules solve dishes --players 2 --deck 3x4 --trace longest   # and show a longest game
  tablerules solve dishes --players 3 --count-only --max-seconds 600 --executor dask
  tablerules solve dishes --players 2 --segment-rows 2000000   # each counting task holds at most ~2M rows

Units: table states (what the players see, the figures of the game), actions (flips and
placements; forced passes are not actions), and engine states (what the engine stores, for
progress and memory; not table states): see docs/exact.rst.

Time, on """ + MACHINE + """: the boxed two-player game, 44.9 s of solving, measured
2026-12-05 with nothing else running (the default's row of the --every-alternative run,
docs/exact.rst); one fixed --deal of it, 27 s for the whole command (25.2 s of solving),
measured 2026-12-06 with another job using one core (load average 2.2 to 2.6);
--every-alternative with --max-states 50000000 --partitions 4 (the command that writes
spec/solved/dishes-2p-box.json), 17 min 54 s, measured 2026-12-05 with nothing else running.
The first run on a machine also compiles the engine's loops first (not timed here).

Memory: without --segment-rows a counting task holds at most 256 MB of children and a merge
reads at most 512 MB of rows at once, but the rows a merge keeps and the values grow with the
level; with --segment-rows, at most ROWS rows at once (the boxed game counted: 183 MB per
worker process with --segment-rows 200000; docs/exact.rst sizes a cluster run from it).
"""

UNITS = ("a table state is whose turn it is plus, for every place, empty / clean / a dirty pile given by its top "
         "tile and its number of tiles; the start counts, a state where the player to move must pass counts, a "
         "turned tile waiting for its colour does not; an action is a flip of one clean tile or one (from place, "
         "to place) placement, forced passes are not actions")


STATUSES = max_seconds_statuses(None, "--max-states: the engine states stored passed the budget",
                                "a worker process died (killed by the system, most often for lack of memory)",
                                "--every-alternative: an alternative that one of these stopped")


def add_parser(sub: Any, setup_args: Any) -> None:
    s = sub.add_parser("solve", help="count and solve a whole game exactly (random and optimal play)",
                       description="Count every table state of a game and solve it exactly under uniform random "
                                   "play and optimal play, level by level (exact engine).",
                       epilog=EXAMPLES + "\n" + STATUSES.text(), formatter_class=argparse.RawDescriptionHelpFormatter)
    declare_statuses(s, STATUSES)
    setup_args(s, players_default=2, deck_help="tiles: 'box' (6 kinds x 4 colours, the default) or KINDSxCOLOURS "
               "(1-6 kinds, 1-4 colours, e.g. 3x4); only rule sets with a progress measure can be solved (dishes)")
    s.add_argument("--deal", metavar="DEAL", help="one fixed physical deal instead of every deal: per layout the "
                   "colours of its tiles in layout kind order, layouts separated by '/'")
    s.add_argument("--count-only", action="store_true",
                   help="count states only (no values; keeps nothing between levels)")
    s.add_argument("--executor", choices=("processes", "serial", "dask"), default="processes",
                   help="where the tasks run (default: a process per core)")
    s.add_argument("--workers", type=number(int, 1, 256), default=None, help="worker processes (default: one per core)")
    s.add_argument("--partitions", type=number(int, 1, 65536), default=None, metavar="N",
                   help="split every level into N partitions by a hash of the table state (default: two per worker); "
                        "each task holds one partition's states and children in memory, so more partitions mean "
                        "less memory per worker for large levels (at most 65,536)")
    s.add_argument("--segment-rows", type=number(int, 1, 1 << 40), default=None, metavar="ROWS",
                   help="bound what one counting task holds: parents read and children written in segments of "
                        "at most ROWS engine states, merged range by range (default: a whole partition at once); "
                        "the figures do not change; see docs/exact.rst for memory per task")
    s.add_argument("--scheduler", metavar="ADDRESS", help="dask scheduler address (default: a local cluster)")
    s.add_argument("--store", metavar="DIR", help="folder for the level files (default: a temporary folder; "
                   "on a multi-machine dask cluster, a shared folder)")
    s.add_argument("--max-states", type=number(int, 1, MAX_ENGINE_STATES), default=None,
                   help="state budget in engine states: stop at the end of the level where the engine states stored "
                        "pass this many (incomplete, exit status 3)")
    add_max_seconds(s)
    s.add_argument("--trace", choices=("longest",), help="also find a game again and show it: 'longest' = a game "
                   "with the most actions (searched once more after the count; no parent pointers are kept)")
    s.add_argument("--every-alternative", action="store_true",
                   help="solve the default and every ruling alternative that keeps the game finite (one at a time); "
                        "the rulings report reads the result from spec/solved/")
    s.add_argument("--out", metavar="FILE", help="only with --every-alternative: write its results to FILE (JSON; "
                   "for one solve, use --json > FILE)")
    s.add_argument("--json", action="store_true", help="print one JSON document (schema: solve; with "
                   "--every-alternative, the unversioned document spec/solved/ holds)")


def run(args: argparse.Namespace, build_setup: Any) -> int:
    from tablerules.proofs.exact.run import solve

    registry.require_kernel(args.ruleset)  # before the setup: its problems are beside the point
    rules, setup = build_setup(args)
    _check_options(args)
    if args.every_alternative:
        return _every_alternative(rules, setup, args)
    kern = registry.kernel(rules.id, setup, **({"deal": args.deal} if args.deal is not None else {}))
    run_on = _executor(args)
    # --store: what the run makes there stays only with a complete count (a full disk, a signal
    # or a limit leaves the folder as it was; the level files of a stopped run are no use)
    with removed_unless_kept(args.store) as keep:
        try:
            sol = solve(kern, name=rules.id, values=not args.count_only, run=run_on, parts=args.partitions,
                        store_root=args.store,
                        max_states=args.max_states, max_seconds=args.max_seconds, progress=_say,
                        first_moves=lambda: first_moves(rules, setup, kern), segment=args.segment_rows)
        finally:
            run_on.close()
        if sol.complete:
            keep()
    doc = document(rules, setup, kern, sol, args, run_on)
    if args.trace and not sol.complete:
        _say(f"no longest game: the search is incomplete (stopped by {sol.stopped})")
    if args.trace and sol.complete:
        from tablerules.proofs.exact.trace import longest_game

        _say("finding a longest game again")
        steps, end = longest_game(rules, setup, kern)
        doc["longest_game"] = {"steps": [step.text() for step in steps],
                               "actions": sum(1 for st in steps if st.actor != "CHANCE" and st.move != "pass"),
                               "outcome": rules.outcome(end).summary()}
    if args.json:
        json.dump(doc, sys.stdout, indent=1)
        print()
    else:
        print_report(doc, sol, options_text(rules.Options()))
        if "longest_game" in doc:
            g = doc["longest_game"]
            print(f"\na longest game ({g['actions']} actions; outcome: {g['outcome']}):")
            for i, text in enumerate(g["steps"], 1):
                print(f"  {i:3}. {text}")
    return 0 if sol.complete else 3


def _say(text: str) -> None:
    """A progress line on standard error."""
    print(f"solve: {text}", file=sys.stderr, flush=True)


def _check_options(args: argparse.Namespace) -> None:
    """Refuse, before any work, what the run would ignore or could only fail on at its end."""
    from tablerules.proofs.files import check_writable_file, check_writable_folder

    if args.max_states is not None and args.max_states <= 0:
        raise SetupError("--max-states must be positive")
    if args.workers is not None and not 1 <= args.workers <= 256:
        raise SetupError("--workers must be between 1 and 256")
    if args.scheduler is not None and args.executor != "dask":
        raise SetupError(f"--scheduler {args.scheduler}: a scheduler is for --executor dask")
    if args.workers is not None and args.executor == "serial":
        raise SetupError("--workers: --executor serial runs every task in this process")
    if args.workers is not None and args.scheduler is not None:
        raise SetupError("--workers: with --scheduler the cluster's own workers run the tasks")
    if args.every_alternative:
        ignored = [name for name, given in (("--deal", args.deal is not None), ("--ruling", args.ruling),
                                            ("--strict", args.strict), ("--count-only", args.count_only),
                                            ("--trace", args.trace),
                                            ("--store", args.store is not None)) if given]
        if ignored:
            raise SetupError(f"--every-alternative solves every deal under each alternative in turn: drop "
                             f"{', '.join(ignored)}")
    elif args.out is not None:
        raise SetupError(f"--out {args.out}: --out is for --every-alternative; for one solve, use --json > FILE")
    if args.out is not None:
        check_writable_file(args.out, "--out")
    if args.store is not None:
        check_writable_folder(args.store, "--store")


def _executor(args: argparse.Namespace) -> Any:
    """The executor the options ask for; a missing package or an unreachable scheduler is one line."""
    from tablerules.proofs.exact.run import executor

    try:
        return executor(args.executor, args.workers, args.scheduler)
    except ImportError as e:
        raise SetupError(f"--executor {args.executor}: {e.name} is not installed "
                         "(pip install 'dask[distributed]')") from None
    except (OSError, ValueError) as e:
        if args.scheduler is None:
            raise
        raise SetupError(f"--scheduler {args.scheduler}: cannot connect: {_one_line(e)}") from None


def _one_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _every_alternative(rules: Any, setup: Any, args: argparse.Namespace) -> int:
    from tablerules.proofs.files import write_atomic
    from tablerules.proofs.exact.impact import solve_alternatives

    run_on = _executor(args)
    try:
        doc = solve_alternatives(rules.id, setup.players, setup.components, run=run_on, parts=args.partitions,
                                 max_states=args.max_states, max_seconds=args.max_seconds, progress=_say,
                                 segment=args.segment_rows)
    finally:
        run_on.close()
    if args.out:
        write_atomic(args.out, json.dumps(doc, indent=1) + "\n")
    if args.json:
        json.dump(doc, sys.stdout, indent=1)
        print()
    else:
        table(((r["label"], "yes" if r["complete"] else f"no ({r['stopped']})",
                _short(r.get("random_play", {}).get("seat_among_losers")),
                _short(r.get("optimal_play", {}).get("seat_among_losers")),
                r.get("seconds", "-")) for r in doc["alternatives"]),
              header=("alternative", "solved", "random play: P(seat loses)", "optimal play: P(seat loses)", "seconds"),
              out=sys.stdout)
    return 0 if all(r["complete"] for r in doc["alternatives"]) else 3


def _short(values: list[str] | None) -> str:
    if not values:
        return "-"
    return ", ".join(f"{float(Fraction(v)):.4f}" for v in values)


def _tool_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tablerules")
    except PackageNotFoundError:  # pragma: no cover - a source tree
        return "unknown"


def first_moves(rules: Any, setup: Any, kern: Any) -> list[tuple[str, int, list[tuple[Any, Fraction]]]]:
    """The first actions at the real start (text, mover, each chance outcome as a canonical row)."""
    from tablerules.model.core import CHANCE

    state = rules.new_game(setup)
    while rules.to_move(state) is CHANCE:  # chance before play: take the most likely branch's first moves
        state = rules.apply(state, max(kern.chance(state), key=lambda mp: mp[1])[0])
    out = []
    for move in rules.legal_moves(state):
        nxt = rules.apply(state, move)
        outcomes = [(nxt, Fraction(1))]
        settled = []
        while outcomes:
            s, p = outcomes.pop()
            if rules.to_move(s) is CHANCE:
                outcomes += [(rules.apply(s, m), p * q) for m, q in kern.chance(s)]
            else:
                settled.append((kern.canonical(kern.encode(s)[None, :])[0], p))
        out.append((str(move), state.turn, settled))
    return out


def fraction_text(f: Fraction | None) -> str | None:
    return None if f is None else f"{f.numerator}/{f.denominator}"


def document(rules: Any, setup: Any, kern: Any, sol: Any, args: argparse.Namespace, run_on: Any) -> dict[str, Any]:
    """The JSON document (schema ``solve``, version SCHEMA_VERSION)."""
    symmetric = getattr(kern, "symmetric", True)
    doc: dict[str, Any] = {
        "schema": f"tablerules/solve/{SCHEMA_VERSION}", "tablerules": _tool_version(),
        "ruleset": rules.id, "players": setup.players, "options": options_text(setup.options),
        "components": setup.components.name, "deal": "every deal" if args.deal is None else args.deal,
        "complete": sol.complete, "stopped": sol.stopped or None, "units": UNITS,
        "table_states": sol.total("table_states"),
        "table_states_by_actions": [lv.table_states for lv in sol.levels],
        "up_to_colours": sol.total("up_to_colours") if symmetric else None,
        "up_to_colours_and_kinds": sol.total("up_to_colours_and_kinds") if symmetric else None,
        "terminal_states": sol.total("terminal_states"),
        "longest_game_actions": sol.longest_game_actions,
        "engine_states": sol.total("nodes"),
        "forced_pass_states": sol.total("passes"),
        "random_play": None, "optimal_play": None,
        "seconds": round(sol.seconds, 1), "peak_memory_mb": round(sol.peak_memory_mb, 1),
        "exit_status": 0 if sol.complete else 3,
        "executor": {"name": run_on.name, "workers": run_on.workers},
    }
    if sol.random_play is not None:
        r = sol.random_play
        doc["random_play"] = {
            "seat_among_losers": [fraction_text(x) for x in r.among_losers],
            "seat_sole_loser": [fraction_text(x) for x in r.sole_loser],
            "expected_actions": fraction_text(r.expected_actions),
            "meaning": "the player to move picks each legal action with equal probability",
        }
    if sol.optimal_play is not None:
        o = sol.optimal_play
        doc["optimal_play"] = {
            "seat_among_losers": [fraction_text(x) for x in o.among_losers],
            "seat_sole_loser": [fraction_text(x) for x in o.sole_loser],
            "expected_actions": fraction_text(o.expected_actions),
            "first_player_advantage": first_player_advantage(setup, o.among_losers),
            "tie_rule": ("own P(among losers) smallest; then own P(sole loser) smallest; then the others' total "
                         "P(among losers) largest; then fewest expected actions; then the value vector smallest "
                         "in seat order"),
            "first_moves": [{"move": m.move,
                             "seat_among_losers": [fraction_text(x) for x in m.values.among_losers],
                             "expected_actions": fraction_text(m.values.expected_actions)} for m in sol.first_moves],
            "best_first_moves": best_first_moves(sol),
        }
    return doc


def first_player_advantage(setup: Any, among_losers: Any) -> bool | None:
    """Does seat 0, which plays first, lose strictly less often than every other seat under
    optimal play?  None where chance picks who plays first (dishes.ruling.first-player)."""
    if getattr(setup.options, "first_player", "seat-0") != "seat-0":
        return None
    return bool(among_losers[0] < min(among_losers[1:setup.players]))


def best_first_moves(sol: Any) -> list[str]:
    """The first moves the player to move prefers under optimal play (the engine's tie rule)."""
    from tablerules.proofs.exact.reference import preference

    if not sol.first_moves:
        return []
    n = sol.players

    def key(m: Any) -> tuple:
        v = m.values
        return preference(m.mover, list(v.among_losers) + list(v.sole_loser) + [v.expected_actions], n)

    best = min(key(m) for m in sol.first_moves)
    return [m.move for m in sol.first_moves if key(m) == best]


def _num(text: str | None) -> str:
    if text is None:
        return "-"
    p, q = (int(x) for x in text.split("/"))
    f = Fraction(p, q)
    digits = len(str(q))
    exact = f" (exact: {text})" if digits <= 12 else f" (exact, {digits}-digit denominator: --json)"
    return f"{float(f):.6f}" + exact


def print_report(doc: dict[str, Any], sol: Any, default_options: dict[str, Any]) -> None:
    print(f"{doc['ruleset']}, {doc['players']} players, {doc['components']}, {doc['deal']}")
    changed = {k: v for k, v in doc["options"].items() if default_options.get(k) != v}
    if changed:
        table(sorted(changed.items()), header=("ruling (not the default)", "alternative"), out=sys.stdout)
    else:
        print("default rulings")
    status = "complete" if doc["complete"] else f"INCOMPLETE: stopped by {doc['stopped']}"
    print(f"\nexact engine: {status}; {doc['seconds']} s; peak memory {doc['peak_memory_mb']:,.0f} MB; "
          f"{doc['executor']['name']} ({doc['executor']['workers']} "
          f"worker{'s' if doc['executor']['workers'] != 1 else ''})")
    print(f"units: {doc['units']}\n")
    rows = [("table states", f"{doc['table_states']:,}")]
    if doc["up_to_colours"] is not None:
        rows += [("  up to colours", f"{doc['up_to_colours']:,}"),
                 ("  up to colours and kinds", f"{doc['up_to_colours_and_kinds']:,}")]
    rows += [("  of which the player to move must pass", f"{doc['forced_pass_states']:,}"),
             ("terminal table states", f"{doc['terminal_states']:,}"),
             ("longest game (actions)",
              doc["longest_game_actions"] if doc["longest_game_actions"] is not None else "-"),
             ("engine states (canonical; table state + memory)", f"{doc['engine_states']:,}")]
    table(rows, out=sys.stdout)
    print()
    symmetric = doc["up_to_colours"] is not None
    table(((a, f"{lv.table_states:,}", f"{lv.up_to_colours_and_kinds:,}" if symmetric else "-",
            f"{lv.terminal_states:,}",
            f"{lv.nodes:,}") for a, lv in enumerate(sol.levels)),
          header=("actions played", "table states", "up to colours+kinds", "terminal", "engine states"), out=sys.stdout)
    for name, title in (("random_play", "uniform random play"), ("optimal_play", "optimal play")):
        v = doc.get(name)
        if not v:
            continue
        print(f"\n{title}:")
        pairs = enumerate(zip(v["seat_among_losers"], v["seat_sole_loser"]))
        table(((f"seat {i}", _num(a), _num(b)) for i, (a, b) in pairs),
              header=("seat", "P(does the dishes, ties included)", "P(sole loser)"), out=sys.stdout)
        print(f"expected actions: {_num(v['expected_actions'])}")
        if name == "optimal_play":
            print(f"tie rule: {v['tie_rule']}")
            advantage = v["first_player_advantage"]
            print("first player has an advantage (seat 0 loses strictly less often than every other seat): "
                  + ("- (chance picks the first player)" if advantage is None else "yes" if advantage else "no"))
            table(((m["move"], _num(m["seat_among_losers"][0]), _num(m["expected_actions"])) for m in v["first_moves"]),
                  header=("first move", "P(seat 0 does the dishes)", "expected actions"), out=sys.stdout)
            print(f"best first moves: {', '.join(v['best_first_moves']) or '-'}")
