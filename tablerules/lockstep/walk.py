"""Walking the model and a reading in lockstep: every state of a small configuration, or seeded
random games.

Both walks go on from the model's choices that the reading offers too (:func:`.compare.look`),
so one difference does not hide the rest.  The exhaustive walk is breadth-first over the
model's states (each state once, first reached by a shortest path, so every part's first
witness is a shortest one from the deal) with a budget in states; a random game picks a seat's
move uniformly and a chance outcome by the model's probabilities, among the choices both offer,
with a budget in moves.  Budgets count states and moves, never seconds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from tablerules import console
from tablerules.model.core import CHANCE, RuleSet, Setup
from tablerules.vectors import coverage

from .compare import Part, Step, decision_point, look
from .readings import Reading, ReadingError


@dataclass(frozen=True)
class Config:
    """One setup the walk runs: players, deck and optional rules (the rulings at their defaults)."""

    players: int
    deck: str
    """The deck's name (an embedded teaching deck) or its file."""
    variants: tuple[str, ...] = ()
    kind: str = "every state"
    """`every state` or `random games`."""
    aligned: tuple[tuple[str, str], ...] = ()
    """(ruling id, alternative) the model plays instead of the default: a later round aligns the model with the
    differences an earlier round found explained, to walk past them (:func:`.run.alignment`)."""

    def label(self) -> str:
        deck = self.deck.rsplit("/", 1)[-1].removesuffix(".json")
        return f"{self.players}p {deck} {'+'.join(self.variants) or 'basic'}"

    def rulings(self) -> list[str]:
        """The ruling alternatives the model plays here, as `ID=ALTERNATIVE` texts."""
        return [f"{r}={a}" for r, a in self.aligned]


@dataclass
class Sighting:
    """Where a part was seen: its configuration and the moves from the deal."""

    part: Part
    config: Config
    path: tuple[str, ...]


@dataclass
class Walked:
    """What one configuration's walk covered."""

    config: Config
    states: int = 0
    """States looked at (exhaustive: distinct model states; random: positions of the games)."""
    games: int = 0
    moves: int = 0
    complete: bool = True
    declined: str = ""
    """Why the reading declined the setup, if it did."""
    parts: int = 0
    refused: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"config": self.config.label(), "kind": self.config.kind, "players": self.config.players,
                "deck": self.config.deck, "variants": list(self.config.variants),
                "rulings": self.config.rulings(), "states": self.states,
                "games": self.games, "moves": self.moves, "complete": self.complete, "declined": self.declined,
                "parts": self.parts}


Record = Callable[[Sighting], None]


def _step_clause(rules: RuleSet, state: Any, move: Any, actor: Any) -> str:
    text = str(move)
    return coverage.chance_clause(rules, state, move) if actor is CHANCE else coverage.move_clause(rules, state, text)


def _step(rules: RuleSet, state: Any, move: Any, actor: Any) -> Step:
    """The step from ``state`` by ``move``, as the next state's parts name it."""
    return Step(decision_point(rules, state, actor), str(move), _step_clause(rules, state, move, actor))


def _start(rules: RuleSet, setup: Setup, reading: Reading, deck_file: str | None, walked: Walked,
           seed: int = 0) -> bool:
    reason = reading.new_game(rules.id, setup, deck_file, seed)
    if reason is not None:
        walked.declined = reason
        walked.complete = False
        return False
    return True


