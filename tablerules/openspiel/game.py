"""The rule sets as OpenSpiel Python games: one adapter over the core API (model/core.py).

A :class:`TablerulesState` holds our frozen state (and the states before it, for the
information-state strings); every OpenSpiel call goes to the rule set's own functions:
``current_player`` to ``to_move``, ``legal_actions`` to ``legal_moves`` (through the action
codec of tablerules/openspiel/actions.py), ``chance_outcomes`` to ``chance_outcomes`` with
the exact Fractions as floats, ``returns`` to ``outcome``.

Returns: +1 for a winner, -1 for a loser, 0 for everyone else and for a draw (Dishes names
losers, dishes.end.most-dishes-loses; Just Desserts names a winner).  Game parameters:
``players``, ``rulings`` (``ruling:alternative`` pairs and optional-rule names joined by
``+``, e.g. ``tie-for-most:no-loser+first-player:random``: OpenSpiel's game strings keep
``=`` and ``,`` for themselves) and ``deck`` (a ``--deck`` argument; for Just Desserts the
default, empty, picks per player count: the rule set's default deck where it deals that
many, else the smallest shipped deck that does, see :func:`deck_for`).

OpenSpiel parses and checks a game string before any code of ours runs, so
``rulings=tie-for-most=no-loser`` fails inside pyspiel with its bare "Unknown parameter";
:func:`load` checks the string first and says which form is accepted.  The parameters and how a
game string is read are :mod:`.parameters` (no OpenSpiel needed there).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyspiel

from tablerules.model import registry
from tablerules.model.core import CHANCE, TERMINAL, SetupError

from .actions import DishesActions, ListedActions
from .parameters import PARAMETERS, check_game_string, deck_for, parse_rulings

_Type = pyspiel.GameType


@dataclass(frozen=True)
class GameSpec:
    """How one rule set is offered to OpenSpiel."""

    ruleset: str
    short_name: str
    long_name: str
    information: Any
    parameters: dict[str, Any] = field(default_factory=dict)


SPECS = (
    # Dishes: the colours of unturned tiles are unknown to everyone, their owner included
    # (dishes.setup.hidden-backs); our model draws a colour when a tile is turned, so no
    # seat ever knows more than another: perfect information with explicit chance.
    GameSpec("dishes", "tablerules_dishes", "Who Is Going to Do the Dishes? (tablerules)",
             _Type.Information.PERFECT_INFORMATION, PARAMETERS["tablerules_dishes"][1]),
    GameSpec("just-desserts", "tablerules_just_desserts", "Just Desserts (tablerules)",
             _Type.Information.IMPERFECT_INFORMATION, PARAMETERS["tablerules_just_desserts"][1]),
    GameSpec("just-desserts-2.3", "tablerules_just_desserts_2_3", "Just Desserts, rules version 2.3 (tablerules)",
             _Type.Information.IMPERFECT_INFORMATION, PARAMETERS["tablerules_just_desserts_2_3"][1]),
)
"""An empty ``deck`` (the Just Desserts default) is :func:`deck_for` the player count."""

def served_counts(spec: GameSpec) -> list[int]:
    """The player counts the default components deal: the range the game type declares, so
    that every count OpenSpiel is told the game takes loads with the default parameters."""
    rules = registry.get(spec.ruleset)
    if spec.parameters.get("deck"):
        components = rules.load_components(spec.parameters["deck"])
        served = []
        for n in rules.player_counts:
            try:
                rules.setup(n, rules.Options(), components)
            except SetupError:
                continue
            served.append(n)
        return served
    return [n for n in rules.player_counts if deck_for(spec.ruleset, n) is not None]


def load(game: str, params: dict[str, Any] | None = None) -> Any:
    """``pyspiel.load_game`` with our games' parameters checked first: a game string that
    OpenSpiel would refuse with a bare "Unknown parameter" gives a SetupError saying what
    ``rulings`` takes (see :func:`check_game_string`).  With ``params`` (a dict), the game
    is loaded by name: there ``rulings`` may also be written ``tie-for-most=no-loser``."""
    if params is not None:
        return pyspiel.load_game(game, params)
    check_game_string(game)
    return pyspiel.load_game(game)


def dishes_length_bound(initial: Any, players: int) -> int:
    """The longest Dishes game, in OpenSpiel actions (seat moves and chance outcomes).

    With T tiles on the table: at most T turns, each followed by its reveal, and T-1
    placements (each leaves one pile fewer: dishes.play.move-whole-stack); a forced pass
    (dishes.ruling.stuck-player = skip) only comes while someone else can still move, so at
    most n-1 of them precede each real move; plus the chance choice of the first player."""
    tiles = sum(1 for s in initial.places if s is None) + len(initial.reveal)
    real = 2 * tiles - 1
    return 1 + tiles + real + (players - 1) * real


def _chance_bound(rules: Any, setup: Any) -> int:
    """Just Desserts: a chance event draws a dessert, turns up a guest or picks a seat."""
    deck = setup.components
    return max(len(deck.desserts), len(deck.guests), setup.players, 1)


def make_game_class(spec: GameSpec) -> type:
    """A pyspiel.Game subclass for one rule set (registered by tablerules.openspiel)."""
    rules = registry.get(spec.ruleset)
    counts = served_counts(spec)
    if not counts:
        raise SetupError(f"{spec.short_name}: the default components deal no player count of {spec.ruleset}")
    game_type = pyspiel.GameType(
        short_name=spec.short_name,
        long_name=spec.long_name,
        dynamics=_Type.Dynamics.SEQUENTIAL,
        chance_mode=_Type.ChanceMode.EXPLICIT_STOCHASTIC,
        information=spec.information,
        utility=_Type.Utility.GENERAL_SUM,
        reward_model=_Type.RewardModel.TERMINAL,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=spec.parameters,
    )

    class Game(pyspiel.Game):
        __doc__ = f"{spec.long_name} as an OpenSpiel game (parameters: {', '.join(spec.parameters)})."

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            values = {**spec.parameters, **(params or {})}
            for key in ("max_game_length", "max_actions"):
                if key in values and int(values[key]) < 1:
                    raise SetupError(f"{spec.short_name}: {key} must be at least 1, not {values[key]}")
            options = parse_rulings(rules, str(values["rulings"]))
            players, deck = int(values["players"]), str(values["deck"])
            if not deck and players in rules.player_counts and rules.load_components:
                deck = deck_for(spec.ruleset, players) or ""
                if not deck:
                    raise SetupError(f"{spec.short_name}: no shipped deck deals {players} players; "
                                     "give deck=FILE, a deck file that does (the retail card list, for one)")
                values["deck"] = deck  # the game string names the deck played
            components = rules.load_components(deck) if deck and rules.load_components else None
            setup = rules.setup(players, options, components)
            initial = rules.new_game(setup)
            if spec.ruleset == "dishes":
                codec: Any = DishesActions(initial, setup.players)
                length, truncate = dishes_length_bound(initial, setup.players), False
            else:
                codec = ListedActions(rules, int(values["max_actions"]), _chance_bound(rules, setup))
                length, truncate = int(values["max_game_length"]), True
            info = pyspiel.GameInfo(
                num_distinct_actions=codec.num_distinct_actions,
                max_chance_outcomes=codec.max_chance_outcomes,
                num_players=setup.players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=None,
                max_game_length=length,
            )
            super().__init__(game_type, info, values)
            self.rules, self.setup, self.codec, self.initial = rules, setup, codec, initial
            self.length_cap = length if truncate else None

        def new_initial_state(self) -> "TablerulesState":
            return TablerulesState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "Observer":
            return Observer(iig_obs_type, params)

    Game.__name__ = Game.__qualname__ = "".join(w.title() for w in spec.short_name.split("_")) + "Game"
    return Game, game_type


@dataclass(frozen=True)
class _Run:
    """Everything an OpenSpiel state holds: the game's rules, codec and length cap, our
    states from the start to now (for perfect-recall information states) and the steps
    between them.  Immutable, so a clone shares it (OpenSpiel clones a Python state by
    deep-copying its attributes); pickled as the game's name and the actions taken, and
    rebuilt by replaying them (OpenSpiel's serialisation)."""

    game_name: str
    rules: Any
    codec: Any
    cap: int | None
    trail: tuple
    steps: tuple
    """(actor, move, action id) of every step so far."""
    actor: Any

    def __deepcopy__(self, memo: dict) -> "_Run":
        return self

    def __reduce__(self) -> tuple:
        return _replayed, (self.game_name, tuple(a for _, _, a in self.steps))

    def then(self, action: int) -> "_Run":
        state = self.trail[-1]
        move = self.codec.decode(state, action, self.actor is CHANCE)
        after = self.rules.apply(state, move)
        return _Run(self.game_name, self.rules, self.codec, self.cap, self.trail + (after,),
                    self.steps + ((self.actor, move, action),), self.rules.to_move(after))


def _replayed(game_name: str, actions: tuple) -> _Run:
    state = pyspiel.load_game(game_name).new_initial_state()
    for a in actions:
        state.apply_action(a)
    return state._run


class TablerulesState(pyspiel.State):
    """An OpenSpiel state over one of our frozen states."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self._run = _Run(str(game), game.rules, game.codec, game.length_cap, (game.initial,), (),
                         game.rules.to_move(game.initial))

    @property
    def _rules(self) -> Any:
        return self._run.rules

    @property
    def _codec(self) -> Any:
        return self._run.codec

    @property
    def _actor(self) -> Any:
        return self._run.actor

    @property
    def ours(self) -> Any:
        """Our state (model/<ruleset>.py) behind this OpenSpiel state."""
        return self._run.trail[-1]

    @property
    def truncated(self) -> bool:
        """True when a Just Desserts game reached the game's max_game_length (it ends there as a draw)."""
        run = self._run
        return run.cap is not None and len(run.steps) >= run.cap and run.actor is not TERMINAL

    def current_player(self) -> int:
        if self._actor is TERMINAL or self.truncated:
            return pyspiel.PlayerId.TERMINAL
        if self._actor is CHANCE:
            return pyspiel.PlayerId.CHANCE
        return self._actor

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._actor:
            return []
        return self._codec.seat_actions(self.ours, self._rules.legal_moves(self.ours))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        state = self.ours
        outs = self._rules.chance_outcomes(state)
        if isinstance(self._codec, ListedActions):
            return [(i, float(p)) for i, (_, p) in enumerate(outs)]
        return sorted((self._codec.encode(state, m), float(p)) for m, p in outs)

    def _apply_action(self, action: int) -> None:
        self._run = self._run.then(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self._codec.decode(self.ours, action, player == pyspiel.PlayerId.CHANCE))

    def is_terminal(self) -> bool:
        return self._actor is TERMINAL or self.truncated

    def returns(self) -> list[float]:
        n = self.get_game().num_players()
        if self._actor is not TERMINAL:
            return [0.0] * n
        out = self._rules.outcome(self.ours)
        return [1.0 if s in out.winners else -1.0 if s in out.losers else 0.0 for s in range(n)]

    def observation_text(self, seat: int) -> str:
        """What ``seat`` sees now (the rule set's ``observation``), as compact JSON."""
        return _text(self._rules.observation(self.ours, seat))

    def information_state_text(self, seat: int) -> str:
        """Everything ``seat`` has seen, in order, and its own moves: perfect recall."""
        run = self._run
        lines = [f"seat {seat}", _text(run.rules.observation(run.trail[0], seat))]
        for (actor, move, _), after in zip(run.steps, run.trail[1:]):
            own = f"{move}" if actor == seat else ""
            lines.append(f"{own} > {_text(run.rules.observation(after, seat))}")
        return "\n".join(lines)

    def __str__(self) -> str:
        """The whole state (the rule set's ``state_vars``): one text per state of ours."""
        return _text(self._rules.state_vars(self.ours))


def _text(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


class Observer:
    """OpenSpiel's PyObserver: strings only (the games declare no tensors)."""

    def __init__(self, iig_obs_type: Any = None, params: Any = None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: TablerulesState, player: int) -> None:
        pass

    def string_from(self, state: TablerulesState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_text(player)
        return state.observation_text(player)
