"""The same figures as the exact engine, found the slow way: every full state of the model.

A depth-first search with a memo over the rule set's own states (no compact rows, no
symmetry, nothing but the public API of :mod:`tablerules.model.core`), for small
configurations.  The exact engine is tested against it on small tile sets for every ruling
alternative; the benchmarks set the two side by side.

``table_state`` maps a model state to the table state the engine counts (units: see
:mod:`tablerules.proofs.exact.levels`); the rule set supplies it (``RuleSet.table_state``).
"""

from __future__ import annotations

import sys
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

from tablerules.model.core import CHANCE, TERMINAL, RuleSet

from .levels import LevelCounts, SeatValues, seat_values


@dataclass
class ReferenceSolution:
    table_states_by_level: dict[int, set] = field(default_factory=lambda: defaultdict(set))
    terminal_by_level: dict[int, set] = field(default_factory=lambda: defaultdict(set))
    random_play: SeatValues | None = None
    optimal_play: SeatValues | None = None
    model_states: int = 0

    def levels(self) -> list[LevelCounts]:
        top = max(self.table_states_by_level)
        return [LevelCounts(table_states=len(self.table_states_by_level.get(a, ())),
                            terminal_states=len(self.terminal_by_level.get(a, ()))) for a in range(top + 1)]


def _forced_pass(moves: tuple) -> bool:
    """Is the only legal move a pass (which the rules force: it is not an action)?"""
    return len(moves) == 1 and str(moves[0]) == "pass"


def solve_reference(rules: RuleSet, setup: Any, table_state: Callable[[Any], Any]) -> ReferenceSolution:
    """Every state of ``setup`` from its start; values for uniform random and optimal play."""
    sol = ReferenceSolution()
    n = setup.players
    V = 2 * n + 1
    memo_r: dict[Any, list[Fraction]] = {}
    memo_o: dict[Any, list[Fraction]] = {}
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 10_000))

    def visit(state: Any, actions: int) -> tuple[list[Fraction], list[Fraction]]:
        if state in memo_r:
            return memo_r[state], memo_o[state]
        actor = rules.to_move(state)
        if actor is TERMINAL:
            out = rules.outcome(state)
            sol.table_states_by_level[actions].add(table_state(state))
            sol.terminal_by_level[actions].add(table_state(state))
            losers = [1 if s in out.losers else 0 for s in range(n)]
            sole = [x if len(out.losers) == 1 else 0 for x in losers]
            r = [Fraction(x) for x in losers + sole] + [Fraction(0)]
            memo_r[state], memo_o[state] = r, r
            return r, r
        if actor is CHANCE:
            r_acc = [Fraction(0)] * V
            o_acc = [Fraction(0)] * V
            for m, p in rules.chance_outcomes(state):
                r, o = visit(rules.apply(state, m), actions)
                r_acc = [a + p * b for a, b in zip(r_acc, r)]
                o_acc = [a + p * b for a, b in zip(o_acc, o)]
            memo_r[state], memo_o[state] = r_acc, o_acc
            return r_acc, o_acc
        sol.table_states_by_level[actions].add(table_state(state))
        moves = rules.legal_moves(state)
        if _forced_pass(moves):
            r, o = visit(rules.apply(state, moves[0]), actions)
            memo_r[state], memo_o[state] = r, o
            return r, o
        options = []
        r_acc = [Fraction(0)] * V
        for m in moves:
            r, o = visit(rules.apply(state, m), actions + 1)
            r_acc = [a + b / len(moves) for a, b in zip(r_acc, r)]
            options.append(o)
        r_acc[-1] += 1
        best = min(options, key=lambda o: preference(actor, o, n))
        best = best[:-1] + [best[-1] + 1]
        memo_r[state], memo_o[state] = r_acc, best
        return r_acc, best

    try:
        r, o = visit(rules.new_game(setup), 0)
    finally:
        sys.setrecursionlimit(old)
    sol.random_play, sol.optimal_play = seat_values(r, n), seat_values(o, n)
    sol.model_states = len(memo_r)
    return sol


def preference(mover: int, v: list[Fraction], n: int) -> tuple:
    """The optimal-play order of :mod:`tablerules.proofs.exact.levels` (smaller is preferred)."""
    others = sum(v[:n]) - v[mover]
    return (v[mover], v[n + mover], -others, v[2 * n], *v)
