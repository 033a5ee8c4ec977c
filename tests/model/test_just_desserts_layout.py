"""The Just Desserts package (model/just_desserts/) imports one way: no circle, no import
at the bottom of a module, no import inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

PACKAGE = Path(__file__).resolve().parents[2] / "model" / "just_desserts"


def _sibling_imports(path: Path) -> tuple[set[str], list[str]]:
    """(the package modules this module imports, problems with where it imports them)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    problems = []
    seen_definition = False
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign)):
            seen_definition = True
        if isinstance(node, (ast.Import, ast.ImportFrom)) and seen_definition:
            problems.append(f"{path.name}:{node.lineno}: import after the module's first definition")
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found |= {a.name for a in node.names}
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                if isinstance(inner, (ast.Import, ast.ImportFrom)):
                    problems.append(f"{path.name}:{inner.lineno}: import inside function {node.name}")
    return found, problems


def test_the_package_imports_one_way():
    graph = nx.DiGraph()
    problems: list[str] = []
    modules = sorted(p for p in PACKAGE.glob("*.py"))
    assert {p.stem for p in modules} >= {"game", "advanced", "moves", "state", "symmetry", "views", "v23"}
    for p in modules:
        graph.add_node(p.stem)
        found, bad = _sibling_imports(p)
        problems += bad
        graph.add_edges_from((p.stem, m) for m in found)
    cycles = list(nx.simple_cycles(graph))
    assert not cycles, f"circular imports: {cycles}"
    assert not problems, problems


def test_the_old_public_names_still_import():
    from tablerules.model import just_desserts as jd
    from tablerules.model.just_desserts import v23

    for name in ("RULES", "Options", "State", "Move", "parse_move", "INVARIANTS", "canonical_twins", "doorway",
                 "guest_servings", "satisfying_sets", "winning_clause", "observation", "state_vars", "DRAW",
                 "SMALL_CONFIGS", "TEACHING_DECKS", "is_race"):
        assert hasattr(jd, name), name
    assert v23.RULES.id == "just-desserts-2.3" and jd.RULES.id == "just-desserts"


def test_every_decision_point_names_its_clause_or_says_it_is_plumbing():
    """Both editions: every if/elif/while, conditional expression and comprehension filter in the
    package carries ``# rule: <ids>`` or ``# plumbing: <why>`` (on its line or a comment line of its
    own above it), or lies in a function or module its module's ``PLUMBING`` declares; every id is in a spec.  The
    annotations are read as the decision-point finder reads them (proofs/discovery/decisions.py)."""
    from tablerules.proofs.discovery import decisions
    from tablerules.spec import load_spec

    known = set()
    for ruleset in ("just-desserts", "just-desserts-2.3"):
        spec = load_spec(ruleset)
        known |= set(spec.clauses) | set(spec.rulings)
    sc = decisions.scan()
    points = [p for p in sc.points if p.file.startswith("just_desserts/")]
    assert {"just_desserts/game.py", "just_desserts/v23.py", "just_desserts/advanced.py"} <= {p.file for p in points}
    missing, unknown = [], []
    for point in points:
        a = sc.annotation_of(point)
        if a is None or a.problem:
            missing.append(f"{point.where}: {point.source}")
        elif a.kind == "rule":
            unknown += [f"{point.where}: {i}" for i in a.ids if i not in known]
    assert not missing, f"{len(missing)} decision points without a note:\n" + "\n".join(missing[:20])
    assert not unknown, f"ids in no spec: {unknown}"
