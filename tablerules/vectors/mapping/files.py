"""Mapping files: what a mapping says (:class:`Mapping`), reading and checking one, the
shipped ones, and finding the shipped mapping that recognises a trace.

Every mistake in a mapping is one line naming the key at fault (docs/guides/quint.rst,
"Mapping files")."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from tablerules.spec.files import UnreadableFile, read_regular_file

from .templates import check_chance_template, check_template, tables_used
from .values import GUIDE, MappingError

MAX_MAPPING_BYTES = 1_000_000
"""Largest mapping file read (the shipped ones are 3 kB)."""
MAPPING_SUFFIX = ".toml"


@dataclass(frozen=True)
class StateRule:
    """How one of our state variables is built from the trace's.

    Copied (``var`` alone), or walked: ``levels`` nested lists, maps or records down to a
    value whose items ``item`` writes, under the key ``key`` writes; a key in the set
    variable ``members_of``, or a value whose items all have ``member_if`` (field, value),
    shows ``member_value`` instead."""

    ours: str
    var: str
    levels: tuple[str, ...] = ()
    key: str = ""
    item: str = ""
    members_of: str = ""
    member_value: str = ""
    member_if: tuple[str, Any] | None = None


@dataclass(frozen=True)
class MoveRule:
    """What one of their actions is: our move (``move``, a template), the step that makes the
    first state (``start``), a step that changes nothing of ours (``drop``), or one that also
    says the game is over (``over``).  Dropped and over steps are checked to change nothing."""

    action: str
    move: str = ""
    drop: bool = False
    start: bool = False
    over: bool = False

    @property
    def stutters(self) -> bool:
        return self.drop or self.over


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
    names: dict[str, dict[str, str]]
    """[names]: table -> their value (as text) -> our word."""
    tags: dict[str, str]
    """Every value named in [names] -> our word (a variant tag alone is renamed through this)."""
    players_keys_of: str
    players_field: str
    players_length_of: str
    states: tuple[StateRule, ...]
    action_var: str
    picks_var: str
    moves: dict[str, MoveRule]
    deal_var: str = ""
    deal_pick: str = ""
    deal_levels: tuple[str, ...] = ("key",)
    deal_key: str = "{key}"
    deal_value: str = "{value}"
    deal_chance_move: str = ""
    outcome_var: str = ""
    outcome_tag: str = ""
    outcome_losers: str = ""
    outcome_winners: str = ""
    outcome_scores: str = ""

    def used_vars(self) -> set[str]:
        used = {self.action_var, self.picks_var, self.players_keys_of, self.players_length_of, self.deal_var,
                self.outcome_var}
        for s in self.states:
            used |= {s.var, s.members_of}
        return used - {""}


TABLES = ("mapping", "detect", "names", "players", "state", "moves", "deal", "outcome")
"""The tables a mapping file may have (docs/guides/quint.rst, "Mapping files")."""
WALKED = ("var", "map", "levels", "key", "item", "members_of", "member_value", "member_if")
"""The keys of a [state.NAME] that walks a variable (see StateRule)."""


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


def _text(table: dict, key: str, where: str, default: str | None = None) -> str:
    value = table.get(key, default)
    if not isinstance(value, str) or (default is None and not value):
        raise MappingError(f"{where}.{key}: missing or not a string")
    return value


def _levels(table: dict, where: str, default: tuple[str, ...]) -> tuple[str, ...]:
    value = table.get("levels", list(default))
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v.isidentifier() for v in value):
        raise MappingError(f"{where}.levels: expected a list of names, one per level (e.g. [\"seat\", \"slot\"])")
    if len(set(value)) != len(value):
        raise MappingError(f"{where}.levels: a name appears twice")
    return tuple(value)


def parse_names(table: dict, where: str) -> tuple[dict[str, dict[str, str]], dict[str, str]]:
    """[names]: per table, their value -> our word; refused when two values of one table name
    the same word (the second would be read as the first without a word said)."""
    names: dict[str, dict[str, str]] = {}
    tags: dict[str, str] = {}
    for vocab, words in table.items():
        w = f"{where}: [names].{vocab}"
        if not isinstance(words, dict) or not all(isinstance(v, str) for v in words.values()):
            raise MappingError(f"{w}: expected value = \"our word\" pairs")
        seen: dict[str, str] = {}
        for theirs, ours in words.items():
            if ours in seen:
                raise MappingError(f"{w}: {seen[ours]!r} and {theirs!r} both name {ours!r} (two of their values "
                                   "would read as one of ours; each needs a word of its own)")
            seen[ours] = theirs
            if theirs in tags and tags[theirs] != ours:
                raise MappingError(f"{where}: [names]: {theirs!r} is named twice ({tags[theirs]!r}, {ours!r}); "
                                   "a tag may stand in one table only")
            tags[theirs] = ours
        names[vocab] = dict(words)
    return names, tags


def _state_rule(ours: str, rule: Any, where: str) -> StateRule:
    w = f"{where}: [state.{ours}]"
    if not isinstance(rule, dict):
        raise MappingError(f"{w}: not a table")
    if "map" not in rule and "levels" not in rule:
        _known(rule, ("var",), w + " (copied; add levels = [...] to walk it)")
        return StateRule(ours, _text(rule, "var", w))
    _known(rule, WALKED, w)
    if "map" in rule and "var" in rule:
        raise MappingError(f"{w}: give var (with levels) or map, not both")
    var = _text(rule, "map" if "map" in rule else "var", w)
    member_if = rule.get("member_if")
    if member_if is not None:
        if not isinstance(member_if, dict) or set(member_if) != {"field", "equals"} \
                or not isinstance(member_if["field"], str):
            raise MappingError(f"{w}.member_if: expected {{ field = \"name\", equals = value }}")
        member_if = (member_if["field"], member_if["equals"])
    if (rule.get("members_of") or member_if) and not rule.get("member_value"):
        raise MappingError(f"{w}.member_value: missing (what a member shows)")
    return StateRule(ours, var, _levels(rule, w, ("key",)), check_template(rule.get("key"), f"{w}.key"),
                     check_template(rule.get("item", "{item}"), f"{w}.item"), _text(rule, "members_of", w, ""),
                     _text(rule, "member_value", w, ""), member_if)


def _move_rule(action: str, rule: Any, where: str) -> MoveRule:
    w = f"{where}: [moves].{action}"
    if not isinstance(rule, dict):
        raise MappingError(f"{w}: expected {{ move = \"...\" }}, {{ drop = true }}, {{ over = true }} or "
                           "{ start = true }")
    _known(rule, ("move", "drop", "start", "over"), w)
    drop, start, over = (rule.get(k) is True for k in ("drop", "start", "over"))
    if drop + start + over > 1 or ((drop or start or over) and "move" in rule):
        raise MappingError(f"{w}: give one of move, drop, over or start")
    move = "" if drop or start or over else check_template(rule.get("move"), f"{w}.move")
    return MoveRule(action, move, drop, start, over)


BLANK = "?"
"""What a drafted mapping (``vectors map``) leaves where it cannot guess: a value, or the
start of a key (``[state."?board"]``)."""


def _blanks(value: Any, path: str) -> list[str]:
    """The keys under ``path`` whose value is still the draft's blank."""
    if value == BLANK:
        return [path]
    if isinstance(value, dict):
        return [b for k, v in value.items()
                for b in ([f"{path}.{k}" if path else str(k)] if str(k).startswith(BLANK) else [])
                + _blanks(v, f"{path}.{k}" if path else str(k))]
    if isinstance(value, list):
        return [b for i, v in enumerate(value) for b in _blanks(v, f"{path}[{i}]")]
    return []


