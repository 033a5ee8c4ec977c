"""Seeded random games judged by the referee: the model plays, the referee checks every step.

``python -m tests.referee.play GAMES`` runs the long set and prints a table (games, actions,
violations) per configuration.  An action is one move applied to the model, chance moves included.
"""

from __future__ import annotations

import itertools
import os
import random
import sys
import time
from dataclasses import dataclass, field

from tablerules.model.core import CHANCE, TERMINAL
from tablerules.model.decks import load_deck
from tablerules.model.just_desserts import RULES as JD
from tablerules.model.just_desserts import Options as JDOptions
from tablerules.model.just_desserts import v23

from .cards import Cards
from .current import CurrentReferee
from .v23 import V23Referee

VARIANTS = ("poaching", "buffet", "surprise_parties")


@dataclass
class Tally:
    games: int = 0
    actions: int = 0
    unfinished: int = 0
    violations: list[str] = field(default_factory=list)


def configurations() -> list[tuple[str, int, dict[str, bool]]]:
    """(edition, players, advanced rules): every combination of the advanced rules, both editions, 2-5 players."""
    out = []
    for players in (2, 3, 4, 5):
        for bits in itertools.product((False, True), repeat=3):
            out.append(("just-desserts", players, dict(zip(VARIANTS, bits))))
        out.append(("just-desserts-2.3", players, {}))
    return out


def label(edition: str, players: int, variants: dict[str, bool]) -> str:
    on = "+".join(k.replace("_", "-") for k, v in variants.items() if v) or (
        "basic" if edition == "just-desserts" else "2.3"
    )
    return f"{edition} {players}p {on}"


def play_game(edition: str, players: int, variants: dict[str, bool], deck_path: str, seed: int,
              max_actions: int = 3000, tally: Tally | None = None) -> Tally:
    """One seeded random game on the retail deck, every step judged."""
    tally = tally or Tally()
    cards = Cards.read(deck_path)
    deck = _deck(deck_path)
    if edition == "just-desserts":
        rules, ref = JD, CurrentReferee(cards, players, variants)
        setup = JD.setup(players, JDOptions(**variants), deck)
    else:
        rules, ref = v23.RULES, V23Referee(cards, players)
        setup = v23.RULES.setup(players, v23.Options(), deck)
    rng = random.Random(seed)
    s = rules.new_game(setup)
    vs = rules.state_vars(s)
    where = f"{label(edition, players, variants)} seed {seed}"
    tally.games += 1
    for step in range(max_actions):
        actor = rules.to_move(s)
        mine = ref.actor(vs)
        if (actor is TERMINAL) != (mine == "TERMINAL") or (actor is CHANCE) != (mine == "CHANCE") \
                or (isinstance(actor, int) and actor != mine):
            tally.violations.append(f"{where} step {step}: model says {actor} moves, referee says {mine}")
            return tally
        if actor is TERMINAL:
            return tally
        if actor is CHANCE:
            outs = rules.chance_outcomes(s)
            model = {str(m): p for m, p in outs}
            own = ref.chance(vs)
            if model != own:
                tally.violations.append(
                    f"{where} step {step}: chance {sorted(model.items())} != referee {sorted(own.items())}"
                )
                return tally
            move = rng.choices([m for m, _ in outs], weights=[float(p) for _, p in outs])[0]
        else:
            legal = rules.legal_moves(s)
            model_set, own = {str(m) for m in legal}, ref.legal(vs)
            if model_set != own:
                tally.violations.append(f"{where} step {step}: seat {actor} legal moves differ: model only "
                                        f"{sorted(model_set - own)[:4]}, referee only {sorted(own - model_set)[:4]}")
                return tally
            move = rng.choice(legal)
        t = rules.apply(s, move)
        wv = rules.state_vars(t)
        problems = ref.step(vs, str(move), wv)
        tally.actions += 1
        if problems:
            tally.violations += [f"{where} step {step} after {move}: {p}" for p in problems]
            return tally
        s, vs = t, wv
    tally.unfinished += 1
    return tally


_DECKS: dict[str, object] = {}


def _deck(path: str):
    if path not in _DECKS:
        _DECKS[path] = load_deck(path, name="retail-2015")
    return _DECKS[path]


def main(argv: list[str]) -> int:
    games = int(argv[0]) if argv else 20
    path = os.environ.get("TABLERULES_RETAIL_DECK")
    if not path:
        print("set TABLERULES_RETAIL_DECK to the retail card list", file=sys.stderr)
        return 2
    total = Tally()
    print(
        "| configuration | games | actions | unfinished (3,000 actions) | violations |\n| --- | --- | --- | --- | --- |"
    )
    t0 = time.perf_counter()
    for edition, players, variants in configurations():
        tally = Tally()
        for seed in range(games):
            play_game(edition, players, variants, path, seed, tally=tally)
        print(f"| {label(edition, players, variants)} | {tally.games} | {tally.actions:,} | {tally.unfinished} | "
              f"{len(tally.violations)} |", flush=True)
        for v in tally.violations[:3]:
            print(f"|  | {v} |", flush=True)
        total.games += tally.games
        total.actions += tally.actions
        total.unfinished += tally.unfinished
        total.violations += tally.violations
    print(f"| all | {total.games:,} | {total.actions:,} | {total.unfinished} | {len(total.violations)} |")
    print(f"{time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return 1 if total.violations else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
