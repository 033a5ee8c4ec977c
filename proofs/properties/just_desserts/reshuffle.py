"""Just Desserts: chance, drawing and reshuffling (jd.reshuffle.*).

A dessert is drawn, and a guest turned up, from its pile or its reshuffled discards, each card
equally likely, and moves exactly one card.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from tablerules.model.core import CHANCE

from .. import Problem, Property
from .readers import V, actor, dessert_supply, msub, mv, same


def p_dessert_draws(rules: Any, state: Any) -> Problem:
    """jd.reshuffle.desserts: a dessert is drawn from the pile, or from its reshuffled discards
    when the pile is out; each card is equally likely."""
    if actor(rules, state) is not CHANCE:
        return None
    outs = rules.chance_outcomes(state)
    draws = [(mv(m), p) for m, p in outs if mv(m).verb == "draw"]
    if not draws:
        return None
    if len(draws) != len(outs):
        return "a dessert draw mixed with other chance events"
    v = V(rules, state)
    source = Counter(v["dessert_pile"]) or Counter(v["dessert_discard"])
    total = sum(source.values())
    want = {c: Fraction(k, total) for c, k in source.items()} if total else {}
    got: dict[str, Fraction] = {}
    for k, p in draws:
        got[k.cards[0]] = got.get(k.cards[0], Fraction(0)) + p
    if got != want:
        return f"dessert draw odds {dict(sorted(got.items()))} are not the pile's {dict(sorted(want.items()))}"
    return None


def p_guest_turn_ups(rules: Any, state: Any) -> Problem:
    """jd.reshuffle.guests: a guest is turned up from the guest pile, or from the reshuffled
    discards without the top one when the pile is out; each equally likely."""
    if actor(rules, state) is not CHANCE:
        return None
    outs = rules.chance_outcomes(state)
    ups = [(mv(m), p) for m, p in outs if mv(m).verb == "turn-up"]
    if not ups:
        return None
    if len(ups) != len(outs):
        return "a guest turn-up mixed with other chance events"
    v = V(rules, state)
    source = list(v["guest_pile"]) or list(v["guest_discard"][:-1])
    want = {g: Fraction(1, len(source)) for g in source} if source else {}
    got = {k.guest: p for k, p in ups}
    if got != want:
        return f"guest turn-up odds {got} are not the pile's {want}"
    return None


def p_dessert_reshuffle_at_once(rules: Any, state: Any) -> Problem:
    """jd.reshuffle.desserts (jd.ruling.reshuffle-time=at-once): the dessert pile is never out
    while its discards hold cards."""
    v = V(rules, state)
    if not v["dessert_pile"] and v["dessert_discard"]:
        return "the dessert pile ran out but its discards were not reshuffled"
    return None


def p_guest_reshuffle_at_once(rules: Any, state: Any) -> Problem:
    """jd.reshuffle.guests (jd.ruling.reshuffle-time=at-once): the guest pile is never out while
    the guest discards hold more than the doorway guest."""
    v = V(rules, state)
    if not v["guest_pile"] and len(v["guest_discard"]) > 1:
        return "the guest pile ran out but its discards were not reshuffled"
    return None


def t_dessert_draw(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.reshuffle.desserts: a draw moves one dessert from the pile (or the reshuffled discards)
    into one hand; nothing else moves."""
    k = mv(m)
    if k.verb != "draw" or actor(rules, s) is not CHANCE:
        return None
    vs, vt = V(rules, s), V(rules, t)
    gained = [q for q in range(len(vs["hands"])) if msub(vt["hands"][q], vs["hands"][q]) == Counter(k.cards)]
    others_same = [q for q in range(len(vs["hands"])) if same(vt["hands"][q], vs["hands"][q])]
    if len(gained) != 1 or len(others_same) != len(vs["hands"]) - 1:
        return f"{m} did not put that one dessert into one hand"
    if msub(dessert_supply(vs).elements(), k.cards) != dessert_supply(vt):
        return f"{m} did not take the dessert from the pile or its discards"
    if not vs["dessert_pile"] and vs["dessert_discard"] and vt["dessert_discard"]:
        return "drawing from the reshuffled discards left a discard pile"
    if vs["claimed"] != vt["claimed"] or not same(vs["centre"], vt["centre"]):
        return f"{m} moved guests"
    return None


def t_guest_turn_up(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.reshuffle.guests: a turn-up moves one guest from the pile (or the discards but the top
    one, reshuffled) into the middle; the top discard stays, starting the new discard pile."""
    k = mv(m)
    if k.verb != "turn-up" or actor(rules, s) is not CHANCE:
        return None
    vs, vt = V(rules, s), V(rules, t)
    if not same(vt["centre"], list(vs["centre"]) + [k.guest]):
        return f"{m} did not put {k.guest} into the middle"
    before = Counter(vs["guest_pile"]) + Counter(vs["guest_discard"])
    after = Counter(vt["guest_pile"]) + Counter(vt["guest_discard"])
    if msub(before.elements(), [k.guest]) != after:
        return f"{m} did not take {k.guest} from the guest pile or its discards"
    if not vs["guest_pile"] and vs["guest_discard"] and vt["guest_discard"] != vs["guest_discard"][-1:]:
        return "a guest reshuffle did not keep only the top discard behind"
    return None


_AT_ONCE = {"jd.ruling.reshuffle-time": ("at-once",)}
"""``under=``: only where the discards become the pile at once."""


P = Property
PROPERTIES: tuple[Property, ...] = (
    P("jd.reshuffle.desserts", "a dessert is drawn from the pile (or its reshuffled discards), each card equally "
      "likely", state=p_dessert_draws, name="odds", lines=(34, 34)),
    P("jd.reshuffle.desserts", "a draw moves one dessert from the pile into one hand", transition=t_dessert_draw,
      name="draw", lines=((17, 17), (34, 34))),
    P("jd.reshuffle.desserts", "(reshuffle-time=at-once) the dessert pile is never empty while its discards hold "
      "cards", state=p_dessert_reshuffle_at_once, under=_AT_ONCE, name="at-once", lines=(34, 34)),
    P("jd.reshuffle.guests", "a guest is turned up from the pile, or the reshuffled discards without the top one, "
      "each equally likely", state=p_guest_turn_ups, name="odds", lines=(34, 34)),
    P("jd.reshuffle.guests", "a turn-up moves one guest into the middle; a reshuffle leaves only the top discard",
      transition=t_guest_turn_up, name="turn-up", lines=((17, 17), (34, 34))),
    P("jd.reshuffle.guests", "(reshuffle-time=at-once) the guest pile is never empty while the discards hold more "
      "than the doorway guest", state=p_guest_reshuffle_at_once, under=_AT_ONCE, name="at-once", lines=(34, 34)),
)
