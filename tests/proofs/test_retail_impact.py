"""Impact on the retail deck (proofs/just_desserts/retail_impact.py): the compiled playouts count the same
games as the step API (seat moves, first seat, results within intervals on teaching decks),
a small retail run (skips without the retail card list), and the pieces of the table."""

from __future__ import annotations

import random

import pytest
from tablerules.model.core import CHANCE, TERMINAL, pick_by_probability
from tablerules.model.decks import embedded_deck
from tablerules.model.playout import compiled, first_seat, seat_moves, step_playouts
from tablerules.proofs.just_desserts import retail_impact as rim
from tablerules.proofs.discovery.gaps import load_rules

TEACHING = [("just-desserts", 2, "jd-rivals", {}), ("just-desserts", 3, "jd-crowd", {"poaching": True,
            "buffet": True, "surprise_parties": True}), ("just-desserts-2.3", 2, "v23-tiny", {})]


def _start(rid: str, players: int, deck: str, options: dict):
    rules, _ = load_rules(rid)
    setup = rules.setup(players, rules.Options(**options), embedded_deck(deck))
    return rules, rules.new_game(setup)


@pytest.mark.parametrize("rid, players, deck, options", TEACHING)
def test_seat_moves_and_the_first_seat_are_those_the_step_api_names(rid, players, deck, options):
    rules, start = _start(rid, players, deck, options)
    assert first_seat(rules) == 0
    for game in step_playouts(rules, start, 10, seed=3):
        s, seats, first = start, 0, None
        for move in game.moves:
            actor = rules.to_move(s)
            if actor is not CHANCE:
                seats += 1
                first = actor if first is None else first
            s = rules.apply(s, move)
        assert rules.to_move(s) is TERMINAL
        assert seat_moves(rules, game.moves) == seats
        assert first == first_seat(rules)


def _overlap(a, b) -> bool:
    return a.low <= b.high and b.low <= a.high


@pytest.mark.slow
@pytest.mark.parametrize("rid, players, deck, options", TEACHING)
def test_compiled_and_step_api_rows_agree_within_their_intervals(rid, players, deck, options):
    rules, start = _start(rid, players, deck, options)
    assert compiled(rules, start.setup)
    fast = rim.measure_compiled(rules, start, 20_000, seed=5).estimates()
    slow = rim.measure_step(rules, start, 600, seed=5).estimates()
    for key in ("length", *rim.RESULTS):
        assert _overlap(fast[key], slow[key]), (key, fast[key].text(), slow[key].text())
    assert abs(sum(fast[k].value for k in rim.RESULTS) - 1) < 1e-9
    assert fast["wins"].high - fast["wins"].low < 0.015  # ±0.75 points at 20,000 games


def test_results_are_exclusive_and_cover_every_game():
    assert rim.result(frozenset(), 0) == "nobody"
    assert rim.result(frozenset({0}), 0) == "wins"
    assert rim.result(frozenset({0, 2}), 0) == "shares"
    assert rim.result(frozenset({1}), 0) == "other"
    t = rim.Tally()
    for how in ("wins", "other", "other", "gap"):
        t.add(how, 10)
    est = t.estimates()
    assert est["wins"].value == 0.25 and est["other"].value == 0.5 and est["gap"].value == 0.25
    assert est["length"].value == 10 and est["length"].low == est["length"].high == 10


def test_the_difference_from_the_default_has_an_interval_around_it():
    rng = random.Random(1)
    rows = []
    for p in (0.30, 0.25):
        t = rim.Tally()
        for _ in range(100_000):
            t.add("wins" if rng.random() < p else "other", 1)
        rows.append(rim.RetailRow("r", "a", "c", "m", t.games, t.estimates()))
    d = rim.difference(rows[1], rows[0])
    assert d.low < -0.05 < d.high and d.high - d.low < 0.01  # Wilson at 100,000 games: about ±0.3 points each


def test_a_step_api_row_stops_at_a_strict_gap():
    """measure_step on a strict setup (compiled now, but the step API measures any setup):
    some games stop at the gap (jd23.ruling.favourite-trump, met at about half the races on
    v23-tiny), as often as the compiled row says, and the shares add up to one."""
    rules, start = _start("just-desserts-2.3", 2, "v23-tiny", {"favourite_trump": "strict"})
    est = rim.measure_step(rules, start, 60, seed=1).estimates()
    assert 0 < est["gap"].value < 1
    assert abs(est["gap"].value + sum(est[k].value for k in ("wins", "shares", "other", "nobody", "never")) - 1) < 1e-9
    assert compiled(rules, start.setup)
    fast = rim.measure_compiled(rules, start, 2_000, seed=1).estimates()["gap"].value
    assert abs(est["gap"].value - fast) <= 5 * (fast * (1 - fast) / 60) ** 0.5


@pytest.mark.slow
def test_a_small_retail_run_measures_read_rulings_and_leaves_out_the_rest(retail_deck):
    rules, _ = load_rules("just-desserts")
    budget = rim.RetailBudget(games=300, step_games=3, probe_games=10, seed=7)
    wanted = ["jd.ruling.discard-which", "jd.ruling.surprise-doorway", "jd.ruling.score-full-tie",
              "jd.ruling.turn-direction"]
    out = rim.all_retail(rules, retail_deck, "retail", budget, rulings=wanted)
    where = {r.ruling: r.config for r in out.rows}
    assert where["jd.ruling.discard-which"] == "4 players, basic game"
    assert where["jd.ruling.surprise-doorway"] == "4 players, all three advanced rules"
    assert "jd.ruling.score-full-tie" in out.left_out  # a full tie on guests and hand: never met in 10 games
    by_alt = {(r.ruling, r.alternative): r for r in out.rows}
    assert by_alt[("jd.ruling.discard-which", "duplicates-only")].games == 300
    strict = by_alt[("jd.ruling.turn-direction", "strict")]
    assert strict.games == 300 and strict.method.startswith("compiled") and strict.estimates["gap"].value == 1
    assert set(out.defaults) == {"4 players, basic game", "4 players, all three advanced rules"}
    for row in [*out.rows, *out.defaults.values()]:
        assert abs(sum(row.estimates[k].value for k in rim.RESULTS) - 1) < 1e-9
