"""The property on games that end without a win (p_end_without_win) knows jd.ruling.endless-play=repeated-position:
the witness's third repetition ends as that alternative says, scored by the publisher's count."""

from __future__ import annotations

import dataclasses

from tablerules.model.just_desserts import RULES
from tablerules.model.just_desserts.state import evolve
from tablerules.proofs.properties.just_desserts.winning import p_end_without_win
from tests.model.test_jd_endless_play import THIRD, _play


def test_the_third_repetition_is_an_end_the_property_accepts():
    end = _play("repeated-position", THIRD["moves"])
    assert p_end_without_win(RULES, end) is None


def test_an_end_by_repetition_under_play_on_is_a_problem():
    end = _play("repeated-position", THIRD["moves"])
    options = dataclasses.replace(end.setup.options, endless_play="play-on")
    forged = evolve(end, setup=RULES.setup(2, options, end.setup.components))
    assert "jd.ruling.endless-play=play-on" in (p_end_without_win(RULES, forged) or "")
