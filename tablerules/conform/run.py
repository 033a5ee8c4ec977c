"""One conformance run: the games of every source, in turn, until the engine departs from
our rules or the budget is spent; then the failing game shrunk and written as a vector.

Order: the seeded random games (``games``), then every golden vector and witness of the rule
set, then steered games (``steered``), each aimed at the clauses of play that no game of the
run has reached so far.  Every figure of the budget counts games, moves or the engine's replies,
never seconds: ``max_replies`` bounds the whole run (the shrinking too), and a run that reaches it
before it could decide is incomplete, never conformant.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from tablerules.model.core import RuleSet, Setup

from .client import MAX_REPLIES, Counted, Engine
from .compare import Difference
from .games import MAX_STEPS, Game, Played, play, play_universe, random_games, steered_game, vector_games
from .protocol import ReplyLimit
from .shrink import SHRINK_GAMES, Shrunk, shrink


@dataclass
class Budget:
    games: int = 20
    """Seeded random games."""
    steered: int = 10
    """Games steered toward clauses not yet reached."""
    max_steps: int = MAX_STEPS
    """Moves per game at most."""
    shrink_games: int = SHRINK_GAMES
    seed: int = 0
    vectors: bool = True
    """Play the golden vectors and witnesses."""
    max_replies: int = MAX_REPLIES
    """Requests the engine may be asked in the whole run (each answered by one reply)."""


@dataclass
class Tally:
    games: int = 0
    moves: int = 0
    skipped: int = 0
    unfinished: int = 0
    """Games stopped by the move limit before they ended."""


@dataclass
class Findings:
    """What a run found."""

    engine: str
    ruleset: str
    players: int
    tallies: dict[str, Tally] = field(default_factory=lambda: {k: Tally() for k in ("random", "vectors", "steered")})
    reached: set[str] = field(default_factory=set)
    universe: list[str] = field(default_factory=list)
    failing: Played | None = None
    """The first failing game, as played."""
    shrunk: Shrunk | None = None
    notes: list[str] = field(default_factory=list)
    skipped_reasons: list[str] = field(default_factory=list)
    replies: int = 0
    """Requests the engine answered (``hello`` aside)."""
    max_replies: int = MAX_REPLIES
    planned: dict[str, int | None] = field(default_factory=lambda: {"random": 0, "vectors": None, "steered": 0})
    """Games each source would play in full (vectors: None until they are read)."""
    reply_limit: bool = False
    """--max-replies stopped the run before it ended (before a difference: incomplete; after one: the
    shrinking stopped there)."""

    def how_far(self) -> str:
        """`12 of 20 random games, 0 of 143 golden vectors and witnesses, 0 of 10 steered games played`."""
        parts = []
        for kind, what in (("random", "random games"), ("vectors", "golden vectors and witnesses"),
                           ("steered", "steered games")):
            t, planned = self.tallies[kind], self.planned[kind]
            of = "?" if planned is None else f"{planned:,}"
            parts.append(f"{t.games + t.skipped:,} of {of} {what}")
        return ", ".join(parts) + " played"

    @property
    def difference(self) -> Difference | None:
        if self.shrunk is not None:
            return self.shrunk.played.difference
        return self.failing.difference if self.failing else None


def conform(rules: RuleSet, setup: Setup, components_argument: str | None, engine: Engine, budget: Budget,
            progress: Callable[[str], Any] = lambda line: None, findings: Findings | None = None) -> Findings:
    """Play the run's games against ``engine``; stop at the first difference and shrink it.
    ``findings`` (filled in as the run goes) keeps what was done if the run is stopped."""
    out = findings or Findings(engine.name, rules.id, setup.players)
    out.universe = play_universe(rules)
    out.max_replies = budget.max_replies
    out.planned.update(random=budget.games, steered=budget.steered, vectors=None if budget.vectors else 0)
    counted = Counted(engine, budget.max_replies)
    try:
        _play_sources(rules, setup, components_argument, counted, budget, progress, out)
    except ReplyLimit:
        out.reply_limit = True
    finally:
        out.replies = counted.replies
    if out.failing is not None:
        progress(f"conform: shrinking the failing game of {out.failing.difference.step} moves")
        out.shrunk = shrink(rules, counted, out.failing, budget.shrink_games, budget.max_steps, progress)
        out.replies = counted.replies
        out.reply_limit = out.reply_limit or out.shrunk.reply_limit
    return out


def _play_sources(rules: RuleSet, setup: Setup, components_argument: str | None, engine: Engine, budget: Budget,
                  progress: Callable[[str], Any], out: Findings) -> None:
    """The games of every source in turn, until one shows a difference (``out.failing``)."""

    def one(kind: str, game: Game) -> bool:
        played = play(rules, engine, game, budget.max_steps)
        tally = out.tallies[kind]
        if played.skipped:
            tally.skipped += 1
            if len(out.skipped_reasons) < 5:
                out.skipped_reasons.append(f"{game.label}: {played.skipped}")
            return False
        tally.games += 1
        tally.moves += len(played.moves)
        out.reached |= played.clauses
        if played.difference is None and not played.finished:
            tally.unfinished += 1
        if played.difference is not None:
            out.failing = played
            progress(f"conform: {game.label}: {played.difference.text()}")
            return True
        return False

    for game in random_games(setup, components_argument, budget.games, budget.seed):
        if one("random", game):
            break
        _every(progress, out.tallies["random"].games, budget.games, "random games")
    if out.failing is None and budget.vectors:
        sources = vector_games(rules, seed=budget.seed)
        out.notes += sources.notes
        out.planned["vectors"] = len(sources.games)
        for i, game in enumerate(sources.games):
            if one("vectors", game):
                break
            _every(progress, i + 1, len(sources.games), "golden vectors and witnesses")
    if out.failing is None:
        for i in range(budget.steered):
            game = steered_game(rules, setup, components_argument, budget.seed + 1_000_003 + i, out.reached,
                                out.universe, f"steered {i + 1}", budget.max_steps)
            if game is None:
                break
            if one("steered", game):
                break
            _every(progress, i + 1, budget.steered, "steered games")


def _every(progress: Callable[[str], Any], done: int, total: int, what: str) -> None:
    if done == total or done % 10 == 0:
        progress(f"conform: {done}/{total} {what} agree")
