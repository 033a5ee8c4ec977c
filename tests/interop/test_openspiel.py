"""The rule sets as OpenSpiel games (tablerules/openspiel/): OpenSpiel's own checks, the
state count of its get_all_states against our explorer's, and vectors as playthroughs.

Skips (saying why) when open_spiel cannot be imported; .ci/run installs the extra
`tablerules[openspiel]` and sets TABLERULES_REQUIRE_OPENSPIEL=1, so there it fails instead.
"""

from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path

import pytest

if os.environ.get("TABLERULES_REQUIRE_OPENSPIEL") == "1":
    import pyspiel  # noqa: F401 - a missing open_spiel fails here rather than skipping
pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed (from the checkout: pip install '.[openspiel]')"
)

import numpy as np  # noqa: E402 - open_spiel brings numpy
from open_spiel.python.algorithms import generate_playthrough, mcts  # noqa: E402
from open_spiel.python.algorithms.get_all_states import get_all_states  # noqa: E402

from tablerules.model.core import SetupError  # noqa: E402
from tablerules.openspiel import GAMES, deck_for, game_name, load  # noqa: E402
from tablerules.openspiel.playthrough import (  # noqa: E402
    playthrough_to_vector, read_playthrough, vector_to_playthrough,
)
from tablerules.proofs.explorer import explore  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
CONFIGS = [
    "tablerules_dishes(players=2)", "tablerules_dishes(players=3)", "tablerules_dishes(players=4)",
    "tablerules_dishes(players=3,rulings=first-player:random+tie-for-most:no-loser+dishes-count:stacks,deck=3x4)",
    "tablerules_dishes(players=2,rulings=deal-2-players:two-layouts+movable-stacks:own-top,deck=3x4)",
    "tablerules_dishes(players=3,rulings=deal-3-players:spare-layout,deck=3x4)",
    "tablerules_just_desserts(players=2)", "tablerules_just_desserts(players=3,deck=jd-crowd)",
    "tablerules_just_desserts(players=3,rulings=poaching+buffet+surprise-parties,deck=jd-crowd)",
    "tablerules_just_desserts_2_3(players=2)", "tablerules_just_desserts_2_3(players=4,deck=v23-tips)",
]


def test_the_three_games_are_registered_and_load_by_name():
    assert set(GAMES) <= set(pyspiel.registered_names())
    for ruleset in ("dishes", "just-desserts", "just-desserts-2.3"):
        assert game_name(ruleset) in GAMES
    game = pyspiel.load_game("tablerules_dishes(players=3)")
    assert game.num_players() == 3
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.new_initial_state().current_player() == 0
    first = game.new_initial_state()
    assert [first.action_to_string(a) for a in first.legal_actions()][:2] == ["turn 0.dessert", "turn 0.main"]


@pytest.mark.parametrize("name", CONFIGS)
def test_openspiel_random_simulation(name):
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=3, serialize=True, verbose=False)


def test_bad_parameters_are_refused_in_one_line():
    with pytest.raises(SetupError, match="^rulings=no-such:thing: unknown ruling 'no-such'"):
        pyspiel.load_game("tablerules_dishes(rulings=no-such:thing)")
    with pytest.raises(SetupError, match="^rulings=teleport: unknown option"):
        pyspiel.load_game("tablerules_just_desserts(rulings=teleport)")
    with pytest.raises(SetupError, match="strict alternatives"):
        pyspiel.load_game("tablerules_dishes(rulings=tie-for-most:strict)")
    with pytest.raises(SetupError, match="need not end"):
        pyspiel.load_game("tablerules_dishes(rulings=voluntary-pass:allowed)")
    with pytest.raises(SetupError, match="5 players is not allowed"):
        pyspiel.load_game("tablerules_dishes(players=5)")
    with pytest.raises(SetupError, match="max_game_length must be at least 1, not 0"):
        pyspiel.load_game("tablerules_just_desserts(max_game_length=0)")
    with pytest.raises(SetupError, match="max_actions must be at least 1, not -1"):
        pyspiel.load_game("tablerules_just_desserts(max_actions=-1)")
    with pytest.raises(SetupError, match=r"no such file, nor a shipped deck \(jd-crowd"):
        pyspiel.load_game("tablerules_just_desserts(deck=nosuch)")


