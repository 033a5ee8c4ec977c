"""Translating a foreign trace through a mapping into a trace document of our own form.

What a foreign trace does not carry is not invented: the translated document leaves out what
the source did not say (probabilities, legal moves, an outcome it does not record), the
verifier checks what is there, and :class:`Translation` lists what could not be checked, with
what our rules compute in its place.  Steps the mapping drops are not skipped unseen: each
must leave our state variables as they were (:attr:`Translation.stutters`), and a step that
says the game is over puts that claim on our state (``to_move`` TERMINAL, dishes.end.no-moves
for Dishes), where the verifier checks it.
"""

from __future__ import annotations

import json
import string
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tablerules.model import registry
from tablerules.model.core import (
    CHANCE, TERMINAL, IllegalMove, MoveSyntaxError, RuleGap, SetupError, actor_text, options_text, parse_options,
)

from .. import FORMAT_VERSION, ITF_DESCRIPTION, components_meta, encode, fraction_text
from .files import Mapping, resolve, trace_vars
from .templates import fill, name_text, template_pattern
from .values import MappingError, MapPairs, Variant, describe, is_map, read_value, walk


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
    over_from: tuple[int, int] | None = None
    """(our step, trace state) of the first step that says the game is over."""
    stutters: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)
    """(our step, trace state, our variables there) for a dropped step whose variables differ
    from those of the step before it: the verifier checks them as the state after our step."""

    def where(self, step: int, outcome: bool = False) -> str:
        """` (trace state 7, action placePile)`: where our step ``step`` comes from; for the
        outcome, the trace state that records it."""
        if outcome and self.outcome_from is not None:
            return f" (the outcome recorded at trace state {self.outcome_from}{self._action(self.outcome_from)})"
        if self.over_from is not None and step == self.over_from[0]:
            j = self.over_from[1]
            return f" (the end of the game claimed at trace state {j}{self._action(j)})"
        if not 0 <= step < len(self.origin):
            return ""
        return f" (trace state {self.origin[step]}{self._action(self.origin[step])})"

    def _action(self, j: int) -> str:
        return f", action {self.actions[j]}" if j < len(self.actions) and self.actions[j] else ""

    def stutter_document(self, k: int) -> dict[str, Any]:
        """Our document with the variables of the k-th changed dropped step as the state after its step."""
        step, _, found = self.stutters[k]
        states = list(self.document["states"])
        states[step] = {"#meta": states[step]["#meta"], **found}
        return {**self.document, "states": states}

    def stutter_where(self, k: int) -> str:
        _, j, _ = self.stutters[k]
        return (f" (trace state {j}{self._action(j)}: a step mapping {self.mapping.name} drops, so it must change "
                "nothing)")


class _Trace:
    """The foreign trace's states, read on demand."""

    def __init__(self, document: dict[str, Any], mapping: Mapping) -> None:
        states = document.get("states")
        if not isinstance(states, list) or not states or not all(isinstance(s, dict) for s in states):
            raise MappingError("$.states: missing, empty or not a list of objects")
        self.states = states
        self.mapping = mapping
        self.names = trace_vars(document)
        self.var_of = {short: resolve(short, self.names) for short in mapping.used_vars()}

    def has(self, short: str) -> bool:
        return self.var_of.get(short) is not None

    def get(self, i: int, short: str) -> Any:
        var = self.var_of.get(short) if short in self.var_of else resolve(short, self.names)
        if var is None or var not in self.states[i]:
            raise MappingError(f"$.states[{i}]: no variable {short!r} (mapping {self.mapping.name} needs it)")
        return read_value(self.states[i][var], f"$.states[{i}][{var!r}]")

    def short_vars(self, i: int) -> dict[str, Any]:
        """Every variable of state i under its short name (for move templates)."""
        out = {}
        for var in self.names:
            if var in self.states[i] and not var.startswith("mbt::"):
                out[var.rsplit("::", 1)[-1]] = read_value(self.states[i][var], f"$.states[{i}][{var!r}]")
        return out


