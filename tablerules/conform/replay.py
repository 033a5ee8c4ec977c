"""One written vector played against the engine again (``tablerules conform RULESET --engine CMD
--replay VECTOR``).

The vector is an ITF trace of our rules: a golden vector of ``vectors/``, a witness, or the
failing game ``conform --out-itf`` wrote.  It is played as a run plays a golden vector
(:func:`.games.play`): under its own setup, its moves in order, the engine compared with our model
at every state; so a failing game shows the same difference again, after the same moves, once
the engine is the same.  Nothing is shrunk (a written failing game is already shrunk) and nothing
is written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from tablerules.model.core import RuleSet
from tablerules.vectors import VectorError, load_document
from tablerules.vectors.verifier import check_form

from .client import Counted, Engine
from .games import Game, document_game, play, play_universe
from .protocol import ReplyLimit
from .run import Budget, Findings


class ReplayError(ValueError):
    """A vector that cannot be replayed: one line naming the file (exit status 2)."""


def vector_game(rules: RuleSet, path: str, deck: str | None = None, seed: int = 0) -> Game:
    """The game the vector file ``path`` plays, under its own setup (``deck``: the deck file to use
    for its components, as ``vectors verify --deck``); ReplayError (one line) for a file that is not
    a vector of ``rules`` whose moves our model plays."""
    where = f"--replay {path}"
    try:
        doc = load_document(path)
        check_form(doc)
    except VectorError as e:
        raise ReplayError(f"{where}: {e}") from None
    ruleset = doc["#meta"].get("ruleset")
    if ruleset != rules.id:
        raise ReplayError(f"{where}: a vector of {ruleset}, not of {rules.id}")
    game = document_game(rules, f"vector {Path(path).name.removesuffix('.itf.json')}", doc, seed, deck)
    if isinstance(game, str):
        raise ReplayError(f"{where}: {game}")
    return game


def replay(rules: RuleSet, game: Game, engine: Engine, budget: Budget,
           progress: Callable[[str], Any] = lambda line: None, findings: Findings | None = None) -> Findings:
    """Play ``game`` once against ``engine`` (within ``budget.max_replies``); the findings of a run
    that played this one vector."""
    out = findings or Findings(engine.name, rules.id, game.setup.players)
    out.universe = play_universe(rules)
    out.max_replies = budget.max_replies
    out.planned.update(random=0, steered=0, vectors=1)
    counted = Counted(engine, budget.max_replies)
    try:
        played = play(rules, counted, game, max(len(game.choices or ()), 1))
    except ReplyLimit:
        out.reply_limit = True
        return out
    finally:
        out.replies = counted.replies
    tally = out.tallies["vectors"]
    if played.skipped:
        tally.skipped += 1
        out.skipped_reasons.append(f"{game.label}: {played.skipped}")
        return out
    tally.games += 1
    tally.moves += len(played.moves)
    out.reached |= played.clauses
    if played.difference is not None:
        out.failing = played
        progress(f"conform: {game.label}: {played.difference.text()}")
    return out
