"""Reference test vectors: games as ITF traces, and a verifier for anyone's game logs.

A vector is a JSON file in the ITF trace format (the one Apalache and Quint write): a
top-level ``#meta``, the list ``vars`` of state variable names, and ``states``, each an
object with one value per variable and its own ``#meta``.  Values use ITF's encodings:
``{"#tup": [...]}`` for tuples, ``{"#set": [...]}`` for sets, ``{"#map": [[k, v], ...]}``
for maps, ``{"#bigint": "123"}`` for integers beyond 2**53; JSON lists are sequences and
plain objects are records.  Our additions live in ``#meta`` (see docs/vectors.rst and
spec/itf-trace.schema.json):

* trace ``#meta``: ``format_version``, ``ruleset``, ``players``, ``options`` (ruling id ->
  alternative, optional rule -> on/off), ``components`` (name, content digest, how to load
  them), ``spec_digest``; how the trace was made (``generator``) and whether it was cut
  short (``capped``).
* state ``#meta``: ``index``, the ``move`` that led to the state (canonical text) and its
  ``actor``, its ``probability`` when chance moved (an exact fraction string such as
  ``"1/4"``), who moves next (``to_move``), the ``legal_moves`` there (or the
  ``chance_outcomes``), the ``outcome`` at the end, the ``clauses`` the step exercised, and
  a ``rule_gap`` where a ``strict`` ruling stops the game.

Everything here is generic: it drives any :class:`~tablerules.model.core.RuleSet`.
"""

from __future__ import annotations

import hashlib
import json
import keyword
import math
import os
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable

from tablerules.model import registry
from tablerules.model.core import (
    CHANCE, TERMINAL, IllegalMove, MoveSyntaxError, RuleGap, RuleSet, Setup, SetupError, actor_text, options_text,
    parse_options,
)

from . import coverage

FORMAT_VERSION = "tablerules-itf/1"
"""Bumped whenever a reader written for the old files would misread the new ones."""
ITF_DESCRIPTION = "https://apalache-mc.org/docs/adr/015adr-trace.html"
MAX_FILE_BYTES = 32 * 1024 * 1024
"""`vectors verify` refuses larger files: our own longest vectors are well under 1 MB."""
MAX_NESTING = 64
"""Deeper JSON than this is no game state; refused before it can exhaust the stack."""
SAFE_INT = 2**53 - 1
"""Integers beyond this are written as ``#bigint`` (JSON readers lose precision there)."""
NONE = {"tag": "Null", "value": "U_OF_UNIT"}
"""How an absent value (Python None) is written: ITF has no null, so a variant with no
payload (Apalache writes the unit value as ``"U_OF_UNIT"``), tagged ``Null`` rather than
Quint's ``None`` because ``None`` is a Python keyword that Python ITF readers cannot take as
a type name.  Reading, JSON null and ``{"tag": "None"}`` with a unit payload are accepted too."""
_UNITS = ("U_OF_UNIT", "u_OF_UNIT", None)
MAX_LISTED_OUTCOMES = 64
"""Chance states with more outcomes than this record only their count (a deal has thousands)."""
MAX_LISTED_MOVES = 256
"""Seat states with more legal moves than this record only their count (a full tray has thousands of dumps)."""


class VectorError(ValueError):
    """A file that cannot be read as a vector (exit status 2); the message is one line."""


# --------------------------------------------------------------------------- ITF values


def _is_record_key(key: Any) -> bool:
    """Keys that ITF readers can take as record fields (identifiers; not ITF's own '#...' or 'tag')."""
    return isinstance(key, str) and key.isidentifier() and not keyword.iskeyword(key) and not key.startswith("_")


def encode(value: Any) -> Any:
    """Our value as ITF JSON: dict -> record (identifier keys) or ``#map``; tuple -> ``#tup``;
    set -> ``#set`` (sorted); large int -> ``#bigint``; None -> ``NONE``."""
    if value is None:
        return NONE
    if isinstance(value, bool) or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value if -SAFE_INT <= value <= SAFE_INT else {"#bigint": str(value)}
    if isinstance(value, Fraction):
        return fraction_text(value)
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, tuple):
        return {"#tup": [encode(v) for v in value]}
    if isinstance(value, (set, frozenset)):
        return {"#set": sorted((encode(v) for v in value), key=_order_key)}
    if isinstance(value, dict):
        keys = list(value)
        if keys and all(_is_record_key(k) for k in keys) and set(keys) != {"tag", "value"}:
            return {k: encode(value[k]) for k in keys}
        pairs = [[encode(k), encode(v)] for k, v in value.items()]
        return {"#map": sorted(pairs, key=lambda kv: _order_key(kv[0]))}
    raise TypeError(f"cannot write {type(value).__name__} value {value!r} in a vector")


