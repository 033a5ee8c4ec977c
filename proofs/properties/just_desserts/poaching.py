"""Just Desserts: Poaching & Blocking (jd.poach.*, jd.block.*, jd.tip.block-favourite).

A poach takes a claimed guest from another player once a turn; the poached player may block with
a satisfying set (a favourite only with the guest's other favourite); the checks of an attempt
are those of :mod:`.serving`, the record of the poaching opportunity is checked here.
"""

from __future__ import annotations

from typing import Any

from .. import Problem, Property
from .advanced import _on
from .readers import V, holder, mv
from .serving import _answers, serving
from .turn import _choose, _claimed_by_mover, _same_turn


def t_poach_record(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.poach.one-opportunity, jd.poach.blocked-no-retry: the poaching opportunity is used up by
    a successful poach or a blocked one, by nothing else."""
    if not _same_turn(rules, s, t):
        return None
    vs, vt = V(rules, s), V(rules, t)
    k = mv(m)
    p = vs["turn"]
    stolen = {g for g in _claimed_by_mover(vs, vt, p) if holder(vs, g) >= 0}
    want = "blocked" if k.verb == "block" else "done" if stolen else vs["poach"]
    if vt["poach"] != want:
        return f"{m}: the poaching record went {vs['poach']!r} -> {vt['poach']!r}, not {want!r}"
    return None


P = Property
PROPERTIES: tuple[Property, ...] = (
    P("jd.poach.attempt", "while choosing, the poaches offered are every satisfying set for every guest another "
      "player holds, while the poaching opportunity lasts and the guest was not surprised away",
      state=_choose(("poach",), "poaches"), applies=_on("poaching"), lines=((42, 43), (51, 51)),
      reads=("jd.ruling.serving-size",)),
    P("jd.poach.attempt", "a poach that is not thwarted takes the guest from its holder to the poacher",
      transition=serving("jd.poach.attempt"), applies=_on("poaching"), name="effect", lines=(42, 42),
      reads=("jd.ruling.serving-size",)),
    P("jd.poach.one-opportunity", "after a successful poach no second poach; a guest from the middle may still be "
      "served", transition=serving("jd.poach.one-opportunity"), applies=_on("poaching"), lines=(42, 44),
      reads=("jd.ruling.serving-size",)),
    P("jd.poach.one-opportunity", "the poaching opportunity is used up only by a successful or blocked poach",
      transition=t_poach_record, applies=_on("poaching"), name="record", lines=((42, 43), (51, 51))),
    P("jd.block.defender", "the poached player may block with every set from their hand that satisfies the guest, "
      "and nobody else may block", state=_answers(("block",), "blocks"), applies=_on("poaching"),
      lines=((43, 43), (45, 45)), reads=("jd.ruling.serving-size",)),
    P("jd.block.defender", "a poach is not settled before the poached player, if able to block, was asked",
      transition=serving("jd.block.defender#asked"), applies=_on("poaching"), name="asked",
      lines=((43, 43), (45, 45)), reads=("jd.ruling.serving-size",)),
    P("jd.block.defender", "a block keeps the guest with its holder and discards the blocking desserts",
      transition=serving("jd.block.defender#effect"), applies=_on("poaching"), name="effect", lines=(43, 43)),
    P("jd.block.cards-back", "a blocked poacher takes the desserts back, the attempt counts as no serving, and the "
      "servings from the middle stay open", transition=serving("jd.block.cards-back"), applies=_on("poaching"),
      lines=(43, 43)),
    P("jd.poach.blocked-no-retry", "after a blocked poach no poach at all is offered for the rest of the turn",
      transition=serving("jd.poach.blocked-no-retry"), applies=_on("poaching"), lines=(43, 43)),
    P("jd.block.favourite-only-by-other-favourite", "a poach with a favourite can be blocked only with the guest's "
      "other favourite", state=_answers(("block",), "blocks"), applies=_on("poaching"), lines=((43, 43), (45, 45)),
      reads=("jd.ruling.serving-size",)),
    P("jd.poach.victim-tip", "a player who loses a guest to a poach draws one dessert (and, on a surprised poach, as "
      "victim-tip-on-surprise says)", transition=serving("jd.poach.victim-tip"), applies=_on("poaching"),
      lines=((46, 46), (52, 52)),
      reads=("jd.ruling.victim-tip-on-surprise", "jd.ruling.tip-count", "jd.ruling.favourite-with-others")),
    P("jd.tip.block-favourite", "blocking with a favourite draws the tip", transition=serving("jd.tip.block-favourite"),
      applies=_on("poaching"), lines=(46, 46), reads=("jd.ruling.tip-count", "jd.ruling.favourite-with-others")),
    P("jd.poach.blocked-no-tip", "a blocked poacher draws nothing, favourite or not",
      transition=serving("jd.poach.blocked-no-tip"), applies=_on("poaching"), lines=(46, 46),
      reads=("jd.ruling.tip-count", "jd.ruling.favourite-with-others")),
)
