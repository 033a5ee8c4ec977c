"""Reference vectors: the ITF encoding, files an independent ITF reader parses, the JSON
Schema, and verify accepting every golden vector (tablerules/vectors/__init__.py)."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import fastjsonschema
import itf_py
import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablerules.vectors import coverage
from tablerules.model import registry
from tablerules.model.core import play
from tablerules.vectors import (
    NONE, VectorError, decode, dumps, encode, first_difference, fraction_text, normal, parse_document, record_game,
    trace_document, verify_document, verify_file,
)
from tablerules.cli import main as cli_main
from tablerules.vectors.verifier import check_form

REPO = Path(__file__).resolve().parents[2]
GOLDEN = sorted((REPO / "vectors").glob("*/*.itf.json"))
SCHEMA = json.loads((REPO / "spec" / "itf-trace.schema.json").read_text())


def _ids(paths):
    return [p.relative_to(REPO / "vectors").as_posix() for p in paths]


# --------------------------------------------------------------------------- ITF values

scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70), st.text(max_size=8))
hashables = st.recursive(scalars.filter(lambda v: v is not None), lambda inner: st.tuples(inner, inner), max_leaves=6)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.frozensets(hashables, max_size=4),
        st.dictionaries(st.text(max_size=6), inner, max_size=4),
        st.dictionaries(hashables, inner, max_size=3),
    ),
    max_leaves=20,
)


@given(values)
def test_decode_inverts_encode(value):
    encoded = encode(value)
    assert decode(json.loads(json.dumps(encoded))) == value


@given(values)
def test_encoding_is_deterministic_and_comparable(value):
    assert json.dumps(encode(value), sort_keys=True) == json.dumps(encode(normal(value)), sort_keys=True)
    assert first_difference(normal(value), normal(value), "$") is None


def test_itf_encodings_by_example():
    assert encode((1, "a")) == {"#tup": [1, "a"]}
    assert encode(frozenset({3, 1})) == {"#set": [1, 3]}
    assert encode({"0.soup": [1]}) == {"#map": [["0.soup", [1]]]}
    assert encode({"hands": []}) == {"hands": []}
    assert encode(2**60) == {"#bigint": str(2**60)}
    assert encode(None) == NONE
    assert decode({"#bigint": "-12"}) == -12
    assert decode(None) is None
    assert fraction_text(Fraction(1, 4)) == "1/4" and fraction_text(Fraction(1)) == "1"


@pytest.mark.parametrize("bad", [{"#bigint": "x"}, {"#bigint": 5}, {"#set": 3}, {"#map": [[1]]}, {"#weird": []},
                                 {"#unserializable": "x"}, 1.5])
def test_decode_rejects_what_itf_does_not_allow(bad):
    with pytest.raises(VectorError):
        decode(bad)


def test_first_difference_names_the_path():
    exp = {"places": {"0.soup": [1, 2]}, "turn": 0}
    found = {"places": {"0.soup": [1, 3]}, "turn": 0}
    assert first_difference(exp, found, "$.states[3]") == ('$.states[3].places["0.soup"]', [1, 2], [1, 3])
    assert first_difference([[1], [2]], [[1], [5]], "$") == ("$[1]", [2], [5])
    assert first_difference(1, True, "$") == ("$", 1, True)


# --------------------------------------------------------------------------- the golden files


def test_golden_set_exists_and_is_small():
    assert GOLDEN, "vectors/ is empty: run `tablerules vectors generate`"
    total = sum(p.stat().st_size for p in GOLDEN)
    # the generator caps each rule set's edge cases near 1.5 MB (tablerules/cli/vectors.py); three rule sets
    # with a vector per ruling alternative and per witness come to about 4.5 MB (every option adds to each vector's
    # #meta: jd.ruling.endless-play and its four vectors took it to 4,515,350 bytes)
    assert total < 4_700_000, f"golden set is {total:,} bytes"
    for rid in registry.ruleset_ids():
        if (REPO / "vectors" / rid).is_dir():
            assert list((REPO / "vectors" / rid).glob("*.itf.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=_ids(GOLDEN))
def test_golden_file_matches_the_schema(path):
    """Every golden file against spec/itf-trace.schema.json, with the validator the verifier uses."""
    check_form(json.loads(path.read_text()))


SAMPLE = GOLDEN[::45]
"""A few golden files for jsonschema, the reference validator (about 0.2 s a file)."""
BREAKAGES = {
    "no ruleset": lambda d: d["#meta"].pop("ruleset"),
    "no states": lambda d: d.pop("states"),
    "unknown key": lambda d: d["#meta"].update(capd=True),
    "unknown state key": lambda d: d["states"][-1]["#meta"].update(toMove="seat 0"),
    "wrong probability": lambda d: next(s for s in d["states"] if "probability" in s["#meta"])["#meta"].update(
        probability="one quarter"),
    "set of a number": lambda d: d["states"][0].update(turn={"#set": 3}),
    "encoding beside a field": lambda d: d["states"][0].update(turn={"#set": [], "x": 1}),
    "old version": lambda d: d["#meta"].update(format_version="tablerules-itf/0"),
    "parameters": lambda d: d.update(params=["N"]),
    "outcome pair of a number": lambda d: next(s for s in d["states"] if "chance_outcomes" in s["#meta"])[
        "#meta"]["chance_outcomes"][0].__setitem__(0, 7),
}


@pytest.mark.parametrize("path", SAMPLE, ids=_ids(SAMPLE))
def test_the_reference_validator_agrees_on_good_and_bad_documents(path):
    """jsonschema (the reference) and the verifier's fastjsonschema validator accept the same
    golden files and refuse the same broken ones."""
    reference = jsonschema.Draft202012Validator(SCHEMA)
    good = json.loads(path.read_text())
    assert reference.is_valid(good)
    check_form(good)
    broken = 0
    for name, breakage in BREAKAGES.items():
        bad = copy.deepcopy(good)
        try:
            breakage(bad)
        except (IndexError, StopIteration, KeyError):
            continue  # a document without what this breakage changes (a one-state witness has no chance)
        broken += 1
        assert not reference.is_valid(bad), name
        with pytest.raises(VectorError):
            check_form(bad)
    assert broken >= len(BREAKAGES) // 2, f"only {broken} of the breakages apply to {path.name}"


@pytest.mark.parametrize("breakage,words", [
    ("outcome pair of a number", r"chance_outcomes\[0\]\[0\]: expected a string, found 7$"),
    ("encoding beside a field", r"\.turn: expected an encoding \(#bigint, #tup, #set, #map\) alone in its object"),
])
def test_fastjsonschema_alone_ignores_the_2020_12_words(breakage, words):
    """Why the verifier rewrites the schema's prefixItems and dependentSchemas (draft 2020-12) in
    draft 7's words before compiling it: fastjsonschema implements drafts 4 to 7 and ignores them,
    so it accepts a [move, probability] pair whose move is a number, or a #set beside a field."""
    bad = json.loads(GOLDEN[0].read_text())
    BREAKAGES[breakage](bad)
    fastjsonschema.compile(SCHEMA)(bad)
    assert not jsonschema.Draft202012Validator(SCHEMA).is_valid(bad)
    with pytest.raises(VectorError, match=words):
        check_form(bad)


