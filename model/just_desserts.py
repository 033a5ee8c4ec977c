"""Just Desserts, current rulebook: the basic game and the three advanced rules.

Clause ids refer to spec/just_desserts.toml.  The shape of a game:

* The deal (jd.setup.deal-hands, jd.setup.deal-guests) and every later draw or turn-up is
  a CHANCE event drawn from a pile held as an unordered multiset (jd.reshuffle.desserts,
  jd.reshuffle.guests).  Pending chance events wait in ``State.tasks``.
* A turn: the draw phase (jd.turn.draw-phase), then ONE option (jd.turn.one-option):
  serve up to two guests as a run of small moves ending with ``stop``
  (jd.turn.satisfy-guests), go back to the kitchen (jd.turn.kitchen), dump the tray one
  card at a time, then ``stop`` (jd.turn.dump-tray) or, with the Buffet rule, open a buffet (jd.buffet.aces); then the
  discard phase (jd.discard.one-per-suit, jd.discard.doorway).
* Out-of-turn answers (blocks, surprises) are a window: ``phase == "window"``; when more
  than one seat could answer, a CHANCE "race" decides who speaks first
  (jd.surprise.first-offered).  The advanced rules live in just_desserts_advanced.py.
* A player wins the moment their guests show three of a suit or five suits
  (jd.win.three-of-a-suit, jd.win.five-suits, jd.win.any-time).

Seat 0 is the player who most recently served dessert in real life (jd.first.player).

Where the other clauses live: the deck and its tastes come from model/decks.py
(jd.setup.components, jd.tastes.icons, jd.suits.six: any number of suits of equal size);
:func:`guest_servings` decides what satisfies a guest (jd.serve.satisfies; the rulebook's
worked example jd.turn.example is a test); the two piles and their discard piles are
fields of :class:`State` (jd.setup.piles); hands are tuples of any length
(jd.discard.no-hand-limit); 2 to 5 players (jd.players.count); the advanced rules are the
variant fields of :class:`Options` (jd.advanced.options).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from operator import attrgetter
from typing import Any

from .core import (
    CHANCE,
    STRICT,
    TERMINAL,
    IllegalMove,
    Outcome,
    RuleGap,
    RuleSet,
    Setup,
    ruling,
    variant,
)
from .decks import Deck, deck_argument, embedded_deck, servings
from .just_desserts_moves import KITCHEN, PASS, STOP, Move, parse_move
from .just_desserts_symmetry import canonical_twins, twin_classes

__all__ = ["RULES", "Options", "State", "Offer", "Move", "parse_move", "PASS", "STOP", "KITCHEN", "canonical_twins",
           "twin_classes", "guest_servings", "satisfying_sets", "winning_clause",
           "observation", "state_vars", "INVARIANTS", "SMALL_CONFIGS", "TEACHING_DECKS", "is_race"]

RULESET_ID = "just-desserts"
PLAYER_COUNTS = (2, 3, 4, 5)  # public source: 2 to 5 players (FACTS.md)
DEFAULT_DECK = "jd-two-suits"
HAND_SIZE = 3  # jd.setup.deal-hands
CENTRE_SIZE = 3  # jd.setup.deal-guests
MAX_SERVINGS = 2  # jd.turn.satisfy-guests
BUFFET_ACES = 4  # jd.buffet.aces
BUFFET_DRAWS = 3  # jd.buffet.draw-three


# --------------------------------------------------------------------------- options


@dataclass(frozen=True, slots=True)
class Options:
    """Rulings (jd.ruling.*) and the three advanced rules (variants)."""

    serving_size: str = ruling("jd.ruling.serving-size", "minimal", "any")
    dump_none: str = ruling("jd.ruling.dump-none", "forbidden", "allowed")
    tip_count: str = ruling("jd.ruling.tip-count", "one-per-guest", "one-per-favourite")
    reshuffle_time: str = ruling("jd.ruling.reshuffle-time", "when-needed", "at-once")
    dessert_supply: str = ruling("jd.ruling.dessert-supply-empty", "skip", STRICT)
    guest_supply: str = ruling("jd.ruling.guest-supply-empty", "skip", "draw-game", STRICT)
    all_claimed: str = ruling("jd.ruling.all-guests-claimed", "draw", "play-on", STRICT)
    answer_order: str = ruling("jd.ruling.answer-order", "race", "clockwise", STRICT)
    block_or_surprise: str = ruling("jd.ruling.plain-block-vs-surprise", "first-offered", STRICT)
    victim_tip_surprise: str = ruling("jd.ruling.victim-tip-on-surprise", "tip", "no-tip", STRICT)
    surprise_on_block: str = ruling("jd.ruling.surprise-on-block", "no", STRICT)
    poaching: bool = variant("poaching", "Poaching & Blocking (jd.poach.*, jd.block.*)")
    buffet: bool = variant("buffet", "Opening a Buffet (jd.buffet.*)")
    surprise_parties: bool = variant("surprise-parties", "Surprise Parties (jd.surprise.*)")


# --------------------------------------------------------------------------- state

DRAW = "d"  # task ("d", seat): a dessert card to that seat
TURN_UP = "g"  # task ("g", -1): the next guest into the middle


@dataclass(frozen=True, slots=True)
class Offer:
    """A serving attempt waiting for out-of-turn answers (jd.poach.attempt, jd.surprise.intercept)."""

    server: int
    guest: str
    cards: tuple[str, ...]
    victim: int = -1
    """Seat the guest is poached from, or -1 for the middle / the doorway."""
    back: str = "choose"
    """The phase play returns to: 'choose', or 'buffet' for the buffet's one serving."""


