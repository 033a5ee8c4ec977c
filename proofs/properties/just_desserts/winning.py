"""Just Desserts: winning and the other ends of a game (jd.win.*).

Three guests of a suit or guests of five suits win at any time; a game ends without a win only as
the chosen ruling says (every guest claimed, nothing ever to serve again, no guest left to turn
up), scored by the publisher's answer or drawn; and no move meets a rule gap where a ruling
decides (the draw phase's own ends: jd.turn.draw-phase#no-gap, #no-guest-left).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

from tablerules.model.core import CHANCE, TERMINAL, RuleGap

from .. import Problem, Property
from .readers import (V, actor, apply, buffet_ever, guest_supply_size, is_seat, mv, nothing_unclaimed, serving_ever,
    suit_counts, winning_set)
from .turn import draw_phase


def _win_holders(rules: Any, state: Any, kind: str) -> list[int]:
    deck, v = state.setup.components, V(rules, state)
    return [q for q, c in enumerate(v["claimed"]) if winning_set(deck, c) == kind]


def _wins(kind: str) -> Callable:
    def check(rules: Any, state: Any) -> Problem:
        seats = _win_holders(rules, state, kind)
        if not seats:
            return None
        if actor(rules, state) is not TERMINAL:
            return f"seat {seats[0]} holds a winning set ({kind}) but the game goes on"
        o = rules.outcome(state)
        if o is None or not set(o.winners) or not set(o.winners) <= set(seats):
            return f"seat(s) {seats} hold a winning set ({kind}) but the outcome is {o}"
        return None
    check.__doc__ = f"jd.win: a player holding a winning set ({kind}) has won, and the game is over."
    return check


def p_win_any_time(rules: Any, state: Any) -> Problem:
    """jd.win.any-time: the game ends the moment somebody wins and at no other win; an ended
    game has no more moves; a win is only ever given for a winning set."""
    a = actor(rules, state)
    if a is not TERMINAL:
        return None
    if rules.legal_moves(state) or rules.chance_outcomes(state):
        return "the game is over but moves remain"
    o = rules.outcome(state)
    if o is None:
        return "the game is over without an outcome"
    deck, v = state.setup.components, V(rules, state)
    holders = [q for q, c in enumerate(v["claimed"]) if winning_set(deck, c)]
    if o.clause.startswith("jd.win.") and (not o.winners or not set(o.winners) <= set(holders)):
        return f"a win ({o.clause}) for {sorted(o.winners)} who hold no winning set"
    if not holders and o.clause.startswith("jd.win."):
        return "a win is declared although nobody holds a winning set"
    return None


def faq_points(setup: Any, v: dict) -> list[int]:
    """The publisher's score (jd.ruling.all-guests-claimed): a point per guest and a bonus per
    matching pair (jd.ruling.matching-pair)."""
    deck, reading = setup.components, setup.options.matching_pair
    out = []
    for c in v["claimed"]:
        counts = suit_counts(deck, c).values()
        if reading == "exactly-two":
            pairs = sum(1 for k in counts if k == 2)
        elif reading == "every-two":
            pairs = sum(k * (k - 1) // 2 for k in counts)
        else:
            pairs = sum(k // 2 for k in counts)
        out.append(len(c) + pairs)
    return out


_ENDS = {"jd.ruling.all-guests-claimed": "all_claimed", "jd.ruling.no-serving-possible": "no_serving"}


def p_end_without_win(rules: Any, state: Any) -> Problem:
    """jd.win.any-time with jd.ruling.all-guests-claimed, jd.ruling.no-serving-possible and
    jd.ruling.guest-supply-empty: a game that ends without a winning set ends only as the chosen
    alternative says (every guest claimed; nothing can ever be served again; no guest left to
    turn up under draw-game), and its result is the publisher's score or a draw as chosen."""
    if actor(rules, state) is not TERMINAL:
        return None
    o = rules.outcome(state)
    if o is None or o.clause.startswith("jd.win."):
        return None
    setup, v = state.setup, V(rules, state)
    opts = setup.options
    end = v["end_clause"] or o.clause
    if end == "jd.ruling.guest-supply-empty":
        if opts.guest_supply != "draw-game" or guest_supply_size(v) or not o.draw:
            return "the game ended for want of guests, which the chosen alternative does not say"
        return None
    if end == "jd.ruling.endless-play" and opts.endless_play != "repeated-position":
        return f"the game ended by a repeated position under jd.ruling.endless-play={opts.endless_play}"
    if end not in _ENDS and end != "jd.ruling.endless-play":
        return f"the game ended by {end!r}"
    # jd.ruling.endless-play=repeated-position: scored by the publisher's count, as faq-score scores
    choice = "faq-score" if end == "jd.ruling.endless-play" else getattr(opts, _ENDS[end])
    if choice not in ("faq-score", "draw"):
        return f"the game ended by {end} under the alternative {choice}"
    if end == "jd.ruling.all-guests-claimed":
        if not nothing_unclaimed(v):
            return "the game ended as if every guest were claimed, but some are not"
        if choice == "draw" and (opts.poaching or buffet_ever(setup, v)):
            return "all-guests-claimed=draw ended the game while guests could still change hands"
        if choice == "faq-score" and opts.faq_score_when == "when-settled" and serving_ever(setup, v):
            return "faq-score-when=when-settled scored the game while a claimed guest could still change hands"
    elif end == "jd.ruling.no-serving-possible" and serving_ever(setup, v):
        return "the game ended as stuck, but a serving, poach or buffet is still possible"
    if choice == "draw":
        return None if o.draw and not o.winners else f"a draw was due, the outcome is {o.summary()}"
    points = faq_points(setup, v)
    keys = [(points[q], len(v["hands"][q])) for q in range(setup.players)]
    top = {q for q in range(setup.players) if keys[q] == max(keys)}
    if len(top) > 1 and opts.score_full_tie == "draw":
        want_draw, want = True, set()
    else:
        want_draw, want = False, top
    if tuple(o.scores) != tuple(points):
        return f"the publisher's score is {points}, the outcome counts {list(o.scores)}"
    if set(o.winners) != want or (want_draw and not o.draw):
        return f"the publisher's score {points} (hands {[k[1] for k in keys]}) gives winners {sorted(want)}, " \
               f"the outcome says {o.summary()}"
    return None