def test_rulings_written_with_equals_are_refused_naming_the_accepted_form():
    """pyspiel checks parameter names before any code of ours runs, so its own error stays
    bare; load() checks the string first and says what rulings takes, in one line."""
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'rulings=tie-for-most'"):
        pyspiel.load_game("tablerules_dishes(rulings=tie-for-most=no-loser)")
    with pytest.raises(SetupError, match=r"^tablerules_dishes: rulings takes NAME:ALT\[\+NAME:ALT\.\.\.\].*"
                                         r"got rulings=tie-for-most=no-loser; write rulings=tie-for-most:no-loser$"):
        load("tablerules_dishes(rulings=tie-for-most=no-loser)")
    with pytest.raises(SetupError, match="write rulings=tie-for-most:no-loser[+]first-player:random$"):
        load("tablerules_dishes(players=3,rulings=tie-for-most=no-loser,first-player=random,deck=3x4)")
    with pytest.raises(SetupError, match="got rulings=tie-for-most:no-loser,first-player:random; "
                                         "write rulings=tie-for-most:no-loser[+]first-player:random$"):
        load("tablerules_dishes(players=3,rulings=tie-for-most:no-loser,first-player:random)")
    with pytest.raises(
        SetupError, match="^tablerules_dishes: unknown parameter 'player' [(]takes players, rulings, deck"
    ):
        load("tablerules_dishes(player=3)")
    for bad in ("tablerules_dishes(rulings=tie-for-most=no-loser)", "tablerules_dishes(player=3)"):
        with pytest.raises(SetupError) as info:
            load(bad)
        assert "\n" not in str(info.value)
    good = load("tablerules_dishes(players=3,rulings=tie-for-most:no-loser+first-player:random,deck=3x4)")
    assert str(good) == str(pyspiel.load_game(str(good)))
    assert (
        good.setup.options
        == load(
            "tablerules_dishes", {"players": 3, "deck": "3x4", "rulings": "tie-for-most=no-loser+first-player=random"}
        ).setup.options
    )
    assert load("kuhn_poker(players=3)").num_players() == 3  # other games pass through


def test_the_game_strings_the_docs_show_load():
    """Every tablerules game string in the package docstring and the guide loads, except the
    ones shown with ``=`` inside ``rulings`` (the form the guide warns against), which load
    refuses."""
    import re

    import tablerules.openspiel as package

    texts = package.__doc__ + (REPO / "docs" / "guides" / "openspiel.rst").read_text()
    shown = set(re.findall(r"tablerules_\w+\([^()\s`\"]*\)", texts))
    assert len(shown) >= 4
    for text in sorted(shown):
        if re.search(r"rulings=[^,)]*=", text):
            with pytest.raises(SetupError, match="write rulings="):
                load(text)
        else:
            load(text)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_player_count_the_game_type_declares_loads_with_the_defaults_and_plays(name):
    """A default serves every count it accepts: without a deck parameter each declared
    player count loads (Just Desserts picks the smallest shipped deck that deals it), names
    its deck in the game string, and plays random moves."""
    game_type = pyspiel.load_game(name).get_type()
    counts = range(game_type.min_num_players, game_type.max_num_players + 1)
    assert list(counts) == sorted(GAMES[name](None).rules.player_counts)
    rng = np.random.default_rng(7)
    for n in counts:
        game = pyspiel.load_game(f"{name}(players={n})")
        assert game.num_players() == n
        assert "deck=" in str(game) and "deck=," not in str(game)
        assert str(pyspiel.load_game(str(game))) == str(game)
        state = game.new_initial_state()
        for _ in range(40):
            if state.is_terminal():
                break
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=np.array(probs) / sum(probs))))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        assert len(state.history()) > 0


