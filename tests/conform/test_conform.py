"""`tablerules conform`: the reference engine conforms; planted faults are caught and shrunk,
and the shrunk game is an ITF vector naming the clause; protocol violations give exit 2 in
one line; a hang stops the run incomplete (exit 3), never with a verdict."""

from __future__ import annotations

import json
import os
import sys
import time
from fractions import Fraction
from pathlib import Path

import jsonschema
import pytest

from tablerules.conform.games import Game, play
from tablerules.conform.planted import FAULTS, faults
from tablerules.conform.protocol import PROTOCOL
from tablerules.conform.reference_engine import Server, _unwrap
from tablerules.conform.run import Budget, conform
from tablerules.model import registry
from tablerules.spec.loader import load_spec
from tablerules.vectors import verify_document
from tests.conform.engines import LocalEngine
from tests.tool.runner import interrupt_after, one_line_error, run_cli

REPO = Path(__file__).resolve().parents[2]
ENGINES = Path(__file__).with_name("broken_engine.py")
PROTOCOL_SCHEMA = json.loads((REPO / "spec" / "conform-protocol.schema.json").read_text())


def _broken(kind: str) -> str:
    return f"{sys.executable} {ENGINES} {kind}"


# --------------------------------------------------------------------------- the protocol


def test_every_line_the_reference_engine_exchanges_fits_the_protocol_schema():
    engine = LocalEngine()
    rules = registry.get("just-desserts")
    setup = rules.setup(2)
    played = play(rules, engine, Game("random", setup, None, 3))
    assert played.difference is None and played.finished
    validator = jsonschema.Draft202012Validator(PROTOCOL_SCHEMA)
    ops = set()
    for request, reply in engine.log:
        validator.validate(request)
        validator.validate(reply)
        ops.add(request["op"])
    assert ops == {"new_game", "to_move", "legal_moves", "chance_outcomes", "apply", "observation", "outcome"}
    hello = _unwrap(Server().answer({"op": "hello", "protocol": PROTOCOL}))
    validator.validate(hello)
    assert hello["protocol"] == PROTOCOL


def test_a_tampered_reply_is_a_difference_naming_a_clause_and_shrinks_to_a_replayable_game():
    def tamper(request, reply, server):  # a placement is never offered (dishes.play.place-match)
        if request["op"] == "legal_moves":
            reply = {**reply, "moves": [m for m in reply["moves"] if not m.startswith("place")]}
        return reply

    rules = registry.get("dishes")
    setup = rules.setup(2, components=rules.load_components("3x4"))
    out = conform(rules, setup, "3x4", LocalEngine(tamper), Budget(games=3, steered=0, vectors=False))
    diff = out.difference
    assert diff is not None and diff.aspect == "legal moves" and diff.clause in load_spec("dishes").clauses
    assert diff.ours.startswith("allow 'place")
    assert out.shrunk.played.difference.step <= out.failing.difference.step
    again = play(rules, LocalEngine(tamper), out.shrunk.played.game)
    assert again.difference is not None and again.difference.step == diff.step
    assert play(rules, LocalEngine(), out.shrunk.played.game).difference is None  # the fault, not the game


def test_a_wrong_probability_is_found_exactly():
    def tamper(request, reply, server):
        if request["op"] == "chance_outcomes" and len(reply.get("outcomes", [])) > 1:
            outs = [list(p) for p in reply["outcomes"]]
            outs[0][1] = "1/1000"
            reply = {**reply, "outcomes": outs}
        return reply

    rules = registry.get("dishes")
    out = conform(rules, rules.setup(2), None, LocalEngine(tamper), Budget(games=1, steered=0, vectors=False,
                                                                           shrink_games=50))
    assert out.difference.aspect == "probability" and "1/1000" in out.difference.theirs


# --------------------------------------------------------------------------- the command