def _players(trace: _Trace, m: Mapping) -> int:
    if m.players_length_of:
        value = trace.get(0, m.players_length_of)
        if not isinstance(value, (list, tuple)) or not value:
            raise MappingError(f"$.states[0].{m.players_length_of}: mapping {m.name} [players].length_of counts "
                               f"players by its length, but the trace holds {describe(value)} there")
        return len(value)
    value = trace.get(0, m.players_keys_of)
    if not is_map(value):
        raise MappingError(f"$.states[0].{m.players_keys_of}: mapping {m.name} [players].keys_of needs a map, but the "
                           f"trace holds {describe(value)} there (for a list per player give length_of instead)")
    seen = {repr(k.get(m.players_field)) for k, _ in value if isinstance(k, dict) and m.players_field in k}
    if not seen:
        raise MappingError(f"$.states[0].{m.players_keys_of}: no keys with a field {m.players_field!r} to count "
                           f"players by ([players].field; its keys are {describe(value[0][0]) if value else 'none'})")
    return len(seen)


def _same(a: Any, b: Any) -> bool:
    """Equal, or equal as names (a tag and the string of it, a TOML ``false`` and a trace's)."""
    return a == b or (name_text(a) is not None and name_text(a) == name_text(b))


def _member(leaf: Any, test: tuple[str, Any] | None) -> bool:
    """A value whose items all have field == value (``member_if``; a clean tile lying alone)."""
    if test is None or not isinstance(leaf, (list, tuple)) or not leaf:
        return False
    name, want = test
    return all(isinstance(it, dict) and name in it and _same(it[name], want) for it in leaf)


def _our_vars(trace: _Trace, i: int, m: Mapping) -> dict[str, Any]:
    """Our state variables at trace state i, as the mapping builds them (ITF-encoded)."""
    out: dict[str, Any] = {}
    for rule in m.states:
        value = trace.get(i, rule.var)
        if not rule.levels:
            out[rule.ours] = _copied(value, f"$.states[{i}].{rule.var}: mapping {m.name} [state.{rule.ours}].var")
            continue
        where = f"$.states[{i}].{rule.var}"
        rw = f"mapping {m.name} [state.{rule.ours}]"
        members = trace.get(i, rule.members_of) if rule.members_of else []
        built: dict[str, Any] = {}
        for bound, key, leaf in walk(value, rule.levels, where, f"{rw}.levels"):
            text = fill(rule.key, bound, f"{where}: {rw}.key", m.names, m.tags)
            if text in built:
                raise MappingError(f"{where}: {rw}.key gives {text!r} for two places (make the key tell them apart)")
            if (rule.members_of and key in members) or _member(leaf, rule.member_if):
                built[text] = rule.member_value
                continue
            items = leaf if isinstance(leaf, (list, tuple)) and not is_map(leaf) else [leaf]
            built[text] = [_item(rule, it, f"{where}: {rw}.item", m) for it in items]
        out[rule.ours] = encode(built)
    return out


def _copied(value: Any, where: str) -> Any:
    """A variable copied as it is (numbers, strings, booleans, lists, records of them), ITF-encoded."""
    if isinstance(value, (Variant, MapPairs)):
        raise MappingError(f"{where}: copies the variable as it is, but the trace holds {describe(value)} there "
                           "(walk it with levels and templates instead)")
    for inner in value if isinstance(value, (list, tuple)) else value.values() if isinstance(value, dict) else ():
        _copied(inner, where)
    return encode(value)


