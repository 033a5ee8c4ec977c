"""Just Desserts: fixed positions (the rulebook's worked example and the cases its sentences
settle), built by dealing chosen cards and playing moves through the API.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from tablerules.model.core import CHANCE, SetupError
from tablerules.model.decks import deck_from_json

from .. import Example, Problem
from .readers import V, actor, compare, is_ace, key_text, legal, mv, of_verbs, serve_keys


def ex_players(rules: Any) -> Problem:
    """jd.players.count: two to five players, no fewer, no more."""
    deck = _example_deck()
    for n in (2, 3, 4, 5):
        try:
            rules.setup(n, rules.Options(), deck)
        except SetupError as e:
            return f"{n} players refused: {e}"
    for n in (1, 6):
        try:
            rules.setup(n, rules.Options(), deck)
        except SetupError:
            continue
        return f"{n} players accepted"
    return None


def _example_deck() -> Any:
    """A small deck for the fixed positions: four suits of two guests, aces and two-taste desserts,
    and the three desserts and the guest of the rulebook's worked example."""
    d = lambda i, t, n=1: {"id": i, "name": i.replace("_", " ").lower(), "tastes": t, "copies": n}  # noqa: E731
    g = lambda i, s, w, r=(), f=(): {  # noqa: E731
        "id": i, "name": i.lower(), "suit": s, "wants": list(w), "refuses": list(r), "favorites": list(f)}
    return deck_from_json({
        "tastes": ["Cake", "Fruit", "Nuts", "Pie", "Ice Cream", "Veggies"],
        "suits": ["cup", "mitt", "hat", "pin"],
        "desserts": [d("SPONGE", ["Cake"], 4), d("PLUM", ["Fruit"], 4), d("WALNUT", ["Nuts"], 4), d("PIE", ["Pie"], 4),
                     d("TART", ["Cake", "Fruit"], 2), d("CREAM", ["Ice Cream"], 2),
                     d("CARROT_CAKE", ["Cake", "Veggies"]), d("STRAWBERRY_SHORTCAKE", ["Fruit", "Cake"]),
                     d("BUTTER_PECAN_ICE_CREAM", ["Nuts", "Ice Cream"]), d("ICE_CREAM_CAKE", ["Ice Cream", "Cake"])],
        "guests": [g("BAKER", "cup", ["Cake"], f=["SPONGE", "TART"]), g("PICKER", "cup", ["Fruit"], f=["PLUM"]),
                   g("NUTTER", "mitt", ["Nuts"]), g("PIEMAN", "mitt", ["Pie"], f=["PIE"]),
                   g("LITTLE_GIRL", "hat", ["Ice Cream", "Cake"], ["Veggies"], ["ICE_CREAM_CAKE"]),
                   g("GRUMP", "hat", ["Veggies"]), g("ICY", "pin", ["Ice Cream"], f=["CREAM"]),
                   g("OWL", "pin", ["Nuts", "Pie"])],
    }, name="jd-rulebook-examples")


class _Stuck(Exception):
    pass


def deal(rules: Any, setup: Any, hands: list[list[str]], centre: list[str]) -> Any:
    """A new game with these hands and these guests face up, choosing the chance outcomes of the
    deal (whoever a dessert goes to, the model says; the outcome is picked to fit)."""
    state = rules.new_game(setup)
    need = [Counter(h) for h in hands]
    up = Counter(centre)
    while actor(rules, state) is CHANCE and (any(need) or up):
        for m, _ in rules.chance_outcomes(state):
            nxt = rules.apply(state, m)
            vs, vn = V(rules, state), V(rules, nxt)
            k = mv(m)
            if k.verb == "draw":
                q = next(i for i in range(setup.players) if len(vn["hands"][i]) > len(vs["hands"][i]))
                if need[q][k.cards[0]] > 0:
                    need[q][k.cards[0]] -= 1
                    need[q] += Counter()
                    state = nxt
                    break
            elif k.verb == "turn-up" and up[k.guest] > 0:
                up[k.guest] -= 1
                up += Counter()
                state = nxt
                break
        else:
            raise _Stuck(f"cannot deal {need} / {up}")
    return state


def play(rules: Any, state: Any, moves: Iterable[str]) -> Any:
    for text in moves:
        state = rules.apply(state, rules.parse_move(text, state.setup))
    return state


def _options(rules: Any, **changes: Any) -> Any:
    import dataclasses
    return dataclasses.replace(rules.Options(), **changes)


