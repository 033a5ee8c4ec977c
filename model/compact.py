"""Compact kernels: a rule set's rules on whole batches of small encoded states.

The core API (:mod:`tablerules.model.core`) moves one frozen state at a time, which is
what a reader, a verifier and a test want.  Counting or solving a whole game needs the
same rules on millions of states at once.  A rule set that declares a *progress measure*
(a ranking function that every action lowers, so each game is finite and the states fall
into levels) may offer a :class:`Kernel`: its rules over NumPy arrays of byte rows, one
row per state, holding only what decides the future of play.

A row is ``table_width`` bytes of *table state* (whose turn it is and what lies on the
table, the part any player sees) followed by *memory* (what the rules still need from the
past, such as which colours have been shown).  Rows are canonical: the kernel maps every
state to one representative of its orbit under the rule set's symmetries, chosen so that
the table part of a canonical row is the canonical form of its table state.  The exact
engine (:mod:`tablerules.proofs.exact.levels`) is written against this module only.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

import numpy as np

@dataclass
class Expansion:
    """Every way play goes on from a batch of canonical, non-terminal rows.

    One entry per *child*: the canonical row reached, the parent's index in the batch, the
    action taken (a code in the parent's own labelling) and the chance probability
    ``p_num / p_den`` of this child given the action (1/1 when no chance is involved).
    ``actions[i]`` is how many actions parent ``i`` has (0: the game is over there).
    ``passes`` are the canonical rows of states where the player to move had no action and
    passed on the way to a child: table states of the next level that are not expanded.
    """

    children: np.ndarray
    parent: np.ndarray
    action: np.ndarray
    p_num: np.ndarray
    p_den: np.ndarray
    actions: np.ndarray
    passes: np.ndarray


@dataclass
class Outcomes:
    """Who lost at each terminal row: ``losers[i, seat]``; a row with no loser is a draw."""

    losers: np.ndarray

    @property
    def sole(self) -> np.ndarray:
        return self.losers & (self.losers.sum(axis=1, keepdims=True) == 1)


class Kernel(Protocol):
    """A rule set's rules on batches of canonical rows (see the module docstring)."""

    players: int
    width: int
    table_width: int
    group_order: int
    """Size of the symmetry group the canonical form reduces by."""
    colour_group_order: int
    """Size of its colour part (for counts up to colours only)."""
    weight_scale: int
    """D such that :meth:`history_weight` is D times the probability of what chance has shown."""

    def start(self) -> list[tuple[np.ndarray, Fraction]]:
        """Canonical rows where play starts, each with its probability (chance before play)."""
        ...

    def expand(self, rows: np.ndarray) -> Expansion: ...

    def canonical(self, rows: np.ndarray) -> np.ndarray: ...

    def table_stabilisers(self, table_rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For canonical table rows: (size of the stabiliser in the whole group, in the colour group)."""
        ...

    def outcome(self, rows: np.ndarray) -> Outcomes: ...

    def history_weight(self, rows: np.ndarray) -> np.ndarray:
        """``weight_scale`` x P(the colours shown so far), as int64: the same for every way into a row."""
        ...

    def invariants(self, rows: np.ndarray) -> list[tuple[str, str, np.ndarray]]:
        """(name, clause id, boolean mask of the rows that break it) for every invariant a row can show."""
        ...

    def encode(self, state: Any) -> np.ndarray:
        """The (not yet canonical) row of a state of the rule set's own model."""
        ...

    def chance(self, state: Any) -> list[tuple[Any, Fraction]]:
        """The rule set's chance outcomes in ``state`` as this kernel deals them (a fixed deal restricts them)."""
        ...

    def describe_action(self, code: int) -> str:
        """The canonical text of an action code, in the labelling of the row it was taken from."""
        ...
