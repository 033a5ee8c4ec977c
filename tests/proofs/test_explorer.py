"""The generic explorer against a small case worked out by hand, and symmetry reduction
checked against the unreduced search."""

from __future__ import annotations

import pytest

from tablerules.model.dishes import RULES, Options, Tiles
from tablerules.proofs.explorer import Budget, explore, finding_traces, graph_analysis


def test_one_kind_two_players_by_hand():
    """2 players, one kind, four colours (dishes.play.turn-own-tile, dishes.play.place-match):

    start (1) -> seat 0 turns (1 pending) -> 4 colours (4) -> seat 1 turns (4 pending)
    -> 3 colours left each (12) -> seat 0 must place its tile on seat 1's (12 ends, seat 1
    holds both tiles and loses).  34 states, 33 transitions, 12 terminal, depth 5.
    """
    setup = RULES.setup(2, Options(), Tiles(1, 4))
    ex = explore(RULES, [RULES.new_game(setup)])
    assert (ex.states, ex.transitions, ex.terminals, ex.depth) == (34, 33, 12, 5)
    assert ex.outcomes == {"loser 1": 12}
    assert ex.complete and not ex.findings
    # colours relabelled: one state per level
    red = explore(RULES, [RULES.new_game(setup)], symmetry="colours")
    assert (red.states, red.terminals) == (6, 1)


@pytest.mark.parametrize("players,tiles,options", [
    (2, Tiles(2, 4), Options()), (3, Tiles(1, 4), Options()),
    (2, Tiles(2, 4), Options(first_player="random")), (2, Tiles(2, 4), Options(movable_stacks="own-top")),
])
def test_symmetry_reduction_agrees_with_the_full_search(players, tiles, options):
    setup = RULES.setup(players, options, tiles)
    start = RULES.new_game(setup)
    full = explore(RULES, [start])
    assert full.complete
    for name in ("colours", "colours+types", "colours+types+seats"):
        canon = RULES.symmetries[name]
        reduced = explore(RULES, [start], symmetry=name)
        assert reduced.complete
        if name.endswith("seats") and options.first_player == "random":
            # seat rotation also merges orbits of states only seen when another seat started
            assert reduced.states <= len({canon(s) for s in full.parents})
            continue
        assert reduced.states == len({canon(s) for s in full.parents}), name
        assert reduced.terminals == len(
            {canon(s) for s in full.parents if RULES.to_move(s) is not None and RULES.outcome(s)}
        )
        assert set(reduced.outcomes) == set(full.outcomes)
        assert reduced.depth == full.depth


def test_budget_stops_and_says_what_was_covered():
    ex = explore(RULES, [RULES.new_game(RULES.setup(2))], budget=Budget(max_states=500))
    assert not ex.complete and "state budget" in ex.stopped
    assert ex.complete_depth < ex.depth
    assert "partial" in ex.coverage()


def test_traces_replay_to_the_state_they_name():
    setup = RULES.setup(2, Options(stuck_player="strict"), Tiles(3, 4))
    ex = explore(RULES, [RULES.new_game(setup)], symmetry="colours+types")
    gaps = [f for f in finding_traces(ex) if f.kind == "gap"]
    assert gaps and gaps[0].key == "dishes.ruling.stuck-player"
    from tablerules.model.core import play

    end = play(RULES, RULES.new_game(setup), [s.move for s in gaps[0].trace])
    from tablerules.model.core import RuleGap

    with pytest.raises(RuleGap):
        RULES.legal_moves(end)


def test_graph_pass_finds_cycles_under_voluntary_passes():
    setup = RULES.setup(2, Options(voluntary_pass="allowed"), Tiles(2, 4))
    ex = explore(RULES, [RULES.new_game(setup)], keep_graph=True)
    gr = graph_analysis(ex)
    assert not gr.acyclic and gr.longest is None and gr.traps == 0


@pytest.mark.parametrize("players,tiles", [(2, Tiles(2, 4)), (3, Tiles(1, 4))])
def test_orbit_sizes_add_up_to_the_unreduced_count(players, tiles):
    from tablerules.model.dishes import orbit_size

    start = RULES.new_game(RULES.setup(players, Options(), tiles))
    full = explore(RULES, [start])
    for name, types in (("colours", False), ("colours+types", True)):
        reduced = explore(RULES, [start], symmetry=name)
        assert sum(orbit_size(s, types=types) for s in reduced.parents) == full.states


def test_a_time_limit_stops_the_search_as_incomplete_never_as_a_verdict():
    ex = explore(RULES, [RULES.new_game(RULES.setup(4))], budget=Budget(max_states=10**7, max_seconds=0.2))
    assert ex.timed_out and not ex.complete and "time limit" in ex.stopped
    assert ex.coverage().startswith("incomplete, stopped by time limit (0.2 s)")
    assert "seconds" not in dict(ex.table(timings=False)) and "seconds" in dict(ex.table())


def test_the_state_budget_decides_what_is_covered_whatever_the_speed():
    start = RULES.new_game(RULES.setup(2))
    a = explore(RULES, [start], budget=Budget(max_states=3000))
    b = explore(RULES, [start], budget=Budget(max_states=3000))
    assert (a.states, a.transitions, a.depth, a.complete_depth, a.levels) == (b.states, b.transitions, b.depth,
                                                                             b.complete_depth, b.levels)
    assert a.table(timings=False) == b.table(timings=False)


def test_progress_sees_the_frontier_while_the_search_runs():
    seen = []
    explore(
        RULES, [RULES.new_game(RULES.setup(2, Options(), Tiles(2, 4)))], progress=lambda ex: seen.append(ex.frontier),
        progress_every=1,
    )
    assert len(seen) > 10 and max(seen) > 0 and seen[-1] == 0


def test_a_search_with_no_level_complete_says_so():
    ex = explore(RULES, [RULES.new_game(RULES.setup(4))], budget=Budget(max_states=2))
    assert ex.complete_depth == -1 and "no depth expanded in full" in ex.coverage() and "depth -1" not in ex.coverage()