def test_the_default_deck_per_player_count():
    assert [deck_for("just-desserts", n) for n in (2, 3, 4, 5)] == [
        "jd-two-suits", "jd-crowd", "jd-five-suits", "v23-tips",
    ]
    assert [deck_for("just-desserts-2.3", n) for n in (2, 3, 4, 5)] == ["v23-tiny", "v23-tips", "v23-tips", "v23-tips"]
    with pytest.raises(SetupError, match="deck jd-two-suits has too few desserts"):  # a deck given is used as given
        pyspiel.load_game("tablerules_just_desserts(players=3,deck=jd-two-suits)")


def test_chance_outcomes_are_ours_as_floats():
    game = pyspiel.load_game("tablerules_dishes(players=2,deck=3x4)")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    assert state.is_chance_node()
    outs = state.chance_outcomes()
    ours = game.rules.chance_outcomes(state.ours)
    assert [p for _, p in outs] == [float(p) for _, p in ours]
    assert sum(Fraction(p).limit_denominator(1000) for _, p in outs) == 1


@pytest.mark.parametrize("name", [
    "tablerules_dishes(players=2,deck=2x4)",
    "tablerules_dishes(players=3,deck=2x3)",
    "tablerules_just_desserts(players=2,deck=jd-one-suit)",
])
def test_all_states_match_our_explorer(name):
    """OpenSpiel's get_all_states and our explorer count the same states.

    A state is one of our states (model/<ruleset>.py State: the table, whose turn it is,
    pending reveals or answers), told apart by its full text (``str(state)``, the rule set's
    state_vars); chance and terminal states count, as in the explorer; no symmetry reduction.
    get_all_states keys states by that text, so two histories reaching one state count once.
    """
    game = pyspiel.load_game(name)
    found = get_all_states(game, depth_limit=-1, include_terminals=True, include_chance_states=True, to_string=str)
    ex = explore(game.rules, [game.rules.new_game(game.setup)])
    assert ex.complete
    assert len(found) == ex.states


def test_returns_follow_our_outcome():
    game = pyspiel.load_game("tablerules_dishes(players=3,deck=3x4)")
    rng = np.random.default_rng(3)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        out = game.rules.outcome(state.ours)
        assert state.returns() == [-1.0 if s in out.losers else 0.0 for s in range(3)]


def test_information_states_hide_other_hands_in_just_desserts():
    game = pyspiel.load_game("tablerules_just_desserts(players=2)")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    a, b = state.information_state_string(0), state.information_state_string(1)
    assert a != b and a.startswith("seat 0") and b.startswith("seat 1")
    assert state.observation_string(0) != state.observation_string(1)


def test_an_openspiel_algorithm_plays_a_game():
    """MCTS (with random rollouts) plays Dishes on a small tile set against a random bot."""
    game = pyspiel.load_game("tablerules_dishes(players=2,deck=2x4)")
    rng = np.random.RandomState(5)
    bot = mcts.MCTSBot(
        game, uct_c=2, max_simulations=20, evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng
    )
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert game.rules.outcome(state.ours) is not None


@pytest.mark.parametrize("vector", [
    "dishes/2p-box-default-s1.itf.json",
    "dishes/3p-3x4-first-player=random-s1.itf.json",
    "just-desserts/2p-jd-rivals-default-s1.itf.json",
    "just-desserts-2.3/2p-v23-tiny-default-s1.itf.json",
])
def test_a_vector_becomes_a_playthrough_and_back(vector, tmp_path):
    doc = json.loads((REPO / "vectors" / vector).read_text())
    text = vector_to_playthrough(doc)
    path = tmp_path / "game.txt"
    path.write_text(text)
    name, actions = read_playthrough(path.read_text())
    assert len(actions) == len(doc["states"]) - 1
    # OpenSpiel's own reproducibility check: regenerating gives the same file.
    assert generate_playthrough.playthrough(name, actions) == text
    back = playthrough_to_vector(path.read_text())
    assert back["states"] == doc["states"]
    assert back["#meta"]["options"] == doc["#meta"]["options"]


