"""`tablerules simulate`: many random games, shares per seat with confidence intervals, the
exact values beside them where spec/solved/ holds them."""

from __future__ import annotations

import pytest
import json

from tests.tool.runner import run_cli


def _doc(*args: str) -> tuple[int, dict]:
    r = run_cli("simulate", *args, "--json")
    assert "Traceback" not in r.stderr
    return r.returncode, json.loads(r.stdout)


@pytest.mark.slow
def test_the_boxed_two_player_game_agrees_with_the_exact_values_and_a_seed_repeats():
    code, doc = _doc("dishes", "--players", "2", "--games", "20000", "--seed", "3")
    assert code == 0 and doc["complete"] and doc["games"] == 20000 and doc["playout"] == "compiled"
    assert doc["exact_source"].startswith("spec/solved/dishes-2p-box.json")
    for seat in doc["seats"]:
        for key in ("among_losers", "sole_loser"):
            assert abs(seat[key]["standard_errors_from_exact"]) < 5, seat
            assert abs(seat[key]["share"] - seat[key]["exact"]) <= 2.6 * seat[key]["ci95"] + 1e-9
    assert sum(s["sole_loser"]["share"] for s in doc["seats"]) <= 1 + 1e-9
    again = _doc("dishes", "--players", "2", "--games", "20000", "--seed", "3")[1]
    other = _doc("dishes", "--players", "2", "--games", "20000", "--seed", "4")[1]
    drop = ("seconds",)
    assert {k: v for k, v in doc.items() if k not in drop} == {k: v for k, v in again.items() if k not in drop}
    assert other["seats"] != doc["seats"]


@pytest.mark.slow
def test_a_ruling_alternative_on_record_is_compared_and_others_are_said_to_be_missing():
    code, doc = _doc("dishes", "--players", "2", "--games", "5000", "--ruling", "movable-stacks=any-stack")
    assert code == 0 and "movable-stacks=any-stack" in doc["exact_source"]
    code, doc = _doc("dishes", "--players", "2", "--games", "500", "--ruling", "movable-stacks=any-stack",
                     "--ruling", "tie-for-most=no-loser")
    assert "exact" not in doc["seats"][0]["among_losers"] and doc["exact_source"].startswith("none on record")
    code, doc = _doc("dishes", "--players", "3", "--games", "500")
    assert doc["exact_source"].startswith("none on record for this player count")


def test_the_report_is_a_table_with_units():
    r = run_cli("simulate", "dishes", "--players", "3", "--games", "3000")
    assert r.returncode == 0
    assert "among losers (share ± 95%)" in r.stdout and "compiled playout" in r.stdout
    assert "units: a game is one whole game" in r.stdout


def test_just_desserts_plays_compiled_and_names_winners():
    code, doc = _doc("just-desserts", "--players", "2", "--deck", "jd-crowd", "--games", "100")
    assert code == 0 and doc["playout"] == "compiled"
    assert abs(sum(s["sole_winner"]["share"] for s in doc["seats"]) + doc["nobody_named"]["share"] - 1) < 1e-9
    assert doc["exact_source"].startswith("none: the exact engine cannot run")


def test_rulings_the_compiled_playouts_play_beyond_the_defaults():
    """Just Desserts' loop plays serving-size=any; the 2.3 loop plays a strict ruling to its gap
    (jd23.ruling.penalty-taker: the first penalty, met in some fifth of the games on v23-crowd)."""
    code, doc = _doc("just-desserts", "--players", "2", "--deck", "jd-crowd", "--games", "100",
                     "--ruling", "serving-size=any")
    assert code == 0 and doc["playout"] == "compiled"
    assert abs(sum(s["sole_winner"]["share"] for s in doc["seats"]) + doc["nobody_named"]["share"] - 1) < 1e-9
    code, doc = _doc("just-desserts-2.3", "--players", "2", "--deck", "v23-crowd", "--games", "50",
                     "--ruling", "penalty-taker=strict")
    assert code == 3 and doc["playout"] == "compiled" and "jd23.ruling.penalty-taker" in doc["stopped"]


def test_a_strict_ruling_stops_a_compiled_run_as_incomplete():
    code, doc = _doc("just-desserts", "--players", "3", "--deck", "jd-crowd", "--games", "100",
                     "--ruling", "turn-direction=strict")
    assert code == 3 and doc["playout"] == "compiled" and "jd.ruling.turn-direction" in doc["stopped"]


@pytest.mark.slow
def test_a_gap_or_the_time_limit_stops_the_run_as_incomplete():
    code, doc = _doc("dishes", "--players", "3", "--deck", "2x4", "--games", "5000", "--ruling", "tie-for-most=strict")
    assert code == 3 and not doc["complete"] and "dishes.ruling.tie-for-most" in doc["stopped"]
    assert doc["games"] < 5000
    code, doc = _doc("dishes", "--players", "4", "--games", "100000000", "--max-seconds", "2")
    assert code == 3 and "time limit" in doc["stopped"] and 0 < doc["games"] < 100000000


def test_bad_counts_and_seeds_are_one_line():
    for args, problem in ((["--games", "0"], "--games: must be >= 1"), (["--seed", "-1"], "--seed: must be >= 0"),
                          (["--games", "many"], "expected a whole number")):
        r = run_cli("simulate", "dishes", *args)
        assert r.returncode == 2 and problem in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_simulate_counts_seat_moves_apart_from_chance_outcomes():
    """An action counts a chance outcome; a seat move does not (solve's unit is closer to it)."""
    import json as _json

    from tablerules.model import registry
    from tablerules.model.playout import iter_playouts

    r = run_cli("simulate", "dishes", "--games", "50", "--seed", "4", "--json")
    doc = _json.loads(r.stdout)
    rules = registry.get("dishes")
    games = list(iter_playouts(rules, rules.new_game(rules.setup(2)), 50, 4))
    reveals = sum(sum(type(m).__name__ in ("Reveal", "FirstPlayer") for m in g.moves) for g in games)
    assert abs(doc["mean_seat_moves"] - (doc["actions"] - reveals) / 50) < 1e-9
    assert doc["mean_seat_moves"] < doc["mean_actions"]["mean"]


def test_a_game_that_cannot_end_stops_the_run_with_its_reason_not_a_traceback():
    """With Poaching on jd-famine nobody can complete a set and poaches go back and forth for ever: the run
    reports the games before it and says why it stopped (exit 3, incomplete)."""
    r = run_cli("simulate", "just-desserts", "--deck", "jd-famine", "--players", "2", "--option", "poaching",
                "--games", "20")
    assert r.returncode == 3 and "Traceback" not in r.stderr, r.stderr[-2000:]
    assert "game 9 of seed 0 did not end within 100,000 actions" in r.stdout
