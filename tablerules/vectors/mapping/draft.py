"""A first mapping drafted from a trace's shapes (``tablerules vectors map --from quint TRACE``).

The draft fills in what the trace shows for certain (its variables, actions, nondet picks, the
levels of nested lists and maps, the names its strings and tags take, a boolean field, a pick
made by the first step) and leaves the blank ``"?"`` with a comment wherever only the author
knows (our word for each of their names, the templates of our moves and keys).  A mapping
with a blank left is refused in one line naming the blanks (:mod:`.files`).
"""

from __future__ import annotations

import json
from typing import Any

from .files import BLANK, trace_vars
from .values import MappingError, MapPairs, Variant, describe, is_map, read_value

Q = json.dumps(BLANK)
"""The blank as TOML text."""


def _short(var: str) -> str:
    return var.rsplit("::", 1)[-1]


def _toml(value: Any) -> str:
    return json.dumps(value)  # a JSON string or list of strings is valid TOML


def _nesting(value: Any, players: int | None) -> tuple[list[str], Any]:
    """Level names for the lists and maps above the first list of records or of scalars, and
    what lies there."""
    levels: list[str] = []
    while True:
        if is_map(value) and value:
            levels.append("key" if not levels else f"key{len(levels)}")
            value = value[0][1]
        elif isinstance(value, (list, tuple)) and value and isinstance(value[0], (list, tuple)):
            if players is not None and len(value) == players and not levels:
                levels.append("seat")
            else:
                levels.append("slot" if "slot" not in levels else f"level{len(levels)}")
            value = value[0]
        else:
            return levels, value


def _first_list_length(value: Any) -> int | None:
    return len(value) if isinstance(value, list) and not is_map(value) and value else None


class _Names:
    """The strings and unit tags seen under each record field (the [names] tables to fill)."""

    def __init__(self) -> None:
        self.by_field: dict[str, list[str]] = {}

    def collect(self, value: Any, field: str = "") -> None:
        if isinstance(value, Variant):
            if value.value == ():
                self.add(field, value.tag)
            else:
                self.collect(value.value, field)
        elif isinstance(value, str) and field:
            self.add(field, value)
        elif isinstance(value, dict):
            for k, v in value.items():
                self.collect(v, k)
        elif isinstance(value, MapPairs):
            for k, v in value:
                self.collect(k, field)
                self.collect(v, field)
        elif isinstance(value, (list, tuple)):
            for v in value:
                self.collect(v, field)

    def add(self, field: str, word: str) -> None:
        seen = self.by_field.setdefault(field or "value", [])
        if word not in seen:
            seen.append(word)

    def table_of(self, words: list[str]) -> str | None:
        for table, seen in self.by_field.items():
            if words and all(w in seen for w in words):
                return table
        return None


def draft(document: Any, name: str, ruleset: str | None = None, trace_name: str = "a trace") -> str:
    """The draft mapping's TOML text for one trace (MappingError if the trace is not an ITF trace)."""
    if not isinstance(document, dict) or not isinstance(document.get("states"), list) or not document["states"] \
            or not all(isinstance(s, dict) for s in document["states"]):
        raise MappingError("$.states: missing, empty or not a list of objects (not an ITF trace)")
    states = document["states"]
    names_all = trace_vars(document)
    action_var = next((v for v in names_all if v.endswith("actionTaken")), None)
    picks_var = next((v for v in names_all if v.endswith("nondetPicks")), None)
    model_vars = [v for v in names_all if v not in (action_var, picks_var)]
    first = {v: read_value(states[0].get(v), f"$.states[0][{v!r}]") for v in model_vars if v in states[0]}
    nested = [v for v in model_vars if v in first and isinstance(first[v], list) and first[v]]
    lists = [v for v in nested if not is_map(first[v]) and isinstance(first[v][0], (list, tuple))]
    players = len(first[lists[0]]) if lists else None
    names = _Names()
    for s in states:
        for v in model_vars:
            if v in s:
                names.collect(read_value(s[v], "$"))
    picks0 = _picks(states[0], picks_var)
    if picks0:
        for s in states[1:]:
            names.collect(_picks(s, picks_var))
    out = [f"# A draft mapping, written by `tablerules vectors map --from quint` from the shapes of one trace.",
           f"# Fill in every {BLANK!r} (a mapping with one left is refused), check every guess marked `?`, then",
           "# verify with `tablerules vectors verify --mapping THIS-FILE TRACE`.  Keys: docs/guides/quint.rst.", "",
           "[mapping]", f"name = {_toml(name)}", f"source = {_toml('Quint traces (drafted from ' + trace_name + ')')}",
           f"ruleset = {_toml(ruleset) if ruleset else Q}            # dishes, just-desserts or just-desserts-2.3",
           "# components = \"box\"          # the --deck argument of the components the model plays with",
           "options = {}                # the rulings the model implements: ruling id = \"alternative\"", "",
           "[detect]", f"vars = {_toml([v if v in (action_var, picks_var) else _short(v) for v in names_all])}", ""]
    out += _names_block(names, nested, first, players)
    out += ["[players]"]
    keyed = [(v, f) for v in nested if is_map(first[v]) and isinstance(first[v][0][0], dict)
             for f in ("owner", "seat", "player") if f in first[v][0][0]]
    if lists:
        out += [f"length_of = {_toml(_short(lists[0]))}   # ? one entry per player", ""]
    elif keyed:
        out += [f"keys_of = {_toml(_short(keyed[0][0]))}   # ? the players are the values of this field of its keys",
                f"field = {_toml(keyed[0][1])}", ""]
    else:
        out += [f"keys_of = {Q}     # a map variable whose keys have a field naming the player", f"field = {Q}", ""]
    for v in model_vars:
        if v in first:
            out += _state_block(v, first[v], players)
    out += _moves_block(states, action_var, picks_var, model_vars)
    if picks0:
        out += _deal_block(picks0, players, names)
    out += ["# [outcome]: the trace keeps no outcome this draft could recognise; see the guide if it has one.", ""]
    return "\n".join(out)