@dataclass(frozen=True, slots=True)
class State:
    setup: Setup
    hands: tuple[tuple[str, ...], ...]
    claimed: tuple[tuple[str, ...], ...]
    dessert_pile: tuple[str, ...]
    guest_pile: tuple[str, ...]
    dessert_discard: tuple[str, ...] = ()
    guest_discard: tuple[str, ...] = ()
    """Bottom first; the last card stands in the doorway (jd.discard.doorway)."""
    centre: tuple[str, ...] = ()
    turn: int = 0
    phase: str = "choose"
    """choose | dump | window | return | buffet | discard | over."""
    tasks: tuple[tuple[str, int], ...] = ()
    opening: bool = True
    """True until the first discard phase ends (the dealt middle may hold a suit twice)."""
    served: int = 0
    committed: bool = False
    """The serving option is chosen (a guest served or a poach blocked)."""
    poach: str = ""
    """'' | 'done' | 'blocked' (jd.poach.one-opportunity, jd.poach.blocked-no-retry)."""
    shielded: str = ""
    """A guest surprised away this turn, not to be poached back (jd.surprise.no-poach-back)."""
    offer: Offer | None = None
    answerers: tuple[int, ...] = ()
    speaker: int = -1
    returning: tuple[int, ...] = ()
    dumped: int = 0
    """Desserts thrown away so far by the tray option this turn (jd.turn.dump-tray)."""
    winner: int = -1
    end_clause: str = ""


_STATE_FIELDS = State.__slots__
_new_object = object.__new__
_set = object.__setattr__


_all_fields = attrgetter(*_STATE_FIELDS)
_FIELD_INDEX = {name: i for i, name in enumerate(_STATE_FIELDS)}


