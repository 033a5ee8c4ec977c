"""The engine beside our model at one state: who moves, the legal moves both ways, the chance
outcomes and their probabilities, each seat's observation, the outcome.

:func:`look` asks both and returns our choices there (for the game to go on) or the first
:class:`Difference`, which names the clause it concerns: for a move one side lists and the
other does not, the clause that allows it (``move_clause``) or forbids it
(``illegal_reason``); for another seat to move, the clause that says who starts or who moves
next (:func:`.formats.to_move_clause`); for a chance event, its clause (``chance_clause``); for
an observation, the clause of what differs there (:func:`.formats.observation_clause`: what a
seat may see, or for a key that shows the state, the clause of the step that led here; none for
a key the format does not have); for an outcome, the clause that decides ours.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tablerules.model.core import CHANCE, TERMINAL, RuleGap, RuleSet, actor_text
from tablerules.vectors import coverage
from tablerules.vectors.itf import fraction_text

from .client import Engine
from .formats import observation_clause, to_move_clause
from .protocol import EngineRuleGap, canonical, json_path, show

FLOAT_SLACK = 1e-9
"""A float probability (OpenSpiel's) equals an exact one when within this of it."""


@dataclass
class Difference:
    """Where and how the engine departs from our rules."""

    step: int
    """Moves of the failing game (a seat's move or a chance outcome each): those played before the
    state where they part, the refused move included for `move refused`."""
    aspect: str
    """`to move`, `legal moves`, `chance outcomes`, `probability`, `observation of seat N`, `outcome`,
    `move refused` or `rule gap`."""
    clause: str
    """The clause or ruling the difference concerns; ``""``: none (a key the observation's format lacks)."""
    ours: str
    theirs: str

    def text(self) -> str:
        head = f"after {self.step} moves, {self.aspect} [{self.clause or 'no clause'}]: "
        return head + (f"ours {self.ours}; the engine's {self.theirs}" if self.theirs else self.ours)

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "aspect": self.aspect, "clause": self.clause, "ours": self.ours,
                "theirs": self.theirs}


@dataclass
class View:
    """Our side of a state: who moves and the choices there (moves, or chance outcomes)."""

    actor: Any
    choices: list[Any] = field(default_factory=list)
    probabilities: list[Fraction] | None = None
    gap: str = ""
    """The ruling a strict alternative stops at here (no choices then)."""


def our_view(rules: RuleSet, state: Any) -> View:
    actor = rules.to_move(state)
    try:
        if actor is TERMINAL:
            rules.outcome(state)  # a strict ruling may leave the result unsaid
            return View(actor)
        if actor is CHANCE:
            outs = rules.chance_outcomes(state)
            return View(actor, [m for m, _ in outs], [p for _, p in outs])
        return View(actor, list(rules.legal_moves(state)))
    except RuleGap as gap:
        return View(actor, gap=gap.ruling)


def look(rules: RuleSet, state: Any, engine: Engine, step: int,
         step_clauses: list[str]) -> tuple[View, Difference | None]:
    """Compare the engine with our model at ``state`` (reached by ``step`` moves; ``step_clauses``:
    the clauses the last step exercised)."""
    view = our_view(rules, state)

    def differ(aspect: str, clause: str, ours: str, theirs: str) -> tuple[View, Difference]:
        return view, Difference(step, aspect, clause or coverage.turn_clause(rules), ours, theirs)

    ours_actor = actor_text(view.actor)
    try:
        theirs_actor = engine.to_move()
    except EngineRuleGap as gap:
        theirs_actor = f"rule gap {gap.ruling}"
    if theirs_actor != ours_actor and not (view.gap and theirs_actor == f"rule gap {view.gap}"):
        if "TERMINAL" in (ours_actor, theirs_actor):
            clause = _end_clause(rules, state, step_clauses)
        else:
            step_clause = coverage.first_clause(step_clauses, rules)
            clause = to_move_clause(rules.id, step, ours_actor, theirs_actor, step_clause)
        return differ("to move", clause, ours_actor, theirs_actor)
    seen = None
    for seat in range(state.setup.players):
        ours = canonical(rules.observation(state, seat))
        theirs = engine.observation(seat)
        if canonical(theirs) != ours:
            path, at, text = _first_apart(ours, canonical(theirs))
            clause = observation_clause(rules.id, path, at, coverage.first_clause(step_clauses, rules))
            seen = Difference(step, f"observation of seat {seat}", clause, text, "")
            break
    # the choices are the more specific finding (an observation may list the legal moves too)
    found = _choices(rules, state, engine, view, step) or seen
    if found is not None or (view.gap and view.actor is not TERMINAL):
        return view, found
    return view, _outcome(rules, state, engine, view, step)


def _end_clause(rules: RuleSet, state: Any, step_clauses: list[str]) -> str:
    """The clause to name when one side says the game is over and the other does not: the clause
    that decides our outcome where our game is over; else (the engine ends it early) the rule
    set's end clause, or the spec's first clause about the end or the win."""
    ours = coverage.end_clauses(rules, state)
    if ours:
        return ours[-1]
    listed = coverage.END_CLAUSES.get(rules.id)
    if listed:
        return listed[0]
    from tablerules.spec.loader import SpecError, load_spec

    try:
        ids = list(load_spec(rules.id).clauses)
    except (SpecError, OSError):
        ids = []
    return next((c for c in ids if ".end." in c or ".win." in c), coverage.first_clause(step_clauses, rules))


