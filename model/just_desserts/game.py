"""The turn of Just Desserts (current rulebook): who moves, the legal moves, what a move does,
and the end of the game.

Clause ids refer to spec/just_desserts.toml; the package docstring (``__init__.py``) gives
the shape of a game.  The advanced rules' moves and answers live in advanced.py.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache, partial
from itertools import repeat
from operator import attrgetter, is_
from typing import Any, Sequence

from ..core import (
    CHANCE, STRICT, TERMINAL, IllegalMove, MoveTable, Outcome, PileDraw, RuleGap, Setup, probability,
    remember_last,
)
from ..decks import Deck
from . import advanced as adv
from .ending import (
    ENDLESS, FAQ_SCORE, PLAY_ON, all_claimed, all_claimed_end, at_turn_start, no_serving_end, repeated_position,
    scored_outcome, serving_possible, turn_end_score,
)
from .moves import KITCHEN, STOP, Move
from .serving import offers_serving, serving_moves
from .state import (
    BUFFET_DRAWS, CENTRE_SIZE, DRAW, HAND_SIZE, MAX_SERVINGS, TURN_UP, Offer, State, deck_of, doorway, evolve, holder,
    minus, plus, set_seat,
)

# functions that decide nothing about play, and why (the decision-point finder reads this)
PLUMBING = {
    "_chance_move": "which chance move",
    "_why_illegal": "which clause to name for an illegal move",
    "apply": "illegal moves raise; dispatch on the actor",
    "_listed": "a move listed for this very state is legal",
    "_is_move_of": "the same move, or an equal one",
    "settle": "a fixed point",
}


# --------------------------------------------------------------------------- set up


def new_game(setup: Setup) -> State:
    """Before the deal: three desserts to each seat, three guests face up, then seat 0's draw phase.

    jd.setup.deal-hands, jd.setup.deal-guests, jd.first.player.  Under
    jd.ruling.opening-duplicates=at-setup seat 0 first sends dealt guests away until every
    suit shows at most once (phase ``sort``), and its draw phase follows.
    """
    deck: Deck = setup.components
    n = setup.players
    deal = tuple((DRAW, seat) for _ in range(HAND_SIZE) for seat in range(n))
    guests = tuple((TURN_UP, -1) for _ in range(CENTRE_SIZE))
    if setup.options.opening_duplicates == "at-setup":  # rule: jd.ruling.opening-duplicates
        return State(setup=setup, hands=((),) * n, claimed=((),) * n, dessert_pile=deck.dessert_cards(),
                     guest_pile=deck.guest_cards(), tasks=deal + guests, phase="sort")
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
    if not isinstance(deck, Deck):  # plumbing: a deck of the right kind
        return "components must be a Just Desserts deck"
    if len(deck.dessert_cards()) < HAND_SIZE * setup.players:  # rule: jd.setup.deal-hands
        return f"deck {deck.name} has too few desserts to deal {HAND_SIZE} to each of {setup.players} players"
    if len(deck.guests) < CENTRE_SIZE:  # rule: jd.setup.deal-guests
        return f"deck {deck.name} has too few guests"
    return None


# --------------------------------------------------------------------------- who moves


def to_move(state: State):
    if state.phase == "over":  # rule: jd.win.any-time
        return TERMINAL
    if state.tasks:  # rule: jd.setup.deal-hands, jd.turn.draw-phase
        return CHANCE
    if state.phase == "window":  # rule: jd.surprise.first-offered
        return CHANCE if state.speaker < 0 else state.speaker  # rule: jd.surprise.first-offered
    if state.phase == "return":  # rule: jd.buffet.others-return
        return state.returning[0]
    return state.turn


def _dessert_source(state: State) -> tuple[str, ...]:
    """The cards a dessert draw comes from: the pile, or the reshuffled discards (jd.reshuffle.desserts)."""
    return state.dessert_pile or state.dessert_discard


def _guest_source(state: State) -> tuple[str, ...]:
    """The guests a turn-up comes from; a reshuffle keeps the top discard back (jd.reshuffle.guests)."""
    return state.guest_pile or tuple(sorted(state.guest_discard[:-1]))


def chance_outcomes(state: State) -> Sequence[tuple[Move, Fraction]]:
    """Exact outcomes of the next chance event: a draw, a turn-up or a race (remembered for the
    last state asked)."""
    return _chance_outcomes(state)


@remember_last
def _chance_outcomes(state: State) -> Sequence[tuple[Move, Fraction]]:
    if state.tasks:  # rule: jd.reshuffle.desserts, jd.reshuffle.guests
        kind, _seat = state.tasks[0]
        # plumbing: which pile the task draws from
        source = _dessert_source(state) if kind == DRAW else _guest_source(state)
        return _draws(deck_of(state), source, kind)
    if state.phase == "window" and state.speaker < 0:  # rule: jd.surprise.first-offered
        # jd.surprise.first-offered: who speaks first is a race; every order is explored.
        p = probability(1, len(state.answerers))
        return tuple((_first_move(s), p) for s in state.answerers)
    return ()


@lru_cache(maxsize=64)
def _first_move(seat: int) -> Move:
    return Move("first", seat=seat)


# --------------------------------------------------------------------------- legal moves


@remember_last
def _draws(deck: Deck, source: tuple[str, ...], kind: str) -> PileDraw:
    """Each card of a pile (a sorted tuple) with probability count / size (jd.reshuffle.desserts), listed
    only when asked: random play picks a card without listing the pile (:class:`PileDraw`)."""
    return PileDraw(_chance_moves(deck, kind), source)


@lru_cache(maxsize=64)
def _chance_moves(deck: Deck, kind: str) -> MoveTable:
    """Card of this deck -> the chance move that draws it (a dessert) or turns it up (a guest)."""
    return MoveTable(partial(_chance_move, kind))


def _chance_move(kind: str, card: str) -> Move:
    return Move("draw", cards=(card,)) if kind == DRAW else Move("turn-up", card)


def _is_outcome(state: State, move: Any) -> bool:
    """Is ``move`` one of the next chance event's outcomes (:func:`chance_outcomes`)?  A draw
    or a turn-up names a card of the pile it comes from; a race's result names an answerer."""
    if not isinstance(move, Move):  # plumbing: not a move of this rule set
        return False
    if state.tasks:  # rule: jd.reshuffle.desserts, jd.reshuffle.guests
        kind = state.tasks[0][0]
        if kind == DRAW:  # plumbing: which pile the task draws from
            return (move.verb == "draw" and len(move.cards) == 1 and move.cards[0] in _dessert_source(state)
                    and _is_move_of(_chance_moves(deck_of(state), kind)[move.cards[0]], move))
        return (move.verb == "turn-up" and move.guest in _guest_source(state)
                and _is_move_of(_chance_moves(deck_of(state), kind)[move.guest], move))
    return move in frozenset(m for m, _ in chance_outcomes(state))  # rule: jd.surprise.first-offered


