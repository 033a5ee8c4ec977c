"""Just Desserts: the components and the set up (jd.setup.*, jd.first.player, jd.suits.six,
jd.tastes.icons).

The printed cards, card conservation, the deal of three desserts and three guests (followed
through the opening's chance outcomes), the discard piles before the deal and the first
player's full choice of options.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any, Callable

from tablerules.model.core import CHANCE, TERMINAL, RuleGap

from .. import Problem, Property
from .readers import (_MEMO, V, actor, apply, compare, depart_keys, duplicated_suits, hand_sizes, legal, same,
    suit_counts, turn_start_keys)


_TWELVE = {"Chocolate", "Cookie", "Nuts", "Pie", "Spices", "Ice Cream", "Fruit", "Cake", "Marshmallow", "Pastry",
           "Veggies", "Pudding"}


@lru_cache(maxsize=256)
def _deck_faces(deck: Any) -> Problem:
    """jd.setup.components: a dessert shows one to four tastes; a guest has a suit, cravings,
    refusals and at most two favourites, which are desserts of the deck."""
    for d in deck.desserts:
        if not 1 <= len(d.tastes) <= 4:
            return f"dessert {d.id} shows {len(d.tastes)} tastes"
    for g in deck.guests:
        if not g.wants:
            return f"guest {g.id} craves nothing"
        if len(g.favorites) > 2:
            return f"guest {g.id} has {len(g.favorites)} favourites"
        for f in g.favorites:
            if not deck.has_dessert(f):
                return f"guest {g.id}: favourite {f} is not a dessert"
    return None


def p_card_faces(rules: Any, state: Any) -> Problem:
    """jd.setup.components: the printed cards have the faces the rulebook describes."""
    return _deck_faces(state.setup.components)


def p_conservation(rules: Any, state: Any) -> Problem:
    """jd.setup.components: every card is in exactly one place (piles, discards, hands, the
    desserts on offer, the middle, claimed guests)."""
    deck, v = state.setup.components, V(rules, state)
    desserts = Counter(v["dessert_pile"]) + Counter(v["dessert_discard"])
    for h in v["hands"]:
        desserts += Counter(h)
    if v["offer"] is not None:
        desserts += Counter(v["offer"]["cards"])
    if desserts != Counter(deck.dessert_cards()):
        diff = (desserts - Counter(deck.dessert_cards())) + (Counter(deck.dessert_cards()) - desserts)
        return f"desserts are not each in one place: {dict(diff)}"
    guests = list(v["guest_pile"]) + list(v["guest_discard"]) + list(v["centre"]) + [g for c in v["claimed"] for g in c]
    if sorted(guests) != sorted(deck.guest_cards()):
        return f"guests are not each in one place: {sorted(Counter(guests) - Counter(deck.guest_cards()))} twice, " \
               f"{sorted(set(deck.guest_cards()) - set(guests))} nowhere"
    return None


def p_suits(rules: Any, state: Any) -> Problem:
    """jd.suits.six: every guest has one of the deck's suits; every suit has the same number of guests."""
    deck = state.setup.components
    counts = suit_counts(deck, deck.guest_cards())
    if set(counts) != set(deck.suits) or len(set(counts.values())) != 1:
        return f"suits of unequal size: {dict(counts)}"
    return None


def p_tastes(rules: Any, state: Any) -> Problem:
    """jd.tastes.icons: the deck's tastes are among the twelve icons and every card uses only them."""
    deck = state.setup.components
    listed = set(deck.tastes)
    if not listed <= _TWELVE:
        return f"tastes not among the twelve icons: {sorted(listed - _TWELVE)}"
    for d in deck.desserts:
        if not set(d.tastes) <= listed:
            return f"dessert {d.id} shows a taste the deck does not list"
    for g in deck.guests:
        if not (set(g.wants) | set(g.refuses)) <= listed:
            return f"guest {g.id} names a taste the deck does not list"
    return None


def is_start(rules: Any, state: Any) -> bool:
    v = V(rules, state)
    if any(v["hands"]) or v["centre"] or any(v["claimed"]) or v["guest_discard"] or v["dessert_discard"]:
        return False
    return state == rules.new_game(state.setup)


def p_piles(rules: Any, state: Any) -> Problem:
    """jd.setup.piles: before the deal both decks are whole draw piles with empty discard piles
    beside them; a discard pile only ever holds cards of its own deck."""
    deck, v = state.setup.components, V(rules, state)
    if any(not deck.has_dessert(c) for c in v["dessert_discard"]) \
            or any(not deck.has_guest(g) for g in v["guest_discard"]):
        return "a discard pile holds a card of the other deck"
    if not is_start(rules, state):
        return None
    if not same(v["dessert_pile"], deck.dessert_cards()) or not same(v["guest_pile"], deck.guest_cards()):
        return "before the deal the draw piles are not the whole decks"
    return None


def _deal_paths(rules: Any, start: Any, paths: int = 16) -> list[Any]:
    """The first positions where a player decides, after the deal: ``paths`` ways the deal can
    fall (each chance event takes the outcome the path's number picks; the first and the last
    outcome every time are among them)."""
    ends = []
    for i in range(paths):
        x, depth = start, 0
        turned: list[str] = []
        while actor(rules, x) is CHANCE and depth < 200:
            outs = rules.chance_outcomes(x)
            pick = 0 if i == 0 else len(outs) - 1 if i == 1 else (i * 7 + depth * (i + 3)) % len(outs)
            text = str(outs[pick][0])
            if text.startswith("turn up "):
                turned.append(text[len("turn up "):])
            try:
                x = apply(rules, x, outs[pick][0])
            except RuleGap:
                break
            depth += 1
        if actor(rules, x) is not CHANCE and x not in ends:
            ends.append(x)
            _DEALT[id(x)] = tuple(turned[:3])
    return ends


