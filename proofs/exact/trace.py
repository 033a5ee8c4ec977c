"""Traces found again on demand, for the exact engine (which keeps no parent pointers).

:func:`longest_game` searches the levels forward once more (keeping only each level's rows),
picks an end at the deepest level, and walks back: at each level it expands the rows until
one of them has the target among its children.  The canonical path is then replayed on the
rule set's own states: at every step the real move (or chance outcome) whose result has
the next canonical row is taken, forced passes included, so the trace is a real game that
any verifier can replay.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from tablerules.model.compact import Kernel
from tablerules.model.core import CHANCE, TERMINAL, RuleSet, actor_text

from .levels import distinct
from ..explorer import Step

CHUNK = 50_000


def levels_of(kernel: Kernel, max_states: int | None = None) -> list[np.ndarray]:
    """Every level's canonical rows, from the start to the end (in memory: for traces)."""
    level = distinct(np.stack([r for r, _ in kernel.start()]))[0]
    out, seen = [level], len(level)
    while True:
        parts = [kernel.expand(level[lo:lo + CHUNK]).children for lo in range(0, len(level), CHUNK)]
        children = np.concatenate(parts) if parts else level[:0]
        if not len(children):
            return out
        level = distinct(children)[0]
        out.append(level)
        seen += len(level)
        if max_states is not None and seen > max_states:
            raise RuntimeError(f"more than {max_states:,} engine states before the last level")


def path_to(kernel: Kernel, levels: list[np.ndarray], depth: int, target: np.ndarray) -> list[np.ndarray]:
    """Canonical rows from a start row to ``target`` (a row of level ``depth``)."""
    path = [target]
    for a in range(depth - 1, -1, -1):
        rows = levels[a]
        found = None
        for lo in range(0, len(rows), CHUNK):
            ex = kernel.expand(rows[lo:lo + CHUNK])
            hit = np.nonzero(np.all(ex.children == path[-1][None, :], axis=1))[0]
            if len(hit):
                found = rows[lo + ex.parent[hit[0]]]
                break
        if found is None:  # pragma: no cover - would mean the levels are not what expand gives
            raise RuntimeError(f"no row of level {a} leads to the target")
        path.append(found)
    path.reverse()
    return path


def replay(rules: RuleSet, setup: Any, kernel: Kernel, path: list[np.ndarray]) -> tuple[list[Step], Any]:
    """Real steps (moves, chance outcomes, forced passes) through the canonical rows of ``path``."""

    def canon(state: Any) -> bytes:
        return kernel.canonical(kernel.encode(state)[None, :])[0].tobytes()

    def settle(state: Any) -> list[tuple[Any, list[Step], Fraction]]:
        """Every way chance (and forced passes) can go on from ``state`` until a seat acts."""
        out, todo = [], [(state, [], Fraction(1))]
        while todo:
            s, steps, p = todo.pop()
            actor = rules.to_move(s)
            if actor is CHANCE:
                todo += [(rules.apply(s, m), steps + [Step("CHANCE", str(m), q)], p * q)
                         for m, q in kernel.chance(s)]
                continue
            moves = rules.legal_moves(s) if actor is not TERMINAL else ()
            if len(moves) == 1 and str(moves[0]) == "pass":  # a forced pass is not an action
                todo.append((rules.apply(s, moves[0]), steps + [Step(actor_text(actor), "pass")], p))
                continue
            out.append((s, steps, p))
        return out

    starts = settle(rules.new_game(setup))
    state, steps = next((s, st) for s, st, _ in starts if canon(s) == path[0].tobytes())
    for row in path[1:]:
        want = row.tobytes()
        for move in rules.legal_moves(state):
            hit = next(((s, st) for s, st, _ in settle(rules.apply(state, move)) if canon(s) == want), None)
            if hit:
                steps = steps + [Step(actor_text(rules.to_move(state)), str(move))] + hit[1]
                state = hit[0]
                break
        else:  # pragma: no cover - the canonical path must be playable
            raise RuntimeError("no real move follows the canonical path")
    return steps, state


def longest_game(rules: RuleSet, setup: Any, kernel: Kernel, max_states: int | None = None) -> tuple[list[Step], Any]:
    """A game with the most actions possible, as real steps, and its final state."""
    levels = levels_of(kernel, max_states)
    depth = len(levels) - 1
    path = path_to(kernel, levels, depth, levels[depth][0])
    return replay(rules, setup, kernel, path)
