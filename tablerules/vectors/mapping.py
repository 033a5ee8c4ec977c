"""Traces written by other tools, read through a declared mapping (docs/guides/quint.rst).

A model written in another language names things its own way: its state variables
(``dishes3::dishes::board``), its kinds and colours (``MainCourse``, ``ThirdColour``), its
moves (``mbt::actionTaken`` = ``placePile`` with nondet picks ``from`` and ``onto``); it
may deal every hidden colour at the start where our rules reveal a colour when a tile is
turned (dishes.play.turn-own-tile), add stuttering steps once nobody can move
(dishes.end.no-moves), and keep the result in a variable of its own.  A *mapping file*
(TOML, ``tablerules/mappings/*.toml``) declares each of these once per source and rule
set; :func:`translate` uses it to turn the foreign trace into a trace document in our own
ITF form (tablerules/vectors/__init__.py), which ``vectors verify`` then replays against the rules
like any other.

What a foreign trace does not carry is not invented: the translated document leaves out
what the source did not say (probabilities, legal moves, an outcome it does not record),
the verifier checks what is there, and :class:`Translation` lists what could not be
checked, with what our rules compute in its place (our probability of the trace's chance
events, our outcome).
"""

from __future__ import annotations

import json
import re
import string
import tomllib
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from tablerules.model import registry
from tablerules.model.core import (
    CHANCE, TERMINAL, IllegalMove, MoveSyntaxError, RuleGap, SetupError, options_text, parse_options,
)
from tablerules.spec.files import UnreadableFile, read_regular_file

from . import (
    FORMAT_VERSION, ITF_DESCRIPTION, MAX_FILE_BYTES, VectorError, components_meta, decode, encode, fraction_text,
)
from .itf import plain, twice_listed
from .verifier import FileResult, verify_path as verify_own_path

GUIDE = "docs/guides/quint.rst, 'Mapping files'"
"""Where a user who has a trace we cannot read is sent."""
MAX_MAPPING_BYTES = 1_000_000
"""Largest mapping file read (the shipped one is 3 kB)."""
MAPPING_SUFFIX = ".toml"


class MappingError(VectorError):
    """A mapping file that cannot be used, or a trace it cannot translate (exit status 2)."""


# --------------------------------------------------------------------------- foreign values


@dataclass(frozen=True)
class Variant:
    """A value of a sum type (``{"tag": ..., "value": ...}``) the mapping does not name."""

    tag: str
    value: Any

    def __str__(self) -> str:
        return self.tag if self.value == () else f"{self.tag}({self.value})"


def read_value(data: Any, names: dict[str, str], where: str) -> Any:
    """An ITF value as plain Python with the mapping's names applied.

    Records -> dict; ``#map`` -> list of (key, value) pairs (keys may be records);
    ``#set`` -> list; ``#tup`` -> tuple; ``#bigint`` -> int; a variant with no payload whose
    tag the mapping names -> our word; any other variant -> :class:`Variant`.
    """
    if isinstance(data, list):
        return [read_value(v, names, f"{where}[{i}]") for i, v in enumerate(data)]
    if not isinstance(data, dict):
        return decode(data, where)  # numbers, strings, booleans: with decode's checks
    if len(data) == 1:
        (tag, inner), = data.items()
        if tag == "#map":
            if not isinstance(inner, list) or not all(isinstance(p, list) and len(p) == 2 for p in inner):
                raise VectorError(f"{where}: #map needs a list of [key, value] pairs")
            pairs, seen = [], set()
            for i, (k, v) in enumerate(inner):
                key = read_value(k, names, f"{where}.#map[{i}][0]")
                text = json.dumps(plain(key), sort_keys=True, default=repr)
                if text in seen:
                    raise VectorError(f"{where}.#map[{i}][0]: {twice_listed(key)}")
                seen.add(text)
                pairs.append((key, read_value(v, names, f"{where}.#map[{i}][1]")))
            return pairs
        if tag in ("#set", "#tup"):
            if not isinstance(inner, list):
                raise VectorError(f"{where}: {tag} needs a list")
            items = [read_value(v, names, f"{where}.{tag}[{i}]") for i, v in enumerate(inner)]
            return items if tag == "#set" else tuple(items)
        if tag.startswith("#"):
            return decode(data, where)  # #bigint, or decode's one-line refusal
    if set(data) == {"tag", "value"} and isinstance(data["tag"], str):
        payload = read_value(data["value"], names, f"{where}.value")
        if payload in ((), "U_OF_UNIT") and data["tag"] in names:
            return names[data["tag"]]
        return Variant(data["tag"], () if payload == "U_OF_UNIT" else payload)
    return {k: read_value(v, names, f"{where}.{k}") for k, v in data.items()}


