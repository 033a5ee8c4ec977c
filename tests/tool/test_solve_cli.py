"""`tablerules solve` as a new user meets it: options that would be ignored or fail late are
refused at once in one line, and what it prints names its units.

Each test runs the installed command in a fresh process, as a user would; every run is on
a small tile set (a second or two).
"""

from __future__ import annotations

import json

import pytest

from tests.tool.runner import last_line_error, one_line_error, run_cli

SMALL = ("solve", "dishes", "--players", "2", "--deck", "2x4")


# --------------------------------------------------------------------------- refused before any work


@pytest.mark.parametrize("extra,needle", [
    (["--out", "solve.json"], "--out"),
    (["--scheduler", "tcp://127.0.0.1:8786"], "--executor dask"),
    (["--executor", "serial", "--workers", "3"], "--workers"),
    (["--deal", ""], "--deal ''"),
    (["--every-alternative", "--count-only"], "--count-only"),
    (["--every-alternative", "--trace", "longest"], "--trace"),
])
def test_an_option_that_would_be_ignored_is_refused_in_one_line(extra, needle, tmp_path):
    r = run_cli(*SMALL, *extra, cwd=tmp_path, timeout=60)
    assert r.returncode == 2, r.stdout + r.stderr
    assert needle in one_line_error(r.stderr)
    assert r.stdout == "" and r.cpu_seconds < 20  # CPU-seconds: refused before any solving
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_out_fails_before_any_alternative_is_solved(tmp_path):
    r = run_cli(*SMALL, "--every-alternative", "--out", str(tmp_path / "no" / "such" / "solved.json"), timeout=60)
    assert r.returncode == 2
    assert "no such folder" in one_line_error(r.stderr)  # no "solving default" progress line before it


@pytest.mark.parametrize("under,needle", [("", "not a folder"), ("store", "cannot create the folder")])
def test_a_store_that_cannot_be_a_folder_is_named_in_one_line(tmp_path, under, needle):
    (tmp_path / "a-file").write_text("x")
    store = tmp_path / "a-file" / under if under else tmp_path / "a-file"
    r = run_cli(*SMALL, "--store", str(store), timeout=60)
    assert r.returncode == 2
    line = one_line_error(r.stderr)
    assert f"--store {store}" in line and needle in line and "cannot write the output" not in line


@pytest.mark.slow
@pytest.mark.parametrize("address", ["nonsense", "tcp://127.0.0.1:1"])
def test_a_scheduler_that_cannot_be_reached_is_one_line_naming_it(address):
    pytest.importorskip("dask.distributed", reason="dask.distributed is not installed")
    r = run_cli(*SMALL, "--executor", "dask", "--scheduler", address, timeout=120,
                env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "3s"})
    assert r.returncode == 2
    line = last_line_error(r.stderr)  # the connection takes seconds: the heartbeat may speak first
    assert f"--scheduler {address}" in line and "cannot write the output" not in line


def test_a_rule_set_without_a_progress_measure_is_refused_before_its_setup_is_checked():
    # with three players the 2.3 rule set's default deck is too small: that is not the user's problem here
    r = run_cli("solve", "just-desserts-2.3", "--players", "3", timeout=60)
    assert r.returncode == 2
    assert "progress measure" in one_line_error(r.stderr)


@pytest.mark.slow  # every alternative solved in worker processes
def test_every_alternative_writes_out_and_prints_its_own_document(tmp_path):
    out = tmp_path / "solved.json"
    r = run_cli("solve", "dishes", "--players", "2", "--deck", "1x4", "--every-alternative", "--out", str(out),
                "--json", timeout=120)
    assert r.returncode == 0, r.stderr
    assert json.loads(out.read_text())["alternatives"] == json.loads(r.stdout)["alternatives"]


