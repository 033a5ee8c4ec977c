"""A second Quint model of Dishes, shaped unlike ours (interop/quint/dishes_lists.qnt), read
through its mapping alone (tablerules/mappings/quint-dishes-lists.toml): lists of lists of
records, plain strings and integers as names, a boolean clean side, the deal only as init's
nondet pick, no outcome variable, `finish` stutters.

The committed traces (tests/interop/data/quint-lists/, written by
interop/quint/make_lists_traces.py with the pinned Quint) must verify; the wrong traces below
are hand-edited from a good one and must fail with exit 1 (a rule broken) naming the clause;
mapping mistakes must exit 2 naming the mapping key and what the trace holds there.
"""

from __future__ import annotations

import copy
import json
import os
import tomllib
from pathlib import Path

import pytest

from tablerules.vectors import check_trace
from tablerules.vectors.mapping import (
    MappingError, detect, load_mapping, parse_mapping, read_mapping_text, translate, verify_file,
)
from tablerules.vectors.mapping.draft import draft

REPO = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data" / "quint-lists"
TRACES = sorted(DATA.glob("*.itf.json"))
MAPPING = REPO / "tablerules" / "mappings" / "quint-dishes-lists.toml"


def _doc(name: str = "lists2_0.itf.json") -> dict:
    return json.loads((DATA / name).read_text())


def _var(doc: dict, short: str) -> str:
    return next(v for v in doc["vars"] if v.endswith("::" + short))


def _verify(tmp_path: Path, doc: dict, mapping: str | None = None) -> tuple[int, str]:
    p = tmp_path / "t.itf.json"
    p.write_text(json.dumps(doc))
    return verify_file(str(p), mapping=mapping)


def _mapping_file(tmp_path: Path, old: str, new: str, name: str = "m.toml") -> str:
    """A copy of the mapping with one change."""
    text = MAPPING.read_text()
    assert old in text
    p = tmp_path / name
    p.write_text(text.replace(old, new, 1))
    return str(p)


def test_the_traces_cover_two_to_four_players_and_stay_small():
    players = {len(json.loads(t.read_text())["states"][0][_var(json.loads(t.read_text()), "board")])
               for t in TRACES}
    assert players == {2, 3, 4}
    assert sum(t.stat().st_size for t in TRACES) < 2_000_000  # bytes


@pytest.mark.parametrize("trace", TRACES, ids=[t.name for t in TRACES])
def test_every_trace_verifies_through_the_mapping_alone(trace):
    status, text = verify_file(str(trace))  # found by its variables, no --mapping
    assert status == 0, text
    assert "read through mapping quint-dishes-lists" in text
    # The game reached its end: the finish steps were checked and our outcome is given.
    assert "finish steps (mapping quint-dishes-lists: over = true" in text
    assert "the outcome: the trace records none; ours is loser" in text
    assert "stops before the end" not in text


def test_the_deal_comes_from_the_first_steps_pick_with_our_probability():
    tr = translate(_doc(), load_mapping("quint-dishes-lists"))
    moves = [s["#meta"]["move"] for s in tr.document["states"][1:]]
    assert sum(m.startswith("reveal ") for m in moves) == 12  # 2 players x 6 kinds, each turned once
    assert any("probability 1/2985984 together" in u for u in tr.unchecked), tr.unchecked


def test_a_board_changed_only_in_the_dropped_finish_steps_is_a_broken_rule(tmp_path):
    doc = _doc()
    board = _var(doc, "board")
    first = next(i for i, s in enumerate(doc["states"]) if s["mbt::actionTaken"] == "finish")
    for s in doc["states"][first:]:  # the last real state stays right; every finish after it moves a tile
        pile = next(p for row in s[board] for p in row if len(p) >= 2)
        pile.append(pile.pop(0))
    status, line = _verify(tmp_path, doc)
    assert status == 1, line
    assert "wrong state" in line and ".places" in line and "[clause dishes." in line
    assert f"(trace state {first}, action finish: a step mapping quint-dishes-lists drops, so it must change" in line


