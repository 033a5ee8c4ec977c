"""The independent readings stay independent: they import nothing of tablerules (in particular
nothing of the model, the spec or the proofs), and each keeps the brief its author was given,
unchanged."""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path

import pytest

from tablerules.lockstep.readings import READINGS

REPO = Path(__file__).resolve().parents[2]
FOLDERS = sorted({name.rsplit(".", 1)[-1] for name in READINGS.values()})
BRIEFS = {
    "just_desserts": "efe619224debe073f0386c64254f78a59e1395521f954f1470f9008cbbc23d7c",
    "just_desserts_v23": "31496c510029928fa5715aeac10c11b0ac6db43e27f3d287fa9efba4d0e102b4",
    "dishes": "cf344ccd41a253b60e969aed4dbaa898fa3b4a63997f9ebde5ab079887379487",
}
"""SHA-256 of each BRIEF.md as its author was given it: the brief is kept verbatim."""


def imports(source: str) -> list[tuple[int, str, int]]:
    """(line, module, level) of every import statement."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name, 0) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            out.append((node.lineno, node.module or "", node.level))
    return out


@pytest.mark.parametrize("folder", FOLDERS)
def test_a_reading_imports_only_the_standard_library_and_itself(folder):
    import sys

    wrong = []
    for path in sorted((REPO / "readings" / folder).rglob("*.py")):
        for line, module, level in imports(path.read_text(encoding="utf-8")):
            top = module.split(".")[0]
            if level == 0 and (top not in sys.stdlib_module_names or top == "tablerules"):
                wrong.append(f"{path.relative_to(REPO)}:{line}: import {module}")
            if level > 1:
                wrong.append(f"{path.relative_to(REPO)}:{line}: reaches outside its package ({'.' * level}{module})")
    assert not wrong, ("a reading must not import the model, spec, proofs or anything outside itself:\n"
                       + "\n".join(wrong))


def test_the_import_check_sees_a_forbidden_import():
    found = imports("from tablerules.model import registry\nfrom ..spec import x\nimport json\n")
    assert found == [(1, "tablerules.model", 0), (2, "spec", 2), (3, "json", 0)]


@pytest.mark.parametrize("folder", FOLDERS)
def test_a_reading_keeps_its_brief_prompt_and_notes(folder):
    here = REPO / "readings" / folder
    for name in ("BRIEF.md", "PROMPT.md", "NOTES.md"):
        assert (here / name).is_file(), f"readings/{folder}/{name} is missing"
    digest = hashlib.sha256((here / "BRIEF.md").read_bytes()).hexdigest()
    assert digest == BRIEFS[folder], f"readings/{folder}/BRIEF.md changed: the brief is kept as its author got it"
    assert "# CHOICE:" in "".join(p.read_text(encoding="utf-8") for p in here.rglob("*.py")), \
        "a reading marks the choices the text does not force"


@pytest.mark.parametrize("folder,ruleset,deck", [("just_desserts", "just-desserts", "jd-rivals"),
                                                 ("just_desserts_v23", "just-desserts-2.3", "v23-tiny"),
                                                 ("dishes", "dishes", "3x4")])
def test_a_reading_runs_as_an_engine_process(folder, ruleset, deck):
    """`python -m tablerules.readings.NAME` speaks the conform protocol over a pipe: anyone can run it as an engine."""
    import json
    import subprocess
    import sys

    requests = [{"op": "hello", "protocol": "tablerules-conform/1"},
                {"op": "new_game", "ruleset": ruleset, "players": 2, "options": {},
                 "components": {"name": deck, "argument": deck if ruleset == "dishes"
                                else str(REPO / "spec" / "decks" / f"{deck}.json")}, "seed": 1},
                {"op": "to_move"}, {"op": "chance_outcomes"}, {"op": "quit"}]
    run = subprocess.run([sys.executable, "-P", "-m", f"tablerules.readings.{folder}"], capture_output=True, text=True,
                         input="".join(json.dumps(r) + "\n" for r in requests), timeout=60)
    replies = [json.loads(line) for line in run.stdout.splitlines()]
    assert run.returncode == 0 and len(replies) == 4, run.stderr
    assert replies[0]["protocol"] == "tablerules-conform/1" and replies[1] == {"ok": True}
    if ruleset == "dishes":  # nothing hidden is drawn at the start: seat 0 turns a tile first
        assert replies[2] == {"ok": True, "to_move": "seat 0"} and replies[3]["outcomes"] == []
        return
    assert replies[2] == {"ok": True, "to_move": "CHANCE"}
    from fractions import Fraction
    assert sum(Fraction(p) for _, p in replies[3]["outcomes"]) == 1
