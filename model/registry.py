"""Rule sets by id.  Modules are imported on first use so one broken rule set cannot stop the rest."""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from .core import RuleSet, SetupError

# this module decides nothing about play, and why (the decision-point finder reads this)
PLUMBING = "one-line error for an unknown rule set id"


@dataclass(frozen=True)
class Entry:
    id: str
    title: str
    model: str
    """Module whose ``RULES`` attribute is the RuleSet."""
    check: str
    """Module (under tablerules.proofs) whose ``checks(options)`` lists the check-suite items."""
    kernel: str | None = None
    """Module whose ``kernel(setup)`` gives the compact kernel (model/compact.py), for rule sets
    that declare a progress measure; None where the exact engine cannot run."""
    playout: str | None = None
    """Module with a compiled ``random_playouts(state, games, seed)`` (yielding
    model/playout.py's ``Playout``) and ``available(setup)`` (model/playout.py uses it); None
    where whole games go through the step API."""


ENTRIES: dict[str, Entry] = {
    e.id: e
    for e in (
        Entry(
            "dishes", "Who Is Going to Do the Dishes?", "tablerules.model.dishes", "tablerules.proofs.dishes.check",
            "tablerules.model.dishes.compact", "tablerules.model.dishes.playout",
        ),
        Entry(
            "just-desserts", "Just Desserts (current rulebook)", "tablerules.model.just_desserts",
            "tablerules.proofs.just_desserts.check", playout="tablerules.model.just_desserts.playout",
        ),
        Entry(
            "just-desserts-2.3", "Just Desserts, rules version 2.3", "tablerules.model.just_desserts.v23",
            "tablerules.proofs.just_desserts.v23_check", playout="tablerules.model.just_desserts.v23_playout",
        ),
    )
}


def ruleset_ids() -> list[str]:
    return list(ENTRIES)


def get(ruleset_id: str) -> RuleSet:
    """The RuleSet for an id; SetupError (one line) for an unknown id."""
    entry = ENTRIES.get(ruleset_id)
    if entry is None:
        raise SetupError(f"unknown rule set {ruleset_id!r} (known: {', '.join(ENTRIES)})")
    return importlib.import_module(entry.model).RULES


def require_kernel(ruleset_id: str) -> str:
    """The module of a rule set's compact kernel; SetupError (one line) for an unknown id or
    a rule set the exact engine cannot run (checked before any setup is built)."""
    entry = ENTRIES.get(ruleset_id)
    if entry is None:
        raise SetupError(f"unknown rule set {ruleset_id!r} (known: {', '.join(ENTRIES)})")
    if entry.kernel is None:
        raise SetupError(f"{ruleset_id}: the exact engine needs a progress measure (a proved ranking function) "
                         "and a compact kernel; this rule set has none (dishes has both)")
    return entry.kernel


def kernel(ruleset_id: str, setup, **options) -> object:
    """The compact kernel of a rule set for a setup; SetupError (one line) where there is none."""
    return importlib.import_module(require_kernel(ruleset_id)).kernel(setup, **options)
