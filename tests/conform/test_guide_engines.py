"""The guide's minimal engines (docs/guides/engines/: one per rule set, sharing one protocol loop and
one stand-in for the rules) conform: a quick run of each here, every golden vector and witness in
the slow tier.  They write the move texts and observations by hand, so this is also a check that
the guide's formats are what the driver compares."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from tests.tool.runner import run_cli

ENGINES = Path(__file__).resolve().parents[2] / "docs" / "guides" / "engines"
PROGRAMS = {"dishes": "dishes.py", "just-desserts": "just_desserts.py", "just-desserts-2.3": "just_desserts_2_3.py"}


def _engine(ruleset: str) -> str:
    return f"{sys.executable} {ENGINES / PROGRAMS[ruleset]}"


@pytest.mark.parametrize("ruleset", sorted(PROGRAMS))
def test_each_minimal_engine_conforms(tmp_path, ruleset):
    r = run_cli("conform", ruleset, "--engine", _engine(ruleset), "--games", "2", "--steered", "1", "--no-vectors",
                cwd=tmp_path)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "conformant: no difference within the budget" in r.stdout and f"minimal {ruleset} engine" in r.stdout


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", sorted(PROGRAMS))
def test_each_minimal_engine_conforms_on_every_golden_vector_and_witness(tmp_path, ruleset):
    r = run_cli("conform", ruleset, "--engine", _engine(ruleset), "--games", "3", "--steered", "2", cwd=tmp_path,
                timeout=900)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]


def test_the_engines_share_one_loop_and_one_stand_in():
    """No copy-paste between rule sets: each engine is its formats (move_text, observation) and a line
    that hands them to the shared loop; only protocol_loop.py reads or writes the protocol."""
    for program in PROGRAMS.values():
        tree = ast.parse((ENGINES / program).read_text())
        imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names
                    if n.module in ("protocol_loop", "standin")}
        assert imported == {"serve", "StandIn"}, program
        functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        assert {"move_text", "observation"} <= functions and not functions & {"answer", "serve", "new_game", "apply"}
        text = (ENGINES / program).read_text()
        assert "import json" not in text and "sys.stdin" not in text
