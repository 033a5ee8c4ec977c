"""jd.ruling.all-guests-claimed=draw with Poaching: once every guest is claimed, the game goes
on only while a claimed guest can still change hands (jd.poach.attempt) or go back to the
middle (jd.buffet.others-return).  When nobody can ever poach again, the game is a draw; it
used to go on for ever (every dessert in a hand, nobody able to poach; the property
jd.win.any-time#stuck skipped that case).  The compiled playouts end it the same way."""

from __future__ import annotations

import dataclasses

from tablerules.model import registry
from tablerules.model.core import TERMINAL, play
from tablerules.model.decks import embedded_deck

RULES = registry.get("just-desserts")

EVERY_GUEST_CLAIMED_NOBODY_CAN_POACH = (
    "draw SPONGE ; draw WALNUT ; draw WALNUT ; draw PLUM ; draw SPONGE ; draw PLUM ; turn up PICKER ; "
    "turn up FORAGER ; turn up BAKER ; turn up NUTTER ; serve BAKER with SPONGE ; draw SPONGE ; stop ; "
    "depart FORAGER ; serve PICKER with PLUM ; draw PLUM ; serve FORAGER with PLUM+WALNUT ; "
    "draw WALNUT ; serve NUTTER with SPONGE+WALNUT ; stop ; draw PLUM ; kitchen ; draw WALNUT ; draw SPONGE"
).split(" ; ")


def _setup(**options):
    o = dataclasses.replace(RULES.Options(), all_claimed="draw", poaching=True, **options)
    return RULES.setup(2, o, embedded_deck("jd-famine"))


def test_every_guest_claimed_and_nobody_able_to_poach_is_a_draw():
    end = play(RULES, RULES.new_game(_setup()), EVERY_GUEST_CLAIMED_NOBODY_CAN_POACH)
    assert RULES.to_move(end) is TERMINAL, f"play goes on: {end}"
    assert end.end_clause == "jd.ruling.all-guests-claimed"
    assert RULES.outcome(end).draw


def test_while_a_poach_is_possible_play_goes_on():
    """Two draws earlier a dessert is still free, so a hand could still come to poach: play goes on."""
    before = play(RULES, RULES.new_game(_setup()), EVERY_GUEST_CLAIMED_NOBODY_CAN_POACH[:-2])
    assert RULES.to_move(before) is not TERMINAL


def test_the_compiled_playouts_end_such_games_as_draws():
    """One draw before that end, every compiled game draws the last free dessert and ends, a draw."""
    from tablerules.model.just_desserts import playout as jp

    from .test_jd_playout import step_problem

    before = play(RULES, RULES.new_game(_setup()), EVERY_GUEST_CLAIMED_NOBODY_CAN_POACH[:-1])
    for g, info in jp.played(before, 20, 3, debug=True):
        assert step_problem(before, g, info) is None, step_problem(before, g, info)
        assert [str(m) for m in g.moves] == EVERY_GUEST_CLAIMED_NOBODY_CAN_POACH[-1:]
        assert not g.winners
