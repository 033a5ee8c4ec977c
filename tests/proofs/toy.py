"""Pieces shared by the toy rule sets in the gap and divergence tests: a running total and
an `add N` move."""

from __future__ import annotations

from dataclasses import dataclass

from tablerules.model.core import Setup


@dataclass(frozen=True, slots=True)
class State:
    setup: Setup
    total: int = 0
    turn: int = 0


@dataclass(frozen=True, slots=True, order=True)
class Add:
    n: int

    def __str__(self) -> str:
        return f"add {self.n}"