def ex_little_girl(rules: Any) -> Problem:
    """jd.turn.example: holding the carrot cake, the strawberry shortcake and the butter pecan ice
    cream, the only way to claim the Little Girl is the shortcake with the butter pecan (the
    player served NUTTER first, so exactly those three desserts are in hand)."""
    deck = _example_deck()
    three = ["BUTTER_PECAN_ICE_CREAM", "CARROT_CAKE", "STRAWBERRY_SHORTCAKE"]
    for size in ("minimal", "any"):
        setup = rules.setup(2, _options(rules, serving_size=size), deck)
        s = deal(rules, setup, [three, ["PIE", "PIE", "PIE"]], ["LITTLE_GIRL", "NUTTER", "PICKER"])
        s = play(rules, s, ["draw WALNUT", "turn up ICY", "serve NUTTER with WALNUT"])
        v = V(rules, s)
        if actor(rules, s) != 0 or sorted(v["hands"][0]) != three:
            return f"the example position was not reached: {v['hands'][0]}"
        girl = {k for k in legal(rules, s) if k[0] == "serve" and k[1] == "LITTLE_GIRL"}
        want = {("serve", "LITTLE_GIRL", ("BUTTER_PECAN_ICE_CREAM", "STRAWBERRY_SHORTCAKE"))}
        if girl != want:
            return f"serving-size={size}: the Little Girl may be served {sorted(map(key_text, girl))}"
        if {k[2] for k in serve_keys(setup, v, 0, ["LITTLE_GIRL"])} != {want.pop()[2]}:
            return "the properties' own reading of the tastes disagrees with the rulebook's example"
        for bad in ("CARROT_CAKE+STRAWBERRY_SHORTCAKE", "BUTTER_PECAN_ICE_CREAM+CARROT_CAKE",
                    "BUTTER_PECAN_ICE_CREAM+CARROT_CAKE+STRAWBERRY_SHORTCAKE", "STRAWBERRY_SHORTCAKE",
                    "BUTTER_PECAN_ICE_CREAM"):
            if rules.illegal_reason(s, rules.parse_move(f"serve LITTLE_GIRL with {bad}", setup)) is None:
                return f"serving-size={size}: the Little Girl accepts {bad}"
    return None


def _poaching_position(rules: Any, **changes: Any) -> Any:
    """Seat 1 holds NUTTER and PIEMAN; seat 0, to choose, holds SPONGE, PIE and WALNUT; BAKER and
    ICY wait in the middle."""
    setup = rules.setup(2, _options(rules, poaching=True, **changes), _example_deck())
    s = deal(rules, setup, [["SPONGE", "PLUM", "PIE"], ["WALNUT", "PIE", "SPONGE"]], ["NUTTER", "PICKER", "ICY"])
    return play(rules, s, [
        "draw WALNUT", "turn up OWL",
        "serve PICKER with PLUM", "draw PIE",          # a favourite: a tip
        "serve OWL with PIE+WALNUT",                   # two servings: the turn ends (no suit twice)
        "draw WALNUT", "turn up PIEMAN",
        "serve NUTTER with WALNUT",
        "serve PIEMAN with PIE", "draw CREAM",         # a favourite: a tip
        "draw WALNUT", "turn up BAKER",
    ])


def ex_blocked_no_retry(rules: Any) -> Problem:
    """jd.poach.blocked-no-retry: once a poach is blocked the poacher may not poach again that
    turn (not even another guest), but may still serve guests from the middle."""
    s = _poaching_position(rules)
    v = V(rules, s)
    if actor(rules, s) != 0 or sorted(v["claimed"][1]) != ["NUTTER", "PIEMAN"]:
        return f"the poaching position was not reached: {v['claimed']}"
    before = legal(rules, s)
    if ("poach", "PIEMAN", ("PIE",)) not in before or ("poach", "NUTTER", ("WALNUT",)) not in before:
        return "both poaches should be open before the attempt"
    s = play(rules, s, ["poach NUTTER with WALNUT"])
    if actor(rules, s) != 1 or ("block", "", ("WALNUT",)) not in legal(rules, s):
        return "seat 1 may not block the poach with its walnut"
    s = play(rules, s, ["block with WALNUT"])
    after = legal(rules, s)
    if actor(rules, s) != 0 or of_verbs(after, "poach"):
        return f"after the block seat 0 may still poach: {sorted(map(key_text, of_verbs(after, 'poach')))}"
    if ("serve", "BAKER", ("SPONGE",)) not in after:
        return "after the block seat 0 may not serve BAKER from the middle"
    if sorted(V(rules, s)["hands"][0]) != ["PIE", "SPONGE", "WALNUT"]:
        return "the blocked poacher did not take the walnut back"
    return None


