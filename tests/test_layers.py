"""Imports run one way: the model imports nothing of the tools, the proofs nothing of the
command line (``tablerules`` itself), so each layer can be read and changed on its own.

    tablerules.spec  <-  tablerules.model  <-  tablerules.proofs  <-  tablerules (command line)
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
LAYERS = {
    "spec": ("tablerules.spec", {"tablerules.spec"}),
    "model": ("tablerules.model", {"tablerules.spec", "tablerules.model"}),
    "proofs": ("tablerules.proofs", {"tablerules.spec", "tablerules.model", "tablerules.proofs"}),
}


def imported(source: str, package: str) -> list[tuple[int, str]]:
    """(line, absolute module name) of every tablerules import in ``source``, a module of
    ``package``; relative imports resolved."""
    parts = package.split(".")
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = parts[:len(parts) - node.level + 1] if node.level else []
            out.append((node.lineno, ".".join(base + ([node.module] if node.module else []))))
    return [(line, name) for line, name in out if name.startswith("tablerules")]


def _against(name: str, allowed: set[str]) -> bool:
    return not any(name == a or name.startswith(a + ".") for a in allowed)


@pytest.mark.parametrize("folder", list(LAYERS))
def test_each_layer_imports_only_the_layers_below_it(folder):
    top, allowed = LAYERS[folder]
    wrong = []
    for path in sorted((REPO / folder).rglob("*.py")):
        package = ".".join([top, *path.relative_to(REPO / folder).parts[:-1]])
        wrong += [
            f"{path.relative_to(REPO)}:{line}: {name}"
            for line, name in imported(path.read_text(encoding="utf-8"), package)
            if _against(name, allowed)
        ]
    assert not wrong, "imports against the layering:\n" + "\n".join(wrong)


def test_an_import_against_the_layering_is_seen_absolute_or_relative():
    names = [n for _, n in imported("from tablerules.proofs import explorer\nfrom ..proofs.checks import x\n"
                                    "from .core import y\nimport tablerules.cli\n", "tablerules.model.just_desserts")]
    assert names == [
        "tablerules.proofs", "tablerules.model.proofs.checks", "tablerules.model.just_desserts.core", "tablerules.cli",
    ]
    assert [n for n in names if _against(n, LAYERS["model"][1])] == ["tablerules.proofs", "tablerules.cli"]


ROOMS = (
    ("tablerules/vectors", "tablerules.vectors", {"tablerules.cli"}),
    ("tablerules/lockstep", "tablerules.lockstep", {"tablerules.cli", "tablerules.conform"}),
    ("proofs", "tablerules.proofs", {"tablerules.proofs.dishes", "tablerules.proofs.just_desserts"}),
    ("proofs/dishes", "tablerules.proofs.dishes", {"tablerules.proofs.just_desserts"}),
    ("proofs/just_desserts", "tablerules.proofs.just_desserts", {"tablerules.proofs.dishes"}),
    ("model/dishes", "tablerules.model.dishes", {"tablerules.model.just_desserts"}),
    ("model/just_desserts", "tablerules.model.just_desserts", {"tablerules.model.dishes"}),
)
"""Inside the layers: (folder, its package, what it must not import).  Traces and vectors know
nothing of the command line, nor does the lockstep (which runs readings in process, not through
conform); the engines of proofs/ nothing of one rule set's checks (the
registry names those); one rule set's rooms nothing of another's (they share the core API)."""


@pytest.mark.parametrize("folder,top,forbidden", ROOMS, ids=[r[0] for r in ROOMS])
def test_each_room_keeps_to_itself(folder, top, forbidden):
    wrong = []
    own = {"tablerules.proofs.dishes", "tablerules.proofs.just_desserts"} if folder == "proofs" else set()
    for path in sorted((REPO / folder).rglob("*.py")):
        rel = path.relative_to(REPO / folder)
        if own and rel.parts[0] in ("dishes", "just_desserts"):
            continue  # the rule sets' own folders: their own rows above
        package = ".".join([top, *rel.parts[:-1]])
        wrong += [
            f"{path.relative_to(REPO)}:{line}: {name}"
            for line, name in imported(path.read_text(encoding="utf-8"), package)
            if not _against(name, forbidden)
        ]
    assert not wrong, "imports across the rooms:\n" + "\n".join(wrong)
