"""The verifier checks everything a trace gives it, or refuses the file (tablerules/vectors/verifier.py).

Every test starts from a golden vector that verifies clean and changes one thing, as an
engine with a bug (exit status 1) or a file we cannot check (exit status 2) would."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tablerules.vectors.itf import VectorError
from tablerules.vectors.verifier import check_trace
from tests.tool.runner import run_cli

REPO = Path(__file__).resolve().parents[2]


def _golden(pattern: str) -> tuple[Path, dict]:
    path = sorted((REPO / "vectors").glob(pattern))[0]
    return path, json.loads(path.read_text())


DISHES_PATH, DISHES = _golden("dishes/3p-3x4-default-s1.itf.json")


def _verify(tmp_path: Path, doc: dict | str, *extra: str) -> tuple[int, str, str]:
    path = tmp_path / "engine.itf.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    r = run_cli("vectors", "verify", str(path), *extra, timeout=120)
    assert "Traceback" not in r.stderr
    return r.returncode, r.stdout, r.stderr


def _changed(change) -> dict:
    doc = copy.deepcopy(DISHES)
    change(doc)
    return doc


def test_the_golden_vector_is_clean(tmp_path):
    status, out, _ = _verify(tmp_path, DISHES)
    assert status == 0 and ": ok (" in out


# --------------------------------------------------------------------------- unknown keys: exit 2, naming the key and
# the known ones


@pytest.mark.parametrize("where,key", [
    ("trace", "capd"),
    ("trace", "option"),
    ("state", "toMove"),
    ("state", "outcomes"),
    ("state", "prob"),
    ("top", "statez"),
])
def test_unknown_keys_are_refused_with_the_known_ones(tmp_path, where, key):
    def change(doc):
        target = {"trace": doc["#meta"], "state": doc["states"][3]["#meta"], "top": doc}[where]
        target[key] = 1

    status, _, err = _verify(tmp_path, _changed(change))
    assert status == 2, err
    assert f"{key!r}" in err or f".{key}" in err or f'["{key}"]' in err
    assert "unknown key (known: " in err


@pytest.mark.parametrize("change,line", [
    (lambda d: d["states"][3]["#meta"].update(index=-1),
     "$.states[3]['#meta'].index: expected a whole number >= 0, found -1"),
    (lambda d: d["states"][3]["#meta"].update(actor="seat one"),
     '$.states[3][\'#meta\'].actor: expected "seat N" or "CHANCE", found "seat one"'),
    (lambda d: d["#meta"]["generator"].update(kind="by hand"),
     '$[\'#meta\'].generator.kind: expected random, edge-search, witness or finding, found "by hand"'),
    (lambda d: d["#meta"].pop("ruleset"), "$['#meta'].ruleset: missing (expected a rule set id)"),
    (lambda d: d["#meta"]["options"].update({"a.b[1]": 3}),
     '$[\'#meta\'].options["a.b[1]"]: expected a string or true or false, found 3'),
    (lambda d: d["vars"].append(d["vars"][0]), '$.vars: expected no item listed twice, found "places" twice'),
    (lambda d: d["states"][2].update(places={"#map": [[1]]}),
     '$.states[2].places["#map"][0]: expected a [key, value] pair, found [1]'),
    (lambda d: d["states"][2].update(turn={"#unserializable": "x"}),
     "$.states[2].turn: expected keys that are a field name (letters, digits, _; a letter first) or ITF's #bigint, "
     '#tup, #set, #map, found key "#unserializable"'),
    (lambda d: d.update(loop=3), "$.loop: expected null (a game does not loop back), found 3"),
], ids=["minimum", "pattern", "enum", "required", "dotted-key", "unique", "pair", "record-key", "null-only"])
def test_the_schema_names_the_path_and_what_it_expects(change, line):
    """A document the trace schema refuses: one line with our JSON path (keys with dots and
    brackets quoted), the schema's expectation in words, and what the file has."""
    with pytest.raises(VectorError) as refused:
        check_trace(_changed(change))
    assert str(refused.value) == line


def test_an_unknown_option_is_refused(tmp_path):
    status, _, err = _verify(tmp_path, _changed(lambda d: d["#meta"]["options"].update({"dishes.ruling.no-such": "x"})))
    assert status == 2 and "unknown ruling or option" in err and "dishes.ruling.tie-for-most" in err


def test_an_option_with_a_wrong_value_is_refused(tmp_path):
    status, _, err = _verify(
        tmp_path, _changed(lambda d: d["#meta"]["options"].update({"dishes.ruling.tie-for-most": False}))
    )
    assert status == 2 and "expected one of all-tied-lose" in err


# --------------------------------------------------------------------------- the file's own bookkeeping


def test_a_wrong_index_is_refused(tmp_path):
    status, _, err = _verify(tmp_path, _changed(lambda d: d["states"][4]["#meta"].update(index=7)))
    assert status == 2 and "$.states[4]['#meta'].index: 7 is not the state's position 4" in err


def test_vars_naming_an_unknown_variable_is_refused(tmp_path):
    status, _, err = _verify(tmp_path, _changed(lambda d: d["vars"].append("score")))
    assert status == 2 and "'score' is not a state variable of dishes" in err


def test_vars_naming_a_variable_no_state_has_is_refused(tmp_path):
    def change(doc):
        for s in doc["states"]:
            del s["reveal"]

    status, _, err = _verify(tmp_path, _changed(change))
    assert status == 2 and "$.vars: no state holds 'reveal'" in err