def _pairs(value: Any, where: str) -> list[tuple[Any, Any]]:
    if not isinstance(value, list) or not all(isinstance(p, tuple) and len(p) == 2 for p in value):
        raise MappingError(f"{where}: expected a map (#map)")
    return value


# --------------------------------------------------------------------------- templates

_FIELD = re.compile(r"[A-Za-z_]\w*(\[([A-Za-z_][A-Za-z0-9_]{0,63}|[0-9]{1,9})\])*")
"""A template field: a name, then ``[key]`` parts, each a name or an index of at most nine
ASCII digits (a longer one, or other digits, Python's formatting refuses or misreads)."""


def _template_parts(text: Any, where: str, not_text: str) -> list[tuple]:
    """A template's parts as string.Formatter reads them (MappingError naming ``where`` if it cannot)."""
    if not isinstance(text, str):
        raise MappingError(f"{where}: {not_text}")
    try:
        return list(string.Formatter().parse(text))
    except ValueError as e:
        raise MappingError(f"{where}: bad template {text!r}: {e}") from None


def check_template(text: Any, where: str) -> str:
    """A template like ``place {from[owner]}.{from[kind]} on ...``: fields are names with
    optional ``[key]`` parts (no attribute access, no conversions, no format specs)."""
    parts = _template_parts(text, where, "expected a template string")
    for _, name, spec, conversion in parts:
        if name is None:
            continue
        if not _FIELD.fullmatch(name) or spec or conversion:
            raise MappingError(f"{where}: template field {{{name}}} must be a name with optional [key] parts")
    return text


CHANCE_FIELDS = ("key", "value")
"""The fields of a ``[deal].chance_move`` template, each exactly once, in plain form."""


def check_chance_template(text: Any, where: str) -> str:
    """A ``[deal].chance_move`` template as :class:`_Replay` uses it: matched against our
    chance moves to find the key (so each field is a plain ``{key}`` or ``{value}``, each
    once, with text between them), then filled with the key and the value dealt."""
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


def fill(template: str, fields: dict[str, Any], where: str) -> str:
    """The template with the fields filled in; MappingError naming the field that is missing."""
    try:
        return template.format_map(fields)
    except (KeyError, IndexError, TypeError) as e:
        raise MappingError(f"{where}: template {template!r}: no value for {e}") from None


def template_pattern(template: str) -> re.Pattern[str]:
    """A regular expression matching the template's output, one named group per plain field."""
    out = []
    for literal, name, _, _ in string.Formatter().parse(template):
        out.append(re.escape(literal))
        if name is not None:
            out.append(f"(?P<{name}>.+?)")
    return re.compile("".join(out))


# --------------------------------------------------------------------------- mapping files


@dataclass(frozen=True)
class StateRule:
    """How one of our state variables is built from the trace's."""

    ours: str
    var: str
    key: str = ""
    item: str = ""
    members_of: str = ""
    member_value: str = ""


@dataclass(frozen=True)
class MoveRule:
    action: str
    move: str = ""
    drop: bool = False
    start: bool = False


@dataclass(frozen=True)
class Mapping:
    """One mapping file: how traces of one source and rule set become ours."""

    name: str
    file: str
    source: str
    ruleset: str
    components: str | None
    options: dict[str, str]
    detect_vars: tuple[str, ...]
    names: dict[str, str]
    players_keys_of: str
    players_field: str
    states: tuple[StateRule, ...]
    action_var: str
    picks_var: str
    moves: dict[str, MoveRule]
    deal_var: str = ""
    deal_key: str = ""
    deal_value: str = "{value}"
    deal_chance_move: str = ""
    outcome_var: str = ""
    outcome_tag: str = ""
    outcome_losers: str = ""
    outcome_winners: str = ""
    outcome_scores: str = ""

    def used_vars(self) -> set[str]:
        used = {self.action_var, self.picks_var, self.players_keys_of, self.deal_var, self.outcome_var}
        for s in self.states:
            used |= {s.var, s.members_of}
        return used - {""}


