"""Mutants of the model's step API: one small change at one decision point.

A *decision point* is what ``tablerules.proofs.discovery.decisions`` calls one: an ``if`` /
``elif`` / ``while`` test, a conditional expression's test, a comprehension's filter.  At
each, this module writes the changes a reader of the rulebook could have made instead:

* ``negate``: the test reversed (the other branch taken wherever the first was);
* ``always`` / ``never``: the test replaced by True or False (one branch always; a filter
  dropped, or keeping nothing); ``always`` is not written for a ``while``;
* at a ``return`` of a truth value (a comparison, a negation, ``and`` / ``or``, any() or
  all(): a predicate such as "these two tiles match"), the same changes as at a test;
* ``drop-term N``: one term of an ``and`` / ``or`` left out; ``and<->or``: the connective swapped;
* ``compare N``: one comparison's operator moved to its neighbour (``<`` to ``<=``, ``==`` to
  ``!=``, ``in`` to ``not in``, ``is`` to ``is not``, and back);
* ``value N``: on a line whose annotation names a rule, one whole-number constant one higher
  (a count the rules choose: cards drawn, guests served, a threshold);
* ``swap N``: on such a line, ``min`` for ``max``, ``any`` for ``all`` (and back).

A mutant changes one function: its code object is compiled from the mutated module and put
in place of the function's own (``__code__``), so every reference to the function, the
RuleSet's and other modules' included, runs the mutant, and nothing on disk changes.
Decision points outside a function (module or class bodies, run once at import) are not
mutated.  Mutant ids are stable under edits elsewhere in the file: file, function, the
decision's source text and the operator (a counter only tells apart identical texts).
"""

from __future__ import annotations

import ast
import copy
import hashlib
from dataclasses import dataclass
from pathlib import Path
from types import CodeType, FunctionType, ModuleType
from typing import Any, Iterator

from ..decisions import Annotation, AnnotationError, DecisionPoint, Scan, model_folder, scan

STEP_API_FILES = {
    "dishes": ("dishes/game.py",),
    "just-desserts": ("just_desserts/game.py", "just_desserts/advanced.py", "just_desserts/ending.py",
                      "just_desserts/moves.py", "just_desserts/serving.py", "just_desserts/state.py",
                      "just_desserts/tastes.py", "just_desserts/views.py"),
    "just-desserts-2.3": ("just_desserts/v23.py", "just_desserts/v23_claims.py", "just_desserts/tastes.py"),
}
"""The files of each rule set's step API (the compiled playouts, kernels and symmetry
reductions are checked against the step API elsewhere and are not mutated here)."""

NOT_STEP_API = {
    "dishes": ("canonical", "orbit_size", "_type_orders", "_rotation_maps", "_relabel", "_key", "table_state",
               "deal_probability", "parse_deal", "Tiles.name", "parse_tiles", "absent"),
    "just-desserts": (),
    "just-desserts-2.3": (),
}
"""Functions of those files that the step API does not call: the symmetry reductions and the
exact engine's projection (tests compare reduced against unreduced explorations), the
closed-form deal probability (tested against the step API's reveals), and the readers of
vector files and of --deck (tested with the vectors and the command line), and what a move
names that a table lacks (asked by those readers, never by play)."""

_SWAPS = {"min": "max", "max": "min", "any": "all", "all": "any"}
_COMPARE = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
            ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}


@dataclass(frozen=True)
class Mutant:
    """One change at one decision point."""

    id: str
    """``file::function::decision text::operator`` (stable under edits elsewhere)."""
    ruleset: str
    file: str
    """Relative to the model folder (``dishes/game.py``, ``just_desserts/game.py``)."""
    line: int
    col: int
    """Column of the decision's test (several decisions may share a line); -1 for a value change."""
    function: str
    """Qualified name of the function whose code changes (the outermost one holding the point)."""
    operator: str
    description: str
    """The change in words (``not (rule == 'own-places')``)."""
    annotation: str
    """The point's annotation as written (``rule: dishes.ruling.movable-stacks``), or empty."""
    ids: tuple[str, ...] = ()
    """Clause and ruling ids the annotation names."""

    @property
    def where(self) -> str:
        return f"model/{self.file}:{self.line}"

    @property
    def point(self) -> tuple[str, int, int]:
        """The decision test it changes, as the probes name it: (file, line, column)."""
        return (self.file, self.line, self.col)

    def differs_when(self) -> set[bool] | None:
        """The outcomes of the original test under which the mutant can act otherwise
        (None: any evaluation, or unknown)."""
        if self.operator == "always":
            return {False}
        if self.operator == "never":
            return {True}
        return None


