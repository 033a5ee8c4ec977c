"""The property on games that end without a win (p_end_without_win) knows jd.ruling.endless-play=repeated-position:
the witness's third repetition ends as that alternative says, scored by the publisher's count."""

from __future__ import annotations

import dataclasses

from tablerules.model.just_desserts import RULES
from tablerules.model.just_desserts.state import evolve
from tablerules.proofs.properties.just_desserts.winning import p_end_without_win, p_third_repetition
from tests.model.test_jd_endless_play import THIRD, _play


def test_the_third_repetition_is_an_end_the_property_accepts():
    end = _play("repeated-position", THIRD["moves"])
    assert p_end_without_win(RULES, end) is None


def test_an_end_by_repetition_under_play_on_is_a_problem():
    end = _play("repeated-position", THIRD["moves"])
    options = dataclasses.replace(end.setup.options, endless_play="play-on")
    forged = evolve(end, setup=RULES.setup(2, options, end.setup.components))
    assert "jd.ruling.endless-play=play-on" in (p_end_without_win(RULES, forged) or "")


def test_the_third_repetition_property_finds_the_ended_position_twice_in_the_history():
    """jd.ruling.endless-play=repeated-position: the witness's end is the third start of one position; an end whose
    own position had started one turn only, or whose history shows another position twice, is a problem."""
    end = _play("repeated-position", THIRD["moves"])
    assert p_third_repetition(RULES, end) is None
    once = evolve(end, seen=frozenset((key, 1) for key, _times in end.seen))  # every position started once only
    assert "had started 1 turn(s) before, not 2" in (p_third_repetition(RULES, once) or "")
    elsewhere = evolve(end, dumped=1)  # the history unchanged, the ended position one that never starts a turn
    assert "had started 0 turn(s) before, not 2" in (p_third_repetition(RULES, elsewhere) or "")
