"""Just Desserts 2.3: the set up (jd23.setup.*).

Five desserts dealt to each player before the first guest, the decks shuffled (every card
equally likely to come up, every card kept), and the Maitre D' who plays too and, under
jd23.ruling.penalty-taker = maitre-d, takes the penalty cards.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from tablerules.model.core import CHANCE, TERMINAL

from .. import Problem, Property
from .readers import ANSWER, HAND, MAITRE_D, PILE, TAKER, alt, chance, refused, said, table, when


def deal_before_first_guest(rules: Any, state: Any) -> Problem:
    """jd23.setup.deal-five: until the first guest, only chance acts, dealing from the pile to hands
    of at most five, and no guest is turned up before every hand holds five."""
    t = table(rules, state)
    if not t.before_first_guest() or rules.to_move(state) is TERMINAL:
        return None
    if rules.to_move(state) is not CHANCE:
        return f"seat {rules.to_move(state)} acts before the deal is over"
    if any(len(h) > HAND for h in t.hands) or any(t.dishes) or t.floor:
        return f"hands {[len(h) for h in t.hands]} during the deal (five each), or desserts already used"
    for m, _, _ in chance(rules, state):
        if m.kind == "draw" and len(t.hands[m.seat]) >= HAND:
            return f"seat {m.seat} is dealt a sixth dessert"
        if m.kind == "turn-up" and any(len(h) != HAND for h in t.hands):
            return f"a guest is turned up with hands {[len(h) for h in t.hands]}"
        if m.kind not in ("draw", "turn-up"):
            return f"{m.kind} during the deal"
    return None


def deal_five_at_first_guest(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.setup.deal-five: when the first guest is turned up, every player holds exactly five."""
    t = table(rules, state)
    if said(move).kind == "turn-up" and t.before_first_guest() and any(len(h) != HAND for h in t.hands):
        return f"first guest turned up with hands {[len(h) for h in t.hands]}"
    return None


def random_dessert(rules: Any, state: Any) -> Problem:
    """jd23.setup.shuffle: a dessert drawn from the shuffled pile is each card of the pile with
    probability copies / size; a card not in the pile cannot be drawn."""
    outs = [(m, p, mv) for m, p, mv in chance(rules, state) if m.kind == "draw"]
    if not outs:
        return None
    t = table(rules, state)
    seats = {m.seat for m, _, _ in outs}
    if len(seats) != 1:
        return f"one draw is several seats' at once: {sorted(seats)}"
    got = {m.card: p for m, p, _ in outs}
    want = {c: Fraction(k, len(t.pile)) for c, k in Counter(t.pile).items()}
    if got != want:
        return (f"draw odds {dict(sorted(got.items()))}, a shuffled pile of {list(t.pile)} gives "
                f"{dict(sorted(want.items()))}")
    seat = seats.pop()
    for d in t.deck.desserts:
        if d.id not in t.pile and not refused(rules, state, f"seat {seat} draws {d.id}"):
            return f"seat {seat} may draw {d.id}, which is not in the pile"
    for other in range(t.n):
        if other not in t.pending_draws and not refused(rules, state, f"seat {other} draws {t.pile[0]}"):
            return f"seat {other} may draw though it has no dessert due (due: {list(t.pending_draws)})"
    return None


def random_guest(rules: Any, state: Any) -> Problem:
    """jd23.setup.shuffle: the guest turned up from the shuffled guest pile is each guest of the pile
    with equal probability; a guest not in the pile cannot come up."""
    outs = [(m, p) for m, p, _ in chance(rules, state) if m.kind == "turn-up"]
    if not outs:
        return None
    t = table(rules, state)
    got = {m.guest: p for m, p in outs}
    want = {g: Fraction(k, len(t.guest_pile)) for g, k in Counter(t.guest_pile).items()}
    if got != want:
        return f"turn-up odds {got}, a shuffled guest pile of {list(t.guest_pile)} gives {want}"
    for g in t.deck.guests:
        if g.id not in t.guest_pile and not refused(rules, state, f"turn up {g.id}"):
            return f"guest {g.id} may be turned up though not in the guest pile"
    return None


