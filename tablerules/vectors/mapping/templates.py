"""Templates: how a mapping writes our text (a place, a tile, a move) from a trace's values.

A template is text with fields in braces: ``{slot}``, ``{from[owner]}``, ``{onto[1]}`` (a
name, then ``[key]`` parts, each a name or an index), and optionally ``:table`` after the
field to rename its value through ``[names.table]`` (``{colour:colour}`` turns ``"c0"`` into
``red``).  A value a table does not name is a mapping problem (exit status 2) naming the
table and the value, never a text our rules then refuse as a broken rule.
"""

from __future__ import annotations

import re
import string
from typing import Any

from .values import GUIDE, MappingError, Variant, describe

_FIELD = re.compile(r"[A-Za-z_]\w*(\[([A-Za-z_][A-Za-z0-9_]{0,63}|[0-9]{1,9})\])*")
"""A template field: a name, then ``[key]`` parts, each a name or an index of at most nine
ASCII digits."""
_TABLE = re.compile(r"[A-Za-z_][\w-]{0,63}")
"""A ``[names]`` table named after a field's colon."""
_PART = re.compile(r"\[([^\]]*)\]")


def _template_parts(text: Any, where: str, not_text: str) -> list[tuple]:
    """A template's parts as string.Formatter reads them (MappingError naming ``where`` if it cannot)."""
    if not isinstance(text, str):
        raise MappingError(f"{where}: {not_text}")
    try:
        return list(string.Formatter().parse(text))
    except ValueError as e:
        raise MappingError(f"{where}: bad template {text!r}: {e}") from None


def check_template(text: Any, where: str) -> str:
    """A template like ``place {turn}.{from:slot} on ...``: fields are names with optional
    ``[key]`` parts and an optional ``:table`` (no attribute access, no conversions)."""
    parts = _template_parts(text, where, "expected a template string")
    for _, name, spec, conversion in parts:
        if name is None:
            continue
        if not _FIELD.fullmatch(name) or conversion or (spec and not _TABLE.fullmatch(spec)):
            raise MappingError(f"{where}: template field {{{name}}} must be a name with optional [key] parts and "
                               "an optional :table of [names]")
    return text


def tables_used(text: str) -> list[tuple[str, str]]:
    """(field, table) for every ``{field:table}`` of a checked template."""
    return [(name, spec) for _, name, spec, _ in string.Formatter().parse(text) if name is not None and spec]


CHANCE_FIELDS = ("key", "value")
"""The fields of a ``[deal].chance_move`` template, each exactly once, in plain form."""


def check_chance_template(text: Any, where: str) -> str:
    """A ``[deal].chance_move`` template: matched against our chance moves to find the key (so
    each field is a plain ``{key}`` or ``{value}``, each once, with text between them), then
    filled with the key and the value dealt."""
    parts = _template_parts(text, where, "missing or not a string")
    seen: list[str] = []
    for literal, name, spec, conversion in parts:
        if name is None:
            continue
        field_text = "{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
        if name not in CHANCE_FIELDS or spec or conversion:
            raise MappingError(f"{where}: template field {field_text} must be {{key}} or {{value}} "
                               "(no [index], .attribute, !conversion or :format)")
        if name in seen:
            raise MappingError(f"{where}: template field {field_text} appears twice")
        if seen and not literal:
            raise MappingError(f"{where}: template fields {{{seen[-1]}}} and {{{name}}} must be apart "
                               "(text between them tells where one ends)")
        seen.append(name)
    for name in CHANCE_FIELDS:
        if name not in seen:
            raise MappingError(f"{where}: the template needs {{{name}}}")
    return text


def name_text(value: Any) -> str | None:
    """The text a ``[names]`` table looks a value up by: a tag alone, a string, a whole number,
    ``true``/``false``; None for anything else."""
    if isinstance(value, Variant):
        return value.tag if value.value == () else None
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, str)):
        return str(value)
    return None


def fill(template: str, fields: dict[str, Any], where: str, names: dict[str, dict[str, str]] | None = None,
         tags: dict[str, str] | None = None) -> str:
    """The template with the fields filled in.  ``names`` holds the ``[names]`` tables, ``tags``
    every tag they name (a tag alone in a field without ``:table`` is renamed through it).
    MappingError naming ``where``, the field and what the trace holds for what cannot be filled."""
    out = []
    for literal, name, table, _ in string.Formatter().parse(template):
        out.append(literal)
        if name is None:
            continue
        value = _field(name, fields, template, where)
        out.append(_text(value, name, table, names or {}, tags or {}, where))
    return "".join(out)


def _field(name: str, fields: dict[str, Any], template: str, where: str) -> Any:
    head = name.split("[", 1)[0]
    if head not in fields:
        have = ", ".join(sorted(fields)) or "none"
        raise MappingError(f"{where}: template {template!r}: no value for {head!r} (here the trace gives: {have})")
    value = fields[head]
    for part in _PART.findall(name):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, (list, tuple)) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            raise MappingError(f"{where}: template {template!r}: {{{name}}} has no [{part}]: the trace holds "
                               f"{describe(value)} there")
    return value


def _text(value: Any, field: str, table: str, names: dict[str, dict[str, str]], tags: dict[str, str],
          where: str) -> str:
    key = name_text(value)
    if table:
        words = names.get(table)
        if words is None:
            raise MappingError(f"{where}: {{{field}:{table}}}: there is no table [names.{table}]")
        if key is None or key not in words:
            named = ", ".join(sorted(words)) or "nothing"
            raise MappingError(f"{where}: {{{field}:{table}}} is {describe(value)}, which [names.{table}] does not "
                               f"name (it names {named}; add it there)")
        return words[key]
    if isinstance(value, Variant) and value.value == ():
        if value.tag not in tags:
            raise MappingError(f"{where}: {{{field}}} is the tag {value.tag!r}, which [names] does not name "
                               f"(add it to a table there; see {GUIDE})")
        return tags[value.tag]
    if isinstance(value, str) and value in tags:  # a name left as it is, though [names] renames it
        table = next(t for t, words in names.items() if value in words)
        raise MappingError(f"{where}: {{{field}}} is the string {value!r}, which [names.{table}] renames: write "
                           f"{{{field}:{table}}} to use our word")
    if key is not None:
        return key
    if isinstance(value, Variant):
        return str(value)
    raise MappingError(f"{where}: {{{field}}} is {describe(value)}: a template needs a name or a number here "
                       "(pick a part with [key])")


def template_pattern(template: str) -> re.Pattern[str]:
    """A regular expression matching the template's output, one named group per plain field."""
    out = []
    for literal, name, _, _ in string.Formatter().parse(template):
        out.append(re.escape(literal))
        if name is not None:
            out.append(f"(?P<{name}>.+?)")
    return re.compile("".join(out))
