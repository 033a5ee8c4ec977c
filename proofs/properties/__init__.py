"""The rulebook's text as executable properties, written apart from the model's code.

Every clause of a spec with ``basis = "text"`` gets a property named by its clause id, or a
reason why no property can observe it (flavour, a fact about the table the model does not
hold).  A property says what the clause's cited sentences say and nothing more: it reads
states only through the core API (``state_vars``, ``observation``, ``to_move``,
``legal_moves``, ``chance_outcomes``, ``apply``, ``illegal_reason``, ``outcome``) and the
components (a deck's printed cards), never through the model's own rule functions, so a
property that holds is evidence about the model and not a copy of it.

Three shapes:

* :class:`Property` over a *state* (with whatever the API says about it: its legal moves,
  its chance outcomes, its outcome);
* :class:`Property` over a *transition* (state, move, next state);
* :class:`Example`: a fixed position, such as a worked example in the rulebook, built by
  playing moves from a fresh game and then checked.

Each rule set's properties live in a subpackage of this package (``dishes``, ``just_desserts``,
``just_desserts_v23``): a module per clause family (set up, the turn, serving, poaching, ...), each
with its own table, a module of the state readers the families share (``readers``) and one of
fixed positions (``examples``); the subpackage gathers the families' tables, in the order they
are run and reported, into ``PROPERTIES``, ``EXAMPLES`` and ``UNOBSERVABLE`` (clause id -> why no
property can observe it).  :func:`sweep` explores the small
configurations breadth-first and checks every property at every state and transition: the
tests run it on the model (every property holds under every alternative it applies to), and
the mutation coverage (:mod:`tablerules.proofs.discovery.mutation`) runs it on each mutant.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterable, Sequence

from tablerules.model.core import CHANCE, TERMINAL, RuleGap, RuleSet, Setup, ruling_fields

Problem = str | None
"""What a property returns: None when it holds, else one line saying what is wrong."""


def always(setup: Setup) -> bool:
    return True


Lines = tuple[tuple[int, int], ...]
"""Ranges of lines of the rule set's seed file (1-based, first and last inclusive)."""


def chosen(setup: Setup, ruling_id: str) -> str:
    """The alternative a setup chose for a ruling, read by the ruling's id."""
    return getattr(setup.options, _ruling_field_names(type(setup.options))[ruling_id])


@lru_cache(maxsize=8)
def _ruling_field_names(options_cls: type) -> dict[str, str]:
    return {rid: f.name for rid, f in ruling_fields(options_cls).items()}


def but(ruling_id: str, *left_out: str) -> dict[str, tuple[str, ...]]:
    """``under=``: every alternative of the ruling except these (read from the rule set's Options)."""
    from tablerules.model import registry

    for rid in registry.ruleset_ids():
        f = ruling_fields(registry.get(rid).Options).get(ruling_id)
        if f is not None:
            return {ruling_id: tuple(a for a in f.metadata["alternatives"] if a not in left_out)}
    raise KeyError(f"no rule set has the ruling {ruling_id}")


def _lines(value: Any) -> Lines:
    """``lines=`` as written: one range ``(first, last)`` or several ``((a, b), (c, d))``."""
    if not value:
        return ()
    if all(isinstance(v, int) for v in value):
        value = (tuple(value),)
    return tuple((int(a), int(b)) for a, b in value)


