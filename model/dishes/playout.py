"""Whole games of Who Is Going to Do the Dishes? played at random in compiled code.

Random play as the step API plays it (``legal_moves`` then ``apply``, one action at a
time): the seat to move picks uniformly among its moves, chance picks each outcome with
its probability.  Here the whole game runs inside one compiled loop over a compact row
(:mod:`tablerules.model.dishes.compact`, "What a row keeps"), on the rules the kernel's
loops already decide (``tablerules.model.dishes.loops``): which moves a seat has
(dishes.play.one-move), what a turned tile may show (dishes.ruling.colour-model), when a
stuck seat passes (dishes.ruling.stuck-player) and when the game ends (dishes.end.no-moves).

The loop writes each action as a small code; :func:`random_playouts` turns the codes back
into the model's moves, so every game replays through ``RULES.apply`` move for move (the
tests replay them).  The rows are never relabelled: the moves name the real places and
colours.  Random numbers come from SplitMix64 seeded by the caller, so a seed gives the
same games on every machine.

Where the kernel cannot run (a strict ruling, dishes.ruling.voluntary-pass=allowed) the
caller falls back on the step API (:mod:`tablerules.model.playout`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from functools import lru_cache

import numpy as np
from numba import njit

from . import loops
from ..compact_loops import batch_seed, uniform as _uniform
from .game import MAX_PLACES, NC, NT, FirstPlayer, Options, Pass, Place, Reveal, State, Turn
from ..core import Setup
from .compact import DishesKernel, KernelUnavailable
from ..playout import Playout

# functions that decide nothing about play, and why (the decision-point finder reads this)
PLUMBING = {
    "_nth_bit": "walks the bits",
    "start_of": "encodes the seat-to-move part",
    "random_playouts": "callers ask available() first; codes back to moves",
}

# action codes: flips, reveals, placements, the pass, who starts
C_TURN = 0
C_REVEAL = C_TURN + MAX_PLACES
C_PLACE = C_REVEAL + MAX_PLACES * NC
C_PASS = C_PLACE + MAX_PLACES * MAX_PLACES
C_FIRST = C_PASS + 1
MOVES: tuple = (
    tuple(Turn(p) for p in range(MAX_PLACES))
    + tuple(Reveal(p, c) for p in range(MAX_PLACES) for c in range(NC))
    + tuple(Place(a, b) for a in range(MAX_PLACES) for b in range(MAX_PLACES))
    + (Pass(),)
    + tuple(FirstPlayer(s) for s in range(4))
)
"""Action code -> the model's move."""

@njit(cache=True)
def _show(row, prm, fixed, slot, rng, oc, on, od):
    """Chance shows the dirty side of the clean tile at ``slot`` (dishes.play.turn-own-tile):
    a colour drawn with the probabilities the deal gives (dishes.ruling.colour-model).
    Returns the colour."""
    S = prm[loops.P_S]
    n = loops.reveal(row, prm, fixed, slot, oc, on, od)
    x = _uniform(rng)
    pick = n - 1  # rounding past the sum picks the last
    for j in range(n):
        x -= on[j] / od[j]
        if x < 0.0:  # plumbing: samples a chance outcome
            pick = j
            break
    colour = oc[pick]
    row[1 + slot] = slot % NT
    row[1 + S + slot] = colour
    row[1 + 2 * S + slot] = 1
    if prm[loops.P_TRACK]:  # rule: dishes.ruling.movable-stacks
        row[1 + 3 * S + slot] = slot // NT
    loops.remember(row, prm, slot, colour)
    loops.normalise(row, prm)
    return colour


@njit(cache=True)
def _nth_bit(x, r):
    """The position of the ``r``-th set bit of ``x``, counting from 0 at the low end."""
    p = 0
    while True:
        if (x >> p) & 1:
            if r == 0:
                return p
            r -= 1
        p += 1


