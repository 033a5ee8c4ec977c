"""jd.ruling.endless-play: play that can go round for ever with no end reachable (Poaching on jd-famine).

The witness (spec/witnesses/jd-endless-play.json, written by the endless-poaching proof) leads into a closed
set: under play-on (the default) the game never ends there; repeated-position ends it the third time a position
starts a turn, scored by the publisher's count; strict raises the gap at the first repetition.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablerules.model.core import TERMINAL, RuleGap
from tablerules.model.decks import embedded_deck
from tablerules.model.just_desserts import RULES, Options
from tablerules.model.playout import step_playouts
from tablerules.proofs.explorer import Budget, explore, graph_analysis

WITNESS = json.loads((Path(__file__).parents[2] / "spec" / "witnesses" / "jd-endless-play.json").read_text())
CLOSED = WITNESS["witnesses"]["closed set (play-on)"]
THIRD = WITNESS["witnesses"]["third repetition (repeated-position)"]


def _play(alternative: str, moves: list[str]):
    state = RULES.new_game(RULES.setup(2, Options(poaching=True, endless_play=alternative),
                                       embedded_deck("jd-famine")))
    for text in moves:
        state = RULES.apply(state, RULES.parse_move(text, state.setup))
    return state


def test_the_default_plays_on_and_keeps_no_history():
    assert Options().endless_play == "play-on"
    state = _play("play-on", CLOSED["moves"] + CLOSED["loop"] * 10)
    assert RULES.to_move(state) is not TERMINAL and state.seen == frozenset()


def test_repeated_position_ends_the_witness_game_at_the_third_repetition_scored_by_the_publishers_count():
    assert THIRD["moves"][:len(CLOSED["moves"])] == CLOSED["moves"]
    before = _play("repeated-position", THIRD["moves"][:-1])
    assert RULES.to_move(before) is not TERMINAL
    assert max(times for _key, times in before.seen) == 2  # a position has started two turns already
    end = _play("repeated-position", THIRD["moves"])
    result = RULES.outcome(end)
    assert RULES.to_move(end) is TERMINAL and result.clause == "jd.ruling.endless-play"
    assert result.scores == (3, 0) and result.winners == frozenset({0})  # the publisher's count: guests + pairs
    assert RULES.to_move(_play("play-on", THIRD["moves"])) is not TERMINAL


def test_strict_raises_the_gap_when_a_position_starts_a_turn_again():
    with pytest.raises(RuleGap) as gap:
        _play("strict", THIRD["moves"])
    assert gap.value.ruling == "jd.ruling.endless-play"


def test_every_game_from_the_closed_set_ends_under_repeated_position():
    """The property of the alternative: positions are finitely many and each starts at most two turns, so the
    graph of play (with the history) has no cycle and every state reaches an end; checked on the whole graph
    reachable from the witness's entry into the closed set (a few thousand states)."""
    ex = explore(RULES, [_play("repeated-position", CLOSED["moves"])], budget=Budget(max_states=50_000),
                 keep_graph=True)
    graph = graph_analysis(ex)
    assert ex.complete and graph.traps == 0 and graph.acyclic and ex.terminals > 0
    under_play_on = explore(RULES, [_play("play-on", CLOSED["moves"])], budget=Budget(max_states=50_000),
                            keep_graph=True)
    assert under_play_on.complete and under_play_on.terminals == 0  # the test can fail: play-on never ends there


def test_random_games_through_the_step_api_end_under_repeated_position():
    start = _play("repeated-position", CLOSED["moves"])
    games = list(step_playouts(RULES, start, 20, seed=1))
    assert all(g.winners or g.moves for g in games) and len(games) == 20
