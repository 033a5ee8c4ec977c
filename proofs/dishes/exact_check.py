"""The exact engine's part of the dishes check (proofs/exact/levels.py).

* Configurations the explorer cannot finish, searched to the end: every engine state of every
  level checked against the invariants a row can show, every ending scored, the longest game
  within the proved bound (z3 proof ``termination``: every action lowers 2c + k by one, so a
  game has at most 2 x tiles dealt actions).
* The boxed game (6 kinds x 4 colours) for 2, 3 and 4 players, every deal, level by level
  until a budget in engine states is spent: every level before it complete.

Budgets count engine states, never seconds, so the report is the same on any machine.
"""

from __future__ import annotations

import time

from tablerules.model import registry
from tablerules.model.dishes import RULES, Options, Tiles

from ..checks import FAIL, PASS, CheckItem, CheckResult, Context
from ..exact.levels import Solution
from ..exact.run import ProcessExecutor, solve

COMPLETE = ((2, Tiles(4, 4)), (3, Tiles(3, 4)), (4, Tiles(2, 4)))
"""Searched to the end with the exact engine (the explorer stops long before)."""
BOX_STATES = {2: 300_000, 3: 150_000, 4: 150_000}
"""Engine states the boxed game may use per player count (a fifth with --quick)."""


def _violations(sol: Solution) -> str:
    found = sol.violations()
    return ", ".join(f"{name}: {count:,} states" for name, count in sorted(found.items())) or "none broken"


def _complete(ctx: Context) -> CheckResult:
    t0 = time.perf_counter()
    rows, ok = [], True
    configs = COMPLETE[:1] + COMPLETE[2:] if ctx.quick else COMPLETE
    run = ProcessExecutor(2)
    try:
        for players, tiles in configs:
            sol = solve(registry.kernel("dishes", RULES.setup(players, Options(), tiles)), values=False, run=run)
            bound = 2 * players * tiles.types
            longest = sol.longest_game_actions
            fine = sol.complete and not sol.violations() and longest is not None and longest <= bound
            ok &= fine
            rows.append((f"{players} players, {tiles.name}",
                         f"{'complete' if sol.complete else 'INCOMPLETE'}: {sol.total('table_states'):,} table states "
                         f"({sol.total('up_to_colours_and_kinds'):,} up to colours and kinds), "
                         f"{sol.total('terminal_states'):,} endings scored, longest game {longest} actions "
                         f"(proved bound {bound}); invariants over {sol.total('nodes'):,} engine states: "
                         f"{_violations(sol)}"))
    finally:
        run.close()
    return CheckResult(
        "dishes", "exact engine: every state of larger tile sets (default rulings, every deal)", PASS if ok else FAIL,
        f"{len(rows)} configurations, " + ("all complete, nothing broken" if ok else "problems found"), rows,
        seconds=time.perf_counter() - t0,
    )


def _box(ctx: Context) -> CheckResult:
    t0 = time.perf_counter()
    rows, ok = [], True
    run = ProcessExecutor(2)
    try:
        for players, budget in BOX_STATES.items():
            budget = budget // 5 if ctx.quick else budget
            sol = solve(registry.kernel("dishes", RULES.setup(players)), values=False, run=run, max_states=budget)
            expanded = len(sol.levels) - (0 if sol.complete else 1)
            ok &= not sol.violations()
            counted = sum(lv.table_states for lv in sol.levels)
            rows.append((f"{players} players, box", f"{'complete' if sol.complete else f'stopped by {sol.stopped}'}: "
                         f"every table state with at most {len(sol.levels) - 1} actions played counted "
                         f"({counted:,} table states, {sol.total('nodes'):,} engine states); invariants checked on "
                         f"every state with at most {expanded - 1} actions: {_violations(sol)}"))
    finally:
        run.close()
    return CheckResult(
        "dishes", "exact engine: the boxed game level by level (budget in engine states)", PASS if ok else FAIL,
        "every deal, default rulings; " + ("nothing broken" if ok else "invariants broken"), rows,
        seconds=time.perf_counter() - t0,
    )


def checks(ctx: Context) -> list[CheckItem]:
    return [
        CheckItem("dishes", "exact engine: every state of larger tile sets (default rulings, every deal)", _complete),
        CheckItem("dishes", "exact engine: the boxed game level by level (budget in engine states)", _box),
    ]
