"""The verifier: replay a trace written by any engine against our rules.

This module is the one place where the verifier's rules live.  :func:`check_trace` takes a
parsed trace document (see :mod:`tablerules.vectors.itf`) and applies them in this order; the
command line (and a reader of traces from other tools, through a mapping applied first)
calls nothing else.

**A. Reading** (exit status 2, one line naming the JSON path).  The file is refused, before
any move is replayed, unless:

1. ``format_version`` is ours (read first, so that a file of another version is refused for
   that), and the document has the form spec/itf-trace.schema.json gives a trace, checked
   with fastjsonschema: the top level, the trace ``#meta`` and every state's ``#meta`` hold
   only the keys the schema names, each of its form; ``format`` is ``"ITF"``; ``params`` is
   empty and ``loop`` absent or null (a game has no parameters and does not loop); values
   are in ITF's encodings;
2. ``ruleset`` names a rule set, ``players`` a player count it allows, every ``options`` key
   a ruling (with one of its alternatives) or an optional rule (with true or false), and
   the ``components`` load (by argument or name, or from ``--deck``) with the same digest;
3. ``vars`` lists distinct state variables of the rule set, each held by some state, and no
   state holds a variable it does not list (a state may leave some out: only what it holds
   is compared);
4. every state's ``index`` is its position; every state after the first names its ``move``
   and the first names none; ``steps`` is the number of moves; ``rule_gap`` appears on the
   last state only;
5. every value has the type our state has there (a number where we have a number, a map
   where we have a map): a wrong type is a file we cannot compare, not a wrong move.

**B. Replaying** (exit status 1, one line naming the step, JSON path, what our rules expect,
what the file says, and the clause).  From the start, move after move:

1. the move is legal for the seat to move (the clause that forbids it), or a possible
   chance outcome (the possible ones are listed) with the stated ``probability``; no move
   after the end; ``actor`` is who moved;
2. the state after it equals ours (the clause of the step; a wrong ``turn`` the clause that
   says whose turn it is);
3. ``to_move``, ``legal_moves`` (as a set) or ``chance_outcomes``, their counts, the
   ``outcome`` (winners, losers, draw, scores, clause, summary), a ``rule_gap`` and the
   ``clauses`` each state claims equal ours;
4. the trace ends where the game ends (or where a strict ruling raises its gap), unless
   ``capped`` is true: otherwise "game not finished at step N"; and ``capped`` is not true
   of a trace that ends where the game ends ("capped, but the game is over at step N");
5. the trace's ``rule_gap`` and ``clauses`` agree with its states.

``spec_digest`` is compared with this version's spec, and a difference is a note, not a
failure (the rules may not have changed).  ``description``, ``source``, ``note``,
``generator`` and ITF's ``timestamp`` and ``varTypes`` record provenance: their form is
checked, their content cannot be.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources
from typing import Any, Callable

import fastjsonschema

from tablerules.model import registry
from tablerules.model.core import (
    CHANCE, TERMINAL, IllegalMove, MoveSyntaxError, RuleGap, RuleSet, Setup, SetupError, actor_text, parse_options,
    ruling_fields, short_ruling_name, variant_fields,
)

from . import coverage
from ..console import plural
from .itf import (
    FORMAT_VERSION, MAX_FILE_BYTES, MISSING, VectorError, decode, fraction_text, json_kind,
    load_document, normal, parse_probability, path_key, show,
)
from .recording import spec_digest

# --------------------------------------------------------------------------- what a file may hold

SCHEMA_FILE = "itf-trace.schema.json"
"""The form of a trace (rules A.1 and A.4) in ``tablerules.spec``: the one description of it,
published for other engines and checked here."""

TYPE_WORDS = {"string": "a string", "integer": "a whole number", "number": "a number", "boolean": "true or false",
              "object": "an object", "array": "a list", "null": "null"}


@functools.cache
def trace_schema() -> dict[str, Any]:
    """spec/itf-trace.schema.json as it ships with the package."""
    return json.loads(resources.files("tablerules.spec").joinpath(SCHEMA_FILE).read_text(encoding="utf-8"))


def _no_remote(uri: str) -> Any:
    raise VectorError(f"the trace schema refers to {uri}: it may refer only to itself")


@functools.cache
def _validator() -> Callable[[Any], Any]:
    """The trace schema compiled to Python once by fastjsonschema (never fetching a remote ``$ref``)."""
    return fastjsonschema.compile(_draft7(trace_schema()), handlers={"http": _no_remote, "https": _no_remote},
                                  use_default=False)


def _draft7(node: Any) -> Any:
    """The schema in draft 7's words, which mean the same: 2020-12's ``prefixItems`` as a list-valued
    ``items``, ``dependentSchemas`` and ``dependentRequired`` as ``dependencies``."""
    # fastjsonschema implements drafts 4 to 7 and ignores the 2020-12 words (tests/tool/test_vectors.py shows it)
    if isinstance(node, list):
        return [_draft7(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: _draft7(v) for k, v in node.items() if k not in ("prefixItems", "dependentSchemas", "dependentRequired")}
    if "prefixItems" in node:
        if "items" in out:
            out["additionalItems"] = out["items"]
        out["items"] = _draft7(node["prefixItems"])
    if "dependentSchemas" in node or "dependentRequired" in node:
        out["dependencies"] = {**_draft7(node.get("dependentSchemas", {})), **node.get("dependentRequired", {})}
    return out


def check_form(doc: Any) -> None:
    """Rules A.1 and A.4: the document has the form spec/itf-trace.schema.json gives a trace, or
    VectorError names the first JSON path it does not, what the schema expects there and what
    the file has."""
    # about 30% of check_trace on the golden set: the price of checking against one schema (benchmarks/trace_schema.py)
    try:
        _validator()(doc)
    except fastjsonschema.JsonSchemaValueException as e:
        raise VectorError(schema_message(e, doc)) from None


def schema_message(error: fastjsonschema.JsonSchemaValueException, doc: Any) -> str:
    """fastjsonschema's refusal as our one line: the JSON path, what is expected there, what is found."""
    name = (error.name or "data").removeprefix("data")
    path, value = _locate(doc, name, "$") or ("$" + name, error.value)
    rule, schema = error.rule, error.definition or {}
    if rule == "additionalProperties":
        known = schema.get("properties", {})
        extra = next(k for k in value if k not in known)
        return f"{path}{_key(extra)}: unknown key (known: {', '.join(known)})"
    if rule == "required":
        key = next(k for k in schema["required"] if k not in value)
        return f"{path}{_key(key)}: missing (expected {expected_words(schema.get('properties', {}).get(key, {}))})"
    if rule == "propertyNames":
        names = schema["propertyNames"]
        key = next(k for k in value if not _fits(names, k))
        return f"{path}: expected keys that are {expected_words(names)}, found key {show(key, 60)}"
    if rule == "uniqueItems":
        twice = next(v for i, v in enumerate(value) if v in value[:i])
        return f"{path}: expected no item listed twice, found {show(twice, 60)} twice"
    return f"{path}: expected {expected_words(schema)}, found {show(value, 60)}"


