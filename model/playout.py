"""Whole games played at random, for any rule set: one call gives many games.

``random_playouts(rules, state, games, seed)`` plays ``games`` games on from ``state``
(``iter_playouts`` gives them one at a time, for counts too large to hold):
at every step the seat to move picks uniformly among its legal moves and chance picks each
outcome with its probability, until the rules end the game.  Each game comes back as its
moves (seat moves and chance outcomes, in order: they replay through ``rules.apply`` from
``state``) and the seats the rules name at the end.

A rule set may register a compiled playout (``Entry.playout`` in :mod:`.registry`); Dishes
does (:mod:`.dishes.playout`).  Elsewhere, and where the compiled one cannot run (it says
why with KernelUnavailable), the games are played through the step API itself.  The unit
everywhere is the *action*: one ``apply``, a seat's move or a chance outcome.

A seed reproduces the same games with the same path (compiled or step API) and version; the
two paths draw differently, so they give different games (with the same law).  Under a
strict ruling a game that reaches the gap raises RuleGap from ``iter_playouts``, as the
step API does; the games it gave before it stand.  ``iter_games`` gives such a game too,
as a Playout naming the ruling (``gap``) whose last action is the one ``apply`` refused, or
(where the rules raise while listing the next moves or chance outcomes) the last action
before that listing.
"""

from __future__ import annotations

import importlib
import math
import operator
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .core import CHANCE, STRICT, TERMINAL, IllegalMove, RuleGap, RuleSet, pick_by_probability, ruling_fields

# this module decides nothing about play, and why (the decision-point finder reads this)
PLUMBING = "plays whole games at random through the step API; the rules decide every move"


@dataclass(frozen=True, slots=True)
class Playout:
    """One game played at random: its actions in order, and whom the rules name at the end
    (``losers`` for Dishes, ``winners`` for Just Desserts; both empty when nobody is named)."""

    moves: tuple
    losers: frozenset[int] = frozenset()
    winners: frozenset[int] = frozenset()
    gap: str = ""
    """The strict ruling whose gap stopped the game (its last move is the one ``apply`` refused, or
    the one after which the rules refuse to list the next moves or chance outcomes), else ""."""


MAX_ACTIONS = 100_000
"""Most actions of one random game (step API or compiled): a game that reaches it raises EndlessGame."""


class EndlessGame(RuntimeError):
    """A random game reached MAX_ACTIONS actions without ending: under these rulings play may never end
    (jd.ruling.endless-play=play-on on a table where guests only change hands, or
    jd.ruling.no-serving-possible=play-on).  ``game`` is its number among the games asked for (1 for the
    first; 0 where unknown), ``actions`` how many actions it had played."""

    def __init__(self, message: str, game: int = 0, actions: int = MAX_ACTIONS) -> None:
        super().__init__(message)
        self.game = game
        self.actions = actions


def step_playouts(rules: RuleSet, state: Any, games: int, seed: int) -> Iterator[Playout]:
    """Random games through the step API (to_move, legal_moves, chance_outcomes, apply); a game
    a strict ruling stops comes back with ``gap`` set (see ``iter_games``)."""
    rng = random.Random(f"tablerules:{seed}")  # a string seed: -s and s give different games (an int seed would not)
    for i in range(games):
        try:
            yield _step_game(rules, state, rng)
        except EndlessGame as e:  # plumbing: name the game
            raise EndlessGame(str(e), game=i + 1, actions=e.actions) from None


def _step_game(rules: RuleSet, state: Any, rng: random.Random) -> Playout:
    to_move, legal, chance, apply = rules.to_move, rules.legal_moves, rules.chance_outcomes, rules.apply
    s, moves = state, []
    while True:
        if len(moves) >= MAX_ACTIONS:  # plumbing: a count, never a clock
            raise EndlessGame(f"a random game reached {MAX_ACTIONS:,} actions without ending (play that may never "
                              "end under these rulings)")
        try:
            actor = to_move(s)
            if actor is TERMINAL:
                break
            move = pick_by_probability(chance(s), rng.random()) if actor is CHANCE else rng.choice(legal(s))
        except RuleGap as gap:  # the rules cannot list what comes next
            return Playout(tuple(moves), gap=gap.ruling)
        moves.append(move)
        try:
            s = apply(s, move)
        except RuleGap as gap:
            return Playout(tuple(moves), gap=gap.ruling)
    result = rules.outcome(s)
    return Playout(tuple(moves), result.losers, result.winners)


