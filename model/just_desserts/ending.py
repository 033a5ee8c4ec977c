"""How a game of Just Desserts (current rulebook) ends without a win.

Clause ids refer to spec/just_desserts.toml.  Two places where the rulebook is silent:

* every guest is claimed and nobody has won (jd.ruling.all-guests-claimed); the
  publisher's FAQ (question 1026) answers it: play goes on until every guest has been
  served, then each player scores a point per guest and a bonus point per matching pair
  (jd.ruling.matching-pair); the highest score wins, a tie goes to the most desserts left
  in hand, and a tie on both is jd.ruling.score-full-tie.  The FAQ answers for the basic
  game; when the score is counted while an advanced rule could still move a claimed guest
  is jd.ruling.faq-score-when;
* nobody can ever serve, poach or open a buffet again, so nothing that decides the game
  can change and play would go round for ever (jd.ruling.no-serving-possible);
* guests can still change hands (a poach, a buffet), but play can go round for ever with no
  end reachable (jd.ruling.endless-play): by default play goes on; repeated-position ends the
  game the third time the same position starts a turn.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from ..core import STRICT, Outcome, RuleGap
from ..decks import Deck
from .serving import satisfying_sets
from .state import BUFFET_ACES, State, deck_of, evolve

FAQ_SCORE = "faq-score"
ALL_CLAIMED = "jd.ruling.all-guests-claimed"
NO_SERVING = "jd.ruling.no-serving-possible"
ENDLESS = "jd.ruling.endless-play"
PLAY_ON = "play-on"
REPEATS_TO_END = 3
"""jd.ruling.endless-play=repeated-position: the game ends the third time a position starts a turn."""


# --------------------------------------------------------------------------- every guest claimed


def all_claimed(state: State) -> bool:
    """No guest is left to serve: none in the piles, the middle or the doorway, none about to be turned up."""
    return not (state.centre or state.guest_discard or state.guest_pile or state.tasks)


def all_claimed_end(state: State) -> State:
    """jd.ruling.all-guests-claimed: every guest is with a player and nobody has won."""
    o = state.setup.options
    if o.all_claimed == FAQ_SCORE:  # rule: jd.ruling.all-guests-claimed
        return _faq_score_now(state)
    if o.all_claimed == "play-on":  # rule: jd.ruling.all-guests-claimed
        return state
    if o.all_claimed == STRICT:  # rule: jd.ruling.all-guests-claimed
        raise RuleGap(ALL_CLAIMED, "every guest is claimed and nobody has won")
    # draw: unless a claimed guest can still change hands (jd.poach.attempt) or go back to
    # the middle (jd.buffet.others-return)
    if guests_can_move(state):  # rule: jd.ruling.all-guests-claimed, jd.poach.attempt, jd.buffet.aces
        return state
    return evolve(state, phase="over", end_clause=ALL_CLAIMED)


def _faq_score_now(state: State) -> State:
    """jd.ruling.faq-score-when: the publisher's scoring the moment the last guest is claimed
    (at-once), when that turn ends (turn-end, see :func:`turn_end_score`), or at the start of
    the first turn from which no claimed guest can change hands any more (when-settled)."""
    when = state.setup.options.faq_score_when
    if when == "turn-end":  # rule: jd.ruling.faq-score-when
        return state
    # rule: jd.ruling.faq-score-when
    if when == "when-settled" and not (at_turn_start(state) and not guests_can_move(state)):
        return state
    return evolve(state, phase="over", end_clause=ALL_CLAIMED)


def turn_end_score(state: State) -> State | None:
    """jd.ruling.faq-score-when=turn-end: a turn that ends with every guest claimed and no winner
    ends the game, scored by the publisher's count; None where play goes on."""
    o = state.setup.options
    # rule: jd.ruling.faq-score-when
    if o.all_claimed == FAQ_SCORE and o.faq_score_when == "turn-end" and all_claimed(state):
        return evolve(state, phase="over", end_clause=ALL_CLAIMED)
    return None


def guests_can_move(state: State) -> bool:
    """Could a claimed guest still change hands: a poach (jd.poach.attempt) anybody could make,
    or a buffet (jd.buffet.others-return) anybody could open?"""
    o = state.setup.options
    # rule: jd.poach.attempt, jd.buffet.aces
    return bool(o.poaching and state.setup.players > 1 and serving_possible(state)) or bool(
        o.buffet and buffet_possible(state)
    )


def _free_desserts(state: State) -> bool:
    """Desserts in the pile or its discards: hands can still change (a dump or a draw)."""
    return bool(state.dessert_pile or state.dessert_discard)


@lru_cache(maxsize=256)
def _aces_in(deck: Deck, cards: tuple[str, ...]) -> int:
    return sum(1 for c in cards if len(deck.dessert(c).tastes) == 1)  # rule: jd.buffet.aces


@lru_cache(maxsize=64)
def _deck_aces(deck: Deck) -> int:
    return _aces_in(deck, deck.dessert_cards())


def buffet_possible(state: State) -> bool:
    """Could anybody ever open a buffet again (jd.buffet.aces)?  While desserts are free, a hand can
    come to hold any four aces of the deck; once every dessert is in a hand, hands never change,
    so only a hand with four aces can."""
    deck = deck_of(state)
    if _free_desserts(state):  # rule: jd.reshuffle.desserts, jd.turn.dump-tray
        return _deck_aces(deck) >= BUFFET_ACES
    return any(_aces_in(deck, h) >= BUFFET_ACES for h in state.hands)


