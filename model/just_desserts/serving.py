"""Serving a guest (current rulebook): what satisfies it, the tips, and a serving that succeeds.

Clause ids refer to spec/just_desserts.toml.  Every serving attempt ends here when nobody
answers it (advanced.py opens the answer window first when somebody may).
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import repeat
from typing import Sequence

from ..decks import Deck, is_minimal, satisfies, servings
from .moves import Move
from .state import DRAW, Offer, State, deck_of, evolve, minus, plus, set_seat
from .tastes import hand_bits, servable_kinds, servings_of_bits, servings_of_kind_bits


def guest_servings(state: State, hand: tuple[str, ...], guest: str) -> tuple[tuple[str, ...], ...]:
    """Every set of desserts from ``hand`` that may be served to ``guest`` (jd.turn.satisfy-guests).

    With the default ruling jd.ruling.serving-size=minimal a serving has no card to spare,
    so it has at most one card per wanted taste.
    """
    return satisfying_sets(deck_of(state), hand, guest, state.setup.options.serving_size == "minimal")


def offers_serving(state: State, hand: tuple[str, ...], guest: str, cards: tuple[str, ...]) -> bool:
    """Whether ``cards`` is one of :func:`guest_servings` of ``hand`` (in its sorted form), decided
    without listing them all (a retail hand of twenty cards has a million subsets): desserts the
    hand holds that satisfy the guest (jd.serve.satisfies), with no card to spare under
    jd.ruling.serving-size=minimal."""
    deck = deck_of(state)
    if not cards or list(cards) != sorted(cards) or Counter(cards) - Counter(hand):  # plumbing: held, in order
        return False
    if not satisfies(deck, cards, guest):  # rule: jd.serve.satisfies
        return False
    # rule: jd.ruling.serving-size
    return state.setup.options.serving_size != "minimal" or is_minimal(deck, cards, guest)


def serving_moves(state: State, verb: str, guests: list[str]) -> list[Move]:
    """``Move(verb, g, s)`` for every serving ``s`` of each guest ``g`` of ``guests`` from the hand
    of the player whose turn it is (jd.turn.satisfy-guests): each guest's moves together, in the
    order of moves, as :func:`guest_servings` finds them."""
    deck = deck_of(state)
    hand = state.hands[state.turn]
    if state.setup.options.serving_size != "minimal":  # rule: jd.ruling.serving-size
        return [m for g in guests for m in _moves_of_hand(deck, verb, g, hand)]
    kinds = hand_bits(deck, hand)
    out: list[Move] = []
    for g in guests:
        usable = servable_kinds(deck, g, kinds)
        if usable:  # plumbing: servable_kinds found no serving possible
            out += _moves_of_kinds(deck, verb, g, usable)
    return out


@lru_cache(maxsize=1 << 16)
def _moves_of_kinds(deck: Deck, verb: str, guest: str, kinds: int) -> tuple[Move, ...]:
    """The moves of :func:`serving_moves` for servings with no card to spare from these kinds of dessert
    (:func:`_minimal_sets`, put in the order of moves only once)."""
    sets = servings_of_kind_bits(deck, guest, kinds, len(deck.guest(guest).wants))
    return _moves(verb, guest, sets)


@lru_cache(maxsize=1 << 12)
def _moves_of_hand(deck: Deck, verb: str, guest: str, hand: tuple[str, ...]) -> tuple[Move, ...]:
    """The moves of :func:`serving_moves` for any servings from this hand (jd.ruling.serving-size=any)."""
    return _moves(verb, guest, satisfying_sets(deck, hand, guest, False))


def _moves(verb: str, guest: str, sets: Sequence[tuple[str, ...]]) -> tuple[Move, ...]:
    return tuple(map(_move, repeat(verb), repeat(guest), sorted(sets)))


@lru_cache(maxsize=1 << 14)
def _move(verb: str, guest: str, cards: tuple[str, ...]) -> Move:
    return Move(verb, guest, cards)


@lru_cache(maxsize=1 << 16)
def satisfying_sets(deck: Deck, hand: tuple[str, ...], guest: str, minimal: bool = True) -> tuple[tuple[str, ...], ...]:
    """Given a hand and a guest: every set of desserts from the hand that may be served to it.

    Sorted tuples of dessert ids, in canonical order (jd.serve.satisfies); ``minimal`` is
    jd.ruling.serving-size=minimal (no card to spare).
    """
    hand = tuple(sorted(hand))
    if minimal:  # rule: jd.ruling.serving-size
        return _minimal_sets(deck, guest, servable_kinds(deck, guest, hand_bits(deck, hand)))
    return servings(deck, hand, guest)


def _minimal_sets(deck: Deck, guest: str, kinds: int) -> tuple[tuple[str, ...], ...]:
    """The servings with no card to spare from one card of each of ``kinds`` (bits, as
    :func:`servable_kinds` leaves them): at most one card per wanted taste (jd.ruling.serving-size)."""
    return servings_of_bits(deck, guest, kinds, len(deck.guest(guest).wants))


def tips_for(state: State, guest: str, cards: tuple[str, ...]) -> int:
    """Tips for serving these desserts to this guest (jd.tip.favourite, jd.ruling.tip-count,
    jd.ruling.favourite-with-others)."""
    favs = deck_of(state).guest(guest).favorites
    n = sum(1 for c in cards if c in favs)  # rule: jd.tip.favourite
    # rule: jd.ruling.favourite-with-others
    if len(cards) > 1 and state.setup.options.favourite_with_others == "alone-only":
        return 0
    if state.setup.options.tip_count == "one-per-guest":  # rule: jd.ruling.tip-count
        return min(n, 1)
    return n


def serve_succeeds(state: State, offer: Offer) -> State:
    """The guest joins the server; the desserts go to the discard pile; tips follow (jd.tip.favourite)."""
    s = take_guest(state, offer.guest, offer.victim)
    claimed = set_seat(s.claimed, offer.server, plus(s.claimed[offer.server], (offer.guest,)))
    tasks = ((DRAW, offer.server),) * tips_for(state, offer.guest, offer.cards)
    poach = s.poach
    if offer.victim >= 0:  # rule: jd.poach.one-opportunity, jd.poach.victim-tip
        poach = "done"
        victim = ((DRAW, offer.victim),)
        # rule: jd.ruling.tip-order
        tasks = tasks + victim if state.setup.options.tip_order == "server-first" else victim + tasks
    phase = "discard" if offer.back == "buffet" else "choose"  # rule: jd.buffet.serve-one
    return evolve(
        s, claimed=claimed, dessert_discard=plus(s.dessert_discard, offer.cards), served=s.served + 1,
        committed=True, poach=poach, offer=None, answerers=(), speaker=-1, phase=phase, tasks=s.tasks + tasks,
    )


def take_guest(state: State, guest: str, victim: int) -> State:
    """Remove a guest from where it is: a player's guests, the middle or the doorway."""
    if victim >= 0:  # rule: jd.poach.attempt
        return evolve(state, claimed=set_seat(state.claimed, victim, minus(state.claimed[victim], (guest,))))
    if guest in state.centre:  # rule: jd.turn.satisfy-guests
        return evolve(state, centre=minus(state.centre, (guest,)))
    # the doorway guest: the one beneath now stands in the doorway (jd.discard.doorway)
    return evolve(state, guest_discard=state.guest_discard[:-1])

