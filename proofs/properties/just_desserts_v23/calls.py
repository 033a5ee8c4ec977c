"""Just Desserts 2.3: a round's guest and the calls that answer it (jd23.round.turn-up-guest,
jd23.call.got-it, jd23.call.pass, jd23.call.first-serves).

One guest is turned up between rounds and shown to all; each player calls "Got it!" or passes,
in the open; the first caller serves.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tablerules.model.core import CHANCE, TERMINAL

from .. import Problem, Property
from .readers import (ANSWER, DEAL, DRAW, NOT_CLAIMED_AS_A_CALL, OVER, PENALTY, RACE, SPARE, TRUMP_RULING, TURN_UP,
    WITH_OTHERS, alt, can_serve, chance, follow_forced, holders, race_seats, refused, said, satisfying, seat_moves,
    serve_text, server_of, table, when)


def turn_up_between_rounds(rules: Any, state: Any) -> Problem:
    """jd23.round.turn-up-guest: one guest at a time: with a guest on the table no other is turned
    up and nobody draws; with none (and the game on) only chance acts, turning one up or dealing."""
    actor = rules.to_move(state)
    if actor is TERMINAL:
        return None
    t = table(rules, state)
    kinds = {m.kind for m, _, _ in chance(rules, state)}
    if t.guest is not None and kinds & {"turn-up", "draw"}:
        return f"{sorted(kinds)} while guest {t.guest} is on the table"
    if t.guest is None and not (actor is CHANCE and kinds and kinds <= {"turn-up", "draw"}):
        return f"with no guest on the table the next event is {actor!r} {sorted(kinds)}, not a turn-up or a draw"
    if t.guest is not None:
        for g in t.guest_pile[:1]:
            if not refused(rules, state, f"turn up {g}"):
                return f"guest {g} may be turned up while {t.guest} is on the table"
        for c in t.pile[:1]:
            if not refused(rules, state, f"seat 0 draws {c}"):
                return f"a dessert may be drawn while {t.guest} is on the table"
    elif kinds == {"turn-up"}:
        if t.pile and not refused(rules, state, f"seat 0 draws {t.pile[0]}"):
            return "a dessert may be drawn when the next guest is due"
        if not refused(rules, state, "simultaneous") or not refused(rules, state, "first 0"):
            return "a race may be run with no guest on the table"
        if t.hands[0] and not refused(rules, state, f"seat 1 takes {t.hands[0][0]} from seat 0"):
            return "a penalty may be paid with no guest on the table"
    return None


def turn_up_reveals(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.round.turn-up-guest: the guest turned up leaves the guest pile, is on the table for all
    to see, and every player now owes an answer; no dessert moves."""
    m = said(move)
    if m.kind != "turn-up":
        return None
    t, a = table(rules, state), table(rules, nxt)
    if a.guest != m.guest:
        return f"turned up {m.guest} but the table shows {a.guest}"
    if (a.hands, a.dishes, a.pile, a.collected) != (t.hands, t.dishes, t.pile, t.collected):
        return "a dessert or a collected guest moved when a guest was turned up"
    for s in range(t.n):
        if rules.observation(nxt, s).get("guest") != m.guest:
            return f"seat {s} does not see the guest turned up"
    if rules.to_move(nxt) is TERMINAL:
        return None  # jd23.ruling.guest-pile-empty = at-last-turn-up: the game ended at once
    if Counter(t.guest_pile) - Counter(a.guest_pile) != Counter([m.guest]) and not (a.reshuffled and not t.reshuffled):
        return f"guest pile {list(t.guest_pile)} -> {list(a.guest_pile)} on turning up {m.guest}"
    if a.answers != ("",) * t.n or {k.kind for k, _ in seat_moves(rules, nxt)} != {"call", "pass"}:
        return f"after the turn-up the answers are {a.answers}, every player should owe one"
    return None


