"""Who Is Going to Do the Dishes? (spec/dishes.toml): the rulebook's sentences as properties.

Everything here reads a state through the core API only: ``state_vars`` (the table as
place -> "clean" or a pile of tiles, bottom first, plus whose turn it is and which tiles
are waiting for their colour to show), ``observation``, ``to_move``, ``legal_moves``,
``chance_outcomes``, ``apply``, ``illegal_reason``, ``outcome`` and ``parse_move``.  The
rules themselves (what may be turned, what may land where, who moves next, when the game
ends, who loses) are worked out below from the text and the chosen ruling alternatives,
never by calling the model's own rule functions.

What is taken from the model is its *encoding* only: a place is named ``L.KIND`` (layout
``L``, one place per kind in the rulebook's layout order), a tile is ``COLOUR KIND`` (with
``@L``, the layout it was dealt to, where a ruling needs that), moves are written ``turn
P``, ``place P on Q``, ``pass``, ``reveal P COLOUR`` and ``first SEAT``; a small tile set
keeps the first kinds of the layout order and the first colours; seats are numbered
clockwise from the first player; seat ``k`` owns layout ``k`` (under two-layouts also layout
``k + 2``; under spare-layout layout 3 is nobody's); ``turn`` is -1 while chance has still
to pick the first player.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from dataclasses import dataclass
from fractions import Fraction
from math import factorial
from typing import Any, Iterable

from tablerules.model.core import CHANCE, TERMINAL, RuleGap, SetupError, options_text

from . import Example, Property, but
from . import chosen as chosen_alternative

# --------------------------------------------------------------------------- the components

KINDS = ("dessert", "main", "drinks", "forks", "soup", "knives")
"""The six kinds (dishes.components.tiles) in the layout order of dishes.setup.layout:
first row dessert, main course, drinks; second row forks, soup, knives."""

COLOURS = ("red", "yellow", "c3", "c4")
"""The four soiled-side colours (dishes.components.colour-sets): red and yellow are named by
a public source, the other two are not (the spec calls them c3 and c4)."""

PLAYER_COUNTS = (2, 3, 4)
"""dishes.components.players."""

BOX_OF_EACH_KIND = 4
"""dishes.components.tiles: four tiles of each kind in the box."""

CLEAN = "clean"


@dataclass(frozen=True)
class Tile:
    """One soiled tile as the table shows it."""

    colour: str
    kind: str
    origin: int | None = None
    """The layout it was dealt to, where the state says so."""

    @property
    def text(self) -> str:
        return f"{self.colour} {self.kind}"


def _tile(text: str) -> Tile:
    body, at, origin = text.partition("@")
    colour, _, kind = body.partition(" ")
    return Tile(colour, kind, int(origin) if at else None)


@dataclass(frozen=True)
class Table:
    """A state's ``state_vars`` read back: per place CLEAN or a pile (bottom first)."""

    places: dict[str, Any]
    turn: int
    reveal: tuple[str, ...]

    def pile(self, place: str) -> tuple[Tile, ...]:
        """The soiled tiles at ``place`` (empty for a clean or empty place)."""
        s = self.places[place]
        return () if s == CLEAN else s

    def piles(self) -> list[str]:
        """Places holding at least one soiled tile."""
        return [p for p, s in self.places.items() if s != CLEAN and s]

    def top(self, place: str) -> Tile:
        return self.places[place][-1]

    def shown(self) -> list[Tile]:
        """Every soiled tile on the table."""
        return [t for p in self.piles() for t in self.places[p]]

    def layouts(self) -> list[int]:
        return sorted({layout_of(p) for p in self.places})


def table(rules, state) -> Table:
    v = rules.state_vars(state)
    places = {p: (CLEAN if s == CLEAN else tuple(_tile(t) for t in s)) for p, s in v["places"].items()}
    return Table(places, v["turn"], tuple(v["reveal"]))


def layout_of(place: str) -> int:
    return int(place.split(".", 1)[0])


def kind_of(place: str) -> str:
    return place.split(".", 1)[1]


def place_name(layout: int, kind: str) -> str:
    return f"{layout}.{kind}"


# --------------------------------------------------------------------------- rulings and setup


def ruling(setup, short: str) -> str:
    """The chosen alternative of ``dishes.ruling.<short>``."""
    return chosen_alternative(setup, f"dishes.ruling.{short}")


def deal_rule(setup) -> str:
    """How tiles were dealt to this many players: the text settles four players
    (dishes.setup.deal-one-of-each); two and three follow their deal rulings."""
    if setup.players == 2:
        return ruling(setup, "deal-2-players")
    if setup.players == 3:
        return ruling(setup, "deal-3-players")
    return "random-subset"


def spare_layout(setup) -> bool:
    return setup.players == 3 and deal_rule(setup) == "spare-layout"


def expected_layouts(setup) -> int:
    """Layouts on the table: one per player; two each under two-layouts; plus the spare
    layout under spare-layout (the deal rulings' meanings)."""
    if setup.players == 2 and deal_rule(setup) == "two-layouts":
        return 4
    return setup.players + (1 if spare_layout(setup) else 0)


