"""The ``tablerules-conform/1`` protocol around the rules in ``game``."""

from .tiles import Unsupported, parse_components
from .game import Game
from .view import observation, outcome

PROTOCOL = "tablerules-conform/1"
NAME = "dishes-reading"


def _err(msg):
    return {"ok": False, "error": msg}


class Engine:
    """One engine, at most one game at a time; deepcopy-able (plain values only)."""

    def __init__(self):
        self.game = None

    def handle(self, request):
        if not isinstance(request, dict):
            return _err("request must be a JSON object")
        op = request.get("op")
        if not isinstance(op, str):
            return _err("request has no 'op' string")
        if op == "quit":
            return None
        if op == "hello":
            proto = request.get("protocol", PROTOCOL)
            if proto != PROTOCOL:
                return _err("unsupported protocol %r" % (proto,))
            return {"ok": True, "protocol": PROTOCOL, "engine": NAME}
        if op == "new_game":
            return self._new_game(request)
        if op not in ("to_move", "legal_moves", "chance_outcomes", "apply",
                      "observation", "outcome"):
            return _err("unknown op %r" % op)
        game = self.game
        if game is None:
            return _err("no game in progress (send new_game first)")
        if op == "to_move":
            if game.over:
                who = "TERMINAL"
            elif game.pending is not None:
                who = "CHANCE"
            else:
                who = "seat %d" % game.seat
            return {"ok": True, "to_move": who}
        if op == "legal_moves":
            return {"ok": True, "moves": list(game.legal_moves())}
        if op == "chance_outcomes":
            return {"ok": True, "outcomes": [
                [m, "1" if num == den else "%d/%d" % (num, den)]
                for m, num, den in game.chance_outcomes()]}
        if op == "apply":
            move = request.get("move")
            if not isinstance(move, str):
                return _err("apply needs a 'move' string")
            why = game.apply(move)
            if why is not None:
                return {"ok": False, "refused": why}
            return {"ok": True}
        if op == "observation":
            seat = request.get("seat")
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.n:
                return _err("observation needs a seat 0..%d" % (game.n - 1))
            return {"ok": True, "observation": observation(game, seat)}
        # outcome
        return {"ok": True, "outcome": outcome(game)}

    def _new_game(self, request):
        ruleset = request.get("ruleset")
        if ruleset != "dishes":
            return {"ok": False, "unsupported": "ruleset %r is not 'dishes'" % (ruleset,)}
        players = request.get("players")
        if not isinstance(players, int) or isinstance(players, bool):
            return _err("players must be an integer")
        # Contents / FACTS.md: 2 to 4 players.
        if not 2 <= players <= 4:
            return {"ok": False, "unsupported": "the game is for 2 to 4 players"}
        # `options`: this rule set honours none; every key is ignored.
        try:
            ntypes, ncolours = parse_components(request.get("components"))
            game = Game(players, ntypes, ncolours)
        except Unsupported as exc:
            return {"ok": False, "unsupported": str(exc)}
        self.game = game
        return {"ok": True}
