"""An OpenSpiel game tested in-process (``--engine openspiel:GAME_STRING``), through the same
questions as a subprocess engine.

Moves are the game's ``action_to_string`` texts (ours, for the tablerules_* games); chance
probabilities are OpenSpiel's floats, compared with ours to within :data:`FLOAT_SLACK`;
an observation is ``observation_string`` read as JSON (the tablerules_* games write our
model's observation so); the outcome is read from ``returns()`` (+1 a winner, -1 a loser).

**The game string is honoured for every game of the run.**  Each parameter it gives is fixed:
the run's own games are played with it (:func:`run_setup` reads the run's setup from the string,
and refuses a string that contradicts the command line), and a golden vector or witness whose
setup disagrees with a fixed parameter is declined (counted as skipped), never played with the
string's parameters quietly changed.  A parameter the string leaves out follows each game's setup
(the tablerules_* games take ``players``, ``rulings`` and ``deck``).  A game that is not one of
ours is played as its string loads it, for every game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tablerules.model import registry
from tablerules.model.core import RuleSet, Setup, SetupError
from tablerules.openspiel.parameters import GameString, deck_for, parse_rulings, read_game_string, rulings_text

from .client import Engine
from .protocol import OPENSPIEL_PREFIX, ProtocolError, Refused, Unsupported

FLOAT_SLACK = 1e-9
"""OpenSpiel's probabilities are floats: equal to ours when within this of the exact fraction."""
PREFIX = OPENSPIEL_PREFIX


def read(engine_text: str) -> GameString:
    """The game string of ``--engine openspiel:GAME_STRING``; ProtocolError (one line) if it cannot be read."""
    text = engine_text.removeprefix(PREFIX)
    try:
        return read_game_string(text)
    except SetupError as e:
        raise ProtocolError(f"--engine {engine_text}: {e}") from None


@dataclass(frozen=True)
class RunSetup:
    """What a game string makes of the run: its players, rulings and deck (None where it gives none),
    and the most moves a game may have before OpenSpiel cuts it short (``max_game_length``)."""

    players: int | None = None
    options: Any = None
    deck: str | None = None
    max_moves: int | None = None


def run_setup(game: GameString, rules: RuleSet, players: int | None, options: Any, options_given: bool,
              deck: str | None) -> RunSetup:
    """The setup the run plays, from the game string and the command line (``players``, ``options``,
    ``deck``: what --players, --ruling/--option/--strict and --deck say, None or ``options_given``
    False where they say nothing).  SetupError (one line) for a string of another rule set, or one
    that says otherwise than the command line; a parameter both give must agree."""
    where = f"--engine {PREFIX}{game.text}"
    if game.ruleset is None:
        return RunSetup()
    if game.ruleset != rules.id:
        raise SetupError(f"{where}: {game.short_name} plays {game.ruleset}, not {rules.id}")
    given = game.given
    out_players = given.get("players")
    if out_players is not None and players is not None and out_players != players:
        raise SetupError(f"{where}: the game string says players={out_players}, --players says {players}: "
                         "give one of them")
    out_options = None
    if "rulings" in given:
        out_options = parse_rulings(rules, str(given["rulings"]))
        if options_given and out_options != options:
            raise SetupError(f"{where}: the game string says rulings={given['rulings']}, --ruling/--option say "
                             f"rulings={rulings_text(options)}: give one of them")
    out_deck = given.get("deck") or None
    if out_deck is not None and deck is not None and out_deck != deck:
        raise SetupError(f"{where}: the game string says deck={out_deck}, --deck says {deck}: give one of them")
    length = given.get("max_game_length")
    return RunSetup(out_players, out_options, out_deck, None if length is None else max(int(length) - 1, 0))


