"""One mutant beside the unchanged model's record: killed, equivalent or uncovered.

The mutant is put in place (its function's code swapped), the caches emptied, and in each
run where the model's decision test took a value the mutant changes, the mutant is asked
about the states where it did (the first ones the record kept: breadth-first, so the
nearest to the start).  Where a state's signature differs from the record, every text
property, every invariant and every transition out of it is checked, and so on breadth-first
below it into what only the mutant reaches, within the budget; the rulebook's fixed examples
are checked once.

* *killed*: a property (``clause#name``), an example or an invariant rejects the mutant, or
  the mutant's model raises (``crash``);
* *equivalent*: no state's signature differs in any run (within the runs' budgets);
* *uncovered*: play differs and nothing rejects it: the first difference, with the shortest
  trace to it, is the witness;
* *not reached*: no run executed the decision point.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Sequence

from tablerules.model.core import STRICT, RuleSet, actor_text, check_distribution, violated

from ...explorer import Step
from ...properties import PropertySet, check_examples, check_state, check_transition
from .mutants import Mutant, MutantSource, apply_mutant, undo
from .reference import Run, Stopped, clear_caches, difference, same_view, signature

KILLED, EQUIVALENT, UNCOVERED, NOT_REACHED, CRASHED = "killed", "equivalent", "uncovered", "not reached", "crashed"
STOPPED = "stopped"
"""No verdict: the time limit on one mutant stopped it (see coverage.MUTANT_SECONDS)."""


@dataclass
class Verdict:
    """What one mutant did."""

    mutant: str
    """The mutant's id."""
    verdict: str
    by: str = ""
    """For killed: the property key, ``example <key>`` or ``invariant <name>``; for crashed: the error."""
    run: str = ""
    """The run (configuration and setting) where it was decided."""
    trace: tuple[Step, ...] = ()
    """The shortest trace found to the state where it was decided."""
    detail: str = ""
    """What differs there (uncovered), or the property's message (killed)."""
    states: int = 0
    """States the mutant was asked about (the unit of its cost)."""
    runs: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"mutant": self.mutant, "verdict": self.verdict, "by": self.by, "run": self.run,
                "trace": [s.text() for s in self.trace], "detail": self.detail, "states": self.states}


@dataclass
class Budget:
    """How much a mutant is asked: states over all its runs, and how many runs."""

    states: int = 600
    """States the mutant is asked about, over all its runs."""
    runs: int = 3


def _trace(parents: dict[Any, Any], state: Any) -> tuple[Step, ...]:
    steps = []
    while parents.get(state) is not None:
        state, step = parents[state]
        steps.append(step)
    return tuple(reversed(steps))