def _item(rule: Any, item: Any, where: str, m: Mapping) -> str:
    """One item of a walked value through the rule's ``item`` template (a record's fields, or ``{item}``)."""
    if isinstance(item, dict):
        return fill(rule.item, item, where, m.names, m.tags)
    wanted = sorted({name.split("[", 1)[0] for _, name, _, _ in string.Formatter().parse(rule.item) if name} - {"item"})
    if wanted:
        raise MappingError(f"{where} needs fields {', '.join(wanted)}, but an item there is {describe(item)} "
                           f"(check {where.rsplit(': ', 1)[-1].rsplit('.', 1)[0]}.levels)")
    return fill(rule.item, {"item": item}, where, m.names, m.tags)


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
        raise MappingError(f"$.states[{i}].{m.outcome_var}: the outcome is not a record ({describe(value)})")
    out: dict[str, Any] = {}
    for ours, theirs in (("losers", m.outcome_losers), ("winners", m.outcome_winners), ("scores", m.outcome_scores)):
        if theirs:
            if theirs not in value:
                raise MappingError(f"$.states[{i}].{m.outcome_var}: no field {theirs!r} (mapping {m.name} "
                                   f"[outcome].{ours}; the record has {', '.join(sorted(value))})")
            v = value[theirs]
            if ours == "scores" and is_map(v):
                v = [s for _, s in sorted(v)]  # a map seat -> count, as a list by seat
            out[ours] = sorted(v) if ours != "scores" else list(v)
    return out


def _deal(trace: _Trace, i: int, m: Mapping) -> dict[str, str]:
    """Key text -> value text of the deal: the variable at trace state i, or the first step's pick."""
    if m.deal_pick:
        picks = _picks(trace, 0, m)
        if m.deal_pick not in picks:
            raise MappingError(f"$.states[0].{m.picks_var}: mapping {m.name} [deal].pick reads the pick "
                               f"{m.deal_pick!r}, which the first step did not make (it made: "
                               f"{', '.join(sorted(picks)) or 'none'})")
        value, where = picks[m.deal_pick], f"$.states[0].{m.picks_var}.{m.deal_pick}"
    else:
        value, where = trace.get(i, m.deal_var), f"$.states[{i}].{m.deal_var}"
    out = {}
    dw = f"mapping {m.name} [deal]"
    for bound, _, leaf in walk(value, m.deal_levels, where, f"{dw}.levels"):
        k = fill(m.deal_key, bound, f"{where}: {dw}.key", m.names, m.tags)
        out[k] = fill(m.deal_value, {"value": leaf, **(leaf if isinstance(leaf, dict) else {})},
                      f"{where}: {dw}.value", m.names, m.tags)
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
            given = sorted(deal)
            shown = ", ".join(given[:12]) + (f", ... ({len(given)} in all)" if len(given) > 12 else "")
            raise MappingError(f"$.states[{i}]: the deal gives nothing for {key!r} (mapping {self.m.name} [deal].key "
                               f"= {self.m.deal_key!r} gives {shown or 'nothing'})")
        text = fill(self.m.deal_chance_move, {"key": key, "value": deal[key]},
                    f"mapping {self.m.name}: [deal].chance_move")
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
    for key, short in [("[moves].action_var", m.action_var), *((f"[state.{s.ours}].var", s.var) for s in m.states)]:
        if not trace.has(short):
            shown = ", ".join(trace.names[:10]) + (", ..." if len(trace.names) > 10 else "")
            raise MappingError(f"$.vars: no variable {short!r}, which mapping {m.name} reads ({key}; the trace has "
                               f"{shown or 'none'})")
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
    states: list[dict[str, Any]] = [{"#meta": {"index": 0}, **_at(tr, 0, lambda: _our_vars(trace, 0, m))}]
    tr.origin = [0]
    dropped: dict[str, int] = {}
    outcome_at: int | None = None
    for i in range(1, len(trace.states)):
        action = tr.actions[i]
        rule = m.moves.get(action)
        if rule is None:
            known = ", ".join(sorted(m.moves))
            raise MappingError(f"$.states[{i}]: action {action!r} is not in mapping {m.name} [moves] (known: {known})")
        recorded = _at(tr, i, lambda: _outcome(trace, i, m))
        if rule.stutters or rule.start:
            dropped[action] = dropped.get(action, 0) + 1
            _stutter(tr, states, i, rule, _at(tr, i, lambda: _our_vars(trace, i, m)))
        else:
            _step(tr, states, trace, replay, i, rule)
        if recorded is not None and outcome_at is None:
            states[-1]["#meta"]["outcome"], outcome_at = recorded, len(states) - 1
            tr.outcome_from = i
        if not replay.on:
            break  # the verifier stops at this step; nothing after it can be checked
    tr.document = {"#meta": _meta(document, m, setup), "vars": sorted({k for s in states for k in s if k != "#meta"}),
                   "states": states}
    _account(tr, trace, replay, dropped, outcome_at)
    return tr