def _order_key(encoded: Any) -> str:
    """A total order on encoded values, independent of dict or set iteration order."""
    return json.dumps(encoded, sort_keys=True, separators=(",", ":"))


def decode(data: Any, where: str = "$") -> Any:
    """ITF JSON to our values: records and maps -> dict, ``#tup`` -> tuple, ``#set`` ->
    frozenset, ``#bigint`` -> int, Quint's ``None`` (or JSON null) -> None.  Lists stay lists.

    Raises VectorError naming the JSON path for anything ITF does not allow.
    """
    if data is None or isinstance(data, (bool, str)):
        return data
    if isinstance(data, int):
        return data
    if isinstance(data, float):
        if data.is_integer() and abs(data) <= SAFE_INT:
            return int(data)
        raise VectorError(f"{where}: {data!r} is not an integer (ITF has no fractions; use #bigint for big numbers)")
    if isinstance(data, list):
        return [decode(v, f"{where}[{i}]") for i, v in enumerate(data)]
    if not isinstance(data, dict):
        raise VectorError(f"{where}: unexpected {type(data).__name__}")
    if len(data) == 1:
        (tag, inner), = data.items()
        if tag == "#bigint":
            if not isinstance(inner, str) or not _is_integer_text(inner):
                raise VectorError(f"{where}: #bigint needs a string of decimal digits, found {_show_json(inner)}")
            return int(inner)
        if tag in ("#tup", "#set"):
            if not isinstance(inner, list):
                raise VectorError(f"{where}: {tag} needs a list, found {_show_json(inner)}")
            items = [decode(v, f"{where}.{tag}[{i}]") for i, v in enumerate(inner)]
            return tuple(items) if tag == "#tup" else frozenset(_freeze(v) for v in items)
        if tag == "#map":
            if not isinstance(inner, list) or not all(isinstance(p, list) and len(p) == 2 for p in inner):
                raise VectorError(f"{where}: #map needs a list of [key, value] pairs")
            return {_freeze(decode(k, f"{where}.#map[{i}][0]")): decode(v, f"{where}.#map[{i}][1]")
                    for i, (k, v) in enumerate(inner)}
        if tag == "#unserializable":
            raise VectorError(f"{where}: an #unserializable value cannot be compared")
    if set(data) == {"tag", "value"} and data["tag"] in ("Null", "None") and (
            data["value"] in _UNITS or data["value"] == {"#tup": []}):
        return None
    for k in data:
        if k.startswith("#"):
            raise VectorError(f"{where}: unknown ITF encoding {k!r}")
    return {k: decode(v, f"{where}{path_key(k)}") for k, v in data.items()}


def _is_integer_text(text: str) -> bool:
    body = text[1:] if text[:1] == "-" else text
    return body.isdigit() and body.isascii() and len(body) <= 4300


def _freeze(value: Any) -> Any:
    """A hashable stand-in for a decoded value (set members and map keys)."""
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted(((k, _freeze(v)) for k, v in value.items()), key=repr))
    return value


def normal(value: Any) -> Any:
    """A state value as it reads back from a file (so it compares equal to a decoded one)."""
    return decode(encode(value))


