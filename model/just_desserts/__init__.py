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
  (jd.surprise.first-offered).  The advanced rules live in advanced.py.
* A player wins the moment their guests show three of a suit or five suits
  (jd.win.three-of-a-suit, jd.win.five-suits, jd.win.any-time).

Seat 0 is the player who most recently served dessert in real life (jd.first.player); seats
are numbered clockwise and the turn passes clockwise (jd.ruling.turn-direction).  Under
jd.ruling.opening-duplicates=at-setup seat 0 first sends dealt guests away (``phase == "sort"``)
until every suit shows at most once.

Where the other clauses live: the deck and its tastes come from model/decks.py
(jd.setup.components, jd.tastes.icons, jd.suits.six: any number of suits of equal size);
serving.py decides what satisfies a guest (jd.serve.satisfies; the rulebook's
worked example jd.turn.example is a test); the two piles and their discard piles are
fields of the State (state.py) (jd.setup.piles); hands are tuples of any length
(jd.discard.no-hand-limit); 2 to 5 players (jd.players.count); the advanced rules are the
variant fields of Options (jd.advanced.options).

The package's modules import one way: ``moves``, ``state`` and ``tastes`` (leaves) <-
``serving`` <- ``advanced`` <- ``ending`` <- ``game`` <- ``views``; ``symmetry`` <- ``state``;
``game`` <- ``playout`` (the compiled random playout, ``playout_loops``) <- ``compiled`` (compiled
states: the step API on the compiled loop's vector); this file bundles them into :data:`RULES`, whose
step API plays the model's states through ``game`` and compiled states (``compile_state``,
``compiled.new_game``) in compiled code.  ``v23`` is the other edition (rules version 2.3), a
rule set of its own (``v23_claims`` holds its deck claims) that shares the deck model
(model/decks.py), the fast servings (``tastes``) and several questions with this one.
"""

from __future__ import annotations

from ..core import RuleSet, Setup
from ..decks import Deck, deck_argument, embedded_deck
from .compiled import apply, chance_outcomes, compile_state, illegal_reason, legal_moves, to_move
from .game import new_game, outcome, setup_error, winner, winning_clause
from .moves import KITCHEN, PASS, STOP, Move, parse_move
from .serving import guest_servings, satisfying_sets, tips_for
from .state import DRAW, TURN_UP, Offer, Options, State, deck_of, doorway, evolve
from .symmetry import canonical_twins, twin_classes
from .views import INVARIANTS, observation, state_vars

__all__ = ["RULES", "Options", "State", "Offer", "Move", "parse_move", "PASS", "STOP", "KITCHEN", "DRAW", "TURN_UP",
           "canonical_twins", "twin_classes", "guest_servings", "satisfying_sets", "tips_for", "winning_clause",
           "winner", "observation", "state_vars", "INVARIANTS", "SMALL_CONFIGS", "TEACHING_DECKS", "is_race",
           "new_game", "to_move", "legal_moves", "chance_outcomes", "apply", "illegal_reason", "outcome",
           "doorway", "deck_of", "evolve", "compile_state"]

RULESET_ID = "just-desserts"
PLAYER_COUNTS = (2, 3, 4, 5)  # public source: 2 to 5 players (FACTS.md)
DEFAULT_DECK = "jd-two-suits"
TEACHING_DECKS = ("jd-two-suits", "jd-one-suit", "jd-rivals")


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
    symmetries={"twins": canonical_twins},
    default_symmetry="twins",
)


def SMALL_CONFIGS() -> list[Setup]:  # noqa: N802 - the name proofs/discovery/gaps.py looks for
    """Configurations small enough to explore to the end: 2 players on each teaching deck."""
    return [RULES.setup(2, Options(), embedded_deck(name)) for name in TEACHING_DECKS]


def is_race(state: State) -> bool:
    """True at the chance event that decides which of several answering players speaks first
    (jd.surprise.first-offered, jd.ruling.answer-order); the order-of-resolution check of
    proofs/discovery/divergence.py branches on it."""
    return state.phase == "window" and state.speaker < 0 and not state.tasks
