"""A reference engine: the conformance protocol spoken over our own model.

Run as ``python -m tablerules.conform.reference_engine``: it reads requests from standard
input and answers each on standard output (:mod:`.protocol`).  ``tablerules conform RULESET
--engine "python -m tablerules.conform.reference_engine"`` finds it conformant.  With
``--mutant RULESET:ID`` (a mutant's short id ``mXXXXXXXX``, see ``tablerules mutants``) the
engine runs with that one change put in the model: a planted fault (:mod:`.planted`).  With
``--chance told`` it does not list chance outcomes and is told which one happens.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from tablerules.model import registry
from tablerules.model.core import (
    CHANCE, TERMINAL, IllegalMove, MoveSyntaxError, RuleGap, SetupError, actor_text, check_chance_move, parse_options,
)
from tablerules.vectors.itf import fraction_text

from .protocol import PROTOCOL, canonical


class Server:
    """One engine: the current game's rules and state."""

    def __init__(self, told: bool = False, name: str = "tablerules reference engine") -> None:
        self.told = told
        self.name = name
        self.rules: Any = None
        self.state: Any = None

    def answer(self, request: Any) -> dict[str, Any] | None:
        """The reply to one request (None for ``quit``)."""
        if not isinstance(request, dict) or not isinstance(request.get("op"), str):
            return {"ok": False, "error": "expected a JSON object with an \"op\""}
        op = request["op"]
        handler = getattr(self, "op_" + op, None)
        if op == "quit":
            return None
        if handler is None:
            return {"ok": False, "error": f"unknown op {op!r}"}
        if op not in ("hello", "new_game") and self.state is None:
            return {"ok": False, "error": "no game: send new_game first"}
        try:
            return {"ok": True, **handler(request)}
        except RuleGap as gap:
            return {"ok": True, "rule_gap": gap.ruling}
        except (SetupError, ValueError, KeyError, TypeError) as e:
            return {"ok": False, "error": f"{type(e).__name__}: {e}"}

    def op_hello(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"protocol": PROTOCOL, "engine": self.name}

    def op_new_game(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            rules = registry.get(request["ruleset"])
            options = _options(rules, request.get("options") or {})
            comp = request.get("components")
            components = rules.load_components(comp["argument"]) if comp and rules.load_components else None
            setup = rules.setup(int(request["players"]), options, components)
        except (SetupError, KeyError, TypeError, ValueError, OSError) as e:
            return {"unsupported_": str(e)}
        self.rules, self.state = rules, rules.new_game(setup)
        return {}

    def op_to_move(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"to_move": actor_text(self.rules.to_move(self.state))}

    def op_legal_moves(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"moves": [str(m) for m in self.rules.legal_moves(self.state)]}

    def op_chance_outcomes(self, request: dict[str, Any]) -> dict[str, Any]:
        if self.told:
            return {"told": True}
        return {"outcomes": [[str(m), fraction_text(p)] for m, p in self.rules.chance_outcomes(self.state)]}

    def op_apply(self, request: dict[str, Any]) -> dict[str, Any]:
        rules, state = self.rules, self.state
        try:
            move = rules.parse_move(str(request["move"]), state.setup)
            if rules.to_move(state) is CHANCE:
                check_chance_move(rules, state, move)
            self.state = rules.apply(state, move)
        except (IllegalMove, MoveSyntaxError) as e:
            return {"refused_": str(e)}
        return {}

    def op_observation(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"observation": canonical(self.rules.observation(self.state, int(request["seat"])))}

    def op_outcome(self, request: dict[str, Any]) -> dict[str, Any]:
        if self.rules.to_move(self.state) is not TERMINAL:
            return {"outcome": None}
        out = self.rules.outcome(self.state)
        return {"outcome": {"winners": sorted(out.winners), "losers": sorted(out.losers), "draw": out.draw,
                            "scores": canonical(list(out.scores))}}


def _options(rules: Any, options: dict[str, Any]) -> Any:
    """Options from the new_game request's ``options`` (ruling id -> alternative, rule -> true/false)."""
    pairs = [f"{k}={v}" for k, v in options.items() if not isinstance(v, bool)]
    variants = [k for k, v in options.items() if v is True]
    return parse_options(rules.Options, pairs, variants=variants)


def serve(server: Server, stdin: TextIO, stdout: TextIO) -> None:
    """Answer requests, one a line, until ``quit`` or the end of the input."""
    for line in stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError:
            reply: dict[str, Any] | None = {"ok": False, "error": "not JSON"}
        else:
            reply = server.answer(request)
        if reply is None:
            return
        reply = _unwrap(reply)
        stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        stdout.flush()


def _unwrap(reply: dict[str, Any]) -> dict[str, Any]:
    """A handler's ``unsupported_`` / ``refused_`` become ``"ok": false`` with that key."""
    for key in ("unsupported_", "refused_"):
        if key in reply:
            return {"ok": False, key[:-1]: reply[key]}
    return reply


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tablerules.conform.reference_engine",
                                description="Speak the conformance protocol over tablerules' own model.")
    p.add_argument("--mutant", metavar="RULESET:ID", help="plant a fault: put this mutant of the model in place")
    p.add_argument("--chance", choices=("listed", "told"), default="listed",
                   help="list chance outcomes with their probabilities (default), or be told which happens")
    args = p.parse_args(argv)
    name = "tablerules reference engine"
    if args.mutant:
        from .planted import plant

        try:
            name += f" with mutant {plant(args.mutant)}"
        except SetupError as e:
            print(f"reference_engine: error: {e}", file=sys.stderr)
            return 2
    serve(Server(told=args.chance == "told", name=name), sys.stdin, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