def test_a_finish_while_moves_remain_is_a_broken_rule_naming_the_end_clause(tmp_path):
    doc = _doc()
    cut = 8  # a few moves in: tiles are still clean, so moves remain
    stutter = copy.deepcopy(doc["states"][cut])
    stutter["mbt::actionTaken"] = "finish"
    stutter["mbt::nondetPicks"] = {k: {"tag": "None", "value": {"#tup": []}} for k in stutter["mbt::nondetPicks"]}
    doc["states"] = doc["states"][:cut + 1] + [copy.deepcopy(stutter) for _ in range(3)]
    status, line = _verify(tmp_path, doc)
    assert status == 1, line
    assert "the game said to be over while moves remain" in line
    assert "[clause dishes.end.no-moves]" in line
    assert f"(the end of the game claimed at trace state {cut + 1}, action finish)" in line


def test_a_colliding_names_table_is_refused_naming_the_key(tmp_path):
    bad = _mapping_file(tmp_path, 'c2 = "c3", c3 = "c4"', 'c2 = "c3", c3 = "c3"')
    with pytest.raises(MappingError, match=r"\[names\]\.colour: 'c2' and 'c3' both name 'c3'"):
        load_mapping(bad)
    status, line = _verify(tmp_path, _doc(), mapping=bad)
    assert status == 2 and "[names].colour" in line and "\n" not in line


def test_a_mapping_file_changed_under_the_same_name_is_read_again(tmp_path):
    """load_mapping caches what it read, keyed by the file's size and modification time."""
    p = Path(_mapping_file(tmp_path, 'c2 = "c3", c3 = "c4"', 'c2 = "c3", c3 = "c4"'))
    load_mapping(str(p))
    p.write_text(p.read_text().replace('c2 = "c3", c3 = "c4"', 'c2 = "c3", c3 = "c3"', 1))
    later = p.stat().st_mtime_ns + 10**9  # a later modification time, whatever the clock
    os.utime(p, ns=(p.stat().st_atime_ns, later))
    with pytest.raises(MappingError, match=r"\[names\]\.colour: 'c2' and 'c3' both name 'c3'"):
        load_mapping(str(p))


def test_a_value_a_table_does_not_name_is_a_mapping_problem(tmp_path):
    bad = _mapping_file(tmp_path, 'c1 = "yellow", ', "")
    status, line = _verify(tmp_path, _doc(), mapping=bad)
    assert status == 2, line
    assert "[names.colour] does not name" in line and 'the string "c1"' in line
    assert "[state.places].item" in line or "[deal].value" in line


def test_a_string_left_unrenamed_is_a_mapping_problem_not_a_rule_break(tmp_path):
    bad = _mapping_file(tmp_path, 'item = "{colour:colour} {kind:kind}"', 'item = "{colour} {kind}"')
    status, line = _verify(tmp_path, _doc(), mapping=bad)
    assert status == 2, line
    assert "[state.places].item" in line and "which [names.colour] renames: write {colour:colour}" in line


def test_a_deal_without_a_place_names_the_keys_it_has(tmp_path):
    doc = _doc()
    deal = doc["states"][0]["mbt::nondetPicks"]["deal"]["value"]["#map"]
    del deal[-1]  # slot 5 (knives) dealt to nobody
    status, line = _verify(tmp_path, doc)
    assert status == 2, line
    assert "the deal gives nothing for '0.knives'" in line
    assert "[deal].key = '{seat}.{slot:slot}' gives 0.dessert" in line


