"""An OpenSpiel game tested in-process (``--engine openspiel:GAME_STRING``), through the same
questions as a subprocess engine.

Moves are the game's ``action_to_string`` texts (ours, for the tablerules_* games); chance
probabilities are OpenSpiel's floats, compared with ours to within :data:`FLOAT_SLACK`;
an observation is ``observation_string`` read as JSON (the tablerules_* games write our
model's observation so); the outcome is read from ``returns()`` (+1 a winner, -1 a loser).
The game string fixes the first setup; a golden vector or witness of another setup loads the
same game with that setup's ``players``, ``rulings`` and ``deck`` parameters, or is skipped
when the game does not take them.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from tablerules.model.core import Setup

from .client import Engine
from .protocol import ProtocolError, Refused, Unsupported

FLOAT_SLACK = 1e-9
"""OpenSpiel's probabilities are floats: equal to ours when within this of the exact fraction."""


class OpenSpielEngine(Engine):
    """``openspiel:GAME_STRING``: a pyspiel game, asked in-process."""

    float_probabilities = True

    def __init__(self, game_string: str) -> None:
        try:
            import pyspiel
        except ImportError:
            raise ProtocolError("--engine openspiel:...: OpenSpiel is not installed "
                                "(pip install 'tablerules[openspiel]')") from None
        try:
            import tablerules.openspiel  # noqa: F401 - registers the tablerules_* games
        except ImportError:
            pass
        self.pyspiel = pyspiel
        self.game_string = game_string
        self.name = f"openspiel:{game_string}"
        self.short = game_string.split("(", 1)[0].strip()
        try:
            self.first = pyspiel.load_game(game_string)
        except Exception as e:  # noqa: BLE001 - pyspiel raises its own errors; one line for any
            raise ProtocolError(f"--engine openspiel:{game_string}: OpenSpiel cannot load it "
                                f"({_one_line(e)})") from None
        self.state: Any = None
        self._used_first = False

    def _game_for(self, setup: Setup, components_argument: str | None) -> Any:
        params = self.first.get_parameters()
        if not self._used_first:
            self._used_first = True
            if params.get("players", setup.players) == setup.players:
                return self.first
        try:
            from tablerules.openspiel.game import rulings_text
        except ImportError:
            raise Unsupported("only the game string's own setup") from None
        wanted = {"players": setup.players, "rulings": rulings_text(setup.options)}
        comp = setup.components
        if comp is not None and "deck" in params:
            wanted["deck"] = components_argument or getattr(comp, "name", "")
        if any(k not in params for k in wanted):
            raise Unsupported(f"the game takes no {', '.join(k for k in wanted if k not in params)} parameter")
        merged = {**params, **wanted}
        try:
            return self.pyspiel.load_game(self.short, merged)
        except Exception as e:  # noqa: BLE001 - a setup the game does not offer
            raise Unsupported(_one_line(e)) from None

    def new_game(self, rules_id: str, setup: Setup, components_argument: str | None, seed: int) -> None:
        game = self._game_for(setup, components_argument)
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
