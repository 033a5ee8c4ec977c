"""Just Desserts: the advanced rules in use (jd.advanced.options).

A move of Poaching & Blocking, Opening a Buffet or Surprise Parties appears only with that rule
in use; :func:`_on` leaves out the setups without it for the properties of those rules.
"""

from __future__ import annotations

from typing import Any, Callable

from .. import Problem, Property
from .readers import actor, is_seat, legal


def _options_gate(rules: Any, state: Any) -> Problem:
    """jd.advanced.options: a move of an advanced rule appears only with that rule in use."""
    a = actor(rules, state)
    if not is_seat(a):
        return None
    o = state.setup.options
    verbs = {k[0] for k in legal(rules, state)}
    if not o.poaching and verbs & {"poach", "block"}:
        return "a poach or block without the Poaching & Blocking rule"
    if not o.buffet and verbs & {"buffet", "return"}:
        return "a buffet without the Buffet rule"
    if not o.surprise_parties and "surprise" in verbs:
        return "a surprise without the Surprise Parties rule"
    return None


def _on(*names: str) -> Callable:
    def applies(setup: Any) -> bool:
        return all(getattr(setup.options, n) for n in names)
    return applies


P = Property
PROPERTIES: tuple[Property, ...] = (
    P("jd.advanced.options", "moves of an advanced rule appear only when that rule is in use", state=_options_gate,
      lines=(40, 40)),
)
