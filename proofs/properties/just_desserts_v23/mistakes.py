"""Just Desserts 2.3: mistaken calls (jd23.call.erroneous-covered, jd23.call.erroneous-penalty,
jd23.reminder.all-mistaken-pay).

A caller who cannot serve fails; another caller may cover the mistake; otherwise each mistaken
caller pays a dessert onto their dirty dishes (taken as jd23.ruling.penalty-taker says).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from .. import Problem, Property
from .readers import (DECLINE, EMPTY_HAND, PILE, SIMUL_MISTAKEN, TAKER, alt, can_serve, chance, grown, hungry_result,
    race_seats, refused, said, server_of, settle, shrunk, table, taker_for, when)
from .serving import fail_only_without_serving
from .silent import _empty_hand_question, _taker_question, gaps_only_where_silent


def covered_by_another_caller(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.call.erroneous-covered: when a caller fails and another caller still stands, nobody pays
    and no card moves; the other caller serves (several race)."""
    if said(move).kind != "fail":
        return None
    t, a = table(rules, state), table(rules, nxt)
    seat = rules.to_move(state)
    rest = tuple(s for s in t.live() if s != seat)
    if not rest:
        return None
    if (a.hands, a.dishes, a.floor, a.collected) != (t.hands, t.dishes, t.floor, t.collected) or a.guest != t.guest:
        return f"seat {seat} failed, another caller stands, and cards moved or the guest left"
    if seat in a.live():
        return f"seat {seat} failed and still contends"
    if chance(rules, nxt) and any(m.kind == "penalty" for m, _, _ in chance(rules, nxt)):
        return "a penalty while another caller can still serve"
    if len(rest) == 1:
        if server_of(rules, nxt) != rest[0]:
            return f"seat {rest[0]} is the other caller and does not serve"
    else:
        race = race_seats(rules, nxt)
        if race is None or race[0] != set(rest):
            return f"the other callers {list(rest)} do not race"
    return None


def penalty_chance(rules: Any, state: Any) -> Problem:
    """jd23.call.erroneous-penalty: only a caller without a serving pays, and (unless the tie is
    penalised: simultaneous-mistaken = penalty) only when every caller failed; another player
    takes the card (jd23.ruling.penalty-taker) at random: each card of the hand with
    probability copies / size."""
    outs = [(m, p) for m, p, _ in chance(rules, state) if m.kind == "penalty"]
    if not outs:
        return None
    t = table(rules, state)
    payer, taker = outs[0][0].seat, outs[0][0].taker
    if any(m.seat != payer or m.taker != taker for m, _ in outs):
        return "one penalty names several payers or takers"
    declined = alt(t.setup, DECLINE) == "may-decline"  # a caller able to serve may have stepped aside
    if payer not in t.callers() or (can_serve(t, payer) and not declined):
        return f"seat {payer} pays a penalty without being a mistaken caller"
    if t.live() and alt(t.setup, SIMUL_MISTAKEN) != "penalty":
        return f"seat {payer} pays while callers {list(t.live())} still stand"
    if taker == payer:
        return f"seat {payer} takes its own penalty card"
    want_taker = taker_for(t, payer)
    if want_taker is not None and taker != want_taker:
        return f"seat {taker} takes the card, {alt(t.setup, TAKER)} says seat {want_taker}"
    got = {m.card: p for m, p in outs}
    want = {c: Fraction(k, len(t.hands[payer])) for c, k in Counter(t.hands[payer]).items()}
    if got != want:
        return f"penalty odds {got}, a random card of {list(t.hands[payer])} gives {want}"
    for s in range(t.n):
        if s != taker and not refused(rules, state, f"seat {s} takes {outs[0][0].card} from seat {payer}"):
            return f"seat {s} may take the penalty card instead of seat {taker}"
    for d in t.deck.desserts:
        if d.id not in t.hands[payer] and not refused(rules, state, f"seat {taker} takes {d.id} from seat {payer}"):
            return f"seat {taker} may take {d.id}, which seat {payer} does not hold"
    for s in range(t.n):
        if (
            s not in t.callers()
            and t.hands[s]
            and not refused(rules, state, f"seat {(s + 1) % t.n} takes {t.hands[s][0]} from seat {s}")
        ):
            return f"seat {s} may pay a penalty without having called"
    return None