def _is_move_of(table_move: Move, move: Move) -> bool:
    """``move`` is the chance move of the table (the same object, as chance_outcomes lists it, or an equal one)."""
    return table_move is move or table_move == move


def legal_moves(state: State) -> tuple[Move, ...]:
    """The seat's moves in canonical (sorted) order; remembered for the last state asked, since
    apply checks against them."""
    return _legal_moves(state)


_MOVE_ORDER = attrgetter("verb", "guest", "cards", "seat")
"""The order of moves (``Move`` compares these fields in turn), as a sort key."""


def _sorted(moves: list[Move]) -> tuple[Move, ...]:
    return tuple(sorted(moves, key=_MOVE_ORDER))


@remember_last
def _legal_moves(state: State) -> tuple[Move, ...]:
    actor = to_move(state)
    if actor is TERMINAL or actor is CHANCE:  # plumbing: only a seat has moves
        return ()
    if state.phase == "window":  # rule: jd.surprise.intercept, jd.block.defender
        return adv.answers(state)
    if state.phase == "return":  # rule: jd.buffet.others-return
        return tuple(map(_guest_move, repeat("return"), sorted(set(state.claimed[state.returning[0]]))))
    if state.phase in ("discard", "sort"):  # rule: jd.discard.one-per-suit, jd.ruling.opening-duplicates
        return tuple(map(_guest_move, repeat("depart"), _departable(state)))
    moves: list[Move] = []
    if state.phase == "dump":  # rule: jd.turn.dump-tray
        return _sorted(_dump_moves(state) + [STOP])
    if state.phase == "buffet":  # rule: jd.buffet.serve-one
        moves += _serve_moves(state)
        moves.append(STOP)
        return _sorted(moves)
    # phase == "choose"
    if state.served < MAX_SERVINGS:  # rule: jd.turn.satisfy-guests
        moves += _serve_moves(state)
        if state.setup.options.poaching:  # rule: jd.poach.attempt
            moves += adv.poach_moves(state)
    return _sorted(moves + _option_moves(state))


