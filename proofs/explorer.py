"""Breadth-first exploration of any rule set through the core API.

From every initial state of a configuration, every seat move and every chance outcome is
followed; every invariant is checked at every state; the first (so shortest) trace into
every kind of finding is kept:

* ``violation``: an invariant broken (named by invariant and clause);
* ``gap``: a ``strict`` ruling alternative raised :class:`RuleGap`;
* ``dead-end``: not an end, yet nobody can act;
* ``bad-chance``: chance outcomes that are not exact and do not sum to 1;
* ``error``: the model itself raised (a bug).

Traps (states from which no end can be reached) need the whole graph: see
:func:`graph_analysis`.

What a search covers is decided by its state budget alone (:class:`Budget`), so the same
inputs always give the same answer.  A wall-clock limit may stop a search early; it is then
*incomplete* (``timed_out``), which callers report apart from any verdict.  Symmetry reduction
maps each state to a representative of its
orbit before it is stored; traces are turned back into real, replayable move lists by
:meth:`Exploration.trace`.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Iterable, Sequence

from tablerules.model.core import CHANCE, TERMINAL, IllegalMove, RuleGap, RuleSet, actor_text, check_distribution

Canon = Callable[[Any], Any]


@dataclass(frozen=True)
class Step:
    """One step of a trace: who acted, the move's canonical text, its probability if chance."""

    actor: str
    move: str
    probability: Fraction | None = None

    def text(self) -> str:
        p = f" (p={self.probability})" if self.probability is not None else ""
        return f"{self.actor}: {self.move}{p}"


@dataclass
class Finding:
    kind: str
    key: str
    """Invariant name, ruling id, or the kind again for dead ends and errors."""
    clause: str
    detail: str
    state: Any
    move: Any = None
    """For gaps and errors raised by a move: that move (not yet in the trace)."""
    depth: int = 0
    trace: tuple[Step, ...] = ()
    start: Any = None
    """The initial state the trace starts from (filled in with the trace)."""

    def title(self) -> str:
        return f"{self.kind} {self.key}"


@dataclass
class Budget:
    """How far a search may go.

    ``max_states`` (distinct stored states) decides what the search covers.  ``max_seconds``
    is only a wall-clock limit: reaching it stops the search as *incomplete*, which is never
    a verdict about the rules.
    """

    max_states: int | None = None
    max_seconds: float | None = None

    def text(self) -> str:
        parts = []
        if self.max_states:
            parts.append(f"{self.max_states:,} states")
        if self.max_seconds:
            parts.append(f"time limit {self.max_seconds:g} s")
        return " / ".join(parts) or "unbounded"


@dataclass
class Exploration:
    """The result of :func:`explore`; counts are of stored (canonical) states."""

    rules: RuleSet
    initial: list[Any]
    symmetry: str
    canon: Canon | None
    budget: Budget
    states: int = 0
    transitions: int = 0
    terminals: int = 0
    depth: int = 0
    complete_depth: int = -1
    """Every state at distance <= this from an initial state was expanded."""
    complete: bool = False
    stopped: str = ""
    timed_out: bool = False
    """Stopped by the wall-clock limit: incomplete, whatever the state budget would have covered."""
    frontier: int = 0
    """States waiting to be expanded (for progress displays)."""
    seconds: float = 0.0
    levels: list[int] = field(default_factory=list)
    outcomes: Counter = field(default_factory=Counter)
    findings: dict[tuple[str, str], Finding] = field(default_factory=dict)
    finding_counts: Counter = field(default_factory=Counter)
    parents: dict[Any, tuple[Any, Any]] = field(default_factory=dict, repr=False)
    edges: list[tuple[Any, Any]] | None = field(default=None, repr=False)
    terminal_states: set[Any] | None = field(default=None, repr=False)
    invariants: tuple = field(default=(), repr=False)

    @property
    def rate(self) -> float:
        return self.states / self.seconds if self.seconds else 0.0

    def coverage(self) -> str:
        """What was covered, in words: `complete` or `every state within depth D`."""
        if self.complete:
            return f"complete ({self.states:,} states, depth {self.depth})"
        within = ("no depth expanded in full" if self.complete_depth < 0
                  else f"every state within depth {self.complete_depth} expanded")
        head = "incomplete" if self.timed_out else "partial"
        return (
            f"{head}, stopped by {self.stopped}: {within}, {self.states:,} states seen, frontier at depth {self.depth}"
        )

    def key_path(self, key: Any) -> list[tuple[Any, Any]]:
        """[(canonical state, move that led into it)] from an initial state to ``key``."""
        path = []
        while True:
            parent, move = self.parents[key]
            path.append((key, move))
            if parent is None:
                break
            key = parent
        path.reverse()
        return path

    def trace(self, key: Any) -> tuple[Any, tuple[Step, ...], list[Any]]:
        """A real, replayable trace into the orbit of ``key``.

        Returns (initial state, steps, states along the way).  Without symmetry the moves
        are the stored ones; with it, each step is re-found among the real state's moves.
        """
        path = self.key_path(key)
        start_index = path[0][1]
        real = self.initial[start_index]
        states = [real]
        steps: list[Step] = []
        for target, _ in path[1:]:
            actor = self.rules.to_move(real)
            found = None
            for move, p, nxt in _successors(self.rules, real):
                if (self.canon(nxt) if self.canon else nxt) == target:
                    found = (move, p, nxt)
                    break
            if found is None:  # pragma: no cover - would mean the canonicaliser is unsound
                raise RuntimeError("trace reconstruction failed: symmetry reduction is unsound")
            move, p, real = found
            steps.append(Step(actor_text(actor), str(move), p))
            states.append(real)
        return self.initial[start_index], tuple(steps), states

    def table(self, timings: bool = True) -> list[tuple[str, str]]:
        """The figures as (name, value) rows; ``timings=False`` leaves out the ones that depend
        on the machine (seconds, states/s), so a report can be compared byte for byte."""
        rows = [
            ("symmetry", self.symmetry),
            ("budget", self.budget.text()),
            (
                "coverage",
                "complete" if self.complete else f"{'incomplete' if self.timed_out else 'partial'} ({self.stopped})",
            ),
            ("states (distinct, after symmetry reduction)", f"{self.states:,}"),
            ("transitions", f"{self.transitions:,}"),
            ("terminal states", f"{self.terminals:,}"),
            ("depth", str(self.depth)),
        ]
        if timings:
            rows += [("seconds", f"{self.seconds:.1f}"), ("states/s", f"{self.rate:,.0f}")]
        return rows


