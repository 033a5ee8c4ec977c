"""Just Desserts 2.3: the shared readers of the properties.

The rulings by id and the alternatives the properties read, a state read through ``state_vars``
(:class:`Table`), a move read from its text (:class:`Said`), what satisfies a guest worked out
from the tastes printed on the cards (and which servings earn a Favorite's card), and a few steps
of looking ahead: :func:`settle` follows the chance events that finish a round (penalty cards,
draws), whose counts do not depend on which card comes up, until the next guest is due.  Every
family of properties reads through these; none of it asks the model's own rule functions.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable

from tablerules.model.core import CHANCE, TERMINAL

from .. import Problem, chosen


RULESET = "just-desserts-2.3"
HAND = 5
"""Desserts dealt to each player (jd23.setup.deal-five)."""
MOST_PER_SERVING = 3
"""A serving is one to three desserts (jd23.serve.one-to-three)."""
MAITRE_D = 0
"""The seat the model names Maitre D' (its documented seat labelling; the text lets the table
choose anyone, and only jd23.ruling.penalty-taker = maitre-d makes the choice visible)."""
TIPS_DECKS = frozenset({"v23-tips"})
"""Decks bound by the deck claims of the Tips & Hints and the Favorites section: the 2.3 deck
itself is lost; v23-tips is the teaching deck built to it.  v23-tiny and v23-crowd are built to
reach rare positions and break the claims on purpose (single-icon Favorites, guests without a
Favorite); the retail 2015 list is another edition's deck."""

# phases as state_vars names them
DEAL, TURN_UP, ANSWER, RACE, TRUMP, COUNTER, SERVE, PENALTY, DRAW, OVER = (
    "deal", "turn-up", "answer", "race", "trump", "counter", "serve", "penalty", "draw", "over")

# rulings, by id, and the alternatives the properties read
TRUMP_RULING = "jd23.ruling.favourite-trump"
SPARE = "jd23.ruling.spare-desserts"
TWO_FAVS = "jd23.ruling.two-favourites"
TAKER = "jd23.ruling.penalty-taker"
PILE = "jd23.ruling.penalty-pile"
WITH_OTHERS = "jd23.ruling.favourite-with-others"
EMPTY_HAND = "jd23.ruling.penalty-empty-hand"
GUEST_EMPTY = "jd23.ruling.guest-pile-empty"
NOTHING_LEFT = "jd23.ruling.nothing-to-reshuffle"
KITCHEN = "jd23.ruling.kitchen-check"
FULL_TIE = "jd23.ruling.full-tie"
SIMUL_MISTAKEN = "jd23.ruling.simultaneous-mistaken"
ODDS = "jd23.ruling.race-odds"
DECLINE = "jd23.ruling.decline-after-call"
NOT_CLAIMED_AS_A_CALL = ("favourite-caller-first", "no-trump", "strict")
"""favourite-trump alternatives under which the answer to a guest is call or pass (favourite-call adds a claim)."""


alt = chosen
"""The alternative ``setup`` chose for a ruling (read by ruling id)."""


def when(ruling_id: str, *alternatives: str) -> dict[str, tuple[str, ...]]:
    """``under=``: the property holds only under these alternatives of the ruling (it is the ruling's)."""
    return {ruling_id: alternatives}


@dataclass(frozen=True)
class Table:
    """What ``state_vars`` shows, as tuples (piles are multisets: sorted)."""

    setup: Any
    phase: str
    hands: tuple[tuple[str, ...], ...]
    pile: tuple[str, ...]
    guest_pile: tuple[str, ...]
    dishes: tuple[tuple[str, ...], ...]
    collected: tuple[tuple[str, ...], ...]
    discards: tuple[str, ...]
    set_aside: tuple[str, ...]
    floor: tuple[str, ...]
    closed: bool
    reshuffled: bool
    guest: str | None
    answers: tuple[str, ...]
    mistaken: tuple[int, ...]
    trumps: tuple[str, ...]
    trumped: bool
    pending_draws: tuple[int, ...]
    """Seats still owed a dessert by the draw under way (one entry per card)."""

    @property
    def n(self) -> int:
        return self.setup.players

    @property
    def deck(self) -> Any:
        return self.setup.components

    def callers(self) -> tuple[int, ...]:
        """Seats that said "got it" this round (jd23.call.got-it), a Favorite claimed in place of a call
        (jd23.ruling.favourite-trump = favourite-call) being a call."""
        return tuple(s for s, a in enumerate(self.answers) if a in ("call", "favourite"))

    def standing(self) -> tuple[int, ...]:
        """Callers not yet shown to be mistaken, Favorite claimers and plain callers alike: when the last
        of them fails, nobody is left to serve (jd23.call.erroneous-penalty)."""
        return tuple(s for s in self.callers() if s not in self.mistaken)

    def live(self) -> tuple[int, ...]:
        """Callers not yet shown to be mistaken (jd23.call.erroneous-covered); under favourite-call, the
        claimers of a Favorite while one stands, for they go ahead of every plain call."""
        standing = tuple(s for s in self.callers() if s not in self.mistaken)
        claimed = tuple(s for s in standing if self.answers[s] == "favourite")
        return claimed or standing

    def before_first_guest(self) -> bool:
        """No guest has been turned up yet: the deal (jd23.setup.deal-five)."""
        return (self.guest is None and not self.reshuffled and not self.discards
                and not any(self.collected) and self.guest_pile == self.deck.guest_cards())


