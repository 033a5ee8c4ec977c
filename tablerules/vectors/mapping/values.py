"""Reading a foreign trace's values: ITF as plain Python, what a value is in words, and the
walk down nested lists, maps and records that a mapping's ``levels`` describe."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterator

from ..itf import VectorError, decode, plain, show, twice_listed

GUIDE = "docs/guides/quint.rst, 'Mapping files'"
"""Where a user who has a trace we cannot read is sent."""


class MappingError(VectorError):
    """A mapping file that cannot be used, or a trace it cannot translate (exit status 2)."""


@dataclass(frozen=True)
class Variant:
    """A value of a sum type (``{"tag": ..., "value": ...}``); ``value`` is ``()`` for a tag alone."""

    tag: str
    value: Any

    def __str__(self) -> str:
        return self.tag if self.value == () else f"{self.tag}({self.value})"


def read_value(data: Any, where: str = "$") -> Any:
    """An ITF value as plain Python: records -> dict; ``#map`` -> :class:`MapPairs`, the (key,
    value) pairs (keys may be records); ``#set`` -> list; ``#tup`` -> tuple; ``#bigint`` ->
    int; a variant -> :class:`Variant`.  Names are not applied here: a template applies them
    where it uses a value (:mod:`.templates`).  Errors name the JSON path ``where``."""
    return _read(data, where)


def _read(data: Any, where: str) -> Any:
    if isinstance(data, list):
        return [_read(v, f"{where}[{i}]") for i, v in enumerate(data)]
    if not isinstance(data, dict):
        return decode(data, where)  # numbers, strings, booleans: with decode's checks
    if len(data) == 1:
        (tag, inner), = data.items()
        if tag == "#map":
            return _read_map(inner, where)
        if tag in ("#set", "#tup"):
            if not isinstance(inner, list):
                raise VectorError(f"{where}: {tag} needs a list")
            items = [_read(v, f"{where}.{tag}[{i}]") for i, v in enumerate(inner)]
            return items if tag == "#set" else tuple(items)
        if tag.startswith("#"):
            return decode(data, where)  # #bigint, or decode's one-line refusal
    if set(data) == {"tag", "value"} and isinstance(data["tag"], str):
        payload = _read(data["value"], f"{where}.value")
        return Variant(data["tag"], () if payload == "U_OF_UNIT" else payload)
    return {k: _read(v, f"{where}.{k}") for k, v in data.items()}


class MapPairs(list):
    """The (key, value) pairs read from ``#map`` (a list of its own kind, so a walk can tell a
    map from a list of pairs)."""


def _read_map(inner: Any, where: str) -> MapPairs:
    if not isinstance(inner, list) or not all(isinstance(p, list) and len(p) == 2 for p in inner):
        raise VectorError(f"{where}: #map needs a list of [key, value] pairs")
    pairs, seen = MapPairs(), set()
    for i, (k, v) in enumerate(inner):
        key = _read(k, f"{where}.#map[{i}][0]")
        text = json.dumps(plain(key), sort_keys=True, default=repr)
        if text in seen:
            raise VectorError(f"{where}.#map[{i}][0]: {twice_listed(key)}")
        seen.add(text)
        pairs.append((key, _read(v, f"{where}.#map[{i}][1]")))
    return pairs


def is_map(value: Any) -> bool:
    """A value read from ``#map``."""
    return isinstance(value, MapPairs)


def describe(value: Any) -> str:
    """What the trace holds, in words: `a list of 2 lists`, `the string 'c0'`, `a record
    with fields colour, dirty, kind` (for messages that say what a mapping key met)."""
    if isinstance(value, Variant):
        return f"the variant {value.tag}" + ("" if value.value == () else " with a value")
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"the integer {value}"
    if isinstance(value, str):
        return f"the string {show(value, 40)}"
    if isinstance(value, dict):
        return f"a record with fields {', '.join(sorted(value))}"
    if isinstance(value, tuple):
        return f"a tuple of {len(value)}"
    if is_map(value):
        return f"a map of {len(value)} entries" + (f", keys like {_short(value[0][0])}" if value else "")
    if isinstance(value, list):
        if not value:
            return "an empty list (or set)"
        kinds = {_noun(v) for v in value}
        return f"a list of {len(value)} {kinds.pop() if len(kinds) == 1 else 'values'}"
    return show(value, 40)


def _noun(value: Any) -> str:
    if isinstance(value, dict):
        return "records"
    if isinstance(value, bool):
        return "booleans"
    if isinstance(value, int):
        return "integers"
    if isinstance(value, str):
        return "strings"
    if isinstance(value, Variant):
        return "variants"
    if isinstance(value, tuple):
        return "tuples"
    return "lists"


def _short(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(sorted(value)) + "}"
    if isinstance(value, Variant):
        return value.tag
    return show(value, 30)


def walk(value: Any, levels: tuple[str, ...], where: str, key_name: str) -> Iterator[tuple[dict[str, Any], Any, Any]]:
    """Go down ``levels`` levels of nested lists, maps and records: yield (bindings, innermost
    key, value found there) for every path.  At each level a list binds the level's name to
    the index, a map to the key (and a record key's fields to themselves), a record to the
    field's name.  ``key_name`` names the mapping key for messages (``[state.places].levels``)."""
    if not levels:
        yield {}, None, value
        return
    name, rest = levels[0], levels[1:]
    if is_map(value):
        entries = [(k, v, f"{where}.#map[{i}][1]") for i, (k, v) in enumerate(value)]
    elif isinstance(value, (list, tuple)):
        entries = [(i, v, f"{where}[{i}]") for i, v in enumerate(value)]
    elif isinstance(value, dict):
        entries = [(k, v, f"{where}.{k}") for k, v in value.items()]
    else:
        raise MappingError(f"{where}: {key_name} reads level {name!r} here as a list, map or record, but the trace "
                           f"holds {describe(value)} (give fewer levels; see {GUIDE})")
    for key, inner, path in entries:
        own = {name: key, **(key if isinstance(key, dict) else {})}
        for bound, last, leaf in walk(inner, rest, path, key_name):
            yield {**own, **bound}, (key if not rest else last), leaf