_DEALT: dict[int, tuple[str, ...]] = {}
"""id(position after the deal) -> the three guests dealt on the way there (kept with the
positions themselves in _MEMO, so an id is not reused while it is looked up)."""


def _opening_ends(rules: Any, start: Any) -> list[Any]:
    return _MEMO.get(rules, ("opening", start), lambda: _deal_paths(rules, start))


def _opening(rules: Any, state: Any, check: Callable[[Any, dict, Any], Problem]) -> Problem:
    if not is_start(rules, state):
        return None
    for end in _opening_ends(rules, state):
        problem = check(state.setup, V(rules, end), end)
        if problem:
            return problem
    return None


def _sorting(setup: Any, v: dict, end: Any = None) -> bool:
    """jd.ruling.opening-duplicates=at-setup: the first player sorts the dealt guests before the first draw.
    Only the three guests dealt decide it (``_DEALT``: the first three turned up on the way to
    this position): with no suit twice among them the draw phase follows at once, and a guest
    it turns up that repeats a suit waits for the discard phase."""
    dealt = _DEALT.get(id(end)) if end is not None else None
    guests = dealt if dealt is not None else v["centre"]
    return setup.options.opening_duplicates == "at-setup" and bool(duplicated_suits(setup.components, guests))


def p_deal_hands(rules: Any, state: Any) -> Problem:
    """jd.setup.deal-hands: when play starts every player holds three desserts (the first
    player one more from the draw phase, if any is left)."""
    def check(setup, v, end):
        n, deck = setup.players, setup.components
        left = len(deck.dessert_cards()) - 3 * n
        want = [3] * n
        if not _sorting(setup, v, end) and left > 0:
            want[0] = 4
        if actor(rules, end) is not TERMINAL and hand_sizes(v) != want:
            return f"after the deal the hands hold {hand_sizes(v)} desserts, not {want}"
        return None
    return _opening(rules, state, check)


def p_deal_guests(rules: Any, state: Any) -> Problem:
    """jd.setup.deal-guests: three guests face up in the middle when play starts (four once the
    first draw phase turned one up), nobody has claimed any, both discard piles are empty."""
    def check(setup, v, end):
        deck = setup.components
        want = 3 if _sorting(setup, v, end) or len(deck.guests) == 3 else 4
        if actor(rules, end) is TERMINAL:
            return None
        if len(v["centre"]) != want or any(v["claimed"]) or v["guest_discard"] or v["dessert_discard"]:
            return f"after the deal the middle holds {len(v['centre'])} guests (not {want}), or cards are elsewhere"
        return None
    return _opening(rules, state, check)


def p_first_player(rules: Any, state: Any) -> Problem:
    """jd.first.player: the first player (seat 0) makes the first decision of the game, and
    it is the start of a turn (or the sorting of jd.ruling.opening-duplicates=at-setup)."""
    def check(setup, v, end):
        a = actor(rules, end)
        if a is TERMINAL:
            return None
        if a != 0 or v["turn"] != 0:
            return f"the first decision falls to {a}, not seat 0"
        if _sorting(setup, v, end):
            return compare("sorting the dealt guests", depart_keys(setup, v), legal(rules, end))
        return compare("the first player's options", turn_start_keys(setup, v, 0), legal(rules, end))
    return _opening(rules, state, check)


P = Property
PROPERTIES: tuple[Property, ...] = (
    P("jd.setup.components", "every dessert and guest is in exactly one place at all times", state=p_conservation,
      name="one-place", lines=(22, 22)),
    P("jd.setup.components", "desserts show one to four tastes; guests crave something and have at most two "
      "favourites from the deck", state=p_card_faces, name="faces", lines=((23, 23), (26, 27))),
    P("jd.setup.deal-hands", "when play starts each player holds three desserts (the first player one more from the "
      "draw phase)", state=p_deal_hands, lines=((6, 6), (17, 17)), reads=("jd.ruling.opening-duplicates",)),
    P("jd.setup.deal-guests", "when play starts three guests wait face up in the middle (plus the first turn-up)",
      state=p_deal_guests, lines=((6, 6), (17, 17)), reads=("jd.ruling.opening-duplicates",)),
    P("jd.setup.piles", "before the deal the decks are whole draw piles with empty discard piles; each discard pile "
      "holds only its own deck's cards", state=p_piles, lines=((6, 6), (34, 34))),
    P("jd.first.player", "seat 0 makes the first decision of the game, with the full choice of options",
      state=p_first_player, lines=((15, 15), (17, 22), (28, 28)),
      reads=("jd.ruling.opening-duplicates", "jd.ruling.discard-which", "jd.ruling.serving-size",
             "jd.ruling.dump-none", "jd.ruling.serve-none")),
    P("jd.suits.six", "every suit has the same number of guests", state=p_suits, lines=((28, 28), (32, 32))),
    P("jd.tastes.icons", "the deck's tastes are among the twelve icons and the cards use only those", state=p_tastes,
      lines=(54, 54)),
)
