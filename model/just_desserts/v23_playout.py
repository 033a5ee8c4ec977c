"""Whole games of Just Desserts 2.3 played at random in compiled code.

Random play as the step API plays it (model/playout.py's ``step_playouts``): at each seat
decision the seat picks uniformly among ``RULES.legal_moves(state)`` (call or pass; the
forced Favourite-or-pass answer to a trump, jd23.call.favourite-trump; one of the servings
offered, or fail when there is none, jd23.call.first-serves), and chance picks each outcome
of ``RULES.chance_outcomes(state)`` with its probability: a dessert from the pile with
probability count / size (jd23.setup.deal-five, jd23.draw.guest-leaves-hungry), a guest from
the guest pile (jd23.round.turn-up-guest), who called first with the odds of
jd23.ruling.race-odds (jd23.call.simultaneous), the card a mistaken caller loses
(jd23.call.erroneous-penalty).  What the model does without a choice (the trump, the
kitchen closing, the reshuffle, the favourite's extra cards, the end and its tie-breaks) the
compiled loop (:mod:`.v23_loops`) does the same way.

Per deck the desserts and guests become small ints (their places among the sorted ids;
copies are counts), and each guest a table: which desserts it refuses, which of its wanted
tastes each dessert shows (a bit mask), which are its favourites.  The compiled loop lists a
hand's servings from those tables exactly as model/just_desserts/tastes.py and model/decks.py
do (tests/model/test_v23_playout.py compares them at every step).

The loop writes each action as a small code; :func:`random_playouts` turns the codes back
into the model's moves (one move object per code, cached), so every game replays through
``RULES.apply``.  Random numbers come from SplitMix64 (:mod:`tablerules.model.compact_loops`)
seeded per batch of games, so a seed gives the same games on every machine.

Every alternative of every jd23.ruling.* is supported but jd23.ruling.favourite-trump=favourite-call and
jd23.ruling.race-after-fail=next-in-line (found by the independent reading; the step API plays them), ``strict``
too: a strict ruling stops
the game where the step API raises its RuleGap, and its Playout names the ruling (``gap``,
no winners).  Where ``apply`` raises (jd23.ruling.nothing-to-reshuffle,
jd23.ruling.simultaneous-mistaken, jd23.ruling.two-favourites,
jd23.ruling.penalty-empty-hand, jd23.ruling.kitchen-check) the game's last action is the one
``apply`` refuses; where the model raises while listing the next chance outcomes
(jd23.ruling.favourite-trump at a race where a live caller holds a favourite serving,
jd23.ruling.penalty-taker at any penalty) the game ends after the action that led there,
as the step API's games do (model/playout.py's ``step_playouts``).  The caller falls back
on the step API (``available`` is False) for more than eight players, for a deck with more
than 256 kinds of dessert or guests, or for a guest wanting more than 62 tastes (the bit
masks).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from functools import lru_cache

import numpy as np

from ..compact_loops import batch_seed
from ..core import Setup
from ..decks import Deck
from ..playout import Playout, strict_bits
from . import v23
from . import v23_loops as loops
from .v23 import HAND_SIZE, PHASES, Call, Draw, Fail, Favourite, Options, Pass, Penalty, Race, Serve, State, TurnUp

# this module decides nothing about play, and why (the decision-point finder reads this)
PLUMBING = "the 2.3 rules' compiled games read back; the loops in v23_loops.py decide"

BATCH = 1024
"""Games per random stream (batch_seed(seed, batch)); a batch is played in as many compiled
calls as the codes buffer needs."""
BUFFER = 1 << 20
"""Codes per compiled call: bounds memory (a game starts only if its longest fits)."""
MAX_WANTED = 62
"""Most tastes a guest may want here (they are bits of an int64)."""


CHANCE_MOVES = frozenset({Draw, TurnUp, Race, Penalty})
"""The move classes of chance outcomes (v23.py); Call, Pass, Favourite, Serve and Fail are a seat's."""
FIRST_SEAT = 0
"""The seat that moves first after a fresh deal: seat 0 answers the first guest first (jd23.call.got-it)."""


def seat_moves(moves: tuple) -> int:
    """How many of a game's moves are seat moves (chance outcomes left out): its length as impact tables count it."""
    return len(moves) - sum(type(m) in CHANCE_MOVES for m in moves)


# --------------------------------------------------------------------------- the deck as tables