def _choices(rules: RuleSet, state: Any, engine: Engine, view: View, step: int) -> Difference | None:
    if view.actor is TERMINAL:
        return None
    try:
        if view.actor is CHANCE:
            theirs_p = engine.chance_outcomes()
            if theirs_p is None:  # the engine is told which outcome happens
                return None
            return _chance(rules, state, view, theirs_p, step)
        theirs = engine.legal_moves()
    except EngineRuleGap as gap:
        if gap.ruling == view.gap:
            return None
        return Difference(step, "rule gap", gap.ruling, f"{len(view.choices)} choices" if not view.gap else view.gap,
                          f"rule gap {gap.ruling}")
    if view.gap:
        return Difference(step, "rule gap", view.gap, f"rule gap {view.gap}", f"{len(theirs)} legal moves")
    ours = [str(m) for m in view.choices]
    missing = [m for m in ours if m not in set(theirs)]
    extra = [m for m in dict.fromkeys(theirs) if m not in set(ours)]
    if missing:
        return Difference(step, "legal moves", coverage.move_clause(rules, state, missing[0]),
                          f"allow {missing[0]!r}", f"leaves it out ({_count(missing, 'more')})")
    if extra:
        return Difference(step, "legal moves", coverage.forbidding_clause(rules, state, extra[0]),
                          f"forbid {extra[0]!r}",
                          f"allows it ({_count(extra, 'more')})")
    if len(theirs) != len(set(theirs)):
        twice = next(m for m in theirs if theirs.count(m) > 1)
        return Difference(step, "legal moves", coverage.move_clause(rules, state, twice), "list each move once",
                          f"lists {twice!r} twice")
    return None


def _chance(rules: RuleSet, state: Any, view: View, theirs: list[tuple[str, Any]], step: int) -> Difference | None:
    ours = {str(m): p for m, p in zip(view.choices, view.probabilities or [])}
    got = dict(theirs)
    if len(got) != len(theirs):
        twice = next(m for m, _ in theirs if sum(1 for x, _ in theirs if x == m) > 1)
        clause = coverage.chance_clause(rules, state, coverage.parsed(rules, state, twice))
        return Difference(step, "chance outcomes", clause, "list each outcome once", f"lists {twice!r} twice")
    for text, p in ours.items():
        if text not in got:
            clause = coverage.chance_clause(rules, state, coverage.parsed(rules, state, text))
            return Difference(step, "chance outcomes", clause,
                              f"{text!r} may happen ({fraction_text(p)})", "leaves it out")
    for text in got:
        if text not in ours:
            return Difference(step, "chance outcomes", coverage.chance_clause(rules, state, None),
                              f"{text!r} cannot happen", f"lists it ({show(got[text])})")
    for text, p in ours.items():
        q = got[text]
        same = q == p if isinstance(q, Fraction) else abs(float(q) - float(p)) <= FLOAT_SLACK
        if not same:
            clause = coverage.chance_clause(rules, state, coverage.parsed(rules, state, text))
            return Difference(step, "probability", clause,
                              f"{text!r} has probability {fraction_text(p)}",
                              fraction_text(q) if isinstance(q, Fraction) else repr(q))
    return None


def _outcome(rules: RuleSet, state: Any, engine: Engine, view: View, step: int) -> Difference | None:
    try:
        theirs = engine.outcome()
    except EngineRuleGap as gap:
        if gap.ruling == view.gap:
            return None
        ours_text = (f"rule gap {view.gap}" if view.gap else "an outcome" if view.actor is TERMINAL
                     else "the game goes on")
        return Difference(step, "outcome", gap.ruling, ours_text, f"rule gap {gap.ruling}")
    if view.gap:
        return Difference(step, "outcome", view.gap, f"rule gap {view.gap}", show(theirs))
    if view.actor is not TERMINAL:
        if theirs is not None:
            return Difference(step, "outcome", coverage.turn_clause(rules), "the game goes on",
                              f"says it is over ({show(theirs)})")
        return None
    ours = rules.outcome(state)
    if theirs is None:
        return Difference(step, "outcome", ours.clause, ours.summary(), "no outcome")
    mine = {"winners": sorted(ours.winners), "losers": sorted(ours.losers)}
    got = {k: sorted(theirs.get(k, [])) for k in mine}
    if "draw" in theirs:
        mine["draw"], got["draw"] = ours.draw, theirs["draw"]
    if "scores" in theirs:
        mine["scores"], got["scores"] = canonical(list(ours.scores)), canonical(theirs["scores"])
    if mine != got:
        return Difference(step, "outcome", ours.clause or coverage.turn_clause(rules), show(mine, 120), show(got, 120))
    return None


def _count(items: list[str], word: str) -> str:
    return f"{len(items) - 1} {word}" if len(items) > 1 else "no other"


def _first_apart(ours: Any, theirs: Any, path: list[str | int] | None = None) -> tuple[list[str | int], Any, str]:
    """(path, our value there, `at $.places["0.main"]: ours "clean" where the engine has ...`): the first
    place two JSON values part."""
    path = path or []
    if isinstance(ours, dict) and isinstance(theirs, dict):
        for k in ours:
            if k not in theirs:
                return path + [k], ours[k], f"at {json_path(path + [k])}: the engine's has no such key"
            if ours[k] != theirs[k]:
                return _first_apart(ours[k], theirs[k], path + [k])
        extra = next(k for k in theirs if k not in ours)
        return path + [extra], None, f"at {json_path(path + [extra])}: only the engine's has this key"
    if isinstance(ours, list) and isinstance(theirs, list) and len(ours) == len(theirs):
        for i, (a, b) in enumerate(zip(ours, theirs)):
            if a != b:
                return _first_apart(a, b, path + [i])
    return path, ours, f"at {json_path(path)}: {show(ours)} where the engine has {show(theirs)}"
