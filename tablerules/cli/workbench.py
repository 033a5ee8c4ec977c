"""`tablerules workbench [--deck FILE] [--port N]`: the judge's workbench, a local web page.

Starts a web application on this machine (127.0.0.1 unless --host says otherwise) and prints
its address; open it in a browser.  In the page: choose a rule set, players, deck, every
ruling's alternative and a seed; play the legal moves and chance outcomes on a drawn position;
step back through the history; load a game from an ITF vector or a text log, or open a
ruling's witness; ask whether a move may be made (the answer ``tablerules judge`` gives); compare
two alternatives of a ruling side by side; export the line as an ITF vector and as a link
(:mod:`tablerules.workbench`).  Ctrl-C stops it.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path
from typing import Any

from ..limits import NO_VERDICT, number
from .common import UsageError, add_command

EXAMPLES = [
    "tablerules workbench",
    "tablerules workbench --port 8200",
    "tablerules workbench --deck ../shared/data/just_desserts_2015_deck.json   # the retail cards beside the teaching "
    "decks",
]
EXTRA = "pip install 'tablerules[workbench]'"
DEFAULT_PORT = 8150
NOTES = ("Needs the optional extra (starlette and uvicorn): " + EXTRA + ".  The page and everything it loads are "
         "served from this installation; nothing is fetched from elsewhere.  The server keeps at most 64 games (one "
         "per tab) and reads at most 4 MiB a request.  Measured on this project's 2-core machine with other jobs "
         "running (2026-12-06): the address is printed 2.6 to 4.2 s after the command starts; in headless Chromium, "
         "opening the page, setting up Just Desserts with the advanced rules, clicking the 11 moves of the "
         "poach-back question and asking it took 6.5 to 8.1 s, the answer itself 0.07 to 0.18 s.")


def add_parsers(sub: Any) -> None:
    p = add_command(sub, "workbench", "the judge's workbench in the browser: play, ask, compare, export",
                    "Start the judge's workbench, a local web page over the rules: choose a setup, play or load a "
                    "game, ask whether a move may be made, compare a ruling's alternatives, export the line.",
                    EXAMPLES, NOTES, NO_VERDICT)
    p.add_argument("--deck", metavar="FILE",
                   help="a Just Desserts deck file (the schema of model/decks.py), offered beside the teaching decks")
    p.add_argument("--port", type=number(int, 0, 65535), default=DEFAULT_PORT, metavar="N",
                   help=f"the port to listen on (default {DEFAULT_PORT}; 0: any free port)")
    p.add_argument("--host", default="127.0.0.1", metavar="ADDRESS",
                   help="the address to listen on (default 127.0.0.1: this machine only; the page can be reached "
                        "from elsewhere only if told so, e.g. 0.0.0.0)")
    p.set_defaults(run=run)


def missing_extra() -> list[str]:
    """The modules of the extra that cannot be imported here."""
    missing = []
    for name in ("starlette", "uvicorn"):
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    return missing


def _start_deck(text: str | None) -> Any:
    from tablerules.model import decks
    from tablerules.workbench.catalog import StartDeck

    if text is None:
        return None
    path = Path(text)
    if not path.is_file():
        raise UsageError(f"workbench: --deck {text[:80]!r}: no such file (the teaching decks are offered anyway)")
    deck = decks.load_deck(path)  # DeckError: one line naming the file and card, exit 2
    return StartDeck(deck.name, str(path.resolve()), deck)


def run(args: argparse.Namespace) -> int:
    missing = missing_extra()
    if missing:
        raise UsageError(f"workbench: needs {' and '.join(missing)}, which are not installed: {EXTRA}")
    from tablerules.workbench import serving
    from tablerules.workbench.app import create_app
    from tablerules.workbench.catalog import Catalog

    from .. import console

    catalog = Catalog(_start_deck(args.deck))
    loopback = args.host in ("127.0.0.1", "localhost", "::1")
    try:
        sock = serving.listen(args.host, args.port)
    except OSError as e:
        raise UsageError(f"workbench: cannot listen on {args.host}:{args.port}: {e.strerror or e}") from None
    hosts = ["127.0.0.1", "localhost", "[::1]", "::1"] if loopback else None
    app = create_app(catalog, allowed_hosts=hosts)
    sys.stdout.write(f"tablerules workbench: {serving.address(sock)}  (open it in a browser; Ctrl-C stops it)\n")
    if not loopback:
        sys.stdout.write(f"  listening on {args.host}: anyone who can reach this machine can use the page\n")
    sys.stdout.flush()
    try:
        with console.quiet():
            serving.server(app).run(sockets=[sock])
    finally:
        sock.close()
    return 0
