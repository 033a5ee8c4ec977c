"""Whole games played at random, for any rule set: one call gives many games.

``random_playouts(rules, state, games, seed)`` plays ``games`` games on from ``state``
(``iter_playouts`` gives them one at a time, for counts too large to hold):
at every step the seat to move picks uniformly among its legal moves and chance picks each
outcome with its probability, until the rules end the game.  Each game comes back as its
moves (seat moves and chance outcomes, in order: they replay through ``rules.apply`` from
``state``) and the seats the rules name at the end.

A rule set may register a compiled playout (``Entry.playout`` in :mod:`.registry`); Dishes
does (:mod:`.dishes_playout`).  Elsewhere, and where the compiled one cannot run (it says
why with KernelUnavailable), the games are played through the step API itself.  The unit
everywhere is the *action*: one ``apply``, a seat's move or a chance outcome.

A seed reproduces the same games with the same path (compiled or step API) and version; the
two paths draw differently, so they give different games (with the same law).  Under a
strict ruling a game that reaches the gap raises RuleGap, as the step API does; the games
``iter_playouts`` gave before it stand.
"""

from __future__ import annotations

import importlib
import math
import operator
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .core import CHANCE, TERMINAL, IllegalMove, RuleSet, pick_by_probability


@dataclass(frozen=True, slots=True)
class Playout:
    """One game played at random: its actions in order, and whom the rules name at the end
    (``losers`` for Dishes, ``winners`` for Just Desserts; both empty when nobody is named)."""

    moves: tuple
    losers: frozenset[int] = frozenset()
    winners: frozenset[int] = frozenset()


def step_playouts(rules: RuleSet, state: Any, games: int, seed: int) -> Iterator[Playout]:
    """Random games through the step API (to_move, legal_moves, chance_outcomes, apply)."""
    rng = random.Random(f"tablerules:{seed}")  # a string seed: -s and s give different games (an int seed would not)
    to_move, legal, chance, apply = rules.to_move, rules.legal_moves, rules.chance_outcomes, rules.apply
    for _ in range(games):
        s, moves = state, []
        while True:  # plumbing: until the rules end the game
            actor = to_move(s)
            if actor is TERMINAL:  # plumbing: the rules ended the game
                break
            move = pick_by_probability(chance(s), rng.random()) if actor is CHANCE else rng.choice(legal(s))  # plumbing: random play
            s = apply(s, move)
            moves.append(move)
        result = rules.outcome(s)
        yield Playout(tuple(moves), result.losers, result.winners)


def _whole(value: Any, name: str) -> int:
    """``value`` as an int if it is a whole number (numpy's too), else ValueError naming ``name``."""
    if isinstance(value, bool):  # plumbing: True is not a count
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise ValueError(f"{name} must be a whole number, not {value!r}") from None


def iter_playouts(rules: RuleSet, state: Any, games: int, seed: int = 0) -> Iterator[Playout]:
    """``games`` games played at random from ``state``, one at a time (for counts too large
    to hold); the same seed gives the same games.  Bad arguments are refused at once."""
    games, seed = _whole(games, "games"), _whole(seed, "seed")
    if games < 0:  # plumbing: refuses a bad count
        raise ValueError(f"games must be 0 or more, not {games}")
    setup = getattr(state, "setup", None)
    if not isinstance(getattr(setup, "options", None), rules.Options):  # plumbing: refuses another rule set's state
        raise ValueError(f"{type(state).__name__} is not a state of {rules.id} (its setup has no {rules.id} options)")
    fast = _compiled_module(rules, setup)
    if fast is not None:  # plumbing: the compiled playout can run this setup
        return fast.random_playouts(state, games, seed)
    return step_playouts(rules, state, games, seed)


def _compiled_module(rules: RuleSet, setup: Any) -> Any:
    """The rule set's compiled playout module if one is registered and can run ``setup``."""
    from .registry import ENTRIES

    entry = ENTRIES.get(rules.id)
    if entry is None or entry.playout is None:  # plumbing: no compiled playout registered
        return None
    fast = importlib.import_module(entry.playout)
    return fast if fast.available(setup) else None  # plumbing: the compiled playout can run this setup