def _option_moves(state: State) -> list[Move]:
    """The moves of the choose phase besides servings and poaches (jd.turn.one-option)."""
    if state.committed:  # rule: jd.turn.one-option
        return [STOP]
    moves = [KITCHEN] + _dump_moves(state)
    if state.setup.options.serve_none == "allowed":  # rule: jd.ruling.serve-none
        moves.append(STOP)  # the serving option taken, no guest served: in effect a pass
    if state.setup.options.buffet:  # rule: jd.buffet.aces
        moves += adv.buffet_moves(state)
    return moves


def _moves_besides_servings(state: State) -> list[Move] | tuple[Move, ...]:
    """:func:`legal_moves` without the serve and poach moves, listed without listing those (see
    :func:`_serving_allowed`)."""
    if state.phase == "choose":  # plumbing: the phases whose moves include servings
        return _option_moves(state)
    if state.phase == "buffet":  # rule: jd.buffet.serve-one
        return [STOP]
    return legal_moves(state)


def _unclaimed_servable(state: State) -> list[str]:
    """Guests in the middle and the one in the doorway (jd.discard.doorway)."""
    out = set(state.centre)
    d = doorway(state)
    if d is not None:  # rule: jd.discard.doorway
        out.add(d)
    return sorted(out)


def _serve_moves(state: State) -> list[Move]:
    return serving_moves(state, "serve", _unclaimed_servable(state))


def _dump_moves(state: State) -> list[Move]:
    """jd.turn.dump-tray, one card at a time (then ``stop``); an empty dump only with jd.ruling.dump-none=allowed.

    One card per move keeps the branching linear in the hand size (a retail hand of twenty
    cards has a million subsets); the explorer merges the orders that reach the same state.
    """
    moves = list(map(_dump_move, sorted(set(state.hands[state.turn]))))
    if state.phase == "choose" and state.setup.options.dump_none == "allowed":  # rule: jd.ruling.dump-none
        moves.append(Move("dump"))
    return moves


@lru_cache(maxsize=1 << 10)
def _guest_move(verb: str, guest: str) -> Move:
    """A move naming one guest (depart, return), made once and shared."""
    return Move(verb, guest)


@lru_cache(maxsize=1 << 10)
def _dump_move(card: str) -> Move:
    return Move("dump", cards=(card,))


def _duplicated_suits(state: State) -> frozenset[str]:
    return _suits_twice(deck_of(state), state.centre)


@lru_cache(maxsize=1 << 12)
def _suits_twice(deck: Deck, centre: tuple[str, ...]) -> frozenset[str]:
    """The suits that show more than once among these guests in the middle."""
    counts = Counter(deck.suit_of(g) for g in centre)
    return frozenset(s for s, k in counts.items() if k > 1)  # rule: jd.discard.one-per-suit