def fraction_text(p: Fraction) -> str:
    """`1/4`, or `1` for certainty: the exact form probabilities take in vectors."""
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def parse_probability(value: Any) -> Fraction | None:
    """A probability from a file: "p/q", an integer, or (tolerated) a float; None if unreadable."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(value) if math.isfinite(value) else None
    if isinstance(value, str) and len(value) <= 200:
        try:
            return Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            return None
    return None


# --------------------------------------------------------------------------- paths and differences


def path_key(key: Any) -> str:
    """`.hands` for a record field, `["0.soup"]` for any other key."""
    if isinstance(key, str) and key.isidentifier():
        return f".{key}"
    return f"[{json.dumps(key) if isinstance(key, str) else _show(key)}]"


def _kind(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    for t, name in ((str, "str"), (list, "list"), (tuple, "tuple"), (frozenset, "set"), (dict, "map")):
        if isinstance(value, t):
            return name
    return type(value).__name__


_CONTAINERS = ("list", "tuple", "map")


def first_difference(expected: Any, found: Any, path: str) -> tuple[str, Any, Any] | None:
    """The first place two decoded values differ: (path, expected part, found part), or None.

    Lists of plain values are reported whole (easier to read than one element); lists of
    containers are searched element by element.
    """
    ke, kf = _kind(expected), _kind(found)
    if ke != kf:
        return path, expected, found
    if ke == "map":
        for k in expected:
            if k not in found:
                return path + path_key(k), expected[k], MISSING
            d = first_difference(expected[k], found[k], path + path_key(k))
            if d:
                return d
        for k in found:
            if k not in expected:
                return path + path_key(k), MISSING, found[k]
        return None
    if ke in ("list", "tuple"):
        if len(expected) == len(found) and any(_kind(v) in _CONTAINERS for v in expected):
            for i, (e, f) in enumerate(zip(expected, found)):
                d = first_difference(e, f, f"{path}[{i}]")
                if d:
                    return d
            return None
        return None if expected == found else (path, expected, found)
    return None if expected == found else (path, expected, found)


class _Missing:
    def __repr__(self) -> str:
        return "(absent)"


MISSING = _Missing()


def _plain(value: Any) -> Any:
    if isinstance(value, (frozenset, set)):
        return sorted((_plain(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True, default=str))
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k) if not isinstance(k, str) else k: _plain(v) for k, v in value.items()}
    if isinstance(value, Fraction):
        return fraction_text(value)
    return value


def _show(value: Any, limit: int = 160) -> str:
    """A short one-line JSON-ish text of a value for messages."""
    if value is MISSING:
        return "(absent)"
    text = json.dumps(_plain(value), ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _show_json(value: Any) -> str:
    return _show(value, 60)


@dataclass(frozen=True)
class Finding:
    """The first place a trace breaks the rules (exit status 1)."""

    step: int
    path: str
    expected: Any
    found: Any
    clause: str
    move: str = ""
    what: str = ""

    def line(self, file: str = "") -> str:
        where = f"{file}: " if file else ""
        move = f" (move {self.move!r})" if self.move else ""
        what = f"{self.what}: " if self.what else ""
        return (f"{where}step {self.step}{move}: {what}{self.path}: expected {_show(self.expected)}, "
                f"found {_show(self.found)} [clause {self.clause or 'none'}]")


# --------------------------------------------------------------------------- writing traces


@dataclass
class Trace:
    """A trace being written: the setup and, per state, its vars and #meta."""

    rules: RuleSet
    setup: Setup
    components_argument: str | None
    states: list[dict[str, Any]] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)
    rule_gap: dict[str, str] | None = None
    capped: bool = False


def _state_meta(rules: RuleSet, state: Any, index: int) -> tuple[dict[str, Any], Any]:
    """The #meta of a state (who moves, the choices there, the outcome) and its actor.

    A RuleGap raised while listing the choices is recorded as ``rule_gap``; the game
    cannot go on past it.
    """
    meta: dict[str, Any] = {"index": index}
    actor = rules.to_move(state)
    meta["to_move"] = actor_text(actor)
    try:
        if actor is TERMINAL:
            meta["outcome"] = rules.outcome(state).to_json()
        elif actor is CHANCE:
            outs = rules.chance_outcomes(state)
            meta["chance_outcome_count"] = len(outs)
            if len(outs) <= MAX_LISTED_OUTCOMES:
                meta["chance_outcomes"] = [[str(m), fraction_text(p)] for m, p in outs]
        else:
            moves = rules.legal_moves(state)
            if len(moves) <= MAX_LISTED_MOVES:
                meta["legal_moves"] = [str(m) for m in moves]
            else:
                meta["legal_move_count"] = len(moves)
    except RuleGap as gap:
        meta["rule_gap"] = {"ruling": gap.ruling, "detail": gap.detail}
    return meta, actor


def components_meta(setup: Setup, argument: str | None) -> dict[str, Any] | None:
    comp = setup.components
    if comp is None:
        return None
    out: dict[str, Any] = {"name": getattr(comp, "name", str(comp))}
    digest = getattr(comp, "digest", None)
    if callable(digest):
        out["digest"] = digest()
    if argument:
        out["argument"] = argument
    return out


def spec_digest(ruleset_id: str) -> str | None:
    """sha256 of the rule set's spec file, or None when it has none yet."""
    from tablerules.spec.loader import spec_path

    try:
        return "sha256:" + hashlib.sha256(spec_path(ruleset_id).read_bytes()).hexdigest()
    except OSError:
        return None


