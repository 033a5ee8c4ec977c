"""The 'twins' symmetry of Just Desserts: guests whose cards differ only by name are interchangeable.

Used by the explorer to store one state per orbit (the package's RULES registers it as
the default symmetry).  Sound because the rules (jd.serve.satisfies, jd.win.three-of-a-suit,
jd.discard.one-per-suit, ...) look at a guest only through its suit, tastes and favourites.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any

from ..decks import Deck
from .state import evolve

# this module decides nothing about play, and why (the decision-point finder reads this)
PLUMBING = "canonical forms of states (cards that play alike are twins)"


def _guest_kind(deck: Deck, guest_id: str) -> tuple:
    g = deck.guest(guest_id)
    return (g.suit, tuple(sorted(g.wants)), tuple(sorted(g.refuses)), g.favorites)


@lru_cache(maxsize=64)
def twin_classes(deck: Deck) -> tuple[tuple[str, ...], ...]:
    """Groups of two or more guests whose cards are the same but for the name."""
    groups: dict[tuple, list[str]] = {}
    for gid in deck.guest_cards():
        groups.setdefault(_guest_kind(deck, gid), []).append(gid)
    return tuple(tuple(sorted(v)) for v in groups.values() if len(v) > 1)


def _locations(state: Any) -> dict[str, tuple]:
    """Where each guest is, as a sortable key (which pile, place in the discards, which seat)."""
    where: dict[str, tuple] = {g: (0,) for g in state.guest_pile}
    for g in state.centre:
        where[g] = (1,)
    for i, g in enumerate(state.guest_discard):
        where[g] = (2, i)
    if state.offer is not None:
        where[state.offer.guest] = (3,)
    for seat, guests in enumerate(state.claimed):
        for g in guests:
            where[g] = (4, seat, g in state.shielded)
    return where


def canonical_twins(state: Any) -> Any:
    """Rename guests that are twins (same suit, tastes and favourites) into a canonical order.

    Sound because the rules look at a guest only through its suit, tastes and favourites;
    the name never matters.
    """
    classes = twin_classes(state.setup.components)
    if not classes or state.seen:  # a history (jd.ruling.endless-play) names guests too: no renaming
        return state
    rename: dict[str, str] = {}
    where = _locations(state)
    for members in classes:
        spots = sorted((where[g], g) for g in members)
        for new, (_, old) in zip(members, spots):
            if new != old:
                rename[old] = new
    if not rename:
        return state

    def r(gs):
        return tuple(sorted(rename.get(g, g) for g in gs))

    offer = state.offer
    if offer is not None and offer.guest in rename:
        offer = replace(offer, guest=rename[offer.guest])
    return evolve(
        state, claimed=tuple(r(c) for c in state.claimed), centre=r(state.centre), guest_pile=r(state.guest_pile),
        guest_discard=tuple(rename.get(g, g) for g in state.guest_discard), offer=offer,
        shielded=tuple(sorted(rename.get(g, g) for g in state.shielded)),
    )