@dataclass(frozen=True)
class Property:
    """One clause's sentences as a predicate over what the core API shows.

    Exactly one of ``state`` and ``transition`` is given.  ``lines`` are the rulebook lines it
    formalises.  A *text* property says what those lines say and holds under every alternative of
    every ruling; one that needs a ruling names it: ``under`` (ruling id -> the alternatives under
    which it holds; it is that ruling's property) or ``reads`` (rulings whose chosen alternative the
    predicate reads: it holds under each, read its own way).  ``applies`` leaves out setups by what
    no ruling decides (an optional rule off, a deck).  The audit
    (:mod:`tablerules.proofs.properties.alternatives`) flags any property that fails, or is left
    out, under an alternative of a ruling it does not name."""

    clause: str
    says: str
    """One line: what the property checks, in the clause's terms."""
    state: Callable[[RuleSet, Any], Problem] | None = None
    transition: Callable[[RuleSet, Any, Any, Any], Problem] | None = None
    applies: Callable[[Setup], bool] = always
    name: str = ""
    """Tells apart several properties of one clause (empty for the only one)."""
    lines: Lines = ()
    under: tuple[tuple[str, tuple[str, ...]], ...] = ()
    reads: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        return f"{self.clause}#{self.name}" if self.name else self.clause

    def __post_init__(self) -> None:
        if (self.state is None) == (self.transition is None):
            raise ValueError(f"property {self.key}: give exactly one of state= and transition=")
        object.__setattr__(self, "lines", _lines(self.lines))
        if isinstance(self.under, dict):
            object.__setattr__(self, "under", tuple((r, tuple(a)) for r, a in self.under.items()))

    @property
    def kind(self) -> str:
        return "state" if self.state is not None else "transition"

    def names(self) -> set[str]:
        """The rulings the property names (an empty set: a text property)."""
        return {rid for rid, _ in self.under} | set(self.reads)

    def holds_here(self, setup: Setup) -> bool:
        """Whether the property speaks about this setup at all."""
        return self.applies(setup) and all(chosen(setup, rid) in alts for rid, alts in self.under)


@dataclass(frozen=True)
class Example:
    """A fixed position (the rulebook's own example, or a case its sentences settle).

    ``check(rules)`` builds the position through the API (``rules.new_game``,
    ``rules.apply`` of parsed moves) and returns a Problem."""

    clause: str
    says: str
    check: Callable[[RuleSet], Problem]
    name: str = ""
    lines: Lines = ()
    """The rulebook lines the example formalises (its own example's lines, or the sentences it settles)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "lines", _lines(self.lines))

    @property
    def key(self) -> str:
        return f"{self.clause}#{self.name}" if self.name else self.clause

    kind = "example"


@dataclass(frozen=True)
class PropertySet:
    ruleset: str
    properties: tuple[Property, ...]
    examples: tuple[Example, ...]
    unobservable: dict[str, str]

    def clauses(self) -> set[str]:
        return {p.clause for p in self.properties} | {e.clause for e in self.examples}

    def by_clause(self) -> dict[str, list[Property | Example]]:
        out: dict[str, list[Property | Example]] = {}
        for p in (*self.properties, *self.examples):
            out.setdefault(p.clause, []).append(p)
        return out


_MODULES = {"dishes": ("dishes",), "just-desserts": ("just_desserts", "just_desserts_rulings"),
            "just-desserts-2.3": ("just_desserts_v23",)}
"""Rule set -> the modules of this package holding its properties: the text's (a subpackage), then
(where written) the registered rulings' alternatives as their meanings say."""


def property_set(ruleset_id: str) -> PropertySet:
    """The properties of one rule set (an empty set for a rule set that has none)."""
    props: list[Property] = []
    examples: list[Example] = []
    unobservable: dict[str, str] = {}
    for name in _MODULES.get(ruleset_id, ()):
        module = importlib.import_module(f"{__name__}.{name}")
        props += module.PROPERTIES
        examples += getattr(module, "EXAMPLES", ())
        unobservable.update(getattr(module, "UNOBSERVABLE", {}))
    return PropertySet(ruleset_id, tuple(props), tuple(examples), unobservable)


# --------------------------------------------------------------------------- checking


@dataclass(frozen=True)
class Violation:
    """A property that does not hold: where, and what it said."""

    key: str
    clause: str
    message: str
    state: Any = None
    move: Any = None


def _safe(fn: Callable[..., Problem], *args: Any) -> Problem:
    try:
        return fn(*args)
    except RuleGap:
        return None  # a strict alternative's gap is the gap finder's business, not a property's
    except Exception as e:  # a property that cannot read the state: the state is malformed
        return f"the property could not read the state ({type(e).__name__}: {e})"


def check_state(props: Iterable[Property], rules: RuleSet, state: Any) -> list[Violation]:
    out = []
    setup = state.setup
    for p in props:
        if p.state is not None and p.holds_here(setup):
            problem = _safe(p.state, rules, state)
            if problem:
                out.append(Violation(p.key, p.clause, problem, state))
    return out


