"""Just Desserts, rules version 2.3 (spec/just_desserts_v23.toml): the real-time calling game.

The real-time scramble is a chain of decision windows and chance events:

* ``deal``: chance deals each seat five desserts, one card at a time (jd23.setup.deal-five);
* ``turn-up``: chance turns up a guest from the guest pile (jd23.round.turn-up-guest);
* ``answer``: every seat in turn says ``call`` or ``pass`` (jd23.call.got-it, jd23.call.pass):
  a seat may pass while able and may call while unable (an erroneous call).  Answers are
  collected in seat order and are public (calls are shouted); the order of collection
  decides nothing, because who called first is the race's business;
* ``race``: chance decides who of the callers still in contention called first, or that
  the call was truly simultaneous (jd23.call.first-serves, jd23.call.simultaneous).  The
  rulebook gives no odds: jd23.ruling.race-odds weighs them (by default a tie one time in ten,
  the callers equally likely otherwise; ``equal`` makes every result equally likely).  The
  explorer needs every result, not their weights; only statistics use them;
* ``serve``: the first caller serves one to three desserts, or fails when no serving is in the
  hand (jd23.serve.one-to-three, jd23.call.erroneous-covered); after a failure the race goes on
  among the other callers, so every order of the callers is reachable;
* ``penalty``: chance picks the random card each mistaken caller loses
  (jd23.call.erroneous-penalty);
* ``draw``: chance deals one card per pending draw (jd23.draw.guest-leaves-hungry,
  jd23.favourite.extra-card), unless the kitchen is closed (jd23.kitchen.closes).

Piles are unordered multisets (sorted tuples); drawing one card is the chance event, with
probability count / size.  Seat 0 is the Maitre D' (jd23.setup.maitre-d).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache, partial
from typing import Any, Sequence

from ..core import (
    CHANCE, STRICT, TERMINAL, IllegalMove, Invariant, MoveSyntaxError, Outcome, Probability, RuleGap, RuleSet, Setup,
    MAX_NUMBER_DIGITS, MoveTable, PileDraw, probability, remember_last, ruling,
)
from ..decks import Deck, deck_argument, embedded_deck, favorite_used, satisfies, servings
from .frozen import replacer
from .tastes import minimal_servings

# functions that decide nothing about play, and why (the decision-point finder reads this)
PLUMBING = {
    "Race.__str__": "the text form of a move",
    "parse_move": "parsing a move's text; names checked when a setup is given",
    "_check_names": "the cards a move names; parsing: unknown dessert",
    "_contains": "a card the hand does not hold (or not so many times)",
    "apply": "illegal moves raise; dispatch on the move (the commonest first)",
    "observation": "JSON form of an actor",
    "state_vars": "JSON form of no seat",
    (
        "_every_dessert_once", "_every_guest_once", "_closed_kitchen_is_empty", "_guest_only_in_a_round",
        "_ends_only_after_running_out", "_servings_are_small", "_callers_are_consistent",
    ):
        "an invariant's check",
}

RULESET_ID = "just-desserts-2.3"
HAND_SIZE = 5
"""Desserts dealt to each player (jd23.setup.deal-five)."""
MAX_SERVING = 3
"""A serving is one to three desserts (jd23.serve.one-to-three)."""
PLAYER_COUNTS = (2, 3, 4, 5)
"""The 2.3 text names no player count; 2-5 is the retail edition's (jd23.setup.players, public source).
Fewer than two is impossible anyway: the penalty needs another player."""
MAITRE_D = 0
"""The seat designated Maitre D' (jd23.setup.maitre-d); the choice matters only to jd23.ruling.penalty-taker."""
DEFAULT_DECK = "v23-tiny"


# --------------------------------------------------------------------------- rulings


@dataclass(frozen=True, slots=True)
class Options:
    """One field per ruling in spec/just_desserts_v23.toml; the first alternative is the default."""

    favourite_trump: str = ruling("jd23.ruling.favourite-trump", "favourite-caller-first", "no-trump", "favourite-call",
                                  STRICT)
    spare_desserts: str = ruling("jd23.ruling.spare-desserts", "minimal", "any")
    two_favourites: str = ruling("jd23.ruling.two-favourites", "one-card", "card-per-favourite", STRICT)
    penalty_taker: str = ruling("jd23.ruling.penalty-taker", "next-seat", "maitre-d", STRICT)
    penalty_pile: str = ruling("jd23.ruling.penalty-pile", "caller", "taker", "out-of-play")
    favourite_with_others: str = ruling("jd23.ruling.favourite-with-others", "counts", "alone-only")
    penalty_empty_hand: str = ruling("jd23.ruling.penalty-empty-hand", "no-penalty", STRICT)
    guest_pile_empty: str = ruling("jd23.ruling.guest-pile-empty", "at-next-turn-up", "at-last-turn-up")
    nothing_to_reshuffle: str = ruling("jd23.ruling.nothing-to-reshuffle", "game-ends", STRICT)
    kitchen_check: str = ruling("jd23.ruling.kitchen-check", "whenever-short", "when-everyone-draws", STRICT)
    full_tie: str = ruling("jd23.ruling.full-tie", "draw", "shared-win")
    simultaneous_mistaken: str = ruling("jd23.ruling.simultaneous-mistaken", "no-penalty", "penalty", STRICT)
    race_odds: str = ruling("jd23.ruling.race-odds", "tie-one-in-ten", "equal")
    decline_after_call: str = ruling("jd23.ruling.decline-after-call", "serve-if-able", "may-decline")
    race_after_fail: str = ruling("jd23.ruling.race-after-fail", "tie-possible", "next-in-line")


# --------------------------------------------------------------------------- state

DEAL, TURN_UP, ANSWER, RACE, TRUMP, COUNTER, SERVE, PENALTY, DRAW, OVER = (
    "deal", "turn-up", "answer", "race", "trump", "counter", "serve", "penalty", "draw", "over")
PHASES = (DEAL, TURN_UP, ANSWER, RACE, TRUMP, COUNTER, SERVE, PENALTY, DRAW, OVER)
CALL, PASS, FAVOURITE = "call", "pass", "favourite"


