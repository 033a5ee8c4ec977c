"""The exact engine against the slow, independent solver over the model's full states,
and against the explorer.

For every ruling alternative that keeps the game finite, on tile sets small enough for the
reference (proofs/exact/reference.py), the engine must give the same table states per
level, the same terminal states, and the same exact values for uniform random and optimal
play; the explorer (proofs/explorer.py), run without symmetry over the same configurations,
must visit states whose table states are the engine's, level by level.  Executors (serial,
processes, dask) must agree with each other.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest

from tablerules.model import registry
from tablerules.model.core import STRICT, TERMINAL, ruling_fields
from tablerules.model.dishes import RULES, Options, Tiles
from tablerules.proofs.exact.reference import solve_reference
from tablerules.proofs.exact.run import ProcessExecutor, solve
from tablerules.proofs.explorer import explore

SMALL = {2: Tiles(2, 4), 3: Tiles(2, 3), 4: Tiles(1, 4)}
"""Per player count, a tile set whose every state the reference can visit in about a second."""


def _alternatives():
    """(label, players, options) for the default and every non-strict, finite alternative."""
    yield "default", 2, Options()
    yield "default", 3, Options()
    yield "default", 4, Options()
    for rid, f in ruling_fields(Options).items():
        for alt in f.metadata["alternatives"][1:]:
            if alt == STRICT or (rid == "dishes.ruling.voluntary-pass" and alt == "allowed"):
                continue
            players = 3 if "deal-3" in rid else 2
            yield f"{rid.split('.ruling.')[-1]}={alt}", players, dataclasses.replace(Options(), **{f.name: alt})


CASES = list(_alternatives())


def _tiles(players: int, options: Options) -> Tiles:
    if ((options.deal_2_players == "two-layouts" and players == 2)
            or (options.deal_3_players == "spare-layout" and players == 3)):
        return Tiles(1, 4)  # four layouts need four colours
    return SMALL[players]


def _compare(sol, ref):
    assert [lv.table_states for lv in sol.levels] == [lv.table_states for lv in ref.levels()]
    assert [lv.terminal_states for lv in sol.levels] == [lv.terminal_states for lv in ref.levels()]
    assert sol.random_play == ref.random_play
    assert sol.optimal_play == ref.optimal_play


@pytest.mark.parametrize("label,players,options", CASES, ids=[f"{c[0]}-{c[1]}p" for c in CASES])
def test_engine_agrees_with_the_full_state_solver(label, players, options):
    setup = RULES.setup(players, options, _tiles(players, options))
    sol = solve(registry.kernel("dishes", setup))
    assert sol.complete
    _compare(sol, solve_reference(RULES, setup, RULES.table_state))


def _measure(state) -> int:
    """The progress measure 2c + k (c clean tiles, k piles) that every action lowers by one."""
    return sum(2 if p is None else 1 if p else 0 for p in state.places)


@pytest.mark.parametrize("label,players,options", CASES, ids=[f"{c[0]}-{c[1]}p" for c in CASES])
def test_engine_agrees_with_the_explorer(label, players, options):
    """Every state the explorer visits (full model states, no symmetry), less the chance
    steps that are not table states, projected to its table state and placed at its level
    (actions played = the start's measure minus its own): the engine's counts exactly."""
    setup = RULES.setup(players, options, _tiles(players, options))
    ex = explore(RULES, [RULES.new_game(setup)])
    assert ex.complete
    tables = [s for s in ex.parents if not s.reveal and s.turn >= 0]
    top = max(_measure(s) for s in tables)
    by_level: dict[int, set] = {}
    terminal: dict[int, set] = {}
    for s in tables:
        by_level.setdefault(top - _measure(s), set()).add(RULES.table_state(s))
        if RULES.to_move(s) is TERMINAL:
            terminal.setdefault(top - _measure(s), set()).add(RULES.table_state(s))
    sol = solve(registry.kernel("dishes", setup), values=False)
    assert [lv.table_states for lv in sol.levels] == [len(by_level.get(a, ())) for a in range(len(sol.levels))]
    assert [lv.terminal_states for lv in sol.levels] == [len(terminal.get(a, ())) for a in range(len(sol.levels))]
    assert max(by_level) == len(sol.levels) - 1


@pytest.mark.slow
@pytest.mark.parametrize("players,tiles", [(2, Tiles(3, 4)), (3, Tiles(2, 4))])
def test_engine_agrees_on_larger_tile_sets(players, tiles):
    setup = RULES.setup(players, Options(), tiles)
    _compare(solve(registry.kernel("dishes", setup)), solve_reference(RULES, setup, RULES.table_state))


def _fixed_deal_rules(deal: tuple[int, ...]):
    """The model with chance restricted to one deal (each reveal shows the dealt colour)."""

    def chance(state):
        out = RULES.chance_outcomes(state)
        if state.reveal:
            return tuple((m, Fraction(1)) for m, _ in out if m.colour == deal[m.place])
        return out

    return dataclasses.replace(RULES, chance_outcomes=chance)


def test_a_fixed_deal_agrees_with_the_model_restricted_to_it():
    setup = RULES.setup(2, Options(), Tiles(3, 4))
    text = "red,yellow,c3/yellow,c3,c4"
    kern = registry.kernel("dishes", setup, deal=text)
    sol = solve(kern)
    from tablerules.model.dishes import parse_deal

    ref = solve_reference(_fixed_deal_rules(parse_deal(text, setup)), setup, RULES.table_state)
    _compare(sol, ref)


@pytest.mark.parametrize("text,problem", [
    ("red,yellow,c3", "1 layout given"),
    ("red,yellow/red,c3", "colours given"),
    ("red,yellow,c3/red,c3,c4", "cannot be dealt"),
    ("red,yellow,blue/red,c3,c4", "unknown colour"),
])
def test_an_impossible_deal_is_refused_with_one_line(text, problem):
    from tablerules.model.core import SetupError

    setup = RULES.setup(2, Options(), Tiles(3, 4))
    with pytest.raises(SetupError, match=problem):
        registry.kernel("dishes", setup, deal=text)


def test_every_action_advances_the_progress_measure_by_one_and_weights_agree():
    """Levels are actions played (proof ``termination``), and history weights make chance a plain sum."""
    setup = RULES.setup(3, Options(), Tiles(2, 4))
    kern = registry.kernel("dishes", setup)
    level = np.stack([r for r, _ in kern.start()])
    depth = 0
    while len(level):
        ex = kern.expand(level)
        if not len(ex.children):
            break
        assert np.all(kern.level(level) == depth)
        assert np.all(kern.level(ex.children) == depth + 1)
        w_parent = kern.history_weight(level)[ex.parent]
        w_child = kern.history_weight(ex.children)
        assert np.all(w_parent * ex.p_num == w_child * ex.p_den)
        level = np.unique(ex.children, axis=0)
        depth += 1


def test_canonical_rows_are_the_same_for_relabelled_states():
    """Renaming kinds and colours in a real state changes its row but not its canonical row;
    and the table part of a canonical row is the canonical form of its table state."""
    import random

    from tablerules.model.core import CHANCE, TERMINAL
    from tablerules.model.dishes import NT, State

    setup = RULES.setup(2)
    kern = registry.kernel("dishes", setup)
    rng = random.Random(7)
    for game in range(30):
        state = RULES.new_game(setup)
        while RULES.to_move(state) is not TERMINAL:
            if RULES.to_move(state) is CHANCE:
                state = RULES.apply(state, rng.choice(RULES.chance_outcomes(state))[0])
                continue
            kinds = list(range(NT))
            colours = list(range(4))
            rng.shuffle(kinds)
            rng.shuffle(colours)

            def code(c):
                return (kinds[(c // 4) % NT]) * 4 + colours[c % 4]

            places = [None] * len(state.places)
            for p, s in enumerate(state.places):
                places[(p // NT) * NT + kinds[p % NT]] = s if not s else tuple(code(c) for c in s)
            twin = State(setup, tuple(places), state.turn)
            a = kern.canonical(kern.encode(state)[None, :])[0]
            b = kern.canonical(kern.encode(twin)[None, :])[0]
            assert np.array_equal(a, b)
            table_only = np.zeros_like(a)
            table_only[:kern.table_width] = a[:kern.table_width]
            assert np.array_equal(kern.canonical(table_only[None, :])[0][:kern.table_width], a[:kern.table_width])
            state = RULES.apply(state, rng.choice(RULES.legal_moves(state)))


def test_the_canonical_forms_sorting_networks_sort_every_input():
    """The compare-exchange networks that order kinds (6) and colours (4) sort every input: by
    the 0-1 principle it is enough that they sort every vector of 0s and 1s; with packed
    positions, ties keep their positions' order, as a stable sort does."""
    from tablerules.model.dishes.loops import NETWORK_4, NETWORK_6, _sort_by_network

    for n, network in ((6, NETWORK_6), (4, NETWORK_4)):
        for bits in range(1 << n):
            words = np.array([(bits >> i) & 1 for i in range(n)], dtype=np.uint64)
            _sort_by_network(words, network)
            assert list(words) == sorted(words), (n, bits)
            packed = np.array([(((bits >> i) & 1) << 3) | i for i in range(n)], dtype=np.uint64)
            _sort_by_network(packed, network)
            assert [int(w) & 7 for w in packed] == sorted(range(n), key=lambda i: ((bits >> i) & 1, i))


def _figures(sol) -> list[dict]:
    """Every figure of every level; not ``held_rows``, which measures the tasks, not the game."""
    return [{k: v for k, v in dataclasses.asdict(lv).items() if k != "held_rows"} for lv in sol.levels]


def test_worker_processes_give_the_same_figures_as_one_process():
    setup = RULES.setup(2, Options(), Tiles(3, 4))
    kern = registry.kernel("dishes", setup)
    serial = solve(kern)
    run = ProcessExecutor(2)
    try:
        parallel = solve(kern, run=run, parts=3)
    finally:
        run.close()
    assert _figures(serial) == _figures(parallel)
    assert serial.random_play == parallel.random_play and serial.optimal_play == parallel.optimal_play


SEGMENTED = [("default-2p", 2, Options(), Tiles(3, 4), 100), ("default-3p", 3, Options(), Tiles(2, 3), 40),
             ("own-top-2p", 2, Options(movable_stacks="own-top"), Tiles(2, 4), 8)]


@pytest.mark.parametrize("label,players,options,tiles,segment", SEGMENTED, ids=[c[0] for c in SEGMENTED])
def test_segments_bound_what_a_task_holds_and_change_no_figure(label, players, options, tiles, segment):
    """With a segment of a few rows every counting task holds at most that many rows at once
    (parents read, children flushed and runs merged in pieces), where the same run without a
    segment holds more; every figure and value is the same, bit for bit."""
    kern = registry.kernel("dishes", RULES.setup(players, options, tiles))
    whole = solve(kern, parts=2)
    pieces = solve(kern, parts=2, segment=segment)
    assert whole.complete and pieces.complete
    assert _figures(whole) == _figures(pieces)
    assert whole.random_play == pieces.random_play and whole.optimal_play == pieces.optimal_play
    assert max(lv.held_rows for lv in whole.levels) > segment
    assert max(lv.held_rows for lv in pieces.levels) <= segment


def test_segments_in_worker_processes_give_the_figures_of_one_process():
    kern = registry.kernel("dishes", RULES.setup(2, Options(), Tiles(3, 4)))
    run = ProcessExecutor(2)
    try:
        pieces = solve(kern, run=run, parts=3, segment=64)
    finally:
        run.close()
    whole = solve(kern)
    assert _figures(whole) == _figures(pieces) and whole.optimal_play == pieces.optimal_play


@pytest.mark.slow
def test_a_dask_cluster_gives_the_same_figures_as_one_process():
    pytest.importorskip("dask.distributed", reason="dask.distributed is not installed")
    from tablerules.proofs.exact.run import DaskExecutor

    setup = RULES.setup(2, Options(), Tiles(3, 4))
    kern = registry.kernel("dishes", setup)
    serial = solve(kern)
    run = DaskExecutor(workers=2)
    try:
        spread = solve(kern, run=run, parts=4)
    finally:
        run.close()
    assert _figures(serial) == _figures(spread)
    assert serial.random_play == spread.random_play and serial.optimal_play == spread.optimal_play


def test_a_state_budget_stops_the_run_as_incomplete():
    setup = RULES.setup(2, Options(), Tiles(3, 4))
    sol = solve(registry.kernel("dishes", setup), max_states=100)
    assert not sol.complete and "state budget" in sol.stopped
    assert sol.random_play is None


class _SlowKernel:
    """The Dishes kernel whose expansion of level 2 takes a minute (a stand-in for a level
    too large to finish)."""

    def __init__(self, kern) -> None:
        self.kern = kern

    def __getattr__(self, name):
        if name == "kern":  # not set yet while unpickling in a worker
            raise AttributeError(name)
        return getattr(self.kern, name)

    def expand(self, rows):
        if len(rows) and int(self.kern.level(rows[:1])[0]) == 2:
            import time

            time.sleep(60)
        return self.kern.expand(rows)


@pytest.mark.slow
def test_a_time_limit_stops_a_level_in_progress_and_only_marks_the_run_incomplete():
    """The limit stops the run inside a level (the worker processes are stopped mid-task);
    the levels counted before it stand, the one in progress is dropped, nothing is claimed
    complete, and the same pool then solves a run to its end."""
    import time

    kern = registry.kernel("dishes", RULES.setup(2, Options(), Tiles(2, 4)))
    run = ProcessExecutor(2)
    try:
        solve(kern, run=run)  # the workers load the compiled loops before the clock starts
        t0 = time.perf_counter()
        sol = solve(_SlowKernel(kern), run=run, max_seconds=3, values=False)
        took = time.perf_counter() - t0
        assert not sol.complete and not sol.counted and "time limit" in sol.stopped
        assert len(sol.levels) == 3 and sol.levels[2].children == 0  # level 2 counted, its expansion dropped
        assert sol.longest_game_actions is None
        assert took < 45, "the workers were not stopped mid-task"
        again = solve(kern, run=run)
        full = solve(kern)
        assert again.complete and _figures(again) == _figures(full)
    finally:
        run.close()


class _HungryKernel(_SlowKernel):
    """The Dishes kernel whose expansion of level 2 takes 400 MB and then a minute."""

    def expand(self, rows):
        if len(rows) and int(self.kern.level(rows[:1])[0]) == 2:
            import time

            hold = np.ones(400 * 2**20 // 8)  # touched, so resident
            time.sleep(60)
            del hold
        return self.kern.expand(rows)


@pytest.mark.slow
def test_the_peak_memory_counts_a_task_the_time_limit_stopped():
    """A worker's peak is read from the system before the worker is stopped, so a level too
    large to finish still shows in peak_memory_mb."""
    kern = registry.kernel("dishes", RULES.setup(2, Options(), Tiles(2, 4)))
    run = ProcessExecutor(2)
    try:
        solve(kern, run=run)  # the workers load the compiled loops before the clock starts (level 2 comes at once)
        sol = solve(_HungryKernel(kern), run=run, max_seconds=8, values=False)
        assert "time limit" in sol.stopped
        assert run.worker_peak_kb > 400 * 1024
        assert sol.peak_memory_mb > 2 * 400
    finally:
        run.close()


class _DyingKernel(_SlowKernel):
    """The Dishes kernel whose worker is killed (as the system kills a process out of
    memory) when it expands level 2."""

    def expand(self, rows):
        if len(rows) and int(self.kern.level(rows[:1])[0]) == 2:
            import os
            import signal

            os.kill(os.getpid(), signal.SIGKILL)
        return self.kern.expand(rows)


def test_a_worker_killed_by_the_system_stops_the_run_with_a_reason_and_the_pool_recovers():
    kern = registry.kernel("dishes", RULES.setup(2, Options(), Tiles(2, 4)))
    run = ProcessExecutor(2)
    try:
        sol = solve(_DyingKernel(kern), run=run, values=False)
        assert not sol.complete and "worker process that died at level 2" in sol.stopped
        assert len(sol.levels) == 3
        assert solve(kern, run=run).complete
    finally:
        run.close()


def test_a_time_limit_already_passed_claims_nothing():
    kern = registry.kernel("dishes", RULES.setup(2, Options(), Tiles(3, 4)))
    sol = solve(kern, max_seconds=1e-9)
    assert not sol.complete and not sol.counted and "time limit" in sol.stopped
    assert sol.random_play is None and sol.optimal_play is None and sol.longest_game_actions is None


def test_rule_sets_without_a_progress_measure_are_refused():
    from tablerules.model.core import SetupError

    with pytest.raises(SetupError, match="progress measure"):
        registry.kernel("dishes", RULES.setup(2, Options(voluntary_pass="allowed")))
    with pytest.raises(SetupError, match="strict"):
        registry.kernel("dishes", RULES.setup(2, Options(stuck_player=STRICT)))
    jd = registry.get("just-desserts")
    with pytest.raises(SetupError, match="progress measure"):
        registry.kernel("just-desserts", jd.setup(2))


def test_row_invariants_hold_everywhere_and_catch_a_planted_fault():
    setup = RULES.setup(2, Options(), Tiles(3, 4))
    kern = registry.kernel("dishes", setup)
    sol = solve(kern, values=False)
    assert sol.complete and sol.violations() == {}
    row = np.stack([r for r, _ in kern.start()])
    bad = kern.expand(row).children[:1].copy()
    bad[0, 1 + 2 * kern.S] += 1  # one tile too many on a pile
    broken = {name for name, _, mask in kern.invariants(bad) if mask.any()}
    assert "tile-conservation" in broken
    bad[0, 0] = 7  # not a seat
    assert {name for name, _, mask in kern.invariants(bad) if mask.any()} >= {"turn-is-a-seat"}



def _flagged(kern, rows):
    return {name for name, _, mask in kern.invariants(rows) if mask.any()}


def test_each_row_invariant_catches_its_own_fault_and_no_other():
    kern = registry.kernel("dishes", RULES.setup(2, Options(), Tiles(3, 4)))
    S = kern.S
    rows = np.stack([r for r, _ in kern.start()])
    for _ in range(3):  # a few moves in, so there are piles of every height
        rows = np.unique(kern.expand(rows).children, axis=0)
    assert _flagged(kern, rows) == set()
    piles = [(i, s) for i in range(len(rows)) for s in range(S) if rows[i, 1 + s] < 6]
    clean = [(i, s) for i in range(len(rows)) for s in range(S) if rows[i, 1 + s] == 6]
    i, s = piles[0]
    faults = {
        "tile-conservation": lambda r: r.__setitem__((i, 1 + 2 * S + s), r[i, 1 + 2 * S + s] + 1),
        "clean-never-stacked": lambda r: r.__setitem__((clean[0][0], 1 + S + clean[0][1]), 0),
        "turn-is-a-seat": lambda r: r.__setitem__((i, 0), kern.players),
    }
    two = next((i2, a, b) for i2 in range(len(rows)) for a in range(S) for b in range(S)
               if a != b and rows[i2, 1 + a] < 6 and rows[i2, 1 + b] < 6 and rows[i2, 1 + a] != rows[i2, 1 + b])
    i2, a, b = two  # pile b shows the kind and colour of pile a: two tiles of one kind and colour
    faults["colour-model"] = lambda r: (r.__setitem__((i2, 1 + b), r[i2, 1 + a]),
                                        r.__setitem__((i2, 1 + S + b), r[i2, 1 + S + a]))
    for name, plant in faults.items():
        bad = rows.copy()
        plant(bad)
        assert _flagged(kern, bad) == {name}, name


def test_a_longest_game_is_found_again_and_replays_on_the_model():
    from tablerules.model.core import TERMINAL
    from tablerules.proofs.exact.trace import longest_game

    setup = RULES.setup(3, Options(), Tiles(2, 3))
    kern = registry.kernel("dishes", setup)
    sol = solve(kern, values=False)
    steps, end = longest_game(RULES, setup, kern)
    actions = [s for s in steps if s.actor != "CHANCE" and s.move != "pass"]
    assert len(actions) == sol.longest_game_actions
    assert RULES.to_move(end) is TERMINAL
    state = RULES.new_game(setup)
    for step in steps:  # every step is a real, legal move of the model
        state = RULES.apply(state, RULES.parse_move(step.move, setup))
    assert state == end


def test_alternatives_that_only_score_the_ends_otherwise_share_one_state_graph():
    """dishes-count, tie-for-most and clean-at-end change only who loses at an end: solved
    over the default's state graph (counted once) they give every figure they give alone;
    alternatives that change play are not shared, and solving them together is refused."""
    from tablerules.proofs.exact import impact as exact_impact
    from tablerules.proofs.exact.run import play_key, solve_together

    labels = {"default", "dishes-count=stacks", "tie-for-most=no-loser", "clean-at-end=dishes",
              "stuck-player=game-ends"}
    said: list[str] = []
    apart = exact_impact.solve_alternatives("dishes", 2, Tiles(2, 4), labels=labels, share=False)
    together = exact_impact.solve_alternatives("dishes", 2, Tiles(2, 4), labels=labels, progress=said.append)
    assert [{k: v for k, v in r.items() if k != "seconds"} for r in apart["alternatives"]] == \
        [{k: v for k, v in r.items() if k != "seconds"} for r in together["alternatives"]]
    shared = "solving default, dishes-count=stacks, tie-for-most=no-loser, clean-at-end=dishes over one state graph"
    assert shared in said
    assert "solving stuck-player=game-ends" in said
    levels = [x for x in said if x.startswith("stuck-player=game-ends: level ")]  # each level of a long run shows
    assert levels and levels[0].startswith("stuck-player=game-ends: level 0: 1 engine states to expand"), said
    default = registry.kernel("dishes", RULES.setup(2, Options(), Tiles(2, 4)))
    stuck = registry.kernel("dishes", RULES.setup(2, Options(stuck_player="game-ends"), Tiles(2, 4)))
    assert play_key(default) != play_key(stuck)
    with pytest.raises(ValueError, match="play the same game"):
        solve_together([default, stuck])


def test_edges_are_stored_in_32_bits_and_a_value_past_them_is_refused_by_name():
    from tablerules.proofs.exact.levels import narrow

    assert narrow(np.array([[0, 2**31 - 1]]), "an edge").dtype == np.int32
    with pytest.raises(OverflowError, match="an edge does not fit in 32 bits: use more --partitions"):
        narrow(np.array([2**31]), "an edge")