# --------------------------------------------------------------------------- writing mutants


def _test_of(node: ast.AST) -> list[tuple[str, ast.expr, Any]]:
    """(kind, test expression, setter) for the decision tests held directly by ``node``."""
    out: list[tuple[str, ast.expr, Any]] = []
    if isinstance(node, (ast.If, ast.While)):
        out.append(
            ("while" if isinstance(node, ast.While) else "if", node.test, lambda e, n=node: setattr(n, "test", e))
        )
    elif isinstance(node, ast.IfExp):
        out.append(("conditional", node.test, lambda e, n=node: setattr(n, "test", e)))
    elif isinstance(node, ast.comprehension):
        for i, cond in enumerate(node.ifs):
            out.append(("filter", cond, lambda e, n=node, i=i: n.ifs.__setitem__(i, e)))
    elif isinstance(node, ast.Return) and _is_predicate(node.value):
        out.append(("return", node.value, lambda e, n=node: setattr(n, "value", e)))
    return out


def _is_predicate(value: ast.expr | None) -> bool:
    """A returned truth value: a comparison, a negation, ``and`` / ``or``, or any() / all()."""
    if isinstance(value, (ast.Compare, ast.BoolOp)) or (
        isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.Not)
    ):
        return True
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("any", "all")


def _variants(kind: str, test: ast.expr) -> Iterator[tuple[str, str, ast.expr]]:
    """(operator, description, replacement test) for one decision test."""
    src = ast.unparse(test)
    yield "negate", f"not ({src})", ast.UnaryOp(ast.Not(), copy.deepcopy(test))
    if kind != "while":
        yield "always", f"True instead of ({src})", ast.Constant(True)
    yield "never", f"False instead of ({src})", ast.Constant(False)
    if isinstance(test, ast.BoolOp) and len(test.values) > 1:
        name = "and" if isinstance(test.op, ast.And) else "or"
        for i in range(len(test.values)):
            rest = [copy.deepcopy(v) for j, v in enumerate(test.values) if j != i]
            new = rest[0] if len(rest) == 1 else ast.BoolOp(copy.deepcopy(test.op), rest)
            yield f"drop-term {i + 1}", f"({ast.unparse(new)}) without the term {ast.unparse(test.values[i])!r}", new
        other = ast.Or() if name == "and" else ast.And()
        swapped = ast.BoolOp(other, [copy.deepcopy(v) for v in test.values])
        yield "and<->or", ast.unparse(swapped), swapped
    compares = [n for n in ast.walk(test) if isinstance(n, ast.Compare)]
    for i, cmp_node in enumerate(compares):
        for j, op in enumerate(cmp_node.ops):
            new_op = _COMPARE.get(type(op))
            if new_op is None:
                continue
            new_test = copy.deepcopy(test)
            target = [n for n in ast.walk(new_test) if isinstance(n, ast.Compare)][i]
            target.ops[j] = new_op()
            label = f"compare {i + 1}" + (f".{j + 1}" if len(cmp_node.ops) > 1 else "")
            yield label, ast.unparse(new_test), new_test


def _value_variants(stmt: ast.stmt) -> Iterator[tuple[str, str, Any]]:
    """(operator, description, apply) for the constants and swaps of a rule line's statement."""
    nodes = [n for n in ast.walk(stmt) if not isinstance(n, (ast.FunctionDef, ast.Lambda))]
    k = 0
    for node in nodes:
        if isinstance(node, ast.Constant) and type(node.value) is int and 0 <= node.value <= 8:
            k += 1
            yield (f"value {k}", f"{node.value + 1} instead of {node.value}",
                   lambda n=node: setattr(n, "value", n.value + 1))
    k = 0
    for node in nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _SWAPS:
            k += 1
            yield (f"swap {k}", f"{_SWAPS[node.func.id]} instead of {node.func.id}",
                   lambda n=node: setattr(n.func, "id", _SWAPS[n.func.id]))


