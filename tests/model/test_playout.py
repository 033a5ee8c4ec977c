"""Whole games played at random (model/playout.py): the compiled Dishes playout and the
step API's, against the model move by move and against the exact engine's figures.

Every game a playout returns must replay through ``RULES.apply`` (which refuses any move
the rules forbid), end where the model says the game is over, and name the seats the
model's outcome names.  Over many games the share of games each seat loses must match the
exact engine's value for uniform random play within five standard errors: a playout that
picks moves with the wrong weights, or misses moves, drifts away from it.
"""

from __future__ import annotations

import dataclasses
import functools
from fractions import Fraction
from types import SimpleNamespace

import pytest

from tablerules.model import registry
from tablerules.model.core import CHANCE, TERMINAL
from tablerules.model.dishes import RULES, FirstPlayer, Options, Pass, Reveal, Tiles
from tablerules.model.playout import compiled, random_playouts, replay_problem, step_playouts
from tablerules.proofs.dishes.playout_check import frequency_problem
from tablerules.proofs.exact.run import solve

from ..proofs.exact.test_levels import CASES, _tiles


def _replay(rules, state, playout):
    """The game replays on the model (model/playout.py, replay_problem: every move legal,
    every chance move an outcome offered, over at its end, the same seats named); returns
    the final state."""
    assert replay_problem(rules, state, [playout]) is None, replay_problem(rules, state, [playout])
    return functools.reduce(rules.apply, playout.moves, state)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_compiled_games_on_the_boxed_tiles_replay_on_the_model(players):
    setup = RULES.setup(players, Options(), Tiles())
    start = RULES.new_game(setup)
    games = random_playouts(RULES, start, 200, seed=players)
    assert len(games) == 200
    for g in games:
        _replay(RULES, start, g)
    assert len({g.moves for g in games}) == 200  # the games differ


@pytest.mark.parametrize("label,players,options", CASES, ids=[f"{c[0]}-{c[1]}p" for c in CASES])
def test_compiled_games_replay_and_lose_as_often_as_the_exact_engine_says(label, players, options):
    """For every finite ruling alternative: 100 games replay on the model, and over 40,000
    games each seat is among those doing the dishes as often as the exact value for random
    play says (within five standard errors)."""
    setup = RULES.setup(players, options, _tiles(players, options))
    start = RULES.new_game(setup)
    games = random_playouts(RULES, start, 40000, seed=7)
    for g in games[:100]:
        _replay(RULES, start, g)
    exact = solve(registry.kernel("dishes", setup)).random_play
    _agrees(games, exact, players)


def _agrees(games, exact, players):
    text, ok = frequency_problem(games, exact.among_losers[:players])
    assert ok, text


def test_the_step_api_plays_the_same_game_as_the_compiled_playout():
    """The fallback plays through to_move / legal_moves / apply: the same law, more slowly."""
    setup = RULES.setup(2, Options(), Tiles(3, 4))
    start = RULES.new_game(setup)
    games = list(step_playouts(RULES, start, 3000, seed=3))
    for g in games[:50]:
        _replay(RULES, start, g)
    _agrees(games, solve(registry.kernel("dishes", setup)).random_play, 2)


def test_a_seed_gives_the_same_games_and_another_seed_others():
    start = RULES.new_game(RULES.setup(3, Options(), Tiles()))
    a = random_playouts(RULES, start, 50, seed=11)
    assert a == random_playouts(RULES, start, 50, seed=11)
    assert a != random_playouts(RULES, start, 50, seed=12)
    assert random_playouts(RULES, start, 0, seed=11) == []


def test_play_goes_on_from_any_state_even_one_waiting_on_chance():
    """From the middle of a game, from a turned tile waiting for its colour, and from the
    deals where chance picks the first player or shows the spare layout first."""
    setup = RULES.setup(2, Options(), Tiles())
    s = RULES.new_game(setup)
    s = RULES.apply(s, RULES.legal_moves(s)[0])  # a tile turned, its colour not yet shown
    assert RULES.to_move(s) is CHANCE
    for g in random_playouts(RULES, s, 50, seed=1):
        assert isinstance(g.moves[0], Reveal)
        _replay(RULES, s, g)
    mid = RULES.apply(s, RULES.chance_outcomes(s)[0][0])
    for g in random_playouts(RULES, mid, 50, seed=1):
        _replay(RULES, mid, g)
    first = RULES.new_game(RULES.setup(3, Options(first_player="random"), Tiles()))
    games = random_playouts(RULES, first, 300, seed=2)
    assert {g.moves[0].seat for g in games} == {0, 1, 2}
    assert all(isinstance(g.moves[0], FirstPlayer) for g in games)
    for g in games[:50]:
        _replay(RULES, first, g)
    spare = RULES.new_game(RULES.setup(3, Options(deal_3_players="spare-layout"), Tiles()))
    for g in random_playouts(RULES, spare, 50, seed=4):
        assert all(isinstance(m, Reveal) for m in g.moves[:6])
        _replay(RULES, spare, g)
    over = _replay(RULES, mid, random_playouts(RULES, mid, 1, seed=5)[0])
    assert random_playouts(RULES, over, 3, seed=5)[0].moves == ()


