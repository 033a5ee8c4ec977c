"""Decision points of the model: every place that decides something about play names the
clause or ruling it implements, and the explorations show which of them play reaches.

A *decision point* is an ``if`` / ``elif`` / ``while`` test, a conditional expression, a
comprehension's ``if`` filter or a ``match``, in any module under ``model/``.  Where it decides
something about play it names what it implements, in a comment on its first line (any line of a
multi-line condition counts; for a conditional expression or a filter, the first line of the
statement holding it counts too), or on a comment line of its own right above that line (where a
trailing tag would make the line too long); a tag at the end of the line comes first:

* ``# rule: <clause-or-ruling-id>[, <id>...]`` where the model decides something about play;
* ``# plumbing: <why>`` on a branch that decides nothing about play inside a function that does
  (dispatch on a move's kind, a cache, a check of the caller's input).

What decides nothing about play as a whole is declared once per module, not line by line, in a
module-level ``PLUMBING`` that :func:`scan` reads from the source (the module is not imported):

* ``PLUMBING = {"Move.__str__": "the text form of a move", ("gcd", "_popcount"): "arithmetic"}``:
  the functions named (qualified as ``Class.method`` or ``outer.inner``; names sharing one reason
  grouped in a tuple) decide nothing about play, and the value says why; it covers every decision
  point inside them, nested functions included;
* ``PLUMBING = "<why>"``: the whole module decides nothing about play.

A point's own annotation comes first, then its function's declaration (innermost first), then the
module's.  A declared name that is no function of its module, a name declared twice, a
``PLUMBING`` of another shape, and the old forms (``# plumbing:`` on a ``def`` line or on a
comment line right above a ``def`` and its decorators, ``# plumbing-module:``) are problems of the
scan (:attr:`Scan.problems`, each naming file and line): the report is not ok, and the mutation
tool refuses to write mutants (:class:`AnnotationError`).

:func:`scan` reads the annotations (static: no model code runs).  :func:`explore_decisions`
then plays the small configurations of every rule set under ``sys.settrace`` (line events of
the files under ``model/`` only): breadth-first within a state budget under the defaults,
under each other alternative of each ruling and with each optional rule, then a few seeded
random games to reach the late decisions a breadth-first budget cannot.  Each decision point
it executes is tied to the first trace that reached it (breadth-first, so the shortest one
where the breadth-first part reached it).

Findings (:class:`DecisionReport`):

* *unregistered decision*: an executed decision point with no annotation, with its trace;
* *special case without a ruling*: an exemption in an invariant check (a branch that returns
  "no violation" before the check proper, such as an exemption during the opening) whose
  annotation names no ruling;
* *unknown id*: an annotation naming an id that is in no spec (or a malformed annotation);
* *unannotated, not reached*: a decision point with no annotation that the explorations
  never executed (no trace to show; still a finding).

Beside them the report's ``problems``: the scan's (above), rule sets that could not be explored,
and stale entries of :data:`NOT_YET_ANNOTATED`.

Budgets count states and games, never seconds, so the answer does not depend on the load.
"""

from __future__ import annotations

import ast
import dataclasses
import io
import random
import re
import sys
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterable, Sequence

from tablerules.model import registry
from tablerules.model.core import (
    CHANCE, STRICT, TERMINAL, RuleGap, RuleSet, SetupError, actor_text, pick_by_probability, ruling_fields,
    variant_fields,
)
from tablerules.spec.loader import SpecError

from ..explorer import Step
from .gaps import Config, ModelUnavailable, load_rules, small_configs, steps_to, with_alternative, with_more_players

# --------------------------------------------------------------------------- the static part

_RULE = re.compile(r"#\s*rule:\s*(.*)$")
_PLUMBING = re.compile(r"#\s*plumbing:\s*(.*)$")
_MODULE_PLUMBING = re.compile(r"^\s*#\s*plumbing-module:")
DECLARATION = "PLUMBING"
"""The module-level name that declares what in a module decides nothing about play."""


class AnnotationError(SpecError):
    """The model's annotations cannot be read (an old form, a declared name that is no function);
    the message is one line naming file and line."""
_ID = re.compile(r"^[a-z0-9][a-z0-9]*(?:[.-][a-z0-9]+)+$")


