"""Which clauses and rulings a search from the deal reaches: the clause-reach table.

A *reach search* is one configuration (components, a player count, optional rules, ruling
alternatives) explored breadth-first from the start: every seat move and every chance outcome,
each state asked everything the core API answers (:func:`~tablerules.proofs.discovery.mutation.reference.signature`),
with every decision test of the rule set's step API probed
(:class:`~tablerules.proofs.discovery.mutation.reference.Probes`) and the functions that cite a clause in
their docstring watched.  Its budget counts stored states; a search that stays within it is
*complete* (every reachable state was asked).  The searches of a rule set, and the arguments
for what they do not reach, are on record in ``proofs/manifests/<rule set>_reach.toml``.

An id of the spec is **reached** by a search when

* a clause: a decision point whose ``# rule:`` annotation names it took both outcomes (the
  clause's situation arose, and elsewhere did not), or a function whose docstring cites it ran
  (straight-line code: the tip after a block, the desserts taken back);
* a ruling: a decision point naming it ran (the question it answers came up), or a function
  citing it ran.

Each reached id names the first search (in the manifest's order) that reached it and the
length of the shortest trace to a state where it did (breadth-first: the first such state).
An id no search reaches needs an argument on record (why no small search can reach it, or why
nothing in the model's play decides it); without one it is *not reached* and the check fails.
An argument for an id that a search does reach is stale, and fails the check too.
"""

from __future__ import annotations

import dataclasses
import os
import re
import sys
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Callable, Sequence

from tablerules.model.core import STRICT, RuleSet, Setup, SetupError, actor_text, ruling_fields, variant_fields

from .decisions import DecisionPoint, model_folder, scan
from ..explorer import Step
from .gaps import load_rules, steps_to, with_alternative
from .mutation.mutants import STEP_API_FILES
from .mutation.reference import Probes, Stopped, clear_caches, signature

REACHED = "reached"
ARGUED = "argued"
NOT_REACHED = "NOT REACHED"
STALE = "stale argument"


# --------------------------------------------------------------------------- the record


@dataclass(frozen=True)
class Search:
    """One configuration searched breadth-first from the start."""

    players: int
    deck: str | None = None
    """An embedded deck name, or None for the rule set's default components."""
    options: tuple[str, ...] = ()
    """Optional rules switched on (the command line's names: ``surprise-parties``)."""
    rulings: tuple[tuple[str, str], ...] = ()
    """(ruling id, alternative) pairs other than the defaults."""
    max_states: int = 400_000
    why: str = ""

    def label(self) -> str:
        parts = [f"{self.players} players", self.deck or "default components"]
        parts.append(", ".join(self.options) if self.options else "basic game")
        parts += [f"{rid.split('.ruling.')[-1]}={alt}" for rid, alt in self.rulings]
        return "; ".join(parts)

    def setup(self, rules: RuleSet) -> Setup:
        opts = rules.Options()
        variants = variant_fields(rules.Options)
        for name in self.options:
            if name not in variants:
                raise ValueError(f"unknown optional rule {name!r} (known: {', '.join(variants)})")
            opts = dataclasses.replace(opts, **{variants[name].name: True})
        for rid, alt in self.rulings:
            opts = with_alternative(opts, rules, rid, alt)
        components = rules.load_components(self.deck) if self.deck else None
        return rules.setup(self.players, opts, components)


@dataclass(frozen=True)
class Record:
    """A rule set's reach searches and its arguments for the ids they do not reach."""

    ruleset: str
    searches: tuple[Search, ...]
    argued: dict[str, str]
    path: str


def record_path(ruleset: str) -> str:
    return "proofs/manifests/" + ruleset.replace("-", "_").replace(".", "") + "_reach.toml"


def load_record(ruleset: str) -> Record | None:
    """The rule set's reach record, or None when it has none (a test's toy rule set)."""
    fname = ruleset.replace("-", "_").replace(".", "") + "_reach.toml"
    path = resources.files("tablerules.proofs").joinpath("manifests", fname)
    if not path.is_file():
        return None
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    searches = []
    for k, s in enumerate(data.get("search", [])):
        unknown = set(s) - {"players", "deck", "options", "rulings", "max_states", "why"}
        if unknown:
            raise ValueError(f"{record_path(ruleset)}: search[{k}]: unknown key {sorted(unknown)[0]!r}")
        searches.append(Search(int(s["players"]), s.get("deck"), tuple(s.get("options", ())),
                               tuple(sorted(s.get("rulings", {}).items())), int(s.get("max_states", 400_000)),
                               s.get("why", "")))
    return Record(ruleset, tuple(searches), dict(data.get("argued", {})), record_path(ruleset))