def record_game(rules: RuleSet, setup: Setup, moves: Iterable[Any], *, components_argument: str | None = None,
                max_steps: int | None = None) -> Trace:
    """Play ``moves`` (values or texts) from the start and record every state.

    Stops early, recording a ``rule_gap``, where a strict ruling raises RuleGap (at the
    last state's choices, or when applying a move; the move is then named).  Raises
    IllegalMove / MoveSyntaxError for moves the rules do not allow.
    """
    trace = Trace(rules, setup, components_argument)
    try:
        state = rules.new_game(setup)
    except RuleGap as gap:
        trace.rule_gap = {"ruling": gap.ruling, "detail": gap.detail, "at": "new game"}
        return trace
    meta, actor = _state_meta(rules, state, 0)
    meta["clauses"] = coverage.start_clauses(rules, state)
    _add_state(trace, state, meta)
    steps = 0
    for move in moves:
        if "rule_gap" in meta:
            break
        if isinstance(move, str):
            move = rules.parse_move(move, setup)
        probability = None
        if actor is CHANCE:
            probability = dict(rules.chance_outcomes(state)).get(move)
            if probability is None:
                raise IllegalMove(rules.illegal_reason(state, move) or "core.chance", move, "not a chance outcome here")
        try:
            after = rules.apply(state, move)
        except RuleGap as gap:
            trace.rule_gap = {"ruling": gap.ruling, "detail": gap.detail, "move": str(move)}
            trace.states[-1]["#meta"]["rule_gap"] = trace.rule_gap
            return trace
        steps += 1
        new_meta, new_actor = _state_meta(rules, after, steps)
        step_meta = {"index": steps, "move": str(move), "actor": actor_text(actor)}
        if probability is not None:
            step_meta["probability"] = fraction_text(probability)
        step_meta.update({k: v for k, v in new_meta.items() if k != "index"})
        step_meta["clauses"] = coverage.transition_clauses(rules, state, move, after, actor)
        _add_state(trace, after, step_meta)
        state, actor, meta = after, new_actor, step_meta
        if max_steps is not None and steps >= max_steps:
            trace.capped = rules.to_move(state) is not TERMINAL
            break
    if "rule_gap" in meta:
        trace.rule_gap = meta["rule_gap"]
    return trace


def _add_state(trace: Trace, state: Any, meta: dict[str, Any]) -> None:
    values = trace.rules.state_vars(state)
    trace.states.append({"#meta": meta, **{k: encode(v) for k, v in values.items()}})
    for c in meta.get("clauses", ()):
        if c not in trace.clauses:
            trace.clauses.append(c)


def trace_document(trace: Trace, *, description: str = "", generator: dict[str, Any] | None = None,
                   note: str = "") -> dict[str, Any]:
    """The ITF JSON document of a recorded trace."""
    rules, setup = trace.rules, trace.setup
    names: list[str] = []
    for s in trace.states:
        for k in s:
            if k != "#meta" and k not in names:
                names.append(k)
    meta: dict[str, Any] = {
        "format": "ITF",
        "format-description": ITF_DESCRIPTION,
        "description": description or f"{rules.title}: a game with {setup.players} players",
        "source": "tablerules vectors generate",
        "format_version": FORMAT_VERSION,
        "ruleset": rules.id,
        "players": setup.players,
        "options": options_text(setup.options),
        "components": components_meta(setup, trace.components_argument),
        "spec_digest": spec_digest(rules.id),
        "generator": generator or {},
        "steps": max(0, len(trace.states) - 1),
        "capped": trace.capped,
        "clauses": sorted(trace.clauses),
    }
    if trace.rule_gap:
        meta["rule_gap"] = trace.rule_gap
    if note:
        meta["note"] = note
    return {"#meta": meta, "vars": names, "states": trace.states}


def dumps(document: dict[str, Any]) -> str:
    """Deterministic JSON with one state per line, so a change reads as a small diff."""
    head = {k: v for k, v in document.items() if k != "states"}
    lines = ["{"]
    for k, v in head.items():
        lines.append(f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False, sort_keys=True)},")
    lines.append('"states": [')
    states = document.get("states", [])
    for i, s in enumerate(states):
        comma = "," if i + 1 < len(states) else ""
        lines.append(json.dumps(s, ensure_ascii=False, separators=(",", ":")) + comma)
    lines.append("]")
    lines.append("}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- reading files


def load_document(path: str, max_bytes: int = MAX_FILE_BYTES) -> dict[str, Any]:
    """Read a vector file; VectorError (one line) if it is unreadable, too big or not JSON."""
    try:
        size = os.stat(path).st_size
    except OSError as e:
        raise VectorError(f"cannot read: {e.strerror or e}") from None
    if size > max_bytes:
        raise VectorError(f"file is {size:,} bytes, more than the limit of {max_bytes:,}")
    try:
        with open(path, "rb") as f:
            raw = f.read(max_bytes + 1)
    except OSError as e:
        raise VectorError(f"cannot read: {e.strerror or e}") from None
    if len(raw) > max_bytes:
        raise VectorError(f"file is more than the limit of {max_bytes:,} bytes")
    return parse_document(raw)


def parse_document(raw: bytes | str) -> dict[str, Any]:
    """JSON text to a document; VectorError for anything that is not a JSON object."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError as e:
        raise VectorError(f"not UTF-8 text (byte {e.start})") from None
    if _too_deep(text):
        raise VectorError(f"JSON nested more than {MAX_NESTING} levels deep")
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as e:
        raise VectorError(f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except (ValueError, RecursionError) as e:
        raise VectorError(f"not valid JSON: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
    if not isinstance(data, dict):
        raise VectorError(f"expected a JSON object (an ITF trace), found {_json_kind(data)}")
    return data


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _too_deep(text: str) -> bool:
    """Nesting depth beyond MAX_NESTING (ignoring brackets inside strings)."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_NESTING:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def _json_kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number")