@dataclass(frozen=True)
class Annotation:
    """A ``# rule:`` or ``# plumbing:`` comment on one line."""

    kind: str
    """rule or plumbing."""
    ids: tuple[str, ...] = ()
    why: str = ""
    problem: str = ""
    """Why the comment does not parse (empty when it does)."""


@dataclass(frozen=True)
class DecisionPoint:
    """One place in the model's code where control flow forks."""

    file: str
    """Path relative to the model folder (``dishes/game.py``, ``just_desserts/game.py``)."""
    line: int
    """Where the annotation belongs (and the line whose execution counts as reaching it)."""
    lines: tuple[int, ...]
    """Every line on which an annotation is accepted."""
    kind: str
    """if, elif, while, conditional, filter or match."""
    function: str
    source: str
    exemption: bool = False
    """A branch of an invariant check that returns "no violation" before checking."""

    @property
    def where(self) -> str:
        return f"model/{self.file}:{self.line}"


def _comments(text: str) -> dict[int, str]:
    out = {}
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            out[tok.start[0]] = tok.string
    return out


def parse_annotation(comment: str) -> Annotation | None:
    """The annotation a comment holds, or None when it is an ordinary comment."""
    m = _PLUMBING.search(comment)
    if m:
        why = m.group(1).strip()
        return Annotation("plumbing", why=why, problem="" if why else "'# plumbing:' needs a reason")
    m = _RULE.search(comment)
    if not m:
        return None
    ids = []
    for part in m.group(1).split(","):
        word = part.strip().split(" ")[0] if part.strip() else ""
        if not _ID.match(word):
            return Annotation(
                "rule", tuple(ids), problem=f"'# rule:' expects ids separated by commas, got {part.strip()!r}"
            )
        ids.append(word)
    return Annotation("rule", tuple(ids))


class _Finder(ast.NodeVisitor):
    def __init__(self, file: str, lines: list[str]) -> None:
        self.file, self.src = file, lines
        self.points: list[DecisionPoint] = []
        self.stack: list[str] = []
        self.statement: list[ast.stmt] = []
        self.exempt_functions: set[str] = set()
        self.elifs: set[int] = set()
        self.functions: list[tuple[str, ast.AST]] = []

    def _add(self, node: ast.AST, kind: str, anchor: int, first: int, last: int, exemption: bool = False) -> None:
        text = self.src[anchor - 1].strip() if anchor - 1 < len(self.src) else ""
        self.points.append(DecisionPoint(self.file, anchor, tuple(range(first, last + 1)), kind,
                                         ".".join(self.stack) or "<module>", text, exemption))

    def generic_visit(self, node: ast.AST) -> None:
        if isinstance(node, ast.stmt):
            self.statement.append(node)
            super().generic_visit(node)
            self.statement.pop()
        else:
            super().generic_visit(node)

    def _scope(self, node: ast.AST) -> None:
        self.stack.append(node.name)  # type: ignore[attr-defined]
        if not isinstance(node, ast.ClassDef):
            self.functions.append((".".join(self.stack), node))
        self.generic_visit(node)
        self.stack.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scope

    def visit_If(self, node: ast.If) -> None:
        kind = "elif" if id(node) in self.elifs else "if"
        if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If) and _is_elif(node.orelse[0], self.src):
            self.elifs.add(id(node.orelse[0]))
        exempt = bool(self.stack) and self.stack[-1] in self.exempt_functions and _returns_none(node.body)
        self._add(node, kind, node.lineno, node.lineno, node.test.end_lineno or node.lineno, exempt)
        self.generic_visit(node)

    def visit_While(self, node: ast.While) -> None:
        self._add(node, "while", node.lineno, node.lineno, node.test.end_lineno or node.lineno)
        self.generic_visit(node)

    def visit_Match(self, node: ast.Match) -> None:
        self._add(node, "match", node.lineno, node.lineno, node.subject.end_lineno or node.lineno)
        self.generic_visit(node)

    def _stmt_first(self) -> int:
        return self.statement[-1].lineno if self.statement else 1

    def visit_IfExp(self, node: ast.IfExp) -> None:
        self._add(
            node, "conditional", node.test.lineno, min(self._stmt_first(), node.test.lineno),
            node.test.end_lineno or node.test.lineno,
        )
        self.generic_visit(node)

    def visit_comprehension(self, node: ast.comprehension) -> None:
        for cond in node.ifs:
            self._add(cond, "filter", cond.lineno, min(self._stmt_first(), cond.lineno), cond.end_lineno or cond.lineno)
        self.generic_visit(node)