class OpenSpielEngine(Engine):
    """``openspiel:GAME_STRING``: a pyspiel game, asked in-process."""

    float_probabilities = True

    def __init__(self, engine_text: str) -> None:
        self.game = read(engine_text)
        try:
            import pyspiel
        except ImportError:
            raise ProtocolError(f"--engine {PREFIX}...: OpenSpiel is not installed "
                                "(pip install 'tablerules[openspiel]')") from None
        try:
            from tablerules.openspiel import register
        except ImportError:  # an OpenSpiel without our games' dependencies: other games still load
            register = None
        if register is not None:
            register()
        self.pyspiel = pyspiel
        self.name = engine_text
        try:
            self.first = pyspiel.load_game(self.game.text)
        except Exception as e:  # noqa: BLE001 - pyspiel raises its own errors; one line for any
            raise ProtocolError(f"--engine {engine_text}: OpenSpiel cannot load it ({_one_line(e)})") from None
        self.loaded: dict[tuple, Any] = {}
        self.state: Any = None

    def _game_for(self, rules_id: str, setup: Setup, components_argument: str | None) -> Any:
        """The game to play ``setup`` with: the string's parameters, and the setup's where the string gives none."""
        if self.game.ruleset is None:  # not one of ours: its string decides every game
            return self.first
        rules = registry.get(rules_id)
        fixed = self.game.given
        if "players" in fixed and fixed["players"] != setup.players:
            raise Unsupported(f"the game string fixes players={fixed['players']}")
        if "rulings" in fixed and parse_rulings(rules, str(fixed["rulings"])) != setup.options:
            raise Unsupported(f"the game string fixes rulings={fixed['rulings']}")
        deck = components_argument or getattr(setup.components, "name", None)
        if "deck" in fixed:
            named = fixed["deck"] or deck_for(rules_id, setup.players)
            try:
                same = named is not None and rules.load_components(named) == setup.components
            except (SetupError, OSError, ValueError):
                same = False
            if not same:
                raise Unsupported(f"the game string fixes deck={fixed['deck']}")
            deck = fixed["deck"]
        wanted = {**self.game.parameters(), "players": setup.players, "rulings": rulings_text(setup.options),
                  **({"deck": deck} if deck is not None else {}), **fixed}
        key = tuple(sorted(wanted.items()))
        if key not in self.loaded:
            try:
                self.loaded[key] = self.pyspiel.load_game(self.game.short_name, wanted)
            except Exception as e:  # noqa: BLE001 - a setup the game does not offer
                raise Unsupported(_one_line(e)) from None
        return self.loaded[key]

    def new_game(self, rules_id: str, setup: Setup, components_argument: str | None, seed: int) -> None:
        game = self._game_for(rules_id, setup, components_argument)
        if game.num_players() != setup.players:
            raise Unsupported(f"the game has {game.num_players()} players, not {setup.players}")
        self.state = game.new_initial_state()

    def to_move(self) -> str:
        s = self.state
        if s.is_terminal():
            return "TERMINAL"
        if s.is_chance_node():
            return "CHANCE"
        return f"seat {s.current_player()}"

    def legal_moves(self) -> list[str]:
        s = self.state
        return [s.action_to_string(s.current_player(), a) for a in s.legal_actions()]

    def chance_outcomes(self) -> list[tuple[str, Fraction | float]] | None:
        s = self.state
        return [(s.action_to_string(s.current_player(), a), float(p)) for a, p in s.chance_outcomes()]

    def apply(self, move: str) -> None:
        s = self.state
        player = s.current_player()
        actions = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
        for a in actions:
            if s.action_to_string(player, a) == move:
                s.apply_action(a)
                return
        raise Refused(f"no action of this state prints as {move!r}")

    def observation(self, seat: int) -> Any:
        text = self.state.observation_string(seat)
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            return text

    def outcome(self) -> dict[str, Any] | None:
        s = self.state
        if not s.is_terminal():
            return None
        returns = s.returns()
        return {"winners": [i for i, r in enumerate(returns) if r > 0],
                "losers": [i for i, r in enumerate(returns) if r < 0]}


def _one_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0][:200] if text else type(e).__name__
