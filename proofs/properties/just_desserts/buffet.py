"""Just Desserts: Opening a Buffet (jd.buffet.*).

Four aces open a buffet: the other players each give a guest back to the middle, the opener draws
three desserts and may serve one unclaimed guest, and the turn ends.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any, Callable

from tablerules.model.core import TERMINAL

from .. import Problem, Property
from .advanced import _on
from .readers import (_MEMO, V, _note, actor, compare, decides, dessert_supply, is_ace, is_seat, legal, msub, mv,
    of_verbs, same, servable, serve_keys, until_decides)
from .serving import serving
from .turn import _choose, _option_moves


def p_buffet_phase(rules: Any, state: Any) -> Problem:
    """jd.buffet.serve-one: after opening a buffet the player may serve one unclaimed guest
    (the middle or the doorway) or stop; no poach, no other option."""
    v = V(rules, state)
    a = actor(rules, state)
    if v["phase"] != "buffet" or not is_seat(a) or a != v["turn"]:
        return None
    exp = serve_keys(state.setup, v, a, servable(v)) | {("stop", "", ())}
    return compare("moves after opening a buffet", exp, legal(rules, state))


def p_return_phase(rules: Any, state: Any) -> Problem:
    """jd.buffet.others-return: a player asked to give a guest back to the buffet chooses any one
    of their own claimed guests; only other players than the one who opened it are asked."""
    v = V(rules, state)
    a = actor(rules, state)
    got = legal(rules, state)
    if not is_seat(a) or (v["phase"] != "return" and not of_verbs(got, "return")):
        return None
    if a == v["turn"]:
        return "the player who opened the buffet is asked to return a guest"
    if not v["claimed"][a]:
        return f"seat {a} holds no guest but is asked to return one"
    return compare(f"guests seat {a} may return", {("return", g, ()) for g in v["claimed"][a]}, got)


def _buffet(rules: Any, s: Any, m: Any, t: Any) -> dict[str, str]:
    """A buffet followed through the others' returns and the three draws to the opener's serving."""
    out: dict[str, str] = {}
    setup = s.setup
    vs, vt = V(rules, s), V(rules, t)
    p = vs["turn"]
    A = mv(m).cards
    deck = setup.components
    if len(A) != 4 or not all(is_ace(deck, c) for c in A) or msub(vs["hands"][p], A) is None:
        _note(out, "jd.buffet.aces", f"{m} is not four aces from the hand")
    if msub(vs["hands"][p], A) != Counter(vt["hands"][p]):
        _note(out, "jd.buffet.aces", "opening the buffet did not discard exactly the four aces")
    supply = sum(dessert_supply(vt).values())
    owners = [q for q in range(setup.players) if q != p and vs["claimed"][q]]
    combos: set[tuple] = set()
    ends = until_decides(rules, t, p, others=True, cap=2_000)
    for u in ends:
        vu = V(rules, u)
        if actor(rules, u) is TERMINAL or vu["turn"] != p:
            continue
        back = []
        for q in range(setup.players):
            lost = msub(vs["claimed"][q], vu["claimed"][q])
            want = 1 if q in owners else 0
            if lost is None or sum(lost.values()) != want:
                gone = sorted(set(vs["claimed"][q]) ^ set(vu["claimed"][q]))
                _note(out, "jd.buffet.others-return", f"seat {q} gave back {gone} to the buffet, not {want} guest")
                continue
            back += list(lost.elements())
        combos.add(tuple(sorted(back)))
        if not same(vu["centre"], list(vs["centre"]) + back):
            _note(out, "jd.buffet.others-return", "the returned guests are not in the middle")
        got = len(vu["hands"][p]) - len(vt["hands"][p])
        if got != min(3, supply) or msub(vu["hands"][p], vt["hands"][p]) is None:
            _note(out, "jd.buffet.draw-three", f"the buffet's opener drew {got} desserts, not {min(3, supply)}")
        if any(len(vu["hands"][q]) != len(vs["hands"][q]) for q in range(setup.players) if q != p):
            _note(out, "jd.buffet.draw-three", "another player's hand changed during the buffet")
        if decides(rules, u, p):
            exp = serve_keys(setup, vu, p, servable(vu)) | {("stop", "", ())}
            _note(out, "jd.buffet.serve-one", compare("the buffet opener's moves", exp, legal(rules, u)))
    if len(ends) < 500:
        want = {tuple(sorted(c)) for c in itertools.product(*(sorted(set(vs["claimed"][q])) for q in owners))}
        if combos and combos != want:
            _note(out, "jd.buffet.others-return", f"the guests given back can be {sorted(combos)[:3]}, not every "
                                                  f"choice {sorted(want)[:3]}")
    return out


def buffet(key: str) -> Callable:
    def check(rules: Any, s: Any, m: Any, t: Any) -> Problem:
        if not _option_moves(rules, s, m, ("buffet",)):
            return None
        return _MEMO.get(rules, ("buffet", s, m), lambda: _buffet(rules, s, m, t)).get(key)
    check.__doc__ = f"{key}: a buffet followed to the opener's serving."
    return check


P = Property
PROPERTIES: tuple[Property, ...] = (
    P("jd.buffet.aces", "while no option is taken, every choice of four aces from the hand opens a buffet",
      state=_choose(("buffet",), "buffets"), applies=_on("buffet"), lines=(48, 48)),
    P("jd.buffet.aces", "opening a buffet discards exactly four single-taste desserts from the hand",
      transition=buffet("jd.buffet.aces"), applies=_on("buffet"), name="discard", lines=(48, 48)),
    P("jd.buffet.others-return", "each other player holding guests gives back one guest of their choice to the middle",
      transition=buffet("jd.buffet.others-return"), applies=_on("buffet"), lines=(48, 48)),
    P("jd.buffet.others-return", "a player asked to give a guest back may choose any of their own guests",
      state=p_return_phase, applies=_on("buffet"), name="choice", lines=(48, 48)),
    P("jd.buffet.draw-three", "the buffet's opener draws three desserts", transition=buffet("jd.buffet.draw-three"),
      applies=_on("buffet"), lines=(48, 48)),
    P("jd.buffet.serve-one", "then the opener may serve one unclaimed guest or stop; no poach, nothing more",
      transition=buffet("jd.buffet.serve-one"), applies=_on("buffet"), lines=((29, 29), (48, 48)),
      reads=("jd.ruling.serving-size",)),
    P("jd.buffet.serve-one", "while the buffet's serving is open the moves are servings of unclaimed guests and stop",
      state=p_buffet_phase, applies=_on("buffet"), name="phase", lines=((29, 29), (48, 48)),
      reads=("jd.ruling.serving-size",)),
    P("jd.buffet.serve-one", "after the buffet's one serving only the discard phase is left",
      transition=serving("jd.buffet.serve-one"), applies=_on("buffet"), name="after", lines=(48, 48)),
)
