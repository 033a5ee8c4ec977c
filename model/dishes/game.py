"""Who Is Going to Do the Dishes? (spec/dishes.toml) as an explicit state machine.

The table is a row of *layouts* (one per player, or as the deal rulings say), each with
six *places*, one per tile type (dishes.setup.layout).  A place holds a clean tile
(``None``: its colour is still face down), a stack of dirty tiles (a tuple of tile codes,
bottom first; ``code = type * 4 + colour``), or nothing (``()``) once its stack has moved.

Colours are dealt lazily: a tile's dirty side is fixed by a CHANCE event when the tile is
turned (dishes.play.turn-own-tile), with the conditional probability the physical deal
gives it (the principle of deferred decisions).  One exploration from the single initial
state therefore covers every deal; :func:`deal_probability` is tested against that.

Each player wants to be rid of dishes (dishes.goal): a pile put on another player's tile
lies in that player's places.  The rulebook's worked example (dishes.example.ania-krzys)
is checked by tests/model/test_dishes.py and proved consistent in proofs/dishes/proofs.py.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb, factorial
from typing import Any

from ..core import (
    CHANCE, Outcomes, STRICT, TERMINAL, IllegalMove, Invariant, MoveSyntaxError, Outcome, RuleGap, RuleSet, Setup,
    SetupError, read_number, ruling,
)

# functions that decide nothing about play, and why (the decision-point finder reads this)
PLUMBING = {
    "Tiles.name": "the tile set's name",
    "parse_tiles": "reads a --deck value",
    "geometry": "the same setup object as before; keeps the cache bounded",
    ("parse_place", "parse_move"): "parses a move's text",
    "absent": "the places a move names; a place beyond this table",
    "_deal_rulings": "names the deal ruling behind a refused deal",
    ("_facts", "to_move", "chance_outcomes"): "works a state out once",
    "_places_to": "the bits of the mask",
    "revealed_codes": "lists the tiles shown",
    "state_vars": "writes the state for vectors",
    ("_key", "_rotation_maps", "canonical", "orbit_size", "_type_orders", "_relabel"):
        "symmetry reduction (relabelling), decides nothing about play",
}

# --------------------------------------------------------------------------- components

TYPES = ("dessert", "main", "drinks", "forks", "soup", "knives")
"""Tile types in layout order: first row dessert, main course, drinks; second row forks, soup, knives
(dishes.setup.layout)."""
COLOURS = ("red", "yellow", "c3", "c4")
"""Dirty-side colours (dishes.components.colour-sets); only red and yellow are named by a public source."""
NT, NC = len(TYPES), len(COLOURS)
CLEAN = None


@dataclass(frozen=True, slots=True)
class Tiles:
    """The tile set in play (dishes.components.tiles): the first ``types`` types of TYPES in
    the first ``colours`` colours.  The boxed game is Tiles(6, 4); smaller sets give small
    configurations the explorer can search to the end."""

    types: int = NT
    colours: int = NC

    @property
    def name(self) -> str:
        return "box" if (self.types, self.colours) == (NT, NC) else f"{self.types}-types-{self.colours}-colours"

    def digest(self) -> str:
        return f"dishes-tiles:{self.types}x{self.colours}"


def parse_tiles(text: str) -> Tiles:
    """`TYPESxCOLOURS` (e.g. 3x4) or `box`: a --deck value for dishes."""
    if text == "box":
        return Tiles()
    a, x, b = text.partition("x")
    types, colours = read_number(a), read_number(b)
    if not x or types is None or colours is None or not (1 <= types <= NT and 1 <= colours <= NC):
        raise SetupError(
            f"dishes tiles {text[:60]!r}: expected 'box' or TYPESxCOLOURS in ASCII digits with 1-{NT} types and "
            f"1-{NC} colours, e.g. 3x4"
        )
    return Tiles(types, colours)


def tile_type(code: int) -> int:
    return (code // NC) % NT


def tile_colour(code: int) -> int:
    return code % NC


def tile_origin(code: int) -> int:
    """The layout the tile was dealt to (kept only where a ruling needs it, else 0)."""
    return code // (NC * NT)


def tile_text(code: int) -> str:
    return f"{COLOURS[tile_colour(code)]} {TYPES[tile_type(code)]}"


# --------------------------------------------------------------------------- rulings


@dataclass(frozen=True, slots=True)
class Options:
    """One field per ruling in spec/dishes.toml; the first alternative is the default."""

    deal_2_players: str = ruling("dishes.ruling.deal-2-players", "random-subset", "colour-sets", "two-layouts", STRICT)
    deal_3_players: str = ruling("dishes.ruling.deal-3-players", "random-subset", "colour-sets", "spare-layout", STRICT)
    colour_model: str = ruling("dishes.ruling.colour-model", "four-sets", "free-colours", "layout-sets")
    movable_stacks: str = ruling("dishes.ruling.movable-stacks", "own-places", "own-top", "any-stack")
    stuck_player: str = ruling("dishes.ruling.stuck-player", "skip", "game-ends", STRICT)
    voluntary_pass: str = ruling("dishes.ruling.voluntary-pass", "never", "allowed")
    dishes_count: str = ruling("dishes.ruling.dishes-count", "tiles", "stacks", STRICT)
    tie_for_most: str = ruling("dishes.ruling.tie-for-most", "all-tied-lose", "no-loser", STRICT)
    first_player: str = ruling("dishes.ruling.first-player", "seat-0", "random")
    clean_at_end: str = ruling("dishes.ruling.clean-at-end", "not-dishes", "dishes", STRICT)
    covered_tiles: str = ruling("dishes.ruling.covered-tiles", "top-only", "open-piles")


# --------------------------------------------------------------------------- the table's geometry


@dataclass(frozen=True)
class Geometry:
    """Who owns which layout, for one setup (dishes.setup.deal-one-of-each, the deal rulings)."""

    owners: tuple[int | None, ...]
    """Owner seat per layout; None for the spare layout nobody owns."""
    deal: str
    """How colours were dealt: four-sets, colour-sets, free-colours or layout-sets."""
    colours_in_play: int
    track_origin: bool
    """Tile codes carry the layout they were dealt to (needed by own-top and layout-sets)."""
    types: int
    """Types in play: places of the other types stay empty all game."""
    seat_places: tuple[tuple[int, ...], ...] = ()
    """Per seat, its places (dishes.setup.layout)."""
    place_owner: tuple[int | None, ...] = ()
    """Per place, the seat whose layout it is in (None for the spare layout)."""

    @property
    def layouts(self) -> int:
        return len(self.owners)

    def places_of(self, seat: int) -> tuple[int, ...]:
        return self.seat_places[seat]

    def owner_of_place(self, place: int) -> int | None:
        return self.place_owner[place]


_GEOMETRY: dict[int, tuple[Setup, Geometry]] = {}
"""id(setup) -> (setup, its geometry): the one cache of the hot path, by identity (a Setup's
hash is a Python call; a lookup by id is four times faster)."""


def geometry(setup: Setup) -> Geometry:
    """The layouts for this setup (:func:`layouts_of`), remembered per setup object."""
    hit = _GEOMETRY.get(id(setup))
    if hit is not None and hit[0] is setup:
        return hit[1]
    g = layouts_of(setup)
    if len(_GEOMETRY) >= 64:
        _GEOMETRY.clear()
    _GEOMETRY[id(setup)] = (setup, g)  # holding the setup keeps its id from being reused
    return g


def layouts_of(setup: Setup) -> Geometry:
    """The layouts for this setup, as the deal rulings say (dishes.ruling.deal-2-players,
    dishes.ruling.deal-3-players): the rulebook leaves dealing to 2 or 3 players open
    (dishes.setup.deal-2-3-unspecified)."""
    o: Options = setup.options
    n = setup.players
    # rule: dishes.ruling.deal-2-players, dishes.ruling.deal-3-players
    scheme = "random-subset" if n == 4 else (o.deal_2_players if n == 2 else o.deal_3_players)
    ruling_id = f"dishes.ruling.deal-{n}-players"
    if scheme == STRICT:  # rule: dishes.setup.deal-2-3-unspecified
        raise RuleGap(ruling_id, f"the rulebook does not say how to deal with {n} players")
    tiles: Tiles = setup.components
    owners: tuple[int | None, ...] = tuple(range(n))
    colours = tiles.colours
    if scheme == "two-layouts":  # rule: dishes.ruling.deal-2-players, dishes.ruling.deal-3-players
        owners = (0, 1, 0, 1)
    elif scheme == "spare-layout":  # rule: dishes.ruling.deal-2-players, dishes.ruling.deal-3-players
        owners = tuple(range(n)) + (None,)
    elif scheme == "colour-sets":  # rule: dishes.ruling.deal-2-players, dishes.ruling.deal-3-players
        colours = n
    # rule: dishes.ruling.colour-model
    deal = (
        o.colour_model if o.colour_model != "four-sets" else ("colour-sets" if colours < tiles.colours else "four-sets")
    )
    track = o.movable_stacks == "own-top" or deal == "layout-sets"
    # rule: dishes.setup.layout
    seat_places = tuple(
        tuple(L * NT + t for L, o_ in enumerate(owners) if o_ == seat for t in range(NT)) for seat in range(n)
    )
    place_owner = tuple(owners[p // NT] for p in range(len(owners) * NT))
    return Geometry(owners, deal, colours, track, tiles.types, seat_places, place_owner)


# --------------------------------------------------------------------------- state and moves


@dataclass(frozen=True, slots=True)
class State:
    setup: Setup
    places: tuple
    """Per place (layout * 6 + type): None (clean), () (empty), or a stack of tile codes, bottom first."""
    turn: int
    """The seat whose turn it is (dishes.play.clockwise); -1 while chance picks the first player."""
    reveal: tuple[int, ...] = ()
    """Places whose dirty side chance shows next (a tile just turned, or the spare layout)."""
    memo: Any = field(default=None, init=False, compare=False, hash=False, repr=False)
    """What has been worked out about this state (who moves, their moves): set once, never compared."""


@dataclass(frozen=True, slots=True, order=True)
class Turn:
    """Turn one of your own clean tiles dirty side up (dishes.play.turn-own-tile)."""

    place: int

    def __str__(self) -> str:
        return f"turn {place_text(self.place)}"


@dataclass(frozen=True, slots=True, order=True)
class Place:
    """Put the stack at ``source`` on the stack at ``target`` (dishes.play.place-dirty,
    dishes.play.move-whole-stack)."""

    source: int
    target: int

    def __str__(self) -> str:
        return f"place {place_text(self.source)} on {place_text(self.target)}"


@dataclass(frozen=True, slots=True, order=True)
class Pass:
    """Let the turn go by (dishes.ruling.stuck-player, dishes.ruling.voluntary-pass)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True, order=True)