def _successors(rules: RuleSet, state: Any) -> Iterable[tuple[Any, Fraction | None, Any]]:
    """(move, probability, next state), lazily; a move that raises RuleGap leads to no state and is skipped
    (a state on a trace may have a sibling move into a gap of a strict ruling)."""
    actor = rules.to_move(state)
    if actor is TERMINAL:
        return
    pairs = rules.chance_outcomes(state) if actor is CHANCE else [(m, None) for m in rules.legal_moves(state)]
    for m, p in pairs:
        try:
            nxt = rules.apply(state, m)
        except RuleGap:
            continue
        yield m, p, nxt


def explore(
    rules: RuleSet,
    initial: Sequence[Any],
    *,
    symmetry: str | None = None,
    budget: Budget | None = None,
    keep_graph: bool = False,
    progress: Callable[[Exploration], None] | None = None,
    progress_every: int = 16,
    invariants: Iterable[Any] | None = None,
) -> Exploration:
    """Breadth-first search from ``initial`` (see the module docstring).

    ``progress`` is called with the exploration every ``progress_every`` expanded states
    (it decides itself when to draw) and once at the end.
    """
    budget = budget or Budget()
    canon: Canon | None = None
    if symmetry and symmetry in rules.symmetries:
        canon = rules.symmetries[symmetry]
    elif symmetry:
        parts = [p for p in symmetry.split("+") if p]
        fns = []
        for p in parts:
            if p not in rules.symmetries:
                raise ValueError(f"{rules.id}: unknown symmetry {p!r} (known: {', '.join(rules.symmetries) or 'none'})")
            fns.append(rules.symmetries[p])
        canon = fns[0] if len(fns) == 1 else _compose(fns)
    invs = tuple(rules.invariants if invariants is None else invariants)
    ex = Exploration(rules, list(initial), symmetry or "none", canon, budget, invariants=invs)
    if keep_graph:
        ex.edges = []
        ex.terminal_states = set()
    parents = ex.parents
    t0 = time.perf_counter()
    frontier: list[Any] = []
    for i, s in enumerate(initial):
        key = canon(s) if canon else s
        if key not in parents:
            parents[key] = (None, i)
            frontier.append(key)
            _check_state(ex, invs, key, 0)
    ex.states = len(parents)
    depth = 0
    stop = ""
    deadline = t0 + budget.max_seconds if budget.max_seconds else None
    while frontier:
        ex.levels.append(len(frontier))
        ex.depth = depth
        nxt: list[Any] = []
        for n, s in enumerate(frontier, 1):
            if stop:
                break
            if not _expand(ex, rules, canon, s, depth, nxt, deadline):
                stop, ex.timed_out = f"time limit ({budget.max_seconds:g} s)", True
            elif budget.max_states and ex.states >= budget.max_states:
                stop = f"state budget ({budget.max_states:,})"
            if progress and n % progress_every == 0:
                ex.seconds = time.perf_counter() - t0
                ex.frontier = len(frontier) - n + len(nxt)
                progress(ex)
        if stop:
            break
        ex.complete_depth = depth
        frontier = nxt
        depth += 1
    ex.complete = not stop
    ex.stopped = stop
    ex.states = len(parents)
    ex.frontier = 0
    ex.seconds = time.perf_counter() - t0
    if progress:
        progress(ex)
    return ex


def _compose(fns: list[Canon]) -> Canon:
    def canon(state: Any) -> Any:
        # Iterate to a fixed point: a representative under the product of the symmetries.
        prev = None
        while state != prev:
            prev = state
            for f in fns:
                state = f(state)
        return state

    return canon