def desserts_conserved(rules: Any, state: Any) -> Problem:
    """jd23.setup.shuffle (one dessert deck): every dessert card is in exactly one place: the pile,
    a hand, a dirty-dish pile, set aside by the closed Kitchen, or out of play (penalty-pile =
    out-of-play only)."""
    t = table(rules, state)
    seen = Counter(t.pile) + Counter(t.set_aside) + Counter(t.floor)
    for zone in (*t.hands, *t.dishes):
        seen += Counter(zone)
    if seen != Counter(t.deck.dessert_cards()):
        want = Counter(t.deck.dessert_cards())
        return f"desserts out of balance: extra {dict(seen - want)}, missing {dict(want - seen)}"
    if t.floor and alt(t.setup, PILE) != "out-of-play":
        return f"desserts out of play {list(t.floor)} though penalty cards land on a dirty-dish pile"
    if t.set_aside and not t.closed:
        return "desserts set aside while the Kitchen is open"
    return None


def guests_conserved(rules: Any, state: Any) -> Problem:
    """jd23.setup.shuffle (one guest deck): every guest card is in the guest pile, the discards, on
    the table or collected by exactly one player."""
    t = table(rules, state)
    seen = Counter(t.guest_pile) + Counter(t.discards) + Counter([t.guest] if t.guest else [])
    for c in t.collected:
        seen += Counter(c)
    if seen != Counter(t.deck.guest_cards()):
        want = Counter(t.deck.guest_cards())
        return f"guests out of balance: extra {dict(seen - want)}, missing {dict(want - seen)}"
    return None


def maitre_d_answers(rules: Any, state: Any, move: Any, nxt: Any) -> Problem:
    """jd23.setup.maitre-d: running the guest pile, the Maitre D' still plays: no round gets past
    its answers before the Maitre D' has answered too."""
    t, a = table(rules, state), table(rules, nxt)
    if t.phase == ANSWER and a.phase != ANSWER:
        answered = list(t.answers)
        answered[rules.to_move(state)] = str(move)
        if answered[MAITRE_D] not in ("call", "pass", "favourite"):
            return "the round went on without the Maitre D's answer"
    return None


def maitre_d_takes(rules: Any, state: Any) -> Problem:
    """jd23.setup.maitre-d with jd23.ruling.penalty-taker = maitre-d: the Maitre D' takes every
    other player's penalty card, and its own goes to the next seat."""
    for m, _, _ in chance(rules, state):
        if m.kind == "penalty":
            want = MAITRE_D if m.seat != MAITRE_D else (MAITRE_D + 1) % state.setup.players
            if m.taker != want:
                return f"seat {m.taker} takes seat {m.seat}'s penalty card, the Maitre D' reading says seat {want}"
    return None


PROPERTIES = (
    Property(
        "jd23.setup.deal-five", "before the first guest only chance acts, dealing at most five to each hand",
        state=deal_before_first_guest, name="dealing", lines=((9, 9), (11, 11)),
    ),
    Property(
        "jd23.setup.deal-five", "when the first guest is turned up every hand holds five",
        transition=deal_five_at_first_guest, name="five-at-first-guest", lines=((9, 9), (11, 11)),
    ),
    Property(
        "jd23.setup.shuffle", "a draw is each card of the pile with probability copies/size, never a card not in it",
        state=random_dessert, name="random-dessert", lines=((9, 9), (47, 47)),
    ),
    Property(
        "jd23.setup.shuffle", "a turn-up is each guest of the pile with equal probability, never one not in it",
        state=random_guest, name="random-guest", lines=((9, 9), (11, 11), (31, 31)),
    ),
    Property(
        "jd23.setup.shuffle", "every dessert card is in exactly one place", state=desserts_conserved,
        name="desserts-conserved", lines=((9, 9), (23, 23), (29, 29), (31, 31)), reads=(PILE,),
    ),
    Property(
        "jd23.setup.shuffle", "every guest card is in exactly one place", state=guests_conserved,
        name="guests-conserved", lines=((9, 9), (11, 11), (23, 23), (31, 31)),
    ),
    Property(
        "jd23.setup.maitre-d", "no round goes past its answers without the Maitre D's", transition=maitre_d_answers,
        name="plays-too", lines=((9, 9), (11, 11)),
    ),
    Property(
        "jd23.setup.maitre-d", "penalty-taker = maitre-d: the Maitre D' takes every other player's penalty card",
        state=maitre_d_takes, under=when(TAKER, "maitre-d"), name="takes-penalty", lines=((9, 9), (29, 29)),
    ),
)
