"""What there is to choose on the workbench, and the setup a page asks for.

The choices are those ``tablerules list`` shows (rule sets, player counts, rulings with their
alternatives, optional rules, the teaching decks and tile sets), the deck given with
``tablerules workbench --deck FILE``, and the witness traces of every ruling of the register
(``spec/witnesses/``, as the docs' ruling pages replay them).  A page names components only by
one of these choices: no text from a page is ever taken for a file name.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablerules.model import registry
from tablerules.model.core import RuleSet, Setup, SetupError, parse_options, read_number, short_ruling_name

from ..cli.listing import components, describe
from .bounds import BadInput

TILE_SETS = ("box", "4x4", "3x4", "2x4", "2x2")
"""Dishes tile sets offered in the list (any KINDSxCOLOURS that `tablerules list dishes` allows is taken)."""
TILE_TEXT = re.compile(r"[1-9]x[1-9]")


def said(text: str, is_ruling: bool) -> str:
    """How a page shows a ruling or optional rule it was given (for :func:`parse_options`' messages)."""
    return f"ruling {text!r}" if is_ruling else f"optional rule {text!r}"


@dataclass
class StartDeck:
    """The deck given with ``--deck FILE`` when the workbench started: offered beside the teaching decks."""

    name: str
    path: str
    deck: Any


@dataclass
class Witness:
    """One witness trace of a ruling, ready to open: its vector document and what follows it."""

    key: str
    ruling: str
    file: str
    label: str
    steps: int
    note: str
    document: dict[str, Any]
    readings: dict[str, str]
    compare: tuple[str, str] | None
    """The two alternatives the witness sets apart (for the compare view), where it says."""


@dataclass
class Catalog:
    """Every choice a page may make; the witnesses of a rule set are read once, on first use."""

    start_deck: StartDeck | None = None
    _witnesses: dict[str, list[Witness]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    # ----------------------------------------------------------------- what a page lists

    def rulesets(self) -> list[dict[str, Any]]:
        """Per rule set: what ``tablerules list --json`` says of it, its decks as this page offers them."""
        out = []
        for rid in registry.ruleset_ids():
            rules = registry.get(rid)
            d = describe(rules)
            d["decks"] = [{"value": v, "description": desc, "default": dflt} for v, desc, dflt in self.decks(rules)]
            out.append(d)
        return out

    def decks(self, rules: RuleSet) -> list[tuple[str, str, bool]]:
        """(value, what it is, default) for every components choice of a rule set."""
        default = rules.default_components()
        types = getattr(default, "types", None)
        if types is not None:
            return [(t, "the boxed game: 6 kinds x 4 colours" if t == "box" else f"{t[0]} kinds x {t[2]} colours",
                     t == "box") for t in TILE_SETS]
        rows = [(v, desc, dflt) for v, desc, dflt in components(rules) if v != "FILE"]
        rows += [(name, "a teaching deck of the other edition", False) for name in _other_decks(rows)]
        if self.start_deck is not None and rules.load_components is not None:
            rows.append((self.start_deck.name, f"the deck given at start ({Path(self.start_deck.path).name})", False))
        return rows

    # ----------------------------------------------------------------- the setup a page asks for

    def components(self, rules: RuleSet, value: str | None) -> tuple[Any, str | None]:
        """(components, the ``--deck`` text that loads them again, or None for the start deck's file)
        for a page's choice; BadInput naming the choices for anything else."""
        if value in (None, ""):
            return None, None
        if self.start_deck is not None and value == self.start_deck.name and rules.load_components is not None:
            return self.start_deck.deck, None
        choices = [v for v, _d, _x in self.decks(rules)]
        allowed = value in choices or (getattr(rules.default_components(), "types", None) is not None
                                       and isinstance(value, str) and TILE_TEXT.fullmatch(value) is not None)
        if not allowed or rules.load_components is None:
            raise BadInput(f"deck {str(value)[:60]!r}: not one of {rules.id}'s choices ({', '.join(choices)})")
        try:
            return rules.load_components(value), value
        except (SetupError, ValueError) as e:
            raise BadInput(str(e).splitlines()[0]) from None

    def setup(self, data: dict[str, Any]) -> tuple[RuleSet, Setup, str | None, str]:
        """(rules, setup, components argument, deck choice) from a page's choices: ``ruleset``,
        ``players``, ``deck``, ``rulings`` (ruling id or short name -> alternative) and ``options``
        (the optional rules switched on); BadInput (one line) for anything else."""
        rid = data.get("ruleset")
        if not isinstance(rid, str) or rid not in registry.ENTRIES:
            raise BadInput(f"ruleset: choose one of {', '.join(registry.ruleset_ids())}")
        rules = registry.get(rid)
        players = data.get("players", rules.player_counts[0])
        if isinstance(players, str) and read_number(players) is not None and len(players) < 4:
            players = read_number(players)
        if isinstance(players, bool) or not isinstance(players, int):
            raise BadInput("players: expected a whole number")
        rulings = data.get("rulings") or {}
        options = data.get("options") or []
        if not isinstance(rulings, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                    for k, v in rulings.items()):
            raise BadInput("rulings: expected an object of ruling id -> alternative")
        if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
            raise BadInput("options: expected a list of optional rule names")
        deck = data.get("deck")
        if deck is not None and not isinstance(deck, str):
            raise BadInput("deck: expected the name of a deck")
        try:
            opts = parse_options(rules.Options, [f"{k}={v}" for k, v in rulings.items()], variants=options, said=said)
            comps, argument = self.components(rules, deck)
            setup = rules.setup(players, opts, comps)
        except SetupError as e:
            raise BadInput(str(e).splitlines()[0]) from None
        return rules, setup, argument, deck or getattr(setup.components, "name", "") or ""

    def deck_for_meta(self, rules: RuleSet, meta: dict[str, Any]) -> str | None:
        """The deck file to read for a vector's ``#meta``, where it names the start deck; BadInput where
        it names components that are neither a choice of this page nor the start deck (a page's file
        never names a file on the server)."""
        comp = meta.get("components")
        if not isinstance(comp, dict):
            return None
        names = [v for v in (comp.get("argument"), comp.get("name")) if isinstance(v, str)]
        if self.start_deck is not None and self.start_deck.name in names:
            return self.start_deck.path
        choices = [v for v, _d, _x in self.decks(rules)]
        tiles = getattr(rules.default_components(), "types", None) is not None
        if any(n in choices or (tiles and TILE_TEXT.fullmatch(n)) for n in names) or not names:
            return None
        default = getattr(rules.default_components(), "name", None)
        if default in names:
            return None
        raise BadInput(f"$['#meta'].components: {names[0][:60]!r} is not a deck this workbench knows "
                       f"({', '.join(choices)}); start it with --deck FILE to use that deck")

    # ----------------------------------------------------------------- witnesses

    def witnesses(self, ruleset_id: str) -> list[Witness]:
        """Every witness trace of the rule set's rulings, in the register's order."""
        if ruleset_id not in registry.ENTRIES:
            raise BadInput(f"ruleset: choose one of {', '.join(registry.ruleset_ids())}")
        with self._lock:
            if ruleset_id not in self._witnesses:
                self._witnesses[ruleset_id] = _read_witnesses(registry.get(ruleset_id))
            return self._witnesses[ruleset_id]

    def witness(self, ruleset_id: str, key: str) -> Witness:
        for w in self.witnesses(ruleset_id):
            if w.key == key:
                return w
        raise BadInput(f"witness {key[:80]!r}: no such witness trace of {ruleset_id}")


def _other_decks(listed: list[tuple[str, str, bool]]) -> list[str]:
    """The teaching decks ``tablerules list`` files under the other Just Desserts edition: either
    edition plays on any of them (the vectors of 2.3 use the current rulebook's, for one)."""
    from tablerules.model.decks import embedded_deck_names

    shown = {v for v, _d, _x in listed}
    return [name for name in embedded_deck_names() if name not in shown]


def _read_witnesses(rules: RuleSet) -> list[Witness]:
    """The witness traces of ``rules``' rulings (the files the traceability scan ties to each ruling)."""
    from tablerules import traceability
    from tablerules.model.core import ruling_fields
    from tablerules.pictures.witnesses import witness_traces
    from tablerules.vectors.generation import witness_vectors

    from ..cli.explain import package_root

    root = package_root()
    report = traceability.scan(root)
    out: list[Witness] = []
    seen: set[str] = set()
    fields = ruling_fields(rules.Options)
    for rid in fields:
        trace = report.traces.get(rid)
        for rel in trace.witnesses if trace is not None else []:
            path = root / rel
            vectors, _problems = witness_vectors(rules, path)
            shown, _ = witness_traces(rules, path) if vectors else ([], [])
            doc = json.loads(path.read_text(encoding="utf-8"))
            for i, vec in enumerate(vectors):
                key = f"{path.stem}/{i + 1}"
                if key in seen:
                    continue
                seen.add(key)
                t = shown[i] if i < len(shown) else None
                out.append(Witness(key, rid, f"spec/witnesses/{path.name}", (t.label if t and t.label else "") or
                                   short_ruling_name(rid), len(vec.document["states"]) - 1,
                                   t.note if t else "", vec.document, dict(t.readings) if t else {},
                                   _compared(doc, rules, rid, vec.document)))
    return out


def _compared(doc: dict[str, Any], rules: RuleSet, rid: str, vector: dict[str, Any]) -> tuple[str, str] | None:
    """The two alternatives a witness file sets apart: its ``differs`` pair, else the one it plays
    and another (``strict`` where it stops at a gap)."""
    from tablerules.model.core import ruling_fields

    differs = doc.get("differs")
    if isinstance(differs, dict) and isinstance(differs.get("a"), str) and isinstance(differs.get("b"), str):
        return differs["a"], differs["b"]
    entries = doc.get("witnesses")
    entries = entries.values() if isinstance(entries, dict) else entries if isinstance(entries, list) else []
    if any(isinstance(e, dict) and ("traps" in e or "closed_states" in e) for e in entries):
        return None  # traces into a trap: what they show is where play leads under one reading, not a parting
    f = ruling_fields(rules.Options).get(rid)
    if f is None:
        return None
    alternatives = f.metadata["alternatives"]
    chosen = (vector["#meta"].get("options") or {}).get(rid, alternatives[0])
    others = [a for a in alternatives if a != chosen]
    if not others:
        return None
    return chosen, ("strict" if "strict" in others and vector["#meta"].get("rule_gap") else others[0])
