"""Everything an engine sends is read strictly: a 5,000-digit integer, a key twice in one object and a
probability in any form but the schema's ASCII ``p/q`` are protocol violations (exit status 2, one line
naming the JSON path), never a traceback nor a rules difference; a deck whose card ids no move text can
carry is refused before the run; an observation that differs is reported under the clause of what
differs there (or under no clause), not under the first clause of the step."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path

import jsonschema
import pytest

from tablerules.conform.formats import NO_CLAUSE
from tablerules.conform.games import Game, play
from tablerules.conform.protocol import ProtocolError, fraction_of, protocol_schema, read_reply
from tablerules.model import registry
from tests.conform.engines import LocalEngine
from tests.tool.runner import one_line_error, run_cli

REPO = Path(__file__).resolve().parents[2]
TAMPERING = Path(__file__).with_name("tampering_engine.py")


def _tampered(kind: str) -> str:
    return f"{sys.executable} {TAMPERING} {kind}"


def _errors(stderr: str) -> str:
    return "\n".join(x for x in stderr.splitlines() if not x.startswith("conform: "))


# --------------------------------------------------------------------------- whole runs


@pytest.mark.parametrize("kind, says", [
    ("big-int", "reply to observation: $.observation.seat: the integer 999999999999... (5,000 digits) is beyond"),
    ("twice", "reply to to_move: $.to_move: this key appears twice in one object"),
    ("arabic", 'reply to chance_outcomes: $.outcomes[0][1]: expected an exact probability from 0 to 1 written in '
               'ASCII digits as "p/q"'),
])
def test_a_reply_out_of_the_protocol_is_exit_2_naming_its_json_path(tmp_path, kind, says):
    """Before: a traceback (5,000 digits: Python's integer limit), a rules difference (the key twice: exit
    status 1) or a conformant run (Arabic digits)."""
    ruleset = "just-desserts" if kind == "arabic" else "dishes"  # the first chance event with two outcomes or more
    r = run_cli("conform", ruleset, "--engine", _tampered(kind), "--games", "1", "--steered", "0", "--no-vectors",
                cwd=tmp_path)
    assert r.returncode == 2, r.stdout[-2000:] + r.stderr[-2000:]
    line = one_line_error(_errors(r.stderr))
    assert says in line, line
    assert not list(tmp_path.iterdir())  # nothing written


@pytest.mark.parametrize("text", ["١/٤", " 1/4 ", "1_0/4_0", "+1/4", "1/4\n", "1/0", "0x1/4", "1" * 101, "1/-4",
                                  "²/⁴", "1/4/4", "", 0.25, 1, None])
def test_a_probability_is_the_schemas_ascii_fraction_and_nothing_else(text):
    with pytest.raises(ProtocolError, match=r"^\$\.outcomes\[0\]\[1\]: expected an exact probability from 0 to 1"):
        fraction_of(text, "$.outcomes[0][1]")


@pytest.mark.parametrize("text, value", [("1/4", Fraction(1, 4)), ("0", 0), ("1", 1), ("3/3", 1), ("0/7", 0),
                                         ("2/8", Fraction(1, 4)), ("1" * 100 + "/" + "1" * 100, 1)])
def test_the_fractions_the_schema_allows_are_read(text, value):
    assert fraction_of(text, "x") == value


@pytest.mark.parametrize("text", ["١/٤", " 1/4 ", "1_0/4_0", "+1/4", "1/4", "0", "1" * 101, "1/0"])
def test_fraction_of_agrees_with_the_protocols_json_schema(text):
    """The driver validates a probability by the schema's own pattern: what the schema refuses, it refuses
    (and it also refuses the values the pattern cannot see: a zero denominator, more than 1)."""
    schema = {**protocol_schema(), "$ref": "#/$defs/fraction"}
    schema.pop("oneOf")
    schema_says = jsonschema.Draft202012Validator(schema).is_valid(text)
    try:
        fraction_of(text, "x")
        ours = True
    except ProtocolError:
        ours = False
    assert ours == (schema_says and text != "1/0")


@pytest.mark.parametrize("line, says", [
    (b'{"ok": true, "n": 1' + b"0" * 5000 + b"}", "$.n: the integer 100000000000... (5,001 digits) is beyond"),
    (b'{"ok": true, "a": [{"b": 1, "b": 2}]}', "$.a[0].b: this key appears twice"),
    (b'{"ok": true, "x": NaN}', "$.x: NaN is not JSON"),
    (b'{"ok": true, "x": -Infinity}', "$.x: -Infinity is not JSON"),
    (b'{"ok": true, "x": 1e400}', "$.x: the number 1e400 is too large"),
    (b'{"ok": true, "p": {"0.soup": 9007199254740992}}', '$.p["0.soup"]: the integer'),
    (b'{"ok": true, "t": "\xff"}', "not JSON"),
])
def test_a_reply_is_read_strictly_naming_the_path(line, says):
    with pytest.raises(ProtocolError) as caught:
        read_reply(line, "observation")
    assert str(caught.value).startswith("reply to observation: ") and says in str(caught.value), str(caught.value)


def test_a_plain_reply_reads_as_json():
    assert read_reply(b'{"ok": true, "n": -9007199254740991, "x": 0.5, "s": "\\u00e9"}', "x") == {
        "ok": True, "n": -(2**53 - 1), "x": 0.5, "s": "é"}


# --------------------------------------------------------------------------- decks a move cannot name


def _deck_with(tmp_path, dessert_id: str) -> Path:
    deck = json.loads((REPO / "spec" / "decks" / "jd-two-suits.json").read_text())
    old = deck["desserts"][0]["id"]
    deck["desserts"][0]["id"] = dessert_id
    for guest in deck["guests"]:
        guest["favorites"] = [dessert_id if f == old else f for f in guest.get("favorites", [])]
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(deck))
    return path


@pytest.mark.parametrize("dessert", ["A+B", "APPLE PIE"])
def test_a_deck_whose_dessert_id_no_move_can_carry_is_refused_in_one_line(tmp_path, dessert):
    """Before: `draw A+B` read back as two desserts, a traceback in the middle of the run.  (The deck
    reader may refuse such an id itself; conform refuses it either way, naming the file and the card.)"""
    deck = _deck_with(tmp_path, dessert)
    r = run_cli("conform", "just-desserts", "--deck", str(deck), "--engine", "reference", "--games", "1",
                "--steered", "0", "--no-vectors", cwd=tmp_path)
    assert r.returncode == 2, r.stderr[-2000:]
    line = one_line_error(_errors(r.stderr))
    assert repr(dessert) in line and str(deck) in line, line


@pytest.mark.parametrize("dessert, guest, says", [
    ("A+B", "G", "dessert 'A+B': its id holds '+', which joins the desserts of a serving"),
    ("A\tB", "G", "dessert 'A\\tB': its id holds '\\t', which separates the words of a move"),
    ("A", "THE GUEST", "guest 'THE GUEST': its id holds ' '"),
])
def test_a_card_no_move_text_can_name_is_found(dessert, guest, says):
    from types import SimpleNamespace

    from tablerules.conform.protocol import unnamable_card

    deck = SimpleNamespace(desserts=[SimpleNamespace(id="SPONGE"), SimpleNamespace(id=dessert)],
                           guests=[SimpleNamespace(id="A+B"), SimpleNamespace(id=guest)])
    problem = unnamable_card(deck, "--deck d.json")
    assert problem.startswith("--deck d.json: ") and says in problem, problem
    assert unnamable_card(registry.get("just-desserts").default_components(), "x") is None
    assert unnamable_card(registry.get("dishes").default_components(), "x") is None  # tiles: no ids


# --------------------------------------------------------------------------- the clause of an observation


def _first_difference(ruleset: str, tamper, players: int = 2, **options):
    rules = registry.get(ruleset)
    setup = rules.setup(players)
    played = play(rules, LocalEngine(tamper), Game("random", setup, None, 1))
    assert played.difference is not None
    return played.difference


def _observing(change):
    def tamper(request, reply, server):
        if request["op"] == "observation" and reply.get("ok"):
            reply = {**reply, "observation": change(json.loads(json.dumps(reply["observation"])))}
        return reply
    return tamper


def test_a_leak_of_a_clean_tiles_colour_is_reported_under_hidden_backs():
    """Before: under dishes.setup.deal-one-of-each, the first clause of the start, whatever differed."""
    def leak(seen):
        seen["places"] = {p: ("clean (red)" if v == "clean" else v) for p, v in seen["places"].items()}
        return seen

    diff = _first_difference("dishes", _observing(leak))
    assert diff.step == 0 and diff.aspect == "observation of seat 0"
    assert diff.clause == "dishes.setup.hidden-backs", diff.text()
    assert '$.places["0.dessert"]' in diff.ours


def test_a_key_the_observation_format_lacks_is_reported_under_no_clause():
    diff = _first_difference("dishes", _observing(lambda seen: {**seen, "colours": {"0.soup": "red"}}))
    assert diff.clause == NO_CLAUSE and "[no clause]" in diff.text() and "$.colours" in diff.ours


def test_hands_shown_too_soon_are_reported_under_the_open_hands_ruling():
    diff = _first_difference("just-desserts", _observing(lambda seen: {**seen, "open_hands": [["SPONGE"], []]}))
    assert diff.clause == "jd.ruling.open-hands", diff.text()


# --------------------------------------------------------------------------- the clause of who moves


def _to_move_as(change):
    def tamper(request, reply, server):
        if request["op"] == "to_move":
            reply = {**reply, "to_move": change(reply["to_move"], server)}
        return reply
    return tamper


def test_another_first_seat_is_reported_under_the_first_player_clause():
    """Before: under dishes.setup.deal-one-of-each (the first clause of the start), as every difference there."""
    diff = _first_difference("dishes", _to_move_as(lambda said, server: "seat 1" if said == "seat 0" else said))
    assert diff.step == 0 and diff.aspect == "to move" and diff.clause == "dishes.play.first-player", diff.text()


def test_another_seat_after_a_move_is_reported_under_the_turn_order():
    """Before: under the first clause of the move just played (dishes.play.place-dirty after a placement)."""
    def after_a_placement(said, server):
        placed = any(not isinstance(p, (type(None), tuple)) or (isinstance(p, tuple) and len(p) > 1)
                     for p in server.state.places)
        return "seat 0" if placed and said == "seat 1" else said

    diff = _first_difference("dishes", _to_move_as(after_a_placement))
    assert diff.aspect == "to move" and diff.clause == "dishes.play.clockwise", diff.text()
