"""Traces of other tools read through a mapping (tablerules/vectors/mapping/,
tablerules/mappings/quint-dishes.toml), on a committed Quint trace of interop/quint/dishes.qnt.

Each tampering below must be caught at the step it was made, naming the clause: the deal
(dishes.components.colour-sets via the reveal), the board and turn (dishes.play.*), the
outcome (dishes.end.most-dishes-loses)."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest

from tablerules.vectors import mapping as itf_mapping
from tablerules.vectors.mapping import MappingError, detect, load_mapping, translate
from tablerules.model import dishes
from tablerules.vectors import verify_document
from tablerules.cli.vectors import main as vectors_main

DATA = Path(__file__).resolve().parent / "data"
TRACE = DATA / "quint-dishes-2p.itf.json"
REPO = Path(__file__).resolve().parents[2]
PREFIX = "dishes2::dishes::"


@pytest.fixture()
def trace() -> dict:
    return json.loads(TRACE.read_text())


def _write(tmp_path: Path, doc: dict, name: str = "t.itf.json") -> str:
    p = tmp_path / name
    p.write_text(json.dumps(doc))
    return str(p)


def _verify(tmp_path: Path, doc: dict, mapping: str | None = None) -> tuple[int, str]:
    return itf_mapping.verify_file(_write(tmp_path, doc), mapping=mapping)


def _replace(value, old, new):
    """``value`` with every part equal to ``old`` replaced by ``new``."""
    if value == old:
        return copy.deepcopy(new)
    if isinstance(value, list):
        return [_replace(v, old, new) for v in value]
    if isinstance(value, dict):
        return {k: _replace(v, old, new) for k, v in value.items()}
    return value


def _first(doc: dict, action: str) -> int:
    return next(i for i, s in enumerate(doc["states"]) if s["mbt::actionTaken"] == action)


def test_the_committed_quint_trace_verifies(trace, tmp_path):
    status, text = _verify(tmp_path, trace)
    assert status == 0, text
    assert "read through mapping quint-dishes" in text
    assert "dropped 2 gameOver steps" in text
    # The outcome was compared, so it is not listed as unchecked.
    assert "the outcome" not in text


def test_translation_reveals_colours_from_the_deal_with_our_probability(trace):
    tr = translate(trace, detect(trace))
    moves = [s["#meta"].get("move") for s in tr.document["states"][1:]]
    turns = [m for m in moves if m.startswith("turn ")]
    reveals = [m for m in moves if m.startswith("reveal ")]
    assert len(turns) == len(reveals) == 12  # every tile turned once, its colour revealed right after
    assert all(moves[moves.index(t) + 1].startswith("reveal " + t.split()[1]) for t in turns)
    # Our probability of the whole colouring equals the physical deal's (computed apart).
    deal = {dishes.parse_place(m.split()[1]): dishes.COLOURS.index(m.split()[2]) for m in reveals}
    setup = dishes.RULES.setup(2, components=dishes.Tiles())
    want = dishes.deal_probability(setup, deal)
    assert want == Fraction(1, 12**6)
    assert any(f"probability {want.numerator}/{want.denominator} together" in u for u in tr.unchecked), tr.unchecked
    assert verify_document(tr.document) is None


def test_a_clash_in_the_deal_is_caught_when_the_tile_is_turned(trace, tmp_path):
    """Deal the second tile of a kind to be turned the colour of the first, consistently in
    every state: our colour model allows one tile per kind and colour."""
    turned = [s["mbt::nondetPicks"]["slot"]["value"] for s in trace["states"] if s["mbt::actionTaken"] == "turnOver"]
    kind = turned[-1]["kind"]
    first, second = [t for t in turned if t["kind"] == kind][:2]
    deal = dict((json.dumps(k, sort_keys=True), v) for k, v in trace["states"][0][PREFIX + "deal"]["#map"])
    old, new = deal[json.dumps(second, sort_keys=True)], deal[json.dumps(first, sort_keys=True)]
    tampered = _replace(_replace(trace, [second, old], [second, new]), {"colour": old, "kind": kind},
                        {"colour": new, "kind": kind})
    assert tampered != trace
    status, line = _verify(tmp_path, tampered)
    assert status == 1
    assert (
        "impossible chance outcome" in line
        and f"reveal {second['owner']['#bigint']}." in line
        and "(trace state" in line
    )


def test_a_wrong_outcome_names_the_clause(trace, tmp_path):
    for s in trace["states"]:
        r = s[PREFIX + "result"]
        if r["tag"] == "Over":
            r["value"]["washers"] = {"#set": [{"#bigint": "0"}, {"#bigint": "1"}]}
    status, line = _verify(tmp_path, trace)
    assert status == 1
    assert "outcome.losers" in line and "[clause dishes.end.most-dishes-loses]" in line
    first = next(i for i, s in enumerate(trace["states"]) if s[PREFIX + "result"]["tag"] == "Over")
    assert line.endswith(
        f"(the outcome recorded at trace state {first}, action {trace['states'][first]['mbt::actionTaken']})"
    )


def test_wrong_dish_counts_are_caught(trace, tmp_path):
    for s in trace["states"]:
        r = s[PREFIX + "result"]
        if r["tag"] == "Over":
            r["value"]["dishes"] = [{"#bigint": "6"}, {"#bigint": "6"}]
    status, line = _verify(tmp_path, trace)
    assert status == 1 and "outcome.scores" in line


def test_a_wrong_board_is_caught_at_its_step(trace, tmp_path):
    i = _first(trace, "placePile")
    board = trace["states"][i][PREFIX + "board"]["#map"]
    pile = next(p for p in board if p[1])
    pile[1].append(copy.deepcopy(pile[1][0]))  # one tile too many
    status, line = _verify(tmp_path, trace)
    assert status == 1
    assert "wrong state" in line and ".places" in line and f"(trace state {i}, action placePile)" in line


def test_a_wrong_turn_is_caught(trace, tmp_path):
    i = _first(trace, "turnOver")
    trace["states"][i][PREFIX + "turn"] = {"#bigint": "0"}
    status, line = _verify(tmp_path, trace)
    assert status == 1 and ".turn: expected 1, found 0" in line and "[clause dishes.play" in line


def test_an_illegal_move_names_the_clause(trace, tmp_path):
    i = _first(trace, "placePile")
    onto = trace["states"][i]["mbt::nondetPicks"]["onto"]["value"]
    onto["kind"] = {"tag": "Knives", "value": {"#tup": []}}  # a place the 2-player game left clean or empty
    onto["owner"] = {"#bigint": "1"}
    status, line = _verify(tmp_path, trace)
    assert status == 1 and "illegal move" in line and "[clause dishes." in line


def test_a_trace_without_its_outcome_gets_ours(trace, tmp_path):
    trace["vars"].remove(PREFIX + "result")
    for s in trace["states"]:
        del s[PREFIX + "result"]
    status, text = _verify(tmp_path, trace, mapping="quint-dishes")
    assert status == 0, text
    assert "not checked: the outcome: the trace records none; ours is loser" in text


def test_a_trace_cut_short_says_the_outcome_was_not_checked(trace, tmp_path):
    trace["states"] = trace["states"][:10]
    status, text = _verify(tmp_path, trace)
    assert status == 0, text
    assert "the outcome: the trace stops before the end of the game" in text
    assert "never turned" in text


def test_an_unknown_source_gets_one_line_pointing_at_the_guide(tmp_path):
    doc = {"#meta": {"format": "ITF"}, "vars": ["board", "who"], "states": [{"board": 1, "who": {"#bigint": "0"}}]}
    status, line = _verify(tmp_path, doc)
    assert status == 2
    assert "\n" not in line
    assert "no mapping recognises it" in line and "lacks deal, clean" in line and "docs/guides/quint.rst" in line


def test_a_trace_without_mbt_metadata_is_refused_in_one_line(trace, tmp_path):
    for s in trace["states"]:
        del s["mbt::actionTaken"]
    trace["vars"].remove("mbt::actionTaken")
    status, line = _verify(tmp_path, trace, mapping="quint-dishes")
    assert status == 2 and "\n" not in line and "mbt::actionTaken" in line


def test_an_action_the_mapping_does_not_know(trace, tmp_path):
    trace["states"][3]["mbt::actionTaken"] = "sweepTable"
    status, line = _verify(tmp_path, trace)
    assert status == 2 and "'sweepTable' is not in mapping quint-dishes [moves]" in line


def test_integers_written_as_bigint_are_read_in_our_own_vectors(tmp_path):
    doc = json.loads((REPO / "vectors" / "dishes" / "2p-3x4-default-s1.itf.json").read_text())
    for s in doc["states"]:
        s["turn"] = {"#bigint": str(s["turn"])}
    status, line = _verify(tmp_path, doc)
    assert status == 0, line
    doc["states"][3]["turn"] = {"#bigint": "7"}
    status, line = _verify(tmp_path, doc)
    assert status == 1 and ".turn" in line


def test_mapping_files_are_checked(tmp_path):
    text = (REPO / "tablerules" / "mappings" / "quint-dishes.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('passTurn = { move = "pass" }', 'passTurn = { move = "pass {x.__class__}" }'))
    with pytest.raises(MappingError, match=r"\[moves\]\.passTurn\.move: template field"):
        load_mapping(str(bad))
    bad.write_text(text.replace('ruleset = "dishes"', ""))
    with pytest.raises(MappingError, match=r"\[mapping\]\.ruleset: missing"):
        load_mapping(str(bad))
    with pytest.raises(MappingError, match="shipped: quint-dishes"):
        load_mapping("no-such-mapping")


@pytest.mark.parametrize("old,new,where", [
    ('losers = "washers"', 'loosers = "washers"', r"\[outcome\]: unknown key 'loosers'"),
    ("[outcome]", "[outcom]", r"mapping .*: unknown key 'outcom'"),
    ('member_value = "clean"', 'member_valeu = "clean"', r"\[state.places\]: unknown key 'member_valeu'"),
    ('name = "quint-dishes"', 'name = "quint-dishes"\nnmae = "x"', r"\[mapping\]: unknown key 'nmae'"),
    ('passTurn = { move = "pass" }', 'passTurn = { mvoe = "pass" }', r"\[moves\]\.passTurn: unknown key 'mvoe'"),
    ('field = "owner"', 'field = "owner"\nkey_of = "board"', r"\[players\]: unknown key 'key_of'"),
])
def test_a_misspelt_key_in_a_mapping_is_named_not_ignored(tmp_path, old, new, where):
    """A key the reader does not know would otherwise drop its check without a word (a
    misspelt `losers` let a wrong outcome through)."""
    text = (REPO / "tablerules" / "mappings" / "quint-dishes.toml").read_text()
    assert old in text
    bad = tmp_path / "typo.toml"
    bad.write_text(text.replace(old, new, 1))
    with pytest.raises(MappingError, match=where) as e:
        load_mapping(str(bad))
    assert "known here:" in str(e.value) and "\n" not in str(e.value)


def test_a_pick_the_mapping_cannot_name_says_where_in_their_trace(trace, tmp_path):
    """An unknown variant tag in a pick: the line names the trace state and action it came
    from and points at the mapping, not only at our translated document."""
    picks = trace["states"][5]["mbt::nondetPicks"]["slot"]["value"]["kind"]
    picks["tag"] = "Spoons"
    status, line = _verify(tmp_path, trace)
    assert status == 2 and "Spoons" in line
    assert "(trace state 5, action turnOver), as translated through mapping quint-dishes" in line


def test_a_bad_mapping_is_one_argument_error_not_one_per_file(tmp_path):
    from tests.tool.runner import run_cli

    r = run_cli("vectors", "verify", "--mapping", "nosuch", str(TRACE), str(TRACE), str(TRACE))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "--mapping: mapping 'nosuch': no such file or shipped mapping" in r.stderr


def test_a_mapping_file_of_ones_own(trace, tmp_path):
    """A user's model with other names: rename a variable and a colour, map them in a copy."""
    text = (REPO / "tablerules" / "mappings" / "quint-dishes.toml").read_text()
    own = tmp_path / "mine.toml"
    own.write_text(text.replace('name = "quint-dishes"', 'name = "mine"').replace('"board"', '"table"')
                   .replace("FourthColour =", "Blue ="))
    raw = json.dumps(trace).replace(PREFIX + "board", "m::table").replace('"FourthColour"', '"Blue"')
    status, text_out = _verify(tmp_path, json.loads(raw), mapping=str(own))
    assert status == 0, text_out
    assert "read through mapping mine" in text_out


