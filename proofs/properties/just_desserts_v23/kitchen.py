"""Just Desserts 2.3: drawing and the Kitchen (jd23.draw.guest-leaves-hungry, jd23.kitchen.closes,
jd23.reminder.closed-kitchen).

Hands grow only by the draws the text names (everyone when a guest leaves hungry, a Favorite's
card); the Kitchen closes when the pile is too short for the draw everyone is due, and nothing is
drawn after that.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .. import Problem, Property
from .readers import (DEAL, DRAW, KITCHEN, TWO_FAVS, WITH_OTHERS, chance, earns_card, grown, said, settle, shrunk,
    table, when)
from .silent import _kitchen_question, gaps_only_where_silent


def hands_grow_only_by_draws(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.draw.guest-leaves-hungry: a hand gains a dessert only by a draw from the pile, one card,
    once the guest has left the table (hungry, or served its Favorite), or in the deal."""
    t, a = table(rules, state), table(rules, nxt)
    growth = {s: grown(t.hands[s], a.hands[s]) for s in range(t.n) if grown(t.hands[s], a.hands[s])}
    if not growth:
        return None
    m = said(move)
    if m.kind != "draw" or list(growth) != [m.seat] or growth[m.seat] != Counter([m.card]):
        return f"hands grew {dict((s, dict(c)) for s, c in growth.items())} on {move}"
    if shrunk(t.pile, a.pile + a.set_aside) != Counter([m.card]):
        return f"seat {m.seat} drew {m.card} and it did not come from the pile"
    if t.guest is not None:
        return f"seat {m.seat} draws while guest {t.guest} is on the table"
    return None


def no_draw_while_guest(rules: Any, state: Any) -> Problem:
    """jd23.draw.guest-leaves-hungry: nobody draws while a guest waits to be served."""
    t = table(rules, state)
    if t.guest is not None and any(m.kind == "draw" for m, _, _ in chance(rules, state)):
        return f"a draw while guest {t.guest} is on the table"
    return None


def no_serving_draw_without_favourite(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.draw.guest-leaves-hungry: a guest served without its Favorite earns nobody a card."""
    m = said(move)
    if m.kind != "serve":
        return None
    t = table(rules, state)
    if earns_card(t, m.cards):
        return None
    end = table(rules, settle(rules, nxt))
    for s in range(t.n):
        if grown(t.hands[s], end.hands[s]):
            return f"seat {s} drew after a serving without a Favorite"
    return None


def closed_kitchen_is_final(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.kitchen.closes: a closed Kitchen stays closed with its pile set aside for good; closing
    sets aside whatever is left, which is fewer desserts than players."""
    t, a = table(rules, state), table(rules, nxt)
    if t.closed:
        if not a.closed or a.set_aside != t.set_aside or a.pile:
            return "the closed Kitchen reopened or its set-aside desserts moved"
        return None
    if not a.closed:
        if a.set_aside != t.set_aside:
            return "desserts set aside while the Kitchen stays open"
        return None
    drawn = sum((grown(t.hands[s], a.hands[s]) for s in range(t.n)), Counter())
    if a.pile or Counter(t.pile) - drawn != grown(t.set_aside, a.set_aside):
        return f"the Kitchen closed: pile {list(t.pile)} -> {list(a.pile)}, set aside {list(a.set_aside)}"
    if len(a.set_aside) - len(t.set_aside) >= t.n:
        return f"the Kitchen closed with {len(a.set_aside)} desserts, enough for {t.n} players"
    return None


def short_pile_closes(rules: Any, state: Any) -> Problem:
    """jd23.kitchen.closes (kitchen-check = whenever-short, the text): between draws, an open
    Kitchen always has a dessert for every player."""
    t = table(rules, state)
    if t.phase in (DEAL, DRAW) or t.closed or len(t.pile) >= t.n:
        return None
    return f"the Kitchen is open with {len(t.pile)} desserts for {t.n} players"


def closes_when_everyone_should_draw(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.kitchen.closes, read by kitchen-check = when-everyone-draws (and strict, whose gap
    presumes a short open pile): the Kitchen closes only when a guest leaves hungry and the pile is
    short for everyone."""
    t, a = table(rules, state), table(rules, nxt)
    if t.closed or not a.closed:
        return None
    hungry = t.guest is not None and a.guest is None and a.collected == t.collected
    if not hungry or len(t.pile) >= t.n:
        return f"the Kitchen closed on {move} with {len(t.pile)} desserts for {t.n} players"
    return None


def nothing_after_closing(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.reminder.closed-kitchen: once the Kitchen has closed nobody gains a dessert, not for a
    hungry guest, not for a Favorite."""
    t, a = table(rules, state), table(rules, nxt)
    if t.closed and any(grown(t.hands[s], a.hands[s]) for s in range(t.n)):
        return f"a hand grew on {move} after the Kitchen closed"
    return None


def closed_kitchen_deals_nothing(rules: Any, state: Any) -> Problem:
    """jd23.reminder.closed-kitchen: a closed Kitchen offers no draw."""
    t = table(rules, state)
    if t.closed and any(m.kind == "draw" for m, _, _ in chance(rules, state)):
        return "a draw is offered after the Kitchen closed"
    return None


PROPERTIES = (
    Property(
        "jd23.draw.guest-leaves-hungry", "a hand grows only by one card drawn from the pile with no guest on the table",
        transition=hands_grow_only_by_draws, name="only-draws", lines=((9, 9), (47, 47)),
    ),
    Property(
        "jd23.draw.guest-leaves-hungry", "no draw while a guest is on the table", state=no_draw_while_guest,
        name="not-during-a-round", lines=(47, 47),
    ),
    Property(
        "jd23.draw.guest-leaves-hungry", "a serving without a Favorite earns nobody a card",
        transition=no_serving_draw_without_favourite, name="no-favourite-no-card", lines=((25, 25), (47, 47)),
        reads=(WITH_OTHERS,),
    ),
    Property(
        "jd23.kitchen.closes", "closing sets aside the rest (fewer than players) for good",
        transition=closed_kitchen_is_final, name="final", lines=(31, 31),
    ),
    Property(
        "jd23.kitchen.closes", "kitchen-check = whenever-short: an open Kitchen always holds a dessert for each player",
        state=short_pile_closes, under=when(KITCHEN, "whenever-short"), name="short-pile-closes", lines=(31, 31),
    ),
    Property(
        "jd23.kitchen.closes",
        "when-everyone-draws / strict (depart from the clause on purpose): closes only when a hungry guest's draw is "
        "short", transition=closes_when_everyone_should_draw, under=when(KITCHEN, "when-everyone-draws", "strict"),
        name="at-everyone-draws", lines=(31, 31),
    ),
    Property(
        "jd23.kitchen.closes",
        "kitchen-check's gap only under strict, when a Favorite's card is due from a short open pile",
        state=gaps_only_where_silent(KITCHEN, _kitchen_question), name="favourite-gap",
        lines=((25, 25), (31, 31), (48, 48)), reads=(KITCHEN, TWO_FAVS, WITH_OTHERS),
    ),
    Property(
        "jd23.reminder.closed-kitchen", "no hand grows after the Kitchen closed", transition=nothing_after_closing,
        name="no-growth", lines=((31, 31), (48, 48)),
    ),
    Property(
        "jd23.reminder.closed-kitchen", "no draw is offered after the Kitchen closed",
        state=closed_kitchen_deals_nothing, name="no-draw", lines=((31, 31), (48, 48)),
    ),
)
