"""Properties that say more than they name: every property under every alternative of every ruling.

A text property says what its rulebook lines say, so it must hold whatever a ruling decides; a
property that needs a ruling names it (``Property.under`` or ``Property.reads``).  This module
checks that promise on the model, where a reviewer's eye would miss it:

* *fails*: the property fails under an alternative of a ruling it does not name (it states more
  than its lines: it is that ruling's property, or a new question);
* *left out*: its ``applies`` drops the setups of an alternative of a ruling it does not name
  (a ruling hidden where only optional rules, players and decks may decide);
* *fails where it applies*: it fails under the defaults, an optional rule, or an alternative it
  names (the model or the property is wrong).

Each setting is the defaults, each optional rule alone, every optional rule together, and each
other alternative of each ruling with every optional rule (as ``tablerules.proofs.discovery.decisions``
plays them), over the small configurations, breadth-first to a budget of states, and (``games``)
seeded random games with more players (:data:`RANDOM_GAMES_ON`).  A *state* is a
distinct position of the model (its hashable state value) reached from a new game of one
configuration under one setting; the figures count them.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from typing import Any, Callable

from tablerules.model import registry
from tablerules.model.core import (CHANCE, TERMINAL, RuleGap, SetupError, pick_by_probability, ruling_fields,
                                   variant_fields)

from ..discovery.decisions import decision_configs, with_alternative
from . import Property, check_state, check_transition, property_set, sweep

FAILS = "fails under an alternative it does not name"
LEFT_OUT = "left out under an alternative it does not name"
FAILS_WHERE_IT_APPLIES = "fails where it applies"


@dataclass(frozen=True)
class Flag:
    key: str
    """The property's key (``clause#name``)."""
    kind: str
    ruling: str
    """The ruling whose alternative the flag is about ("" under the defaults or an optional rule)."""
    alternative: str
    setting: str
    message: str
    trace: tuple[str, ...] = ()
    """The moves from a new game to where it failed (empty for *left out*)."""


@dataclass
class Audit:
    ruleset: str
    settings: int = 0
    setups: int = 0
    """Configurations times settings that could be set up."""
    states: int = 0
    """Distinct states checked, summed over setups."""
    positions: int = 0
    """Positions of the random games checked (each move's result, counted again where games meet)."""
    properties: int = 0
    named: int = 0
    """Properties that name at least one ruling."""
    flags: list[Flag] = field(default_factory=list)

    def rows(self) -> list[tuple[str, str]]:
        out = [("settings (defaults, optional rules, each other alternative)", f"{self.settings:,}"),
               ("setups (configuration x setting)", f"{self.setups:,}"),
               ("states checked (distinct positions, summed over setups)", f"{self.states:,}"),
               ("random-game positions checked (one per move)", f"{self.positions:,}"),
               ("properties (naming a ruling)", f"{self.properties:,} ({self.named:,})")]
        for f in self.flags:
            where = f"{f.ruling.split('.ruling.')[-1]}={f.alternative}" if f.ruling else f.setting
            out.append((f"{f.kind.upper()}: {f.key}", f"{where}: {f.message}"
                        + (f" after {' ; '.join(f.trace[-8:])}" if f.trace else "")))
        return out


def _settings(rules) -> list[tuple[str, str, str, object]]:
    """(label, ruling id, alternative, options): the defaults, the optional rules, and each other
    alternative of each ruling over every optional rule."""
    base = rules.Options()
    variants = variant_fields(rules.Options)
    every = dataclasses.replace(base, **{f.name: True for f in variants.values()})
    out = [("defaults", "", "", base)]
    out += [(f"option {name}", "", "", dataclasses.replace(base, **{f.name: True})) for name, f in variants.items()]
    if len(variants) > 1:
        out.append(("every option", "", "", every))
    for rid, f in ruling_fields(rules.Options).items():
        for alt in f.metadata["alternatives"][1:]:
            short = f"{rid.split('.ruling.')[-1]}={alt}"
            if variants:  # alone over the basic game too: an optional rule may keep its situation from arising
                out.append((f"{short} alone", rid, alt, with_alternative(base, rules, rid, alt)))
            out.append((short + (" with every option" if variants else ""), rid, alt,
                        with_alternative(every, rules, rid, alt)))
    return out


RANDOM_GAMES_ON: dict[str, tuple[tuple[int, str], ...]] = {
    "dishes": ((3, "3x4"), (4, "3x4")),
    "just-desserts": ((3, "jd-crowd"), (3, "jd-five-suits")),
    "just-desserts-2.3": ((3, "v23-tips"),),
}
"""(players, deck) played as seeded random games under every setting besides the breadth-first walk: more
players and longer games than the small configurations hold (a race after a failed call needs three seats)."""


def random_games(rules, setup, props: tuple[Property, ...], games: int, seed: int,
                 max_moves: int = 400) -> tuple[int, dict[str, tuple[Any, tuple[str, ...]]]]:
    """Seeded random games from a new game of ``setup``: (positions checked, first violation per property key
    with the moves that led to it)."""
    state_props = [p for p in props if p.state is not None]
    move_props = [p for p in props if p.transition is not None]
    found: dict[str, tuple[Any, tuple[str, ...]]] = {}
    positions = 0
    for g in range(games):
        rng = random.Random(seed * 1_000_003 + g)
        try:
            s = rules.new_game(setup)
        except RuleGap:
            return positions, found
        moves: list[str] = []
        for _ in range(max_moves):
            try:  # a strict alternative's gap ends the game (the gap finder's business, not a property's)
                actor = rules.to_move(s)
                if actor is TERMINAL:
                    break
                m = pick_by_probability(rules.chance_outcomes(s), rng.random()) if actor is CHANCE \
                    else rng.choice(rules.legal_moves(s))
                t = rules.apply(s, m)
            except RuleGap:
                break
            moves.append(str(m))
            positions += 1
            for v in check_transition(move_props, rules, s, m, t) + check_state(state_props, rules, t):
                found.setdefault(v.key, (v, tuple(moves)))
            s = t
    return positions, found