def _is_elif(node: ast.If, src: list[str]) -> bool:
    return src[node.lineno - 1].lstrip().startswith("elif")


def _returns_none(body: list[ast.stmt]) -> bool:
    """``return None`` / ``return`` as the whole branch: "no violation" in an invariant check."""
    return (len(body) == 1 and isinstance(body[0], ast.Return)
            and (body[0].value is None or (isinstance(body[0].value, ast.Constant) and body[0].value.value is None)))


def _invariant_checks(tree: ast.Module) -> set[str]:
    """Names of the functions a module passes to ``Invariant(name, clause, check, ...)``."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "Invariant":
            args = list(node.args[2:3]) + [k.value for k in node.keywords if k.arg == "check"]
            out |= {a.id for a in args if isinstance(a, ast.Name)}
    return out


@dataclass
class Scan:
    """Every decision point and annotation under a model folder."""

    folder: Path
    points: list[DecisionPoint] = field(default_factory=list)
    annotations: dict[tuple[str, int], Annotation] = field(default_factory=dict)

    exemptions: dict[tuple[str, str], Annotation] = field(default_factory=dict)
    """(file, function's qualified name) -> its ``PLUMBING`` entry; (file, "") for a whole module."""

    problems: list[str] = field(default_factory=list)
    """Declarations and tags that cannot be read, each ``model/FILE:LINE: what is wrong``."""

    def annotation_of(self, point: DecisionPoint) -> Annotation | None:
        for line in (point.line,) + point.lines:
            a = self.annotations.get((point.file, line))
            if a is not None:
                return a
        return self.exemption_of(point.file, point.function)

    def exemption_of(self, file: str, function: str) -> Annotation | None:
        """The plumbing exemption of a function (or an enclosing one), else of its module."""
        parts = function.split(".") if function != "<module>" else []
        for n in range(len(parts), 0, -1):
            a = self.exemptions.get((file, ".".join(parts[:n])))
            if a is not None:
                return a
        return self.exemptions.get((file, ""))

    def files(self) -> list[str]:
        return sorted({p.file for p in self.points})


def model_folder() -> Path:
    import tablerules.model

    return Path(tablerules.model.__file__).resolve().parent


def scan(folder: Path | None = None) -> Scan:
    """Decision points and annotations of every ``.py`` file under the model folder."""
    folder = folder or model_folder()
    out = Scan(folder)
    for path in sorted(folder.rglob("*.py")):
        rel = path.relative_to(folder).as_posix()
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text, str(path))
        finder = _Finder(rel, text.splitlines())
        finder.exempt_functions = _invariant_checks(tree)
        # invariant checks may live in another module of the same rule set: a function whose
        # name and shape say "check one invariant" is recognised where it is passed to Invariant
        finder.visit(tree)
        out.points += finder.points
        comments = _comments(text)
        lines = text.splitlines()
        above: dict[tuple[str, int], Annotation] = {}
        for line, comment in comments.items():
            if _MODULE_PLUMBING.match(lines[line - 1]):
                out.problems.append(f"model/{rel}:{line}: '# plumbing-module:' is the old form: declare "
                                    f"{DECLARATION} = \"<why>\" at the top of the module instead")
                continue
            a = parse_annotation(comment)
            if a is None:
                continue
            if lines[line - 1].lstrip().startswith("#"):
                target = _code_line_below(lines, line)
                if target:
                    above[(rel, target)] = a  # the nearest comment line above wins
            else:
                out.annotations[(rel, line)] = a
        for key, a in above.items():
            out.annotations.setdefault(key, a)  # a tag at the end of the line itself comes first
        for qualname, node in finder.functions:
            line = _old_function_tag(node, comments, lines)
            if line:
                out.problems.append(f"model/{rel}:{line}: '# plumbing:' on the def of {qualname} is the old form: "
                                    f"name {qualname!r} in the module's {DECLARATION} instead")
        _read_declaration(out, rel, tree, {q for q, _n in finder.functions})
    return out


