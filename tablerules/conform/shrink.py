"""Shrinking a failing game to a short one, over its choice sequence.

A game is its choice sequence (:mod:`.games`); a failing game fails at step k, so its first
k choices already show the difference.  The shrinker tries, in turn, sequences with a block
of choices deleted (halves, then blocks of 8, 4, 2 and 1), then each choice made smaller
(0, half, one less), keeping any candidate that still fails, at an earlier step or at the
same step with a smaller sequence (shorter, then lexicographically), and starts again after
each gain, until a whole round gains nothing or the budget of games is spent: the way
Hypothesis shrinks its choice sequences, written out here so that every candidate is a game
the engine plays from its start (budget counted in games, never in seconds; the run's
--max-replies stops it too, keeping the shortest game found so far).  Hypothesis itself
shrinks only what it generated (an explicit example is never shrunk), so a failure found by a
golden vector or a steered game could not be handed to it.  The result is the shortest failing
game the shrinker found, not a proof that none is shorter.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable, Iterator

from tablerules.model.core import RuleSet

from .client import Engine
from .games import Played, play
from .protocol import ReplyLimit

SHRINK_GAMES = 400
"""Games the shrinker may play by default (--shrink-games)."""


@dataclass
class Shrunk:
    played: Played
    """The shortest failing game found (its difference, moves and choices)."""
    games: int
    """Games the shrinker played."""
    complete: bool
    """True when a whole round gained nothing (not stopped by the budget)."""
    reply_limit: bool = False
    """The run's --max-replies stopped the shrinking (the game found so far stands)."""


def _key(played: Played) -> tuple:
    assert played.difference is not None
    return (played.difference.step, len(played.choices), played.choices)


def _candidates(seq: list[int]) -> Iterator[list[int]]:
    n = len(seq)
    sizes = sorted({n // 2, n // 4, 8, 4, 2, 1} - {0}, reverse=True)
    for size in sizes:
        for i in range(0, n - size + 1):
            yield seq[:i] + seq[i + size:]
    for i in range(n):
        for smaller in (0, seq[i] // 2, seq[i] - 1):
            if 0 <= smaller < seq[i]:
                yield seq[:i] + [smaller] + seq[i + 1:]


def shrink(rules: RuleSet, engine: Engine, failing: Played, budget: int = SHRINK_GAMES, max_steps: int = 400,
           progress: Callable[[str], None] | None = None) -> Shrunk:
    """The shortest failing game the shrinker finds from ``failing`` within ``budget`` games."""
    best = _truncated(failing)
    games = 0
    seen: set[tuple[int, ...]] = {tuple(best.choices)}
    while True:
        gained = False
        for seq in _candidates(best.choices):
            if tuple(seq) in seen:
                continue
            if games >= budget:
                return Shrunk(best, games, False)
            seen.add(tuple(seq))
            games += 1
            game = dataclasses.replace(best.game, choices=seq, stop_at_end=True)
            try:
                got = play(rules, engine, game, max_steps)
            except ReplyLimit:
                return Shrunk(best, games, False, reply_limit=True)
            if got.difference is None:
                continue
            got = _truncated(got)
            if _key(got) < _key(best):
                best, gained = got, True
                if progress:
                    progress(f"conform: shrunk to {best.difference.step} moves ({games} games played)")
                break
        if not gained:
            return Shrunk(best, games, True)


def _truncated(played: Played) -> Played:
    """The game cut at its difference (the choices after it change nothing)."""
    k = played.difference.step
    game = dataclasses.replace(played.game, choices=played.choices[:k], stop_at_end=True)
    return dataclasses.replace(played, game=game, choices=played.choices[:k], moves=played.moves[:k])