def owner(setup, layout: int) -> int | None:
    """The seat whose layout it is (None for the spare layout); see the module's encoding note."""
    if setup.players == 2 and deal_rule(setup) == "two-layouts":
        return layout % 2
    if spare_layout(setup) and layout == setup.players:
        return None
    return layout


def kinds_in_play(setup) -> tuple[str, ...]:
    return KINDS[: setup.components.types]


def colours_in_set(setup) -> tuple[str, ...]:
    return COLOURS[: setup.components.colours]


def colour_scheme(setup) -> str:
    """How soiled sides are coloured: four-sets (default), colour-sets (when the deal
    ruling keeps only as many whole colour sets as players), free-colours, layout-sets."""
    model = ruling(setup, "colour-model")
    if model == "four-sets" and deal_rule(setup) == "colour-sets":
        return "colour-sets"
    return model


def clear_combination(setup) -> bool:
    """False where two chosen alternatives' meanings contradict each other (the spare layout
    nobody may move with a movable-stacks alternative that moves other piles; a colour
    model that is not colour sets with a deal that keeps whole colour sets): no property
    can say what the text wants there."""
    if spare_layout(setup) and ruling(setup, "movable-stacks") != "own-places":
        return False
    if deal_rule(setup) == "colour-sets" and ruling(setup, "colour-model") != "four-sets":
        return False
    return True


def seat_places(setup, t: Table, seat: int) -> list[str]:
    return [p for p in t.places if owner(setup, layout_of(p)) == seat]


def is_start(rules, state) -> bool:
    try:
        return state == rules.new_game(state.setup)
    except RuleGap:
        return False


# --------------------------------------------------------------------------- the rules, from the text


def tiles_match(a: Tile, b: Tile) -> bool:
    """dishes.play.place-match: same kind or same colour."""
    return a.kind == b.kind or a.colour == b.colour


def may_move(setup, t: Table, seat: int, place: str) -> bool:
    """May ``seat`` pick up the pile at ``place``?  A pile of soiled tiles
    (dishes.play.place-dirty), judged by its top (dishes.play.top-counts), under the chosen
    dishes.ruling.movable-stacks alternative."""
    pile = t.pile(place)
    if not pile:
        return False
    rule = ruling(setup, "movable-stacks")
    if rule == "any-stack":
        return True
    if rule == "own-places":
        return owner(setup, layout_of(place)) == seat
    origin = pile[-1].origin
    if origin is None:
        raise ValueError(f"own-top needs the layout the top tile at {place} was dealt to")
    return owner(setup, origin) == seat


def text_turns(setup, t: Table, seat: int) -> set[str]:
    """dishes.play.turn-own-tile: each of the seat's own clean tiles may be turned."""
    return {f"turn {p}" for p in seat_places(setup, t, seat) if t.places[p] == CLEAN}


def text_places(setup, t: Table, seat: int) -> set[str]:
    """dishes.play.place-dirty/-match/-anyone/top-counts: a pile the seat may move onto any
    other pile, in any layout, whose top shares the moved top's kind or colour."""
    piles = t.piles()
    return {f"place {s} on {d}" for s in piles if may_move(setup, t, seat, s)
            for d in piles if d != s and tiles_match(t.top(s), t.top(d))}


def has_move(setup, t: Table, seat: int) -> bool:
    return bool(text_turns(setup, t, seat) or text_places(setup, t, seat))


def dishes_of(setup, t: Table, seat: int, how: str | None = None) -> int:
    """A seat's dishes: the tiles (or, ``how="stacks"``, the piles) lying in its places, as
    dishes.ruling.dishes-count chooses, with its clean tiles where dishes.ruling.clean-at-end
    counts them."""
    mine = seat_places(setup, t, seat)
    clean = sum(1 for p in mine if t.places[p] == CLEAN) if ruling(setup, "clean-at-end") == "dishes" else 0
    if (how or ruling(setup, "dishes-count")) == "stacks":
        return sum(1 for p in mine if t.pile(p)) + clean
    return sum(len(t.pile(p)) for p in mine) + clean


def reveal_distribution(setup, t: Table, place: str) -> dict[str, Fraction]:
    """P(colour) of the tile at ``place`` when it is turned, given every colour shown so far,
    under dishes.components.colour-sets and the colour-model ruling's chosen alternative."""
    colours = colours_in_set(setup)
    scheme = colour_scheme(setup)
    kind, layout = kind_of(place), layout_of(place)
    shown = t.shown()
    if scheme == "free-colours":  # every tile independently any colour
        return {c: Fraction(1, len(colours)) for c in colours}
    if scheme == "four-sets":  # one tile per kind and colour, each kind dealt at random
        free = [c for c in colours if c not in {s.colour for s in shown if s.kind == kind}]
        return {c: Fraction(1, len(free)) for c in free}
    if scheme == "layout-sets":  # each layout one whole colour set, sets dealt at random
        L = expected_layouts(setup)
        counts: dict[str, int] = {}
        for deal in itertools.permutations(colours, L):
            if all(deal[s.origin] == s.colour for s in shown):
                counts[deal[layout]] = counts.get(deal[layout], 0) + 1
        total = sum(counts.values())
        return {c: Fraction(k, total) for c, k in counts.items()}
    # colour-sets: as many whole colour sets as players, chosen at random; each kind's tiles
    # of those colours dealt at random to the layouts.
    n = setup.players
    by_kind = {k: [s.colour for s in shown if s.kind == k] for k in kinds_in_play(setup)}
    weights: dict[str, int] = {}
    for chosen in itertools.combinations(colours, n):
        if any(c not in chosen for cs in by_kind.values() for c in cs):
            continue
        for c in chosen:
            if c in by_kind[kind]:
                continue
            w = 1
            for k, cs in by_kind.items():
                w *= factorial(n - len(cs) - (1 if k == kind else 0))
            weights[c] = weights.get(c, 0) + w
    total = sum(weights.values())
    return {c: Fraction(w, total) for c, w in weights.items() if w}