@njit(cache=True)
def play(start, prm, slot_owner, layout_owner, fixed, pending, pick_first, games, seed, capacity):
    """Play ``games`` games from the row ``start`` at random.  ``pending`` lists the places
    whose colour chance shows before anyone moves, in order; ``pick_first`` says chance then
    picks the first player (dishes.ruling.first-player).  Returns the action codes of all
    games one after another, where each game's codes end, and each game's last row."""
    S, n_pl = prm[loops.P_S], prm[loops.P_N]
    W = start.shape[0]
    codes = np.empty(games * capacity + pending.shape[0] + 1, dtype=np.int16)
    ends = np.empty(games, dtype=np.int64)
    finals = np.empty((games, W), dtype=np.uint8)
    oc = np.zeros(8, dtype=np.int64)
    on = np.zeros(8, dtype=np.int64)
    od = np.zeros(8, dtype=np.int64)
    kmask = np.zeros(NT, dtype=np.int64)
    cmask = np.zeros(8, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = np.uint64(seed)
    n = 0
    for g in range(games):
        row = finals[g]
        row[:] = start
        for i in range(pending.shape[0]):  # chance before anyone moves
            slot = pending[i]
            colour = _show(row, prm, fixed, slot, rng, oc, on, od)
            codes[n] = C_REVEAL + slot * NC + colour
            n += 1
            if slot_owner[slot] >= 0:  # rule: dishes.ruling.deal-3-players (the spare layout's tiles are nobody's turn)
                row[0] = (row[0] + 1) % n_pl
        if pick_first:  # rule: dishes.ruling.first-player
            seat = min(int(_uniform(rng) * n_pl), n_pl - 1)
            row[0] = seat
            codes[n] = C_FIRST + seat
            n += 1
        while True:  # rule: dishes.end.no-moves (play goes on until nobody can move)
            if n + 2 > codes.shape[0]:  # plumbing: a capacity below the longest game is refused, never overrun
                raise ValueError("capacity is smaller than a game: use capacity(kernel)")
            seat = row[0]
            count = loops.count_actions(row, prm, slot_owner, layout_owner, seat, kmask, cmask)
            if count == 0:  # rule: dishes.ruling.stuck-player, dishes.end.no-moves
                if prm[loops.P_STUCK_ENDS]:  # rule: dishes.ruling.stuck-player
                    break
                anyone = False
                for t in range(n_pl):
                    # rule: dishes.end.no-moves
                    if t != seat and loops.has_action(row, prm, slot_owner, layout_owner, t, kmask, cmask):
                        anyone = True
                        break
                if not anyone:  # rule: dishes.end.no-moves
                    break
                codes[n] = C_PASS
                n += 1
                row[0] = (seat + 1) % n_pl  # rule: dishes.ruling.stuck-player, dishes.play.clockwise
                continue
            loops.pile_masks(row, S, kmask, cmask)
            r = min(int(_uniform(rng) * count), count - 1)  # each move equally likely
            for s in range(S):
                if row[1 + s] == loops.KIND_CLEAN and slot_owner[s] == seat:  # rule: dishes.play.turn-own-tile
                    if r == 0:  # plumbing: the move drawn
                        codes[n] = C_TURN + s
                        colour = _show(row, prm, fixed, s, rng, oc, on, od)
                        codes[n + 1] = C_REVEAL + s * NC + colour
                        n += 2
                        break
                    r -= 1
                elif loops.movable(row, prm, slot_owner, layout_owner, seat, s):  # rule: dishes.ruling.movable-stacks
                    where = loops.targets(row, S, s, kmask, cmask)
                    b = loops._bits(where)
                    if r < b:  # plumbing: the move drawn
                        q = _nth_bit(where, r)
                        # the whole pile moves onto the other (dishes.play.move-whole-stack)
                        row[1 + q], row[1 + S + q] = row[1 + s], row[1 + S + s]
                        row[1 + 2 * S + q] = row[1 + 2 * S + q] + row[1 + 2 * S + s]
                        row[1 + s], row[1 + S + s], row[1 + 2 * S + s] = loops.KIND_EMPTY, loops.NO_COLOUR, 0
                        if prm[loops.P_TRACK]:  # rule: dishes.ruling.movable-stacks
                            row[1 + 3 * S + q] = row[1 + 3 * S + s]
                            row[1 + 3 * S + s] = 0
                        codes[n] = C_PLACE + s * MAX_PLACES + q
                        n += 1
                        break
                    r -= b
            row[0] = (seat + 1) % n_pl  # rule: dishes.play.clockwise
        ends[g] = n
    return codes[:n], ends, finals


def capacity(kernel: DishesKernel) -> int:
    """Most actions one game can take: each place shows its colour once (a chance action,
    after a flip where a seat turns it), each placement empties a place, and before each of
    those, and before the end, every seat but one may pass once (dishes.ruling.stuck-player)."""
    S, n = kernel.S, kernel.players
    return 3 * S + 1 + (n - 1) * (2 * S + 1)


def start_of(kernel: DishesKernel, state: State) -> tuple[np.ndarray, np.ndarray, bool]:
    """The row to play from, the places chance shows first, and whether chance then picks the
    first player: a state waiting on chance is encoded with its tiles still clean."""
    pending = np.array(state.reveal, dtype=np.int64)
    pick_first = state.turn < 0  # rule: dishes.ruling.first-player
    if pending.size or pick_first:
        state = dataclasses.replace(state, turn=max(state.turn, 0), reveal=())
    return kernel.encode(state), pending, pick_first


BATCH = 4096
"""Games per compiled call: bounds the codes buffer (BATCH x capacity actions)."""

def playable(setup: Setup) -> Setup:
    """The setup with the deal rulings of other player counts at their defaults: they cannot
    matter here (dishes.ruling.deal-2-players applies to two players, deal-3-players to
    three), so a strict one need not send the game to the step API."""
    # rule: dishes.ruling.deal-2-players, dishes.ruling.deal-3-players
    unused = [name for name, players in (("deal_2_players", 2), ("deal_3_players", 3)) if setup.players != players]
    # plumbing: only what differs from the default
    changes = {
        name: getattr(Options(), name) for name in unused if getattr(setup.options, name) != getattr(Options(), name)
    }
    if not changes:  # plumbing: nothing to set
        return setup
    return Setup(setup.players, dataclasses.replace(setup.options, **changes), setup.components)


def _kernel(setup: Setup) -> DishesKernel | None:
    return _kernel_of(playable(setup))


@lru_cache(maxsize=16)
def _kernel_of(setup: Setup) -> DishesKernel | None:
    try:
        return DishesKernel(setup)
    except KernelUnavailable:  # plumbing: the step API plays what the kernel cannot
        return None


def available(setup: Setup) -> bool:
    """Can this setup be played here?  Not under a strict ruling that can matter for this
    player count, nor with voluntary passes (``KernelUnavailable`` says why); the step API
    plays those."""
    return _kernel(setup) is not None


def random_playouts(state: State, games: int, seed: int) -> Iterator[Playout]:
    """``games`` games from ``state``, one after another: per game its moves and the seats
    doing the dishes (dishes.end.most-dishes-loses under the counting rulings; none on a
    no-loser tie).  Games are played ``BATCH`` at a time, so memory stays small however
    many are asked for.  The arguments are not checked here: call it through
    :func:`tablerules.model.playout.iter_playouts`, which does."""
    kernel = _kernel(state.setup)
    if kernel is None:
        raise KernelUnavailable("this setup has no compact kernel; play it through the step API")
    start, pending, pick_first = start_of(kernel, state)
    cap = capacity(kernel)
    for batch in range(0, games, BATCH):
        n = min(BATCH, games - batch)
        codes, ends, finals = play(start, kernel.prm, kernel.slot_owner, kernel.layout_owner, kernel.fixed,
                                   pending, pick_first, n, batch_seed(seed, batch // BATCH), cap)
        codes = codes.tolist()
        losers = kernel.outcome(finals).losers.tolist()
        a = 0
        for b, named in zip(ends.tolist(), losers):
            yield Playout(tuple([MOVES[c] for c in codes[a:b]]), frozenset(i for i, x in enumerate(named) if x))
            a = b


CHANCE_MOVES = frozenset({Reveal, FirstPlayer})
"""The move classes of chance outcomes (a turned tile's colour, dishes.play.turn; the first
player under dishes.ruling.first-player=random); Turn, Place and Pass are a seat's."""


def seat_moves(moves: tuple) -> int:
    """How many of a game's moves are a seat's (chance outcomes left out; passes counted)."""
    return len(moves) - sum(type(m) in CHANCE_MOVES for m in moves)


__all__ = ["available", "random_playouts", "MOVES", "playable", "CHANCE_MOVES", "seat_moves"]
