"""Just Desserts 2.3: where the text is silent (the strict alternatives).

Under a ruling's strict alternative the model raises a rule gap exactly where the text is
silent; :func:`gaps_only_where_silent` checks that it does so there and nowhere else, asking each
ruling's own question of the position (who may trump, which Favorite earns a card, who takes a
penalty, ...).  The families' tables use it for their rulings' gaps.
"""

from __future__ import annotations

from typing import Any, Callable

from tablerules.model.core import CHANCE, TERMINAL, RuleGap

from .. import Problem
from .readers import (ANSWER, GUEST_EMPTY, PENALTY, Said, _memo, alt, can_serve, earns_card, favourite_cards_due,
    favourites_in, holders, said, table)


def gaps(rules: Any, state: Any) -> list[tuple[Any, RuleGap]]:
    """Every RuleGap raised here: (None, gap) when asking for the chance outcomes raises, else
    (move, gap) for each move or outcome whose application raises."""
    def compute() -> list[tuple[Any, RuleGap]]:
        actor = rules.to_move(state)
        if actor is TERMINAL:
            return []
        if actor is CHANCE:
            try:
                moves = [m for m, _ in rules.chance_outcomes(state)]
            except RuleGap as g:
                return [(None, g)]
        else:
            moves = list(rules.legal_moves(state))
        out = []
        for m in moves:
            try:
                rules.apply(state, m)
            except RuleGap as g:
                out.append((m, g))
        return out
    return _memo("gaps", rules.apply, state, compute)


def contenders_after(rules: Any, state: Any, move: Any) -> tuple[int, ...]:
    """Who contends for the guest once ``move`` is played: the callers when the last answer comes
    in, the other standing callers after a failure, else those standing now."""
    t = table(rules, state)
    m = said(move) if move is not None else Said("none")
    seat = rules.to_move(state)
    if t.phase == ANSWER and m.kind in ("call", "pass"):
        return tuple(sorted(set(t.callers()) | ({seat} if m.kind == "call" else set())))
    if m.kind == "fail":
        return tuple(s for s in t.live() if s != seat)
    return t.live()


def _trump_question(rules: Any, state: Any, move: Any) -> bool:
    """jd23.ruling.favourite-trump's question arises: several contenders, one holding a Favorite."""
    t = table(rules, state)
    if t.trumped:
        return False
    who = contenders_after(rules, state, move)
    h = holders(t, who)
    return h is None or (len(who) >= 2 and bool(h))


def _two_favourites_question(rules: Any, state: Any, move: Any) -> bool:
    m = said(move) if move is not None else Said("none")
    t = table(rules, state)
    return m.kind == "serve" and earns_card(t, m.cards) and len(favourites_in(t, m.cards)) >= 2


def _taker_question(rules: Any, state: Any, move: Any) -> bool:
    return (
        any(m.kind == "penalty" for m in ([said(move)] if move is not None else []))
        or table(rules, state).phase == PENALTY
    )


def _empty_hand_question(rules: Any, state: Any, move: Any) -> bool:
    """A mistaken caller with no card must pay: the last standing caller failed, or (penalty)
    a tie included a caller who cannot serve."""
    m = said(move) if move is not None else Said("none")
    t = table(rules, state)
    if m.kind == "fail":
        return set(t.live()) == {rules.to_move(state)} and any(not t.hands[c] for c in t.callers())
    if m.kind == "simultaneous":
        return any(not t.hands[c] for c in t.live() if not can_serve(t, c))
    return False


def _nothing_left_question(rules: Any, state: Any, move: Any) -> bool:
    """The guest pile runs out the first time with no discarded guest to shuffle."""
    t = table(rules, state)
    m = said(move) if move is not None else Said("none")
    if t.reshuffled or t.discards:
        return False
    if m.kind == "turn-up":
        return t.guest_pile == (m.guest,) and alt(t.setup, GUEST_EMPTY) == "at-last-turn-up"
    return not t.guest_pile and (t.guest is None or m.kind == "serve")


def _kitchen_question(rules: Any, state: Any, move: Any) -> bool:
    m = said(move) if move is not None else Said("none")
    t = table(rules, state)
    return m.kind == "serve" and bool(favourite_cards_due(t, m.cards)) and not t.closed and len(t.pile) < t.n


def _tie_question(rules: Any, state: Any, move: Any) -> bool:
    t = table(rules, state)
    return move is not None and said(move).kind == "simultaneous" and any(not can_serve(t, c) for c in t.live())


def gaps_only_where_silent(ruling_id: str, question: Callable[[Any, Any, Any], bool]) -> Callable[[Any, Any], Problem]:
    """A ruling's gap: its strict alternative raises it exactly where its question arises (here,
    the direction "only there"; the properties of the clause check that the answer is given
    elsewhere), and its other alternatives never raise it."""
    def check(rules: Any, state: Any) -> Problem:
        choice = alt(state.setup, ruling_id)
        for move, gap in gaps(rules, state):
            if gap.ruling != ruling_id:
                continue
            if choice != "strict":
                return f"{ruling_id} = {choice} decides, yet {move} raises its gap: {gap.detail}"
            if not question(rules, state, move):
                return f"strict {ruling_id} raises a gap on {move} where its question does not arise: {gap.detail}"
        return None
    check.__doc__ = f"{ruling_id}: gaps only under strict, and only where the question arises."
    return check
