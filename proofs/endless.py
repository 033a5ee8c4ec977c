"""Endless play found, not sampled: the strongly connected components of a whole state graph.

A game can fail to end in two ways, and the rules answer them differently:

* *a cycle with a way out*: a set of states play can go round for ever (a strongly
  connected component with more than one state, or a state that leads back to itself) from
  which an end is still reachable.  Random play leaves it with probability 1, and so do
  players who want the game to end; players who do not can keep it going (two players
  poaching and blocking each other, jd.poach.attempt, jd.block.defender).  The rules need
  not end such a game: somebody can always choose the way out;
* *a closed set*: states from which no end is reachable at all (the bottom components of
  the graph that hold no end).  Once there, no choice of any player ends the game; the
  rules must end it (jd.ruling.no-serving-possible, jd.ruling.all-guests-claimed).

:func:`endless_play` explores one setup breadth-first to the end (budgets count stored
states; a search cut by its budget is reported as incomplete, never as "none found"),
builds the graph with networkx and classifies every non-trivial component.  Each kind found
comes with a witness: the shortest trace (breadth-first) to a state of the component, and a
loop through it back to that state.  Units: a *state* is a stored canonical state of the
explorer (:mod:`.explorer`, symmetric twins merged); a *move* is one ``apply``.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from tablerules.model.core import RuleSet, Setup, ruling_fields, short_ruling_name

from .explorer import Budget, Exploration, Finding, Step, explore

CYCLE = "cycle with a way out"
CLOSED = "closed set (no end reachable)"


@dataclass(frozen=True)
class Component:
    """One strongly connected component of the state graph that play can go round in."""

    kind: str
    """CYCLE or CLOSED."""
    states: int
    trace: tuple[Step, ...]
    """From a new game to the component's state nearest the start."""
    loop: tuple[str, ...]
    """Moves (text) from that state back to itself, staying in the component."""


@dataclass
class EndlessReport:
    """What the search of one setup found."""

    label: str
    states: int
    complete: bool
    components: dict[str, list[Component]] = field(default_factory=dict)
    """Kind -> its components, nearest the start first."""

    def count(self, kind: str) -> int:
        return len(self.components.get(kind, []))

    def states_in(self, kind: str) -> int:
        return sum(c.states for c in self.components.get(kind, []))

    def nearest(self, kind: str) -> Component | None:
        found = self.components.get(kind, [])
        return found[0] if found else None

    def summary(self) -> str:
        if not self.complete:
            return f"incomplete: {self.states:,} states stored, the budget cut the search (no verdict)"
        parts = []
        for kind in (CYCLE, CLOSED):
            c = self.nearest(kind)
            parts.append(
                f"{kind}: none"
                if c is None
                else f"{kind}: {self.count(kind)} ({self.states_in(kind):,} states), nearest after {len(c.trace)} moves"
            )
        return f"{self.states:,} states; " + "; ".join(parts)


def _loop(g: Any, start: Any, members: set) -> list[Any]:
    """The shortest way (states) from ``start`` back to itself inside the component (breadth-first)."""
    back: dict[Any, Any] = {}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        for t in g.successors(s):
            if t not in members:
                continue
            if t == start:
                path = [s]
                while path[-1] != start:
                    path.append(back[path[-1]])
                return [start] + list(reversed(path[:-1])) + [start]
            if t not in back:
                back[t] = s
                queue.append(t)
    return []


def _move_texts(rules: RuleSet, ex: Exploration, path: list[Any]) -> tuple[str, ...]:
    """The moves along a path of canonical states (one move of each state that leads to the next)."""
    from .explorer import _successors

    canon = ex.canon or (lambda s: s)
    out = []
    for s, t in zip(path, path[1:]):
        out.append(next((str(m) for m, _p, nxt in _successors(rules, s) if canon(nxt) == t), "?"))
    return tuple(out)


def classify(ex: Exploration, kinds: tuple[str, ...] = (CYCLE, CLOSED)) -> dict[str, list[Component]]:
    """The components of a complete exploration's graph that play can go round in, by kind (only ``kinds``)."""
    import networkx as nx

    g = nx.DiGraph()
    g.add_nodes_from(ex.parents)
    g.add_edges_from(ex.edges or ())
    ends = set(ex.terminal_states or ())
    can_end = set(ends)
    stack = list(ends)
    while stack:
        for p in g.predecessors(stack.pop()):
            if p not in can_end:
                can_end.add(p)
                stack.append(p)
    order = {s: i for i, s in enumerate(ex.parents)}  # discovery order: ties never depend on set order
    out: dict[str, list[tuple[int, Component]]] = {CYCLE: [], CLOSED: []}
    for members in nx.strongly_connected_components(g):
        first = next(iter(members))
        if len(members) == 1 and not g.has_edge(first, first):
            continue  # a single state play passes through once
        nearest = min(members, key=lambda s: (len(ex.key_path(s)), order[s]))
        kind = CYCLE if nearest in can_end else CLOSED
        if kind not in kinds:
            continue
        _, steps, _ = ex.trace(nearest)
        comp = Component(kind, len(members), steps, _move_texts(ex.rules, ex, _loop(g, nearest, members)))
        out[kind].append((len(steps), comp))
    return {k: [c for _, c in sorted(v, key=lambda x: x[0])] for k, v in out.items()}


def endless_play(rules: RuleSet, setup: Setup, label: str, max_states: int) -> EndlessReport:
    """Explore ``setup`` to the end (at most ``max_states`` stored states) and classify its cycles."""
    ex = explore(rules, [rules.new_game(setup)], symmetry=rules.default_symmetry, budget=Budget(max_states=max_states),
                 keep_graph=True)
    report = EndlessReport(label, ex.states, ex.complete)
    if ex.complete:
        report.components = classify(ex)
    return report


def endless_ruling(rules: RuleSet) -> str | None:
    """The rule set's ruling on play that can go round for ever with no end reachable (``*.ruling.endless-play``),
    or None where it has none."""
    return next((rid for rid in ruling_fields(rules.Options) if rid.endswith(".ruling.endless-play")), None)


def closed_set_finding(ex: Exploration) -> Finding | None:
    """A complete exploration's closed sets (no end reachable) as one finding: the nearest with its shortest
    trace and its loop, named by the rule set's endless-play ruling and the alternative it is set to; None when
    every state can reach an end."""
    found = classify(ex, (CLOSED,))[CLOSED]
    if not found:
        return None
    rules, nearest = ex.rules, found[0]
    ruling = endless_ruling(rules)
    start = ex.initial[0]
    options = start.setup.options
    where = "" if ruling is None else (
        f"; {ruling}={getattr(options, ruling_fields(rules.Options)[ruling].name)}: play goes on there for ever "
        f"({short_ruling_name(ruling)}=repeated-position would end such a game)")
    detail = (f"{len(found)} closed sets ({sum(c.states for c in found):,} states) from which no end can be reached; "
              f"the nearest after {len(nearest.trace)} moves, its loop {' ; '.join(nearest.loop)}{where}")
    return Finding("endless", ruling or "trap", ruling or "core.termination", detail, None, trace=nearest.trace,
                   start=start)


__all__ = ["CLOSED", "CYCLE", "Component", "EndlessReport", "classify", "closed_set_finding", "endless_play",
           "endless_ruling"]
