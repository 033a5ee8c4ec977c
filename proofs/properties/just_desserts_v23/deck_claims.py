"""Just Desserts 2.3: the deck claims of the Tips & Hints and the Favorites section
(jd23.tips.*, jd23.favourite.nature-girl), checked on the decks bound by them.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from .. import Problem, Property
from .readers import DEAL, TIPS_DECKS, table


def favoured(deck: Any) -> set[str]:
    """Desserts that are some guest's Favorite."""
    return {f for g in deck.guests for f in g.favorites}


def _icons(deck: Any, test: Callable[[int], bool]) -> list[str]:
    return [d.id for d in deck.desserts if test(len(d.tastes))]


def three_icons_unfavoured(deck: Any) -> list[str]:
    """jd23.tips.three-icons-favourite: desserts of three icons or more nobody favours."""
    return [d for d in _icons(deck, lambda k: k >= 3) if d not in favoured(deck)]


def two_icon_split(deck: Any) -> tuple[list[str], list[str]]:
    """jd23.tips.two-icons-some-favourite: (two-icon Favorites, two-icon desserts nobody favours)."""
    two = _icons(deck, lambda k: k == 2)
    return [d for d in two if d in favoured(deck)], [d for d in two if d not in favoured(deck)]


def single_icon_favourites(deck: Any) -> list[str]:
    """jd23.tips.single-icon-never-favourite: one-icon desserts that are a Favorite."""
    return [d for d in _icons(deck, lambda k: k == 1) if d in favoured(deck)]


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", text.casefold()) if len(w) >= 4}


def name_hints(deck: Any) -> list[tuple[str, str]]:
    """jd23.tips.names-hint: (guest, Favorite) whose names share a word of four letters or more."""
    return [(g.id, f) for g in deck.guests for f in g.favorites if _words(g.name) & _words(deck.dessert(f).name)]


def favourite_exceptions(deck: Any) -> list[str]:
    """jd23.favourite.nature-girl: guests without a Favorite other than Nature Girl, and Nature Girl
    if she has one."""
    return [g.id for g in deck.guests if bool(g.favorites) == (g.name.casefold() == "nature girl")]


def _at_start(fn: Callable[[Any], Problem]) -> Callable[[Any, Any], Problem]:
    """A deck claim, checked on the deck of the setup when a game starts (nothing dealt yet)."""
    def check(rules: Any, state: Any) -> Problem:
        t = table(rules, state)
        if t.phase != DEAL or any(t.hands):
            return None
        return fn(t.deck)
    check.__doc__ = fn.__doc__
    return check


def _deck_claim(fn: Callable[[Any], Any], what: str) -> Callable[[Any], Problem]:
    def check(deck: Any) -> Problem:
        broken = fn(deck)
        return f"deck {deck.name}: {what}: {broken}" if broken else None
    check.__doc__ = fn.__doc__
    return check


def _two_icons_both(deck: Any) -> list[str]:
    favs, others = two_icon_split(deck)
    return ([] if favs else ["no two-icon Favorite"]) + (
        [] if others else ["no two-icon dessert outside the Favorites"]
    )


def _some_name_hint(deck: Any) -> list[str]:
    return [] if name_hints(deck) else ["no guest's name shares a word with its Favorite's"]


DECK_CLAIMS = {
    "jd23.tips.three-icons-favourite": _deck_claim(three_icons_unfavoured, "three-icon desserts nobody favours"),
    "jd23.tips.two-icons-some-favourite": _deck_claim(_two_icons_both, "two-icon desserts"),
    "jd23.tips.single-icon-never-favourite": _deck_claim(single_icon_favourites, "single-icon Favorites"),
    "jd23.tips.names-hint": _deck_claim(_some_name_hint, "names"),
    "jd23.favourite.nature-girl": _deck_claim(
        favourite_exceptions, "guests breaking 'all but Nature Girl have a Favorite'"
    ),
}


def _tips_deck(setup: Any) -> bool:
    return getattr(setup.components, "name", None) in TIPS_DECKS


PROPERTIES = (
    *(
        Property(
            clause, f"deck claim on decks bound by it ({', '.join(sorted(TIPS_DECKS))})", state=_at_start(fn),
            applies=_tips_deck,
            lines={"jd23.tips.three-icons-favourite": (39, 39), "jd23.tips.two-icons-some-favourite": (40, 40),
                   "jd23.tips.single-icon-never-favourite": (41, 41), "jd23.tips.names-hint": (42, 42),
                   "jd23.favourite.nature-girl": (25, 25)}[clause],
        )
        for clause, fn in DECK_CLAIMS.items()
    ),
)