@dataclass
class _Site:
    kind: str
    line: int
    function: str
    path: tuple[Any, ...]
    """How to find the node again in a fresh parse: (field, index) steps from the module."""


def _walk(node: ast.AST, path: tuple = ()) -> Iterator[tuple[ast.AST, tuple, list[str]]]:
    """Every node with its path and the names of the functions and classes around it."""
    stack: list[tuple[ast.AST, tuple, list[str]]] = [(node, path, [])]
    while stack:
        n, p, scope = stack.pop()
        yield n, p, scope
        inner = scope + [n.name] if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else scope
        for fname, value in reversed(list(ast.iter_fields(n))):
            if isinstance(value, list):
                for i in reversed(range(len(value))):
                    if isinstance(value[i], ast.AST):
                        stack.append((value[i], p + ((fname, i),), inner))
            elif isinstance(value, ast.AST):
                stack.append((value, p + ((fname, None),), inner))


def _follow(tree: ast.AST, path: tuple) -> ast.AST:
    node = tree
    for fname, i in path:
        node = getattr(node, fname) if i is None else getattr(node, fname)[i]
    return node


def _outer_function(tree: ast.Module, path: tuple) -> tuple[str, bool] | None:
    """(qualified name, ok) of the outermost function holding the node at ``path``; None at
    module or class level."""
    node: ast.AST = tree
    names: list[str] = []
    for fname, i in path:
        node = getattr(node, fname) if i is None else getattr(node, fname)[i]
        if isinstance(node, ast.ClassDef):
            names.append(node.name)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.append(node.name)
            return ".".join(names), True
    return None


@dataclass(frozen=True)
class MutantSource:
    """What applying a mutant needs: the module and the mutated function's code object."""

    mutant: Mutant
    module: str
    """Import name of the module (``tablerules.model.dishes``)."""
    code: CodeType | None
    constant: tuple[str, Any] | None = None
    """For a module constant's mutant (``code`` None): (its name, the value the mutant gives it)."""


def _module_name(file: str) -> str:
    return "tablerules.model." + file[:-3].replace("/", ".")


def _find_code(code: CodeType, qualname: str) -> CodeType | None:
    for const in code.co_consts:
        if isinstance(const, CodeType):
            if const.co_qualname == qualname:
                return const
            found = _find_code(const, qualname)
            if found is not None:
                return found
    return None


def _annotation_of(sc: Scan, file: str, lines: tuple[int, ...], function: str) -> Annotation | None:
    for line in lines:
        a = sc.annotations.get((file, line))
        if a is not None:
            return a
    return sc.exemption_of(file, function)


def write_mutants(ruleset: str, folder: Path | None = None) -> list[MutantSource]:
    """Every mutant of the rule set's step API files, in file and line order."""
    folder = folder or model_folder()
    sc = _scan(folder)
    points: dict[tuple[str, int], DecisionPoint] = {(p.file, p.line): p for p in sc.points}
    out: list[MutantSource] = []
    for file in STEP_API_FILES[ruleset]:
        text = (folder / file).read_text(encoding="utf-8")
        tree = ast.parse(text)
        seen: dict[str, int] = {}
        for node, path, _scope in _walk(tree):
            for k, (kind, test, _setter) in enumerate(_test_of(node)):
                line = test.lineno
                point = points.get((file, line))
                outer = _outer_function(tree, path)
                if outer is None:
                    continue  # module or class level: runs once, at import
                qualname, _ = outer
                if qualname.split(".<")[0] in NOT_STEP_API[ruleset]:
                    continue
                lines = point.lines if point else (line,)
                if point is not None:
                    lines = (point.line,) + point.lines
                ann = _annotation_of(sc, file, lines, point.function if point is not None else qualname)
                ann_text = (
                    ""
                    if ann is None
                    else (f"rule: {', '.join(ann.ids)}" if ann.kind == "rule" else f"plumbing: {ann.why}")
                )
                ids = ann.ids if ann is not None and ann.kind == "rule" else ()
                for op, desc, new in _variants(kind, test):
                    change = ("test", k, new)
                    out += _compile(
                        folder, ruleset, file, tree, path, qualname, line, kind, ast.unparse(test), op, desc, change,
                        ann_text, ids, seen,
                    )
        # constants and swaps on rule lines: once per statement that holds a rule decision
        out += _value_mutants(folder, ruleset, file, text, tree, sc, seen)
        from .data import write_data_mutants  # the data decisions, after the decision points

        out += write_data_mutants(folder, ruleset, file, tree, sc, seen)
    return out