def _table(data: dict, key: str, where: str, required: bool = True, keys: tuple[str, ...] | None = None) -> dict:
    value = data.get(key, {} if not required else None)
    if not isinstance(value, dict):
        raise MappingError(f"{where}: [{key}] {'missing or ' if required else ''}not a table")
    if keys is not None:
        _known(value, keys, f"{where}: [{key}]")
    return value


def _known(table: dict, keys: tuple[str, ...], where: str) -> None:
    """MappingError naming the first key of ``table`` that is not one of ``keys`` (a
    misspelt key would otherwise be ignored and its check silently lost)."""
    for key in table:
        if key not in keys:
            raise MappingError(f"{where}: unknown key {key!r} (known here: {', '.join(keys)}; see {GUIDE})")


TABLES = ("mapping", "detect", "names", "players", "state", "moves", "deal", "outcome")
"""The tables a mapping file may have (docs/guides/quint.rst, "Mapping files")."""


def _text(table: dict, key: str, where: str, default: str | None = None) -> str:
    value = table.get(key, default)
    if not isinstance(value, str) or (default is None and not value):
        raise MappingError(f"{where}.{key}: missing or not a string")
    return value


def parse_mapping(data: dict, file: str) -> Mapping:
    """A Mapping from a parsed TOML table; MappingError (one line) naming the key at fault."""
    where = f"mapping {file}"
    _known(data, TABLES, where)
    head = _table(data, "mapping", where, keys=("name", "source", "ruleset", "components", "options"))
    ruleset = _text(head, "ruleset", f"{where}: [mapping]")
    options = head.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(v, str) for v in options.values()):
        raise MappingError(f"{where}: [mapping].options: expected ruling id = \"alternative\" pairs")
    detect = _table(data, "detect", where, keys=("vars",))
    detect_vars = detect.get("vars")
    if not isinstance(detect_vars, list) or not detect_vars or not all(isinstance(v, str) for v in detect_vars):
        raise MappingError(f"{where}: [detect].vars: expected a list of variable names")
    names: dict[str, str] = {}
    for vocab, table in _table(data, "names", where, required=False).items():
        if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
            raise MappingError(f"{where}: [names].{vocab}: expected tag = \"word\" pairs")
        for tag, word in table.items():
            if tag in names and names[tag] != word:
                raise MappingError(f"{where}: [names]: tag {tag!r} is named twice ({names[tag]!r}, {word!r})")
            names[tag] = word
    players = _table(data, "players", where, keys=("keys_of", "field"))
    states = []
    for ours, rule in _table(data, "state", where).items():
        w = f"{where}: [state.{ours}]"
        if not isinstance(rule, dict):
            raise MappingError(f"{w}: not a table")
        _known(rule, ("map", "key", "item", "members_of", "member_value") if "map" in rule else ("var",), w)
        if "map" in rule:
            states.append(StateRule(ours, _text(rule, "map", w), check_template(rule.get("key"), f"{w}.key"),
                                    check_template(rule.get("item", "{item}"), f"{w}.item"),
                                    _text(rule, "members_of", w, ""), _text(rule, "member_value", w, "")))
        else:
            states.append(StateRule(ours, _text(rule, "var", w)))
    moves_table = _table(data, "moves", where)
    moves = {}
    for action, rule in moves_table.items():
        if action in ("action_var", "picks_var"):
            continue
        w = f"{where}: [moves].{action}"
        if not isinstance(rule, dict):
            raise MappingError(f"{w}: expected {{ move = \"...\" }}, {{ drop = true }} or {{ start = true }}")
        _known(rule, ("move", "drop", "start"), w)
        drop, start = rule.get("drop") is True, rule.get("start") is True
        move = "" if drop or start else check_template(rule.get("move"), f"{w}.move")
        moves[action] = MoveRule(action, move, drop, start)
    deal = _table(data, "deal", where, required=False, keys=("var", "key", "value", "chance_move"))
    outcome = _table(data, "outcome", where, required=False, keys=("var", "tag", "losers", "winners", "scores"))
    w = f"{where}: [deal]"
    return Mapping(
        name=_text(head, "name", f"{where}: [mapping]"), file=file, source=_text(head, "source", f"{where}: [mapping]", ""),
        ruleset=ruleset, components=head.get("components") if isinstance(head.get("components"), str) else None,
        options=dict(options), detect_vars=tuple(detect_vars), names=names,
        players_keys_of=_text(players, "keys_of", f"{where}: [players]"), players_field=_text(players, "field", f"{where}: [players]"),
        states=tuple(states), action_var=_text(moves_table, "action_var", f"{where}: [moves]"),
        picks_var=_text(moves_table, "picks_var", f"{where}: [moves]", ""), moves=moves,
        deal_var=_text(deal, "var", w, ""),
        deal_key=check_template(deal.get("key", "{key}"), f"{w}.key"),
        deal_value=check_template(deal.get("value", "{value}"), f"{w}.value"),
        deal_chance_move=check_chance_template(deal.get("chance_move"), f"{w}.chance_move") if deal else "",
        outcome_var=_text(outcome, "var", f"{where}: [outcome]", ""), outcome_tag=_text(outcome, "tag", f"{where}: [outcome]", ""),
        outcome_losers=_text(outcome, "losers", f"{where}: [outcome]", ""),
        outcome_winners=_text(outcome, "winners", f"{where}: [outcome]", ""),
        outcome_scores=_text(outcome, "scores", f"{where}: [outcome]", ""),
    )