def every_state(rules: RuleSet, setup: Setup, config: Config, new_reading: Callable[[], Reading],
                deck_file: str | None, record: Record, max_states: int) -> Walked:
    """Breadth-first over the model's states of ``setup``, the reading beside each."""
    walked = Walked(config)
    reading = new_reading()
    if not _start(rules, setup, reading, deck_file, walked):
        return walked
    root = rules.new_game(setup)
    seen = {root}
    frontier: list[tuple[Any, Reading, tuple[str, ...], Step | None]] = [(root, reading, (), None)]
    console.activity(f"lockstep {rules.id} {config.label()}: every state", max_states, "states")
    while frontier:
        level: list[tuple[Any, Reading, tuple[str, ...], Step | None]] = []
        for state, rd, path, step in frontier:
            if walked.states >= max_states:
                walked.complete = False
                return walked
            walked.states += 1
            console.advance(walked.states)
            seen_here = _look(rules, state, rd, step, walked, path, record)
            if seen_here is None:
                continue
            for move, _p in seen_here.follow:
                child = rules.apply(state, move)
                if child in seen:
                    continue
                seen.add(child)
                twin = rd.fork()
                if _played(rules, state, move, seen_here.actor, twin, walked, path, record):
                    level.append((child, twin, path + (str(move),), _step(rules, state, move, seen_here.actor)))
        frontier = level
    return walked


def _look(rules: RuleSet, state: Any, reading: Reading, step: Step | None, walked: Walked, path: tuple[str, ...],
          record: Record) -> Any:
    """:func:`.compare.look` with every part recorded; or None after recording a part for a reading that raised or
    broke the protocol here (a defect of the reading: the branch ends, the walk goes on)."""
    try:
        seen_here = look(rules, state, reading, step)
    except ReadingError as e:
        point = decision_point(rules, state, rules.to_move(state))
        clause = step.clause if step else "-"
        walked.parts += 1
        record(Sighting(Part("reading error", "reading error", "reading error", point, clause, "", str(e)[:200],
                             point), walked.config, path))
        return None
    for p in seen_here.parts:
        walked.parts += 1
        record(Sighting(p, walked.config, path))
    return seen_here


def _played(rules: RuleSet, state: Any, move: Any, actor: Any, reading: Reading, walked: Walked,
            path: tuple[str, ...], record: Record) -> bool:
    """Play ``move`` (one both sides offer) in the reading; a refusal (or an error) is recorded as a part."""
    try:
        refused = reading.apply(str(move))
    except ReadingError as e:
        refused = f"error: {e}"
    if refused is None:
        return True
    walked.refused += 1
    walked.parts += 1
    record(Sighting(_refusal(rules, state, move, actor, refused), walked.config, path))
    return False


def _refusal(rules: RuleSet, state: Any, move: Any, actor: Any, why: str) -> Part:
    from .compare import move_kind

    text = str(move)
    aspect = "chance ours only" if actor is CHANCE else "legal move ours only"
    point = decision_point(rules, state, actor)
    return Part(aspect, text, move_kind(text), point, _step_clause(rules, state, move, actor),
                f"{text!r} (listed by both)", f"refused: {why[:60]}", point)


def random_games(rules: RuleSet, setup: Setup, config: Config, new_reading: Callable[[], Reading],
                 deck_file: str | None, record: Record, games: int, seed: int, max_moves: int) -> Walked:
    """``games`` seeded random games (game i from seed + i), each at most ``max_moves`` moves."""
    walked = Walked(config)
    console.activity(f"lockstep {rules.id} {config.label()}: random games", games, "games")
    for i in range(games):
        rng = random.Random(seed + i)
        reading = new_reading()
        if not _start(rules, setup, reading, deck_file, walked, seed + i):
            return walked
        state = rules.new_game(setup)
        path: tuple[str, ...] = ()
        step: Step | None = None
        for _ in range(max_moves):
            walked.states += 1
            seen_here = _look(rules, state, reading, step, walked, path, record)
            if seen_here is None or seen_here.over or not seen_here.follow:
                break
            if seen_here.actor is CHANCE:
                total = sum(p for _, p in seen_here.follow)
                r, acc = rng.random() * float(total), 0.0
                move = seen_here.follow[-1][0]
                for m, p in seen_here.follow:
                    acc += float(p)
                    if r < acc:
                        move = m
                        break
            else:
                move = rng.choice(seen_here.follow)[0]
            if not _played(rules, state, move, seen_here.actor, reading, walked, path, record):
                break
            step = _step(rules, state, move, seen_here.actor)
            state = rules.apply(state, move)
            path += (str(move),)
            walked.moves += 1
        else:
            walked.complete = False
        walked.games += 1
        console.advance(walked.games)
    return walked