def _value_mutants(
    folder: Path, ruleset: str, file: str, text: str, tree: ast.Module, sc: Scan, seen: dict[str, int]
) -> list[MutantSource]:
    out: list[MutantSource] = []
    for node, path, _scope in _walk(tree):
        if not isinstance(node, ast.stmt) or isinstance(
            node, (ast.FunctionDef, ast.ClassDef, ast.If, ast.While, ast.For)
        ):
            continue
        ann = sc.annotations.get((file, node.lineno))
        if ann is None or ann.kind != "rule":
            continue
        outer = _outer_function(tree, path)
        if outer is None:
            continue
        qualname, _ = outer
        if qualname in NOT_STEP_API[ruleset]:
            continue
        for op, desc, _apply in _value_variants(node):
            out += _compile(
                folder, ruleset, file, tree, path, qualname, node.lineno, "value", ast.unparse(node).split("\n")[0], op,
                desc, ("stmt", op, None), f"rule: {', '.join(ann.ids)}", ann.ids, seen,
            )
    return out


_SEGMENTS: dict[tuple[str, int], tuple[str, int]] = {}
_SCANS: dict[str, Scan] = {}


def _scan(folder: Path) -> Scan:
    """The decision points and annotations of a model folder, read once per process; AnnotationError
    (its first problem, and how many more) where the annotations cannot be read, since a mutant's
    annotation and which functions get order mutants come from them."""
    key = str(folder)
    if key not in _SCANS:
        sc = scan(folder)
        if sc.problems:
            more = f" (and {len(sc.problems) - 1} more)" if len(sc.problems) > 1 else ""
            raise AnnotationError(sc.problems[0] + more)
        _SCANS[key] = sc
    return _SCANS[key]


def _fresh_top(folder: Path, file: str, tree: ast.Module, index: int) -> ast.stmt:
    """A new parse of the module's ``index``-th top-level statement, at its own line numbers
    (parsing its text again is far quicker than copying the tree)."""
    key = (str(folder / file), index)
    got = _SEGMENTS.get(key)
    if got is None:
        node = tree.body[index]
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        lines = (folder / file).read_text(encoding="utf-8").splitlines()
        got = _SEGMENTS[key] = ("\n".join(lines[first - 1: node.end_lineno]) + "\n", first)
    text, first = got
    top = ast.parse(text).body[0]
    ast.increment_lineno(top, first - 1)
    return top


def _compile(
    folder: Path, ruleset: str, file: str, tree: ast.Module, path: tuple, qualname: str, line: int, kind: str, src: str,
    op: str, desc: str, change: tuple, ann_text: str, ids: tuple[str, ...], seen: dict[str, int],
) -> list[MutantSource]:
    """Apply one change to a copy of the top-level definition holding the point and compile it
    alone (line numbers and qualified names as in the file)."""
    (field, index), rest = path[0], path[1:]
    top = _fresh_top(folder, file, tree, index)
    node = _follow(top, rest)
    what, k, new = change
    new_col = -1
    if what == "test":
        new_col = _test_of(node)[k][1].col_offset
        if kind == "while":  # a mutated loop may never end: it counts its rounds (see tick)
            new = ast.BoolOp(ast.And(), [ast.Call(ast.Name(TICK, ast.Load()), [], []), new])
        _test_of(node)[k][2](new)
    elif what == "edit":  # a data mutant (.data): k changes the fresh copy in place
        k(top, rest)
    else:
        for o, _d, apply in _value_variants(node):  # type: ignore[arg-type]
            if o == k:
                apply()
                break
    holder = ast.Module([top], type_ignores=[])
    ast.fix_missing_locations(holder)
    try:
        module_code = compile(holder, str(folder / file), "exec")
    except SyntaxError:
        return []
    code = _find_code(module_code, qualname)
    if code is None:
        return []
    base = f"{file}::{qualname}::{src}::{op}"
    n = seen.get(base, 0)
    seen[base] = n + 1
    mid = base if n == 0 else f"{base}::{n + 1}"
    col = new_col
    mutant = Mutant(mid, ruleset, file, line, col, qualname, op, desc, ann_text, ids)
    return [MutantSource(mutant, _module_name(file), code)]