# --------------------------------------------------------------------------- what names an id


_ID_WORD = re.compile(r"[a-z0-9]+(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)+")


@dataclass(frozen=True)
class Citing:
    """A function of the step API whose docstring cites ids."""

    file: str
    function: str
    first_line: int
    """The code object's first line (the first decorator's, or the ``def``)."""
    ids: tuple[str, ...]

    @property
    def where(self) -> str:
        return f"model/{self.file}::{self.function}"


def citing_functions(files: Sequence[str], ids: set[str]) -> list[Citing]:
    """Every function (or method) of ``files`` whose docstring cites one of ``ids``."""
    import ast

    out = []
    folder = model_folder()
    for file in files:
        tree = ast.parse((folder / file).read_text(encoding="utf-8"))
        stack: list[tuple[ast.AST, str]] = [(n, "") for n in tree.body]
        while stack:
            node, prefix = stack.pop()
            if isinstance(node, ast.ClassDef):
                stack += [(n, f"{prefix}{node.name}.") for n in node.body]
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node) or ""
                cited = tuple(sorted({w for w in _ID_WORD.findall(doc) if w in ids}))
                if cited:
                    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                    out.append(Citing(file, prefix + node.name, first, cited))
    return sorted(out, key=lambda c: (c.file, c.first_line))


@dataclass
class Namers:
    """What in the step API names each id: decision points (by annotation) and citing functions."""

    points: dict[str, list[DecisionPoint]]
    functions: dict[str, list[Citing]]
    point_at: dict[tuple[str, int], DecisionPoint]
    """(file, line of a decision test) -> its decision point."""


def namers(ruleset: str, ids: set[str]) -> Namers:
    files = STEP_API_FILES.get(ruleset, ())
    sc = scan()
    points: dict[str, list[DecisionPoint]] = {}
    point_at: dict[tuple[str, int], DecisionPoint] = {}
    for p in sc.points:
        if p.file not in files:
            continue
        for line in p.lines:
            point_at.setdefault((p.file, line), p)
        point_at[(p.file, p.line)] = p
        a = sc.annotation_of(p)
        if a is not None and a.kind == "rule":
            for i in a.ids:
                points.setdefault(i, []).append(p)
    functions: dict[str, list[Citing]] = {}
    for c in citing_functions(files, ids):
        for i in c.ids:
            functions.setdefault(i, []).append(c)
    return Namers(points, functions, point_at)


# --------------------------------------------------------------------------- one search


class _Calls:
    """A global trace hook that notes the first state during which each watched function ran
    (call events only: no line tracing)."""

    def __init__(self, watched: dict[tuple[str, int], Citing]) -> None:
        self.watched = watched
        self.first: dict[Citing, Any] = {}
        self.current: Any = None
        self._real: dict[str, str] = {}

    def __call__(self, frame: Any, event: str, arg: Any) -> None:
        code = frame.f_code
        name = self._real.get(code.co_filename)
        if name is None:
            name = self._real[code.co_filename] = os.path.realpath(code.co_filename)
        c = self.watched.get((name, code.co_firstlineno))
        if c is not None and c not in self.first:
            self.first[c] = self.current
        return None


@dataclass
class SearchRun:
    """What one reach search saw."""

    search: Search
    states: int = 0
    complete: bool = False
    depth: int = 0
    problem: str = ""
    """Why the search could not start (a set-up the rules refuse), else empty."""
    outcomes: dict[DecisionPoint, set[bool]] = field(default_factory=dict, repr=False)
    first: dict[tuple[DecisionPoint, bool], Any] = field(default_factory=dict, repr=False)
    """(decision point, outcome) -> the first state (breadth-first) whose questions took it."""
    called: dict[Citing, Any] = field(default_factory=dict, repr=False)
    error: str = ""
    """The first model error the search met (the API raised where it must answer), else empty."""
    stopped_early: bool = False
    """Stopped before the end: nothing it was searched for was left to reach."""
    parents: dict[Any, tuple[Any, Step | None]] = field(default_factory=dict, repr=False)

    def trace(self, state: Any) -> tuple[Step, ...]:
        return steps_to(self.parents, state)

    def moves_to(self, state: Any) -> int:
        return len(self.trace(state))


