"""Servings with no card to spare, found by taste masks (both editions; the hot path of play).

A serving with no card to spare (jd.ruling.serving-size = minimal, jd23.ruling.spare-desserts =
minimal) never holds two copies of a dessert, nor a dessert that shows no taste the guest wants:
either could be left out.  So it is a set of distinct desserts the guest does not refuse, each
showing a wanted taste no other card of the set shows, together showing every wanted taste.
Each dessert becomes a bit mask of the guest's wanted tastes, and the sets are checked with
bit operations instead of taste sets.  model/decks.py's ``servings`` is the reference the tests
compare with (tests/model/test_just_desserts_tastes.py).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from ..decks import Deck


@lru_cache(maxsize=1 << 12)
def _masks(deck: Deck, guest: str) -> tuple[int, dict[str, int]]:
    """(the mask of every wanted taste, dessert id -> mask of the wanted tastes it shows) for the
    desserts the guest will eat that show at least one wanted taste."""
    g = deck.guest(guest)
    wanted = sorted(g.wants)
    bit = {t: 1 << i for i, t in enumerate(wanted)}
    out = {}
    for d in deck.desserts:
        if d.tastes & g.refuses:  # rule: jd.serve.satisfies, jd23.satisfy.tastes
            continue
        m = 0
        for t in d.tastes:
            m |= bit.get(t, 0)
        if m:  # plumbing: a dessert showing no wanted taste is never in a minimal serving
            out[d.id] = m
    return (1 << len(wanted)) - 1, out


@lru_cache(maxsize=1 << 16)
def minimal_servings(deck: Deck, hand: tuple[str, ...], guest: str, max_cards: int) -> tuple[tuple[str, ...], ...]:
    """Every serving from ``hand`` (a sorted tuple) with no card to spare and at most ``max_cards``
    desserts, in the canonical order of model/decks.py's ``servings``: by size, then by ids."""
    full, masks = _masks(deck, guest)
    kinds = sorted({c for c in hand if c in masks})  # plumbing: only desserts that can be in such a serving
    out = []
    for size in range(1, min(max_cards, len(kinds)) + 1):
        for combo in combinations(kinds, size):
            ms = [masks[c] for c in combo]
            union = 0
            for m in ms:
                union |= m
            if union != full:  # rule: jd.serve.satisfies, jd23.satisfy.tastes
                continue
            if size == 1 or all(_others(ms, i) != full for i in range(size)):  # rule: jd.ruling.serving-size, jd23.ruling.spare-desserts
                out.append(combo)
    return tuple(out)


def _others(ms: list[int], skip: int) -> int:
    union = 0
    for i, m in enumerate(ms):
        if i != skip:  # plumbing: the union without one card
            union |= m
    return union