def ex_favourite_block(rules: Any) -> Problem:
    """jd.block.favourite-only-by-other-favourite: a poach with a favourite can be blocked only
    with the guest's other favourite; a guest with one favourite cannot be defended at all."""
    setup = rules.setup(2, _options(rules, poaching=True), _example_deck())
    s = deal(rules, setup, [["SPONGE", "PIE", "PLUM"], ["SPONGE", "PIE", "TART"]], ["BAKER", "PIEMAN", "ICY"])
    s = play(rules, s, [
        "draw SPONGE", "turn up GRUMP", "kitchen", "draw PLUM",          # seat 0: four suits, no discard
        "draw CREAM", "turn up PICKER",
        "serve BAKER with SPONGE", "draw SPONGE",                     # favourite: tip
        "serve PIEMAN with PIE", "draw PIE",                          # favourite: tip
        "draw WALNUT", "turn up NUTTER",
    ])
    v = V(rules, s)
    if actor(rules, s) != 0 or sorted(v["claimed"][1]) != ["BAKER", "PIEMAN"] or "TART" not in v["hands"][1]:
        return f"the position was not reached: {v['claimed']}, {v['hands']}"
    baker = play(rules, s, ["poach BAKER with SPONGE"])
    blocks = of_verbs(legal(rules, baker), "block") if actor(rules, baker) == 1 else set()
    if blocks != {("block", "", ("TART",))}:
        return f"a poach of BAKER with SPONGE may be blocked {sorted(map(key_text, blocks))}, not only with TART"
    pieman = play(rules, s, ["poach PIEMAN with PIE"])
    if actor(rules, pieman) == 1 and of_verbs(legal(rules, pieman), "block"):
        return "a poach of PIEMAN with its only favourite may be blocked"
    return None


def ex_surprise(rules: Any) -> Problem:
    """jd.surprise.no-tip, jd.surprise.continue: a surprise earns no tip; the thwarted server gets
    the desserts back and chooses again as if nothing had been tried (the kitchen too)."""
    setup = rules.setup(2, _options(rules, surprise_parties=True), _example_deck())
    s = deal(rules, setup, [["CARROT_CAKE", "PLUM", "WALNUT"], ["SPONGE", "PIE", "PLUM"]], ["BAKER", "NUTTER", "ICY"])
    s = play(rules, s, ["draw PIE", "turn up GRUMP"])
    before = legal(rules, s)
    s = play(rules, s, ["serve BAKER with CARROT_CAKE"])
    if actor(rules, s) != 1 or ("surprise", "", ("SPONGE",)) not in legal(rules, s):
        return "seat 1 may not surprise BAKER with its favourite"
    s = play(rules, s, ["surprise with SPONGE"])
    v = V(rules, s)
    if actor(rules, s) is CHANCE:
        return "a surprise is followed by a draw (a tip?)"
    if v["claimed"][1] != ["BAKER"] or sorted(v["hands"][1]) != ["PIE", "PLUM"]:
        return f"after the surprise: claimed {v['claimed']}, seat 1 holds {v['hands'][1]}"
    if sorted(v["hands"][0]) != ["CARROT_CAKE", "PIE", "PLUM", "WALNUT"]:
        return "the surprised server did not take the carrot cake back"
    after = legal(rules, s)
    want = {k for k in before if k[1] != "BAKER"}
    if set(after) != want:
        return compare("after the surprise, seat 0's moves (as before the attempt)", want, after)
    return None


def ex_doorway(rules: Any) -> Problem:
    """jd.discard.doorway, jd.discard.one-per-suit: the player chooses who leaves (any guest while
    a suit shows twice, jd.ruling.discard-which); the last to leave may be served from the doorway."""
    for which in ("any-guest", "duplicates-only"):
        setup = rules.setup(2, _options(rules, discard_which=which), _example_deck())
        s = deal(rules, setup, [["SPONGE", "SPONGE", "SPONGE"], ["PLUM", "PIE", "PIE"]], ["BAKER", "PICKER", "ICY"])
        s = play(rules, s, ["draw SPONGE", "turn up GRUMP", "kitchen", "draw WALNUT"])
        departs = {k[1] for k in legal(rules, s) if k[0] == "depart"}
        want = {"BAKER", "PICKER", "ICY", "GRUMP"} if which == "any-guest" else {"BAKER", "PICKER"}
        if departs != want:
            return f"discard-which={which}: may send away {sorted(departs)}, not {sorted(want)}"
        s = play(rules, s, ["depart PICKER", "draw PIE", "turn up NUTTER"])
        if actor(rules, s) != 1 or ("serve", "PICKER", ("PLUM",)) not in legal(rules, s):
            return "the guest in the doorway cannot be served"
    return None


def ex_surprise_doorway(rules: Any) -> Problem:
    """jd.surprise.intercept (jd.ruling.surprise-doorway): serving the doorway guest cannot be
    surprised under middle-and-poach, and can under any-serving."""
    for rule, open_ in (("middle-and-poach", False), ("any-serving", True)):
        setup = rules.setup(2, _options(rules, surprise_parties=True, surprise_doorway=rule), _example_deck())
        s = deal(rules, setup, [["SPONGE", "SPONGE", "PLUM"], ["PLUM", "PIE", "PIE"]], ["BAKER", "PICKER", "ICY"])
        s = play(rules, s, ["draw SPONGE", "turn up GRUMP", "kitchen", "draw WALNUT", "depart PICKER",
                            "draw TART", "turn up NUTTER", "serve PICKER with TART"])
        asked = actor(rules, s) == 0 and ("surprise", "", ("PLUM",)) in legal(rules, s)
        if asked != open_:
            return f"surprise-doorway={rule}: a surprise over the doorway guest is {'open' if asked else 'closed'}"
    return None