@dataclasses.dataclass(frozen=True, eq=False)
class DeckTables:
    """A deck as the compiled loop sees it: desserts and guests by their place among the
    sorted ids, and per guest (rows) and dessert (columns): ``refuses`` (it shows a taste
    the guest refuses, jd23.satisfy.tastes), ``wants`` (the guest's wanted tastes it shows,
    one bit each), ``fav`` (a favourite of the guest, jd23.favourite.extra-card); ``full``
    is each guest's mask of every wanted taste."""

    desserts: tuple[str, ...]
    guests: tuple[str, ...]
    refuses: np.ndarray
    wants: np.ndarray
    full: np.ndarray
    fav: np.ndarray

    def dessert_index(self) -> dict[str, int]:
        return {d: i for i, d in enumerate(self.desserts)}

    def guest_index(self) -> dict[str, int]:
        return {g: i for i, g in enumerate(self.guests)}


def _fits(deck: Deck) -> bool:
    """Can the compiled loop hold this deck (codes, bit masks)?"""
    return (len(deck.desserts) <= loops.MAX_KINDS and len(deck.guests) <= loops.MAX_KINDS  # plumbing: the codes' room
            and all(len(g.wants) <= MAX_WANTED for g in deck.guests))


@lru_cache(maxsize=32)
def tables(deck: Deck) -> DeckTables:
    desserts = tuple(sorted(d.id for d in deck.desserts))
    guests = tuple(sorted(g.id for g in deck.guests))
    T, G = len(desserts), len(guests)
    refuses = np.zeros((G, T), dtype=np.uint8)
    wants = np.zeros((G, T), dtype=np.int64)
    full = np.zeros(G, dtype=np.int64)
    fav = np.zeros((G, T), dtype=np.uint8)
    for gi, gid in enumerate(guests):
        g = deck.guest(gid)
        bit = {t: 1 << i for i, t in enumerate(sorted(g.wants))}
        full[gi] = (1 << len(bit)) - 1
        for ti, did in enumerate(desserts):
            tastes = deck.dessert(did).tastes
            refuses[gi, ti] = bool(tastes & g.refuses)  # rule: jd23.satisfy.tastes
            wants[gi, ti] = sum(bit.get(t, 0) for t in tastes)
            fav[gi, ti] = did in g.favorites  # rule: jd23.favourite.extra-card
    return DeckTables(desserts, guests, refuses, wants, full, fav)


def params(setup: Setup) -> np.ndarray:
    """The rulings as the small ints the compiled loop reads (``loops.P_*``)."""
    o: Options = setup.options
    prm = np.zeros(loops.N_PARAMS, dtype=np.int64)
    prm[loops.P_PLAYERS] = setup.players
    prm[loops.P_MINIMAL] = o.spare_desserts == "minimal"
    prm[loops.P_TRUMP] = o.favourite_trump == "favourite-caller-first"
    prm[loops.P_CARD_PER_FAVOURITE] = o.two_favourites == "card-per-favourite"
    prm[loops.P_MAITRE_D_TAKES] = o.penalty_taker == "maitre-d"
    prm[loops.P_PENALTY_PILE] = ("caller", "taker", "out-of-play").index(o.penalty_pile)
    prm[loops.P_ALONE_ONLY] = o.favourite_with_others == "alone-only"
    prm[loops.P_AT_LAST_TURN_UP] = o.guest_pile_empty == "at-last-turn-up"
    # rule: jd23.ruling.kitchen-check (strict never closes early either)
    prm[loops.P_WHEN_EVERYONE_DRAWS] = o.kitchen_check != "whenever-short"
    prm[loops.P_SHARED_WIN] = o.full_tie == "shared-win"
    prm[loops.P_SIMULTANEOUS_PENALTY] = o.simultaneous_mistaken == "penalty"
    prm[loops.P_EQUAL_ODDS] = o.race_odds == "equal"
    prm[loops.P_MAY_DECLINE] = o.decline_after_call == "may-decline"
    prm[loops.P_STRICT] = strict_bits(o, loops.GAPS)
    return prm


def available(setup: Setup) -> bool:
    """Can this setup be played here?  Not with more than eight players or a deck too large
    for the codes (see the module docstring); the step API plays those.  Strict rulings are
    played to their gap."""
    options = setup.options
    if not isinstance(options, Options) or not isinstance(setup.components, Deck):
        return False
    for f in dataclasses.fields(Options):
        if NOT_COMPILED.get(f.metadata.get("ruling")) == getattr(options, f.name):
            return False  # plumbing: an alternative the loop does not play (the step API plays it)
    return 2 <= setup.players <= loops.MAX_SEATS and _fits(setup.components)  # plumbing: the codes' room


NOT_COMPILED = {"jd23.ruling.favourite-trump": "favourite-call", "jd23.ruling.race-after-fail": "next-in-line"}
"""Ruling alternatives the compiled loop does not play (found by the independent reading; the step API plays them)."""


# --------------------------------------------------------------------------- a State as a table

