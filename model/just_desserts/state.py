"""The state of a Just Desserts game (current rulebook) and the rulings as options.

Clause ids refer to spec/just_desserts.toml.  The piles are unordered multisets (sorted
tuples), so a draw is one chance event (jd.reshuffle.desserts); pending chance events wait
in ``State.tasks``; the two piles and their discard piles are fields (jd.setup.piles);
hands are tuples of any length (jd.discard.no-hand-limit).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import STRICT, Setup, ruling, variant
from ..decks import Deck
from .frozen import replacer

# functions that decide nothing about play, and why (the decision-point finder reads this)
PLUMBING = {
    "holder": "a look-up",
}

HAND_SIZE = 3  # jd.setup.deal-hands
CENTRE_SIZE = 3  # jd.setup.deal-guests
MAX_SERVINGS = 2  # jd.turn.satisfy-guests
BUFFET_ACES = 4  # jd.buffet.aces
BUFFET_DRAWS = 3  # jd.buffet.draw-three

DRAW = "d"  # task ("d", seat): a dessert card to that seat
TURN_UP = "g"  # task ("g", -1): the next guest into the middle


# --------------------------------------------------------------------------- options


@dataclass(frozen=True, slots=True)
class Options:
    """Rulings (jd.ruling.*) and the three advanced rules (variants)."""

    serving_size: str = ruling("jd.ruling.serving-size", "minimal", "any")
    dump_none: str = ruling("jd.ruling.dump-none", "forbidden", "allowed")
    tip_count: str = ruling("jd.ruling.tip-count", "one-per-guest", "one-per-favourite")
    favourite_with_others: str = ruling("jd.ruling.favourite-with-others", "counts", "alone-only")
    reshuffle_time: str = ruling("jd.ruling.reshuffle-time", "at-once", "when-needed")
    dessert_supply: str = ruling("jd.ruling.dessert-supply-empty", "skip", STRICT)
    guest_supply: str = ruling("jd.ruling.guest-supply-empty", "skip", "draw-game", STRICT)
    all_claimed: str = ruling("jd.ruling.all-guests-claimed", "faq-score", "draw", "play-on", STRICT)
    faq_score_when: str = ruling("jd.ruling.faq-score-when", "at-once", "turn-end", "when-settled")
    matching_pair: str = ruling("jd.ruling.matching-pair", "pairs", "exactly-two", "every-two")
    score_full_tie: str = ruling("jd.ruling.score-full-tie", "draw", "shared-win")
    no_serving: str = ruling("jd.ruling.no-serving-possible", "faq-score", "draw", "play-on", STRICT)
    answer_order: str = ruling("jd.ruling.answer-order", "race", "clockwise", STRICT)
    block_or_surprise: str = ruling("jd.ruling.plain-block-vs-surprise", "first-offered", STRICT)
    victim_tip_surprise: str = ruling("jd.ruling.victim-tip-on-surprise", "tip", "no-tip", STRICT)
    surprise_on_block: str = ruling("jd.ruling.surprise-on-block", "no", STRICT)
    turn_direction: str = ruling("jd.ruling.turn-direction", "clockwise", "counter-clockwise", STRICT)
    discard_which: str = ruling("jd.ruling.discard-which", "any-guest", "duplicates-only")
    surprise_doorway: str = ruling("jd.ruling.surprise-doorway", "middle-and-poach", "any-serving")
    surprise_serving: str = ruling("jd.ruling.surprise-serving", "favourite-alone", "serving-with-favourite")
    opening_duplicates: str = ruling("jd.ruling.opening-duplicates", "first-discard-phase", "at-setup")
    serve_none: str = ruling("jd.ruling.serve-none", "forbidden", "allowed")
    victim_surprise: str = ruling("jd.ruling.victim-surprise", "allowed", "block-only")
    answer_window: str = ruling("jd.ruling.answer-window", "public", "holders")
    tip_order: str = ruling("jd.ruling.tip-order", "victim-first", "server-first")
    open_hands: str = ruling("jd.ruling.open-hands", "when-all-in-hands", "never")
    surprised_attempt: str = ruling("jd.ruling.surprised-attempt", "as-if-not-made", "commits")
    endless_play: str = ruling("jd.ruling.endless-play", "play-on", "repeated-position", STRICT)
    poaching: bool = variant("poaching", "Poaching & Blocking (jd.poach.*, jd.block.*)")
    buffet: bool = variant("buffet", "Opening a Buffet (jd.buffet.*)")
    surprise_parties: bool = variant("surprise-parties", "Surprise Parties (jd.surprise.*)")


# --------------------------------------------------------------------------- state


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
    """sort | choose | dump | window | return | buffet | discard | over.  ``sort`` is the first
    player sending dealt guests away before the first turn (jd.ruling.opening-duplicates=at-setup)."""
    tasks: tuple[tuple[str, int], ...] = ()
    opening: bool = True
    """True until the dealt middle has been sorted out: by the first discard phase, or before the
    first turn under jd.ruling.opening-duplicates=at-setup (until then it may hold a suit twice)."""
    served: int = 0
    committed: bool = False
    """The serving option is chosen (a guest served or a poach blocked)."""
    poach: str = ""
    """'' | 'done' | 'blocked' (jd.poach.one-opportunity, jd.poach.blocked-no-retry)."""
    shielded: tuple[str, ...] = ()
    """Guests surprised away this turn, not to be poached back (jd.surprise.no-poach-back), sorted."""
    offer: Offer | None = None
    answerers: tuple[int, ...] = ()
    speaker: int = -1
    returning: tuple[int, ...] = ()
    dumped: int = 0
    """Desserts thrown away so far by the tray option this turn (jd.turn.dump-tray)."""
    winner: int = -1
    end_clause: str = ""
    seen: frozenset = frozenset()
    """(position, times) for the positions turns have started at, each with how often (1 or 2): kept only under
    jd.ruling.endless-play=repeated-position or strict (empty, and never looked at, under play-on)."""


evolve = replacer(State)
"""``dataclasses.replace`` for State, without its per-call overhead (the explorer's hot path)."""


def deck_of(state: State) -> Deck:
    return state.setup.components


def doorway(state: State) -> str | None:
    """The guest standing in the doorway: the top of the guest discard pile (jd.discard.doorway)."""
    return state.guest_discard[-1] if state.guest_discard else None  # rule: jd.discard.doorway


def plus(cards: tuple[str, ...], more) -> tuple[str, ...]:
    """A multiset with more cards (sorted)."""
    return tuple(sorted(cards + tuple(more)))


def minus(cards: tuple[str, ...], less) -> tuple[str, ...]:
    """A multiset with these cards taken out."""
    left = list(cards)
    for c in less:
        left.remove(c)
    return tuple(left)


def set_seat(seq: tuple, seat: int, value) -> tuple:
    return seq[:seat] + (value,) + seq[seat + 1:]


def holder(state: State, guest: str) -> int:
    """The seat whose guests include ``guest``, or -1."""
    for seat, guests in enumerate(state.claimed):
        if guest in guests:
            return seat
    return -1
