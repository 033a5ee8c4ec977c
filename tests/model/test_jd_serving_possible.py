"""jd.ruling.no-serving-possible's test (ending.serving_possible) asks about guests in the state's own order,
never a set's: under string hashing a set's order changes from process to process, so a changed model that fails
on some guests only (the mutation tool puts in such changes) was judged killed in one run and equivalent in
another."""

from __future__ import annotations

import random

from tablerules.model.core import CHANCE, TERMINAL
from tablerules.model.decks import embedded_deck
from tablerules.model.just_desserts import RULES, Options, ending


def _dealt(players: int = 2):
    """The first state after the deal: guests in the pile and the centre, desserts still free."""
    state = RULES.new_game(RULES.setup(players, Options(poaching=True), embedded_deck("jd-five-suits")))
    rng = random.Random(0)
    while RULES.to_move(state) is CHANCE:
        state = RULES.apply(state, rng.choice(RULES.chance_outcomes(state))[0])
    assert RULES.to_move(state) is not TERMINAL
    return state


def test_guests_are_asked_about_in_the_states_order(monkeypatch):
    asked: list[str] = []

    def never(deck, guest):
        asked.append(guest)
        return False

    state = _dealt()
    monkeypatch.setattr(ending, "_deck_can_satisfy", never)
    assert ending._free_desserts(state)
    assert not ending.serving_possible(state)
    expected = list(dict.fromkeys((*state.guest_pile, *state.guest_discard, *state.centre)))
    assert asked == expected and len(asked) > 5, (asked, expected)
