"""The compiled playout's part of the dishes check (model/dishes/playout.py).

* Games played at random in the compiled loop replay on the model move by move: ``apply``
  refuses any move the rules forbid (naming its clause), the game must end where the model
  says it is over, and the seats doing the dishes must be those the model's outcome names.
* Over many games each seat does the dishes as often as the exact engine's value for random
  play says, within five standard errors: on small tile sets solved here, and on the boxed
  two-player game against spec/solved/dishes-2p-box.json.

Budgets count games (a tenth with --quick); the games are seeded (SEED plus the check's
``--seed``, ``ctx.seed``: 0 unless given), so the verdict is the same on every machine.
"""

from __future__ import annotations

import time
from fractions import Fraction

from tablerules.model import registry
from tablerules.model.dishes import RULES, Options, Tiles
from tablerules.model.playout import random_playouts, replay_problem, standard_errors

from ..checks import FAIL, PASS, CheckItem, CheckResult, Context
from ..exact.impact import random_play_on_record
from ..exact.run import solve

SOLVED_HERE = ((2, Tiles(3, 4)), (3, Tiles(3, 4)), (4, Tiles(2, 4)))
"""Tile sets whose exact random-play values the check computes itself (a second or two each)."""
SEED = 2026
"""The seed on record; ``tablerules check --seed S`` plays SEED + S."""


def frequency_problem(games, among_losers: list[Fraction]) -> tuple[str, bool]:
    """Each seat's share of games among those doing the dishes against the exact value."""
    n, parts, ok = len(games), [], True
    for seat, exact in enumerate(among_losers):
        p = float(exact)
        seen = sum(seat in g.losers for g in games) / n
        z = standard_errors(seen, p, n)
        ok &= abs(z) <= 5
        parts.append(f"seat {seat} {seen:.4f} (exact {p:.4f}, {z:+.1f} SE)")
    return "; ".join(parts), ok


def _playouts(ctx: Context) -> CheckResult:
    t0 = time.perf_counter()
    rows, ok = [], True
    seed = SEED + ctx.seed
    replays = ctx.states(1_000)
    for players in (2, 3, 4):
        start = RULES.new_game(RULES.setup(players, Options(), Tiles()))
        games = random_playouts(RULES, start, replays, seed=seed)
        problem = replay_problem(RULES, start, games)
        ok &= problem is None
        actions = sum(len(g.moves) for g in games)
        rows.append(
            (
                f"{players} players, box: replayed on the model",
                f"{len(games):,} games, {actions:,} actions: "
                + (problem or "every action legal, every ending as the model says"),
            )
        )
    many = ctx.states(40_000)
    for players, tiles in SOLVED_HERE:
        setup = RULES.setup(players, Options(), tiles)
        exact = solve(registry.kernel("dishes", setup)).random_play
        text, fine = frequency_problem(
            random_playouts(RULES, RULES.new_game(setup), many, seed=seed), exact.among_losers
        )
        ok &= fine
        rows.append((f"{players} players, {tiles.name}: {many:,} games against the exact values", text))
    box = RULES.setup(2, Options(), Tiles())
    exact, source = random_play_on_record(RULES, box)
    if exact is None:  # plumbing: the stored values are missing or no longer match the sources
        rows.append(("2 players, box: against spec/solved", f"not compared: {source}"))
    else:
        games = random_playouts(RULES, RULES.new_game(box), ctx.states(100_000), seed=seed)
        text, fine = frequency_problem(games, exact["among_losers"])
        ok &= fine
        rows.append((f"2 players, box: {len(games):,} games against {source}", text))
    return CheckResult("dishes", "compiled random playouts agree with the model and the exact engine",
                       PASS if ok else FAIL, ("every game replays, every share within 5 standard errors" if ok
                                              else "a playout disagrees"), rows, seconds=time.perf_counter() - t0)


def checks(ctx: Context) -> list[CheckItem]:
    return [CheckItem("dishes", "compiled random playouts agree with the model and the exact engine", _playouts)]


__all__ = ["checks", "frequency_problem"]