def test_the_verify_command_reads_quint_traces(capsys):
    assert vectors_main(["verify", str(TRACE)]) == 0
    out = capsys.readouterr().out
    assert "ok (" in out and "not checked: legal moves" in out
    assert vectors_main(["verify", "--mapping", "quint-dishes", str(TRACE)]) == 0


def test_a_board_changed_in_the_stuttering_game_over_steps_is_caught(trace, tmp_path):
    """gameOver is dropped (over = true), yet checked: the board it shows must be the board after the last move."""
    first = _first(trace, "gameOver")
    for s in trace["states"][first:]:
        pile = next(p for p in s[PREFIX + "board"]["#map"] if len(p[1]) >= 2)
        pile[1].append(pile[1].pop(0))
    status, line = _verify(tmp_path, trace)
    assert status == 1 and "wrong state" in line
    assert f"(trace state {first}, action gameOver: a step mapping quint-dishes drops, so it must change " in line


def test_a_game_over_while_moves_remain_names_the_end_clause(trace, tmp_path):
    cut = 6
    stutter = copy.deepcopy(trace["states"][cut])
    stutter["mbt::actionTaken"] = "gameOver"
    stutter["mbt::nondetPicks"] = {k: {"tag": "None", "value": {"#tup": []}} for k in stutter["mbt::nondetPicks"]}
    trace["states"] = trace["states"][:cut + 1] + [stutter]
    status, line = _verify(tmp_path, trace)
    assert status == 1 and "[clause dishes.end.no-moves]" in line and "trace state 7, action gameOver" in line
