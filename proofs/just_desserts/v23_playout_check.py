"""The compiled playout's part of the Just Desserts 2.3 check (model/just_desserts/v23_playout.py).

* Games played at random in the compiled loop replay on the model move by move
  (model/playout.py's ``replay_problem``): ``apply`` refuses any move the rules forbid
  (naming its clause), every chance move must be an outcome the model offers, the game must
  end where the model says it is over, and the winners must be those the model's outcome
  names.
* More strictly (:func:`step_problem`), at every seat decision the compiled loop must have
  chosen among exactly as many moves as ``legal_moves`` lists, and at every chance step
  drawn its outcome with the probability ``chance_outcomes`` gives it.

On the teaching decks v23-tiny, v23-crowd and v23-tips (two to four players), on the
default rulings and on the other non-strict alternatives of every jd23.ruling.*, and on the
retail card list (two to five players) when ``ctx.retail_deck`` is set.  Budgets count
games (a tenth with --quick); the games are seeded (SEED plus the check's ``--seed``,
``ctx.seed``: 0 unless given), so the verdict is the same on every machine.
"""

from __future__ import annotations

import dataclasses
import time

from tablerules.model.core import CHANCE, STRICT, TERMINAL, IllegalMove
from tablerules.model.decks import embedded_deck, load_deck
from tablerules.model.just_desserts import v23 as jd
from tablerules.model.just_desserts import v23_playout as fast
from tablerules.model.playout import random_playouts, replay_problem

from ..checks import FAIL, PASS, CheckItem, CheckResult, Context

RULES = jd.RULES
SEED = 2026
"""The seed on record; ``tablerules check --seed S`` plays SEED + S."""
NAME = "compiled random playouts follow the model step by step"


def alternatives(position: int) -> jd.Options:
    """Every ruling at its ``position``-th non-strict alternative (its default where it has
    fewer): positions 0, 1 and 2 together play every non-strict alternative the compiled loop plays
    (not those of ``NOT_COMPILED``)."""
    values = {}
    for f in dataclasses.fields(jd.Options):
        # plumbing: strict stops play; the step API plays it
        alts = [a for a in f.metadata["alternatives"]
                if a != STRICT and fast.NOT_COMPILED.get(f.metadata["ruling"]) != a]  # what the loop plays
        # plumbing: the default where a ruling has fewer alternatives
        values[f.name] = alts[position] if position < len(alts) else alts[0]
    return jd.Options(**values)


def step_problem(state: jd.State, batch: fast.Batch) -> str | None:
    """The first action of a debug batch (``play_batches(..., debug=True)``) where the
    compiled loop and the model part: a seat's move chosen among another number of moves
    than ``legal_moves`` lists, or not among them; a chance outcome the model does not offer,
    or drawn with another probability; a game not over at its end, or other winners."""
    book = fast.codebook(fast.tables(state.setup.components))
    codes, among, odds = batch.codes.tolist(), batch.among.tolist(), batch.odds.tolist()
    a = 0
    for game, (end, mask) in enumerate(zip(batch.ends.tolist(), batch.winners.tolist())):
        s = state
        for step in range(a, end):
            move = book[codes[step]]
            where = f"game {game}, action {step - a + 1} ({move})"
            problem = _one_step(s, move, among[step], odds[step])
            if problem:  # plumbing: reports the first disagreement
                return f"{where}: {problem}"
            try:
                s = RULES.apply(s, move)
            except IllegalMove as e:
                return f"{where}: refused by {e.clause}"
        if RULES.to_move(s) is not TERMINAL:  # plumbing: checks a playout
            return f"game {game}: not over after its {end - a} actions"
        named = frozenset(i for i in range(state.setup.players) if mask >> i & 1)
        if RULES.outcome(s).winners != named:  # plumbing: checks a playout
            return (
                f"game {game}: the playout names winners {sorted(named)}, the model {sorted(RULES.outcome(s).winners)}"
            )
        a = end
    return None


def _one_step(s: jd.State, move, choices: int, odds: float) -> str | None:
    actor = RULES.to_move(s)
    if actor is TERMINAL:  # plumbing: checks a playout
        return "the model says the game is over"
    if actor is CHANCE:  # plumbing: checks a playout
        if choices:  # plumbing: checks a playout
            return "played as a seat's move where chance moves"
        p = next((p for m, p in RULES.chance_outcomes(s) if m == move), None)
        if p is None:  # plumbing: checks a playout
            return "not a chance outcome here"
        if abs(float(p) - odds) > 1e-12:  # plumbing: checks a playout
            return f"drawn with probability {odds:.6g}, the model gives {p}"
        return None
    legal = RULES.legal_moves(s)
    if choices != len(legal):  # plumbing: checks a playout
        return f"seat {actor} chose among {choices} moves, the model lists {len(legal)}"
    if move not in legal:  # plumbing: checks a playout
        return f"not among seat {actor}'s legal moves {[str(m) for m in legal]}"
    return None


def configurations(ctx: Context) -> list[tuple[str, jd.Setup]]:
    """(label, setup): the teaching decks on three sets of rulings, the retail deck if given."""
    out = []
    for position in (0, 1, 2):
        options = alternatives(position)
        for deck_name, players in (("v23-tiny", 2), ("v23-crowd", 2), ("v23-tips", 3), ("v23-tips", 4)):
            out.append((f"{deck_name}, {players} players, alternatives #{position}",
                        RULES.setup(players, options, embedded_deck(deck_name))))
    if ctx.retail_deck:  # plumbing: the retail card list is not shipped
        deck = load_deck(ctx.retail_deck, name="retail-2015")
        out += [(f"retail, {n} players, default rulings", RULES.setup(n, jd.Options(), deck)) for n in (2, 3, 4, 5)]
        out.append(("retail, 4 players, alternatives #1", RULES.setup(4, alternatives(1), deck)))
    return out


def _playouts(ctx: Context) -> CheckResult:
    t0 = time.perf_counter()
    rows, ok = [], True
    seed = SEED + ctx.seed
    for label, setup in configurations(ctx):
        start = RULES.new_game(setup)
        retail = label.startswith("retail")
        games = random_playouts(RULES, start, ctx.states(100 if retail else 1_000), seed=seed)
        problem = replay_problem(RULES, start, games)
        stepped = ctx.states(25 if retail else 100, least=10)
        for batch in fast.play_batches(start, stepped, seed, debug=True):
            problem = problem or step_problem(start, batch)
        ok &= problem is None
        actions = sum(len(g.moves) for g in games)
        rows.append(
            (
                label,
                f"{len(games):,} games, {actions:,} actions replayed; {stepped:,} games step by step: "
                + (
                    problem
                    or "every action legal, every choice and chance as the model lists it, every ending as the model "
                       "says"
                ),
            )
        )
    return CheckResult(RULES.id, NAME, PASS if ok else FAIL,
                       "every game replays, every step as the model offers it" if ok else "a playout disagrees",
                       rows, seconds=time.perf_counter() - t0)


def playout_check_item() -> CheckItem:
    return CheckItem(RULES.id, NAME, _playouts)


__all__ = ["alternatives", "configurations", "playout_check_item", "step_problem"]