_ANSWER = {"": loops.NOT_YET, v23.CALL: loops.CALLED, v23.PASS: loops.PASSED}
_TRUMP = {"": loops.ASKED, v23.FAVOURITE: loops.HAS_FAVOURITE, v23.PASS: loops.NO_FAVOURITE, "-": loops.NOT_ASKED}


def encode(state: State, tab: DeckTables) -> tuple[np.ndarray, ...]:
    """The table (see :mod:`.v23_loops`) of ``state``: (sc, seat, hand, pile, gpile, disc, pen, draws)."""
    n = state.setup.players
    di, gi = tab.dessert_index(), tab.guest_index()
    T, G = len(tab.desserts), len(tab.guests)
    sc = np.zeros(loops.N_SCALARS, dtype=np.int64)
    sc[loops.S_PHASE] = PHASES.index(state.phase)
    sc[loops.S_GUEST] = -1 if state.guest is None else gi[state.guest]
    sc[loops.S_FIRST] = -1 if state.first is None else state.first
    sc[loops.S_CLOSED] = state.kitchen_closed
    sc[loops.S_RESHUFFLED] = state.reshuffled
    sc[loops.S_TRUMPED] = state.trumped
    sc[loops.S_PILE] = len(state.dessert_pile)
    sc[loops.S_GPILE] = len(state.guest_pile)
    sc[loops.S_DISC] = len(state.discards)
    sc[loops.S_PEN_N] = len(state.penalties)
    sc[loops.S_DRAW_N] = len(state.draws)
    sc[loops.S_GAP] = -1
    seat = np.zeros((n, loops.N_FIELDS), dtype=np.int64)
    hand = np.zeros((n, T), dtype=np.int32)
    for s in range(n):
        seat[s, loops.F_HAND] = len(state.hands[s])
        seat[s, loops.F_DISHES] = len(state.dishes[s])
        seat[s, loops.F_COLLECTED] = len(state.collected[s])
        seat[s, loops.F_ANSWER] = _ANSWER[state.answers[s]] if state.answers else loops.NOT_YET
        seat[s, loops.F_MISTAKEN] = s in state.mistaken
        seat[s, loops.F_TRUMP] = _TRUMP[state.trumps[s]] if state.trumps else loops.NOT_ASKED
        for c in state.hands[s]:
            hand[s, di[c]] += 1
    cards = len(state.setup.components.dessert_cards())
    pile = np.zeros(cards, dtype=np.int64)
    pile[:len(state.dessert_pile)] = [di[c] for c in state.dessert_pile]
    gpile = np.zeros(G, dtype=np.int64)
    gpile[:len(state.guest_pile)] = [gi[g] for g in state.guest_pile]
    disc = np.zeros(G, dtype=np.int64)
    disc[:len(state.discards)] = [gi[g] for g in state.discards]
    pen = np.zeros(n, dtype=np.int64)
    pen[:len(state.penalties)] = state.penalties
    draws = np.zeros(max(len(state.draws), HAND_SIZE * n, n, 3), dtype=np.int64)
    draws[:len(state.draws)] = state.draws
    return sc, seat, hand, pile, gpile, disc, pen, draws


def capacity(state: State) -> int:
    """Most actions a game from ``state`` can take: the pending draws and penalties, then at
    most two runs through the guests (jd23.guests.reshuffle-once, jd23.end.second-exhaustion)
    and the guest on the table, each round a turn-up, the answers, up to one serving attempt
    per caller (a race, the trump answers, the first caller's answer, a race among the
    trumps, the serving or failure: jd23.call.erroneous-covered), the penalties and the
    draws (at most one per seat, or three extra cards for a favourite)."""
    n, G = state.setup.players, len(state.setup.components.guests)
    round_ = 1 + n + n * (n + 4) + n + max(n, 3)
    return len(state.draws) + len(state.penalties) + (2 * G + 2) * round_


# --------------------------------------------------------------------------- codes back to moves


class Codebook(dict):
    """Action code -> the model's move, built on first use and kept."""

    def __init__(self, tab: DeckTables):
        super().__init__()
        self.tab = tab

    def __missing__(self, code: int):
        move = self._move(code)
        self[code] = move
        return move

    def _move(self, code: int):
        d, g, K, S = self.tab.desserts, self.tab.guests, loops.MAX_KINDS, loops.MAX_SEATS
        fixed = {loops.C_CALL: Call(), loops.C_PASS: Pass(), loops.C_FAVOURITE: Favourite(), loops.C_FAIL: Fail(),
                 loops.C_SIMULTANEOUS: Race(None)}
        if code in fixed:
            return fixed[code]
        if code < loops.C_TURN_UP:
            return Race(code - loops.C_FIRST)
        if code < loops.C_DRAW:
            return TurnUp(g[code - loops.C_TURN_UP])
        if code < loops.C_PENALTY:
            seat, t = divmod(code - loops.C_DRAW, K)
            return Draw(seat, d[t])
        if code < loops.C_SERVE:
            pair, t = divmod(code - loops.C_PENALTY, K)
            taker, seat = divmod(pair, S)
            return Penalty(taker, seat, d[t])
        rest = code - loops.C_SERVE
        ab, c = divmod(rest, K + 1)
        a, b = divmod(ab, K + 1)
        return Serve(tuple(d[x] for x in (a, b, c) if x != loops.NONE))


