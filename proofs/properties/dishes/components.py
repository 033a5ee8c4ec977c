"""Who Is Going to Do the Dishes?: the components (dishes.components.*).

The tiles of each kind in play, the colour sets their soiled sides show (and the odds of a
colour when a tile is turned), and the clean side that shows no colour.
"""

from __future__ import annotations

import json
from fractions import Fraction

from tablerules.model.core import CHANCE

from .readers import (BOX_OF_EACH_KIND, CLEAN, COLOURS, COMBINATION_READS, KINDS, _state, clear_combination,
    colour_scheme, colours_in_set, disagreement, kind_of, kinds_in_play, layout_of, names_a_colour, reveal_distribution,
    table)


def tile_count(rules, state):
    """dishes.components.tiles: each layout has one place per kind, and every kind in play
    has one tile per layout on the table (clean in its place, or soiled in some pile); a
    kind never has more than the box's four; kinds not in play have none."""
    t = table(rules, state)
    setup = state.setup
    for layout in t.layouts():
        names = [p for p in t.places if layout_of(p) == layout]
        if sorted(kind_of(p) for p in names) != sorted(KINDS):
            return f"layout {layout} has places {names}, not one per kind of {KINDS}"
    counts = {k: 0 for k in KINDS}
    for p, s in t.places.items():
        if s == CLEAN:
            counts[kind_of(p)] += 1
    for tile in t.shown():
        if tile.kind not in counts:
            return f"a tile of unknown kind {tile.kind!r}"
        counts[tile.kind] += 1
    layouts = len(t.layouts())
    for k, n in counts.items():
        want = layouts if k in kinds_in_play(setup) else 0
        if n != want or n > BOX_OF_EACH_KIND:
            return f"{n} {k} tiles on the table, expected {want}"
    return None


def shown_colours(rules, state):
    """dishes.components.colour-sets: soiled sides show only the tile set's colours; one
    tile per kind and colour (except free-colours); no more colours than whole sets kept
    (colour-sets deal); one colour per layout, a different one for each (layout-sets)."""
    t = table(rules, state)
    setup = state.setup
    scheme = colour_scheme(setup)
    shown = t.shown()
    for s in shown:
        if s.colour not in colours_in_set(setup):
            return f"a {s.text} shows a colour outside the tile set {colours_in_set(setup)}"
    if scheme == "free-colours":
        return None
    pairs = [(s.kind, s.colour) for s in shown]
    if len(set(pairs)) != len(pairs):
        return "two shown tiles share kind and colour"
    if scheme == "colour-sets" and len({s.colour for s in shown}) > setup.players:
        return f"more than {setup.players} colours shown with {setup.players} colour sets"
    if scheme == "layout-sets":
        by_layout: dict[int, set[str]] = {}
        for s in shown:
            by_layout.setdefault(s.origin, set()).add(s.colour)
        if any(len(cs) > 1 for cs in by_layout.values()):
            return "a layout shows two colours under layout-sets"
        colours = [next(iter(cs)) for cs in by_layout.values()]
        if len(set(colours)) != len(colours):
            return "two layouts show one colour under layout-sets"
    return None


def reveal_probabilities(rules, state):
    """dishes.components.colour-sets, dishes.setup.sort: when a tile's soiled side shows, the
    chance outcomes are that tile's colours, with the colour model's probabilities (exact,
    positive, summing to 1)."""
    if rules.to_move(state) is not CHANCE:
        return None
    outcomes = [(str(m), p) for m, p in rules.chance_outcomes(state)]
    if not outcomes:
        return "chance is to move but offers no outcome"
    if any(not isinstance(p, Fraction) or p <= 0 for _, p in outcomes) or sum(p for _, p in outcomes) != 1:
        return f"chance probabilities are not positive Fractions summing to 1: {outcomes}"
    t = table(rules, state)
    if all(m.startswith("first ") for m, _ in outcomes):
        if t.turn != -1:
            return "a first-player draw after the first player was chosen"
        n = state.setup.players
        return disagreement(rules, state, [f"first {k}" for k in range(n + 1)] + ["pass"],
                            {m for m, _ in outcomes}, "the first-player draw")
    if not t.reveal:
        return f"chance moves ({outcomes[0][0]}, ...) with no tile waiting to show its colour"
    places = {m.split()[1] for m, _ in outcomes}
    if len(places) != 1 or not all(m.startswith("reveal ") and len(m.split()) == 3 for m, _ in outcomes):
        return f"chance outcomes {[m for m, _ in outcomes]} are not the colours of one tile"
    place = places.pop()
    if place not in t.reveal or t.places.get(place) != CLEAN:
        return f"chance reveals {place}, which is not a clean tile waiting to show"
    got = {m.split()[2]: p for m, p in outcomes}
    want = reveal_distribution(state.setup, t, place)
    if got != want:
        return f"colours of {place}: {got}, the colour model gives {want}"
    other = next((p for p in t.places if p != place), place)
    candidates = ([f"reveal {place} {c}" for c in COLOURS] + [f"reveal {other} {c}" for c in COLOURS]
                  + ["pass", f"turn {place}", "first 0"])
    return disagreement(rules, state, candidates, {m for m, _ in outcomes}, "chance")


def clean_shows_no_colour(rules, state):
    """dishes.components.clean-side: a clean tile shows its kind (its place) but no colour;
    all clean tiles look alike, and unlike an empty place."""
    t = table(rules, state)
    for seat in range(state.setup.players):
        places = rules.observation(state, seat)["places"]
        clean = {json.dumps(places[p]) for p, s in t.places.items() if s == CLEAN}
        empty = {json.dumps(places[p]) for p, s in t.places.items() if s != CLEAN and not s}
        for entry in clean:
            colour = names_a_colour(entry)
            if colour:
                return f"seat {seat} sees the colour {colour} on a clean tile"
        if len(clean) > 1:
            return f"seat {seat} can tell clean tiles apart: {sorted(clean)}"
        if clean & empty:
            return f"seat {seat} sees a clean tile as an empty place"
    return None


PROPERTIES = (
    _state("dishes.components.tiles", "every kind in play keeps one tile per layout; at most four per kind",
           tile_count, applies=clear_combination, lines=((8, 14), (17, 17)),
           reads=COMBINATION_READS),
    _state("dishes.components.colour-sets", "shown colours fit the colour sets (one tile per kind and colour)",
           shown_colours, applies=clear_combination, name="shown", lines=(12, 13),
           reads=COMBINATION_READS),
    _state("dishes.components.colour-sets", "a turned tile's colour follows the colour model; probabilities sum to 1",
           reveal_probabilities, applies=clear_combination, name="reveal", lines=((12, 13), (16, 17)),
           reads=COMBINATION_READS),
    _state("dishes.components.clean-side", "a clean tile shows no colour to anyone, and looks like any clean tile",
           clean_shows_no_colour, lines=(12, 12)),
)
