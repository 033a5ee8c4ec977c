"""The compiled helpers every kernel and the exact engine share (model/compact_loops.py)."""

from __future__ import annotations

import numpy as np
from numba import njit

from tablerules.model.compact_loops import prefetch


@njit(cache=False)
def _gather_with_hints(rows, order, ahead):
    """rows[order] summed by row, asking for each row ``ahead`` steps early (also past either end)."""
    out = np.zeros(rows.shape[0], dtype=np.int64)
    for x in range(order.shape[0]):
        prefetch(rows, order[x] + ahead)  # may point far outside the array: a hint never faults
        prefetch(order, x + ahead)
        for j in range(rows.shape[1]):
            out[x] += rows[order[x], j]
    return out


def test_a_prefetch_changes_no_result_and_never_faults_even_out_of_bounds():
    rng = np.random.default_rng(3)
    rows = rng.integers(0, 1000, size=(5000, 7))
    order = rng.permutation(5000)
    want = rows[order].sum(axis=1)
    for ahead in (0, 16, 1 << 20, -(1 << 20)):
        assert np.array_equal(_gather_with_hints(rows, order, ahead), want)


def test_a_prefetch_in_python_does_nothing():
    # NUMBA_DISABLE_JIT=1 runs the loops as Python: the hint is then a plain call that returns None
    assert prefetch(np.zeros(3), 10) is None