@pytest.mark.parametrize("path", GOLDEN, ids=_ids(GOLDEN))
def test_golden_file_parses_with_itf_py(path):
    data = json.loads(path.read_text())
    trace = itf_py.trace_from_json(data)
    assert trace.vars == data["vars"]
    assert len(trace.states) == len(data["states"])
    for ours, theirs in zip(data["states"], trace.states):
        for k in trace.vars:
            mine = decode(ours[k])
            # itf_py decodes #set to frozenset, #tup to tuple, #map to a dict, #bigint to int, as we do
            assert _plainly(theirs.values[k]) == _plainly(mine), (path.name, k)
    meta = data["#meta"]
    assert meta["format_version"] == "tablerules-itf/1"
    assert meta["ruleset"] in registry.ruleset_ids()
    assert isinstance(meta["players"], int)


def _plainly(v):
    """Compare itf_py's values (records as namedtuples, tagged unions) with ours (dicts, None)."""
    if hasattr(v, "_fields"):
        if type(v).__name__ == "Null" and v._fields == ("value",):
            return None
        return {k: _plainly(getattr(v, k)) for k in v._fields}
    if isinstance(v, dict):
        return {_plainly(k): _plainly(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return type(v)(_plainly(x) for x in v) if isinstance(v, tuple) else [_plainly(x) for x in v]
    if isinstance(v, frozenset):
        return frozenset(_plainly(x) for x in v)
    return v


def test_every_golden_vector_verifies_clean():
    problems = [line for status, line in (verify_file(str(p)) for p in GOLDEN) if status != 0]
    assert problems == []


def test_one_state_per_line_for_readable_diffs():
    text = GOLDEN[0].read_text()
    doc = json.loads(text)
    assert text.count("\n") >= len(doc["states"]) + 3
    assert dumps(doc) == text


# --------------------------------------------------------------------------- writing and replaying


def test_record_game_matches_the_model_step_by_step():
    rules = registry.get("dishes")
    setup = rules.setup(2, None, rules.load_components("3x4"))
    state = rules.new_game(setup)
    moves = []
    for _ in range(6):
        move = (
            rules.chance_outcomes(state)[0][0]
            if rules.to_move(state).__class__.__name__ == "_Special"
            else rules.legal_moves(state)[0]
        )
        moves.append(move)
        state = rules.apply(state, move)
    trace = record_game(rules, setup, moves, components_argument="3x4")
    doc = trace_document(trace)
    assert [s["#meta"].get("move") for s in doc["states"][1:]] == [str(m) for m in moves]
    last = play(rules, rules.new_game(setup), moves)
    assert decode(doc["states"][-1]["places"]) == normal(rules.state_vars(last)["places"])
    assert verify_document(parse_document(dumps(doc))) is None


def test_a_minimal_engine_log_needs_only_the_moves():
    """Fields an engine does not log may be missing: keep only #meta.move in each state."""
    doc = json.loads(GOLDEN[0].read_text())
    slim = {"#meta": {"ruleset": doc["#meta"]["ruleset"], "players": doc["#meta"]["players"],
                      "options": doc["#meta"]["options"], "components": doc["#meta"]["components"]},
            "vars": [], "states": [{"#meta": {"move": s["#meta"]["move"]}} if "move" in s["#meta"] else {}
                                   for s in doc["states"]]}
    assert verify_document(slim) is None


def test_coverage_names_the_clauses_of_a_dishes_step():
    rules = registry.get("dishes")
    setup = rules.setup(4, None, rules.load_components("box"))
    state = rules.new_game(setup)
    move = rules.parse_move("turn 0.soup", setup)
    after = rules.apply(state, move)
    assert coverage.transition_clauses(rules, state, move, after, 0)[:2] == [
        "dishes.play.turn-own-tile",
        "dishes.play.one-move",
    ]
    assert "dishes.setup.deal-2-3-unspecified" not in coverage.start_clauses(rules, state)


def test_coverage_falls_back_to_spec_words_for_unknown_rule_sets(monkeypatch):
    rules = registry.get("dishes")
    monkeypatch.delitem(coverage.MOVE_CLAUSES, "dishes")
    setup = rules.setup(4, None, rules.load_components("box"))
    state = rules.new_game(setup)
    move = rules.parse_move("turn 0.soup", setup)
    clauses = coverage.transition_clauses(rules, state, move, rules.apply(state, move), 0)
    assert "dishes.play.turn-own-tile" in clauses


def test_cli_verify_reports_ok(capsys):
    assert cli_main(["vectors", "verify", str(GOLDEN[0])]) == 0
    assert ": ok (" in capsys.readouterr().out


# --------------------------------------------------------------------------- rule gaps, skipped rule sets, --check


def _gap_vectors():
    out = []
    for p in GOLDEN:
        doc = json.loads(p.read_text())
        if doc["states"] and doc["#meta"].get("rule_gap"):
            out.append(doc)
    return out


def test_rule_gap_claims_are_checked():
    docs = _gap_vectors()
    assert docs, "no vector ends in a rule gap"
    doc = docs[0]
    assert verify_document(doc) is None
    last = doc["states"][-1]["#meta"]
    ruling = last["rule_gap"]["ruling"]
    last["rule_gap"]["ruling"] = ruling + "-other"
    f = verify_document(doc)
    assert f is not None and f.step == len(doc["states"]) - 1 and f.clause == ruling


def test_a_false_rule_gap_claim_is_caught():
    doc = json.loads(sorted((REPO / "vectors" / "dishes").glob("*-default-s1.itf.json"))[0].read_text())
    doc["states"][2]["#meta"]["rule_gap"] = {"ruling": "dishes.ruling.stuck-player"}
    f = verify_document(doc)
    assert f is not None and (f.step, f.what, f.clause) == (2, "no rule gap here", "dishes.ruling.stuck-player")


def test_a_rule_set_that_does_not_import_is_skipped(monkeypatch, tmp_path, capsys):
    from tablerules.vectors.generation import generate_ruleset

    broken = registry.Entry("broken", "A rule set being written", "tablerules.model.no_such_module", "x")
    monkeypatch.setitem(registry.ENTRIES, "broken", broken)
    report = generate_ruleset("broken")
    assert report.skipped.startswith("model does not import (ModuleNotFoundError")
    assert cli_main(["vectors", "generate", "--ruleset", "broken", "--out", str(tmp_path), "-q"]) == 0
    captured = capsys.readouterr()
    assert "skipped broken: model does not import" in captured.err
    assert not list(tmp_path.rglob("*.itf.json"))


def test_generate_check_reports_a_changed_vector(tmp_path, capsys):
    golden = tmp_path / "vectors"
    assert cli_main(["vectors", "generate", "--ruleset", "dishes", "--out", str(golden), "-q"]) == 0
    assert cli_main(["vectors", "generate", "--check", "--ruleset", "dishes", "--out", str(golden), "-q"]) == 0
    victim = sorted((golden / "dishes").glob("*default-s1.itf.json"))[0]
    lines = victim.read_text().splitlines()
    lines[5] = lines[5].replace('"turn":0', '"turn":1', 1) if '"turn":0' in lines[5] else lines[5] + " "
    victim.write_text("\n".join(lines) + "\n")
    (golden / "dishes" / "old-vector.itf.json").write_text("{}")
    assert cli_main(["vectors", "generate", "--check", "--ruleset", "dishes", "--out", str(golden), "-q"]) == 1
    out = capsys.readouterr().out
    assert f"dishes: changed  {victim.name}" in out
    assert "dishes: removed  old-vector.itf.json" in out
    assert "vectors differ" in out


def test_every_witness_of_the_rulings_register_is_a_vector():
    from tablerules.vectors.generation import witness_files

    files = witness_files()
    assert files, "spec/witnesses is empty"
    for path in files:
        w = json.loads(path.read_text())
        made = sorted((REPO / "vectors" / w["ruleset"]).glob(f"witness-{path.stem}*.itf.json"))
        if "never_part" in w:  # a proof that the readings never part: no trace, so no vector
            assert not made, path.name
            continue
        entries = list(w["witnesses"].values()) if isinstance(w.get("witnesses"), dict) else [w]
        assert len(made) == len(entries), path.name
        moves = sorted(tuple(e["moves"]) for e in entries)
        recorded = sorted(tuple(s["#meta"]["move"] for s in json.loads(p.read_text())["states"][1:]) for p in made)
        assert [r[: len(m)] for r, m in zip(recorded, moves)] == moves, path.name
        for p in made:
            assert json.loads(p.read_text())["#meta"]["generator"] == {
                "kind": "witness",
                "file": f"spec/witnesses/{path.name}",
                **({"ruling": w["ruling"]} if w.get("ruling") else {}),
            }


def test_a_model_that_raises_while_playing_is_reported_not_written(monkeypatch, tmp_path, capsys):
    import dataclasses

    from tablerules.vectors.generation import generate_ruleset

    real = registry.get("dishes")

    def broken_apply(state, move):
        raise KeyError("engine bug")

    monkeypatch.setattr(registry, "get", lambda rid: dataclasses.replace(real, apply=broken_apply))
    report = generate_ruleset("dishes")
    assert report.failed.startswith("the model raised KeyError") and report.vectors == []
    assert cli_main(["vectors", "generate", "--ruleset", "dishes", "--out", str(tmp_path), "-q"]) == 1
    assert "dishes: the model raised KeyError" in capsys.readouterr().err
    assert not list(tmp_path.rglob("*.itf.json"))


@given(st.sampled_from(registry.ruleset_ids()), st.integers(min_value=0, max_value=2**32), st.data())
def test_every_trace_the_writer_makes_verifies_clean(ruleset, seed, data):
    """Property: record any seeded playthrough (any player count, components, options) and
    verify accepts it; then break its last move's recorded probability or state and verify objects."""
    from tablerules.vectors.generation import _components_choices, _working, option_variants, playthrough

    rules = registry.get(ruleset)
    options = data.draw(st.sampled_from([rules.Options()] + [o for _, o, _ in option_variants(rules)]))
    n = data.draw(st.sampled_from(rules.player_counts))
    working = _working(rules, n, options, _components_choices(rules))
    if not working:
        return
    arg, comp = data.draw(st.sampled_from(working))
    setup = rules.setup(n, options, comp)
    moves = playthrough(rules, setup, seed, max_steps=60)
    doc = trace_document(record_game(rules, setup, moves, components_argument=arg))
    assert verify_document(parse_document(dumps(doc))) is None
    if len(doc["states"]) > 1:
        last = doc["states"][-1]
        var = doc["vars"][0]
        last[var] = {"#tup": ["planted"]}
        step = len(doc["states"]) - 1
        try:
            f = verify_document(doc)
        except VectorError as e:  # a tuple where the rules have another container: a file we cannot compare
            assert str(e).startswith(f"wrong type: $.states[{step}].{var}"), str(e)
        else:  # where a plain value may stand (a Dishes place is "clean" or a stack): a wrong state
            assert f is not None and f.step == step and f.path.startswith(f"$.states[{step}].{var}")


def test_the_golden_folder_is_the_checkouts_wherever_the_command_runs(tmp_path, monkeypatch):
    from tablerules.vectors import generation
    from tablerules.vectors.generation import default_out

    checkout = Path(__file__).resolve().parents[2]
    if Path(generation.__file__).resolve().parents[2] != checkout:
        pytest.skip("the package is installed, not run from the checkout: its default is ./vectors")
    monkeypatch.chdir(tmp_path)
    assert default_out() == checkout / "vectors"
