"""Planted faults: the reference engine with one mutant of the model each, one per clause family.

Each fault is a mutant of the mutation coverage (:mod:`tablerules.proofs.discovery.mutation`) that the
coverage run kills (a text property rejects it), at a decision point whose ``# rule:``
annotation names a clause of the family.  ``tablerules conform RULESET --planted-faults`` runs
each as a subprocess engine (``reference --mutant RULESET:ID``,
the reference engine under this interpreter) and tables whether it was caught and the length of the shrunk failing game.
"""

from __future__ import annotations

from dataclasses import dataclass

from tablerules.model.core import SetupError
from tablerules.proofs.discovery.mutation.mutants import MutantSource, apply_mutant, short_id, write_mutants


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
        return f"reference --mutant {self.argument}"


# Judged killed on 2026-12-05: the five of dishes by `tablerules mutants dishes` (all 603 mutants),
# the nine of just-desserts by `tablerules mutants just-desserts --mutant ID ...` (those nine), the
# eight of just-desserts-2.3 by `tablerules mutants just-desserts-2.3` (all 708 mutants); jd23.serve's
# m68585a9f by `tablerules mutants just-desserts-2.3 --mutant m68585a9f` (killed: a move's text reads back as the move).
FAULTS: tuple[Fault, ...] = (
    Fault("dishes", "dishes.play", "m1e1b4e0c", "real_moves: placing ignores whether the two tiles match "
          "(place-match)"),
    Fault("dishes", "dishes.end", "mce32eb80", "_work_out: the game ends while another seat can still move (no-moves)"),
    Fault("dishes", "dishes.components", "m44476824", "_colours_shown: a kind's colours counted from the wrong kind "
          "(colour-sets)"),
    Fault("dishes", "dishes.setup", "me0b5460d", "layouts_of: each seat gets the other seat's places (layout)"),
    Fault("dishes", "dishes.ruling", "m99439bb5", "layouts_of: the two-player deal read the other way "
          "(deal-2-players)"),
    Fault("just-desserts", "jd.turn", "m85f507dc", "_legal_moves: no serving offered while servings remain "
          "(satisfy-guests)"),
    Fault("just-desserts", "jd.serve", "mc2887867", "serving_possible: the test for a possible serving reversed "
          "(satisfies)"),
    Fault("just-desserts", "jd.discard", "m6c673a22", "_suits_twice: a suit counts as doubled when held once "
          "(one-per-suit)"),
    Fault("just-desserts", "jd.win", "m567aed93", "winning_clause: three of a suit reversed (three-of-a-suit)"),
    Fault("just-desserts", "jd.tip", "me58873e3", "tips_for: a favourite's tip given for every other dessert "
          "(favourite)"),
    Fault("just-desserts", "jd.poach", "m15229d3d", "poach_moves: poaching offered to the wrong seat (attempt)"),
    Fault("just-desserts", "jd.block", "mdc220e2f", "answers_of: a block offered to seats other than the victim "
          "(defender)"),
    Fault("just-desserts", "jd.buffet", "m878083de", "_option_moves: a buffet offered without the Opening a Buffet "
          "rule (aces)"),
    Fault("just-desserts", "jd.surprise", "md45d94fd", "poach_moves: a guest shielded by a surprise party may be "
          "poached back (no-poach-back)"),
    Fault("just-desserts-2.3", "jd23.call", "m59bc0468", "offered_servings: only a mistaken caller may serve "
          "(first-serves)"),
    Fault("just-desserts-2.3", "jd23.draw", "md0392354", "_draw: the draws owed are skipped (guest-leaves-hungry)"),
    Fault("just-desserts-2.3", "jd23.end", "mf24cab19", "_guest_pile_ran_out: the first exhaustion ends the game "
          "(second-exhaustion)"),
    Fault("just-desserts-2.3", "jd23.favourite", "mb3608edf", "_serve: no extra card for a favourite (extra-card)"),
    Fault("just-desserts-2.3", "jd23.kitchen", "me4d172dd", "_favourite_draws: a closed Kitchen still gives cards "
          "(closes)"),
    Fault("just-desserts-2.3", "jd23.round", "m2deb46c3", "_answer: the round goes on as if nobody called "
          "(turn-up-guest)"),
    Fault("just-desserts-2.3", "jd23.serve", "m68585a9f", "illegal_reason: a serving of one card is refused "
          "(one-to-three)"),
    Fault("just-desserts-2.3", "jd23.score", "m97b35e11", "outcome: a tie for most guests has a single winner "
          "(guests)"),
    Fault("just-desserts-2.3", "jd23.setup", "m39d28c23", "chance_outcomes: the deal deals no desserts "
          "(deal-five)"),
)
"""The planted faults, per rule set (see the module docstring for how they were chosen)."""


def faults(ruleset: str) -> list[Fault]:
    return [f for f in FAULTS if f.ruleset == ruleset]


def find(argument: str) -> MutantSource:
    """The mutant ``RULESET:ID`` names (ID: the full id or the short id); SetupError otherwise."""
    ruleset, sep, mid = argument.partition(":")
    if not sep or not mid:
        raise SetupError(f"--mutant {argument!r}: expected RULESET:ID (an id as `tablerules mutants` shows it)")
    from tablerules.proofs.discovery.mutation.mutants import STEP_API_FILES

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