def test_the_reference_engine_conforms(tmp_path):
    r = run_cli("conform", "dishes", "--engine", "reference", "--games", "3", "--steered", "2", cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "conformant: no difference" in r.stdout
    assert "vectors" in r.stdout and not list(tmp_path.iterdir())  # nothing written when nothing differs


def test_an_engine_that_is_told_the_chance_outcomes_conforms_too(tmp_path):
    r = run_cli("conform", "just-desserts", "--engine", "reference --chance told", "--games", "2", "--steered", "0",
                "--no-vectors", cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]


def _check_caught(tmp_path, fault, *quick):
    vector = tmp_path / "fail.itf.json"
    r = run_cli("conform", fault.ruleset, "--engine", fault.command(), "--out-itf", str(vector), "--json", *quick,
                cwd=tmp_path, timeout=600)
    assert r.returncode == 1, r.stderr[-2000:]
    doc = json.loads(r.stdout)
    diff = doc["difference"]
    assert diff["shrunk_moves"] <= diff["found_after_moves"] and diff["shrunk_moves"] == len(diff["moves"])
    trace = json.loads(vector.read_text())
    meta = trace["#meta"]
    assert meta["generator"]["kind"] == "finding" and meta["generator"]["clause"] == diff["clause"]
    assert diff["clause"] in load_spec(fault.ruleset).clauses or ".ruling." in diff["clause"]
    assert meta["steps"] == diff["shrunk_moves"] and f"[{diff['clause']}]" in meta["note"]
    assert verify_document(trace) is None  # a game of our rules: it verifies


@pytest.mark.slow
def test_a_planted_fault_is_caught_shrunk_and_written_as_a_vector_naming_the_clause(tmp_path):
    _check_caught(tmp_path, faults("dishes")[0], "--games", "2", "--steered", "0", "--no-vectors")


def test_the_planted_faults_cover_a_clause_family_each():
    for ruleset in ("dishes", "just-desserts", "just-desserts-2.3"):
        families = [f.family for f in faults(ruleset)]
        assert len(families) == len(set(families)) >= 5
        ids = set(load_spec(ruleset).clauses) | set(load_spec(ruleset).rulings)
        assert all(any(i.startswith(f + ".") for i in ids) for f in families)


# --------------------------------------------------------------------------- broken engines


@pytest.mark.parametrize("kind, says", [("garbage", "reply to new_game: not JSON"),
                                        ("crash", "the engine exited (status 7) while asked new_game"),
                                        ("no-key", "reply to to_move: the key 'to_move' is missing")])
def test_protocol_garbage_gives_exit_2_in_one_line(tmp_path, kind, says):
    r = run_cli("conform", "dishes", "--engine", _broken(kind), cwd=tmp_path)
    assert r.returncode == 2
    line = one_line_error(_errors(r.stderr))
    assert says in line, line
    if kind == "crash":
        assert "something went wrong" in line


def test_the_last_words_of_an_engine_that_exited_are_quoted_however_late_they_are_read(monkeypatch):
    """An engine that exits has written its last words; the thread that reads its standard error may not have
    read them yet (a busy machine): the message waits for the stream's end and quotes them."""
    from tablerules.conform import client

    read = client._Tail._read

    def late(self):
        time.sleep(1.5)  # the reader starts after the engine has exited
        read(self)

    monkeypatch.setattr(client._Tail, "_read", late)
    engine = client.ProcessEngine(_broken("crash"))
    try:
        with pytest.raises(client.ProtocolError) as said:
            engine.ask({"op": "new_game"})
    finally:
        engine.close()
    assert "the engine exited (status 7) while asked new_game" in str(said.value)
    assert "its last words: engine: something went wrong" in str(said.value), str(said.value)


@pytest.mark.parametrize("kind, says", [
    ("nested", "reply to new_game: nested too deeply to read"),
    ("long", "reply to new_game: longer than 67,108,864 bytes"),
    ("chatty", "exited (status 7) while asked new_game; its last words: engine: out of patience"),
])
def test_a_hostile_reply_is_one_line_and_exit_2(tmp_path, kind, says):
    """A reply nested past any reader's recursion; one longer than the limit (read in time in proportion
    to its length, so it is not mistaken for a hang); an engine that writes 64 MB on standard error is
    kept to its last lines, which the message quotes."""
    r = run_cli("conform", "dishes", "--engine", _broken(kind), "--reply-seconds", "60", cwd=tmp_path)
    assert r.returncode == 2, r.stderr[-2000:]
    assert says in one_line_error(_errors(r.stderr))


@pytest.mark.parametrize("text", ["-1/4", "5/4", "0.25", "1e-1", "one"])
def test_a_probability_is_an_exact_fraction_from_0_to_1(text):
    from tablerules.conform.protocol import ProtocolError, fraction_of

    with pytest.raises(ProtocolError, match="expected an exact probability from 0 to 1"):
        fraction_of(text, "outcomes[0][1]")
    assert fraction_of("1/4", "x") == Fraction(1, 4) and fraction_of("0", "x") == 0 and fraction_of("1", "x") == 1


def test_an_engine_that_hangs_in_hello_is_not_left_running(tmp_path):
    import subprocess

    r = run_cli("conform", "dishes", "--engine", _broken("hang-hello"), "--reply-seconds", "2", cwd=tmp_path)
    assert r.returncode == 3 and "did not answer hello" in r.stdout + r.stderr, r.stderr[-2000:]
    left = subprocess.run(["pgrep", "-f", "broken_engine.py hang-hello"], capture_output=True, text=True).stdout
    assert not left.strip(), f"the engine is still running: {left}"


def _errors(stderr: str) -> str:
    """Standard error without the progress lines (`conform: ...`)."""
    return "\n".join(x for x in stderr.splitlines() if not x.startswith("conform: "))


def test_an_engine_that_cannot_start_gives_exit_2_in_one_line(tmp_path):
    r = run_cli("conform", "dishes", "--engine", "/nonexistent/engine --stdio", cwd=tmp_path)
    assert r.returncode == 2 and "cannot start it" in one_line_error(_errors(r.stderr))


def test_a_hanging_engine_stops_the_run_incomplete_not_with_a_verdict(tmp_path):
    r = run_cli("conform", "dishes", "--engine", _broken("hang"), "--reply-seconds", "2", "--json", cwd=tmp_path)
    assert r.returncode == 3, r.stderr[-2000:]
    doc = json.loads(r.stdout)
    assert doc["difference"] is None and not doc["complete"] and "did not answer new_game" in doc["stopped"]


def test_engine_or_planted_faults_is_required(tmp_path):
    r = run_cli("conform", "dishes", cwd=tmp_path)
    assert r.returncode == 2 and "--engine" in one_line_error(r.stderr)


# --------------------------------------------------------------------------- OpenSpiel


def test_the_projects_own_openspiel_adapter_conforms(tmp_path):
    if os.environ.get("TABLERULES_REQUIRE_OPENSPIEL") != "1":
        pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install '.[openspiel]')")
    r = run_cli("conform", "dishes", "--engine", "openspiel:tablerules_dishes(players=2)", "--games", "3",
                "--steered", "1", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    doc = json.loads(r.stdout)
    # outside a checkout the vectors are the packaged witnesses: those of the string's setup played, the others
    # (other player counts, strict alternatives) declined
    assert doc["games"]["vectors"]["played"] > 0 and doc["games"]["vectors"]["skipped"] > 0


def test_a_time_limit_stops_the_run_incomplete(tmp_path):
    r = run_cli("conform", "dishes", "--engine", "reference", "--games", "100000", "--max-seconds", "1", "--json",
                cwd=tmp_path)
    assert r.returncode == 3, r.stderr[-2000:]
    doc = json.loads(r.stdout)
    assert doc["stopped"].startswith("--max-seconds") and doc["difference"] is None
    assert doc["games"]["random"]["played"] < 100000


def test_ctrl_c_ends_the_run_with_its_status_and_one_line(tmp_path):
    code, _, err = interrupt_after(["conform", "dishes", "--engine", "reference", "--games", "100000"],
                                   "random games agree", cwd=tmp_path)
    assert code == 130 and "Traceback" not in err
    assert [x for x in err.splitlines() if x.startswith("tablerules:")] == ["tablerules: interrupted (Ctrl-C)"]


# --------------------------------------------------------------------------- the guide


def _table_rows(text: str) -> list[list[str]]:
    rows = [line.split() for line in text.splitlines()]
    return [row for row in rows if row and row[0].startswith(("dishes.", "jd.", "jd23."))]


@pytest.mark.slow
def test_the_guides_table_of_planted_faults_is_what_the_command_prints(tmp_path):
    """docs/guides/conform-planted.txt is the output of `tablerules conform RULESET --planted-faults`
    for each rule set: every fault caught, with the same lengths and clauses (each fault once: the
    vector a caught fault writes is checked on one fault, above)."""
    shown = _table_rows((REPO / "docs" / "guides" / "conform-planted.txt").read_text())
    fresh = []
    for ruleset in ("dishes", "just-desserts", "just-desserts-2.3"):
        # from the checkout's root, where an installed package finds the golden vectors too
        r = run_cli("conform", ruleset, "--planted-faults", cwd=REPO, timeout=1200)
        assert r.returncode == 0, r.stderr[-2000:]
        assert f"{len(faults(ruleset))} of {len(faults(ruleset))} caught" in r.stdout
        fresh += _table_rows(r.stdout)
    assert fresh == shown and len(shown) == len(FAULTS)


# --------------------------------------------------------------------------- any choice sequence

from hypothesis import assume, given, settings, strategies as st  # noqa: E402

from tablerules.conform.shrink import shrink  # noqa: E402


def _no_place(request, reply, server):  # a fault: no placement is ever offered
    if request["op"] == "legal_moves":
        reply = {**reply, "moves": [m for m in reply["moves"] if not m.startswith("place")]}
    return reply


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 40), max_size=60), st.sampled_from(["dishes", "just-desserts"]))
def test_any_choice_sequence_plays_the_same_on_the_reference_engine(choices, ruleset):
    rules = registry.get(ruleset)
    game = Game("drawn", rules.setup(2), None, 0, choices, stop_at_end=True)
    played = play(rules, LocalEngine(), game)
    assert played.difference is None and len(played.moves) <= len(choices)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=1, max_size=60))