@pytest.mark.slow
def test_every_alternative_stops_each_alternative_at_the_state_budget_and_says_so(tmp_path):
    """The budget applies to each alternative on its own; the command that remakes the file
    carries it; the run is incomplete (exit 3) when an alternative stopped."""
    out = tmp_path / "solved.json"
    r = run_cli("solve", "dishes", "--players", "2", "--deck", "2x4", "--every-alternative", "--max-states", "3000",
                "--out", str(out), timeout=300)
    doc = json.loads(out.read_text())
    stopped = [a for a in doc["alternatives"] if not a["complete"]]
    assert r.returncode == 3 and stopped and all("state budget of 3,000" in a["stopped"] for a in stopped)
    assert any(a["complete"] for a in doc["alternatives"])
    assert "--max-states 3000" in doc["command"]


def test_an_impossible_deal_names_the_deal_ruling_that_forbids_it():
    r = run_cli(*SMALL[:-1], "3x4", "--ruling", "deal-2-players=colour-sets", "--deal", "red,yellow,c3/yellow,c3,c4",
                timeout=60)
    assert r.returncode == 2
    line = one_line_error(r.stderr)
    assert "dishes.ruling.deal-2-players=colour-sets" in line and "at most 2 colours" in line


# --------------------------------------------------------------------------- what a run says


def test_progress_and_report_name_their_units():
    r = run_cli(*SMALL, timeout=120)
    assert r.returncode == 0, r.stderr
    progress = [line for line in r.stderr.splitlines() if line.startswith("solve: level")]
    assert progress and all("engine states to expand" in line and "distinct engine states" in line for line in progress)
    assert all("engine states" in line for line in r.stderr.splitlines() if line.startswith("solve: values"))
    assert "terminal table states" in r.stdout


def test_a_trace_asked_of_an_incomplete_run_says_why_none_is_shown():
    r = run_cli(*SMALL[:-1], "3x4", "--trace", "longest", "--max-states", "100", timeout=120)
    assert r.returncode == 3, r.stderr
    assert "a longest game" not in r.stdout
    assert "no longest game: the search is incomplete" in r.stderr


def test_help_says_what_json_and_the_budget_mean():
    r = run_cli("solve", "--help", timeout=60)
    text = " ".join(r.stdout.split())
    assert "--trace longest" in text  # an example of finding a game again
    assert "at the end of the level" in text  # --max-states stops between levels, not at the exact count
    flat = "".join(r.stdout.split())  # argparse may wrap a line at a hyphen
    assert "--jsonprintoneJSONdocument(schema:solve;with--every-alternative" in flat  # that one is not schema solve
    top = " ".join(run_cli("--help", timeout=60).stdout.split())
    assert "rulings, simulate, solve and vectors verify writes a document" in top


@pytest.mark.slow
def test_first_player_advantage_is_not_claimed_when_chance_picks_the_first_player():
    docs = {alt: json.loads(run_cli(*SMALL, "--json", "--ruling", f"first-player={alt}", timeout=120).stdout)
            for alt in ("seat-0", "random")}
    assert isinstance(docs["seat-0"]["optimal_play"]["first_player_advantage"], bool)
    assert docs["random"]["optimal_play"]["first_player_advantage"] is None


@pytest.mark.slow
def test_segment_rows_change_no_figure_and_a_bad_size_is_one_line():
    """--segment-rows bounds what a counting task holds; the JSON document is the same but for
    the clock and the memory."""
    varying = ("seconds", "peak_memory_mb")
    whole = run_cli(*SMALL, "--json", timeout=120)
    pieces = run_cli(*SMALL, "--json", "--segment-rows", "16", timeout=120)
    assert whole.returncode == 0 and pieces.returncode == 0, pieces.stderr
    a, b = json.loads(whole.stdout), json.loads(pieces.stdout)
    assert {k: v for k, v in a.items() if k not in varying} == {k: v for k, v in b.items() if k not in varying}
    bad = run_cli(*SMALL, "--segment-rows", "0", timeout=60)
    assert bad.returncode == 2 and "--segment-rows" in one_line_error(bad.stderr)
