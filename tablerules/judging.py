"""May this move be made here?  A judge's answer from the model, under every ruling.

:func:`position` replays a game log (its moves as text) to a step; :func:`answer` says
whether a move is legal there and which clause decides (the rule set's ``illegal_reason``
for a refusal, the transition's clauses for a move that is allowed, the ruling for a place
where the text is silent); :func:`by_alternative` asks the same question under each
alternative of each ruling, replaying the log again under it, and keeps the rulings whose
alternatives answer differently.  Nothing here prints: :mod:`tablerules.cli.judge` does.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Sequence

from tablerules.model.core import (CHANCE, TERMINAL, IllegalMove, MoveSyntaxError, RuleGap, RuleSet, Setup, actor_text,
                                   SetupError, ruling_fields)

from . import refusals
from .vectors import coverage
from .vectors.itf import fraction_text


LEGAL, ILLEGAL, GAP, OVER, DEPARTS, UNPLAYABLE = "legal", "not legal", "the rules are silent", "the game is over", \
    "the log departs", "no such setup"
"""The verdicts: the move may be made; it may not; the text does not say (a strict
ruling's gap); the game has ended; the log itself cannot be replayed to the step (under
this alternative); the alternative cannot be set up at all."""


@dataclass(frozen=True)
class Answer:
    """One verdict on one move: the verdict, the clause or ruling that decides, a detail."""

    verdict: str
    clause: str = ""
    detail: str = ""
    step: int | None = None
    """For DEPARTS: the step of the log (1-based) that does not replay."""

    def same(self, other: "Answer") -> bool:
        """The same answer to the question asked (legal or not, or why it cannot be asked)."""
        return self.verdict == other.verdict


@dataclass
class Position:
    """A state reached by replaying ``steps`` moves of a log, or the step that fails."""

    state: Any
    steps: int
    failed: Answer | None = None


def position(rules: RuleSet, setup: Setup, moves: Sequence[str], steps: int) -> Position:
    """Replay the first ``steps`` moves from a fresh deal (chance outcomes as the log gives
    them); a step the model refuses ends the replay with a DEPARTS answer naming it."""
    try:
        state = rules.new_game(setup)
    except RuleGap as gap:  # a strict reading that is silent about the deal itself
        return Position(None, 0, Answer(DEPARTS, gap.ruling, f"the deal meets a gap: {gap.detail}", 0))
    for i, text in enumerate(moves[:steps], 1):
        problem = _refusal(rules, state, text)
        if problem is not None:
            return Position(state, i - 1, dataclasses.replace(problem, verdict=DEPARTS, step=i))
        try:
            state = rules.apply(state, rules.parse_move(text, setup))
        except IllegalMove as e:
            return Position(state, i - 1, Answer(DEPARTS, e.clause, f"step {i} {text!r} is not legal", i))
        except RuleGap as gap:
            return Position(
                state, i - 1, Answer(DEPARTS, gap.ruling, f"step {i} {text!r} meets a gap: {gap.detail}", i)
            )
    return Position(state, min(steps, len(moves)))


def _refusal(rules: RuleSet, state: Any, text: str) -> Answer | None:
    """Why ``text`` cannot be played at ``state`` (parse, end, chance outcome, legality), or None."""
    try:
        move = rules.parse_move(text, state.setup)
    except MoveSyntaxError as e:
        return Answer(ILLEGAL, "", f"{text!r} is not a move of {rules.id}: {str(e).splitlines()[0] if str(e) else ''}")
    missing = rules.absent(move, state.setup)
    if missing is not None:
        return Answer(ILLEGAL, missing[0], missing[1])
    actor = rules.to_move(state)
    if actor is TERMINAL:  # the clause that ended the game decides; the turn clause if the outcome names none
        ended = rules.outcome(state)
        return Answer(OVER, (ended.clause if ended is not None else "") or coverage.turn_clause(rules),
                      f"{text!r} comes after the end of the game")
    if actor is CHANCE:
        try:
            outcomes = dict(rules.chance_outcomes(state))
        except RuleGap as gap:
            return Answer(GAP, gap.ruling, gap.detail)
        if move not in outcomes:
            return Answer(ILLEGAL, coverage.chance_clause(rules, state, None),
                          f"{text!r} is not a chance outcome here (there are {len(outcomes)})")
        return None
    try:
        reason = rules.illegal_reason(state, move)
    except RuleGap as gap:
        return Answer(GAP, gap.ruling, gap.detail)
    if reason is not None:
        because = refusals.why(rules, state, move, reason)
        return Answer(ILLEGAL, reason, f"{actor_text(actor)} may not play {text!r} here" + (f": {because}" if because
                                                                                         else ""))
    return None


def answer(rules: RuleSet, state: Any, text: str) -> Answer:
    """Is ``text`` legal at ``state``, and which clause decides?"""
    refused = _refusal(rules, state, text)
    if refused is not None:
        return refused
    move = rules.parse_move(text, state.setup)
    actor = rules.to_move(state)
    try:
        after = rules.apply(state, move)
    except IllegalMove as e:
        return Answer(ILLEGAL, e.clause, str(e).splitlines()[0] if str(e) else "")
    except RuleGap as gap:
        return Answer(GAP, gap.ruling, gap.detail)
    clauses = coverage.transition_clauses(rules, state, move, after, actor)
    if actor is CHANCE:
        p = dict(rules.chance_outcomes(state))[move]
        return Answer(
            LEGAL, clauses[0] if clauses else "",
            f"a chance outcome here, with probability {fraction_text(Fraction(p))}",
        )
    return Answer(LEGAL, clauses[0] if clauses else "", ", ".join(clauses[1:]))


@dataclass
class RulingAnswers:
    """Every alternative's answer for one ruling (the log's own choice first)."""

    ruling: str
    field: str
    chosen: str
    answers: dict[str, Answer] = field(default_factory=dict)

    @property
    def differs(self) -> bool:
        """Some alternative under which the position arises answers differently."""
        first = self.answers[self.chosen]
        return any(not a.same(first) for a in self.posed().values())

    def posed(self) -> dict[str, Answer]:
        """The answers of the alternatives under which the log reaches the position."""
        return {alt: a for alt, a in self.answers.items() if a.verdict not in (DEPARTS, UNPLAYABLE)}

    def departs(self) -> dict[str, Answer]:
        """The alternatives under which the log could not have been played (the question does not arise)."""
        return {alt: a for alt, a in self.answers.items() if a.verdict in (DEPARTS, UNPLAYABLE)}


def by_alternative(rules: RuleSet, setup: Setup, moves: Sequence[str], steps: int, text: str,
                   base: Answer) -> tuple[list[RulingAnswers], int]:
    """For each ruling, the answer under each of its alternatives (every other ruling as the
    log has it); the rulings whose alternatives answer differently or under one of which
    the log could not have been played, and how many alternatives were tried."""
    out, tried = [], 0
    for rid, f in ruling_fields(rules.Options).items():
        chosen = getattr(setup.options, f.name)
        ra = RulingAnswers(rid, f.name, chosen, {chosen: base})
        for alt in f.metadata["alternatives"]:
            if alt == chosen:
                continue
            tried += 1
            try:
                other = rules.setup(
                    setup.players, dataclasses.replace(setup.options, **{f.name: alt}), setup.components
                )
            except SetupError as e:
                ra.answers[alt] = Answer(UNPLAYABLE, rid, str(e))
                continue
            pos = position(rules, other, moves, steps)
            ra.answers[alt] = pos.failed or answer(rules, pos.state, text)
        if ra.differs or ra.departs():
            out.append(ra)
    return out, tried