def _record(ex: Exploration, finding: Finding) -> None:
    k = (finding.kind, finding.key)
    ex.finding_counts[k] += 1
    if k not in ex.findings:
        ex.findings[k] = finding


def _check_state(ex: Exploration, invs: tuple, state: Any, depth: int) -> None:
    for inv in invs:
        try:
            problem = inv.check(state)
        except Exception as e:  # a crashing invariant is a model bug, reported as such
            problem = f"invariant raised {type(e).__name__}: {e}"
        if problem is not None:
            _record(ex, Finding("violation", inv.name, inv.clause, problem, state, depth=depth))


def _expand(ex: Exploration, rules: RuleSet, canon: Canon | None, s: Any, depth: int, nxt: list,
            deadline: float | None = None) -> bool:
    """Expand one state; False when the wall-clock ``deadline`` passed before every move was followed."""
    parents = ex.parents
    try:
        actor = rules.to_move(s)
        if actor is TERMINAL:
            ex.terminals += 1
            out = rules.outcome(s)
            ex.outcomes[out.summary() if out else "no outcome"] += 1
            if ex.terminal_states is not None:
                ex.terminal_states.add(s)
            if out is None:
                _record(
                    ex,
                    Finding(
                        "error", "terminal-without-outcome", "core.outcome", "TERMINAL state has no outcome", s,
                        depth=depth,
                    ),
                )
            return True
        if actor is CHANCE:
            options = list(rules.chance_outcomes(s))
            problem = check_distribution(options)
            if problem:
                _record(ex, Finding("bad-chance", "distribution", "core.chance", problem, s, depth=depth))
        else:
            options = [(m, None) for m in rules.legal_moves(s)]
    except RuleGap as g:
        _record(ex, Finding("gap", g.ruling, g.ruling, g.detail, s, depth=depth))
        return True
    except Exception as e:
        _record(ex, Finding("error", type(e).__name__, "model", str(e), s, depth=depth))
        return True
    if not options:
        _record(
            ex,
            Finding("dead-end", "dead-end", "core.to-move", f"{actor_text(actor)} to move has no move", s, depth=depth),
        )
        return True
    invs = ex.invariants
    for move, _p in options:
        if deadline is not None and time.perf_counter() > deadline:
            return False
        try:
            t = rules.apply(s, move)
        except RuleGap as g:
            _record(ex, Finding("gap", g.ruling, g.ruling, g.detail, s, move, depth))
            continue
        except IllegalMove as e:
            _record(
                ex, Finding("error", "listed-move-illegal", e.clause, f"{move} listed but refused: {e}", s, move, depth)
            )
            continue
        except Exception as e:
            _record(ex, Finding("error", type(e).__name__, "model", f"{move}: {e}", s, move, depth))
            continue
        key = canon(t) if canon else t
        ex.transitions += 1
        if ex.edges is not None:
            ex.edges.append((s, key))
        if key not in parents:
            parents[key] = (s, move)
            nxt.append(key)
            ex.states += 1
            _check_state(ex, invs, key, depth + 1)
    return True


def finding_traces(ex: Exploration) -> list[Finding]:
    """The findings with real replayable traces filled in (shortest first)."""
    out = []
    for f in sorted(ex.findings.values(), key=lambda f: (f.depth, f.kind, f.key)):
        f.start, f.trace, _ = ex.trace(f.state)
        out.append(f)
    return out


# --------------------------------------------------------------------------- networkx pass


@dataclass
class GraphReport:
    nodes: int
    edges: int
    terminals: int
    traps: int
    """States from which no end can be reached."""
    acyclic: bool
    longest: int | None
    """Moves in the longest play (None if the graph has a cycle)."""
    longest_path: list[Any]
    trap_example: Any = None


def graph_analysis(ex: Exploration) -> GraphReport:
    """Can every reachable state still reach an end; is the graph acyclic; the longest play.

    Needs an exploration run with ``keep_graph=True`` that completed.
    """
    import networkx as nx

    if ex.edges is None or ex.terminal_states is None:
        raise ValueError("graph_analysis needs explore(..., keep_graph=True)")
    g = nx.DiGraph()
    g.add_nodes_from(ex.parents)
    g.add_edges_from(ex.edges)
    ends = set(ex.terminal_states)
    can_end = set(ends)
    rev = g.reverse(copy=False)
    stack = list(ends)
    while stack:
        n = stack.pop()
        for p in rev.successors(n):
            if p not in can_end:
                can_end.add(p)
                stack.append(p)
    traps = [n for n in g.nodes if n not in can_end]
    acyclic = nx.is_directed_acyclic_graph(g)
    longest_path: list[Any] = []
    if acyclic:
        longest_path = nx.dag_longest_path(g)
    trap_example = None
    if traps:
        # the trap nearest an initial state
        trap_example = min(traps, key=lambda n: len(ex.key_path(n)))
    return GraphReport(
        g.number_of_nodes(), g.number_of_edges(), len(ends), len(traps), acyclic,
        (len(longest_path) - 1) if acyclic and longest_path else (0 if acyclic else None),
        longest_path, trap_example,
    )
