"""`tablerules conform RULESET --engine CMD --replay VECTOR`: one written vector (a golden vector of
vectors/, or the failing game --out-itf wrote) played against the engine again: the same difference
after the same moves, or "conformant" for an engine that plays it as our rules do; a bad vector file
is one line and exit status 2."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tablerules.vectors import record_game, trace_document
from tablerules.model import registry
from tests.tool.runner import one_line_error, run_cli

REPO = Path(__file__).resolve().parents[2]
FAULT = "reference --mutant dishes:m1e1b4e0c"  # placing ignores whether the two tiles match (a planted fault)


def _errors(stderr: str) -> str:
    return "\n".join(x for x in stderr.splitlines() if not x.startswith("conform: "))


@pytest.mark.slow  # a failing run found and shrunk, then replayed twice
def test_the_failing_game_written_by_a_run_shows_the_same_difference_when_replayed(tmp_path):
    vector = tmp_path / "failing.itf.json"
    found = run_cli("conform", "dishes", "--engine", FAULT, "--games", "2", "--steered", "0", "--no-vectors",
                    "--shrink-games", "3", "--out-itf", str(vector), "--json", cwd=tmp_path)
    assert found.returncode == 1, found.stderr[-2000:]
    first = json.loads(found.stdout)["difference"]
    again = run_cli("conform", "dishes", "--engine", FAULT, "--replay", str(vector), "--json", cwd=tmp_path)
    assert again.returncode == 1, again.stderr[-2000:]
    doc = json.loads(again.stdout)
    diff = doc["difference"]
    assert doc["replay"] == str(vector) and doc["games"]["vectors"]["played"] == 1
    assert {k: diff[k] for k in ("step", "aspect", "clause", "ours", "theirs", "moves")} == \
           {k: first[k] for k in ("step", "aspect", "clause", "ours", "theirs", "moves")}
    assert diff["vector"] is None and sorted(p.name for p in tmp_path.iterdir()) == ["failing.itf.json"]
    fixed = run_cli("conform", "dishes", "--engine", "reference", "--replay", str(vector), cwd=tmp_path)
    assert fixed.returncode == 0 and "conformant: the engine plays the vector as our rules do" in fixed.stdout


def test_a_golden_vector_replays_against_the_reference_engine(tmp_path):
    vector = sorted((REPO / "vectors" / "just-desserts").glob("*.itf.json"))[0]
    r = run_cli("conform", "just-desserts", "--engine", "reference", "--replay", str(vector), "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    doc = json.loads(r.stdout)
    moves = len(json.loads(vector.read_text())["states"]) - 1
    assert doc["games"]["vectors"] == {"played": 1, "moves": moves, "skipped": 0, "unfinished": 0}


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_bad_vector_files_are_one_line_and_exit_2(tmp_path):
    rules = registry.get("dishes")
    setup = rules.setup(2)
    good = trace_document(record_game(rules, setup, ["turn 0.dessert"]), description="one move")
    wrong_move = json.loads(json.dumps(good))
    wrong_move["states"][1]["#meta"]["move"] = "turn 1.dessert"  # not seat 0's tile: not a move of ours there
    cases = {
        "not JSON": (_write(tmp_path, "a.json", "{"), "not valid JSON"),
        "missing": (str(tmp_path / "nothing.json"), "No such file"),
        "another rule set": (str(sorted((REPO / "vectors" / "just-desserts").glob("*.itf.json"))[0]),
                             "a vector of just-desserts, not of dishes"),
        "not a trace": (_write(tmp_path, "b.json", json.dumps({"states": []})), "$"),
        "moves not ours": (_write(tmp_path, "c.json", json.dumps(wrong_move)), "its moves are not choices of our"),
    }
    for what, (path, says) in cases.items():
        r = run_cli("conform", "dishes", "--engine", "reference", "--replay", path, cwd=tmp_path)
        assert r.returncode == 2, (what, r.stdout[-500:], r.stderr[-2000:])
        line = one_line_error(_errors(r.stderr))
        assert f"--replay {path}: " in line and says in line, (what, line)


def test_replay_plays_the_vectors_own_setup_and_writes_nothing(tmp_path):
    vector = str(sorted((REPO / "vectors" / "dishes").glob("*.itf.json"))[0])
    for extra in (["--players", "3"], ["--ruling", "tie-for-most=no-loser"], ["--out-itf", "x.json"]):
        r = run_cli("conform", "dishes", "--engine", "reference", "--replay", vector, *extra, cwd=tmp_path)
        assert r.returncode == 2 and f"drop {extra[0]}" in one_line_error(r.stderr), r.stderr


def test_an_engine_that_declines_the_vectors_setup_leaves_the_replay_incomplete(tmp_path):
    vector = next(p for p in sorted((REPO / "vectors" / "dishes").glob("2p-*.itf.json")))
    engine = f"{sys.executable} {Path(__file__).with_name('declining_engine.py')} 2"
    r = run_cli("conform", "dishes", "--engine", engine, "--replay", str(vector), cwd=tmp_path)
    assert r.returncode == 3 and "incomplete: the engine declined" in r.stdout, r.stdout[-2000:] + r.stderr


@pytest.mark.parametrize("kind", ["garbage", "crash"])
def test_a_broken_engine_on_replay_is_exit_2(tmp_path, kind):
    vector = str(sorted((REPO / "vectors" / "dishes").glob("*.itf.json"))[0])
    engine = f"{sys.executable} {Path(__file__).with_name('broken_engine.py')} {kind}"
    r = run_cli("conform", "dishes", "--engine", engine, "--replay", vector, cwd=tmp_path)
    assert r.returncode == 2 and "engine protocol" in one_line_error(_errors(r.stderr))
