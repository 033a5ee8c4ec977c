"""Bad input a new user met, each kept fixed: no traceback, one line, the right exit status,
no work wasted before the error, nothing half-written.

Each test runs the installed command in a fresh process, as a user would.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.deck_files import tiny_deck
from tests.tool.runner import interrupt_after, last_line_error, one_line_error, run_cli

FULL = Path("/dev/full")
needs_dev_full = pytest.mark.skipif(not FULL.exists(), reason="no /dev/full on this system")


# --------------------------------------------------------------------------- strict at the start


@pytest.mark.parametrize("how", [["--strict"], ["--ruling", "deal-2-players=strict"]])
def test_a_rule_gap_at_the_start_is_a_finding_not_a_traceback(how):
    """The README's example: with two players the deal itself is where the rulebook is silent."""
    r = run_cli("explore", "dishes", "--players", "2", "--deck", "3x4", *how)
    assert "Traceback" not in r.stderr
    assert r.returncode == 0, r.stderr
    assert "gap: dishes.ruling.deal-2-players" in r.stdout
    assert "then explored with dishes.ruling.deal-2-players=random-subset" in r.stdout


# --------------------------------------------------------------------------- deck files


def test_a_deck_nested_200000_levels_deep_is_one_line(tmp_path):
    deck = tmp_path / "deep.json"
    deck.write_text("[" * 200_000 + "]" * 200_000)
    r = run_cli("explore", "just-desserts", "--deck", str(deck))
    assert r.returncode == 2
    assert "nested too deeply" in one_line_error(r.stderr)


@pytest.mark.parametrize("desserts,max_seconds,words", [
    ([{"id": "CAKE", "name": "Cake", "tastes": ["sweet"], "copies": 10**12}], "5", "copies"),  # grew past 2.5 GB
    ([{"id": f"D{i}", "name": f"Dessert {i}", "tastes": ["sweet"]} for i in range(10_000)], "10", "more than"),
], ids=["a trillion copies", "ten thousand cards"])
def test_an_oversized_deck_is_refused_at_once(tmp_path, desserts, max_seconds, words):
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(tiny_deck(desserts=desserts)))
    r = run_cli("explore", "just-desserts", "--deck", str(path), "--max-seconds", max_seconds, timeout=60)
    assert r.returncode == 2 and r.cpu_seconds < 30
    assert words in one_line_error(r.stderr)


def test_the_deck_limits_are_stated_in_help():
    r = run_cli("explore", "--help")
    text = " ".join(r.stdout.split())
    assert r.returncode == 0
    assert "400 dessert cards" in text and "20 copies" in text and "at most 1 MB" in text


def test_a_time_limit_stops_explore_as_incomplete_with_its_own_status():
    r = run_cli("explore", "dishes", "--players", "4", "--max-seconds", "1", timeout=120)
    assert r.returncode == 3, r.stderr
    assert "incomplete, stopped by time limit (1 s)" in r.stdout
    assert "depth -1" not in r.stdout


# --------------------------------------------------------------------------- numbers and files given to check


@pytest.mark.parametrize("args", [
    ["explore", "dishes", "--max-seconds", "nan"],
    ["explore", "dishes", "--max-seconds", "inf"],
    ["explore", "dishes", "--max-seconds", "-1"],
    ["explore", "dishes", "--max-states", "0"],
    ["check", "--scale", "nan"],
    ["check", "--scale", "0"],
    ["check", "--scale", "inf"],
    ["check", "--max-seconds", "nan"],
])
def test_numbers_that_are_not_finite_and_positive_are_usage_errors(args):
    r = run_cli(*args, timeout=60)
    assert r.returncode == 2
    one_line_error(r.stderr)


def test_a_retail_deck_that_is_not_json_is_a_usage_error(tmp_path):
    bad = tmp_path / "deck.json"
    bad.write_text("this is not JSON")
    r = run_cli("check", "--ruleset", "just-desserts", "--retail-deck", str(bad), timeout=60)
    assert r.returncode == 2
    assert "not valid JSON" in one_line_error(r.stderr)


@pytest.mark.slow
def test_a_repeated_rule_set_runs_once_whether_named_as_an_argument_or_an_option():
    r = run_cli("check", "just-desserts-2.3", "--ruleset", "just-desserts-2.3", "--ruleset", "just-desserts-2.3",
                "--quick", "--scale", "0.2")
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert r.stdout.count("-- just-desserts-2.3: prove rounds-bounded [") == 1 and "\ndishes " not in r.stdout


