"""Just Desserts: Surprise Parties (jd.surprise.*).

A serving without a favourite may be surprised by a player holding a favourite, who takes the
guest; the server has the desserts back and goes on; the first answer settles the serving and the
surprised guest is kept from poaching for the rest of the turn.
"""

from __future__ import annotations

from typing import Any

from tablerules.model.core import CHANCE

from .. import Problem, Property
from .advanced import _on
from .readers import V, actor, key_text, legal, mv
from .serving import _answers, _window, serving
from .turn import _same_turn


def p_window_only_answers(rules: Any, state: Any) -> Problem:
    """jd.surprise.first-offered: while a serving waits for answers, the only moves are answers
    (block, surprise, pass), and the server is not among those answering."""
    w = _window(rules, state)
    if w is None:
        return None
    extra = {k for k in legal(rules, state) if k[0] not in ("block", "surprise", "pass")}
    return f"moves other than answers while a serving waits: {sorted(map(key_text, extra))}" if extra else None


def p_race(rules: Any, state: Any) -> Problem:
    """jd.surprise.first-offered (jd.ruling.answer-order): when several players may answer, who
    speaks first is a chance event over the players asked (race), never the server; under
    clockwise there is no such event."""
    if actor(rules, state) is not CHANCE:
        return None
    firsts = [(mv(m), p) for m, p in rules.chance_outcomes(state) if mv(m).verb == "first"]
    if not firsts:
        return None
    v = V(rules, state)
    if state.setup.options.answer_order == "clockwise":
        return "a race for the first answer under answer-order=clockwise"
    seats = [k.seat for k, _ in firsts]
    if len(set(seats)) != len(seats) or len(seats) < 2:
        return f"a race among seats {seats}"
    if v["offer"] is None or v["offer"]["server"] in seats:
        return "the server takes part in the race to answer"
    if any(p <= 0 for _, p in firsts) or sum(p for _, p in firsts) != 1:
        return "the race's odds are not a distribution"
    return None


def t_shield_record(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.surprise.no-poach-back: a guest surprised away is kept from the thwarted player for the
    rest of the turn, and only such guests."""
    if not _same_turn(rules, s, t):
        return None
    vs, vt = V(rules, s), V(rules, t)
    k = mv(m)
    want = set(vs["shielded"]) | ({vs["offer"]["guest"]} if k.verb == "surprise" and vs["offer"] else set())
    if set(vt["shielded"]) != want:
        return f"{m}: the guests kept from poaching went {vs['shielded']} -> {vt['shielded']}"
    return None


def t_answer_closes(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.surprise.first-offered: the first block or surprise offered settles the guest; nobody
    else answers that serving."""
    if mv(m).verb not in ("block", "surprise"):
        return None
    if V(rules, t)["offer"] is not None:
        return f"after {m} the serving still waits for answers"
    return None


P = Property
PROPERTIES: tuple[Property, ...] = (
    P("jd.surprise.intercept", "a serving without a favourite from the middle or a poach (the doorway under "
      "surprise-doorway=any-serving) may be surprised by any other player holding a favourite",
      state=_answers(("surprise",), "surprises"), applies=_on("surprise_parties"), lines=((29, 29), (50, 50)),
      reads=("jd.ruling.surprise-doorway", "jd.ruling.victim-surprise", "jd.ruling.surprise-serving",
             "jd.ruling.serving-size")),
    P("jd.surprise.intercept", "a surprisable serving is not settled before every player able to surprise was asked",
      transition=serving("jd.surprise.intercept#asked"), applies=_on("surprise_parties"), name="asked",
      lines=((29, 29), (50, 50)),
      reads=("jd.ruling.surprise-doorway", "jd.ruling.victim-surprise", "jd.ruling.surprise-serving",
             "jd.ruling.serving-size")),
    P("jd.surprise.intercept", "a surprise gives the guest to the surprising player and discards the favourite",
      transition=serving("jd.surprise.intercept#effect"), applies=_on("surprise_parties"), name="effect",
      lines=(50, 50)),
    P("jd.surprise.needs-favourite", "a surprise is one favourite alone (or a serving with a favourite under "
      "surprise-serving=serving-with-favourite)", state=_answers(("surprise",), "surprises"),
      applies=_on("surprise_parties"), lines=(50, 50),
      reads=("jd.ruling.surprise-serving", "jd.ruling.surprise-doorway", "jd.ruling.victim-surprise",
             "jd.ruling.serving-size")),
    P("jd.surprise.continue", "after a surprise the server has the desserts back and exactly the moves they had before "
      "the attempt, less the surprised guest (under jd.ruling.surprised-attempt=commits, only its servings and stop)",
      transition=serving("jd.surprise.continue"),
      applies=_on("surprise_parties"), lines=(51, 51), reads=("jd.ruling.surprised-attempt",)),
    P("jd.surprise.continue", "the surprised server draws nothing", transition=serving("jd.surprise.continue#no-tip"),
      applies=_on("surprise_parties"), name="no-tip", lines=(51, 51), reads=("jd.ruling.victim-tip-on-surprise",)),
    P("jd.surprise.no-poach-back", "the surprised guest may not be poached back in the same turn",
      transition=serving("jd.surprise.no-poach-back"), applies=_on("surprise_parties", "poaching"), lines=(51, 51)),
    P("jd.surprise.no-poach-back", "a surprised guest is kept from poaching for the rest of the turn, only it",
      transition=t_shield_record, applies=_on("surprise_parties"), name="record", lines=(51, 51)),
    P("jd.surprise.no-poach-back", "the surprise records the guest as kept from poaching",
      transition=serving("jd.surprise.no-poach-back#record"), applies=_on("surprise_parties"), name="recorded",
      lines=(51, 51)),
    P("jd.surprise.no-tip", "a surprise earns no tip", transition=serving("jd.surprise.no-tip"),
      applies=_on("surprise_parties"), lines=(52, 52), reads=("jd.ruling.victim-tip-on-surprise",)),
    P("jd.surprise.first-offered", "the first block or surprise settles the serving; while it waits only answers are "
      "possible", transition=t_answer_closes, lines=((43, 43), (50, 51)),
      under={"jd.ruling.plain-block-vs-surprise": ("first-offered",), "jd.ruling.surprise-on-block": ("no",)}),
    P("jd.surprise.first-offered", "each player answers a serving at most once; under answer-order=race anyone able "
      "may speak first, under clockwise the answers go clockwise from the server",
      transition=serving("jd.surprise.first-offered#order"), name="order", lines=((43, 43), (50, 51)),
      reads=("jd.ruling.answer-order", "jd.ruling.serving-size", "jd.ruling.surprise-doorway",
             "jd.ruling.victim-surprise", "jd.ruling.surprise-serving")),
    P("jd.surprise.first-offered", "while a serving waits, the only moves are answers", state=p_window_only_answers,
      name="answers-only", lines=((43, 43), (50, 51))),
    P("jd.surprise.first-offered", "who answers first is a chance event over the players asked (answer-order=race), "
      "never the server", state=p_race, name="race", lines=(51, 51), reads=("jd.ruling.answer-order",)),
)