def p_all_claimed_ends(rules: Any, state: Any) -> Problem:
    """jd.win.any-time (jd.ruling.all-guests-claimed): under faq-score the game is over once every
    guest is claimed (and under draw too, unless a poach or a buffet could still move a guest)."""
    a = actor(rules, state)
    if not is_seat(a):
        return None
    setup, v = state.setup, V(rules, state)
    if v["offer"] is not None or not nothing_unclaimed(v):
        return None
    choice = setup.options.all_claimed
    if choice == "faq-score" and setup.options.faq_score_when == "at-once" \
            or (choice == "draw" and not setup.options.poaching and not buffet_ever(setup, v)):
        return f"every guest is claimed but play goes on (all-guests-claimed={choice})"
    return None


def t_stuck_at_turn_start(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.win.any-time (jd.ruling.no-serving-possible): a stuck game ends when a turn starts: after
    the draw phase (or when a surprise has undone the only attempt, as if it had not happened)."""
    if actor(rules, t) is not TERMINAL or V(rules, t)["end_clause"] != "jd.ruling.no-serving-possible":
        return None
    k = mv(m)
    if actor(rules, s) is CHANCE or k.verb == "surprise" or V(rules, s)["turn"] != V(rules, t)["turn"]:
        return None  # after a draw phase (a move may end a turn and find nothing to draw), or an undone attempt
    return f"the game ended as stuck right after {m}, not as a turn starts"


def _gap_alternative(setup: Any, ruling_id: str) -> str | None:
    for f in dataclasses.fields(setup.options):
        if f.metadata.get("ruling") == ruling_id:
            return getattr(setup.options, f.name)
    return None


def p_no_gap(rules: Any, state: Any) -> Problem:
    """The rulings decide every place the text is silent: no move raises a rule gap unless the
    ruling it names is set to its strict alternative (and turn-direction=strict only with three
    or more players, as its meaning says)."""
    a = actor(rules, state)
    if a is TERMINAL:
        return None
    moves = [m for m, _ in rules.chance_outcomes(state)] if a is CHANCE else list(rules.legal_moves(state))
    for m in moves:
        try:
            apply(rules, state, m)
        except RuleGap as gap:
            choice = _gap_alternative(state.setup, gap.ruling)
            if choice != "strict":
                return f"{m} raises a rule gap for {gap.ruling}, whose alternative is {choice}"
            if gap.ruling == "jd.ruling.turn-direction" and state.setup.players < 3:
                return f"{m} raises the turn-direction gap with {state.setup.players} players"
    return None


def p_third_repetition(rules: Any, state: Any) -> Problem:
    """jd.ruling.endless-play=repeated-position: a game ends by a repeated position only the third time that
    position starts a turn; the history the state carries (each turn-start position with how often it started a
    turn) shows it started two turns before (the ended state is that position but for the end: its phase, its
    clause, and the draw phase it no longer waits for)."""
    if actor(rules, state) is not TERMINAL or V(rules, state)["end_clause"] != "jd.ruling.endless-play":
        return None
    # the ended state is the turn-start position but for the end itself: phase, the draw phase left pending, clause
    position = dataclasses.replace(state, seen=frozenset(), phase="choose", end_clause="")
    times = max((t for key, t in state.seen if dataclasses.replace(key, tasks=()) == position), default=0)
    if times != 2:
        return f"the game ended by a repeated position that had started {times} turn(s) before, not 2"
    return None


P = Property
PROPERTIES: tuple[Property, ...] = (
    P("jd.win.three-of-a-suit", "a player with three guests of one suit has won and the game is over",
      state=_wins("three"), lines=(36, 37)),
    P("jd.win.five-suits", "a player with guests of five suits has won and the game is over", state=_wins("five"),
      lines=((36, 36), (38, 38))),
    P("jd.win.any-time", "a finished game has no moves, and a win is declared only for a winning set",
      state=p_win_any_time, lines=(36, 38)),
    P("jd.win.any-time", "a game ends without a win only as the chosen ending says, with the publisher's score or a "
      "draw (all-guests-claimed, no-serving-possible, guest-supply-empty, matching-pair, score-full-tie)",
      state=p_end_without_win, name="other-ends", lines=((17, 17), (34, 34), (36, 38)),
      reads=("jd.ruling.all-guests-claimed", "jd.ruling.no-serving-possible", "jd.ruling.guest-supply-empty",
             "jd.ruling.faq-score-when", "jd.ruling.matching-pair", "jd.ruling.score-full-tie")),
    P("jd.win.any-time", "a game ends by a repeated position only the third time that position starts a turn "
      "(endless-play=repeated-position)", state=p_third_repetition, name="third-repetition", lines=(36, 38),
      reads=("jd.ruling.endless-play",)),
    P("jd.win.any-time", "once every guest is claimed the game is over (all-guests-claimed=faq-score at once; "
      "=draw unless guests can still move)", state=p_all_claimed_ends, name="all-claimed",
      lines=((36, 38), (42, 42), (48, 48)), reads=("jd.ruling.all-guests-claimed", "jd.ruling.faq-score-when")),
    P("jd.win.any-time", "under faq-score, no turn starts with every guest claimed (faq-score-when=turn-end), nor "
      "with every guest claimed and none able to change hands (when-settled)",
      transition=draw_phase("jd.win.any-time#faq-late"), name="faq-late", lines=((36, 38), (42, 42), (48, 48)),
      reads=("jd.ruling.all-guests-claimed", "jd.ruling.faq-score-when")),
    P("jd.win.any-time", "a turn that starts with nothing ever to serve, poach or buffet ends the game "
      "(no-serving-possible=faq-score or draw)", transition=draw_phase("jd.win.any-time#stuck"), name="stuck",
      lines=((20, 22), (34, 34), (36, 36)), reads=("jd.ruling.no-serving-possible", "jd.ruling.all-guests-claimed")),
    P("jd.win.any-time", "a stuck game ends as a turn starts, not in the middle of one (no-serving-possible)",
      transition=t_stuck_at_turn_start, name="stuck-when", lines=((17, 22), (34, 34), (36, 36), (51, 51)),
      under={"jd.ruling.no-serving-possible": ("faq-score", "draw")}),
    P("jd.turn.draw-phase", "no move raises a rule gap where the chosen alternatives decide (dessert-supply-empty, "
      "guest-supply-empty, turn-direction, ...)", state=p_no_gap, name="no-gap",
      lines=((15, 15), (17, 17), (20, 22), (30, 30), (34, 34), (36, 38), (43, 43), (46, 46), (50, 52)),
      reads=("jd.ruling.dessert-supply-empty", "jd.ruling.guest-supply-empty", "jd.ruling.all-guests-claimed",
             "jd.ruling.no-serving-possible", "jd.ruling.answer-order", "jd.ruling.plain-block-vs-surprise",
             "jd.ruling.victim-tip-on-surprise", "jd.ruling.surprise-on-block", "jd.ruling.turn-direction")),
    P("jd.turn.draw-phase", "with no guest left to turn up the game ends (guest-supply-empty=draw-game)",
      transition=draw_phase("jd.turn.draw-phase#no-guest-left"), name="no-guest-left", lines=((17, 17), (34, 34)),
      reads=("jd.ruling.guest-supply-empty",)),
)
