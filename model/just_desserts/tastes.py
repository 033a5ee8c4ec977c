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

from functools import lru_cache, reduce
from itertools import combinations, product
from operator import or_

from ..decks import Deck

# functions that decide nothing about play, and why (the decision-point finder reads this)
PLUMBING = {
    "_guest_bits": "the wanted tastes this dessert shows",
    "servings_of_bits": "nothing can be served (servable_kinds found a wanted taste missing)",
    "kinds_of_bits": "each kind in the set, in id order",
    "servings_of_kind_bits": "each kind in the set, by the tastes it shows",
    "_others": "the union without one card",
}


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


@lru_cache(maxsize=64)
def _dessert_bits(deck: Deck) -> tuple[dict[str, int], dict[int, str]]:
    """(dessert id -> a bit of its own, bit -> dessert id), bits in id order: a set of kinds of
    dessert is then a whole number, and its kinds come out of it sorted."""
    bits = {d: 1 << i for i, d in enumerate(sorted(x.id for x in deck.desserts))}
    return bits, {b: d for d, b in bits.items()}


def hand_bits(deck: Deck, hand: tuple[str, ...]) -> int:
    """The kinds of dessert in ``hand`` as a set of bits (:func:`_dessert_bits`)."""
    return reduce(or_, map(_dessert_bits(deck)[0].__getitem__, hand), 0)


@lru_cache(maxsize=1 << 12)
def _guest_bits(deck: Deck, guest: str) -> tuple[int, tuple[int, ...]]:
    """(the desserts that can be in a serving of ``guest`` with no card to spare, per wanted taste
    the desserts among them that show it), as sets of bits (:func:`_masks`)."""
    full, masks = _masks(deck, guest)
    bits = _dessert_bits(deck)[0]
    need = [0] * full.bit_length()
    for d, m in masks.items():
        for i in range(len(need)):
            if m >> i & 1:
                need[i] |= bits[d]
    return sum(bits[d] for d in masks), tuple(need)


def servable_kinds(deck: Deck, guest: str, kinds: int) -> int:
    """The kinds (bits) among ``kinds`` that can be in a serving of ``guest`` with no card to
    spare, or 0 when together they miss a wanted taste, so that no serving is possible."""
    usable, need = _guest_bits(deck, guest)
    kinds &= usable
    for n in need:
        if not kinds & n:  # rule: jd.serve.satisfies, jd23.satisfy.tastes
            return 0
    return kinds


def minimal_servings(deck: Deck, hand: tuple[str, ...], guest: str, max_cards: int) -> tuple[tuple[str, ...], ...]:
    """Every serving from ``hand`` (a sorted tuple) with no card to spare and at most ``max_cards``
    desserts, in the canonical order of model/decks.py's ``servings``: by size, then by ids.

    Only the kinds of dessert in the hand that can be in such a serving matter (:func:`servable_kinds`),
    so callers cache the servings by those (a retail hand of twenty cards has few kinds that matter
    to one guest)."""
    return servings_of_bits(deck, guest, servable_kinds(deck, guest, hand_bits(deck, hand)), max_cards)


def servings_of_bits(deck: Deck, guest: str, kinds: int, max_cards: int) -> tuple[tuple[str, ...], ...]:
    """:func:`minimal_servings` from one card of each of ``kinds`` (:func:`servable_kinds`)."""
    if not kinds:
        return ()
    return _servings_of_kinds(deck, guest, kinds_of_bits(deck, kinds), max_cards)


def kinds_of_bits(deck: Deck, kinds: int) -> tuple[str, ...]:
    """The dessert ids of a set of bits (:func:`_dessert_bits`), sorted."""
    by_bit = _dessert_bits(deck)[1]
    ids = []
    while kinds:
        low = kinds & -kinds
        ids.append(by_bit[low])
        kinds ^= low
    return tuple(ids)


def _servings_of_kinds(deck: Deck, guest: str, kinds: tuple[str, ...], max_cards: int) -> tuple[tuple[str, ...], ...]:
    """:func:`minimal_servings` from one card of each of ``kinds`` (sorted, each showing a wanted taste).

    Two desserts showing the same wanted tastes are never in one such serving (either could be
    left out), so the servings are the minimal covers of the wanted tastes by the masks the
    hand shows (:func:`_minimal_covers`, cached by masks), each mask filled by any of its kinds."""
    full, masks = _masks(deck, guest)
    by_mask: dict[int, list[str]] = {}
    for c in kinds:
        by_mask.setdefault(masks[c], []).append(c)
    out = _covers_filled(full, by_mask, max_cards)
    out.sort(key=lambda combo: (len(combo), combo))
    return tuple(out)


def servings_of_kind_bits(deck: Deck, guest: str, kinds: int, max_cards: int) -> list[tuple[str, ...]]:
    """The servings of :func:`_servings_of_kinds` in no particular order (for callers that sort them
    their own way), from a set of kinds as bits that :func:`servable_kinds` left (each kind shows a
    wanted taste), without listing the kinds' ids first."""
    full, by_bit = _kinds_by_bit(deck, guest)
    by_mask: dict[int, list[str]] = {}
    while kinds:
        low = kinds & -kinds
        mask, kind = by_bit[low]
        by_mask.setdefault(mask, []).append(kind)
        kinds ^= low
    return _covers_filled(full, by_mask, max_cards)


@lru_cache(maxsize=1 << 12)
def _kinds_by_bit(deck: Deck, guest: str) -> tuple[int, dict[int, tuple[int, str]]]:
    """(the mask of every wanted taste, the bit of a dessert kind (:func:`_dessert_bits`) -> (the mask of
    the wanted tastes it shows, its id)) for the desserts of :func:`_masks`."""
    full, masks = _masks(deck, guest)
    bits = _dessert_bits(deck)[0]
    return full, {bits[d]: (m, d) for d, m in masks.items()}


def _covers_filled(full: int, by_mask: dict[int, list[str]], max_cards: int) -> list[tuple[str, ...]]:
    """Each minimal cover of the wanted tastes by these masks (:func:`_minimal_covers`), each mask
    filled by any of its kinds: the servings, each a sorted tuple."""
    return [tuple(sorted(combo)) for cover in _minimal_covers(full, tuple(sorted(by_mask)), max_cards)
            for combo in product(*map(by_mask.__getitem__, cover))]


@lru_cache(maxsize=1 << 12)
def _minimal_covers(full: int, shown: tuple[int, ...], max_cards: int) -> tuple[tuple[int, ...], ...]:
    """The sets of at most ``max_cards`` distinct masks among ``shown`` whose union is ``full``
    and from which no mask can be left out (jd.serve.satisfies, jd.ruling.serving-size)."""
    out = []
    for size in range(1, min(max_cards, len(shown)) + 1):
        for ms in combinations(shown, size):
            union = 0
            for m in ms:
                union |= m
            if union != full:  # rule: jd.serve.satisfies, jd23.satisfy.tastes
                continue
            # rule: jd.ruling.serving-size, jd23.ruling.spare-desserts
            if size == 1 or all(_others(ms, i) != full for i in range(size)):
                out.append(ms)
    return tuple(out)


def _others(ms: tuple[int, ...], skip: int) -> int:
    union = 0
    for i, m in enumerate(ms):
        if i != skip:
            union |= m
    return union
