"""The ITF trace format: values, files and the limits on what is read.

An ITF trace (the format Apalache and Quint write, see ITF_DESCRIPTION) is a JSON object
with a ``#meta`` object, the list ``vars`` of state variable names, and ``states``, each an
object with one value per variable and its own ``#meta``.  Values use ITF's encodings:
``{"#tup": [...]}`` for tuples, ``{"#set": [...]}`` for sets, ``{"#map": [[k, v], ...]}``
for maps, ``{"#bigint": "123"}`` for integers beyond 2**53; JSON lists are sequences and
plain objects are records.  This module turns our values into ITF and back, writes trace
documents one state per line, and reads files with every limit checked (size, nesting,
duplicate keys, number syntax), raising :class:`VectorError` with one line for anything it
cannot read.  What our additions in ``#meta`` mean and how a trace is checked is
:mod:`tablerules.vectors.verifier`; how one is recorded is :mod:`tablerules.vectors.recording`.
"""

from __future__ import annotations

import json
import keyword
import math
import re
import sys
from fractions import Fraction
from typing import Any

from tablerules.spec.files import MAX_DIGITS, UnreadableFile, json_path_key, parse_json, read_regular_file

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
STDIN = "-"
"""The file name that means standard input."""


class VectorError(ValueError):
    """A file that cannot be read as a trace (exit status 2); the message is one line."""


# --------------------------------------------------------------------------- values

# itf-py is not the codec: 2-3x slower to our values, and no canonical encoder (benchmarks/itf_codec.py)


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
                raise VectorError(f"{where}: #bigint needs a string of at most {MAX_DIGITS} decimal digits, "
                                  f"found {show(inner, 60)}")
            return int(inner)
        if tag in ("#tup", "#set"):
            if not isinstance(inner, list):
                raise VectorError(f"{where}: {tag} needs a list, found {show(inner, 60)}")
            items = [decode(v, f"{where}.{tag}[{i}]") for i, v in enumerate(inner)]
            return tuple(items) if tag == "#tup" else frozenset(_freeze(v) for v in items)
        if tag == "#map":
            if not isinstance(inner, list) or not all(isinstance(p, list) and len(p) == 2 for p in inner):
                raise VectorError(f"{where}: #map needs a list of [key, value] pairs")
            out: dict[Any, Any] = {}
            for i, (k, v) in enumerate(inner):
                key = _freeze(decode(k, f"{where}.#map[{i}][0]"))
                if key in out:
                    raise VectorError(f"{where}.#map[{i}][0]: {twice_listed(key)}")
                out[key] = decode(v, f"{where}.#map[{i}][1]")
            return out
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
    return body.isdigit() and body.isascii() and len(body) <= MAX_DIGITS


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


PROBABILITY_TEXT = re.compile(r"[0-9]+(/[0-9]+)?")
"""A probability written as text: ASCII digits, one optional slash (spec/itf-trace.schema.json)."""


def parse_probability(value: Any) -> Fraction | None:
    """A probability from a file: text ``"p/q"`` or ``"n"`` in ASCII digits (nothing else:
    no sign, space, underscore, decimal point or other script's digits), a JSON integer, or
    (tolerated) a finite JSON number; None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(value) if math.isfinite(value) else None
    if isinstance(value, str) and len(value) <= 200 and PROBABILITY_TEXT.fullmatch(value):
        numerator, _, denominator = value.partition("/")
        below = int(denominator) if denominator else 1
        return Fraction(int(numerator), below) if below else None
    return None


def twice_listed(key: Any) -> str:
    """The message for a map key given twice."""
    return f"key {show(key, 60)} is listed twice (readers would keep only one of its values)"


# --------------------------------------------------------------------------- paths and text


def path_key(key: Any) -> str:
    """`.hands` for a record field, `["0.soup"]` for any other key."""
    return json_path_key(key) if isinstance(key, str) else f"[{show(key)}]"


class _Missing:
    def __repr__(self) -> str:
        return "(absent)"


MISSING = _Missing()
"""Stands for a value a file or our state does not have."""


def plain(value: Any) -> Any:
    """A decoded value as plain JSON (sets as sorted lists, fractions as text)."""
    if isinstance(value, (frozenset, set)):
        return sorted((plain(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True, default=str))
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k) if not isinstance(k, str) else k: plain(v) for k, v in value.items()}
    if isinstance(value, Fraction):
        return fraction_text(value)
    return value


def show(value: Any, limit: int = 160) -> str:
    """A short one-line JSON-ish text of a value for messages."""
    if value is MISSING:
        return "(absent)"
    text = json.dumps(plain(value), ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def json_kind(value: Any) -> str:
    """`an object`, `a list`, ...: what a JSON value is, for messages."""
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null",
            int: "an integer", float: "a number"}.get(type(value), type(value).__name__)


# --------------------------------------------------------------------------- writing


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


# --------------------------------------------------------------------------- reading


def load_document(path: str, max_bytes: int = MAX_FILE_BYTES) -> dict[str, Any]:
    """Read a trace file (``-``: standard input); VectorError (one line) if it is unreadable,
    not a regular file, too big or not a JSON object."""
    if path != STDIN:
        try:
            return parse_document(read_regular_file(path, max_bytes, " (--max-bytes)"))
        except UnreadableFile as e:
            raise VectorError(str(e)) from None
    if sys.stdin is None:
        raise VectorError("standard input is closed")
    try:
        raw = sys.stdin.buffer.read(max_bytes + 1)
    except OSError as e:
        raise VectorError(e.strerror or type(e).__name__) from None
    if len(raw) > max_bytes:
        raise VectorError(f"more than the limit of {max_bytes:,} bytes (--max-bytes)")
    return parse_document(raw)


def parse_document(raw: bytes | str) -> dict[str, Any]:
    """JSON text to a document; VectorError for anything that is not one JSON object with
    unique keys, plain numbers and at most MAX_NESTING levels (see :func:`parse_json`)."""
    try:
        data = parse_json(raw, MAX_NESTING)
    except UnreadableFile as e:
        raise VectorError(str(e)) from None
    if not isinstance(data, dict):
        raise VectorError(f"expected a JSON object (an ITF trace), found {json_kind(data)}")
    return data