def _read_declaration(out: Scan, rel: str, tree: ast.Module, functions: set[str]) -> None:
    """The module's ``PLUMBING`` (see the module docstring) into ``out.exemptions``; what cannot be
    read into ``out.problems``."""
    found = [n for n in tree.body if isinstance(n, (ast.Assign, ast.AnnAssign))
             and any(isinstance(t, ast.Name) and t.id == DECLARATION
                     for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))]
    for extra in found[1:]:
        out.problems.append(f"model/{rel}:{extra.lineno}: {DECLARATION} is declared a second time")
    if not found or found[0].value is None:
        return
    node = found[0]

    def problem(at: ast.AST, what: str) -> None:
        out.problems.append(f"model/{rel}:{at.lineno}: {DECLARATION}: {what}")

    value = node.value
    if _text(value) is not None:
        if not _text(value):
            problem(node, "the whole module's declaration needs a reason")
        else:
            out.exemptions[(rel, "")] = Annotation("plumbing", why=_text(value))
        return
    if not isinstance(value, ast.Dict):
        problem(node, "expected a dict of function names to reasons, or one reason for the whole module")
        return
    for key, why in zip(value.keys, value.values):
        names = ([key] if _text(key) is not None else list(key.elts) if isinstance(key, ast.Tuple) else [None])
        reason = _text(why)
        if key is None or any(_text(n) is None for n in names):
            problem(key or why, "a key must be a function's name or a tuple of them")
            continue
        if not reason:
            problem(why, f"{', '.join(_text(n) for n in names)}: the reason must be a non-empty string")
            continue
        for n in names:
            name = _text(n)
            if name not in functions:
                problem(n, f"{name!r} is no function of this module")
            elif (rel, name) in out.exemptions:
                problem(n, f"{name!r} is declared twice")
            else:
                out.exemptions[(rel, name)] = Annotation("plumbing", why=reason)


def _text(node: ast.AST | None) -> str | None:
    """The value of a string literal (implicit concatenation included), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.strip()
    return None


def _code_line_below(lines: list[str], line: int) -> int:
    """The code line that a comment line of its own tags: the first line below it that is not a
    comment (0 when a blank line or the end of the file comes first)."""
    n = line + 1
    while n <= len(lines) and lines[n - 1].lstrip().startswith("#"):
        n += 1
    return n if n <= len(lines) and lines[n - 1].strip() else 0


def _old_function_tag(node: ast.AST, comments: dict[int, str], lines: list[str]) -> int:
    """The line of a ``# plumbing:`` in the old place for a whole function (a line of its
    signature, or a comment line of its own right above its ``def`` and decorators), else 0."""
    first = min([node.lineno] + [d.lineno for d in node.decorator_list])  # type: ignore[attr-defined]
    last = node.body[0].lineno - 1 if node.body else node.lineno  # type: ignore[attr-defined]
    candidates = list(range(node.lineno, max(node.lineno, last) + 1))  # type: ignore[attr-defined]
    if first > 1 and lines[first - 2].lstrip().startswith("#"):
        candidates.append(first - 1)
    for line in candidates:
        a = parse_annotation(comments.get(line, ""))
        if a is not None and a.kind == "plumbing":
            return line
    return 0


def known_ids() -> set[str]:
    """Every clause and ruling id of every rule set's spec (pending rulings included)."""
    from tablerules.spec.loader import SpecError, load_spec

    ids: set[str] = set()
    for rid in registry.ruleset_ids():
        try:
            spec = load_spec(rid)
        except SpecError:  # a rule set without a spec (a test's toy) names no ids
            continue
        ids |= set(spec.clauses) | set(spec.rulings)
    return ids


# --------------------------------------------------------------------------- the dynamic part


class _LineTracer:
    """sys.settrace hook recording the decision points run in the model's files.

    Only code objects that still hold a decision point nobody has reached are traced; the
    others run at full speed.  ``pending`` is shared: a point leaves it when reached.
    """

    def __init__(self, files: dict[str, str], pending: set[tuple[str, int]]) -> None:
        self.files = files  # absolute filename -> name relative to the model folder
        self.pending = pending
        self.hits: set[tuple[str, int]] = set()
        self._lines: dict[Any, tuple[str, frozenset[int]]] = {}

    def _code_lines(self, code: Any) -> tuple[str, frozenset[int]]:
        got = self._lines.get(code)
        if got is None:
            rel = self.files[code.co_filename]
            got = (rel, frozenset(line for _a, _b, line in code.co_lines() if line is not None))
            self._lines[code] = got
        return got

    def __call__(self, frame: Any, event: str, arg: Any) -> Any:
        code = frame.f_code
        if event != "call" or code.co_filename not in self.files:
            return None
        rel, lines = self._code_lines(code)
        if not any((rel, line) in self.pending for line in lines):
            return None
        return self._line

    def _line(self, frame: Any, event: str, arg: Any) -> Any:
        if event == "line":
            key = (self.files[frame.f_code.co_filename], frame.f_lineno)
            if key in self.pending:
                self.hits.add(key)
        return self._line

    def take(self) -> set[tuple[str, int]]:
        hits, self.hits = self.hits, set()
        return hits