def _locate(value: Any, name: str, path: str) -> tuple[str, Any] | None:
    """(our JSON path, the value) of fastjsonschema's ``name`` (``.states[3].#meta``, keys not
    quoted), matched against the document's own keys."""
    if not name:
        return path, value
    if isinstance(value, list) and name.startswith("["):
        index, _, rest = name[1:].partition("]")
        if index.isdigit() and int(index) < len(value):
            return _locate(value[int(index)], rest, f"{path}[{index}]")
    if isinstance(value, dict) and name.startswith("."):
        for key in sorted((k for k in value if name[1:].startswith(k)), key=len, reverse=True):
            found = _locate(value[key], name[1 + len(key):], path + _key(key))
            if found:
                return found
    return None


def _fits(schema: dict[str, Any], value: Any) -> bool:
    try:
        fastjsonschema.validate(schema, value, use_default=False)
    except fastjsonschema.JsonSchemaValueException:
        return False
    return True


def expected_words(schema: dict[str, Any]) -> str:
    """What a schema asks for, in words: its ``title`` where it has one, else read from its keywords."""
    if "title" in schema:
        return schema["title"]
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return _either([str(v) for v in schema["enum"]])
    if "oneOf" in schema or "anyOf" in schema:
        return _either([expected_words(s) for s in schema.get("oneOf", schema.get("anyOf"))])
    types = schema.get("type", [])
    words = _either([TYPE_WORDS[t] for t in ([types] if isinstance(types, str) else types)]) or "a value"
    if "minimum" in schema and "maximum" in schema:
        words += f" from {schema['minimum']} to {schema['maximum']}"
    elif "minimum" in schema or "maximum" in schema:
        words += f" >= {schema['minimum']}" if "minimum" in schema else f" <= {schema['maximum']}"
    if "pattern" in schema:
        words += f" matching {schema['pattern']}"
    if "maxLength" in schema:
        words += f" of at most {schema['maxLength']:,} characters"
    if schema.get("minItems") is not None and schema.get("minItems") == schema.get("maxItems"):
        words += f" of {schema['minItems']} items"
    return words


