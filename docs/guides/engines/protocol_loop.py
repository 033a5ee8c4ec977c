"""The conformance protocol's loop (tablerules-conform/1), for any engine: copy it beside yours.

It reads one JSON request a line on standard input and writes one JSON reply a line on
standard output (docs/guides/conform.rst).  All it needs from your engine is an object with
these methods (the rule set's formats: docs/guides/conform-formats.rst):

* ``new_game(request)``: start a game from the request's ``ruleset``, ``players``, ``options``
  and ``components``; return None, or a reason (a string) to decline that setup;
* ``to_move()``: ``"seat N"``, ``"CHANCE"`` or ``"TERMINAL"``;
* ``choices()``: the current choices as ``(move text, probability)`` pairs: a seat's legal
  moves (probability None) or the chance outcomes (an exact ``Fraction`` each);
* ``apply(text)``: play the move (or chance outcome) of that text; return None, or a reason to
  refuse it;
* ``observation(seat)``: what that seat sees, a JSON object;
* ``outcome()``: None while the game goes on, else ``{"winners": [...], "losers": [...]}`` (and,
  if you like, ``"draw"`` and ``"scores"``).

Standard library only.
"""

import json
import sys

PROTOCOL = "tablerules-conform/1"


def answer(engine, name, request):
    """The reply to one request (None for ``quit``)."""
    op = request.get("op")
    if op == "hello":
        return {"ok": True, "protocol": PROTOCOL, "engine": name}
    if op == "quit":
        return None
    if op == "new_game":
        declined = engine.new_game(request)
        return {"ok": False, "unsupported": declined} if declined else {"ok": True}
    if op == "to_move":
        return {"ok": True, "to_move": engine.to_move()}
    if op == "legal_moves":
        return {"ok": True, "moves": [text for text, _ in engine.choices()]}
    if op == "chance_outcomes":  # exact fractions, written "p/q" in ASCII digits ("1" for a sure outcome)
        return {"ok": True, "outcomes": [[text, str(p)] for text, p in engine.choices()]}
    if op == "apply":
        refused = engine.apply(request["move"])
        return {"ok": False, "refused": refused} if refused else {"ok": True}
    if op == "observation":
        return {"ok": True, "observation": engine.observation(request["seat"])}
    if op == "outcome":
        return {"ok": True, "outcome": engine.outcome()}
    return {"ok": False, "error": f"unknown op {op!r}"}


def serve(engine, name, stdin=sys.stdin, stdout=sys.stdout):
    """Answer requests until ``quit`` or the end of the input."""
    for line in stdin:
        if not line.strip():
            continue
        reply = answer(engine, name, json.loads(line))
        if reply is None:
            return
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()
