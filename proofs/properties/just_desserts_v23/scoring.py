"""Just Desserts 2.3: scoring (jd23.score.*).

Most guests wins; a tie goes to the bigger hand, then to fewer dirty dishes, and a tie on all
three as jd23.ruling.full-tie says.
"""

from __future__ import annotations

from typing import Any, Callable

from tablerules.model.core import TERMINAL

from .. import Problem, Property
from .readers import FULL_TIE, Table, alt, table


def standings(t: Table) -> list[tuple[int, int, int]]:
    """Per seat: guests collected, desserts in hand, dirty dishes (jd23.score.*)."""
    return [(len(t.collected[s]), len(t.hands[s]), len(t.dishes[s])) for s in range(t.n)]


def _result(rules: Any, state: Any) -> tuple[Table, Any, list[tuple[int, int, int]]] | None:
    if rules.to_move(state) is not TERMINAL:
        return None
    t = table(rules, state)
    return t, rules.outcome(state), standings(t)


def _best(seats: list[int], key: Callable[[int], int]) -> list[int]:
    top = max(key(s) for s in seats)
    return [s for s in seats if key(s) == top]


def _won_by(out: Any, seats: list[int], what: str, clause: str) -> Problem:
    """``seats`` (one seat) won alone, and the result names the clause that decided it."""
    if out is None or set(out.winners) != set(seats) or out.draw:
        return f"{what}: seat {seats[0]} should win alone, outcome {out and out.summary()}"
    if out.clause != clause:
        return f"{what}: decided by {clause}, the result names {out.clause}"
    return None


def most_guests_win(rules: Any, state: Any) -> Problem:
    """jd23.score.guests: the score is the guests collected; the most wins, and nobody with fewer
    guests than another player wins."""
    r = _result(rules, state)
    if r is None:
        return None
    t, out, sc = r
    top = _best(list(range(t.n)), lambda s: sc[s][0])
    if not set(out.winners) <= set(top):
        return f"winners {sorted(out.winners)} with scores {sc}: fewer guests than seats {top}"
    return _won_by(out, top, f"most guests {sc}", "jd23.score.guests") if len(top) == 1 else None


def bigger_hand_breaks_tie(rules: Any, state: Any) -> Problem:
    """jd23.score.tiebreak-hand: among players tied on guests, the most desserts in hand wins."""
    r = _result(rules, state)
    if r is None:
        return None
    t, out, sc = r
    top = _best(list(range(t.n)), lambda s: sc[s][0])
    if len(top) < 2:
        return None
    hand = _best(top, lambda s: sc[s][1])
    if not set(out.winners) <= set(hand):
        return f"winners {sorted(out.winners)} with scores {sc}: smaller hands than seats {hand}"
    return _won_by(out, hand, f"tie on guests, hands {sc}", "jd23.score.tiebreak-hand") if len(hand) == 1 else None


def fewer_dishes_break_tie(rules: Any, state: Any) -> Problem:
    """jd23.score.tiebreak-dirty-dishes: among players tied on guests and hand, the fewest dirty
    dishes wins."""
    r = _result(rules, state)
    if r is None:
        return None
    t, out, sc = r
    top = _best(list(range(t.n)), lambda s: sc[s][0])
    hand = _best(top, lambda s: sc[s][1])
    if len(hand) < 2:
        return None
    dishes = _best(hand, lambda s: -sc[s][2])
    if not set(out.winners) <= set(dishes):
        return f"winners {sorted(out.winners)} with scores {sc}: more dishes than seats {dishes}"
    return (
        _won_by(out, dishes, f"tie on guests and hand, dishes {sc}", "jd23.score.tiebreak-dirty-dishes")
        if len(dishes) == 1
        else None
    )


def full_tie(rules: Any, state: Any) -> Problem:
    """jd23.score.full-tie: players tied on all three counts: no winner, a draw (jd23.ruling.full-tie
    = draw), or all of them win (shared-win)."""
    r = _result(rules, state)
    if r is None:
        return None
    t, out, sc = r
    top = _best(list(range(t.n)), lambda s: sc[s][0])
    dishes = _best(_best(top, lambda s: sc[s][1]), lambda s: -sc[s][2])
    if len(dishes) < 2:
        return None
    if out.clause not in ("jd23.score.full-tie", FULL_TIE):
        return f"full tie {sc}: the result names {out.clause}"
    if alt(t.setup, FULL_TIE) == "shared-win":
        return (
            None
            if set(out.winners) == set(dishes)
            else f"full tie {sc}: winners {sorted(out.winners)}, shared-win says {dishes}"
        )
    return None if out.draw and not out.winners else f"full tie {sc}: outcome {out.summary()}, the ruling says a draw"


PROPERTIES = (
    Property("jd23.score.guests", "most guests wins; fewer never wins", state=most_guests_win, lines=(35, 35)),
    Property(
        "jd23.score.tiebreak-hand", "tied on guests: the biggest hand wins", state=bigger_hand_breaks_tie,
        lines=(35, 35),
    ),
    Property(
        "jd23.score.tiebreak-dirty-dishes", "tied on guests and hand: fewest dirty dishes wins",
        state=fewer_dishes_break_tie, lines=(35, 35),
    ),
    Property(
        "jd23.score.full-tie", "tied on all three: a draw (full-tie = draw) or all win (shared-win)", state=full_tie,
        lines=(35, 35), reads=(FULL_TIE,),
    ),
)
