"""Who Is Going to Do the Dishes?: the set up (dishes.setup.*).

Every tile dealt clean side up, one layout of one tile per kind for each player (as the deal
rulings say for two and three players), the backs hiding the colours, and the layout's order.
"""

from __future__ import annotations

import json

from .readers import (CLEAN, KINDS, _state, expected_layouts, is_start, kind_of, kinds_in_play, layout_of,
    names_a_colour, place_name, spare_layout, table)


def start_all_clean(rules, state):
    """dishes.setup.sort, dishes.setup.deal-one-of-each: at the start every dealt tile lies
    clean side up in its layout; nothing is soiled yet."""
    if not is_start(rules, state):
        return None
    t = table(rules, state)
    for p, s in t.places.items():
        dealt = kind_of(p) in kinds_in_play(state.setup)
        if dealt and s != CLEAN:
            return f"{p} is not clean side up at the start"
        if not dealt and s != ():
            return f"{p} holds {s}, but its kind is not in the tile set"
    return None


def start_layouts(rules, state):
    """dishes.setup.deal-one-of-each: at the start the table holds one layout per player
    (two per player under two-layouts; one more, the spare, under spare-layout), each with
    one tile of every kind; only the spare layout's tiles wait to show their colour."""
    if not is_start(rules, state):
        return None
    t = table(rules, state)
    setup = state.setup
    if t.layouts() != list(range(expected_layouts(setup))):
        return f"layouts {t.layouts()} at the start, expected {expected_layouts(setup)}"
    spare = {place_name(setup.players, k) for k in kinds_in_play(setup)} if spare_layout(setup) else set()
    if set(t.reveal) != spare:
        return f"tiles {list(t.reveal)} wait to show at the start, expected {sorted(spare)}"
    return None


def nobody_sees_more(rules, state):
    """dishes.setup.hidden-backs: nobody sees the soiled side of a dealt tile, own tiles
    included, and everything else lies open: every seat sees the same table."""
    seen = []
    for seat in range(state.setup.players):
        obs = dict(rules.observation(state, seat))
        obs.pop("seat", None)
        seen.append(json.dumps(obs, sort_keys=True))
    if len(set(seen)) > 1:
        return "two seats see different things, yet nothing is hidden from one player only"
    t = table(rules, state)
    places = rules.observation(state, 0)["places"]
    for p, s in t.places.items():
        if s == CLEAN and names_a_colour(json.dumps(places[p])):
            return f"a clean tile's colour is seen at {p}"
    return None


def layout_order(rules, state):
    """dishes.setup.layout: each layout lists its places in the rulebook's order (dessert,
    main, drinks, then forks, soup, knives), and a tile stays in the place of its kind in
    the layout it was dealt to: a clean tile, or the bottom of a pile."""
    t = table(rules, state)
    for layout in t.layouts():
        names = [kind_of(p) for p in t.places if layout_of(p) == layout]
        if tuple(names) != KINDS:
            return f"layout {layout} is laid out {names}, not {list(KINDS)}"
    for p in t.piles():
        bottom = t.places[p][0]
        if bottom.kind != kind_of(p) or bottom.origin not in (None, layout_of(p)):
            return f"the bottom of the pile at {p} is {bottom}, not the tile dealt there"
    return None


PROPERTIES = (
    _state("dishes.setup.sort", "at the start every dealt tile is clean side up",
           start_all_clean, lines=(16, 17)),
    _state("dishes.setup.deal-one-of-each", "at the start one layout per player of one tile per kind (deal rulings)",
           start_layouts, lines=(17, 17),
           reads=("dishes.ruling.deal-2-players", "dishes.ruling.deal-3-players")),
    _state("dishes.setup.hidden-backs", "every seat sees the same table; nobody sees a clean tile's colour",
           nobody_sees_more, lines=(17, 17)),
    _state("dishes.setup.layout", "places in the book's order; a tile stays where dealt unless its pile moves",
           layout_order, lines=((17, 17), (22, 22), (24, 24))),
)
