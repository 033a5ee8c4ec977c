"""jd.ruling.faq-score-when=at-once (the default, with all-guests-claimed=faq-score): a game whose
last guest is claimed by the turn's second serving is scored at that moment, before the turn
passes and the next player draws (hands break a tied score, so a late count can change the result).
The compiled playouts end it at the same moment."""

from __future__ import annotations

import pytest

from tablerules.model import registry
from tablerules.model.core import TERMINAL, play
from tablerules.model.decks import embedded_deck

RULES = registry.get("just-desserts")

SECOND_SERVING_CLAIMS_THE_LAST_GUEST = (
    "draw SPONGE ; draw SPONGE ; draw FRUIT_TART ; draw SPONGE ; draw PLUM ; draw PLUM ; turn up BAKER ; "
    "turn up PICKER ; turn up GARDENER ; serve BAKER with FRUIT_TART ; stop ; depart GARDENER ; draw FRUIT_TART ; "
    "dump PLUM ; dump FRUIT_TART ; dump SPONGE ; stop ; draw PLUM ; draw FRUIT_TART ; draw SPONGE ; dump PLUM ; "
    "stop ; draw PLUM ; dump SPONGE ; dump SPONGE ; dump PLUM ; dump FRUIT_TART ; stop ; draw SPONGE ; "
    "draw FRUIT_TART ; draw PLUM ; draw SPONGE ; dump PLUM ; stop ; draw PLUM ; dump SPONGE ; stop ; draw SPONGE ; "
    "kitchen ; serve GARDENER with FRUIT_TART ; draw FRUIT_TART ; serve PICKER with FRUIT_TART"
).split(" ; ")


def _before_and_after(**options):
    import dataclasses

    setup = RULES.setup(2, dataclasses.replace(RULES.Options(), **options), embedded_deck("jd-one-suit"))
    before = play(RULES, RULES.new_game(setup), SECOND_SERVING_CLAIMS_THE_LAST_GUEST[:-1])
    return before, RULES.apply(before, RULES.parse_move(SECOND_SERVING_CLAIMS_THE_LAST_GUEST[-1], setup))


def test_the_last_guest_claimed_by_a_second_serving_is_scored_at_once():
    before, after = _before_and_after()
    assert before.served == 1 and before.centre == ("PICKER",) and before.winner < 0
    assert RULES.to_move(after) is TERMINAL and after.end_clause == "jd.ruling.all-guests-claimed"
    other = 1 - before.turn
    assert len(after.hands[other]) == len(before.hands[other])  # the next player has not drawn
    assert RULES.outcome(after).clause == "jd.ruling.all-guests-claimed"


def test_under_turn_end_the_same_turn_is_played_to_its_end_first():
    _, after = _before_and_after(faq_score_when="turn-end")
    assert RULES.to_move(after) is TERMINAL  # two servings are all a turn holds: it ends, and is scored


@pytest.mark.parametrize("when", ["at-once", "turn-end"])
def test_the_compiled_playout_ends_at_the_same_moment(when):
    from tablerules.model.just_desserts import playout as jp

    from .test_jd_playout import step_problem

    before, _ = _before_and_after(faq_score_when=when)
    last = SECOND_SERVING_CLAIMS_THE_LAST_GUEST[-1]
    seen = 0
    for i, (g, info) in enumerate(jp.played(before, 300, 5, debug=True)):
        assert step_problem(before, g, info) is None, f"game {i}: {step_problem(before, g, info)}"
        seen += bool(g.moves) and str(g.moves[0]) == last
    assert seen, f"no compiled game played {last} first"
