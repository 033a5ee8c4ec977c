"""Just Desserts 2.3: the Favorite's trump (jd23.call.favourite-trump).

A player holding the guest's Favorite trumps the first caller and must serve the Favorite, as
jd23.ruling.favourite-trump reads it (favourite-caller-first, favourite-call, no-trump, strict).
"""

from __future__ import annotations

from typing import Any

from tablerules.model.core import RuleGap

from .. import Problem, Property
from .readers import (COUNTER, RACE, SPARE, TRUMP, TRUMP_RULING, WITH_OTHERS, favourite_servings, follow_forced,
    holders, race_seats, said, seat_moves, server_of, table, when)
from .silent import _trump_question, gaps_only_where_silent


def trumper_serves(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.call.favourite-trump (favourite-caller-first): a first caller without a Favorite serving
    is trumped by the other contender holding one; several such race among themselves; after
    that race its winner serves."""
    m = said(move)
    if m.kind != "first":
        return None
    t = table(rules, state)
    if t.trumped:
        after, problem = follow_forced(rules, nxt)
        if problem or server_of(rules, after) != m.seat:
            return problem or f"trumper {m.seat} won the race and does not serve"
        return None
    h = holders(t, t.live())
    if h is None or not h or m.seat in h:
        return None
    after, problem = follow_forced(rules, nxt)
    if problem:
        return problem
    if len(h) == 1:
        if server_of(rules, after) != h[0]:
            return f"seat {h[0]} trumps first caller {m.seat} with a Favorite, yet {rules.to_move(after)!r} serves"
        return None
    race = race_seats(rules, after)
    if race is None or race[0] != set(h):
        return f"trumpers {list(h)} should race, got {race and sorted(race[0])}"
    return None


def favourite_must_be_served(rules: Any, state: Any) -> Problem:
    """jd23.call.favourite-trump (favourite-caller-first): while other callers contend, a server
    holding a Favorite serving must serve one, and a server holding none serves only when no
    contender holds one."""
    seat = server_of(rules, state)
    if seat is None:
        return None
    t = table(rules, state)
    live = t.live()
    if len(live) < 2:
        return None
    h = holders(t, live)
    if h is None:
        return None
    if h and seat not in h:
        return f"seat {seat} serves without a Favorite while seats {list(h)} hold one"
    if seat in h:
        got = {m.cards for m, _ in seat_moves(rules, state) if m.kind == "serve"}
        want = favourite_servings(t, seat)
        if got != want:
            return (f"seat {seat} holds a Favorite while others called: may serve {sorted(got)}, the reading says "
                    f"{sorted(want)}")
    return None


def trump_answers_forced(rules: Any, state: Any) -> Problem:
    """jd23.call.favourite-trump (favourite-caller-first): asked whether it holds a Favorite serving,
    a contender answers truthfully, and only a contender is asked."""
    t = table(rules, state)
    if t.phase not in (TRUMP, COUNTER):
        return None
    seat = rules.to_move(state)
    if seat not in t.live():
        return f"seat {seat} is asked about a Favorite without a standing call"
    favs = favourite_servings(t, seat)
    if favs is None:
        return None
    got = [str(m) for _, m in seat_moves(rules, state)]
    want = ["favourite"] if favs else ["pass"]
    return None if got == want else f"seat {seat} may answer {got} to the trump, holding {sorted(favs)}"


def trump_asks_only_others(rules: Any, state: Any) -> Problem:
    """jd23.call.favourite-trump: the first caller serves unless *someone else* trumps the call
    with a Favorite, so while a trump is asked the first caller is never the one asked."""
    t = table(rules, state)
    if t.phase != TRUMP:
        return None
    first = rules.state_vars(state)["first"]
    if first is None or first < 0:
        return None
    if rules.to_move(state) == first or (first < len(t.trumps) and t.trumps[first] == ""):
        return f"seat {first} called first and is asked whether it trumps its own call"
    return None


def strict_trump_gap(rules: Any, state: Any) -> Problem:
    """jd23.call.favourite-trump, strict: the text never explains the trump, so a race among several
    contenders one of whom holds a Favorite serving is a gap, and no other race is."""
    t = table(rules, state)
    if t.phase != RACE or t.trumped:
        return None
    h = holders(t, t.live())
    if h is None:
        return None
    try:
        rules.chance_outcomes(state)
    except RuleGap:
        return None if h else "a race without any Favorite serving raises the trump gap"
    return f"contenders {list(h)} hold a Favorite serving and the race raises no gap" if h else None


def no_trump_first_serves(rules: Any, state: Any) -> Problem:
    """jd23.call.favourite-trump, no-trump (departs from the clause on purpose) and strict (which
    stops where the trump would be needed): nobody is ever asked about a Favorite."""
    t = table(rules, state)
    if t.phase in (TRUMP, COUNTER) or t.trumped:
        return f"a trump is asked for (phase {t.phase}) under no-trump"
    return None


PROPERTIES = (
    Property(
        "jd23.call.favourite-trump",
        "favourite-caller-first: another contender's Favorite trumps a first caller without one (several race)",
        transition=trumper_serves, under=when(TRUMP_RULING, "favourite-caller-first"), name="trumper-serves",
        lines=((11, 11), (23, 23)), reads=(SPARE, WITH_OTHERS),
    ),
    Property(
        "jd23.call.favourite-trump",
        "favourite-caller-first: while others contend, a Favorite holder serves and must serve a Favorite",
        state=favourite_must_be_served, under=when(TRUMP_RULING, "favourite-caller-first"),
        name="must-serve-favourite", lines=((11, 11), (23, 23)), reads=(SPARE, WITH_OTHERS),
    ),
    Property(
        "jd23.call.favourite-trump", "the first caller is never asked to trump its own call",
        state=trump_asks_only_others, name="others", lines=(11, 11),
    ),
    Property(
        "jd23.call.favourite-trump", "favourite-caller-first: asked about a Favorite, a contender answers truthfully",
        state=trump_answers_forced, under=when(TRUMP_RULING, "favourite-caller-first"), name="answers-forced",
        lines=((11, 11), (23, 23)), reads=(SPARE, WITH_OTHERS),
    ),
    Property(
        "jd23.call.favourite-trump", "strict: a race among contenders where one holds a Favorite is a gap, no other is",
        state=strict_trump_gap, under=when(TRUMP_RULING, "strict"), name="strict-gap", lines=((11, 11), (23, 23)),
        reads=(SPARE, WITH_OTHERS),
    ),
    Property(
        "jd23.call.favourite-trump", "its gap only under strict, where several contend and one holds a Favorite",
        state=gaps_only_where_silent(TRUMP_RULING, _trump_question), name="gap", lines=((11, 11), (23, 23)),
        reads=(TRUMP_RULING, SPARE, WITH_OTHERS),
    ),
    Property(
        "jd23.call.favourite-trump",
        "no-trump and strict (depart from the clause on purpose): nobody is asked about a Favorite",
        state=no_trump_first_serves, under=when(TRUMP_RULING, "no-trump", "strict"), name="no-trump",
        lines=((11, 11), (23, 23)),
    ),
)
