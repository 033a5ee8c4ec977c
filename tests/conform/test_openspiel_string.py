"""`--engine openspiel:GAME_STRING`: the string's parameters are honoured for every game of the run or
refused in one line, and read without OpenSpiel (tablerules/openspiel/parameters.py): the run's players,
rulings and deck come from the string; a string that says otherwise than the command line, or plays
another rule set, is exit status 2; the engine declines a vector of another setup rather than play it
with the string's parameters changed.  (With OpenSpiel: tests/interop/test_openspiel.py.)"""

from __future__ import annotations

import pytest

from tablerules.cli import parser
from tablerules.cli.conform import _setup
from tablerules.model import registry
from tablerules.model.core import SetupError
from tablerules.openspiel.parameters import read_game_string
from tests.tool.runner import one_line_error, run_cli


def test_a_game_string_is_read_typed_without_openspiel():
    game = read_game_string("tablerules_dishes(players=3,rulings=tie-for-most:no-loser+first-player:random,deck=3x4)")
    assert (game.short_name, game.ruleset) == ("tablerules_dishes", "dishes")
    assert game.given == {"players": 3, "rulings": "tie-for-most:no-loser+first-player:random", "deck": "3x4"}
    assert game.parameters() == game.given
    plain = read_game_string("tablerules_just_desserts")
    assert plain.given == {} and plain.parameters()["max_game_length"] == 1000
    other = read_game_string("kuhn_poker(players=3,name=x,p=0.5,b=true)")
    assert other.ruleset is None and other.given == {"players": 3, "name": "x", "p": 0.5, "b": True}


@pytest.mark.parametrize("text, says", [
    ("tablerules_dishes(players=three)", "players=...): expected a whole number, not 'three'"),
    ("tablerules_dishes(players= 3)", "expected a whole number, not ' 3'"),
    ("tablerules_dishes(players=3_0)", "expected a whole number, not '3_0'"),
    ("tablerules_dishes(players=\u0663)", "expected a whole number, not '\u0663'"),
    ("tablerules_dishes(players=+3)", "expected a whole number, not '+3'"),
    ("tablerules_dishes(colour=red)", "unknown parameter 'colour'"),
    ("tablerules_dishes(rulings=tie-for-most=no-loser)", "write rulings=tie-for-most:no-loser"),
    ("tablerules_dishes(players=3", "must end with ')'"),
    ("(players=3)", "expected NAME or NAME(KEY=VALUE,...)"),
])
def test_a_game_string_that_cannot_be_read_is_one_line(text, says):
    with pytest.raises(SetupError, match=None) as caught:
        read_game_string(text)
    assert says in str(caught.value) and "\n" not in str(caught.value)


def _run_setup(*argv):
    args = parser().parse_args(["conform", *argv])
    rules, setup = _setup(args)
    return rules, setup, args


def test_the_runs_setup_is_the_game_strings():
    """Before: --players (default 2) decided, so players=3 was played with 2 seats; and the string's
    rulings held for the first game only."""
    _, setup, args = _run_setup("dishes", "--engine", "openspiel:tablerules_dishes(players=3,rulings=tie-for-most:"
                                "no-loser,deck=3x4)")
    assert setup.players == 3 and setup.options.tie_for_most == "no-loser"
    assert (setup.components.types, setup.components.colours) == (3, 4)
    assert args.deck == "3x4"
    _, setup, _ = _run_setup("just-desserts", "--engine", "openspiel:tablerules_just_desserts(players=3)")
    assert setup.players == 3 and setup.components.name == "jd-crowd"  # the deck the game deals 3 from
    _, setup, args = _run_setup("just-desserts", "--engine", "openspiel:tablerules_just_desserts(max_game_length=50)")
    assert args.max_steps == 49  # OpenSpiel ends the game at its 50th move: compared before that


def test_the_command_line_may_repeat_the_game_string_but_not_contradict_it():
    _, setup, _ = _run_setup("dishes", "--players", "3", "--ruling", "tie-for-most=no-loser", "--engine",
                             "openspiel:tablerules_dishes(players=3,rulings=tie-for-most:no-loser)")
    assert setup.players == 3
    for argv, says in [
        (["--players", "2"], "the game string says players=3, --players says 2: give one of them"),
        (["--ruling", "tie-for-most=no-loser"], "the game string says rulings=first-player:random, --ruling/--option"
                                                " say rulings=tie-for-most:no-loser"),
        (["--deck", "2x4"], "the game string says deck=3x4, --deck says 2x4"),
    ]:
        with pytest.raises(SetupError, match="^--engine openspiel:") as caught:
            _run_setup("dishes", *argv, "--engine",
                       "openspiel:tablerules_dishes(players=3,rulings=first-player:random,deck=3x4)")
        assert says in str(caught.value), str(caught.value)


@pytest.mark.parametrize("engine, says", [
    ("openspiel:tablerules_dishes(players=3)", "the game string says players=3, --players says 2"),
    ("openspiel:tablerules_just_desserts(players=2)", "tablerules_just_desserts plays just-desserts, not dishes"),
    ("openspiel:tablerules_dishes(players=2,rulings=tie-for-most:strict)", "strict alternatives stop play"),
    ("openspiel:tablerules_dishes(seats=3)", "unknown parameter 'seats'"),
])
def test_a_game_string_against_the_command_line_is_exit_2_in_one_line(tmp_path, engine, says):
    r = run_cli("conform", "dishes", "--players", "2", "--engine", engine, cwd=tmp_path)
    assert r.returncode == 2, r.stderr[-2000:]
    assert says in one_line_error(r.stderr)


def test_a_vector_of_another_setup_is_declined_not_played_with_the_strings_parameters_changed():
    """The engine's side, without OpenSpiel: the string's fixed parameters are checked before a game is loaded."""
    from tablerules.conform.openspiel_engine import OpenSpielEngine
    from tablerules.conform.protocol import Unsupported

    engine = OpenSpielEngine.__new__(OpenSpielEngine)
    engine.game = read_game_string("tablerules_dishes(players=3,rulings=tie-for-most:no-loser)")
    engine.loaded = {}
    rules = registry.get("dishes")
    from tablerules.model.core import parse_options

    with pytest.raises(Unsupported, match="the game string fixes players=3"):
        engine._game_for("dishes", rules.setup(2), None)
    with pytest.raises(Unsupported, match="the game string fixes rulings=tie-for-most:no-loser"):
        engine._game_for("dishes", rules.setup(3), None)
    engine.game = read_game_string("tablerules_dishes(deck=3x4)")
    with pytest.raises(Unsupported, match="the game string fixes deck=3x4"):
        engine._game_for("dishes", rules.setup(2, parse_options(rules.Options, [])), "box")