def test_a_shape_the_mapping_does_not_read_says_which_key_and_what_is_there(tmp_path):
    status, line = _verify(tmp_path, _doc(), mapping="quint-dishes")  # the first model's mapping: maps, not lists
    assert status == 2 and "\n" not in line
    assert "[players].keys_of needs a map, but the trace holds a list of 2 lists there" in line
    bad = _mapping_file(tmp_path, 'levels = ["seat", "slot"]', 'levels = ["seat", "slot", "tile", "field", "x"]')
    status, line = _verify(tmp_path, _doc(), mapping=bad)
    assert status == 2 and "[state.places].levels reads level 'x'" in line and "the trace holds the string" in line
    bad = _mapping_file(tmp_path, 'levels = ["seat", "slot"]', 'levels = ["seat"]', "one-level.toml")
    status, line = _verify(tmp_path, _doc(), mapping=bad)
    assert status == 2
    assert "[state.places].key: template '{seat}.{slot:slot}': no value for 'slot' (here the trace gives: seat)" in line
    keyed = tmp_path / "keyed.toml"
    keyed.write_text(Path(bad).read_text().replace('key = "{seat}.{slot:slot}"', 'key = "{seat}"', 1))
    status, line = _verify(tmp_path, _doc(), mapping=str(keyed))
    assert status == 2 and "[state.places].item needs fields colour, kind" in line
    assert "an item there is a list of 1 records (check mapping quint-dishes-lists [state.places].levels)" in line


def test_detection_prefers_the_mapping_that_asks_for_most():
    assert detect(_doc()).name == "quint-dishes-lists"
    first_model = json.loads((REPO / "tests" / "interop" / "data" / "quint-dishes-2p.itf.json").read_text())
    assert detect(first_model).name == "quint-dishes"


def _fill(data: dict) -> dict:
    """The blanks of the draft for these traces, filled in as their author would."""
    data["mapping"]["ruleset"] = "dishes"
    data["mapping"]["components"] = "box"
    data["names"]["colour"] = {"c0": "red", "c1": "yellow", "c2": "c3", "c3": "c4"}
    data["names"]["kind"] = {"drink": "drinks", "soup": "soup", "main": "main", "dessert": "dessert",
                             "fork": "forks", "knife": "knives"}
    data["names"]["slot"] = dict(zip("012345", ["drinks", "soup", "main", "dessert", "forks", "knives"]))
    places = data["state"].pop("?board")
    places.update(key="{seat}.{slot:slot}", item="{colour:colour} {kind:kind}", member_value="clean")
    places["member_if"]["equals"] = False
    data["state"]["places"] = places
    data["moves"].update(turnOver={"move": "turn {turn}.{slot:slot}"},
                         placePile={"move": "place {turn}.{fromSlot:slot} on {onto[0]}.{onto[1]:slot}"},
                         passTurn={"move": "pass"})
    data["deal"].update(key="{seat}.{key:slot}", chance_move="reveal {key} {value}")
    return data


def test_the_draft_leaves_marked_blanks_and_once_filled_verifies():
    doc = _doc("lists3_0.itf.json")
    text = draft(doc, "mine", trace_name="lists3_0.itf.json")
    with pytest.raises(MappingError, match=r'still blank \("\?", left by the draft\): mapping\.ruleset, names\.'):
        read_mapping_text(text, "mine")
    data = tomllib.loads(text)
    assert data["state"]["?board"]["levels"] == ["seat", "slot"]
    assert data["moves"]["init"] == {"start": True} and data["moves"]["finish"] == {"over": True}
    assert data["deal"]["pick"] == "deal" and data["deal"]["value"] == "{value:colour}"
    m = parse_mapping(_fill(data), "mine")
    for trace in TRACES:
        tr = translate(json.loads(trace.read_text()), m)
        verdict = check_trace(tr.document)
        assert verdict.finding is None, (trace.name, verdict.finding.line(trace.name))
        assert not tr.stutters