# --------------------------------------------------------------------------- verifying


@dataclass
class Replay:
    """What verify needs from a document's #meta: the rules and the setup."""

    rules: RuleSet
    setup: Setup


def setup_from_meta(meta: Any, deck: str | None = None) -> Replay:
    """The RuleSet and Setup a trace's #meta describes; VectorError (one line) if it cannot be rebuilt."""
    if not isinstance(meta, dict):
        raise VectorError("$['#meta']: missing or not an object (it must name the ruleset and players)")
    version = meta.get("format_version", FORMAT_VERSION)
    if not isinstance(version, str) or not version.startswith("tablerules-itf/"):
        raise VectorError(f"$['#meta'].format_version: unknown format {_show_json(version)} (this reader takes {FORMAT_VERSION})")
    if version != FORMAT_VERSION:
        raise VectorError(f"$['#meta'].format_version: {version!r} is newer or older than {FORMAT_VERSION}")
    rid = meta.get("ruleset")
    if not isinstance(rid, str):
        raise VectorError("$['#meta'].ruleset: missing or not a string")
    try:
        rules = registry.get(rid)
    except SetupError as e:
        raise VectorError(f"$['#meta'].ruleset: {e}") from None
    except Exception as e:  # noqa: BLE001 - a rule set that does not import is not the file's fault, but we cannot read it
        raise VectorError(f"$['#meta'].ruleset: rule set {rid!r} is not available ({type(e).__name__}: {e})") from None
    players = meta.get("players")
    if isinstance(players, bool) or not isinstance(players, int):
        raise VectorError("$['#meta'].players: missing or not an integer")
    options = _options_from_meta(rules, meta.get("options", {}))
    components = _components_from_meta(rules, meta.get("components"), deck)
    try:
        setup = rules.setup(players, options, components)
    except SetupError as e:
        raise VectorError(f"$['#meta']: {e}") from None
    return Replay(rules, setup)


def _options_from_meta(rules: RuleSet, options: Any) -> Any:
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise VectorError("$['#meta'].options: not an object of ruling id -> alternative")
    pairs, variants = [], []
    for key, value in options.items():
        if isinstance(value, bool):
            if value:
                variants.append(key)
            continue
        if not isinstance(value, str):
            raise VectorError(f"$['#meta'].options[{json.dumps(key)}]: expected an alternative name, found {_show_json(value)}")
        pairs.append(f"{key}={value}")
    try:
        return parse_options(rules.Options, pairs, variants=variants)
    except SetupError as e:
        raise VectorError(f"$['#meta'].options: {str(e).replace('--ruling ', '').replace('--option ', '')}") from None


def _components_from_meta(rules: RuleSet, comp: Any, deck: str | None) -> Any:
    """Components named by the file (argument, else name), or given by --deck; digests must agree."""
    if comp is None and deck is None:
        return None
    if comp is not None and not isinstance(comp, dict):
        raise VectorError("$['#meta'].components: not an object (name, digest)")
    comp = comp or {}
    loader = rules.load_components
    candidates = [deck] if deck else [c for c in (comp.get("argument"), comp.get("name")) if isinstance(c, str)]
    loaded, problems = None, []
    for text in candidates:
        if loader is None:
            break
        if not deck and ("/" in text or "\\" in text or text.endswith(".json")):
            problems.append(f"{text!r} looks like a file: files are read only when given with --deck")
            continue
        try:
            loaded = loader(text)
            break
        except (SetupError, OSError, ValueError) as e:
            problems.append(str(e).splitlines()[0] if str(e) else type(e).__name__)
    if loaded is None:
        default = rules.default_components()
        if default is not None and comp.get("name") == getattr(default, "name", None):
            loaded = default
    if loaded is None:
        detail = f": {problems[0]}" if problems else ""
        raise VectorError(f"$['#meta'].components: cannot load {_show_json(comp.get('name'))}{detail} (give the file with --deck)")
    want = comp.get("digest")
    if isinstance(want, str) and callable(getattr(loaded, "digest", None)) and loaded.digest() != want:
        raise VectorError(f"$['#meta'].components.digest: the file's components {want!r} differ from "
                          f"{loaded.name!r} ({loaded.digest()!r}); give the right file with --deck")
    return loaded