def _either(words: list[str]) -> str:
    """`a, b or c`."""
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else "".join(words)


VAR_CLAUSES: dict[str, dict[str, tuple[str, str]]] = {
    "dishes": {"turn": ("dishes.play.first-player", "dishes.play.clockwise")},
    "just-desserts": {"turn": ("jd.first.player", "jd.discard.turn-ends")},
}
"""The clause to name when a state variable is wrong: (in the start state, after a move).
Variables not listed name the clause of the step that led there."""


def _key(key: str) -> str:
    """A key in a JSON path: `.players`, `["format-description"]`, and `['#meta']` as the docs write it."""
    return "['#meta']" if key == "#meta" else path_key(key)


# --------------------------------------------------------------------------- findings


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
        return (f"{where}step {self.step}{move}: {what}{self.path}: expected {show(self.expected)}, "
                f"found {show(self.found)} [clause {self.clause or 'none'}]")

    def to_json(self) -> dict[str, Any]:
        def value(v: Any) -> Any:
            return None if v is MISSING else json.loads(json.dumps(_jsonable(v), default=str))

        return {"step": self.step, "path": self.path, "what": self.what, "move": self.move or None,
                "expected": value(self.expected), "found": value(self.found), "clause": self.clause or None}


def _jsonable(value: Any) -> Any:
    from .itf import plain

    return plain(value)


@dataclass
class Verdict:
    """What :func:`check_trace` found: a clean trace (``finding`` None) or the first finding."""

    ruleset: str
    players: int
    steps: int
    """The moves the trace holds."""
    finding: Finding | None = None
    notes: list[str] = field(default_factory=list)
    replayed: int = 0
    """The moves replayed and found to agree with the rules before the finding (all of them for a
    clean trace): what "steps replayed" counts."""

    @property
    def status(self) -> int:
        return 0 if self.finding is None else 1


# --------------------------------------------------------------------------- differences between values


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


KIND_WORDS = {"none": "no value", "bool": "true or false", "int": "a whole number", "str": "a string",
              "list": "a list", "tuple": "a tuple (#tup)", "set": "a set (#set)", "map": "a map or record"}
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


SCALARS = ("bool", "int", "str")


def type_problem(ours: Any, found: Any, path: str) -> str | None:
    """Where ``found`` has another type than our value (exit status 2): a string for a number,
    a list for a map, a list for a tuple.  A scalar against a container is not judged a type
    error, because some positions hold either (a Dishes place is ``"clean"`` or a stack);
    ``None`` on either side is a value.  Lists are checked element by element against our
    elements' type; maps key by key where both have the key."""
    ko, kf = _kind(ours), _kind(found)
    if "none" in (ko, kf):
        return None
    if ko != kf and ((ko in SCALARS) == (kf in SCALARS)):
        return f"{path}: expected {KIND_WORDS.get(ko, ko)}, found {KIND_WORDS.get(kf, kf)} {show(found, 60)}"
    if ko != kf:
        return None
    if ko == "map":
        for k in ours:
            if k in found:
                problem = type_problem(ours[k], found[k], path + path_key(k))
                if problem:
                    return problem
    elif ko == "tuple":
        for i, (o, f) in enumerate(zip(ours, found)):
            problem = type_problem(o, f, f"{path}[{i}]")
            if problem:
                return problem
    elif ko in ("list", "set") and ours:
        items = list(ours)
        if all(_kind(x) == _kind(items[0]) for x in items):  # a list of one kind: every element of that kind
            pairs = [(items[0], f) for f in (found if ko == "list" else sorted(found, key=repr))]
        elif ko == "list":  # mixed kinds (a record written as a list): position by position
            pairs = list(zip(items, found))
        else:
            pairs = []
        for i, (o, f) in enumerate(pairs):
            problem = type_problem(o, f, f"{path}[{i}]")
            if problem:
                return problem
    return None


# --------------------------------------------------------------------------- the setup a trace describes


@dataclass
class Replay:
    """What verify needs from a document's #meta: the rules and the setup."""

    rules: RuleSet
    setup: Setup