def _still_pending(pending: set[str], probes: Probes, calls: _Calls, nm: Namers) -> set[str]:
    """The clause ids of ``pending`` this search has not reached yet (read from the live probes)."""
    both = {nm.point_at.get((f, line)) for (f, line, _c), v in probes.outcomes.items() if len(v) == 2}
    left = set()
    for rid in pending:
        pts = nm.points.get(rid, ())
        if pts:
            if not any(p in both for p in pts):
                left.add(rid)
        elif not any(c in calls.first for c in nm.functions.get(rid, ())):
            left.add(rid)
    return left


_BEFORE = "the set-up"
"""Stands for the state before the deal: what runs while setting up counts 0 moves from it."""


def run_search(rules: RuleSet, search: Search, nm: Namers, progress: Callable[[str], Any] | None = None,
               pending: set[str] | None = None) -> SearchRun:
    """Explore one configuration breadth-first to its state budget, probing every decision test.

    With ``pending`` (clause ids still to reach), the search stops at the end of the first level
    after which none of them is left: what lies deeper can reach nothing new."""
    run = SearchRun(search)
    folder = model_folder()
    watched = {(os.path.realpath(folder / c.file), c.first_line): c for cs in nm.functions.values() for c in cs}
    calls = _Calls(watched)
    probes = Probes(STEP_API_FILES[rules.id])
    clear_caches()
    old = sys.gettrace()
    probes.__enter__()
    probes.take()
    probes.current = calls.current = _BEFORE
    run.parents[_BEFORE] = (None, None)
    sys.settrace(calls)
    try:
        try:
            setup = search.setup(rules)
            run.problem = rules.setup_error(setup) or ""
            start = None if run.problem else rules.new_game(setup)
        except (SetupError, ValueError, KeyError) as e:
            run.problem = str(e)
        if not run.problem:
            run.parents[start] = (None, None)
            frontier, depth, cut = [start], 0, False
            while frontier:
                nxt = []
                for s in frontier:
                    probes.current = calls.current = s
                    sig, ways = signature(rules, s)
                    if sig[0][0] == "error" and not run.error:
                        run.error = f"{sig[0][1]} at a state {run.moves_to(s)} moves from the deal"
                    who = None
                    for m, p, t in ways:
                        if isinstance(t, Stopped) or t in run.parents:
                            continue
                        if len(run.parents) >= search.max_states:
                            cut = True
                            continue
                        if who is None:
                            who = actor_text(rules.to_move(s))
                        run.parents[t] = (s, Step(who, str(m), p))
                        nxt.append(t)
                frontier = nxt
                depth += 1 if nxt else 0
                if pending is not None and nxt and not _still_pending(pending, probes, calls, nm):
                    run.stopped_early = True
                    break
                if progress and nxt:
                    progress(f"reach {rules.id}: {search.label()}: {len(run.parents) - 1:,} states, depth {depth}")
            run.complete, run.depth, run.states = not cut and not run.stopped_early, depth, len(run.parents) - 1
    finally:
        sys.settrace(old)
        probes.__exit__()
        outcomes, triggers = probes.take()
    for (file, line, col), values in outcomes.items():
        p = nm.point_at.get((file, line))
        if p is None:
            continue
        run.outcomes.setdefault(p, set()).update(values)
        for b in values:
            states = triggers.get(((file, line, col), b))
            if states and (p, b) not in run.first:
                run.first[(p, b)] = states[0]
    run.called = calls.first
    return run


# --------------------------------------------------------------------------- the table


@dataclass
class Row:
    id: str
    kind: str
    """``clause (text)``, ``clause (reading)``, ... or ``ruling``."""
    status: str
    detail: str
    search: str = ""
    moves: int | None = None
    trace: tuple[Step, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "status": self.status, "detail": self.detail,
                "search": self.search, "moves": self.moves, "trace": [s.move for s in self.trace]}


