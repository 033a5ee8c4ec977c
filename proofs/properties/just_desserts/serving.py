"""Just Desserts: a serving attempt followed to the server's next decision.

One attempt (a serving, a poach, a buffet's serving) is followed through its answer window
(jd.block.defender, jd.surprise.intercept, jd.surprise.first-offered), its tips (jd.tip.favourite,
jd.poach.victim-tip, jd.tip.block-favourite) and on until the server decides again or the turn
ends; every clause the attempt touches is checked on the way and filed under its own key, which
:func:`serving` reads for the properties of each family (turn, discard, poaching, buffet,
surprise).  The answers open while a serving waits are read here too (:func:`_answers`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from tablerules.model.core import TERMINAL

from .. import Problem
from .readers import (_MEMO, Resolution, V, _note, actor, answer_keys, compare, decides, dessert_supply, doorway, hand,
    holder, is_seat, key_text, legal, msub, mv, of_verbs, poach_keys, resolutions, same, servable, serve_keys, tips,
    until_decides)


def _window(rules: Any, state: Any) -> tuple[int, dict] | None:
    v = V(rules, state)
    a = actor(rules, state)
    if v["offer"] is None or not is_seat(a):
        return None
    return a, v


def _answers(verbs: tuple[str, ...], what: str) -> Callable:
    def check(rules: Any, state: Any) -> Problem:
        w = _window(rules, state)
        if w is None:
            return None
        a, v = w
        if a == v["offer"]["server"]:
            return "the server is asked to answer their own serving"
        exp = of_verbs(answer_keys(state.setup, v, a), *verbs)
        return compare(f"{what} open to seat {a}", exp, of_verbs(legal(rules, state), *verbs))
    check.__doc__ = f"The answers to a serving: {what} are exactly those the text allows."
    return check


def _serving_moves(rules: Any, s: Any, m: Any) -> bool:
    k = mv(m)
    v = V(rules, s)
    return k.verb in ("serve", "poach") and actor(rules, s) == v["turn"] and v["phase"] in ("choose", "buffet")


def _by_verb(out: dict, what: str, expected: set, got: set, keys: dict[str, str]) -> None:
    """Compare two move sets and file each difference under the clause its verb belongs to."""
    for verb in {k[0] for k in expected ^ got}:
        clause = keys.get(verb, keys.get("*", ""))
        _note(out, clause, compare(what, of_verbs(expected, verb), of_verbs(got, verb)))


def _serving(rules: Any, s: Any, m: Any, t: Any) -> dict[str, str]:
    """A serving attempt followed through its answer window, its tips, and up to the server's
    next decision (or the end of the turn)."""
    out: dict[str, str] = {}
    setup, deck, o = s.setup, s.setup.components, s.setup.options
    vs, vt = V(rules, s), V(rules, t)
    p = vs["turn"]
    k = mv(m)
    g, S = k.guest, k.cards
    poach = k.verb == "poach"
    victim = holder(vs, g) if poach else -1
    in_buffet = vs["phase"] == "buffet"
    origin = "claimed" if poach else ("centre" if g in vs["centre"] else "doorway")
    serve_clause = "jd.poach.attempt" if poach else "jd.turn.satisfy-guests#effect"
    # -- the attempt itself: the desserts leave the hand, onto the table or to the guest
    if msub(vs["hands"][p], S) != Counter(vt["hands"][p]) and vt["offer"] is not None:
        _note(out, serve_clause, f"{m}: the offered desserts did not leave seat {p}'s hand")
    if vt["offer"] is not None:
        off = vt["offer"]
        if (off["server"], off["guest"], tuple(sorted(off["cards"])), off["victim"]) != (p, g, S, victim):
            _note(out, serve_clause, f"{m}: the offer on the table is {off}")
    # -- who had something to answer with (hands do not change while a serving waits)
    able: dict[int, set] = {}
    if vt["offer"] is not None:
        for q in range(setup.players):
            if q != p:
                opts = answer_keys(setup, vt, q) - {("pass", "", ())}
                if opts:
                    able[q] = opts
    else:
        fake = dict(vs, offer={"server": p, "guest": g, "cards": list(S), "victim": victim},
                    hands=[list(hand(vs, q)) if q != p else list(msub(vs["hands"][p], S).elements())
                           for q in range(setup.players)])
        for q in range(setup.players):
            if q != p:
                opts = answer_keys(setup, fake, q) - {("pass", "", ())}
                if opts:
                    able[q] = opts
    ls = legal(rules, s)
    rs = resolutions(rules, t)
    _answer_order(out, setup, p, able, rs)
    for r in rs:
        if r.gap:
            continue
        ve = V(rules, r.end)
        # -- every player who could block or surprise was asked before the serving succeeded
        if r.answer is None:
            for q, opts in able.items():
                if q not in r.asked:
                    clause = "jd.block.defender" if of_verbs(opts, "block") else "jd.surprise.intercept"
                    _note(out, clause + "#asked", f"{m} succeeded without asking seat {q}, who could answer with "
                                                 f"{key_text(sorted(opts)[0])}")
            _check_success(out, setup, vs, ve, p, g, S, victim, origin, serve_clause)
        elif r.answer[0] == "block":
            _check_block(out, setup, vs, ve, p, g, S, r.answer)
        else:
            _check_surprise(out, setup, vs, ve, p, g, S, victim, origin, r.answer)
        if actor(rules, r.end) is TERMINAL:
            continue
        _after(out, rules, s, r, p, g, S, poach, victim, in_buffet, ls)
    return out


def _answer_order(out: dict, setup: Any, p: int, able: dict[int, set], rs: list[Resolution]) -> None:
    """jd.surprise.first-offered (jd.ruling.answer-order): each player answers a serving at most
    once; under race any player able to answer may be the first to speak, under clockwise the
    players are asked clockwise from the server."""
    key = "jd.surprise.first-offered#order"
    for r in rs:
        if r.gap:
            continue
        if len(set(r.order)) != len(r.order):
            _note(out, key, f"seat(s) answered the same serving twice: {r.order}")
        if r.answer is None and r.open:
            _note(out, key, f"the answers never settle the serving: {r.order}")
    if setup.options.answer_order == "race":
        for q in able:
            if not any(r.order[:1] == (q,) for r in rs):
                _note(out, key, f"seat {q}, able to answer, is never the first to speak (answer-order=race)")
    elif setup.options.answer_order == "clockwise":
        n = setup.players
        for r in rs:
            if r.gap:
                continue
            dist = [(q - p) % n for q in r.order]
            if dist != sorted(dist):
                _note(out, key, f"answers came in the order {r.order}, not clockwise from seat {p}")


def _check_success(out: dict, setup: Any, vs: dict, ve: dict, p: int, g: str, S: tuple, victim: int, origin: str,
                   clause: str) -> None:
    """jd.turn.satisfy-guests / jd.poach.attempt: the guest joins the server, the desserts go to
    the discard pile."""
    if g not in ve["claimed"][p]:
        _note(out, clause, f"serving {g} succeeded but it is not with seat {p}")
        return
    if origin == "claimed" and g in ve["claimed"][victim]:
        _note(out, clause, f"poached {g} is still with seat {victim}")
    if origin == "centre" and g in ve["centre"]:
        _note(out, clause, f"served {g} is still in the middle")
    if origin == "doorway":
        beneath = vs["guest_discard"][-2] if len(vs["guest_discard"]) > 1 else None
        if doorway(ve) != beneath or g in ve["guest_discard"]:
            _note(out, "jd.discard.doorway", f"after the doorway guest {g} was served, {doorway(ve)} stands in the "
                                             f"doorway, not the guest beneath ({beneath})")
    if msub(dessert_supply(ve).elements(), S) != dessert_supply(vs):
        _note(out, clause, f"the desserts served to {g} did not go to the discard pile")
    if msub(vs["hands"][p], S) != Counter(ve["hands"][p]):
        _note(out, clause, f"serving {g} did not take exactly the served desserts from the hand")


def _check_block(out: dict, setup: Any, vs: dict, ve: dict, p: int, g: str, S: tuple, answer: tuple) -> None:
    """jd.block.defender, jd.block.cards-back: the guest stays, the blocker's desserts are
    discarded, the poacher takes the offered desserts back."""
    _, b, B = answer
    if g not in ve["claimed"][b] or ve["claimed"] != vs["claimed"]:
        _note(out, "jd.block.defender#effect", f"after the block {g} is not with its holder, seat {b}")
    if msub(vs["hands"][b], B) != Counter(ve["hands"][b]) \
            or msub(dessert_supply(ve).elements(), B) != dessert_supply(vs):
        _note(out, "jd.block.defender#effect", "the blocking desserts did not go from the hand to the discards")
    if not same(ve["hands"][p], vs["hands"][p]):
        _note(out, "jd.block.cards-back", f"the blocked poacher's hand is {sorted(ve['hands'][p])}, "
                                          f"not {sorted(vs['hands'][p])}")
    if ve["served"] != vs["served"]:
        _note(out, "jd.block.cards-back", f"the blocked poach counted as a serving ({vs['served']} -> {ve['served']})")


def _check_surprise(out: dict, setup: Any, vs: dict, ve: dict, p: int, g: str, S: tuple, victim: int,
                    origin: str, answer: tuple) -> None:
    """jd.surprise.intercept, jd.surprise.continue: the guest goes to the surprising player, whose
    desserts are discarded; the server takes the offered desserts back."""
    _, q, F = answer
    if g not in ve["claimed"][q] or any(g in ve["claimed"][x] for x in range(len(ve["claimed"])) if x != q):
        _note(out, "jd.surprise.intercept#effect", f"after the surprise {g} is not with seat {q} alone")
    if origin == "centre" and g in ve["centre"]:
        _note(out, "jd.surprise.intercept#effect", f"surprised {g} is still in the middle")
    if msub(vs["hands"][q], F) != Counter(ve["hands"][q]) \
            or msub(dessert_supply(ve).elements(), F) != dessert_supply(vs):
        _note(out, "jd.surprise.intercept#effect", "the surprising desserts did not go from the hand to the discards")
    if not same(ve["hands"][p], vs["hands"][p]):
        _note(out, "jd.surprise.continue", f"the surprised server's hand is {sorted(ve['hands'][p])}, "
                                           f"not {sorted(vs['hands'][p])}")
    if ve["served"] != vs["served"]:
        _note(out, "jd.surprise.continue", f"the surprised attempt counted as a serving "
                                           f"({vs['served']} -> {ve['served']})")
    if g not in ve["shielded"] or not set(vs["shielded"]) <= set(ve["shielded"]):
        _note(out, "jd.surprise.no-poach-back#record", f"the surprised guest {g} is not recorded as shielded")


def _expected_tips(setup: Any, vs: dict, p: int, g: str, S: tuple, victim: int,
                   answer: tuple | None) -> dict[str, tuple[int, int]]:
    """clause -> (seat, desserts it draws) after the serving attempt is settled."""
    o = setup.options
    if answer is None:
        out = {"jd.tip.favourite": (p, tips(setup, g, S))}
        if victim >= 0:
            out["jd.poach.victim-tip"] = (victim, 1)
        return out
    verb, q, cards = answer
    if verb == "block":
        return {"jd.tip.block-favourite": (q, tips(setup, g, cards)), "jd.poach.blocked-no-tip": (p, 0)}
    out = {"jd.surprise.no-tip": (q, 0), "jd.surprise.continue#no-tip": (p, 0)}
    if victim >= 0 and victim != q:
        out["jd.poach.victim-tip"] = (victim, 1 if o.victim_tip_surprise == "tip" else 0)
    return out


def _after(out: dict, rules: Any, s: Any, r: Resolution, p: int, g: str, S: tuple, poach: bool, victim: int,
           in_buffet: bool, ls: frozenset) -> None:
    """The tips drawn after the serving attempt, and the server's next decision."""
    setup = s.setup
    vs, ve = V(rules, s), V(rules, r.end)
    expected = _expected_tips(setup, vs, p, g, S, victim, r.answer)
    supply = sum(dessert_supply(ve).values())
    total = sum(n for _, n in expected.values())
    for u in until_decides(rules, r.end, p, first_only=True, cap=50):
        vu = V(rules, u)
        drawn = [len(vu["hands"][q]) - len(ve["hands"][q]) for q in range(setup.players)]
        if total <= supply:
            want = [0] * setup.players
            for seat, n in expected.values():
                want[seat] += n
            if drawn != want:
                for clause, (seat, n) in expected.items():
                    if drawn[seat] != want[seat]:
                        _note(out, clause, f"after {key_text(('poach' if poach else 'serve', g, S))} "
                                           f"({'success' if r.answer is None else r.answer[0]}) seat {seat} drew "
                                           f"{drawn[seat]} desserts, not {want[seat]}")
                        break
                else:
                    _note(out, "jd.tip.favourite", f"after serving {g} the hands grew by {drawn}, not {want}")
        elif sum(drawn) != supply:
            _note(out, "jd.tip.favourite", f"{sum(drawn)} tips drawn with {supply} desserts left for {total} owed")
        if not decides(rules, u, p):
            continue
        _next_decision(out, rules, s, u, r, p, g, poach, in_buffet, ls)