def _mapping_folder() -> Path:
    return Path(str(resources.files("tablerules").joinpath("mappings")))


def shipped_mapping_names() -> list[str]:
    folder = _mapping_folder()
    return sorted(p.stem for p in folder.glob("*" + MAPPING_SUFFIX)) if folder.is_dir() else []


@lru_cache(maxsize=32)
def load_mapping(name_or_file: str) -> Mapping:
    """A shipped mapping by name (``quint-dishes``) or a mapping file; MappingError (one line)."""
    path = Path(name_or_file)
    if not path.suffix and name_or_file in shipped_mapping_names():
        path = _mapping_folder() / (name_or_file + MAPPING_SUFFIX)
    elif not path.exists():
        known = ", ".join(shipped_mapping_names()) or "none"
        raise MappingError(f"mapping {name_or_file!r}: no such file or shipped mapping (shipped: {known}; see {GUIDE})")
    try:
        text = read_regular_file(path, MAX_MAPPING_BYTES).decode("utf-8")
    except UnreadableFile as e:
        raise MappingError(f"mapping {name_or_file}: cannot read: {e}") from None
    except UnicodeDecodeError as e:
        raise MappingError(f"mapping {name_or_file}: cannot read: not UTF-8 text (byte {e.start})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise MappingError(f"mapping {name_or_file}: not valid TOML: {str(e).splitlines()[0]}") from None
    except RecursionError:  # arrays or inline tables nested deeper than the parser's stack
        raise MappingError(f"mapping {name_or_file}: not valid TOML: nested too deeply") from None
    return parse_mapping(data, name_or_file)


def is_ours(document: dict[str, Any]) -> bool:
    """A trace in our own form (its #meta names the rule set or our format)."""
    meta = document.get("#meta")
    return isinstance(meta, dict) and ("ruleset" in meta or "format_version" in meta)


def trace_vars(document: dict[str, Any]) -> list[str]:
    declared = document.get("vars")
    if isinstance(declared, list) and all(isinstance(v, str) for v in declared):
        return declared
    states = document.get("states")
    first = states[0] if isinstance(states, list) and states and isinstance(states[0], dict) else {}
    return [k for k in first if k != "#meta"]


def _resolve(short: str, names: list[str]) -> str | None:
    """The trace variable a mapping name stands for: equal, or ending in ``::name``."""
    hits = [n for n in names if n == short or n.endswith("::" + short)]
    if len(hits) > 1:
        raise MappingError(f"$.vars: {short!r} could be any of {', '.join(hits)}")
    return hits[0] if hits else None


def detect(document: dict[str, Any]) -> Mapping:
    """The shipped mapping whose [detect].vars the trace has; else MappingError, one line
    naming what is missing and where the mapping docs are."""
    names = trace_vars(document)
    best: tuple[int, Mapping, list[str]] | None = None
    for mname in shipped_mapping_names():
        m = load_mapping(mname)
        missing = [v for v in m.detect_vars if _resolve(v, names) is None]
        if not missing:
            return m
        if best is None or len(missing) < best[0]:
            best = (len(missing), m, missing)
    shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "") if names else "none"
    nearest = f"; nearest shipped mapping {best[1].name} lacks {', '.join(best[2])}" if best else ""
    raise MappingError(
        f"not a tablerules trace ($['#meta'] names no ruleset or format_version) and no mapping recognises it "
        f"(its variables: {shown}{nearest}); write a mapping and give it with --mapping FILE (see {GUIDE})")