# --------------------------------------------------------------------------- API helpers


def seat_to_move(rules, state) -> int | None:
    actor = rules.to_move(state)
    return actor if isinstance(actor, int) else None


def texts(moves: Iterable[Any]) -> list[str]:
    return [str(m) for m in moves]


def settle(rules, state, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    """(chance moves, state) for every way chance can play out from ``state`` until a seat
    moves or the game ends."""
    if rules.to_move(state) is not CHANCE:
        return [(path, state)]
    out = []
    for m, _ in rules.chance_outcomes(state):
        out += settle(rules, rules.apply(state, m), path + (str(m),))
    return out


_PARSED: dict[tuple[int, str], Any] = {}
"""(parse_move's code, text) -> move: a move's text is read once (keyed by the code object,
so a swapped-in parse_move is asked again)."""


def parse(rules, state, text: str) -> Any:
    fn = rules.parse_move
    key = (id(getattr(fn, "__code__", fn)), text)
    move = _PARSED.get(key)
    if move is None:
        if len(_PARSED) > 50_000:
            _PARSED.clear()
        move = _PARSED[key] = fn(text, state.setup)
    return move


def refused(rules, state, text: str) -> bool:
    return rules.illegal_reason(state, parse(rules, state, text)) is not None


def probe_places(t: Table) -> list[str]:
    """The places worth asking illegal_reason about: every clean tile and pile, two empty
    places, and one place beyond the table."""
    busy = [p for p, s in t.places.items() if s == CLEAN or s]
    empty = [p for p, s in t.places.items() if s != CLEAN and not s][:2]
    return busy + empty + [place_name(len(t.layouts()), KINDS[0])]


def disagreement(rules, state, candidates: Iterable[str], allowed: set[str], what: str) -> str | None:
    """The first candidate move where ``illegal_reason`` disagrees with the text."""
    for text in candidates:
        if refused(rules, state, text) == (text in allowed):
            return f"illegal_reason {'refuses' if text in allowed else 'allows'} {text!r} ({what})"
    return None


def compare(got: set[str], want: set[str], what: str) -> str | None:
    extra, missing = sorted(got - want), sorted(want - got)
    if not extra and not missing:
        return None
    parts = []
    if extra:
        parts.append(f"legal but not allowed by the text: {', '.join(extra[:4])}")
    if missing:
        parts.append(f"allowed by the text but not legal: {', '.join(missing[:4])}")
    return f"{what}: " + "; ".join(parts)


_WORDS = {c: re.compile(rf"\b{re.escape(c)}\b") for c in COLOURS}


def names_a_colour(text: str) -> str | None:
    """The first colour a JSON text names as a word."""
    return next((c for c, rx in _WORDS.items() if rx.search(text)), None)


# --------------------------------------------------------------------------- components


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


# --------------------------------------------------------------------------- setup


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


# --------------------------------------------------------------------------- play: who moves


def first_player_starts(rules, state):
    """dishes.play.first-player: once any chance at the start is done, the first player
    moves: seat 0 (the player who washed up last) under seat-0; under random a chance draw
    picks each seat with probability 1/n, and the seat drawn moves."""
    if not is_start(rules, state):
        return None
    rule = ruling(state.setup, "first-player")
    for path, s in settle(rules, state):
        firsts = [m for m in path if m.startswith("first ")]
        actor = rules.to_move(s)
        if rule == "seat-0":
            if firsts or actor != 0:
                return f"after {list(path)} {actor} moves first, expected seat 0"
        else:
            if len(firsts) != 1 or actor != int(firsts[0].split()[1]):
                return f"after {list(path)} {actor} moves first"
    return None


def first_player_draw(rules, state):
    """dishes.play.first-player: a first-player draw happens only under random, before
    anybody has moved, and gives every seat the same chance."""
    if rules.to_move(state) is not CHANCE:
        return None
    outcomes = {str(m): p for m, p in rules.chance_outcomes(state)}
    firsts = {m: p for m, p in outcomes.items() if m.startswith("first ")}
    if not firsts:
        return None
    n = state.setup.players
    if ruling(state.setup, "first-player") != "random":
        return "a first-player draw under first-player=seat-0"
    if firsts != outcomes or firsts != {f"first {k}": Fraction(1, n) for k in range(n)}:
        return f"first-player draw {outcomes}, expected each of {n} seats with 1/{n}"
    t = table(rules, state)
    if any(t.places[p] != CLEAN for s in range(n) for p in seat_places(state.setup, t, s)
           if kind_of(p) in kinds_in_play(state.setup)):
        return "a first-player draw after a player has moved"
    return None


def clockwise(rules, state, move, nxt):
    """dishes.play.clockwise: after a player's move (its tile's colour shown, if it turned
    one) the next player clockwise, seat k + 1, moves, unless the game is over."""
    seat = seat_to_move(rules, state)
    if seat is None:
        return None
    want = (seat + 1) % state.setup.players
    for path, s in settle(rules, nxt):
        actor = rules.to_move(s)
        if actor is not TERMINAL and actor != want:
            return f"after seat {seat}'s {move} {list(path)}: {actor} moves, expected seat {want}"
    return None


def move_kinds(rules, state):
    """dishes.play.one-move: the player to move has the two kinds of move and nothing else;
    a pass only where a ruling gives one: always under voluntary-pass=allowed, and as the
    only move of a stuck player under stuck-player=skip."""
    seat = seat_to_move(rules, state)
    if seat is None:
        return None
    t = table(rules, state)
    setup = state.setup
    real = text_turns(setup, t, seat) | text_places(setup, t, seat)
    stuck = not real
    try:
        moves = set(texts(rules.legal_moves(state)))
    except RuleGap as gap:
        if gap.ruling == "dishes.ruling.stuck-player" and not stuck:
            return f"a stuck-player gap, yet seat {seat} has moves {sorted(real)[:3]}"
        raise
    if stuck and ruling(setup, "stuck-player") == "strict":
        return None  # the text is silent here; whether strict raises is the gap finder's business
    passes = ruling(setup, "voluntary-pass") == "allowed" or (stuck and ruling(setup, "stuck-player") == "skip")
    if stuck and ruling(setup, "stuck-player") == "skip" and moves != {"pass"}:
        return f"seat {seat} is stuck: moves {sorted(moves)}, expected only a pass"
    problem = compare(moves, real | ({"pass"} if passes else set()), f"seat {seat}")
    if problem:
        return problem
    if refused(rules, state, "pass") == passes:
        return f"illegal_reason {'refuses' if passes else 'allows'} a pass"
    return None


def pass_changes_nothing(rules, state, move, nxt):
    """dishes.play.one-move: a pass leaves the table as it was."""
    if str(move) != "pass":
        return None
    before, after = table(rules, state), table(rules, nxt)
    if before.places != after.places or after.reveal:
        return "a pass changed the table"
    return None


# --------------------------------------------------------------------------- play: turning a tile


def turnable(rules, state):
    """dishes.play.turn-own-tile: the player to move may turn exactly their own clean tiles
    (legal_moves and illegal_reason agree, over every place)."""
    seat = seat_to_move(rules, state)
    if seat is None:
        return None
    t = table(rules, state)
    want = text_turns(state.setup, t, seat)
    got = {m for m in texts(rules.legal_moves(state)) if m.startswith("turn ")}
    return compare(got, want, f"seat {seat}'s turns") or disagreement(
        rules, state, (f"turn {p}" for p in probe_places(t)), want, "turning")


def turning_soils_one_tile(rules, state, move, nxt):
    """dishes.play.turn-own-tile: turning changes exactly that tile, from clean to one
    soiled tile of its kind lying in its place; nothing else on the table moves."""
    text = str(move)
    if not text.startswith("turn ") or seat_to_move(rules, state) is None:
        return None
    place = text.split()[1]
    before = table(rules, state)
    if before.places.get(place) != CLEAN:
        return f"{text}: {place} was not clean"
    for path, s in settle(rules, nxt):
        after = table(rules, s)
        changed = sorted(p for p in before.places if after.places.get(p) != before.places[p])
        if changed != [place]:
            return f"{text} {list(path)}: places {changed} changed, expected only {place}"
        pile = after.places[place]
        if len(pile) != 1 or pile[0].kind != kind_of(place) or pile[0].origin not in (None, layout_of(place)):
            return f"{text} {list(path)}: {place} holds {pile}, expected one soiled {kind_of(place)}"
    return None


def reveal_shows_that_tile(rules, state, move, nxt):
    """dishes.play.turn-own-tile: a tile's colour shows on that tile only: the revealed place
    was clean and waiting, and now holds one tile of its kind in the colour shown."""
    text = str(move)
    if not text.startswith("reveal "):
        return None
    _, place, colour = text.split()
    before, after = table(rules, state), table(rules, nxt)
    if place not in before.reveal or before.places.get(place) != CLEAN:
        return f"{text}: {place} was not a clean tile waiting to show"
    want = dict(before.places)
    got_tile = after.places.get(place)
    if (not isinstance(got_tile, tuple) or len(got_tile) != 1
            or (got_tile[0].colour, got_tile[0].kind) != (colour, kind_of(place))
            or got_tile[0].origin not in (None, layout_of(place))):
        return f"{text}: {place} now holds {got_tile}"
    want[place] = got_tile
    if after.places != want:
        return f"{text}: other places changed"
    if place in after.reveal or len(after.reveal) != len(before.reveal) - 1:
        return f"{text}: waiting tiles {list(before.reveal)} -> {list(after.reveal)}"
    return None


def waiting_tile_is_chance(rules, state):
    """dishes.play.turn-own-tile: while a turned tile has not shown its colour, nobody moves
    and the game is not over: chance shows it."""
    t = table(rules, state)
    if t.reveal and rules.to_move(state) is not CHANCE:
        return f"tiles {list(t.reveal)} wait to show their colour, yet {rules.to_move(state)} is to move"
    return None


# --------------------------------------------------------------------------- play: placing a pile


def _legal_places(rules, state) -> set[str]:
    return {m for m in texts(rules.legal_moves(state)) if m.startswith("place ")}


def places_from_and_onto_dirty(rules, state):
    """dishes.play.place-dirty: every legal placement picks up a pile of soiled tiles the
    mover may move (dishes.ruling.movable-stacks) and puts it on a different pile of soiled
    tiles; never from or onto a clean tile or an empty place."""
    seat = seat_to_move(rules, state)
    if seat is None:
        return None
    t = table(rules, state)
    for m in sorted(_legal_places(rules, state)):
        _, src, _, dst = m.split()
        if src == dst:
            return f"{m}: a pile onto itself"
        if not t.pile(src) or not t.pile(dst):
            return f"{m}: {'source' if not t.pile(src) else 'target'} holds no soiled tile"
        if not may_move(state.setup, t, seat, src):
            return f"{m}: seat {seat} may not move the pile at {src}"
    return None


def places_match(rules, state):
    """dishes.play.place-match: every legal placement puts a top onto a top of the same kind
    or the same colour."""
    if seat_to_move(rules, state) is None:
        return None
    t = table(rules, state)
    for m in sorted(_legal_places(rules, state)):
        _, src, _, dst = m.split()
        if t.pile(src) and t.pile(dst) and not tiles_match(t.top(src), t.top(dst)):
            return f"{m}: {t.top(src).text} onto {t.top(dst).text} shares neither kind nor colour"
    return None


def places_refused(rules, state):
    """dishes.play.place-match: illegal_reason refuses exactly the placements the text
    forbids, over every pair of places."""
    seat = seat_to_move(rules, state)
    if seat is None:
        return None
    t = table(rules, state)
    want = text_places(state.setup, t, seat)
    probes = probe_places(t)
    pairs = (f"place {a} on {b}" for a in probes for b in probes)
    return disagreement(rules, state, pairs, want, "placing")


def places_anywhere(rules, state):
    """dishes.play.place-anyone: every placement the text allows is legal, onto piles in the
    mover's own layout and in every other layout alike."""
    seat = seat_to_move(rules, state)
    if seat is None:
        return None
    t = table(rules, state)
    missing = sorted(text_places(state.setup, t, seat) - _legal_places(rules, state))
    return f"seat {seat} may not make {', '.join(missing[:4])}" if missing else None


def places_by_tops(rules, state):
    """dishes.play.top-counts: the legal placements are exactly those judged on the piles'
    top tiles (what lies below plays no part)."""
    seat = seat_to_move(rules, state)
    if seat is None:
        return None
    t = table(rules, state)
    return compare(_legal_places(rules, state), text_places(state.setup, t, seat), f"seat {seat}'s placements")


def top_is_what_is_seen(rules, state):
    """dishes.play.top-counts: of a pile every seat sees the top tile; a tile below it, where
    it differs from the top, is not shown."""
    t = table(rules, state)
    for seat in range(state.setup.players):
        places = rules.observation(state, seat)["places"]
        for p in t.piles():
            entry = json.dumps(places[p])
            pile = t.places[p]
            if pile[-1].text not in entry:
                return f"seat {seat} does not see the top {pile[-1].text} at {p}"
            hidden = [s.text for s in pile[:-1] if s.text != pile[-1].text and s.text in entry]
            if hidden:
                return f"seat {seat} sees {hidden[0]}, covered in the pile at {p}"
    return None


def whole_pile_moves(rules, state, move, nxt):
    """dishes.play.move-whole-stack: placing puts the whole pile, in its order, on top of the
    target pile and leaves its place empty; nothing else changes."""
    text = str(move)
    if not text.startswith("place "):
        return None
    _, src, _, dst = text.split()
    before, after = table(rules, state), table(rules, nxt)
    want = dict(before.places)
    want[dst] = before.pile(dst) + before.pile(src)
    want[src] = ()
    if after.places != want:
        changed = sorted(p for p in want if after.places.get(p) != want[p])
        return (f"{text}: {', '.join(f'{p} holds {after.places.get(p)}' for p in changed[:2])}, expected "
                f"{[want[p] for p in changed[:2]]}")
    if after.reveal:
        return f"{text}: tiles wait to show their colour after a placement"
    return None


# --------------------------------------------------------------------------- the end


def ends_when_nobody_can_move(rules, state):
    """dishes.end.no-moves: when no player has a move of either kind the game is over:
    nobody is to move and no move is legal."""
    if rules.to_move(state) is CHANCE:
        return None
    t = table(rules, state)
    setup = state.setup
    if any(has_move(setup, t, s) for s in range(setup.players)):
        return None
    if rules.to_move(state) is not TERMINAL:
        return f"nobody can move, yet {rules.to_move(state)} is to move"
    if rules.legal_moves(state):
        return f"the game is over, yet {texts(rules.legal_moves(state))} are legal"
    return None


def nothing_after_the_end(rules, state):
    """dishes.end.no-moves: once the game is over no move is legal: legal_moves is empty and
    illegal_reason refuses a pass, every turn and every placement."""
    if rules.to_move(state) is not TERMINAL:
        return None
    if rules.legal_moves(state) or rules.chance_outcomes(state):
        return "the game is over, yet moves or chance outcomes are offered"
    t = table(rules, state)
    probes = probe_places(t)
    candidates = ["pass"] + [f"turn {p}" for p in probes] + [f"place {a} on {b}" for a in probes for b in probes]
    return disagreement(rules, state, candidates, set(), "after the end")


def ends_only_then(rules, state):
    """dishes.end.no-moves: the game is over only when nobody has a move (not under
    stuck-player=game-ends, which departs: see the next property)."""
    if rules.to_move(state) is not TERMINAL:
        return None
    t = table(rules, state)
    setup = state.setup
    movers = [s for s in range(setup.players) if has_move(setup, t, s)]
    return f"the game is over, yet seats {movers} have moves" if movers else None


def stuck_ends_game(rules, state):
    """dishes.end.no-moves under stuck-player=game-ends (its meaning): the game is over exactly
    when the player whose turn it is has no move."""
    if rules.to_move(state) is CHANCE:
        return None
    t = table(rules, state)
    stuck = not has_move(state.setup, t, t.turn)
    over = rules.to_move(state) is TERMINAL
    if stuck != over:
        return f"seat {t.turn} {'is stuck' if stuck else 'can move'}, yet the game is {'over' if over else 'not over'}"
    return None


def silent_end(setup, t: Table, most: set[int]) -> set[str]:
    """The strict alternatives chosen that find the text silent at this end: a clean tile left on
    the table (clean-at-end), tile and pile counts naming different losers (dishes-count),
    a tie for most (tie-for-most)."""
    out = set()
    if ruling(setup, "clean-at-end") == "strict" and any(s == CLEAN for s in t.places.values()):
        out.add("dishes.ruling.clean-at-end")
    if ruling(setup, "dishes-count") == "strict":
        by = {how: [dishes_of(setup, t, s, how) for s in range(setup.players)] for how in ("tiles", "stacks")}
        if len({frozenset(s for s, c in enumerate(cs) if c == max(cs)) for cs in by.values()}) > 1:
            out.add("dishes.ruling.dishes-count")
    if ruling(setup, "tie-for-most") == "strict" and len(most) > 1:
        out.add("dishes.ruling.tie-for-most")
    return out


def most_dishes_loses(rules, state):
    """dishes.end.most-dishes-loses: a finished game's losers are the players with the most
    dishes (counted as dishes-count and clean-at-end choose; ties as tie-for-most chooses),
    and its scores, where given, are those dishes; an unfinished game has no outcome.  Where
    a chosen strict alternative finds the text silent nothing is claimed; a gap anywhere else
    is reported."""
    if rules.to_move(state) is not TERMINAL:
        result = rules.outcome(state)
        return None if result is None else f"an outcome {result.summary()} before the end"
    t = table(rules, state)
    setup = state.setup
    seats = range(setup.players)
    counts = [dishes_of(setup, t, s) for s in seats]
    most = {s for s, c in enumerate(counts) if c == max(counts)}
    silent = silent_end(setup, t, most)
    try:
        result = rules.outcome(state)
    except RuleGap as gap:
        if gap.ruling in silent:
            return None
        return f"a rule gap {gap.ruling} at the end, yet no strict alternative chosen finds the text silent here"
    if silent:
        return None  # the text is silent here; whether strict raises is the gap finder's business
    if result is None:
        return "the game is over but has no outcome"
    if result.scores and list(result.scores) != counts:
        return f"scores {list(result.scores)}, but the players' dishes are {counts}"
    if len(most) > 1 and ruling(setup, "tie-for-most") == "no-loser":
        if result.losers or not result.draw:
            return f"dishes {counts}: a tie, expected a draw, got {result.summary()}"
        return None
    if set(result.losers) != most or result.draw:
        return f"dishes {counts}: expected losers {sorted(most)}, got {result.summary()}"
    return None


def outcome_cites_its_clause(rules, state):
    """dishes.end.most-dishes-loses: an outcome names what decided it.  One player with
    strictly the most dishes loses by the clause itself; a tie for most is decided by the
    tie ruling (dishes.ruling.tie-for-most), which the outcome must then name (a reading
    says so, and names its ruling)."""
    if rules.to_move(state) is not TERMINAL:
        return None
    t = table(rules, state)
    setup = state.setup
    counts = [dishes_of(setup, t, s) for s in range(setup.players)]
    most = {s for s, c in enumerate(counts) if c == max(counts)}
    if silent_end(setup, t, most):
        return None
    result = rules.outcome(state)
    if result is None:
        return None
    expected = "dishes.end.most-dishes-loses" if len(most) == 1 else "dishes.ruling.tie-for-most"
    if result.clause != expected:
        return f"dishes {counts}: the outcome cites {result.clause!r}, expected {expected!r}"
    return None


# --------------------------------------------------------------------------- fixed positions


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


# --------------------------------------------------------------------------- the register


def gap_only_if_strict(fn):
    """Run a property or example; a RuleGap is a silence of the text only where its ruling's
    strict alternative is chosen (then the property has nothing to say).  Anywhere else the
    text, or the chosen alternative, decides, and the gap is reported."""

    @functools.wraps(fn)
    def run(rules, *args):
        try:
            return fn(rules, *args)
        except RuleGap as gap:
            setup = args[0].setup if args else None
            if setup is not None and options_text(setup.options).get(gap.ruling) == "strict":
                raise
            return f"a rule gap {gap.ruling} where the text or the chosen alternative decides ({gap.detail})"

    return run


def _state(clause, says, fn, **kw):
    return Property(clause, says, state=gap_only_if_strict(fn), **kw)


def _move(clause, says, fn, **kw):
    return Property(clause, says, transition=gap_only_if_strict(fn), **kw)


def _example(clause, says, fn, **kw):
    return Example(clause, says, gap_only_if_strict(fn), **kw)



PROPERTIES = (
    _state("dishes.components.tiles", "every kind in play keeps one tile per layout; at most four per kind",
           tile_count, applies=clear_combination, lines=((8, 14), (17, 17)),
           reads=("dishes.ruling.deal-2-players", "dishes.ruling.deal-3-players", "dishes.ruling.movable-stacks",
                  "dishes.ruling.colour-model")),
    _state("dishes.components.colour-sets", "shown colours fit the colour sets (one tile per kind and colour)",
           shown_colours, applies=clear_combination, name="shown", lines=(12, 13),
           reads=("dishes.ruling.deal-2-players", "dishes.ruling.deal-3-players", "dishes.ruling.movable-stacks",
                  "dishes.ruling.colour-model")),
    _state("dishes.components.colour-sets", "a turned tile's colour follows the colour model; probabilities sum to 1",
           reveal_probabilities, applies=clear_combination, name="reveal", lines=((12, 13), (16, 17)),
           reads=("dishes.ruling.deal-2-players", "dishes.ruling.deal-3-players", "dishes.ruling.movable-stacks",
                  "dishes.ruling.colour-model")),
    _state("dishes.components.clean-side", "a clean tile shows no colour to anyone, and looks like any clean tile",
           clean_shows_no_colour, lines=(12, 12)),
    _state("dishes.setup.sort", "at the start every dealt tile is clean side up",
           start_all_clean, lines=(16, 17)),
    _state("dishes.setup.deal-one-of-each", "at the start one layout per player of one tile per kind (deal rulings)",
           start_layouts, lines=(17, 17),
           reads=("dishes.ruling.deal-2-players", "dishes.ruling.deal-3-players")),
    _state("dishes.setup.hidden-backs", "every seat sees the same table; nobody sees a clean tile's colour",
           nobody_sees_more, lines=(17, 17)),
    _state("dishes.setup.layout", "places in the book's order; a tile stays where dealt unless its pile moves",
           layout_order, lines=((17, 17), (22, 22), (24, 24))),
    _state("dishes.play.first-player", "after the start's chance the first player moves (first-player ruling)",
           first_player_starts, name="start", lines=(20, 20), reads=("dishes.ruling.first-player",)),
    _state("dishes.play.first-player", "a first-player draw only under random, before anyone moved, 1/n each",
           first_player_draw, name="draw", lines=(20, 20),
           reads=("dishes.ruling.first-player", "dishes.ruling.deal-2-players", "dishes.ruling.deal-3-players")),
    _move("dishes.play.clockwise", "after a player's move the next seat clockwise moves (or the game is over)",
          clockwise, lines=(20, 20)),
    _state("dishes.play.one-move", "legal moves are turns, placements, and a pass only where a ruling gives one",
           move_kinds, applies=clear_combination, name="kinds", lines=(21, 23),
           reads=("dishes.ruling.deal-2-players", "dishes.ruling.deal-3-players", "dishes.ruling.movable-stacks",
                  "dishes.ruling.colour-model", "dishes.ruling.stuck-player", "dishes.ruling.voluntary-pass")),
    _move("dishes.play.one-move", "a pass leaves the table unchanged",
          pass_changes_nothing, name="pass", lines=(21, 21)),
    _state("dishes.play.turn-own-tile", "the mover may turn exactly their own clean tiles",
           turnable, name="legal", lines=(22, 22),
           reads=("dishes.ruling.deal-2-players", "dishes.ruling.deal-3-players")),
    _move("dishes.play.turn-own-tile", "turning soils exactly that tile, in its place",
          turning_soils_one_tile, name="flip", lines=(22, 22)),
    _move("dishes.play.turn-own-tile", "a colour shows on the waiting clean tile only",
          reveal_shows_that_tile, name="reveal", lines=(22, 22)),
    _state("dishes.play.turn-own-tile", "while a turned tile waits for its colour, chance acts",
           waiting_tile_is_chance, name="waiting", lines=(22, 22)),
    _state("dishes.play.place-dirty", "placements move a movable soiled pile onto another soiled pile",
           places_from_and_onto_dirty, applies=clear_combination, lines=(23, 23),
           reads=("dishes.ruling.deal-2-players", "dishes.ruling.deal-3-players", "dishes.ruling.movable-stacks",
                  "dishes.ruling.colour-model")),
    _state("dishes.play.place-match", "placements put a top on a top of the same kind or colour",
           places_match, lines=(23, 24)),
    _state("dishes.play.place-match", "illegal_reason refuses exactly the placements the text forbids",
           places_refused, applies=clear_combination, name="refused", lines=(23, 24),
           reads=("dishes.ruling.deal-2-players", "dishes.ruling.deal-3-players", "dishes.ruling.movable-stacks",
                  "dishes.ruling.colour-model")),
    _state("dishes.play.place-anyone", "every placement the text allows is legal, in any layout",
           places_anywhere, applies=clear_combination, lines=(24, 24),
           reads=("dishes.ruling.deal-2-players", "dishes.ruling.deal-3-players", "dishes.ruling.movable-stacks",
                  "dishes.ruling.colour-model")),
    _state("dishes.play.top-counts", "legal placements are exactly those judged on the tops",
           places_by_tops, applies=clear_combination, name="moves", lines=(23, 24),
           reads=("dishes.ruling.deal-2-players", "dishes.ruling.deal-3-players", "dishes.ruling.movable-stacks",
                  "dishes.ruling.colour-model")),
    _state("dishes.play.top-counts", "every seat sees a pile's top, not what it covers (covered-tiles=top-only)",
           top_is_what_is_seen, name="seen", lines=(24, 24), under={"dishes.ruling.covered-tiles": ("top-only",)}),
    _move("dishes.play.move-whole-stack", "a placement puts the whole pile, in order, on the target's top",
          whole_pile_moves, lines=(23, 24)),
    _state("dishes.end.no-moves", "when nobody can move the game is over",
           ends_when_nobody_can_move, applies=clear_combination, name="ends", lines=(32, 32),
           reads=("dishes.ruling.deal-2-players", "dishes.ruling.deal-3-players", "dishes.ruling.movable-stacks",
                  "dishes.ruling.colour-model")),
    _state("dishes.end.no-moves", "after the end no move is legal or accepted",
           nothing_after_the_end, name="nothing-after", lines=(32, 32)),
    _state("dishes.end.no-moves", "the game is over only when nobody can move (not under stuck-player=game-ends)",
           ends_only_then, applies=clear_combination,
           under=but("dishes.ruling.stuck-player", "game-ends"), name="only-then", lines=(32, 32),
           reads=("dishes.ruling.deal-2-players", "dishes.ruling.deal-3-players", "dishes.ruling.movable-stacks",
                  "dishes.ruling.colour-model")),
    _state("dishes.end.no-moves", "under stuck-player=game-ends: over exactly when the player to move is stuck",
           stuck_ends_game, applies=clear_combination,
           under={"dishes.ruling.stuck-player": ("game-ends",)}, name="game-ends", lines=(32, 32),
           reads=("dishes.ruling.deal-2-players", "dishes.ruling.deal-3-players", "dishes.ruling.movable-stacks",
                  "dishes.ruling.colour-model")),
    _state("dishes.end.most-dishes-loses", "the players with the most dishes lose (counting, tie, strict rulings)",
           most_dishes_loses, applies=clear_combination, lines=(32, 32),
           reads=("dishes.ruling.deal-2-players", "dishes.ruling.deal-3-players", "dishes.ruling.movable-stacks",
                  "dishes.ruling.colour-model", "dishes.ruling.dishes-count", "dishes.ruling.clean-at-end",
                  "dishes.ruling.tie-for-most")),
    _state("dishes.end.most-dishes-loses", "the outcome cites the clause, or the tie ruling when players tie",
           outcome_cites_its_clause, applies=clear_combination, name="cites", lines=(32, 32),
           reads=("dishes.ruling.deal-2-players", "dishes.ruling.deal-3-players", "dishes.ruling.movable-stacks",
                  "dishes.ruling.colour-model", "dishes.ruling.dishes-count", "dishes.ruling.clean-at-end",
                  "dishes.ruling.tie-for-most")),
)

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

UNOBSERVABLE = {
    "dishes.goal": "the goal sentence is flavour: what it means for play is stated by the end clauses",
}
