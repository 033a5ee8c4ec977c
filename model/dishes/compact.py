"""Who Is Going to Do the Dishes? on batches of compact rows (a :class:`~.compact.Kernel`).

The same rules as ``tablerules.model.dishes``, written over NumPy arrays so the exact
engine can count and solve the boxed game.  tests/proofs/exact/test_levels.py checks this
module against the model on small tile sets for every ruling alternative.

**What a row keeps** (only what decides the future, dishes.play.top-counts): whose turn it
is and, per place (layout x kind), whether it is empty, clean, or a pile, given by its top
tile (kind, colour, and under own-top or layout-sets the layout it was dealt to) and its
number of tiles.  Tiles under the top of a pile never matter again: they cannot be moved
apart from the pile (dishes.play.move-whole-stack) and they count only as tiles.  The
*memory* after the table part holds what chance still needs: under four-sets and
colour-sets the colours already shown of each kind that still has a clean tile, under
colour-sets also every colour shown while any tile is clean, under layout-sets each
layout's colour while any tile is clean; free-colours needs nothing.

**Progress measure.**  With c clean tiles and k piles, every action lowers 2c + k by one
(the ranking function of the z3 proof ``termination`` in proofs/dishes/proofs.py), so the
actions played so far, 2c0 + k0 - (2c + k), number the levels of the exact search.

**Symmetry.**  Kinds and colours are interchangeable (dishes.play.place-match treats them
alike), so rows are canonical under relabelling both: kinds are sorted by label-free
invariants refined twice against colours, colours likewise, and where invariants tie the
tied orders are all tried and the smallest row kept.  Ties between kinds or colours that
are identical and referenced by nothing (a column with no pile and no tile of its kind on
any pile; a colour shown nowhere) need no trial.  The invariants ignore the memory, so the
table part of a canonical row is the canonical form of its table state.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from math import comb, factorial
from typing import Any

import numpy as np

from . import loops
from ..compact import Expansion, Outcomes
from ..core import CHANCE, STRICT, Setup, SetupError
from .game import CLEAN, NT, TYPES, Geometry, Options, State, geometry, place_text, tile_colour, tile_origin, tile_type

# functions that decide nothing about play, and why (the decision-point finder reads this)
PLUMBING = {
    ("RowLayout.table_width", "RowLayout.used", "RowLayout.lcolours"): "row layout",
    "DishesKernel.encode": "encodes a model state as a row",
    "DishesKernel.start": "follows chance before play through the model",
    "DishesKernel.chance": "a fixed deal decides every colour",
    "DishesKernel.describe_action": "names an action",
    "DishesKernel.play_key": "what decides the state graph, for the engine to share it",
    "DishesKernel.canonical": "no symmetry with a fixed deal",
    "DishesKernel.table_stabilisers": "no symmetry with a fixed deal; rows cut to their table part",
    "vars_of": "lists the rulings",
    "kernel": "a fixed deal or every deal",
}

KIND_CLEAN, KIND_EMPTY = 6, 7
NO_COLOUR = 4


class KernelUnavailable(SetupError):
    """The exact engine cannot take this configuration (a strict ruling, or no progress measure)."""


def _permutation_table() -> tuple[np.ndarray, np.ndarray]:
    """All permutations of n items for n = 0..6, flattened (for the compiled canonical form)."""
    table, start = [], [0]
    for n in range(NT + 1):
        for p in itertools.permutations(range(n)):
            table.extend(p)
        start.append(len(table))
    return np.array(table, dtype=np.int64), np.array(start, dtype=np.int64)


_PERMS, _PERM_START = _permutation_table()


@dataclass(frozen=True)
class RowLayout:
    """Byte offsets of a dishes row (see the module docstring)."""

    slots: int
    track_origin: bool
    kind_masks: bool
    used_mask: bool
    layout_colours: int

    @property
    def kind(self) -> int:
        return 1

    @property
    def colour(self) -> int:
        return 1 + self.slots

    @property
    def height(self) -> int:
        return 1 + 2 * self.slots

    @property
    def origin(self) -> int:
        return 1 + 3 * self.slots

    @property
    def table_width(self) -> int:
        """Turn and places, padded with zeros to whole 8-byte words (rows are hashed by words)."""
        return _words(1 + (4 if self.track_origin else 3) * self.slots)

    @property
    def masks(self) -> int:
        return self.table_width

    @property
    def used(self) -> int:
        return self.table_width + (NT if self.kind_masks else 0)

    @property
    def lcolours(self) -> int:
        return self.used + (1 if self.used_mask else 0)

    @property
    def width(self) -> int:
        return _words(self.lcolours + self.layout_colours)


def _words(n: int) -> int:
    return -(-n // 8) * 8


class DishesKernel:
    """The dishes rules for one setup, on canonical rows (model/compact.py, Kernel)."""

    def __init__(self, setup: Setup, deal: tuple[int, ...] | None = None) -> None:
        o: Options = setup.options
        if o.voluntary_pass == "allowed":  # rule: dishes.ruling.voluntary-pass
            raise KernelUnavailable("dishes.ruling.voluntary-pass=allowed has no progress measure: play can go on "
                                    "for ever (proof termination-voluntary-pass); the exact engine needs finite games")
        strict = [f for f, v in vars_of(o).items()  # plumbing: the engine needs a complete rule set (strict ones gap)
                  if v == STRICT]
        if strict:  # plumbing: the engine needs a complete rule set (strict alternatives raise gaps)
            raise KernelUnavailable(f"strict rulings ({', '.join(strict)}) stop play at a gap; the exact engine needs "
                                    "a complete rule set")
        self.setup = setup
        self.g: Geometry = geometry(setup)
        g = self.g
        self.players = setup.players
        self.colours = setup.components.colours
        self.types = g.types
        self.deal = g.deal
        L = g.layouts
        S = L * NT
        self.S = S
        self.fixed_deal = (None if deal is None  # plumbing: a fixed deal or every deal
                           else np.array(deal, dtype=np.uint8))
        """A fixed deal (colour per place): chance has nothing left to choose and no memory is kept."""
        self.symmetric = deal is None
        """Rows are reduced by relabelling kinds and colours (not with a fixed deal, which relabelling changes)."""
        dealt = deal is None
        self.layout = RowLayout(
            slots=S, track_origin=g.track_origin,
            kind_masks=dealt and g.deal in ("four-sets", "colour-sets"), used_mask=dealt and g.deal == "colour-sets",
            layout_colours=L if dealt and g.deal == "layout-sets" else 0)  # plumbing: a fixed deal or every deal
        self.width = self.layout.width
        self.table_width = self.layout.table_width
        owners = [(-1 if o_ is None else o_) for o_ in g.owners]  # rule: dishes.ruling.deal-3-players
        self.slot_owner = np.array([owners[s // NT] for s in range(S)], dtype=np.int16)
        self.layout_owner = np.array(owners + [-2] * (8 - L), dtype=np.int16)
        self.slot_layout = np.arange(S) // NT
        self.slot_kind = np.arange(S) % NT
        self.spare_tiles = sum(g.types for o_ in g.owners if o_ is None)  # rule: dishes.ruling.deal-3-players
        self.own_slots = [np.array([s for s in range(S)  # rule: dishes.setup.layout
                                    if self.slot_owner[s] == t and s % NT < g.types]) for t in range(self.players)]
        self.group_order = (factorial(self.colours) * factorial(g.types)  # plumbing: a fixed deal or every deal
                            if dealt else 1)
        self.colour_group_order = factorial(self.colours) if dealt else 1  # plumbing: a fixed deal or every deal
        self.weight_scale = self._weight_scale() if dealt else 1  # plumbing: a fixed deal or every deal
        self.clean_counts = o.clean_at_end == "dishes"
        self.count_stacks = o.dishes_count == "stacks"
        self.no_loser_on_tie = o.tie_for_most == "no-loser"
        self.stuck_ends = o.stuck_player == "game-ends"
        self.movable = o.movable_stacks
        self.fixed = (self.fixed_deal  # plumbing: a fixed deal or every deal
                      if self.fixed_deal is not None else np.zeros(S, dtype=np.uint8))
        self.prm = self._params()

    # ------------------------------------------------------------------ rows <-> model states

    def encode(self, state: State) -> np.ndarray:
        """The row of a model state where no tile waits for its colour."""
        if state.reveal or state.turn < 0:
            raise ValueError("only states where a seat is to move (or the game is over) have rows")
        lay = self.layout
        row = np.zeros(self.width, dtype=np.uint8)
        row[0] = state.turn
        shown_by_kind: dict[int, int] = {}
        used = 0
        layout_colour: dict[int, int] = {}
        for s, pile in enumerate(state.places):
            if pile is CLEAN:
                row[lay.kind + s], row[lay.colour + s] = KIND_CLEAN, NO_COLOUR
                continue
            if not pile:
                row[lay.kind + s], row[lay.colour + s] = KIND_EMPTY, NO_COLOUR
                continue
            top = pile[-1]
            row[lay.kind + s], row[lay.colour + s], row[lay.height + s] = tile_type(top), tile_colour(top), len(pile)
            if lay.track_origin:
                row[lay.origin + s] = tile_origin(top)
            for code in pile:
                shown_by_kind[tile_type(code)] = shown_by_kind.get(tile_type(code), 0) | (1 << tile_colour(code))
                used |= 1 << tile_colour(code)
                layout_colour[tile_origin(code)] = tile_colour(code)
        if lay.kind_masks:
            for k, mask in shown_by_kind.items():
                row[lay.masks + k] = mask
        if lay.used_mask:
            row[lay.used] = used
        if lay.layout_colours:
            for L in range(lay.layout_colours):
                row[lay.lcolours + L] = layout_colour.get(L, NO_COLOUR)
        return self._normalise(row[None, :])[0]

    def start(self) -> list[tuple[np.ndarray, Fraction]]:
        """Rows where play starts: chance before the first turn (the spare layout's colours,
        who goes first) is followed through the model itself."""
        from .game import RULES

        out: dict[bytes, tuple[np.ndarray, Fraction]] = {}
        frontier = [(RULES.new_game(self.setup), Fraction(1))]
        while frontier:
            state, p = frontier.pop()
            if RULES.to_move(state) is CHANCE:
                frontier += [(RULES.apply(state, m), p * q) for m, q in self.chance(state)]
                continue
            row = self.canonical(self.encode(state)[None, :])[0]
            key = row.tobytes()
            out[key] = ((row, out[key][1] + p)  # plumbing: follows chance before play through the model
                        if key in out else (row, p))
        return [out[k] for k in sorted(out)]

    def chance(self, state: State) -> list[tuple[Any, Fraction]]:
        """The model's chance outcomes as this kernel deals them: with a fixed deal a turned
        tile shows its dealt colour for certain (the spare layout's tiles too)."""
        from .game import RULES

        outcomes = RULES.chance_outcomes(state)
        if self.fixed_deal is not None and state.reveal:  # plumbing: a fixed deal decides every colour
            return [(m, Fraction(1)) for m, _ in outcomes  # plumbing: a fixed deal decides every colour
                    if m.colour == self.fixed_deal[m.place]]
        return list(outcomes)

    def describe_action(self, code: int) -> str:
        """`turn 0.dessert` or `place 0.soup on 1.drinks`, in the labelling of the row it was taken from."""
        if code < self.S:
            return f"turn {place_text(code)}"
        p, q = divmod(code - self.S, self.S)
        return f"place {place_text(p)} on {place_text(q)}"

    # ------------------------------------------------------------------ levels, weights, outcomes

    def level(self, rows: np.ndarray) -> np.ndarray:
        """Actions played so far: 2 x tiles turned by players + ... = 2c0 + k0 - (2c + k)."""
        dealt = sum(self.types for o_ in self.g.owners if o_ is not None)  # rule: dishes.ruling.deal-3-players
        return loops.levels(np.ascontiguousarray(rows), self.S, dealt, self.spare_tiles)

    def _weight_scale(self) -> int:
        C, L, T = self.colours, self.g.layouts, self.types
        if self.deal == "four-sets":  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
            return (factorial(C) // factorial(C - L)) ** T
        if self.deal == "colour-sets":  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
            n = self.g.colours_in_play
            return comb(C, n) * factorial(n) ** T
        if self.deal == "free-colours":  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
            return C ** (L * T)
        return factorial(C) // factorial(C - L)  # layout-sets

    def history_weight(self, rows: np.ndarray) -> np.ndarray:
        """weight_scale x P(the colours shown so far); it depends only on how many tiles of
        each kind (or layout) have shown their colour, so every way into a row agrees."""
        C, L, T = self.colours, self.g.layouts, self.types
        if self.fixed_deal is not None:  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
            return np.ones(len(rows), dtype=np.int64)
        kind = rows[:, 1:1 + self.S].reshape(len(rows), L, NT)
        clean = kind == KIND_CLEAN
        # per column, tiles whose colour is known; a column not in play counts as all known (factor 1)
        shown = L - np.sum(clean, axis=1)
        if self.deal == "four-sets":  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
            table = np.array([  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
                factorial(C - r) // factorial(C - L) if r <= L else 0 for r in range(L + 1)], dtype=np.int64)
            return np.prod(table[shown], axis=1)
        if self.deal == "free-colours":  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
            return C ** np.sum(clean, axis=(1, 2)).astype(np.int64)
        if self.deal == "layout-sets":  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
            started = np.sum(np.sum(clean, axis=2) < T, axis=1)
            table = np.array([factorial(C - m) // factorial(C - L) for m in range(L + 1)], dtype=np.int64)
            return table[started]
        n = self.g.colours_in_play  # colour-sets
        colours = rows[:, 1 + self.S:1 + 2 * self.S]
        seen = np.zeros(len(rows), dtype=np.int64)
        for c in range(C):
            seen += np.any(colours == c, axis=1) | ((rows[:, self.layout.used] >> c) & 1).astype(bool)
        fact = np.array([factorial(max(n - r, 0)) for r in range(L + 1)], dtype=np.int64)
        ways = np.array([  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
            comb(C - u, n - u) if u <= n else 0 for u in range(C + 1)], dtype=np.int64)
        return ways[seen] * np.prod(fact[shown], axis=1)

    def outcome(self, rows: np.ndarray) -> Outcomes:
        """Most dishes loses (dishes.end.most-dishes-loses) under dishes.ruling.dishes-count,
        dishes.ruling.tie-for-most and dishes.ruling.clean-at-end."""
        S = self.S
        kind = rows[:, 1:1 + S]
        height = rows[:, 1 + 2 * S:1 + 3 * S].astype(np.int64)
        amount = (kind < 6).astype(np.int64) if self.count_stacks else height  # rule: dishes.ruling.dishes-count
        if self.clean_counts:  # rule: dishes.ruling.clean-at-end
            amount = amount + (kind == KIND_CLEAN)
        counts = np.stack([(amount * (self.slot_owner == t)).sum(axis=1) for t in range(self.players)], axis=1)
        losers = counts == counts.max(axis=1, keepdims=True)
        if self.no_loser_on_tie:  # rule: dishes.ruling.tie-for-most
            losers &= losers.sum(axis=1, keepdims=True) == 1
        return Outcomes(losers)

    # ------------------------------------------------------------------ invariants on rows

    def invariants(self, rows: np.ndarray) -> list[tuple[str, str, np.ndarray]]:
        """(name, clause, rows breaking it) for the model's invariants as far as a row shows
        them: tile conservation, only dirty tiles in piles, the colour model, the turn."""
        # rule: dishes.components.colour-sets
        one_each = self.deal in ("four-sets", "colour-sets") and self.fixed_deal is None
        bad = loops.invariant_breaks(np.ascontiguousarray(rows), self.S, self.colours, self.g.layouts * self.types,
                                     self.players, one_each)
        return [("tile-conservation", "dishes.components.tiles", bad[0]),
                ("clean-never-stacked", "dishes.play.place-dirty", bad[1]),
                ("colour-model", "dishes.components.colour-sets", bad[2]),
                ("turn-is-a-seat", "dishes.play.clockwise", bad[3])]

    # ------------------------------------------------------------------ moves and symmetry (compiled loops)

    def play_key(self) -> bytes:
        """Everything the start, the moves, chance, the weights and the levels depend on; the
        scoring rulings (dishes-count, tie-for-most, clean-at-end) only decide ``outcome``."""
        arrays = (self.prm, self.slot_owner, self.layout_owner, self.fixed)
        starts = [(row.tobytes(), str(p)) for row, p in self.start()]
        return repr((self.weight_scale, self.symmetric, self.spare_tiles, self.g.owners, starts)).encode() + b"".join(
            np.ascontiguousarray(a).tobytes() for a in arrays)

    def _params(self) -> np.ndarray:
        lay, g, o = self.layout, self.g, self.setup.options
        prm = np.zeros(loops.P_SIZE, dtype=np.int64)
        prm[loops.P_S], prm[loops.P_L], prm[loops.P_C], prm[loops.P_N] = self.S, g.layouts, self.colours, self.players
        prm[loops.P_TRACK] = lay.track_origin
        prm[loops.P_MASKS], prm[loops.P_USED], prm[loops.P_LC] = lay.masks, lay.used, lay.lcolours
        prm[loops.P_NLC], prm[loops.P_TW], prm[loops.P_W] = lay.layout_colours, lay.table_width, lay.width
        prm[loops.P_MOVE] = {"own-places": loops.MOVE_OWN_PLACES, "own-top": loops.MOVE_OWN_TOP,
                             "any-stack": loops.MOVE_ANY}[o.movable_stacks]
        prm[loops.P_DEAL] = loops.DEAL_FIXED if self.fixed_deal is not None else {  # rule: dishes.ruling.colour-model
            "four-sets": loops.DEAL_FOUR_SETS, "colour-sets": loops.DEAL_COLOUR_SETS,
            "free-colours": loops.DEAL_FREE, "layout-sets": loops.DEAL_LAYOUT_SETS}[g.deal]
        prm[loops.P_STUCK_ENDS] = o.stuck_player == "game-ends"
        prm[loops.P_SETS] = g.colours_in_play
        prm[loops.P_TYPES] = g.types
        return prm

    def expand(self, rows: np.ndarray) -> Expansion:
        """Every action of the player to move, each chance outcome, and the forced passes
        that follow (dishes.ruling.stuck-player), for canonical rows."""
        children, parent, action, p_num, p_den, actions, passes = loops.expand_rows(
            np.ascontiguousarray(rows), self.prm, self.slot_owner, self.layout_owner, self.fixed)
        return Expansion(self.canonical(children), parent, action, p_num, p_den, actions, self.canonical(passes))

    def _normalise(self, rows: np.ndarray) -> np.ndarray:
        for row in rows:
            loops.normalise(row, self.prm)
        return rows

    def canonical(self, rows: np.ndarray) -> np.ndarray:
        """The canonical row of each row's orbit under kind and colour relabelling (the row
        itself with a fixed deal)."""
        if not self.symmetric or not len(rows):
            return rows.copy()
        return loops.canonical_rows(np.ascontiguousarray(rows), self.prm, _PERMS, _PERM_START, True)[0]

    def table_stabilisers(self, table_rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For canonical table states (rows cut to ``table_width``): how many relabellings of
        kinds and colours fix each, and how many relabellings of colours alone."""
        if not self.symmetric:
            one = np.ones(len(table_rows), dtype=np.int64)
            return one, one
        rows = table_rows
        if rows.shape[1] != self.width:
            rows = np.zeros((len(table_rows), self.width), dtype=np.uint8)
            rows[:, :self.table_width] = table_rows[:, :self.table_width]
        _, stab, colour_stab = loops.canonical_rows(np.ascontiguousarray(rows), self.prm, _PERMS, _PERM_START, False,
                                                     want_rows=False)
        return stab, colour_stab


def vars_of(options: Options) -> dict[str, str]:
    from dataclasses import fields

    return {f.metadata["ruling"]: getattr(options, f.name)  # plumbing: lists the rulings
            for f in fields(options) if "ruling" in f.metadata}


def kernel(setup: Setup, deal: str | None = None) -> DishesKernel:
    """The compact kernel for a setup, every deal or one fixed deal in the text form of
    ``tablerules.model.dishes.parse_deal`` (KernelUnavailable names why not)."""
    from .game import parse_deal

    return DishesKernel(setup, None if deal is None  # plumbing: a fixed deal or every deal
                        else parse_deal(deal, setup))


__all__ = ["DishesKernel", "KernelUnavailable", "kernel", "TYPES"]