@dataclass(frozen=True, slots=True)
class State:
    setup: Setup
    phase: str
    hands: tuple[tuple[str, ...], ...]
    """Each seat's desserts, a sorted multiset (hidden from the others)."""
    dessert_pile: tuple[str, ...]
    guest_pile: tuple[str, ...]
    dishes: tuple[tuple[str, ...], ...]
    """Each seat's dirty dishes (face up): served desserts and penalty cards."""
    collected: tuple[tuple[str, ...], ...]
    """Each seat's served guests (face down): the score (jd23.score.guests)."""
    discards: tuple[str, ...] = ()
    set_aside: tuple[str, ...] = ()
    """What was left of the dessert pile when the kitchen closed (jd23.kitchen.closes)."""
    floor: tuple[str, ...] = ()
    """Penalty cards out of play (jd23.ruling.penalty-pile = out-of-play)."""
    kitchen_closed: bool = False
    reshuffled: bool = False
    """The guest pile has been rebuilt from the discards once (jd23.guests.reshuffle-once)."""
    guest: str | None = None
    """The guest turned up and not yet served or discarded."""
    answers: tuple[str, ...] = ()
    """Per seat during a round: "" (not yet), "call" or "pass"."""
    mistaken: tuple[int, ...] = ()
    """Callers who were first but could not serve, in order (jd23.call.erroneous-covered)."""
    first: int | None = None
    """The caller who serves now (phase serve)."""
    penalties: tuple[int, ...] = ()
    """Mistaken callers still to pay (jd23.call.erroneous-penalty)."""
    draws: tuple[int, ...] = ()
    """Seats still to draw one card each, in order."""
    trumps: tuple[str, ...] = ()
    """Per seat while the other callers are asked for a trump (phase trump): "" (not yet or not asked),
    "favourite" or "pass" (jd23.call.favourite-trump)."""
    trumped: bool = False
    """Several callers trumped with a Favorite: they race again (jd23.call.favourite-trump)."""


replace = replacer(State)


@dataclass(frozen=True, slots=True)
class Call:
    """Say "got it" (jd23.call.got-it); allowed whether or not the hand can serve."""

    def __str__(self) -> str:
        return CALL


@dataclass(frozen=True, slots=True)
class Pass:
    """Say "pass" (jd23.call.pass); allowed even when the hand could serve."""

    def __str__(self) -> str:
        return PASS


@dataclass(frozen=True, slots=True)
class Favourite:
    """Say "I have the Favorite": a trump of the first call, or the first caller's answer to a trump
    (jd23.call.favourite-trump); forced for a caller holding a Favorite serving, impossible without."""

    def __str__(self) -> str:
        return FAVOURITE


@dataclass(frozen=True, slots=True)
class Serve:
    """The first caller reveals these desserts and takes the guest (jd23.serve.reveal-dirty-dishes)."""

    cards: tuple[str, ...]

    def __str__(self) -> str:
        return "serve " + "+".join(self.cards)


@dataclass(frozen=True, slots=True)
class Fail:
    """The first caller cannot serve after all (jd23.call.erroneous-covered)."""

    def __str__(self) -> str:
        return "fail"


@dataclass(frozen=True, slots=True)
class TurnUp:
    """Chance: the Maitre D' turns up this guest (jd23.round.turn-up-guest)."""

    guest: str

    def __str__(self) -> str:
        return f"turn up {self.guest}"


@dataclass(frozen=True, slots=True)
class Race:
    """Chance: ``seat`` called first, or (seat None) the call was truly simultaneous (jd23.call.simultaneous)."""

    seat: int | None

    def __str__(self) -> str:
        return "simultaneous" if self.seat is None else f"first {self.seat}"


@dataclass(frozen=True, slots=True)
class Penalty:
    """Chance: ``taker`` takes ``card`` at random from mistaken caller ``seat`` (jd23.call.erroneous-penalty)."""

    taker: int
    seat: int
    card: str

    def __str__(self) -> str:
        return f"seat {self.taker} takes {self.card} from seat {self.seat}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: ``seat`` draws ``card`` from the dessert pile (also how the deal is dealt: jd23.setup.deal-five)."""

    seat: int
    card: str

    def __str__(self) -> str:
        return f"seat {self.seat} draws {self.card}"


Move = Call | Pass | Favourite | Serve | Fail | TurnUp | Race | Penalty | Draw

_SEAT = "(0|[1-9][0-9]{0,%d})" % (MAX_NUMBER_DIGITS - 1)
"""A seat in a move's text: ASCII digits, no leading zero (core.read_number's spelling)."""

_PATTERNS = (
    (re.compile(r"call"), lambda m: Call()),
    (re.compile(r"pass"), lambda m: Pass()),
    (re.compile(r"fail"), lambda m: Fail()),
    (re.compile(r"favourite"), lambda m: Favourite()),
    # a serving is its cards together, in any order
    (re.compile(r"serve (\S+)"), lambda m: Serve(tuple(sorted(m[1].split("+"))))),
    (re.compile(r"turn up (\S+)"), lambda m: TurnUp(m[1])),
    (re.compile(r"simultaneous"), lambda m: Race(None)),
    (re.compile(rf"first {_SEAT}"), lambda m: Race(int(m[1]))),
    (re.compile(rf"seat {_SEAT} takes (\S+) from seat {_SEAT}"), lambda m: Penalty(int(m[1]), int(m[3]), m[2])),
    (re.compile(rf"seat {_SEAT} draws (\S+)"), lambda m: Draw(int(m[1]), m[2])),
)
MOVE_FORMS = "call, pass, favourite, fail, serve A+B, turn up GUEST, first SEAT, simultaneous, " \
             "seat T takes CARD from seat S, seat S draws CARD"


def parse_move(text: str, setup: Setup | None = None) -> Move:
    """The move a canonical text names (the inverse of ``str``); MoveSyntaxError (one line) if none."""
    t = " ".join(str(text).split())
    for pattern, build in _PATTERNS:
        m = pattern.fullmatch(t)
        if m:
            move = build(m)
            if setup is not None:
                _check_names(move, setup)
            return move
    raise MoveSyntaxError(f"not a just-desserts-2.3 move: {text!r} (forms: {MOVE_FORMS})")


def _check_names(move: Move, setup: Setup) -> None:
    deck: Deck = setup.components
    cards = getattr(move, "cards", ()) + ((move.card,) if isinstance(move, (Penalty, Draw)) else ())
    for c in cards:
        if not deck.has_dessert(c):
            raise MoveSyntaxError(f"unknown dessert {c!r} in {move}")
    if isinstance(move, TurnUp) and not deck.has_guest(move.guest):
        raise MoveSyntaxError(f"unknown guest {move.guest!r}")
    for seat in (getattr(move, "seat", None), getattr(move, "taker", None)):
        if seat is not None and not 0 <= seat < setup.players:
            raise MoveSyntaxError(f"no seat {seat} in a {setup.players}-player game: {move}")


# --------------------------------------------------------------------------- multiset helpers