def clear_model_caches() -> None:
    """Empty every cache in the model's modules, so a cached answer does not hide a line."""
    for name, module in list(sys.modules.items()):
        if not name.startswith("tablerules.model") or module is None:
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()


@dataclass
class Reach:
    """The first trace found to execute a decision point."""

    ruleset: str
    config: str
    setting: str
    steps: tuple[Step, ...]
    during: str
    """What the model was asked: `legal moves`, `apply <move>`, `invariants`, `outcome`, ..."""
    shortest: bool
    """Found breadth-first (the shortest within the search); False when found by a random game."""

    @property
    def length(self) -> int:
        return len(self.steps)

    def to_json(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "configuration": self.config, "setting": self.setting,
                "moves": [s.move for s in self.steps], "during": self.during, "shortest": self.shortest}


@dataclass
class DecisionBudget:
    """Per run: stored states of the breadth-first part, then random games (counts, not seconds)."""

    states: int = 600
    """Under the defaults; every other setting gets a quarter of it (its own branches lie near the start or deep)."""
    games: int = 8
    """Random games per setting (spread over the configurations), after the breadth-first part."""
    game_steps: int = 400
    seed: int = 1


@dataclass
class Run:
    ruleset: str
    config: str
    setting: str
    states: int
    complete: bool
    games: int


def settings(rules: RuleSet) -> list[tuple[str, Any]]:
    """(label, options): the defaults, each optional rule alone and all together, and each other
    alternative of each ruling alone (strict included)."""
    out = [("defaults", rules.Options())]
    variants = variant_fields(rules.Options)
    for name, f in variants.items():
        out.append((f"option {name}", dataclasses.replace(rules.Options(), **{f.name: True})))
    if len(variants) > 1:
        out.append(("every option", dataclasses.replace(rules.Options(), **{f.name: True for f in variants.values()})))
    every = dataclasses.replace(rules.Options(), **{f.name: True for f in variants.values()})
    for rid, f in ruling_fields(rules.Options).items():
        for alt in f.metadata["alternatives"][1:]:
            base = every if variants else rules.Options()
            label = f"{rid.split('.ruling.')[-1]}={alt}" + (" with every option" if variants else "")
            out.append((label, with_alternative(base, rules, rid, alt)))
    return out


def decision_configs(rules: RuleSet, module: ModuleType | None) -> list[Config]:
    """The small configurations, and the same components with one more player where allowed
    (some decisions need a third player)."""
    base = list(small_configs(rules, module).configs)
    return base + with_more_players(rules, base, extra=1)


