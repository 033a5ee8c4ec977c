"""Whole games of Just Desserts (current rulebook) played at random in compiled code.

Random play as the step API plays it (model/playout.py's ``step_playouts``): the seat to
move picks uniformly among ``RULES.legal_moves(state)`` (dumps one card at a time, stop,
kitchen, serve and poach moves with each serving ``guest_servings`` lists, blocks,
surprises, passes, buffets, returns, departs) and chance picks each outcome of
``RULES.chance_outcomes(state)`` with its probability (a draw count / size, a turn-up, the
answer race of jd.surprise.first-offered).  Everything ``settle`` does without a choice
(reshuffles, wins, the ends of phases and turns, the endings of ending.py) is mirrored in
:mod:`.playout_loops`, which plays whole games on int arrays.

Per deck, :class:`Tables` turns the cards into small ints (dessert types and guests in the
order of their ids, copies as counts) and, for each guest, the wanted-taste mask of every
dessert and the "covers" (sets of masks) a serving with no card to spare can show.  A State
(any state of the model: mid-turn, in an answer window, waiting on chance) is encoded into
one int vector.  The loop writes each action as a code; :func:`random_playouts` turns the
codes back into the model's :class:`~.moves.Move` objects, so every game replays through
``RULES.apply`` move for move (tests/model/test_jd_playout.py replays them): the moves without
cards come from a table made once per deck (``Tables.plain``), taken for all actions at once,
and the few with cards from a cache keyed by one int (playout_loops' ``action_keys``).

What is played here: every value of every ``jd.ruling.*`` option, with all eight
combinations of the advanced rules.  Under jd.ruling.serving-size=any the servings are
counted, not listed (playout_loops' ``servings_any``), so a hand may offer millions; a hand
of more than ``ANY_HAND_LIMIT`` desserts stops the loop with an error.  A strict ruling
(``strict``) stops the game where the step API raises its RuleGap: the game's last action is
the one whose ``apply`` raises, and its Playout names the ruling (``gap``); where a strict
ruling can never be reached (:func:`playable`) it is set to its default first.  Decks whose
guests want more than :data:`MAX_WANTS` tastes, or serving-size=any with a guest that wants
nothing, make :func:`available` False: the caller (model/playout.py) then plays through the
step API.

Not played here (:data:`NOT_COMPILED`, and every strict ruling the loop cannot stop at):
jd.ruling.endless-play=repeated-position and =strict keep a history of the positions turns
started at; the step API plays them.

A game that reaches :data:`MAX_ACTIONS` actions raises :class:`EndlessGame` (after the
games before it have been given): such play may never end (jd.ruling.endless-play=play-on
with Poaching on a deck where guests only change hands, or jd.ruling.no-serving-possible
=play-on), and the step API would play it for ever.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations

import numpy as np

from ..compact_loops import batch_seed
from ..core import STRICT, Setup
from ..decks import Deck
from ..playout import MAX_ACTIONS, EndlessGame, Playout, strict_bits
from . import playout_loops as L
from .game import outcome
from .moves import KITCHEN, PASS, STOP, Move
from .state import DRAW, Options, State

# functions that decide nothing about play, and why (the decision-point finder reads this)
PLUMBING = {
    "Tables.move": "a code with cards is keyed with them; the first time this code is seen",
    "Tables._build": "code -> move",
    "Tables.keyed": "a key of a move with cards -> move, made the first time",
    "_without": "the union without one mask",
    "playable": "only strict ones that cannot be reached; nothing to set",
    "ruling_field": "the Options field of a ruling id",
    "encode": "more pending draws than the vector holds",
    "_seats": "a bit mask as seats",
    "_decode": "where the last game ended; the debug record; codes back to moves",
}

MAX_WANTS = 6
"""Most tastes a guest may want for the compiled loop (the retail deck's guests want at most 4)."""
MAX_COVER_SETS = 200_000
"""Most sets of masks examined per guest when the covers are built."""
BATCH = 4096
"""Games per random stream (batch_seed(seed, batch)); the compiled calls fill a bounded buffer."""
CODE_BUFFER = 1 << 20
"""Codes per compiled call at first; doubled when one game does not fit."""


CHANCE_VERBS = frozenset({"draw", "turn-up", "first"})
"""The verbs of chance outcomes (moves.py: a draw, a guest turned up, who answered first); the rest are seat moves."""
FIRST_SEAT = 0
"""The seat that moves first after a fresh deal: seats are numbered from the first player (jd.ruling.turn-direction)."""


def seat_moves(moves: tuple) -> int:
    """How many of a game's moves are seat moves (chance outcomes left out): its length as impact tables count it."""
    return len(moves) - sum(m.verb in CHANCE_VERBS for m in moves)


# --------------------------------------------------------------------------- the deck as tables


@dataclasses.dataclass(eq=False)
class Tables:
    """A deck as int tables for the compiled loop (built once per deck)."""

    deck: Deck
    desserts: tuple[str, ...]
    guests: tuple[str, ...]
    suit_of: np.ndarray
    fav: np.ndarray
    nfav: np.ndarray
    ace: np.ndarray
    gmask: np.ndarray
    covers: np.ndarray
    cstart: np.ndarray
    can_sat: np.ndarray
    width: int
    deck_aces: int
    moves: dict = dataclasses.field(default_factory=dict)
    """Key of a move with cards (playout_loops' ``action_keys``, or its code with its cards) -> Move."""
    plain: np.ndarray = dataclasses.field(init=False)
    """The moves without cards, by the key ``action_keys`` gives them (verb * stride + argument)."""
    stride: int = dataclasses.field(init=False)

    def __post_init__(self) -> None:
        self.stride = max(len(self.desserts), len(self.guests), 8)
        self.plain = np.full(16 * self.stride, None, dtype=object)
        args = {L.V_DRAW: len(self.desserts), L.V_DUMP: len(self.desserts), L.V_TURN_UP: len(self.guests),
                L.V_RETURN: len(self.guests), L.V_DEPART: len(self.guests), L.V_FIRST: self.stride}
        for verb in (*args, L.V_DUMP_NONE, L.V_STOP, L.V_KITCHEN, L.V_PASS):
            for arg in range(args.get(verb, 1)):
                self.plain[verb * self.stride + arg] = self._build(verb, arg, [])

    def keyed(self, key: int, codes: list[int] | np.ndarray) -> Move:
        """The move of an ``action_keys`` key that is not an index of ``plain``."""
        if key < 0:  # plumbing: a move too large to pack: read from its code
            return self.move(codes, -1 - key)[0]
        m = self.moves.get(key)
        if m is None:
            k = (key >> L.CARDS_SHIFT) & 7
            cards = [(key >> (L.CARDS_SHIFT + 3 + 7 * j)) & (L.PACKED_TYPES - 1) for j in range(k)]
            m = self.moves[key] = self._build(key & 31, (key >> L.ARG_SHIFT) & ((1 << 15) - 1), cards)
        return m

    def move(self, codes: list[int], i: int) -> tuple[Move, int]:
        """The move whose code starts at ``codes[i]``, and where the next code starts."""
        c = int(codes[i])
        k = c >> L.CARDS_SHIFT
        key = c if k == 0 else tuple(int(x) for x in codes[i:i + 1 + k])
        m = self.moves.get(key)
        if m is None:
            m = self.moves[key] = self._build(c & 31, (c >> L.ARG_SHIFT) & ((1 << 15) - 1), codes[i + 1:i + 1 + k])
        return m, i + 1 + k

    def _build(self, verb: int, arg: int, cards: list[int]) -> Move:
        ids = tuple(sorted(self.desserts[t] for t in cards))
        if verb == L.V_DRAW:
            return Move("draw", cards=(self.desserts[arg],))
        if verb == L.V_TURN_UP:
            return Move("turn-up", self.guests[arg])
        if verb == L.V_FIRST:
            return Move("first", seat=arg)
        if verb in (L.V_SERVE, L.V_POACH):
            return Move("serve" if verb == L.V_SERVE else "poach", self.guests[arg], ids)
        if verb in (L.V_BLOCK, L.V_SURPRISE):
            return Move("block" if verb == L.V_BLOCK else "surprise", cards=ids)
        if verb == L.V_DUMP:
            return Move("dump", cards=(self.desserts[arg],))
        if verb == L.V_DUMP_NONE:
            return Move("dump")
        if verb == L.V_BUFFET:
            return Move("buffet", cards=ids)
        if verb in (L.V_RETURN, L.V_DEPART):
            return Move("return" if verb == L.V_RETURN else "depart", self.guests[arg])
        return {L.V_STOP: STOP, L.V_KITCHEN: KITCHEN, L.V_PASS: PASS}[verb]


def _covers(masks: list[int], full: int, wants: int) -> list[tuple[int, ...]]:
    """Sets of distinct masks, each showing a wanted taste no other shows, together showing
    every wanted taste: what a serving with no card to spare shows (jd.ruling.serving-size)."""
    out = []
    for size in range(1, min(wants, len(masks)) + 1):
        for combo in combinations(masks, size):
            union = 0
            for m in combo:
                union |= m
            if union != full:  # rule: jd.serve.satisfies
                continue
            if size == 1 or all(_without(combo, i) != full for i in range(size)):  # rule: jd.ruling.serving-size
                out.append(combo)
    return out


def _without(combo: tuple[int, ...], skip: int) -> int:
    union = 0
    for i, m in enumerate(combo):
        if i != skip:
            union |= m
    return union


def _cover_work(n: int, wants: int) -> int:
    total, c = 0, 1
    for k in range(1, wants + 1):
        c = c * (n - k + 1) // k
        total += c
    return total


@lru_cache(maxsize=16)
def tables(deck: Deck) -> Tables | None:
    """The deck's tables, or None if its guests want too many tastes for the compiled loop."""
    desserts = tuple(sorted(d.id for d in deck.desserts))
    guests = tuple(sorted(g.id for g in deck.guests))
    D, G = len(desserts), len(guests)
    wants = max(len(deck.guest(g).wants) for g in guests)
    if wants > MAX_WANTS:  # plumbing: masks wider than the compiled loop's scratch
        return None
    suit_of = np.array([deck.suits.index(deck.suit_of(g)) for g in guests], dtype=np.int64)
    fav = np.zeros((G, D), dtype=np.int64)
    gmask = np.zeros((G, D), dtype=np.int64)
    rows, cstart = [], [0]
    for i, gid in enumerate(guests):
        g = deck.guest(gid)
        for f in g.favorites:
            fav[i, desserts.index(f)] = 1
        bit = {t: 1 << k for k, t in enumerate(sorted(g.wants))}
        for j, did in enumerate(desserts):
            tastes = deck.dessert(did).tastes
            if tastes & g.refuses:  # rule: jd.serve.satisfies
                gmask[i, j] = -1
                continue
            gmask[i, j] = sum(bit.get(t, 0) for t in tastes)
        masks = sorted({int(m) for m in gmask[i] if m > 0})  # plumbing: the masks a guest's covers use
        if _cover_work(len(masks), len(g.wants)) > MAX_COVER_SETS:  # plumbing: too many sets of masks to list
            return None
        rows += _covers(masks, (1 << len(g.wants)) - 1, len(g.wants))
        cstart.append(len(rows))
    covers = np.full((max(1, len(rows)), wants), -1, dtype=np.int64)
    for r, combo in enumerate(rows):
        covers[r, :len(combo)] = combo
    cstart = np.array(cstart, dtype=np.int64)
    # rule: jd.buffet.aces
    ace = np.array([1 if len(deck.dessert(d).tastes) == 1 else 0 for d in desserts], dtype=np.int64)
    deck_aces = sum(deck.dessert(d).copies for d, a in zip(desserts, ace) if a)  # rule: jd.buffet.aces
    nfav = np.array([1 if deck.guest(g).favorites else 0 for g in guests], dtype=np.int64)  # rule: jd.tip.favourite
    can_sat = (cstart[1:] > cstart[:-1]).astype(np.int64)
    return Tables(
        deck, desserts, guests, suit_of, fav, nfav, ace, gmask, covers, cstart, can_sat, 1 << wants, deck_aces
    )


# --------------------------------------------------------------------------- which setups


def playable(setup: Setup) -> Setup:
    """The setup with the strict rulings that can never be reached here set to their
    defaults (they cannot change a game): see the module docstring."""
    o, n = setup.options, setup.players
    both = o.poaching and o.surprise_parties
    unreachable = {
        "turn_direction": n <= 2,  # rule: jd.ruling.turn-direction
        "answer_order": not o.surprise_parties or n <= 2,  # rule: jd.ruling.answer-order
        "block_or_surprise": not (both and n >= 3),  # rule: jd.ruling.plain-block-vs-surprise
        "victim_tip_surprise": not (both and n >= 3),  # rule: jd.ruling.victim-tip-on-surprise
        "surprise_on_block": not both,  # rule: jd.ruling.surprise-on-block
    }
    changes = {k: getattr(Options(), k) for k, never in unreachable.items() if never and getattr(o, k) == STRICT}
    if not changes:
        return setup
    return Setup(setup.players, dataclasses.replace(o, **changes), setup.components)


def _unplayable(setup: Setup) -> str | None:
    """Why the compiled loop cannot play this setup, or None."""
    o = playable(setup).options
    if not isinstance(setup.components, Deck):  # plumbing: a deck of the right kind
        return "not a Just Desserts deck"
    for f in dataclasses.fields(Options):
        # plumbing: a strict ruling the loop cannot stop at
        if getattr(o, f.name) == STRICT and f.metadata.get("ruling") not in L.GAPS:
            return f"strict {f.name}"
    if tables(setup.components) is None:  # plumbing: a deck too wide for the tables
        return f"a guest wants more than {MAX_WANTS} tastes, or too many servings"
    if o.serving_size == "any" and any(not g.wants for g in setup.components.guests):  # rule: jd.ruling.serving-size
        return "jd.ruling.serving-size=any with a guest that wants no taste"
    for rid, alternative in NOT_COMPILED.items():  # plumbing: alternatives the loop does not play
        if getattr(o, ruling_field(rid)) == alternative:  # plumbing: an alternative the loop leaves to the step API
            return f"{rid}={alternative} (the step API plays it)"
    return None


NOT_COMPILED = {"jd.ruling.answer-window": "holders", "jd.ruling.tip-order": "server-first",
                "jd.ruling.surprised-attempt": "commits", "jd.ruling.endless-play": "repeated-position"}
"""Ruling alternatives the compiled loop does not play (found by the independent reading; the step API plays
them).  jd.ruling.open-hands changes only what a seat sees, never play, so the loop plays both of its."""


def ruling_field(ruling_id: str) -> str:
    return next(f.name for f in dataclasses.fields(Options) if f.metadata.get("ruling") == ruling_id)


def available(setup: Setup) -> bool:
    """Can this setup be played here (else the step API plays it)?  See the module docstring."""
    return _unplayable(setup) is None


def options_vector(setup: Setup, t: Tables) -> np.ndarray:
    """The options as the loop's ``prm`` vector (playout_loops.R_*)."""
    o = setup.options
    p = np.zeros(L.PRM_SIZE, dtype=np.int64)
    p[L.R_DUMP_NONE] = o.dump_none == "allowed"
    p[L.R_TIP_PER_FAV] = o.tip_count == "one-per-favourite"
    p[L.R_FAV_ALONE_ONLY] = o.favourite_with_others == "alone-only"
    p[L.R_RESHUFFLE_AT_ONCE] = o.reshuffle_time == "at-once"
    p[L.R_GUEST_DRAW_GAME] = o.guest_supply == "draw-game"
    p[L.R_ALL_CLAIMED] = ("faq-score", "draw", "play-on", STRICT).index(o.all_claimed)
    p[L.R_MATCHING] = ("pairs", "exactly-two", "every-two").index(o.matching_pair)
    p[L.R_SHARED_WIN] = o.score_full_tie == "shared-win"
    p[L.R_NO_SERVING] = ("faq-score", "draw", "play-on", STRICT).index(o.no_serving)
    p[L.R_CLOCKWISE_ANSWER] = o.answer_order == "clockwise"
    p[L.R_VICTIM_TIP] = o.victim_tip_surprise == "tip"
    p[L.R_CCW] = o.turn_direction == "counter-clockwise" and setup.players > 2
    p[L.R_DISCARD_ANY] = o.discard_which == "any-guest"
    p[L.R_DOORWAY_ANY] = o.surprise_doorway == "any-serving"
    p[L.R_SURPRISE_WITH_FAV] = o.surprise_serving == "serving-with-favourite"
    p[L.R_SERVE_NONE] = o.serve_none == "allowed"
    p[L.R_VICTIM_BLOCK_ONLY] = o.victim_surprise == "block-only"
    p[L.R_POACHING] = bool(o.poaching)
    p[L.R_BUFFET] = bool(o.buffet)
    p[L.R_SURPRISE] = bool(o.surprise_parties)
    p[L.R_FAQ_WHEN] = ("at-once", "turn-end", "when-settled").index(getattr(o, "faq_score_when", "at-once"))
    p[L.R_DECK_ACES] = t.deck_aces
    p[L.R_SERVING_ANY] = o.serving_size == "any"
    p[L.R_STRICT] = strict_bits(o, L.GAPS)
    return p


# --------------------------------------------------------------------------- a State as a vector

PHASES = {"sort": L.P_SORT, "choose": L.P_CHOOSE, "dump": L.P_DUMP, "window": L.P_WINDOW, "return": L.P_RETURN,
          "buffet": L.P_BUFFET, "discard": L.P_DISCARD}


def encode(state: State, t: Tables) -> np.ndarray:
    """The state vector of a State that is not over (playout_loops' layout)."""
    n, D, G, NS = state.setup.players, len(t.desserts), len(t.guests), len(t.deck.suits)
    words = -(-D // L.HELD_BITS)
    di = {d: i for i, d in enumerate(t.desserts)}
    gi = {g: i for i, g in enumerate(t.guests)}
    sizes = [(L.O_HAND, n * D), (L.O_HSIZE, n), (L.O_DPILE, D), (L.O_DDISC, D), (L.O_GPILE, G), (L.O_CENTRE, G),
             (L.O_HOLDER, G), (L.O_SHIELD, G), (L.O_GDISC, G), (L.O_TASKS, 2 * L.MAX_TASKS), (L.O_OCARDS, L.MAX_CARDS),
             (L.O_ANS, n), (L.O_RET, n), (L.O_SUITS, n * NS), (L.O_NCLAIMED, n), (L.O_HELD, n * words)]
    s = np.zeros(L.HEADER + sum(k for _, k in sizes), dtype=np.int64)
    at = L.HEADER
    for slot, k in sizes:
        s[slot] = at
        at += k
    s[s[L.O_HOLDER]:s[L.O_HOLDER] + G] = -1
    s[L.S_N], s[L.S_D], s[L.S_G], s[L.S_NS] = n, D, G, NS
    for seat, hand in enumerate(state.hands):
        for c in hand:
            L.add_to_hand(s, seat, di[c], 1)
    for seat, guests in enumerate(state.claimed):
        for g in guests:
            L.claim(s, t.suit_of, seat, gi[g])
    for c in state.dessert_pile:
        s[s[L.O_DPILE] + di[c]] += 1
    for c in state.dessert_discard:
        s[s[L.O_DDISC] + di[c]] += 1
    s[L.S_NDPILE], s[L.S_NDDISC] = len(state.dessert_pile), len(state.dessert_discard)
    for g in state.guest_pile:
        s[s[L.O_GPILE] + gi[g]] = 1
    s[L.S_NGPILE] = len(state.guest_pile)
    for i, g in enumerate(state.guest_discard):
        s[s[L.O_GDISC] + i] = gi[g]
    s[L.S_NGDISC] = len(state.guest_discard)
    for g in state.centre:
        L.to_centre(s, gi[g])
    for g in state.shielded:
        s[s[L.O_SHIELD] + gi[g]] = 1
    if len(state.tasks) > L.MAX_TASKS:
        raise ValueError(f"{len(state.tasks)} pending chance events: the compiled playout holds {L.MAX_TASKS}")
    for kind, seat in state.tasks:
        L.push_task(s, L.K_DRAW if kind == DRAW else L.K_TURN_UP, seat)
    s[L.S_TURN], s[L.S_PHASE] = state.turn, PHASES[state.phase]
    s[L.S_SERVED], s[L.S_COMMITTED], s[L.S_DUMPED] = state.served, state.committed, state.dumped
    s[L.S_POACH] = {"": L.POACH_NONE, "done": L.POACH_DONE, "blocked": L.POACH_BLOCKED}[state.poach]
    s[L.S_SPEAKER], s[L.S_WINNER] = state.speaker, state.winner
    if state.offer is not None:
        a = state.offer
        s[L.S_OFFER], s[L.S_OSERVER], s[L.S_OGUEST], s[L.S_OVICTIM] = 1, a.server, gi[a.guest], a.victim
        s[L.S_OBACK] = a.back == "buffet"
        for j, c in enumerate(a.cards):
            s[s[L.O_OCARDS] + j] = di[c]
        s[L.S_ONCARDS] = len(a.cards)
    for seat in state.answerers:
        L.add_answerer(s, seat)
    for i, seat in enumerate(state.returning):
        s[s[L.O_RET] + i] = seat
    s[L.S_NRET] = len(state.returning)
    s[L.S_LISTED] = -1
    s[L.S_OPENING] = state.opening
    return s


# --------------------------------------------------------------------------- playing


@lru_cache(maxsize=256)
def _seats(mask: int) -> frozenset[int]:
    return frozenset(i for i in range(mask.bit_length()) if mask >> i & 1)


def played(state: State, games: int, seed: int, debug: bool = False) -> Iterator[tuple[Playout, list | None]]:
    """The games of :func:`random_playouts`, each with (under ``debug``) per action the number
    of moves the seat chose among, as (count, 0), or the chance outcome's probability as
    (numerator, denominator)."""
    setup = playable(state.setup)
    why = _unplayable(setup)
    if why is not None:  # plumbing: callers ask available() first
        raise ValueError(f"the compiled playout cannot play this setup ({why}); play it through the step API")
    if state.phase == "over":  # rule: jd.win.any-time
        result = outcome(state)
        for _ in range(games):
            yield Playout((), result.losers, result.winners), ([] if debug else None)  # plumbing: the debug record
        return
    t = tables(setup.components)
    start = encode(state, t)
    prm = options_vector(setup, t)
    # the loop writes every entry it reports before the caller reads it: no need to clear the buffers
    codes = np.empty(CODE_BUFFER, dtype=np.int64)
    info = np.empty((CODE_BUFFER if debug else 1, 2), dtype=np.int64)  # plumbing: the record only when asked
    ends = np.empty((BATCH, 2), dtype=np.int64)
    results = np.empty((BATCH, 3), dtype=np.int64)
    for first in range(0, games, BATCH):
        rng = np.array([batch_seed(seed, first // BATCH)], dtype=np.uint64)
        left = min(BATCH, games - first)
        while left:  # plumbing: until the batch is played (a full buffer returns early)
            k, status = L.play(start, t.suit_of, t.fav, t.nfav, t.ace, t.gmask, t.covers, t.cstart, t.can_sat, prm,
                               t.width, left, rng, codes, info, debug, ends, results, MAX_ACTIONS)
            # plumbing: the per-action record only under debug
            yield from _decode(t, codes, info if debug else None, ends[:k].tolist(), results[:k].tolist())
            left -= k
            # plumbing: one game longer than the buffer: play it again in a larger one
            if status == L.ST_BUFFER_FULL and k == 0:
                codes = np.empty(2 * len(codes), dtype=np.int64)
                if debug:  # plumbing: the record grows with the codes
                    info = np.empty((len(codes), 2), dtype=np.int64)
            if status == L.ST_HAND_TOO_LARGE:  # plumbing: counts beyond int64
                raise RuntimeError(f"a hand of more than {L.ANY_HAND_LIMIT} desserts under jd.ruling.serving-size=any: "
                                   "its servings are too many to count exactly")
            if status == L.ST_ENDLESS:  # plumbing: a game that does not end
                raise EndlessGame(f"a random game reached {MAX_ACTIONS:,} actions without ending (play that may "
                                  "never end: jd.ruling.endless-play=play-on, or "
                                  "jd.ruling.no-serving-possible=play-on)",
                                  game=first + min(BATCH, games - first) - left + 1, actions=MAX_ACTIONS)


def _decode(t: Tables, codes: np.ndarray, info, ends: list, results: list) -> Iterator[tuple[Playout, list | None]]:
    last = ends[-1][0] if ends else 0
    rows = info[:ends[-1][1]].tolist() if info is not None and ends else None
    moves = _moves_of(t, codes, last)
    a = 0
    for (_, ab), (won, lost, gap) in zip(ends, results):
        game = Playout(tuple(moves[a:ab]), _seats(lost), _seats(won), L.GAPS[gap] if gap >= 0 else "")
        yield game, (rows[a:ab] if rows is not None else None)
        a = ab


def _moves_of(t: Tables, codes: np.ndarray, last: int) -> list[Move]:
    """The move of every action whose code is in ``codes[:last]``, in order: the moves without
    cards taken from ``t.plain`` all at once, the few with cards one by one (:meth:`Tables.keyed`)."""
    keys = np.empty(last, dtype=np.int64)
    keys = keys[:L.action_keys(codes, last, t.stride, keys)]
    plain = (keys >= 0) & (keys < len(t.plain))
    moves = t.plain[np.where(plain, keys, 0)].tolist()
    others = np.flatnonzero(~plain).tolist()
    found = list(map(t.moves.get, keys[others].tolist()))
    for j, m in zip(others, found):
        moves[j] = m if m is not None else t.keyed(int(keys[j]), codes)  # plumbing: made the first time it is seen
    return moves


def random_playouts(state: State, games: int, seed: int) -> Iterator[Playout]:
    """``games`` games from ``state``, one after another: per game its moves and the seats
    the outcome names (winners and losers; both empty on a draw); a game a strict ruling
    stopped names it (``gap``) and ends with the action the step API refuses with RuleGap.
    The arguments are not checked here: call it through
    :func:`tablerules.model.playout.iter_games`, which does."""
    for playout, _ in played(state, games, seed):
        yield playout


__all__ = ["available", "random_playouts", "played", "playable", "tables", "encode", "EndlessGame", "MAX_ACTIONS",
           "CHANCE_VERBS", "FIRST_SEAT", "seat_moves"]
