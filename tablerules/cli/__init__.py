"""The `tablerules` command line.

Every command lives in its own module (``add_parsers`` + ``run``); this module wires them
together and turns every way a run can end into an exit status (see
:mod:`tablerules.limits`): 0 nothing wrong, 1 a rule broken or a check failed, 2 bad input
or an output that cannot be written (one line on standard error, never a traceback), 3
incomplete, 130 interrupted by Ctrl-C, 143 by SIGTERM.  A command module may instead offer ``add_parser(subparsers,
setup_args)`` and ``run(args, build_setup)`` (the setup arguments and the function that reads
them), or only ``main(argv)``, which gets the rest of the command line as it is.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
import threading
from typing import Any, Sequence

from tablerules.model.core import SetupError
from tablerules.spec import SpecError

from .. import console
from .common import Parser, UsageError, add_setup_args, build_setup
from tablerules.proofs.files import OutputError, describe
from ..limits import (
    EXIT_INCOMPLETE, EXIT_INTERRUPTED, EXIT_TERMINATED, EXIT_USAGE, STATUS_TEXT, Stop, TimeLimit, handled, interrupt,
    interrupted_status, interrupted_text, signalled, unraisable_hook,
)
from ..schemas import tool_version

COMMANDS: tuple[tuple[str, str], ...] = (
    ("check", "tablerules.cli.check"),
    ("conform", "tablerules.cli.conform"),
    ("explain", "tablerules.cli.explain"),
    ("explore", "tablerules.cli.explore"),
    ("prove", "tablerules.cli.check"),
    ("list", "tablerules.cli.listing"),
    ("mutants", "tablerules.cli.mutants"),
    ("readings", "tablerules.cli.readings"),
    ("rulings", "tablerules.cli.rulings"),
    ("solve", "tablerules.cli.solve"),
    ("simulate", "tablerules.cli.simulate"),
    ("vectors", "tablerules.cli.vectors"),
    ("judge", "tablerules.cli.judge"),
    ("workbench", "tablerules.cli.workbench"),
)
"""Command name -> module.  A module missing from this installation leaves its command out."""

EXAMPLES = """examples:
  tablerules check                                  # everything, on the defaults
  tablerules check dishes --quick                   # one rule set, smaller budgets
  tablerules list dishes                            # its rulings, options and tile sets
  tablerules explore dishes --players 2 --deck 3x4 --strict
  tablerules rulings dishes --out rulings.md
  tablerules vectors verify mygame.itf.json
  tablerules explain poach-back                     # a clause: wording, rulebook lines, code, tests
  tablerules judge just-desserts game.itf.json --move "pass"   # may this move be made here?

`tablerules COMMAND --help` shows each command's options and examples; --json on check, conform,
explain, explore, judge, list, mutants, prove, rulings, simulate, solve and vectors verify writes a document
described by spec/schemas/<command>.schema.json.

