"""Counterexample and gap traces for people and for tools.

For people, a trace reads like TLC's error trace: the whole state at the start
(``state_vars``, a map-valued variable one entry per key), then each step: who moved, the
move, and every entry it changed, marked ``*`` (or, asked for, the whole state after every
move).  For tools, :func:`write_itf` writes the same trace as an ITF file that
``tablerules vectors verify`` replays (``--out-itf``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Sequence

from tablerules.model.core import RuleGap, RuleSet, Setup, actor_text

from tablerules.proofs.files import write_atomic
from .itf import dumps, fraction_text, normal, plain
from .recording import record_game, trace_document


@dataclass(frozen=True)
class TraceStep:
    """One step: who acted, the move's text, its probability if chance (the explorer's Step)."""

    actor: str
    move: str
    probability: Fraction | None = None


def value_text(value: Any) -> str:
    """A state value in one line: maps ``{k: v}``, sets sorted, no quotes around plain words."""
    return json.dumps(plain(normal(value)), ensure_ascii=False, separators=(", ", ": "))


def replay_states(rules: RuleSet, start: Any, steps: Sequence[Any]) -> list[Any]:
    """The states along a trace from ``start`` (the first being ``start`` itself)."""
    states = [start]
    state = start
    for step in steps:
        state = rules.apply(state, rules.parse_move(step.move, state.setup))
        states.append(state)
    return states


def state_entries(rules: RuleSet, state: Any) -> dict[str, str]:
    """A state as `name -> value text` lines: map-valued variables one entry per key
    (``places["0.soup"]``), so that a change shows where it happened."""
    out: dict[str, str] = {}
    for name, value in rules.state_vars(state).items():
        if isinstance(value, dict) and value:
            for k, v in value.items():
                out[f"{name}[{json.dumps(k) if isinstance(k, str) else k}]"] = value_text(v)
        else:
            out[name] = value_text(value)
    return out


def _views(rules: RuleSet, state: Any) -> list[dict[str, str]]:
    """Each seat's observation as ``key -> value text``."""
    return [{k: value_text(v) for k, v in dict(rules.observation(state, seat)).items()}
            for seat in range(state.setup.players)]


def receivers(rules: RuleSet, states: Sequence[Any]) -> list[tuple[int, ...]]:
    """Per step (states[i] -> states[i+1]): the seats that learnt something the others did not,
    that is, seats for which a part of their own view changed that did not change for every
    seat (a card drawn into a hand); () for a public change (a guest turned up)."""
    out: list[tuple[int, ...]] = []
    views = [_views(rules, s) for s in states]
    for before, after in zip(views, views[1:]):
        changed = [{k for k in a if b.get(k) != a[k]} for b, a in zip(before, after)]
        everyone = set.intersection(*changed) if changed else set()
        out.append(tuple(seat for seat, keys in enumerate(changed) if keys - everyone - {"legal_moves", "to_move"}))
    return out


def seat_views(rules: RuleSet, state: Any) -> list[str]:
    """What each seat sees at ``state`` where the seats' views differ (a hand, the moves open
    to it), one line per seat; what every seat sees alike is the all-seeing view's public part."""
    views = _views(rules, state)
    private = sorted({k for v in views for k in v if any(w.get(k) != v[k] for w in views)} - {"seat"})
    return [f"seat {seat}: " + "; ".join(f"{k} = {v[k]}" for k in private if k in v) for seat, v in enumerate(views)]


def trace_lines(rules: RuleSet, start: Any | None, steps: Sequence[Any], raises: Any = None,
                indent: str = "  ", full: bool = False) -> list[str]:
    """The trace as text: the whole state at the start, then each move and what it changed
    (marked ``*``; with ``full``, the whole state after every move), and a last line for a
    move that raises.  Without a start state (not known), the moves alone."""
    lines: list[str] = []
    states: list[Any] = []
    if start is not None:
        try:
            states = replay_states(rules, start, steps)
        except (RuleGap, ValueError):
            states = []
    before: dict[str, str] | None = None
    for i in range(len(steps) + 1):
        if i:
            s = steps[i - 1]
            p = f" (p={fraction_text(s.probability)})" if s.probability is not None else ""
            lines.append(f"{indent}{i:3}. {s.actor}: {s.move}{p}")
        elif states:
            lines.append(f"{indent}  0. start")
        if not states:
            continue
        now = state_entries(rules, states[i])
        for k, v in now.items():
            changed = before is not None and before.get(k) != v
            if before is None or changed or full:
                lines.append(f"{indent}     {'*' if changed else ' '} {k} = {v}")
        before = now
    if raises is not None:
        lines.append(f"{indent}{len(steps) + 1:3}. {raises}  <- raises here")
    return lines


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "trace"


def components_argument(setup: Setup) -> str | None:
    """The ``--deck`` text that loads a setup's components again, where there is one: a tile
    set's ``KINDSxCOLOURS``, a shipped deck's name (a deck from a file: None)."""
    comp = setup.components
    types, colours = getattr(comp, "types", None), getattr(comp, "colours", None)
    if types is not None and colours is not None:
        return f"{types}x{colours}"
    name = getattr(comp, "name", None)
    try:
        from tablerules.model.decks import embedded_deck_names

        return name if name in embedded_deck_names() else None
    except ImportError:  # pragma: no cover
        return None


def write_itf(folder: Path, name: str, rules: RuleSet, setup: Setup, moves: Sequence[str], description: str,
              generator: dict[str, Any] | None = None, note: str = "") -> Path:
    """Write a finding's trace (moves from the start of a game) as ``folder/name.itf.json``,
    atomically; the path written."""
    trace = record_game(rules, setup, list(moves), components_argument=components_argument(setup))
    doc = trace_document(trace, description=description, generator=generator or {"kind": "finding"}, note=note,
                         source="tablerules")
    path = folder / f"{_slug(name)}.itf.json"
    write_atomic(path, dumps(doc))
    return path


def finding_json(f: Any, itf: Path | None = None) -> dict[str, Any]:
    """A finding (the explorer's, or the gap finder's) as JSON: kind, key, clause, detail,
    the moves of its shortest trace and the move that raises, if any."""
    return {
        "kind": f.kind, "key": f.key, "clause": f.clause or None, "detail": f.detail,
        "moves": [{"actor": s.actor, "move": s.move,
                   "probability": None if s.probability is None else fraction_text(Fraction(s.probability))}
                  for s in f.trace],
        "raises": None if f.move is None else str(f.move),
        "itf": None if itf is None else str(itf),
    }


def actor_name(actor: Any) -> str:
    return actor_text(actor)