def test_generate_check_against_a_missing_folder_says_so(tmp_path):
    r = run_cli("vectors", "generate", "--check", "--ruleset", "dishes", "--out", str(tmp_path / "nowhere"), timeout=60)
    assert r.returncode == 2
    assert "nowhere" in one_line_error(r.stderr)
    assert "added" not in r.stdout


# --------------------------------------------------------------------------- outputs that cannot be written


@needs_dev_full
@pytest.mark.parametrize("args", [
    ["explore", "dishes", "--deck", "2x4"],
    ["prove", "dishes"],
    ["list", "dishes"],
    ["vectors", "verify", "vectors/dishes/2p-3x4-clean-at-end=dishes-s1.itf.json"],
])
def test_a_full_disk_on_standard_output_is_one_line(args):
    root = Path(__file__).resolve().parents[2]
    with open(FULL, "w") as full:
        r = run_cli(*args, stdout=full, cwd=root)
    assert r.returncode == 2
    assert "No space left on device" in last_line_error(r.stderr)


@needs_dev_full
def test_a_rulings_report_to_a_device_is_refused_before_any_work():
    """--out names a file to keep, or a new path: a device (or a named pipe, which would make the
    run wait for a reader at its end) is refused at once."""
    r = run_cli("rulings", "dishes", "--quick", "--config", "2:1x4", "--ruling", "voluntary-pass", "--out", str(FULL))
    assert r.returncode == 2
    assert one_line_error(r.stderr) == f"tablerules: error: --out {FULL}: not a regular file (a device): name a file " \
                                       "or a new path"


def test_an_unwritable_vectors_folder_fails_before_any_work(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    if os.access(locked, os.W_OK):  # running as root: permissions do not stop us
        pytest.skip("this user can write anywhere")
    r = run_cli("vectors", "generate", "--out", str(locked / "vectors"), timeout=60)
    assert r.returncode == 2 and r.cpu_seconds < 10
    line = one_line_error(r.stderr)
    assert "Permission denied" in line and "[Errno" not in line


def test_a_vectors_folder_under_a_file_fails_before_any_work(tmp_path):
    (tmp_path / "file").write_text("")
    r = run_cli("vectors", "generate", "--out", str(tmp_path / "file" / "vectors"), timeout=60)
    assert r.returncode == 2 and r.cpu_seconds < 10
    line = one_line_error(r.stderr)
    assert "Not a directory" in line and "[Errno" not in line


def test_a_report_to_a_missing_folder_fails_before_any_work(tmp_path):
    r = run_cli("rulings", "dishes", "--out", str(tmp_path / "no" / "such" / "report.md"), timeout=60)
    assert r.returncode == 2 and r.cpu_seconds < 10
    assert "no such folder" in one_line_error(r.stderr)


# --------------------------------------------------------------------------- Ctrl-C


def test_ctrl_c_in_the_impact_phase_stops_rulings_with_status_130_and_no_report(tmp_path):
    out = tmp_path / "report.md"
    status, _, err = interrupt_after(["rulings", "dishes", "--quick", "--config", "2:2x4", "--out", str(out)],
                                     "impact per alternative")
    assert status == 130, err
    assert not out.exists() and not list(tmp_path.iterdir())
    assert "Traceback" not in err


def test_ctrl_c_in_the_gap_phase_leaves_no_empty_report(tmp_path):
    out = tmp_path / "report.md"
    status, _, err = interrupt_after(["rulings", "dishes", "--quick", "--out", str(out)], "gap finder")
    assert status == 130, err
    assert not out.exists() and not list(tmp_path.iterdir())


def test_sigterm_stops_like_ctrl_c():
    import signal

    status, _, err = interrupt_after(["explore", "dishes", "--players", "4"], "explore", signum=signal.SIGTERM,
                                     env={"TABLERULES_PROGRESS_SECONDS": "0.2"})
    assert status == 143 and "interrupted (SIGTERM)" in err and "Traceback" not in err


# --------------------------------------------------------------------------- a time limit or Ctrl-C in `check`


@pytest.mark.slow
def test_a_time_limit_makes_check_incomplete_never_failed():
    r = run_cli("check", "dishes", "--max-seconds", "3", timeout=300)
    assert r.returncode == 3, r.stdout[-2000:]
    assert " FAIL " not in r.stdout and "not run" in r.stdout and "stopped by the time limit (3 s)" in r.stdout


def test_ctrl_c_in_check_reports_what_ran_and_exits_130():
    status, out, err = interrupt_after(["check", "dishes"], "[4/")
    assert status == 130, err
    assert "interrupted (Ctrl-C)" in out and "not run" in out and "Traceback" not in err
