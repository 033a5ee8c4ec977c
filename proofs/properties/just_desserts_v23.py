"""Just Desserts, rules version 2.3 (spec/just_desserts_v23.toml) as properties of the text.

Everything here is read off the rulebook, apart from the model's code path: states are read
only through ``state_vars`` (and ``observation``, ``to_move``, ``legal_moves``,
``chance_outcomes``, ``apply``, ``illegal_reason``, ``outcome``, ``parse_move``), moves only
through their text, and whether desserts satisfy a guest is worked out here from the tastes
printed on the deck's cards.  Where the text is silent a registered ruling decides; a property
takes the chosen alternative from ``setup.options`` (by ruling id) with the meaning the spec
writes for it, and leaves out (``applies=``) the alternatives that deliberately read a clause
otherwise.

Several properties look a few steps ahead: the end of a round is decided by one move (the last
pass, the tie, the last failure, a serving) and finished by chance events (penalty cards, draws)
whose counts do not depend on which card comes up, so :func:`settle` follows the first outcome of
each until the next guest is due and the property compares the two ends.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable

from tablerules.model.core import CHANCE, TERMINAL, RuleGap, SetupError, parse_options

from . import Example, Problem, Property, chosen

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


# --------------------------------------------------------------------------- reading a state


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


# --------------------------------------------------------------------------- reading a move


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


# --------------------------------------------------------------------------- tastes (from the cards)


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


# --------------------------------------------------------------------------- looking ahead


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


# --------------------------------------------------------------------------- jd23.setup.*


def deal_before_first_guest(rules: Any, state: Any) -> Problem:
    """jd23.setup.deal-five: until the first guest, only chance acts, dealing from the pile to hands
    of at most five, and no guest is turned up before every hand holds five."""
    t = table(rules, state)
    if not t.before_first_guest() or rules.to_move(state) is TERMINAL:
        return None
    if rules.to_move(state) is not CHANCE:
        return f"seat {rules.to_move(state)} acts before the deal is over"
    if any(len(h) > HAND for h in t.hands) or any(t.dishes) or t.floor:
        return f"hands {[len(h) for h in t.hands]} during the deal (five each), or desserts already used"
    for m, _, _ in chance(rules, state):
        if m.kind == "draw" and len(t.hands[m.seat]) >= HAND:
            return f"seat {m.seat} is dealt a sixth dessert"
        if m.kind == "turn-up" and any(len(h) != HAND for h in t.hands):
            return f"a guest is turned up with hands {[len(h) for h in t.hands]}"
        if m.kind not in ("draw", "turn-up"):
            return f"{m.kind} during the deal"
    return None


def deal_five_at_first_guest(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.setup.deal-five: when the first guest is turned up, every player holds exactly five."""
    t = table(rules, state)
    if said(move).kind == "turn-up" and t.before_first_guest() and any(len(h) != HAND for h in t.hands):
        return f"first guest turned up with hands {[len(h) for h in t.hands]}"
    return None


def random_dessert(rules: Any, state: Any) -> Problem:
    """jd23.setup.shuffle: a dessert drawn from the shuffled pile is each card of the pile with
    probability copies / size; a card not in the pile cannot be drawn."""
    outs = [(m, p, mv) for m, p, mv in chance(rules, state) if m.kind == "draw"]
    if not outs:
        return None
    t = table(rules, state)
    seats = {m.seat for m, _, _ in outs}
    if len(seats) != 1:
        return f"one draw is several seats' at once: {sorted(seats)}"
    got = {m.card: p for m, p, _ in outs}
    want = {c: Fraction(k, len(t.pile)) for c, k in Counter(t.pile).items()}
    if got != want:
        return (f"draw odds {dict(sorted(got.items()))}, a shuffled pile of {list(t.pile)} gives "
                f"{dict(sorted(want.items()))}")
    seat = seats.pop()
    for d in t.deck.desserts:
        if d.id not in t.pile and not refused(rules, state, f"seat {seat} draws {d.id}"):
            return f"seat {seat} may draw {d.id}, which is not in the pile"
    for other in range(t.n):
        if other not in t.pending_draws and not refused(rules, state, f"seat {other} draws {t.pile[0]}"):
            return f"seat {other} may draw though it has no dessert due (due: {list(t.pending_draws)})"
    return None


def random_guest(rules: Any, state: Any) -> Problem:
    """jd23.setup.shuffle: the guest turned up from the shuffled guest pile is each guest of the pile
    with equal probability; a guest not in the pile cannot come up."""
    outs = [(m, p) for m, p, _ in chance(rules, state) if m.kind == "turn-up"]
    if not outs:
        return None
    t = table(rules, state)
    got = {m.guest: p for m, p in outs}
    want = {g: Fraction(k, len(t.guest_pile)) for g, k in Counter(t.guest_pile).items()}
    if got != want:
        return f"turn-up odds {got}, a shuffled guest pile of {list(t.guest_pile)} gives {want}"
    for g in t.deck.guests:
        if g.id not in t.guest_pile and not refused(rules, state, f"turn up {g.id}"):
            return f"guest {g.id} may be turned up though not in the guest pile"
    return None


def desserts_conserved(rules: Any, state: Any) -> Problem:
    """jd23.setup.shuffle (one dessert deck): every dessert card is in exactly one place: the pile,
    a hand, a dirty-dish pile, set aside by the closed Kitchen, or out of play (penalty-pile =
    out-of-play only)."""
    t = table(rules, state)
    seen = Counter(t.pile) + Counter(t.set_aside) + Counter(t.floor)
    for zone in (*t.hands, *t.dishes):
        seen += Counter(zone)
    if seen != Counter(t.deck.dessert_cards()):
        want = Counter(t.deck.dessert_cards())
        return f"desserts out of balance: extra {dict(seen - want)}, missing {dict(want - seen)}"
    if t.floor and alt(t.setup, PILE) != "out-of-play":
        return f"desserts out of play {list(t.floor)} though penalty cards land on a dirty-dish pile"
    if t.set_aside and not t.closed:
        return "desserts set aside while the Kitchen is open"
    return None


def guests_conserved(rules: Any, state: Any) -> Problem:
    """jd23.setup.shuffle (one guest deck): every guest card is in the guest pile, the discards, on
    the table or collected by exactly one player."""
    t = table(rules, state)
    seen = Counter(t.guest_pile) + Counter(t.discards) + Counter([t.guest] if t.guest else [])
    for c in t.collected:
        seen += Counter(c)
    if seen != Counter(t.deck.guest_cards()):
        want = Counter(t.deck.guest_cards())
        return f"guests out of balance: extra {dict(seen - want)}, missing {dict(want - seen)}"
    return None