def _ms(cards: Any) -> tuple[str, ...]:
    return tuple(sorted(cards))


_MEMO: dict[tuple[str, int, int], tuple[Any, Any, Any]] = {}


def _memo(kind: str, fn: Callable, state: Any, compute: Callable[[], Any]) -> Any:
    """``compute()`` once per (kind, function, state object): every property reads the same state
    through the same API calls, so the answers are kept (by identity; the entries hold the
    objects, so an identity is never reused while its entry lives)."""
    key = (kind, id(fn), id(state))
    hit = _MEMO.get(key)
    if hit is not None and hit[0] is state and hit[1] is fn:
        return hit[2]
    value = compute()
    if len(_MEMO) > 4096:
        _MEMO.clear()
    _MEMO[key] = (state, fn, value)
    return value


def _read(state_vars: Callable[[Any], dict], state: Any) -> Table:
    v = state_vars(state)
    return Table(
        setup=state.setup, phase=v["phase"], hands=tuple(_ms(h) for h in v["hands"]), pile=_ms(v["dessert_pile"]),
        guest_pile=_ms(v["guest_pile"]), dishes=tuple(_ms(d) for d in v["dishes"]),
        collected=tuple(_ms(c) for c in v["collected"]), discards=_ms(v["discards"]), set_aside=_ms(v["set_aside"]),
        floor=_ms(v["floor"]), closed=bool(v["kitchen_closed"]), reshuffled=bool(v["reshuffled"]),
        guest=v["guest"] or None, answers=tuple(v["answers"]), mistaken=tuple(v["mistaken"]),
        trumps=tuple(v["trumps"]), trumped=bool(v["trumped"]), pending_draws=tuple(v["draws"]),
    )


def table(rules: Any, state: Any) -> Table:
    return _memo("table", rules.state_vars, state, lambda: _read(rules.state_vars, state))


def grown(before: tuple[str, ...], after: tuple[str, ...]) -> Counter:
    """Cards in ``after`` that were not in ``before`` (multisets)."""
    return Counter(after) - Counter(before)


def shrunk(before: tuple[str, ...], after: tuple[str, ...]) -> Counter:
    return Counter(before) - Counter(after)


@dataclass(frozen=True)
class Said:
    """A move as its text names it."""

    kind: str
    seat: int | None = None
    taker: int | None = None
    card: str | None = None
    cards: tuple[str, ...] = ()
    guest: str | None = None


_FORMS = (
    (re.compile(r"call"), lambda m: Said("call")),
    (re.compile(r"pass"), lambda m: Said("pass")),
    (re.compile(r"favourite"), lambda m: Said("favourite")),
    (re.compile(r"fail"), lambda m: Said("fail")),
    (re.compile(r"serve (\S+)"), lambda m: Said("serve", cards=_ms(m[1].split("+")))),
    (re.compile(r"turn up (\S+)"), lambda m: Said("turn-up", guest=m[1])),
    (re.compile(r"simultaneous"), lambda m: Said("simultaneous")),
    (re.compile(r"first (\d+)"), lambda m: Said("first", seat=int(m[1]))),
    (
        re.compile(r"seat (\d+) takes (\S+) from seat (\d+)"),
        lambda m: Said("penalty", seat=int(m[3]), taker=int(m[1]), card=m[2]),
    ),
    (re.compile(r"seat (\d+) draws (\S+)"), lambda m: Said("draw", seat=int(m[1]), card=m[2])),
)


def said(move: Any) -> Said:
    try:
        return _said_move(move)
    except TypeError:  # an unhashable move
        return _said_text(str(move))


@lru_cache(maxsize=1 << 14)
def _said_move(move: Any) -> Said:
    return _said_text(str(move))


@lru_cache(maxsize=1 << 14)
def _said_text(text: str) -> Said:
    text = " ".join(text.split())
    for pattern, build in _FORMS:
        m = pattern.fullmatch(text)
        if m:
            return build(m)
    return Said("unknown")