@pytest.mark.parametrize("name", CONFIGS[:6])
def test_playout_moves_are_openspiel_actions_that_replay_in_the_adapter(name):
    """Games from random_playouts (compiled for Dishes), turned into action ids by the
    adapter's codec, are legal in the OpenSpiel game step by step and end it, with the same
    states as ours."""
    from tablerules.model.playout import random_playouts

    game = pyspiel.load_game(name)
    for playout in random_playouts(game.rules, game.initial, 20, seed=4):
        state, ours = game.new_initial_state(), game.initial
        for move in playout.moves:
            action = game.codec.encode(ours, move)
            assert action in (
                [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
            )
            state.apply_action(action)
            ours = game.rules.apply(ours, move)
            assert state.ours == ours
        assert state.is_terminal()


def test_every_vector_round_trips_or_is_refused_in_one_line():
    """Each golden vector converts to a playthrough and back to the same states, or is
    refused with one line saying why: a capped trace (OpenSpiel plays on at random after
    the last action) or rulings the adapter refuses."""
    from tablerules.vectors import VectorError

    kept, refused = 0, {}
    for path in sorted((REPO / "vectors").rglob("*.itf.json")):
        doc = json.loads(path.read_text())
        try:
            text = vector_to_playthrough(doc)
        except (VectorError, SetupError) as e:
            assert "\n" not in str(e)
            refused[path.name] = str(e)
            continue
        assert playthrough_to_vector(text)["states"] == doc["states"], path.name
        kept += 1
    assert kept > 100
    capped = [n for n, why in refused.items() if "before its end" in why]
    assert capped and all(n.startswith("witness-") for n in capped)
    assert all("before its end" in why or "strict" in why or "need not end" in why for why in refused.values()), refused


# --------------------------------------------------------------------------- conform honours the game string


def test_conform_plays_every_game_with_the_game_strings_players_and_rulings(tmp_path):
    """Before: `players=3` was played with 2 seats (--players' default), and the string's rulings held for
    the first game only (every other game was loaded with the run's own setup)."""
    from tests.tool.runner import run_cli

    r = run_cli("conform", "dishes", "--engine", "openspiel:tablerules_dishes(players=3,rulings=tie-for-most:no-loser)",
                "--games", "2", "--steered", "1", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    doc = json.loads(r.stdout)
    assert doc["players"] == 3 and doc["games"]["random"]["played"] == 2
    assert doc["games"]["vectors"]["skipped"] > 0  # the vectors of other setups: declined, not played otherwise


def test_the_openspiel_engine_loads_every_game_with_the_strings_parameters():
    from tablerules.conform.openspiel_engine import OpenSpielEngine
    from tablerules.conform.protocol import Unsupported
    from tablerules.model import registry
    from tablerules.model.core import parse_options

    rules = registry.get("dishes")
    engine = OpenSpielEngine("openspiel:tablerules_dishes(players=3,rulings=tie-for-most:no-loser)")
    setup = rules.setup(3, parse_options(rules.Options, ["tie-for-most=no-loser"]))
    for _ in range(3):  # the second game and later too
        engine.new_game("dishes", setup, None, 0)
        params = engine.state.get_game().get_parameters()
        assert params["players"] == 3 and params["rulings"] == "tie-for-most:no-loser"
    with pytest.raises(Unsupported, match="fixes players=3"):
        engine.new_game("dishes", rules.setup(2), None, 0)
    with pytest.raises(Unsupported, match="fixes rulings"):
        engine.new_game("dishes", rules.setup(3), None, 0)
