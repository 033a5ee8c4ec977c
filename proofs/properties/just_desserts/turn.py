"""Just Desserts: the turn (jd.turn.*, jd.serve.satisfies, jd.tip.favourite).

The draw phase followed from the end of a turn to the next player's decision, the one option
a turn takes (serving up to two guests, the kitchen, dumping the tray) and the record of the
turn so far that the other properties read (``served``, ``committed``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from tablerules.model.core import CHANCE, TERMINAL

from .. import Problem, Property
from .readers import (_MEMO, V, _note, actor, buffet_keys, compare, decides, dessert_supply, dump_keys,
    guest_supply_size, hand, is_seat, key_text, legal, minimal_rule, msub, mv, no_spare, nothing_unclaimed, of_verbs,
    poach_keys, same, satisfies, servable, serve_keys, serving_ever, sub_multisets, successors, turn_start_keys,
    until_decides)
from .serving import serving


def turn_begins(rules: Any, s: Any, t: Any) -> bool:
    """A turn starts between s and t: the turn passed, or the dealt guests were sorted out
    (jd.ruling.opening-duplicates=at-setup) and the first player's draw phase follows."""
    vs, vt = V(rules, s), V(rules, t)
    if actor(rules, t) is TERMINAL:
        return False
    return vs["turn"] != vt["turn"] or (vs["phase"] == "sort" and vt["phase"] != "sort")


def _draw_phase(rules: Any, s: Any, m: Any, t: Any) -> dict[str, str]:
    """Everything between the start of a turn and the player's first decision."""
    out: dict[str, str] = {}
    vt = V(rules, t)
    b = vt["turn"]
    has_dessert = sum(dessert_supply(vt).values()) > 0
    has_guest = guest_supply_size(vt) > 0
    # jd.turn.draw-phase: first the dessert, then the guest.
    if actor(rules, t) is CHANCE:
        first = [mv(x) for x, _ in rules.chance_outcomes(t)]
        want = "draw" if has_dessert else "turn-up" if has_guest else None
        if want and any(f.verb != want for f in first):
            out["jd.turn.draw-phase"] = f"the draw phase starts with {first[0].verb}, not {want}"
    elif has_dessert or has_guest:
        out["jd.turn.draw-phase"] = f"the turn starts without a draw phase ({actor(rules, t)} to move)"
    for end in until_decides(rules, t, b, cap=2_000):
        ve = V(rules, end)
        a = actor(rules, end)
        if a is TERMINAL:
            continue
        if ve["turn"] != b or a != b:
            out.setdefault("jd.turn.draw-phase", f"after the draw phase {a} is to move, not seat {b}")
            continue
        gained = msub(ve["hands"][b], vt["hands"][b])
        if gained is None or sum(gained.values()) != (1 if has_dessert else 0):
            out.setdefault("jd.turn.draw-phase", f"seat {b} drew {len(ve['hands'][b]) - len(vt['hands'][b])} desserts "
                                                 f"in the draw phase, not {1 if has_dessert else 0}")
        new = msub(ve["centre"], vt["centre"])
        if new is None or sum(new.values()) != (1 if has_guest else 0):
            out.setdefault("jd.turn.draw-phase", f"the draw phase turned up "
                                                 f"{len(ve['centre']) - len(vt['centre'])} guests, "
                                                 f"not {1 if has_guest else 0}")
        if any(not same(ve["hands"][q], vt["hands"][q]) for q in range(len(ve["hands"])) if q != b) \
                or ve["claimed"] != vt["claimed"]:
            out.setdefault("jd.turn.draw-phase", "the draw phase changed another player's hand or the claimed guests")
        if t.setup.options.no_serving in ("faq-score", "draw") and not serving_ever(t.setup, ve) \
                and not (nothing_unclaimed(ve) and t.setup.options.all_claimed == "play-on"):
            # all-guests-claimed=play-on: its meaning says play goes on once every guest is claimed.
            out.setdefault("jd.win.any-time#stuck", "a turn starts with nothing ever to serve, poach or buffet, "
                                                   "but the game goes on")
        late = faq_score_late(t.setup, ve)
        if late:
            out.setdefault("jd.win.any-time#faq-late", late)
        if not has_guest and t.setup.options.guest_supply == "draw-game":
            out.setdefault("jd.turn.draw-phase#no-guest-left", "no guest was left to turn up, but the game goes on "
                                                               "(guest-supply-empty=draw-game)")
        problem = compare(f"seat {b}'s options after the draw phase", turn_start_keys(t.setup, ve, b),
                          legal(rules, end))
        if problem:
            out.setdefault("jd.turn.one-option#turn-start", problem)
        if ve["served"] != 0 or ve["committed"] or ve["poach"] or ve["shielded"]:
            out.setdefault("jd.turn.one-option#record", f"a turn starts with the record served={ve['served']}, "
                                                       f"committed={ve['committed']}, poach={ve['poach']!r}, "
                                                       f"shielded={ve['shielded']}")
    return out