def _at(tr: Translation, i: int, work: Any) -> Any:
    """``work()``, a MappingError from it saying which trace state and action it met."""
    try:
        return work()
    except MappingError as e:
        raise MappingError(f"{e} (trace state {i}{tr._action(i)}), as translated through mapping "
                           f"{tr.mapping.name}") from None


def _step(tr: Translation, states: list[dict[str, Any]], trace: _Trace, replay: _Replay, i: int, rule: Any) -> None:
    """Our move (and the chance events the deal then gives) for the trace's step into state i."""
    m = tr.mapping
    fields = {**trace.short_vars(i - 1), **_picks(trace, i, m)}
    texts = [_at(tr, i, lambda: fill(rule.move, fields, f"mapping {m.name} [moves].{rule.action}.move", m.names,
                                     m.tags))]
    replay.play(texts[0])
    deal = _at(tr, i, lambda: _deal(trace, i - 1, m)) if (m.deal_var or m.deal_pick) else {}
    while (chance := _at(tr, i, lambda: replay.chance_from(deal, i))) is not None:
        texts.append(chance)
        replay.play(chance)
    ours = _at(tr, i, lambda: _our_vars(trace, i, m))
    for k, text in enumerate(texts):
        entry: dict[str, Any] = {"#meta": {"index": len(states), "move": text}}
        if k == len(texts) - 1:
            entry.update(ours)
        states.append(entry)
        tr.origin.append(i)


def _stutter(tr: Translation, states: list[dict[str, Any]], i: int, rule: Any, found: dict[str, Any]) -> None:
    """A dropped step: our variables must be as after the last step kept; an ``over`` step
    also says the game is over there."""
    last = states[-1]
    before = {k: v for k, v in last.items() if k != "#meta"}
    if before and json.dumps(found, sort_keys=True) != json.dumps(before, sort_keys=True) and not tr.stutters:
        tr.stutters.append((len(states) - 1, i, found))
    if rule.over and tr.over_from is None:
        last["#meta"]["to_move"] = actor_text(TERMINAL)
        tr.over_from = (len(states) - 1, i)


def _action(trace: _Trace, i: int, m: Mapping) -> str:
    value = trace.get(i, m.action_var)
    if not isinstance(value, str):
        raise MappingError(f"$.states[{i}].{m.action_var}: not an action name ({describe(value)})")
    return value


def _picks(trace: _Trace, i: int, m: Mapping) -> dict[str, Any]:
    """The nondet picks of the step into state i that were made (Quint: ``Some(value)``)."""
    if not m.picks_var or not trace.has(m.picks_var):
        return {}
    picks = trace.get(i, m.picks_var)
    if not isinstance(picks, dict):
        raise MappingError(f"$.states[{i}].{m.picks_var}: not a record of picks ({describe(picks)})")
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
        rule = m.moves[action]
        if not rule.start:
            said = "over = true: the game is over" if rule.over else "drop = true"
            tr.notes.append(f"dropped {n} {action} step{'s' if n != 1 else ''} (mapping {m.name}: {said}; "
                            "checked to change nothing)")
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
    if (m.deal_var or m.deal_pick) and replay.on:
        dealt = len(_deal(trace, 0, m))
        if dealt > replay.chance_steps:
            tr.unchecked.append(f"the colours dealt to {dealt - replay.chance_steps} tiles that were never turned")
    if not replay.on:
        return
    actor = rules.to_move(replay.state)
    if actor is not TERMINAL:
        if tr.over_from is None:
            tr.unchecked.append("the outcome: the trace stops before the end of the game")
            tr.document["#meta"]["capped"] = True  # a game cut short, said so: not a game that ends mid-play
    elif outcome_at is None:
        try:
            summary = rules.outcome(replay.state).summary()
        except RuleGap as gap:
            summary = f"a rule gap ({gap.ruling})"
        tr.unchecked.append(f"the outcome: the trace records none; ours is {summary}")