@dataclass
class ReachReport:
    ruleset: str
    rows: list[Row]
    runs: list[SearchRun]
    problems: list[str]

    @property
    def ok(self) -> bool:
        return (not self.problems and not any(r.error for r in self.runs)
                and all(r.status in (REACHED, ARGUED) for r in self.rows))

    def count(self, status: str) -> int:
        return sum(1 for r in self.rows if r.status == status)

    def summary(self) -> str:
        complete = sum(1 for r in self.runs if r.complete)
        errors = sum(1 for r in self.runs if r.error)
        text = (f"{len(self.rows)} clauses and rulings: {self.count(REACHED)} reached by a search from the deal, "
                f"{self.count(ARGUED)} argued on record; {len(self.runs)} searches ({complete} complete, the others "
                f"stopped with nothing left to reach or at their budget)"
                + (f"; {errors} met a model error" if errors else ""))
        bad = self.count(NOT_REACHED) + self.count(STALE)
        return text + (f"; {self.count(NOT_REACHED)} not reached, {self.count(STALE)} stale arguments" if bad else "")

    def table(self) -> list[tuple[str, str]]:
        out = []
        for k, r in enumerate(self.runs, 1):
            how = ("complete" if r.complete else "could not start: " + r.problem if r.problem else
                   "stopped: nothing it could still reach was left" if r.stopped_early else
                   f"stopped at its budget of {r.search.max_states:,} states")
            out.append((f"search {k}", f"{r.search.label()}: {r.states:,} states, depth {r.depth}, {how}"
                        + (f"; MODEL ERROR {r.error}" if r.error else "")))
        for r in self.rows:
            where = f"search {r.search}, {r.moves} moves from the deal: " if r.status == REACHED else ""
            out.append((f"{r.id} ({r.kind})", f"{r.status}: {where}{r.detail}"))
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset, "ok": self.ok, "summary": self.summary(),
            "searches": [
                {
                    "search": r.search.label(), "why": r.search.why, "states": r.states, "complete": r.complete,
                    "stopped_early": r.stopped_early, "depth": r.depth, "problem": r.problem, "error": r.error,
                }
                for r in self.runs
            ],
            "rows": [r.to_json() for r in self.rows],
            "problems": self.problems,
        }


def _point_text(p: DecisionPoint) -> str:
    return f"{p.where} ({p.function})"


def _clause_reach(run: SearchRun, rid: str, nm: Namers) -> tuple[Any, str] | None:
    """(the first state where this search reached the clause, how), or None.

    A clause that decision points name is reached where one of them has gone both ways; a
    clause no decision point names, where a function citing it ran."""
    best: tuple[int, Any, str] | None = None
    for p in nm.points.get(rid, ()):
        seen = run.outcomes.get(p, set())
        firsts = [run.first[(p, b)] for b in seen if (p, b) in run.first]
        if len(seen) < 2 or len(firsts) < 2:
            continue
        state = max(firsts, key=run.moves_to)  # where the point had gone both ways
        n = run.moves_to(state)
        if best is None or n < best[0]:
            best = (n, state, f"decided at {_point_text(p)}")
    if nm.points.get(rid):
        return None if best is None else (best[1], best[2])
    for c in nm.functions.get(rid, ()):
        if run.called.get(c) is not None:
            n = run.moves_to(run.called[c])
            if best is None or n < best[0]:
                best = (n, run.called[c], f"ran {c.where} (no decision point names it; the docstring cites it)")
    return None if best is None else (best[1], best[2])


def _clause_why_not(rid: str, runs: Sequence[SearchRun], nm: Namers) -> str:
    """The best evidence short of reach, for a clause no search reached."""
    pts = nm.points.get(rid, [])
    fns = nm.functions.get(rid, [])
    if not pts and not fns:
        return "no decision point of the step API names it and no function's docstring cites it"
    seen: set[bool] = set()
    for r in runs:
        for p in pts:
            seen |= r.outcomes.get(p, set())
    if len(seen) == 1:
        return f"its decision points ran, always {next(iter(seen))}: {', '.join(_point_text(p) for p in pts[:3])}"
    return "named by " + ", ".join([_point_text(p) for p in pts[:3]] + [c.where for c in fns[:3]]) + "; never run"


@dataclass(frozen=True)
class RulingBudget:
    """How hard the table looks for a place where a ruling's readings part (counts, never seconds)."""

    first_pairs: int = 1_000
    """State pairs of the first breadth-first pass, on every search's configuration."""
    pairs: int = 20_000
    """State pairs of the breadth-first search where a random lockstep game saw the readings part."""
    probe_games: int = 20
    """Random lockstep games per configuration, alternative and setting."""
    seed: int = 1
    """Seed of those games (``check --seed`` adds to it)."""