# --------------------------------------------------------------------------- translating


@dataclass
class Translation:
    """A foreign trace in our form, and what the verifier cannot check in it."""

    mapping: Mapping
    document: dict[str, Any]
    origin: list[int] = field(default_factory=list)
    """For each of our states, the index of the trace state it comes from."""
    actions: list[str] = field(default_factory=list)
    """For each trace state, the action that led to it."""
    unchecked: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    outcome_from: int | None = None
    """The trace state where the trace first records its outcome (often a dropped step)."""

    def where(self, step: int, outcome: bool = False) -> str:
        """` (trace state 7, action placePile)`: where our step ``step`` comes from; for the
        outcome, the trace state that records it."""
        if outcome and self.outcome_from is not None:
            j = self.outcome_from
            action = self.actions[j] if j < len(self.actions) else ""
            return f" (the outcome recorded at trace state {j}" + (f", action {action}" if action else "") + ")"
        if not 0 <= step < len(self.origin):
            return ""
        j = self.origin[step]
        action = self.actions[j] if j < len(self.actions) else ""
        return f" (trace state {j}" + (f", action {action}" if action else "") + ")"


class _Trace:
    """The foreign trace's states, read on demand with the mapping's names."""

    def __init__(self, document: dict[str, Any], mapping: Mapping) -> None:
        states = document.get("states")
        if not isinstance(states, list) or not states or not all(isinstance(s, dict) for s in states):
            raise MappingError("$.states: missing, empty or not a list of objects")
        self.states = states
        self.mapping = mapping
        self.names = trace_vars(document)
        self.var_of = {short: _resolve(short, self.names) for short in mapping.used_vars()}

    def has(self, short: str) -> bool:
        return self.var_of.get(short) is not None

    def get(self, i: int, short: str) -> Any:
        var = self.var_of.get(short) if short in self.var_of else _resolve(short, self.names)
        if var is None or var not in self.states[i]:
            raise MappingError(f"$.states[{i}]: no variable {short!r} (mapping {self.mapping.name} needs it)")
        return read_value(self.states[i][var], self.mapping.names, f"$.states[{i}][{var!r}]")

    def short_vars(self, i: int) -> dict[str, Any]:
        """Every variable of state i under its short name (for move templates)."""
        out = {}
        for var in self.names:
            if var in self.states[i] and not var.startswith("mbt::"):
                out[var.rsplit("::", 1)[-1]] = read_value(self.states[i][var], self.mapping.names, f"$.states[{i}][{var!r}]")
        return out


def _players(trace: _Trace, m: Mapping) -> int:
    keys = [k for k, _ in _pairs(trace.get(0, m.players_keys_of), f"$.states[0].{m.players_keys_of}")]
    seen = {repr(k.get(m.players_field)) for k in keys if isinstance(k, dict) and m.players_field in k}
    if not seen:
        raise MappingError(f"$.states[0].{m.players_keys_of}: no keys with a field {m.players_field!r} to count players by")
    return len(seen)


def _our_vars(trace: _Trace, i: int, m: Mapping) -> dict[str, Any]:
    """Our state variables at trace state i, as the mapping builds them (ITF-encoded)."""
    out: dict[str, Any] = {}
    for rule in m.states:
        value = trace.get(i, rule.var)
        if not rule.key:
            out[rule.ours] = encode(value)
            continue
        where = f"$.states[{i}].{rule.var}"
        members = trace.get(i, rule.members_of) if rule.members_of else []
        built = {}
        for key, pile in _pairs(value, where):
            fields = key if isinstance(key, dict) else {"key": key}
            text = fill(rule.key, fields, f"mapping {m.name}: [state.{rule.ours}].key at {where}")
            if key in members:
                built[text] = rule.member_value
            else:
                items = pile if isinstance(pile, (list, tuple)) else [pile]
                built[text] = [fill(rule.item, it if isinstance(it, dict) else {"item": it},
                                    f"mapping {m.name}: [state.{rule.ours}].item at {where}") for it in items]
        out[rule.ours] = encode(built)
    return out