def _departable(state: State) -> list[str]:
    """jd.discard.one-per-suit: only a guest whose suit shows more than once may leave
    (jd.ruling.discard-which=duplicates-only), or any guest while some suit shows twice (any-guest)."""
    dup = _duplicated_suits(state)
    if dup and state.setup.options.discard_which == "any-guest":  # rule: jd.ruling.discard-which
        return sorted(set(state.centre))
    deck = deck_of(state)
    # rule: jd.discard.one-per-suit, jd.ruling.discard-which
    return sorted({g for g in state.centre if deck.suit_of(g) in dup})


# --------------------------------------------------------------------------- legality


def illegal_reason(state: State, move: Any) -> str | None:
    """The clause that forbids ``move`` here, or None if it is legal."""
    actor = to_move(state)
    if actor is TERMINAL:  # rule: jd.win.any-time
        return "jd.win.any-time"
    if actor is CHANCE:  # plumbing: chance moves are checked against the outcomes
        return None if _is_outcome(state, move) else "jd.reshuffle.desserts"  # rule: jd.reshuffle.desserts
    if not isinstance(move, Move):  # plumbing: not a move of this rule set
        return "jd.turn.one-option"
    if move.verb in ("serve", "poach"):  # plumbing: a serving is decided, not looked up among every serving listed
        allowed = _serving_allowed(state, move)
        return None if allowed else _why_illegal(state, move)  # plumbing: legal moves need no clause
    if move in _moves_besides_servings(state):  # plumbing: legal moves need no clause
        return None
    return _why_illegal(state, move)


def _serving_allowed(state: State, move: Move) -> bool:
    """Whether a serve or poach move is among :func:`legal_moves`, decided for this move alone: the
    moves list every serving of every guest, which for a large hand under
    jd.ruling.serving-size=any are millions."""
    if move.seat != -1 or state.phase not in ("choose", "buffet"):  # plumbing: as legal_moves lists servings
        return False
    if state.phase == "choose" and state.served >= MAX_SERVINGS:  # rule: jd.turn.satisfy-guests
        return False
    if move.verb == "serve":  # rule: jd.turn.satisfy-guests, jd.discard.doorway
        target = move.guest in _unclaimed_servable(state)
    else:  # rule: jd.poach.attempt, jd.poach.one-opportunity, jd.surprise.no-poach-back
        target = (state.phase == "choose" and state.setup.options.poaching and not state.poach
                  and holder(state, move.guest) not in (-1, state.turn) and move.guest not in state.shielded)
    return target and offers_serving(state, state.hands[state.turn], move.guest, move.cards)


def _why_illegal(state: State, move: Move) -> str:
    o = state.setup.options
    if state.phase == "window":
        return adv.why_bad_answer(state, move)
    if state.phase in ("discard", "sort"):
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
    if move.verb == "stop" and state.phase == "choose":
        return "jd.ruling.serve-none"
    return "jd.turn.one-option"


# --------------------------------------------------------------------------- apply


def apply(state: State, move: Any) -> State:
    if to_move(state) is CHANCE and _is_outcome(state, move):
        return settle(_apply_chance(state, move))
    if not _listed(state, move):
        reason = illegal_reason(state, move)
        if reason is not None:
            raise IllegalMove(reason, move, "not allowed here")
    return settle(_apply_seat(state, move))


def _listed(state: State, move: Any) -> bool:
    """``move`` is, by identity, one of the legal moves last listed for this very state: then it
    is legal, and :func:`illegal_reason` (which explains a refusal) need not be asked."""
    listed = _legal_moves.known(state)
    return listed is not None and any(map(is_, listed, repeat(move)))