def setup_from_meta(meta: Any, deck: str | None = None) -> Replay:
    """The RuleSet and Setup a trace's #meta describes; VectorError (one line) if it cannot be rebuilt.

    The #meta is checked against the trace schema as the #meta of a trace with no states."""
    _check_version(meta)
    check_form({"#meta": meta, "vars": [], "states": []})
    return _setup(meta, deck)


def _check_version(meta: Any) -> None:
    """Rule A.1's ``format_version``, read before the schema: a file of another version is refused for that."""
    version = meta.get("format_version") if isinstance(meta, dict) else None
    if not isinstance(version, str) or version == FORMAT_VERSION:
        return
    if not version.startswith("tablerules-itf/"):
        raise VectorError(f"$['#meta'].format_version: unknown format {show(version, 60)} "
                          f"(this reader takes {FORMAT_VERSION})")
    raise VectorError(f"$['#meta'].format_version: {version!r} is newer or older than {FORMAT_VERSION}")


def _setup(meta: dict[str, Any], deck: str | None) -> Replay:
    """Rule A.2 for a #meta of the schema's form."""
    rid = meta["ruleset"]
    try:
        rules = registry.get(rid)
    except SetupError as e:
        raise VectorError(f"$['#meta'].ruleset: {e}") from None
    except Exception as e:  # noqa: BLE001 - a rule set that does not import is not the file's fault: we cannot read it
        raise VectorError(f"$['#meta'].ruleset: rule set {rid!r} is not available ({type(e).__name__}: {e})") from None
    options = _options_from_meta(rules, meta.get("options", {}))
    components = _components_from_meta(rules, meta.get("components"), deck)
    try:
        setup = rules.setup(int(meta["players"]), options, components)  # the schema's integer may be written 3.0
    except SetupError as e:
        raise VectorError(f"$['#meta']: {e}") from None
    return Replay(rules, setup)


def _options_from_meta(rules: RuleSet, options: dict[str, Any]) -> Any:
    rulings = ruling_fields(rules.Options)
    short = {short_ruling_name(r): r for r in rulings}
    variants = variant_fields(rules.Options)
    pairs, on = [], []
    for key, value in options.items():
        where = f"$['#meta'].options[{json.dumps(key)}]"
        if key in variants:
            if not isinstance(value, bool):
                raise VectorError(f"{where}: an optional rule is true or false, found {show(value, 60)}")
            if value:
                on.append(key)
        elif key in rulings or key in short:
            alternatives = ruling_fields(rules.Options)[short.get(key, key)].metadata["alternatives"]
            if not isinstance(value, str):
                raise VectorError(f"{where}: expected one of {', '.join(alternatives)}, found {show(value, 60)}")
            pairs.append(f"{key}={value}")
        else:
            known = sorted(rulings) + sorted(variants)
            raise VectorError(f"{where}: unknown ruling or option for {rules.id} (known: {', '.join(known) or 'none'})")
    try:
        return parse_options(rules.Options, pairs, variants=on)
    except SetupError as e:
        raise VectorError(f"$['#meta'].options: {str(e).replace('--ruling ', '').replace('--option ', '')}") from None


def _components_from_meta(rules: RuleSet, comp: dict[str, Any] | None, deck: str | None) -> Any:
    """Components named by the file (argument, else name), or given by --deck; digests must agree."""
    if comp is None and deck is None:
        return None
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
        raise VectorError(
            f"$['#meta'].components: cannot load {show(comp.get('name'), 60)}{detail} (give the file with --deck)"
        )
    want = comp.get("digest")
    if isinstance(want, str) and callable(getattr(loaded, "digest", None)) and loaded.digest() != want:
        raise VectorError(f"$['#meta'].components.digest: the file's components {want!r} differ from "
                          f"{loaded.name!r} ({loaded.digest()!r}); give the right file with --deck")
    return loaded


# --------------------------------------------------------------------------- A. reading