def chance(rules: Any, state: Any) -> list[tuple[Said, Fraction, Any]]:
    """The chance outcomes of a state, read by their text (empty unless chance moves)."""
    def compute() -> list[tuple[Said, Fraction, Any]]:
        if rules.to_move(state) is not CHANCE:
            return []
        return [(said(m), p, m) for m, p in rules.chance_outcomes(state)]
    return _memo("chance", rules.chance_outcomes, state, compute)


def seat_moves(rules: Any, state: Any) -> list[tuple[Said, Any]]:
    def compute() -> list[tuple[Said, Any]]:
        actor = rules.to_move(state)
        if actor is CHANCE or actor is TERMINAL:
            return []
        return [(said(m), m) for m in rules.legal_moves(state)]
    return _memo("moves", rules.legal_moves, state, compute)


def move_of(rules: Any, state: Any, text: str) -> Any:
    return rules.parse_move(text, state.setup)


def refused(rules: Any, state: Any, text: str) -> bool:
    """True when the model refuses the move this text names here."""
    return rules.illegal_reason(state, move_of(rules, state, text)) is not None


def serve_text(cards: tuple[str, ...]) -> str:
    """A serving's text, its cards in sorted order (the canonical form; the text makes a serving
    the desserts taken together, so the model reads any order of the same cards as the same
    serving: tests/proofs/test_properties_just_desserts_v23.py checks it)."""
    return "serve " + "+".join(sorted(cards))


def tastes_of(deck: Any, cards: tuple[str, ...]) -> frozenset[str]:
    out: set[str] = set()
    for c in cards:
        out |= deck.dessert(c).tastes
    return frozenset(out)


def satisfies(deck: Any, cards: tuple[str, ...], guest: str) -> bool:
    """jd23.satisfy.tastes: every craved taste shown, no disliked one."""
    if not cards:
        return False
    g = deck.guest(guest)
    shown = tastes_of(deck, cards)
    return g.wants <= shown and not (g.refuses & shown)


def nothing_to_spare(deck: Any, cards: tuple[str, ...], guest: str) -> bool:
    """Leave any one card out and the guest is no longer satisfied (jd23.ruling.spare-desserts = minimal)."""
    return all(not satisfies(deck, cards[:i] + cards[i + 1:], guest) for i in range(len(cards)))


def choices(hand: tuple[str, ...], size: int) -> set[tuple[str, ...]]:
    """Every sub-multiset of the hand with ``size`` cards."""
    return {_ms(c) for c in itertools.combinations(hand, size)}


def satisfying(t: Table, seat: int, guest: str | None = None) -> frozenset[tuple[str, ...]]:
    """Every one to three cards of the seat's hand that satisfy the guest (any card to spare)."""
    return _satisfying(t.deck, t.hands[seat], guest or t.guest)


@lru_cache(maxsize=1 << 15)
def _satisfying(deck: Any, hand: tuple[str, ...], guest: str) -> frozenset[tuple[str, ...]]:
    return frozenset(c for k in range(1, MOST_PER_SERVING + 1) for c in choices(hand, k) if satisfies(deck, c, guest))


def can_serve(t: Table, seat: int) -> bool:
    """The hand holds a serving (whatever jd23.ruling.spare-desserts says: a serving with cards to
    spare holds one without)."""
    return bool(satisfying(t, seat))


def servings(t: Table, seat: int) -> set[tuple[str, ...]]:
    """The servings the text and jd23.ruling.spare-desserts allow the seat."""
    out = satisfying(t, seat)
    if alt(t.setup, SPARE) == "minimal":
        out = _minimal(t.deck, out, t.guest)
    return set(out)


@lru_cache(maxsize=1 << 15)
def _minimal(deck: Any, found: frozenset[tuple[str, ...]], guest: str) -> frozenset[tuple[str, ...]]:
    return frozenset(c for c in found if nothing_to_spare(deck, c, guest))


def favourites_in(t: Table, cards: tuple[str, ...], guest: str | None = None) -> set[str]:
    return set(cards) & set(t.deck.guest(guest or t.guest).favorites)


def earns_card(t: Table, cards: tuple[str, ...], guest: str | None = None) -> bool:
    """The serving gives the guest its Favorite (jd23.favourite.extra-card) as
    jd23.ruling.favourite-with-others reads it."""
    if not favourites_in(t, cards, guest):
        return False
    return alt(t.setup, WITH_OTHERS) == "counts" or len(cards) == 1


def favourite_servings(t: Table, seat: int) -> set[tuple[str, ...]] | None:
    """The seat's servings with the guest's Favorite, for the trump (jd23.call.favourite-trump).
    Under favourite-with-others = alone-only "a serving with the Favorite" may mean one that holds
    it or one that earns the card with it; None where the two readings differ (nothing checked)."""
    holding = {c for c in servings(t, seat) if favourites_in(t, c)}
    earning = {c for c in holding if earns_card(t, c)}
    return holding if holding == earning else None