def penalty_card_lands(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.call.erroneous-penalty: the card taken leaves the mistaken caller's hand for a dirty-dish
    pile: the caller's, the taker's, or out of play (jd23.ruling.penalty-pile)."""
    m = said(move)
    if m.kind != "penalty":
        return None
    t, a = table(rules, state), table(rules, nxt)
    if shrunk(t.hands[m.seat], a.hands[m.seat]) != Counter([m.card]):
        return f"seat {m.seat}'s hand lost {dict(shrunk(t.hands[m.seat], a.hands[m.seat]))}, penalty card {m.card}"
    pile = alt(t.setup, PILE)
    owner = {"caller": m.seat, "taker": m.taker}.get(pile)
    for s in range(t.n):
        want = Counter([m.card]) if s == owner else Counter()
        if grown(t.dishes[s], a.dishes[s]) != want or shrunk(t.dishes[s], a.dishes[s]):
            return (f"seat {s}'s dirty dishes {list(t.dishes[s])} -> {list(a.dishes[s])}, {pile} reading puts "
                    f"{m.card} on seat {owner}'s")
        if s != m.seat and a.hands[s] != t.hands[s]:
            return f"seat {s}'s hand changed with seat {m.seat}'s penalty"
    if pile == "out-of-play" and grown(t.floor, a.floor) != Counter([m.card]):
        return f"penalty card {m.card} is not out of play"
    return None


def mistaken_callers_pay(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.call.erroneous-penalty: when the last standing caller fails, every caller was mistaken:
    each loses one card from its hand (none to lose: nothing, penalty-empty-hand = no-penalty; a
    gap, strict), the guest goes away, and then all draw, the mistaken callers too."""
    if said(move).kind != "fail":
        return None
    t = table(rules, state)
    seat = rules.to_move(state)
    if set(t.standing()) != {seat}:
        return None
    callers = t.callers()
    if any(not t.hands[s] for s in callers) and alt(t.setup, EMPTY_HAND) == "strict":
        return "a mistaken caller with an empty hand pays and strict raises no gap"
    end = settle(rules, nxt)
    if table(rules, end).guest is not None:
        return "every caller failed and the guest is still on the table"
    return hungry_result(rules, t, end, {s: 1 for s in callers if t.hands[s]})


def several_mistaken_own_dishes(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.reminder.all-mistaken-pay: several callers and nobody delivers: each loses a random card
    onto its own dirty-dish pile (the reminder's wording: penalty-pile = caller)."""
    if said(move).kind != "fail":
        return None
    t = table(rules, state)
    callers = t.callers()
    if set(t.standing()) != {rules.to_move(state)} or len(callers) < 2:
        return None
    end = table(rules, settle(rules, nxt))
    for s in callers:
        if t.hands[s] and len(end.dishes[s]) != len(t.dishes[s]) + 1:
            return f"mistaken caller {s}'s dirty dishes hold {len(end.dishes[s])}, expected {len(t.dishes[s]) + 1}"
        if Counter(end.dishes[s]) - Counter(t.dishes[s]) - Counter(t.hands[s]):
            return f"mistaken caller {s}'s own pile got a card not from its hand"
    return None


PROPERTIES = (
    Property(
        "jd23.call.erroneous-covered", "a caller with a serving serves, one without fails (decline-after-call = "
        "serve-if-able: the text never says a caller able to serve may not step aside)",
        state=fail_only_without_serving, under=when(DECLINE, "serve-if-able"), name="fail-iff-no-serving",
        lines=((11, 11), (29, 29)),
    ),
    Property(
        "jd23.call.erroneous-covered",
        "a failed caller with another standing: no penalty, the other serves (several race)",
        transition=covered_by_another_caller, name="other-serves", lines=(29, 29),
    ),
    Property(
        "jd23.call.erroneous-penalty",
        "only mistaken callers pay, once all failed; another player takes a random card (penalty-taker)",
        state=penalty_chance, name="who-pays", lines=((19, 19), (29, 29), (46, 46)),
        reads=(DECLINE, TAKER, SIMUL_MISTAKEN),
    ),
    Property(
        "jd23.call.erroneous-penalty", "the penalty card leaves the caller's hand for the pile penalty-pile names",
        transition=penalty_card_lands, name="card-lands", lines=((19, 19), (29, 29), (46, 46)), reads=(PILE,),
    ),
    Property(
        "jd23.call.erroneous-penalty", "the last failure: every caller loses one card, the guest goes, then all draw",
        transition=mistaken_callers_pay, name="all-pay-then-draw", lines=((19, 19), (29, 29), (31, 31), (46, 46)),
        reads=(EMPTY_HAND, PILE, TAKER),
    ),
    Property(
        "jd23.call.erroneous-penalty", "penalty-taker's gap only under strict, when a card is taken",
        state=gaps_only_where_silent(TAKER, _taker_question), name="taker-gap", lines=(29, 29), reads=(TAKER,),
    ),
    Property(
        "jd23.call.erroneous-penalty", "penalty-empty-hand's gap only under strict, when a mistaken caller has no card",
        state=gaps_only_where_silent(EMPTY_HAND, _empty_hand_question), name="empty-hand-gap",
        lines=((19, 19), (29, 29), (46, 46)), reads=(EMPTY_HAND,),
    ),
    Property(
        "jd23.reminder.all-mistaken-pay",
        "several mistaken callers each put a card of their own on their own dishes (penalty-pile = caller)",
        transition=several_mistaken_own_dishes, under=when(PILE, "caller"), lines=(46, 46),
    ),
)