def maitre_d_answers(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.setup.maitre-d: running the guest pile, the Maitre D' still plays: no round gets past
    its answers before the Maitre D' has answered too."""
    t, a = table(rules, state), table(rules, nxt)
    if t.phase == ANSWER and a.phase != ANSWER:
        answered = list(t.answers)
        answered[rules.to_move(state)] = str(move)
        if answered[MAITRE_D] not in ("call", "pass", "favourite"):
            return "the round went on without the Maitre D's answer"
    return None


def maitre_d_takes(rules: Any, state: Any) -> Problem:
    """jd23.setup.maitre-d with jd23.ruling.penalty-taker = maitre-d: the Maitre D' takes every
    other player's penalty card, and its own goes to the next seat."""
    for m, _, _ in chance(rules, state):
        if m.kind == "penalty":
            want = MAITRE_D if m.seat != MAITRE_D else (MAITRE_D + 1) % state.setup.players
            if m.taker != want:
                return f"seat {m.taker} takes seat {m.seat}'s penalty card, the Maitre D' reading says seat {want}"
    return None


# --------------------------------------------------------------------------- the round


def turn_up_between_rounds(rules: Any, state: Any) -> Problem:
    """jd23.round.turn-up-guest: one guest at a time: with a guest on the table no other is turned
    up and nobody draws; with none (and the game on) only chance acts, turning one up or dealing."""
    actor = rules.to_move(state)
    if actor is TERMINAL:
        return None
    t = table(rules, state)
    kinds = {m.kind for m, _, _ in chance(rules, state)}
    if t.guest is not None and kinds & {"turn-up", "draw"}:
        return f"{sorted(kinds)} while guest {t.guest} is on the table"
    if t.guest is None and not (actor is CHANCE and kinds and kinds <= {"turn-up", "draw"}):
        return f"with no guest on the table the next event is {actor!r} {sorted(kinds)}, not a turn-up or a draw"
    if t.guest is not None:
        for g in t.guest_pile[:1]:
            if not refused(rules, state, f"turn up {g}"):
                return f"guest {g} may be turned up while {t.guest} is on the table"
        for c in t.pile[:1]:
            if not refused(rules, state, f"seat 0 draws {c}"):
                return f"a dessert may be drawn while {t.guest} is on the table"
    elif kinds == {"turn-up"}:
        if t.pile and not refused(rules, state, f"seat 0 draws {t.pile[0]}"):
            return "a dessert may be drawn when the next guest is due"
        if not refused(rules, state, "simultaneous") or not refused(rules, state, "first 0"):
            return "a race may be run with no guest on the table"
        if t.hands[0] and not refused(rules, state, f"seat 1 takes {t.hands[0][0]} from seat 0"):
            return "a penalty may be paid with no guest on the table"
    return None


def turn_up_reveals(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.round.turn-up-guest: the guest turned up leaves the guest pile, is on the table for all
    to see, and every player now owes an answer; no dessert moves."""
    m = said(move)
    if m.kind != "turn-up":
        return None
    t, a = table(rules, state), table(rules, nxt)
    if a.guest != m.guest:
        return f"turned up {m.guest} but the table shows {a.guest}"
    if (a.hands, a.dishes, a.pile, a.collected) != (t.hands, t.dishes, t.pile, t.collected):
        return "a dessert or a collected guest moved when a guest was turned up"
    for s in range(t.n):
        if rules.observation(nxt, s).get("guest") != m.guest:
            return f"seat {s} does not see the guest turned up"
    if rules.to_move(nxt) is TERMINAL:
        return None  # jd23.ruling.guest-pile-empty = at-last-turn-up: the game ended at once
    if Counter(t.guest_pile) - Counter(a.guest_pile) != Counter([m.guest]) and not (a.reshuffled and not t.reshuffled):
        return f"guest pile {list(t.guest_pile)} -> {list(a.guest_pile)} on turning up {m.guest}"
    if a.answers != ("",) * t.n or {k.kind for k, _ in seat_moves(rules, nxt)} != {"call", "pass"}:
        return f"after the turn-up the answers are {a.answers}, every player should owe one"
    return None


# --------------------------------------------------------------------------- calls and passes


def answer_is_call_or_pass(rules: Any, state: Any) -> Problem:
    """jd23.call.got-it: asked about the guest, a player calls or passes, and may call without a
    serving in hand (a call is a claim); nothing else is allowed."""
    t = table(rules, state)
    if t.phase != ANSWER or t.guest is None:
        return None
    seat = rules.to_move(state)
    kinds = sorted(m.kind for m, _ in seat_moves(rules, state))
    if kinds != ["call", "pass"]:
        return f"seat {seat} may {kinds}, the text gives call or pass"
    if refused(rules, state, "call"):
        return f"seat {seat} may not call (able to serve: {can_serve(t, seat)})"
    if not refused(rules, state, "fail"):
        return "a failure is allowed before anyone is first"
    for cards in sorted(satisfying(t, seat))[:1]:
        if not refused(rules, state, serve_text(cards)):
            return "a serving is allowed before the calls are settled"
    return None


def answers_are_public(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.call.got-it: each player answers once per round, out loud: the answer is recorded for
    that player and every player sees it; answering moves no card; the round goes on only when
    all have answered."""
    t = table(rules, state)
    if t.phase != ANSWER or said(move).kind not in ("call", "pass"):
        return None
    seat, a = rules.to_move(state), table(rules, nxt)
    if t.answers[seat] != "":
        return f"seat {seat} answers twice"
    if (a.hands, a.dishes, a.collected) != (t.hands, t.dishes, t.collected):
        return "an answer moved a card"
    missing = t.answers.count("")
    if missing > 1:
        if a.phase != ANSWER or a.guest != t.guest or a.answers[seat] != str(move):
            return f"seat {seat}'s answer is not recorded, or the round went on with {missing - 1} answers missing"
        if any(a.answers[s] != t.answers[s] for s in range(t.n) if s != seat):
            return "another player's answer changed"
        for s in range(t.n):
            if rules.observation(nxt, s).get("answers", [None] * t.n)[seat] != str(move):
                return f"seat {s} did not hear seat {seat}'s {move}"
    elif a.phase == ANSWER and a.guest == t.guest:
        return "every player answered and the round does not go on"
    return None


def pass_always_allowed(rules: Any, state: Any) -> Problem:
    """jd23.call.pass: a player may pass, even holding a serving."""
    t = table(rules, state)
    if t.phase == ANSWER and t.guest is not None and refused(rules, state, "pass"):
        return f"seat {rules.to_move(state)} may not pass (able to serve: {can_serve(t, rules.to_move(state))})"
    return None


def contest_after_answers(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.call.first-serves: once all have answered, a lone caller serves (nobody to race), and
    several callers race to be first."""
    t = table(rules, state)
    if t.phase != ANSWER or t.answers.count("") != 1 or said(move).kind not in ("call", "pass", "favourite"):
        return None
    seat = rules.to_move(state)
    claims = {s for s in t.callers() if t.answers[s] == "favourite"} | ({seat} if said(move).kind == "favourite"
                                                                          else set())
    # a Favorite claimed in place of a call goes ahead of every plain call (favourite-trump = favourite-call)
    callers = claims or set(t.callers()) | ({seat} if said(move).kind == "call" else set())
    if len(callers) == 1:
        if server_of(rules, nxt) not in callers:
            return f"lone caller {sorted(callers)} is not the one to serve"
    elif len(callers) >= 2:
        race = race_seats(rules, nxt)
        if race is None or race[0] != callers:
            return f"callers {sorted(callers)} do not race (first outcomes {race and sorted(race[0])})"
    return None


def race_contenders(rules: Any, state: Any) -> Problem:
    """jd23.call.first-serves: any caller still in contention may have called first, and nobody
    else; after several Favorites trumped a call (jd23.ruling.favourite-trump), only those race."""
    race = race_seats(rules, state)
    if race is None:
        return None
    t = table(rules, state)
    first, _ = race
    want: tuple[int, ...] | None = t.live()
    if t.trumped:
        want = holders(t, t.live())
        if want is None:
            return None
    if first != set(want) or len(want) < 2:
        return f"seats {sorted(first)} may be first, contenders are {list(want)}"
    for s in range(t.n):
        if s not in want and not refused(rules, state, f"first {s}"):
            return f"seat {s} may be first without contending"
    return None


def winner_serves(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.call.first-serves: the caller who was first serves, unless a Favorite trumps the call
    (favourite-caller-first: another contender holds a Favorite serving and the first does not;
    that case is jd23.call.favourite-trump's)."""
    m = said(move)
    if m.kind != "first":
        return None
    t = table(rules, state)
    if not t.trumped and alt(t.setup, TRUMP_RULING) == "favourite-caller-first":
        h = holders(t, t.live())
        if h is None or (h and m.seat not in h):
            return None
    after, problem = follow_forced(rules, nxt)
    if problem:
        return problem
    if server_of(rules, after) != m.seat:
        return f"seat {m.seat} was first, yet {rules.to_move(after)!r} is to serve"
    return None


def server_is_live_caller(rules: Any, state: Any) -> Problem:
    """jd23.call.first-serves: only a player who called, and has not failed, serves, and the table
    records it as the one who called first; before a race is decided nobody is recorded first."""
    seat = server_of(rules, state)
    first = rules.state_vars(state)["first"]
    if seat is not None:
        if seat not in table(rules, state).live():
            return f"seat {seat} is to serve without a standing call"
        if first != seat:
            return f"seat {seat} serves and the table records {first} as first"
    elif table(rules, state).phase in (DEAL, TURN_UP, ANSWER, RACE, PENALTY, DRAW, OVER) and first != -1:
        return f"seat {first} is recorded first in phase {table(rules, state).phase}, before any race is decided"
    return None


# --------------------------------------------------------------------------- the Favorite's trump


def trumper_serves(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.call.favourite-trump (favourite-caller-first): a first caller without a Favorite serving
    is trumped by the other contender holding one; several such race among themselves; after
    that race its winner serves."""
    m = said(move)
    if m.kind != "first":
        return None
    t = table(rules, state)
    if t.trumped:
        after, problem = follow_forced(rules, nxt)
        if problem or server_of(rules, after) != m.seat:
            return problem or f"trumper {m.seat} won the race and does not serve"
        return None
    h = holders(t, t.live())
    if h is None or not h or m.seat in h:
        return None
    after, problem = follow_forced(rules, nxt)
    if problem:
        return problem
    if len(h) == 1:
        if server_of(rules, after) != h[0]:
            return f"seat {h[0]} trumps first caller {m.seat} with a Favorite, yet {rules.to_move(after)!r} serves"
        return None
    race = race_seats(rules, after)
    if race is None or race[0] != set(h):
        return f"trumpers {list(h)} should race, got {race and sorted(race[0])}"
    return None


def favourite_must_be_served(rules: Any, state: Any) -> Problem:
    """jd23.call.favourite-trump (favourite-caller-first): while other callers contend, a server
    holding a Favorite serving must serve one, and a server holding none serves only when no
    contender holds one."""
    seat = server_of(rules, state)
    if seat is None:
        return None
    t = table(rules, state)
    live = t.live()
    if len(live) < 2:
        return None
    h = holders(t, live)
    if h is None:
        return None
    if h and seat not in h:
        return f"seat {seat} serves without a Favorite while seats {list(h)} hold one"
    if seat in h:
        got = {m.cards for m, _ in seat_moves(rules, state) if m.kind == "serve"}
        want = favourite_servings(t, seat)
        if got != want:
            return (f"seat {seat} holds a Favorite while others called: may serve {sorted(got)}, the reading says "
                    f"{sorted(want)}")
    return None


def trump_answers_forced(rules: Any, state: Any) -> Problem:
    """jd23.call.favourite-trump (favourite-caller-first): asked whether it holds a Favorite serving,
    a contender answers truthfully, and only a contender is asked."""
    t = table(rules, state)
    if t.phase not in (TRUMP, COUNTER):
        return None
    seat = rules.to_move(state)
    if seat not in t.live():
        return f"seat {seat} is asked about a Favorite without a standing call"
    favs = favourite_servings(t, seat)
    if favs is None:
        return None
    got = [str(m) for _, m in seat_moves(rules, state)]
    want = ["favourite"] if favs else ["pass"]
    return None if got == want else f"seat {seat} may answer {got} to the trump, holding {sorted(favs)}"


def trump_asks_only_others(rules: Any, state: Any) -> Problem:
    """jd23.call.favourite-trump: the first caller serves unless *someone else* trumps the call
    with a Favorite, so while a trump is asked the first caller is never the one asked."""
    t = table(rules, state)
    if t.phase != TRUMP:
        return None
    first = rules.state_vars(state)["first"]
    if first is None or first < 0:
        return None
    if rules.to_move(state) == first or (first < len(t.trumps) and t.trumps[first] == ""):
        return f"seat {first} called first and is asked whether it trumps its own call"
    return None


def strict_trump_gap(rules: Any, state: Any) -> Problem:
    """jd23.call.favourite-trump, strict: the text never explains the trump, so a race among several
    contenders one of whom holds a Favorite serving is a gap, and no other race is."""
    t = table(rules, state)
    if t.phase != RACE or t.trumped:
        return None
    h = holders(t, t.live())
    if h is None:
        return None
    try:
        rules.chance_outcomes(state)
    except RuleGap:
        return None if h else "a race without any Favorite serving raises the trump gap"
    return f"contenders {list(h)} hold a Favorite serving and the race raises no gap" if h else None


def no_trump_first_serves(rules: Any, state: Any) -> Problem:
    """jd23.call.favourite-trump, no-trump (departs from the clause on purpose) and strict (which
    stops where the trump would be needed): nobody is ever asked about a Favorite."""
    t = table(rules, state)
    if t.phase in (TRUMP, COUNTER) or t.trumped:
        return f"a trump is asked for (phase {t.phase}) under no-trump"
    return None


# --------------------------------------------------------------------------- where the text is silent (strict)


def gaps(rules: Any, state: Any) -> list[tuple[Any, RuleGap]]:
    """Every RuleGap raised here: (None, gap) when asking for the chance outcomes raises, else
    (move, gap) for each move or outcome whose application raises."""
    def compute() -> list[tuple[Any, RuleGap]]:
        actor = rules.to_move(state)
        if actor is TERMINAL:
            return []
        if actor is CHANCE:
            try:
                moves = [m for m, _ in rules.chance_outcomes(state)]
            except RuleGap as g:
                return [(None, g)]
        else:
            moves = list(rules.legal_moves(state))
        out = []
        for m in moves:
            try:
                rules.apply(state, m)
            except RuleGap as g:
                out.append((m, g))
        return out
    return _memo("gaps", rules.apply, state, compute)


def contenders_after(rules: Any, state: Any, move: Any) -> tuple[int, ...]:
    """Who contends for the guest once ``move`` is played: the callers when the last answer comes
    in, the other standing callers after a failure, else those standing now."""
    t = table(rules, state)
    m = said(move) if move is not None else Said("none")
    seat = rules.to_move(state)
    if t.phase == ANSWER and m.kind in ("call", "pass"):
        return tuple(sorted(set(t.callers()) | ({seat} if m.kind == "call" else set())))
    if m.kind == "fail":
        return tuple(s for s in t.live() if s != seat)
    return t.live()


def _trump_question(rules: Any, state: Any, move: Any) -> bool:
    """jd23.ruling.favourite-trump's question arises: several contenders, one holding a Favorite."""
    t = table(rules, state)
    if t.trumped:
        return False
    who = contenders_after(rules, state, move)
    h = holders(t, who)
    return h is None or (len(who) >= 2 and bool(h))


def _two_favourites_question(rules: Any, state: Any, move: Any) -> bool:
    m = said(move) if move is not None else Said("none")
    t = table(rules, state)
    return m.kind == "serve" and earns_card(t, m.cards) and len(favourites_in(t, m.cards)) >= 2


def _taker_question(rules: Any, state: Any, move: Any) -> bool:
    return (
        any(m.kind == "penalty" for m in ([said(move)] if move is not None else []))
        or table(rules, state).phase == PENALTY
    )


def _empty_hand_question(rules: Any, state: Any, move: Any) -> bool:
    """A mistaken caller with no card must pay: the last standing caller failed, or (penalty)
    a tie included a caller who cannot serve."""
    m = said(move) if move is not None else Said("none")
    t = table(rules, state)
    if m.kind == "fail":
        return set(t.live()) == {rules.to_move(state)} and any(not t.hands[c] for c in t.callers())
    if m.kind == "simultaneous":
        return any(not t.hands[c] for c in t.live() if not can_serve(t, c))
    return False


def _nothing_left_question(rules: Any, state: Any, move: Any) -> bool:
    """The guest pile runs out the first time with no discarded guest to shuffle."""
    t = table(rules, state)
    m = said(move) if move is not None else Said("none")
    if t.reshuffled or t.discards:
        return False
    if m.kind == "turn-up":
        return t.guest_pile == (m.guest,) and alt(t.setup, GUEST_EMPTY) == "at-last-turn-up"
    return not t.guest_pile and (t.guest is None or m.kind == "serve")


def _kitchen_question(rules: Any, state: Any, move: Any) -> bool:
    m = said(move) if move is not None else Said("none")
    t = table(rules, state)
    return m.kind == "serve" and bool(favourite_cards_due(t, m.cards)) and not t.closed and len(t.pile) < t.n


def _tie_question(rules: Any, state: Any, move: Any) -> bool:
    t = table(rules, state)
    return move is not None and said(move).kind == "simultaneous" and any(not can_serve(t, c) for c in t.live())


def gaps_only_where_silent(ruling_id: str, question: Callable[[Any, Any, Any], bool]) -> Callable[[Any, Any], Problem]:
    """A ruling's gap: its strict alternative raises it exactly where its question arises (here,
    the direction "only there"; the properties of the clause check that the answer is given
    elsewhere), and its other alternatives never raise it."""
    def check(rules: Any, state: Any) -> Problem:
        choice = alt(state.setup, ruling_id)
        for move, gap in gaps(rules, state):
            if gap.ruling != ruling_id:
                continue
            if choice != "strict":
                return f"{ruling_id} = {choice} decides, yet {move} raises its gap: {gap.detail}"
            if not question(rules, state, move):
                return f"strict {ruling_id} raises a gap on {move} where its question does not arise: {gap.detail}"
        return None
    check.__doc__ = f"{ruling_id}: gaps only under strict, and only where the question arises."
    return check


# --------------------------------------------------------------------------- servings


def _serve_moves(rules: Any, state: Any) -> set[tuple[str, ...]]:
    return {m.cards for m, _ in seat_moves(rules, state) if m.kind == "serve"}


def servings_satisfy(rules: Any, state: Any) -> Problem:
    """jd23.satisfy.tastes: every serving allowed gives the guest each taste it craves and none it
    dislikes, from the server's own hand."""
    seat = server_of(rules, state)
    if seat is None:
        return None
    t = table(rules, state)
    for cards in _serve_moves(rules, state):
        if not satisfies(t.deck, cards, t.guest):
            return (f"seat {seat} may serve {'+'.join(cards)}: tastes {sorted(tastes_of(t.deck, cards))}, guest wants "
                    f"{sorted(t.deck.guest(t.guest).wants)} refuses {sorted(t.deck.guest(t.guest).refuses)}")
    return None


def satisfying_servings_allowed(rules: Any, state: Any) -> Problem:
    """jd23.satisfy.tastes: every one to three cards of the hand that satisfy the guest may be
    served (jd23.ruling.spare-desserts: with no card to spare under minimal; only Favorite servings
    when the trump binds the server); none that fails to satisfy may."""
    seat = server_of(rules, state)
    if seat is None:
        return None
    t = table(rules, state)
    allowed = servings(t, seat)
    exact = True
    if t.answers[seat] == "favourite":  # favourite-trump = favourite-call: who claimed a Favorite serves one
        favs = favourite_servings(t, seat)
        if favs is None:
            return None
        allowed = favs
    elif alt(t.setup, TRUMP_RULING) == "favourite-caller-first":
        favs = favourite_servings(t, seat)
        if favs is None:
            return None
        if favs and len(t.live()) >= 2:
            allowed = favs
        elif favs and len(t.callers()) >= 2:
            allowed, exact = favs, False  # others called but failed: "while others called" reads either way
    got = _serve_moves(rules, state)
    missing = allowed - got
    if missing:
        return f"seat {seat} may not serve {sorted(missing)}, which the text allows"
    if exact and got != allowed:
        return f"seat {seat} may serve {sorted(got - allowed)}, which the text does not allow"
    for k in range(1, MOST_PER_SERVING + 1):
        for cards in choices(t.hands[seat], k):
            ok = cards in allowed
            if exact and refused(rules, state, serve_text(cards)) == ok:
                return f"serve {'+'.join(cards)}: illegal_reason disagrees with the text (allowed: {ok})"
    return None


def one_to_three_cards(rules: Any, state: Any) -> Problem:
    """jd23.serve.one-to-three: a serving is one to three desserts; four never, even if they satisfy."""
    seat = server_of(rules, state)
    if seat is None:
        return None
    t = table(rules, state)
    for cards in _serve_moves(rules, state):
        if not 1 <= len(cards) <= MOST_PER_SERVING:
            return f"seat {seat} may serve {len(cards)} desserts"
    for cards in sorted(choices(t.hands[seat], MOST_PER_SERVING + 1))[:6]:
        if satisfies(t.deck, cards, t.guest) and not refused(rules, state, serve_text(cards)):
            return f"seat {seat} may serve four desserts {'+'.join(cards)}"
    return None


def fail_only_without_serving(rules: Any, state: Any) -> Problem:
    """jd23.call.erroneous-covered: a caller who turns out not to have a serving says so (fails); a
    caller holding one cannot fail but serves."""
    seat = server_of(rules, state)
    if seat is None:
        return None
    t = table(rules, state)
    able = can_serve(t, seat)
    kinds = {m.kind for m, _ in seat_moves(rules, state)}
    if able and ("fail" in kinds or not refused(rules, state, "fail")):
        return f"seat {seat} holds a serving and may fail"
    if not able and (kinds != {"fail"} or refused(rules, state, "fail")):
        return f"seat {seat} holds no serving and may {sorted(kinds)}"
    return None


def serve_from_own_hand(rules: Any, state: Any) -> Problem:
    """jd23.serve.reveal-dirty-dishes: the desserts served come out of the server's own hand."""
    seat = server_of(rules, state)
    if seat is None:
        return None
    t = table(rules, state)
    have = Counter(t.hands[seat])
    for cards in sorted(_serve_moves(rules, state))[:3]:
        for i, c in enumerate(cards):
            for d in t.deck.desserts:
                other = _ms(cards[:i] + cards[i + 1:] + (d.id,))
                if (
                    Counter(other) - have
                    and satisfies(t.deck, other, t.guest)
                    and not refused(rules, state, serve_text(other))
                ):
                    return f"seat {seat} may serve {'+'.join(other)}, not all in its hand {list(t.hands[seat])}"
    return None


def serving_goes_to_dishes(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.serve.reveal-dirty-dishes: the served desserts leave the server's hand for its dirty
    dishes, face up for all to see, and the server keeps the guest; nothing else changes."""
    m = said(move)
    if m.kind != "serve":
        return None
    t, a = table(rules, state), table(rules, nxt)
    seat = rules.to_move(state)
    for s in range(t.n):
        lost, gained = shrunk(t.hands[s], a.hands[s]), grown(t.dishes[s], a.dishes[s])
        got = grown(t.collected[s], a.collected[s])
        if s == seat:
            if lost != Counter(m.cards) or gained != Counter(m.cards) or got != Counter([t.guest]):
                return (f"server {s}: hand lost {dict(lost)}, dishes gained {dict(gained)}, collected {dict(got)}; "
                        f"served {m.cards} to {t.guest}")
            if grown(t.hands[s], a.hands[s]) or shrunk(t.dishes[s], a.dishes[s]):
                return f"server {s}'s hand or dishes changed beyond the serving"
        elif a.hands[s] != t.hands[s] or a.dishes[s] != t.dishes[s] or a.collected[s] != t.collected[s]:
            return f"seat {s} changed when seat {seat} served"
    if a.guest is not None or a.discards != t.discards and not a.reshuffled:
        return "the served guest is still on the table or was discarded"
    for s in range(t.n):
        shown = rules.observation(nxt, s).get("dishes")
        if shown is None or sorted(shown[seat]) != list(a.dishes[seat]):
            return f"seat {s} does not see seat {seat}'s dirty dishes"
    return None


# --------------------------------------------------------------------------- the Favorite's card


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


def favourite_extra_card(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.favourite.extra-card: serving the guest its Favorite draws the server one more dessert,
    and nobody else draws; no Favorite, no card; a closed Kitchen gives nothing
    (jd23.kitchen.closes); a short pile gives what it has (kitchen-check = when-everyone-draws) or
    is a gap (strict)."""
    m = said(move)
    if m.kind != "serve":
        return None
    t = table(rules, state)
    seat = rules.to_move(state)
    due = favourite_cards_due(t, m.cards)
    if due is None:
        return f"two Favorites of {t.guest} served together without the strict gap"
    check = alt(t.setup, KITCHEN)
    if t.closed:
        due = 0
    elif due and check == "strict" and len(t.pile) < t.n:
        # kitchen-check = strict: a RuleGap whenever a Favorite's card is due and the open Kitchen
        # holds fewer desserts than players, an empty pile included (the model raised none for an
        # empty pile until this property found it: 2 players, v23-tiny, the deal, turn up BELLE,
        # pass, pass, both draw the last two desserts, turn up NED, pass, call, serve NUT_BAR+TART).
        return f"a Favorite's card is due from a pile of {len(t.pile)} for {t.n} players without the strict gap"
    due = min(due, len(t.pile))
    end = table(rules, settle(rules, nxt))
    for s in range(t.n):
        want = len(t.hands[s]) - (len(m.cards) if s == seat else 0) + (due if s == seat else 0)
        if len(end.hands[s]) != want:
            return (f"seat {s} holds {len(end.hands[s])} desserts after seat {seat} served {m.cards} to {t.guest}, "
                    f"the text says {want}")
    if check == "whenever-short" and not t.closed:
        short = len(t.pile) - due < t.n
        if end.closed != short:
            return (f"{len(t.pile) - due} desserts left for {t.n} players and the Kitchen is "
                    f"{'closed' if end.closed else 'open'}")
    elif end.closed != t.closed:
        return "serving a guest changed whether the Kitchen is closed"
    return None


# --------------------------------------------------------------------------- how a round ends


def guest_leaves_by_an_ending(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.round.five-endings: a guest leaves the table only in one of the five ways: served (the
    server keeps it), or discarded after all passed, a tie, or every caller mistaken; when it is
    discarded every player then draws a dessert (Kitchen permitting)."""
    t, a = table(rules, state), table(rules, nxt)
    if t.guest is None or a.guest is not None:
        return None
    m = said(move)
    takers = [s for s in range(t.n) if a.collected[s] != t.collected[s]]
    if m.kind == "serve":
        if takers != [rules.to_move(state)]:
            return f"served guest went to seats {takers}"
        return None
    if takers:
        return f"guest {t.guest} collected by seats {takers} without a serving ({move})"
    if m.kind == "pass":
        ok = t.phase == ANSWER and not t.callers() and t.answers.count("") == 1
    elif m.kind == "simultaneous":
        ok = True
    elif m.kind == "fail":
        ok = set(t.live()) == {rules.to_move(state)}
    elif m.kind == "penalty":  # a caller able to serve may have stepped aside under decline-after-call=may-decline
        ok = m.seat in t.callers() and (not can_serve(t, m.seat) or alt(t.setup, DECLINE) == "may-decline")
    else:
        ok = False
    if not ok:
        return f"guest {t.guest} left hungry on {move}, which is none of the five endings"
    if Counter(a.discards) + Counter(a.guest_pile) != Counter(t.discards) + Counter(t.guest_pile) + Counter([t.guest]):
        return f"guest {t.guest} left hungry and is not among the discards"
    return hungry_result(rules, a, settle(rules, nxt), {})


def all_pass(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.round.all-pass: when the last player passes and nobody called, the guest goes hungry at
    once: discarded, nobody pays, every player draws one, and the next guest is due."""
    t = table(rules, state)
    if t.phase != ANSWER or t.callers() or t.answers.count("") != 1 or said(move).kind != "pass":
        return None
    a = table(rules, nxt)
    if a.guest is not None:
        return f"everybody passed and guest {t.guest} is still on the table"
    if a.hands != t.hands or a.dishes != t.dishes:
        return "a card moved when everybody passed"
    end = settle(rules, nxt)
    problem = hungry_result(rules, t, end, {})
    if problem:
        return problem
    if rules.to_move(end) is not TERMINAL and not {m.kind for m, _, _ in chance(rules, end)} == {"turn-up"}:
        return "after everybody passed and drew, the next guest is not due"
    return None


def simultaneous_ends_round(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.call.simultaneous: a truly simultaneous call ends the round: the guest is discarded,
    nobody serves, and every player draws; a tied caller without a serving pays nothing
    (jd23.ruling.simultaneous-mistaken = no-penalty), one card (penalty), or it is a gap (strict)."""
    if said(move).kind != "simultaneous":
        return None
    t = table(rules, state)
    live = t.live()
    unable = [s for s in live if not can_serve(t, s)]
    choice = alt(t.setup, SIMUL_MISTAKEN)
    if unable and choice == "strict":
        return f"tied callers {unable} cannot serve and the tie raises no gap"
    end = settle(rules, nxt)
    payers: dict[int, int] = {}
    if unable and choice == "penalty":
        if len(live) > 2:
            return None  # who of three or more contenders "tied" is not said; checked with two
        if any(not t.hands[s] for s in unable) and alt(t.setup, EMPTY_HAND) == "strict":
            return f"tied callers {unable} pay and one has no card, without the strict gap"
        payers = {s: 1 for s in unable if t.hands[s]}
    if table(rules, end).guest is not None:
        return "the guest is still on the table after a simultaneous call"
    return hungry_result(rules, t, end, payers)


def tie_is_possible(rules: Any, state: Any) -> Problem:
    """jd23.call.simultaneous: whenever several callers race, their calls may be truly simultaneous
    (a lone call cannot be)."""
    race = race_seats(rules, state)
    t = table(rules, state)
    if race is None or t.trumped:
        return None
    if len(race[0]) >= 2 and not race[1]:
        return f"callers {sorted(race[0])} race and cannot tie"
    if len(race[0]) < 2 and race[1]:
        return "a lone caller ties"
    return None


def race_odds(rules: Any, state: Any) -> Problem:
    """jd23.call.simultaneous with jd23.ruling.race-odds: a tie has probability 1/10 and the callers
    share the rest equally (tie-one-in-ten), or each caller and the tie are equally likely (equal)."""
    t = table(rules, state)
    if race_seats(rules, state) is None or t.trumped:
        return None
    outs = chance(rules, state)
    k = sum(1 for m, _, _ in outs if m.kind == "first")
    if alt(t.setup, ODDS) == "equal":
        tie, each = Fraction(1, k + 1), Fraction(1, k + 1)
    else:
        tie, each = Fraction(1, 10), Fraction(9, 10 * k)
    for m, p, _ in outs:
        if p != (tie if m.kind == "simultaneous" else each):
            return f"{m.kind} {m.seat}: probability {p}, the ruling says {tie if m.kind == 'simultaneous' else each}"
    return None


# --------------------------------------------------------------------------- mistaken calls


def covered_by_another_caller(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.call.erroneous-covered: when a caller fails and another caller still stands, nobody pays
    and no card moves; the other caller serves (several race)."""
    if said(move).kind != "fail":
        return None
    t, a = table(rules, state), table(rules, nxt)
    seat = rules.to_move(state)
    rest = tuple(s for s in t.live() if s != seat)
    if not rest:
        return None
    if (a.hands, a.dishes, a.floor, a.collected) != (t.hands, t.dishes, t.floor, t.collected) or a.guest != t.guest:
        return f"seat {seat} failed, another caller stands, and cards moved or the guest left"
    if seat in a.live():
        return f"seat {seat} failed and still contends"
    if chance(rules, nxt) and any(m.kind == "penalty" for m, _, _ in chance(rules, nxt)):
        return "a penalty while another caller can still serve"
    if len(rest) == 1:
        if server_of(rules, nxt) != rest[0]:
            return f"seat {rest[0]} is the other caller and does not serve"
    else:
        race = race_seats(rules, nxt)
        if race is None or race[0] != set(rest):
            return f"the other callers {list(rest)} do not race"
    return None


def penalty_chance(rules: Any, state: Any) -> Problem:
    """jd23.call.erroneous-penalty: only a caller without a serving pays, and (unless the tie is
    penalised: simultaneous-mistaken = penalty) only when every caller failed; another player
    takes the card (jd23.ruling.penalty-taker) at random: each card of the hand with
    probability copies / size."""
    outs = [(m, p) for m, p, _ in chance(rules, state) if m.kind == "penalty"]
    if not outs:
        return None
    t = table(rules, state)
    payer, taker = outs[0][0].seat, outs[0][0].taker
    if any(m.seat != payer or m.taker != taker for m, _ in outs):
        return "one penalty names several payers or takers"
    declined = alt(t.setup, DECLINE) == "may-decline"  # a caller able to serve may have stepped aside
    if payer not in t.callers() or (can_serve(t, payer) and not declined):
        return f"seat {payer} pays a penalty without being a mistaken caller"
    if t.live() and alt(t.setup, SIMUL_MISTAKEN) != "penalty":
        return f"seat {payer} pays while callers {list(t.live())} still stand"
    if taker == payer:
        return f"seat {payer} takes its own penalty card"
    want_taker = taker_for(t, payer)
    if want_taker is not None and taker != want_taker:
        return f"seat {taker} takes the card, {alt(t.setup, TAKER)} says seat {want_taker}"
    got = {m.card: p for m, p in outs}
    want = {c: Fraction(k, len(t.hands[payer])) for c, k in Counter(t.hands[payer]).items()}
    if got != want:
        return f"penalty odds {got}, a random card of {list(t.hands[payer])} gives {want}"
    for s in range(t.n):
        if s != taker and not refused(rules, state, f"seat {s} takes {outs[0][0].card} from seat {payer}"):
            return f"seat {s} may take the penalty card instead of seat {taker}"
    for d in t.deck.desserts:
        if d.id not in t.hands[payer] and not refused(rules, state, f"seat {taker} takes {d.id} from seat {payer}"):
            return f"seat {taker} may take {d.id}, which seat {payer} does not hold"
    for s in range(t.n):
        if (
            s not in t.callers()
            and t.hands[s]
            and not refused(rules, state, f"seat {(s + 1) % t.n} takes {t.hands[s][0]} from seat {s}")
        ):
            return f"seat {s} may pay a penalty without having called"
    return None


def penalty_card_lands(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.call.erroneous-penalty: the card taken leaves the mistaken caller's hand for a dirty-dish
    pile: the caller's, the taker's, or out of play (jd23.ruling.penalty-pile)."""
    m = said(move)
    if m.kind != "penalty":
        return None
    t, a = table(rules, state), table(rules, nxt)
    if shrunk(t.hands[m.seat], a.hands[m.seat]) != Counter([m.card]):
        return f"seat {m.seat}'s hand lost {dict(shrunk(t.hands[m.seat], a.hands[m.seat]))}, penalty card {m.card}"
    pile = alt(t.setup, PILE)
    owner = {"caller": m.seat, "taker": m.taker}.get(pile)
    for s in range(t.n):
        want = Counter([m.card]) if s == owner else Counter()
        if grown(t.dishes[s], a.dishes[s]) != want or shrunk(t.dishes[s], a.dishes[s]):
            return (f"seat {s}'s dirty dishes {list(t.dishes[s])} -> {list(a.dishes[s])}, {pile} reading puts "
                    f"{m.card} on seat {owner}'s")
        if s != m.seat and a.hands[s] != t.hands[s]:
            return f"seat {s}'s hand changed with seat {m.seat}'s penalty"
    if pile == "out-of-play" and grown(t.floor, a.floor) != Counter([m.card]):
        return f"penalty card {m.card} is not out of play"
    return None


def mistaken_callers_pay(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.call.erroneous-penalty: when the last standing caller fails, every caller was mistaken:
    each loses one card from its hand (none to lose: nothing, penalty-empty-hand = no-penalty; a
    gap, strict), the guest goes away, and then all draw, the mistaken callers too."""
    if said(move).kind != "fail":
        return None
    t = table(rules, state)
    seat = rules.to_move(state)
    if set(t.standing()) != {seat}:
        return None
    callers = t.callers()
    if any(not t.hands[s] for s in callers) and alt(t.setup, EMPTY_HAND) == "strict":
        return "a mistaken caller with an empty hand pays and strict raises no gap"
    end = settle(rules, nxt)
    if table(rules, end).guest is not None:
        return "every caller failed and the guest is still on the table"
    return hungry_result(rules, t, end, {s: 1 for s in callers if t.hands[s]})


def several_mistaken_own_dishes(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.reminder.all-mistaken-pay: several callers and nobody delivers: each loses a random card
    onto its own dirty-dish pile (the reminder's wording: penalty-pile = caller)."""
    if said(move).kind != "fail":
        return None
    t = table(rules, state)
    callers = t.callers()
    if set(t.standing()) != {rules.to_move(state)} or len(callers) < 2:
        return None
    end = table(rules, settle(rules, nxt))
    for s in callers:
        if t.hands[s] and len(end.dishes[s]) != len(t.dishes[s]) + 1:
            return f"mistaken caller {s}'s dirty dishes hold {len(end.dishes[s])}, expected {len(t.dishes[s]) + 1}"
        if Counter(end.dishes[s]) - Counter(t.dishes[s]) - Counter(t.hands[s]):
            return f"mistaken caller {s}'s own pile got a card not from its hand"
    return None


# --------------------------------------------------------------------------- drawing and the Kitchen


def hands_grow_only_by_draws(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.draw.guest-leaves-hungry: a hand gains a dessert only by a draw from the pile, one card,
    once the guest has left the table (hungry, or served its Favorite), or in the deal."""
    t, a = table(rules, state), table(rules, nxt)
    growth = {s: grown(t.hands[s], a.hands[s]) for s in range(t.n) if grown(t.hands[s], a.hands[s])}
    if not growth:
        return None
    m = said(move)
    if m.kind != "draw" or list(growth) != [m.seat] or growth[m.seat] != Counter([m.card]):
        return f"hands grew {dict((s, dict(c)) for s, c in growth.items())} on {move}"
    if shrunk(t.pile, a.pile + a.set_aside) != Counter([m.card]):
        return f"seat {m.seat} drew {m.card} and it did not come from the pile"
    if t.guest is not None:
        return f"seat {m.seat} draws while guest {t.guest} is on the table"
    return None


def no_draw_while_guest(rules: Any, state: Any) -> Problem:
    """jd23.draw.guest-leaves-hungry: nobody draws while a guest waits to be served."""
    t = table(rules, state)
    if t.guest is not None and any(m.kind == "draw" for m, _, _ in chance(rules, state)):
        return f"a draw while guest {t.guest} is on the table"
    return None


def no_serving_draw_without_favourite(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.draw.guest-leaves-hungry: a guest served without its Favorite earns nobody a card."""
    m = said(move)
    if m.kind != "serve":
        return None
    t = table(rules, state)
    if earns_card(t, m.cards):
        return None
    end = table(rules, settle(rules, nxt))
    for s in range(t.n):
        if grown(t.hands[s], end.hands[s]):
            return f"seat {s} drew after a serving without a Favorite"
    return None


def closed_kitchen_is_final(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.kitchen.closes: a closed Kitchen stays closed with its pile set aside for good; closing
    sets aside whatever is left, which is fewer desserts than players."""
    t, a = table(rules, state), table(rules, nxt)
    if t.closed:
        if not a.closed or a.set_aside != t.set_aside or a.pile:
            return "the closed Kitchen reopened or its set-aside desserts moved"
        return None
    if not a.closed:
        if a.set_aside != t.set_aside:
            return "desserts set aside while the Kitchen stays open"
        return None
    drawn = sum((grown(t.hands[s], a.hands[s]) for s in range(t.n)), Counter())
    if a.pile or Counter(t.pile) - drawn != grown(t.set_aside, a.set_aside):
        return f"the Kitchen closed: pile {list(t.pile)} -> {list(a.pile)}, set aside {list(a.set_aside)}"
    if len(a.set_aside) - len(t.set_aside) >= t.n:
        return f"the Kitchen closed with {len(a.set_aside)} desserts, enough for {t.n} players"
    return None


def short_pile_closes(rules: Any, state: Any) -> Problem:
    """jd23.kitchen.closes (kitchen-check = whenever-short, the text): between draws, an open
    Kitchen always has a dessert for every player."""
    t = table(rules, state)
    if t.phase in (DEAL, DRAW) or t.closed or len(t.pile) >= t.n:
        return None
    return f"the Kitchen is open with {len(t.pile)} desserts for {t.n} players"


def closes_when_everyone_should_draw(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.kitchen.closes, read by kitchen-check = when-everyone-draws (and strict, whose gap
    presumes a short open pile): the Kitchen closes only when a guest leaves hungry and the pile is
    short for everyone."""
    t, a = table(rules, state), table(rules, nxt)
    if t.closed or not a.closed:
        return None
    hungry = t.guest is not None and a.guest is None and a.collected == t.collected
    if not hungry or len(t.pile) >= t.n:
        return f"the Kitchen closed on {move} with {len(t.pile)} desserts for {t.n} players"
    return None


def nothing_after_closing(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.reminder.closed-kitchen: once the Kitchen has closed nobody gains a dessert, not for a
    hungry guest, not for a Favorite."""
    t, a = table(rules, state), table(rules, nxt)
    if t.closed and any(grown(t.hands[s], a.hands[s]) for s in range(t.n)):
        return f"a hand grew on {move} after the Kitchen closed"
    return None


def closed_kitchen_deals_nothing(rules: Any, state: Any) -> Problem:
    """jd23.reminder.closed-kitchen: a closed Kitchen offers no draw."""
    t = table(rules, state)
    if t.closed and any(m.kind == "draw" for m, _, _ in chance(rules, state)):
        return "a draw is offered after the Kitchen closed"
    return None


# --------------------------------------------------------------------------- the guest pile and the end


def reshuffled_once(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.guests.reshuffle-once: the guest pile is rebuilt once, from the discards, when it runs
    out for the first time (as its last guest is needed again, or is turned up:
    jd23.ruling.guest-pile-empty); nothing to rebuild from ends the game (nothing-to-reshuffle)."""
    t, a = table(rules, state), table(rules, nxt)
    if t.reshuffled and not a.reshuffled:
        return "the guest pile forgot it was reshuffled"
    gain = grown(t.guest_pile, a.guest_pile)
    flips = a.reshuffled and not t.reshuffled
    if not gain and not flips:
        return None
    if not flips:
        return f"guests {dict(gain)} came back to the guest pile without the reshuffle, or a second time"
    m = said(move)
    at_last = alt(t.setup, GUEST_EMPTY) == "at-last-turn-up"
    if at_last:
        if m.kind != "turn-up" or t.guest_pile != (m.guest,):
            return f"the guest pile was reshuffled on {move}, not as its last guest was turned up"
        pool = t.discards
    else:
        if t.guest_pile:
            return f"the guest pile was reshuffled with {list(t.guest_pile)} still in it"
        left = [t.guest] if t.guest is not None and a.guest is None and a.collected == t.collected else []
        pool = _ms(t.discards + tuple(left))
    if not pool:
        if alt(t.setup, NOTHING_LEFT) == "strict":
            return "nothing to reshuffle and the strict alternative raises no gap"
        if rules.to_move(nxt) is not TERMINAL:
            return "nothing to reshuffle and the game goes on"
        return None
    if a.guest_pile != pool or a.discards:
        return f"new guest pile {list(a.guest_pile)} (discards {list(a.discards)}), the discards were {list(pool)}"
    return None


def guest_pile_when_needed(rules: Any, state: Any) -> Problem:
    """jd23.guests.reshuffle-once: play never waits on an empty guest pile: when the next guest is
    due there is one (at-next-turn-up), and the pile is never empty while the game goes on
    (at-last-turn-up: it is rebuilt, or the game ends, the moment it empties)."""
    t = table(rules, state)
    if rules.to_move(state) is TERMINAL or t.guest_pile:
        return None
    if alt(t.setup, GUEST_EMPTY) == "at-last-turn-up":
        return "the guest pile is empty and the game goes on"
    if t.phase == TURN_UP:
        return "the next guest is due from an empty guest pile"
    return None


def game_ends_at_second_exhaustion(rules: Any, state: Any) -> Problem:
    """jd23.end.second-exhaustion: the game is over exactly when the guest pile has run out the
    second time (the reshuffle behind it, the pile empty); only then is there a result and no move;
    at-next-turn-up plays the last guest out, at-last-turn-up leaves it on the table unplayed."""
    t = table(rules, state)
    over = rules.to_move(state) is TERMINAL
    if over != (rules.outcome(state) is not None):
        return f"to move {rules.to_move(state)!r} with outcome {rules.outcome(state)}"
    if not over:
        return None
    if t.guest_pile or not t.reshuffled:
        return f"game over with {len(t.guest_pile)} guests in the pile (reshuffled: {t.reshuffled})"
    if rules.legal_moves(state):
        return "moves remain after the end"
    at_last = alt(t.setup, GUEST_EMPTY) == "at-last-turn-up"
    if at_last and t.guest is None:
        return "game over at-last-turn-up without the last guest on the table"
    if not at_last and t.guest is not None:
        return f"game over with guest {t.guest} unplayed"
    return None


def ends_at_once(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.end.second-exhaustion (at-last-turn-up): turning up the last guest after the reshuffle
    ends the game at once."""
    m = said(move)
    t = table(rules, state)
    if m.kind == "turn-up" and t.reshuffled and t.guest_pile == (m.guest,) and rules.to_move(nxt) is not TERMINAL:
        return "the guest pile ran out a second time and the game goes on"
    return None


# --------------------------------------------------------------------------- scoring


def standings(t: Table) -> list[tuple[int, int, int]]:
    """Per seat: guests collected, desserts in hand, dirty dishes (jd23.score.*)."""
    return [(len(t.collected[s]), len(t.hands[s]), len(t.dishes[s])) for s in range(t.n)]


def _result(rules: Any, state: Any) -> tuple[Table, Any, list[tuple[int, int, int]]] | None:
    if rules.to_move(state) is not TERMINAL:
        return None
    t = table(rules, state)
    return t, rules.outcome(state), standings(t)


def _best(seats: list[int], key: Callable[[int], int]) -> list[int]:
    top = max(key(s) for s in seats)
    return [s for s in seats if key(s) == top]


def _won_by(out: Any, seats: list[int], what: str, clause: str) -> Problem:
    """``seats`` (one seat) won alone, and the result names the clause that decided it."""
    if out is None or set(out.winners) != set(seats) or out.draw:
        return f"{what}: seat {seats[0]} should win alone, outcome {out and out.summary()}"
    if out.clause != clause:
        return f"{what}: decided by {clause}, the result names {out.clause}"
    return None


def most_guests_win(rules: Any, state: Any) -> Problem:
    """jd23.score.guests: the score is the guests collected; the most wins, and nobody with fewer
    guests than another player wins."""
    r = _result(rules, state)
    if r is None:
        return None
    t, out, sc = r
    top = _best(list(range(t.n)), lambda s: sc[s][0])
    if not set(out.winners) <= set(top):
        return f"winners {sorted(out.winners)} with scores {sc}: fewer guests than seats {top}"
    return _won_by(out, top, f"most guests {sc}", "jd23.score.guests") if len(top) == 1 else None


def bigger_hand_breaks_tie(rules: Any, state: Any) -> Problem:
    """jd23.score.tiebreak-hand: among players tied on guests, the most desserts in hand wins."""
    r = _result(rules, state)
    if r is None:
        return None
    t, out, sc = r
    top = _best(list(range(t.n)), lambda s: sc[s][0])
    if len(top) < 2:
        return None
    hand = _best(top, lambda s: sc[s][1])
    if not set(out.winners) <= set(hand):
        return f"winners {sorted(out.winners)} with scores {sc}: smaller hands than seats {hand}"
    return _won_by(out, hand, f"tie on guests, hands {sc}", "jd23.score.tiebreak-hand") if len(hand) == 1 else None


def fewer_dishes_break_tie(rules: Any, state: Any) -> Problem:
    """jd23.score.tiebreak-dirty-dishes: among players tied on guests and hand, the fewest dirty
    dishes wins."""
    r = _result(rules, state)
    if r is None:
        return None
    t, out, sc = r
    top = _best(list(range(t.n)), lambda s: sc[s][0])
    hand = _best(top, lambda s: sc[s][1])
    if len(hand) < 2:
        return None
    dishes = _best(hand, lambda s: -sc[s][2])
    if not set(out.winners) <= set(dishes):
        return f"winners {sorted(out.winners)} with scores {sc}: more dishes than seats {dishes}"
    return (
        _won_by(out, dishes, f"tie on guests and hand, dishes {sc}", "jd23.score.tiebreak-dirty-dishes")
        if len(dishes) == 1
        else None
    )


def full_tie(rules: Any, state: Any) -> Problem:
    """jd23.score.full-tie: players tied on all three counts: no winner, a draw (jd23.ruling.full-tie
    = draw), or all of them win (shared-win)."""
    r = _result(rules, state)
    if r is None:
        return None
    t, out, sc = r
    top = _best(list(range(t.n)), lambda s: sc[s][0])
    dishes = _best(_best(top, lambda s: sc[s][1]), lambda s: -sc[s][2])
    if len(dishes) < 2:
        return None
    if out.clause not in ("jd23.score.full-tie", FULL_TIE):
        return f"full tie {sc}: the result names {out.clause}"
    if alt(t.setup, FULL_TIE) == "shared-win":
        return (
            None
            if set(out.winners) == set(dishes)
            else f"full tie {sc}: winners {sorted(out.winners)}, shared-win says {dishes}"
        )
    return None if out.draw and not out.winners else f"full tie {sc}: outcome {out.summary()}, the ruling says a draw"


# --------------------------------------------------------------------------- deck claims


def favoured(deck: Any) -> set[str]:
    """Desserts that are some guest's Favorite."""
    return {f for g in deck.guests for f in g.favorites}


def _icons(deck: Any, test: Callable[[int], bool]) -> list[str]:
    return [d.id for d in deck.desserts if test(len(d.tastes))]


def three_icons_unfavoured(deck: Any) -> list[str]:
    """jd23.tips.three-icons-favourite: desserts of three icons or more nobody favours."""
    return [d for d in _icons(deck, lambda k: k >= 3) if d not in favoured(deck)]


def two_icon_split(deck: Any) -> tuple[list[str], list[str]]:
    """jd23.tips.two-icons-some-favourite: (two-icon Favorites, two-icon desserts nobody favours)."""
    two = _icons(deck, lambda k: k == 2)
    return [d for d in two if d in favoured(deck)], [d for d in two if d not in favoured(deck)]


def single_icon_favourites(deck: Any) -> list[str]:
    """jd23.tips.single-icon-never-favourite: one-icon desserts that are a Favorite."""
    return [d for d in _icons(deck, lambda k: k == 1) if d in favoured(deck)]


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", text.casefold()) if len(w) >= 4}


def name_hints(deck: Any) -> list[tuple[str, str]]:
    """jd23.tips.names-hint: (guest, Favorite) whose names share a word of four letters or more."""
    return [(g.id, f) for g in deck.guests for f in g.favorites if _words(g.name) & _words(deck.dessert(f).name)]


def favourite_exceptions(deck: Any) -> list[str]:
    """jd23.favourite.nature-girl: guests without a Favorite other than Nature Girl, and Nature Girl
    if she has one."""
    return [g.id for g in deck.guests if bool(g.favorites) == (g.name.casefold() == "nature girl")]


def _at_start(fn: Callable[[Any], Problem]) -> Callable[[Any, Any], Problem]:
    """A deck claim, checked on the deck of the setup when a game starts (nothing dealt yet)."""
    def check(rules: Any, state: Any) -> Problem:
        t = table(rules, state)
        if t.phase != DEAL or any(t.hands):
            return None
        return fn(t.deck)
    check.__doc__ = fn.__doc__
    return check


def _deck_claim(fn: Callable[[Any], Any], what: str) -> Callable[[Any], Problem]:
    def check(deck: Any) -> Problem:
        broken = fn(deck)
        return f"deck {deck.name}: {what}: {broken}" if broken else None
    check.__doc__ = fn.__doc__
    return check


def _two_icons_both(deck: Any) -> list[str]:
    favs, others = two_icon_split(deck)
    return ([] if favs else ["no two-icon Favorite"]) + (
        [] if others else ["no two-icon dessert outside the Favorites"]
    )


def _some_name_hint(deck: Any) -> list[str]:
    return [] if name_hints(deck) else ["no guest's name shares a word with its Favorite's"]


DECK_CLAIMS = {
    "jd23.tips.three-icons-favourite": _deck_claim(three_icons_unfavoured, "three-icon desserts nobody favours"),
    "jd23.tips.two-icons-some-favourite": _deck_claim(_two_icons_both, "two-icon desserts"),
    "jd23.tips.single-icon-never-favourite": _deck_claim(single_icon_favourites, "single-icon Favorites"),
    "jd23.tips.names-hint": _deck_claim(_some_name_hint, "names"),
    "jd23.favourite.nature-girl": _deck_claim(
        favourite_exceptions, "guests breaking 'all but Nature Girl have a Favorite'"
    ),
}


def _tips_deck(setup: Any) -> bool:
    return getattr(setup.components, "name", None) in TIPS_DECKS


# --------------------------------------------------------------------------- examples


def _setup(rules: Any, deck: str = "v23-tiny", players: int = 2, *rulings: str) -> Any:
    return rules.setup(players, parse_options(rules.Options, list(rulings)), rules.load_components(deck))


def _step(rules: Any, state: Any, text: str) -> Any:
    """Apply a seat's move by its text, or the chance outcome whose text contains ``text``
    (so an example does not depend on the order in which seats are dealt or draw)."""
    if rules.to_move(state) is CHANCE:
        for m, _ in rules.chance_outcomes(state):
            if text in str(m):
                return rules.apply(state, m)
        raise AssertionError(f"no chance outcome {text!r} in {[str(m) for m, _ in rules.chance_outcomes(state)]}")
    return rules.apply(state, rules.parse_move(text, state.setup))


def _play(rules: Any, setup: Any, deal: tuple[str, ...], *moves: str) -> Any:
    """A game from the deal: ``deal`` is seat 0's hand then seat 1's (space-separated), then moves."""
    s = rules.new_game(setup)
    for seat, hand in enumerate(deal):
        for card in hand.split():
            s = _step(rules, s, f"seat {seat} draws {card}")
    for text in moves:
        s = _step(rules, s, text)
    return s


def _expect(rules: Any, state: Any, **want: Any) -> Problem:
    """Compare named readings of the final position with what the sentences settle."""
    t = table(rules, state)
    got = {
        "hand_sizes": [len(h) for h in t.hands], "dishes": [list(d) for d in t.dishes],
        "collected": [list(c) for c in t.collected], "discards": list(t.discards), "pile": len(t.pile),
        "closed": t.closed, "guest": t.guest, "over": rules.to_move(state) is TERMINAL,
        "floor": list(t.floor),
    }
    for k, v in want.items():
        if got[k] != v:
            return f"{k}: {got[k]}, the text says {v}"
    return None


# v23-tiny: FUDGE (Chocolate) x3, BERRIES (Fruit) x4, TART (Chocolate+Fruit) x2, NUT_BAR (Nuts) x3;
# BELLE wants Chocolate+Fruit, refuses Nuts, Favorite TART; NED wants Chocolate+Nuts, Favorites FUDGE and NUT_BAR.
SPLIT = ("FUDGE FUDGE FUDGE BERRIES BERRIES", "BERRIES BERRIES TART TART NUT_BAR")  # pile: NUT_BAR NUT_BAR


def ex_all_pass(rules: Any) -> Problem:
    """jd23.round.all-pass: both pass Nutty Ned: he is discarded, each draws one (the last two
    desserts; the Kitchen then closes), and the next guest is due."""
    s = _play(rules, _setup(rules), SPLIT, "turn up NED", "pass", "pass", "draws NUT_BAR", "draws NUT_BAR")
    return _expect(
        rules, s, hand_sizes=[6, 6], discards=["NED"], collected=[[], []], dishes=[[], []], pile=0, closed=True,
        guest=None,
    ) or (None if {said(m).kind for m, _ in rules.chance_outcomes(s)} == {"turn-up"} else "the next guest is not due")


def ex_lone_mistaken_caller(rules: Any) -> Problem:
    """jd23.call.erroneous-penalty: seat 0 alone calls for Nutty Ned with no nuts in hand, fails,
    loses a random card (onto its own dirty dishes: penalty-pile = caller), and still draws."""
    s = _play(rules, _setup(rules), SPLIT, "turn up NED", "call", "pass", "fail")
    if "penalty" not in {said(m).kind for m, _ in rules.chance_outcomes(s)}:
        return "no penalty after the lone caller failed"
    s = _step(rules, _step(rules, _step(rules, s, "takes FUDGE from seat 0"), "draws NUT_BAR"), "draws NUT_BAR")
    return _expect(rules, s, hand_sizes=[5, 6], dishes=[["FUDGE"], []], discards=["NED"], collected=[[], []])


def ex_several_mistaken(rules: Any) -> Problem:
    """jd23.reminder.all-mistaken-pay: both call for Nutty Ned, neither can serve him: each loses a
    random card onto its own dirty dishes, and both draw."""
    deal = ("FUDGE FUDGE FUDGE TART TART", "BERRIES BERRIES BERRIES BERRIES NUT_BAR")
    s, problem = follow_forced(rules, _play(rules, _setup(rules), deal, "turn up NED", "call", "call", "first 0"))
    if problem:
        return problem
    s = _step(rules, _step(rules, s, "fail"), "fail")
    for text in ("takes TART from seat 0", "takes BERRIES from seat 1", "draws NUT_BAR", "draws NUT_BAR"):
        s = _step(rules, s, text)
    return _expect(rules, s, hand_sizes=[5, 5], dishes=[["TART"], ["BERRIES"]], discards=["NED"], collected=[[], []])


def ex_covered(rules: Any) -> Problem:
    """jd23.call.erroneous-covered: both call for Berry Belle; seat 0 (no chocolate) is first and
    fails, seat 1 serves instead and nobody pays."""
    deal = ("NUT_BAR NUT_BAR NUT_BAR BERRIES BERRIES", "FUDGE FUDGE FUDGE BERRIES BERRIES")
    s = _play(rules, _setup(rules), deal, "turn up BELLE", "call", "call", "first 0")
    s, problem = follow_forced(rules, s)
    if problem:
        return problem
    s = _step(rules, s, "fail")
    if server_of(rules, s) != 1:
        return f"after seat 0 failed, {rules.to_move(s)!r} is to serve, not seat 1"
    s = _step(rules, s, "serve BERRIES+FUDGE")
    return _expect(
        rules, s, hand_sizes=[5, 3], dishes=[[], ["BERRIES", "FUDGE"]], collected=[[], ["BELLE"]], discards=[]
    )


def ex_simultaneous(rules: Any) -> Problem:
    """jd23.call.simultaneous: both call for Berry Belle at the very same moment: she is discarded,
    nobody serves, and both draw."""
    s = _play(rules, _setup(rules), ("FUDGE FUDGE FUDGE BERRIES BERRIES", "BERRIES BERRIES TART TART NUT_BAR"),
              "turn up BELLE", "call", "call", "simultaneous", "draws NUT_BAR", "draws NUT_BAR")
    return _expect(rules, s, hand_sizes=[6, 6], discards=["BELLE"], collected=[[], []], dishes=[[], []])


def ex_favourite_draws(rules: Any) -> Problem:
    """jd23.favourite.extra-card: seat 1 serves Berry Belle her Favorite, the tart, and draws one more
    dessert; one is left for two players, so the Kitchen closes."""
    s = _play(rules, _setup(rules), SPLIT, "turn up BELLE", "pass", "call", "serve TART", "draws NUT_BAR")
    return _expect(rules, s, hand_sizes=[5, 5], dishes=[[], ["TART"]], collected=[[], ["BELLE"]], pile=0, closed=True)


def ex_no_favourite_no_draw(rules: Any) -> Problem:
    """jd23.draw.guest-leaves-hungry: seat 0 serves Berry Belle fudge and berries, not her Favorite:
    nobody draws."""
    s = _play(rules, _setup(rules), SPLIT, "turn up BELLE", "call", "pass", "serve BERRIES+FUDGE")
    return _expect(rules, s, hand_sizes=[3, 5], pile=2, closed=False, collected=[["BELLE"], []]) or (
        None
        if {said(m).kind for m, _ in rules.chance_outcomes(s)} == {"turn-up"}
        else "a draw after a serving without a Favorite"
    )


def ex_closed_kitchen(rules: Any) -> Problem:
    """jd23.reminder.closed-kitchen: everyone drew the last desserts for hungry Ned, so the Kitchen
    is closed; seat 1 then serves Berry Belle her Favorite and draws nothing."""
    s = _play(rules, _setup(rules), SPLIT, "turn up NED", "pass", "pass", "draws NUT_BAR", "draws NUT_BAR",
              "turn up BELLE", "pass", "call", "serve TART")
    return _expect(rules, s, hand_sizes=[6, 5], closed=True, collected=[[], ["BELLE"]])


def ex_kitchen_closes_after_deal(rules: Any) -> Problem:
    """jd23.kitchen.closes: on v23-crowd (11 desserts) the deal leaves one dessert for two players:
    the Kitchen is closed before the first guest and that dessert set aside (kitchen-check =
    whenever-short)."""
    s = _play(
        rules, _setup(rules, "v23-crowd"), ("FUDGE FUDGE FUDGE NUT_BAR NUT_BAR", "FUDGE FUDGE FUDGE NUT_BAR NUT_BAR")
    )
    t = table(rules, s)
    return (
        None
        if t.closed and t.set_aside == ("NUT_BAR",) and not t.pile
        else f"closed {t.closed}, set aside {t.set_aside}"
    )


def ex_trump(rules: Any) -> Problem:
    """jd23.call.favourite-trump (favourite-caller-first): both call for Berry Belle; seat 0 is first
    with fudge and berries, seat 1 holds her Favorite and trumps; seat 1 must serve the tart."""
    deal = ("FUDGE BERRIES NUT_BAR NUT_BAR NUT_BAR", "TART FUDGE BERRIES BERRIES BERRIES")
    s = _play(rules, _setup(rules), deal, "turn up BELLE", "call", "call", "first 0")
    s, problem = follow_forced(rules, s)
    if problem:
        return problem
    if server_of(rules, s) != 1 or [str(m) for m in rules.legal_moves(s)] != ["serve TART"]:
        return (
            f"{rules.to_move(s)!r} serves with {[str(m) for m in rules.legal_moves(s)]}, seat 1 should serve the tart"
        )
    return None


def ex_reshuffle_and_end(rules: Any) -> Problem:
    """jd23.guests.reshuffle-once / jd23.end.second-exhaustion: everybody passes everything; after
    both guests the discards become the guest pile again; after both once more the game is over."""
    setup = _setup(rules)
    s = _play(rules, setup, SPLIT, "turn up NED", "pass", "pass", "draws NUT_BAR", "draws NUT_BAR",
              "turn up BELLE", "pass", "pass")
    t = table(rules, s)
    if rules.to_move(s) is TERMINAL or t.guest_pile != ("BELLE", "NED") or t.discards:
        return (f"after the first pass: guest pile {t.guest_pile}, discards {t.discards}, over "
                f"{rules.to_move(s) is TERMINAL}")
    s = _step(rules, _step(rules, _step(rules, s, "turn up BELLE"), "pass"), "pass")
    if rules.to_move(s) is TERMINAL:
        return "the game ended with a guest left in the second pass"
    s = _step(rules, _step(rules, _step(rules, s, "turn up NED"), "pass"), "pass")
    return _expect(rules, s, over=True)


def ex_full_tie(rules: Any) -> Problem:
    """jd23.score.full-tie: nobody serves anybody: both hold six desserts, no guests, no dishes:
    a draw (jd23.ruling.full-tie = draw)."""
    s = _play(rules, _setup(rules), SPLIT, "turn up NED", "pass", "pass", "draws NUT_BAR", "draws NUT_BAR",
              "turn up BELLE", "pass", "pass", "turn up BELLE", "pass", "pass", "turn up NED", "pass", "pass")
    out = rules.outcome(s)
    return None if out is not None and out.draw and not out.winners else f"outcome {out and out.summary()}"


def ex_most_guests(rules: Any) -> Problem:
    """jd23.score.guests: seat 0 serves both guests and wins with the smaller hand."""
    deal = ("TART FUDGE NUT_BAR BERRIES BERRIES", "BERRIES BERRIES FUDGE FUDGE NUT_BAR")
    s = _play(rules, _setup(rules), deal, "turn up BELLE", "call", "pass", "serve TART", "draws TART",
              "turn up NED", "call", "pass", "serve FUDGE+NUT_BAR")
    out = rules.outcome(s)
    return _expect(rules, s, over=True, hand_sizes=[3, 5]) or (
        None if out.winners == {0} else f"outcome {out.summary()}"
    )


def ex_hand_breaks_tie(rules: Any) -> Problem:
    """jd23.score.tiebreak-hand: one guest each; seat 0 kept five desserts, seat 1 three: seat 0 wins."""
    deal = ("TART FUDGE FUDGE BERRIES BERRIES", "TART NUT_BAR NUT_BAR BERRIES BERRIES")
    s = _play(rules, _setup(rules), deal, "turn up BELLE", "call", "pass", "serve TART", "draws FUDGE",
              "turn up NED", "pass", "call", "serve NUT_BAR+TART")
    out = rules.outcome(s)
    return _expect(rules, s, over=True, hand_sizes=[5, 3]) or (
        None if out.winners == {0} else f"outcome {out.summary()}"
    )


def ex_dishes_break_tie(rules: Any) -> Problem:
    """jd23.score.tiebreak-dirty-dishes: one guest and four desserts each; seat 0 has one dirty dish,
    seat 1 two: seat 0 wins."""
    deal = ("TART BERRIES BERRIES BERRIES BERRIES", "FUDGE NUT_BAR FUDGE NUT_BAR TART")
    s = _play(rules, _setup(rules), deal, "turn up NED", "pass", "call", "serve FUDGE+NUT_BAR", "draws FUDGE",
              "turn up BELLE", "call", "pass", "serve TART")
    out = rules.outcome(s)
    return _expect(rules, s, over=True, hand_sizes=[4, 4], dishes=[["TART"], ["FUDGE", "NUT_BAR"]]) or (
        None if out.winners == {0} else f"outcome {out.summary()}")


def ex_deal_five(rules: Any) -> Problem:
    """jd23.setup.deal-five: two players on v23-tiny are dealt five each; three players cannot be
    (twelve desserts for fifteen)."""
    s = _play(rules, _setup(rules), SPLIT)
    if [len(h) for h in table(rules, s).hands] != [5, 5]:
        return "hands after the deal are not five each"
    try:
        _setup(rules, "v23-tiny", 3)
    except SetupError:
        return None
    return "three players accepted on a deck of twelve desserts"


def ex_player_counts(rules: Any) -> Problem:
    """jd23.setup.players: two to five players, no fewer, no more."""
    for n in range(1, 7):
        try:
            _setup(rules, "v23-tips", n)
            ok = True
        except SetupError:
            ok = False
        if ok != (2 <= n <= 5):
            return f"{n} players {'accepted' if ok else 'refused'}"
    return None


def ex_first_caller_keeps(rules: Any) -> Problem:
    """jd23.call.favourite-trump (favourite-caller-first): both call for Berry Belle and hold her
    Favorite; seat 0 is first, so it keeps her, and must serve her the tart."""
    deal = ("TART FUDGE BERRIES NUT_BAR NUT_BAR", "TART FUDGE BERRIES BERRIES BERRIES")
    s, problem = follow_forced(rules, _play(rules, _setup(rules), deal, "turn up BELLE", "call", "call", "first 0"))
    if problem:
        return problem
    got = [str(m) for m in rules.legal_moves(s)]
    return (
        None
        if server_of(rules, s) == 0 and got == ["serve TART"]
        else f"{rules.to_move(s)!r} may {got}, seat 0 should serve the tart"
    )


def ex_no_trump(rules: Any) -> Problem:
    """jd23.call.first-serves (favourite-trump = no-trump): the same position; seat 0 was first and
    serves as it likes, the tart or fudge and berries."""
    deal = ("TART FUDGE BERRIES NUT_BAR NUT_BAR", "TART FUDGE BERRIES BERRIES BERRIES")
    s = _play(rules, _setup(rules, "v23-tiny", 2, "jd23.ruling.favourite-trump=no-trump"), deal,
              "turn up BELLE", "call", "call", "first 0")
    got = sorted(str(m) for m in rules.legal_moves(s))
    return (
        None
        if server_of(rules, s) == 0 and got == ["serve BERRIES+FUDGE", "serve TART"]
        else f"{rules.to_move(s)!r} may {got}"
    )


# v23-tips: Chocolate Charlie wants Chocolate+Cake, refuses Nuts, Favorite CHOC_CAKE (Chocolate+Cake).
THREE = (
    "FUDGE SPONGE BERRIES BERRIES BERRIES", "CHOC_CAKE PEANUTS PEANUTS PEANUTS BERRIES",
    "CHOC_CAKE SPONGE FUDGE FUDGE FUDGE",
)


def ex_trumpers_race(rules: Any) -> Problem:
    """jd23.call.favourite-trump (favourite-caller-first), three players: all call for Chocolate
    Charlie; seat 0 is first without his Favorite, seats 1 and 2 both hold it: they race, and the
    winner must serve the chocolate cake."""
    s, problem = follow_forced(rules, _play(rules, _setup(rules, "v23-tips", 3), THREE, "turn up CHARLIE",
                                            "call", "call", "call", "first 0"))
    if problem:
        return problem
    race = race_seats(rules, s)
    if race is None or race[0] != {1, 2}:
        return f"the trumpers do not race: {race}"
    if not refused(rules, s, "first 0"):
        return "seat 0, trumped, may still be first in the trumpers' race"
    s = _step(rules, s, "first 2")
    got = [str(m) for m in rules.legal_moves(s)]
    return None if server_of(rules, s) == 2 and got == ["serve CHOC_CAKE"] else f"{rules.to_move(s)!r} may {got}"


def ex_next_seat_takes(rules: Any) -> Problem:
    """jd23.call.erroneous-penalty (penalty-taker = next-seat), three players: seat 1 alone calls for
    Chocolate Charlie with no cake and fails; seat 2 takes its random card."""
    deal = (
        "FUDGE SPONGE BERRIES BERRIES BERRIES", "FUDGE PEANUTS PEANUTS PEANUTS BERRIES",
        "CHOC_CAKE SPONGE FUDGE FUDGE SPONGE",
    )
    s = _play(rules, _setup(rules, "v23-tips", 3), deal, "turn up CHARLIE", "pass", "call", "pass", "fail")
    takers = {said(m).taker for m, _ in rules.chance_outcomes(s)}
    return None if takers == {2} else f"penalty takers {takers}, the next seat is 2"


def ex_three_players_scored(rules: Any) -> Problem:
    """jd23.score.guests, three players: seat 0 serves the first guest and everybody passes every
    other guest: seat 0 wins, on guests."""
    deal = (
        "FUDGE SPONGE BERRIES BERRIES BERRIES", "FUDGE PEANUTS PEANUTS PEANUTS BERRIES",
        "CHOC_CAKE SPONGE FUDGE PEANUTS SPONGE",
    )
    s = _play(
        rules, _setup(rules, "v23-tips", 3), deal, "turn up CHARLIE", "call", "pass", "pass", "serve FUDGE+SPONGE"
    )
    for _ in range(200):
        actor = rules.to_move(s)
        if actor is TERMINAL:
            break
        s = rules.apply(s, rules.chance_outcomes(s)[0][0] if actor is CHANCE else rules.parse_move("pass", s.setup))
    out = rules.outcome(s)
    if out is None or set(out.winners) != {0} or out.clause != "jd23.score.guests":
        return f"outcome {out and out.summary()} by {out and out.clause}, seat 0 should win on guests"
    return None


EMPTY_HANDED = (
    "turn up HAZEL", "pass", "call", "serve NUT_BAR", "turn up MIXIE", "pass", "call", "serve FUDGE+NUT_BAR",
    "turn up COCO", "pass", "call", "fail", "seat 0 takes NUT_BAR from seat 1", "turn up NOLA", "pass", "call",
    "serve NUT_BAR", "turn up COCO", "pass", "call",
)
"""v23-crowd (the Kitchen closes after the deal): seat 1 serves and pays until its hand is empty,
then calls again for Coco, whom it cannot serve (spec/witnesses/jd23-penalty-empty-hand.json)."""


def ex_empty_handed_caller(rules: Any) -> Problem:
    """jd23.call.erroneous-penalty with jd23.ruling.penalty-empty-hand: a lone mistaken caller with
    no dessert left loses nothing and Coco goes away (no-penalty); under strict that is the gap."""
    deal = ("FUDGE FUDGE FUDGE FUDGE FUDGE", "FUDGE NUT_BAR NUT_BAR NUT_BAR NUT_BAR")
    for choice in ("no-penalty", "strict"):
        s = _play(rules, _setup(rules, "v23-crowd", 2, f"{EMPTY_HAND}={choice}"), deal, *EMPTY_HANDED)
        if table(rules, s).hands[1]:
            return f"seat 1 still holds {table(rules, s).hands[1]}"
        try:
            s = _step(rules, s, "fail")
        except RuleGap:
            if choice == "strict":
                continue
            return "no-penalty raises a gap for the empty-handed caller"
        if choice == "strict":
            return "strict raises no gap for the empty-handed caller"
        t = table(rules, s)
        if t.guest is not None or t.discards != ("COCO",) or t.hands[1] or any(t.dishes[0]):
            return f"after the empty-handed failure: guest {t.guest}, discards {t.discards}, hands {t.hands}"
    return None


def ex_deck_claim(clause: str) -> Callable[[Any], Problem]:
    def check(rules: Any) -> Problem:
        return DECK_CLAIMS[clause](rules.load_components("v23-tips"))
    check.__doc__ = f"{clause} on v23-tips, the deck built to the Tips & Hints."
    return check


# --------------------------------------------------------------------------- the tables

_not_no_trump = when(TRUMP_RULING, "favourite-caller-first", "strict")

PROPERTIES = (
    Property(
        "jd23.setup.deal-five", "before the first guest only chance acts, dealing at most five to each hand",
        state=deal_before_first_guest, name="dealing", lines=((9, 9), (11, 11)),
    ),
    Property(
        "jd23.setup.deal-five", "when the first guest is turned up every hand holds five",
        transition=deal_five_at_first_guest, name="five-at-first-guest", lines=((9, 9), (11, 11)),
    ),
    Property(
        "jd23.setup.shuffle", "a draw is each card of the pile with probability copies/size, never a card not in it",
        state=random_dessert, name="random-dessert", lines=((9, 9), (47, 47)),
    ),
    Property(
        "jd23.setup.shuffle", "a turn-up is each guest of the pile with equal probability, never one not in it",
        state=random_guest, name="random-guest", lines=((9, 9), (11, 11), (31, 31)),
    ),
    Property(
        "jd23.setup.shuffle", "every dessert card is in exactly one place", state=desserts_conserved,
        name="desserts-conserved", lines=((9, 9), (23, 23), (29, 29), (31, 31)), reads=(PILE,),
    ),
    Property(
        "jd23.setup.shuffle", "every guest card is in exactly one place", state=guests_conserved,
        name="guests-conserved", lines=((9, 9), (11, 11), (23, 23), (31, 31)),
    ),
    Property(
        "jd23.setup.maitre-d", "no round goes past its answers without the Maitre D's", transition=maitre_d_answers,
        name="plays-too", lines=((9, 9), (11, 11)),
    ),
    Property(
        "jd23.setup.maitre-d", "penalty-taker = maitre-d: the Maitre D' takes every other player's penalty card",
        state=maitre_d_takes, under=when(TAKER, "maitre-d"), name="takes-penalty", lines=((9, 9), (29, 29)),
    ),
    Property(
        "jd23.round.turn-up-guest",
        "one guest at a time: none turned up and nobody draws while one is on the table; with none only chance acts",
        state=turn_up_between_rounds, name="one-at-a-time", lines=((11, 11), (19, 19), (21, 21)),
    ),
    Property(
        "jd23.round.turn-up-guest",
        "the guest turned up leaves the pile, is seen by all, and every player owes an answer (call or pass: a "
        "favourite-trump reading, not under favourite-call, where a Favorite may be claimed instead)",
        transition=turn_up_reveals, under=when(TRUMP_RULING, *NOT_CLAIMED_AS_A_CALL), name="reveal", lines=(11, 11),
    ),
    Property(
        "jd23.call.got-it", "asked, a player may call (with or without a serving) or pass, nothing else "
        "(favourite-trump other than favourite-call, which adds a Favorite claimed in place of a call)",
        state=answer_is_call_or_pass, under=when(TRUMP_RULING, *NOT_CLAIMED_AS_A_CALL), name="call-or-pass",
        lines=((11, 11), (23, 23), (29, 29)),
    ),
    Property(
        "jd23.call.got-it", "each answers once, out loud, moving no card; the round goes on when all have answered",
        transition=answers_are_public, name="answers-public", lines=((11, 11), (21, 21), (23, 23)),
    ),
    Property(
        "jd23.call.pass", "passing is always allowed, even holding a serving", state=pass_always_allowed,
        lines=(21, 21),
    ),
    Property(
        "jd23.call.first-serves", "after the answers a lone caller serves, several callers race",
        transition=contest_after_answers, name="contest", lines=((11, 11), (27, 27)),
    ),
    Property(
        "jd23.call.first-serves", "exactly the contenders may be first (after a trump, the trumpers)",
        state=race_contenders, name="race-contenders", lines=((11, 11), (27, 27), (29, 29)),
        reads=(SPARE, WITH_OTHERS),
    ),
    Property(
        "jd23.call.first-serves", "the first caller serves when no Favorite trumps it", transition=winner_serves,
        name="winner-serves", lines=((11, 11), (23, 23)), reads=(TRUMP_RULING, SPARE, WITH_OTHERS),
    ),
    Property(
        "jd23.call.first-serves", "only a standing caller serves", state=server_is_live_caller, name="server-called",
        lines=((11, 11), (29, 29)),
    ),
    Property(
        "jd23.call.favourite-trump",
        "favourite-caller-first: another contender's Favorite trumps a first caller without one (several race)",
        transition=trumper_serves, under=when(TRUMP_RULING, "favourite-caller-first"), name="trumper-serves",
        lines=((11, 11), (23, 23)), reads=(SPARE, WITH_OTHERS),
    ),
    Property(
        "jd23.call.favourite-trump",
        "favourite-caller-first: while others contend, a Favorite holder serves and must serve a Favorite",
        state=favourite_must_be_served, under=when(TRUMP_RULING, "favourite-caller-first"),
        name="must-serve-favourite", lines=((11, 11), (23, 23)), reads=(SPARE, WITH_OTHERS),
    ),
    Property(
        "jd23.call.favourite-trump", "the first caller is never asked to trump its own call",
        state=trump_asks_only_others, name="others", lines=(11, 11),
    ),
    Property(
        "jd23.call.favourite-trump", "favourite-caller-first: asked about a Favorite, a contender answers truthfully",
        state=trump_answers_forced, under=when(TRUMP_RULING, "favourite-caller-first"), name="answers-forced",
        lines=((11, 11), (23, 23)), reads=(SPARE, WITH_OTHERS),
    ),
    Property(
        "jd23.call.favourite-trump", "strict: a race among contenders where one holds a Favorite is a gap, no other is",
        state=strict_trump_gap, under=when(TRUMP_RULING, "strict"), name="strict-gap", lines=((11, 11), (23, 23)),
        reads=(SPARE, WITH_OTHERS),
    ),
    Property(
        "jd23.call.favourite-trump", "its gap only under strict, where several contend and one holds a Favorite",
        state=gaps_only_where_silent(TRUMP_RULING, _trump_question), name="gap", lines=((11, 11), (23, 23)),
        reads=(TRUMP_RULING, SPARE, WITH_OTHERS),
    ),
    Property(
        "jd23.call.favourite-trump",
        "no-trump and strict (depart from the clause on purpose): nobody is asked about a Favorite",
        state=no_trump_first_serves, under=when(TRUMP_RULING, "no-trump", "strict"), name="no-trump",
        lines=((11, 11), (23, 23)),
    ),
    Property(
        "jd23.satisfy.tastes", "every serving allowed shows each craved taste and no disliked one",
        state=servings_satisfy, name="sound", lines=(7, 7),
    ),
    Property(
        "jd23.satisfy.tastes", "every serving the text allows (spare-desserts, trump) is legal, no other",
        state=satisfying_servings_allowed, name="complete", lines=((7, 7), (11, 11), (23, 23)),
        reads=(SPARE, TRUMP_RULING, WITH_OTHERS),
    ),
    Property(
        "jd23.serve.one-to-three", "servings are one to three desserts; four are refused", state=one_to_three_cards,
        lines=(7, 7),
    ),
    Property(
        "jd23.serve.reveal-dirty-dishes", "a serving comes from the server's own hand", state=serve_from_own_hand,
        name="own-hand", lines=((11, 11), (23, 23)),
    ),
    Property(
        "jd23.serve.reveal-dirty-dishes", "served desserts go face up to the server's dishes, the guest to the server",
        transition=serving_goes_to_dishes, name="to-dishes", lines=((11, 11), (23, 23)),
    ),
    Property(
        "jd23.favourite.extra-card",
        "a Favorite served draws the server its extra card(s), Kitchen permitting; nobody else draws",
        transition=favourite_extra_card, lines=((17, 17), (25, 25), (31, 31), (47, 48)),
        reads=(KITCHEN, TWO_FAVS, WITH_OTHERS),
    ),
    Property(
        "jd23.favourite.extra-card", "two-favourites' gap only under strict, when two Favorites are served",
        state=gaps_only_where_silent(TWO_FAVS, _two_favourites_question), name="two-favourites-gap",
        lines=((17, 17), (25, 25)), reads=(TWO_FAVS, WITH_OTHERS),
    ),
    Property(
        "jd23.round.five-endings", "a guest leaves only served or in endings 1, 4, 5, after which everyone draws",
        transition=guest_leaves_by_an_ending, lines=((13, 19), (31, 31)), reads=(DECLINE, PILE, TAKER),
    ),
    Property(
        "jd23.round.all-pass", "all pass: guest discarded at once, nobody pays, all draw one, next guest due",
        transition=all_pass, lines=((11, 11), (15, 15), (21, 21), (31, 31)), reads=(PILE, TAKER),
    ),
    Property(
        "jd23.call.simultaneous",
        "a tie discards the guest and all draw; tied callers unable to serve pay per simultaneous-mistaken",
        transition=simultaneous_ends_round, name="ends-round", lines=((18, 18), (27, 27), (29, 29), (31, 31)),
        reads=(SIMUL_MISTAKEN, EMPTY_HAND, PILE, TAKER),
    ),
    Property(
        "jd23.call.simultaneous", "several racing callers may tie, a lone one cannot", state=tie_is_possible,
        name="possible", lines=(27, 27), under=when("jd23.ruling.race-after-fail", "tie-possible"),
    ),
    Property(
        "jd23.call.simultaneous", "race odds as jd23.ruling.race-odds says", state=race_odds, name="odds",
        lines=(27, 27), under=when("jd23.ruling.race-after-fail", "tie-possible"), reads=(ODDS,),
    ),
    Property(
        "jd23.call.simultaneous", "simultaneous-mistaken's gap only under strict, when a tied caller cannot serve",
        state=gaps_only_where_silent(SIMUL_MISTAKEN, _tie_question), name="mistaken-gap",
        lines=((27, 27), (29, 29)), reads=(SIMUL_MISTAKEN,),
    ),
    Property(
        "jd23.call.erroneous-covered", "a caller with a serving serves, one without fails (decline-after-call = "
        "serve-if-able: the text never says a caller able to serve may not step aside)",
        state=fail_only_without_serving, under=when(DECLINE, "serve-if-able"), name="fail-iff-no-serving",
        lines=((11, 11), (29, 29)),
    ),
    Property(
        "jd23.call.erroneous-covered",
        "a failed caller with another standing: no penalty, the other serves (several race)",
        transition=covered_by_another_caller, name="other-serves", lines=(29, 29),
    ),
    Property(
        "jd23.call.erroneous-penalty",
        "only mistaken callers pay, once all failed; another player takes a random card (penalty-taker)",
        state=penalty_chance, name="who-pays", lines=((19, 19), (29, 29), (46, 46)),
        reads=(DECLINE, TAKER, SIMUL_MISTAKEN),
    ),
    Property(
        "jd23.call.erroneous-penalty", "the penalty card leaves the caller's hand for the pile penalty-pile names",
        transition=penalty_card_lands, name="card-lands", lines=((19, 19), (29, 29), (46, 46)), reads=(PILE,),
    ),
    Property(
        "jd23.call.erroneous-penalty", "the last failure: every caller loses one card, the guest goes, then all draw",
        transition=mistaken_callers_pay, name="all-pay-then-draw", lines=((19, 19), (29, 29), (31, 31), (46, 46)),
        reads=(EMPTY_HAND, PILE, TAKER),
    ),
    Property(
        "jd23.call.erroneous-penalty", "penalty-taker's gap only under strict, when a card is taken",
        state=gaps_only_where_silent(TAKER, _taker_question), name="taker-gap", lines=(29, 29), reads=(TAKER,),
    ),
    Property(
        "jd23.call.erroneous-penalty", "penalty-empty-hand's gap only under strict, when a mistaken caller has no card",
        state=gaps_only_where_silent(EMPTY_HAND, _empty_hand_question), name="empty-hand-gap",
        lines=((19, 19), (29, 29), (46, 46)), reads=(EMPTY_HAND,),
    ),
    Property(
        "jd23.reminder.all-mistaken-pay",
        "several mistaken callers each put a card of their own on their own dishes (penalty-pile = caller)",
        transition=several_mistaken_own_dishes, under=when(PILE, "caller"), lines=(46, 46),
    ),
    Property(
        "jd23.draw.guest-leaves-hungry", "a hand grows only by one card drawn from the pile with no guest on the table",
        transition=hands_grow_only_by_draws, name="only-draws", lines=((9, 9), (47, 47)),
    ),
    Property(
        "jd23.draw.guest-leaves-hungry", "no draw while a guest is on the table", state=no_draw_while_guest,
        name="not-during-a-round", lines=(47, 47),
    ),
    Property(
        "jd23.draw.guest-leaves-hungry", "a serving without a Favorite earns nobody a card",
        transition=no_serving_draw_without_favourite, name="no-favourite-no-card", lines=((25, 25), (47, 47)),
        reads=(WITH_OTHERS,),
    ),
    Property(
        "jd23.kitchen.closes", "closing sets aside the rest (fewer than players) for good",
        transition=closed_kitchen_is_final, name="final", lines=(31, 31),
    ),
    Property(
        "jd23.kitchen.closes", "kitchen-check = whenever-short: an open Kitchen always holds a dessert for each player",
        state=short_pile_closes, under=when(KITCHEN, "whenever-short"), name="short-pile-closes", lines=(31, 31),
    ),
    Property(
        "jd23.kitchen.closes",
        "when-everyone-draws / strict (depart from the clause on purpose): closes only when a hungry guest's draw is "
        "short", transition=closes_when_everyone_should_draw, under=when(KITCHEN, "when-everyone-draws", "strict"),
        name="at-everyone-draws", lines=(31, 31),
    ),
    Property(
        "jd23.kitchen.closes",
        "kitchen-check's gap only under strict, when a Favorite's card is due from a short open pile",
        state=gaps_only_where_silent(KITCHEN, _kitchen_question), name="favourite-gap",
        lines=((25, 25), (31, 31), (48, 48)), reads=(KITCHEN, TWO_FAVS, WITH_OTHERS),
    ),
    Property(
        "jd23.reminder.closed-kitchen", "no hand grows after the Kitchen closed", transition=nothing_after_closing,
        name="no-growth", lines=((31, 31), (48, 48)),
    ),
    Property(
        "jd23.reminder.closed-kitchen", "no draw is offered after the Kitchen closed",
        state=closed_kitchen_deals_nothing, name="no-draw", lines=((31, 31), (48, 48)),
    ),
    Property(
        "jd23.guests.reshuffle-once", "the guest pile is rebuilt from the discards once, when it first runs out",
        transition=reshuffled_once, name="once", lines=(31, 31), reads=(GUEST_EMPTY, NOTHING_LEFT),
    ),
    Property(
        "jd23.guests.reshuffle-once", "play never waits on an empty guest pile", state=guest_pile_when_needed,
        name="never-waits", lines=(31, 31), reads=(GUEST_EMPTY,),
    ),
    Property(
        "jd23.guests.reshuffle-once",
        "nothing-to-reshuffle's gap only under strict, at a first run-out with no discards",
        state=gaps_only_where_silent(NOTHING_LEFT, _nothing_left_question), name="nothing-left-gap",
        lines=(31, 31), reads=(NOTHING_LEFT, GUEST_EMPTY),
    ),
    Property(
        "jd23.end.second-exhaustion", "the game is over exactly after the second run-out",
        state=game_ends_at_second_exhaustion, name="over", lines=(31, 33), reads=(GUEST_EMPTY,),
    ),
    Property(
        "jd23.end.second-exhaustion",
        "at-last-turn-up: the last guest turned up after the reshuffle ends the game at once", transition=ends_at_once,
        under=when(GUEST_EMPTY, "at-last-turn-up"), name="at-once", lines=(31, 31),
    ),
    Property("jd23.score.guests", "most guests wins; fewer never wins", state=most_guests_win, lines=(35, 35)),
    Property(
        "jd23.score.tiebreak-hand", "tied on guests: the biggest hand wins", state=bigger_hand_breaks_tie,
        lines=(35, 35),
    ),
    Property(
        "jd23.score.tiebreak-dirty-dishes", "tied on guests and hand: fewest dirty dishes wins",
        state=fewer_dishes_break_tie, lines=(35, 35),
    ),
    Property(
        "jd23.score.full-tie", "tied on all three: a draw (full-tie = draw) or all win (shared-win)", state=full_tie,
        lines=(35, 35), reads=(FULL_TIE,),
    ),
    *(
        Property(
            clause, f"deck claim on decks bound by it ({', '.join(sorted(TIPS_DECKS))})", state=_at_start(fn),
            applies=_tips_deck,
            lines={"jd23.tips.three-icons-favourite": (39, 39), "jd23.tips.two-icons-some-favourite": (40, 40),
                   "jd23.tips.single-icon-never-favourite": (41, 41), "jd23.tips.names-hint": (42, 42),
                   "jd23.favourite.nature-girl": (25, 25)}[clause],
        )
        for clause, fn in DECK_CLAIMS.items()
    ),
)

EXAMPLES = (
    Example(
        "jd23.round.all-pass", "all pass: the guest is discarded and everyone draws", ex_all_pass,
        lines=((15, 15), (21, 21), (31, 31)),
    ),
    Example(
        "jd23.call.erroneous-penalty", "a lone mistaken caller pays a card onto its dishes and still draws",
        ex_lone_mistaken_caller, lines=((19, 19), (29, 29)),
    ),
    Example(
        "jd23.reminder.all-mistaken-pay", "two mistaken callers each pay onto their own dishes", ex_several_mistaken,
        lines=((19, 19), (46, 46)),
    ),
    Example(
        "jd23.call.erroneous-covered", "a mistaken first caller is covered by the other caller; nobody pays",
        ex_covered, lines=(29, 29),
    ),
    Example(
        "jd23.call.simultaneous", "a tie: the guest is discarded and everyone draws", ex_simultaneous,
        lines=((18, 18), (27, 27)),
    ),
    Example(
        "jd23.favourite.extra-card", "a Favorite served draws an extra card", ex_favourite_draws,
        lines=((17, 17), (25, 25), (31, 31)),
    ),
    Example(
        "jd23.draw.guest-leaves-hungry", "a serving without a Favorite draws nothing", ex_no_favourite_no_draw,
        lines=(47, 47),
    ),
    Example(
        "jd23.reminder.closed-kitchen", "after the Kitchen closes nobody draws, not even for a Favorite",
        ex_closed_kitchen, lines=((31, 31), (48, 48)),
    ),
    Example(
        "jd23.kitchen.closes", "a deal that leaves too few desserts closes the Kitchen", ex_kitchen_closes_after_deal,
        lines=(31, 31),
    ),
    Example("jd23.call.favourite-trump", "a Favorite trumps the first caller", ex_trump, lines=((11, 11), (23, 23))),
    Example(
        "jd23.call.favourite-trump", "a first caller with the Favorite keeps the guest and serves it",
        ex_first_caller_keeps, name="first-keeps", lines=((11, 11), (23, 23)),
    ),
    Example(
        "jd23.call.favourite-trump", "two trumpers race; the winner serves the Favorite", ex_trumpers_race,
        name="trumpers-race", lines=((11, 11), (23, 23)),
    ),
    Example(
        "jd23.call.first-serves", "no-trump: the first caller serves any serving", ex_no_trump,
        lines=((11, 11), (23, 23)),
    ),
    Example(
        "jd23.call.erroneous-penalty", "three players: the next seat takes the card", ex_next_seat_takes,
        name="next-seat", lines=(29, 29),
    ),
    Example(
        "jd23.call.erroneous-penalty", "a mistaken caller with an empty hand pays nothing (strict: a gap)",
        ex_empty_handed_caller, name="empty-hand", lines=((29, 29), (46, 46)),
    ),
    Example(
        "jd23.score.guests", "three players: most guests wins", ex_three_players_scored, name="three-players",
        lines=(35, 35),
    ),
    Example(
        "jd23.guests.reshuffle-once", "the discards become the guest pile once; the game ends at the second run-out",
        ex_reshuffle_and_end, lines=(31, 33),
    ),
    Example("jd23.score.guests", "most guests wins despite a smaller hand", ex_most_guests, lines=(35, 35)),
    Example("jd23.score.tiebreak-hand", "tied on guests, the bigger hand wins", ex_hand_breaks_tie, lines=(35, 35)),
    Example(
        "jd23.score.tiebreak-dirty-dishes", "tied on guests and hand, fewer dirty dishes win", ex_dishes_break_tie,
        lines=(35, 35),
    ),
    Example("jd23.score.full-tie", "tied on everything: a draw", ex_full_tie, lines=(35, 35)),
    Example("jd23.setup.deal-five", "five each; a deck too small for the deal is refused", ex_deal_five, lines=(9, 9)),
    Example("jd23.setup.players", "two to five players", ex_player_counts, lines=(25, 25)),
    *(
        Example(
            clause, f"{clause} holds on v23-tips", ex_deck_claim(clause),
            lines={"jd23.tips.three-icons-favourite": (39, 39), "jd23.tips.two-icons-some-favourite": (40, 40),
                   "jd23.tips.single-icon-never-favourite": (41, 41), "jd23.tips.names-hint": (42, 42),
                   "jd23.favourite.nature-girl": (25, 25)}[clause],
        )
        for clause in DECK_CLAIMS
    ),
)

UNOBSERVABLE: dict[str, str] = {}
"""Every text clause of jd23 has a property or an example: the speed of a call is the race's
business (jd23.call.first-serves), the hidden order of the decks shows as uniform draws
(jd23.setup.shuffle), and the Tips & Hints are deck facts checked on the deck bound by them."""