class Reveal:
    """Chance: the dirty side of the tile at ``place`` shows ``colour``."""

    place: int
    colour: int

    def __str__(self) -> str:
        return f"reveal {place_text(self.place)} {COLOURS[self.colour]}"


@dataclass(frozen=True, slots=True, order=True)
class FirstPlayer:
    """Chance: who starts, under dishes.ruling.first-player = random."""

    seat: int

    def __str__(self) -> str:
        return f"first {self.seat}"


Move = Turn | Place | Pass | Reveal | FirstPlayer

MAX_PLACES = 4 * NT
"""Places on the largest table (four layouts: four players, two-layouts, or three players and a spare)."""
_TURNS = tuple(Turn(p) for p in range(MAX_PLACES))
_PLACES = tuple(tuple(Place(a, b) for b in range(MAX_PLACES)) for a in range(MAX_PLACES))
_REVEALS = tuple(tuple(Reveal(p, c) for c in range(NC)) for p in range(MAX_PLACES))
_PASS = Pass()
"""Moves are values: the same move is one shared object (random play makes millions)."""


def place_text(place: int) -> str:
    """`1.soup`: layout 1's soup place."""
    return f"{place // NT}.{TYPES[place % NT]}"


def parse_place(text: str) -> int:
    layout, dot, kind = text.partition(".")
    number = read_number(layout)
    if not dot or number is None or kind not in TYPES:
        raise MoveSyntaxError(f"bad place {text[:60]!r}: expected LAYOUT.TYPE with LAYOUT a number in ASCII digits "
                              f"(no leading zero) and TYPE one of {', '.join(TYPES)}")
    return number * NT + TYPES.index(kind)