PROBE = "__decision_probe__"


def write_probes(files: tuple[str, ...], folder: Path | None = None) -> list[tuple[str, str, CodeType]]:
    """(module, function, code) for every function of ``files`` holding decision tests, each
    test wrapped as ``PROBE((file, line, column), test)``: the same value, recorded."""
    folder = folder or model_folder()
    out = []
    for file in files:
        tree = ast.parse((folder / file).read_text(encoding="utf-8"))
        sites = []
        for node, path, _scope in _walk(tree):
            for k, (_kind, test, _setter) in enumerate(_test_of(node)):
                if _outer_function(tree, path) is not None:
                    sites.append((node, k, test))
        for node, k, test in sites:
            key = ast.Tuple([ast.Constant(file), ast.Constant(test.lineno), ast.Constant(test.col_offset)], ast.Load())
            _test_of(node)[k][2](ast.Call(ast.Name(PROBE, ast.Load()), [key, test], []))
        ast.fix_missing_locations(tree)
        code = compile(tree, str(folder / file), "exec")
        for sub in _codes(code):
            if "<" not in sub.co_qualname:
                out.append((_module_name(file), sub.co_qualname, sub))
    return out


def _codes(code: CodeType) -> Iterator[CodeType]:
    for const in code.co_consts:
        if isinstance(const, CodeType):
            yield const
            if const.co_name != "<module>" and not const.co_qualname.endswith(">"):
                yield from (c for c in _codes(const) if "<locals>" not in c.co_qualname)


def short_id(mutant_id: str) -> str:
    """A short, stable handle for a mutant id (for tables and command lines)."""
    return "m" + hashlib.sha256(mutant_id.encode()).hexdigest()[:8]


# --------------------------------------------------------------------------- applying mutants

TICK = "__mutant_tick__"
LOOP_ROUNDS = 1_000_000
"""How many rounds a mutated ``while`` may run before the mutant counts as hanging."""


class MutantHangs(Exception):
    """A mutated loop ran LOOP_ROUNDS rounds: the mutant does not end (a count, not a clock)."""


def _tick_counter() -> Any:
    rounds = [0]

    def tick() -> bool:
        rounds[0] += 1
        if rounds[0] > LOOP_ROUNDS:
            raise MutantHangs(f"a mutated loop ran {LOOP_ROUNDS:,} rounds")
        return True

    return tick



def target_function(module: ModuleType, qualname: str) -> FunctionType:
    """The function object a qualified name names in a module (unwrapping lru_cache)."""
    obj: Any = module
    for part in qualname.split("."):
        obj = vars(obj)[part] if isinstance(obj, (ModuleType, type)) else getattr(obj, part)
        if isinstance(obj, (staticmethod, classmethod)):
            obj = obj.__func__
        if isinstance(obj, property):
            obj = obj.fget
    while hasattr(obj, "__wrapped__"):
        obj = obj.__wrapped__
    if not isinstance(obj, FunctionType):
        raise TypeError(f"{module.__name__}.{qualname} is not a function")
    return obj


def apply_mutant(source: MutantSource) -> Any:
    """Put the mutant's code in place; returns the original code (for ``undo``)."""
    import importlib

    module = importlib.import_module(source.module)
    if source.constant is not None:
        from .data import set_constant

        return set_constant(module, *source.constant)
    fn = target_function(module, source.mutant.function)
    original = fn.__code__
    fn.__code__ = source.code
    setattr(module, TICK, _tick_counter())
    return original


def undo(source: MutantSource, original: Any) -> None:
    import importlib

    module = importlib.import_module(source.module)
    if source.constant is not None:
        from .data import set_constant

        set_constant(module, source.constant[0], original)
        return
    target_function(module, source.mutant.function).__code__ = original
    if hasattr(module, TICK):
        delattr(module, TICK)
