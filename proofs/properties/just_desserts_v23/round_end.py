"""Just Desserts 2.3: how a round ends (jd23.round.five-endings, jd23.round.all-pass,
jd23.call.simultaneous).

A round ends in one of five ways; when everybody passes, or two call at once, the guest leaves
hungry and everyone draws.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from tablerules.model.core import TERMINAL

from .. import Problem, Property
from .readers import (ANSWER, DECLINE, EMPTY_HAND, ODDS, PILE, SIMUL_MISTAKEN, TAKER, alt, can_serve, chance,
    hungry_result, race_seats, said, settle, table, when)
from .silent import _tie_question, gaps_only_where_silent


def guest_leaves_by_an_ending(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.round.five-endings: a guest leaves the table only in one of the five ways: served (the
    server keeps it), or discarded after all passed, a tie, or every caller mistaken; when it is
    discarded every player then draws a dessert (Kitchen permitting)."""
    t, a = table(rules, state), table(rules, nxt)
    if t.guest is None or a.guest is not None:
        return None
    m = said(move)
    takers = [s for s in range(t.n) if a.collected[s] != t.collected[s]]
    if m.kind == "serve":
        if takers != [rules.to_move(state)]:
            return f"served guest went to seats {takers}"
        return None
    if takers:
        return f"guest {t.guest} collected by seats {takers} without a serving ({move})"
    if m.kind == "pass":
        ok = t.phase == ANSWER and not t.callers() and t.answers.count("") == 1
    elif m.kind == "simultaneous":
        ok = True
    elif m.kind == "fail":
        ok = set(t.live()) == {rules.to_move(state)}
    elif m.kind == "penalty":  # a caller able to serve may have stepped aside under decline-after-call=may-decline
        ok = m.seat in t.callers() and (not can_serve(t, m.seat) or alt(t.setup, DECLINE) == "may-decline")
    else:
        ok = False
    if not ok:
        return f"guest {t.guest} left hungry on {move}, which is none of the five endings"
    if Counter(a.discards) + Counter(a.guest_pile) != Counter(t.discards) + Counter(t.guest_pile) + Counter([t.guest]):
        return f"guest {t.guest} left hungry and is not among the discards"
    return hungry_result(rules, a, settle(rules, nxt), {})


def all_pass(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.round.all-pass: when the last player passes and nobody called, the guest goes hungry at
    once: discarded, nobody pays, every player draws one, and the next guest is due."""
    t = table(rules, state)
    if t.phase != ANSWER or t.callers() or t.answers.count("") != 1 or said(move).kind != "pass":
        return None
    a = table(rules, nxt)
    if a.guest is not None:
        return f"everybody passed and guest {t.guest} is still on the table"
    if a.hands != t.hands or a.dishes != t.dishes:
        return "a card moved when everybody passed"
    end = settle(rules, nxt)
    problem = hungry_result(rules, t, end, {})
    if problem:
        return problem
    if rules.to_move(end) is not TERMINAL and not {m.kind for m, _, _ in chance(rules, end)} == {"turn-up"}:
        return "after everybody passed and drew, the next guest is not due"
    return None


def simultaneous_ends_round(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.call.simultaneous: a truly simultaneous call ends the round: the guest is discarded,
    nobody serves, and every player draws; a tied caller without a serving pays nothing
    (jd23.ruling.simultaneous-mistaken = no-penalty), one card (penalty), or it is a gap (strict)."""
    if said(move).kind != "simultaneous":
        return None
    t = table(rules, state)
    live = t.live()
    unable = [s for s in live if not can_serve(t, s)]
    choice = alt(t.setup, SIMUL_MISTAKEN)
    if unable and choice == "strict":
        return f"tied callers {unable} cannot serve and the tie raises no gap"
    end = settle(rules, nxt)
    payers: dict[int, int] = {}
    if unable and choice == "penalty":
        if len(live) > 2:
            return None  # who of three or more contenders "tied" is not said; checked with two
        if any(not t.hands[s] for s in unable) and alt(t.setup, EMPTY_HAND) == "strict":
            return f"tied callers {unable} pay and one has no card, without the strict gap"
        payers = {s: 1 for s in unable if t.hands[s]}
    if table(rules, end).guest is not None:
        return "the guest is still on the table after a simultaneous call"
    return hungry_result(rules, t, end, payers)


def tie_is_possible(rules: Any, state: Any) -> Problem:
    """jd23.call.simultaneous: whenever several callers race, their calls may be truly simultaneous
    (a lone call cannot be)."""
    race = race_seats(rules, state)
    t = table(rules, state)
    if race is None or t.trumped:
        return None
    if len(race[0]) >= 2 and not race[1]:
        return f"callers {sorted(race[0])} race and cannot tie"
    if len(race[0]) < 2 and race[1]:
        return "a lone caller ties"
    return None


def race_odds(rules: Any, state: Any) -> Problem:
    """jd23.call.simultaneous with jd23.ruling.race-odds: a tie has probability 1/10 and the callers
    share the rest equally (tie-one-in-ten), or each caller and the tie are equally likely (equal)."""
    t = table(rules, state)
    if race_seats(rules, state) is None or t.trumped:
        return None
    outs = chance(rules, state)
    k = sum(1 for m, _, _ in outs if m.kind == "first")
    if alt(t.setup, ODDS) == "equal":
        tie, each = Fraction(1, k + 1), Fraction(1, k + 1)
    else:
        tie, each = Fraction(1, 10), Fraction(9, 10 * k)
    for m, p, _ in outs:
        if p != (tie if m.kind == "simultaneous" else each):
            return f"{m.kind} {m.seat}: probability {p}, the ruling says {tie if m.kind == 'simultaneous' else each}"
    return None


PROPERTIES = (
    Property(
        "jd23.round.five-endings", "a guest leaves only served or in endings 1, 4, 5, after which everyone draws",
        transition=guest_leaves_by_an_ending, lines=((13, 19), (31, 31)), reads=(DECLINE, PILE, TAKER),
    ),
    Property(
        "jd23.round.all-pass", "all pass: guest discarded at once, nobody pays, all draw one, next guest due",
        transition=all_pass, lines=((11, 11), (15, 15), (21, 21), (31, 31)), reads=(PILE, TAKER),
    ),
    Property(
        "jd23.call.simultaneous",
        "a tie discards the guest and all draw; tied callers unable to serve pay per simultaneous-mistaken",
        transition=simultaneous_ends_round, name="ends-round", lines=((18, 18), (27, 27), (29, 29), (31, 31)),
        reads=(SIMUL_MISTAKEN, EMPTY_HAND, PILE, TAKER),
    ),
    Property(
        "jd23.call.simultaneous", "several racing callers may tie, a lone one cannot", state=tie_is_possible,
        name="possible", lines=(27, 27), under=when("jd23.ruling.race-after-fail", "tie-possible"),
    ),
    Property(
        "jd23.call.simultaneous", "race odds as jd23.ruling.race-odds says", state=race_odds, name="odds",
        lines=(27, 27), under=when("jd23.ruling.race-after-fail", "tie-possible"), reads=(ODDS,),
    ),
    Property(
        "jd23.call.simultaneous", "simultaneous-mistaken's gap only under strict, when a tied caller cannot serve",
        state=gaps_only_where_silent(SIMUL_MISTAKEN, _tie_question), name="mistaken-gap",
        lines=((27, 27), (29, 29)), reads=(SIMUL_MISTAKEN,),
    ),
)
