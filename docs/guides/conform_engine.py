"""An example engine adapter for `tablerules conform`: the protocol over an engine's own API.

Replace the four ``engine_*`` functions with calls into your engine; here they call the
tablerules model itself, so this adapter conforms.  Run::

    tablerules conform dishes --engine "python docs/guides/conform_engine.py"
"""

import json
import sys
from fractions import Fraction

from tablerules.model import registry
from tablerules.model.core import CHANCE, TERMINAL, RuleGap, parse_options

game = {}  # the current game: its rules and state


def engine_new_game(request):
    rules = registry.get(request["ruleset"])
    options = request["options"]
    chosen = parse_options(rules.Options, [f"{k}={v}" for k, v in options.items() if not isinstance(v, bool)],
                           variants=[k for k, v in options.items() if v is True])
    deck = request["components"]
    components = rules.load_components(deck["argument"]) if deck else None
    game["rules"] = rules
    game["state"] = rules.new_game(rules.setup(request["players"], chosen, components))


def engine_to_move():
    actor = game["rules"].to_move(game["state"])
    return "CHANCE" if actor is CHANCE else "TERMINAL" if actor is TERMINAL else f"seat {actor}"


def engine_choices():
    rules, state = game["rules"], game["state"]
    if rules.to_move(state) is CHANCE:
        return [(str(m), p) for m, p in rules.chance_outcomes(state)]
    return [(str(m), None) for m in rules.legal_moves(state)]


def engine_apply(text):
    rules, state = game["rules"], game["state"]
    game["state"] = rules.apply(state, rules.parse_move(text, state.setup))


def answer(request):
    op = request["op"]
    rules, state = game.get("rules"), game.get("state")
    if op == "hello":
        return {"protocol": "tablerules-conform/1", "engine": "example adapter"}
    if op == "new_game":
        engine_new_game(request)
        return {}
    if op == "to_move":
        return {"to_move": engine_to_move()}
    if op == "legal_moves":
        return {"moves": [m for m, _ in engine_choices()]}
    if op == "chance_outcomes":
        return {"outcomes": [[m, str(Fraction(p))] for m, p in engine_choices()]}
    if op == "apply":
        engine_apply(request["move"])
        return {}
    if op == "observation":  # the observation as JSON, keys sorted as JSON reads them back
        return {"observation": json.loads(json.dumps(rules.observation(state, request["seat"]), default=str))}
    if op == "outcome":
        if rules.to_move(state) is not TERMINAL:
            return {"outcome": None}
        result = rules.outcome(state)
        return {"outcome": {"winners": sorted(result.winners), "losers": sorted(result.losers)}}
    return None


for line in sys.stdin:
    request = json.loads(line)
    if request["op"] == "quit":
        break
    try:
        reply = answer(request)
    except RuleGap as gap:  # a strict ruling: the rules are silent here
        reply = {"rule_gap": gap.ruling}
    out = {"ok": False, "error": f"unknown op {request['op']}"} if reply is None else {"ok": True, **reply}
    print(json.dumps(out), flush=True)