def _whole(value: Any, name: str) -> int:
    """``value`` as an int if it is a whole number (numpy's too), else ValueError naming ``name``."""
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise ValueError(f"{name} must be a whole number, not {value!r}") from None


def iter_playouts(rules: RuleSet, state: Any, games: int, seed: int = 0) -> Iterator[Playout]:
    """``games`` games played at random from ``state``, one at a time (for counts too large
    to hold); the same seed gives the same games.  Bad arguments are refused at once.  A game
    that reaches a strict ruling's gap raises RuleGap (the games before it stand)."""
    games_ = iter_games(rules, state, games, seed)
    return _raising_at_gaps(games_)


def _raising_at_gaps(games: Iterator[Playout]) -> Iterator[Playout]:
    for i, game in enumerate(games):
        if game.gap:
            raise RuleGap(game.gap, f"random game {i + 1} reached it at its action {len(game.moves)}")
        yield game


def iter_games(rules: RuleSet, state: Any, games: int, seed: int = 0) -> Iterator[Playout]:
    """As :func:`iter_playouts`, but a game a strict ruling stops is given too, with ``gap``
    naming the ruling (its moves end with the action ``apply`` refuses with RuleGap)."""
    games, seed = _whole(games, "games"), _whole(seed, "seed")
    if games < 0:
        raise ValueError(f"games must be 0 or more, not {games}")
    setup = getattr(state, "setup", None)
    if not isinstance(getattr(setup, "options", None), rules.Options):
        raise ValueError(f"{type(state).__name__} is not a state of {rules.id} (its setup has no {rules.id} options)")
    fast = _compiled_module(rules, setup)
    if fast is not None:
        return fast.random_playouts(state, games, seed)
    return step_playouts(rules, state, games, seed)


def _compiled_module(rules: RuleSet, setup: Any) -> Any:
    """The rule set's compiled playout module if one is registered and can run ``setup``."""
    from .registry import ENTRIES

    entry = ENTRIES.get(rules.id)
    if entry is None or entry.playout is None:
        return None
    fast = importlib.import_module(entry.playout)
    return fast if fast.available(setup) else None


def compiled(rules: RuleSet, setup: Any) -> bool:
    """Are games of ``setup`` played by a compiled playout (else through the step API)?"""
    return _compiled_module(rules, setup) is not None


def _registered_module(rules: RuleSet) -> Any:
    """The rule set's compiled playout module (whether or not it can run a given setup), or None."""
    from .registry import ENTRIES

    entry = ENTRIES.get(rules.id)
    if entry is None or not entry.playout:
        return None
    return importlib.import_module(entry.playout)


def seat_moves(rules: RuleSet, moves: tuple) -> int:
    """How many of a game's ``moves`` (a Playout's, from either path) are seat moves, chance outcomes left out:
    the rule set's compiled module counts them (its ``seat_moves``).  ValueError where it has none."""
    count = getattr(_registered_module(rules), "seat_moves", None)
    if count is None:
        raise ValueError(f"{rules.id}: no seat-move count for its playouts")
    return count(moves)


def first_seat(rules: RuleSet) -> int:
    """The seat that moves first after a fresh deal (the compiled module's ``FIRST_SEAT``); ValueError where unknown."""
    seat = getattr(_registered_module(rules), "FIRST_SEAT", None)
    if seat is None:
        raise ValueError(f"{rules.id}: no first seat known for its playouts")
    return seat


