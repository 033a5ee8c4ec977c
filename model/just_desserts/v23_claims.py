"""Deck claims of Just Desserts rules version 2.3: what the rulebook's "Tips & Hints" and its
Favorites section say about the deck it was written for.

Each function returns the cards that break the claim on ``deck`` (empty: it holds);
proofs/just_desserts/v23_proofs.py turns them into results on record.  Clause ids refer to
spec/just_desserts_v23.toml.
"""

from __future__ import annotations

import itertools
import re
from typing import Iterator

from ..decks import Deck, is_minimal, satisfies
from .v23 import MAX_SERVING

# this module decides nothing about play, and why (the decision-point finder reads this)
PLUMBING = "deck claims checked by the proofs, not rules of play"

def favourite_of(deck: Deck) -> dict[str, tuple[str, ...]]:
    """Dessert id -> the guests whose favourite it is."""
    out: dict[str, list[str]] = {}
    for g in deck.guests:
        for f in g.favorites:
            out.setdefault(f, []).append(g.id)
    return {k: tuple(v) for k, v in out.items()}


def _icons(deck: Deck, n: int, more: bool = False) -> tuple[str, ...]:
    return tuple(d.id for d in deck.desserts if (len(d.tastes) >= n if more else len(d.tastes) == n))


def three_icons_not_favourite(deck: Deck) -> tuple[str, ...]:
    """jd23.tips.three-icons-favourite: desserts with three or more icons that nobody favours."""
    favs = favourite_of(deck)
    return tuple(d for d in _icons(deck, 3, more=True) if d not in favs)


def two_icon_split(deck: Deck) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """jd23.tips.two-icons-some-favourite: (two-icon favourites, two-icon desserts nobody favours);
    the claim needs both to be non-empty."""
    favs = favourite_of(deck)
    two = _icons(deck, 2)
    return tuple(d for d in two if d in favs), tuple(d for d in two if d not in favs)


def single_icon_favourites(deck: Deck) -> tuple[str, ...]:
    """jd23.tips.single-icon-never-favourite: one-icon desserts that are somebody's favourite."""
    favs = favourite_of(deck)
    return tuple(d for d in _icons(deck, 1) if d in favs)


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", text.casefold()) if len(w) >= 4}


def name_hints(deck: Deck) -> tuple[tuple[str, str], ...]:
    """jd23.tips.names-hint: (guest, favourite) pairs whose names share a word of four letters or
    more (one inside the other counts: "Fruitcake" and "Fruit cake")."""
    out = []
    for g in deck.guests:
        gname = g.name.casefold()
        for f in g.favorites:
            fname = deck.dessert(f).name.casefold()
            if any(w in fname for w in _words(gname)) or any(w in gname for w in _words(fname)):
                out.append((g.id, f))
    return tuple(out)


def favourite_exceptions(deck: Deck) -> tuple[str, ...]:
    """jd23.favourite.nature-girl: guests that break "everyone but Nature Girl has a favourite"."""
    out = []
    for g in deck.guests:
        is_nature_girl = g.name.casefold() == "nature girl"
        if bool(g.favorites) == is_nature_girl:
            out.append(g.id)
    return tuple(out)


def _deck_servings(deck: Deck, guest: str) -> Iterator[tuple[str, ...]]:
    """Servings of one to three *different* desserts of the deck with no card to spare (a second
    copy of a dessert adds no taste, so copies never matter here)."""
    g = deck.guest(guest)
    usable = sorted(d.id for d in deck.desserts if not (d.tastes & g.refuses) and d.tastes & g.wants)
    for size in range(1, MAX_SERVING + 1):
        for combo in itertools.combinations(usable, size):
            if satisfies(deck, combo, guest) and is_minimal(deck, combo, guest):
                yield combo


def unservable_guests(deck: Deck) -> tuple[str, ...]:
    """jd23.serve.one-to-three: guests no one to three cards of the whole deck can satisfy."""
    return tuple(g.id for g in deck.guests if next(_deck_servings(deck, g.id), None) is None)


def idle_favourites(deck: Deck) -> tuple[tuple[str, str], ...]:
    """jd23.favourite.extra-card: (guest, favourite) pairs where the favourite is in no serving
    of one to three cards with nothing to spare, so it can never earn its extra card."""
    out = []
    for g in deck.guests:
        missing = set(g.favorites)
        for combo in _deck_servings(deck, g.id):
            missing -= set(combo)
            if not missing:
                break
        out.extend((g.id, f) for f in g.favorites if f in missing)
    return tuple(out)
