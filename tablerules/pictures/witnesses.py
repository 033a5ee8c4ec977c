"""A ruling's witness trace, ready to show: the steps as table rows and the position where
the readings part.

The witness files (``spec/witnesses/*.json``) are replayed through the vector writer
(``tablerules.vectors.generation.witness_vectors``, the same replay CI runs), so every row
is a real step of the model: who acted, the move, its probability when chance, the
clauses it exercises.  The last state of the replay is the point where the readings part:
after it, the alternatives the witness compares do different things (the file says what:
``differs.every_alternative`` for the divergence search's witnesses, a rule gap, or the
branches of a race).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablerules.model.core import RuleSet


@dataclass
class Step:
    index: int
    actor: str
    move: str
    probability: str
    clauses: list[str]


@dataclass
class WitnessTrace:
    """One trace of a witness file (a file may hold several, each with a label)."""

    file: str
    label: str
    players: int
    components: str
    """The ``--deck`` argument the components were loaded from ('' for the defaults)."""
    options: dict[str, Any]
    note: str
    steps: list[Step]
    final: dict[str, Any]
    """The state after the last step, as ``state_vars`` values (decoded from the vector)."""
    readings: dict[str, str] = field(default_factory=dict)
    to_move: str = ""
    """Who acts after the last step: `seat 1`, `CHANCE`, `TERMINAL` (as the vector records it)."""
    """What follows the last step, per alternative (or per race branch, or the gap raised)."""


def _entries(doc: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(label, entry) in the order the vector writer reads them."""
    entries = doc.get("witnesses")
    if isinstance(entries, dict):
        return [(name, e) for name, e in entries.items() if isinstance(e, dict)]
    if isinstance(entries, list):
        return [(f"trace {i + 1}", e) for i, e in enumerate(entries) if isinstance(e, dict)]
    return [("", doc)]


def _readings(doc: dict[str, Any], entry: dict[str, Any], meta: dict[str, Any]) -> dict[str, str]:
    differs = entry.get("differs") or doc.get("differs")
    if isinstance(differs, dict):
        every = differs.get("every_alternative") or differs.get("readings") or {}
        return {alt: str(r.get("next", r)) if isinstance(r, dict) else str(r) for alt, r in every.items()}
    out: dict[str, str] = {}
    branches = entry.get("branches")
    if isinstance(branches, dict):
        for name, result in branches.items():
            out[name] = (
                ", ".join(f"{k} \u2192 seat {v}" for k, v in result.items())
                if isinstance(result, dict)
                else str(result)
            )
    gap = meta.get("rule_gap")
    if isinstance(gap, dict):
        alt = (meta.get("options") or {}).get(gap.get("ruling"), "strict")
        out[f"{alt}, at the move {gap.get('move') or 'that follows'}"] = (
            f"raises RuleGap {gap.get('ruling', '')}: {gap.get('detail', '')}"
        )
    chosen = doc.get("rulings") if isinstance(doc.get("rulings"), dict) else {}
    alt = ", ".join(f"{k.split('.ruling.', 1)[-1]}={v}" for k, v in chosen.items()) or "this reading"
    if "traps" in entry:
        out[alt] = f"no end can be reached any more ({entry['traps']:,} such states of {entry.get('states', '?'):,})"
    elif "closed_states" in entry:
        out[alt] = f"play can never leave a closed set of {entry['closed_states']:,} states, none of them an end"
    if not out and (entry.get("about") or doc.get("about")):
        out[alt] = str(entry.get("about") or doc.get("about"))  # a shape this reader does not know: its own words
    return out


def witness_traces(rules: RuleSet, path: Path) -> tuple[list[WitnessTrace], list[str]]:
    """The traces of one witness file, replayed under ``rules``, and a note per problem."""
    from tablerules.vectors import decode
    from tablerules.vectors.generation import witness_vectors

    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    vectors, problems = witness_vectors(rules, Path(path))
    entries = _entries(doc)
    traces = []
    for i, vec in enumerate(vectors):
        label, entry = entries[i] if len(entries) == len(vectors) else ("", {})
        d = vec.document
        meta = d["#meta"]
        steps = []
        for s in d["states"][1:]:
            m = s.get("#meta", {})
            steps.append(Step(m.get("index", len(steps) + 1), m.get("actor", ""), m.get("move", ""),
                              str(m.get("probability", "")), list(m.get("clauses", []))))
        last = d["states"][-1]
        final = {k: decode(v) for k, v in last.items() if k != "#meta"}
        last_meta = {**meta, **last.get("#meta", {})}
        traces.append(WitnessTrace(
            f"spec/witnesses/{Path(path).name}", label, meta.get("players", 0),
            (meta.get("components") or {}).get("argument") or "", dict(meta.get("options", {})),
            str(meta.get("note") or entry.get("about") or entry.get("note") or ""), steps, final,
            _readings(doc, entry, last_meta), str(last.get("#meta", {}).get("to_move", ""))))
    return traces, problems
