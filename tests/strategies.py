"""Shared Hypothesis helpers for the rule sets' stateful tests."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from tablerules.model.core import CHANCE, RuleSet, check_distribution

DEEP_EXAMPLES = 120
"""Games a stateful machine's deep run plays (the slow tier); the quick tier plays the profile's
(tests/conftest.py: 30)."""


def draw_next_move(rules: RuleSet, state: Any, data: st.DataObject) -> Any:
    """A chance outcome or legal move for ``state``, drawn by Hypothesis, after the checks every
    rule set owes: chance outcomes are exact and sum to 1; a seat to move has a move; every
    listed move is legal (no clause forbids it) and prints and parses back."""
    if rules.to_move(state) is CHANCE:
        outcomes = rules.chance_outcomes(state)
        assert check_distribution(outcomes) is None
        return data.draw(st.sampled_from([m for m, _ in outcomes]))
    legal = rules.legal_moves(state)
    assert legal, "a seat to move always has a move"
    assert all(rules.illegal_reason(state, m) is None for m in legal)
    move = data.draw(st.sampled_from(legal))
    assert rules.parse_move(str(move), state.setup) == move
    return move