def _remove(cards: tuple[str, ...], gone: tuple[str, ...]) -> tuple[str, ...]:
    left = list(cards)
    for c in gone:
        left.remove(c)
    return tuple(left)


def _add(cards: tuple[str, ...], more: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(cards + more))


def _contains(cards: tuple[str, ...], part: tuple[str, ...]) -> bool:
    left = list(cards)
    for c in part:
        if c not in left:
            return False
        left.remove(c)
    return True


def _set(seq: tuple, i: int, value: Any) -> tuple:
    return seq[:i] + (value,) + seq[i + 1:]


@remember_last
def _sorted_pile(pile: tuple[str, ...]) -> tuple[str, ...]:
    """The pile's cards sorted, copies together."""
    return tuple(sorted(pile))


def _outcomes(moves: MoveTable, pile: tuple[str, ...]) -> PileDraw:
    """``(the move of the card, probability count / size)`` for each distinct card of the pile, in card order,
    listed only when asked (:class:`~tablerules.model.core.PileDraw`: a random draw takes a card without listing)."""
    return PileDraw(moves, _sorted_pile(pile))


# --------------------------------------------------------------------------- servings


@lru_cache(maxsize=200_000)
def _servings(deck: Deck, hand: tuple[str, ...], guest: str, minimal: bool) -> tuple[tuple[str, ...], ...]:
    """Every serving of one to three desserts from ``hand`` (jd23.satisfy.tastes, jd23.serve.one-to-three)."""
    if minimal:  # rule: jd23.ruling.spare-desserts
        return minimal_servings(deck, hand, guest, MAX_SERVING)
    return servings(deck, hand, guest, max_cards=MAX_SERVING)


def hand_servings(state: State, seat: int) -> tuple[tuple[str, ...], ...]:
    """The servings ``seat`` could give the guest on the table (jd23.ruling.spare-desserts)."""
    return _hand_servings(state.setup, state.hands[seat], state.guest)


def _hand_servings(setup: Setup, hand: tuple[str, ...], guest: str) -> tuple[tuple[str, ...], ...]:
    return _servings(setup.components, hand, guest, setup.options.spare_desserts == "minimal")


def favourites_served(deck: Deck, cards: tuple[str, ...], guest: str, options: Options) -> int:
    """How many different favourites of the guest this serving gives (jd23.favourite.extra-card);
    with jd23.ruling.favourite-with-others = alone-only, a favourite counts only when served alone."""
    if not favorite_used(deck, cards, guest):  # rule: jd23.favourite.extra-card
        return 0
    if options.favourite_with_others == "alone-only" and len(cards) > 1:  # rule: jd23.ruling.favourite-with-others
        return 0
    favs = set(deck.guest(guest).favorites)
    return len({c for c in cards if c in favs})  # rule: jd23.favourite.extra-card


def favourite_servings(state: State, seat: int) -> tuple[tuple[str, ...], ...]:
    """The servings of ``seat`` that give the guest a favourite (jd23.favourite.extra-card)."""
    return _favourite_servings(state.setup, state.hands[seat], state.guest)


@lru_cache(maxsize=1 << 14)
def _favourite_servings(setup: Setup, hand: tuple[str, ...], guest: str) -> tuple[tuple[str, ...], ...]:
    deck, options = setup.components, setup.options
    every = _hand_servings(setup, hand, guest)
    return tuple(s for s in every if favourites_served(deck, s, guest, options))  # rule: jd23.favourite.extra-card


def callers(state: State) -> tuple[int, ...]:
    return _callers(state.answers)


@lru_cache(maxsize=1 << 10)
def _callers(answers: tuple[str, ...]) -> tuple[int, ...]:
    """Every seat that called, a Favorite claim (jd23.ruling.favourite-trump=favourite-call) being a call."""
    return tuple(i for i, a in enumerate(answers) if a in (CALL, FAVOURITE))  # rule: jd23.call.got-it


def contenders(state: State) -> tuple[int, ...]:
    """Who is still in the race: callers who have not failed (jd23.call.first-serves); after a trump,
    only the callers holding a Favorite serving (jd23.call.favourite-trump)."""
    live = tuple(s for s in callers(state) if s not in state.mistaken)  # rule: jd23.call.erroneous-covered
    if state.trumped:  # rule: jd23.call.favourite-trump
        return tuple(s for s in live if state.trumps[s] == FAVOURITE)  # rule: jd23.call.favourite-trump
    claimed = tuple(s for s in live if state.answers[s] == FAVOURITE)  # rule: jd23.ruling.favourite-trump
    return claimed or live  # a Favorite claimed in place of a call goes ahead of every plain call


@remember_last
def offered_servings(state: State) -> tuple[tuple[str, ...], ...]:
    """What the first caller may serve: a favourite serving when it won by a favourite trump
    (remembered for the last state asked: apply checks the serving against them)."""
    seat = state.first
    if state.answers[seat] == FAVOURITE:  # rule: jd23.ruling.favourite-trump
        return favourite_servings(state, seat)  # who claimed a Favorite serves one
    if (state.setup.options.favourite_trump == "favourite-caller-first"  # rule: jd23.ruling.favourite-trump
            and len([s for s in callers(state) if s not in state.mistaken]) > 1  # rule: jd23.call.erroneous-covered
            and (favs := favourite_servings(state, seat))):
        return favs
    return hand_servings(state, seat)


# --------------------------------------------------------------------------- the game


def new_game(setup: Setup) -> State:
    """Both decks shuffled, nothing dealt (jd23.setup.shuffle): chance deals five cards to each seat next."""
    deck: Deck = setup.components
    n = setup.players
    return State(
        setup=setup, phase=DEAL, hands=((),) * n, dessert_pile=deck.dessert_cards(), guest_pile=deck.guest_cards(),
        dishes=((),) * n, collected=((),) * n, draws=tuple(seat for seat in range(n) for _ in range(HAND_SIZE)),
    )


def setup_error(setup: Setup) -> str | None:
    deck = setup.components
    if not isinstance(deck, Deck):  # plumbing: a deck of the right kind
        return "components must be a Just Desserts deck"
    need = HAND_SIZE * setup.players
    have = len(deck.dessert_cards())
    if have < need:  # rule: jd23.setup.deal-five
        return f"deck {deck.name!r} has {have} desserts, fewer than the {need} the deal needs (jd23.setup.deal-five)"
    return None


