"""Recording a game as an ITF trace: every state, and in ``#meta`` what our rules say there.

Trace ``#meta``: ``format_version``, ``ruleset``, ``players``, ``options`` (ruling id ->
alternative, optional rule -> on/off), ``components`` (name, content digest, how to load
them), ``spec_digest``; how the trace was made (``generator``), how many moves it holds
(``steps``), whether it was cut short (``capped``), the ``clauses`` its steps exercise.

State ``#meta``: ``index``, the ``move`` that led to the state (canonical text) and its
``actor``, its ``probability`` when chance moved (an exact fraction string such as
``"1/4"``), who moves next (``to_move``), the ``legal_moves`` there (or the
``chance_outcomes``), the ``outcome`` at the end, the ``clauses`` the step exercised, and a
``rule_gap`` where a ``strict`` ruling stops the game.  :mod:`tablerules.vectors.verifier` checks
every one of these fields.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Iterable

from tablerules.model.core import CHANCE, TERMINAL, IllegalMove, RuleGap, RuleSet, Setup, actor_text, options_text

from . import coverage
from .itf import FORMAT_VERSION, ITF_DESCRIPTION, encode, fraction_text

MAX_LISTED_OUTCOMES = 64
"""Chance states with more outcomes than this record only their count (a deal has thousands)."""
MAX_LISTED_MOVES = 256
"""Seat states with more legal moves than this record only their count (a full tray has thousands of dumps)."""
SOURCE = "tablerules vectors generate"


@dataclass
class Trace:
    """A trace being written: the setup and, per state, its vars and #meta."""

    rules: RuleSet
    setup: Setup
    components_argument: str | None
    states: list[dict[str, Any]] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)
    rule_gap: dict[str, str] | None = None
    capped: bool = False


def _state_meta(rules: RuleSet, state: Any, index: int) -> tuple[dict[str, Any], Any]:
    """The #meta of a state (who moves, the choices there, the outcome) and its actor.

    A RuleGap raised while listing the choices is recorded as ``rule_gap``; the game
    cannot go on past it.
    """
    meta: dict[str, Any] = {"index": index}
    actor = rules.to_move(state)
    meta["to_move"] = actor_text(actor)
    try:
        if actor is TERMINAL:
            meta["outcome"] = rules.outcome(state).to_json()
        elif actor is CHANCE:
            outs = rules.chance_outcomes(state)
            meta["chance_outcome_count"] = len(outs)
            if len(outs) <= MAX_LISTED_OUTCOMES:
                meta["chance_outcomes"] = [[str(m), fraction_text(p)] for m, p in outs]
        else:
            moves = rules.legal_moves(state)
            if len(moves) <= MAX_LISTED_MOVES:
                meta["legal_moves"] = [str(m) for m in moves]
            else:
                meta["legal_move_count"] = len(moves)
    except RuleGap as gap:
        meta["rule_gap"] = {"ruling": gap.ruling, "detail": gap.detail}
    return meta, actor


def components_meta(setup: Setup, argument: str | None) -> dict[str, Any] | None:
    comp = setup.components
    if comp is None:
        return None
    out: dict[str, Any] = {"name": getattr(comp, "name", str(comp))}
    digest = getattr(comp, "digest", None)
    if callable(digest):
        out["digest"] = digest()
    if argument:
        out["argument"] = argument
    return out


def spec_digest(ruleset_id: str) -> str | None:
    """sha256 of the rule set's spec file, or None when it has none yet."""
    from tablerules.spec.loader import spec_path

    try:
        return "sha256:" + hashlib.sha256(spec_path(ruleset_id).read_bytes()).hexdigest()
    except OSError:
        return None


def record_game(rules: RuleSet, setup: Setup, moves: Iterable[Any], *, components_argument: str | None = None,
                max_steps: int | None = None) -> Trace:
    """Play ``moves`` (values or texts) from the start and record every state.

    Stops early, recording a ``rule_gap``, where a strict ruling raises RuleGap (at the
    last state's choices, or when applying a move; the move is then named).  Raises
    IllegalMove / MoveSyntaxError for moves the rules do not allow.
    """
    trace = Trace(rules, setup, components_argument)
    try:
        state = rules.new_game(setup)
    except RuleGap as gap:
        trace.rule_gap = {"ruling": gap.ruling, "detail": gap.detail, "at": "new game"}
        return trace
    meta, actor = _state_meta(rules, state, 0)
    meta["clauses"] = coverage.start_clauses(rules, state)
    _add_state(trace, state, meta)
    steps = 0
    for move in moves:
        if "rule_gap" in meta:
            break
        if isinstance(move, str):
            move = rules.parse_move(move, setup)
        probability = None
        if actor is CHANCE:
            probability = dict(rules.chance_outcomes(state)).get(move)
            if probability is None:
                raise IllegalMove(rules.illegal_reason(state, move) or "core.chance", move, "not a chance outcome here")
        try:
            after = rules.apply(state, move)
        except RuleGap as gap:
            trace.rule_gap = {"ruling": gap.ruling, "detail": gap.detail, "move": str(move)}
            trace.states[-1]["#meta"]["rule_gap"] = trace.rule_gap
            return trace
        steps += 1
        new_meta, new_actor = _state_meta(rules, after, steps)
        step_meta = {"index": steps, "move": str(move), "actor": actor_text(actor)}
        if probability is not None:
            step_meta["probability"] = fraction_text(probability)
        step_meta.update({k: v for k, v in new_meta.items() if k != "index"})
        step_meta["clauses"] = coverage.transition_clauses(rules, state, move, after, actor)
        _add_state(trace, after, step_meta)
        state, actor, meta = after, new_actor, step_meta
        if max_steps is not None and steps >= max_steps:
            trace.capped = rules.to_move(state) is not TERMINAL
            break
    if "rule_gap" in meta:
        trace.rule_gap = meta["rule_gap"]
    elif actor is not TERMINAL:
        trace.capped = True  # the moves stop before the game ends: the trace says so (the verifier checks)
    return trace


def _add_state(trace: Trace, state: Any, meta: dict[str, Any]) -> None:
    values = trace.rules.state_vars(state)
    trace.states.append({"#meta": meta, **{k: encode(v) for k, v in values.items()}})
    for c in meta.get("clauses", ()):
        if c not in trace.clauses:
            trace.clauses.append(c)


def trace_document(trace: Trace, *, description: str = "", generator: dict[str, Any] | None = None,
                   note: str = "", source: str = SOURCE) -> dict[str, Any]:
    """The ITF JSON document of a recorded trace."""
    rules, setup = trace.rules, trace.setup
    names: list[str] = []
    for s in trace.states:
        for k in s:
            if k != "#meta" and k not in names:
                names.append(k)
    meta: dict[str, Any] = {
        "format": "ITF",
        "format-description": ITF_DESCRIPTION,
        "description": description or f"{rules.title}: a game with {setup.players} players",
        "source": source,
        "format_version": FORMAT_VERSION,
        "ruleset": rules.id,
        "players": setup.players,
        "options": options_text(setup.options),
        "components": components_meta(setup, trace.components_argument),
        "spec_digest": spec_digest(rules.id),
        "generator": generator or {},
        "steps": max(0, len(trace.states) - 1),
        "capped": trace.capped,
        "clauses": sorted(trace.clauses),
    }
    if trace.rule_gap:
        meta["rule_gap"] = trace.rule_gap
    if note:
        meta["note"] = note
    return {"#meta": meta, "vars": names, "states": trace.states}