class _Walker:
    """Plays one configuration under one setting, tying every newly run line to its trace."""

    def __init__(self, rules: RuleSet, tracer: _LineTracer, reached: dict[tuple[str, int], Reach], ruleset: str,
                 config: Config, setting: str) -> None:
        self.rules, self.tracer, self.reached = rules, tracer, reached
        self.ruleset, self.config, self.setting = ruleset, config, setting

    def note(self, steps: Callable[[], tuple[Step, ...]], during: str, shortest: bool) -> None:
        """Tie the decision points run since the last note to this trace (the first trace wins)."""
        new = self.tracer.take()
        if not new:
            return
        found = steps()
        for h in new:
            self.reached[h] = Reach(self.ruleset, self.config.label(), self.setting, found, during, shortest)
            self.tracer.pending.discard(h)

    def look(
        self, state: Any, path: Callable[[], tuple[Step, ...]], shortest: bool
    ) -> tuple[Any, list[tuple[Any, Any, Any]]]:
        """Ask the model everything about a state; (actor, [(move, probability, next state or None)])."""
        rules = self.rules
        for inv in rules.invariants:
            try:
                inv.check(state)
            except Exception:  # noqa: BLE001 - the explorer reports broken invariants; here only lines count
                pass
        self.note(path, "invariants", shortest)
        try:
            actor = rules.to_move(state)
            if actor is TERMINAL:
                rules.outcome(state)
                ways: list[tuple[Any, Any]] = []
            elif actor is CHANCE:
                ways = list(rules.chance_outcomes(state))
            else:
                ways = [(m, None) for m in rules.legal_moves(state)]
        except RuleGap:
            self.note(path, "a rule gap", shortest)
            return TERMINAL, []
        self.note(path, "who moves and the moves", shortest)
        for seat in range(state.setup.players):
            rules.observation(state, seat)
        rules.state_vars(state)
        self.note(path, "observation", shortest)
        out = []
        for move, p in ways:
            try:
                nxt = rules.apply(state, move)
            except RuleGap:
                nxt = None
            self.note(lambda m=move, p=p: path() + (Step(actor_text(actor), str(m), p),), f"apply {move}", shortest)
            out.append((move, p, nxt))
        return actor, out

    def breadth_first(self, start: Any, max_states: int) -> tuple[int, bool]:
        parents: dict[Any, tuple[Any, Step | None]] = {start: (None, None)}

        def path_to(s: Any) -> tuple[Step, ...]:
            return steps_to(parents, s)

        frontier = [start]
        while frontier:
            nxt = []
            for s in frontier:
                actor, ways = self.look(s, lambda s=s: path_to(s), True)
                for move, p, t in ways:
                    if t is not None and t not in parents:
                        if len(parents) >= max_states:
                            return len(parents), False
                        parents[t] = (s, Step(actor_text(actor), str(move), p))
                        nxt.append(t)
            frontier = nxt
        return len(parents), True

    def random_games(self, start: Any, games: int, steps_cap: int, seed: int) -> None:
        """Seeded random games; each step asks what the breadth-first part asks, but applies only the move played."""
        rng = random.Random(seed)
        rules = self.rules
        for _ in range(games):
            s, steps = start, ()
            for _ in range(steps_cap):
                for inv in rules.invariants:
                    try:
                        inv.check(s)
                    except Exception:  # noqa: BLE001 - only lines count here
                        pass
                try:
                    actor = rules.to_move(s)
                    if actor is TERMINAL:
                        rules.outcome(s)
                        self.note(lambda st=steps: st, "outcome", False)
                        break
                    ways = (
                        list(rules.chance_outcomes(s)) if actor is CHANCE else [(m, None) for m in rules.legal_moves(s)]
                    )
                    if not ways:
                        break
                    if actor is CHANCE:
                        move = pick_by_probability(ways, rng.random())
                        p = dict(ways)[move]
                    else:
                        move, p = ways[rng.randrange(len(ways))]
                    self.note(lambda st=steps: st, "who moves and the moves", False)
                    t = rules.apply(s, move)
                except RuleGap:
                    self.note(lambda st=steps: st, "a rule gap", False)
                    break
                steps = steps + (Step(actor_text(actor), str(move), p),)
                self.note(lambda st=steps: st, f"apply {move}", False)
                s = t


# --------------------------------------------------------------------------- the report


UNREGISTERED = "unregistered decision"
SPECIAL = "special case without a ruling"
UNKNOWN = "unknown id"
UNREACHED = "unannotated, not reached"


@dataclass
class DecisionFinding:
    kind: str
    point: DecisionPoint
    detail: str
    reach: Reach | None = None

    def to_json(self) -> dict[str, Any]:
        p = self.point
        return {"kind": self.kind, "file": f"model/{p.file}", "line": p.line, "function": p.function,
                "source": p.source, "detail": self.detail, "trace": self.reach.to_json() if self.reach else None}