def _check_states(doc: dict[str, Any], rules: RuleSet, setup: Setup) -> tuple[list[dict[str, Any]], list[str] | None]:
    """Rules A.3 and A.4 beyond the schema's form: the variables are the rule set's, the
    indexes and moves are where a trace has them; (states, vars)."""
    states = doc["states"]
    try:
        known = set(rules.state_vars(rules.new_game(setup)))
    except RuleGap:
        known = set()
    rule_set = f"{rules.id} (known: {', '.join(sorted(known))})"
    declared = doc.get("vars")
    if declared is not None:
        for name in declared:
            if known and name not in known:
                raise VectorError(f"$.vars: {name!r} is not a state variable of {rule_set}")
    moves = 0
    for i, entry in enumerate(states):
        where = f"$.states[{i}]"
        meta = entry.get("#meta", {})
        if "index" in meta and meta["index"] != i:
            raise VectorError(f"{where}['#meta'].index: {meta['index']} is not the state's position {i}")
        if i > 0 and "move" not in meta:
            raise VectorError(f"{where}['#meta'].move: missing "
                              "(every state after the first needs the move that led to it)")
        if i == 0 and ("move" in meta or "actor" in meta or "probability" in meta):
            raise VectorError(f"{where}['#meta']: the first state is the start: it has no move, actor or probability")
        names = [k for k in entry if k != "#meta"]
        for name in names:
            if known and name not in known:
                raise VectorError(f"{where}{path_key(name)}: unknown state variable for {rule_set}")
            if declared is not None and name not in declared:
                raise VectorError(f"{where}{path_key(name)}: not listed in $.vars")
        moves += i > 0
    if declared is not None:
        unused = [v for v in declared if not any(v in entry for entry in states)]
        if unused:
            raise VectorError(f"$.vars: no state holds {unused[0]!r}")
    steps = doc["#meta"].get("steps")
    if steps is not None and steps != moves:
        raise VectorError(f"$['#meta'].steps: {steps} moves claimed, the trace holds {moves}")
    return states, declared


# --------------------------------------------------------------------------- B. replaying


def check_trace(doc: dict[str, Any], deck: str | None = None) -> Verdict:
    """Check a parsed trace document against our rules (see the module docstring).

    Returns the Verdict (clean, or the first finding: exit status 1); raises VectorError
    (exit status 2) for a document that is not a trace we can check.
    """
    if not isinstance(doc, dict):
        raise VectorError(f"expected a JSON object (an ITF trace), found {json_kind(doc)}")
    _check_version(doc.get("#meta"))
    check_form(doc)
    replay = _setup(doc["#meta"], deck)
    rules, setup = replay.rules, replay.setup
    meta = doc["#meta"]
    states, _ = _check_states(doc, rules, setup)
    verdict = Verdict(rules.id, setup.players, max(0, len(states) - 1))
    digest = meta.get("spec_digest")
    if digest is not None and digest != spec_digest(rules.id):
        verdict.notes.append("written from another version of the spec (spec_digest differs)")
    agreed: list[int] = []
    verdict.finding = _replay(rules, setup, meta, states, agreed)
    verdict.replayed = len(agreed)
    return verdict


def _replay(rules: RuleSet, setup: Setup, meta: dict[str, Any], states: list[dict[str, Any]],
            agreed: list[int] | None = None) -> Finding | None:
    """The first finding of the replay, or None; ``agreed`` collects the steps that replayed and
    agreed with the rules."""
    agreed = [] if agreed is None else agreed
    gap_claim = meta.get("rule_gap")
    try:
        state = rules.new_game(setup)
    except RuleGap as gap:
        if states:
            return Finding(0, "$.states[0]", f"no game: the rules are silent at the start ({gap.ruling})", "a game",
                           gap.ruling, what="rule gap at the start")
        return _check_start_gap(rules, setup, gap_claim)
    if not states:
        if gap_claim is not None:
            return _check_start_gap(rules, setup, gap_claim)
        raise VectorError("$.states: empty (a trace holds at least the start)")
    clauses = coverage.start_clauses(rules, state)
    seen: list[str] = []
    move = ""
    for i, entry in enumerate(states):
        smeta = entry.get("#meta", {})
        if i > 0:
            step = _step(rules, state, smeta, i)
            if isinstance(step, Finding):
                return step
            state, clauses = step
        move = smeta.get("move", "")
        problem = _compare_state(rules, state, entry, smeta, i, clauses)
        if problem:
            return problem
        if i > 0:
            agreed.append(i)
        seen += [c for c in clauses if c not in seen]
    last = len(states) - 1
    return (_check_finished(rules, state, states[last].get("#meta", {}), meta, last, move)
            or _check_trace_claims(rules, state, meta, states, seen, last, move))


