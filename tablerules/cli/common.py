"""What every command shares: the argument parser, setup arguments, JSON output, dedup.

A command module offers ``add_parser(subparsers)`` (which sets ``run`` as the parser's
default) and its ``run(args) -> exit status``; :mod:`tablerules.cli` wires them together.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from typing import Any, Iterable, Sequence

from tablerules.model import decks, registry
from tablerules.model.core import SetupError, parse_options, strict_options

from ..limits import BY_MAX_SECONDS, MAX_ARGUMENT, MAX_SECONDS, NO_VERDICT, Statuses, number


MAX_PLAYERS = 1000
"""Largest --players a command reads (each rule set then says which counts it allows)."""
MACHINE = "2 cores of an Intel Xeon, 23 GB of memory"
"""Where the run times the --help texts and the README state were measured."""


def measured(when: str, load: str) -> str:
    """`measured 2026-12-03 on 2 cores of an Intel Xeon, 23 GB of memory, with other jobs running`:
    when, where and under what load a run time was measured (a figure, not a limit)."""
    return f"measured {when} on {MACHINE}, {load}"


MEASURED = measured("2026-12-03", "with other jobs running")
"""When the run times of explore and simulate were measured."""


class UsageError(Exception):
    """Bad command-line input: one line on standard error, exit status 2."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (``tablerules explore: error: ...``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # one line, not usage + message
        raise UsageError(f"{self.prog}: {message}")

    def _print_message(self, message: str, file: Any = None) -> None:
        """--help and --version: argparse would swallow a failed write and exit 0 with nothing
        written; here it fails as any output that cannot be written does (exit status 2)."""
        if message:
            (file or sys.stdout).write(message)


def epilog(examples: Sequence[str], notes: str = "", statuses: Statuses = NO_VERDICT) -> str:
    """The text under a command's options: its examples, notes, and the exit statuses it can return."""
    text = "examples:\n" + "\n".join(f"  {e}" for e in examples)
    if notes:
        text += "\n\n" + notes
    return text + "\n\n" + statuses.text()


def add_command(sub: Any, name: str, help_text: str, description: str, examples: Sequence[str], notes: str = "",
                statuses: Statuses = NO_VERDICT) -> Parser:
    """A subcommand whose --help ends with its examples, notes and exit statuses (``statuses``:
    the ones it can return, with its own causes; kept on the parser as the default ``statuses``)."""
    p = sub.add_parser(name, help=help_text, description=description, epilog=epilog(examples, notes, statuses))
    declare_statuses(p, statuses)
    return p


def declare_statuses(p: argparse.ArgumentParser, statuses: Statuses) -> None:
    """Record on ``p`` the exit statuses its command can return (the command line holds it to them)."""
    p.set_defaults(statuses=statuses)


def max_seconds_statuses(fail: str | None, *other: str) -> Statuses:
    """The statuses of a command with --max-seconds: 3 when the limit stopped it, or for ``other`` causes."""
    return Statuses(fail=fail, incomplete=(BY_MAX_SECONDS, *other))


def named_error(text: str) -> str:
    """Why ``text`` names nothing: empty, or too long."""
    return "empty: name a deck, a tile set or a file" if not text else f"longer than {MAX_ARGUMENT:,} characters"


def named_text(text: str) -> str:
    """An argparse ``type`` for a value that names something (a deck, a tile set, a file): not
    empty (an empty --deck used to mean the default components, silently), at most MAX_ARGUMENT
    characters."""
    if not text or len(text) > MAX_ARGUMENT:
        raise argparse.ArgumentTypeError(named_error(text))
    return text


def ruleset_arg(text: str) -> str:
    """An argparse ``type`` for a rule set id."""
    if text not in registry.ENTRIES:
        raise argparse.ArgumentTypeError(f"unknown rule set {text!r} (known: {', '.join(registry.ruleset_ids())})")
    return text


def unique(items: Iterable[str]) -> list[str]:
    """Items in their first order, each once (a rule set named twice runs once)."""
    out: list[str] = []
    for item in items:
        if item not in out:
            out.append(item)
    return out


def add_json(p: argparse.ArgumentParser, command: str) -> None:
    p.add_argument(
        "--json", action="store_true",
        help=f"write the result as one JSON document on standard output (schema: spec/schemas/{command}.schema.json)",
    )


def add_max_seconds(p: argparse.ArgumentParser, default: float | None = None) -> None:
    p.add_argument("--max-seconds", type=number(float, 0, MAX_SECONDS), default=default, metavar="S",
                   help="wall-clock limit: stops the run and reports it incomplete (exit status 3); never decides a "
                        f"verdict (at most {MAX_SECONDS:,}; default: {'none' if default is None else f'{default:g}'})")


