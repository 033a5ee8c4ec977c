"""Integer actions for OpenSpiel: how each rule set's moves become action ids and back.

OpenSpiel wants every move as an integer below ``num_distinct_actions`` (chance outcomes
below ``max_chance_outcomes``), legal actions in ascending order.  Two codecs:

* :class:`DishesActions`: a fixed meaning per id, from the table's places
  (dishes.setup.layout): ``turn P`` is P, ``place P on Q`` is NP + P*NP + Q, ``pass`` is
  NP + NP*NP, where NP is the number of places; chance ``reveal P COLOUR`` is P*4 + colour,
  ``first SEAT`` is NP*4 + seat.
* :class:`ListedActions` (Just Desserts): the move's index in the state's canonical list of
  legal moves (the rule set's ``legal_moves`` order), chance outcomes the same.  The list
  depends only on what the player to move can see (their hand and the table), so an id means
  one move within an information state.  The bound is a game parameter (``max_actions``);
  a state with more legal moves raises ValueError naming it.
"""

from __future__ import annotations

from typing import Any, Sequence

from tablerules.model import dishes
from tablerules.model.core import CHANCE


class DishesActions:
    """Fixed action ids for Who Is Going to Do the Dishes?."""

    def __init__(self, initial_state: Any, players: int) -> None:
        self.places = len(initial_state.places)
        self.players = players
        self.num_distinct_actions = self.places + self.places**2 + 1
        self.max_chance_outcomes = self.places * dishes.NC + players

    def encode(self, state: Any, move: Any) -> int:
        n = self.places
        if isinstance(move, dishes.Turn):
            return move.place
        if isinstance(move, dishes.Place):
            return n + move.source * n + move.target
        if isinstance(move, dishes.Pass):
            return n + n * n
        if isinstance(move, dishes.Reveal):
            return move.place * dishes.NC + move.colour
        if isinstance(move, dishes.FirstPlayer):
            return n * dishes.NC + move.seat
        raise ValueError(f"not a dishes move: {move!r}")

    def decode(self, state: Any, action: int, chance: bool) -> Any:
        n = self.places
        if chance:
            if action >= n * dishes.NC:
                return dishes.FirstPlayer(action - n * dishes.NC)
            return dishes.Reveal(action // dishes.NC, action % dishes.NC)
        if action < n:
            return dishes.Turn(action)
        if action == n + n * n:
            return dishes.Pass()
        source, target = divmod(action - n, n)
        return dishes.Place(source, target)

    def seat_actions(self, state: Any, moves: Sequence[Any]) -> list[int]:
        return sorted(self.encode(state, m) for m in moves)


class ListedActions:
    """Action id = index in the canonical list of legal moves (or of chance outcomes)."""

    def __init__(self, rules: Any, max_actions: int, max_chance_outcomes: int) -> None:
        self.rules = rules
        self.num_distinct_actions = max_actions
        self.max_chance_outcomes = max_chance_outcomes

    def _choices(self, state: Any, chance: bool) -> list[Any]:
        if chance:
            return [m for m, _ in self.rules.chance_outcomes(state)]
        return list(self.rules.legal_moves(state))

    def encode(self, state: Any, move: Any) -> int:
        """ValueError if ``move`` is not among the choices here."""
        return self._choices(state, self.rules.to_move(state) is CHANCE).index(move)

    def decode(self, state: Any, action: int, chance: bool) -> Any:
        choices = self._choices(state, chance)
        if not 0 <= action < len(choices):
            raise ValueError(
                f"action {action} is not one of the {len(choices)} {'outcomes' if chance else 'legal moves'} here"
            )
        return choices[action]

    def seat_actions(self, state: Any, moves: Sequence[Any]) -> list[int]:
        if len(moves) > self.num_distinct_actions:
            raise ValueError(f"{len(moves)} legal moves here, more than max_actions={self.num_distinct_actions}; "
                             f"load the game with a larger max_actions")
        return list(range(len(moves)))
