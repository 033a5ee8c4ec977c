"""The rules behind the example engines: here tablerules' own model stands in for your engine.

:class:`StandIn` is the object :mod:`protocol_loop` asks, over a game of the model; what is
particular to a rule set (how a move is written, what a seat sees) is two functions the rule
set's engine gives it (``dishes.py``, ``just_desserts.py``, ``just_desserts_2_3.py``).  In your
engine, replace the calls into ``rules`` and ``self.state`` with your own game's.
"""

from tablerules.model import registry
from tablerules.model.core import CHANCE, TERMINAL, parse_options


class StandIn:
    """One game at a time of the rule set ``ruleset``: ``move_text(move)`` writes a move of ours as the
    protocol's text, ``observation(game, seat)`` what a seat sees (``game``: this object; its ``state``
    is the model's state)."""

    def __init__(self, ruleset, move_text, observation):
        self.rules = registry.get(ruleset)
        self.move_text = move_text
        self.seen = observation
        self.state = None

    def new_game(self, request):
        if request["ruleset"] != self.rules.id:
            return f"only {self.rules.id}"
        options = request["options"]
        if "strict" in options.values():  # a strict ruling stops where the rules are silent: not offered here
            return "strict rulings are not offered"
        rulings = [f"{name}={alternative}" for name, alternative in options.items() if isinstance(alternative, str)]
        chosen = parse_options(self.rules.Options, rulings, variants=[k for k, on in options.items() if on is True])
        deck = request["components"]  # what --deck took: a tile set (Dishes), a deck name or file
        components = self.rules.load_components(deck["argument"]) if deck else None
        self.state = self.rules.new_game(self.rules.setup(request["players"], chosen, components))
        return None

    def to_move(self):
        actor = self.rules.to_move(self.state)
        return "CHANCE" if actor is CHANCE else "TERMINAL" if actor is TERMINAL else f"seat {actor}"

    def _choices(self):
        actor = self.rules.to_move(self.state)
        if actor is TERMINAL:
            return []
        if actor is CHANCE:
            return list(self.rules.chance_outcomes(self.state))
        return [(move, None) for move in self.rules.legal_moves(self.state)]

    def choices(self):
        return [(self.move_text(move), p) for move, p in self._choices()]

    def apply(self, text):
        for move, _ in self._choices():  # the choice written so: no parser needed
            if self.move_text(move) == text:
                self.state = self.rules.apply(self.state, move)
                return None
        return f"{text!r} is not a choice here"

    def observation(self, seat):
        return self.seen(self, seat)

    def outcome(self):
        if self.rules.to_move(self.state) is not TERMINAL:
            return None
        result = self.rules.outcome(self.state)
        return {"winners": sorted(result.winners), "losers": sorted(result.losers), "draw": result.draw}