""" + STATUS_TEXT


def parser() -> Parser:
    p = Parser(prog="tablerules", description="Check the rules of tabletop games: explore them, prove facts about "
                                             "them, find where the rulebook is silent, verify game logs.",
               epilog=EXAMPLES)
    p.add_argument("--version", action="version", version=f"tablerules {tool_version()}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    added: set[str] = set()
    for name, module in COMMANDS:
        if module in added:
            continue
        mod = _module(module)
        if mod is None:
            continue
        if hasattr(mod, "add_parsers"):
            mod.add_parsers(sub)
            added.add(module)
        elif hasattr(mod, "add_parser") and hasattr(mod, "run"):  # add_parser(sub, setup_args); run(args, build_setup)
            mod.add_parser(sub, add_setup_args)
            sub.choices[name].set_defaults(run=lambda args, mod=mod: mod.run(args, lambda a: build_setup(a)[:2]))
        elif hasattr(mod, "main"):
            x = sub.add_parser(name, help=(mod.__doc__ or name).strip().splitlines()[0], add_help=False)
            x.add_argument("rest", nargs=argparse.REMAINDER)
            x.set_defaults(run=lambda args, mod=mod: mod.main(args.rest))
    return p


def _module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name == name:
            return None
        raise


def main(argv: Sequence[str] | None = None, *, last: bool = False) -> int:
    """Run one command; its exit status (see the module docstring).  ``last``: nothing runs
    after this in the process, so a signal that comes once the work is done is ignored."""
    if threading.current_thread() is not threading.main_thread():
        return _main(argv)
    saved = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT), sys.unraisablehook
    if not last:  # the program's entry point took the signals before its imports: keep what came since
        Stop.state = Stop.signum = None
    signal.signal(signal.SIGTERM, interrupt)
    signal.signal(signal.SIGINT, interrupt)
    sys.unraisablehook = unraisable_hook(saved[2])
    try:
        with console.heartbeat():
            status = _main(argv)
        if signalled() and status not in (EXIT_INTERRUPTED, EXIT_TERMINATED):  # swallowed on the way to an error
            raise KeyboardInterrupt
        return status
    except KeyboardInterrupt:  # swallowed below, or after the command returned, before this function did
        return _interrupted()
    except Exception:
        if not signalled():
            raise
        # what a signal left behind when the code it landed in turned it into another error (a
        # numba compile cut short raises RuntimeError later): the signal ends the run, not the error
        return _interrupted()
    finally:
        if last:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            # CPython remembers a KeyboardInterrupt that ended code run from a string (the
            # functions dataclasses and namedtuple build with exec) even when it was caught,
            # and under `python -m` then exits by SIGINT instead of with our status.  The
            # next string run clears that memory.
            exec("pass")  # noqa: S102 - a constant string
        else:
            signal.signal(signal.SIGTERM, saved[0])
            signal.signal(signal.SIGINT, saved[1])
        sys.unraisablehook = saved[2]



def _main(argv: Sequence[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        try:
            p = parser()
            args = p.parse_args(argv)
        except SystemExit as e:  # --help, --version
            return int(e.code or 0)
        args.argv = argv  # what the run was asked: a report's reproduce line (common.reproduce_line)
        console.activity("tablerules " + " ".join(argv)[:120])
        if getattr(args, "run", None) is None:
            raise UsageError("tablerules: say which command to run (`tablerules --help` lists them)")
        status = args.run(args)
        sys.stdout.flush()
        if status in (EXIT_INTERRUPTED, EXIT_TERMINATED) or signalled():  # stopped by a signal, or one swallowed below
            raise KeyboardInterrupt
        return status
    except UsageError as e:
        return _error(str(e) if str(e).startswith("tablerules") else f"tablerules: {e}")
    except (SetupError, SpecError, OutputError) as e:
        return _error(f"tablerules: {_one_line(e)}")
    except KeyboardInterrupt:  # the command's own report (if any) says what ran; this line says why it stopped
        return _interrupted()
    except TimeLimit:  # a limit that rang outside any command's own handling
        print("tablerules: incomplete: stopped by the time limit", file=sys.stderr)
        return EXIT_INCOMPLETE
    except BrokenPipeError:  # the reader went away (`| head`): the output cannot be written, and nobody is left to tell
        _silence_stdout()
        return EXIT_USAGE
    except OSError as e:
        where = getattr(e, "filename", None)
        if where:  # a file the command read or wrote, not standard output
            return _error(f"tablerules: {where}: {describe(e)}")
        _silence_stdout()
        return _error(f"tablerules: cannot write the output: {describe(e)}")


def _interrupted() -> int:
    """The run ends on the signal that came: one line, exit status 130 (Ctrl-C) or 143 (SIGTERM)."""
    handled()
    print(f"tablerules: {interrupted_text()}", file=sys.stderr)
    return interrupted_status()


def _one_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _error(message: str) -> int:
    """One line on standard error: `tablerules explore: error: ...`."""
    head, sep, rest = message.partition(": ")
    line = f"{head}: error: {rest}" if sep and head.startswith("tablerules") else f"tablerules: error: {message}"
    print(line.splitlines()[0], file=sys.stderr)
    return EXIT_USAGE


def _silence_stdout() -> None:
    """Point standard output at /dev/null so that the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":  # pragma: no cover - `python -m tablerules` is the way in (tablerules/__main__.py)
    sys.exit(main(last=True))
