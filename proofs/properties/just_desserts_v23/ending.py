"""Just Desserts 2.3: the guest pile and the end (jd23.guests.reshuffle-once,
jd23.end.second-exhaustion).

The guest discards become the pile once, when it runs out; the game ends when it runs out the
second time.
"""

from __future__ import annotations

from typing import Any

from tablerules.model.core import TERMINAL

from .. import Problem, Property
from .readers import GUEST_EMPTY, NOTHING_LEFT, TURN_UP, _ms, alt, grown, said, table, when
from .silent import _nothing_left_question, gaps_only_where_silent


def reshuffled_once(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.guests.reshuffle-once: the guest pile is rebuilt once, from the discards, when it runs
    out for the first time (as its last guest is needed again, or is turned up:
    jd23.ruling.guest-pile-empty); nothing to rebuild from ends the game (nothing-to-reshuffle)."""
    t, a = table(rules, state), table(rules, nxt)
    if t.reshuffled and not a.reshuffled:
        return "the guest pile forgot it was reshuffled"
    gain = grown(t.guest_pile, a.guest_pile)
    flips = a.reshuffled and not t.reshuffled
    if not gain and not flips:
        return None
    if not flips:
        return f"guests {dict(gain)} came back to the guest pile without the reshuffle, or a second time"
    m = said(move)
    at_last = alt(t.setup, GUEST_EMPTY) == "at-last-turn-up"
    if at_last:
        if m.kind != "turn-up" or t.guest_pile != (m.guest,):
            return f"the guest pile was reshuffled on {move}, not as its last guest was turned up"
        pool = t.discards
    else:
        if t.guest_pile:
            return f"the guest pile was reshuffled with {list(t.guest_pile)} still in it"
        left = [t.guest] if t.guest is not None and a.guest is None and a.collected == t.collected else []
        pool = _ms(t.discards + tuple(left))
    if not pool:
        if alt(t.setup, NOTHING_LEFT) == "strict":
            return "nothing to reshuffle and the strict alternative raises no gap"
        if rules.to_move(nxt) is not TERMINAL:
            return "nothing to reshuffle and the game goes on"
        return None
    if a.guest_pile != pool or a.discards:
        return f"new guest pile {list(a.guest_pile)} (discards {list(a.discards)}), the discards were {list(pool)}"
    return None


def guest_pile_when_needed(rules: Any, state: Any) -> Problem:
    """jd23.guests.reshuffle-once: play never waits on an empty guest pile: when the next guest is
    due there is one (at-next-turn-up), and the pile is never empty while the game goes on
    (at-last-turn-up: it is rebuilt, or the game ends, the moment it empties)."""
    t = table(rules, state)
    if rules.to_move(state) is TERMINAL or t.guest_pile:
        return None
    if alt(t.setup, GUEST_EMPTY) == "at-last-turn-up":
        return "the guest pile is empty and the game goes on"
    if t.phase == TURN_UP:
        return "the next guest is due from an empty guest pile"
    return None


def game_ends_at_second_exhaustion(rules: Any, state: Any) -> Problem:
    """jd23.end.second-exhaustion: the game is over exactly when the guest pile has run out the
    second time (the reshuffle behind it, the pile empty); only then is there a result and no move;
    at-next-turn-up plays the last guest out, at-last-turn-up leaves it on the table unplayed."""
    t = table(rules, state)
    over = rules.to_move(state) is TERMINAL
    if over != (rules.outcome(state) is not None):
        return f"to move {rules.to_move(state)!r} with outcome {rules.outcome(state)}"
    if not over:
        return None
    if t.guest_pile or not t.reshuffled:
        return f"game over with {len(t.guest_pile)} guests in the pile (reshuffled: {t.reshuffled})"
    if rules.legal_moves(state):
        return "moves remain after the end"
    at_last = alt(t.setup, GUEST_EMPTY) == "at-last-turn-up"
    if at_last and t.guest is None:
        return "game over at-last-turn-up without the last guest on the table"
    if not at_last and t.guest is not None:
        return f"game over with guest {t.guest} unplayed"
    return None


def ends_at_once(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.end.second-exhaustion (at-last-turn-up): turning up the last guest after the reshuffle
    ends the game at once."""
    m = said(move)
    t = table(rules, state)
    if m.kind == "turn-up" and t.reshuffled and t.guest_pile == (m.guest,) and rules.to_move(nxt) is not TERMINAL:
        return "the guest pile ran out a second time and the game goes on"
    return None


PROPERTIES = (
    Property(
        "jd23.guests.reshuffle-once", "the guest pile is rebuilt from the discards once, when it first runs out",
        transition=reshuffled_once, name="once", lines=(31, 31), reads=(GUEST_EMPTY, NOTHING_LEFT),
    ),
    Property(
        "jd23.guests.reshuffle-once", "play never waits on an empty guest pile", state=guest_pile_when_needed,
        name="never-waits", lines=(31, 31), reads=(GUEST_EMPTY,),
    ),
    Property(
        "jd23.guests.reshuffle-once",
        "nothing-to-reshuffle's gap only under strict, at a first run-out with no discards",
        state=gaps_only_where_silent(NOTHING_LEFT, _nothing_left_question), name="nothing-left-gap",
        lines=(31, 31), reads=(NOTHING_LEFT, GUEST_EMPTY),
    ),
    Property(
        "jd23.end.second-exhaustion", "the game is over exactly after the second run-out",
        state=game_ends_at_second_exhaustion, name="over", lines=(31, 33), reads=(GUEST_EMPTY,),
    ),
    Property(
        "jd23.end.second-exhaustion",
        "at-last-turn-up: the last guest turned up after the reshuffle ends the game at once", transition=ends_at_once,
        under=when(GUEST_EMPTY, "at-last-turn-up"), name="at-once", lines=(31, 31),
    ),
)