def absent(move: Any, setup: Setup) -> tuple[str, str] | None:
    """The place a move names that this table does not have (its layouts, the kinds of its
    tile set: dishes.components.tiles), as (clause, one line); None if it has them all."""
    try:
        layouts = geometry(setup).layouts
    except RuleGap:  # plumbing: a strict deal ruling leaves the table unknown: only the kinds are checked
        layouts = MAX_PLACES // NT
    kinds = setup.components.types
    named = [getattr(move, f) for f in ("place", "source", "target") if hasattr(move, f)]
    for p in named:  # plumbing: each place the move names
        if p // NT >= layouts or p % NT >= kinds:
            return ("dishes.components.tiles",
                    f"unknown place {place_text(p)}: this table has layouts 0 to {layouts - 1} and the kinds "
                    f"{', '.join(TYPES[:kinds])} (tile set {kinds}x{setup.components.colours})")
    return None


def parse_move(text: str, setup: Setup | None = None) -> Move:
    """The move a canonical text names (the inverse of ``str``); MoveSyntaxError if none."""
    w = text.split()
    if w == ["pass"]:
        return Pass()
    if len(w) == 2 and w[0] == "turn":
        return Turn(parse_place(w[1]))
    if len(w) == 4 and w[0] == "place" and w[2] == "on":
        return Place(parse_place(w[1]), parse_place(w[3]))
    if len(w) == 3 and w[0] == "reveal":
        if w[2] not in COLOURS:
            raise MoveSyntaxError(f"bad colour {w[2]!r} in {text!r}: expected one of {', '.join(COLOURS)}")
        return Reveal(parse_place(w[1]), COLOURS.index(w[2]))
    if len(w) == 2 and w[0] == "first" and read_number(w[1]) is not None:
        return FirstPlayer(read_number(w[1]))
    raise MoveSyntaxError(
        f"not a dishes move: {text!r} (moves: turn P, place P on Q, pass, reveal P COLOUR, first SEAT)"
    )


# --------------------------------------------------------------------------- a physical deal


def parse_deal(text: str, setup: Setup) -> tuple[int, ...]:
    """A physical deal as the colour of every tile (per place; 4 for places with no tile).

    Text: per layout, in layout order (each seat's layout, then any second layout of
    two-layouts or the spare layout), the colour of its tile of each kind in the layout
    order of dishes.setup.layout (dessert, main, drinks, forks, soup, knives), comma
    separated; layouts separated by ``/``.  For two players with the box:
    ``red,yellow,c3,c4,red,yellow/yellow,c3,c4,red,yellow,c3``.  The deal must be possible
    under the setup's rulings (its probability under dishes.ruling.colour-model and the
    deal rulings is not zero); SetupError says what is wrong."""
    g = geometry(setup)
    tiles: Tiles = setup.components
    layouts = [part.strip() for part in text.split("/")]
    if len(layouts) != g.layouts:  # plumbing: checks the --deal text
        given = f"{len(layouts)} layout{'' if len(layouts) == 1 else 's'}"  # plumbing: wording of the error
        raise SetupError(f"--deal {text!r}: {given} given, this setup has {g.layouts} "
                         f"(layouts separated by '/')")
    colours = list(COLOURS[:tiles.colours])
    out = [4] * (g.layouts * NT)
    colouring: dict[int, int] = {}
    for L, part in enumerate(layouts):
        names = [c.strip() for c in part.split(",")]
        if len(names) != g.types:  # plumbing: checks the --deal text
            raise SetupError(f"--deal layout {L + 1} ({part!r}): {len(names)} colours given, expected {g.types} "
                             f"(one per kind: {', '.join(TYPES[:g.types])})")
        for t, name in enumerate(names):
            if name not in colours:  # plumbing: checks the --deal text
                raise SetupError(f"--deal layout {L + 1}: unknown colour {name!r} (colours: {', '.join(colours)})")
            out[L * NT + t] = colouring[L * NT + t] = colours.index(name)
    if deal_probability(setup, colouring) == 0:  # rule: dishes.components.colour-sets, dishes.ruling.colour-model
        raise SetupError(f"--deal {text!r} cannot be dealt under {_deal_rulings(setup, g)}")
    return tuple(out)


def _deal_rulings(setup: Setup, g: Geometry) -> str:
    """The rulings that decide which deals are possible, and what they allow (for parse_deal)."""
    rulings = f"dishes.ruling.colour-model={setup.options.colour_model}"
    if g.deal == "colour-sets":
        rulings += f", dishes.ruling.deal-{setup.players}-players=colour-sets"
        return (f"{rulings} ({g.colours_in_play} whole colour sets are used: at most {g.colours_in_play} colours, and "
                f"each kind's "
                f"tiles differ in colour)")
    if g.deal == "layout-sets":
        return f"{rulings} (one colour per layout, a different one for each layout)"
    return f"{rulings} (each kind's tiles differ in colour)"


# --------------------------------------------------------------------------- setup


def new_game(setup: Setup) -> State:
    """Every tile dealt clean side up in its layout (dishes.setup.sort, dishes.setup.deal-one-of-each,
    dishes.setup.layout)."""
    g = geometry(setup)
    # rule: dishes.setup.deal-one-of-each, dishes.components.clean-side
    places = [CLEAN if t < g.types else () for _ in range(g.layouts) for t in range(NT)]
    # rule: dishes.ruling.deal-3-players
    spare = tuple(L * NT + t for L, o in enumerate(g.owners) if o is None for t in range(g.types))
    random_start = setup.options.first_player == "random"
    # rule: dishes.ruling.first-player, dishes.play.first-player
    return State(setup, tuple(places), -1 if random_start else 0, spare)


def setup_error(setup: Setup) -> str | None:
    """Why these tiles cannot be dealt to these players, or None."""
    tiles = setup.components
    if not isinstance(tiles, Tiles):  # plumbing: checks the caller's components
        return "components must be a dishes tile set (--deck box or TYPESxCOLOURS)"
    try:
        g = geometry(setup)
    except RuleGap:
        return None  # strict deal: new_game raises the gap, where the explorer records it
    # rule: dishes.components.colour-sets
    if g.deal in ("four-sets", "colour-sets", "layout-sets") and g.layouts > tiles.colours:
        return f"{g.layouts} layouts need at least {g.layouts} colours, the tile set has {tiles.colours}"
    return None


