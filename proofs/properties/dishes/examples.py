"""Who Is Going to Do the Dishes?: fixed positions (the rulebook's worked example of Ania and
Krzys, the box, the player counts, the deal for two and three players, the first player), built
by playing moves through the API.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Iterable

from tablerules.model.core import CHANCE, SetupError

from .readers import (CLEAN, COLOURS, KINDS, PLAYER_COUNTS, _example, compare, disagreement, kind_of, place_name, table,
    texts)


def deal_for_two_or_three(rules):
    """dishes.setup.deal-2-3-unspecified: only the deal to two or three players is left open,
    so four players are dealt as the text says (one layout each, every tile), whatever the
    deal rulings choose, their strict alternatives included.  (That strict raises its gap at
    two and three players is the gap finder's business, not a property's.)"""
    from tablerules.proofs.discovery.gaps import with_alternative

    base = rules.Options()
    starts = set()
    for alt2 in ("random-subset", "colour-sets", "two-layouts", "strict"):
        for alt3 in ("random-subset", "colour-sets", "spare-layout", "strict"):
            o = with_alternative(with_alternative(base, rules, "dishes.ruling.deal-2-players", alt2),
                                 rules, "dishes.ruling.deal-3-players", alt3)
            start = rules.new_game(rules.setup(4, o))
            starts.add(json.dumps(rules.state_vars(start), sort_keys=True))
            moves = set(texts(rules.legal_moves(start))) if rules.to_move(start) == 0 else None
            if moves != {f"turn {place_name(0, k)}" for k in KINDS}:
                return f"four players under deal rulings {alt2}/{alt3}: seat 0's first moves are {moves}"
    if len(starts) != 1:
        return "the deal rulings for two and three players change a four-player game"
    return None


def _options(rules, **alternatives: str):
    """The default options with some rulings (by short name, ``_`` for ``-``) set."""
    from tablerules.proofs.discovery.gaps import with_alternative

    o = rules.Options()
    for short, alt in alternatives.items():
        o = with_alternative(o, rules, f"dishes.ruling.{short.replace('_', '-')}", alt)
    return o


def _start(rules, players: int, **alternatives: str):
    return rules.new_game(rules.setup(players, _options(rules, **alternatives)))


def _play(rules, state, moves: Iterable[str]):
    for text in moves:
        move = rules.parse_move(text, state.setup)
        if rules.to_move(state) is CHANCE and text not in texts(m for m, _ in rules.chance_outcomes(state)):
            raise ValueError(f"{text} is not a possible chance outcome")
        state = rules.apply(state, move)
    return state


ANIA, KRZYS = 0, 1
EXAMPLE_MOVES = (
    # Ania soils her main course, drinks and forks; Krzys his dessert, drinks and soup.  The
    # listed moves need three colours: one shared by Ania's drinks and forks and Krzys's soup
    # (red here), one by Ania's main course and Krzys's dessert (yellow), and another for
    # Krzys's drinks (c3).
    "turn 0.main", "reveal 0.main yellow",
    "turn 1.dessert", "reveal 1.dessert yellow",
    "turn 0.drinks", "reveal 0.drinks red",
    "turn 1.drinks", "reveal 1.drinks c3",
    "turn 0.forks", "reveal 0.forks red",
    "turn 1.soup", "reveal 1.soup red",
)
EXAMPLE_TURNS = ("0.dessert", "0.soup", "0.knives")
"""Ania may turn her dessert, soup or knives."""
EXAMPLE_PLACES = {
    "0.drinks": ("1.drinks", "1.soup", "0.forks"),
    "0.main": ("1.dessert",),
    "0.forks": ("0.drinks", "1.soup"),
}
"""Ania's piles and where the example lets each land."""


def _example_under(rules, **alternatives: str) -> str | None:
    state = _play(rules, _start(rules, 2, **alternatives), EXAMPLE_MOVES)
    if rules.to_move(state) != ANIA:
        return f"after the example's moves {rules.to_move(state)} is to move, expected Ania (seat 0)"
    want = {f"turn {p}" for p in EXAMPLE_TURNS} | {f"place {a} on {b}" for a, bs in EXAMPLE_PLACES.items() for b in bs}
    problem = compare(set(texts(rules.legal_moves(state))), want, "Ania's moves")
    if problem:
        return problem
    places = list(table(rules, state).places)
    candidates = [f"turn {p}" for p in places] + [f"place {a} on {b}" for a in places for b in places] + ["pass"]
    return disagreement(rules, state, candidates, want, "the worked example")