def parse_mapping(data: dict, file: str) -> Mapping:
    """A Mapping from a parsed TOML table; MappingError (one line) naming the key at fault."""
    where = f"mapping {file}"
    blanks = _blanks(data, "")
    if blanks:
        shown = ", ".join(blanks[:6]) + (f", ... ({len(blanks)} in all)" if len(blanks) > 6 else "")
        raise MappingError(f"{where}: still blank (\"{BLANK}\", left by the draft): {shown}; fill them in "
                           f"(see {GUIDE})")
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
    names, tags = parse_names(_table(data, "names", where, required=False), where)
    players = _table(data, "players", where, keys=("keys_of", "field", "length_of"))
    wp = f"{where}: [players]"
    if "length_of" in players and ("keys_of" in players or "field" in players):
        raise MappingError(f"{wp}: give length_of, or keys_of with field, not both")
    states = tuple(_state_rule(ours, rule, where) for ours, rule in _table(data, "state", where).items())
    moves_table = _table(data, "moves", where)
    moves = {a: _move_rule(a, r, where) for a, r in moves_table.items() if a not in ("action_var", "picks_var")}
    deal = _table(data, "deal", where, required=False,
                  keys=("var", "pick", "levels", "key", "value", "chance_move"))
    wd = f"{where}: [deal]"
    if deal and ("var" in deal) == ("pick" in deal):
        raise MappingError(f"{wd}: give var (a variable) or pick (the first step's nondet pick), one of them")
    outcome = _table(data, "outcome", where, required=False, keys=("var", "tag", "losers", "winners", "scores"))
    wo = f"{where}: [outcome]"
    m = Mapping(
        name=_text(head, "name", f"{where}: [mapping]"), file=file,
        source=_text(head, "source", f"{where}: [mapping]", ""),
        ruleset=ruleset, components=head.get("components") if isinstance(head.get("components"), str) else None,
        options=dict(options), detect_vars=tuple(detect_vars), names=names, tags=tags,
        players_keys_of=_text(players, "keys_of", wp, "" if "length_of" in players else None),
        players_field=_text(players, "field", wp, "" if "length_of" in players else None),
        players_length_of=_text(players, "length_of", wp, ""),
        states=states, action_var=_text(moves_table, "action_var", f"{where}: [moves]"),
        picks_var=_text(moves_table, "picks_var", f"{where}: [moves]", ""), moves=moves,
        deal_var=_text(deal, "var", wd, ""), deal_pick=_text(deal, "pick", wd, ""),
        deal_levels=_levels(deal, wd, ("key",)),
        deal_key=check_template(deal.get("key", "{key}"), f"{wd}.key"),
        deal_value=check_template(deal.get("value", "{value}"), f"{wd}.value"),
        deal_chance_move=check_chance_template(deal.get("chance_move"), f"{wd}.chance_move") if deal else "",
        outcome_var=_text(outcome, "var", wo, ""), outcome_tag=_text(outcome, "tag", wo, ""),
        outcome_losers=_text(outcome, "losers", wo, ""), outcome_winners=_text(outcome, "winners", wo, ""),
        outcome_scores=_text(outcome, "scores", wo, ""),
    )
    _check_tables(m, where)
    return m


