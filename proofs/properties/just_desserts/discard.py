"""Just Desserts: the discard phase and the end of a turn (jd.discard.*).

Guests of a suit shown twice depart to the guest discard pile, whose top guest waits in the
doorway and may be served; the turn then passes on; no hand is ever cut down.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tablerules.model.core import TERMINAL

from .. import Problem, Property
from .readers import (V, actor, compare, decides, depart_keys, doorway, duplicated_suits, is_seat, legal, msub, mv,
    of_verbs, same, servable, serve_keys)
from .serving import serving


def t_turn_passes(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.discard.turn-ends (jd.ruling.turn-direction): a turn ends after the discard phase and
    the next player in the chosen direction begins."""
    vs, vt = V(rules, s), V(rules, t)
    if vs["turn"] == vt["turn"] or actor(rules, t) is TERMINAL:
        return None
    n = s.setup.players
    step = -1 if s.setup.options.turn_direction == "counter-clockwise" else 1
    if vt["turn"] != (vs["turn"] + step) % n:
        return f"the turn passed from seat {vs['turn']} to seat {vt['turn']}"
    return None


def t_turn_end_sorted(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.discard.one-per-suit: when a turn ends at most one guest of each suit waits in the middle."""
    vs, vt = V(rules, s), V(rules, t)
    if vs["turn"] == vt["turn"] or actor(rules, t) is TERMINAL:
        return None
    dup = duplicated_suits(s.setup.components, vt["centre"])
    return f"the turn ended with suits {sorted(dup)} showing twice in the middle" if dup else None


def p_discard_choices(rules: Any, state: Any) -> Problem:
    """jd.discard.one-per-suit (jd.ruling.discard-which): while a suit shows twice at the end
    of a turn the player sends guests away, choosing which; nothing else can be done then."""
    a = actor(rules, state)
    if not is_seat(a):
        return None
    got = legal(rules, state)
    v = V(rules, state)
    if not of_verbs(got, "depart") and v["phase"] not in ("discard", "sort"):
        return None
    if v["phase"] not in ("discard", "sort") or a != v["turn"]:
        return f"guests may be sent away in the {v['phase']} phase"
    if not duplicated_suits(state.setup.components, v["centre"]):
        return "the player is asked to send guests away though every suit shows once"
    return compare("guests the player may send away", depart_keys(state.setup, v), got)


def t_depart(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.discard.one-per-suit: a guest sent away leaves the middle for the top of the guest
    discard pile; the player goes on until every suit shows at most once, and no longer."""
    k = mv(m)
    if k.verb != "depart":
        return None
    vs, vt = V(rules, s), V(rules, t)
    left = msub(vs["centre"], [k.guest])
    if left is None or not same(vt["centre"], left.elements()):
        return f"departing {k.guest} did not take it out of the middle"
    if doorway(vt) != k.guest:
        return f"the departed {k.guest} is not on top of the guest discard pile"
    p = vs["turn"]
    if actor(rules, t) is TERMINAL:
        return None
    if duplicated_suits(s.setup.components, vt["centre"]):
        if not decides(rules, t, p):
            return "a suit still shows twice but the player is not asked to send another guest away"
    elif vs["phase"] == "discard" and vt["turn"] == p:
        return "every suit shows once but the turn does not end"
    return None


def t_doorway_kept(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.reshuffle.guests, jd.discard.doorway: the guest in the doorway changes only when a guest
    departs (it takes the doorway) or the doorway guest is claimed (the one beneath it takes
    its place); a reshuffle of the guests leaves it standing."""
    vs, vt = V(rules, s), V(rules, t)
    before, after = doorway(vs), doorway(vt)
    if before == after:
        return None
    k = mv(m)
    if k.verb == "depart" and after == k.guest:
        return None
    claimed_now = {g for c in vt["claimed"] for g in c}
    if before is not None and before in claimed_now and before not in {g for c in vs["claimed"] for g in c}:
        beneath = vs["guest_discard"][-2] if len(vs["guest_discard"]) > 1 else None
        if after == beneath:
            return None
        return f"after the doorway guest {before} was claimed, {after} stands in the doorway, not {beneath}"
    return f"the doorway guest changed from {before} to {after} on {m}"


def _doorway_serves(rules: Any, state: Any) -> Problem:
    """jd.discard.doorway: the guest on top of the guest discard pile may be served like one in the
    middle, and no other discarded guest may."""
    v = V(rules, state)
    a = actor(rules, state)
    if v["phase"] not in ("choose", "buffet") or not is_seat(a) or a != v["turn"]:
        return None
    got = of_verbs(legal(rules, state), "serve")
    buried = set(v["guest_discard"][:-1]) - servable(v)
    if any(k[1] in buried for k in got):
        return "a guest below the top of the guest discard pile may be served"
    d = doorway(v)
    if d is None or (v["phase"] == "choose" and v["served"] >= 2):
        return None
    return compare("serving the doorway guest", serve_keys(state.setup, v, a, [d]), {k for k in got if k[1] == d})


def t_hands_only_by_moves(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.discard.no-hand-limit: desserts leave a hand only when its owner serves, poaches,
    blocks, surprises, dumps or opens a buffet with them; no hand is ever cut down."""
    a = actor(rules, s)
    if not is_seat(a):
        return None
    vs, vt = V(rules, s), V(rules, t)
    k = mv(m)
    for q in range(s.setup.players):
        lost = msub(vs["hands"][q], vt["hands"][q]) if msub(vs["hands"][q], vt["hands"][q]) is not None else None
        if lost is None:
            # the hand grew: only a thwarted server taking back the offered desserts
            off = vs["offer"]
            back = off is not None and q == off["server"] and k.verb in ("block", "surprise") \
                and msub(vt["hands"][q], vs["hands"][q]) == Counter(off["cards"])
            if not back:
                return f"{m}: seat {q}'s hand went {sorted(vs['hands'][q])} -> {sorted(vt['hands'][q])}"
            continue
        if not lost:
            continue
        own = k.verb in ("serve", "poach", "block", "surprise", "dump", "buffet")
        if q != a or not own or lost != Counter(k.cards):
            return f"{m}: seat {q} lost {sorted(lost.elements())} from the hand"
    return None


P = Property
PROPERTIES: tuple[Property, ...] = (
    P("jd.discard.one-per-suit", "at the end of the turn the player sends away guests of their choice while a suit "
      "shows twice, and nothing else", state=p_discard_choices, name="choices", lines=(28, 28),
      reads=("jd.ruling.discard-which",)),
    P("jd.discard.one-per-suit", "a departing guest goes to the top of the guest discard pile; departures go on "
      "exactly while a suit shows twice", transition=t_depart, name="depart", lines=(28, 29)),
    P("jd.discard.one-per-suit", "no turn ends with a suit showing twice in the middle", transition=t_turn_end_sorted,
      name="turn-end", lines=((28, 28), (30, 30))),
    P("jd.discard.doorway", "the guest on top of the guest discard pile may be served like one in the middle; "
      "buried guests may not", state=_doorway_serves, name="servable", lines=((29, 29), (48, 48)),
      reads=("jd.ruling.serving-size",)),
    P("jd.discard.doorway", "serving the doorway guest leaves the guest beneath in the doorway",
      transition=serving("jd.discard.doorway"), name="beneath", lines=(29, 29)),
    P("jd.discard.doorway", "the doorway guest changes only by a departure or by being claimed; reshuffles keep it",
      transition=t_doorway_kept, name="kept", lines=((29, 29), (34, 34))),
    P("jd.discard.turn-ends", "a turn ends after its discard phase and passes to the next seat in the chosen "
      "direction (turn-direction)", transition=t_turn_passes, lines=(30, 30), reads=("jd.ruling.turn-direction",)),
    P("jd.discard.no-hand-limit", "desserts leave a hand only in its owner's own serving, answer, dump or buffet; "
      "no hand is ever cut down", transition=t_hands_only_by_moves, lines=(30, 30)),
)