# --------------------------------------------------------------------------- nothing can happen any more


@lru_cache(maxsize=1 << 12)
def _deck_can_satisfy(deck: Deck, guest: str) -> bool:
    return bool(satisfying_sets(deck, deck.dessert_cards(), guest))


def serving_possible(state: State) -> bool:
    """Could anybody ever serve a guest (or poach one, or open a buffet) again?

    While desserts are free (pile or discards), cards can reach any hand, so it is enough
    that the whole deck satisfies some guest still to be served; once every dessert is in a
    hand, hands never change (a dump draws the same cards back), so a hand itself must.
    Sound, not complete: a True does not promise the serving will come.
    """
    o = state.setup.options
    deck = deck_of(state)
    # Guests in the state's own order (dicts as ordered sets, never sets): which guest is asked first must not
    # depend on string hashing (a changed model that fails on some guests only fails on every machine or none).
    unclaimed = dict.fromkeys((*state.guest_pile, *state.guest_discard, *state.centre))
    if o.buffet and buffet_possible(state):  # rule: jd.buffet.aces
        return True
    if _free_desserts(state):  # rule: jd.reshuffle.desserts, jd.turn.dump-tray
        # rule: jd.poach.attempt
        poachable = dict.fromkeys(g for c in state.claimed for g in c) if o.poaching and state.setup.players > 1 else {}
        return any(_deck_can_satisfy(deck, g) for g in unclaimed | poachable)
    for seat, hand in enumerate(state.hands):
        targets = dict(unclaimed)
        if o.poaching:  # rule: jd.poach.attempt
            # rule: jd.poach.attempt
            targets |= dict.fromkeys(g for other, c in enumerate(state.claimed) if other != seat for g in c)
        if any(satisfying_sets(deck, hand, g) for g in targets):  # rule: jd.serve.satisfies
            return True
    return False


def no_serving_end(state: State) -> State:
    """jd.ruling.no-serving-possible: nothing that decides the game can change any more."""
    o = state.setup.options
    if o.no_serving == "play-on":  # rule: jd.ruling.no-serving-possible
        return state
    if o.no_serving == STRICT:  # rule: jd.ruling.no-serving-possible
        raise RuleGap(NO_SERVING, "nobody can ever serve, poach or open a buffet again")
    return evolve(state, phase="over", end_clause=NO_SERVING)


def repeated_position(state: State) -> State:
    """jd.ruling.endless-play (repeated-position or strict): a turn starts at ``state`` (before its draw
    phase); count how often this position (the state without its history) has started a turn.  The third
    time ends the game, scored by the publisher's count (:func:`scored_outcome`); under strict the second
    time is a rule gap.  Every game ends under repeated-position: positions are finitely many and each
    starts at most two turns before the end, so a game has at most twice as many turns as positions."""
    key = evolve(state, seen=frozenset())
    seen = state.seen
    times = 2 if (key, 2) in seen else 1 if (key, 1) in seen else 0  # rule: jd.ruling.endless-play
    if times and state.setup.options.endless_play == STRICT:  # rule: jd.ruling.endless-play
        raise RuleGap(ENDLESS, "a turn starts at a position it has started at before: play may go round for ever")
    if times + 1 >= REPEATS_TO_END:  # rule: jd.ruling.endless-play
        return evolve(state, phase="over", tasks=(), end_clause=ENDLESS)
    return evolve(state, seen=(seen - {(key, times)}) | {(key, times + 1)})


def at_turn_start(state: State) -> bool:
    """The player to move has drawn and not yet chosen an option (the moment the end checks look)."""
    return (state.phase == "choose" and not state.tasks and not state.committed and state.served == 0
            and state.offer is None)


# --------------------------------------------------------------------------- the publisher's score


def pairs(deck: Deck, guests: tuple[str, ...], reading: str) -> int:
    """Matching pairs among a player's guests (jd.ruling.matching-pair)."""
    counts = Counter(deck.suit_of(g) for g in guests).values()
    if reading == "exactly-two":  # rule: jd.ruling.matching-pair
        return sum(1 for k in counts if k == 2)  # rule: jd.ruling.matching-pair
    if reading == "every-two":  # rule: jd.ruling.matching-pair
        return sum(k * (k - 1) // 2 for k in counts)
    return sum(k // 2 for k in counts)


def faq_points(state: State) -> tuple[int, ...]:
    """A point per guest and a bonus point per matching pair, per seat (jd.ruling.all-guests-claimed)."""
    deck, reading = deck_of(state), state.setup.options.matching_pair
    return tuple(len(c) + pairs(deck, c, reading) for c in state.claimed)


def scored_outcome(state: State) -> Outcome:
    """The publisher's scoring: most points; a tie goes to most desserts in hand; then jd.ruling.score-full-tie."""
    n = state.setup.players
    points = faq_points(state)
    keys = [(points[s], len(state.hands[s])) for s in range(n)]
    best = max(keys)
    top = frozenset(s for s in range(n) if keys[s] == best)  # rule: jd.ruling.all-guests-claimed
    detail = "points " + ", ".join(f"seat {s}: {points[s]}" for s in range(n))
    if len(top) == 1 or state.setup.options.score_full_tie == "shared-win":  # rule: jd.ruling.score-full-tie
        return Outcome(
            winners=top, losers=frozenset(range(n)) - top, scores=points, clause=state.end_clause, detail=detail
        )
    return Outcome(draw=True, scores=points, clause="jd.ruling.score-full-tie", detail=detail + "; tied on hand too")
