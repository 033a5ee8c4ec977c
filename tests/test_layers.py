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


P = "tablerules.proofs."
ROOMS = (
    ("tablerules/vectors", "**/*.py", {"tablerules.cli"}),
    ("tablerules/lockstep", "**/*.py", {"tablerules.cli", "tablerules.conform"}),
    ("proofs", "*.py", {P + "exact", P + "discovery", P + "properties", P + "dishes", P + "just_desserts"}),
    ("proofs/exact", "**/*.py", {P + "discovery", P + "properties", P + "dishes", P + "just_desserts"}),
    ("proofs/discovery", "**/*.py", {P + "dishes", P + "just_desserts"}),
    ("proofs/properties", "**/*.py", {P + "dishes", P + "just_desserts"}),
    ("proofs/dishes", "**/*.py", {P + "just_desserts"}),
    ("proofs/just_desserts", "**/*.py", {P + "dishes"}),
    ("model/dishes", "**/*.py", {"tablerules.model.just_desserts"}),
    ("model/just_desserts", "**/*.py", {"tablerules.model.dishes"}),
)
"""Inside the layers: (folder, its files, what they must not import).  Traces and vectors know
nothing of the command line, nor does the lockstep (which runs readings in process, not through
conform).  In proofs/ (its package docstring draws the map): the foundation at its top (explorer,
endless, checks, files) imports none of its rooms; the exact engine nothing of discovery, the
properties or one rule set's checks; discovery and the properties nothing of one rule set's checks
(the registry names those); one rule set's rooms nothing of another's (they share the core API)."""


def package_of(path: Path) -> str:
    """The package a module file of the checkout belongs to (``proofs/exact/run.py``: ``tablerules.proofs.exact``)."""
    parts = path.relative_to(REPO).parts[:-1]
    return ".".join(parts if parts[0] == "tablerules" else ("tablerules", *parts))


@pytest.mark.parametrize("folder,files,forbidden", ROOMS, ids=[r[0] for r in ROOMS])
def test_each_room_keeps_to_itself(folder, files, forbidden):
    wrong = []
    for path in sorted((REPO / folder).glob(files)):
        wrong += [
            f"{path.relative_to(REPO)}:{line}: {name}"
            for line, name in imported(path.read_text(encoding="utf-8"), package_of(path))
            if not _against(name, forbidden)
        ]
    assert not wrong, "imports across the rooms:\n" + "\n".join(wrong)


def test_the_exact_engine_may_not_import_discovery_and_the_test_sees_it():
    line = "from ..discovery.gaps import small_configs\n"
    assert imported(line, "tablerules.proofs.exact") == [(1, "tablerules.proofs.discovery.gaps")]
    forbidden = next(f for folder, _, f in ROOMS if folder == "proofs/exact")
    assert not _against("tablerules.proofs.discovery.gaps", forbidden)