def _apply_chance(state: State, move: Move) -> State:
    if move.verb == "first":  # rule: jd.surprise.first-offered
        return evolve(state, speaker=move.seat)
    kind, seat = state.tasks[0]
    rest = state.tasks[1:]
    if kind == DRAW:  # plumbing: dispatch on the task
        s = _refill_desserts(state)
        card = move.cards[0]
        hand = plus(s.hands[seat], (card,))
        return _drawn(s, rest, minus(s.dessert_pile, (card,)), set_seat(s.hands, seat, hand))
    s = _refill_guests(state)
    return _turned_up(s, rest, minus(s.guest_pile, (move.guest,)), plus(s.centre, (move.guest,)))


_drawn = evolve.builder("tasks", "dessert_pile", "hands")
"""``evolve(state, tasks=, dessert_pile=, hands=)`` with the values in that order (every draw of a dessert)."""
_turned_up = evolve.builder("tasks", "guest_pile", "centre")
"""``evolve(state, tasks=, guest_pile=, centre=)`` with the values in that order (every guest turned up)."""


def _refill_desserts(state: State) -> State:
    """jd.reshuffle.desserts: an empty dessert pile is replaced by its shuffled discards."""
    if state.dessert_pile:  # rule: jd.reshuffle.desserts
        return state
    return evolve(state, dessert_pile=state.dessert_discard, dessert_discard=())


def _refill_guests(state: State) -> State:
    """jd.reshuffle.guests: the discards but the top one become the pile; the top one stays."""
    if state.guest_pile:  # rule: jd.reshuffle.guests
        return state
    return evolve(state, guest_pile=tuple(sorted(state.guest_discard[:-1])), guest_discard=state.guest_discard[-1:])


def _apply_seat(state: State, move: Move) -> State:
    seat = to_move(state)
    if move.verb == "serve":  # rule: jd.turn.satisfy-guests
        return adv.offer(state, Offer(seat, move.guest, move.cards, -1, state.phase))
    if move.verb == "poach":  # rule: jd.poach.attempt
        return adv.offer(state, Offer(seat, move.guest, move.cards, holder(state, move.guest), state.phase))
    if move.verb in ("block", "surprise", "pass"):  # rule: jd.block.defender, jd.surprise.intercept
        return adv.answer(state, seat, move)
    if move.verb == "return":  # rule: jd.buffet.others-return
        return adv.return_guest(state, seat, move.guest)
    if move.verb == "buffet":  # rule: jd.buffet.aces
        return adv.open_buffet(state, move.cards)
    if move.verb == "stop" and state.phase == "dump":  # rule: jd.turn.dump-tray
        # jd.turn.dump-tray: draw as many as were thrown away.
        return evolve(state, phase="discard", tasks=((DRAW, seat),) * state.dumped, dumped=0)
    if move.verb == "stop":  # rule: jd.turn.one-option
        return evolve(state, phase="discard")
    if move.verb == "kitchen":  # rule: jd.turn.kitchen
        # jd.turn.kitchen: one extra dessert.
        return evolve(state, committed=True, phase="discard", tasks=((DRAW, seat),))
    if move.verb == "dump" and not move.cards:  # rule: jd.ruling.dump-none
        return evolve(state, committed=True, phase="discard")  # jd.ruling.dump-none=allowed: a pass
    if move.verb == "dump":  # rule: jd.turn.dump-tray
        # jd.turn.dump-tray: throw away one more card; ``stop`` draws as many.
        hand = minus(state.hands[seat], move.cards)
        return evolve(
            state, hands=set_seat(state.hands, seat, hand), dessert_discard=plus(state.dessert_discard, move.cards),
            committed=True, phase="dump", dumped=state.dumped + 1,
        )
    if move.verb == "depart":  # rule: jd.discard.one-per-suit
        return _depart(state, move.guest)
    raise IllegalMove("jd.turn.one-option", move, "unknown move")  # pragma: no cover