def _picks(state: dict[str, Any], picks_var: str | None) -> dict[str, Any]:
    if not picks_var or not isinstance(state.get(picks_var), dict):
        return {}
    picks = read_value(state[picks_var], "$")
    return {k: v.value for k, v in picks.items() if isinstance(v, Variant) and v.tag == "Some"}


def _names_block(names: _Names, nested: list[str], first: dict[str, Any], players: int | None) -> list[str]:
    out = ["# Their names -> our words, one table per vocabulary; `{field:table}` in a template renames through one."]
    for table, words in names.by_field.items():
        out += [f"[names.{table}]"] + [f"{_toml(w)} = {Q}" for w in sorted(words)] + [""]
    for v in nested:
        levels, _ = _nesting(first[v], players)
        if "slot" in levels and not is_map(first[v]):
            count = _first_list_length(first[v][0]) if levels[0] != "slot" else _first_list_length(first[v])
            out += [f"[names.slot]   # ? the positions of a list in {_short(v)}: our word for each"]
            out += [f"{i} = {Q}" for i in range(count or 0)] + [""]
            break
    return out


def _state_block(var: str, value: Any, players: int | None) -> list[str]:
    short = _short(var)
    if not isinstance(value, (list, tuple)) or not value:
        return [f"[state.{short}]   # ? which of our state variables is {short}? (rename the table)",
                f"var = {_toml(short)}", ""]
    levels, leaf = _nesting(value, players)
    if not levels:
        return [f"# {short}: {describe(value)}; a set of keys can say which places show one value: see members_of",
                ""]
    out = [f"[state.{_toml(BLANK + short)}]   # ? the name of our state variable built from {short}",
           f"var = {_toml(short)}", f"levels = {_toml(levels)}",
           f"key = {Q}         # ? our key from the levels, e.g. \"{{seat}}.{{slot:slot}}\""]
    record = leaf[0] if isinstance(leaf, (list, tuple)) and leaf and isinstance(leaf[0], dict) else None
    if record:
        fields = ", ".join(f"{{{k}}}" for k in sorted(record))
        out.append(f"item = {Q}        # ? each item from its fields {fields} (rename with {{field:table}})")
        flags = [k for k, v in sorted(record.items()) if isinstance(v, bool)]
        if flags:
            out.append(f"member_if = {{ field = {_toml(flags[0])}, equals = {Q} }}   # ? the value that means "
                       "the other side is up (true or false)")
            out.append(f"member_value = {Q}   # ? what our variable shows there")
    out.append("")
    return out


def _moves_block(states: list[dict[str, Any]], action_var: str | None, picks_var: str | None,
                 model_vars: list[str]) -> list[str]:
    out = ["[moves]", f"action_var = {_toml(action_var) if action_var else Q}"]
    if picks_var:
        out.append(f"picks_var = {_toml(picks_var)}")
    if not action_var:
        return out + ["# ? no action variable found: traces need Quint's --mbt", ""]
    actions = [s.get(action_var) for s in states]
    seen: list[str] = []
    for a in actions:
        if isinstance(a, str) and a not in seen:
            seen.append(a)
    for a in seen:
        at = [i for i, x in enumerate(actions) if x == a]
        if at == [0]:
            out.append(f"{a} = {{ start = true }}   # makes the first state")
            continue
        still = all(all(states[i].get(v) == states[i - 1].get(v) for v in model_vars) for i in at if i > 0)
        if still and at == list(range(at[0], len(states))):
            out.append(f"{a} = {{ over = true }}   # ? changes nothing and ends every trace: says the game is over")
        elif still:
            out.append(f"{a} = {{ drop = true }}   # ? changes nothing")
        else:
            picks = sorted(_picks(states[at[0]], picks_var))
            made = ", ".join(f"{{{p}}}" for p in picks) or "none"
            out.append(f"{a} = {{ move = {Q} }}   # ? our move; its picks: {made}; and the variables before it")
    out.append("# Actions this trace never takes are not listed: add them (each must be in [moves]).")
    return out + [""]


def _deal_block(picks0: dict[str, Any], players: int | None, names: _Names) -> list[str]:
    pick, value = next(iter(picks0.items()))
    levels, leaf = _nesting(value, players)
    if isinstance(leaf, (list, tuple)) and leaf and not isinstance(leaf[0], (dict, list, tuple)):
        levels.append("seat" if "seat" not in levels else f"level{len(levels)}")
        leaf = leaf[0]
    table = names.table_of([leaf]) if isinstance(leaf, str) else None
    shown = f"{{value:{table}}}" if table else BLANK
    return ["[deal]   # ? the first step picked " + pick + ": is it the deal of the hidden sides?",
            f"pick = {_toml(pick)}", f"levels = {_toml(levels)}",
            f"key = {Q}          # ? our place from the levels, e.g. \"{{seat}}.{{slot:slot}}\"",
            f"value = {_toml(shown)}",
            f"chance_move = {Q}  # ? our chance move showing it, e.g. \"reveal {{key}} {{value}}\"",
            ""]
