"""`tablerules check` and games that cannot end (jd.ruling.endless-play): the compiled-playout item reports a game
that never ends as incomplete, naming the ruling (it used to fail with "raised EndlessGame"); the endless-poaching
proof finds the witness on file."""

from __future__ import annotations

import pytest

from tablerules.model.just_desserts import Options
from tablerules.proofs import checks
from tablerules.proofs.just_desserts import check, playout_check


def test_the_playout_item_reports_a_game_that_never_ends_as_incomplete(monkeypatch):
    monkeypatch.setattr(playout_check, "CASES", (("jd-famine", 2),))
    monkeypatch.setattr(playout_check, "Options", lambda **_advanced: Options(poaching=True))
    result = playout_check._run(checks.Context(quick=True))
    assert result.status == checks.INCOMPLETE, result.rows
    assert "jd.ruling.endless-play=play-on" in result.summary
    (label, text), = result.rows
    assert label.startswith("jd-famine, 2 players") and "did not end within 100,000 actions" in text


@pytest.mark.slow
def test_the_endless_poaching_proof_finds_the_witness_on_file():
    """The whole state graph of jd-famine with Poaching, 2 players (356,226 states): about a minute."""
    result = check._endless_poaching()
    assert result.status == result.expected() == "play-on never ends; repeated-position ends", result.detail
