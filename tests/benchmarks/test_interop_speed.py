"""benchmarks/interop_speed.py sets every row beside the Kuhn poker baseline, A B A B ...: the row
and the baseline take turns, round r playing with random.Random(r) on both sides.  No assertion on
a measured time.  Skips (saying why) when open_spiel cannot be imported, as tests/interop does."""

from __future__ import annotations

import importlib
import os
import random
from pathlib import Path

import pytest

if os.environ.get("TABLERULES_REQUIRE_OPENSPIEL") == "1":
    import pyspiel  # noqa: F401 - a missing open_spiel fails here rather than skipping
pytest.importorskip("pyspiel", reason="open_spiel is not installed (from the checkout: pip install '.[openspiel]')")

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture()
def interop_speed(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module("interop_speed")


def test_each_round_plays_the_row_then_the_baseline_with_the_rounds_seed(interop_speed):
    calls = []

    def side(name: str, actions: int, games: int):
        def play(n: int, rng: random.Random) -> tuple[int, int]:
            calls.append((name, n, rng.random()))
            return actions, games
        return play

    paired, per_game = interop_speed.beside_baseline(side("row", 30, 3), side("kuhn", 20, 5), 1000, 3)
    seeds = [random.Random(r).random() for r in range(3)]
    assert calls == [(name, 1000, seeds[r]) for r in range(3) for name in ("row", "kuhn")]
    assert paired.a_units == (30, 30, 30) and paired.b_units == (20, 20, 20)
    assert per_game == 10.0  # the row's actions over its games, every round


def test_the_baseline_is_kuhn_poker_and_every_row_is_measured_beside_it(interop_speed):
    assert interop_speed.BASELINE == "python_kuhn_poker"
    rows = interop_speed.rows_to_measure(100)
    kinds = {through for through, _, _ in rows}
    assert kinds == {"our API, step by step", "our API, step by step, compiled states", "our API, whole games",
                     "OpenSpiel adapter", "OpenSpiel, pure Python"}
    assert any(what == "python_kuhn_poker (against itself)" for _, what, _ in rows)


def test_the_compiled_states_rows_play_compiled_states(interop_speed, monkeypatch):
    """Each "compiled states" row's setup is one compiled states play (else the row would time the model), and its
    games start from compiled.new_game."""
    from tablerules.model.just_desserts import compiled

    for ruleset, players, deck, options in interop_speed.COMPILED_STATES:
        _, setup = interop_speed._setup(ruleset, players, deck, options)
        assert compiled.why_not(setup) is None, (deck, compiled.why_not(setup))
    started = []

    def new_game(setup):
        state = compiled.new_game(setup)
        started.append(type(state))
        return state

    play = interop_speed.ours("just-desserts", 2, "jd-crowd", {}, start=new_game)
    actions, games = play(200, random.Random(1))
    assert actions >= 200 and started == [compiled.CompiledState] * (games + 1)  # one game before timing


def test_rows_picks_the_rows_whose_label_contains_the_text(interop_speed):
    rows = interop_speed.rows_to_measure(100)
    picked = interop_speed.rows_labelled(rows, "step by step, just-desserts, 2 players")
    assert [what for _, what, _ in picked] == ["just-desserts, 2 players, jd-crowd"]
    assert interop_speed.rows_labelled(rows, "") == rows