@dataclass
class _Judge:
    rules: RuleSet
    props: PropertySet
    budget: Budget
    states: int = 0
    divergence: tuple[str, tuple[Step, ...], str] | None = None
    kill: Verdict | None = None
    checked: set = field(default_factory=set)

    def rejects(self, run: Run, s: Any, ways: list, path: tuple[Step, ...], sig: Any = None) -> Verdict | None:
        """A property, invariant, the core API's promises or a crash at a state whose
        signature differs from the record."""
        broken = core_promise(sig, ways) if sig is not None else None
        if broken:
            return Verdict("", KILLED, broken[0], run.label, path, broken[1])
        for v in check_state(self.props.properties, self.rules, s):
            return Verdict("", KILLED, v.key, run.label, path, v.message)
        for inv, message in violated(self.rules.invariants, s):
            return Verdict("", KILLED, f"invariant {inv.name}", run.label, path, message)
        for m, _p, t in ways:
            if isinstance(t, Stopped):
                if t.kind == "error":
                    return Verdict("", CRASHED, t.detail, run.label, path, f"apply {m} raised {t.detail}")
                continue
            for v in check_transition(self.props.properties, self.rules, s, m, t):
                step = Step(actor_text(self.rules.to_move(s)), str(m), _p)
                return Verdict("", KILLED, v.key, run.label, path + (step,), v.message)
        return None

    def differs(self, run: Run, s: Any, ref: Any, sig: Any, path: tuple[Step, ...], ways: list) -> Verdict | None:
        if sig[0][0] == "error":
            return Verdict("", CRASHED, sig[0][1], run.label, path, f"the mutant raised {sig[0][1]}")
        gaps = (
            [sig[0][1]]
            if sig[0][0] == "gap"
            else [t.detail for _m, _p, t in ways if isinstance(t, Stopped) and t.kind == "gap"]
        )
        for ruling_id in gaps:
            if not gap_allowed(run.setup, ruling_id):
                return Verdict("", KILLED, GAP_CONTRACT, run.label, path,
                               f"a RuleGap for {ruling_id}, whose strict alternative is not chosen")
        if self.divergence is None:
            what = difference(ref, sig) if ref is not None else "a state the model does not reach here"
            self.divergence = (run.label, path, what)
        return self.rejects(run, s, ways, path, sig)

    def at_triggers(self, run: Run, mutant: Mutant) -> Verdict | None:
        """Ask the mutant about the states where the model ran its decision test with a value
        the mutant changes; below a state where they part, go on breadth-first into what the
        mutant reaches, checking every property there."""
        rules = self.rules
        problem = rules.setup_error(run.setup)
        if problem != run.setup_problem and self.divergence is None:
            self.divergence = (run.label, (), f"the set-up check: model {run.setup_problem!r}, mutant {problem!r}")
            if problem is not None:
                return None
        want = mutant.differs_when()
        if mutant.col < 0:
            # a changed count or constant may act when the game is set up (a hand's size): the mutant's
            # new game beside the recorded one first
            root = next((s for s, parent in run.parents.items() if parent is None), None)
            mine = rules.new_game(run.setup) if root is not None and problem is None else None
            if mine is not None and mine != root:
                got = self.below(run, root, (), set(), start=mine)
                if got:
                    return got
            starts = list(run.states)[: self.budget.states]
        else:
            starts = []
            for value in (True, False):
                if want is None or value in want:
                    starts += run.triggers.get((mutant.point, value), ())
        seen: set = set()
        for s in dict.fromkeys(starts):
            if self.states >= self.budget.states:
                return None
            got = self.below(run, s, run.trace(s), seen)
            if got:
                return got
        return None

    def below(self, run: Run, model_state: Any, path: tuple[Step, ...], seen: set,  # noqa: ARG002
              start: Any = None) -> Verdict | None:
        """Lockstep from a recorded state: the mutant's state beside the model's, paired by
        move text (never by the states' values, which may hold bookkeeping a mutant keeps
        otherwise); a pair whose signatures differ is checked, and below it every state the
        mutant reaches (where the record has no model state to pair with).  ``start``: the
        mutant's own state to pair with ``model_state`` (its new game); by default a copy of it."""
        rules = self.rules
        start = fresh(model_state) if start is None else start
        pairs: dict[Any, Any] = {start: None}
        frontier = [(start, model_state)]
        while frontier:
            nxt = []
            for s, ms in frontier:
                if self.states >= self.budget.states:
                    return None
                self.states += 1
                sig, ways = signature(rules, s)
                ref = run.states.get(ms) if ms is not None else None
                if ref is not None and same_view(ref, sig):
                    if s is not start:
                        continue  # the same as the model here: a difference further on starts at another trigger
                    # the decision may be taken inside a move: compare the states the moves lead to, and
                    # ask the properties here too (a property may look ahead through the API)
                    got = self.rejects(run, s, ways, path, sig)
                    if got:
                        return got
                else:
                    got = (self.differs(run, s, ref, sig, path + _trace(pairs, s), ways) if ref is not None
                           else self.rejects(run, s, ways, path + _trace(pairs, s), sig))
                    if got:
                        return got
                children = run.succ.get(ms, {}) if ms is not None else {}
                who = None
                for m, p, t in ways:
                    if isinstance(t, Stopped) or t in pairs:
                        continue
                    who = who or actor_text(rules.to_move(s))
                    pairs[t] = (s, Step(who, str(m), p))
                    nxt.append((t, children.get(str(m))))
            frontier = nxt
        return None


GAP_CONTRACT = "core: a gap only under a strict alternative"
TEXT_CONTRACT = "core: a move's text reads back as the move"
CHANCE_CONTRACT = "core: chance outcomes are exact and sum to 1"
MOVES_CONTRACT = "core: a legal move is not refused"
DEAD_END = "core: a seat to move has a move (no dead end)"


