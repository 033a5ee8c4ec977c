"""The z3 proofs return their expected results, and the abstraction they rest on matches the model."""

from __future__ import annotations

import pytest

from tablerules.model.core import CHANCE
from tablerules.model.dishes import RULES, Options, Tiles
from tablerules.proofs.dishes import proofs as dishes_proofs
from tablerules.proofs.checks import manifest
from tablerules.proofs.explorer import explore, graph_analysis


@pytest.mark.parametrize("proof", [dishes_proofs.termination, dishes_proofs.termination_with_voluntary_pass,
                                   dishes_proofs.worked_example])
def test_proof_result_matches_the_manifest(proof):
    result = proof()
    assert result.status == manifest("dishes")[result.name]["expected"]


def test_termination_bound_per_player_count():
    """dishes.end.no-moves: f(start) = n * 2 * tiles + n - 1 seat moves at most."""
    bounds = dishes_proofs.termination().data["bounds"]
    assert bounds == {"2p-12": 49, "2p-24": 97, "3p-18": 110, "4p-24": 195}


def test_ranking_fails_without_the_pass_bound():
    """The proof can fail: a ranking with no pass term is refuted by z3."""
    import z3

    c, k, p = z3.Ints("c k p")
    s = z3.Solver()
    # pass leaves 2c+k unchanged, so 2c+k alone is no ranking function
    s.add(c >= 0, k >= 0, z3.Not(2 * c + k < 2 * c + k))
    assert s.check() == z3.sat


def _abstract(state):
    clean = sum(1 for p in state.places if p is None)
    piles = sum(1 for p in state.places if p)
    return clean, piles


@pytest.mark.parametrize("players,tiles,options", [
    (2, Tiles(2, 4), Options()), (3, Tiles(1, 4), Options()), (2, Tiles(2, 4), Options(movable_stacks="any-stack")),
])
def test_every_explored_transition_is_an_abstract_move(players, tiles, options):
    """The termination proof's move table (turn, place, pass) is what the model does."""
    setup = RULES.setup(players, options, tiles)
    ex = explore(RULES, [RULES.new_game(setup)], keep_graph=True)
    assert ex.complete
    for s, t in ex.edges:
        (c, k), (c2, k2) = _abstract(s), _abstract(t)
        if RULES.to_move(s) is CHANCE:
            assert (c2 - c, k2 - k) == (-1, 1)  # the turned tile shows: it joins the piles
        else:
            assert (c2 - c, k2 - k) in {(0, 0), (0, -1)}  # turn (pending reveal), pass, place


@pytest.mark.parametrize("players,tiles", [(2, Tiles(3, 4)), (3, Tiles(2, 4))])
def test_longest_game_is_within_the_proved_bound(players, tiles):
    setup = RULES.setup(players, Options(), tiles)
    ex = explore(RULES, [RULES.new_game(setup)], symmetry="colours+types", keep_graph=True)
    gr = graph_analysis(ex)
    dealt = players * tiles.types
    assert gr.traps == 0 and gr.acyclic
    assert gr.longest <= players * 2 * dealt + players - 1 + dealt


def test_worked_example_rules_out_the_alternatives_it_contradicts():
    r = dishes_proofs.worked_example()
    assert set(r.data["ruled_out"]) == {
        "colour-model=layout-sets", "deal-2-players=colour-sets", "movable-stacks=any-stack",
    }
    assert ("four-sets", "random-subset", "own-places") in r.data["consistent"]