def test_forced_passes_are_played_as_moves():
    """Under stuck-player=skip a seat with no move passes (dishes.ruling.stuck-player): the
    compiled playout writes the pass, and the game replays."""
    setup = RULES.setup(3, Options(), Tiles(2, 4))
    start = RULES.new_game(setup)
    games = random_playouts(RULES, start, 2000, seed=9)
    passing = [g for g in games if any(isinstance(m, Pass) for m in g.moves)]
    assert passing
    for g in passing[:50]:
        _replay(RULES, start, g)


def test_rulings_the_compiled_playout_cannot_play_go_through_the_step_api():
    """Voluntary passes (no progress measure) and strict rulings (play stops at a gap) fall
    back on the step API, whose games replay as well."""
    setup = RULES.setup(2, Options(voluntary_pass="allowed"), Tiles(2, 4))
    start = RULES.new_game(setup)
    for g in random_playouts(RULES, start, 20, seed=1):
        _replay(RULES, start, g)


def test_both_just_desserts_editions_play_compiled_and_replay():
    assert all(
        compiled(registry.get(r), registry.get(r).setup(2, None, registry.get(r).default_components()))
        for r in ("just-desserts", "just-desserts-2.3")
    )
    for ruleset, players, deck in (("just-desserts", 2, "jd-crowd"), ("just-desserts-2.3", 3, "v23-tips")):
        rules = registry.get(ruleset)
        start = rules.new_game(rules.setup(players, None, rules.load_components(deck)))
        games = random_playouts(rules, start, 5, seed=1)
        for g in games:
            _replay(rules, start, g)
        assert all(g.winners or not g.losers for g in games)


def test_just_desserts_on_the_retail_deck(retail_deck):
    rules = registry.get("just-desserts")
    start = rules.new_game(rules.setup(3, None, retail_deck))
    for g in random_playouts(rules, start, 3, seed=2):
        _replay(rules, start, g)


def test_the_check_finds_a_game_the_model_refuses_or_scores_otherwise():
    """The check's replay names the first bad action and its clause, a game stopped early, and
    a wrong loser; its frequency test fails a share far from the exact value."""
    start = RULES.new_game(RULES.setup(2, Options(), Tiles()))
    good = random_playouts(RULES, start, 3, seed=1)
    assert replay_problem(RULES, start, good) is None
    g = good[1]
    swapped = dataclasses.replace(g, moves=(g.moves[0], g.moves[0]) + g.moves[2:])
    assert f"game 0, action 2 ({g.moves[0]}): not a chance outcome here" in replay_problem(RULES, start, [swapped])
    assert "not over" in replay_problem(RULES, start, [dataclasses.replace(g, moves=g.moves[:-1])])
    assert "the playout names" in replay_problem(
        RULES, start, [dataclasses.replace(g, losers=frozenset({0, 1}) - g.losers)]
    )
    seat_move = next(
        i for i, m in enumerate(g.moves) if i and not isinstance(m, Reveal) and isinstance(g.moves[i - 1], Reveal)
    )
    bad = dataclasses.replace(g, moves=g.moves[:seat_move] + (Pass(),) + g.moves[seat_move + 1:])
    assert f"game 0, action {seat_move + 1} (pass): refused by dishes.ruling" in replay_problem(RULES, start, [bad])
    text, ok = frequency_problem(good * 100, [Fraction(1, 2), Fraction(1, 2)])
    assert not ok and "SE" in text


def test_many_games_stream_one_at_a_time_with_the_same_games_as_the_list():
    from tablerules.model.playout import iter_playouts

    start = RULES.new_game(RULES.setup(4, Options(), Tiles()))
    stream = iter_playouts(RULES, start, 10_000_000, seed=8)  # far too many to hold: nothing is played yet
    first = [next(stream) for _ in range(5000)]  # crosses a batch boundary
    assert first == random_playouts(RULES, start, 5000, seed=8)