def ex_buffet(rules: Any) -> Problem:
    """jd.buffet.aces, jd.buffet.others-return, jd.buffet.draw-three, jd.buffet.serve-one: four
    aces open the buffet; the other player chooses which guest goes back to the middle; the
    opener draws three and may serve one unclaimed guest (not poach); then the turn ends."""
    setup = rules.setup(2, _options(rules, buffet=True, poaching=True), _example_deck())
    s = deal(rules, setup, [["SPONGE", "PLUM", "WALNUT"], ["PIE", "PLUM", "SPONGE"]], ["NUTTER", "PICKER", "ICY"])
    s = play(rules, s, [
        "draw PIE", "turn up GRUMP", "kitchen", "draw SPONGE",           # seat 0: five aces, four suits
        "draw WALNUT", "turn up PIEMAN",
        "serve PICKER with PLUM", "draw TART", "serve NUTTER with WALNUT",  # seat 1 claims two guests
        "draw CREAM", "turn up OWL",
    ])
    v = V(rules, s)
    if actor(rules, s) != 0 or sorted(v["claimed"][1]) != ["NUTTER", "PICKER"]:
        return f"the buffet position was not reached: {v['claimed']}"
    buffets = of_verbs(legal(rules, s), "buffet")
    if ("buffet", "", ("PIE", "PLUM", "SPONGE", "WALNUT")) not in buffets or \
            any(not all(is_ace(setup.components, c) for c in k[2]) or len(k[2]) != 4 for k in buffets):
        return f"the buffets open to six aces are {sorted(map(key_text, buffets))[:3]}"
    s = play(rules, s, ["buffet PIE+PLUM+SPONGE+WALNUT"])
    returns = legal(rules, s) if actor(rules, s) == 1 else set()
    if returns != {("return", "NUTTER", ()), ("return", "PICKER", ())}:
        return f"the other player may give back {sorted(map(key_text, returns))}, not either guest"
    s = play(rules, s, ["return PICKER", "draw WALNUT", "draw PLUM", "draw PIE"])
    v = V(rules, s)
    if actor(rules, s) != 0 or "PICKER" not in v["centre"] or len(v["hands"][0]) != 5:
        return f"after the returns and three draws: centre {v['centre']}, hand {v['hands'][0]}"
    moves = legal(rules, s)
    if of_verbs(moves, "poach") or not {("serve", "PICKER", ("PLUM",)), ("serve", "ICY", ("CREAM",)),
                                        ("stop", "", ())} <= set(moves):
        return f"after the buffet the opener may {sorted(map(key_text, moves))[:5]}"
    s = play(rules, s, ["serve ICY with CREAM", "draw SPONGE"])
    if V(rules, s)["turn"] != 1:
        return "after the buffet's one serving the turn does not end"
    return None


EXAMPLES: tuple[Example, ...] = (
    Example("jd.turn.example", "the Little Girl takes only the shortcake with the butter pecan ice cream "
            "(either serving-size)", ex_little_girl, name="example", lines=(24, 24)),
    Example("jd.players.count", "two to five players are accepted, one and six refused", ex_players, name="example",
            lines=(25, 25)),
    Example("jd.poach.blocked-no-retry", "a blocked poacher may not poach another guest that turn but may serve "
            "from the middle", ex_blocked_no_retry, name="example", lines=(43, 43)),
    Example("jd.block.favourite-only-by-other-favourite", "a poach of BAKER with SPONGE is blocked only with TART; "
            "PIEMAN poached with its only favourite cannot be blocked", ex_favourite_block, name="example",
            lines=(45, 45)),
    Example("jd.surprise.no-tip", "a surprise draws no tip; the thwarted server has the desserts back and every "
            "option as before (the kitchen too)", ex_surprise, name="example", lines=(51, 52)),
    Example("jd.discard.doorway", "the player picks who departs; the departed guest is served from the doorway",
            ex_doorway, name="example", lines=(28, 29)),
    Example("jd.buffet.serve-one", "four aces open a buffet; the other player picks the guest to give back; three "
            "draws; one unclaimed guest served, no poach; the turn ends", ex_buffet, name="example", lines=(48, 48)),
    Example("jd.surprise.intercept", "a doorway serving can be surprised only under surprise-doorway=any-serving",
            ex_surprise_doorway, name="example", lines=((29, 29), (50, 50))),
)
