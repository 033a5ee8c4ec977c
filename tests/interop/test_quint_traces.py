"""The project's own Quint model (interop/quint/dishes.qnt) agrees with the Python rules:
Quint's simulator writes traces for 2, 3 and 4 players, checking the model's invariants,
and every trace verifies through the shipped mapping.  A disagreement fails with the line
`tablerules vectors verify` prints (the step and the clause).

TABLERULES_QUINT_TRACES sets the traces per player count (default 4).  Without node or
Quint the test skips and says why; .ci/run installs Quint and sets TABLERULES_REQUIRE_QUINT=1,
so there a missing Quint fails instead of skipping.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

RUNNER = Path(__file__).resolve().parents[2] / "interop" / "quint" / "verify_traces.py"


def _runner():
    spec = importlib.util.spec_from_file_location("verify_traces", RUNNER)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def results():
    runner = _runner()
    quint, why = runner.find_quint()
    if quint is None:
        if os.environ.get("TABLERULES_REQUIRE_QUINT") == "1":
            pytest.fail(f"Quint is required here (TABLERULES_REQUIRE_QUINT=1) but cannot be run: {why}")
        pytest.skip(f"Quint traces not checked: {why}")
    traces = int(os.environ.get("TABLERULES_QUINT_TRACES", runner.DEFAULT_TRACES))
    out = runner.run([2, 3, 4], traces, runner.DEFAULT_SEED)
    print("\n" + runner.table(out))
    return traces, {r.players: r for r in out}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_quint_trace_verifies(results, players):
    traces, by_players = results
    r = by_players[players]
    assert not r.failures, "\n".join(r.failures)
    assert len(r.files) == traces, f"quint wrote {len(r.files)} traces, {traces} asked for"
    assert r.verified == traces
    assert r.ended == traces, (
        "some trace stopped before the end (raise MAX_STEPS in interop/quint/verify_traces.py) or its outcome was not "
        "compared"
    )