def _meta_of(entry: dict[str, Any], i: int) -> dict[str, Any]:
    meta = entry.get("#meta", {})
    if not isinstance(meta, dict):
        raise VectorError(f"$.states[{i}]['#meta']: not an object")
    return meta


def verify_document(doc: dict[str, Any], deck: str | None = None) -> Finding | None:
    """Replay a trace against our rules: the first Finding, or None for a clean trace.

    Raises VectorError (exit status 2) for a document that cannot be read as a trace.
    """
    replay = setup_from_meta(doc.get("#meta"), deck)
    rules, setup = replay.rules, replay.setup
    states = doc.get("states")
    gap_claim = doc["#meta"].get("rule_gap")
    if isinstance(states, list) and not states and isinstance(gap_claim, dict):
        return _check_start_gap(rules, setup, gap_claim)
    if not isinstance(states, list) or not states:
        raise VectorError("$.states: missing, empty or not a list")
    declared = doc.get("vars")
    if declared is not None and not (isinstance(declared, list) and all(isinstance(v, str) for v in declared)):
        raise VectorError("$.vars: not a list of variable names")
    try:
        state = rules.new_game(setup)
    except RuleGap as gap:
        return Finding(0, "$.states[0]", "no game: " + gap.ruling, "a game", gap.ruling, what="rule gap at the start")
    clauses = coverage.start_clauses(rules, state)
    for i, entry in enumerate(states):
        if not isinstance(entry, dict):
            raise VectorError(f"$.states[{i}]: not an object")
        meta = _meta_of(entry, i)
        if i > 0:
            step = _step(rules, state, meta, i)
            if isinstance(step, Finding):
                return step
            state, clauses = step
        problem = _compare_state(rules, state, entry, meta, i, clauses)
        if problem:
            return problem
    return None


def _check_start_gap(rules: RuleSet, setup: Setup, claim: dict[str, Any]) -> Finding | None:
    """A trace with no states whose #meta says the setup itself is a rule gap."""
    try:
        rules.new_game(setup)
    except RuleGap as gap:
        if claim.get("ruling") == gap.ruling:
            return None
        return Finding(0, "$['#meta'].rule_gap.ruling", gap.ruling, claim.get("ruling", MISSING), gap.ruling,
                       what="a different rule gap at the start")
    return Finding(0, "$['#meta'].rule_gap", "a game (the rules say how to set it up)", claim, "",
                   what="no rule gap at the start")


def _step(rules: RuleSet, state: Any, meta: dict[str, Any], i: int) -> Any:
    """The state after the move recorded at states[i], or the Finding that forbids it."""
    text = meta.get("move")
    if not isinstance(text, str):
        raise VectorError(f"$.states[{i}]['#meta'].move: missing or not a string (every state after the first needs the move that led to it)")
    if len(text) > 1000:
        raise VectorError(f"$.states[{i}]['#meta'].move: longer than 1000 characters")
    mpath = f"$.states[{i}]['#meta'].move"
    try:
        move = rules.parse_move(text, state.setup)
    except MoveSyntaxError as e:
        raise VectorError(f"{mpath}: {str(e).splitlines()[0] if str(e) else 'not a move'}") from None
    try:
        actor = rules.to_move(state)
        if actor is TERMINAL:
            return Finding(i, mpath, "no move (the game is over)", text, rules.illegal_reason(state, move) or "", text,
                           "move after the end")
        claimed = meta.get("actor")
        if isinstance(claimed, str) and claimed != actor_text(actor):
            return Finding(i, f"$.states[{i}]['#meta'].actor", actor_text(actor), claimed,
                           rules.illegal_reason(state, move) or coverage.turn_clause(rules), text, "wrong actor")
        if actor is CHANCE:
            outs = dict(rules.chance_outcomes(state))
            if move not in outs:
                return Finding(i, mpath, "one of the chance outcomes here", text,
                               rules.illegal_reason(state, move) or "core.chance", text, "impossible chance outcome")
            if "probability" in meta:
                found = parse_probability(meta["probability"])
                want = outs[move]
                if found is None or not _same_probability(found, meta["probability"], want):
                    return Finding(i, f"$.states[{i}]['#meta'].probability", fraction_text(want), meta["probability"],
                                   coverage.chance_clause(rules, state, move), text, "wrong probability")
        else:
            reason = rules.illegal_reason(state, move)
            if reason is not None:
                return Finding(i, mpath, _legal_hint(rules, state), text, reason, text, "illegal move")
        after = rules.apply(state, move)
        return after, coverage.transition_clauses(rules, state, move, after, actor)
    except IllegalMove as e:
        return Finding(i, mpath, _legal_hint(rules, state), text, e.clause, text, "illegal move")
    except RuleGap as gap:
        return Finding(i, mpath, f"no move: the rules are silent here ({gap.detail or gap.ruling})", text, gap.ruling,
                       text, "rule gap")