def _outcome(trace: _Trace, i: int, m: Mapping) -> dict[str, Any] | None:
    """The outcome the trace records at state i, in our #meta form, or None."""
    if not m.outcome_var or not trace.has(m.outcome_var):
        return None
    value = trace.get(i, m.outcome_var)
    if m.outcome_tag:
        if not (isinstance(value, Variant) and value.tag == m.outcome_tag):
            return None
        value = value.value
    if not isinstance(value, dict):
        raise MappingError(f"$.states[{i}].{m.outcome_var}: the outcome is not a record")
    out: dict[str, Any] = {}
    for ours, theirs in (("losers", m.outcome_losers), ("winners", m.outcome_winners), ("scores", m.outcome_scores)):
        if theirs:
            if theirs not in value:
                raise MappingError(f"$.states[{i}].{m.outcome_var}: no field {theirs!r}")
            v = value[theirs]
            if ours == "scores" and v and all(isinstance(p, tuple) and len(p) == 2 for p in v):
                v = [s for _, s in sorted(v)]  # a map seat -> count, as a list by seat
            out[ours] = sorted(v) if ours != "scores" else list(v)
    return out


def _deal(trace: _Trace, i: int, m: Mapping) -> dict[str, str]:
    """Key text -> value text of the deal given at trace state i."""
    where = f"$.states[{i}].{m.deal_var}"
    out = {}
    for key, value in _pairs(trace.get(i, m.deal_var), where):
        k = fill(m.deal_key, key if isinstance(key, dict) else {"key": key}, f"mapping {m.name}: [deal].key")
        out[k] = fill(m.deal_value, value if isinstance(value, dict) else {"value": value}, f"mapping {m.name}: [deal].value")
    return out


class _Replay:
    """Our rules, following the translated moves, to fill in chance events from the deal."""

    def __init__(self, rules: Any, setup: Any, m: Mapping) -> None:
        self.rules, self.m = rules, m
        self.state = rules.new_game(setup)
        self.on = True
        self.chance_steps = 0
        self.probability = Fraction(1)
        self.pattern = template_pattern(m.deal_chance_move) if m.deal_chance_move else None

    def play(self, text: str) -> None:
        """Apply a move; after a move our rules refuse, stop following (the verifier reports it)."""
        if not self.on:
            return
        try:
            self.state = self.rules.apply(self.state, self.rules.parse_move(text, self.state.setup))
        except (IllegalMove, MoveSyntaxError, RuleGap):
            self.on = False

    def chance_from(self, deal: dict[str, str], i: int) -> str | None:
        """The chance move the deal gives for the event our rules wait for, or None if none is due."""
        if not self.on or self.rules.to_move(self.state) is not CHANCE:
            return None
        outs = self.rules.chance_outcomes(self.state)
        pending = []
        for move, _ in outs:
            hit = self.pattern.fullmatch(str(move)) if self.pattern else None
            if hit and hit.group("key") not in pending:
                pending.append(hit.group("key"))
        if not pending:
            raise MappingError(f"$.states[{i}]: our rules wait for a chance event ({outs[0][0]}, ...) that mapping "
                               f"{self.m.name} does not give (no [deal].chance_move of that form)")
        key = pending[0]
        if key not in deal:
            raise MappingError(f"$.states[{i}].{self.m.deal_var}: the deal gives nothing for {key!r}")
        text = fill(self.m.deal_chance_move, {"key": key, "value": deal[key]}, f"mapping {self.m.name}: [deal].chance_move")
        p = {str(mv): pr for mv, pr in outs}.get(text)
        if p is not None:
            self.chance_steps += 1
            self.probability *= p
        return text


