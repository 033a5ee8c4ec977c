"""`tablerules check --jobs N`: the report is the serial run's, whatever runs where."""

from __future__ import annotations

import signal
import uuid
from pathlib import Path

import pytest

from tablerules.cli.check import run_items
from tablerules.cli.check_jobs import run_in_workers
from tablerules.proofs.checks import FAIL, PASS, Context
from tests.tool import check_jobs_items
from tests.tool.runner import interrupt_after


@pytest.fixture(autouse=True)
def _workers_find_the_test_items(monkeypatch):
    """Spawned workers import the items by module name, from the parent's sys.path."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2]))


def _run(names: list[str], jobs: int):
    ctx = Context(seed=7)
    items = check_jobs_items.build(names, ctx)
    return run_in_workers(check_jobs_items.build, names, items, ctx, jobs)


def test_results_come_back_in_the_items_order_with_their_verdicts():
    results, stopped = _run(["pass", "raise", "pass", "pass", "raise"], 2)
    assert stopped == ""
    assert [r.name for r in results] == ["pass 0", "raise 1", "pass 2", "pass 3", "raise 4"]
    assert [r.status for r in results] == [PASS, FAIL, PASS, PASS, FAIL]
    assert results[0].summary == "seed 7"
    assert "ValueError: a broken check" in results[1].summary


def test_a_worker_that_dies_fails_its_check_and_the_others_still_run():
    results, stopped = _run(["pass", "die", "pass", "pass", "pass"], 2)
    assert [r.status for r in results] == [PASS, FAIL, PASS, PASS, PASS]
    assert "died (exit code 9)" in results[1].summary


def test_every_worker_dead_leaves_no_check_unreported():
    results, stopped = _run(["die", "die", "pass"], 2)
    assert [r.status for r in results] == [FAIL, FAIL, FAIL]
    assert "not run: no worker left" in results[2].summary


def test_z3_answers_the_same_after_other_checks_and_in_a_worker():
    """The serial run gives each check a fresh z3 context, as a worker does."""
    ctx = Context()
    alone, _ = run_items(check_jobs_items.build(["z3"], ctx), ctx)
    after, _ = run_items(check_jobs_items.build(["z3", "z3", "z3"], ctx), ctx)
    worker, _ = _run(["z3", "z3", "z3"], 2)
    assert {r.summary for r in after + worker} == {alone[0].summary}


def _processes_marked(mark: str) -> list[int]:
    """The processes whose environment holds ``mark`` (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if mark.encode() in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs Linux's /proc to find the workers")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_stops_every_worker_and_is_never_a_verdict(signum):
    mark = f"tablerules-check-jobs-{uuid.uuid4().hex}"
    status, out, err = interrupt_after(["check", "dishes", "--jobs", "2"], "[2/", signum=signum,
                                       env={"TABLERULES_TEST_MARK": mark})
    assert "Traceback" not in err, err[-3000:]
    assert status == {signal.SIGINT: 130, signal.SIGTERM: 143}[signum], err[-3000:]
    assert "not run" in out and " passed" in out
    assert _processes_marked(mark) == []