def audit(ruleset_id: str, max_states: int = 300, progress: Callable[[str], None] | None = None,
          props: tuple[Property, ...] | None = None, games: int = 0, seed: int = 0) -> Audit:
    """Every property of the rule set (or ``props``) under every setting; the flags, in setting order."""
    rules = registry.get(ruleset_id)
    props = property_set(ruleset_id).properties if props is None else props
    out = Audit(ruleset_id, properties=len(props), named=sum(1 for p in props if p.names()))
    chosen = _settings(rules)
    out.settings = len(chosen)
    fields = ruling_fields(rules.Options)
    configs = decision_configs(rules, None)
    seen: set[tuple[str, str, str]] = set()
    for n, (label, rid, alt, options) in enumerate(chosen, 1):
        if progress:
            progress(f"[{n}/{len(chosen)}] {ruleset_id}: properties under {label}")
        setups = []
        for c in configs:
            try:
                setup = rules.setup(c.players, options, c.components)
            except (SetupError, RuleGap):
                continue
            setups.append((f"{label} / {c.label()}", setup))
            if rid:  # the same setting with the ruling at its default
                base = dataclasses.replace(options, **{fields[rid].name: fields[rid].metadata["alternatives"][0]})
                _left_out(rules, props, c, base, setup, rid, alt, label, out, seen)
        out.setups += len(setups)
        result = sweep(rules, setups, props, max_states=max_states)
        out.states += result.states
        for players, deck in RANDOM_GAMES_ON.get(ruleset_id, ()) if games else ():
            try:
                setup = rules.setup(players, options, rules.load_components(deck))
            except (SetupError, RuleGap):
                continue
            played, found = random_games(rules, setup, props, games, seed + n)
            out.positions += played
            for key, (violation, path) in found.items():
                result.violations.setdefault(key, (violation, f"{label} / {players}p {deck}", path))
        by_key = {p.key: p for p in props}
        for key, (violation, where, path) in sorted(result.violations.items()):
            p = by_key[key]
            kind = FAILS if rid and rid not in p.names() else FAILS_WHERE_IT_APPLIES
            if (key, kind, label) not in seen:
                seen.add((key, kind, label))
                out.flags.append(Flag(key, kind, rid, alt, label, violation.message, path))
    return out


def _left_out(rules, props, config, base_options, setup, rid: str, alt: str, label: str, out: Audit,
              seen: set[tuple[str, str, str]]) -> None:
    """Flag each property whose ``applies`` answers otherwise under this alternative than under the same
    setting with the ruling's default, for a ruling it does not name."""
    try:
        base = rules.setup(config.players, base_options, config.components)
    except (SetupError, RuleGap):
        return
    for p in props:
        if rid in p.names() or (p.key, LEFT_OUT, label) in seen:
            continue
        if p.applies(base) != p.applies(setup):
            seen.add((p.key, LEFT_OUT, label))
            out.flags.append(Flag(p.key, LEFT_OUT, rid, alt, label,
                                  f"applies is {p.applies(setup)} here and {p.applies(base)} under the default "
                                  f"({config.label()})"))


CHECK_BUDGET = {"dishes": (150, 6), "just-desserts": (80, 1), "just-desserts-2.3": (300, 30)}
"""Per rule set, the check item's budget: (distinct states per setup breadth-first, random games per setting);
``--quick`` takes a tenth and ``--scale`` multiplies both.  Just Desserts has twice as many settings and its
properties cost most per position.  Sized so that the three items take about a minute together here."""


def audit_check_item(ruleset_id: str):
    """A check-suite item: the audit on ``ctx.states(600)`` states per setup; fails on any flag."""
    from ..checks import FAIL, PASS, CheckItem, CheckResult, Context

    name = "every property holds under every alternative of the rulings it does not name"

    def run(ctx: Context) -> CheckResult:
        import sys

        states, games = CHECK_BUDGET[ruleset_id]
        budget, games = ctx.states(states), ctx.states(games, least=1)
        ctx.progress(name)  # closes the previous item's live display
        result = audit(ruleset_id, max_states=budget, progress=lambda line: print(line, file=sys.stderr, flush=True),
                       games=games, seed=ctx.seed)
        rows = result.rows() + [("budget", f"{budget:,} states per setup; {games} random games per setting on "
                                           + ", ".join(f"{n}p {d}" for n, d in RANDOM_GAMES_ON.get(ruleset_id, ()))),
                                ("again", "tablerules check " + ruleset_id + (" --quick" if ctx.quick else ""))]
        summary = (f"{result.properties} properties ({result.named} name a ruling) under {result.settings} settings, "
                   f"{result.states:,} states and {result.positions:,} random-game positions: "
                   f"{len(result.flags)} flagged")
        return CheckResult(ruleset_id, name, FAIL if result.flags else PASS, summary, rows)

    return CheckItem(ruleset_id, name, run)