def evolve(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` for State, without its per-call overhead (the explorer's hot path)."""
    values = list(_all_fields(state))
    for name, value in changes.items():
        values[_FIELD_INDEX[name]] = value
    return State(*values)


def deck_of(state: State) -> Deck:
    return state.setup.components


def doorway(state: State) -> str | None:
    """The guest standing in the doorway: the top of the guest discard pile (jd.discard.doorway)."""
    return state.guest_discard[-1] if state.guest_discard else None


def _plus(cards: tuple[str, ...], more) -> tuple[str, ...]:
    return tuple(sorted(cards + tuple(more)))


def _minus(cards: tuple[str, ...], less) -> tuple[str, ...]:
    left = list(cards)
    for c in less:
        left.remove(c)
    return tuple(left)


def _set_seat(seq: tuple, seat: int, value) -> tuple:
    return seq[:seat] + (value,) + seq[seat + 1:]


# --------------------------------------------------------------------------- satisfying a guest


def guest_servings(state: State, hand: tuple[str, ...], guest: str) -> tuple[tuple[str, ...], ...]:
    """Every set of desserts from ``hand`` that may be served to ``guest`` (jd.turn.satisfy-guests).

    With the default ruling jd.ruling.serving-size=minimal a serving has no card to spare,
    so it has at most one card per wanted taste.
    """
    return satisfying_sets(deck_of(state), hand, guest, state.setup.options.serving_size == "minimal")


@lru_cache(maxsize=1 << 16)
def satisfying_sets(deck: Deck, hand: tuple[str, ...], guest: str, minimal: bool = True) -> tuple[tuple[str, ...], ...]:
    """Given a hand and a guest: every set of desserts from the hand that may be served to it.

    Sorted tuples of dessert ids, in canonical order (jd.serve.satisfies); ``minimal`` is
    jd.ruling.serving-size=minimal (no card to spare).
    """
    hand = tuple(sorted(hand))
    if minimal:
        return servings(deck, hand, guest, max_cards=len(deck.guest(guest).wants), minimal=True)
    return servings(deck, hand, guest)


def tips_for(state: State, guest: str, cards: tuple[str, ...]) -> int:
    """Tips for serving these desserts to this guest (jd.tip.favourite, jd.ruling.tip-count)."""
    favs = deck_of(state).guest(guest).favorites
    n = sum(1 for c in cards if c in favs)
    if state.setup.options.tip_count == "one-per-guest":
        return min(n, 1)
    return n


# --------------------------------------------------------------------------- set up


def new_game(setup: Setup) -> State:
    """Before the deal: three desserts to each seat, three guests face up, then seat 0's draw phase.

    jd.setup.deal-hands, jd.setup.deal-guests, jd.first.player.
    """
    deck: Deck = setup.components
    n = setup.players
    deal = tuple((DRAW, seat) for _ in range(HAND_SIZE) for seat in range(n))
    guests = tuple((TURN_UP, -1) for _ in range(CENTRE_SIZE))
    return State(
        setup=setup,
        hands=((),) * n,
        claimed=((),) * n,
        dessert_pile=deck.dessert_cards(),
        guest_pile=deck.guest_cards(),
        tasks=deal + guests + _draw_phase(0),
    )


def _draw_phase(seat: int) -> tuple[tuple[str, int], ...]:
    """jd.turn.draw-phase: one dessert to the player, then one guest into the middle."""
    return ((DRAW, seat), (TURN_UP, -1))


def setup_error(setup: Setup) -> str | None:
    deck = setup.components
    if not isinstance(deck, Deck):
        return "components must be a Just Desserts deck"
    if len(deck.dessert_cards()) < HAND_SIZE * setup.players:
        return f"deck {deck.name} has too few desserts to deal {HAND_SIZE} to each of {setup.players} players"
    if len(deck.guests) < CENTRE_SIZE:
        return f"deck {deck.name} has too few guests"
    return None


# --------------------------------------------------------------------------- who moves


def to_move(state: State):
    if state.phase == "over":
        return TERMINAL
    if state.tasks:
        return CHANCE
    if state.phase == "window":
        return CHANCE if state.speaker < 0 else state.speaker
    if state.phase == "return":
        return state.returning[0]
    return state.turn


def _dessert_source(state: State) -> tuple[str, ...]:
    """The cards a dessert draw comes from: the pile, or the reshuffled discards (jd.reshuffle.desserts)."""
    return state.dessert_pile or state.dessert_discard


def _guest_source(state: State) -> tuple[str, ...]:
    """The guests a turn-up comes from; a reshuffle keeps the top discard back (jd.reshuffle.guests)."""
    return state.guest_pile or tuple(sorted(state.guest_discard[:-1]))


def chance_outcomes(state: State) -> tuple[tuple[Move, Fraction], ...]:
    """Exact outcomes of the next chance event: a draw, a turn-up or a race (cached)."""
    return _chance_outcomes(state)


@lru_cache(maxsize=1 << 12)
def _chance_outcomes(state: State) -> tuple[tuple[Move, Fraction], ...]:
    if state.tasks:
        kind, _seat = state.tasks[0]
        source = _dessert_source(state) if kind == DRAW else _guest_source(state)
        counts = Counter(source)
        total = len(source)
        if kind == DRAW:
            return tuple((Move("draw", cards=(c,)), Fraction(k, total)) for c, k in sorted(counts.items()))
        return tuple((Move("turn-up", g), Fraction(k, total)) for g, k in sorted(counts.items()))
    if state.phase == "window" and state.speaker < 0:
        # jd.surprise.first-offered: who speaks first is a race; every order is explored.
        k = len(state.answerers)
        return tuple((Move("first", seat=s), Fraction(1, k)) for s in state.answerers)
    return ()


# --------------------------------------------------------------------------- legal moves


def legal_moves(state: State) -> tuple[Move, ...]:
    """The seat's moves in canonical (sorted) order; cached, since apply checks against them."""
    return _legal_moves(state)


@lru_cache(maxsize=1 << 12)
def _legal_moves(state: State) -> tuple[Move, ...]:
    actor = to_move(state)
    if actor is TERMINAL or actor is CHANCE:
        return ()
    from . import just_desserts_advanced as adv

    if state.phase == "window":
        return adv.answers(state)
    if state.phase == "return":
        return tuple(Move("return", g) for g in sorted(set(state.claimed[state.returning[0]])))
    if state.phase == "discard":
        return tuple(Move("depart", g) for g in _departable(state))
    moves: list[Move] = []
    if state.phase == "dump":
        return tuple(sorted(_dump_moves(state) + [STOP]))
    if state.phase == "buffet":
        moves += _serve_moves(state)
        moves.append(STOP)
        return tuple(sorted(moves))
    # phase == "choose"
    if state.served < MAX_SERVINGS:
        moves += _serve_moves(state)
        if state.setup.options.poaching:
            moves += adv.poach_moves(state)
    if state.committed:
        moves.append(STOP)
    else:
        moves.append(KITCHEN)
        moves += _dump_moves(state)
        if state.setup.options.buffet:
            moves += adv.buffet_moves(state)
    return tuple(sorted(moves))


def _unclaimed_servable(state: State) -> list[str]:
    """Guests in the middle and the one in the doorway (jd.discard.doorway)."""
    out = set(state.centre)
    d = doorway(state)
    if d is not None:
        out.add(d)
    return sorted(out)


def _serve_moves(state: State) -> list[Move]:
    hand = state.hands[state.turn]
    return [Move("serve", g, s) for g in _unclaimed_servable(state) for s in guest_servings(state, hand, g)]


def _dump_moves(state: State) -> list[Move]:
    """jd.turn.dump-tray, one card at a time (then ``stop``); an empty dump only with jd.ruling.dump-none=allowed.

    One card per move keeps the branching linear in the hand size (a retail hand of twenty
    cards has a million subsets); the explorer merges the orders that reach the same state.
    """
    moves = [Move("dump", cards=(c,)) for c in sorted(set(state.hands[state.turn]))]
    if state.phase == "choose" and state.setup.options.dump_none == "allowed":
        moves.append(Move("dump"))
    return moves


def _duplicated_suits(state: State) -> set[str]:
    deck = deck_of(state)
    counts = Counter(deck.suit_of(g) for g in state.centre)
    return {s for s, k in counts.items() if k > 1}


def _departable(state: State) -> list[str]:
    """jd.discard.one-per-suit: only a guest whose suit shows more than once may leave."""
    dup = _duplicated_suits(state)
    deck = deck_of(state)
    return sorted({g for g in state.centre if deck.suit_of(g) in dup})


# --------------------------------------------------------------------------- legality


def illegal_reason(state: State, move: Any) -> str | None:
    """The clause that forbids ``move`` here, or None if it is legal."""
    actor = to_move(state)
    if actor is TERMINAL:
        return "jd.win.any-time"
    if actor is CHANCE:
        return None if any(m == move for m, _ in chance_outcomes(state)) else "jd.reshuffle.desserts"
    if not isinstance(move, Move):
        return "jd.turn.one-option"
    if move in legal_moves(state):
        return None
    return _why_illegal(state, move)


def _why_illegal(state: State, move: Move) -> str:
    from . import just_desserts_advanced as adv

    o = state.setup.options
    if state.phase == "window":
        return adv.why_bad_answer(state, move)
    if state.phase == "discard":
        return "jd.discard.one-per-suit"
    if state.phase == "return":
        return "jd.buffet.others-return"
    if move.verb == "poach":
        return adv.why_bad_poach(state, move) if o.poaching else "jd.poach.attempt"
    if move.verb in ("block", "surprise", "pass", "first"):
        return "jd.block.defender" if move.verb == "block" else "jd.surprise.intercept"
    if move.verb == "serve":
        if state.served >= MAX_SERVINGS:
            return "jd.turn.satisfy-guests"
        if move.guest not in _unclaimed_servable(state):
            return "jd.discard.doorway"
        return "jd.turn.satisfy-guests"
    if move.verb == "buffet":
        return adv.why_bad_buffet(state, move) if o.buffet else "jd.buffet.aces"
    if move.verb == "dump" and state.phase in ("choose", "dump") and (state.phase == "dump" or not state.committed):
        if not move.cards:
            return "jd.ruling.dump-none"
        return "jd.turn.dump-tray"
    if state.committed or state.phase == "buffet":
        return "jd.turn.one-option"
    if move.verb == "stop":
        return "jd.turn.one-option"
    return "jd.turn.one-option"


# --------------------------------------------------------------------------- apply


def apply(state: State, move: Any) -> State:
    actor = to_move(state)
    reason = illegal_reason(state, move)
    if reason is not None:
        raise IllegalMove(reason, move, "not allowed here")
    if actor is CHANCE:
        nxt = _apply_chance(state, move)
    else:
        nxt = _apply_seat(state, move)
    return settle(nxt)


def _apply_chance(state: State, move: Move) -> State:
    if move.verb == "first":
        return evolve(state, speaker=move.seat)
    kind, seat = state.tasks[0]
    rest = state.tasks[1:]
    if kind == DRAW:
        s = _refill_desserts(state)
        card = move.cards[0]
        hand = _plus(s.hands[seat], (card,))
        return evolve(s, tasks=rest, dessert_pile=_minus(s.dessert_pile, (card,)), hands=_set_seat(s.hands, seat, hand))
    s = _refill_guests(state)
    return evolve(s, tasks=rest, guest_pile=_minus(s.guest_pile, (move.guest,)), centre=_plus(s.centre, (move.guest,)))


def _refill_desserts(state: State) -> State:
    """jd.reshuffle.desserts: an empty dessert pile is replaced by its shuffled discards."""
    if state.dessert_pile:
        return state
    return evolve(state, dessert_pile=state.dessert_discard, dessert_discard=())


def _refill_guests(state: State) -> State:
    """jd.reshuffle.guests: the discards but the top one become the pile; the top one stays."""
    if state.guest_pile:
        return state
    return evolve(state, guest_pile=tuple(sorted(state.guest_discard[:-1])), guest_discard=state.guest_discard[-1:])


def _apply_seat(state: State, move: Move) -> State:
    from . import just_desserts_advanced as adv

    seat = to_move(state)
    if move.verb == "serve":
        return adv.offer(state, Offer(seat, move.guest, move.cards, -1, state.phase))
    if move.verb == "poach":
        return adv.offer(state, Offer(seat, move.guest, move.cards, adv.holder(state, move.guest), state.phase))
    if move.verb in ("block", "surprise", "pass"):
        return adv.answer(state, seat, move)
    if move.verb == "return":
        return adv.return_guest(state, seat, move.guest)
    if move.verb == "buffet":
        return adv.open_buffet(state, move.cards)
    if move.verb == "stop" and state.phase == "dump":
        # jd.turn.dump-tray: draw as many as were thrown away.
        return evolve(state, phase="discard", tasks=((DRAW, seat),) * state.dumped, dumped=0)
    if move.verb == "stop":
        return evolve(state, phase="discard")
    if move.verb == "kitchen":
        # jd.turn.kitchen: one extra dessert.
        return evolve(state, committed=True, phase="discard", tasks=((DRAW, seat),))
    if move.verb == "dump" and not move.cards:
        return evolve(state, committed=True, phase="discard")  # jd.ruling.dump-none=allowed: a pass
    if move.verb == "dump":
        # jd.turn.dump-tray: throw away one more card; ``stop`` draws as many.
        hand = _minus(state.hands[seat], move.cards)
        return evolve(
            state, hands=_set_seat(state.hands, seat, hand), dessert_discard=_plus(state.dessert_discard, move.cards),
            committed=True, phase="dump", dumped=state.dumped + 1,
        )
    if move.verb == "depart":
        return _depart(state, move.guest)
    raise IllegalMove("jd.turn.one-option", move, "unknown move")  # pragma: no cover


def _depart(state: State, guest: str) -> State:
    """jd.discard.one-per-suit / jd.discard.doorway: the guest leaves; the last to leave stands in the doorway."""
    return evolve(state, centre=_minus(state.centre, (guest,)), guest_discard=state.guest_discard + (guest,))


def serve_succeeds(state: State, offer: Offer) -> State:
    """The guest joins the server; the desserts go to the discard pile; tips follow (jd.tip.favourite)."""
    s = _take_guest(state, offer.guest, offer.victim)
    claimed = _set_seat(s.claimed, offer.server, _plus(s.claimed[offer.server], (offer.guest,)))
    tasks = ((DRAW, offer.server),) * tips_for(state, offer.guest, offer.cards)
    poach = s.poach
    if offer.victim >= 0:
        poach = "done"  # jd.poach.one-opportunity
        tasks = ((DRAW, offer.victim),) + tasks  # jd.poach.victim-tip
    phase = "discard" if offer.back == "buffet" else "choose"
    return evolve(
        s, claimed=claimed, dessert_discard=_plus(s.dessert_discard, offer.cards), served=s.served + 1,
        committed=True, poach=poach, offer=None, answerers=(), speaker=-1, phase=phase, tasks=s.tasks + tasks,
    )


def _take_guest(state: State, guest: str, victim: int) -> State:
    """Remove a guest from where it is: a player's guests, the middle or the doorway."""
    if victim >= 0:
        return evolve(state, claimed=_set_seat(state.claimed, victim, _minus(state.claimed[victim], (guest,))))
    if guest in state.centre:
        return evolve(state, centre=_minus(state.centre, (guest,)))
    # the doorway guest: the one beneath now stands in the doorway (jd.discard.doorway)
    return evolve(state, guest_discard=state.guest_discard[:-1])


# --------------------------------------------------------------------------- after every move


def settle(state: State) -> State:
    """Everything that happens without a choice: reshuffles, wins, ends of phases and turns."""
    for _ in range(64):
        nxt = _settle_once(state)
        if nxt is state:
            return state
        state = nxt
    raise RuntimeError("settle did not reach a fixed point")  # pragma: no cover


def _settle_once(state: State) -> State:
    if state.phase == "over":
        return state
    o = state.setup.options
    if o.reshuffle_time == "at-once":
        refilled = _refill_desserts(state) if state.dessert_discard else state
        if len(refilled.guest_discard) > 1:
            refilled = _refill_guests(refilled)
        if refilled != state:
            return refilled
    win = winner(state)
    if win is not None:
        return evolve(state, phase="over", winner=win[0], end_clause=win[1], tasks=())
    if state.tasks:
        return _settle_task(state)
    if state.phase == "window":
        from . import just_desserts_advanced as adv

        return adv.settle_window(state)
    if state.phase == "choose" and state.served >= MAX_SERVINGS:
        return evolve(state, phase="discard")
    if state.phase == "return" and not state.returning:
        return evolve(state, phase="buffet", tasks=((DRAW, state.turn),) * BUFFET_DRAWS)
    if state.phase == "discard" and not _duplicated_suits(state):
        return _end_turn(state)
    if _all_claimed(state):
        return _all_claimed_end(state)
    return state


def _settle_task(state: State) -> State:
    """A draw or turn-up with nothing to take from (jd.ruling.dessert-supply-empty, jd.ruling.guest-supply-empty)."""
    kind, _ = state.tasks[0]
    o = state.setup.options
    if kind == DRAW and not _dessert_source(state):
        if o.dessert_supply == STRICT:
            raise RuleGap("jd.ruling.dessert-supply-empty", "a dessert must be drawn but pile and discards are empty")
        return evolve(state, tasks=state.tasks[1:])
    if kind == TURN_UP and not _guest_source(state):
        if o.guest_supply == STRICT:
            raise RuleGap("jd.ruling.guest-supply-empty", "a guest must be turned up but no guest is left to turn up")
        if o.guest_supply == "draw-game":
            return evolve(state, phase="over", tasks=(), end_clause="jd.ruling.guest-supply-empty")
        return evolve(state, tasks=state.tasks[1:])
    return state


def _end_turn(state: State) -> State:
    """jd.discard.turn-ends: the next seat clockwise starts with a draw phase."""
    nxt = (state.turn + 1) % state.setup.players
    return evolve(
        state, turn=nxt, phase="choose", tasks=_draw_phase(nxt), opening=False, served=0, committed=False,
        poach="", shielded="", offer=None, answerers=(), speaker=-1, returning=(), dumped=0,
    )


def _all_claimed(state: State) -> bool:
    return not (state.centre or state.guest_discard or state.guest_pile or state.tasks)


def _all_claimed_end(state: State) -> State:
    """jd.ruling.all-guests-claimed: every guest is with a player and nobody has won."""
    o = state.setup.options
    if o.all_claimed == "play-on" or o.poaching:
        # with Poaching a claimed guest can still change hands (jd.poach.attempt)
        return state
    if o.all_claimed == STRICT:
        raise RuleGap("jd.ruling.all-guests-claimed", "every guest is claimed and nobody has won")
    return evolve(state, phase="over", end_clause="jd.ruling.all-guests-claimed")


# --------------------------------------------------------------------------- winning


@lru_cache(maxsize=1 << 14)
def winning_clause(deck: Deck, guests: tuple[str, ...]) -> str | None:
    """jd.win.three-of-a-suit or jd.win.five-suits if these guests win, else None."""
    suits = Counter(deck.suit_of(g) for g in guests)
    if any(k >= 3 for k in suits.values()):
        return "jd.win.three-of-a-suit"
    if len(suits) >= 5:
        return "jd.win.five-suits"
    return None


def winner(state: State) -> tuple[int, str] | None:
    """jd.win.any-time: the first seat (from the player whose turn it is) whose guests win."""
    return _winner(deck_of(state), state.claimed, state.turn)


@lru_cache(maxsize=1 << 14)
def _winner(deck: Deck, claimed: tuple[tuple[str, ...], ...], turn: int) -> tuple[int, str] | None:
    n = len(claimed)
    for k in range(n):
        seat = (turn + k) % n
        clause = winning_clause(deck, claimed[seat])
        if clause:
            return seat, clause
    return None


def outcome(state: State) -> Outcome | None:
    if state.phase != "over":
        return None
    n = state.setup.players
    if state.winner < 0:
        return Outcome(draw=True, clause=state.end_clause, scores=tuple(len(c) for c in state.claimed))
    return Outcome(
        winners=frozenset({state.winner}), losers=frozenset(set(range(n)) - {state.winner}),
        clause=state.end_clause, scores=tuple(len(c) for c in state.claimed),
    )


# --------------------------------------------------------------------------- views, invariants, the rule set

from .just_desserts_views import INVARIANTS, observation, state_vars  # noqa: E402 - they use the functions above


def default_components() -> Deck:
    return embedded_deck(DEFAULT_DECK)


RULES = RuleSet.from_module(
    globals(),
    id=RULESET_ID,
    title="Just Desserts (current rulebook)",
    spec_file="just_desserts.toml",
    player_counts=PLAYER_COUNTS,
    default_components=default_components,
    load_components=deck_argument,
    setup_error=setup_error,
    symmetries={"twins": lambda s: canonical_twins(s)},
    default_symmetry="twins",
)

TEACHING_DECKS = ("jd-two-suits", "jd-one-suit", "jd-rivals")


def SMALL_CONFIGS() -> list[Setup]:  # noqa: N802 - the name proofs/gaps.py looks for
    """Configurations small enough to explore to the end: 2 players on each teaching deck."""
    return [RULES.setup(2, Options(), embedded_deck(name)) for name in TEACHING_DECKS]


def is_race(state: State) -> bool:
    """True at the chance event that decides which of several answering players speaks first
    (jd.surprise.first-offered, jd.ruling.answer-order); the order-of-resolution check of
    proofs/divergence.py branches on it."""
    return state.phase == "window" and state.speaker < 0 and not state.tasks