def _legal_hint(rules: RuleSet, state: Any) -> str:
    """`a legal move (here: a, b, ...)`: what an illegal move should have been."""
    try:
        legal = [str(m) for m in rules.legal_moves(state)]
    except RuleGap:
        return "a legal move"
    shown = ", ".join(legal[:6]) + (f", ... ({len(legal)} in all)" if len(legal) > 6 else "")
    return f"a legal move (here: {shown})" if legal else "a legal move (there is none here)"


def _same_probability(found: Fraction, raw: Any, want: Fraction) -> bool:
    if isinstance(raw, float):
        return abs(float(want) - raw) <= 1e-9
    return found == want


def _compare_state(rules: RuleSet, state: Any, entry: dict[str, Any], meta: dict[str, Any], i: int,
                   clauses: list[str]) -> Finding | None:
    """Compare whatever the file records about states[i] with our state; a wrong state names
    the first clause the step into it exercises."""
    move = meta.get("move", "") if isinstance(meta.get("move"), str) else ""
    ours = {k: normal(v) for k, v in rules.state_vars(state).items()}
    for key in entry:
        if key == "#meta":
            continue
        if key not in ours:
            raise VectorError(f"$.states[{i}]{path_key(key)}: unknown state variable for {rules.id} "
                              f"(known: {', '.join(sorted(ours))})")
        found = decode(entry[key], f"$.states[{i}]{path_key(key)}")
        diff = first_difference(ours[key], found, f"$.states[{i}]{path_key(key)}")
        if diff:
            return Finding(i, diff[0], diff[1], diff[2], coverage.first_clause(clauses, rules), move, "wrong state")
    return _compare_meta(rules, state, meta, i, move)


def _compare_meta(rules: RuleSet, state: Any, meta: dict[str, Any], i: int, move: str) -> Finding | None:
    base = f"$.states[{i}]['#meta']"
    actor = rules.to_move(state)
    if "to_move" in meta and meta["to_move"] != actor_text(actor):
        return Finding(i, f"{base}.to_move", actor_text(actor), meta["to_move"], coverage.turn_clause(rules), move,
                       "wrong player to move")
    try:
        if "legal_moves" in meta:
            found = meta["legal_moves"]
            if not isinstance(found, list) or not all(isinstance(m, str) for m in found):
                raise VectorError(f"{base}.legal_moves: not a list of move texts")
            want = [str(m) for m in rules.legal_moves(state)] if isinstance(actor, int) else []
            diff = _list_difference(rules, state, want, found)
            if diff:
                return Finding(i, f"{base}.legal_moves", diff[0], diff[1], diff[2], move, "wrong legal moves")
        for key, count in (("legal_move_count", lambda: len(rules.legal_moves(state)) if isinstance(actor, int) else 0),
                           ("chance_outcome_count", lambda: len(rules.chance_outcomes(state)) if actor is CHANCE else 0)):
            if key in meta and meta[key] != count():
                clause = coverage.chance_clause(rules, state, None) if key.startswith("chance") else coverage.turn_clause(rules)
                return Finding(i, f"{base}.{key}", count(), meta[key], clause, move, f"wrong {key.replace('_', ' ')}")
        if "chance_outcomes" in meta:
            found = meta["chance_outcomes"]
            if not isinstance(found, list) or not all(isinstance(p, list) and len(p) == 2 and isinstance(p[0], str)
                                                      for p in found):
                raise VectorError(f"{base}.chance_outcomes: not a list of [move, probability] pairs")
            want = {str(m): p for m, p in rules.chance_outcomes(state)} if actor is CHANCE else {}
            got = {m: parse_probability(p) for m, p in found}
            for m, p in want.items():
                if got.get(m) != p:
                    return Finding(i, f"{base}.chance_outcomes", [m, fraction_text(p)],
                                   [m, found[[x[0] for x in found].index(m)][1]] if m in got else MISSING,
                                   coverage.chance_clause(rules, state, None), move, "wrong chance outcomes")
            for m in got:
                if m not in want:
                    return Finding(i, f"{base}.chance_outcomes", MISSING, m, coverage.chance_clause(rules, state, None),
                                   move, "impossible chance outcome listed")
        if "outcome" in meta:
            return _compare_outcome(rules, state, meta["outcome"], f"{base}.outcome", i, move)
    except RuleGap as gap:
        if isinstance(meta.get("rule_gap"), dict) and meta["rule_gap"].get("ruling") == gap.ruling:
            return None
        return Finding(i, f"{base}.rule_gap", {"ruling": gap.ruling}, meta.get("rule_gap", MISSING), gap.ruling, move,
                       "the rules are silent here")
    if "rule_gap" in meta:
        return _check_gap_claim(rules, state, meta["rule_gap"], f"{base}.rule_gap", i, move)
    return None


