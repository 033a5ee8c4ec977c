"""Random play, every row timed in turn with OpenSpiel's python_kuhn_poker (A B A B ...) in one process.

Rows: our API (step by step and whole games), the OpenSpiel adapter, OpenSpiel's own Python games.

    python benchmarks/interop_speed.py [--actions N] [--rounds R] [--rows SUBSTRING] [--markdown]

Unit: an *action* is one step of play, a seat's move or a chance outcome (OpenSpiel's
``apply_action``; our ``apply``).  A round of a row plays whole games at random until it has
taken at least N actions (a game is never cut): a seat picks uniformly among its legal moves,
chance by its probabilities; the time covers listing the choices, choosing and applying (and
starting new games).  "Step by step" rows call to_move, legal_moves or chance_outcomes, and
apply once per action; "compiled states" rows make the same calls on Just Desserts' compiled states
(model/just_desserts/compiled.py: the state held as the compiled loop's vector, each call one compiled
step).  "Whole games" rows call ``random_playouts`` (model/playout.py), which
returns every game's moves as the model's move objects (compiled loops:
model/dishes/playout.py, model/just_desserts/playout.py, model/just_desserts/v23_playout.py;
the step API where a setup has none), in calls of as many games as make about half a round.
With TABLERULES_RETAIL_DECK set, Just Desserts is also played on the retail card list, 2-5
players with all three advanced rules, and 2.3 with its defaults.

Every ratio is measured side by side: a row and the baseline, OpenSpiel's pure-Python Kuhn
poker (``python_kuhn_poker``, played the same way), take turns in this process, row then
baseline, for R rounds (``timing.alternate``); a round's ratio is the row's rate over the
baseline's in that round.  Printed per row: actions per game, the median rate of each side
(actions per second), the median of the per-round ratios and their least and greatest; the
baseline's own row (Kuhn poker against itself) shows how far two rounds of the same work may
differ.  The machine's load average is printed at the start and at the end.  The aim is our
API at 2x or more.  Needs the extra tablerules[openspiel].
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import random
import sys
from typing import Callable

import pyspiel
from open_spiel.python import games as _openspiel_python_games  # noqa: F401 - registers python_* games

import tablerules.openspiel  # noqa: F401 - registers tablerules_* games
from tablerules.model import registry
from tablerules.model.core import CHANCE, TERMINAL, pick_by_probability
from tablerules.model.just_desserts import compiled
from tablerules.model.playout import random_playouts
from tablerules.report import table
from timing import Alternation, alternate, load_average

RETAIL = os.environ.get("TABLERULES_RETAIL_DECK")
ALL_RULES = {"poaching": True, "buffet": True, "surprise_parties": True}
RETAIL_ROWS = [("just-desserts", n, RETAIL, ALL_RULES) for n in (2, 3, 4, 5)] + [
    ("just-desserts-2.3", n, RETAIL, {}) for n in (2, 3, 4, 5)] if RETAIL else []
"""Just Desserts on the retail card list (TABLERULES_RETAIL_DECK), all three advanced rules; 2.3 with its defaults."""
OURS = [("dishes", 2, "box", {}), ("dishes", 3, "box", {}), ("dishes", 4, "box", {}),
        ("just-desserts", 2, "jd-crowd", {}), ("just-desserts-2.3", 3, "v23-tips", {})] + (
        [("just-desserts", 4, RETAIL, ALL_RULES), ("just-desserts-2.3", 4, RETAIL, {})] if RETAIL else [])
COMPILED_STATES = [("just-desserts", 2, "jd-crowd", {})] + ([("just-desserts", 4, RETAIL, ALL_RULES)] if RETAIL else [])
"""Rows of the step API on compiled states (model/just_desserts/compiled.py): the same calls, from
``compiled.new_game``."""
WHOLE_GAMES = [("dishes", 2, "box", {}), ("dishes", 3, "box", {}), ("dishes", 4, "box", {}),
               ("just-desserts", 2, "jd-crowd", {})] + RETAIL_ROWS
ADAPTER = ["tablerules_dishes(players=2)", "tablerules_dishes(players=4)",
           "tablerules_just_desserts(players=2,deck=jd-crowd)"]
OPENSPIEL_PYTHON = ["python_tic_tac_toe", "python_kuhn_poker", "python_liars_poker", "python_block_dominoes"]
BASELINE = "python_kuhn_poker"
"""The game every row is set beside: OpenSpiel's pure-Python Kuhn poker."""