@lru_cache(maxsize=32)
def codebook(tab: DeckTables) -> Codebook:
    return Codebook(tab)


# --------------------------------------------------------------------------- playing


@dataclasses.dataclass(frozen=True)
class Batch:
    """Games as the compiled loop returns them: all their codes one after another, where
    each game ends, its winners as a bit mask, the strict ruling that stopped it (its index
    in ``loops.GAPS``, -1 for none), and (with debug) per action the number of moves a seat
    chose among (0 at chance) and a chance outcome's probability."""

    codes: np.ndarray
    ends: np.ndarray
    winners: np.ndarray
    gaps: np.ndarray
    among: np.ndarray | None = None
    odds: np.ndarray | None = None


def play_batches(state: State, games: int, seed: int, *, debug: bool = False, prm: np.ndarray | None = None,
                 tab: DeckTables | None = None, buffer: int = BUFFER) -> Iterator[Batch]:
    """The compiled games from ``state`` as batches of codes (``prm`` and ``tab`` default to
    the setup's; the tests plant faults through them).  ValueError if a game overruns its
    capacity (never silently past the buffer)."""
    tab = tab if tab is not None else tables(state.setup.components)
    prm = prm if prm is not None else params(state.setup)
    start = encode(state, tab)
    cap = capacity(state)
    size = max(buffer, cap)
    codes = np.zeros(size, dtype=np.int32)
    among = np.zeros(size if debug else 1, dtype=np.int32)
    odds = np.zeros(size if debug else 1, dtype=np.float64)
    ends = np.zeros(BATCH, dtype=np.int64)
    winners = np.zeros(BATCH, dtype=np.int64)
    gaps = np.zeros(BATCH, dtype=np.int64)
    for b in range(0, games, BATCH):
        left = min(BATCH, games - b)
        rng = np.array([batch_seed(seed, b // BATCH)], dtype=np.uint64)
        while left:
            played, used = loops.play(*start, prm, tab.refuses, tab.wants, tab.full, tab.fav, left, rng,
                                      codes, among, odds, debug, ends, winners, gaps, cap)
            if played == loops.REFUSED:
                raise ValueError(f"a game ran past its capacity of {cap} actions (v23_playout.capacity is wrong)")
            yield Batch(codes[:used].copy(), ends[:played].copy(), winners[:played].copy(), gaps[:played].copy(),
                        among[:used].copy() if debug else None, odds[:used].copy() if debug else None)
            left -= played


def _named(mask: int, cache: dict[int, frozenset[int]]) -> frozenset[int]:
    named = cache.get(mask)
    if named is None:
        named = cache[mask] = frozenset(s for s in range(loops.MAX_SEATS) if mask >> s & 1)
    return named


def random_playouts(state: State, games: int, seed: int) -> Iterator[Playout]:
    """``games`` games from ``state``, one after another: per game its moves and the winners
    as the model's outcome names them (jd23.score.guests and its tie-breaks; nobody on a full
    tie unless jd23.ruling.full-tie = shared-win); a game a strict ruling stopped names it
    (``gap``, see the module docstring).  The arguments are not checked here: call it through
    :func:`tablerules.model.playout.iter_games`, which does."""
    if not available(state.setup):
        raise ValueError("this setup cannot be played by the compiled playout: play it through the step API")
    book = codebook(tables(state.setup.components))
    named: dict[int, frozenset[int]] = {}
    for batch in play_batches(state, games, seed):
        moves = list(map(book.__getitem__, batch.codes.tolist()))
        a = 0
        for b, mask, gap in zip(batch.ends.tolist(), batch.winners.tolist(), batch.gaps.tolist()):
            yield Playout(tuple(moves[a:b]), winners=_named(mask, named), gap=loops.GAPS[gap] if gap >= 0 else "")
            a = b


__all__ = ["available", "random_playouts", "play_batches", "tables", "params", "encode", "capacity", "codebook",
           "CHANCE_MOVES", "FIRST_SEAT", "seat_moves"]