def compiled(rules: RuleSet, setup: Any) -> bool:
    """Are games of ``setup`` played by a compiled playout (else through the step API)?"""
    return _compiled_module(rules, setup) is not None


def _registered_module(rules: RuleSet) -> Any:
    """The rule set's compiled playout module (whether or not it can run a given setup), or None."""
    from .registry import ENTRIES

    entry = ENTRIES.get(rules.id)
    if entry is None or not entry.playout:  # plumbing: no compiled playout registered
        return None
    return importlib.import_module(entry.playout)


def seat_moves(rules: RuleSet, moves: tuple) -> int:
    """How many of a game's ``moves`` (a Playout's, from either path) are seat moves, chance outcomes left out:
    the rule set's compiled module counts them (its ``seat_moves``).  ValueError where it has none."""
    count = getattr(_registered_module(rules), "seat_moves", None)
    if count is None:  # plumbing: a rule set whose compiled module cannot tell seat moves from chance
        raise ValueError(f"{rules.id}: no seat-move count for its playouts")
    return count(moves)


def first_seat(rules: RuleSet) -> int:
    """The seat that moves first after a fresh deal (the compiled module's ``FIRST_SEAT``); ValueError where unknown."""
    seat = getattr(_registered_module(rules), "FIRST_SEAT", None)
    if seat is None:  # plumbing: a rule set whose compiled module does not say
        raise ValueError(f"{rules.id}: no first seat known for its playouts")
    return seat


def replay_problem(rules: RuleSet, state: Any, games: Iterable[Playout]) -> str | None:
    """The first game that does not replay on the model from ``state``, and why; None if all
    do.  Every move must be legal (``apply`` names the clause it breaks), every chance move
    an outcome the model offers with a probability above 0, the game over after its last
    move, and the seats named at the end those the model's outcome names."""
    for i, g in enumerate(games):
        s = state
        for step, move in enumerate(g.moves):
            if rules.to_move(s) is CHANCE and not any(m == move and p > 0 for m, p in rules.chance_outcomes(s)):  # plumbing: checks a playout
                return f"game {i}, action {step + 1} ({move}): not a chance outcome here"
            try:
                s = rules.apply(s, move)
            except IllegalMove as e:
                return f"game {i}, action {step + 1} ({move}): refused by {e.clause}"
        if rules.to_move(s) is not TERMINAL:  # plumbing: checks a playout
            return f"game {i}: not over after its {len(g.moves)} actions"
        result = rules.outcome(s)
        if (result.losers, result.winners) != (g.losers, g.winners):  # plumbing: checks a playout
            return (f"game {i}: the playout names losers {sorted(g.losers)}, winners {sorted(g.winners)}; the model "
                    f"{sorted(result.losers)}, {sorted(result.winners)}")
    return None


def standard_errors(share: float, exact: float, games: int) -> float:
    """How many standard errors (of a share over ``games`` independent games) ``share`` lies
    from the exact probability: 0 where they agree, infinite where ``exact`` is 0 or 1 and
    the share is not (no spread can explain it)."""
    spread = math.sqrt(exact * (1 - exact) / games) if games else 0.0  # plumbing: statistics
    if spread == 0:  # plumbing: a certain event, or no games
        return 0.0 if share == exact or not games else math.copysign(math.inf, share - exact)  # plumbing: statistics
    return (share - exact) / spread


def random_playouts(rules: RuleSet, state: Any, games: int, seed: int = 0) -> list[Playout]:
    """``games`` games played at random from ``state``, as a list (see :func:`iter_playouts`)."""
    return list(iter_playouts(rules, state, games, seed))


__all__ = ["Playout", "compiled", "first_seat", "iter_playouts", "random_playouts", "replay_problem", "seat_moves",
           "standard_errors", "step_playouts"]