def test_the_map_command_drafts_to_a_file(tmp_path):
    from tests.tool.runner import run_cli

    out = tmp_path / "draft.toml"
    r = run_cli("vectors", "map", "--from", "quint", "--ruleset", "dishes", str(TRACES[0]), "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert 'ruleset = "dishes"' in out.read_text()
    r = run_cli("vectors", "verify", "--mapping", str(out), str(TRACES[0]))
    assert r.returncode == 2 and "still blank" in r.stderr and r.stderr.count("\n") == 1
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2")
    r = run_cli("vectors", "map", "--from", "quint", str(bad))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "bad.json" in r.stderr


def test_a_missing_variable_names_the_key_and_the_variables_there_are(tmp_path):
    bad = _mapping_file(tmp_path, 'var = "turn"', 'var = "whose"', "whose.toml")
    status, line = _verify(tmp_path, _doc(), mapping=bad)
    assert status == 2 and "no variable 'whose'" in line and "([state.turn].var; the trace has " in line


def test_the_command_line_refuses_a_colliding_mapping_once_naming_the_key(tmp_path):
    from tests.tool.runner import run_cli

    bad = _mapping_file(tmp_path, 'c2 = "c3", c3 = "c4"', 'c2 = "c3", c3 = "c3"', "collide.toml")
    r = run_cli("vectors", "verify", "--mapping", bad, str(TRACES[0]))
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1
    assert "[names].colour: 'c2' and 'c3' both name 'c3'" in r.stderr


def test_the_draft_of_something_that_is_not_a_trace_is_refused():
    with pytest.raises(MappingError, match=r"\$\.states: missing, empty or not a list of objects"):
        draft({"states": [1]}, "x")


@pytest.mark.slow
def test_fresh_traces_of_the_second_model_verify(tmp_path):
    """Quint writes the traces again (the committed ones stay as they are) and each verifies."""
    import importlib.util
    import os
    import sys

    runner = REPO / "interop" / "quint" / "make_lists_traces.py"
    spec = importlib.util.spec_from_file_location("make_lists_traces", runner)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    quint, why = module.find_quint()
    if quint is None:
        if os.environ.get("TABLERULES_REQUIRE_QUINT") == "1":
            pytest.fail(f"Quint is required here (TABLERULES_REQUIRE_QUINT=1) but cannot be run: {why}")
        pytest.skip(f"Quint traces not written: {why}")
    assert module.main(["--out", str(tmp_path)]) == 0
    fresh = sorted(tmp_path.glob("*.itf.json"))
    assert len(fresh) == 3 * module.TRACES
    for trace in fresh:
        status, text = verify_file(str(trace), mapping="quint-dishes-lists")
        assert status == 0, text
        assert "stops before the end" not in text, text


@pytest.mark.parametrize(
    "old,new,where",
    [
        ('levels = ["seat", "slot"]', "levels = []", r"\[state\.places\]\.levels: expected a list of names"),
        ('levels = ["seat", "slot"]', 'levels = ["seat", "seat"]', r"\[state\.places\]\.levels: a name appears twice"),
        (
            'member_if = { field = "dirty", equals = false }', 'member_if = { field = "dirty" }',
            r"\[state\.places\]\.member_if: expected \{ field",
        ),
        ('member_value = "clean"', "", r"\[state\.places\]\.member_value: missing"),
        ('pick = "deal"', 'pick = "deal"\nvar = "board"', r"\[deal\]: give var .* or pick"),
        ("finish = { over = true }", 'finish = { over = true, move = "pass" }', r"\[moves\]\.finish: give one of"),
        (
            'item = "{colour:colour} {kind:kind}"', 'item = "{colour:color} {kind:kind}"',
            r"\[state\.places\]\.item: \{colour:color\} names no table of \[names\] \(tables: colour, kind, slot\)",
        ),
        (
            'item = "{colour:colour} {kind:kind}"', 'item = "{colour!r} {kind:kind}"',
            r"\[state\.places\]\.item: template field",
        ),
        ('length_of = "board"', 'length_of = "board"\nkeys_of = "board"', r"\[players\]: give length_of, or keys_of"),
    ],
)
def test_mistakes_in_the_new_keys_are_named(tmp_path, old, new, where):
    bad = _mapping_file(tmp_path, old, new, "typo.toml")
    with pytest.raises(MappingError, match=where) as e:
        load_mapping(bad)
    assert "\n" not in str(e.value)