def holders(t: Table, seats: tuple[int, ...]) -> tuple[int, ...] | None:
    """Which of these seats hold a Favorite serving; None where the readings differ for one of them."""
    out = []
    for s in seats:
        favs = favourite_servings(t, s)
        if favs is None:
            return None
        if favs:
            out.append(s)
    return tuple(out)


def settle(rules: Any, state: Any, limit: int = 64) -> Any:
    """Follow the chance events that finish a round (penalty cards, draws), first outcome each
    time, up to the next guest, a seat's decision or the end (the counts checked here do not
    depend on which card comes up)."""
    s = state
    for _ in range(limit):
        outs = chance(rules, s)
        if not outs or outs[0][0].kind not in ("draw", "penalty"):
            return s
        s = rules.apply(s, outs[0][2])
    return s


def follow_forced(rules: Any, state: Any, limit: int = 16) -> tuple[Any, str | None]:
    """Play the answers to a trump (each the asked seat's only move) until somebody serves or a
    race is due; (state, problem) where the answers were not forced."""
    s = state
    for _ in range(limit):
        if table(rules, s).phase not in (TRUMP, COUNTER):
            return s, None
        moves = seat_moves(rules, s)
        if len(moves) != 1:
            return s, f"the answer to a trump is not forced: {[str(m) for _, m in moves]}"
        s = rules.apply(s, moves[0][1])
    return s, "the trump answers never end"


def server_of(rules: Any, state: Any) -> int | None:
    """The seat about to serve (its moves are servings or a failure), else None."""
    moves = seat_moves(rules, state)
    if moves and all(m.kind in ("serve", "fail") for m, _ in moves):
        return rules.to_move(state)
    return None


def race_seats(rules: Any, state: Any) -> tuple[set[int], bool] | None:
    """(seats that may be first, whether a truly simultaneous call may happen) at a race, else None."""
    outs = chance(rules, state)
    if not outs or not all(m.kind in ("first", "simultaneous") for m, _, _ in outs):
        return None
    return {m.seat for m, _, _ in outs if m.kind == "first"}, any(m.kind == "simultaneous" for m, _, _ in outs)


def taker_for(t: Table, seat: int) -> int | None:
    """jd23.ruling.penalty-taker: who takes the card of mistaken caller ``seat`` (None: strict)."""
    choice = alt(t.setup, TAKER)
    if choice == "maitre-d" and seat != MAITRE_D:
        return MAITRE_D
    if choice in ("maitre-d", "next-seat"):
        return (seat + 1) % t.n
    return None


def everyone_draws(t: Table) -> int:
    """Cards each player draws when the guest leaves hungry (jd23.draw.guest-leaves-hungry):
    one, unless the Kitchen is closed or the pile is too short for everyone (jd23.kitchen.closes)."""
    return 1 if not t.closed and len(t.pile) >= t.n else 0


def hungry_result(rules: Any, before: Table, end: Any, payers: dict[int, int]) -> Problem:
    """After a guest left unserved and the round is finished (``end``): each payer lost its penalty
    card(s), placed as jd23.ruling.penalty-pile says; every player drew as :func:`everyone_draws`
    says; nobody collected; the Kitchen closed when the pile was short."""
    a = table(rules, end)
    d = everyone_draws(before)
    for s in range(before.n):
        want = len(before.hands[s]) - payers.get(s, 0) + d
        if len(a.hands[s]) != want:
            return f"seat {s} holds {len(a.hands[s])} desserts after the guest left hungry, the text says {want}"
        if a.collected[s] != before.collected[s]:
            return f"seat {s} collected a guest that left hungry"
    pile = alt(before.setup, PILE)
    for s in range(before.n):
        gain = len(a.dishes[s]) - len(before.dishes[s])
        want = 0
        for payer, k in payers.items():
            if pile == "caller" and payer == s or pile == "taker" and taker_for(before, payer) == s:
                want += k
        if gain != want:
            return f"seat {s}'s dirty dishes grew by {gain} for the penalties, {pile} reading says {want}"
    if pile == "out-of-play" and len(a.floor) - len(before.floor) != sum(payers.values()):
        return "penalty cards out of play do not match the penalties paid"
    if d == 0 and not a.closed:
        return f"the pile held {len(before.pile)} desserts for {before.n} players and the Kitchen stayed open"
    return None


def favourite_cards_due(t: Table, cards: tuple[str, ...]) -> int | None:
    """Extra cards a serving earns (jd23.favourite.extra-card, jd23.ruling.two-favourites,
    jd23.ruling.favourite-with-others); None where strict must raise a gap."""
    if not earns_card(t, cards):
        return 0
    favs = favourites_in(t, cards)
    if len(favs) < 2:
        return 1
    choice = alt(t.setup, TWO_FAVS)
    return None if choice == "strict" else (len(favs) if choice == "card-per-favourite" else 1)