# --------------------------------------------------------------------------- who moves


def movable(state: State, seat: int, place: int) -> bool:
    """May ``seat`` move the stack at ``place``? (dishes.ruling.movable-stacks)."""
    stack = state.places[place]
    if not stack:  # plumbing: no pile here
        return False
    rule = state.setup.options.movable_stacks
    if rule == "any-stack":  # rule: dishes.ruling.movable-stacks
        return True
    g = geometry(state.setup)
    if rule == "own-places":  # rule: dishes.ruling.movable-stacks
        return g.place_owner[place] == seat
    # own-top: the top tile was dealt to this seat (tile codes carry their layout here).
    return g.owners[tile_origin(stack[-1])] == seat


def matches(a: int, b: int) -> bool:
    """Same type or same colour (dishes.play.place-match)."""
    return (a // NC) % NT == (b // NC) % NT or a % NC == b % NC


_ACTOR, _MOVES, _CHANCE = 0, 1, 2
"""Who may act in a state, worked out once and kept in State.memo as a tuple: the actor,
the real moves (turns and places) of the seat to move in canonical order, and the chance
outcomes with their probabilities where chance moves."""


def _facts(state: State) -> tuple:
    facts = state.memo
    if facts is None:
        facts = _work_out(state)
        _set_memo(state, facts)
    return facts


def _work_out(state: State) -> tuple:
    if state.reveal or state.turn < 0:  # rule: dishes.play.turn-own-tile, dishes.ruling.first-player
        return (CHANCE, (), _chance_outcomes(state))
    seat = state.turn
    moves = real_moves(state, seat)
    if moves:  # plumbing: the player to move can act, so the game goes on
        return (seat, moves, ())
    if not any(can_move(state, s) for s in range(state.setup.players) if s != seat):  # rule: dishes.end.no-moves
        return (TERMINAL, (), ())
    if state.setup.options.stuck_player == "game-ends":  # rule: dishes.ruling.stuck-player
        return (TERMINAL, (), ())
    return (seat, (), ())


@lru_cache(maxsize=1 << 18)
def _places_to(src: int, mask: int) -> tuple:
    """The Place moves from ``src`` to each place in the bit mask ``mask``, in target order."""
    row = _PLACES[src]
    return tuple(row[d] for d in range(MAX_PLACES) if mask >> d & 1)


def real_moves(state: State, seat: int) -> tuple[Move, ...]:
    """Every Turn and Place open to ``seat``, in canonical order; a pile may land in any
    layout, the mover's own included (dishes.play.place-anyone)."""
    places = state.places
    g = geometry(state.setup)
    mine = g.seat_places[seat]
    out: list[Move] = [_TURNS[p] for p in mine if places[p] is CLEAN]  # rule: dishes.play.turn-own-tile
    tops = [(p, s[-1]) for p, s in enumerate(places) if s]  # rule: dishes.play.top-counts
    by_kind = [0] * NT
    by_colour = [0] * NC
    for p, top in tops:
        bit = 1 << p
        by_kind[top // NC % NT] |= bit
        by_colour[top % NC] |= bit
    rule = state.setup.options.movable_stacks
    if rule == "own-places":  # rule: dishes.ruling.movable-stacks
        sources = [(p, places[p][-1]) for p in mine if places[p]]  # rule: dishes.play.top-counts
    elif rule == "own-top":  # rule: dishes.ruling.movable-stacks
        # rule: dishes.ruling.movable-stacks
        sources = [(p, top) for p, top in tops if g.owners[tile_origin(top)] == seat]
    else:
        sources = tops
    for src, top in sources:
        # rule: dishes.play.place-dirty, dishes.play.place-match
        mask = (by_kind[top // NC % NT] | by_colour[top % NC]) & ~(1 << src)
        if mask:  # rule: dishes.play.place-match
            out += _places_to(src, mask)
    return tuple(out)


def can_move(state: State, seat: int) -> bool:
    g = geometry(state.setup)
    places = state.places
    if any(places[p] is CLEAN for p in g.seat_places[seat]):  # rule: dishes.play.turn-own-tile
        return True
    tops = [(p, s[-1]) for p, s in enumerate(places) if s]  # rule: dishes.play.top-counts
    for src, top in tops:
        # rule: dishes.play.place-match
        if movable(state, seat, src) and any(dst != src and matches(top, other) for dst, other in tops):
            return True
    return False


def game_over(state: State) -> bool:
    """Nobody can make a move (dishes.end.no-moves)."""
    return not any(can_move(state, s) for s in range(state.setup.players))


def to_move(state: State) -> Any:
    facts = state.memo
    return (facts if facts is not None else _facts(state))[_ACTOR]


def legal_moves(state: State) -> tuple[Move, ...]:
    """The moves of the seat to move (dishes.play.one-move) in canonical order."""
    facts = state.memo
    seat, moves, _ = facts if facts is not None else _facts(state)  # plumbing: works a state out once
    if not isinstance(seat, int):  # plumbing: chance or the end: no seat moves
        return ()
    if not moves:  # rule: dishes.ruling.stuck-player
        if state.setup.options.stuck_player == STRICT:  # rule: dishes.ruling.stuck-player
            raise RuleGap("dishes.ruling.stuck-player", f"seat {seat} cannot move but another player can")
        return (_PASS,)  # skip (game-ends never gets here: the state is an end)
    if state.setup.options.voluntary_pass == "allowed":  # rule: dishes.ruling.voluntary-pass
        return moves + (_PASS,)
    return moves


def chance_outcomes(state: State) -> tuple[tuple[Move, Fraction], ...]:
    facts = state.memo
    return (facts if facts is not None else _facts(state))[_CHANCE]


def _chance_outcomes(state: State) -> tuple[tuple[Move, Fraction], ...]:
    if state.turn < 0 and not state.reveal:  # rule: dishes.ruling.first-player
        n = state.setup.players
        return Outcomes((FirstPlayer(s), Fraction(1, n)) for s in range(n))
    place = state.reveal[0]
    reveals = _REVEALS[place]
    return Outcomes((reveals[c], p) for c, p in reveal_distribution(state, place))


def _colours_shown(state: State, kind: int) -> int:
    """Bit mask of the colours shown so far on tiles of ``kind`` (four-sets: each kind's tiles differ in colour)."""
    taken = 0
    for s in state.places:
        if s:  # rule: dishes.components.colour-sets
            for c in s:
                if (c // NC) % NT == kind:  # rule: dishes.components.colour-sets
                    taken |= 1 << (c % NC)
    return taken


# --------------------------------------------------------------------------- the hidden deal


def revealed_codes(state: State) -> list[int]:
    return [c for s in state.places if s for c in s]


def reveal_distribution(state: State, place: int) -> list[tuple[int, Fraction]]:
    """P(colour) for the clean tile at ``place`` given every colour shown so far.

    four-sets: each type's four tiles are dealt at random to the layouts (and the box);
    colour-sets: only as many colour sets as players, chosen at random;
    layout-sets: each layout is one whole colour set; free-colours: independent colours.
    """
    g = geometry(state.setup)
    NC = state.setup.components.colours  # noqa: N806 - colours in this tile set
    t = place % NT
    if g.deal == "free-colours":  # rule: dishes.ruling.colour-model
        return _uniform(NC, 0)
    if g.deal == "four-sets":  # rule: dishes.ruling.colour-model
        return _uniform(NC, _colours_shown(state, t))
    shown = revealed_codes(state)
    if g.deal == "layout-sets":  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
        layout_colour = _layout_colours(state)
        L = place // NT
        if L in layout_colour:  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
            return [(layout_colour[L], Fraction(1))]
        used = set(layout_colour.values())
        # rule: dishes.ruling.colour-model, dishes.components.colour-sets
        free = [c for c in range(NC) if c not in used]
        return [(c, Fraction(1, len(free))) for c in free]
    # rule: dishes.ruling.colour-model, dishes.components.colour-sets
    taken = {tile_colour(c) for c in shown if tile_type(c) == t}
    # colour-sets: weight each possible set S of colours in play by the deals it allows.
    n = g.colours_in_play
    used = {tile_colour(c) for c in shown}
    # rule: dishes.ruling.colour-model, dishes.components.colour-sets
    per_type = [sum(1 for c in shown if tile_type(c) == k) for k in range(NT)]

    def weight(extra: int | None) -> int:
        total = 0
        # rule: dishes.ruling.colour-model, dishes.components.colour-sets
        need = used | ({extra} if extra is not None else set())
        for S in itertools.combinations(range(NC), n):
            if need <= set(S):  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
                w = 1
                for k in range(NT):
                    # rule: dishes.ruling.colour-model, dishes.components.colour-sets
                    w *= factorial(n - per_type[k] - (1 if (extra is not None and k == t) else 0))
                total += w
        return total

    base = weight(None)
    out = []
    for c in range(NC):
        if c in taken:  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
            continue
        w = weight(c)
        if w:  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
            out.append((c, Fraction(w, base)))
    return out


@lru_cache(maxsize=None)
def _uniform(colours: int, taken: int) -> tuple[tuple[int, Fraction], ...]:
    """Each colour not in the bit mask ``taken`` with equal probability."""
    # rule: dishes.ruling.colour-model, dishes.components.colour-sets
    free = [c for c in range(colours) if not (taken >> c) & 1]
    return tuple((c, Fraction(1, len(free))) for c in free)


def _layout_colours(state: State) -> dict[int, int]:
    """Layout -> colour, for layouts with a tile shown (layout-sets only)."""
    return {tile_origin(code): tile_colour(code) for code in revealed_codes(state)}


def deal_probability(setup: Setup, colouring: dict[int, int]) -> Fraction:
    """The probability of a complete colouring (place -> colour) under the physical deal.

    Computed directly from the deal's combinatorics, independently of the lazy reveals;
    tests check the two agree.
    """
    g = geometry(setup)
    L, k, m = g.layouts, g.types, setup.components.colours
    if g.deal == "free-colours":  # rule: dishes.ruling.colour-model, dishes.setup.deal-one-of-each
        return Fraction(1, m ** (L * k))
    if g.deal == "layout-sets":  # rule: dishes.ruling.colour-model, dishes.setup.deal-one-of-each
        cols = [colouring[l * NT] for l in range(L)]
        # rule: dishes.ruling.colour-model, dishes.setup.deal-one-of-each
        if any(colouring[l * NT + t] != cols[l] for l in range(L) for t in range(k)) or len(set(cols)) != L:
            return Fraction(0)
        return Fraction(factorial(m - L), factorial(m))
    # rule: dishes.ruling.colour-model, dishes.setup.deal-one-of-each
    if not all(len({colouring[l * NT + t] for l in range(L)}) == L for t in range(k)):
        return Fraction(0)
    if g.deal == "four-sets":  # rule: dishes.ruling.colour-model, dishes.setup.deal-one-of-each
        ways = factorial(m) // factorial(m - L)
        return Fraction(1, ways ** k)
    n = g.colours_in_play
    used = set(colouring.values())
    if len(used) > n:  # rule: dishes.ruling.colour-model, dishes.setup.deal-one-of-each
        return Fraction(0)
    return Fraction(1, comb(m, n)) * sum(
        # rule: dishes.ruling.colour-model, dishes.setup.deal-one-of-each
        Fraction(1, factorial(n) ** k) for S in itertools.combinations(range(m), n) if used <= set(S)
    )


# --------------------------------------------------------------------------- applying moves


def illegal_reason(state: State, move: Any) -> str | None:
    """The clause (or ruling) that forbids ``move`` here, or None if it is legal."""
    facts = state.memo
    actor, moves, chance = facts if facts is not None else _facts(state)  # plumbing: works a state out once
    kind = move.__class__
    if actor is TERMINAL:  # rule: dishes.end.no-moves
        return "dishes.end.no-moves"
    if actor is CHANCE:  # rule: dishes.play.turn-own-tile, dishes.ruling.first-player
        # rule: dishes.play.turn-own-tile, dishes.ruling.first-player
        if (kind is Reveal or kind is FirstPlayer) and any(m is move or m == move for m, _ in chance):
            return None
        # plumbing: names the clause a chance move breaks
        return "dishes.play.turn-own-tile" if kind is Reveal else "dishes.play.first-player"
    places = state.places
    if kind is Place:  # plumbing: which kind of move
        n = len(places)
        source, target = move.source, move.target
        if not (0 <= source < n and 0 <= target < n) or source == target:  # rule: dishes.play.place-dirty
            return "dishes.play.place-dirty"
        src, dst = places[source], places[target]
        if not src or not dst:  # rule: dishes.play.place-dirty
            return "dishes.play.place-dirty"
        # rule: dishes.ruling.movable-stacks
        if state.setup.options.movable_stacks != "any-stack" and not movable(state, actor, source):
            return "dishes.ruling.movable-stacks"
        a, b = src[-1], dst[-1]
        if (a // NC) % NT != (b // NC) % NT and a % NC != b % NC:  # rule: dishes.play.place-match
            return "dishes.play.place-match"
        return None
    if kind is Turn:  # plumbing: which kind of move
        # rule: dishes.play.turn-own-tile
        if not 0 <= move.place < len(places) or geometry(state.setup).place_owner[move.place] != actor:
            return "dishes.play.turn-own-tile"
        if places[move.place] is not CLEAN:  # rule: dishes.play.turn-own-tile
            return "dishes.play.turn-own-tile"
        return None
    if kind is Pass:  # plumbing: which kind of move
        if not moves:  # rule: dishes.ruling.stuck-player
            # rule: dishes.ruling.stuck-player
            return None if state.setup.options.stuck_player != STRICT else "dishes.ruling.stuck-player"
        # rule: dishes.ruling.voluntary-pass
        return None if state.setup.options.voluntary_pass == "allowed" else "dishes.ruling.voluntary-pass"
    return "dishes.play.one-move"


_NEW = object.__new__
_SET_SETUP, _SET_PLACES, _SET_TURN, _SET_REVEAL, _set_memo = (
    State.__dict__[name].__set__ for name in ("setup", "places", "turn", "reveal", "memo"))


def _state(setup: Setup, places: tuple, turn: int, reveal: tuple[int, ...]) -> State:
    """``State(setup, places, turn, reveal)``, built through the slots directly: the same
    value, without the frozen dataclass's checks (apply makes one per action)."""
    state = _NEW(State)
    _SET_SETUP(state, setup)
    _SET_PLACES(state, places)
    _SET_TURN(state, turn)
    _SET_REVEAL(state, reveal)
    _set_memo(state, None)
    return state


def apply(state: State, move: Any) -> State:
    """The state after ``move``; IllegalMove names the clause if the rules forbid it."""
    reason = illegal_reason(state, move)
    if reason is not None:  # plumbing: refuse what illegal_reason forbids
        raise IllegalMove(reason, move)
    setup = state.setup
    kind = move.__class__
    if kind is Place:  # rule: dishes.play.move-whole-stack
        places = list(state.places)
        places[move.target] = places[move.target] + places[move.source]
        places[move.source] = ()
        return _state(setup, tuple(places), next_seat(state), state.reveal)
    if kind is Reveal:  # rule: dishes.play.turn-own-tile
        g = geometry(setup)
        places = list(state.places)
        places[move.place] = (tile_code(g, move.place, move.colour),)
        spare_reveal = g.place_owner[move.place] is None  # rule: dishes.ruling.deal-3-players
        turn = state.turn if spare_reveal else next_seat(state)  # rule: dishes.ruling.deal-3-players
        return _state(setup, tuple(places), turn, state.reveal[1:])
    if kind is Turn:  # rule: dishes.play.turn-own-tile
        return _state(setup, state.places, state.turn, (move.place,))
    if kind is FirstPlayer:  # rule: dishes.ruling.first-player
        return _state(setup, state.places, move.seat, state.reveal)
    return _state(setup, state.places, next_seat(state), state.reveal)  # Pass (dishes.ruling.stuck-player)


def next_seat(state: State) -> int:
    """The seat whose turn comes after the one to move: the next clockwise (dishes.play.clockwise)."""
    return (state.turn + 1) % state.setup.players


def tile_code(g: Geometry, place: int, colour: int) -> int:
    """The code of the tile dealt to ``place`` once its colour shows."""
    origin = place // NT if g.track_origin else 0  # rule: dishes.ruling.movable-stacks, dishes.ruling.colour-model
    return (origin * NT + place % NT) * NC + colour


# --------------------------------------------------------------------------- the end


def dishes_in_front(state: State, seat: int, how: str) -> int:
    """A player's dishes: tiles (or stacks) lying in that player's places (dishes.ruling.dishes-count)."""
    g = geometry(state.setup)
    stacks = [state.places[p] for p in g.places_of(seat)]
    # rule: dishes.ruling.clean-at-end
    clean = sum(1 for s in stacks if s is CLEAN) if state.setup.options.clean_at_end == "dishes" else 0
    if how == "stacks":  # rule: dishes.ruling.dishes-count
        return sum(1 for s in stacks if s) + clean  # rule: dishes.ruling.dishes-count
    return sum(len(s) for s in stacks if s) + clean  # rule: dishes.ruling.dishes-count


def outcome(state: State) -> Outcome | None:
    """Most dishes loses (dishes.end.most-dishes-loses), under the counting and tie rulings."""
    if to_move(state) is not TERMINAL:  # rule: dishes.end.no-moves
        return None
    o: Options = state.setup.options
    seats = range(state.setup.players)
    if o.clean_at_end == STRICT and any(p is CLEAN for p in state.places):  # rule: dishes.ruling.clean-at-end
        raise RuleGap("dishes.ruling.clean-at-end", "the game ended with clean tiles on the table")
    tiles = tuple(dishes_in_front(state, s, "tiles") for s in seats)
    stacks = tuple(dishes_in_front(state, s, "stacks") for s in seats)

    def most(counts: tuple[int, ...]) -> frozenset[int]:
        top = max(counts)
        return frozenset(s for s in seats if counts[s] == top)  # rule: dishes.end.most-dishes-loses

    if o.dishes_count == STRICT and most(tiles) != most(stacks):  # rule: dishes.ruling.dishes-count
        raise RuleGap("dishes.ruling.dishes-count",
                      f"counting tiles {tiles} and counting stacks {stacks} name different losers")
    counts = stacks if o.dishes_count == "stacks" else tiles  # rule: dishes.ruling.dishes-count
    losers = most(counts)
    if len(losers) == 1:  # rule: dishes.end.most-dishes-loses
        return Outcome(losers=losers, scores=counts, clause="dishes.end.most-dishes-loses")
    if o.tie_for_most == STRICT:  # rule: dishes.ruling.tie-for-most
        raise RuleGap("dishes.ruling.tie-for-most", f"seats {sorted(losers)} tie for most dishes ({counts})")
    if o.tie_for_most == "no-loser":  # rule: dishes.ruling.tie-for-most
        return Outcome(draw=True, scores=counts, clause="dishes.ruling.tie-for-most")
    return Outcome(losers=losers, scores=counts, clause="dishes.ruling.tie-for-most")


# --------------------------------------------------------------------------- what players see


def observation(state: State, seat: int) -> dict[str, Any]:
    """What ``seat`` sees: clean tiles by type only (dishes.setup.hidden-backs,
    dishes.components.clean-side), and of each
    stack its top tile and height (dishes.play.top-counts); the tiles below are covered, or, under
    dishes.ruling.covered-tiles=open-piles, listed bottom first (every player saw each one placed)."""
    out: dict[str, Any] = {}
    open_piles = state.setup.options.covered_tiles == "open-piles"
    for p, s in enumerate(state.places):
        if s is CLEAN:  # rule: dishes.setup.hidden-backs, dishes.play.top-counts
            out[place_text(p)] = "clean"
        elif s:  # rule: dishes.setup.hidden-backs, dishes.play.top-counts
            out[place_text(p)] = {"top": tile_text(s[-1]), "height": len(s)}
            if open_piles and len(s) > 1:  # rule: dishes.ruling.covered-tiles
                out[place_text(p)]["tiles"] = [tile_text(c) for c in s]
        else:
            out[place_text(p)] = "empty"
    return {"seat": seat, "turn": state.turn, "places": out, "revealing": [place_text(p) for p in state.reveal]}


def table_state(state: State) -> tuple:
    """What lies on the table as players see it (the exact engine's unit of count): whose
    turn it is and, per place, clean, empty, or a pile as its top tile and its number of
    tiles (dishes.play.top-counts).  The top tile's code carries the layout it was dealt to
    where a ruling needs it (own-top, layout-sets)."""
    # rule: dishes.play.top-counts
    return (state.turn, tuple("clean" if s is CLEAN else (s[-1], len(s)) if s else "empty" for s in state.places))


def state_vars(state: State) -> dict[str, Any]:
    """The whole state as JSON-able values (for reference vectors)."""
    track = geometry(state.setup).track_origin

    def tile(code: int) -> str:
        return tile_text(code) + (f"@{tile_origin(code)}" if track else "")

    places = {place_text(p): ("clean" if s is CLEAN else [tile(c) for c in s]) for p, s in enumerate(state.places)}
    return {"places": places, "turn": state.turn, "reveal": [place_text(p) for p in state.reveal]}


# --------------------------------------------------------------------------- invariants


def _inv_conservation(state: State) -> str | None:
    g = geometry(state.setup)
    for t in range(g.types):
        clean = sum(1 for L in range(g.layouts) if state.places[L * NT + t] is CLEAN)  # rule: dishes.components.tiles
        dirty = sum(1 for c in revealed_codes(state) if tile_type(c) == t)  # rule: dishes.components.tiles
        if clean + dirty != g.layouts:  # rule: dishes.components.tiles
            return f"{clean} clean + {dirty} dirty {TYPES[t]} tiles, expected {g.layouts}"
    return None


def _inv_clean_never_stacked(state: State) -> str | None:
    for p, s in enumerate(state.places):
        if s is CLEAN:  # rule: dishes.play.place-dirty
            continue
        # rule: dishes.play.place-dirty
        if not isinstance(s, tuple) or not all(isinstance(c, int) and 0 <= c < NC * NT * 8 for c in s):
            return f"place {place_text(p)} holds {s!r}: only dirty tiles may stack"
    return None


def _inv_colour_model(state: State) -> str | None:
    g = geometry(state.setup)
    codes = revealed_codes(state)
    if g.deal == "free-colours":  # rule: dishes.components.colour-sets, dishes.ruling.colour-model
        return None
    if g.deal == "layout-sets":  # rule: dishes.components.colour-sets, dishes.ruling.colour-model
        seen: dict[int, int] = {}
        for c in codes:
            # rule: dishes.components.colour-sets, dishes.ruling.colour-model
            if seen.setdefault(tile_origin(c), tile_colour(c)) != tile_colour(c):
                return f"layout {tile_origin(c)} shows two colours"
        if len(set(seen.values())) != len(seen):  # rule: dishes.components.colour-sets, dishes.ruling.colour-model
            return "two layouts show the same colour"
        return None
    pairs = [(tile_type(c), tile_colour(c)) for c in codes]
    if len(set(pairs)) != len(pairs):  # rule: dishes.components.colour-sets, dishes.ruling.colour-model
        return "two tiles of the same type and colour"
    # rule: dishes.components.colour-sets, dishes.ruling.colour-model
    if len({c for _, c in pairs}) > g.colours_in_play:
        return f"more than {g.colours_in_play} colours in play"
    return None


def _inv_reveal_clean(state: State) -> str | None:
    for p in state.reveal:
        if state.places[p] is not CLEAN:  # rule: dishes.play.turn-own-tile
            return f"revealing {place_text(p)}, which is not a clean tile"
    return None


def _inv_turn(state: State) -> str | None:
    if not -1 <= state.turn < state.setup.players:  # rule: dishes.play.clockwise
        return f"turn {state.turn} is not a seat"
    return None


INVARIANTS = (
    Invariant("tile-conservation", "dishes.components.tiles", _inv_conservation,
              "every type keeps one tile per layout: clean in its place or dirty in some stack"),
    Invariant("clean-never-stacked", "dishes.play.place-dirty", _inv_clean_never_stacked,
              "no clean tile under or on a stack"),
    Invariant("colour-model", "dishes.components.colour-sets", _inv_colour_model,
              "the colours shown fit the colour model (one tile per type and colour)"),
    Invariant("reveal-clean", "dishes.play.turn-own-tile", _inv_reveal_clean, "only a clean tile is turned"),
    Invariant("turn-is-a-seat", "dishes.play.clockwise", _inv_turn, "the turn belongs to a seat"),
)


# --------------------------------------------------------------------------- symmetry


def _key(places: tuple) -> tuple:
    return tuple((-1,) if s is CLEAN else s for s in places)


def _rotation_maps(g: Geometry, players: int) -> list[tuple[int, list[int]]]:
    """(r, layout map) for each seat rotation r."""
    out = []
    for r in range(players):
        m = []
        for L, owner in enumerate(g.owners):
            if owner is None:
                m.append(L)
            elif g.layouts == 2 * players and players == 2:
                m.append((L + r) % g.layouts)
            else:
                m.append((L + r) % players)
        out.append((r, m))
    return out


def canonical(state: State, types: bool = True, seats: bool = False) -> State:
    """A representative of the state's orbit under colour relabelling, tile-type relabelling
    (the rules treat types alike: dishes.play.place-match) and, when the first player is
    chosen at random, seat rotation.  Colours are renamed by first appearance."""
    g = geometry(state.setup)
    L = g.layouts
    rotations = (
        _rotation_maps(g, state.setup.players)
        if seats and state.setup.options.first_player == "random"
        else [(0, list(range(L)))]
    )
    best = None
    for r, lmap in rotations:
        if r:
            places = [CLEAN] * len(state.places)
            for l in range(L):
                for t in range(NT):
                    s = state.places[l * NT + t]
                    if s:
                        s = tuple((lmap[c // (NC * NT)] * NT * NC + c % (NC * NT)) if g.track_origin else c for c in s)
                    places[lmap[l] * NT + t] = s
            turn = (state.turn + r) % state.setup.players if state.turn >= 0 else -1
            reveal = tuple(lmap[p // NT] * NT + p % NT for p in state.reveal)
        else:
            places, turn, reveal = list(state.places), state.turn, state.reveal
        for order in _type_orders(places, L, g.types) if types else [tuple(range(NT))]:
            cand = _relabel(places, L, order, reveal)
            k = (turn, _key(cand[0]), cand[1])
            if best is None or k < best[0]:
                best = (k, cand, turn)
    assert best is not None
    (_, (places, reveal), turn) = best
    return State(state.setup, places, turn, reveal)


def orbit_size(state: State, types: bool = True) -> int:
    """How many states the canonical ``state`` stands for under colour (and kind) relabelling.

    |G| / |stabiliser|: the stabiliser is the kind orders that give the same encoding as
    the canonical one, times the permutations of colours nobody has seen yet.  Summing this
    over a reduced exploration gives the size of the unreduced one (tests check it)."""
    g = geometry(state.setup)
    L = g.layouts
    m = state.setup.components.colours
    used = len({tile_colour(c) for c in revealed_codes(state)})
    places = list(state.places)
    orders = _type_orders(places, L, g.types) if types else [tuple(range(NT))]
    encodings = [(_key(p), r) for p, r in (_relabel(places, L, o, state.reveal) for o in orders)]
    best = min(encodings)
    same = sum(1 for e in encodings if e == best)
    group = factorial(m) * (factorial(g.types) if types else 1)
    return group // (same * factorial(m - used))


def _type_orders(places: list, L: int, in_play: int) -> list[tuple[int, ...]]:
    """Orders of the old types that sort them by an invariant signature; ties in all orders.
    Types not in play keep their places at the end."""
    where: list[list[tuple[int, int]]] = [[] for _ in range(NT)]
    for p, s in enumerate(places):
        if s:
            layout = p // NT
            for i, c in enumerate(s):
                where[(c // NC) % NT].append((layout, i))
    sig = []
    for t in range(in_play):
        shape = tuple(-1 if places[l * NT + t] is CLEAN else len(places[l * NT + t]) for l in range(L))
        sig.append((shape, tuple(sorted(where[t]))))
    order = sorted(range(in_play), key=lambda t: sig[t])
    groups: list[list[int]] = []
    for t in order:
        if groups and sig[groups[-1][0]] == sig[t]:
            groups[-1].append(t)
        else:
            groups.append([t])
    rest = tuple(range(in_play, NT))
    return [
        tuple(itertools.chain.from_iterable(p)) + rest
        for p in itertools.product(*(itertools.permutations(g) for g in groups))
    ]


def _relabel(places: list, L: int, order: tuple[int, ...], reveal: tuple[int, ...]) -> tuple[tuple, tuple[int, ...]]:
    """Apply a type order (new index k holds old type order[k]) and rename colours by first appearance."""
    inv = [0] * NT
    for k, t in enumerate(order):
        inv[t] = k
    sigma: dict[int, int] = {}
    out = []
    for l in range(L):
        for k in range(NT):
            s = places[l * NT + order[k]]
            if not s:
                out.append(s)
                continue
            st = []
            for c in s:
                col = c % NC
                if col not in sigma:
                    sigma[col] = len(sigma)
                st.append((c // (NC * NT)) * NC * NT + inv[(c // NC) % NT] * NC + sigma[col])
            out.append(tuple(st))
    return tuple(out), tuple((p // NT) * NT + inv[p % NT] for p in reveal)


def _colours_only(state: State) -> State:
    return canonical(state, types=False)


def _colours_types(state: State) -> State:
    return canonical(state, types=True)


def _all_symmetries(state: State) -> State:
    return canonical(state, types=True, seats=True)


RULES = RuleSet.from_module(
    globals(),
    id="dishes",
    title="Who Is Going to Do the Dishes?",
    spec_file="dishes.toml",
    player_counts=(2, 3, 4),  # dishes.components.players
    symmetries={"colours": _colours_only, "colours+types": _colours_types, "colours+types+seats": _all_symmetries},
    default_symmetry="colours+types",
    default_components=Tiles,
    absent=absent,
    load_components=parse_tiles,
    setup_error=setup_error,
    table_state=table_state,
)
