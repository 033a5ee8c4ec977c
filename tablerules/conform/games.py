"""Whole games through the comparison, and where they come from.

A game is driven by a *choice sequence*: at step i, choice ``c[i]`` picks ``choices[c[i] %
len(choices)]`` from our canonical list there (legal moves, or chance outcomes; past the end
of the sequence, the first).  The engine is told each move (a chance outcome too) and
compared with our model at every state (:func:`.compare.look`).  A random game records the
choices it drew, a golden vector or witness the index of each of its moves, so that every
game can be played again and shrunk (:mod:`.shrink`).

Sources: :func:`random_choices` (chance by our exact probabilities, seats uniformly);
:func:`vector_games` (every golden vector of the rule set in ``vectors/<rule set>/`` and every
witness in ``spec/witnesses/``); :func:`steered_choices` (a seeded playthrough of the
vector generator, steered toward the clauses the games so far have not reached).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence

from tablerules.model.core import CHANCE, TERMINAL, IllegalMove, MoveSyntaxError, RuleGap, RuleSet, Setup
from tablerules.vectors import coverage
from tablerules.vectors.generation import default_out, playthrough, witness_files, witness_vectors
from tablerules.vectors.itf import VectorError, load_document
from tablerules.vectors.verifier import setup_from_meta

from .client import Engine
from .compare import Difference, look
from .protocol import EngineRuleGap, Refused

MAX_STEPS = 400
"""A game stops after this many moves unless --max-steps says otherwise (a Dishes game with
voluntary passes may never end)."""


@dataclass
class Game:
    """One game to play: its setup and how its choices are made."""

    label: str
    """`random 3`, `vector 2p-3x4-default-s1`, `steered 1`, ..."""
    setup: Setup
    components_argument: str | None
    seed: int
    choices: list[int] | None = None
    """A fixed choice sequence; None: drawn at random from ``seed`` while playing."""
    stop_at_end: bool = False
    """The game stops where its choice sequence ends (a vector's last move; a shrunk game)."""


@dataclass
class Played:
    """What playing a game gave."""

    game: Game
    choices: list[int] = field(default_factory=list)
    """The choice made at each step (so the game can be played again)."""
    moves: list[str] = field(default_factory=list)
    difference: Difference | None = None
    finished: bool = False
    """The game reached its end (or a rule gap both sides agree on)."""
    skipped: str = ""
    """Why the engine did not play it (it declined the setup)."""
    clauses: set[str] = field(default_factory=set)


def play(rules: RuleSet, engine: Engine, game: Game, max_steps: int = MAX_STEPS) -> Played:
    """Play ``game`` on our model and the engine side by side until they differ, the game ends
    or ``max_steps`` moves are played."""
    from .protocol import Unsupported

    out = Played(game)
    try:
        engine.new_game(rules.id, game.setup, game.components_argument, game.seed)
    except Unsupported as why:
        out.skipped = str(why)
        return out
    rng = random.Random(game.seed)
    state = rules.new_game(game.setup)
    last: list[str] = coverage.start_clauses(rules, state)
    out.clauses.update(last)
    for step in range(max_steps + 1):
        view, diff = look(rules, state, engine, step, last)
        if diff is not None:
            out.difference = diff
            return out
        if view.actor is TERMINAL or view.gap:
            out.finished = True
            return out
        if step == max_steps or (game.stop_at_end and step >= len(game.choices or ())):
            return out
        k = _choose(game, step, view, rng)
        out.choices.append(k)
        move = view.choices[k]
        text = str(move)
        out.moves.append(text)
        try:
            after = rules.apply(state, move)
        except RuleGap:
            out.finished = True
            return out
        try:
            engine.apply(text)
        except EngineRuleGap as gap:
            out.difference = Difference(step + 1, "rule gap", gap.ruling, f"allow {text!r}",
                                        f"says the rules are silent ({gap.ruling})")
            return out
        except Refused as why:
            out.difference = Difference(step + 1, "move refused", coverage.move_clause(rules, state, text)
                                        if view.actor is not CHANCE else coverage.chance_clause(rules, state, move),
                                        f"allow {text!r}", f"refuses it ({why})")
            return out
        last = coverage.transition_clauses(rules, state, move, after, view.actor)
        out.clauses.update(last)
        state = after
    return out


def _choose(game: Game, step: int, view: Any, rng: random.Random) -> int:
    n = len(view.choices)
    if game.choices is not None:
        return game.choices[step] % n if step < len(game.choices) else 0
    if view.actor is CHANCE:
        r = rng.random() * float(sum(view.probabilities))
        acc = 0.0
        for i, p in enumerate(view.probabilities):
            acc += float(p)
            if r < acc:
                return i
        return n - 1
    return rng.randrange(n)


def choices_of(rules: RuleSet, setup: Setup, moves: Sequence[Any]) -> list[int] | None:
    """The choice sequence that plays ``moves`` (texts or values) on our model; None when one
    of them is not a choice where it comes (or the rules fall silent before the end)."""
    out: list[int] = []
    try:
        state = rules.new_game(setup)
        for m in moves:
            if isinstance(m, str):
                m = rules.parse_move(m, setup)
            actor = rules.to_move(state)
            listed = [x for x, _ in rules.chance_outcomes(state)] if actor is CHANCE else list(rules.legal_moves(state))
            if m not in listed:
                return None
            out.append(listed.index(m))
            state = rules.apply(state, m)
    except (RuleGap, IllegalMove, MoveSyntaxError, ValueError):
        return None
    return out


# --------------------------------------------------------------------------- sources


def random_games(setup: Setup, components_argument: str | None, count: int, seed: int) -> Iterator[Game]:
    """``count`` seeded random games (game i from seed + i)."""
    for i in range(count):
        yield Game(f"random {i + 1}", setup, components_argument, seed + i)


def steered_game(rules: RuleSet, setup: Setup, components_argument: str | None, seed: int, reached: set[str],
                 universe: Sequence[str], label: str, max_steps: int = MAX_STEPS) -> Game | None:
    """A seeded game steered toward the clauses of ``universe`` not in ``reached`` (None when
    every clause is reached)."""
    steer = {c for c in universe if c not in reached}
    if not steer:
        return None
    moves = playthrough(rules, setup, seed, steer=steer, max_steps=max_steps)
    choices = choices_of(rules, setup, moves)
    return None if choices is None else Game(label, setup, components_argument, seed, choices, stop_at_end=True)


def play_universe(rules: RuleSet) -> list[str]:
    """The clauses a step of play can exercise: the spec's clauses about play, and its rulings."""
    from tablerules.spec.loader import SpecError, load_spec

    try:
        spec = load_spec(rules.id)
    except (SpecError, OSError):
        return []
    ids = list(spec.clauses) + list(getattr(spec, "rulings", {}) or {})
    return [c for c in ids if coverage.is_play_clause(rules.id, c)]


@dataclass
class VectorGames:
    games: list[Game] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def vector_games(rules: RuleSet, folder: Path | None = None, seed: int = 0) -> VectorGames:
    """Every golden vector of the rule set and every witness in spec/witnesses/, as games."""
    out = VectorGames()
    folder = folder if folder is not None else default_out() / rules.id
    docs: list[tuple[str, dict[str, Any]]] = []
    if folder.is_dir():
        for path in sorted(folder.glob("*.itf.json")):
            try:
                docs.append((f"vector {path.name.removesuffix('.itf.json')}", load_document(str(path))))
            except VectorError as e:
                out.notes.append(f"{path.name}: unreadable ({e})")
    else:
        out.notes.append(f"no golden vectors at {folder} (they come with a checkout of the project: run there)")
    for path in witness_files():
        vectors, problems = witness_vectors(rules, path)
        out.notes += problems
        docs += [(f"vector witness {v.name}", v.document) for v in vectors]
    for label, doc in docs:
        game = document_game(rules, label, doc, seed)
        if isinstance(game, str):
            out.notes.append(f"{label}: {game}")
        else:
            out.games.append(game)
    return out


def document_game(rules: RuleSet, label: str, doc: dict[str, Any], seed: int, deck: str | None = None) -> Game | str:
    """The game an ITF trace of our rules plays (under its own setup; ``deck``: a deck file for its
    components), or why it cannot be played, in words."""
    meta = doc.get("#meta", {})
    try:
        replay = setup_from_meta(meta, deck)
    except VectorError as e:
        return f"not replayable ({e})"
    moves = [s.get("#meta", {}).get("move") if isinstance(s, dict) else None for s in doc.get("states", [])[1:]]
    if any(not isinstance(m, str) for m in moves):
        return "a state without its move"
    choices = choices_of(rules, replay.setup, moves)
    if choices is None:
        return "its moves are not choices of our model"
    comp = meta.get("components") or {}
    argument = deck or (comp.get("argument") or comp.get("name") if isinstance(comp, dict) else None)
    return Game(label, replay.setup, argument, seed, choices, stop_at_end=True)
