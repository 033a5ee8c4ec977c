"""Mutants of the model's data decisions: what a rule reads, rather than how it branches.

A reader of the rulebook decides more than tests: how many cards a hand holds, which pile a rule
counts, which of two effects comes first, which of a card's printed roles a rule looks at.  These
operators write those changes (each one change in one place, judged like any other mutant):

* ``constant +1`` / ``constant -1``: a module constant the rules read (a whole number from 0 to
  8, such as the hand size), one higher or lower, wherever the model's modules bind it;
* ``less N``: on a line whose annotation names a rule, one whole-number constant one lower (the
  decision points' ``value N`` makes it one higher);
* ``zone N``: on such a line, one zone of the table read in place of another that holds the same
  kind of card (the dessert pile for its discards, a hand for the dishes in front of a player), or
  one of a card's printed roles for another (what a guest wants for what it refuses);
* ``order N``: in a function that decides play, two statements next to each other that both
  have an effect (a call or an assignment), run the other way round.

Which zones and roles may stand in for each other is the table :data:`INTERCHANGEABLE`, per rule
set: names from the model's own state and card classes.  A swap that would read a name before the
function binds it is not written (it would only crash).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator

from ..decisions import Scan
from .mutants import Mutant, MutantSource, NOT_STEP_API, _compile, _module_name, _outer_function, _walk

INTERCHANGEABLE: dict[str, tuple[tuple[str, ...], ...]] = {
    "dishes": (),
    "just-desserts": (
        ("dessert_pile", "dessert_discard"),
        ("guest_pile", "guest_discard", "centre"),
        ("hands", "claimed"),
        ("wants", "refuses"),
    ),
    "just-desserts-2.3": (
        ("hands", "dishes", "collected"),
        ("dessert_pile", "set_aside", "floor"),
        ("guest_pile", "discards"),
        ("wants", "refuses"),
    ),
}
"""Per rule set: groups of attribute names (fields of the model's state, of a guest card) that hold
the same kind of thing, so that a rule reading one could have read another."""

CONSTANT_RANGE = range(0, 9)
"""Module constants (and rule lines' whole numbers) the operators change: counts a rule reads."""


def write_data_mutants(folder: Path, ruleset: str, file: str, tree: ast.Module, sc: Scan,
                       seen: dict[str, int]) -> list[MutantSource]:
    """The data mutants of one step-API file (see the module docstring), in line order."""
    out = _constant_mutants(ruleset, file, tree, seen)
    groups = INTERCHANGEABLE.get(ruleset, ())
    for node, path, _scope in _walk(tree):
        outer = _outer_function(tree, path)
        if outer is None or outer[0].split(".<")[0] in NOT_STEP_API[ruleset]:
            continue
        qualname = outer[0]
        if isinstance(node, ast.stmt):
            ann = sc.annotations.get((file, node.lineno))
            if ann is not None and ann.kind == "rule":
                out += _line_mutants(folder, ruleset, file, tree, path, qualname, node, ann, groups, seen)
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                if sc.exemption_of(file, qualname) is None:
                    out += _order_mutants(folder, ruleset, file, tree, path, qualname, node, field, seen)
    return out


# --------------------------------------------------------------------------- module constants


def _constant_mutants(ruleset: str, file: str, tree: ast.Module, seen: dict[str, int]) -> list[MutantSource]:
    out = []
    for node in tree.body:
        if not (isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Constant)):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if len(targets) != 1 or not isinstance(targets[0], ast.Name) or not targets[0].id.isupper():
            continue
        value = node.value.value
        if type(value) is not int or value not in CONSTANT_RANGE:
            continue
        name = targets[0].id
        for op, new in (("constant +1", value + 1), ("constant -1", value - 1)):
            if new < 0:
                continue
            base = f"{file}::<module>::{name} = {value}::{op}"
            seen[base] = seen.get(base, 0) + 1
            mutant = Mutant(base, ruleset, file, node.lineno, -1, "<module>", op, f"{name} = {new} instead of {value}",
                            "", ())
            out.append(MutantSource(mutant, _module_name(file), None, (name, new)))
    return out


def set_constant(module: ModuleType, name: str, value: Any) -> Any:
    """Give a module constant a new value in its module and in every model module that imported it
    by name; returns the value it had."""
    old = getattr(module, name)
    for other in _binders(module, name):
        setattr(other, name, value)
    return old


def _binders(module: ModuleType, name: str) -> list[ModuleType]:
    """The module and the loaded model modules that bind ``name`` by ``from <module> import``."""
    out = [module]
    short = module.__name__.rsplit(".", 1)[-1]
    for mod_name, mod in list(sys.modules.items()):
        if mod is module or not mod_name.startswith("tablerules.model.") or name not in vars(mod):
            continue
        source = getattr(mod, "__file__", None)
        if source is None:
            continue
        tree = ast.parse(Path(source).read_text(encoding="utf-8"))
        if any(isinstance(n, ast.ImportFrom) and (n.module or "").rsplit(".", 1)[-1] == short
               and any(a.name == name and a.asname is None for a in n.names) for n in ast.walk(tree)):
            out.append(mod)
    return out


def constant_uses(ruleset: str, name: str) -> set[tuple[str, int]]:
    """(file, line) of every line of the rule set's step API that reads the constant ``name``."""
    from ..decisions import model_folder
    from .mutants import STEP_API_FILES

    folder = model_folder()
    out = set()
    for file in STEP_API_FILES[ruleset]:
        tree = ast.parse((folder / file).read_text(encoding="utf-8"))
        out |= {(file, n.lineno) for n in ast.walk(tree)
                if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)}
    return out