def _check_start_gap(rules: RuleSet, setup: Setup, claim: dict[str, Any] | None) -> Finding | None:
    """A trace with no states whose #meta says the setup itself is a rule gap."""
    try:
        rules.new_game(setup)
    except RuleGap as gap:
        if claim is None:
            return Finding(0, "$['#meta'].rule_gap", {"ruling": gap.ruling, "at": "new game"}, MISSING, gap.ruling,
                           what="the rules are silent at the start")
        if claim.get("ruling") == gap.ruling:
            return None
        return Finding(0, "$['#meta'].rule_gap.ruling", gap.ruling, claim.get("ruling", MISSING), gap.ruling,
                       what="a different rule gap at the start")
    return Finding(0, "$['#meta'].rule_gap", "a game (the rules say how to set it up)", claim, "",
                   what="no rule gap at the start")


def _step(rules: RuleSet, state: Any, meta: dict[str, Any], i: int) -> Any:
    """The state after the move recorded at states[i], or the Finding that forbids it (rule B.1)."""
    text = meta["move"]
    mpath = f"$.states[{i}]['#meta'].move"
    try:
        move = rules.parse_move(text, state.setup)
    except MoveSyntaxError as e:
        raise VectorError(f"{mpath}: {str(e).splitlines()[0] if str(e) else 'not a move'}") from None
    missing = rules.absent(move, state.setup)
    if missing is not None:
        return Finding(i, mpath, "a move of this table", text, missing[0], text, missing[1])
    try:
        actor = rules.to_move(state)
        if actor is TERMINAL:
            return Finding(i, mpath, "no move (the game is over)", text, rules.illegal_reason(state, move) or "", text,
                           "move after the end")
        claimed = meta.get("actor")
        if claimed is not None and claimed != actor_text(actor):
            return Finding(i, f"$.states[{i}]['#meta'].actor", actor_text(actor), claimed,
                           rules.illegal_reason(state, move) or coverage.turn_clause(rules), text, "wrong actor")
        if actor is CHANCE:
            outs = dict(rules.chance_outcomes(state))
            if move not in outs:
                return Finding(i, mpath, "one of " + _listed([str(m) for m in outs]), text,
                               rules.illegal_reason(state, move) or coverage.chance_clause(rules, state, None), text,
                               "impossible chance outcome")
            if "probability" in meta:
                raw = meta["probability"]
                if not _same_probability(parse_probability(raw), raw, outs[move]):
                    return Finding(i, f"$.states[{i}]['#meta'].probability", fraction_text(outs[move]), raw,
                                   coverage.chance_clause(rules, state, move), text, "wrong probability")
        else:
            if "probability" in meta:
                return Finding(i, f"$.states[{i}]['#meta'].probability", MISSING, meta["probability"],
                               coverage.turn_clause(rules), text, "a probability on a seat's move")
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


def _listed(items: list[str], limit: int = 8) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f", ... ({len(items)} in all)" if len(items) > limit else "")


def _legal_hint(rules: RuleSet, state: Any) -> str:
    """`a legal move (here: a, b, ...)`: what an illegal move should have been."""
    try:
        legal = [str(m) for m in rules.legal_moves(state)]
    except RuleGap:
        return "a legal move"
    return f"a legal move (here: {_listed(legal, 6)})" if legal else "a legal move (there is none here)"


def _same_probability(found: Fraction | None, raw: Any, want: Fraction) -> bool:
    if found is None:
        return False
    if isinstance(raw, float):
        return abs(float(want) - raw) <= 1e-9
    return found == want


def _var_clause(rules: RuleSet, var: str, clauses: list[str], at_start: bool) -> str:
    """The clause to name for a wrong state variable (see VAR_CLAUSES)."""
    named = VAR_CLAUSES.get(rules.id, {}).get(var)
    if not named:
        return coverage.first_clause(clauses, rules)
    return named[0] if at_start else named[1]


def _compare_state(rules: RuleSet, state: Any, entry: dict[str, Any], meta: dict[str, Any], i: int,
                   clauses: list[str]) -> Finding | None:
    """Rule B.2: whatever the file records about states[i] equals our state (a wrong type is
    rule A.5: exit status 2)."""
    move = meta.get("move", "")
    ours = {k: normal(v) for k, v in rules.state_vars(state).items()}
    for key in entry:
        if key == "#meta":
            continue
        where = f"$.states[{i}]{path_key(key)}"
        found = decode(entry[key], where)
        problem = type_problem(ours[key], found, where)
        if problem:
            raise VectorError(f"wrong type: {problem}")
        diff = first_difference(ours[key], found, where)
        if diff:
            return Finding(i, diff[0], diff[1], diff[2], _var_clause(rules, key, clauses, i == 0), move, "wrong state")
    return _compare_meta(rules, state, meta, i, move, clauses)