def translate(document: dict[str, Any], mapping: Mapping) -> Translation:
    """The foreign trace ``document`` as a trace document in our ITF form, and the list of
    what it does not let us check.  MappingError (one line) where the mapping does not fit."""
    m = mapping
    trace = _Trace(document, m)
    for short in [m.action_var, *(s.var for s in m.states)]:
        if not trace.has(short):
            raise MappingError(f"$.vars: no variable {short!r}, which mapping {m.name} reads")
    try:
        rules = registry.get(m.ruleset)
        components = rules.load_components(m.components) if m.components and rules.load_components else None
        options = parse_options(rules.Options, [f"{k}={v}" for k, v in m.options.items()])
        setup = rules.setup(_players(trace, m), options, components)
    except SetupError as e:
        raise MappingError(f"mapping {m.name}: {str(e).splitlines()[0]}") from None
    tr = Translation(m, {})
    tr.actions = [_action(trace, i, m) for i in range(len(trace.states))]
    start = m.moves.get(tr.actions[0])
    if tr.actions[0] and (start is None or not start.start):
        raise MappingError(f"$.states[0]: the first state comes from action {tr.actions[0]!r}, which mapping {m.name} "
                           f"does not mark as the start ({{ start = true }})")
    replay = _Replay(rules, setup, m)
    states: list[dict[str, Any]] = [{"#meta": {"index": 0}, **_our_vars(trace, 0, m)}]
    tr.origin = [0]
    dropped: dict[str, int] = {}
    outcome_at: int | None = None
    for i in range(1, len(trace.states)):
        action = tr.actions[i]
        rule = m.moves.get(action)
        if rule is None:
            known = ", ".join(sorted(m.moves))
            raise MappingError(f"$.states[{i}]: action {action!r} is not in mapping {m.name} [moves] (known: {known})")
        recorded = _outcome(trace, i, m)
        if rule.drop or rule.start:
            dropped[action] = dropped.get(action, 0) + 1
            if recorded is not None and outcome_at is None:
                states[-1]["#meta"]["outcome"], outcome_at = recorded, len(states) - 1
                tr.outcome_from = i
            continue
        fields = {**trace.short_vars(i - 1), **_picks(trace, i, m)}
        texts = [fill(rule.move, fields, f"$.states[{i}]: mapping {m.name} [moves].{action}.move")]
        replay.play(texts[0])
        deal = _deal(trace, i - 1, m) if m.deal_var else {}
        while (chance := replay.chance_from(deal, i)) is not None:
            texts.append(chance)
            replay.play(chance)
        for k, text in enumerate(texts):
            entry: dict[str, Any] = {"#meta": {"index": len(states), "move": text}}
            if k == len(texts) - 1:
                entry.update(_our_vars(trace, i, m))
            states.append(entry)
            tr.origin.append(i)
        if recorded is not None and outcome_at is None:
            states[-1]["#meta"]["outcome"], outcome_at = recorded, len(states) - 1
            tr.outcome_from = i
        if not replay.on:
            break  # the verifier stops at this step; nothing after it can be checked
    tr.document = {"#meta": _meta(document, m, setup), "vars": sorted({k for s in states for k in s if k != "#meta"}),
                   "states": states}
    _account(tr, trace, replay, dropped, outcome_at)
    return tr


def _action(trace: _Trace, i: int, m: Mapping) -> str:
    value = trace.get(i, m.action_var)
    if not isinstance(value, str):
        raise MappingError(f"$.states[{i}].{m.action_var}: not an action name")
    return value


def _picks(trace: _Trace, i: int, m: Mapping) -> dict[str, Any]:
    """The nondet picks of the step into state i that were made (Quint: ``Some(value)``)."""
    if not m.picks_var or not trace.has(m.picks_var):
        return {}
    picks = trace.get(i, m.picks_var)
    if not isinstance(picks, dict):
        raise MappingError(f"$.states[{i}].{m.picks_var}: not a record of picks")
    out = {}
    for name, v in picks.items():
        if isinstance(v, Variant) and v.tag in ("Some", "None"):
            if v.tag == "Some":
                out[name] = v.value
        else:
            out[name] = v
    return out


def _meta(document: dict[str, Any], m: Mapping, setup: Any) -> dict[str, Any]:
    theirs = document.get("#meta") if isinstance(document.get("#meta"), dict) else {}
    return {
        "format": "ITF", "format-description": ITF_DESCRIPTION, "format_version": FORMAT_VERSION,
        "ruleset": m.ruleset, "players": setup.players, "options": options_text(setup.options),
        "components": components_meta(setup, m.components),
        "source": f"translated by mapping {m.name} from: {theirs.get('source', 'an ITF trace')}",
        "description": str(theirs.get("description", "")),
    }