def test_seeds_do_not_share_games():
    """Opposite seeds, and seeds arranged to meet in the compiled loop's streams, give other
    games, on both paths."""
    from tablerules.model.dishes.playout import BATCH

    start = RULES.new_game(RULES.setup(2, Options(), Tiles(2, 4)))
    assert random_playouts(RULES, start, 20, seed=5) != random_playouts(RULES, start, 20, seed=-5)
    passing = RULES.new_game(RULES.setup(2, Options(voluntary_pass="allowed"), Tiles(2, 4)))
    assert random_playouts(RULES, passing, 20, seed=5) != random_playouts(RULES, passing, 20, seed=-5)
    later = random_playouts(RULES, start, BATCH + 10, seed=0)[BATCH:]
    assert random_playouts(RULES, start, 10, seed=BATCH - 2**44) != later


def test_a_strict_ruling_of_another_player_count_keeps_the_compiled_loop():
    """deal-2-players cannot matter to four players: strict there, the games are the
    compiled loop's (the same as under the default), not the step API's."""
    from tablerules.model.dishes.playout import available

    strict = RULES.setup(4, Options(deal_2_players="strict", deal_3_players="strict"), Tiles())
    assert available(strict)
    assert random_playouts(RULES, RULES.new_game(strict), 30, seed=2) == random_playouts(
        RULES, RULES.new_game(RULES.setup(4, Options(), Tiles())), 30, seed=2)
    assert not available(RULES.setup(2, Options(deal_2_players="strict"), Tiles()))


def test_under_a_strict_ruling_a_game_that_reaches_the_gap_raises_it():
    from tablerules.model.core import RuleGap
    from tablerules.model.playout import iter_playouts

    start = RULES.new_game(RULES.setup(3, Options(tie_for_most="strict"), Tiles(2, 4)))
    played = []
    with pytest.raises(RuleGap) as gap:
        for g in iter_playouts(RULES, start, 1000, seed=1):
            played.append(g)
    assert gap.value.ruling == "dishes.ruling.tie-for-most"
    for g in played:
        _replay(RULES, start, g)


def test_a_capacity_below_the_longest_game_is_refused_not_overrun():
    import numpy as np

    from tablerules.model.dishes.playout import _kernel, play, start_of

    kern = _kernel(RULES.setup(4, Options(), Tiles()))
    row, pending, first = start_of(kern, RULES.new_game(kern.setup))
    with pytest.raises(ValueError, match="capacity is smaller than a game"):
        play(row, kern.prm, kern.slot_owner, kern.layout_owner, kern.fixed, pending, first, 8, np.uint64(1), 5)


def test_bad_arguments_are_refused_in_one_line():
    start = RULES.new_game(RULES.setup(2, Options(), Tiles()))
    for games in (2.5, "3", True, None):
        with pytest.raises(ValueError, match="games must be a whole number"):
            random_playouts(RULES, start, games)
    with pytest.raises(ValueError, match="games must be 0 or more, not -1"):
        random_playouts(RULES, start, -1)
    for seed in (1.5, None, "abc"):
        with pytest.raises(ValueError, match="seed must be a whole number"):
            random_playouts(RULES, start, 1, seed=seed)
    import numpy as np

    assert random_playouts(RULES, start, np.int64(3), seed=np.uint32(7)) == random_playouts(RULES, start, 3, seed=7)
    jd = registry.get("just-desserts")
    with pytest.raises(ValueError, match="is not a state of dishes"):
        random_playouts(RULES, jd.new_game(jd.setup(2)), 1)
    with pytest.raises(ValueError, match="is not a state of just-desserts"):
        random_playouts(jd, start, 1)


@pytest.mark.slow
def test_the_boxed_two_player_game_loses_as_the_solved_file_says():
    """100,000 games of the boxed game against spec/solved/dishes-2p-box.json (exact values
    for random play over every deal)."""
    from tablerules.proofs.exact.impact import random_play_on_record

    exact, source = random_play_on_record(RULES, RULES.setup(2, Options(), Tiles()))
    assert source.startswith("spec/solved/dishes-2p-box.json, default"), source
    exact = SimpleNamespace(among_losers=exact["among_losers"])
    start = RULES.new_game(RULES.setup(2, Options(), Tiles()))
    _agrees(random_playouts(RULES, start, 100000, seed=20), exact, 2)


def test_standard_errors_from_an_exact_value():
    from tablerules.model.playout import standard_errors

    assert standard_errors(0.6, 0.5, 100) == pytest.approx(2.0)
    assert standard_errors(0.5, 0.5, 100) == 0.0
    assert standard_errors(0.0, 0.0, 100) == 0.0
    assert standard_errors(0.01, 0.0, 100) == float("inf")  # a certain event missed: no spread explains it
    assert standard_errors(0.99, 1.0, 100) == float("-inf")
