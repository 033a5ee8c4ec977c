"""The `tablerules` command line.

Every error a user can cause (unknown rule set, ruling, option or move; a malformed file)
ends in one line on standard error and exit status 2; rule violations found by a check
end in status 1.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from typing import Any, Sequence

from tablerules.model import registry
from tablerules.model.core import SetupError, parse_options, strict_options
from tablerules.spec import SpecError

from .report import Progress, table


class UsageError(Exception):
    """Bad command-line input; printed as one line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not usage + message
        raise UsageError(message if self.prog == "tablerules" else f"{self.prog.split()[-1]}: {message}")


def _add_setup_args(p: argparse.ArgumentParser, players_default: int | None = None) -> None:
    p.add_argument("ruleset", help="rule set id: " + ", ".join(registry.ruleset_ids()))
    p.add_argument("--players", "-n", type=int, default=players_default, help="number of players")
    p.add_argument("--ruling", "-r", action="append", default=[], metavar="ID=ALT",
                   help="choose a ruling alternative (full or short ruling id); repeatable")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME",
                   help="switch on an optional (advanced) rule; repeatable")
    p.add_argument("--strict", action="store_true",
                   help="every ruling with a 'strict' alternative raises a RuleGap where the text is silent")
    p.add_argument("--deck", metavar="FILE|NAME", help="components file (or embedded deck name) for rule sets with decks")


def build_setup(args: argparse.Namespace) -> tuple[Any, Any]:
    """(RuleSet, Setup) from the common arguments; SetupError on bad input."""
    rules = registry.get(args.ruleset)
    base = strict_options(rules.Options) if args.strict else None
    options = parse_options(rules.Options, args.ruling, base=base, variants=args.option)
    components = None
    if args.deck:
        if rules.load_components is None:
            raise SetupError(f"{rules.id}: --deck is not used by this rule set")
        components = rules.load_components(args.deck)
    players = args.players if args.players is not None else rules.player_counts[0]
    return rules, rules.setup(players, options, components)


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="tablerules", description="Check the rules of tabletop games.")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)

    c = sub.add_parser("check", help="run the whole verification on the defaults and print a report")
    c.add_argument("--ruleset", action="append", default=[], help="only this rule set (repeatable)")
    c.add_argument("--quick", action="store_true", help="smaller budgets (about a fifth of the time)")
    c.add_argument("--retail-deck", metavar="FILE", help="also check facts on this deck file (default: $TABLERULES_RETAIL_DECK)")
    c.add_argument("--scale", type=float, default=1.0, help="multiply the default time budgets")

    e = sub.add_parser("explore", help="explore one configuration breadth-first")
    _add_setup_args(e)
    e.add_argument("--symmetry", default=None, help="symmetry reduction, e.g. colours+types (default: the rule set's)")
    e.add_argument("--no-symmetry", action="store_true", help="explore without symmetry reduction")
    e.add_argument("--max-states", type=int, default=2_000_000)
    e.add_argument("--max-seconds", type=float, default=120.0)
    e.add_argument("--graph", action="store_true", help="networkx pass: can every state reach an end; longest game")

    from .solve_cli import add_parser as add_solve

    add_solve(sub, _add_setup_args)

    pr = sub.add_parser("prove", help="run a rule set's z3 proofs and compare with the expected results")
    pr.add_argument("ruleset")

    for name, help_text in (("rulings", "find every gap and divergence, with witness traces"),
                            ("vectors", "generate or verify reference test vectors (ITF traces)")):
        x = sub.add_parser(name, help=help_text, add_help=False)
        x.add_argument("rest", nargs=argparse.REMAINDER)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] in ("rulings", "vectors"):  # their own parsers take every argument, --help too
            return _dispatch(argparse.Namespace(command=argv[0], rest=argv[1:]))
        args = parser().parse_args(argv)
        if args.command is None:
            parser().print_help()
            return 2
        return _dispatch(args)
    except UsageError as e:
        print(f"tablerules: error: {e}", file=sys.stderr)
        return 2
    except (SetupError, SpecError) as e:
        print(f"tablerules: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("tablerules: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "check":
        from .check import run_check

        return run_check(args)
    if args.command == "explore":
        return _explore(args)
    if args.command == "solve":
        from .solve_cli import run as run_solve

        return run_solve(args, build_setup)
    if args.command == "prove":
        from .check import run_prove

        return run_prove(args.ruleset)
    module = {"rulings": "tablerules.rulings_cli", "vectors": "tablerules.vectors_cli"}[args.command]
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name == module:
            raise UsageError(f"'{args.command}' is not available in this version") from None
        raise
    return mod.main(args.rest)


def _explore(args: argparse.Namespace) -> int:
    from tablerules.proofs.explorer import Budget, explore, finding_traces, graph_analysis

    rules, setup = build_setup(args)
    symmetry = None if args.no_symmetry else (args.symmetry or getattr(rules, "default_symmetry", None))
    if symmetry and symmetry not in rules.symmetries:
        for part in symmetry.split("+"):
            if part not in rules.symmetries:
                raise SetupError(f"--symmetry: unknown symmetry {part!r} for {rules.id} (known: {', '.join(rules.symmetries) or 'none'})")
    if args.max_states <= 0 or args.max_seconds <= 0:
        raise SetupError("--max-states and --max-seconds must be positive")
    label = f"explore {rules.id} {setup.players}p"
    bar = Progress(label)
    t0 = time.perf_counter()
    ex = explore(rules, [rules.new_game(setup)], symmetry=symmetry, budget=Budget(args.max_states, args.max_seconds),
                 keep_graph=args.graph, progress=bar)
    bar.done()
    print(f"{rules.title}: {setup.players} players")
    from tablerules.model.core import options_text

    table(sorted(options_text(setup.options).items()), header=("ruling / option", "alternative"), out=sys.stdout)
    print()
    rows = ex.table()
    if args.graph:
        if ex.complete:
            gr = graph_analysis(ex)
            rows += [("every state can reach an end", "yes" if not gr.traps else f"NO ({gr.traps:,} traps)"),
                     ("longest game", "unbounded (cycle)" if gr.longest is None else f"{gr.longest} steps")]
        else:
            rows.append(("graph analysis", "skipped: exploration incomplete"))
    table(rows, out=sys.stdout)
    if ex.outcomes:
        print()
        total = sum(ex.outcomes.values())
        table(((k, f"{v:,}", f"{100 * v / total:.1f}%") for k, v in ex.outcomes.most_common()),
              header=("outcome", "terminal states", "share"), out=sys.stdout)
    findings = finding_traces(ex)
    bad = 0
    for f in findings:
        bad += f.kind != "gap" or not args.strict
        print(f"\n{f.kind}: {f.key} [{f.clause}] x{ex.finding_counts[(f.kind, f.key)]:,}: {f.detail}")
        for i, step in enumerate(f.trace, 1):
            print(f"  {i:3}. {step.text()}")
        if f.move is not None:
            print(f"  {len(f.trace) + 1:3}. {f.move}  <- raises here")
    print(f"\n{time.perf_counter() - t0:.1f}s; {ex.coverage()}")
    if args.strict and any(f.kind == "gap" for f in findings):
        print("strict mode: gaps listed above are places where the rulebook is silent (see `tablerules rulings`).")
    return 1 if bad else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