def _depart(state: State, guest: str) -> State:
    """jd.discard.one-per-suit / jd.discard.doorway: the guest leaves; the last to leave stands in the doorway."""
    return evolve(state, centre=minus(state.centre, (guest,)), guest_discard=state.guest_discard + (guest,))


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
    if state.phase == "over":  # rule: jd.win.any-time
        return state
    o = state.setup.options
    if o.reshuffle_time == "at-once":  # rule: jd.ruling.reshuffle-time
        # rule: jd.ruling.reshuffle-time, jd.reshuffle.desserts
        refilled = _refill_desserts(state) if state.dessert_discard else state
        if len(refilled.guest_discard) > 1:  # rule: jd.reshuffle.guests
            refilled = _refill_guests(refilled)
        if refilled is not state:  # plumbing: something was rebuilt (a refill always changes a pile)
            return refilled

    win = winner(state)
    if win is not None:  # rule: jd.win.any-time
        return evolve(state, phase="over", winner=win[0], end_clause=win[1], tasks=())
    if state.tasks and o.reshuffle_time == "when-needed":  # rule: jd.ruling.reshuffle-time
        refilled = _refill_for_task(state)
        if refilled is not state:  # plumbing: something was rebuilt
            return refilled
    if state.tasks:  # rule: jd.ruling.dessert-supply-empty, jd.ruling.guest-supply-empty
        return _settle_task(state)
    if state.phase == "sort" and not _duplicated_suits(state):  # rule: jd.ruling.opening-duplicates
        return evolve(state, phase="choose", tasks=_draw_phase(state.turn), opening=False)
    if state.phase == "sort":  # rule: jd.ruling.opening-duplicates
        return state  # seat 0 sends a guest away
    if state.phase == "window":  # rule: jd.surprise.intercept, jd.block.defender
        return adv.settle_window(state)
    if all_claimed(state):  # rule: jd.ruling.all-guests-claimed
        ended = all_claimed_end(state)  # before the turn moves on: a game that ends now ends mid-turn
        if ended is not state:  # rule: jd.ruling.all-guests-claimed, jd.ruling.faq-score-when
            return ended
    if state.phase == "choose" and state.served >= MAX_SERVINGS:  # rule: jd.turn.satisfy-guests
        return evolve(state, phase="discard")
    if state.phase == "return" and not state.returning:  # rule: jd.buffet.draw-three
        return evolve(state, phase="buffet", tasks=((DRAW, state.turn),) * BUFFET_DRAWS)
    if state.phase == "discard" and not _duplicated_suits(state):  # rule: jd.discard.turn-ends
        return turn_end_score(state) or _end_turn(state)
    if all_claimed(state):  # rule: jd.ruling.all-guests-claimed
        return state  # play goes on with every guest claimed (all_claimed_end above said so)
    if at_turn_start(state) and not serving_possible(state):  # rule: jd.ruling.no-serving-possible
        return no_serving_end(state)
    return state


def _refill_for_task(state: State) -> State:
    """jd.ruling.reshuffle-time=when-needed: a draw or turn-up is due from an empty pile, so its discards become
    the pile now, before the chance event (the pile a seat sees is the one the card comes from)."""
    kind = state.tasks[0][0]
    if kind == DRAW and not state.dessert_pile and state.dessert_discard:  # rule: jd.reshuffle.desserts
        return _refill_desserts(state)
    if kind == TURN_UP and not state.guest_pile and len(state.guest_discard) > 1:  # rule: jd.reshuffle.guests
        return _refill_guests(state)
    return state