def test_duplicate_json_keys_are_refused(tmp_path):
    text = DISHES_PATH.read_text().replace('"turn":', '"turn":1,"turn":', 1)
    status, _, err = _verify(tmp_path, text)
    assert status == 2 and 'duplicate key "turn"' in err


def test_a_game_that_stops_before_its_end_is_a_finding(tmp_path):
    def change(doc):
        doc["states"].pop()
        doc["#meta"]["steps"] -= 1

    status, _, err = _verify(tmp_path, _changed(change))
    steps = len(DISHES["states"]) - 2
    assert status == 1 and f"game not finished at step {steps}" in err


def test_a_game_cut_on_purpose_says_capped(tmp_path):
    def change(doc):
        doc["states"].pop()
        doc["#meta"]["steps"] -= 1
        doc["#meta"]["capped"] = True
        del doc["#meta"]["clauses"]  # the end's clauses are no longer exercised

    status, _, _ = _verify(tmp_path, _changed(change))
    assert status == 0


def test_a_wrong_step_count_is_refused(tmp_path):
    status, _, err = _verify(tmp_path, _changed(lambda d: d["#meta"].update(steps=d["#meta"]["steps"] + 1)))
    assert status == 2 and "moves claimed" in err


def test_wrong_clauses_are_a_finding(tmp_path):
    status, _, err = _verify(tmp_path, _changed(lambda d: d["states"][2]["#meta"]["clauses"].append("dishes.goal")))
    assert status == 1 and "wrong clauses for this step" in err


# --------------------------------------------------------------------------- types inside values: exit 2


@pytest.mark.parametrize("change,words", [
    (lambda d: d["states"][3].update(turn=str(d["states"][3]["turn"])), "expected a whole number, found a string"),
    (lambda d: d["states"][3].update(places=[]), "expected a map or record, found a list"),
    (lambda d: next(s for s in d["states"] if "probability" in s["#meta"])["#meta"].update(probability=True),
     "probability: expected a fraction"),
])
def test_type_errors_are_refused_not_judged(tmp_path, change, words):
    status, _, err = _verify(tmp_path, _changed(change))
    assert status == 2 and words in err, err


# --------------------------------------------------------------------------- findings that name what was possible


def test_an_impossible_chance_outcome_lists_the_possible_ones(tmp_path):
    i = next(i for i, s in enumerate(DISHES["states"]) if s["#meta"].get("move", "").startswith("reveal"))
    words = DISHES["states"][i]["#meta"]["move"].split()

    def change(doc):
        doc["states"][i]["#meta"]["move"] = (
            f"reveal 2.main {words[2]}" if words[1] != "2.main" else f"reveal 0.main {words[2]}"
        )

    status, _, err = _verify(tmp_path, _changed(change))
    assert status == 1 and "impossible chance outcome" in err
    assert f"one of {words[0]} {words[1]}" in err


def test_a_wrong_turn_names_the_turn_order_clause(tmp_path):
    i = next(i for i, s in enumerate(DISHES["states"]) if s["#meta"].get("move", "").startswith("reveal"))
    status, _, err = _verify(tmp_path, _changed(lambda d: d["states"][i].update(turn=(d["states"][i]["turn"] + 1) % 3)))
    assert status == 1 and "[clause dishes.play.clockwise]" in err


# --------------------------------------------------------------------------- the command


def test_verify_reads_standard_input():
    r = run_cli("vectors", "verify", "-", input=DISHES_PATH.read_text())
    assert r.returncode == 0 and "(standard input): ok (" in r.stdout


def test_a_summary_line_closes_the_run(tmp_path):
    bad = tmp_path / "bad.itf.json"
    bad.write_text("{")
    r = run_cli("vectors", "verify", str(DISHES_PATH), str(bad))
    assert r.returncode == 2
    assert r.stdout.splitlines()[-1].endswith("2 files, %d steps replayed: 1 passed, 0 failed, 1 unreadable"
                                              % (len(DISHES["states"]) - 1))


@pytest.mark.parametrize("text,absent", [
    ("{", "cannot read: cannot read:"),
    ('{"a": "\u0001"}', "at at"),
    ('{"n": ' + "1" * 5000 + "}", "set_int_max_str_digits"),
])
def test_messages_read_well(tmp_path, text, absent):
    status, _, err = _verify(tmp_path, text)
    assert status == 2 and absent not in err and err.count("\n") == 1


def test_a_usage_error_names_the_command_once():
    r = run_cli("vectors", "verify")
    assert r.returncode == 2
    assert r.stderr.startswith("tablerules vectors verify: error: ") and r.stderr.count("tablerules") == 1


def test_one_player_is_one_player(tmp_path):
    r = run_cli("vectors", "verify", str(DISHES_PATH))
    assert "3 players" in r.stdout and " 1 players" not in r.stdout


@pytest.mark.parametrize("name", ["missing.itf.json", "."])
def test_a_file_that_cannot_be_opened_says_why_once(tmp_path, name):
    r = run_cli("vectors", "verify", str(tmp_path / name) if name != "." else str(tmp_path))
    assert r.returncode == 2
    said = "No such file" if name != "." else "not a regular file (a folder)"
    assert r.stderr.count("cannot read") == 1 and said in r.stderr, r.stderr