def answer_is_call_or_pass(rules: Any, state: Any) -> Problem:
    """jd23.call.got-it: asked about the guest, a player calls or passes, and may call without a
    serving in hand (a call is a claim); nothing else is allowed."""
    t = table(rules, state)
    if t.phase != ANSWER or t.guest is None:
        return None
    seat = rules.to_move(state)
    kinds = sorted(m.kind for m, _ in seat_moves(rules, state))
    if kinds != ["call", "pass"]:
        return f"seat {seat} may {kinds}, the text gives call or pass"
    if refused(rules, state, "call"):
        return f"seat {seat} may not call (able to serve: {can_serve(t, seat)})"
    if not refused(rules, state, "fail"):
        return "a failure is allowed before anyone is first"
    for cards in sorted(satisfying(t, seat))[:1]:
        if not refused(rules, state, serve_text(cards)):
            return "a serving is allowed before the calls are settled"
    return None


def answers_are_public(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.call.got-it: each player answers once per round, out loud: the answer is recorded for
    that player and every player sees it; answering moves no card; the round goes on only when
    all have answered."""
    t = table(rules, state)
    if t.phase != ANSWER or said(move).kind not in ("call", "pass"):
        return None
    seat, a = rules.to_move(state), table(rules, nxt)
    if t.answers[seat] != "":
        return f"seat {seat} answers twice"
    if (a.hands, a.dishes, a.collected) != (t.hands, t.dishes, t.collected):
        return "an answer moved a card"
    missing = t.answers.count("")
    if missing > 1:
        if a.phase != ANSWER or a.guest != t.guest or a.answers[seat] != str(move):
            return f"seat {seat}'s answer is not recorded, or the round went on with {missing - 1} answers missing"
        if any(a.answers[s] != t.answers[s] for s in range(t.n) if s != seat):
            return "another player's answer changed"
        for s in range(t.n):
            if rules.observation(nxt, s).get("answers", [None] * t.n)[seat] != str(move):
                return f"seat {s} did not hear seat {seat}'s {move}"
    elif a.phase == ANSWER and a.guest == t.guest:
        return "every player answered and the round does not go on"
    return None


def pass_always_allowed(rules: Any, state: Any) -> Problem:
    """jd23.call.pass: a player may pass, even holding a serving."""
    t = table(rules, state)
    if t.phase == ANSWER and t.guest is not None and refused(rules, state, "pass"):
        return f"seat {rules.to_move(state)} may not pass (able to serve: {can_serve(t, rules.to_move(state))})"
    return None


def contest_after_answers(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.call.first-serves: once all have answered, a lone caller serves (nobody to race), and
    several callers race to be first."""
    t = table(rules, state)
    if t.phase != ANSWER or t.answers.count("") != 1 or said(move).kind not in ("call", "pass", "favourite"):
        return None
    seat = rules.to_move(state)
    claims = {s for s in t.callers() if t.answers[s] == "favourite"} | ({seat} if said(move).kind == "favourite"
                                                                          else set())
    # a Favorite claimed in place of a call goes ahead of every plain call (favourite-trump = favourite-call)
    callers = claims or set(t.callers()) | ({seat} if said(move).kind == "call" else set())
    if len(callers) == 1:
        if server_of(rules, nxt) not in callers:
            return f"lone caller {sorted(callers)} is not the one to serve"
    elif len(callers) >= 2:
        race = race_seats(rules, nxt)
        if race is None or race[0] != callers:
            return f"callers {sorted(callers)} do not race (first outcomes {race and sorted(race[0])})"
    return None


def race_contenders(rules: Any, state: Any) -> Problem:
    """jd23.call.first-serves: any caller still in contention may have called first, and nobody
    else; after several Favorites trumped a call (jd23.ruling.favourite-trump), only those race."""
    race = race_seats(rules, state)
    if race is None:
        return None
    t = table(rules, state)
    first, _ = race
    want: tuple[int, ...] | None = t.live()
    if t.trumped:
        want = holders(t, t.live())
        if want is None:
            return None
    if first != set(want) or len(want) < 2:
        return f"seats {sorted(first)} may be first, contenders are {list(want)}"
    for s in range(t.n):
        if s not in want and not refused(rules, state, f"first {s}"):
            return f"seat {s} may be first without contending"
    return None


def winner_serves(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.call.first-serves: the caller who was first serves, unless a Favorite trumps the call
    (favourite-caller-first: another contender holds a Favorite serving and the first does not;
    that case is jd23.call.favourite-trump's)."""
    m = said(move)
    if m.kind != "first":
        return None
    t = table(rules, state)
    if not t.trumped and alt(t.setup, TRUMP_RULING) == "favourite-caller-first":
        h = holders(t, t.live())
        if h is None or (h and m.seat not in h):
            return None
    after, problem = follow_forced(rules, nxt)
    if problem:
        return problem
    if server_of(rules, after) != m.seat:
        return f"seat {m.seat} was first, yet {rules.to_move(after)!r} is to serve"
    return None


def server_is_live_caller(rules: Any, state: Any) -> Problem:
    """jd23.call.first-serves: only a player who called, and has not failed, serves, and the table
    records it as the one who called first; before a race is decided nobody is recorded first."""
    seat = server_of(rules, state)
    first = rules.state_vars(state)["first"]
    if seat is not None:
        if seat not in table(rules, state).live():
            return f"seat {seat} is to serve without a standing call"
        if first != seat:
            return f"seat {seat} serves and the table records {first} as first"
    elif table(rules, state).phase in (DEAL, TURN_UP, ANSWER, RACE, PENALTY, DRAW, OVER) and first != -1:
        return f"seat {first} is recorded first in phase {table(rules, state).phase}, before any race is decided"
    return None


PROPERTIES = (
    Property(
        "jd23.round.turn-up-guest",
        "one guest at a time: none turned up and nobody draws while one is on the table; with none only chance acts",
        state=turn_up_between_rounds, name="one-at-a-time", lines=((11, 11), (19, 19), (21, 21)),
    ),
    Property(
        "jd23.round.turn-up-guest",
        "the guest turned up leaves the pile, is seen by all, and every player owes an answer (call or pass: a "
        "favourite-trump reading, not under favourite-call, where a Favorite may be claimed instead)",
        transition=turn_up_reveals, under=when(TRUMP_RULING, *NOT_CLAIMED_AS_A_CALL), name="reveal", lines=(11, 11),
    ),
    Property(
        "jd23.call.got-it", "asked, a player may call (with or without a serving) or pass, nothing else "
        "(favourite-trump other than favourite-call, which adds a Favorite claimed in place of a call)",
        state=answer_is_call_or_pass, under=when(TRUMP_RULING, *NOT_CLAIMED_AS_A_CALL), name="call-or-pass",
        lines=((11, 11), (23, 23), (29, 29)),
    ),
    Property(
        "jd23.call.got-it", "each answers once, out loud, moving no card; the round goes on when all have answered",
        transition=answers_are_public, name="answers-public", lines=((11, 11), (21, 21), (23, 23)),
    ),
    Property(
        "jd23.call.pass", "passing is always allowed, even holding a serving", state=pass_always_allowed,
        lines=(21, 21),
    ),
    Property(
        "jd23.call.first-serves", "after the answers a lone caller serves, several callers race",
        transition=contest_after_answers, name="contest", lines=((11, 11), (27, 27)),
    ),
    Property(
        "jd23.call.first-serves", "exactly the contenders may be first (after a trump, the trumpers)",
        state=race_contenders, name="race-contenders", lines=((11, 11), (27, 27), (29, 29)),
        reads=(SPARE, WITH_OTHERS),
    ),
    Property(
        "jd23.call.first-serves", "the first caller serves when no Favorite trumps it", transition=winner_serves,
        name="winner-serves", lines=((11, 11), (23, 23)), reads=(TRUMP_RULING, SPARE, WITH_OTHERS),
    ),
    Property(
        "jd23.call.first-serves", "only a standing caller serves", state=server_is_live_caller, name="server-called",
        lines=((11, 11), (29, 29)),
    ),
)