@dataclass
class DecisionReport:
    scan: Scan
    reached: dict[tuple[str, int], Reach]
    runs: list[Run]
    findings: list[DecisionFinding]
    not_yet_annotated: dict[str, str]
    """Files excused because another branch annotates them (file -> note); their points are not judged."""
    problems: list[str] = field(default_factory=list)
    """The scan's problems, rule sets that could not be explored, and stale entries of NOT_YET_ANNOTATED."""

    def count(self, kind: str) -> int:
        return sum(1 for f in self.findings if f.kind == kind)

    @property
    def ok(self) -> bool:
        return not self.findings and not self.problems

    def excused(self) -> set[str]:
        """The files not judged: listed in NOT_YET_ANNOTATED and not yet wholly annotated."""
        return excused_files(self.scan, self.not_yet_annotated)

    def judged_points(self) -> list[DecisionPoint]:
        excused = self.excused()
        return [p for p in self.scan.points if p.file not in excused]

    def summary(self) -> str:
        pts = self.judged_points()
        rule = sum(1 for p in pts if (a := self.scan.annotation_of(p)) and a.kind == "rule")
        plumbing = sum(1 for p in pts if (a := self.scan.annotation_of(p)) and a.kind == "plumbing")
        executed = sum(1 for p in pts if (p.file, p.line) in self.reached)
        text = (f"{len(pts)} decision points ({rule} rule, {plumbing} plumbing), {executed} executed by the "
                f"explorations; "
                f"{self.count(UNREGISTERED)} unregistered decisions, {self.count(SPECIAL)} special cases without a "
                f"ruling, "
                f"{self.count(UNKNOWN)} unknown ids, {self.count(UNREACHED)} unannotated and not reached")
        if self.excused():
            text += f"; not judged (being annotated on another branch): {', '.join(sorted(self.excused()))}"
        if self.problems:
            text += "; " + "; ".join(self.problems)
        return text


NOT_YET_ANNOTATED: dict[str, str] = {}
"""Model files whose annotations come from another branch (file relative to model/ -> who).

An entry excuses a file only while some decision point in it has no annotation (the
annotations may land a few at a time): once every point is annotated, the entry is stale
and the report says so (remove it then).  Every other file, the Just Desserts package
(``just_desserts/*.py``) included, is judged."""


def excused_files(sc: Scan, not_yet: dict[str, str]) -> set[str]:
    """The files of ``not_yet`` that still hold a decision point without an annotation."""
    return {p.file for p in sc.points if p.file in not_yet and sc.annotation_of(p) is None}


def judge(sc: Scan, reached: dict[tuple[str, int], Reach], ids: set[str],
          not_yet: dict[str, str]) -> tuple[list[DecisionFinding], list[str]]:
    findings: list[DecisionFinding] = []
    problems = list(sc.problems)
    excused = excused_files(sc, not_yet)
    for f in sorted(not_yet):
        if f not in sc.files():
            problems.append(f"model/{f} is listed in NOT_YET_ANNOTATED but has no decision point (moved?)")
        elif f not in excused:
            problems.append(f"model/{f} has every decision point annotated now: remove it from NOT_YET_ANNOTATED")
    for p in sc.points:
        if p.file in excused:
            continue
        a = sc.annotation_of(p)
        r = reached.get((p.file, p.line))
        if a is None:
            kind = UNREGISTERED if r is not None else UNREACHED
            findings.append(DecisionFinding(kind, p, f"no '# rule:' or '# plumbing:', no {DECLARATION} entry", r))
            if p.exemption:
                findings.append(
                    DecisionFinding(SPECIAL, p, "an invariant check exempts these states and names no ruling", r)
                )
            continue
        if a.problem:
            findings.append(DecisionFinding(UNKNOWN, p, a.problem, r))
            continue
        unknown = [i for i in a.ids if i not in ids]
        if unknown:
            findings.append(DecisionFinding(UNKNOWN, p, f"names ids in no spec: {', '.join(unknown)}", r))
        if p.exemption and not any(".ruling." in i for i in a.ids):
            findings.append(
                DecisionFinding(SPECIAL, p, "an invariant check exempts these states; the exemption names no ruling", r)
            )
    order = {UNREGISTERED: 0, SPECIAL: 1, UNKNOWN: 2, UNREACHED: 3}
    findings.sort(key=lambda f: (order[f.kind], f.point.file, f.point.line))
    return findings, problems


Target = tuple[str, RuleSet, Sequence[Config]]
"""(rule set id, rules, configurations) to explore."""


def registered_targets(rulesets: Sequence[str] | None = None) -> tuple[list[Target], list[str]]:
    """The registered rule sets with their decision configurations, and the ones that do not load."""
    targets, problems = [], []
    for rid in rulesets or registry.ruleset_ids():
        try:
            rules, module = load_rules(rid)
        except ModelUnavailable as e:
            problems.append(str(e))
            continue
        targets.append((rid, rules, decision_configs(rules, module)))
    return targets, problems