def replay_problem(rules: RuleSet, state: Any, games: Iterable[Playout]) -> str | None:
    """The first game that does not replay on the model from ``state``, and why; None if all
    do.  Every move must be legal (``apply`` names the clause it breaks), every chance move
    an outcome the model offers with a probability above 0, the game over after its last
    move, and the seats named at the end those the model's outcome names.  A game stopped at
    a strict ruling's gap must replay to its last move, and ``apply`` must refuse that one
    with a RuleGap of the same ruling, or (all its moves applied) listing the next moves or
    chance outcomes must raise it."""
    for i, g in enumerate(games):
        s = state
        for step, move in enumerate(g.moves):
            try:
                if rules.to_move(s) is CHANCE and not any(m == move and p > 0 for m, p in rules.chance_outcomes(s)):
                    return f"game {i}, action {step + 1} ({move}): not a chance outcome here"
            except RuleGap as e:
                return (f"game {i}, action {step + 1} ({move}): the model stops at the gap {e.ruling} before it, the "
                        f"playout does not")
            try:
                s = rules.apply(s, move)
            except IllegalMove as e:
                return f"game {i}, action {step + 1} ({move}): refused by {e.clause}"
            except RuleGap as e:
                if g.gap == e.ruling and step == len(g.moves) - 1:
                    break
                return (
                    f"game {i}, action {step + 1} ({move}): the model stops at the gap {e.ruling}, the playout does not"
                )
        else:
            listed = _listing_gap(rules, s)
            if listed != (g.gap or None):
                model = f"the model stops at the gap {listed}" if listed else "the model plays on"
                return (f"game {i}: the playout stops at {f'the gap {g.gap}' if g.gap else 'no gap'} after "
                        f"{len(g.moves)} actions; {model}")
            if g.gap:
                continue
            problem = _end_problem(rules, s, g, i)
            if problem:
                return problem
    return None


def _listing_gap(rules: RuleSet, s: Any) -> str | None:
    """The ruling of the RuleGap the rules raise while listing what comes next at ``s`` (the
    seat's legal moves or the chance outcomes), else None."""
    try:
        actor = rules.to_move(s)
        if actor is not TERMINAL:
            rules.chance_outcomes(s) if actor is CHANCE else rules.legal_moves(s)
    except RuleGap as e:
        return e.ruling
    return None


def _end_problem(rules: RuleSet, s: Any, g: Playout, i: int) -> str | None:
    if rules.to_move(s) is not TERMINAL:
        return f"game {i}: not over after its {len(g.moves)} actions"
    result = rules.outcome(s)
    if (result.losers, result.winners) != (g.losers, g.winners):
        return (f"game {i}: the playout names losers {sorted(g.losers)}, winners {sorted(g.winners)}; the model "
                f"{sorted(result.losers)}, {sorted(result.winners)}")
    return None


def strict_bits(options: Any, rulings: tuple[str, ...]) -> int:
    """The rulings of ``rulings`` that ``options`` sets to strict, as bits (bit i for
    ``rulings[i]``): how a compiled playout's parameters tell its loop where play stops."""
    fields = ruling_fields(type(options))
    return sum(1 << i for i, rid in enumerate(rulings) if getattr(options, fields[rid].name) == STRICT)


def standard_errors(share: float, exact: float, games: int) -> float:
    """How many standard errors (of a share over ``games`` independent games) ``share`` lies
    from the exact probability: 0 where they agree, infinite where ``exact`` is 0 or 1 and
    the share is not (no spread can explain it)."""
    spread = math.sqrt(exact * (1 - exact) / games) if games else 0.0
    if spread == 0:
        return 0.0 if share == exact or not games else math.copysign(math.inf, share - exact)
    return (share - exact) / spread


def random_playouts(rules: RuleSet, state: Any, games: int, seed: int = 0) -> list[Playout]:
    """``games`` games played at random from ``state``, as a list (see :func:`iter_playouts`)."""
    return list(iter_playouts(rules, state, games, seed))


__all__ = [
    "Playout", "compiled", "first_seat", "iter_games", "iter_playouts", "random_playouts", "replay_problem",
    "seat_moves", "standard_errors", "step_playouts", "strict_bits",
]