def worked_example(rules):
    """dishes.example.ania-krzys: Ania's legal moves are exactly the rulebook's list."""
    return _example_under(rules)


def worked_example_own_top(rules):
    """dishes.example.ania-krzys: the list is the same when a pile is movable by its top's
    owner (own-top), and under free colours."""
    return _example_under(rules, movable_stacks="own-top") or _example_under(rules, colour_model="free-colours")


def player_counts(rules):
    """dishes.components.players: two, three or four players, no other number."""
    for n in range(0, 7):
        try:
            rules.setup(n)
        except SetupError:
            if n in PLAYER_COUNTS:
                return f"{n} players refused"
        else:
            if n not in PLAYER_COUNTS:
                return f"{n} players accepted"
    return None


def the_box(rules):
    """dishes.components.tiles, dishes.components.colour-sets: four players with the box lay
    out 24 tiles, four of each of the six kinds, and a first tile turned may show any of
    four colours (red and yellow among them), each as likely."""
    state = _start(rules, 4)
    t = table(rules, state)
    if len(t.places) != 24 or any(s != CLEAN for s in t.places.values()):
        return f"the box dealt to four players: {len(t.places)} places, not 24 clean tiles"
    if sorted(kind_of(p) for p in t.places) != sorted(KINDS * 4):
        return "the box is not four tiles of each of the six kinds"
    state = _play(rules, state, ["turn 0.soup"])
    got = {str(m): p for m, p in rules.chance_outcomes(state)}
    if got != {f"reveal 0.soup {c}": Fraction(1, 4) for c in COLOURS}:
        return f"the first turned tile shows {got}"
    return None


def too_few_colours(rules):
    """dishes.components.colour-sets: with one tile per kind and colour, a kind has as many
    tiles as colours, so a tile set with fewer colours than layouts cannot be dealt under
    four-sets or layout-sets; with free colours it can."""
    small = rules.load_components("2x2")
    for model, ok in (("four-sets", False), ("layout-sets", False), ("free-colours", True)):
        try:
            rules.setup(4, _options(rules, colour_model=model), small)
        except SetupError:
            if ok:
                return f"four layouts of a two-colour tile set refused under {model}"
        else:
            if not ok:
                return f"four layouts of a two-colour tile set accepted under {model}"
    rules.setup(2, rules.Options(), small)
    return None


def first_player_example(rules):
    """dishes.play.first-player: seat 0 opens under seat-0; under random each seat opens
    after its draw."""
    for n in PLAYER_COUNTS:
        start = _start(rules, n)
        if rules.to_move(start) != 0:
            return f"{n} players: {rules.to_move(start)} opens, expected seat 0"
        start = _start(rules, n, first_player="random")
        for k in range(n):
            if rules.to_move(_play(rules, start, [f"first {k}"])) != k:
                return f"{n} players: seat {k} drawn, but does not open"
    return None


EXAMPLES = (
    _example("dishes.example.ania-krzys", "Ania's legal moves are exactly the rulebook's list",
             worked_example, lines=(27, 30)),
    _example("dishes.example.ania-krzys", "the same list under own-top and under free colours",
             worked_example_own_top, name="other-rulings", lines=(27, 30)),
    _example("dishes.components.players", "2, 3 or 4 players and no other number",
             player_counts, lines=(9, 9)),
    _example("dishes.components.tiles", "the box: 24 tiles, four of six kinds; four colours, as likely",
             the_box, name="box", lines=((8, 14), (16, 17))),
    _example("dishes.components.colour-sets", "fewer colours than layouts cannot be dealt as colour sets",
             too_few_colours, name="too-few-colours", lines=(12, 13)),
    _example("dishes.setup.deal-2-3-unspecified", "the deal rulings for 2 and 3 players leave a 4-player game as it is",
             deal_for_two_or_three, lines=(17, 18)),
    _example("dishes.play.first-player", "seat 0 opens (seat-0); the seat drawn opens (random)",
             first_player_example, name="example", lines=(20, 20)),
)