def to_move(state: State) -> Any:
    if state.phase == OVER:  # rule: jd23.end.second-exhaustion
        return TERMINAL
    # rule: jd23.round.turn-up-guest, jd23.call.simultaneous, jd23.call.erroneous-penalty, jd23.draw.guest-leaves-hungry
    if state.phase in (DEAL, TURN_UP, RACE, PENALTY, DRAW):
        return CHANCE
    if state.phase == ANSWER:  # rule: jd23.call.got-it
        return state.answers.index("")
    if state.phase == TRUMP:  # rule: jd23.call.favourite-trump
        return _next_asked(state)
    return state.first


def _next_asked(state: State) -> int:
    """The next caller asked for a trump, clockwise from the first caller."""
    return _next_to_ask(state.trumps, state.first, state.setup.players)


@lru_cache(maxsize=1 << 10)
def _next_to_ask(trumps: tuple[str, ...], first: int, n: int) -> int:
    asked = (s for s, a in enumerate(trumps) if a == "")  # rule: jd23.call.favourite-trump
    return min(asked, key=lambda s: (s - first) % n)


def legal_moves(state: State) -> tuple[Move, ...]:
    """Seat moves in canonical order: call before pass; servings smallest first, then fail
    (remembered for the last state asked: apply checks a trump's answer against them)."""
    return _legal_moves(state)


@remember_last
def _legal_moves(state: State) -> tuple[Move, ...]:
    if state.phase == ANSWER:  # rule: jd23.call.got-it, jd23.call.pass
        # rule: jd23.ruling.favourite-trump
        if state.setup.options.favourite_trump == "favourite-call" and favourite_servings(state, to_move(state)):
            return _CALL_FAVOURITE_OR_PASS  # a Favorite claimed in place of a call
        return _CALL_OR_PASS
    if state.phase in (TRUMP, COUNTER):  # rule: jd23.call.favourite-trump
        # a caller holding a Favorite serving says so; one without cannot (jd23.call.favourite-trump)
        return _FAVOURITE if favourite_servings(state, to_move(state)) else _PASS  # rule: jd23.call.favourite-trump
    if state.phase == SERVE:  # rule: jd23.call.first-serves
        offered = offered_servings(state)
        if not offered:  # rule: jd23.call.erroneous-covered
            return _FAIL
        if state.setup.options.decline_after_call == "may-decline":  # rule: jd23.ruling.decline-after-call
            return _serve_moves(offered) + _FAIL  # a caller able to serve may still step aside
        return _serve_moves(offered)
    return ()


_CALL_OR_PASS, _FAVOURITE, _PASS, _FAIL = (Call(), Pass()), (Favourite(),), (Pass(),), (Fail(),)
_CALL_FAVOURITE_OR_PASS = (Call(), Favourite(), Pass())


@lru_cache(maxsize=1 << 12)
def _serve_moves(offered: tuple[tuple[str, ...], ...]) -> tuple[Serve, ...]:
    return tuple(Serve(s) for s in offered)


def chance_outcomes(state: State) -> Sequence[tuple[Move, Fraction]]:
    phase = state.phase
    if phase == TURN_UP:  # rule: jd23.round.turn-up-guest
        return PileDraw(_turn_ups(state.setup.components), state.guest_pile)  # one of each guest, in pile order
    if phase == RACE:  # rule: jd23.call.first-serves, jd23.call.simultaneous
        who = contenders(state)
        if state.trumped or _next_in_line(state):  # rule: jd23.call.favourite-trump, jd23.ruling.race-after-fail
            p = probability(1, len(who))
            return tuple((_race_move(s), p) for s in who)
        _favourite_gap(state)
        tie, each = race_odds(state.setup.options, len(who))
        return tuple((_race_move(s), each) for s in who) + ((_race_move(None), tie),)
    if phase == PENALTY:  # rule: jd23.call.erroneous-penalty
        seat = state.penalties[0]
        moves = _penalties(state.setup.components, penalty_taker(state, seat), seat)
        return _outcomes(moves, state.hands[seat])
    if phase in (DEAL, DRAW):  # rule: jd23.setup.deal-five, jd23.draw.guest-leaves-hungry
        return _outcomes(_draws(state.setup.components, state.draws[0]), state.dessert_pile)
    return ()


@lru_cache(maxsize=64)
def _turn_ups(deck: Deck) -> MoveTable:
    """Guest of this deck -> the chance move that turns it up."""
    return MoveTable(TurnUp)


@lru_cache(maxsize=64)
def _race_move(seat: int | None) -> Race:
    return Race(seat)


@lru_cache(maxsize=256)
def _penalties(deck: Deck, taker: int, seat: int) -> MoveTable:
    """Dessert of this deck -> the chance move by which ``taker`` takes it from ``seat``."""
    return MoveTable(partial(Penalty, taker, seat))


@lru_cache(maxsize=64)
def _draws(deck: Deck, seat: int) -> MoveTable:
    """Dessert of this deck -> the chance move by which ``seat`` draws it."""
    return MoveTable(partial(Draw, seat))


CHANCE_WEIGHTS = ("jd23.ruling.race-odds",)
"""Rulings whose alternatives change only the probabilities of chance outcomes, never which
outcomes exist: checks and explorations branch on every outcome whatever they say, while
statistics (exact values over the chance tree, sampled play) depend on them, so every report
of statistics states the alternative it used (proofs/discovery/impact.py)."""


def _next_in_line(state: State) -> bool:
    """After a caller failed, the next caller is one of those left, each as likely, and no tie can come up any more
    (jd23.ruling.race-after-fail=next-in-line); under tie-possible the callers left race again, a tie included."""
    failed = bool(state.mistaken)
    return failed and state.setup.options.race_after_fail == "next-in-line"  # rule: jd23.ruling.race-after-fail


def race_odds(options: Options, callers: int) -> tuple[Fraction, Fraction]:
    """(chance of a truly simultaneous call, chance of each caller being first) among ``callers``
    live callers (jd23.call.simultaneous, jd23.ruling.race-odds).  The checks branch on every
    outcome whatever the odds; only statistics weigh them."""
    return _race_odds(options.race_odds, callers)


@lru_cache(maxsize=256)
def _race_odds(choice: str, callers: int) -> tuple[Fraction, Fraction]:
    if choice == "equal":  # rule: jd23.ruling.race-odds
        return probability(1, callers + 1), probability(1, callers + 1)
    tie = probability(1, 10)
    return tie, Probability((1 - tie) / callers)


def _favourite_gap(state: State) -> None:
    """Under strict, a race among callers where one holds a favourite is the unexplained trump."""
    if state.setup.options.favourite_trump != STRICT:  # rule: jd23.ruling.favourite-trump
        return
    live = [s for s in callers(state) if s not in state.mistaken]  # rule: jd23.ruling.favourite-trump
    holders = [s for s in live if favourite_servings(state, s)]  # rule: jd23.ruling.favourite-trump
    if len(live) > 1 and holders:  # rule: jd23.ruling.favourite-trump
        raise RuleGap("jd23.ruling.favourite-trump",
                      f"callers {live} race for guest {state.guest}; seat {holders[0]} holds a favourite: "
                      "the text promises a trump by Favorite and never explains it")