def _next_decision(out: dict, rules: Any, s: Any, u: Any, r: Resolution, p: int, g: str, poach: bool,
                   in_buffet: bool, ls: frozenset) -> None:
    """What the server may do next: the text for a success, a block and a surprise."""
    setup = s.setup
    vs, vu = V(rules, s), V(rules, u)
    lu = set(legal(rules, u))
    if r.answer is None:
        count = vs["served"] + 1
        if in_buffet or count >= 2:
            extra = {k for k in lu if k[0] != "depart"}
            clause = "jd.buffet.serve-one" if in_buffet else "jd.turn.satisfy-guests#up-to-two"
            _note(out, clause, f"after serving {'the buffet guest' if in_buffet else 'two guests'} the player may "
                               f"still {', '.join(sorted(map(key_text, extra))[:3])}" if extra else None)
            return
        exp = serve_keys(setup, vu, p, servable(vu)) | {("stop", "", ())}
        if not poach and vs["poach"] == "":
            exp |= poach_keys(setup, vu, p, exclude=vu["shielded"])
        _by_verb(out, f"after {'poaching' if poach else 'serving'} {g}", exp, lu, {
            "poach": "jd.poach.one-opportunity" if poach else "jd.poach.attempt",
            "serve": "jd.poach.one-opportunity" if poach else "jd.turn.satisfy-guests#up-to-two",
            "stop": "jd.turn.satisfy-guests#up-to-two",
            "*": "jd.turn.one-option#no-second-option"})
        return
    verb = r.answer[0]
    if verb == "block":
        exp = of_verbs(ls, "serve") | {("stop", "", ())}
        _by_verb(out, f"after the poach of {g} was blocked", exp, lu, {
            "poach": "jd.poach.blocked-no-retry", "serve": "jd.block.cards-back", "stop": "jd.block.cards-back",
            "*": "jd.turn.one-option#no-second-option"})
        return
    # a surprise: as if the attempt had not happened, less the surprised guest
    if ("poach", g) in {(k[0], k[1]) for k in lu}:
        _note(out, "jd.surprise.no-poach-back", f"the surprised guest {g} may be poached back at once")
    new = servable(vu) - servable(vs)
    before = {k for k in ls if k[1] != g}
    after = {k for k in lu if k[1] != g and k[1] not in new}
    if setup.options.surprised_attempt == "commits":
        # jd.ruling.surprised-attempt=commits: the attempt chose the serving option; servings (and stopping) are left
        before = {k for k in before if k[0] in ("serve", "poach")} | {("stop", "", ())}
    _note(out, "jd.surprise.continue", compare(f"after the surprise over {g}, the server's moves (compared with "
                                               f"before the attempt)", before, after))


def serving(key: str) -> Callable:
    def check(rules: Any, s: Any, m: Any, t: Any) -> Problem:
        if not _serving_moves(rules, s, m):
            return None
        return _MEMO.get(rules, ("serving", s, m), lambda: _serving(rules, s, m, t)).get(key)
    check.__doc__ = f"{key}: a serving attempt followed through its answers and tips to the server's next decision."
    return check
