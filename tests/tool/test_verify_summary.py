"""`vectors verify`'s summary counts the steps it replayed, not the steps the files hold."""

from __future__ import annotations

import json
from pathlib import Path

from tests.tool.runner import run_cli

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "vectors" / "just-desserts" / "2p-jd-crowd-default-s1.itf.json"


def test_a_replay_that_stops_at_step_7_counts_6_steps_replayed(tmp_path):
    doc = json.loads(GOLDEN.read_text())
    moves = len(doc["states"]) - 1
    seventh = doc["states"][7]["#meta"]
    seventh["move"] = "draw SPONGE" if seventh["move"] != "draw SPONGE" else "draw FRUIT_TART"  # a guest is due here
    bad = tmp_path / "bad.itf.json"
    bad.write_text(json.dumps(doc))
    r = run_cli("vectors", "verify", str(bad), str(GOLDEN))
    assert r.returncode == 1
    assert f"2 files, {moves + 6} steps replayed: 1 passed, 1 failed" in r.stdout + r.stderr
    r = run_cli("vectors", "verify", "--json", str(bad))
    assert json.loads(r.stdout)["summary"]["steps"] == 6


def test_a_log_naming_a_place_the_table_lacks_is_told_so():
    golden = sorted((REPO / "vectors" / "dishes").glob("2p-3x4-*.itf.json"))[0]
    doc = json.loads(golden.read_text())
    step = next(i for i, s in enumerate(doc["states"]) if s["#meta"].get("move", "").startswith("turn "))
    doc["states"][step]["#meta"]["move"] = "turn 0.soup"
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".itf.json", delete=False) as f:
        json.dump(doc, f)
    r = run_cli("vectors", "verify", f.name)
    assert r.returncode == 1
    assert (
        f"step {step}" in r.stderr
        and "unknown place 0.soup" in r.stderr
        and "[clause dishes.components.tiles]" in r.stderr
    )