# --------------------------------------------------------------------------- one rule line


def _line_mutants(folder: Path, ruleset: str, file: str, tree: ast.Module, path: tuple, qualname: str,
                  stmt: ast.stmt, ann: Any, groups: tuple[tuple[str, ...], ...],
                  seen: dict[str, int]) -> list[MutantSource]:
    """``less N`` and ``zone N`` on one statement whose line names a rule (its own expressions only:
    a compound statement's body lines carry their own annotations)."""
    out = []
    src = ast.unparse(stmt).split("\n")[0]
    for op, desc, edit in _line_edits(stmt, groups):
        out += _compile(folder, ruleset, file, tree, path, qualname, stmt.lineno, "value", src, op, desc,
                        ("edit", _at(edit), None), f"rule: {', '.join(ann.ids)}", ann.ids, seen)
    return out


def _own_nodes(stmt: ast.stmt) -> Iterator[ast.AST]:
    """The nodes of a statement's own line: for a compound statement, its test or header only."""
    if isinstance(stmt, (ast.If, ast.While)):
        yield from ast.walk(stmt.test)
    elif isinstance(stmt, (ast.For, ast.With, ast.FunctionDef, ast.ClassDef, ast.Try)):
        return
    else:
        yield from (n for n in ast.walk(stmt) if not isinstance(n, ast.Lambda))


def _line_edits(stmt: ast.stmt, groups: tuple[tuple[str, ...], ...]) -> Iterator[tuple[str, str, Any]]:
    """(operator, description, edit of the k-th such node in a fresh copy) for one statement."""
    nodes = list(_own_nodes(stmt))
    ints = [n for n in nodes if isinstance(n, ast.Constant) and type(n.value) is int and n.value in CONSTANT_RANGE]
    for k, n in enumerate(ints):
        if n.value >= 1:
            yield (f"less {k + 1}", f"{n.value - 1} instead of {n.value}",
                   (_is_int, k, lambda m: setattr(m, "value", m.value - 1)))
    attrs = [n for n in nodes if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load)]
    k = 0
    for i, n in enumerate(attrs):
        group = next((g for g in groups if n.attr in g), None)
        if group is None:
            continue
        for other in group:
            if other != n.attr:
                k += 1
                yield (f"zone {k}", f".{other} instead of .{n.attr}",
                       (_is_load_attr, i, lambda m, other=other: setattr(m, "attr", other)))


def _is_int(n: ast.AST) -> bool:
    return isinstance(n, ast.Constant) and type(n.value) is int and n.value in CONSTANT_RANGE


def _is_load_attr(n: ast.AST) -> bool:
    return isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load)


def _at(edit: tuple) -> Any:
    """The edit for ``_compile``: find the k-th matching node of the statement's own line again in
    the fresh copy, and change it."""
    match, k, change = edit

    def apply(top: ast.AST, rest: tuple) -> None:
        from .mutants import _follow

        stmt = _follow(top, rest)
        change([n for n in _own_nodes(stmt) if match(n)][k])  # type: ignore[arg-type]

    return apply


# --------------------------------------------------------------------------- the order of two effects


def _effect(stmt: ast.stmt) -> bool:
    """A statement that does something: a call, or an assignment (of anything computed by a call, or
    into an attribute or an item)."""
    if isinstance(stmt, ast.Expr):
        return isinstance(stmt.value, ast.Call)
    if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        into = any(isinstance(t, (ast.Attribute, ast.Subscript)) for t in targets)
        return into or any(isinstance(n, ast.Call) for n in ast.walk(stmt.value)) if stmt.value is not None else False
    return False


def _bound(stmt: ast.stmt) -> set[str]:
    return {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _read(stmt: ast.stmt) -> set[str]:
    return {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _bound_before(function: ast.AST, line: int) -> set[str]:
    """Names the function binds before ``line`` (its parameters, and any assignment above)."""
    names = {a.arg for a in ast.walk(function.args) if isinstance(a, ast.arg)} if hasattr(function, "args") else set()
    for n in ast.walk(function):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.lineno < line:
            names.add(n.id)
    return names


def _order_mutants(folder: Path, ruleset: str, file: str, tree: ast.Module, path: tuple, qualname: str,
                   holder: ast.AST, field: str, seen: dict[str, int]) -> list[MutantSource]:
    out = []
    block = getattr(holder, field)
    function = _function_at(tree, path)
    for i in range(len(block) - 1):
        a, b = block[i], block[i + 1]
        if not (_effect(a) and _effect(b)):
            continue
        if (_read(b) & _bound(a)) - _bound_before(function, a.lineno):
            continue  # b would read a name a binds before anything bound it: a crash, not an order
        desc = f"{ast.unparse(b).splitlines()[0]} before {ast.unparse(a).splitlines()[0]}"

        def swap(top: ast.AST, rest: tuple, field: str = field, i: int = i) -> None:
            from .mutants import _follow

            body = getattr(_follow(top, rest), field)
            body[i], body[i + 1] = body[i + 1], body[i]

        out += _compile(folder, ruleset, file, tree, path, qualname, a.lineno, "value",
                        ast.unparse(a).splitlines()[0], f"order {i + 1}", desc, ("edit", swap, None), "", (), seen)
    return out


def _function_at(tree: ast.Module, path: tuple) -> ast.AST:
    """The innermost function holding the node at ``path`` (or the node itself)."""
    from .mutants import _follow

    found: ast.AST = tree
    for j in range(len(path) + 1):
        node = _follow(tree, path[:j])
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found = node
    return found


__all__ = ["INTERCHANGEABLE", "set_constant", "write_data_mutants"]