def draw_phase(key: str) -> Callable:
    def check(rules: Any, s: Any, m: Any, t: Any) -> Problem:
        if not turn_begins(rules, s, t):
            return None
        return _MEMO.get(rules, ("draw-phase", s, m), lambda: _draw_phase(rules, s, m, t)).get(key)
    check.__doc__ = f"{key}: checked from the start of every turn to the player's first decision."
    return check


def faq_score_late(setup: Any, v: dict) -> Problem:
    """jd.ruling.faq-score-when: a turn starts (after its draw phase) with every guest claimed under
    faq-score: under at-once the serving that claimed the last guest, and under turn-end the turn that
    claimed it, should have ended the game; under
    when-settled the game should end now unless a claimed guest can still change hands (a poach or
    a buffet anybody could still make)."""
    if setup.options.all_claimed != "faq-score" or v["offer"] is not None or not nothing_unclaimed(v):
        return None
    when = setup.options.faq_score_when
    if when in ("at-once", "turn-end") or when == "when-settled" and not serving_ever(setup, v):
        return f"a turn starts with every guest claimed and the game goes on (faq-score-when={when})"
    return None


def _choose_expected(setup: Any, v: dict, p: int) -> set[tuple]:
    """The moves the text allows in the middle of the option choice, given the record of the
    turn so far (guests served, an option taken, a poach made or blocked, guests surprised away)."""
    out: set[tuple] = set()
    o = setup.options
    if v["served"] < 2:
        out |= serve_keys(setup, v, p, servable(v))
        if v["poach"] == "":
            out |= poach_keys(setup, v, p, exclude=v["shielded"])
    if not v["committed"]:
        out.add(("kitchen", "", ()))
        out |= dump_keys(setup, v, p, empty=True) | buffet_keys(setup, v, p)
    if v["committed"] or o.serve_none == "allowed":
        out.add(("stop", "", ()))
    return out


def _choose(verbs: tuple[str, ...], what: str) -> Callable:
    def check(rules: Any, state: Any) -> Problem:
        v = V(rules, state)
        a = actor(rules, state)
        if v["phase"] != "choose" or not is_seat(a) or a != v["turn"]:
            return None
        exp = of_verbs(_choose_expected(state.setup, v, a), *verbs)
        got = of_verbs(legal(rules, state), *verbs)
        return compare(what, exp, got)
    check.__doc__ = f"The option choice: {what} are exactly those the text allows."
    return check


def p_serve_sound(rules: Any, state: Any) -> Problem:
    """jd.serve.satisfies: every serving, poach, block (and surprise under
    jd.ruling.surprise-serving=serving-with-favourite) that is legal uses desserts from the
    mover's hand that show every craving of the guest and nothing it refuses (and, under
    jd.ruling.serving-size=minimal, none to spare)."""
    a = actor(rules, state)
    if not is_seat(a):
        return None
    deck, v = state.setup.components, V(rules, state)
    h = Counter(hand(v, a))
    for verb, guest, cards in legal(rules, state):
        if verb not in ("serve", "poach", "block") and not (
                verb == "surprise" and state.setup.options.surprise_serving == "serving-with-favourite"):
            continue
        g = guest or v["offer"]["guest"]
        if msub(h.elements(), cards) is None:
            return f"{key_text((verb, guest, cards))}: the desserts are not in seat {a}'s hand"
        if not satisfies(deck, cards, g):
            return f"{key_text((verb, guest, cards))} does not satisfy {g}"
        if minimal_rule(state.setup) and not no_spare(deck, cards, g):
            return f"{key_text((verb, guest, cards))} has a dessert to spare"
    return None


