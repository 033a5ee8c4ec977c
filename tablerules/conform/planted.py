"""Planted faults: the reference engine with one mutant of the model each, one per clause family.

Each fault is a mutant of the mutation coverage (:mod:`tablerules.proofs.mutation`) that the
coverage run kills (a text property rejects it), at a decision point whose ``# rule:``
annotation names a clause of the family.  ``tablerules conform RULESET --planted-faults`` runs
each as a subprocess engine (``python -m tablerules.conform.reference_engine --mutant
RULESET:ID``) and tables whether it was caught and the length of the shrunk failing game.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from tablerules.model.core import SetupError
from tablerules.proofs.mutation.mutants import MutantSource, apply_mutant, short_id, write_mutants


@dataclass(frozen=True)
class Fault:
    ruleset: str
    family: str
    """The clause family (the first two parts of the clause ids the mutated decision names)."""
    mutant: str
    """The mutant's short id (``tablerules mutants RULESET --mutant ID`` judges it)."""
    about: str
    """The change, in words."""

    @property
    def argument(self) -> str:
        return f"{self.ruleset}:{self.mutant}"

    def command(self) -> str:
        """The engine command line that runs the reference engine with this fault planted."""
        return f"{_python()} -m tablerules.conform.reference_engine --mutant {self.argument}"


FAULTS: tuple[Fault, ...] = ()
"""The planted faults, per rule set (see the module docstring for how they were chosen)."""


def _python() -> str:
    import shlex

    return shlex.quote(sys.executable)


def faults(ruleset: str) -> list[Fault]:
    return [f for f in FAULTS if f.ruleset == ruleset]


def find(argument: str) -> MutantSource:
    """The mutant ``RULESET:ID`` names (ID: the full id or the short id); SetupError otherwise."""
    ruleset, sep, mid = argument.partition(":")
    if not sep or not mid:
        raise SetupError(f"--mutant {argument!r}: expected RULESET:ID (an id as `tablerules mutants` shows it)")
    from tablerules.proofs.mutation.mutants import STEP_API_FILES

    if ruleset not in STEP_API_FILES:
        raise SetupError(f"--mutant {argument!r}: unknown rule set {ruleset!r} (known: {', '.join(STEP_API_FILES)})")
    for source in write_mutants(ruleset):
        if mid in (source.mutant.id, short_id(source.mutant.id)):
            return source
    raise SetupError(f"--mutant {argument!r}: no such mutant of {ruleset} (`tablerules mutants {ruleset}` lists them)")


def plant(argument: str) -> str:
    """Put the mutant in place in this process; its short id and change, in words."""
    source = find(argument)
    apply_mutant(source)
    m = source.mutant
    return f"{short_id(m.id)} ({m.where} {m.function}: {m.description})"
