"""Our own model dressed as a reading (the readings' protocol and observation shape), for tests
of the lockstep: against the model it must show no difference; with one ruling set otherwise
(``RULINGS``), every difference it shows must be explained by that ruling."""

from __future__ import annotations

from typing import Any

from tablerules.lockstep.views import outcome_view, view
from tablerules.model import registry
from tablerules.model.core import CHANCE, TERMINAL, parse_options


class Engine:
    RULINGS: tuple[str, ...] = ()
    """`ID=ALTERNATIVE` texts this reading plays instead of the defaults."""

    def __init__(self) -> None:
        self.rules: Any = None
        self.state: Any = None

    def handle(self, request: dict[str, Any]) -> dict[str, Any] | None:
        op = request["op"]
        if op == "hello":
            return {"ok": True, "protocol": request["protocol"], "engine": "model as a reading"}
        if op == "new_game":
            self.rules = registry.get(request["ruleset"])
            variants = [k for k, v in request["options"].items() if v is True]
            options = parse_options(self.rules.Options, list(self.RULINGS), variants=variants)
            deck = self.rules.load_components(request["components"]["argument"])
            self.state = self.rules.new_game(self.rules.setup(request["players"], options, deck))
            return {"ok": True}
        r, s = self.rules, self.state
        actor = r.to_move(s)
        if op == "to_move":
            return {"ok": True, "to_move": f"seat {actor}" if isinstance(actor, int) else repr(actor)}
        if op == "legal_moves":
            moves = [] if actor in (CHANCE, TERMINAL) else sorted(str(m) for m in r.legal_moves(s))
            return {"ok": True, "moves": moves}
        if op == "chance_outcomes":
            outs = r.chance_outcomes(s) if actor is CHANCE else ()
            return {"ok": True, "outcomes": sorted([str(m), str(p)] for m, p in outs)}
        if op == "apply":
            move = r.parse_move(request["move"], s.setup)
            if r.illegal_reason(s, move) is not None:
                return {"ok": False, "refused": "illegal"}
            self.state = r.apply(s, move)
            return {"ok": True}
        if op == "observation":
            return {"ok": True, "observation": view(r, s, request["seat"])}
        if op == "outcome":
            o = r.outcome(s) if actor is TERMINAL else None
            if o is None:
                return {"ok": True, "outcome": None}
            shown = {"winners": sorted(o.winners), "losers": sorted(o.losers), "draw": bool(o.draw)}
            return {"ok": True, "outcome": outcome_view(r, s, shown)}
        return {"ok": False, "error": f"unknown op {op}"}


class ServeNoneAllowed(Engine):
    RULINGS = ("jd.ruling.serve-none=allowed",)


class NoKitchen(Engine):
    """A defect no ruling explains: "Go Back To The Kitchen" is never offered."""

    def handle(self, request: dict[str, Any]) -> dict[str, Any] | None:
        reply = super().handle(request)
        if request["op"] == "legal_moves":
            reply["moves"] = [m for m in reply["moves"] if m != "kitchen"]
        if request["op"] == "apply" and request["move"] == "kitchen":
            return {"ok": False, "refused": "no kitchen in this reading"}
        return reply


class Crashes(Engine):
    """A reading that raises once the first turn starts."""

    def handle(self, request: dict[str, Any]) -> dict[str, Any] | None:
        if request["op"] == "legal_moves" and self.state is not None and self.rules.to_move(self.state) == 0:
            1 / 0
        return super().handle(request)