Play = Callable[[int, random.Random], tuple[int, int]]
"""Random play of at least ``n`` actions with ``rng``: (actions, games)."""


def _setup(ruleset: str, players: int, deck: str, options: dict):
    rules = registry.get(ruleset)
    return rules, rules.setup(players, rules.Options(**options), rules.load_components(deck))


def ours(ruleset: str, players: int, deck: str, options: dict, start: Callable | None = None) -> Play:
    """Random play through the core API: (actions, games) for at least ``n`` actions.  Each game
    starts from ``start(setup)`` (the rule set's ``new_game`` unless given: Just Desserts' compiled
    states start from ``compiled.new_game``); one game is played before the row is timed."""
    rules, setup = _setup(ruleset, players, deck, options)
    start = start or rules.new_game

    def run(n: int, rng: random.Random) -> tuple[int, int]:
        actions = games = 0
        while actions < n:
            state = start(setup)
            games += 1
            while True:
                actor = rules.to_move(state)
                if actor is TERMINAL:
                    break
                if actor is CHANCE:
                    move = pick_by_probability(rules.chance_outcomes(state), rng.random())
                else:
                    move = rng.choice(rules.legal_moves(state))
                state = rules.apply(state, move)
                actions += 1
        return actions, games

    run(1, random.Random(-1))  # one game before timing: loads a compiled loop where the states use one
    return run


def whole_games(ruleset: str, players: int, deck: str, options: dict, n: int) -> Play:
    """Random play through ``random_playouts``: whole games per call, their moves returned as
    the model's moves (compiled where the rule set has a compiled playout for the setup).  A call
    plays as many games as make about n / 2 actions (from 100 games played before timing, which
    also compile or load the loop), so that a round is about n actions, as in the other rows."""
    rules, setup = _setup(ruleset, players, deck, options)
    start = rules.new_game(setup)
    sample = random_playouts(rules, start, 100, seed=0)
    per_game = sum(len(g.moves) for g in sample) / len(sample)
    batch = max(1, math.ceil(n / 2 / per_game))

    def run(n: int, rng: random.Random) -> tuple[int, int]:
        actions = games = 0
        while actions < n:
            played = random_playouts(rules, start, batch, seed=rng.getrandbits(63))
            games += len(played)
            actions += sum(len(g.moves) for g in played)
        return actions, games

    return run


def openspiel(name: str) -> Play:
    """Random play through pyspiel's State API, for any OpenSpiel game."""
    game = pyspiel.load_game(name)

    def run(n: int, rng: random.Random) -> tuple[int, int]:
        actions = games = 0
        while actions < n:
            state = game.new_initial_state()
            games += 1
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    action = pick_by_probability(outcomes, rng.random())
                else:
                    action = rng.choice(state.legal_actions())
                state.apply_action(action)
                actions += 1
        return actions, games

    return run


def _label(ruleset: str, players: int, deck: str, options: dict) -> str:
    deck = "retail deck" if deck == RETAIL else deck
    return f"{ruleset}, {players} players, {deck}" + (", all advanced rules" if options else "")


def beside_baseline(play: Play, baseline: Play, n: int, rounds: int) -> tuple[Alternation, float]:
    """``play`` and ``baseline`` in turn (A B A B ...), ``rounds`` rounds of at least ``n`` actions each
    (round r plays with random.Random(r) on both sides): the alternation in actions, and the row's
    actions per game over every round."""
    seeds = {"a": iter(range(rounds)), "b": iter(range(rounds))}
    tally = [0, 0]  # the row's actions and games over every round

    def row() -> tuple[int, int]:
        actions, games = play(n, random.Random(next(seeds["a"])))
        tally[0] += actions
        tally[1] += games
        return actions, games

    paired = alternate(rounds, row, lambda: baseline(n, random.Random(next(seeds["b"]))),
                       units=lambda result: result[0])
    return paired, tally[0] / tally[1]