@dataclass
class RulingReach:
    search: int = 0
    divergence: Any = None
    setting: str = ""
    """The other ruling changed to make the readings part ('' when the search's own options did)."""
    seen: list[str] = field(default_factory=list)


def _settings(rules: RuleSet, rid: str, options: Any) -> list[tuple[str, Any]]:
    """The search's own options, then each with one other ruling at another non-strict alternative
    (some rulings matter only in combination: a tip count only where a serving may hold extra cards)."""
    out = [("", options)]
    for other, f in ruling_fields(rules.Options).items():
        for alt in f.metadata["alternatives"][1:] if other != rid else ():
            if alt != STRICT:
                out.append((f"{other.split('.ruling.')[-1]}={alt}", with_alternative(options, rules, other, alt)))
    return out


def _ruling_reach(rules: RuleSet, rid: str, runs: Sequence[SearchRun], budget: RulingBudget,
                  combinations: bool = True) -> RulingReach:
    """Where a ruling's default and another alternative first part, on the searches' configurations.

    First breadth-first over pairs of states within ``first_pairs`` on every configuration (the
    shortest partings); then random lockstep games, under the search's own options and (with
    ``combinations``) with one other ruling changed; where a game sees them part, breadth-first
    within ``pairs`` for the shortest trace (the game's own trace if that search is cut)."""
    from .divergence import PairBudget, diverge, from_probe, probe
    from .gaps import Config

    alts = ruling_fields(rules.Options)[rid].metadata["alternatives"]
    out = RulingReach()
    started = []
    for k, run in enumerate(runs, 1):
        if not run.problem:
            setup = run.search.setup(rules)
            started.append((k, run, Config(setup.players, setup.components, run.search.deck), setup.options))
    first = PairBudget(max_pairs=budget.first_pairs, probe_games=0, witness_games=0)
    for k, run, config, options in started:
        for b in alts[1:]:
            d = diverge(rules, rid, alts[0], b, [config], base=options, budget=first)
            if d.found:
                out.search, out.divergence = k, d
                return out
            out.seen.append(f"search {k}, {b}: " + ("never part (every reachable pair compared)" if d.complete
                                                    else f"not within {d.depth} moves"))
    wide = PairBudget(max_pairs=budget.pairs, probe_games=0, witness_games=0)
    stages = [False, True] if combinations else [False]
    for with_others in stages:
        for k, run, config, options in started:
            settings = _settings(rules, rid, options)
            for label, base in settings[1:] if with_others else settings[:1]:
                for b in alts[1:]:
                    hit = probe(rules, rid, alts[0], b, [config], base, games=budget.probe_games, seed=budget.seed)
                    if hit is None:
                        continue
                    d = diverge(rules, rid, alts[0], b, [config], base=base, budget=wide)
                    out.search, out.setting = k, label
                    out.divergence = d if d.found else from_probe(rules, rid, alts[0], b, hit, d)
                    return out
        out.seen.append(f"no random lockstep game parts them ({budget.probe_games} per configuration, alternative"
                        + (" and setting, with each other ruling changed in turn)" if with_others else ")"))
    return out


def _statements(ruleset: str) -> dict[str, list[str]]:
    """Clause id -> the keys of the text properties and examples that state it."""
    from ..properties import property_set

    try:
        by = property_set(ruleset).by_clause()
    except (ImportError, KeyError, ValueError):
        return {}
    return {c: [p.key for p in ps] for c, ps in by.items()}


def _stated_by(stated: dict[str, list[str]], rid: str) -> str:
    keys = stated.get(rid, [])
    if not keys:
        return ""
    return f" The text as properties (proofs/properties/): {', '.join(keys)}."


