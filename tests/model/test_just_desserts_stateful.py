"""Hypothesis stateful play of Just Desserts: random legal play with the teaching decks and the retail
deck (when TABLERULES_RETAIL_DECK is set), every combination of the advanced rules, invariants after
every step (jd.setup.components, jd.discard.one-per-suit, jd.turn.satisfy-guests, jd.win.any-time)."""

from __future__ import annotations

import itertools
import json
import os

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from tablerules.model.core import CHANCE, TERMINAL
from tablerules.model.decks import embedded_deck, load_deck
from tablerules.model.just_desserts import INVARIANTS, RULES, Options
from tests.strategies import DEEP_EXAMPLES, draw_next_move

COMBOS = [
    dict(zip(("poaching", "buffet", "surprise_parties"), bits)) for bits in itertools.product((False, True), repeat=3)
]


def _decks():
    decks = [embedded_deck(n) for n in ("jd-two-suits", "jd-one-suit", "jd-rivals", "jd-crowd")]
    path = os.environ.get("TABLERULES_RETAIL_DECK")
    if path and os.path.exists(path):
        decks.append(load_deck(path, name="retail-2015"))
    return decks


DECKS = _decks()


class JustDessertsPlay(RuleBasedStateMachine):
    state = None

    @initialize(deck=st.sampled_from(DECKS), combo=st.sampled_from(COMBOS), players=st.sampled_from((2, 3, 4, 5)),
                any_size=st.booleans())
    def start(self, deck, combo, players, any_size):
        players = min(players, len(deck.dessert_cards()) // 3)
        options = Options(serving_size="any" if any_size and deck.name != "retail-2015" else "minimal", **combo)
        self.state = RULES.new_game(RULES.setup(players, options, deck))

    @rule(data=st.data())
    def step(self, data):
        s = self.state
        actor = RULES.to_move(s)
        if actor is TERMINAL:
            out = RULES.outcome(s)
            assert out is not None and (out.draw or len(out.winners) == 1)
            return
        move = draw_next_move(RULES, s, data)
        if actor is not CHANCE:
            legal = RULES.legal_moves(s)
            assert list(legal) == sorted(legal)
            obs = RULES.observation(s, actor)
            json.dumps(obs)
            assert obs["legal_moves"] == [str(m) for m in legal]
        self.state = RULES.apply(s, move)

    @invariant()
    def invariants_hold(self):
        if self.state is None:
            return
        for inv in INVARIANTS:
            problem = inv.check(self.state)
            assert problem is None, f"{inv.name} [{inv.clause}]: {problem}"
        json.dumps(RULES.state_vars(self.state))
        for seat in range(self.state.setup.players):
            seen = RULES.observation(self.state, seat)
            assert seen["hand"] == list(self.state.hands[seat])  # hidden hands: only one's own
            assert all(len(h) == n for h, n in zip(self.state.hands, seen["hand_sizes"]))


JustDessertsPlay.TestCase.settings = settings(stateful_step_count=60)
TestJustDessertsPlay = JustDessertsPlay.TestCase


ALL_RULES = dict(poaching=True, buffet=True, surprise_parties=True)


def _crowd_decks():
    """Decks with enough desserts for three to five players: jd-five-suits, and the retail deck when given."""
    return [d for d in DECKS if len(d.dessert_cards()) >= 15] or [embedded_deck("jd-five-suits")]


class AllAdvancedRulesCrowd(JustDessertsPlay):
    """All three advanced rules at once, three to five players (jd.advanced.options): the answer
    windows, races, poach-backs and buffets that only crowded tables reach."""

    @initialize(deck=st.sampled_from(_crowd_decks()), players=st.sampled_from((3, 4, 5)))
    def start(self, deck, players):
        players = min(players, len(deck.dessert_cards()) // 3)
        self.state = RULES.new_game(RULES.setup(players, Options(**ALL_RULES), deck))


AllAdvancedRulesCrowd.TestCase.settings = settings(stateful_step_count=120)
TestAllAdvancedRulesCrowd = AllAdvancedRulesCrowd.TestCase


@pytest.mark.slow
class TestJustDessertsPlayDeep(JustDessertsPlay.TestCase):
    """The same machine, more games (the deep run)."""

    settings = settings(stateful_step_count=60, max_examples=DEEP_EXAMPLES)


@pytest.mark.slow
class TestAllAdvancedRulesCrowdDeep(AllAdvancedRulesCrowd.TestCase):
    """The same machine, more games (the deep run)."""

    settings = settings(stateful_step_count=120, max_examples=DEEP_EXAMPLES)
