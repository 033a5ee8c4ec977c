"""An engine for the conformance tests: the reference server asked in-process (the broken
engines, run as subprocesses, are in broken_engine.py)."""

from __future__ import annotations

from typing import Any

from tablerules.conform.client import Engine
from tablerules.conform.protocol import EngineRuleGap, Refused, Unsupported, fraction_of
from tablerules.conform.reference_engine import Server, _unwrap


class LocalEngine(Engine):
    """The reference server asked in-process (what a subprocess engine would answer), with an
    optional ``tamper(request, reply) -> reply`` that plants a fault in the replies."""

    name = "local reference"

    def __init__(self, tamper: Any = None) -> None:
        self.server = Server()
        self.tamper = tamper
        self.log: list[tuple[dict, dict]] = []

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        reply = _unwrap(self.server.answer(request))
        if self.tamper:
            reply = self.tamper(request, reply, self.server)
        self.log.append((request, reply))
        if reply.get("ok") is False:
            if "unsupported" in reply:
                raise Unsupported(reply["unsupported"])
            if "refused" in reply:
                raise Refused(reply["refused"])
        if "rule_gap" in reply:
            raise EngineRuleGap(reply["rule_gap"])
        return reply

    def new_game(self, rules_id, setup, components_argument, seed):
        from tablerules.conform.protocol import new_game_request

        self.ask(new_game_request(rules_id, setup, components_argument, seed))

    def to_move(self):
        return self.ask({"op": "to_move"})["to_move"]

    def legal_moves(self):
        return self.ask({"op": "legal_moves"})["moves"]

    def chance_outcomes(self):
        reply = self.ask({"op": "chance_outcomes"})
        if reply.get("told"):
            return None
        return [(m, fraction_of(p, "test")) for m, p in reply["outcomes"]]

    def apply(self, move):
        self.ask({"op": "apply", "move": move})

    def observation(self, seat):
        return self.ask({"op": "observation", "seat": seat})["observation"]

    def outcome(self):
        return self.ask({"op": "outcome"})["outcome"]
