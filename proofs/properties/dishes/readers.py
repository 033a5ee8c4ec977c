"""Who Is Going to Do the Dishes?: the shared readers of the properties.

The components as the text gives them (kinds, colours, the box), the chosen ruling alternatives
and what the set up makes of them (whose layouts, which colour sets), the rules worked out from the
text (what may be turned, what may land where, who holds how many dishes), the helpers that read a
state through the API (moves by their text, the places the model refuses and why), and the
wrappers that let a rule gap through only where its ruling's strict alternative is chosen.  Every
family of properties reads through these; none of it calls the model's own rule functions.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass
from fractions import Fraction
from math import factorial
from typing import Any, Iterable

from tablerules.model.core import CHANCE, RuleGap, options_text

from .. import Example, chosen as chosen_alternative, Property


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


COMBINATION_READS = ("dishes.ruling.deal-2-players", "dishes.ruling.deal-3-players", "dishes.ruling.movable-stacks",
                     "dishes.ruling.colour-model")
"""The rulings :func:`clear_combination` reads: a property that applies only where it holds names them in ``reads``."""


def seat_places(setup, t: Table, seat: int) -> list[str]:
    return [p for p in t.places if owner(setup, layout_of(p)) == seat]


def is_start(rules, state) -> bool:
    try:
        return state == rules.new_game(state.setup)
    except RuleGap:
        return False


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