def test_a_shrunk_game_still_fails_and_is_never_longer(choices):
    rules = registry.get("dishes")
    setup = rules.setup(2, components=rules.load_components("3x4"))
    played = play(rules, LocalEngine(_no_place), Game("drawn", setup, "3x4", 0, choices))
    assume(played.difference is not None)
    shrunk = shrink(rules, LocalEngine(_no_place), played, budget=60)
    assert shrunk.played.difference is not None and shrunk.games <= 60
    assert shrunk.played.difference.step <= played.difference.step
    again = play(rules, LocalEngine(_no_place), shrunk.played.game)
    assert again.difference is not None and again.difference.step == shrunk.played.difference.step


def test_an_unwritable_out_itf_is_refused_before_the_run(tmp_path):
    r = run_cli("conform", "dishes", "--engine", "reference", "--out-itf", str(tmp_path / "no" / "such" / "x.json"),
                cwd=tmp_path)
    assert r.returncode == 2 and "--out-itf" in one_line_error(_errors(r.stderr)) and "conform: random" not in r.stderr


def test_an_engine_that_declines_the_requested_setup_is_not_called_conformant(tmp_path):
    """Only the vectors of other setups were played: the run says so and is incomplete (exit 3), not exit 0."""
    engine = f"{sys.executable} {Path(__file__).with_name('declining_engine.py')} 3"
    r = run_cli("conform", "dishes", "--players", "3", "--engine", engine, "--games", "3", "--steered", "1",
                cwd=tmp_path, timeout=600)
    assert r.returncode == 3, r.stdout[-2000:] + r.stderr[-2000:]
    assert "declined every game of the requested setup" in r.stdout