def p_dump_phase(rules: Any, state: Any) -> Problem:
    """jd.turn.dump-tray: while dumping, the player may throw away any dessert still in hand, one
    at a time, or stop and draw back."""
    v = V(rules, state)
    a = actor(rules, state)
    if v["phase"] != "dump" or not is_seat(a) or a != v["turn"]:
        return None
    exp = dump_keys(state.setup, v, a, empty=False) | {("stop", "", ())}
    return compare("moves while dumping the tray", exp, legal(rules, state))


def _same_turn(rules: Any, s: Any, t: Any) -> bool:
    return actor(rules, t) is not TERMINAL and V(rules, s)["turn"] == V(rules, t)["turn"]


def _claimed_by_mover(vs: dict, vt: dict, p: int) -> set[str]:
    return set(vt["claimed"][p]) - set(vs["claimed"][p])


def t_served_record(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.turn.satisfy-guests: the count of guests served this turn grows by one exactly when the
    player claims a guest, and never passes two."""
    if not _same_turn(rules, s, t):
        return None
    vs, vt = V(rules, s), V(rules, t)
    want = vs["served"] + len(_claimed_by_mover(vs, vt, vs["turn"]))
    if vt["served"] != want or vt["served"] > 2:
        return f"{m}: served went {vs['served']} -> {vt['served']}, not {want}"
    return None


def t_committed_record(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.turn.one-option: the player has taken an option once they went to the kitchen, dumped,
    opened a buffet, claimed a guest or had a poach blocked (a poach is one of the serving
    opportunities); a surprised attempt counts as never made."""
    if not _same_turn(rules, s, t):
        return None
    vs, vt = V(rules, s), V(rules, t)
    if vt["phase"] != "choose":
        return None
    k = mv(m)
    want = bool(vs["committed"] or k.verb in ("kitchen", "dump", "buffet", "block")
                or _claimed_by_mover(vs, vt, vs["turn"]))
    if bool(vt["committed"]) != want:
        return f"{m}: the option is {'taken' if vt['committed'] else 'not taken'}, the text says " \
               f"{'taken' if want else 'not taken'}"
    return None


def _option_moves(rules: Any, s: Any, m: Any, verbs: tuple[str, ...]) -> bool:
    v = V(rules, s)
    return mv(m).verb in verbs and actor(rules, s) == v["turn"]


def _departs_only(rules: Any, u: Any, p: int, what: str) -> Problem:
    """After the option is done: the discard phase only (the turn ends when every suit shows once)."""
    if not decides(rules, u, p):
        return None
    extra = {k for k in legal(rules, u) if k[0] != "depart"}
    if extra:
        return f"after {what} the player may still {', '.join(sorted(map(key_text, extra))[:3])}"
    return None


def t_kitchen(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.turn.kitchen: going back to the kitchen draws exactly one dessert (if any is left) and
    nothing else happens before the discard phase."""
    if not _option_moves(rules, s, m, ("kitchen",)):
        return None
    vs, vt = V(rules, s), V(rules, t)
    p = vs["turn"]
    want = 1 if sum(dessert_supply(vs).values()) else 0
    for u in until_decides(rules, t, p, cap=50):
        vu = V(rules, u)
        drawn = [len(vu["hands"][q]) - len(vs["hands"][q]) for q in range(s.setup.players)]
        exp = [want if q == p else 0 for q in range(s.setup.players)]
        if drawn != exp:
            return f"going back to the kitchen drew {drawn}, not {exp}"
        if vu["claimed"] != vs["claimed"] or not same(vu["centre"], vs["centre"]):
            return "going back to the kitchen moved guests"
    return None


def t_no_second_option(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.turn.one-option: after the kitchen, a dump, a stop or a buffet's serving the player
    has no other option left, only the discard phase."""
    if not _option_moves(rules, s, m, ("kitchen", "stop", "dump")):
        return None
    vs = V(rules, s)
    p = vs["turn"]
    k = mv(m)
    if k.verb == "dump" and k.cards:
        return None  # the tray is dumped one dessert at a time: see jd.turn.dump-tray
    for u in until_decides(rules, t, p, cap=100):
        problem = _departs_only(rules, u, p, str(m))
        if problem:
            return problem
    return None


def _dump(rules: Any, s: Any, m: Any, t: Any) -> dict[str, str]:
    """The whole tray option from its first dessert: every choice of desserts, and the draw back."""
    out: dict[str, str] = {}
    vs = V(rules, s)
    p = vs["turn"]
    first = mv(m).cards[0]
    h0 = hand(vs, p)
    seen = {t}
    frontier = [t]
    chosen: set[tuple] = set()
    while frontier and len(seen) < 300:
        w = frontier.pop()
        vw = V(rules, w)
        if not decides(rules, w, p):
            _note(out, "jd.turn.dump-tray#choices", f"while dumping, {actor(rules, w)} is to move")
            continue
        d = msub(h0, vw["hands"][p])
        if d is None:
            _note(out, "jd.turn.dump-tray#choices", "the hand gained desserts while dumping")
            continue
        chosen.add(tuple(sorted(d.elements())))
        if msub(dessert_supply(vw).elements(), d.elements()) != dessert_supply(vs):
            _note(out, "jd.turn.dump-tray#choices", "dumped desserts did not go to the discard pile")
        exp = dump_keys(s.setup, vw, p, empty=False) | {("stop", "", ())}
        _note(out, "jd.turn.dump-tray#choices", compare("moves while dumping", exp, legal(rules, w)))
        for x, y in successors(rules, w):
            kx = mv(x)
            if kx.verb == "dump" and y not in seen:
                seen.add(y)
                frontier.append(y)
            elif kx.verb == "stop":
                for u in until_decides(rules, y, p, first_only=True, cap=50):
                    vu = V(rules, u)
                    if len(vu["hands"][p]) != len(h0) or msub(vu["hands"][p], vw["hands"][p]) is None:
                        _note(out, "jd.turn.dump-tray#draw-back", f"after dumping {sorted(d.elements())} the hand "
                                                                  f"holds {len(vu['hands'][p])}, not {len(h0)}")
                    if any(len(vu["hands"][q]) != len(vs["hands"][q]) for q in range(s.setup.players) if q != p):
                        _note(out, "jd.turn.dump-tray#draw-back", "another player drew during the tray option")
                    _note(out, "jd.turn.one-option#no-second-option", _departs_only(rules, u, p, "dumping the tray"))
    if len(seen) < 300:
        want = {tuple(sorted(x)) for x in sub_multisets(h0) if first in x}
        _note(out, "jd.turn.dump-tray#choices", compare("desserts that may be dumped together",
                                                         {("dump", "", w) for w in want},
                                                         {("dump", "", c) for c in chosen}))
    return out


def dump(key: str) -> Callable:
    def check(rules: Any, s: Any, m: Any, t: Any) -> Problem:
        vs = V(rules, s)
        if not _option_moves(rules, s, m, ("dump",)) or vs["phase"] != "choose" or not mv(m).cards:
            return None
        return _MEMO.get(rules, ("dump", s, m), lambda: _dump(rules, s, m, t)).get(key)
    check.__doc__ = f"{key}: the tray option followed from its first dessert to the draw back."
    return check


def t_empty_dump(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.turn.dump-tray (jd.ruling.dump-none=allowed): dumping nothing draws nothing and ends the options."""
    if not _option_moves(rules, s, m, ("dump",)) or mv(m).cards:
        return None
    vs = V(rules, s)
    p = vs["turn"]
    for u in until_decides(rules, t, p, cap=50):
        vu = V(rules, u)
        if len(vu["hands"][p]) != len(vs["hands"][p]):
            return "dumping no dessert changed the hand"
        problem = _departs_only(rules, u, p, "dumping nothing")
        if problem:
            return problem
    return None


P = Property
PROPERTIES: tuple[Property, ...] = (
    P("jd.turn.draw-phase", "a turn starts with one dessert to the player, then one guest into the middle, then the "
      "player decides", transition=draw_phase("jd.turn.draw-phase"), lines=((17, 17), (19, 19))),
    P("jd.turn.one-option", "right after the draw phase the player's moves are exactly the options: serve or poach "
      "any satisfying set, kitchen, dump any dessert, a buffet of four aces", transition=draw_phase(
          "jd.turn.one-option#turn-start"), name="turn-start", lines=((19, 22), (29, 29), (42, 42), (48, 48)),
      reads=("jd.ruling.serving-size", "jd.ruling.dump-none", "jd.ruling.serve-none")),
    P("jd.turn.one-option", "a turn starts with nothing served, no option taken, no poach used, no guest kept from "
      "poaching", transition=draw_phase("jd.turn.one-option#record"), name="record",
      lines=((19, 20), (42, 43), (51, 51))),
    P("jd.turn.one-option", "the option counts as taken after kitchen, dump, buffet, a claimed guest or a blocked "
      "poach, and not after a surprised attempt (jd.ruling.surprised-attempt=as-if-not-made: the text does not say "
      "whether a surprised attempt chose the serving option)", transition=t_committed_record,
      under={"jd.ruling.surprised-attempt": ("as-if-not-made",)}, name="committed-record",
      lines=((19, 19), (43, 43), (51, 51))),
    P("jd.turn.one-option", "after the kitchen, a dump, or stopping, only the discard phase is left",
      transition=t_no_second_option, name="no-second-option", lines=((19, 22), (28, 28))),
    P("jd.turn.one-option", "after a serving attempt no other option is offered (unless a surprise undid the attempt)",
      transition=serving("jd.turn.one-option#no-second-option"), name="no-option-after-serving",
      lines=((19, 20), (43, 43))),
    P("jd.turn.one-option", "while choosing, kitchen, dumps, buffets and stop are offered exactly when the text "
      "allows them", state=_choose(("kitchen", "dump", "buffet", "stop", "depart", "return", "block", "surprise",
                                   "pass"), "the other options"), name="choose", lines=((19, 22), (48, 48)),
      reads=("jd.ruling.dump-none", "jd.ruling.serve-none")),
    P("jd.serve.satisfies", "every legal serving, poach and block is from the mover's hand, shows every craving and no "
      "refused taste (and has no dessert to spare under serving-size=minimal)", state=p_serve_sound,
      lines=((20, 20), (42, 43)), reads=("jd.ruling.serving-size", "jd.ruling.surprise-serving")),
    P("jd.turn.satisfy-guests", "while choosing, the servings offered are every satisfying set for every guest in the "
      "middle or the doorway, while fewer than two guests are served", state=_choose(("serve",), "servings"),
      name="choose", lines=((20, 20), (29, 29)), reads=("jd.ruling.serving-size",)),
    P("jd.turn.satisfy-guests", "a serving that is not thwarted moves the guest in front of the server and the "
      "desserts to the discard pile", transition=serving("jd.turn.satisfy-guests#effect"), name="effect",
      lines=(20, 20)),
    P("jd.turn.satisfy-guests", "after one guest served the player may serve a second or stop; after two, nothing "
      "but the discard phase", transition=serving("jd.turn.satisfy-guests#up-to-two"), name="up-to-two",
      lines=((19, 20), (28, 28)), reads=("jd.ruling.serving-size",)),
    P("jd.turn.satisfy-guests", "the count of guests served grows exactly when the player claims a guest",
      transition=t_served_record, name="served-record", lines=((20, 20), (42, 42))),
    P("jd.turn.kitchen", "going back to the kitchen draws exactly one dessert", transition=t_kitchen,
      lines=((19, 19), (21, 21))),
    P("jd.turn.kitchen", "the kitchen is offered exactly while no option has been taken",
      state=_choose(("kitchen",), "the kitchen"), name="offered", lines=((19, 19), (21, 21))),
    P("jd.turn.dump-tray", "any non-empty choice of desserts can be dumped, one at a time, and the tray phase offers "
      "exactly the desserts still in hand", transition=dump("jd.turn.dump-tray#choices"), name="choices",
      lines=(22, 22)),
    P("jd.turn.dump-tray", "after dumping the player draws back as many desserts as were dumped",
      transition=dump("jd.turn.dump-tray#draw-back"), name="draw-back", lines=(22, 22)),
    P("jd.turn.dump-tray", "while dumping, the moves are the desserts in hand and stop", state=p_dump_phase,
      name="phase", lines=(22, 22)),
    P("jd.turn.dump-tray", "dumping nothing (dump-none=allowed) draws nothing and ends the options",
      transition=t_empty_dump, name="empty", lines=(22, 22), under={"jd.ruling.dump-none": ("allowed",)}),
    P("jd.tip.favourite", "serving a guest its favourite draws the tip (tip-count, favourite-with-others), other "
      "servings draw nothing", transition=serving("jd.tip.favourite"), lines=((26, 26), (46, 46)),
      reads=("jd.ruling.tip-count", "jd.ruling.favourite-with-others", "jd.ruling.victim-tip-on-surprise")),
)
