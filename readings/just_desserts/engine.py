"""The protocol `tablerules-conform/1`: turns request dicts into calls on a `Game`."""

from math import gcd

from .deck import DeckError, default_deck, load_deck
from .game import Game

PROTOCOL = "tablerules-conform/1"
ENGINE_NAME = "just-desserts-reading"
RULESET = "just-desserts"


def _frac(num, den):
    g = gcd(num, den)
    num, den = num // g, den // g
    return str(num) if den == 1 else "%d/%d" % (num, den)


def _err(msg):
    return {"ok": False, "error": msg}


class Engine:
    """A Just Desserts engine.  `handle(request)` returns the reply dict (None for quit).
    All game state is plain Python data, so `copy.deepcopy` branches a game."""

    def __init__(self):
        self.game = None

    def handle(self, req):
        if not isinstance(req, dict):
            return _err("request must be a JSON object")
        op = req.get("op")
        if not isinstance(op, str):
            return _err("missing 'op'")
        if op == "quit":
            return None
        if op == "hello":
            return {"ok": True, "protocol": PROTOCOL, "engine": ENGINE_NAME}
        if op == "new_game":
            return self._new_game(req)
        if op not in ("to_move", "legal_moves", "chance_outcomes", "apply",
                      "observation", "outcome"):
            return _err("unknown op %r" % op)
        g = self.game
        if g is None:
            return _err("no game: send new_game first")
        if op == "to_move":
            w = g.to_move()
            return {"ok": True, "to_move": w if isinstance(w, str) else "seat %d" % w}
        if op == "legal_moves":
            return {"ok": True, "moves": g.legal_moves()}
        if op == "chance_outcomes":
            return {"ok": True, "outcomes": [[m, _frac(a, b)] for m, a, b in g.chance_outcomes()]}
        if op == "outcome":
            return {"ok": True, "outcome": g.outcome()}
        if op == "observation":
            seat = req.get("seat")
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < g.n:
                return _err("bad seat")
            return {"ok": True, "observation": g.observation(seat)}
        # apply
        move = req.get("move")
        if not isinstance(move, str):
            return _err("apply needs a 'move' string")
        who = g.to_move()
        if who == "TERMINAL":
            return {"ok": False, "refused": "the game is over"}
        if who == "CHANCE":
            if move not in {m for m, _, _ in g.chance_outcomes()}:
                return {"ok": False, "refused": "not a possible chance outcome now"}
            g.apply_chance(move)
            return {"ok": True}
        if move not in g.legal_moves():
            return {"ok": False, "refused": "not a legal move for seat %d now" % who}
        g.apply_seat(move)
        return {"ok": True}

    def _new_game(self, req):
        if req.get("ruleset") != RULESET:
            return {"ok": False, "unsupported": "ruleset %r is not offered" % (req.get("ruleset"),)}
        n = req.get("players")
        if not isinstance(n, int) or isinstance(n, bool):
            return _err("'players' must be an integer")
        if not 2 <= n <= 5:
            return {"ok": False, "unsupported": "Just Desserts is for 2 to 5 players"}
        opts = req.get("options") or {}
        if not isinstance(opts, dict):
            return _err("'options' must be an object")
        comp = req.get("components")
        if comp is None:
            deck = default_deck()
        else:
            if not isinstance(comp, dict) or not isinstance(comp.get("argument"), str):
                return _err("'components' must be null or have an 'argument' path")
            try:
                deck = load_deck(comp["argument"])
            except DeckError as exc:
                return _err(str(exc))
        if deck.total_desserts < 3 * n or len(deck.guest_ids) < 3:
            return {"ok": False, "unsupported": "too few cards to deal"}
        # CHOICE: a deck in which no set of guests can ever win ("Winning" needs three of a
        # suit or five suits) is refused as unplayable.  Other reading: play it anyway
        # (the game could then never end).
        if not deck.can_anyone_win():
            return {"ok": False, "unsupported": "no guest set can win with this deck"}
        self.game = Game(deck, n,
                         poaching=opts.get("poaching") is True,
                         buffet=opts.get("buffet") is True,
                         surprise=opts.get("surprise-parties") is True)
        return {"ok": True}