def _settle_task(state: State) -> State:
    """A draw or turn-up with nothing to take from (jd.ruling.dessert-supply-empty, jd.ruling.guest-supply-empty)."""
    kind, _ = state.tasks[0]
    o = state.setup.options
    if kind == DRAW and not _dessert_source(state):  # rule: jd.ruling.dessert-supply-empty
        if o.dessert_supply == STRICT:  # rule: jd.ruling.dessert-supply-empty
            raise RuleGap("jd.ruling.dessert-supply-empty", "a dessert must be drawn but pile and discards are empty")
        return evolve(state, tasks=state.tasks[1:])
    if kind == TURN_UP and not _guest_source(state):  # rule: jd.ruling.guest-supply-empty
        if o.guest_supply == STRICT:  # rule: jd.ruling.guest-supply-empty
            raise RuleGap("jd.ruling.guest-supply-empty", "a guest must be turned up but no guest is left to turn up")
        if o.guest_supply == "draw-game":  # rule: jd.ruling.guest-supply-empty
            return evolve(state, phase="over", tasks=(), end_clause="jd.ruling.guest-supply-empty")
        return evolve(state, tasks=state.tasks[1:])
    return state


def _end_turn(state: State) -> State:
    """jd.discard.turn-ends: the next seat (jd.ruling.turn-direction) starts with a draw phase."""
    nxt = next_seat(state)
    started = evolve(
        state, turn=nxt, phase="choose", tasks=_draw_phase(nxt), opening=False, served=0, committed=False,
        poach="", shielded=(), offer=None, answerers=(), speaker=-1, returning=(), dumped=0,
    )
    if state.setup.options.endless_play == PLAY_ON:  # rule: jd.ruling.endless-play
        return started
    return repeated_position(started)  # rule: jd.ruling.endless-play


def next_seat(state: State) -> int:
    """Who plays after the player whose turn it is (jd.ruling.turn-direction): seats are numbered
    clockwise; with two players both directions give the other seat."""
    n, direction = state.setup.players, state.setup.options.turn_direction
    if direction == STRICT and n > 2:  # rule: jd.ruling.turn-direction
        raise RuleGap("jd.ruling.turn-direction", "a turn ends and the rulebook never says who plays next")
    step = -1 if direction == "counter-clockwise" else 1  # rule: jd.ruling.turn-direction
    return (state.turn + step) % n


# --------------------------------------------------------------------------- winning


@lru_cache(maxsize=1 << 14)
def winning_clause(deck: Deck, guests: tuple[str, ...]) -> str | None:
    """jd.win.three-of-a-suit or jd.win.five-suits if these guests win, else None."""
    suits = Counter(deck.suit_of(g) for g in guests)
    if any(k >= 3 for k in suits.values()):  # rule: jd.win.three-of-a-suit
        return "jd.win.three-of-a-suit"
    if len(suits) >= 5:  # rule: jd.win.five-suits
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
        if clause:  # rule: jd.win.any-time
            return seat, clause
    return None


def outcome(state: State) -> Outcome | None:
    if state.phase != "over":  # rule: jd.win.any-time
        return None
    n = state.setup.players
    # rule: jd.ruling.all-guests-claimed, jd.ruling.no-serving-possible, jd.ruling.endless-play
    if (state.winner < 0 and state.end_clause in ("jd.ruling.all-guests-claimed", "jd.ruling.no-serving-possible",
                                                  ENDLESS)
            and _scored(state)):
        return scored_outcome(state)
    if state.winner < 0:  # rule: jd.ruling.all-guests-claimed, jd.ruling.no-serving-possible
        return Outcome(draw=True, clause=state.end_clause, scores=tuple(len(c) for c in state.claimed))
    return Outcome(
        winners=frozenset({state.winner}), losers=frozenset(set(range(n)) - {state.winner}),
        clause=state.end_clause, scores=tuple(len(c) for c in state.claimed),
    )


def _scored(state: State) -> bool:
    """The game ended by the publisher's scoring rather than as a draw."""
    o = state.setup.options
    if state.end_clause == "jd.ruling.all-guests-claimed":  # rule: jd.ruling.all-guests-claimed
        return o.all_claimed == FAQ_SCORE
    if state.end_clause == ENDLESS:  # rule: jd.ruling.endless-play
        return True  # repeated-position: always the publisher's count
    return o.no_serving == FAQ_SCORE  # rule: jd.ruling.no-serving-possible