def reach_report(ruleset: str, record: Record | None = None, progress: Callable[[str], Any] | None = None,
                 searches: Sequence[Search] | None = None, budget: RulingBudget | None = None) -> ReachReport:
    """Run the rule set's reach searches and judge every clause and ruling of its spec."""
    from tablerules.spec.loader import load_spec

    rules, _module = load_rules(ruleset)
    budget = budget or RulingBudget()
    record = record or load_record(ruleset)
    if record is None:
        return ReachReport(ruleset, [], [], [f"{ruleset}: no reach record ({record_path(ruleset)})"])
    spec = load_spec(ruleset)
    ids = set(spec.clauses) | set(spec.rulings)
    nm = namers(ruleset, ids)
    problems = [f"{record.path}: [argued] names {i!r}, which is in no clause or ruling of the spec"
                for i in sorted(set(record.argued) - ids)]
    runs = []
    pending = {i for i in spec.clauses if (nm.points.get(i) or nm.functions.get(i)) and i not in record.argued}
    for search in searches if searches is not None else record.searches:
        runs.append(run_search(rules, search, nm, progress, pending))
        pending = {i for i in pending if _clause_reach(runs[-1], i, nm) is None}
        if runs[-1].problem:
            problems.append(f"{record.path}: search {search.label()!r} cannot start: {runs[-1].problem}")
    stated = _statements(ruleset)
    rows = []
    for rid in list(spec.clauses) + list(spec.rulings):
        is_ruling = rid in spec.rulings
        kind = "ruling" if is_ruling else f"clause ({spec.clauses[rid].basis})"
        if progress:
            progress(f"reach {ruleset}: {rid}")
        found: tuple[int, int, str, tuple[Step, ...]] | None = None  # (search, moves, how, trace)
        if is_ruling:
            got = _ruling_reach(rules, rid, runs, budget, combinations=rid not in record.argued)
            d = got.divergence
            if d is not None:
                how = d.statement() + (f", with {got.setting} (under the search's own options they do not part)"
                                       if got.setting else "")
                how += (f" (breadth-first over pairs of states: {d.pairs:,} pairs)" if d.shortest
                        else " (a random lockstep game's trace; the breadth-first search was cut)")
                found = (got.search, len(d.steps), how, d.steps)
            why_not = "its readings do not part: " + "; ".join(got.seen) if got.seen else "no search started"
        else:
            for k, run in enumerate(runs, 1):
                got = _clause_reach(run, rid, nm)
                if got is not None:
                    found = (k, run.moves_to(got[0]), got[1], run.trace(got[0]))
                    break
            why_not = _clause_why_not(rid, runs, nm)
        argued = record.argued.get(rid)
        if found is not None:
            k, moves, how, trace = found
            if argued:
                rows.append(
                    Row(
                        rid, kind, STALE, f"{record.path} argues it is not reached, but search {k} reaches it: {how}",
                        str(k), moves, trace,
                    )
                )
            else:
                rows.append(Row(rid, kind, REACHED, how, str(k), moves, trace))
        elif argued:
            rows.append(Row(rid, kind, ARGUED, argued + _stated_by(stated, rid)))
        else:
            rows.append(Row(rid, kind, NOT_REACHED, f"{why_not}; no argument in {record.path}"))
    return ReachReport(ruleset, rows, runs, problems)


# --------------------------------------------------------------------------- the check item


def _every_few_seconds(seconds: float = 5.0) -> Callable[[str], None]:
    """A progress printer for standard error: a line at most every few seconds (display only)."""
    import time

    last = [0.0]

    def show(line: str) -> None:
        now = time.monotonic()
        if now - last[0] >= seconds:
            last[0] = now
            print(line, file=sys.stderr, flush=True)

    return show


def reach_check_item(ruleset_id: str):
    """A check-suite item: the clause-reach table; fails on a clause or ruling that no search
    reaches and no argument on record explains, on a stale argument, or on a record problem."""
    from ..checks import FAIL, PASS, CheckItem, CheckResult, Context

    name = "clause reach: every clause and ruling reached by a search from the deal, or argued"

    def run(ctx: Context) -> CheckResult:
        ctx.progress(name)  # closes the previous item's live display
        report = reach_report(ruleset_id, progress=_every_few_seconds(), budget=RulingBudget(seed=1 + ctx.seed))
        rows = report.table() + [(f"problem {k}", p) for k, p in enumerate(report.problems, 1)]
        rows.append(
            (
                "again",
                f"tablerules check {ruleset_id} (this item); the searches and arguments: {record_path(ruleset_id)}",
            )
        )
        return CheckResult(ruleset_id, name, PASS if report.ok else FAIL, report.summary(), rows)

    return CheckItem(ruleset_id, name, run)
