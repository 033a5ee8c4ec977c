"""Games that cannot end (jd.ruling.endless-play) on jd-famine with Poaching: every command says so in one line,
with its exit status, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.tool.runner import run_cli

FAMINE = ("just-desserts", "--deck", "jd-famine", "--players", "2", "--option", "poaching")


@pytest.mark.slow
def test_simulate_stops_at_the_game_that_never_ends_and_says_which_and_why():
    r = run_cli("simulate", *FAMINE, "--games", "9", "--seed", "0")
    assert "Traceback" not in r.stderr
    assert r.returncode == 3, r.stdout + r.stderr
    assert "game 9 of seed 0 did not end within 100,000 actions" in r.stdout
    assert "jd.ruling.endless-play=play-on" in r.stdout and "endless-play=repeated-position" in r.stdout


@pytest.mark.slow
def test_simulate_under_repeated_position_ends_every_game():
    r = run_cli("simulate", *FAMINE, "--games", "9", "--seed", "0", "--ruling", "endless-play=repeated-position")
    assert "Traceback" not in r.stderr
    assert r.returncode == 0, r.stdout + r.stderr
    assert "9 games" in r.stdout and "step API" in r.stdout


def test_explore_cut_by_its_state_budget_is_incomplete_not_ok():
    r = run_cli("explore", *FAMINE, "--max-states", "1000")
    assert "Traceback" not in r.stderr
    assert r.returncode == 3 and "\nincomplete: " in r.stdout and "state budget of 1,000 states" in r.stdout


FOUND_BY = "tablerules explore just-desserts --deck jd-famine --players 2 --option poaching --graph"
"""jd.ruling.endless-play's found_by in spec/just_desserts.toml (tests/spec/test_found_by.py checks they agree and
leaves the run to this file)."""


@pytest.mark.slow
def test_explore_names_the_closed_sets_and_the_ruling_with_the_shortest_trace():
    """The ruling's found_by command, as the register writes it, finds the ruling again."""
    r = run_cli(*FOUND_BY.split()[1:])
    assert "Traceback" not in r.stderr
    assert r.returncode == 1, r.stdout + r.stderr
    assert "endless: jd.ruling.endless-play" in r.stdout and "36 closed sets" in r.stdout
    assert "the nearest after 19 moves" in r.stdout
    assert "NO (2,452 traps)" in r.stdout and "was not asked" not in r.stdout  # --graph asked


def test_explain_shows_the_ruling_its_alternatives_and_its_witness():
    r = run_cli("explain", "jd.ruling.endless-play")
    assert r.returncode == 0 and "Traceback" not in r.stderr
    for text in ("* play-on", "repeated-position", "strict", "spec/witnesses/jd-endless-play.json",
                 "--ruling endless-play=ALT"):
        assert text in r.stdout, text


def test_judge_names_the_ruling_whose_alternatives_part_at_the_third_repetition(tmp_path):
    """The witness's third-repetition trace (spec/witnesses/jd-endless-play.json), then one more kitchen: legal under
    play-on (the log's), after the end of the game under repeated-position; strict stops the log at its second
    repetition (step 22)."""
    witness = json.loads((Path(__file__).parents[2] / "spec" / "witnesses" / "jd-endless-play.json").read_text())
    log = tmp_path / "third.txt"
    log.write_text("\n".join(witness["witnesses"]["third repetition (repeated-position)"]["moves"]) + "\n")
    r = run_cli("judge", "just-desserts", str(log), "--deck", "jd-famine", "--players", "2", "--option", "poaching",
                "--move", "kitchen", "--json")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    doc = json.loads(r.stdout)
    assert doc["answer"]["verdict"] == "legal", doc["answer"]
    (parting,) = doc["rulings"]  # the one ruling whose alternatives answer differently
    assert parting["ruling"] == "jd.ruling.endless-play" and parting["chosen"] == "play-on", parting
    over = parting["answers"]["repeated-position"]
    assert (over["verdict"], over["clause"]) == ("the game is over", "jd.ruling.endless-play"), parting["answers"]
    strict = [d for d in doc["departs"] if d["ruling"] == "jd.ruling.endless-play"]
    assert [(d["alternative"], d["step"], d["clause"]) for d in strict] == [("strict", 22, "jd.ruling.endless-play")]
