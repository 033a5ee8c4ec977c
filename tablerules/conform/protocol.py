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

Replies are read strictly (``read_reply``, as :func:`tablerules.spec.files.parse_json` reads a
user's files, but fast enough for every reply and naming the JSON path of every flaw): UTF-8 JSON
with each key once in an object, no ``NaN`` or ``Infinity``, integers within the range every JSON
reader reads exactly (RFC 7493, I-JSON: at most 2**53 - 1 either way), probabilities in the
schema's ``fraction`` form (ASCII digits ``p/q``, nothing around them), ``to_move`` in the schema's
form; anything else is a protocol violation naming the JSON path (``$.outcomes[0][1]``).
"""

from __future__ import annotations

import json
import math
import re
import sys
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from typing import Any, Iterator

from tablerules.model.core import Setup, options_text
from tablerules.spec.files import json_path_key

OPENSPIEL_PREFIX = "openspiel:"
"""An engine named ``openspiel:GAME_STRING`` is an OpenSpiel game played in process (:mod:`.openspiel_engine`),
not a program that speaks this protocol."""

PROTOCOL = "tablerules-conform/1"
"""Bumped whenever an engine written for the old protocol would misread the new one."""
OPS = ("hello", "new_game", "to_move", "legal_moves", "chance_outcomes", "apply", "observation", "outcome", "quit")
MAX_LINE_BYTES = 64 * 1024 * 1024
"""A reply longer than this is refused as a protocol violation (a full tray's thousands of moves are far less)."""
MAX_EXACT_INTEGER = 2**53 - 1
"""The largest integer (either sign) a reply may hold: what every JSON reader reads exactly (RFC 7493)."""
SCHEMA_FILE = "conform-protocol.schema.json"
"""The protocol's JSON Schema, in spec/ (installed as tablerules/spec/)."""


class ProtocolError(Exception):
    """The engine broke the protocol (or crashed): exit status 2, one line."""


class EngineHang(Exception):
    """The engine did not answer within the reply limit: the run stops incomplete (exit status 3),
    never with a verdict."""


class ReplyLimit(Exception):
    """The engine has answered as many requests as the run allows (--max-replies): the run stops
    incomplete (exit status 3) unless it has already found a difference."""


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


@lru_cache(maxsize=None)
def protocol_schema() -> dict[str, Any]:
    """The protocol's JSON Schema (spec/conform-protocol.schema.json)."""
    return json.loads(resources.files("tablerules.spec").joinpath(SCHEMA_FILE).read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _fraction_form() -> re.Pattern[str]:
    """The schema's ``fraction`` pattern, matched against the whole string (ASCII digits only:
    ``[0-9]`` is no wider in Python than in JSON Schema's ECMA-262 regular expressions)."""
    return re.compile(protocol_schema()["$defs"]["fraction"]["pattern"])


@lru_cache(maxsize=None)
def actor_form() -> re.Pattern[str]:
    """The schema's pattern of a ``to_move`` reply (``seat N``, ``CHANCE``, ``TERMINAL``)."""
    return re.compile(protocol_schema()["$defs"]["reply"]["properties"]["to_move"]["pattern"])


def unnamable_card(components: Any, where: str) -> str | None:
    """One line naming the first card of a deck whose id no move text can carry, or None: a move names
    a card by its id, one word (``turn up GUEST``), and joins the desserts of a serving with ``+``
    (``serve GUEST with A+B``), so a dessert id holding ``+`` or a space, or a guest id holding a space,
    would be read back as other cards (``where``: the deck argument, for the message)."""
    for kind, cards, forbidden in (("dessert", getattr(components, "desserts", ()), "+"),
                                   ("guest", getattr(components, "guests", ()), "")):
        for card in cards:
            cid = str(getattr(card, "id", ""))
            bad = next((ch for ch in cid if ch in forbidden or ch.isspace()), None)
            if bad is not None:
                joins = "joins the desserts of a serving" if bad == "+" else "separates the words of a move"
                return (f"{where}: {kind} {cid!r}: its id holds {bad!r}, which {joins} (serve GUEST with A+B), so "
                        "no move text can name it; rename the card")
    return None


def fraction_of(text: Any, where: str) -> Fraction:
    """An exact probability from ``"p/q"`` (or a whole number), in the form the protocol's schema gives
    its ``fraction`` (``^[0-9]{1,100}(/[0-9]{1,100})?$``: ASCII digits, no sign, space, underscore
    or point) and from 0 to 1; ProtocolError naming ``where`` otherwise."""
    if isinstance(text, str) and _fraction_form().fullmatch(text):
        top, _, bottom = text.partition("/")
        p, q = int(top), int(bottom or "1")
        if q and p <= q:
            return Fraction(p, q)
    raise ProtocolError(f"{where}: expected an exact probability from 0 to 1 written in ASCII digits as "
                        f"\"p/q\" (such as \"1/4\", or \"0\" or \"1\"), not {show(text)}")


# --------------------------------------------------------------------------- reading a reply strictly


class _Flaw:
    """What a strict reading found at one place of a reply (the path is worked out afterwards)."""

    def __init__(self, what: str) -> None:
        self.what = what


class _Twice(dict):
    """A JSON object that holds one of its keys twice (``key``)."""

    key: str = ""


def read_reply(line: bytes, op: str) -> Any:
    """One reply line as JSON, read strictly (see the module docstring); ProtocolError naming the
    request and, for a flaw inside the reply, its JSON path (``$.outcomes[0][1]``)."""
    flawed: list[bool] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(items)
        if len(out) == len(items):
            return out
        twice, seen = _Twice(out), set()
        for key, _ in items:
            if key in seen:
                twice.key = key
                break
            seen.add(key)
        flawed.append(True)
        return twice

    def integer(text: str) -> Any:
        digits = len(text.lstrip("-"))
        if digits > 16 or abs(int(text)) > MAX_EXACT_INTEGER:
            flawed.append(True)
            return _Flaw(f"the integer {text[:12]}{'...' if len(text) > 12 else ''} ({digits:,} digits) is beyond "
                         f"{MAX_EXACT_INTEGER:,}, the most every JSON reader reads exactly (RFC 7493)")
        return int(text)

    def real(text: str) -> Any:
        value = float(text)
        if not math.isfinite(value):
            flawed.append(True)
            return _Flaw(f"the number {text[:24]} is too large for any JSON reader")
        return value

    def constant(text: str) -> Any:
        flawed.append(True)
        return _Flaw(f"{text} is not JSON")

    try:
        value = json.loads(line.decode("utf-8"), object_pairs_hook=pairs, parse_int=integer, parse_float=real,
                           parse_constant=constant)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ProtocolError(f"reply to {op}: not JSON: {show(line.decode('utf-8', 'replace'))}") from None
    except RecursionError:
        raise ProtocolError(f"reply to {op}: nested too deeply to read (more than about "
                            f"{sys.getrecursionlimit():,} levels)") from None
    if flawed:
        path, what = next(_flaws(value, []))
        raise ProtocolError(f"reply to {op}: {json_path(path)}: {what}")
    return value


def _flaws(value: Any, path: list[str | int]) -> Iterator[tuple[list[str | int], str]]:
    """(path, what) of every flaw in a reply read by :func:`read_reply`, in document order."""
    if isinstance(value, _Flaw):
        yield path, value.what
    elif isinstance(value, dict):
        if isinstance(value, _Twice):
            yield path + [value.key], "this key appears twice in one object (a JSON reader keeps either)"
        for k, v in value.items():
            yield from _flaws(v, path + [k])
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _flaws(v, path + [i])


def json_path(parts: list[str | int]) -> str:
    """`$.outcomes[0][1]`, `$.observation.places["0.soup"]`: where a value lies in a JSON document
    (keys written as the project's file reader names them, :func:`tablerules.spec.files.json_path_key`)."""
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else json_path_key(p) for p in parts)


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