def _compare_meta(rules: RuleSet, state: Any, meta: dict[str, Any], i: int, move: str,
                  clauses: list[str]) -> Finding | None:
    """Rule B.3: what the state's #meta says our rules say there."""
    base = f"$.states[{i}]['#meta']"
    actor = rules.to_move(state)
    if "to_move" in meta and meta["to_move"] != actor_text(actor):
        if meta["to_move"] == actor_text(TERMINAL):  # an end claimed while the game goes on: the end clause
            return Finding(i, f"{base}.to_move", actor_text(actor), meta["to_move"], coverage.end_clause(rules), move,
                           "the game said to be over while moves remain")
        return Finding(i, f"{base}.to_move", actor_text(actor), meta["to_move"], coverage.turn_clause(rules), move,
                       "wrong player to move")
    if "clauses" in meta and sorted(set(meta["clauses"])) != sorted(set(clauses)):
        extra = [c for c in meta["clauses"] if c not in clauses]
        lacking = [c for c in clauses if c not in meta["clauses"]]
        return Finding(i, f"{base}.clauses", lacking[0] if lacking else MISSING, extra[0] if extra else MISSING,
                       (lacking or extra)[0], move, "wrong clauses for this step")
    try:
        if "legal_moves" in meta:
            want = [str(m) for m in rules.legal_moves(state)] if isinstance(actor, int) else []
            diff = _list_difference(rules, state, want, meta["legal_moves"])
            if diff:
                return Finding(i, f"{base}.legal_moves", diff[0], diff[1], diff[2], move, "wrong legal moves")
        for key, count in (
            ("legal_move_count", lambda: len(rules.legal_moves(state)) if isinstance(actor, int) else 0),
            ("chance_outcome_count", lambda: len(rules.chance_outcomes(state)) if actor is CHANCE else 0),
        ):
            if key in meta and meta[key] != count():
                clause = (
                    coverage.chance_clause(rules, state, None)
                    if key.startswith("chance")
                    else coverage.turn_clause(rules)
                )
                return Finding(i, f"{base}.{key}", count(), meta[key], clause, move, f"wrong {key.replace('_', ' ')}")
        if "chance_outcomes" in meta:
            found = meta["chance_outcomes"]
            want = {str(m): p for m, p in rules.chance_outcomes(state)} if actor is CHANCE else {}
            got = {m: parse_probability(p) for m, p in found}
            if len(got) != len(found):
                raise VectorError(f"{base}.chance_outcomes: an outcome is listed twice")
            for m, p in want.items():
                if got.get(m) != p:
                    return Finding(i, f"{base}.chance_outcomes", [m, fraction_text(p)],
                                   [m, next(x[1] for x in found if x[0] == m)] if m in got else MISSING,
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


def _check_gap_claim(rules: RuleSet, state: Any, claim: dict[str, Any], path: str, i: int, move: str) -> Finding | None:
    """A state the file says is a rule gap: at its choices, or when applying ``claim.move``."""
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


def _compare_outcome(rules: RuleSet, state: Any, found: dict[str, Any], path: str, i: int, move: str) -> Finding | None:
    ours = rules.outcome(state)
    if ours is None:
        return Finding(i, path, "no outcome (the game goes on)", found, coverage.turn_clause(rules), move, "early end")
    want = ours.to_json()
    for key, f in found.items():
        w = want[key]
        if key in ("winners", "losers"):
            same = sorted(f) == sorted(w)
        elif key == "scores":
            problem = type_problem(normal(w), decode(f, f"{path}.scores"), f"{path}.scores")
            if problem:
                raise VectorError(f"wrong type: {problem}")
            same = normal(w) == decode(f, f"{path}.scores")
        else:
            same = f == w
        if not same:
            return Finding(i, f"{path}.{key}", w, f, ours.clause, move, "wrong outcome")
    return None


def _check_finished(rules: RuleSet, state: Any, last_meta: dict[str, Any], meta: dict[str, Any], last: int,
                    move: str) -> Finding | None:
    """Rule B.4: a trace ends where the game ends, at a rule gap, or says it was cut (capped);
    a trace that says it was cut does not end where the game ends."""
    if "rule_gap" in last_meta or "rule_gap" in meta:
        return None  # stopped at a rule gap (checked by B.3 and B.5)
    try:
        actor = rules.to_move(state)
        if actor is TERMINAL:
            if meta.get("capped") is not True:
                return None
            ours = rules.outcome(state)
            clause = ours.clause if ours else coverage.turn_clause(rules)
            return Finding(last, "$['#meta'].capped", False, True, clause, move,
                           f"capped, but the game is over at step {last}")
        if meta.get("capped") is True:
            return None  # cut on purpose
        rules.legal_moves(state) if isinstance(actor, int) else rules.chance_outcomes(state)
    except RuleGap:
        return None  # the rules are silent here: the game cannot go on either
    return Finding(last, "$.states", f"more moves ({actor_text(actor)} to move), or #meta.capped: true",
                   "the end of the trace", coverage.turn_clause(rules), move, f"game not finished at step {last}")


def _check_trace_claims(rules: RuleSet, state: Any, meta: dict[str, Any], states: list[dict[str, Any]],
                        seen: list[str], last: int, move: str) -> Finding | None:
    """Rule B.5: the trace's own rule_gap and clauses agree with its states."""
    claim = meta.get("rule_gap")
    at_end = states[last].get("#meta", {}).get("rule_gap")
    if claim is not None and at_end is not None and claim.get("ruling") != at_end.get("ruling"):
        return Finding(last, "$['#meta'].rule_gap.ruling", at_end.get("ruling"), claim.get("ruling"),
                       at_end.get("ruling", ""), move, "the trace's rule gap is not its last state's")
    if claim is not None and at_end is None:
        return _check_gap_claim(rules, state, claim, "$['#meta'].rule_gap", last, move)
    if "clauses" in meta and sorted(set(meta["clauses"])) != sorted(set(seen)):
        extra = [c for c in meta["clauses"] if c not in seen]
        lacking = [c for c in seen if c not in meta["clauses"]]
        return Finding(last, "$['#meta'].clauses", lacking[0] if lacking else MISSING, extra[0] if extra else MISSING,
                       (lacking or extra)[0], move, "the trace's clauses are not its steps'")
    return None


def verify_document(doc: dict[str, Any], deck: str | None = None) -> Finding | None:
    """The first Finding of ``check_trace``, or None for a clean trace (VectorError: unreadable)."""
    return check_trace(doc, deck).finding


@dataclass
class FileResult:
    """One file's result: exit status (0 clean, 1 breaks a rule, 2 unreadable), its line, its verdict."""

    file: str
    status: int
    line: str
    verdict: Verdict | None = None
    problem: str = ""
    """Why the file could not be read (status 2)."""


def verify_path(path: str, deck: str | None = None, max_bytes: int = MAX_FILE_BYTES,
                prepare: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> FileResult:
    """Read and check one file (``-``: standard input).  ``prepare`` turns the parsed document
    into one of ours first (a mapping from another tool's traces) and raises VectorError
    for what it cannot map."""
    name = "(standard input)" if path == "-" else path
    try:
        doc = load_document(path, max_bytes)
        if prepare is not None:
            doc = prepare(doc)
        verdict = check_trace(doc, deck)
    except VectorError as e:
        return FileResult(name, 2, f"{name}: cannot read: {e}", problem=str(e))
    except RecursionError:
        return FileResult(name, 2, f"{name}: cannot read: nested too deeply", problem="nested too deeply")
    except Exception as e:  # noqa: BLE001 - a model that chokes on odd input must still give one line
        first = str(e).splitlines()[0] if str(e) else ""
        problem = f"the {type(e).__name__} {first!r} was raised replaying it (a bug to report)"
        return FileResult(name, 2, f"{name}: cannot check: {problem}", problem=problem)
    if verdict.finding is not None:
        return FileResult(name, 1, verdict.finding.line(name), verdict)
    notes = "".join(f"; {n}" for n in verdict.notes)
    return FileResult(name, 0, f"{name}: ok ({plural(verdict.steps, 'step')}, {verdict.ruleset}, "
                               f"{plural(verdict.players, 'player')}{notes})", verdict)



def verify_file(path: str, deck: str | None = None, max_bytes: int = MAX_FILE_BYTES) -> tuple[int, str]:
    """(exit status, one line) for one file: 0 clean, 1 a rules violation, 2 unreadable."""
    result = verify_path(path, deck, max_bytes)
    return result.status, result.line
