"""Random play, side by side in one run: our API, the OpenSpiel adapter, OpenSpiel's own Python games.

    python benchmarks/interop_speed.py [--actions N] [--repeats R]

Unit: an *action* is one step of play, a seat's move or a chance outcome (OpenSpiel's
``apply_action``; our ``apply``).  Every row plays whole games at random until it has taken
at least N actions: a seat picks uniformly among its legal moves, chance by its
probabilities; the time covers listing the choices, choosing and applying (and starting
new games).  "Step by step" rows call to_move, legal_moves or chance_outcomes, and apply
once per action.  "Whole games" rows call ``random_playouts`` (model/playout.py), which
plays 1,000 games a call and returns every game's moves as the model's move objects
(compiled loops: model/dishes/playout.py, model/just_desserts/playout.py,
model/just_desserts/v23_playout.py; the step API where a setup has none).  With
TABLERULES_RETAIL_DECK set, Just Desserts is also played on the retail card list, 2-5
players with all three advanced rules, and 2.3 with its defaults.  Each row is run R
times and the best (highest) rate kept, to damp the noise of a shared machine.  The last
column divides each rate by the fastest pure-Python OpenSpiel game's; the aim is our API at
2x or more.  Needs the extra tablerules[openspiel].
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from typing import Any, Callable

import pyspiel
from open_spiel.python import games as _openspiel_python_games  # noqa: F401 - registers python_* games

import tablerules.openspiel  # noqa: F401 - registers tablerules_* games
from tablerules.model import registry
from tablerules.model.core import CHANCE, TERMINAL, pick_by_probability
from tablerules.model.playout import random_playouts
from tablerules.report import table

RETAIL = os.environ.get("TABLERULES_RETAIL_DECK")
ALL_RULES = {"poaching": True, "buffet": True, "surprise_parties": True}
RETAIL_ROWS = [("just-desserts", n, RETAIL, ALL_RULES) for n in (2, 3, 4, 5)] + [
    ("just-desserts-2.3", n, RETAIL, {}) for n in (2, 3, 4, 5)] if RETAIL else []
"""Just Desserts on the retail card list (TABLERULES_RETAIL_DECK), all three advanced rules; 2.3 with its defaults."""
OURS = [("dishes", 2, "box", {}), ("dishes", 3, "box", {}), ("dishes", 4, "box", {}),
        ("just-desserts", 2, "jd-crowd", {}), ("just-desserts-2.3", 3, "v23-tips", {})] + (
        [("just-desserts", 4, RETAIL, ALL_RULES), ("just-desserts-2.3", 4, RETAIL, {})] if RETAIL else [])
WHOLE_GAMES = [("dishes", 2, "box", {}), ("dishes", 3, "box", {}), ("dishes", 4, "box", {}),
               ("just-desserts", 2, "jd-crowd", {})] + RETAIL_ROWS
ADAPTER = ["tablerules_dishes(players=2)", "tablerules_dishes(players=4)",
           "tablerules_just_desserts(players=2,deck=jd-crowd)"]
OPENSPIEL_PYTHON = ["python_tic_tac_toe", "python_kuhn_poker", "python_liars_poker", "python_block_dominoes"]


def _setup(ruleset: str, players: int, deck: str, options: dict):
    rules = registry.get(ruleset)
    return rules, rules.setup(players, rules.Options(**options), rules.load_components(deck))


def ours(ruleset: str, players: int, deck: str, options: dict) -> Callable[[int, random.Random], tuple[int, int]]:
    """Random play through the core API: (actions, games) for at least ``n`` actions."""
    rules, setup = _setup(ruleset, players, deck, options)

    def run(n: int, rng: random.Random) -> tuple[int, int]:
        actions = games = 0
        while actions < n:
            state = rules.new_game(setup)
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

    return run


def whole_games(
    ruleset: str, players: int, deck: str, options: dict
) -> Callable[[int, random.Random], tuple[int, int]]:
    """Random play through ``random_playouts``: whole games per call, their moves returned as
    the model's moves (compiled where the rule set has a compiled playout for the setup)."""
    rules, setup = _setup(ruleset, players, deck, options)
    start = rules.new_game(setup)
    random_playouts(rules, start, 1, seed=0)  # compiles (or loads) the loop before timing

    def run(n: int, rng: random.Random) -> tuple[int, int]:
        actions = games = 0
        while actions < n:
            batch = random_playouts(rules, start, 1000, seed=rng.getrandbits(63))
            games += len(batch)
            actions += sum(len(g.moves) for g in batch)
        return actions, games

    return run


def openspiel(name: str) -> Callable[[int, random.Random], tuple[int, int]]:
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


def measure(run: Callable[[int, random.Random], tuple[int, int]], n: int, repeats: int) -> tuple[float, int, int]:
    best = (0.0, 0, 0)
    for r in range(repeats):
        rng = random.Random(r)
        t0 = time.perf_counter()
        actions, games = run(n, rng)
        rate = actions / (time.perf_counter() - t0)
        if rate > best[0]:
            best = (rate, actions, games)
    return best


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--actions", type=int, default=20_000, help="actions per measurement (default 20,000)")
    p.add_argument("--repeats", type=int, default=3, help="measurements per row; the best is kept (default 3)")
    args = p.parse_args(argv)
    rows: list[tuple[str, str, Any]] = []
    for ruleset, players, deck, options in OURS:
        rows.append(
            (
                "our API, step by step", _label(ruleset, players, deck, options),
                measure(ours(ruleset, players, deck, options), args.actions, args.repeats),
            )
        )
        print(f"  {rows[-1][1]}: done", file=sys.stderr)
    for ruleset, players, deck, options in WHOLE_GAMES:
        rows.append(
            (
                "our API, whole games", _label(ruleset, players, deck, options),
                measure(whole_games(ruleset, players, deck, options), args.actions, args.repeats),
            )
        )
        print(f"  {rows[-1][1]}, whole games: done", file=sys.stderr)
    for name in ADAPTER:
        rows.append(("OpenSpiel adapter", name, measure(openspiel(name), args.actions, args.repeats)))
        print(f"  {name}: done", file=sys.stderr)
    for name in OPENSPIEL_PYTHON:
        rows.append(("OpenSpiel, pure Python", name, measure(openspiel(name), args.actions, args.repeats)))
        print(f"  {name}: done", file=sys.stderr)
    fastest_name, fastest = max(((r[1], r[2][0]) for r in rows if r[0] == "OpenSpiel, pure Python"), key=lambda x: x[1])
    out = [(kind, what, f"{rate:,.0f}", f"{actions / games:.1f}", f"{rate / fastest:.2f}x")
           for kind, what, (rate, actions, games) in rows]
    table(out, header=("through", "game", "actions/s", "actions/game", f"vs {fastest_name}"), out=sys.stdout)
    print(f"\nfastest pure-Python OpenSpiel game: {fastest_name}, {fastest:,.0f} actions/s (target: 2x or more)")
    for through in ("our API, step by step", "our API, whole games"):
        for game in ("dishes", "just-desserts,", "just-desserts-2.3"):
            ratios = [f"{what.split(',', 1)[1].strip()} {rate / fastest:.2f}x"
                      for kind, what, (rate, _, _) in rows if kind == through and what.startswith(game)]
            if ratios:
                print(f"{through}, {game.rstrip(',')}: {'; '.join(ratios)}")
    if not RETAIL:
        print("retail-deck rows left out: set TABLERULES_RETAIL_DECK to the retail card list")
    return 0


if __name__ == "__main__":
    sys.exit(main())