def penalty_taker(state: State, seat: int) -> int:
    """Who takes the mistaken caller's random card (jd23.ruling.penalty-taker)."""
    choice = state.setup.options.penalty_taker
    n = state.setup.players
    if choice == STRICT:  # rule: jd23.ruling.penalty-taker
        raise RuleGap(
            "jd23.ruling.penalty-taker", f"seat {seat} pays a penalty; the text says only 'another player' takes it"
        )
    if choice == "maitre-d" and seat != MAITRE_D:  # rule: jd23.ruling.penalty-taker
        return MAITRE_D
    return (seat + 1) % n


# --------------------------------------------------------------------------- legality


def illegal_reason(state: State, move: Move) -> str | None:
    """The clause that forbids ``move`` here, or None."""
    actor = to_move(state)
    if actor is TERMINAL:  # rule: jd23.end.second-exhaustion
        return "jd23.end.second-exhaustion"  # the game is over
    if actor is CHANCE:  # plumbing: chance moves are checked against the outcomes
        # plumbing: which clause to name for an impossible chance move
        return None if _possible_chance(state, move) else _CHANCE_CLAUSE[state.phase]
    if state.phase == ANSWER:  # plumbing: which clause to name for an illegal move
        # an answer is "call" or "pass"; nothing else while the guest waits
        if isinstance(move, Favourite):  # rule: jd23.ruling.favourite-trump
            legal = move in legal_moves(state)
            return None if legal else "jd23.call.favourite-trump"  # rule: jd23.call.favourite-trump
        return None if isinstance(move, (Call, Pass)) else "jd23.call.got-it"  # rule: jd23.call.got-it, jd23.call.pass
    if state.phase in (TRUMP, COUNTER):  # plumbing: which clause to name for an illegal move
        return None if move in legal_moves(state) else "jd23.call.favourite-trump"  # rule: jd23.call.favourite-trump
    # phase serve: only the first caller acts, with a serving or a failure
    if isinstance(move, Fail):  # plumbing: which clause to name for an illegal move
        # a caller who can serve does so; fail is for a call that was mistaken (jd23.ruling.decline-after-call)
        if state.setup.options.decline_after_call == "may-decline":  # rule: jd23.ruling.decline-after-call
            return None
        # rule: jd23.call.first-serves, jd23.call.erroneous-covered
        return "jd23.call.first-serves" if offered_servings(state) else None
    if not isinstance(move, Serve):  # plumbing: which clause to name for an illegal move
        return "jd23.call.first-serves"
    if not 1 <= len(move.cards) <= MAX_SERVING:  # rule: jd23.serve.one-to-three
        return "jd23.serve.one-to-three"
    if not _contains(state.hands[state.first], move.cards):  # rule: jd23.serve.reveal-dirty-dishes
        return "jd23.serve.reveal-dirty-dishes"  # the desserts must come out of the server's hand
    if not satisfies(state.setup.components, move.cards, state.guest):  # rule: jd23.satisfy.tastes
        return "jd23.satisfy.tastes"
    if tuple(sorted(move.cards)) not in hand_servings(state, state.first):  # rule: jd23.ruling.spare-desserts
        return "jd23.ruling.spare-desserts"
    if move.cards not in offered_servings(state):  # rule: jd23.call.favourite-trump
        return "jd23.call.favourite-trump"
    return None


def _possible_chance(state: State, move: Move) -> bool:
    """True if ``move`` is one of ``chance_outcomes(state)`` (checked directly, without listing them)."""
    phase = state.phase
    if isinstance(move, Draw):  # plumbing: dispatch on the chance move
        return phase in (DEAL, DRAW) and move.seat == state.draws[0] and move.card in state.dessert_pile
    if isinstance(move, TurnUp):  # plumbing: dispatch on the chance move
        return phase == TURN_UP and move.guest in state.guest_pile
    if isinstance(move, Race):  # plumbing: dispatch on the chance move
        return phase == RACE and (move.seat in contenders(state)
                                  or move.seat is None and not state.trumped and not _next_in_line(state))
    if isinstance(move, Penalty):  # plumbing: dispatch on the chance move
        return (phase == PENALTY and move.seat == state.penalties[0] and move.card in state.hands[move.seat]
                and move.taker == penalty_taker(state, move.seat))
    return False


_CHANCE_CLAUSE = {
    DEAL: "jd23.setup.deal-five", TURN_UP: "jd23.round.turn-up-guest", RACE: "jd23.call.simultaneous",
    PENALTY: "jd23.call.erroneous-penalty", DRAW: "jd23.draw.guest-leaves-hungry",
}


# --------------------------------------------------------------------------- transitions


def apply(state: State, move: Move) -> State:
    reason = illegal_reason(state, move)
    if reason is not None:
        raise IllegalMove(reason, move, f"not allowed in phase {state.phase}")
    if isinstance(move, Draw):
        return _draw(state, move)
    if isinstance(move, TurnUp):
        return _turn_up(state, move.guest)
    if state.phase in (TRUMP, COUNTER):
        return _trump_answer(state, move)
    if isinstance(move, (Call, Pass, Favourite)):
        return _answer(state, str(move))
    if isinstance(move, Race):
        return _race(state, move.seat)
    if isinstance(move, Serve):
        return _serve(state, move.cards)
    if isinstance(move, Fail):
        return _fail(state)
    if isinstance(move, Penalty):
        return _penalty(state, move)
    raise IllegalMove("jd23.call.got-it", move, "unknown move")


def _turn_up(state: State, guest: str) -> State:
    """jd23.round.turn-up-guest: every seat now owes an answer."""
    s = replace(state, phase=ANSWER, guest=guest, guest_pile=_remove(state.guest_pile, (guest,)),
                answers=("",) * state.setup.players)
    if s.guest_pile or state.setup.options.guest_pile_empty != "at-last-turn-up":  # rule: jd23.ruling.guest-pile-empty
        return s
    # jd23.ruling.guest-pile-empty = at-last-turn-up: the pile is empty the moment its last guest is up
    return _guest_pile_ran_out(s)