def _check_gap_claim(rules: RuleSet, state: Any, claim: Any, path: str, i: int, move: str) -> Finding | None:
    """A state the file says is a rule gap: at its choices, or when applying ``claim.move``."""
    if not isinstance(claim, dict) or not isinstance(claim.get("ruling"), str):
        raise VectorError(f"{path}: not an object with a 'ruling'")
    try:
        if isinstance(claim.get("move"), str):
            rules.apply(state, rules.parse_move(claim["move"], state.setup))
        else:
            actor = rules.to_move(state)
            if actor is CHANCE:
                rules.chance_outcomes(state)
            elif actor is TERMINAL:
                rules.outcome(state)
            else:
                rules.legal_moves(state)
    except RuleGap as gap:
        if gap.ruling == claim["ruling"]:
            return None
        return Finding(i, f"{path}.ruling", gap.ruling, claim["ruling"], gap.ruling, move, "a different rule gap")
    except MoveSyntaxError as e:
        raise VectorError(f"{path}.move: {str(e).splitlines()[0] if str(e) else 'not a move'}") from None
    except IllegalMove as e:
        return Finding(i, f"{path}.move", "a legal move", claim["move"], e.clause, move, "illegal move")
    return Finding(i, path, "no rule gap (the rules say what happens here)", claim, claim["ruling"], move,
                   "no rule gap here")


def _list_difference(rules: RuleSet, state: Any, want: list[str], found: list[str]) -> tuple[Any, Any, str] | None:
    """(expected, found, clause) for the first move one list has and the other lacks; order is free."""
    for m in found:
        if m not in want:
            try:
                reason = rules.illegal_reason(state, rules.parse_move(m, state.setup))
            except MoveSyntaxError:
                reason = None
            return MISSING, m, reason or coverage.turn_clause(rules)
    for m in want:
        if m not in found:
            return m, MISSING, coverage.move_clause(rules, state, m)
    if len(want) != len(found):
        return want, found, coverage.turn_clause(rules)
    return None


def _compare_outcome(rules: RuleSet, state: Any, found: Any, path: str, i: int, move: str) -> Finding | None:
    ours = rules.outcome(state)
    if ours is None:
        return Finding(i, path, "no outcome (the game goes on)", found, coverage.turn_clause(rules), move, "early end")
    if not isinstance(found, dict):
        raise VectorError(f"{path}: not an object (winners, losers, draw, scores)")
    want = ours.to_json()
    for key in ("winners", "losers", "draw", "scores"):
        if key not in found:
            continue
        f = found[key]
        w = want[key]
        if key in ("winners", "losers"):
            if not isinstance(f, list):
                raise VectorError(f"{path}.{key}: not a list of seats")
            same = sorted(map(repr, f)) == sorted(map(repr, w))
        else:
            same = normal(w) == decode(f, f"{path}.{key}") if key == "scores" else f == w
        if not same:
            return Finding(i, f"{path}.{key}", w, f, ours.clause, move, "wrong outcome")
    return None


def verify_file(path: str, deck: str | None = None, max_bytes: int = MAX_FILE_BYTES) -> tuple[int, str]:
    """(exit status, one line) for one file: 0 clean, 1 a rules violation, 2 unreadable."""
    try:
        doc = load_document(path, max_bytes)
        finding = verify_document(doc, deck)
    except VectorError as e:
        return 2, f"{path}: cannot read: {e}"
    except RecursionError:
        return 2, f"{path}: cannot read: nested too deeply"
    except Exception as e:  # noqa: BLE001 - a model that chokes on odd input must still give one line
        first = str(e).splitlines()[0] if str(e) else ""
        return 2, f"{path}: cannot check: the {type(e).__name__} {first!r} was raised replaying it (a bug to report)"
    if finding is not None:
        return 1, finding.line(path)
    steps = max(0, len(doc["states"]) - 1)
    return 0, f"{path}: ok ({steps} steps, {doc['#meta'].get('ruleset')}, {doc['#meta'].get('players')} players)"


__all__ = [
    "FORMAT_VERSION", "Finding", "Trace", "VectorError", "decode", "dumps", "encode", "first_difference",
    "fraction_text", "load_document", "parse_document", "record_game", "trace_document", "verify_document",
    "verify_file",
]
