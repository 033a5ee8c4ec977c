"""A referee of our own judges the model's random games on the retail deck (both editions, 2-5
players, every combination of the advanced rules): its own card data, satisfaction and tip
arithmetic, card conservation and legal move sets (tests/referee/).  The fast set runs here; the
long run is ``python -m tests.referee.play GAMES``."""

from __future__ import annotations

import copy

import pytest

from tablerules.model.just_desserts import RULES, Options

from .cards import Cards
from .current import CurrentReferee
from .play import Tally, configurations, label, play_game

CONFIGS = configurations()


@pytest.mark.parametrize("config", CONFIGS, ids=[label(*c) for c in CONFIGS])
def test_the_referee_finds_no_violation(config, retail_deck_path):
    edition, players, variants = config
    tally = Tally()
    play_game(edition, players, variants, retail_deck_path, seed=1000 + players, tally=tally)
    assert tally.actions > 0
    assert not tally.violations, tally.violations[0]


def test_the_referee_can_fail(retail_deck_path, retail_deck):
    """Planted faults: a lost dessert, a serving that does not satisfy, a poach back after a surprise."""
    cards = Cards.read(retail_deck_path)
    ref = CurrentReferee(cards, 2, dict(poaching=True, surprise_parties=True))
    s = RULES.new_game(RULES.setup(2, Options(poaching=True, surprise_parties=True), retail_deck))
    v = RULES.state_vars(s)
    lost = copy.deepcopy(v)
    lost["dessert_pile"].pop()
    assert any("desserts not conserved" in p for p in ref.step(v, "draw X", lost))
    assert not cards.pleases(["CARROT_CAKE"], "THE_LITTLE_GIRL")  # jd.turn.example: Veggies refused
    assert cards.pleases(["BUTTER_PECAN_ICE_CREAM", "STRAWBERRY_SHORTCAKE"], "THE_LITTLE_GIRL")
    # after a surprise of The Dude in seat 0's turn, the referee forbids poaching it back
    before = copy.deepcopy(v)
    before.update(
        turn=0, phase="window", speaker=1, tasks=[], claimed=[[], []],
        offer={"server": 0, "guest": "THE_DUDE", "cards": ["AMBROSIA_SALAD", "DEVILS_FOOD_CUPCAKES"], "victim": -1},
    )
    after = copy.deepcopy(before)
    after.update(phase="choose", speaker=-1, offer=None, claimed=[[], ["THE_DUDE"]],
                 hands=[["AMBROSIA_SALAD", "DEVILS_FOOD_CUPCAKES"], []])
    ref.step(before, "surprise with CHOCOLATE_FONDUE", after)
    assert not any(m.startswith("poach THE_DUDE") for m in ref.legal(after))