def _guest_pile_ran_out(state: State) -> State:
    """jd23.guests.reshuffle-once the first time, jd23.end.second-exhaustion the second."""
    if state.reshuffled:  # rule: jd23.end.second-exhaustion
        return replace(state, phase=OVER)
    if not state.discards:  # rule: jd23.ruling.nothing-to-reshuffle
        if state.setup.options.nothing_to_reshuffle == STRICT:  # rule: jd23.ruling.nothing-to-reshuffle
            raise RuleGap("jd23.ruling.nothing-to-reshuffle",
                          "the guest pile ran out for the first time and the discard pile is empty")
        return replace(state, phase=OVER, reshuffled=True)
    return replace(state, guest_pile=state.discards, discards=(), reshuffled=True)


def _answer(state: State, answer: str) -> State:
    """jd23.call.got-it / jd23.call.pass; when all have answered, the round goes on."""
    seat = state.answers.index("")
    s = replace(state, answers=_set(state.answers, seat, answer))
    if "" in s.answers:  # rule: jd23.call.got-it
        return s
    if not callers(s):  # rule: jd23.round.all-pass
        return _guest_leaves_hungry(s)  # jd23.round.all-pass
    return _contest(s)


def _contest(state: State) -> State:
    """The next caller to serve: alone, by race, or nobody left (jd23.call.first-serves)."""
    who = contenders(state)
    if not who:  # rule: jd23.call.erroneous-penalty
        # every caller was mistaken: each pays (jd23.call.erroneous-penalty)
        return _start_penalties(replace(state, first=None), state.mistaken)
    if len(who) == 1:  # rule: jd23.call.first-serves
        _favourite_gap(state)
        return replace(state, phase=SERVE, first=who[0])
    return replace(state, phase=RACE, first=None)


def _race(state: State, seat: int | None) -> State:
    if seat is None:  # rule: jd23.call.simultaneous
        # jd23.call.simultaneous: the guest walks away and everyone draws; a caller in the
        # tie who could not have served is the case jd23.ruling.simultaneous-mistaken settles
        # rule: jd23.ruling.simultaneous-mistaken
        unable = tuple(c for c in contenders(state) if not hand_servings(state, c))
        rule = state.setup.options.simultaneous_mistaken
        if unable and rule == STRICT:  # rule: jd23.ruling.simultaneous-mistaken
            raise RuleGap("jd23.ruling.simultaneous-mistaken",
                          f"seats {list(unable)} called in a simultaneous tie without being able to serve")
        if unable and rule == "penalty":  # rule: jd23.ruling.simultaneous-mistaken
            return _start_penalties(replace(state, first=None), unable)
        return _guest_leaves_hungry(state)
    if state.trumped:  # rule: jd23.call.favourite-trump
        return replace(state, phase=SERVE, first=seat, trumped=False, trumps=())
    others = [s for s in contenders(state) if s != seat]  # rule: jd23.call.favourite-trump
    if state.setup.options.favourite_trump == "favourite-caller-first" and others:  # rule: jd23.ruling.favourite-trump
        # every other live caller is asked, whatever its hand holds, so asking reveals nothing
        # rule: jd23.call.favourite-trump
        trumps = tuple("" if s in others else "-" for s in range(state.setup.players))
        return replace(state, phase=TRUMP, first=seat, trumps=trumps)
    return replace(state, phase=SERVE, first=seat)


def _trump_answer(state: State, move: Move) -> State:
    """jd23.call.favourite-trump: the other callers say whether they hold a Favorite; if one does, the
    first caller answers with its own Favorite (and keeps the guest) or yields."""
    said = FAVOURITE if isinstance(move, Favourite) else PASS  # plumbing: the answer's word
    if state.phase == COUNTER:  # rule: jd23.call.favourite-trump
        if said == FAVOURITE:  # rule: jd23.call.favourite-trump
            return replace(state, phase=SERVE, trumps=())
        trump = tuple(s for s, a in enumerate(state.trumps) if a == FAVOURITE)  # rule: jd23.call.favourite-trump
        if len(trump) == 1:  # rule: jd23.call.favourite-trump
            return replace(state, phase=SERVE, first=trump[0], trumps=())
        return replace(state, phase=RACE, first=None, trumped=True, trumps=state.trumps)
    seat = _next_asked(state)
    s = replace(state, trumps=_set(state.trumps, seat, said))
    if "" in s.trumps:  # plumbing: more callers to ask
        return s
    if FAVOURITE in s.trumps:  # rule: jd23.call.favourite-trump
        return replace(s, phase=COUNTER)
    return replace(s, phase=SERVE, trumps=())


def _serve(state: State, cards: tuple[str, ...]) -> State:
    """jd23.serve.reveal-dirty-dishes; a favourite earns extra cards (jd23.favourite.extra-card)."""
    seat = state.first
    deck = state.setup.components
    guest = state.guest
    s = replace(
        state, hands=_set(state.hands, seat, _remove(state.hands[seat], cards)),
        dishes=_set(state.dishes, seat, _add(state.dishes[seat], cards)),
        collected=_set(state.collected, seat, _add(state.collected[seat], (guest,))),
        guest=None, answers=(), mistaken=(), first=None,
    )
    extra = _favourite_cards(favourites_served(deck, cards, guest, state.setup.options), guest, state.setup.options)
    return _favourite_draws(s, seat, extra) if extra else _next_round(s)  # rule: jd23.favourite.extra-card


def _favourite_cards(used: int, guest: str, options: Options) -> int:
    """jd23.favourite.extra-card: one extra card; two favourites served at once: jd23.ruling.two-favourites."""
    if used <= 1:  # rule: jd23.favourite.extra-card
        return used
    if options.two_favourites == STRICT:  # rule: jd23.ruling.two-favourites
        raise RuleGap(
            "jd23.ruling.two-favourites", f"both favourites of {guest} served together: one extra card or two?"
        )
    return used if options.two_favourites == "card-per-favourite" else 1  # rule: jd23.ruling.two-favourites


def _fail(state: State) -> State:
    """jd23.call.erroneous-covered: the mistaken caller steps aside; another caller may still serve."""
    return _contest(replace(state, mistaken=state.mistaken + (state.first,), first=None))


def _start_penalties(state: State, seats: tuple[int, ...]) -> State:
    """jd23.call.erroneous-penalty, each mistaken caller in seat order; an empty hand:
    jd23.ruling.penalty-empty-hand."""
    due = []
    for seat in sorted(seats):
        if state.hands[seat]:  # rule: jd23.call.erroneous-penalty
            due.append(seat)
        elif state.setup.options.penalty_empty_hand == STRICT:  # rule: jd23.ruling.penalty-empty-hand
            raise RuleGap("jd23.ruling.penalty-empty-hand", f"mistaken caller seat {seat} has no card to lose")
    if not due:  # rule: jd23.ruling.penalty-empty-hand
        return _guest_leaves_hungry(state)
    return replace(state, phase=PENALTY, penalties=tuple(due))