def add_seed(p: argparse.ArgumentParser, default: int, what: str) -> None:
    """--seed S: the seed of a command's sampling (``what``: which figures it decides); the
    report carries the line that reproduces them (:func:`reproduce_line`)."""
    p.add_argument("--seed", type=number(int, 0, 2**63 - 1), default=default, metavar="S",
                   help=f"the random seed of {what}: the same seed gives the same figures, and the report names "
                        f"the command line that reproduces them (default {default})")


def reproduce_line(args: argparse.Namespace) -> str:
    """`reproduce: tablerules rulings dishes --quick --seed 7`: the command line of this run
    with its seed spelled out (and without --out, --json or --out-itf, which change where the
    figures go, not what they are)."""
    words = list(getattr(args, "argv", None) or [])
    kept: list[str] = []
    skip = False
    for w in words:
        if skip:
            skip = False
            continue
        name = w.split("=", 1)[0]
        if name in ("--seed", "--out", "--out-itf") or name == "--json":
            skip = "=" not in w and name != "--json"
            continue
        kept.append(w)
    return "reproduce: tablerules " + shlex.join(kept + ["--seed", str(args.seed)])


DECK_LIMITS = (f"at most {decks.MAX_DECK_BYTES // 1_000_000} MB, {decks.MAX_DESSERT_KINDS} kinds of dessert, "
               f"{decks.MAX_DESSERT_CARDS} dessert cards, {decks.MAX_COPIES} copies of one dessert, "
               f"{decks.MAX_GUESTS} guests, {decks.MAX_SERVINGS:,} ways to serve one guest with no card to spare, "
               "card ids in ASCII letters, digits and _")
"""The limits on a deck file, as --help states them."""


def add_setup_args(
    p: argparse.ArgumentParser, players_default: int | None = None, deck_help: str | None = None
) -> None:
    """RULESET, --players, --ruling, --option, --strict, --deck (``deck_help``: what --deck
    takes, where a command accepts fewer components than the rule sets know)."""
    p.add_argument("ruleset", type=ruleset_arg, help="rule set id: " + ", ".join(registry.ruleset_ids()))
    p.add_argument("--players", "-n", type=number(int, 0, MAX_PLAYERS), default=players_default,
                   help="number of players (default: " + (str(players_default) if players_default else
                                                          "the fewest the rule set allows") + ")")
    p.add_argument(
        "--ruling", "-r", action="append", default=[], metavar="ID=ALT",
        help="choose a ruling alternative (full or short ruling id); repeatable; see `tablerules list RULESET`",
    )
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME",
                   help="switch on an optional (advanced) rule; repeatable")
    p.add_argument("--strict", action="store_true",
                   help="every ruling with a 'strict' alternative raises a RuleGap where the text is silent")
    p.add_argument("--deck", metavar="FILE|NAME", type=named_text,
                   help=deck_help or "components: for dishes a tile set 'box' or KINDSxCOLOURS (1-6 kinds, 1-4 "
                                     "colours, "
                        f"e.g. 3x4); for Just Desserts an embedded deck name or a deck file ({DECK_LIMITS})")


def build_setup(args: argparse.Namespace) -> tuple[Any, Any, str]:
    """(RuleSet, Setup, what the components are) from the setup arguments; SetupError on bad input."""
    rules = registry.get(args.ruleset)
    base = strict_options(rules.Options) if args.strict else None
    options = parse_options(rules.Options, args.ruling, base=base, variants=args.option)
    components = load_components(rules, args.deck) if args.deck is not None else None
    players = args.players if args.players is not None else rules.player_counts[0]
    setup = rules.setup(players, options, components)
    return rules, setup, components_text(setup, args.deck)


def load_components(rules: Any, text: str, option: str = "--deck") -> Any:
    """The components ``text`` names (``--deck``); SetupError, one line, for anything else."""
    if rules.load_components is None:
        raise SetupError(f"{rules.id}: {option} is not used by this rule set")
    if not text or len(text) > MAX_ARGUMENT:
        raise SetupError(f"{option} {text[:60]!r}: {named_error(text)}")
    try:
        return rules.load_components(text)
    except SetupError:
        raise
    except (ValueError, OSError):  # a loader that trips over odd text must still give one line
        raise SetupError(
            f"{option} {text[:60]!r}: not understood (`tablerules list {rules.id}` shows what it takes)"
        ) from None


def components_text(setup: Any, argument: str | None = None) -> str:
    """`tile set box (6 kinds x 4 colours)`, `deck jd-rivals`, ...: what a run played with."""
    comp = setup.components
    if comp is None:
        return "no components"
    types, colours = getattr(comp, "types", None), getattr(comp, "colours", None)
    if types is not None and colours is not None:
        return f"tile set {comp.name} ({types} kinds x {colours} colours)"
    name = getattr(comp, "name", str(comp))
    source = f" from {argument}" if argument and argument != name else ""
    return f"deck {name}{source}"


def emit_json(document: dict[str, Any]) -> None:
    """Write a JSON document (and a newline) on standard output."""
    sys.stdout.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
