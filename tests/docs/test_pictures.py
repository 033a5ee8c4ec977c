"""The site's drawings and figure data (tablerules.pictures), through the public rule set API."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tablerules.model import registry
from tablerules.model.core import TERMINAL, ruling_fields
from tablerules.pictures import figures, positions, witnesses
from tablerules.pictures.svg import Svg

REPO = Path(__file__).resolve().parents[2]
WITNESSES = sorted((REPO / "spec" / "witnesses").glob("*.json"))


def _well_formed(svg: str) -> None:
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert root.find("{http://www.w3.org/2000/svg}title") is not None


def test_svg_escapes_text_and_has_a_title():
    pic = Svg(100, 50, 'a <b> & "c"')
    pic.text(10, 20, "<script>")
    out = pic.render()
    _well_formed(out)
    assert "<script>" not in out and "&lt;script&gt;" in out


@pytest.mark.parametrize("ruleset", registry.ruleset_ids())
def test_a_position_of_every_rule_set_is_drawn_from_its_state_vars(ruleset):
    rules, state, played = figures.random_position(ruleset, 2, None, moves=8, seed=5)
    assert played > 0
    svg = positions.draw(ruleset, rules.state_vars(state), players=2, components=state.setup.components)
    _well_formed(svg)
    assert "seat 0" in svg and "seat 1" in svg


def test_dishes_picture_shows_each_stack_by_top_tile_and_height():
    v = {"places": {"0.dessert": ["red main", "yellow dessert"], "0.main": [], "0.drinks": "clean",
                    "1.soup": ["c3 soup"]}, "turn": 1, "reveal": ["0.drinks"]}
    svg = positions.draw("dishes", v, players=2)
    _well_formed(svg)
    assert "\u00d72" in svg  # the height badge of a two-tile stack
    assert ">dessert<" in svg and positions.DISHES_COLOURS["yellow"] in svg
    assert "seat 1  \u25b6 to move" in svg
    assert ">?<" in svg  # the tile being turned waits for its colour


def test_just_desserts_picture_names_every_claimed_guest_and_hand_size():
    rules, state, _ = figures.random_position("just-desserts", 2, None, moves=30, seed=2)
    v = rules.state_vars(state)
    svg = positions.draw(rules.id, v, players=2, components=state.setup.components)
    _well_formed(svg)
    deck = state.setup.components
    for seat, guests in enumerate(v["claimed"]):
        for g in guests:
            assert deck.guest(g).name in svg
        n = len(v["hands"][seat])
        assert f"{n} card" in svg


def test_an_unknown_state_shape_still_gets_a_picture():
    svg = positions.draw("toy", {"tiles": 3, "turn": 0})
    _well_formed(svg)
    assert "tiles: 3" in svg


def test_to_move_overrides_the_turn_variable():
    v = {"places": {"0.dessert": "clean", "1.dessert": "clean"}, "turn": 1}
    svg = positions.draw("dishes", v, players=2, to_move="TERMINAL")
    assert "to move" not in svg and "the game is over" in svg


@pytest.mark.parametrize("path", WITNESSES, ids=lambda p: p.name)
def test_every_witness_replays_to_a_drawable_position(path):
    doc = json.loads(path.read_text())
    rules = registry.get(doc["ruleset"])
    traces, problems = witnesses.witness_traces(rules, path)
    assert not problems
    if "never_part" in doc:  # a proof that the readings never part: nothing to replay
        assert not traces
        return
    assert traces
    for t in traces:
        assert t.players >= 2 and t.final
        assert [s.index for s in t.steps] == list(range(1, len(t.steps) + 1))
        assert t.readings, f"{path.name}: nothing says what the readings do next"
        comps = rules.load_components(t.components) if t.components else None
        _well_formed(positions.draw(rules.id, t.final, players=t.players, components=comps, to_move=t.to_move))


def test_level_counts_are_the_table_states_of_every_level():
    from tablerules.proofs.exact.reference import solve_reference

    levels = figures.level_counts("dishes", 2, "2x4")
    rules, start = figures.table("dishes", 2, "2x4")
    ref = solve_reference(rules, start.setup, rules.table_state)
    assert levels[0] == 1 and levels == [lv.table_states for lv in ref.levels()]


def test_state_graph_has_every_state_and_move_and_ends_in_outcomes():
    g = figures.state_graph("dishes", 2, "2x2")
    ids = {n for n, _, _ in g.nodes}
    assert all(a in ids and b in ids for a, b, _ in g.edges)
    ends = [label for _, label, kind in g.nodes if kind == "end"]
    assert ends and all(re.match(r"(loser|losers|draw)", e) for e in ends)
    dot = g.dot()
    assert dot.count(" -> ") == len(g.edges)
    with pytest.raises(ValueError):
        figures.state_graph("dishes", 2, "3x4", max_states=50)


def test_game_lengths_count_every_game_once():
    lengths, unfinished = figures.game_lengths("dishes", 2, "2x4", games=40, seed=9)
    assert sum(lengths.values()) + unfinished == 40
    assert min(lengths) >= 2  # a game needs at least a turn and a placement per player


def test_alternative_effects_are_exact_on_a_small_table_and_add_up():
    rules = registry.get("dishes")
    comps = rules.load_components("2x4")
    effects = figures.alternative_effects(rules, "dishes.ruling.tie-for-most", 2, comps)
    assert [e.alternative for e in effects] == list(
        ruling_fields(rules.Options)["dishes.ruling.tie-for-most"].metadata["alternatives"]
    )
    by = {e.alternative: e for e in effects}
    assert by["all-tied-lose"].method.startswith("exact")
    # a tie makes both seats lose under all-tied-lose (a shared loss, no draw) and nobody under no-loser (a draw)
    assert by["all-tied-lose"].tie == pytest.approx(0.0)
    assert by["no-loser"].tie > 0
    assert by["all-tied-lose"].lose[0] - by["no-loser"].lose[0] == pytest.approx(by["no-loser"].tie)
    assert by["strict"].gap == pytest.approx(by["no-loser"].tie)


def test_sampled_effects_are_seeded():
    rules = registry.get("just-desserts")
    rid = next(iter(ruling_fields(rules.Options)))
    a = figures.alternative_effects(rules, rid, 2, games=20, exact=set())
    b = figures.alternative_effects(rules, rid, 2, games=20, exact=set())
    assert [e.to_json() for e in a] == [e.to_json() for e in b]
    assert all(e.method.startswith("sampled") for e in a)


def test_impact_rows_have_the_impact_tables_columns():
    from tablerules.proofs.discovery.impact import HEADER

    rules = registry.get("dishes")
    rows = figures.impact_rows(rules, "dishes.ruling.tie-for-most", 2, rules.load_components("2x4"), deck="2x4")
    assert len(rows) == 3 and all(len(r) == len(HEADER) for r in rows)


def test_a_random_position_stops_at_the_end_of_a_short_game():
    rules, state, played = figures.random_position("dishes", 2, "1x2", moves=100, seed=1)
    assert rules.to_move(state) is TERMINAL and played < 100
