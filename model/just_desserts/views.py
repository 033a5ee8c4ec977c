"""Views and invariants of Just Desserts (current rulebook): what a seat may see, the whole
state as JSON, and the properties every reachable state must have.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..core import Invariant
from .game import _draw_phase, _duplicated_suits, legal_moves, to_move, winner
from .state import MAX_SERVINGS, deck_of, doorway

# functions that decide nothing about play, and why (the decision-point finder reads this)
PLUMBING = {
    "_offer_json": "JSON of an absent offer",
    "observation": "JSON form of an actor; a seat sees its own legal moves only",
    "_every_card_in_one_zone": "invariant jd.setup.components counts desserts on offer",
    "_at_most_two_served": "invariant jd.turn.satisfy-guests",
    "_no_unnoticed_win": "invariant jd.win.any-time",
    "_poach_limits": "invariant jd.poach.one-opportunity; invariant: a window has an offer",
}


def _offer_json(offer: Any) -> dict | None:
    if offer is None:
        return None
    return {"server": offer.server, "guest": offer.guest, "cards": list(offer.cards), "victim": offer.victim}


def open_hands(state: Any) -> list[list[str]] | None:
    """Every hand, when every dessert is in a hand (none in the pile or its discards), else None.

    jd.ruling.no-serving-possible: from then on no hand changes until somebody serves, and
    whether the game is stuck (and, under jd.ruling.all-guests-claimed=draw or
    jd.ruling.faq-score-when=when-settled, whether a claimed guest can still move) depends on
    the hands; the players lay them open to see it, so the end never tells a seat more than
    it sees (jd.ruling.open-hands=when-all-in-hands; under ``never`` no hand is ever shown)."""
    if state.setup.options.open_hands == "never":  # rule: jd.ruling.open-hands
        return None
    if state.dessert_pile or state.dessert_discard:  # rule: jd.ruling.no-serving-possible, jd.ruling.open-hands
        return None
    return [list(h) for h in state.hands]


def observation(state: Any, seat: int) -> dict[str, Any]:
    """What ``seat`` may see: its own hand; other hands only as sizes (all of them once every
    dessert is in a hand, :func:`open_hands`); piles only as sizes."""
    actor = to_move(state)
    return {
        "seat": seat,
        "turn": state.turn,
        "phase": state.phase,
        "to_move": actor if isinstance(actor, int) else repr(actor),
        "hand": list(state.hands[seat]),
        "hand_sizes": [len(h) for h in state.hands],
        "open_hands": open_hands(state),
        "claimed": [list(c) for c in state.claimed],
        "centre": list(state.centre),
        "doorway": doorway(state),
        "guest_discard_size": len(state.guest_discard),
        "guest_pile_size": len(state.guest_pile),
        "dessert_pile_size": len(state.dessert_pile),
        "dessert_discard": list(state.dessert_discard),
        "served": state.served,
        "offer": _offer_json(state.offer),
        "legal_moves": [str(m) for m in legal_moves(state)] if actor == seat else [],
    }


def state_vars(state: Any) -> dict[str, Any]:
    """The whole state, JSON-able, without the setup."""
    return {
        "hands": [list(h) for h in state.hands],
        "claimed": [list(c) for c in state.claimed],
        "dessert_pile": list(state.dessert_pile),
        "dessert_discard": list(state.dessert_discard),
        "guest_pile": list(state.guest_pile),
        "guest_discard": list(state.guest_discard),
        "centre": list(state.centre),
        "turn": state.turn,
        "phase": state.phase,
        "tasks": [list(t) for t in state.tasks],
        "opening": state.opening,
        "served": state.served,
        "committed": state.committed,
        "poach": state.poach,
        "shielded": list(state.shielded),
        "offer": _offer_json(state.offer),
        "answerers": list(state.answerers),
        "speaker": state.speaker,
        "returning": list(state.returning),
        "dumped": state.dumped,
        "winner": state.winner,
        "end_clause": state.end_clause,
    }


# --------------------------------------------------------------------------- invariants


def _every_card_in_one_zone(state: Any) -> str | None:
    deck = deck_of(state)
    desserts = list(state.dessert_pile) + list(state.dessert_discard)
    for h in state.hands:
        desserts += h
    if state.offer is not None:
        desserts += state.offer.cards
    if sorted(desserts) != list(deck.dessert_cards()):
        return f"desserts in zones {Counter(desserts)} differ from the deck"
    guests = list(state.guest_pile) + list(state.guest_discard) + list(state.centre)
    for c in state.claimed:
        guests += c
    if sorted(guests) != list(deck.guest_cards()):
        return f"guests in zones {sorted(guests)} differ from the deck"
    return None


def _one_per_suit_after_discard(state: Any) -> str | None:
    # rule: jd.ruling.opening-duplicates, jd.discard.one-per-suit (looked at when a turn starts)
    if state.opening or state.tasks != _draw_phase(state.turn) or state.phase != "choose":
        return None
    dup = _duplicated_suits(state)
    # plumbing: invariant jd.discard.one-per-suit
    return f"suits {sorted(dup)} show twice after a discard phase" if dup else None


def _at_most_two_served(state: Any) -> str | None:
    return f"{state.served} guests served in one turn" if state.served > MAX_SERVINGS else None


def _no_unnoticed_win(state: Any) -> str | None:
    if state.phase != "over" and winner(state) is not None:
        return "a player holds a winning set but the game goes on"
    return None


def _poach_limits(state: Any) -> str | None:
    if state.poach not in ("", "done", "blocked"):
        return f"bad poach state {state.poach!r}"
    if state.phase == "window" and state.offer is None:
        return "an answer window without an offer"
    return None


INVARIANTS = (
    Invariant("every-card-in-one-zone", "jd.setup.components", _every_card_in_one_zone),
    Invariant("one-guest-per-suit-after-discard", "jd.discard.one-per-suit", _one_per_suit_after_discard),
    Invariant("at-most-two-served", "jd.turn.satisfy-guests", _at_most_two_served),
    Invariant("win-ends-game", "jd.win.any-time", _no_unnoticed_win),
    Invariant("poach-state", "jd.poach.one-opportunity", _poach_limits),
)
