"""The protocol ``tablerules-conform/1`` around one ``Game``."""
from .deck import DeckError, default_deck, load_deck
from .game import Game, HAND_SIZE
from .scoring import outcome

PROTOCOL = "tablerules-conform/1"
RULESET = "just-desserts-2.3"
NAME = "just_desserts_v23"


def _err(msg):
    return {"ok": False, "error": msg}


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


class Engine:
    """Answers one request at a time; ``copy.deepcopy`` gives an independent game."""

    def __init__(self):
        self.game = None

    def handle(self, req):
        if not isinstance(req, dict):
            return _err("request must be a JSON object")
        op = req.get("op")
        if op == "quit":
            return None
        if op == "hello":
            return {"ok": True, "protocol": PROTOCOL, "engine": NAME}
        if op == "new_game":
            return self._new_game(req)
        if op not in ("to_move", "legal_moves", "chance_outcomes", "apply",
                      "observation", "outcome"):
            return _err("unknown op %r" % (op,))
        g = self.game
        if g is None:
            return _err("no game in progress (send new_game first)")
        if op == "to_move":
            tm = g.to_move()
            return {"ok": True, "to_move": tm if isinstance(tm, str) else "seat %d" % tm}
        if op == "legal_moves":
            return {"ok": True, "moves": g.legal_moves()}
        if op == "chance_outcomes":
            return {"ok": True, "outcomes": [list(o) for o in g.chance_outcomes()]}
        if op == "apply":
            move = req.get("move")
            if not isinstance(move, str):
                return _err("apply needs a string 'move'")
            why = g.apply(move)
            if why is not None:
                return {"ok": False, "refused": why}
            return {"ok": True}
        if op == "observation":
            seat = req.get("seat")
            if not _is_int(seat) or not 0 <= seat < g.n:
                return _err("observation needs a seat 0..%d" % (g.n - 1))
            return {"ok": True, "observation": g.observation(seat)}
        # outcome
        if g.phase != "over":
            return {"ok": True, "outcome": None}
        return {"ok": True, "outcome": outcome(g)}

    def _new_game(self, req):
        ruleset = req.get("ruleset")
        players = req.get("players")
        comps = req.get("components")
        if ruleset != RULESET:
            return {"ok": False, "unsupported": "ruleset %r is not %s" % (ruleset, RULESET)}
        if not _is_int(players):
            return _err("players must be an integer")
        if not 2 <= players <= 5:
            return {"ok": False, "unsupported": "players must be 2 to 5"}
        # Options: none belong to version 2.3; every key is ignored (brief).
        if comps is None:
            deck = default_deck()
        elif isinstance(comps, dict) and isinstance(comps.get("argument"), str):
            try:
                deck = load_deck(comps["argument"])
            except DeckError as e:
                return {"ok": False, "unsupported": str(e)}
        else:
            return _err("components must be null or {name, argument}")
        # CHOICE: the 2.3 text names no player count; we offer 2 to 5 (FACTS.md, retail
        # edition).  A deck is refused only if it cannot be dealt ("Setup": five
        # desserts to each) or has no guest at all.  Other readings: also refuse decks
        # too small to draw after the deal (the Kitchen is then closed from the start).
        if deck.total_desserts < HAND_SIZE * players:
            return {"ok": False, "unsupported": "too few desserts to deal five to each"}
        if not deck.guest_ids:
            return {"ok": False, "unsupported": "no guests in the deck"}
        self.game = Game(deck, players)
        return {"ok": True}
