"""How the exact engine writes and reads its store: keys, flushes into runs, distinct rows,
the gathered edges, and the bounds on what a task holds when no segment is given."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tablerules.model import registry
from tablerules.model.dishes import RULES, Options, Tiles
from tablerules.proofs.exact import levels as exact
from tablerules.proofs.exact import loops
from tablerules.proofs.exact import sorted_runs as exact_runs
from tablerules.proofs.exact.run import solve


def _rows(n: int, width: int, distinct: int, seed: int) -> np.ndarray:
    """``n`` rows of ``width`` bytes drawn from ``distinct`` different ones (repeats on purpose)."""
    rng = np.random.default_rng(seed)
    pool = rng.integers(0, 256, size=(distinct, width), dtype=np.uint8)
    return pool[rng.integers(0, distinct, size=n)]


def test_keys_and_partitions_come_from_one_pass_that_carries_the_table_hash_on():
    rows = _rows(500, 48, 300, 1)
    words = exact.words_of(rows)
    table = loops.hash_words(words, 5)
    whole = loops.hash_words(words, 6)
    top = np.uint64(0xFFFFFFFF00000000)
    keys, parts = loops.keys_and_parts(words, 5, 7)
    assert np.array_equal(keys, (table & top) | (whole & ~top))
    assert np.array_equal(parts, (table % np.uint64(7)).astype(np.int64))
    assert np.array_equal(exact.row_keys(rows, 40), keys) and np.array_equal(exact.partition_of(rows, 40, 7), parts)


def test_a_flush_writes_each_distinct_row_once_to_its_partition_in_bin_order_and_places_every_row(tmp_path):
    store = exact.Store(tmp_path)
    spill = exact._Spill(store, 1, "b0-", 5, 40)
    batches = [_rows(400, 48, 150, 2), _rows(300, 48, 150, 2)[::-1].copy()]
    placed = [spill.flush(rows) for rows in batches]
    folder = store.folder(1)
    for d in range(5):
        runs = exact_runs.run_names(folder, f"b0-{d}")
        bucket = np.concatenate([np.load(folder / f"{r}.rows.npy") for r in runs])
        for r in runs:
            keys = np.load(folder / f"{r}.hash.npy")
            rows = np.load(folder / f"{r}.rows.npy")
            assert np.array_equal(keys, exact.row_keys(rows, 40))
            assert np.all(np.diff((keys >> np.uint64(48)).astype(np.int64)) >= 0)  # sorted by bin
            assert len({row.tobytes() for row in rows}) == len(rows)  # each row once in a run
        assert np.all(exact.partition_of(bucket, 40, 5) == d)
        for rows, (dest, place) in zip(batches, placed):
            mine = dest == d
            assert np.array_equal(bucket[place[mine]], rows[mine])  # every row found at its place
    assert sum(int(f) for f in spill.filled) == sum(len({r.tobytes() for r in b}) for b in batches)


def test_distinct_rows_come_sorted_by_hash_with_each_rows_index():
    rows = _rows(2000, 16, 700, 3)
    got, where, hashes = exact.distinct(rows)
    _, first = np.unique(rows, axis=0, return_index=True)
    assert len(got) == len(first)
    assert np.all(np.diff(hashes.astype(object)) >= 0) and np.array_equal(hashes, exact.row_keys(got, 16))
    assert np.array_equal(got[where], rows)


def test_the_gathered_edges_refuse_a_value_past_32_bits():
    edges = np.array([[0, 3, 1, 1, 0, 0]], dtype=np.int32)
    out = np.zeros((1, 5), dtype=np.int32)
    args = (np.array([0], dtype=np.int32), np.array([0, 1]), np.array([0, 1]))
    assert loops.gather_edges(edges, *args, 0, np.array([2]), out, 0)
    assert out.tolist() == [[0, 3, 1, 2, 0]]
    assert not loops.gather_edges(edges, *args[:2], np.array([2**31, 0]), 0, np.array([2]), out, 0)


def test_without_a_segment_a_task_holds_at_most_the_engines_bounds_and_no_figure_changes(monkeypatch):
    """The engine's own bounds (exact.FLUSH_BYTES of children held by a counting task,
    exact.MERGE_BYTES of rows read at once by a merge) take the place of a segment: small ones
    change no figure."""
    kern = registry.kernel("dishes", RULES.setup(2, Options(movable_stacks="own-top"), Tiles(2, 4)))
    whole = solve(kern, parts=2)
    monkeypatch.setattr(exact, "FLUSH_BYTES", 12 * kern.width)
    monkeypatch.setattr(exact, "MERGE_BYTES", 12 * kern.width)
    bounded = solve(kern, parts=2)
    assert max(lv.held_rows for lv in whole.levels) > 12 >= max(lv.held_rows for lv in bounded.levels)
    figures = [[{k: v for k, v in dataclasses.asdict(lv).items() if k != "held_rows"} for lv in s.levels]
               for s in (whole, bounded)]
    assert figures[0] == figures[1]
    assert whole.random_play == bounded.random_play and whole.optimal_play == bounded.optimal_play


@pytest.mark.parametrize("pieces", [1, 2, 3])
def test_optimal_values_in_pieces_are_the_values_of_the_whole_level(pieces, monkeypatch):
    """A level's optimal values, computed in ranges of its states (one task each), are the same."""
    from tablerules.proofs.exact import run as exact_run

    kern = registry.kernel("dishes", RULES.setup(2, Options(), Tiles(3, 3)))
    whole = solve(kern, parts=2)
    run = exact_run.Executor()
    run.workers = pieces  # as many pieces as workers for one scoring
    split = solve(kern, parts=2, run=run)
    assert whole.optimal_play == split.optimal_play and whole.random_play == split.random_play


def test_a_counting_tasks_edges_are_written_in_32_bits_or_refused():
    a = np.arange(4, dtype=np.int64)
    rows = loops.edge_rows(a, a.astype(np.int32), a, a + 1, a, a * 2)
    assert rows.dtype == np.int32 and rows.tolist()[3] == [3, 3, 3, 4, 3, 6]
    assert loops.edge_rows(a, a.astype(np.int32), a, a, a, a + 2**31) is None
    assert loops.edge_rows(a - 1, a.astype(np.int32), a, a, a, a) is None
