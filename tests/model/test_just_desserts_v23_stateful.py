"""Hypothesis stateful play of Just Desserts 2.3: random games through the model's own moves.

Every step draws from ``legal_moves`` or ``chance_outcomes``; after every step the model's
invariants (jd23.setup.deal-five, jd23.kitchen.closes, jd23.end.second-exhaustion, ...) hold,
chance is exact, moves print and parse, observations hide the other hands, and a finished
game has an outcome ranked by jd23.score.guests and its tie-breaks.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine, initialize, invariant, precondition, rule, run_state_machine_as_test,
)

from tablerules.model.just_desserts import v23 as jd
from tablerules.model.core import CHANCE, TERMINAL, RuleGap, all_options, ruling_fields, strict_options, violated
from tablerules.model.decks import embedded_deck
from tests.strategies import DEEP_EXAMPLES, draw_next_move

RULES = jd.RULES
OPTIONS = list(all_options(jd.Options))
STRICT_GAPS = {rid for rid, f in ruling_fields(jd.Options).items() if "strict" in f.metadata["alternatives"]}
"""Every ruling with a strict alternative (derived from Options, so a new ruling is covered)."""
STEPS = settings(stateful_step_count=200)


class Game(RuleBasedStateMachine):
    deck = embedded_deck("v23-tips")
    strict = False

    def __init__(self) -> None:
        super().__init__()
        self.state = None
        self.gap = None

    @initialize(players=st.sampled_from(RULES.player_counts), options=st.sampled_from(OPTIONS))
    def start(self, players, options):
        if self.strict:
            options = strict_options(jd.Options)
        players = min(players, len(self.deck.dessert_cards()) // jd.HAND_SIZE)
        self.state = RULES.new_game(RULES.setup(players, options, self.deck))

    def live(self) -> bool:
        return self.gap is None and RULES.to_move(self.state) is not TERMINAL

    @precondition(lambda self: self.live())
    @rule(data=st.data())
    def step(self, data):
        s = self.state
        try:
            self.state = RULES.apply(s, draw_next_move(RULES, s, data))
        except RuleGap as gap:
            assert self.strict and gap.ruling in STRICT_GAPS, gap
            self.gap = gap

    @precondition(lambda self: self.state is not None and not self.live())
    @rule()
    def finished(self):
        """A game that ended (or, under strict rulings, reached a gap) stays where it is."""
        if self.gap is None:
            assert RULES.to_move(self.state) is TERMINAL and RULES.legal_moves(self.state) == ()
        else:
            assert self.gap.ruling in STRICT_GAPS

    @invariant()
    def invariants_hold(self):
        if self.state is not None:
            assert not violated(RULES.invariants, self.state)

    @invariant()
    def observations_hide_other_hands(self):
        s = self.state
        if s is None:
            return
        for seat in range(s.setup.players):
            view = RULES.observation(s, seat)
            json.dumps(view)
            assert view["hand"] == list(s.hands[seat])
            assert "hands" not in view and view["hand_sizes"] == [len(h) for h in s.hands]

    @invariant()
    def a_finished_game_has_a_ranked_outcome(self):
        s = self.state
        if s is None or RULES.to_move(s) is not TERMINAL:
            return
        out = RULES.outcome(s)
        assert out is not None and (out.winners or out.draw)
        best = max(jd.ranking_key(x) for x in out.scores)
        assert all(jd.ranking_key(out.scores[w]) == best for w in out.winners)
        json.dumps(RULES.state_vars(s))


class StrictGame(Game):
    strict = True
    deck = embedded_deck("v23-tiny")


TestGame = Game.TestCase
TestGame.settings = STEPS
TestStrictGame = StrictGame.TestCase
TestStrictGame.settings = STEPS


@pytest.mark.slow
class TestGameDeep(Game.TestCase):
    """The same machine, more games (the deep run)."""

    settings = settings(stateful_step_count=200, max_examples=DEEP_EXAMPLES)


@pytest.mark.slow
class TestStrictGameDeep(StrictGame.TestCase):
    """The same machine, more games (the deep run)."""

    settings = settings(stateful_step_count=200, max_examples=DEEP_EXAMPLES)


def test_random_games_on_the_retail_deck(retail_deck):
    """The same machine on the retail card list (jd23.setup.deal-five with 76 desserts, 2-5 players)."""

    class RetailGame(Game):
        deck = retail_deck

    run_state_machine_as_test(RetailGame, settings=settings(stateful_step_count=200, max_examples=10))


@pytest.mark.parametrize("players", [2, 5])
def test_games_reach_the_end(players):
    """jd23.end.second-exhaustion: playing the first legal move and the first chance outcome ends the game."""
    s = RULES.new_game(RULES.setup(players, None, embedded_deck("v23-tips")))
    for _ in range(2000):
        if RULES.to_move(s) is TERMINAL:
            break
        move = RULES.chance_outcomes(s)[0][0] if RULES.to_move(s) is CHANCE else RULES.legal_moves(s)[0]
        s = RULES.apply(s, move)
    assert RULES.to_move(s) is TERMINAL and s.reshuffled and not s.guest_pile
