"""`tablerules list [RULESET]`: what there is to choose from.

Without a rule set: every rule set with its player counts and components.  With one: its
rulings (each alternative, the default marked), its optional rules, and the components it
ships (Dishes tile sets, Just Desserts teaching decks), so that every value ``--ruling``,
``--option`` and ``--deck`` accept can be looked up here.  ``--json`` writes all of it for
every rule set listed (spec/schemas/list.schema.json), for tools that build command lines.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tablerules.model import registry
from tablerules.model.core import ruling_fields, short_ruling_name, variant_fields

from .. import console, schemas
from ..console import plural
from .common import add_command, emit_json, ruleset_arg


def add_parsers(sub: Any) -> None:
    p = add_command(sub, "list", "list rule sets, rulings, options and built-in components",
                    "List the rule sets; with RULESET, its rulings (alternatives, default first and marked), optional "
                    "rules, player counts and the components it ships.",
                    ["tablerules list", "tablerules list dishes", "tablerules list just-desserts",
                     "tablerules list dishes --json"])
    p.add_argument("ruleset", nargs="?", type=ruleset_arg, help="rule set id: " + ", ".join(registry.ruleset_ids()))
    p.add_argument("--json", action="store_true",
                   help="write every rule set listed, with all its choices, as one JSON document on standard output "
                        "(schema: spec/schemas/list.schema.json)")
    p.set_defaults(run=run)


def components(rules: Any) -> list[tuple[str, str, bool]]:
    """(--deck value, what it is, whether it is the default) for the components a rule set ships."""
    default = rules.default_components()
    if default is None or rules.load_components is None:
        return []
    types, colours = getattr(default, "types", None), getattr(default, "colours", None)
    if types is not None and colours is not None:
        return [("box", f"the boxed game: {types} kinds x {colours} colours", True),
                ("KINDSxCOLOURS", f"a smaller tile set: 1-{types} kinds x 1-{colours} colours, e.g. 3x4", False)]
    from tablerules.model.decks import embedded_deck, embedded_deck_names

    family = default.name.split("-")[0] + "-"  # teaching decks of a rule set share its default deck's prefix
    out = []
    for name in embedded_deck_names():
        if name.startswith(family):
            deck = embedded_deck(name)
            out.append((name, f"{plural(len(deck.dessert_cards()), 'dessert card')}, "
                              f"{plural(len(deck.guests), 'guest')}, "
                              f"{plural(len(deck.suits), 'suit')}", name == default.name))
    out.append(("FILE", "a deck file in the schema of model/decks.py (the retail card list, for one)", False))
    return out


def describe(rules: Any) -> dict[str, Any]:
    """Everything ``list`` shows of one rule set, as JSON values (spec/schemas/list.schema.json)."""
    questions = _questions(rules.id)
    return {
        "id": rules.id, "title": rules.title, "players": list(rules.player_counts),
        "rulings": [
            {
                "id": rid, "name": short_ruling_name(rid), "default": f.metadata["alternatives"][0],
                "alternatives": list(f.metadata["alternatives"]), "question": questions.get(rid, ""),
            }
            for rid, f in ruling_fields(rules.Options).items()
        ],
        "options": [
            {"name": name, "description": f.metadata.get("doc", "")}
            for name, f in variant_fields(rules.Options).items()
        ],
        "decks": [{"value": v, "description": d, "default": dflt} for v, d, dflt in components(rules)],
        "symmetries": list(rules.symmetries),
        "default_symmetry": rules.default_symmetry,
    }


def run(args: argparse.Namespace) -> int:
    out = sys.stdout
    if args.json:
        ids = registry.ruleset_ids() if args.ruleset is None else [args.ruleset]
        emit_json(
            schemas.document("list", {"rulesets": [describe(registry.get(rid)) for rid in ids], "exit_status": 0})
        )
        return 0
    if args.ruleset is None:
        rows = []
        for rid in registry.ruleset_ids():
            rules = registry.get(rid)
            rows.append(
                (
                    rid, rules.title, ", ".join(map(str, rules.player_counts)), str(len(ruling_fields(rules.Options))),
                    ", ".join(variant_fields(rules.Options)) or "-",
                    ", ".join(c for c, _, _ in components(rules)) or "-",
                )
            )
        console.table(rows, header=("rule set", "title", "players", "rulings", "optional rules", "--deck"), out=out)
        out.write("\n`tablerules list RULESET` shows its rulings, alternatives and components.\n")
        return 0
    rules = registry.get(args.ruleset)
    questions = _questions(rules.id)
    out.write(f"{rules.title} ({rules.id}); players: {', '.join(map(str, rules.player_counts))}\n\n")
    rows = []
    for rid, f in ruling_fields(rules.Options).items():
        alts = f.metadata["alternatives"]
        rows.append((short_ruling_name(rid), f"{alts[0]} (default)" + "".join(f", {a}" for a in alts[1:]),
                     questions.get(rid, "")))
    console.table(rows, header=("--ruling", "alternatives", "question"), out=out)
    variants = variant_fields(rules.Options)
    if variants:
        out.write("\n")
        console.table(((name, f.metadata.get("doc", "")) for name, f in variants.items()),
                      header=("--option", "optional rule (off by default)"), out=out)
    comps = components(rules)
    if comps:
        out.write("\n")
        console.table(
            ((v, d + (" (default)" if dflt else "")) for v, d, dflt in comps), header=("--deck", "components"), out=out
        )
    symmetries = list(rules.symmetries)
    if symmetries:
        out.write(
            f"\n--symmetry: {', '.join(symmetries)} (combine with +; default {rules.default_symmetry or 'none'})\n"
        )
    out.write(f"\n`tablerules explain {rules.id}` lists its clauses too; `tablerules explain ID` shows one clause or "
              "ruling whole.\n")
    return 0


def _questions(ruleset: str) -> dict[str, str]:
    from tablerules.spec import SpecError, load_spec

    try:
        return {rid: r.question for rid, r in load_spec(ruleset).rulings.items()}
    except (SpecError, OSError):
        return {}