def _account(tr: Translation, trace: _Trace, replay: _Replay, dropped: dict[str, int], outcome_at: int | None) -> None:
    """What the translated trace does not let the verifier check, and what we computed instead."""
    m, rules = tr.mapping, replay.rules
    for action, n in sorted(dropped.items()):
        if not m.moves[action].start:
            tr.notes.append(f"dropped {n} {action} step{'s' if n != 1 else ''} (mapping {m.name}: drop = true)")
    if replay.chance_steps:
        tr.unchecked.append(
            f"probabilities: the trace gives none; its {replay.chance_steps} chance events (taken from the deal made "
            f"at the start) are possible under our rules, with probability {fraction_text(replay.probability)} "
            f"together (ours)")
    tr.unchecked.append("legal moves: the trace records the move taken at each state, not the moves open there")
    ours = set(rules.state_vars(rules.new_game(replay.state.setup)))
    missing = sorted(ours - {s.ours for s in m.states})
    if missing:
        tr.unchecked.append(f"our state variables {', '.join(missing)}: the trace has nothing they could come from")
    ignored = sorted({n.rsplit('::', 1)[-1] for n in trace.names} - {v.rsplit('::', 1)[-1] for v in m.used_vars()})
    if ignored:
        tr.unchecked.append(f"their variables {', '.join(ignored)}: the mapping compares them with nothing of ours")
    if m.deal_var and replay.on:
        turned = replay.chance_steps
        dealt = len(_deal(trace, 0, m))
        if dealt > turned:
            tr.unchecked.append(f"the colours dealt to {dealt - turned} tiles that were never turned")
    if not replay.on:
        return
    actor = rules.to_move(replay.state)
    if actor is not TERMINAL:
        tr.unchecked.append("the outcome: the trace stops before the end of the game")
        tr.document["#meta"]["capped"] = True  # a game cut short, said so: not a game that ends mid-play
    elif outcome_at is None:
        try:
            summary = rules.outcome(replay.state).summary()
        except RuleGap as gap:
            summary = f"a rule gap ({gap.ruling})"
        tr.unchecked.append(f"the outcome: the trace records none; ours is {summary}")


# --------------------------------------------------------------------------- the verify command


def verify_path(path: str, deck: str | None = None, max_bytes: int = MAX_FILE_BYTES,
                mapping: str | None = None) -> FileResult:
    """`vectors verify` for one file (``-``: standard input, read once).  Our own traces go to
    the verifier as they are; any other trace is translated first, through ``mapping`` (a
    shipped mapping's name or a file) or the shipped mapping that recognises it, and the
    result says what the translation could not check."""
    translated: list[Translation] = []

    def prepare(document: dict[str, Any]) -> dict[str, Any]:
        if mapping is None and is_ours(document):
            return document
        tr = translate(document, load_mapping(mapping) if mapping else detect(document))
        translated.append(tr)
        return tr.document

    result = verify_own_path(path, deck, max_bytes, prepare=prepare)
    if translated and result.verdict is None:  # unreadable after translation: say where in *their* trace
        found = re.search(r"\$\.states\[(\d+)\]", result.line)
        if found and translated[0].where(int(found.group(1))):
            line = (f"{result.line}{translated[0].where(int(found.group(1)))}, as translated through mapping "
                    f"{translated[0].mapping.name}: see its [names] and [moves]")
            return FileResult(result.file, result.status, line, None, result.problem)
    if not translated or result.verdict is None:
        return result
    tr = translated[0]
    v = result.verdict
    v.notes.extend([f"not checked: {u}" for u in tr.unchecked] + [f"note: {n}" for n in tr.notes])
    if v.finding is not None:
        return FileResult(result.file, 1, v.finding.line(result.file) + tr.where(v.finding.step, v.finding.what == "wrong outcome"), v)
    meta = tr.document["#meta"]
    lines = [f"{result.file}: ok ({v.steps} steps of ours from {len(tr.actions) - 1} of the trace, {meta['ruleset']}, "
             f"{meta['players']} players, read through mapping {tr.mapping.name})"]
    lines += [f"  not checked: {u}" for u in tr.unchecked] + [f"  note: {n}" for n in tr.notes]
    return FileResult(result.file, 0, "\n".join(lines), v)


def verify_file(path: str, deck: str | None = None, max_bytes: int = MAX_FILE_BYTES,
                mapping: str | None = None) -> tuple[int, str]:
    """(exit status, report lines) for one file (see :func:`verify_path`)."""
    result = verify_path(path, deck, max_bytes, mapping)
    return result.status, result.line


__all__ = ["Mapping", "MappingError", "Translation", "detect", "is_ours", "load_mapping", "translate", "verify_file", "verify_path"]