def check_transition(props: Iterable[Property], rules: RuleSet, state: Any, move: Any, nxt: Any) -> list[Violation]:
    out = []
    setup = state.setup
    for p in props:
        if p.transition is not None and p.holds_here(setup):
            problem = _safe(p.transition, rules, state, move, nxt)
            if problem:
                out.append(Violation(p.key, p.clause, problem, state, move))
    return out


def check_examples(examples: Iterable[Example], rules: RuleSet) -> list[Violation]:
    return [Violation(e.key, e.clause, problem) for e in examples for problem in [_safe(e.check, rules)] if problem]


def successors(rules: RuleSet, state: Any) -> list[tuple[Any, Any]]:
    """(move, next state) for every move and chance outcome; a move into a strict gap is left out."""
    actor = rules.to_move(state)
    if actor is TERMINAL:
        return []
    moves = [m for m, _ in rules.chance_outcomes(state)] if actor is CHANCE else list(rules.legal_moves(state))
    out = []
    for m in moves:
        try:
            out.append((m, rules.apply(state, m)))
        except RuleGap:
            continue
    return out


@dataclass
class Sweep:
    """What :func:`sweep` saw: states checked (distinct states reached breadth-first from
    the initial states of each configuration and setting) and the first violation of each
    property, with the moves that lead to it."""

    states: int = 0
    transitions: int = 0
    violations: dict[str, tuple[Violation, str, tuple[str, ...]]] = field(default_factory=dict)
    """property key -> (violation, setting label, move texts from the start)."""


def sweep(rules: RuleSet, setups: Sequence[tuple[str, Setup]], props: Sequence[Property],
          max_states: int = 5_000) -> Sweep:
    """Breadth-first from each setup's new game (at most ``max_states`` distinct states per
    setup), every property at every state and transition.  Budgets count states."""
    out = Sweep()
    state_props = [p for p in props if p.state is not None]
    move_props = [p for p in props if p.transition is not None]
    for label, setup in setups:
        try:
            start = rules.new_game(setup)
        except RuleGap:
            continue
        parents: dict[Any, tuple[Any, str] | None] = {start: None}
        frontier = [start]

        def path(s: Any) -> tuple[str, ...]:
            moves = []
            while parents[s] is not None:
                s, m = parents[s]
                moves.append(m)
            return tuple(reversed(moves))

        def note(vs: list[Violation], s: Any, extra: tuple[str, ...] = ()) -> None:
            for v in vs:
                if v.key not in out.violations:
                    out.violations[v.key] = (v, label, path(s) + extra)

        note(check_state(state_props, rules, start), start)
        while frontier and len(parents) < max_states:
            nxt = []
            for s in frontier:
                if len(parents) >= max_states:
                    break
                try:
                    succ = successors(rules, s)
                except Exception:
                    continue  # a model error is the explorer's finding, not a property's
                for m, t in succ:
                    out.transitions += 1
                    note(check_transition(move_props, rules, s, m, t), s, (str(m),))
                    if t not in parents:
                        parents[t] = (s, str(m))
                        nxt.append(t)
                        note(check_state(state_props, rules, t), t)
            frontier = nxt
        out.states += len(parents)
    return out


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class ClauseRow:
    clause: str
    basis: str
    properties: tuple[str, ...]
    """Keys of the properties and examples that state it."""
    why_not: str = ""
    """For a text clause without a property: why none can observe it."""


def clause_table(ruleset_id: str) -> list[ClauseRow]:
    """Every clause of the rule set's spec with its properties (or why it has none)."""
    from tablerules.spec.loader import load_spec

    spec = load_spec(ruleset_id)
    ps = property_set(ruleset_id)
    by = ps.by_clause()
    rows = []
    for cid, c in spec.clauses.items():
        keys = tuple(p.key for p in by.get(cid, ()))
        rows.append(ClauseRow(cid, c.basis, keys, "" if keys else ps.unobservable.get(cid, "")))
    return rows


def text_clauses_without_property(ruleset_id: str) -> list[str]:
    """Text clauses with neither a property nor a stated reason: what the table flags."""
    return [r.clause for r in clause_table(ruleset_id) if r.basis == "text" and not r.properties and not r.why_not]
