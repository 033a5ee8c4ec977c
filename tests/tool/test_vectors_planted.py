"""The verifier can fail: plant realistic engine bugs in correct vectors and check that each
is caught at the right step, JSON path, expected and found value, and clause."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest

from tablerules.vectors import coverage
from tablerules.model import registry
from tablerules.model.core import play
from tablerules.vectors import Finding, decode, fraction_text, normal, setup_from_meta, verify_document, verify_file
from tablerules.vectors.verifier import VAR_CLAUSES

REPO = Path(__file__).resolve().parents[2]
VECTORS = REPO / "vectors"


def _vectors(ruleset: str) -> list[Path]:
    return sorted((VECTORS / ruleset).glob("*.itf.json"))


def _games(ruleset: str, need_outcome: bool = False) -> list[dict]:
    out = []
    for p in _vectors(ruleset):
        doc = json.loads(p.read_text())
        if len(doc["states"]) < 6 or doc["#meta"].get("rule_gap") or doc["#meta"]["capped"]:
            continue
        if need_outcome and "outcome" not in doc["states"][-1]["#meta"]:
            continue
        out.append(doc)
    return out


RULESETS = [r for r in registry.ruleset_ids() if _vectors(r)]


def _state_at(doc: dict, i: int):
    """Our state after the first i moves of a document."""
    replay = setup_from_meta(doc["#meta"])
    moves = [s["#meta"]["move"] for s in doc["states"][1 : i + 1]]
    return replay.rules, play(replay.rules, replay.rules.new_game(replay.setup), moves)


def _caught(doc: dict) -> Finding:
    finding = verify_document(doc)
    assert finding is not None, "the planted bug went unnoticed"
    return finding


# --------------------------------------------------------------------------- an illegal move


def test_dishes_flipping_another_players_tile_is_caught():
    doc = copy.deepcopy(_games("dishes")[0])
    # the first seat move: seat 0 flips one of seat 1's tiles instead of its own
    i = next(i for i, s in enumerate(doc["states"]) if s["#meta"].get("to_move") == "seat 0")
    bad = "turn 1.dessert"
    doc["states"][i + 1]["#meta"]["move"] = bad
    f = _caught(doc)
    assert (f.step, f.path, f.found, f.clause) == (
        i + 1, f"$.states[{i + 1}]['#meta'].move", bad, "dishes.play.turn-own-tile",
    )
    assert "illegal" in f.what


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_illegal_move_is_caught_with_its_clause(ruleset):
    doc = copy.deepcopy(_games(ruleset)[0])
    listed = [m for s in doc["states"] for m in s["#meta"].get("legal_moves", [])]
    for i, s in enumerate(doc["states"][:-1]):
        legal = s["#meta"].get("legal_moves")
        if not legal:
            continue
        rules, state = _state_at(doc, i)
        for text in listed:
            if text in legal:
                continue
            try:
                reason = rules.illegal_reason(state, rules.parse_move(text, state.setup))
            except ValueError:
                continue
            if reason:
                doc["states"][i + 1]["#meta"]["move"] = text
                f = _caught(doc)
                assert (f.step, f.path, f.found, f.clause) == (i + 1, f"$.states[{i + 1}]['#meta'].move", text, reason)
                return
    pytest.fail("no seat state with a listed move that is illegal there")


def test_a_move_after_the_end_is_caught():
    doc = copy.deepcopy(_games("dishes", need_outcome=True)[0])
    doc["states"].append({"#meta": {"move": "pass"}})
    doc["#meta"]["steps"] += 1
    f = _caught(doc)
    assert f.step == len(doc["states"]) - 1
    assert f.clause == "dishes.end.no-moves"


# --------------------------------------------------------------------------- a wrong state after a legal move


def test_dishes_wrong_turn_after_a_move_is_caught():
    doc = copy.deepcopy(_games("dishes")[0])
    i = next(i for i, s in enumerate(doc["states"]) if i and s["#meta"].get("actor") == "CHANCE"
             and s["#meta"].get("move", "").startswith("reveal"))
    right = doc["states"][i]["turn"]
    doc["states"][i]["turn"] = right + 5
    f = _caught(doc)
    assert (f.step, f.path, f.expected, f.found) == (i, f"$.states[{i}].turn", right, right + 5)
    assert f.clause == "dishes.play.clockwise"  # whose turn it is, not the clause of the move before
    assert f.what == "wrong state"


def test_dishes_place_that_moves_only_the_top_tile_is_caught():
    """An engine that forgets dishes.play.move-whole-stack leaves the tiles below behind."""
    for original in _games("dishes"):
        found = _plant_half_stack(copy.deepcopy(original))
        if found:
            return
    pytest.fail("no dishes vector moves a stack of two tiles or more")


def _plant_half_stack(doc: dict) -> bool:
    for i, s in enumerate(doc["states"]):
        move = s["#meta"].get("move", "")
        if not move.startswith("place "):
            continue
        source = move.split()[1]
        before = decode(doc["states"][i - 1]["places"])
        if len(before[source]) < 2:
            continue
        places = doc["states"][i]["places"]["#map"]
        for pair in places:
            if pair[0] == source:
                pair[1] = before[source][:-1]
        f = _caught(doc)
        assert (f.step, f.path) == (i, f'$.states[{i}].places["{source}"]')
        assert f.expected == [] and f.found == before[source][:-1]
        assert f.clause == "dishes.play.place-dirty"
        return True
    return False


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_wrong_state_is_caught_with_path_and_clause(ruleset):
    doc = copy.deepcopy(_games(ruleset)[0])
    i = len(doc["states"]) // 2
    var = next(
        k for k in doc["vars"] if isinstance(doc["states"][i][k], int) and not isinstance(doc["states"][i][k], bool)
    )
    right = doc["states"][i][var]
    doc["states"][i][var] = right + 7
    rules, before = _state_at(doc, i - 1)
    move = rules.parse_move(doc["states"][i]["#meta"]["move"], before.setup)
    clauses = coverage.transition_clauses(rules, before, move, rules.apply(before, move), rules.to_move(before))
    f = _caught(doc)
    assert (f.step, f.path, f.expected, f.found) == (i, f"$.states[{i}].{var}", right, right + 7)
    named = VAR_CLAUSES.get(ruleset, {}).get(var)
    assert f.clause == (named[1] if named else coverage.first_clause(clauses, rules)) and f.clause


# --------------------------------------------------------------------------- a wrong winner


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_wrong_winner_or_loser_is_caught(ruleset):
    docs = [d for d in _games(ruleset, need_outcome=True)
            if d["states"][-1]["#meta"]["outcome"]["winners"] or d["states"][-1]["#meta"]["outcome"]["losers"]]
    doc = copy.deepcopy(docs[0])
    last = len(doc["states"]) - 1
    outcome = doc["states"][last]["#meta"]["outcome"]
    key = "winners" if outcome["winners"] else "losers"
    right = outcome[key]
    wrong = [(right[0] + 1) % doc["#meta"]["players"]]
    outcome[key] = wrong
    rules, state = _state_at(doc, last)
    f = _caught(doc)
    assert (f.step, f.path, f.expected, f.found) == (last, f"$.states[{last}]['#meta'].outcome.{key}", right, wrong)
    assert f.clause == rules.outcome(state).clause and f.clause
    assert f.what == "wrong outcome"


def test_an_outcome_before_the_end_is_caught():
    doc = copy.deepcopy(_games("dishes", need_outcome=True)[0])
    doc["states"][3]["#meta"]["outcome"] = {"losers": [0]}
    f = _caught(doc)
    assert (f.step, f.path) == (3, "$.states[3]['#meta'].outcome")


# --------------------------------------------------------------------------- a wrong probability


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_wrong_probability_is_caught(ruleset):
    doc = copy.deepcopy(_games(ruleset)[0])
    i = next(i for i, s in enumerate(doc["states"]) if s["#meta"].get("probability") not in (None, "1"))
    right = doc["states"][i]["#meta"]["probability"]
    wrong = fraction_text(Fraction(right) / 2)  # e.g. an engine that counts a card twice
    doc["states"][i]["#meta"]["probability"] = wrong
    rules, before = _state_at(doc, i - 1)
    move = rules.parse_move(doc["states"][i]["#meta"]["move"], before.setup)
    f = _caught(doc)
    assert (f.step, f.path, f.expected, f.found) == (i, f"$.states[{i}]['#meta'].probability", right, wrong)
    assert f.clause == coverage.chance_clause(rules, before, move) and f.clause
    assert f.what == "wrong probability"


def test_dishes_reveal_probability_names_the_colour_clause():
    doc = copy.deepcopy(_games("dishes")[0])
    i = next(i for i, s in enumerate(doc["states"]) if s["#meta"].get("move", "").startswith("reveal")
             and s["#meta"].get("probability") not in (None, "1"))
    doc["states"][i]["#meta"]["probability"] = "1/7"
    f = _caught(doc)
    assert f.clause == "dishes.components.colour-sets"


def test_an_impossible_chance_outcome_is_caught():
    doc = copy.deepcopy(_games("dishes")[0])
    i = next(i for i, s in enumerate(doc["states"]) if s["#meta"].get("move", "").startswith("reveal"))
    words = doc["states"][i]["#meta"]["move"].split()
    other = "0.dessert" if words[1] != "0.dessert" else "0.main"  # a place of this table, but not the tile turned
    doc["states"][i]["#meta"]["move"] = f"reveal {other} {words[2]}"
    f = _caught(doc)
    assert f.step == i and f.what == "impossible chance outcome"
    assert f.clause.startswith("dishes.")
    doc["states"][i]["#meta"]["move"] = f"reveal 9.soup {words[2]}"  # a place no table of two has
    f = _caught(doc)
    assert f.step == i and f.what.startswith("unknown place 9.soup") and f.clause == "dishes.components.tiles"


# --------------------------------------------------------------------------- lists at a state


def test_a_missing_legal_move_is_caught():
    doc = copy.deepcopy(_games("dishes")[0])
    i = next(i for i, s in enumerate(doc["states"]) if len(s["#meta"].get("legal_moves", [])) > 1)
    dropped = doc["states"][i]["#meta"]["legal_moves"].pop()
    f = _caught(doc)
    assert (f.step, f.path, f.expected) == (i, f"$.states[{i}]['#meta'].legal_moves", dropped)


def test_order_of_legal_moves_is_free():
    doc = copy.deepcopy(_games("dishes")[0])
    for s in doc["states"]:
        s["#meta"].get("legal_moves", []).reverse()
    assert verify_document(doc) is None


def test_wrong_player_to_move_is_caught():
    doc = copy.deepcopy(_games("dishes")[0])
    i = next(i for i, s in enumerate(doc["states"]) if s["#meta"].get("to_move") == "seat 1")
    doc["states"][i]["#meta"]["to_move"] = "seat 0"
    f = _caught(doc)
    assert (f.step, f.expected, f.found, f.clause) == (i, "seat 1", "seat 0", "dishes.play.clockwise")


# --------------------------------------------------------------------------- the command line


def test_exit_status_1_and_one_line_for_a_violation(tmp_path, capsys):
    from tablerules.cli import main

    doc = copy.deepcopy(_games("dishes")[0])
    i = next(i for i, s in enumerate(doc["states"]) if s["#meta"].get("probability") not in (None, "1"))
    doc["states"][i]["#meta"]["probability"] = "1/99"
    path = tmp_path / "engine.itf.json"
    path.write_text(json.dumps(doc))
    assert main(["vectors", "verify", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert f"step {i}" in err and "probability" in err and '"1/99"' in err and "[clause dishes." in err
    status, line = verify_file(str(path))
    assert status == 1 and line == err


def test_normal_makes_state_vars_comparable():
    rules = registry.get("dishes")
    state = rules.new_game(rules.setup(2, None, rules.load_components("3x4")))
    assert normal(rules.state_vars(state)) == decode(json.loads(json.dumps(rules.state_vars(state))))


def test_a_wrong_first_player_names_the_first_player_clause():
    doc = copy.deepcopy(_games("dishes")[0])
    doc["states"][0]["turn"] = 1
    f = _caught(doc)
    assert (f.step, f.path, f.expected, f.found, f.clause) == (0, "$.states[0].turn", 0, 1, "dishes.play.first-player")


def test_a_wrong_initial_table_names_the_deal():
    doc = copy.deepcopy(_games("dishes")[0])
    places = doc["states"][0]["places"]["#map"]
    clean = next(pair for pair in places if pair[1] == "clean")
    clean[1] = []
    f = _caught(doc)
    assert (f.step, f.path, f.found, f.clause) == (
        0, f'$.states[0].places["{clean[0]}"]', [], "dishes.setup.deal-one-of-each",
    )