def _penalty(state: State, move: Penalty) -> State:
    """The random card goes onto a dirty-dish pile or out of play (jd23.ruling.penalty-pile)."""
    where = state.setup.options.penalty_pile
    s = replace(state, hands=_set(state.hands, move.seat, _remove(state.hands[move.seat], (move.card,))),
                penalties=state.penalties[1:])
    if where == "out-of-play":  # rule: jd23.ruling.penalty-pile
        s = replace(s, floor=_add(s.floor, (move.card,)))
    else:
        pile_of = move.seat if where == "caller" else move.taker  # rule: jd23.ruling.penalty-pile
        s = replace(s, dishes=_set(s.dishes, pile_of, _add(s.dishes[pile_of], (move.card,))))
    return s if s.penalties else _guest_leaves_hungry(s)  # rule: jd23.call.erroneous-penalty


def _guest_leaves_hungry(state: State) -> State:
    """jd23.draw.guest-leaves-hungry: the guest is discarded and everyone draws, kitchen permitting."""
    s = replace(state, discards=_add(state.discards, (state.guest,)), guest=None, answers=(), mistaken=(),
                first=None, penalties=())
    if s.kitchen_closed:  # rule: jd23.kitchen.closes
        return _next_round(s)
    n = s.setup.players
    if len(s.dessert_pile) < n:  # rule: jd23.kitchen.closes
        return _next_round(_close_kitchen(s))  # jd23.kitchen.closes
    return replace(s, phase=DRAW, draws=tuple(range(n)))


def _favourite_draws(state: State, seat: int, count: int) -> State:
    """jd23.favourite.extra-card, never after the kitchen closed (jd23.kitchen.closes)."""
    if state.kitchen_closed:  # rule: jd23.kitchen.closes
        return _next_round(state)
    # rule: jd23.ruling.kitchen-check
    if len(state.dessert_pile) < state.setup.players and state.setup.options.kitchen_check == STRICT:
        raise RuleGap(
            "jd23.ruling.kitchen-check",
            f"a favourite's extra card is due with only {len(state.dessert_pile)} dessert(s) left, too few for "
            f"everyone to draw",
        )
    if not state.dessert_pile:  # rule: jd23.kitchen.closes
        return _next_round(state)
    count = min(count, len(state.dessert_pile))
    return replace(state, phase=DRAW, draws=(seat,) * count)


def _draw(state: State, move: Draw) -> State:
    s = replace(state, hands=_set(state.hands, move.seat, _add(state.hands[move.seat], (move.card,))),
                dessert_pile=_remove(state.dessert_pile, (move.card,)), draws=state.draws[1:])
    if s.draws:  # rule: jd23.draw.guest-leaves-hungry
        return s
    return _next_round(_close_if_short(s))


def _close_kitchen(state: State) -> State:
    """jd23.kitchen.closes: the rest of the dessert pile is set aside for good."""
    return replace(state, kitchen_closed=True, set_aside=_add(state.set_aside, state.dessert_pile), dessert_pile=())


def _close_if_short(state: State) -> State:
    """jd23.ruling.kitchen-check = whenever-short: closed as soon as a round of draws is impossible."""
    # rule: jd23.ruling.kitchen-check, jd23.kitchen.closes
    if (state.setup.options.kitchen_check == "whenever-short" and not state.kitchen_closed
            and len(state.dessert_pile) < state.setup.players):
        return _close_kitchen(state)
    return state


def _next_round(state: State) -> State:
    """The Maitre D' turns up the next guest, or the guest pile has run out (jd23.round.turn-up-guest)."""
    s = replace(state, phase=TURN_UP, draws=(), answers=(), mistaken=(), first=None, penalties=(), trumped=False,
                trumps=())
    if s.guest_pile:  # rule: jd23.round.turn-up-guest
        return s
    s = _guest_pile_ran_out(s)
    return s if s.phase == OVER else replace(s, phase=TURN_UP)  # rule: jd23.end.second-exhaustion


# --------------------------------------------------------------------------- the end


def scores(state: State) -> tuple[tuple[int, int, int], ...]:
    """Per seat: guests collected, desserts in hand, dirty dishes (jd23.score.guests and the tie-breaks)."""
    return tuple(
        (len(state.collected[i]), len(state.hands[i]), len(state.dishes[i])) for i in range(state.setup.players)
    )


def ranking_key(score: tuple[int, int, int]) -> tuple[int, int, int]:
    """Higher is better: most guests, then most desserts in hand (jd23.score.tiebreak-hand),
    then fewest dirty dishes (jd23.score.tiebreak-dirty-dishes)."""
    guests, hand, dishes = score
    return (guests, hand, -dishes)


def outcome(state: State) -> Outcome | None:
    if state.phase != OVER:  # rule: jd23.end.second-exhaustion
        return None
    sc = scores(state)
    best = max(ranking_key(s) for s in sc)
    top = frozenset(i for i, s in enumerate(sc) if ranking_key(s) == best)  # rule: jd23.score.guests
    clause = _deciding_clause(sc, top)
    if len(top) == 1:  # rule: jd23.score.guests
        return Outcome(winners=top, scores=sc, clause=clause)
    # jd23.score.full-tie: the rulebook says to play again
    if state.setup.options.full_tie == "shared-win":  # rule: jd23.ruling.full-tie
        return Outcome(winners=top, scores=sc, clause="jd23.ruling.full-tie", detail="full tie: shared win")
    return Outcome(draw=True, scores=sc, clause="jd23.score.full-tie", detail=f"seats {sorted(top)} tie on every count")


def _deciding_clause(sc: tuple[tuple[int, int, int], ...], top: frozenset[int]) -> str:
    keys = [ranking_key(s) for s in sc]
    best = max(keys)
    for depth, clause in (
        (1, "jd23.score.guests"), (2, "jd23.score.tiebreak-hand"), (3, "jd23.score.tiebreak-dirty-dishes"),
    ):
        # rule: jd23.score.tiebreak-hand, jd23.score.tiebreak-dirty-dishes
        if sum(1 for k in keys if k[:depth] == best[:depth]) == 1:
            return clause
    return "jd23.score.full-tie"


# --------------------------------------------------------------------------- views


