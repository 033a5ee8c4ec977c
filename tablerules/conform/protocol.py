"""The conformance protocol: JSON lines over an engine's standard input and output.

Version ``tablerules-conform/1``.  The driver writes one request a line (a JSON object with
``"op"``), the engine answers each with one reply a line (a JSON object with ``"ok"``).
Moves are written in our canonical move text (``str(move)``, what vectors and
``tablerules judge`` use); probabilities are exact fractions as strings (``"1/4"``).

Requests (``op`` and its keys) and what a reply holds besides ``"ok": true``:

* ``hello`` (``protocol``): ``protocol``, the same version; ``engine``, its name for reports.
* ``new_game`` (``ruleset``, ``players``, ``options``: ruling id -> alternative and optional
  rule -> true / false; ``components``: ``name`` and ``argument``, what ``--deck`` takes, or
  null; ``seed``): nothing; or ``"ok": false, "unsupported": WHY`` for a setup the engine does
  not offer (the game is skipped and counted).
* ``to_move``: ``to_move``, one of ``"seat N"``, ``"CHANCE"``, ``"TERMINAL"``.
* ``legal_moves``: ``moves``, the list of move texts.
* ``chance_outcomes``: ``outcomes``, ``[[move, "p/q"], ...]``; or ``"told": true``: the engine
  does not list them and is told which outcome happens (by ``apply``).
* ``apply`` (``move``): nothing; or ``"ok": false, "refused": WHY`` (the engine refuses it).
* ``observation`` (``seat``): ``observation``, what that seat sees, as our model's
  observation in JSON.
* ``outcome``: ``outcome``, null while the game goes on, else ``winners`` and ``losers``
  (lists of seats), optionally ``draw`` and ``scores``.
* ``quit``: no reply; the engine exits.

Where a ``strict`` ruling leaves the rules silent (our model raises ``RuleGap``), a reply to
``to_move``, ``legal_moves``, ``chance_outcomes``, ``apply`` or ``outcome`` may instead be
``{"ok": true, "rule_gap": RULING_ID}``.  Any other reply (not JSON, not one object, a key
missing or of the wrong type, ``"ok": false`` without ``unsupported`` / ``refused``) is a
protocol violation: the run stops with exit status 2 and one line naming the request and
the key.  ``spec/conform-protocol.schema.json`` is the JSON Schema of both directions.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from tablerules.model.core import Setup, options_text

PROTOCOL = "tablerules-conform/1"
"""Bumped whenever an engine written for the old protocol would misread the new one."""
OPS = ("hello", "new_game", "to_move", "legal_moves", "chance_outcomes", "apply", "observation", "outcome", "quit")
MAX_LINE_BYTES = 64 * 1024 * 1024
"""A reply longer than this is refused as a protocol violation (a full tray's thousands of moves are far less)."""


class ProtocolError(Exception):
    """The engine broke the protocol (or crashed): exit status 2, one line."""


class EngineHang(Exception):
    """The engine did not answer within the reply limit: the run stops incomplete (exit status 3),
    never with a verdict."""


class Unsupported(Exception):
    """The engine declines a setup (``"unsupported"``): that game is skipped and counted."""


class Refused(Exception):
    """The engine refuses a move (``"refused"``)."""


class EngineRuleGap(Exception):
    """The engine says a strict ruling leaves the rules silent here (``"rule_gap"``)."""

    def __init__(self, ruling: str) -> None:
        super().__init__(ruling)
        self.ruling = ruling


def new_game_request(rules_id: str, setup: Setup, components_argument: str | None, seed: int) -> dict[str, Any]:
    """The ``new_game`` request for a setup of ours."""
    comp = setup.components
    components = None
    if comp is not None:
        name = getattr(comp, "name", str(comp))
        components = {"name": name, "argument": components_argument or name}
    return {"op": "new_game", "ruleset": rules_id, "players": setup.players, "options": options_text(setup.options),
            "components": components, "seed": seed}


def fraction_of(text: Any, where: str) -> Fraction:
    """An exact probability from ``"p/q"`` (or a whole number); ProtocolError otherwise."""
    if isinstance(text, str):
        try:
            value = Fraction(text.strip())
        except (ValueError, ZeroDivisionError):
            value = None
        if value is not None and "." not in text and "e" not in text.lower() and 0 <= value <= 1:
            return value
    raise ProtocolError(f"{where}: expected an exact probability from 0 to 1 as a string such as \"1/4\", "
                        f"not {show(text)}")


def show(value: Any, limit: int = 60) -> str:
    """A short JSON text of a value, for one-line messages."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def canonical(value: Any) -> Any:
    """A JSON value as JSON reads it back (tuples as lists, keys as strings, other values as text):
    how our observations are compared with an engine's."""
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def require(reply: dict[str, Any], key: str, kind: type | tuple[type, ...], op: str) -> Any:
    """``reply[key]`` of the JSON type ``kind``; ProtocolError naming the request and key otherwise."""
    if key not in reply:
        raise ProtocolError(f"reply to {op}: the key {key!r} is missing (reply: {show(reply)})")
    value = reply[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _tuple(kind)):
        raise ProtocolError(f"reply to {op}: {key!r} is {show(value)}, expected {_kind_name(kind)}")
    return value


def _tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {str: "a string", list: "a list", dict: "an object", int: "a whole number", bool: "true or false",
             type(None): "null"}
    return " or ".join(names.get(k, k.__name__) for k in _tuple(kind))
