"""`tablerules simulate`: many games played at random, and how often each seat wins or loses.

Every game is played by :func:`tablerules.model.playout.iter_playouts` (compiled for Dishes,
the step API elsewhere): the seat to move picks uniformly among its legal moves, chance
picks each outcome with its probability.  The report gives, per seat, the share of games in
which the rules name it (among the losers, the only loser, among the winners, the only
winner) with a 95% confidence interval, and the mean length of a game.  Where the exact
engine's values for random play are on record (spec/solved/) they are shown beside, with
how many standard errors the estimate lies from them.

Units: a *game* is one game from the start to the end the rules name; an *action* is a
seat's move or a chance outcome (one ``apply``).  The number of games decides what the run
covers; ``--max-seconds`` only stops it early (exit status 3).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from contextlib import nullcontext
from typing import Any, Iterator

from tablerules.model.core import RuleGap, options_text, ruling_fields, short_ruling_name
from tablerules.model.playout import EndlessGame, compiled, iter_playouts, standard_errors
from tablerules.model.playout import seat_moves as count_seat_moves

from .. import schemas
from .common import (
    MEASURED, add_seed, reproduce_line, add_command, add_json, add_max_seconds, add_setup_args, build_setup,
    emit_json, max_seconds_statuses,
)
from ..limits import deferred, number
from ..report import table

MAX_GAMES = 100_000_000
Z95 = 1.959964



def add_parsers(sub: Any) -> None:
    p = add_command(sub, "simulate", "play many games at random: how often each seat wins or loses",
                    "Play GAMES games at random (each seat picks uniformly among its legal moves, chance by its "
                    "probabilities) and report, per seat, the share of games it loses or wins with a 95% confidence "
                    "interval, and the mean number of actions a game; beside the exact values for random play where "
                    "spec/solved/ holds them.",
                    ["tablerules simulate dishes --players 3 --games 100000",
                     "tablerules simulate dishes --players 2 --ruling first-player=random --json",
                     "tablerules simulate just-desserts --players 3 --deck jd-crowd --games 2000"],
                    "Units: a game is one whole game; an action is a seat's move or a chance outcome.\n\n"
                    f"Time, {MEASURED}, 100,000 games with the compiled playouts (the defaults): dishes 5.2 s, "
                    "just-desserts 7.5 s, just-desserts-2.3 4.1 s, each with about 2 s of start-up; through the step "
                    "API (a setup no compiled loop can hold) tens to hundreds of games a second.",
                    statuses=max_seconds_statuses(None, "a gap in the rules under a strict ruling stopped play",
                                                  "a game reached 100,000 actions without ending (play that may "
                                                  "never end under these rulings)"))
    add_setup_args(p)
    p.add_argument("--games", type=number(int, 1, MAX_GAMES), default=10_000, metavar="N",
                   help=f"games to play (default 10,000; at most {MAX_GAMES:,}): decides what the run covers")
    add_seed(p, 0, "the games played")
    add_max_seconds(p)
    add_json(p, "simulate")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rules, setup, components = build_setup(args)
    tally = Tally(setup.players, rules)
    t0 = time.perf_counter()
    deadline = None if args.max_seconds is None else t0 + args.max_seconds
    stopped = None
    next_report = t0 + 2.0
    games = iter_playouts(rules, rules.new_game(setup), args.games, args.seed)
    fast = compiled(rules, setup)
    # the work starts here (a compiled loop is compiled on its first game, or read from numba's cache)
    print(f"simulate: playing {args.games:,} games{' with the compiled playouts' if fast else ''}", file=sys.stderr,
          flush=True)
    try:
        for game in held_between_batches(games, fast):
            tally.add(game)
            now = time.perf_counter()
            if now >= next_report:
                print(f"simulate: {tally.games:,} of {args.games:,} games, {tally.actions:,} actions, {now - t0:.0f} s",
                      file=sys.stderr, flush=True)
                next_report = now + 2.0
            if deadline is not None and now >= deadline and tally.games < args.games:
                stopped = f"the time limit of {args.max_seconds:g} s"
                break
    except RuleGap as gap:  # a strict ruling: the rules say nothing here, so play cannot go on
        stopped = f"a gap in the rules in game {tally.games + 1}: {gap.ruling} ({gap.detail})"
    except EndlessGame as e:  # play that may never end: no share of wins can be counted
        stopped = endless_text(rules, e, tally.games + 1, args.seed)
    doc = document(rules, setup, components, args, tally, fast, stopped, time.perf_counter() - t0)
    if args.json:
        emit_json(doc)
    else:
        print_report(doc, options_text(rules.Options()))
        print(reproduce_line(args))
    return doc["exit_status"]


def endless_text(rules: Any, e: EndlessGame, number: int, seed: int) -> str:
    """Why a run stopped at a game that did not end: which game, its length, the ruling that lets it go on and the
    alternative that would end it (jd.ruling.endless-play)."""
    ruling = next((rid for rid in ruling_fields(rules.Options) if rid.endswith(".ruling.endless-play")), None)
    text = f"game {e.game or number} of seed {seed} did not end within {e.actions:,} actions"
    if ruling is None:
        return text
    short = short_ruling_name(ruling)
    return (f"{text}: play can go round for ever under {ruling}=play-on (the default); "
            f"--ruling {short}=repeated-position ends it the third time a position starts a turn")


def held_between_batches(games: Iterator[Any], compiled_loops: bool) -> Iterator[Any]:
    """The games, each taken with Ctrl-C and SIGTERM held back where compiled loops play them
    (:func:`tablerules.limits.deferred`): a signal that came while a batch of games was played in
    compiled code killed the process with a segmentation fault (about one run in twenty
    interrupted 3 s in); now it lands once the batch is back, within a second."""
    while True:
        with deferred() if compiled_loops else nullcontext():
            game = next(games, None)
        if game is None:
            return
        yield game


class Tally:
    """What the games so far add up to: counts per seat, actions, and lengths squared."""

    KEYS = ("among_losers", "sole_loser", "among_winners", "sole_winner")

    def __init__(self, players: int, rules: Any = None) -> None:
        self.games = self.actions = self.lengths_sq = self.nobody = 0
        self.counts = {key: [0] * players for key in self.KEYS}
        self.rules = rules
        self.seat_moves: int | None = 0 if rules is not None else None
        """Seat moves over all games (chance outcomes left out); None where the rule set cannot tell."""

    def add(self, game: Any) -> None:
        self.games += 1
        length = len(game.moves)
        self.actions += length
        if self.seat_moves is not None:
            try:
                self.seat_moves += count_seat_moves(self.rules, game.moves)
            except ValueError:
                self.seat_moves = None
        self.lengths_sq += length * length
        for key, seats in (("among_losers", game.losers), ("among_winners", game.winners)):
            for s in seats:
                self.counts[key][s] += 1
        if len(game.losers) == 1:
            self.counts["sole_loser"][next(iter(game.losers))] += 1
        if len(game.winners) == 1:
            self.counts["sole_winner"][next(iter(game.winners))] += 1
        self.nobody += not game.losers and not game.winners


def _share(k: int, n: int) -> dict[str, float]:
    p = k / n if n else 0.0
    return {"share": p, "ci95": Z95 * math.sqrt(p * (1 - p) / n) if n else 0.0}


def document(rules: Any, setup: Any, components: str, args: argparse.Namespace, tally: Tally, is_compiled: bool,
             stopped: str | None, seconds: float) -> dict[str, Any]:
    """The run as JSON values (spec/schemas/simulate.schema.json)."""
    from tablerules.proofs.exact.impact import random_play_on_record  # numba: only where a report needs it

    exact, source = random_play_on_record(rules, setup)
    n = tally.games
    seats = []
    for s in range(setup.players):
        row: dict[str, Any] = {"seat": s}
        for key, c in tally.counts.items():
            row[key] = _share(c[s], n)
            if exact is not None and key in exact:
                p = float(exact[key][s])
                z = standard_errors(row[key]["share"], p, n)
                row[key]["exact"] = p
                row[key]["standard_errors_from_exact"] = z if math.isfinite(z) else None
        seats.append(row)
    mean = tally.actions / n if n else 0.0
    var = (tally.lengths_sq / n - mean * mean) if n else 0.0
    return schemas.document("simulate", {
        "ruleset": rules.id, "players": setup.players, "options": options_text(setup.options), "components": components,
        "seed": args.seed, "games_asked": args.games, "games": n, "actions": tally.actions,
        "playout": "compiled" if is_compiled else "step API",
        "complete": stopped is None, "stopped": stopped,
        "seats": seats, "nobody_named": _share(tally.nobody, n),
        "mean_actions": {"mean": mean, "ci95": Z95 * math.sqrt(max(var, 0.0) / n) if n else 0.0},
        "mean_seat_moves": tally.seat_moves / n if n and tally.seat_moves is not None else None,
        "exact_source": source,
        "seconds": round(seconds, 2), "exit_status": 0 if stopped is None else 3,
    })


def _away(z: float | None) -> str:
    return "certain event missed" if z is None else f"{z:+.1f}"


def print_report(doc: dict[str, Any], defaults: dict[str, Any]) -> None:
    named = [k for k in ("among_losers", "sole_loser", "among_winners", "sole_winner")
             if any(s[k]["share"] for s in doc["seats"])] or ["among_losers"]
    changed = (
        ", ".join(f"{short_ruling_name(k)}={v}" for k, v in doc["options"].items() if defaults.get(k) != v)
        or "default rulings"
    )
    print(f"simulate: {doc['ruleset']}, {doc['players']} players, {doc['components']}, {changed}; seed {doc['seed']}; "
          f"{doc['playout']} playout")
    status = "complete" if doc["complete"] else f"INCOMPLETE, stopped by {doc['stopped']}"
    print(f"{doc['games']:,} of {doc['games_asked']:,} games ({status}); {doc['actions']:,} actions, {doc['seconds']} s"
          + (f" ({doc['actions'] / doc['seconds']:,.0f} actions/s)" if doc["seconds"] else ""))
    header = ["seat"] + [k.replace("_", " ") + " (share ± 95%)" for k in named]
    exact = any("exact" in s[k] for s in doc["seats"] for k in named)
    if exact:
        header += ["exact " + k.replace("_", " ") + " (SE away)" for k in named if "exact" in doc["seats"][0][k]]
    rows = []
    for s in doc["seats"]:
        row = [str(s["seat"])] + [f"{s[k]['share']:.4f} ± {s[k]['ci95']:.4f}" for k in named]
        row += [f"{s[k]['exact']:.4f} ({_away(s[k]['standard_errors_from_exact'])})" for k in named if "exact" in s[k]]
        rows.append(row)
    print()
    table(rows, header=tuple(header), out=sys.stdout)
    m = doc["mean_actions"]
    seat = doc["mean_seat_moves"]
    print(
        f"\nnobody named: {doc['nobody_named']['share']:.4f} of games; mean actions a game: {m['mean']:.3f} ± "
        f"{m['ci95']:.3f}"
        + (f"; mean seat moves a game: {seat:.3f}" if seat is not None else "")
    )
    print(f"exact values: {doc['exact_source']}")
    print("units: a game is one whole game at random; an action is a seat's move or a chance outcome (a seat move "
          "leaves chance out; solve's actions leave out chance and forced passes); ± is a 95% confidence interval "
          "(1.96 standard errors)")
