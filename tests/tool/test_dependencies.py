"""Every run-time dependency is imported by a run-time module (the rest belong in an extra)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RUNTIME = ("tablerules", "model", "proofs", "spec")
IMPORT_NAME = {"z3-solver": "z3", "open-spiel": "pyspiel"}
"""Distribution name -> the module it is imported as, where they differ."""


def _imports() -> set[str]:
    found: set[str] = set()
    pattern = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))", re.M)
    for folder in RUNTIME:
        for path in (REPO / folder).rglob("*.py"):
            for a, b in pattern.findall(path.read_text(encoding="utf-8")):
                found.add((a or b).split(".")[0])
    return found


def test_every_runtime_dependency_is_imported_at_run_time():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    names = [re.split(r"[<>=!~ \[]", d, maxsplit=1)[0] for d in project["dependencies"]]
    imported = _imports()
    unused = [n for n in names if IMPORT_NAME.get(n, n.replace("-", "_")) not in imported]
    assert not unused, f"run-time dependencies no run-time module imports: {unused} (move them to an extra)"
    assert "hypothesis" in " ".join(project["optional-dependencies"]["test"])  # the property tests need it