def _check_tables(m: Mapping, where: str) -> None:
    """Every ``{field:table}`` names a table of [names]."""
    templates = [(f"[state.{s.ours}].{k}", getattr(s, k)) for s in m.states for k in ("key", "item")]
    templates += [(f"[moves].{r.action}.move", r.move) for r in m.moves.values()]
    templates += [("[deal].key", m.deal_key), ("[deal].value", m.deal_value)]
    for key, text in templates:
        for field, table in tables_used(text):
            if table not in m.names:
                known = ", ".join(sorted(m.names)) or "none"
                raise MappingError(f"{where}: {key}: {{{field}:{table}}} names no table of [names] (tables: {known})")


def _mapping_folder() -> Path:
    # tablerules/mappings/, beside this package's own folder; found from this file, because
    # ``tablerules`` is a namespace package, whose resources an editable install cannot serve
    return Path(__file__).resolve().parents[2] / "mappings"


def shipped_mapping_names() -> list[str]:
    folder = _mapping_folder()
    return sorted(p.stem for p in folder.glob("*" + MAPPING_SUFFIX)) if folder.is_dir() else []


def read_mapping_text(text: str, name: str) -> Mapping:
    """A mapping from its TOML text; MappingError (one line)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise MappingError(f"mapping {name}: not valid TOML: {str(e).splitlines()[0]}") from None
    except RecursionError:  # arrays or inline tables nested deeper than the parser's stack
        raise MappingError(f"mapping {name}: not valid TOML: nested too deeply") from None
    return parse_mapping(data, name)


def load_mapping(name_or_file: str) -> Mapping:
    """A shipped mapping by name (``quint-dishes``) or a mapping file; MappingError (one line).
    Read again whenever the file changed (its size or modification time): a long-lived caller
    that edits a mapping sees the edit."""
    path = Path(name_or_file)
    if not path.suffix and name_or_file in shipped_mapping_names():
        path = _mapping_folder() / (name_or_file + MAPPING_SUFFIX)
    elif not path.exists():
        known = ", ".join(shipped_mapping_names()) or "none"
        raise MappingError(f"mapping {name_or_file!r}: no such file or shipped mapping (shipped: {known}; see {GUIDE})")
    try:
        seen = path.stat()
    except OSError as e:
        raise MappingError(f"mapping {name_or_file}: cannot read: {e.strerror or e}") from None
    return _read_mapping(str(path.resolve()), seen.st_mtime_ns, seen.st_size, name_or_file)


@lru_cache(maxsize=32)
def _read_mapping(path: str, mtime_ns: int, size: int, name: str) -> Mapping:  # noqa: ARG001 - the cache's key
    try:
        text = read_regular_file(Path(path), MAX_MAPPING_BYTES).decode("utf-8")
    except UnreadableFile as e:
        raise MappingError(f"mapping {name}: cannot read: {e}") from None
    except UnicodeDecodeError as e:
        raise MappingError(f"mapping {name}: cannot read: not UTF-8 text (byte {e.start})") from None
    return read_mapping_text(text, name)


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


def resolve(short: str, names: list[str]) -> str | None:
    """The trace variable a mapping name stands for: equal, or ending in ``::name``."""
    hits = [n for n in names if n == short or n.endswith("::" + short)]
    if len(hits) > 1:
        raise MappingError(f"$.vars: {short!r} could be any of {', '.join(hits)}")
    return hits[0] if hits else None


def detect(document: dict[str, Any]) -> Mapping:
    """The shipped mapping whose [detect].vars the trace has (of several, the one that asks
    for most); else MappingError, one line naming what is missing and where the docs are."""
    names = trace_vars(document)
    fits: list[Mapping] = []
    near: list[tuple[int, str]] = []
    for mname in shipped_mapping_names():
        m = load_mapping(mname)
        missing = [v for v in m.detect_vars if resolve(v, names) is None]
        if not missing:
            fits.append(m)
        near.append((len(missing), f"{m.name} lacks {', '.join(missing)}"))
    if fits:
        return max(fits, key=lambda m: len(m.detect_vars))
    shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "") if names else "none"
    nearest = f"; shipped mappings: {'; '.join(text for _, text in sorted(near)[:3])}" if near else ""
    raise MappingError(
        f"not a tablerules trace ($['#meta'] names no ruleset or format_version) and no mapping recognises it "
        f"(its variables: {shown}{nearest}); write a mapping and give it with --mapping FILE (see {GUIDE})")
