"""`tablerules vectors map --from quint TRACE`: draft a mapping file from a trace's shapes.

What the draft holds and leaves blank is :mod:`tablerules.vectors.mapping.draft`.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from tablerules.proofs.files import write_atomic

from .common import UsageError, add_command, ruleset_arg
from ..vectors.itf import MAX_FILE_BYTES, VectorError, load_document
from ..vectors.mapping.draft import draft

SOURCES = ("quint",)
"""The tools whose traces a draft can start from (ITF with Quint's --mbt metadata)."""


def add_map(vsub: Any) -> None:
    m = add_command(vsub, "map", "draft a mapping file from another tool's trace",
                    "Draft a mapping file (TOML) that reads traces of another tool, from the shapes of one of its "
                    "traces: its variables, actions and nondet picks, the levels of nested lists and maps, the names "
                    "its strings and tags take, a boolean field, the first step's pick.  Where only the author "
                    "knows (our word for each of their names, the templates of our moves and keys) the draft "
                    "leaves the blank \"?\" with a comment; `vectors verify --mapping` refuses a mapping with a "
                    "blank left, naming each.  The mapping keys: docs/guides/quint.rst, 'Mapping files'.",
                    ["tablerules vectors map --from quint out/dishes2_0.itf.json > mine.toml",
                     "tablerules vectors map --from quint --ruleset dishes trace.itf.json --out mine.toml",
                     "tablerules vectors verify --mapping mine.toml out/*.itf.json   # once the blanks are filled"],
                    notes="The draft is printed on standard output, or written whole to --out FILE.")
    m.add_argument("--from", dest="source", required=True, choices=SOURCES, help="the tool that wrote the trace")
    m.add_argument("trace", metavar="TRACE", help="one trace file of that tool (ITF JSON)")
    m.add_argument("--ruleset", type=ruleset_arg, help="our rule set the model plays (default: left blank)")
    m.add_argument("--name", help="the mapping's name (default: draft-TRACE's stem)")
    m.add_argument("--out", metavar="FILE", help="write the draft here instead of standard output")
    m.set_defaults(run=_map)


def _map(args: argparse.Namespace) -> int:
    try:
        document = load_document(args.trace, MAX_FILE_BYTES)
        name = args.name or "draft-" + Path(args.trace).name.split(".")[0]
        text = draft(document, name, args.ruleset, Path(args.trace).name)
    except VectorError as e:
        raise UsageError(f"tablerules vectors map: {args.trace}: {e}") from None
    if args.out:
        write_atomic(args.out, text)
    else:
        print(text, end="")
    return 0
