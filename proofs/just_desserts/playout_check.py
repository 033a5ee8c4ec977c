"""The compiled playout's part of the just-desserts check (model/just_desserts/playout.py).

Games played at random in the compiled loop replay on the model move by move (``apply``
refuses any move the rules forbid, naming its clause; the game must end where the model
says it is over, with the winners the model names): on every teaching deck with all three
advanced rules, and on the retail card list (2 to 5 players) when it is given.  Budgets
count games (a tenth with --quick); the games are seeded (SEED plus the check's ``--seed``,
``ctx.seed``: 0 unless given), so the verdict is the same on every machine.
"""

from __future__ import annotations

import time

from tablerules.model.decks import embedded_deck, load_deck
from tablerules.model.just_desserts import RULES, Options
from tablerules.model.playout import EndlessGame, random_playouts, replay_problem

from ..checks import FAIL, INCOMPLETE, PASS, CheckItem, CheckResult, Context

SEED = 2026
"""The seed on record; ``tablerules check --seed S`` plays SEED + S."""
NAME = "compiled random playouts replay on the model"
CASES = (("jd-two-suits", 2), ("jd-one-suit", 2), ("jd-rivals", 2), ("jd-crowd", 3), ("jd-five-suits", 3))


def _run(ctx: Context) -> CheckResult:
    t0 = time.perf_counter()
    rows, ok = [], True
    seed = SEED + ctx.seed
    options = Options(poaching=True, buffet=True, surprise_parties=True)
    cases = [(name, players, embedded_deck(name)) for name, players in CASES]
    if ctx.retail_deck:  # plumbing: the retail card list only when given
        retail = load_deck(ctx.retail_deck, name="retail-2015")
        cases += [("retail", players, retail) for players in (2, 3, 4, 5)]
    endless = []
    for name, players, deck in cases:
        start = RULES.new_game(RULES.setup(players, options, deck))
        try:
            games = random_playouts(RULES, start, ctx.states(500 if name != "retail" else 100), seed=seed)
        except EndlessGame as e:  # rule: jd.ruling.endless-play (play-on: such a game never ends)
            endless.append(name)
            rows.append((f"{name}, {players} players, all advanced rules",
                         f"incomplete: random game {e.game} of seed {seed} did not end within {e.actions:,} actions "
                         "(jd.ruling.endless-play=play-on: play can go round for ever; repeated-position would end "
                         "it)"))
            continue
        problem = replay_problem(RULES, start, games)
        ok &= problem is None
        actions = sum(len(g.moves) for g in games)
        rows.append(
            (
                f"{name}, {players} players, all advanced rules",
                f"{len(games):,} games, {actions:,} actions: "
                + (problem or "every action legal, every ending as the model says"),
            )
        )
    status = FAIL if not ok else INCOMPLETE if endless else PASS
    summary = ("a playout disagrees" if not ok else f"a game that never ends on {', '.join(endless)} "
               "(jd.ruling.endless-play=play-on)" if endless else "every game replays")
    return CheckResult("just-desserts", NAME, status, summary, rows, seconds=time.perf_counter() - t0)


def playout_check_item() -> CheckItem:
    return CheckItem("just-desserts", NAME, _run)


__all__ = ["playout_check_item"]