def observation(state: State, seat: int) -> dict[str, Any]:
    """What ``seat`` may see: its own hand, every count, the face-up piles; never another hand
    or the order of a pile (jd23.setup.shuffle)."""
    n = state.setup.players
    actor = to_move(state)
    return {
        "seat": seat,
        "phase": state.phase,
        "to_move": actor if isinstance(actor, int) else repr(actor),
        "hand": list(state.hands[seat]),
        "hand_sizes": [len(h) for h in state.hands],
        "dishes": [list(d) for d in state.dishes],
        "guests_collected": [len(c) for c in state.collected],
        "own_guests": list(state.collected[seat]),
        "guest": state.guest,
        "guest_pile": len(state.guest_pile),
        "discards": list(state.discards),
        "reshuffled": state.reshuffled,
        "dessert_pile": len(state.dessert_pile),
        "set_aside": len(state.set_aside),
        "floor": list(state.floor),
        "kitchen_closed": state.kitchen_closed,
        "answers": list(state.answers),
        "mistaken": list(state.mistaken),
        "first": state.first,
        "trumps": list(state.trumps),
        "trumped": state.trumped,
        "players": n,
    }


def state_vars(state: State) -> dict[str, Any]:
    return {
        "phase": state.phase,
        "hands": [list(h) for h in state.hands],
        "dessert_pile": list(state.dessert_pile),
        "guest_pile": list(state.guest_pile),
        "dishes": [list(d) for d in state.dishes],
        "collected": [list(c) for c in state.collected],
        "discards": list(state.discards),
        "set_aside": list(state.set_aside),
        "floor": list(state.floor),
        "kitchen_closed": state.kitchen_closed,
        "reshuffled": state.reshuffled,
        "guest": state.guest or "",
        "answers": list(state.answers),
        "mistaken": list(state.mistaken),
        "first": -1 if state.first is None else state.first,
        "penalties": list(state.penalties),
        "draws": list(state.draws),
        "trumps": list(state.trumps),
        "trumped": state.trumped,
    }


# --------------------------------------------------------------------------- invariants


@lru_cache(maxsize=64)
def _cards_of(deck: Deck) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return deck.dessert_cards(), deck.guest_cards()


def _every_dessert_once(state: State) -> str | None:
    deck: Deck = state.setup.components
    seen = sorted(itertools.chain(state.dessert_pile, state.set_aside, state.floor, *state.hands, *state.dishes))
    if tuple(seen) != _cards_of(deck)[0]:
        want, have = Counter(deck.dessert_cards()), Counter(seen)
        return f"desserts out of balance: {dict(have - want)} extra, {dict(want - have)} missing"
    return None


def _every_guest_once(state: State) -> str | None:
    deck: Deck = state.setup.components
    table = (state.guest,) if state.guest is not None else ()
    seen = sorted(itertools.chain(state.guest_pile, state.discards, table, *state.collected))
    if tuple(seen) != _cards_of(deck)[1]:
        return "guests out of balance"
    return None


def _closed_kitchen_is_empty(state: State) -> str | None:
    if state.kitchen_closed and state.dessert_pile:
        return f"kitchen closed with {len(state.dessert_pile)} desserts still in the pile"
    if state.set_aside and not state.kitchen_closed:
        return "desserts set aside while the kitchen is open"
    return None


def _guest_only_in_a_round(state: State) -> str | None:
    in_round = state.phase in (ANSWER, RACE, TRUMP, COUNTER, SERVE, PENALTY)
    if in_round and state.guest is None:
        return f"phase {state.phase} without a guest on the table"
    if state.phase in (DEAL, TURN_UP, DRAW) and state.guest is not None:
        return f"guest {state.guest} still on the table in phase {state.phase}"
    if state.phase == OVER and state.guest is not None and state.setup.options.guest_pile_empty == "at-next-turn-up":
        return "game over with a guest on the table"
    return None


def _ends_only_after_running_out(state: State) -> str | None:
    if state.phase == OVER and (state.guest_pile or not state.reshuffled):
        return "game over before the guest pile ran out twice"
    if state.phase != OVER and state.reshuffled and state.phase == TURN_UP and not state.guest_pile:
        return "turn-up from an empty guest pile after the reshuffle"
    return None


def _servings_are_small(state: State) -> str | None:
    # every serving leaves one to three desserts; dirty dishes hold servings and penalty cards only
    for seat, (d, c) in enumerate(zip(state.dishes, state.collected)):
        if len(c) > len(d):
            return f"seat {seat} collected {len(c)} guests with only {len(d)} dirty dishes"
    return None


def _callers_are_consistent(state: State) -> str | None:
    if state.phase == SERVE and (
        state.first is None or state.answers[state.first] not in (CALL, FAVOURITE) or state.first in state.mistaken
    ):
        return f"seat {state.first} serves without a standing call"
    for s in state.mistaken:
        if state.answers[s] not in (CALL, FAVOURITE):
            return f"seat {s} is mistaken without having called"
    return None


INVARIANTS = (
    Invariant("every-dessert-once", "jd23.setup.deal-five", _every_dessert_once,
              "every dessert card is in exactly one place: pile, a hand, dirty dishes or set aside"),
    Invariant("every-guest-once", "jd23.round.turn-up-guest", _every_guest_once,
              "every guest card is in the pile, the discards, a collection or on the table"),
    Invariant("closed-kitchen-is-empty", "jd23.kitchen.closes", _closed_kitchen_is_empty),
    Invariant("guest-only-in-a-round", "jd23.round.five-endings", _guest_only_in_a_round),
    Invariant("ends-after-second-run-out", "jd23.end.second-exhaustion", _ends_only_after_running_out),
    Invariant("servings-leave-dishes", "jd23.serve.one-to-three", _servings_are_small),
    Invariant("callers-consistent", "jd23.call.first-serves", _callers_are_consistent),
)


def is_race(state: State) -> bool:
    """True at the chance event that decides who called first (jd23.call.simultaneous); used by
    the order-of-resolution check of proofs/discovery/divergence.py."""
    return state.phase == RACE


def SMALL_CONFIGS() -> list[Setup]:  # noqa: N802 - the name proofs/discovery/gaps.py looks for
    """Configurations small enough to explore to the end: two players on v23-tiny."""
    return [RULES.setup(2, Options(), embedded_deck(DEFAULT_DECK))]


def default_components() -> Deck:
    """The embedded teaching deck (tablerules check runs on it)."""
    return embedded_deck(DEFAULT_DECK)


RULES = RuleSet.from_module(
    globals(),
    id=RULESET_ID,
    title="Just Desserts, rules version 2.3 (real-time calling game)",
    spec_file="just_desserts_v23.toml",
    player_counts=PLAYER_COUNTS,
    default_components=default_components,
    load_components=deck_argument,
    setup_error=setup_error,
)