def rows_to_measure(n: int) -> list[tuple[str, str, Callable[[], Play]]]:
    """(through, game, a maker of the row's play): a play is made just before its row is timed."""
    rows: list[tuple[str, str, Callable[[], Play]]] = []
    for ruleset, players, deck, options in OURS:
        rows.append(("our API, step by step", _label(ruleset, players, deck, options),
                     lambda c=(ruleset, players, deck, options): ours(*c)))
    for ruleset, players, deck, options in COMPILED_STATES:
        rows.append(("our API, step by step, compiled states", _label(ruleset, players, deck, options),
                     lambda c=(ruleset, players, deck, options): ours(*c, start=compiled.new_game)))
    for ruleset, players, deck, options in WHOLE_GAMES:
        rows.append(("our API, whole games", _label(ruleset, players, deck, options),
                     lambda c=(ruleset, players, deck, options): whole_games(*c, n)))
    for name in ADAPTER:
        rows.append(("OpenSpiel adapter", name, lambda name=name: openspiel(name)))
    for name in OPENSPIEL_PYTHON:
        what = f"{name} (against itself)" if name == BASELINE else name
        rows.append(("OpenSpiel, pure Python", what, lambda name=name: openspiel(name)))
    return rows


Row = tuple[str, str, Callable[[], Play]]
"""(through, game, a maker of the row's play)."""


def rows_labelled(rows: list[Row], part: str) -> list[Row]:
    """The rows whose label "through, game" contains ``part`` (every row for "")."""
    return [row for row in rows if part in f"{row[0]}, {row[1]}"]


def _markdown(rows: list[tuple[str, ...]], header: tuple[str, ...]) -> None:
    print("| " + " | ".join(header) + " |")
    print("| " + " | ".join("---" for _ in header) + " |")
    for r in rows:
        print("| " + " | ".join(r) + " |")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--actions", type=int, default=20_000, help="actions per round of each side (default 20,000)")
    p.add_argument("--rounds", type=int, default=5,
                   help="rounds per row, the row and the baseline in turn (A B A B ...; default 5)")
    p.add_argument("--rows", metavar="SUBSTRING", default="",
                   help='only the rows whose "through, game" label contains SUBSTRING (default: every row)')
    p.add_argument("--markdown", action="store_true", help="print the table in Markdown (as the README holds it)")
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    if args.actions < 1 or args.rounds < 1:
        p.error("--actions and --rounds must be 1 or more")
    command = " ".join(["python benchmarks/interop_speed.py", *(sys.argv[1:] if argv is None else argv)])
    print(f"{command}")
    print(f"{datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}; {os.cpu_count()} cores; load average at the "
          f"start {load_average()}")
    print(f"{args.rounds} rounds a row, each side at least {args.actions:,} actions a round, the row then "
          f"{BASELINE}; rates are medians of the rounds (actions/s), ratios the median of the per-round ratios "
          "(least-greatest)\n")
    baseline = openspiel(BASELINE)
    measured = []
    chosen = rows_labelled(rows_to_measure(args.actions), args.rows)
    if not chosen:
        p.error(f"no row's label contains {args.rows!r}")
    for through, what, make in chosen:
        paired, per_game = beside_baseline(make(), baseline, args.actions, args.rounds)
        measured.append((through, what, per_game, paired))
        print(f"  {through}, {what}: {paired.ratio_text()}", file=sys.stderr, flush=True)
    header = ("through", "game", "actions/game", "actions/s", f"{BASELINE} actions/s, same rounds",
              f"vs {BASELINE}: median (least-greatest)")
    out = [(through, what, f"{per_game:.1f}", f"{paired.a_rate:,.0f}", f"{paired.b_rate:,.0f}", paired.ratio_text())
           for through, what, per_game, paired in measured]
    if args.markdown:
        _markdown(out, header)
    else:
        table(out, header=header, out=sys.stdout)
    print()
    for through in ("our API, step by step", "our API, whole games"):
        for game in ("dishes", "just-desserts,", "just-desserts-2.3"):
            ratios = [f"{what.split(',', 1)[1].strip()} {paired.ratio_text()}"
                      for kind, what, _, paired in measured if kind == through and what.startswith(game)]
            if ratios:
                print(f"{through}, {game.rstrip(',')}, vs {BASELINE}: {'; '.join(ratios)}")
    if not RETAIL:
        print("retail-deck rows left out: set TABLERULES_RETAIL_DECK to the retail card list")
    print(f"load average at the end {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