def core_promise(sig: Any, ways: list) -> tuple[str, str] | None:
    """Which promise of the core API (model/core.py) a signature breaks, if any: a seat to
    move has a move (the explorer's dead end); every move's text reads back as that move and
    illegal_reason lets it pass; chance outcomes are exact and add up to 1; a move the model
    lists is one apply accepts."""
    if len(sig) < 3:
        return None
    if sig[0][0] == "seat" and not sig[1]:
        return DEAD_END, f"seat {sig[0][1]} is to move and has no legal move, yet the game is not over"
    for text, _p, nxt, reads_back in sig[1]:
        if not reads_back:
            return TEXT_CONTRACT, f"the legal move {text!r} does not read back as itself, or illegal_reason refuses it"
        if isinstance(nxt, Stopped) and nxt.kind == "error" and nxt.detail == "IllegalMove":
            return MOVES_CONTRACT, f"the listed move {text!r} is refused by apply"
    if sig[0][0] == "chance":
        problem = check_distribution([(m, p) for m, p, _t in ways])
        if problem or not ways:
            return CHANCE_CONTRACT, problem or "chance moves, but there is no outcome"
    return None
"""The core API's promise (model/core.py, RuleGap): only a ruling set to ``strict`` raises its gap."""


def gap_allowed(setup: Any, ruling_id: str) -> bool:
    """Is ``ruling_id`` set to its strict alternative in this setup?"""
    for f in dataclasses.fields(setup.options):
        if f.metadata.get("ruling") == ruling_id:
            return getattr(setup.options, f.name) == STRICT
    return False


def fresh(state: Any) -> Any:
    """A copy of a recorded state without what the model worked out and kept in it (a memo
    field, ``init=False``), so the mutant works it out again."""
    if dataclasses.is_dataclass(state):
        return dataclasses.replace(state)
    return state


def runs_for(mutant: Mutant, runs: Sequence[Run], most: int) -> list[Run]:
    """The runs in which the mutant can act otherwise than the model: those where its test
    took a value the mutant changes (any run that ran the function, for a value change);
    at most ``most``, one per setting before a second of any (settings tell more apart
    than configurations do)."""
    want = mutant.differs_when()
    if mutant.function == "<module>":  # a module constant: the runs that took a decision on a line reading it
        from .data import constant_uses

        lines = constant_uses(mutant.ruleset, mutant.description.split(" = ")[0])
        fits = [r for r in runs if any((k[0], k[1]) in lines for k in r.outcomes)] or list(runs)
        # first the runs where a test reading it came out true (the constant then decided something)
        fits.sort(key=lambda r: not any(True in v for k, v in r.outcomes.items() if (k[0], k[1]) in lines))
    elif mutant.col < 0:
        fits = [r for r in runs if any(k[0] == mutant.file for k in r.outcomes)]
    else:
        fits = [r for r in runs if (got := r.outcomes.get(mutant.point)) and (want is None or got & want)]
    chosen: list[Run] = []
    seen: set[str] = set()
    for r in fits:
        if r.setting not in seen:
            seen.add(r.setting)
            chosen.append(r)
    chosen += [r for r in fits if r not in chosen]
    return chosen[:most]


def judge(source: MutantSource, runs: Sequence[Run], rules: RuleSet, props: PropertySet,
          budget: Budget | None = None) -> Verdict:
    """Run one mutant beside the record (see the module docstring)."""
    budget = budget or Budget()
    mine = runs_for(source.mutant, runs, budget.runs)
    mid = source.mutant.id
    try:
        original = apply_mutant(source)
    except (TypeError, ValueError) as e:
        return Verdict(mid, NOT_REACHED, detail=f"the mutant cannot be put in place: {e}")
    clear_caches()
    j = _Judge(rules, props, budget)
    got: Verdict | None = None
    try:
        for run in mine:
            try:
                got = j.at_triggers(run, source.mutant)
            except RecursionError:
                got = Verdict(mid, CRASHED, "RecursionError", run.label)
            except Exception as e:  # noqa: BLE001 - a mutant that breaks the model is caught like any crash
                got = Verdict(mid, CRASHED, type(e).__name__, run.label, detail=str(e)[:200])
            if got:
                break
        if got is None:  # the rulebook's fixed positions, last: they may reach what no run did
            for v in check_examples(props.examples, rules):
                got = Verdict(mid, KILLED, f"example {v.key}", "", (), v.message)
                break
    finally:
        undo(source, original)
        clear_caches()
    if got is not None:
        got.mutant, got.states, got.runs = mid, j.states, len(mine)
        return got
    if not mine:
        return Verdict(mid, NOT_REACHED)
    if j.divergence is not None:
        label, path, what = j.divergence
        return Verdict(mid, UNCOVERED, "", label, path, what, j.states, len(mine))
    return Verdict(mid, EQUIVALENT, states=j.states, runs=len(mine))