def explore_decisions(rulesets: Sequence[str] | None = None, budget: DecisionBudget | None = None,
                      progress: Callable[[str], Any] | None = None, folder: Path | None = None,
                      not_yet: dict[str, str] | None = None, targets: Sequence[Target] | None = None,
                      ids: set[str] | None = None) -> DecisionReport:
    """Scan the model, run the explorations under line tracing, and judge every decision point.

    ``targets`` and ``ids`` replace the registered rule sets and the spec ids (for tests)."""
    budget = budget or DecisionBudget()
    problems: list[str] = []
    if targets is None:
        targets, problems = registered_targets(rulesets)
    sc = scan(folder)
    not_yet = NOT_YET_ANNOTATED if not_yet is None else not_yet
    files = {str((sc.folder / f).resolve()): f for f in sc.files()}
    files.update({str(sc.folder / f): f for f in sc.files()})
    tracer = _LineTracer(files, {(p.file, p.line) for p in sc.points})
    reached: dict[tuple[str, int], Reach] = {}
    runs: list[Run] = []
    for rid, rules, configs in targets:
        plan = [(label, options, config) for label, options in settings(rules) for config in configs]
        # breadth-first everywhere first (the defaults first), so a point gets the shortest trace
        # of the first setting that reaches it; then random games for what lies deeper
        for phase in ("breadth-first", "random games"):
            for label, options, config in plan:
                if not tracer.pending:
                    break
                if progress:
                    progress(f"decisions {rid}: {phase}, {config.label()}, {label}")
                clear_model_caches()
                walker = _Walker(rules, tracer, reached, rid, config, label)
                old = sys.gettrace()
                sys.settrace(tracer)
                try:
                    try:
                        start = rules.new_game(config.setup(rules, options))
                    except (SetupError, RuleGap):
                        walker.note(lambda: (), "set-up", True)
                        continue
                    walker.note(lambda: (), "set-up", True)
                    if phase == "breadth-first":
                        cap = budget.states if label == "defaults" else max(1, budget.states // 4)
                        states, complete = walker.breadth_first(start, cap)
                        runs.append(Run(rid, config.label(), label, states, complete, 0))
                    else:  # the setting's games spread over its configurations
                        k = configs.index(config)
                        games = budget.games // len(configs) + (1 if k < budget.games % len(configs) else 0)
                        walker.random_games(start, games, budget.game_steps, budget.seed + k)
                        runs.append(Run(rid, config.label(), label, 0, False, games))
                finally:
                    sys.settrace(old)
                    tracer.take()
    findings, stale = judge(sc, reached, known_ids() if ids is None else ids, not_yet)
    return DecisionReport(sc, reached, runs, findings, dict(not_yet), problems + stale)


def static_findings(
    folder: Path | None = None, not_yet: dict[str, str] | None = None
) -> tuple[list[DecisionFinding], list[str]]:
    """The findings that need no exploration (every decision point counts as not reached)."""
    return judge(scan(folder), {}, known_ids(), NOT_YET_ANNOTATED if not_yet is None else not_yet)


# --------------------------------------------------------------------------- the check item


def decision_check_item(ruleset_id: str, states: int = 250):
    """A check-suite item: the model's decision points, explored on this rule set's small
    configurations within ``states`` stored states per run; fails on an unregistered decision,
    a special case without a ruling or an unknown id (in any model file this rule set runs)."""
    from ..checks import FAIL, PASS, CheckItem, CheckResult, Context

    name = "decision points name their clause or ruling"

    def run(ctx: Context) -> CheckResult:
        report = explore_decisions([ruleset_id], DecisionBudget(states=states if not ctx.quick else states // 3,
                                                                games=6 if not ctx.quick else 3, seed=1 + ctx.seed))
        touched = {f for (f, _l) in report.reached}
        findings = [f for f in report.findings if f.point.file in touched and f.kind != UNREACHED]
        rows = [
            (
                f"{f.kind}: {f.point.where}",
                f"{f.point.source[:60]} ({f.detail})"
                + (f"; reached after {f.reach.length} moves on {f.reach.config}, {f.reach.setting}" if f.reach else ""),
            )
            for f in findings
        ]
        rows.append(("runs", f"{len(report.runs)} (configurations x settings): breadth-first within {states:,} stored "
                             f"states "
                     "under the defaults (a quarter of it under each other setting), then seeded random games"))
        status = FAIL if findings or report.problems else PASS
        return CheckResult(ruleset_id, name, status, report.summary(), rows)

    return CheckItem(ruleset_id, name, run)
