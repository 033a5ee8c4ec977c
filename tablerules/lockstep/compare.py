"""The model and a reading at one state: every point where they part, and the choices both offer.

Unlike ``conform`` (which stops at the first difference of an engine that claims to follow our
rules), :func:`look` lists *every* difference at a state, as :class:`Part` values, and returns
the choices that both sides offer, so that play can go on from the model's choices and one
difference does not hide the rest.  A part names the model's decision point (the phase of the
state and who is to move), the clause it concerns (for a move we allow, the clause that allows
it; for a move we forbid, the clause that forbids it; for a chance event, its clause; for an
observation, the clause of the step that led here), and what each side says.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tablerules.model.core import CHANCE, TERMINAL, RuleGap, RuleSet, actor_text
from tablerules.vectors import coverage

from .readings import Reading
from .views import outcome_view, reading_outcome, table_keys, view

ASPECTS = (
    "state", "observation", "legal move ours only", "legal move theirs only", "chance ours only",
    "chance theirs only", "probability", "outcome", "rule gap", "reading error",
)
"""What a part is about: the two games are no longer in the same position after a move both played (who moves,
or a key of the table a seat sees: a hand, a pile, the claimed guests); what a seat may see of the same position
(a key of its view alone, such as another player's hand); a legal move one side lists and the other does not; a
chance outcome one side lists and the other does not; a probability; the outcome; a place where the model stops
at a strict ruling; a reading that raised or broke the protocol."""


@dataclass(frozen=True)
class Part:
    """One point where the model and the reading part at a state."""

    aspect: str
    subject: str
    """What exactly: the move text, `seat N: KEY` of an observation, the keys of a state part, `outcome`."""
    kind: str
    """The move's verb, the observation's key, or for a state part `VERB: KEYS` (the move that led here and the
    keys that differ): what a group has in common."""
    point: str
    """The model's decision point the part belongs to: `PHASE / seat|chance|over` of the state, or for a state
    part, of the state before the move that led here."""
    clause: str
    ours: str
    theirs: str
    at: str = ""
    """The decision point of the state where the part was seen (the same as ``point`` but for a state part)."""

    @property
    def key(self) -> tuple[str, str, str, str]:
        """The group a part belongs to: for what a seat may see, the key alone (one question wherever it is asked:
        the group counts the decision points); else the aspect, decision point, clause and kind."""
        if self.aspect == "observation":
            return (self.aspect, "any", "-", self.kind)
        return (self.aspect, self.point, self.clause, self.kind)

    def to_json(self) -> dict[str, str]:
        return {"aspect": self.aspect, "subject": self.subject, "kind": self.kind, "point": self.point,
                "clause": self.clause, "ours": self.ours, "theirs": self.theirs}


@dataclass(frozen=True)
class Step:
    """The move that led to a state: the decision point before it, the move's text, the clause it exercised."""

    point: str
    move: str
    clause: str


def move_kind(text: str) -> str:
    """The verb of a move text, as groups name it: `serve`, `turn up`, `draws`, `takes`, ..."""
    words = text.split()
    if not words:
        return "?"
    if words[0] == "seat" and len(words) > 2:
        return words[2]
    if words[0] == "turn" and len(words) > 1:
        return "turn up"
    return words[0]


def decision_point(rules: RuleSet, state: Any, actor: Any) -> str:
    phase = rules.state_vars(state).get("phase", "")
    who = "over" if actor is TERMINAL else "chance" if actor is CHANCE else "seat"
    return f"{phase} / {who}"


def _text(value: Any, limit: int = 100) -> str:
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= limit else text[:limit - 3] + "..."


@dataclass
class Look:
    """What :func:`look` found at a state."""

    parts: list[Part]
    follow: list[tuple[Any, Fraction | None]]
    """The model's choices the reading offers too: (move, probability or None for a seat's move)."""
    actor: Any
    over: bool = False
    apart: bool = False
    """The two games are no longer in the same position: nothing after this state is compared (every later
    difference would be a consequence of this one)."""


def look(rules: RuleSet, state: Any, reading: Reading, step: Step | None = None) -> Look:
    """Every part at ``state`` (reached in both by the same moves; ``step``: the last of them), and the choices to
    go on with."""
    actor = rules.to_move(state)
    point = decision_point(rules, state, actor)
    clause_here = step.clause if step else coverage.turn_clause(rules)
    parts: list[Part] = []

    def part(aspect: str, subject: str, kind: str, clause: str, ours: str, theirs: str) -> None:
        parts.append(Part(aspect, subject, kind, point, clause or coverage.turn_clause(rules), ours, theirs, point))

    theirs_actor = reading.to_move()
    ours_actor = actor_text(actor)
    seen, table = _observations(rules, state, reading)
    for seat, key, ours, theirs in seen:
        part("observation", f"seat {seat}: {key}", key, clause_here, ours, theirs)
    if theirs_actor != ours_actor:
        table.insert(0, ("to move", ours_actor, theirs_actor))
    if table:
        keys = sorted({k for k, _, _ in table})
        first = table[0]
        verb = move_kind(step.move) if step else "the deal"
        parts.append(Part("state", "+".join(keys), f"after {verb}: {'+'.join(keys)}", step.point if step else point,
                          clause_here, f"{first[0]} {first[1]}", first[2], point))
        return Look(parts, [], actor, apart=True)
    if actor is TERMINAL:
        parts += _outcome(rules, state, reading, point)
        return Look(parts, [], actor, over=True)
    try:
        if actor is CHANCE:
            outs = rules.chance_outcomes(state)
        else:
            outs = [(m, None) for m in rules.legal_moves(state)]
    except RuleGap as gap:
        part("rule gap", "rule gap", "rule gap", gap.ruling, f"rule gap {gap.ruling}", "")
        return Look(parts, [], actor)
    follow: list[tuple[Any, Fraction | None]] = []
    if actor is CHANCE:
        theirs = reading.chance_outcomes()
        ours = {str(m): (m, p) for m, p in outs}
        for text, (m, p) in ours.items():
            if text not in theirs:
                part("chance ours only", text, move_kind(text), coverage.chance_clause(rules, state, m),
                     f"{text!r} may happen ({p})", "leaves it out")
                continue
            if theirs[text] != p:
                part("probability", text, move_kind(text), coverage.chance_clause(rules, state, m),
                     f"{text!r} has probability {p}", str(theirs[text]))
            follow.append((m, p))
        for text, q in theirs.items():
            if text not in ours:
                part("chance theirs only", text, move_kind(text), coverage.chance_clause(rules, state, None),
                     f"{text!r} cannot happen", f"lists it ({q})")
    else:
        theirs_moves = reading.legal_moves()
        theirs_set = set(theirs_moves)
        ours_texts = {str(m): m for m, _ in outs}
        for text, m in ours_texts.items():
            if text in theirs_set:
                follow.append((m, None))
            else:
                part("legal move ours only", text, move_kind(text), coverage.move_clause(rules, state, text),
                     f"allow {text!r}", "leaves it out")
        for text in dict.fromkeys(theirs_moves):
            if text not in ours_texts:
                part("legal move theirs only", text, move_kind(text), coverage.forbidding_clause(rules, state, text),
                     f"forbid {text!r}", "allows it")
    theirs_outcome = reading.outcome()
    if theirs_outcome is not None:
        part("outcome", "outcome", "outcome", coverage.turn_clause(rules), "the game goes on",
             f"says it is over ({_text(theirs_outcome)})")
    return Look(parts, follow, actor)


def _observations(rules: RuleSet, state: Any,
                  reading: Reading) -> tuple[list[tuple[int, str, str, str]], list[tuple[str, str, str]]]:
    """(seat, key, ours, theirs) for every key of a seat's own view that differs (what the seat may see), and
    (key, ours, theirs) for every key of the table that differs (the position itself: :data:`.views.TABLE_KEYS`),
    once per key."""
    seen: list[tuple[int, str, str, str]] = []
    table: dict[str, tuple[str, str, str]] = {}
    shared = table_keys(rules)
    for seat in range(state.setup.players):
        ours = json.loads(json.dumps(view(rules, state, seat), default=str))
        theirs = reading.observation(seat)
        if not isinstance(theirs, dict):
            seen.append((seat, "(not an object)", "an object", _text(theirs)))
            continue
        for key, value in ours.items():
            got = json.loads(json.dumps(theirs[key], default=str)) if key in theirs else "no such key"
            if got == value:
                continue
            if key in shared:
                table.setdefault(key, (key, _text(value), _text(got)))
            else:
                seen.append((seat, key, _text(value), _text(got)))
    return seen, list(table.values())


def _outcome(rules: RuleSet, state: Any, reading: Reading, point: str) -> list[Part]:
    try:
        ours = rules.outcome(state)
    except RuleGap as gap:
        return [Part("rule gap", "outcome", "outcome", point, gap.ruling, f"rule gap {gap.ruling}", "")]
    theirs = reading.outcome()
    clause = ours.clause or coverage.end_clause(rules)
    mine = outcome_view(rules, state, {"winners": sorted(ours.winners), "losers": sorted(ours.losers),
                                       "draw": bool(ours.draw),
                                       "scores": list(ours.scores) if ours.scores is not None else None})
    if theirs is None:
        return [Part("outcome", "outcome", "outcome", point, clause, _text(mine), "no outcome")]
    got = reading_outcome(rules, theirs)
    if got.get("scores") is None:
        got["scores"] = mine["scores"]  # scores are optional in the protocol
    return [] if got == mine else [Part("outcome", "outcome", "outcome", point, clause, _text(mine), _text(got))]
