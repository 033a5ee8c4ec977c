"""The compiled loops of Just Desserts' random playout (model/just_desserts/playout.py).

Nothing here reads a State: a game is one int64 vector ``s`` (the layout below), the deck
is a handful of int tables built in Python (:class:`~.playout.Tables`), and the options
one int vector ``prm`` (the ``R_*`` slots).  The functions mirror the step API clause by
clause: :func:`settle` is game.py's ``settle``, :func:`walk_moves` enumerates exactly
``legal_moves`` (counting them, or picking the r-th), :func:`apply_move` is
``_apply_seat`` with advanced.py's answers, and :func:`chance_step` is
``chance_outcomes`` followed by ``_apply_chance``.

A serving with no card to spare (jd.ruling.serving-size=minimal) holds distinct desserts,
each showing a wanted taste no other card of the serving shows; so the serving's cards show
distinct *masks* of wanted tastes, and the set of masks is a "cover" (precomputed per guest
from the deck).  The servings a hand holds for a guest are, per cover, one dessert of the
hand for each mask of the cover: their number is a sum of products, and the r-th is found
by mixed-radix counting.

Under jd.ruling.serving-size=any a serving is any set of desserts from the hand that the
guest accepts and that shows every wanted taste: copies count (choose 0 to c of a dessert
held c times), and the number of such sets is counted by inclusion and exclusion over the
wanted tastes (:func:`ways_any`); the r-th is found type by type.

A strict ruling (``prm[R_STRICT]``, one bit per :data:`GAPS` entry) stops the game where the
step API raises its RuleGap: the game ends with ``S_END == END_GAP`` and the ruling's
index in ``S_WINNER``; the action whose settling reached the gap is the game's last.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit
from numba.core import types as nbtypes
from numba.extending import intrinsic

from ..compact_loops import GOLDEN, mix64

# functions that decide nothing about play, and why (the decision-point finder reads this)
PLUMBING = {
    "count_covers": "end of the cover; the hand misses a mask",
    "nth_type": "the idx-th such dessert; found",
    "odd_bits": "one bit at a time",
    "sort_cards": "insertion sort",
    "favourite_used": "a favourite among the offered desserts",
    "offered": "a look-up",
    "add_answerer": "a set of seats",
    "add_to_hand": "the held-type bit follows the count",
    "action_keys": "codes to keys of moves",
    "list_held": "one held type at a time",
    "move_key": "cards in order; each card; a guest or none",
    "key_to_ws": "which verb; cards or a guest; a dump of one card or none",
    "legal_keys": "more moves than the buffer holds; the place of each key in order",
    "play_key": "the loop's error",
    "play_outcome": "which kind of outcome; not an answerer; not the pending event, or a card the pile lacks",
    "pile_card": "the card at that place",
    "pack_tables": "the tables one after the other",
    "settled": "a strict ruling's gap",
}

jit = njit(cache=True, _nrt=False)
"""How every function here is compiled: without Numba's reference counting.  Nothing here makes
an array (the caller passes every one, scratch included), so no count is needed, and counting
the arrays passed at each call (an atomic add and subtract per array per call) took more than
half of a game's time."""

# --------------------------------------------------------------------------- the state vector

S_N, S_D, S_G, S_NS = 0, 1, 2, 3
S_TURN, S_PHASE, S_SERVED, S_COMMITTED, S_POACH, S_SPEAKER, S_DUMPED = 4, 5, 6, 7, 8, 9, 10
S_WINNER, S_END, S_NTASKS = 11, 12, 13
S_CLAIMS_MOVED = 27
"""Set when a guest joins or leaves a player (claim, unclaim): only then may somebody have won (settle)."""
S_LISTED = 28
"""The seat whose held types the workspace lists (:func:`list_held`), -1 if none: a hand that changes clears it."""
S_OPENING = 29
"""State.opening: set until the dealt middle has been sorted out (cleared where game.py clears it); play never reads
it, the step API's compiled states (compiled.py) give it back."""
S_OFFER, S_OSERVER, S_OGUEST, S_OVICTIM, S_OBACK, S_ONCARDS = 14, 15, 16, 17, 18, 19
S_NRET, S_NGDISC, S_NDPILE, S_NDDISC, S_NGPILE, S_NCENTRE, S_NANS = 20, 21, 22, 23, 24, 25, 26
# offsets of the sections
O_HAND, O_HSIZE, O_DPILE, O_DDISC, O_GPILE, O_CENTRE, O_HOLDER, O_SHIELD = 32, 33, 34, 35, 36, 37, 38, 39
O_GDISC, O_TASKS, O_OCARDS, O_ANS, O_RET, O_SUITS, O_NCLAIMED, O_HELD = 40, 41, 42, 43, 44, 45, 46, 47
HEADER = 48
HELD_BITS = 32
"""Dessert types per word of the O_HELD section: per seat, bit t % 32 of word t // 32 is set while
the hand holds type t, so that a hand's types are found without looking through the deck's."""
MAX_TASKS = 64
MAX_CARDS = 64
"""Most desserts on the table in one offer (a minimal serving has one per wanted taste; under
jd.ruling.serving-size=any a serving may be the whole hand)."""
ANY_HAND_LIMIT = 60
"""Most desserts a hand may hold (those a guest accepts) for the counts of serving-size=any to
stay exact in int64; a larger one stops the loop (ST_HAND_TOO_LARGE)."""

P_SORT, P_CHOOSE, P_DUMP, P_WINDOW, P_RETURN, P_BUFFET, P_DISCARD, P_OVER = 0, 1, 2, 3, 4, 5, 6, 7
K_DRAW, K_TURN_UP = 0, 1
POACH_NONE, POACH_DONE, POACH_BLOCKED = 0, 1, 2
END_NONE, END_WIN, END_GUEST_SUPPLY, END_ALL_CLAIMED, END_NO_SERVING, END_GAP = 0, 1, 2, 3, 4, 5
GAPS = ("jd.ruling.dessert-supply-empty", "jd.ruling.guest-supply-empty", "jd.ruling.all-guests-claimed",
        "jd.ruling.no-serving-possible", "jd.ruling.turn-direction", "jd.ruling.answer-order",
        "jd.ruling.plain-block-vs-surprise", "jd.ruling.surprise-on-block", "jd.ruling.victim-tip-on-surprise")
"""The strict rulings the loop can play to their gap, by bit of prm[R_STRICT]."""
G_DESSERT_SUPPLY, G_GUEST_SUPPLY, G_ALL_CLAIMED, G_NO_SERVING, G_TURN_DIRECTION = 0, 1, 2, 3, 4
G_ANSWER_ORDER, G_BLOCK_OR_SURPRISE, G_SURPRISE_ON_BLOCK, G_VICTIM_TIP = 5, 6, 7, 8

# --------------------------------------------------------------------------- options (prm)

R_DUMP_NONE, R_TIP_PER_FAV, R_FAV_ALONE_ONLY, R_RESHUFFLE_AT_ONCE, R_GUEST_DRAW_GAME = 0, 1, 2, 3, 4
R_ALL_CLAIMED, R_MATCHING, R_SHARED_WIN, R_NO_SERVING, R_CLOCKWISE_ANSWER = 5, 6, 7, 8, 9
R_VICTIM_TIP, R_CCW, R_DISCARD_ANY, R_DOORWAY_ANY, R_SURPRISE_WITH_FAV = 10, 11, 12, 13, 14
R_SERVE_NONE, R_VICTIM_BLOCK_ONLY, R_POACHING, R_BUFFET, R_SURPRISE, R_FAQ_WHEN, R_DECK_ACES = (
    15, 16, 17, 18, 19, 20, 21,
)
R_SERVING_ANY, R_STRICT = 22, 23
PRM_SIZE = 24
AC_FAQ, AC_DRAW, AC_PLAY_ON, AC_STRICT = 0, 1, 2, 3  # jd.ruling.all-guests-claimed (and no-serving-possible)
FW_AT_ONCE, FW_TURN_END, FW_WHEN_SETTLED = 0, 1, 2  # jd.ruling.faq-score-when
MP_PAIRS, MP_EXACTLY_TWO, MP_EVERY_TWO = 0, 1, 2  # jd.ruling.matching-pair

# --------------------------------------------------------------------------- action codes

V_DRAW, V_TURN_UP, V_FIRST, V_SERVE, V_POACH, V_BLOCK, V_SURPRISE, V_STOP = 0, 1, 2, 3, 4, 5, 6, 7
V_KITCHEN, V_PASS, V_DUMP, V_DUMP_NONE, V_BUFFET, V_RETURN, V_DEPART = 8, 9, 10, 11, 12, 13, 14
ARG_SHIFT, CARDS_SHIFT = 5, 20
"""A code is verb | arg << 5 | ncards << 20, followed by ncards dessert types."""
ST_DONE, ST_BUFFER_FULL, ST_ENDLESS, ST_HAND_TOO_LARGE = 0, 1, 2, 3
BUFFET_ACES, BUFFET_DRAWS, MAX_SERVINGS = 4, 3, 2

# workspace (ws) layout: the chosen move, then scratch
# W_ANY: serving-size=any; W_ERROR: a hand too large
W_VERB, W_ARG, W_NCARDS, W_ANY, W_ERROR, W_CARDS = 0, 1, 2, 3, 4, 5
W_CNT = W_CARDS + MAX_CARDS  # mask counts, 64
W_CNT2 = W_CNT + 64  # mask counts without the excluded desserts, 64
W_EXCL = W_CNT2 + 64  # per dessert type: excluded (D entries), then 4 x D for serving-size=any, then the held types


@jit
def held_at(s):
    """Where ws holds the dessert types of one hand (:func:`list_held`): their number, then the types."""
    return W_EXCL + 5 * s[S_D]


BUFFET_SCRATCH = 6
"""Per dessert type, the scratch of :func:`buffet_moves` (the ace types, then BUFFET_ACES + 1 counts)."""


def workspace_size(D, G):
    """The workspace's length for a deck of D dessert types and G guests: the slots above, the held types, the
    buffet's scratch, the counts of :func:`memo_at`."""
    return W_EXCL + 6 * D + 9 + BUFFET_SCRATCH * (D + 1) + 2 * G


@jit
def memo_at(s):
    """Where ws keeps, per guest, the servings the counting pass of :func:`walk_moves` found (G for serving,
    then G for poaching): the pass that picks the r-th move right after it looks only through the guest
    where that move lies."""
    D = s[S_D]
    return W_EXCL + 6 * D + 9 + BUFFET_SCRATCH * (D + 1)


@intrinsic
def _trailing_zeros(typingctx, x):
    """The number of zero bits below the lowest set bit of ``x`` (x > 0): LLVM's cttz."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return nbtypes.int64(nbtypes.int64), codegen


@jit
def held_words(s):
    """Words per seat of the O_HELD section."""
    return (s[S_D] + HELD_BITS - 1) // HELD_BITS


@jit
def hand_at(s, seat, t):
    return s[s[O_HAND] + seat * s[S_D] + t]


@jit
def add_to_hand(s, seat, t, k):
    at = s[O_HAND] + seat * s[S_D] + t
    s[at] += k
    s[s[O_HSIZE] + seat] += k
    s[S_LISTED] = -1
    w = s[O_HELD] + seat * held_words(s) + t // HELD_BITS
    bit = 1 << (t % HELD_BITS)
    if s[at] > 0:
        s[w] |= bit
    else:
        s[w] &= ~bit


@jit
def discard_dessert(s, t):
    s[s[O_DDISC] + t] += 1
    s[S_NDDISC] += 1


@jit
def push_task(s, kind, seat):
    k = s[S_NTASKS]
    s[s[O_TASKS] + 2 * k] = kind
    s[s[O_TASKS] + 2 * k + 1] = seat
    s[S_NTASKS] = k + 1


@jit
def pop_task(s):
    o, k = s[O_TASKS], s[S_NTASKS]
    for i in range(2, 2 * k):
        s[o + i - 2] = s[o + i]
    s[S_NTASKS] = k - 1


@jit
def doorway(s):
    """The guest in the doorway: the top of the guest discard pile (jd.discard.doorway), or -1."""
    n = s[S_NGDISC]
    return s[s[O_GDISC] + n - 1] if n > 0 else -1  # rule: jd.discard.doorway


@jit
def claim(s, suit_of, seat, g):
    s[S_CLAIMS_MOVED] = 1
    s[s[O_HOLDER] + g] = seat
    s[s[O_SUITS] + seat * s[S_NS] + suit_of[g]] += 1
    s[s[O_NCLAIMED] + seat] += 1


@jit
def unclaim(s, suit_of, g):
    s[S_CLAIMS_MOVED] = 1
    seat = s[s[O_HOLDER] + g]
    s[s[O_HOLDER] + g] = -1
    s[s[O_SUITS] + seat * s[S_NS] + suit_of[g]] -= 1
    s[s[O_NCLAIMED] + seat] -= 1


@jit
def to_centre(s, g):
    s[s[O_CENTRE] + g] = 1
    s[S_NCENTRE] += 1


@jit
def from_centre(s, g):
    s[s[O_CENTRE] + g] = 0
    s[S_NCENTRE] -= 1


# --------------------------------------------------------------------------- winning and the middle


@jit
def winner(s):
    """jd.win.any-time: the first seat from the player whose turn it is whose guests show three
    of a suit (jd.win.three-of-a-suit) or five suits (jd.win.five-suits); -1 if none."""
    n, ns = s[S_N], s[S_NS]
    for k in range(n):
        seat = (s[S_TURN] + k) % n
        o = s[O_SUITS] + seat * ns
        suits = 0
        for j in range(ns):
            c = s[o + j]
            if c >= 3:  # rule: jd.win.three-of-a-suit
                return seat
            if c > 0:  # plumbing: counts the suits shown
                suits += 1
        if suits >= 5:  # rule: jd.win.five-suits
            return seat
    return -1


@jit
def suit_shown_twice(s, suit_of, suit):
    """Does ``suit`` show more than once in the middle (jd.discard.one-per-suit)?"""
    k = 0
    for g in range(s[S_G]):
        if s[s[O_CENTRE] + g] and suit_of[g] == suit:  # rule: jd.discard.one-per-suit
            k += 1
    return k > 1


@jit
def duplicated_suits(s, suit_of):
    """Does some suit show more than once in the middle (jd.discard.one-per-suit)?"""
    seen = 0
    for g in range(s[S_G]):
        if s[s[O_CENTRE] + g]:  # plumbing: the middle's guests
            bit = 1 << suit_of[g]
            if seen & bit:  # rule: jd.discard.one-per-suit
                return True
            seen |= bit
    return False


# --------------------------------------------------------------------------- servings


@jit
def list_held(s, seat, ws):
    """The dessert types ``seat``'s hand holds, in type order, into ws at :func:`held_at`: what
    :func:`servings` and :func:`has_serving` look through (a hand holds few of the deck's types).
    Every caller lists the hand it asks about first; the list stands until a hand changes (S_LISTED)."""
    if s[S_LISTED] == seat:
        return
    s[S_LISTED] = seat
    words = held_words(s)
    o = s[O_HELD] + seat * words
    h = held_at(s)
    k = 0
    for w in range(words):
        x = s[o + w]
        while x:
            k += 1
            ws[h + k] = w * HELD_BITS + _trailing_zeros(x)
            x &= x - 1
    ws[h] = k


@jit
def mask_counts(s, gmask, ws, g, excl, use_excl, cnt, width):
    """cnt[m]: how many dessert types of the hand listed in ws (:func:`list_held`) show exactly
    the wanted tastes ``m`` of guest ``g`` (desserts the guest refuses, or excluded ones, left out).
    Returns the wanted tastes they show together."""
    for m in range(width):
        cnt[m] = 0
    h = held_at(s)
    shown = 0
    for i in range(h + 1, h + 1 + ws[h]):
        t = ws[i]
        m = gmask[g, t]
        if m > 0 and not (use_excl and excl[t]):  # rule: jd.serve.satisfies
            cnt[m] += 1
            shown |= m
    return shown


@jit
def wanted(T_covers, c):
    """The wanted tastes of the guest whose covers include row ``c``: those any one of its covers shows."""
    full = 0
    for j in range(T_covers.shape[1]):
        m = T_covers[c, j]
        if m < 0:  # plumbing: end of the cover
            break
        full |= m
    return full


@jit
def count_covers(covers, c0, c1, cnt):
    """Servings a hand holds: per cover, the product of the hand's choices per mask."""
    total = 0
    for c in range(c0, c1):
        p = 1
        for j in range(covers.shape[1]):
            m = covers[c, j]
            if m < 0:
                break
            p *= cnt[m]
            if p == 0:
                break
        total += p
    return total


@jit
def nth_type(s, gmask, ws, g, m, idx, excl, use_excl):
    """The ``idx``-th dessert type of the hand listed in ws (counted as :func:`mask_counts` does) with mask ``m``."""
    h = held_at(s)
    for i in range(h + 1, h + 1 + ws[h]):
        t = ws[i]
        if gmask[g, t] == m and not (use_excl and excl[t]):
            if idx == 0:
                return t
            idx -= 1
    return -1


@jit
def servings(s, T_gmask, T_covers, T_cstart, seat, g, need, r, ws, width):
    """The servings of ``seat``'s hand (listed in ws by :func:`list_held`) for guest ``g`` (jd.turn.satisfy-guests
    under jd.ruling.serving-size=minimal): returns their number; if 0 <= r < number, writes the
    r-th into the chosen move's cards.  With ``need`` set, only servings holding one of the
    dessert types flagged in ws[W_EXCL:] count (a favourite, jd.ruling.surprise-serving, or
    the guest's other favourite, jd.block.favourite-only-by-other-favourite)."""
    if ws[W_ANY]:  # rule: jd.ruling.serving-size
        return servings_any(s, T_gmask, T_cstart, seat, g, need, r, ws)
    cnt = ws[W_CNT:W_CNT + width]
    excl = ws[W_EXCL:]
    shown = mask_counts(s, T_gmask, ws, g, excl, False, cnt, width)
    c0, c1 = T_cstart[g], T_cstart[g + 1]
    if c0 == c1:  # rule: jd.serve.satisfies (no desserts of the deck satisfy the guest)
        return 0
    full = wanted(T_covers, c0)
    if shown & full != full:  # rule: jd.serve.satisfies (a wanted taste missing: every cover's product is 0)
        return 0
    total = count_covers(T_covers, c0, c1, cnt)
    if need:  # rule: jd.ruling.surprise-serving, jd.block.favourite-only-by-other-favourite
        cnt2 = ws[W_CNT2:W_CNT2 + width]
        mask_counts(s, T_gmask, ws, g, excl, True, cnt2, width)
        total -= count_covers(T_covers, c0, c1, cnt2)
    if r < 0 or r >= total:  # plumbing: only counting
        return total
    for c in range(c0, c1):
        p, k = 1, 0
        for j in range(T_covers.shape[1]):
            m = T_covers[c, j]
            if m < 0:  # plumbing: end of the cover
                break
            p *= cnt[m]
            k += 1
        if p == 0:  # plumbing: the hand misses a mask
            continue
        if not need:  # plumbing: every serving of the cover counts
            if r >= p:  # plumbing: not this cover
                r -= p
                continue
            x = r
            for j in range(k):
                m = T_covers[c, j]
                ws[W_CARDS + j] = nth_type(s, T_gmask, ws, g, m, x % cnt[m], excl, False)
                x //= cnt[m]
            ws[W_NCARDS] = k
            sort_cards(ws, k)
            return total
        for x0 in range(p):  # rare path: walk the cover's servings, keeping those with a flagged dessert
            x, hit = x0, False
            for j in range(k):
                m = T_covers[c, j]
                t = nth_type(s, T_gmask, ws, g, m, x % cnt[m], excl, False)
                ws[W_CARDS + j] = t
                if excl[t]:  # plumbing: holds a flagged dessert
                    hit = True
                x //= cnt[m]
            if hit:  # plumbing: a serving that counts
                if r == 0:  # plumbing: the one drawn
                    ws[W_NCARDS] = k
                    sort_cards(ws, k)
                    return total
                r -= 1
    return total


@jit
def odd_bits(x):
    """Is the number of set bits of ``x`` odd?"""
    odd = False
    while x:
        odd = not odd
        x &= x - 1
    return odd


@jit
def ways_any(ws, a0, k, start, shown, full, skip_flagged):
    """In how many ways the hand's types ``start``.. (ws[a0 + 4i:]: type, copies, mask, flagged)
    can add copies (0 to all of each) so that, with the tastes ``shown`` already, every wanted
    taste of ``full`` shows; without the flagged types if ``skip_flagged``.  Inclusion and
    exclusion: sum over the taste sets S between ``shown`` and ``full`` of (-1)^|full - S|
    times the ways to add only types showing nothing outside S."""
    free = full & ~shown
    total = 0
    x = free
    while True:  # plumbing: every subset x of the tastes still missing
        within = shown | x
        p = 1
        for i in range(start, k):
            j = a0 + 4 * i
            if (ws[j + 2] & ~within) == 0 and not (skip_flagged and ws[j + 3]):  # rule: jd.serve.satisfies
                p *= ws[j + 1] + 1
        if odd_bits(free & ~x):  # plumbing: the sign of the term
            total -= p
        else:
            total += p
        if x == 0:  # plumbing: the last subset
            break
        x = (x - 1) & free
    return total


@jit
def servings_any(s, T_gmask, T_cstart, seat, g, need, r, ws):
    """:func:`servings` under jd.ruling.serving-size=any: every set of desserts from the hand
    (copies count) that guest ``g`` accepts and that shows every taste it wants; with ``need``,
    only those holding a dessert flagged in ws[W_EXCL:].  Returns their number; if
    0 <= r < number, writes the r-th (types in order) into the chosen move's cards."""
    if T_cstart[g] == T_cstart[g + 1]:  # rule: jd.serve.satisfies (no desserts of the deck satisfy the guest)
        return 0
    D = s[S_D]
    base = s[O_HAND] + seat * D
    a0 = W_EXCL + D
    k, full, held = 0, 0, 0
    for t in range(D):
        m = T_gmask[g, t]
        if m >= 0:  # rule: jd.serve.satisfies (a dessert the guest does not refuse)
            full |= m
            c = s[base + t]
            if c > 0:  # plumbing: desserts in the hand
                j = a0 + 4 * k
                ws[j], ws[j + 1], ws[j + 2] = t, c, m
                ws[j + 3] = ws[W_EXCL + t] if need else 0  # plumbing: flagged only when a flagged dessert is needed
                k += 1
                held += c
    if held > ANY_HAND_LIMIT:  # plumbing: counts beyond int64
        ws[W_ERROR] = 1
        return 0
    total = ways_any(ws, a0, k, 0, 0, full, False)
    if need:  # rule: jd.ruling.surprise-serving, jd.block.favourite-only-by-other-favourite
        total -= ways_any(ws, a0, k, 0, 0, full, True)
    if r < 0 or r >= total:  # plumbing: only counting
        return total
    shown, flagged, n = 0, not need, 0
    for i in range(k):
        j = a0 + 4 * i
        for take in range(ws[j + 1] + 1):
            shown2 = shown | (ws[j + 2] if take > 0 else 0)  # plumbing: the tastes shown with this many copies
            flagged2 = flagged or (take > 0 and ws[j + 3] != 0)
            w = ways_any(ws, a0, k, i + 1, shown2, full, False)
            if not flagged2:  # plumbing: a flagged dessert must still come
                w -= ways_any(ws, a0, k, i + 1, shown2, full, True)
            if r < w:  # plumbing: this many copies of the type
                for _ in range(take):
                    ws[W_CARDS + n] = ws[j]
                    n += 1
                shown, flagged = shown2, flagged2
                break
            r -= w
    ws[W_NCARDS] = n
    return total


@jit
def sort_cards(ws, k):
    for i in range(1, k):
        j = i
        while j > 0 and ws[W_CARDS + j - 1] > ws[W_CARDS + j]:
            ws[W_CARDS + j - 1], ws[W_CARDS + j] = ws[W_CARDS + j], ws[W_CARDS + j - 1]
            j -= 1


@jit
def has_serving(s, T_gmask, T_covers, T_cstart, seat, g, ws, width):
    """Does ``seat``'s hand satisfy guest ``g`` at all (jd.serve.satisfies)?"""
    cnt = ws[W_CNT:W_CNT + width]
    list_held(s, seat, ws)
    mask_counts(s, T_gmask, ws, g, ws[W_EXCL:], False, cnt, width)
    return count_covers(T_covers, T_cstart[g], T_cstart[g + 1], cnt) > 0


@jit
def tips_for(s, fav, prm, g, cards, k):
    """jd.tip.favourite, jd.ruling.tip-count, jd.ruling.favourite-with-others."""
    n = 0
    for j in range(k):
        if fav[g, cards[j]]:  # rule: jd.tip.favourite
            n += 1
    if k > 1 and prm[R_FAV_ALONE_ONLY]:  # rule: jd.ruling.favourite-with-others
        return 0
    if not prm[R_TIP_PER_FAV]:  # rule: jd.ruling.tip-count
        return min(n, 1)
    return n


@jit
def favourite_used(s, fav, g):
    """The offer on the table holds one of the guest's favourites."""
    o = s[O_OCARDS]
    for j in range(s[S_ONCARDS]):
        if fav[g, s[o + j]]:
            return True
    return False


# --------------------------------------------------------------------------- the end without a win


@jit
def aces_in_hand(s, ace, seat):
    D = s[S_D]
    base = s[O_HAND] + seat * D
    k = 0
    for t in range(D):
        if ace[t]:  # rule: jd.buffet.aces
            k += s[base + t]
    return k


@jit
def free_desserts(s):
    return s[S_NDPILE] + s[S_NDDISC] > 0


@jit
def buffet_possible(s, ace, prm):
    """ending.py's buffet_possible (jd.buffet.aces)."""
    if free_desserts(s):  # rule: jd.reshuffle.desserts, jd.turn.dump-tray
        return prm[R_DECK_ACES] >= BUFFET_ACES
    for seat in range(s[S_N]):
        if aces_in_hand(s, ace, seat) >= BUFFET_ACES:  # rule: jd.buffet.aces
            return True
    return False


@jit
def serving_possible(s, T_gmask, T_covers, T_cstart, can_sat, ace, prm, ws, width):
    """ending.py's serving_possible (jd.ruling.no-serving-possible): could anybody ever
    serve, poach or open a buffet again?"""
    if prm[R_BUFFET] and buffet_possible(s, ace, prm):  # rule: jd.buffet.aces
        return True
    G = s[S_G]
    if free_desserts(s):  # rule: jd.reshuffle.desserts, jd.turn.dump-tray
        for g in range(G):
            held = s[s[O_HOLDER] + g] >= 0
            if (not held or (prm[R_POACHING] and s[S_N] > 1)) and can_sat[g]:  # rule: jd.poach.attempt
                return True
        return False
    for seat in range(s[S_N]):
        for g in range(G):
            h = s[s[O_HOLDER] + g]
            if h < 0 or (prm[R_POACHING] and h != seat):  # rule: jd.poach.attempt
                if has_serving(s, T_gmask, T_covers, T_cstart, seat, g, ws, width):  # rule: jd.serve.satisfies
                    return True
    return False


@jit
def all_claimed(s):
    """No guest is left to serve: none in the piles, the middle or the doorway, none about to be turned up."""
    return s[S_NCENTRE] == 0 and s[S_NGDISC] == 0 and s[S_NGPILE] == 0 and s[S_NTASKS] == 0


@jit
def at_turn_start(s):
    return (s[S_PHASE] == P_CHOOSE and s[S_NTASKS] == 0 and not s[S_COMMITTED] and s[S_SERVED] == 0
            and not s[S_OFFER])


@jit
def guests_can_move(s, T_gmask, T_covers, T_cstart, can_sat, ace, prm, ws, width):
    """ending.py's guests_can_move (jd.ruling.faq-score-when)."""
    # rule: jd.poach.attempt
    if (
        prm[R_POACHING]
        and s[S_N] > 1
        and serving_possible(s, T_gmask, T_covers, T_cstart, can_sat, ace, prm, ws, width)
    ):
        return True
    return prm[R_BUFFET] and buffet_possible(s, ace, prm)  # rule: jd.buffet.aces


@jit
def game_over(s, end, win):
    s[S_PHASE] = P_OVER
    s[S_END] = end
    s[S_WINNER] = win
    s[S_NTASKS] = 0


# --------------------------------------------------------------------------- settle


@jit
def refill_desserts(s):
    """jd.reshuffle.desserts: an empty dessert pile is replaced by its shuffled discards."""
    D = s[S_D]
    for t in range(D):
        s[s[O_DPILE] + t] = s[s[O_DDISC] + t]
        s[s[O_DDISC] + t] = 0
    s[S_NDPILE] = s[S_NDDISC]
    s[S_NDDISC] = 0


@jit
def refill_guests(s):
    """jd.reshuffle.guests: the discards but the top one become the pile; the top one stays."""
    o, n = s[O_GDISC], s[S_NGDISC]
    for i in range(n - 1):
        s[s[O_GPILE] + s[o + i]] = 1
    s[S_NGPILE] += n - 1
    s[o] = s[o + n - 1]
    s[S_NGDISC] = 1


@jit
def refill_for_task(s):
    """game.py's _refill_for_task (jd.ruling.reshuffle-time=when-needed): a draw or turn-up is due from an empty
    pile, so its discards become the pile now, before the chance event.  True if a pile was refilled."""
    kind = s[s[O_TASKS]]
    if kind == K_DRAW and s[S_NDPILE] == 0 and s[S_NDDISC] > 0:  # rule: jd.reshuffle.desserts
        refill_desserts(s)
        return True
    if kind == K_TURN_UP and s[S_NGPILE] == 0 and s[S_NGDISC] > 1:  # rule: jd.reshuffle.guests
        refill_guests(s)
        return True
    return False


@jit
def draw_phase(s, seat):
    """jd.turn.draw-phase: one dessert to the player, then one guest into the middle."""
    s[S_NTASKS] = 0
    push_task(s, K_DRAW, seat)
    push_task(s, K_TURN_UP, -1)


@jit
def end_turn(s, prm):
    """jd.discard.turn-ends: the next seat (jd.ruling.turn-direction) starts with a draw phase."""
    n = s[S_N]
    nxt = (s[S_TURN] + (n - 1 if prm[R_CCW] else 1)) % n  # rule: jd.ruling.turn-direction
    s[S_TURN] = nxt
    s[S_PHASE] = P_CHOOSE
    s[S_OPENING] = 0
    draw_phase(s, nxt)
    s[S_SERVED] = 0
    s[S_COMMITTED] = 0
    s[S_POACH] = POACH_NONE
    for g in range(s[S_G]):
        s[s[O_SHIELD] + g] = 0
    s[S_OFFER] = 0
    s[S_ONCARDS] = 0
    clear_answerers(s)
    s[S_SPEAKER] = -1
    s[S_NRET] = 0
    s[S_DUMPED] = 0


@jit
def clear_answerers(s):
    for i in range(s[S_N]):
        s[s[O_ANS] + i] = 0
    s[S_NANS] = 0


@jit
def strict(prm, gap):
    """Is the ruling GAPS[gap] set to strict (the game stops where the text is silent)?"""
    return (prm[R_STRICT] >> gap) & 1 != 0


@jit
def answers_of(s, fav, nfav, T_gmask, T_covers, T_cstart, prm, seat, ws, width):
    """How many answers ``seat`` has to the offer on the table (pass included): advanced.py's answers_of."""
    speaker = s[S_SPEAKER]
    s[S_SPEAKER] = seat
    k = answer_moves(s, fav, nfav, T_gmask, T_covers, T_cstart, prm, -1, ws, width)
    s[S_SPEAKER] = speaker
    return k


@jit
def able_answerers(s, fav, nfav, T_gmask, T_covers, T_cstart, prm, ws, width):
    """How many answerers hold a block or a surprise, not only a pass (advanced.py's can_answer)."""
    able = 0
    for seat in range(s[S_N]):
        # rule: jd.ruling.answer-order
        if s[s[O_ANS] + seat] and answers_of(s, fav, nfav, T_gmask, T_covers, T_cstart, prm, seat, ws, width) > 1:
            able += 1
    return able


@jit
def plain_block_races(s, fav, nfav, T_gmask, T_covers, T_cstart, prm, ws, width):
    """advanced.py's _check_plain_block_gap: the poached player, asked to answer, holds a block
    without a favourite of the guest while another answerer holds a surprise."""
    v, g = s[S_OVICTIM], s[S_OGUEST]
    if v < 0 or not s[s[O_ANS] + v]:  # rule: jd.ruling.plain-block-vs-surprise
        return False
    # rule: jd.block.favourite-only-by-other-favourite (every block then holds a favourite)
    if favourite_used(s, fav, g):
        return False
    excl = ws[W_EXCL:]
    for t in range(s[S_D]):
        excl[t] = fav[g, t]
    list_held(s, v, ws)
    blocks = servings(s, T_gmask, T_covers, T_cstart, v, g, False, -1, ws, width)
    with_favourite = servings(s, T_gmask, T_covers, T_cstart, v, g, True, -1, ws, width)
    if blocks - with_favourite <= 0:  # rule: jd.ruling.plain-block-vs-surprise
        return False
    for seat in range(s[S_N]):
        # rule: jd.ruling.plain-block-vs-surprise
        if (
            seat != v
            and s[s[O_ANS] + seat]
            and answers_of(s, fav, nfav, T_gmask, T_covers, T_cstart, prm, seat, ws, width) > 1
        ):
            return True
    return False


@jit
def surprise_cuts_block(s, fav, nfav, T_gmask, T_covers, T_cstart, prm, seat, ws, width):
    """advanced.py's surprise-on-block gap test: could another player surprise the block of
    ``seat`` (its cards in ws) as if it were a serving (the offer table is restored after)?"""
    server, victim, ncards, speaker = s[S_OSERVER], s[S_OVICTIM], s[S_ONCARDS], s[S_SPEAKER]
    k = ws[W_NCARDS]
    o = s[O_OCARDS]
    for j in range(k):
        s[o + j] = ws[W_CARDS + j]
    s[S_ONCARDS], s[S_OSERVER], s[S_OVICTIM] = k, seat, -1
    found = False
    for other in range(s[S_N]):
        # rule: jd.ruling.surprise-on-block
        if other != seat and answers_of(s, fav, nfav, T_gmask, T_covers, T_cstart, prm, other, ws, width) > 1:
            found = True
            break
    s[S_ONCARDS], s[S_OSERVER], s[S_OVICTIM], s[S_SPEAKER] = ncards, server, victim, speaker
    return found


@jit
def settle(s, suit_of, fav, nfav, T_gmask, T_covers, T_cstart, can_sat, ace, prm, ws, width):
    """game.py's settle: everything that happens without a choice, to a fixed point."""
    while True:  # plumbing: to a fixed point
        if s[S_PHASE] == P_OVER:  # rule: jd.win.any-time
            return
        if prm[R_RESHUFFLE_AT_ONCE]:  # rule: jd.ruling.reshuffle-time
            changed = False
            if s[S_NDDISC] > 0 and s[S_NDPILE] == 0:  # rule: jd.ruling.reshuffle-time, jd.reshuffle.desserts
                refill_desserts(s)
                changed = True
            if s[S_NGDISC] > 1 and s[S_NGPILE] == 0:  # rule: jd.reshuffle.guests
                refill_guests(s)
                changed = True
            if changed:  # plumbing: something was rebuilt
                continue
        # nobody shows a winning set unless a guest has changed hands since the last look (the turn only orders
        # the seats that do)
        if s[S_CLAIMS_MOVED]:  # rule: jd.win.any-time
            s[S_CLAIMS_MOVED] = 0
            win = winner(s)
            if win >= 0:  # rule: jd.win.any-time
                game_over(s, END_WIN, win)
                return
        # rule: jd.ruling.reshuffle-time
        if s[S_NTASKS] > 0 and not prm[R_RESHUFFLE_AT_ONCE] and refill_for_task(s):
            continue
        if s[S_NTASKS] > 0:  # rule: jd.ruling.dessert-supply-empty, jd.ruling.guest-supply-empty
            kind = s[s[O_TASKS]]
            if kind == K_DRAW and s[S_NDPILE] == 0 and s[S_NDDISC] == 0:  # rule: jd.ruling.dessert-supply-empty
                if strict(prm, G_DESSERT_SUPPLY):  # rule: jd.ruling.dessert-supply-empty
                    game_over(s, END_GAP, G_DESSERT_SUPPLY)
                    return
                pop_task(s)
                continue
            if kind == K_TURN_UP and s[S_NGPILE] == 0 and s[S_NGDISC] <= 1:  # rule: jd.ruling.guest-supply-empty
                if strict(prm, G_GUEST_SUPPLY):  # rule: jd.ruling.guest-supply-empty
                    game_over(s, END_GAP, G_GUEST_SUPPLY)
                    return
                if prm[R_GUEST_DRAW_GAME]:  # rule: jd.ruling.guest-supply-empty
                    game_over(s, END_GUEST_SUPPLY, -1)
                    return
                pop_task(s)
                continue
            return
        phase = s[S_PHASE]
        if phase == P_SORT:  # rule: jd.ruling.opening-duplicates
            if not duplicated_suits(s, suit_of):  # rule: jd.ruling.opening-duplicates
                s[S_PHASE] = P_CHOOSE
                s[S_OPENING] = 0
                draw_phase(s, s[S_TURN])
                continue
            return
        if phase == P_WINDOW:  # rule: jd.surprise.intercept, jd.block.defender
            if s[S_NANS] == 0:  # rule: jd.surprise.intercept, jd.block.defender
                serve_succeeds(s, suit_of, fav, prm)
                continue
            # rule: jd.ruling.plain-block-vs-surprise
            if strict(prm, G_BLOCK_OR_SURPRISE) and plain_block_races(
                s, fav, nfav, T_gmask, T_covers, T_cstart, prm, ws, width
            ):
                game_over(s, END_GAP, G_BLOCK_OR_SURPRISE)
                return
            if s[S_SPEAKER] >= 0:  # plumbing: a speaker is already chosen
                return
            if s[S_NANS] == 1 or prm[R_CLOCKWISE_ANSWER]:  # rule: jd.surprise.first-offered, jd.ruling.answer-order
                n = s[S_N]
                for k in range(1, n + 1):  # the first answerer clockwise from the server
                    seat = (s[S_OSERVER] + k) % n
                    if s[s[O_ANS] + seat]:  # rule: jd.ruling.answer-order
                        s[S_SPEAKER] = seat
                        break
                continue
            # rule: jd.ruling.answer-order
            if (
                strict(prm, G_ANSWER_ORDER)
                and able_answerers(s, fav, nfav, T_gmask, T_covers, T_cstart, prm, ws, width) > 1
            ):
                game_over(s, END_GAP, G_ANSWER_ORDER)
                return
            return  # jd.surprise.first-offered: a chance race picks who speaks first
        if all_claimed(s):  # rule: jd.ruling.all-guests-claimed
            # before the turn moves on: a game that ends now ends mid-turn
            ends = all_claimed_ends(s, T_gmask, T_covers, T_cstart, can_sat, ace, prm, ws, width)
            if ends == 2:  # rule: jd.ruling.all-guests-claimed
                game_over(s, END_GAP, G_ALL_CLAIMED)
                return
            if ends == 1:  # rule: jd.ruling.all-guests-claimed, jd.ruling.faq-score-when
                game_over(s, END_ALL_CLAIMED, -1)
                return
        if phase == P_CHOOSE and s[S_SERVED] >= MAX_SERVINGS:  # rule: jd.turn.satisfy-guests
            s[S_PHASE] = P_DISCARD
            continue
        if phase == P_RETURN and s[S_NRET] == 0:  # rule: jd.buffet.draw-three
            s[S_PHASE] = P_BUFFET
            s[S_NTASKS] = 0
            for _ in range(BUFFET_DRAWS):
                push_task(s, K_DRAW, s[S_TURN])
            continue
        if phase == P_DISCARD and not duplicated_suits(s, suit_of):  # rule: jd.discard.turn-ends
            # rule: jd.ruling.faq-score-when
            if prm[R_ALL_CLAIMED] == AC_FAQ and prm[R_FAQ_WHEN] == FW_TURN_END and all_claimed(s):
                game_over(s, END_ALL_CLAIMED, -1)
                return
            if strict(prm, G_TURN_DIRECTION) and s[S_N] > 2:  # rule: jd.ruling.turn-direction
                game_over(s, END_GAP, G_TURN_DIRECTION)
                return
            end_turn(s, prm)
            continue
        if all_claimed(s):  # rule: jd.ruling.all-guests-claimed
            return  # play goes on with every guest claimed (all_claimed_ends above said so)
        # rule: jd.ruling.no-serving-possible
        if at_turn_start(s) and not serving_possible(s, T_gmask, T_covers, T_cstart, can_sat, ace, prm, ws, width):
            if prm[R_NO_SERVING] == AC_PLAY_ON:  # rule: jd.ruling.no-serving-possible
                return
            if prm[R_NO_SERVING] == AC_STRICT:  # rule: jd.ruling.no-serving-possible
                game_over(s, END_GAP, G_NO_SERVING)
                return
            game_over(s, END_NO_SERVING, -1)
            return
        return


@jit
def all_claimed_ends(s, T_gmask, T_covers, T_cstart, can_sat, ace, prm, ws, width):
    """jd.ruling.all-guests-claimed with every guest claimed: 0 play goes on, 1 the game ends
    (scored under faq-score, else a draw), 2 the strict alternative's gap."""
    rule = prm[R_ALL_CLAIMED]
    if rule == AC_STRICT:  # rule: jd.ruling.all-guests-claimed
        return 2
    if rule == AC_FAQ:  # rule: jd.ruling.all-guests-claimed, jd.ruling.faq-score-when
        when = prm[R_FAQ_WHEN]
        if when == FW_TURN_END:  # rule: jd.ruling.faq-score-when
            return 0
        # rule: jd.ruling.faq-score-when
        if when == FW_WHEN_SETTLED and not (
            at_turn_start(s) and not guests_can_move(s, T_gmask, T_covers, T_cstart, can_sat, ace, prm, ws, width)
        ):
            return 0
        return 1
    if rule == AC_PLAY_ON:  # rule: jd.ruling.all-guests-claimed
        return 0
    # draw: unless a claimed guest can still change hands or go back to the middle
    # rule: jd.ruling.all-guests-claimed, jd.poach.attempt, jd.buffet.aces
    if guests_can_move(s, T_gmask, T_covers, T_cstart, can_sat, ace, prm, ws, width):
        return 0
    return 1


# --------------------------------------------------------------------------- serving and answering


@jit
def take_guest(s, suit_of, g, victim):
    """Remove a guest from where it is: a player's guests, the middle or the doorway."""
    if victim >= 0:  # rule: jd.poach.attempt
        unclaim(s, suit_of, g)
    elif s[s[O_CENTRE] + g]:  # rule: jd.turn.satisfy-guests
        from_centre(s, g)
    else:  # the doorway guest: the one beneath now stands in the doorway (jd.discard.doorway)
        s[S_NGDISC] -= 1


@jit
def serve_succeeds(s, suit_of, fav, prm):
    """serving.py's serve_succeeds: the guest joins the server, the desserts are discarded, tips follow
    (jd.tip.favourite)."""
    g, server, victim = s[S_OGUEST], s[S_OSERVER], s[S_OVICTIM]
    take_guest(s, suit_of, g, victim)
    claim(s, suit_of, server, g)
    o, k = s[O_OCARDS], s[S_ONCARDS]
    tips = tips_for(s, fav, prm, g, s[o:o + k], k)
    if victim >= 0:  # rule: jd.poach.one-opportunity, jd.poach.victim-tip
        s[S_POACH] = POACH_DONE
        push_task(s, K_DRAW, victim)
    for _ in range(tips):
        push_task(s, K_DRAW, server)
    for j in range(k):
        discard_dessert(s, s[o + j])
    s[S_SERVED] += 1
    s[S_COMMITTED] = 1
    s[S_OFFER] = 0
    s[S_ONCARDS] = 0
    clear_answerers(s)
    s[S_SPEAKER] = -1
    s[S_PHASE] = P_DISCARD if s[S_OBACK] else P_CHOOSE  # rule: jd.buffet.serve-one


@jit
def may_be_surprised(s, fav, nfav, prm):
    """advanced.py's may_be_surprised (jd.surprise.intercept, jd.ruling.surprise-doorway)."""
    g = s[S_OGUEST]
    if not (prm[R_SURPRISE] and nfav[g] > 0):  # rule: jd.surprise.intercept
        return False
    if favourite_used(s, fav, g):  # rule: jd.surprise.intercept
        return False
    from_doorway = s[S_OVICTIM] < 0 and not s[s[O_CENTRE] + g] and g == doorway(s)
    return not (from_doorway and not prm[R_DOORWAY_ANY])  # rule: jd.ruling.surprise-doorway


@jit
def may_surprise(s, prm, seat):
    """Anybody but the server (jd.surprise.intercept); the poached player only under
    jd.ruling.victim-surprise=allowed."""
    if seat == s[S_OSERVER]:  # rule: jd.surprise.intercept
        return False
    return not (seat == s[S_OVICTIM] and prm[R_VICTIM_BLOCK_ONLY])  # rule: jd.ruling.victim-surprise


@jit
def offer(s, fav, nfav, prm, server, g, victim, ws):
    """advanced.py's offer: the desserts go on the table and the answer window opens."""
    k = ws[W_NCARDS]
    o = s[O_OCARDS]
    for j in range(k):
        t = ws[W_CARDS + j]
        add_to_hand(s, server, t, -1)
        s[o + j] = t
    s[S_ONCARDS] = k
    s[S_OFFER] = 1
    s[S_OSERVER] = server
    s[S_OGUEST] = g
    s[S_OVICTIM] = victim
    s[S_OBACK] = 1 if s[S_PHASE] == P_BUFFET else 0  # rule: jd.buffet.serve-one
    clear_answerers(s)
    if victim >= 0 and prm[R_POACHING] and s[s[O_HSIZE] + victim] > 0:  # rule: jd.block.defender
        other = True
        if favourite_used(s, fav, g):  # rule: jd.block.favourite-only-by-other-favourite
            other = False  # only the guest's other favourite can block
            for t in range(s[S_D]):
                if fav[g, t] and not offered(s, t):  # rule: jd.block.favourite-only-by-other-favourite
                    other = True
        if other:  # rule: jd.block.defender
            add_answerer(s, victim)
    if may_be_surprised(s, fav, nfav, prm):  # rule: jd.surprise.intercept
        for seat in range(s[S_N]):
            if may_surprise(s, prm, seat) and s[s[O_HSIZE] + seat] > 0:  # rule: jd.surprise.intercept
                add_answerer(s, seat)
    s[S_PHASE] = P_WINDOW
    s[S_SPEAKER] = -1


@jit
def offered(s, t):
    o = s[O_OCARDS]
    for j in range(s[S_ONCARDS]):
        if s[o + j] == t:
            return True
    return False


@jit
def add_answerer(s, seat):
    if not s[s[O_ANS] + seat]:
        s[s[O_ANS] + seat] = 1
        s[S_NANS] += 1


@jit
def return_offer(s):
    """jd.block.cards-back / jd.surprise.continue: the thwarted server takes the desserts back."""
    o, server = s[O_OCARDS], s[S_OSERVER]
    for j in range(s[S_ONCARDS]):
        add_to_hand(s, server, s[o + j], 1)
    s[S_OFFER] = 0
    clear_answerers(s)
    s[S_SPEAKER] = -1
    s[S_PHASE] = P_BUFFET if s[S_OBACK] else P_CHOOSE  # rule: jd.buffet.serve-one


@jit
def play_cards(s, seat, ws):
    """The chosen move's desserts leave the seat's hand for the discard pile."""
    for j in range(ws[W_NCARDS]):
        t = ws[W_CARDS + j]
        add_to_hand(s, seat, t, -1)
        discard_dessert(s, t)


@jit
def block(s, fav, nfav, T_gmask, T_covers, T_cstart, prm, seat, ws, width):
    """jd.block.defender: the defender keeps the guest; jd.poach.blocked-no-retry; jd.tip.block-favourite."""
    g = s[S_OGUEST]
    return_offer(s)
    # rule: jd.ruling.surprise-on-block
    if (
        strict(prm, G_SURPRISE_ON_BLOCK)
        and prm[R_SURPRISE]
        and surprise_cuts_block(s, fav, nfav, T_gmask, T_covers, T_cstart, prm, seat, ws, width)
    ):
        game_over(s, END_GAP, G_SURPRISE_ON_BLOCK)
        return
    k = ws[W_NCARDS]
    tips = tips_for(s, fav, prm, g, ws[W_CARDS:W_CARDS + k], k)
    for _ in range(tips):
        push_task(s, K_DRAW, seat)
    play_cards(s, seat, ws)
    s[S_POACH] = POACH_BLOCKED
    s[S_COMMITTED] = 1


@jit
def surprise(s, suit_of, prm, seat, ws):
    """jd.surprise.intercept: the guest goes to the surprising player; jd.surprise.no-tip."""
    g, victim = s[S_OGUEST], s[S_OVICTIM]
    if victim >= 0 and victim != seat and strict(prm, G_VICTIM_TIP):  # rule: jd.ruling.victim-tip-on-surprise
        game_over(s, END_GAP, G_VICTIM_TIP)
        return
    return_offer(s)
    take_guest(s, suit_of, g, victim)
    claim(s, suit_of, seat, g)
    # rule: jd.poach.victim-tip, jd.ruling.victim-tip-on-surprise
    if victim >= 0 and victim != seat and prm[R_VICTIM_TIP]:
        push_task(s, K_DRAW, victim)
    play_cards(s, seat, ws)
    s[s[O_SHIELD] + g] = 1


# --------------------------------------------------------------------------- the legal moves


@jit
def choose(ws, verb, arg):
    ws[W_VERB] = verb
    ws[W_ARG] = arg
    ws[W_NCARDS] = 0


@jit
def serve_moves(s, T_gmask, T_covers, T_cstart, seat, r, ws, width):
    """game.py's _serve_moves: every serving of a guest in the middle or the doorway (jd.discard.doorway)."""
    total = 0
    door = doorway(s)
    list_held(s, seat, ws)
    memo = memo_at(s)
    for g in range(s[S_G]):
        if s[s[O_CENTRE] + g] or g == door:  # rule: jd.turn.satisfy-guests, jd.discard.doorway
            if 0 <= r and ws[memo + g] <= r - total:  # plumbing: not this guest's servings (as counted just before)
                total += ws[memo + g]
                continue
            k = servings(s, T_gmask, T_covers, T_cstart, seat, g, False, r - total, ws, width)
            ws[memo + g] = k
            if 0 <= r - total < k:  # plumbing: the move drawn
                ws[W_VERB] = V_SERVE
                ws[W_ARG] = g
                return total + k
            total += k
    return total


@jit
def poach_moves(s, T_gmask, T_covers, T_cstart, seat, r, ws, width):
    """advanced.py's poach_moves: serve a guest another player holds (jd.poach.attempt)."""
    if s[S_POACH] != POACH_NONE:  # rule: jd.poach.one-opportunity, jd.poach.blocked-no-retry
        return 0
    total = 0
    list_held(s, seat, ws)
    memo = memo_at(s) + s[S_G]
    for g in range(s[S_G]):
        h = s[s[O_HOLDER] + g]
        if h >= 0 and h != seat and not s[s[O_SHIELD] + g]:  # rule: jd.poach.attempt, jd.surprise.no-poach-back
            if 0 <= r and ws[memo + g] <= r - total:  # plumbing: not this guest's servings (as counted just before)
                total += ws[memo + g]
                continue
            k = servings(s, T_gmask, T_covers, T_cstart, seat, g, False, r - total, ws, width)
            ws[memo + g] = k
            if 0 <= r - total < k:  # plumbing: the move drawn
                ws[W_VERB] = V_POACH
                ws[W_ARG] = g
                return total + k
            total += k
    return total


@jit
def dump_moves(s, seat, none_too, r, ws):
    """game.py's _dump_moves: one card at a time (jd.turn.dump-tray); an empty dump under
    jd.ruling.dump-none=allowed."""
    list_held(s, seat, ws)
    h = held_at(s)
    total = ws[h]  # one dump per dessert type held (jd.turn.dump-tray)
    if 0 <= r < total:  # plumbing: the move drawn
        choose(ws, V_DUMP, ws[h + 1 + r])
    if none_too:  # rule: jd.ruling.dump-none
        if r == total:  # plumbing: the move drawn
            choose(ws, V_DUMP_NONE, 0)
        total += 1
    return total


@jit
def buffet_moves(s, ace, seat, r, ws):
    """advanced.py's buffet_moves: every distinct four aces of the hand (jd.buffet.aces)."""
    D = s[S_D]
    base = s[O_HAND] + seat * D
    # ways[i, k]: multisets of size k from the ace types i.. of the hand (scratch in ws)
    h = held_at(s)
    at = h + D + 1
    types = ws[at:at + D]
    a = 0
    list_held(s, seat, ws)
    for i in range(h + 1, h + 1 + ws[h]):
        t = ws[i]
        if ace[t]:  # rule: jd.buffet.aces
            types[a] = t
            a += 1
    row = BUFFET_ACES + 1
    ways = ws[at + D:at + D + (a + 1) * row]  # ways[i, k] at i * row + k
    for i in range(len(ways)):
        ways[i] = 0
    ways[a * row] = 1
    for i in range(a - 1, -1, -1):
        c = s[base + types[i]]
        for k in range(BUFFET_ACES + 1):
            w = 0
            for j in range(min(c, k) + 1):
                w += ways[(i + 1) * row + k - j]
            ways[i * row + k] = w
    total = ways[BUFFET_ACES]
    if 0 <= r < total:  # plumbing: the move drawn
        choose(ws, V_BUFFET, 0)
        rem, n = BUFFET_ACES, 0
        for i in range(a):
            c = s[base + types[i]]
            for j in range(min(c, rem) + 1):
                w = ways[(i + 1) * row + rem - j]
                if r < w:  # plumbing: this many copies of the ace
                    for _ in range(j):
                        ws[W_CARDS + n] = types[i]
                        n += 1
                    rem -= j
                    break
                r -= w
        ws[W_NCARDS] = n
    return total


@jit
def answer_moves(s, fav, nfav, T_gmask, T_covers, T_cstart, prm, r, ws, width):
    """advanced.py's answers: the speaker's blocks, surprises, and pass."""
    seat, g = s[S_SPEAKER], s[S_OGUEST]
    total = 0
    excl = ws[W_EXCL:]
    list_held(s, seat, ws)
    h = held_at(s)
    held = ws[h + 1:h + 1 + ws[h]]  # the servings read the flags of the types held only
    if seat == s[S_OVICTIM] and prm[R_POACHING]:  # rule: jd.block.defender
        need = favourite_used(s, fav, g)  # rule: jd.block.favourite-only-by-other-favourite
        for t in held:
            excl[t] = 1 if (fav[g, t] and not offered(s, t)) else 0  # rule: jd.surprise.intercept
        k = servings(s, T_gmask, T_covers, T_cstart, seat, g, need, r, ws, width)
        if 0 <= r < k:  # plumbing: the move drawn
            ws[W_VERB] = V_BLOCK
            ws[W_ARG] = 0
            return total + k
        total += k
    # rule: jd.surprise.intercept, jd.ruling.victim-surprise
    if may_be_surprised(s, fav, nfav, prm) and may_surprise(s, prm, seat):
        if prm[R_SURPRISE_WITH_FAV]:  # rule: jd.ruling.surprise-serving
            for t in held:
                excl[t] = fav[g, t]
            k = servings(s, T_gmask, T_covers, T_cstart, seat, g, True, r - total, ws, width)
            if 0 <= r - total < k:  # plumbing: the move drawn
                ws[W_VERB] = V_SURPRISE
                ws[W_ARG] = 0
                return total + k
            total += k
        else:
            for t in held:
                if fav[g, t]:  # rule: jd.ruling.surprise-serving (a favourite alone)
                    if r == total:  # plumbing: the move drawn
                        choose(ws, V_SURPRISE, 0)
                        ws[W_NCARDS] = 1
                        ws[W_CARDS] = t
                    total += 1
    if r == total:  # plumbing: the move drawn
        choose(ws, V_PASS, 0)
    return total + 1


@jit
def walk_moves(s, suit_of, fav, nfav, ace, T_gmask, T_covers, T_cstart, prm, r, ws, width):
    """game.py's legal_moves for the seat to move: returns their number; if 0 <= r < number,
    the r-th is written into ws (verb, arg, cards), and the number returned may leave out moves after it
    (the walk stops where it found the move; it is more than r).  A call that picks (0 <= r) must follow one
    that counts (r < 0) in the same state: it reuses that count's servings per guest (:func:`memo_at`)."""
    phase = s[S_PHASE]
    if phase == P_WINDOW:  # rule: jd.surprise.intercept, jd.block.defender
        return answer_moves(s, fav, nfav, T_gmask, T_covers, T_cstart, prm, r, ws, width)
    if phase == P_RETURN:  # rule: jd.buffet.others-return
        seat = s[s[O_RET]]
        total = 0
        for g in range(s[S_G]):
            if s[s[O_HOLDER] + g] == seat:  # rule: jd.buffet.others-return
                if r == total:  # plumbing: the move drawn
                    choose(ws, V_RETURN, g)
                total += 1
        return total
    if phase == P_DISCARD or phase == P_SORT:  # rule: jd.discard.one-per-suit, jd.ruling.opening-duplicates
        anyone = prm[R_DISCARD_ANY] and duplicated_suits(s, suit_of)  # rule: jd.ruling.discard-which
        total = 0
        for g in range(s[S_G]):
            # rule: jd.discard.one-per-suit, jd.ruling.discard-which
            if s[s[O_CENTRE] + g] and (anyone or suit_shown_twice(s, suit_of, suit_of[g])):
                if r == total:  # plumbing: the move drawn
                    choose(ws, V_DEPART, g)
                total += 1
        return total
    seat = s[S_TURN]
    if phase == P_DUMP:  # rule: jd.turn.dump-tray
        total = dump_moves(s, seat, False, r, ws)
        if r == total:  # plumbing: the move drawn
            choose(ws, V_STOP, 0)
        return total + 1
    if phase == P_BUFFET:  # rule: jd.buffet.serve-one
        total = serve_moves(s, T_gmask, T_covers, T_cstart, seat, r, ws, width)
        if r == total:  # plumbing: the move drawn
            choose(ws, V_STOP, 0)
        return total + 1
    total = 0  # phase choose
    if s[S_SERVED] < MAX_SERVINGS:  # rule: jd.turn.satisfy-guests
        total += serve_moves(s, T_gmask, T_covers, T_cstart, seat, r, ws, width)
        if 0 <= r < total:  # plumbing: the move drawn is found (the later moves need not be walked)
            return total
        if prm[R_POACHING]:  # rule: jd.poach.attempt
            total += poach_moves(s, T_gmask, T_covers, T_cstart, seat, r - total, ws, width)
            if 0 <= r < total:  # plumbing: the move drawn is found
                return total
    if s[S_COMMITTED]:  # rule: jd.turn.one-option
        if r == total:  # plumbing: the move drawn
            choose(ws, V_STOP, 0)
        return total + 1
    if r == total:  # plumbing: the move drawn
        choose(ws, V_KITCHEN, 0)
        return total + 1
    total += 1
    total += dump_moves(s, seat, prm[R_DUMP_NONE] != 0, r - total, ws)
    if 0 <= r < total:  # plumbing: the move drawn is found
        return total
    if prm[R_SERVE_NONE]:  # rule: jd.ruling.serve-none
        if r == total:  # plumbing: the move drawn
            choose(ws, V_STOP, 0)
        total += 1
    if prm[R_BUFFET]:  # rule: jd.buffet.aces
        total += buffet_moves(s, ace, seat, r - total, ws)
    return total


@jit
def apply_move(s, suit_of, fav, nfav, T_gmask, T_covers, T_cstart, prm, ws, width):
    """game.py's _apply_seat for the move in ws."""
    verb, arg = ws[W_VERB], ws[W_ARG]
    phase = s[S_PHASE]
    if verb == V_SERVE:  # rule: jd.turn.satisfy-guests
        offer(s, fav, nfav, prm, s[S_TURN], arg, -1, ws)
    elif verb == V_POACH:  # rule: jd.poach.attempt
        offer(s, fav, nfav, prm, s[S_TURN], arg, s[s[O_HOLDER] + arg], ws)
    elif verb == V_PASS:  # rule: jd.surprise.first-offered
        s[s[O_ANS] + s[S_SPEAKER]] = 0
        s[S_NANS] -= 1
        s[S_SPEAKER] = -1
    elif verb == V_BLOCK:  # rule: jd.block.defender
        block(s, fav, nfav, T_gmask, T_covers, T_cstart, prm, s[S_SPEAKER], ws, width)
    elif verb == V_SURPRISE:  # rule: jd.surprise.intercept
        surprise(s, suit_of, prm, s[S_SPEAKER], ws)
    elif verb == V_RETURN:  # rule: jd.buffet.others-return
        unclaim(s, suit_of, arg)
        to_centre(s, arg)
        o = s[O_RET]
        for i in range(1, s[S_NRET]):
            s[o + i - 1] = s[o + i]
        s[S_NRET] -= 1
    elif verb == V_BUFFET:  # rule: jd.buffet.aces
        seat, n = s[S_TURN], s[S_N]
        play_cards(s, seat, ws)
        s[S_COMMITTED] = 1
        s[S_PHASE] = P_RETURN
        k = 0
        for j in range(1, n):
            other = (seat + j) % n
            if s[s[O_NCLAIMED] + other] > 0:  # rule: jd.buffet.others-return
                s[s[O_RET] + k] = other
                k += 1
        s[S_NRET] = k
    elif verb == V_STOP and phase == P_DUMP:  # rule: jd.turn.dump-tray
        s[S_PHASE] = P_DISCARD
        s[S_NTASKS] = 0
        for _ in range(s[S_DUMPED]):
            push_task(s, K_DRAW, s[S_TURN])
        s[S_DUMPED] = 0
    elif verb == V_STOP:  # rule: jd.turn.one-option
        s[S_PHASE] = P_DISCARD
    elif verb == V_KITCHEN:  # rule: jd.turn.kitchen
        s[S_COMMITTED] = 1
        s[S_PHASE] = P_DISCARD
        s[S_NTASKS] = 0
        push_task(s, K_DRAW, s[S_TURN])
    elif verb == V_DUMP_NONE:  # rule: jd.ruling.dump-none
        s[S_COMMITTED] = 1
        s[S_PHASE] = P_DISCARD
    elif verb == V_DUMP:  # rule: jd.turn.dump-tray
        add_to_hand(s, s[S_TURN], arg, -1)
        discard_dessert(s, arg)
        s[S_COMMITTED] = 1
        s[S_PHASE] = P_DUMP
        s[S_DUMPED] += 1
    elif verb == V_DEPART:  # rule: jd.discard.one-per-suit, jd.discard.doorway
        from_centre(s, arg)
        s[s[O_GDISC] + s[S_NGDISC]] = arg
        s[S_NGDISC] += 1


# --------------------------------------------------------------------------- chance


@jit
def chance_step(s, rng, out):
    """game.py's chance_outcomes and _apply_chance: a draw, a turn-up or the answer race.
    Writes (code, numerator, denominator) into out."""
    if s[S_NTASKS] == 0:  # rule: jd.surprise.first-offered
        k = below(rng, s[S_NANS])
        for seat in range(s[S_N]):
            if s[s[O_ANS] + seat]:  # plumbing: the k-th answerer
                if k == 0:  # plumbing: the outcome drawn
                    s[S_SPEAKER] = seat
                    out[0], out[1], out[2] = V_FIRST | (seat << ARG_SHIFT), 1, s[S_NANS]
                    return
                k -= 1
    kind = s[s[O_TASKS]]
    if kind == K_DRAW:  # rule: jd.reshuffle.desserts
        if s[S_NDPILE] == 0:  # rule: jd.reshuffle.desserts
            refill_desserts(s)
        size = s[S_NDPILE]
        x = below(rng, size)
        o = s[O_DPILE]
        for t in range(s[S_D]):
            c = s[o + t]
            if x < c:  # plumbing: the card drawn
                take_dessert(s, t)
                out[0], out[1], out[2] = V_DRAW | (t << ARG_SHIFT), c, size
                return
            x -= c
    if s[S_NGPILE] == 0:  # rule: jd.reshuffle.guests
        refill_guests(s)
    size = s[S_NGPILE]
    x = below(rng, size)
    o = s[O_GPILE]
    for g in range(s[S_G]):
        if s[o + g]:  # plumbing: a guest of the pile
            if x == 0:  # plumbing: the guest turned up
                turn_up(s, g)
                out[0], out[1], out[2] = V_TURN_UP | (g << ARG_SHIFT), 1, size
                return
            x -= 1


@jit
def take_dessert(s, t):
    """game.py's _apply_chance for a draw: a dessert of type ``t`` from the pile to the seat of the next task."""
    s[s[O_DPILE] + t] -= 1
    s[S_NDPILE] -= 1
    add_to_hand(s, s[s[O_TASKS] + 1], t, 1)
    pop_task(s)


@jit
def turn_up(s, g):
    """game.py's _apply_chance for a turn-up: guest ``g`` from the pile into the middle."""
    s[s[O_GPILE] + g] = 0
    s[S_NGPILE] -= 1
    to_centre(s, g)
    pop_task(s)


# --------------------------------------------------------------------------- the outcome


@jit
def outcome(s, prm, res):
    """game.py's outcome as bit masks of seats: res[0] winners, res[1] losers (both 0 on a draw);
    res[2] the GAPS index of a strict ruling that stopped the game, else -1."""
    n, ns = s[S_N], s[S_NS]
    everyone = (1 << n) - 1
    res[0], res[1], res[2] = 0, 0, -1
    end = s[S_END]
    if end == END_GAP:  # plumbing: a strict ruling's gap stopped the game
        res[2] = s[S_WINNER]
        return
    if end == END_WIN:  # rule: jd.win.any-time
        res[0] = 1 << s[S_WINNER]
        res[1] = everyone ^ res[0]
        return
    scored = (end == END_ALL_CLAIMED and prm[R_ALL_CLAIMED] == AC_FAQ) or (
        end == END_NO_SERVING and prm[R_NO_SERVING] == AC_FAQ
    )
    if not scored:  # rule: jd.ruling.all-guests-claimed, jd.ruling.no-serving-possible
        return
    best_p, best_h, top, tops = -1, -1, 0, 0
    for seat in range(n):
        p = s[s[O_NCLAIMED] + seat]
        for j in range(ns):
            k = s[s[O_SUITS] + seat * ns + j]
            if prm[R_MATCHING] == MP_EXACTLY_TWO:  # rule: jd.ruling.matching-pair
                p += 1 if k == 2 else 0  # rule: jd.ruling.matching-pair
            elif prm[R_MATCHING] == MP_EVERY_TWO:  # rule: jd.ruling.matching-pair
                p += k * (k - 1) // 2
            else:
                p += k // 2
        h = s[s[O_HSIZE] + seat]
        # most points, then most desserts in hand
        if p > best_p or (p == best_p and h > best_h):  # rule: jd.ruling.all-guests-claimed
            best_p, best_h, top, tops = p, h, 1 << seat, 1
        elif p == best_p and h == best_h:  # plumbing: a tie on both
            top |= 1 << seat
            tops += 1
    if tops == 1 or prm[R_SHARED_WIN]:  # rule: jd.ruling.score-full-tie
        res[0] = top
        res[1] = everyone ^ top


# --------------------------------------------------------------------------- whole games


@jit
def below(rng, n):
    """compact_loops' ``below`` (the same stream gives the same numbers), compiled as the rest of
    this module: a whole number in [0, n) from one draw of the SplitMix64 stream ``rng[0]``."""
    rng[0] += GOLDEN
    return min(int(float(mix64(rng[0]) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * n), n - 1)


PACKED_CARDS, PACKED_TYPES = 5, 128
"""A move with at most 5 cards, all of types below 128, has its cards packed into its key (:func:`action_keys`)."""


@jit
def action_keys(codes, last, stride, keys):
    """A key for the move of each action in ``codes[:last]`` (a code is followed by its cards), into ``keys``;
    returns the number of actions.  A move without cards whose argument is below ``stride`` has the key
    verb * stride + argument (below 16 * stride); one with 1 to PACKED_CARDS cards, all below PACKED_TYPES,
    its code with the cards above it, 7 bits each (at least 1 << CARDS_SHIFT); any other -1 - where its code
    starts."""
    i, a = 0, 0
    while i < last:  # plumbing: action by action
        c = codes[i]
        k = c >> CARDS_SHIFT
        keys[a] = -1 - i
        if k == 0:  # plumbing: no cards
            arg = (c >> ARG_SHIFT) & ((1 << 15) - 1)
            if arg < stride:  # plumbing: an argument the table holds
                keys[a] = (c & 31) * stride + arg
        elif k <= PACKED_CARDS:  # plumbing: few cards
            key = c
            for j in range(k):
                t = codes[i + 1 + j]
                key |= t << (CARDS_SHIFT + 3 + 7 * j)
                if t >= PACKED_TYPES:  # plumbing: a type too large to pack
                    key = -1 - i
                    break
            keys[a] = key
        a += 1
        i += 1 + k
    return a


@jit
def to_move_is_chance(s):
    return s[S_NTASKS] > 0 or (s[S_PHASE] == P_WINDOW and s[S_SPEAKER] < 0)


def play(start, suit_of, fav, nfav, ace, T_gmask, T_covers, T_cstart, can_sat, prm, width, games, rng,
         codes, info, debug, ends, results, max_actions):
    """Play up to ``games`` games from ``start`` at random.  Writes each action's code (and
    its cards) into ``codes``, where each game ends into ``ends`` (codes, actions), its
    winners and losers into ``results``, and with ``debug`` per action the number of moves
    chosen among (seat) or the probability's numerator and denominator (chance) into
    ``info``.  Returns (games played, status): status ST_BUFFER_FULL when the next game might
    not fit (``rng`` is then left at that game's start), ST_ENDLESS when a game reached
    ``max_actions``.  The game's vector and the scratch are made here (the compiled loop
    makes no array)."""
    ws = np.zeros(workspace_size(start[S_D], start[S_G]), dtype=np.int64)
    ws[W_ANY] = prm[R_SERVING_ANY]
    return play_games(start, start.copy(), ws, np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64), suit_of,
                      fav, nfav, ace, T_gmask, T_covers, T_cstart, can_sat, prm, width, games, rng, codes, info, debug,
                      ends, results, max_actions)


@jit
def play_games(start, s, ws, out, res, suit_of, fav, nfav, ace, T_gmask, T_covers, T_cstart, can_sat, prm, width,
               games, rng, codes, info, debug, ends, results, max_actions):
    """:func:`play` with its scratch: ``s`` the game's vector, ``ws`` the workspace, ``out`` and ``res``."""
    n, a = 0, 0
    cap = codes.shape[0]
    for g in range(games):
        saved = rng[0]
        for i in range(len(start)):  # plumbing: every game from the start
            s[i] = start[i]
        n0, a0 = n, a
        actions = 0
        while True:  # plumbing: until the rules end the game
            settle(s, suit_of, fav, nfav, T_gmask, T_covers, T_cstart, can_sat, ace, prm, ws, width)
            if s[S_PHASE] == P_OVER:  # rule: jd.win.any-time
                break
            if actions >= max_actions:  # plumbing: a game that does not end is refused, never played for ever
                return g, ST_ENDLESS
            # plumbing: a full buffer is never overrun; the game is played again in the next call
            if n + 1 + MAX_CARDS > cap:
                rng[0] = saved
                return g, ST_BUFFER_FULL
            if to_move_is_chance(s):  # plumbing: chance or a seat
                chance_step(s, rng, out)
                codes[n] = out[0]
                n += 1
                if debug:  # plumbing: the checks' record
                    info[a, 0], info[a, 1] = out[1], out[2]
            else:
                count = walk_moves(s, suit_of, fav, nfav, ace, T_gmask, T_covers, T_cstart, prm, -1, ws, width)
                if ws[W_ERROR]:  # plumbing: a hand too large for exact counts
                    return g, ST_HAND_TOO_LARGE
                r = below(rng, count)
                walk_moves(s, suit_of, fav, nfav, ace, T_gmask, T_covers, T_cstart, prm, r, ws, width)
                k = ws[W_NCARDS]
                codes[n] = ws[W_VERB] | (ws[W_ARG] << ARG_SHIFT) | (k << CARDS_SHIFT)
                for j in range(k):
                    codes[n + 1 + j] = ws[W_CARDS + j]
                n += 1 + k
                if debug:  # plumbing: the checks' record
                    info[a, 0], info[a, 1] = count, 0
                apply_move(s, suit_of, fav, nfav, T_gmask, T_covers, T_cstart, prm, ws, width)
                if ws[W_ERROR]:  # plumbing: a hand too large for exact counts
                    return g, ST_HAND_TOO_LARGE
            a += 1
            actions += 1
        outcome(s, prm, res)
        ends[g, 0], ends[g, 1] = n, a
        results[g, 0], results[g, 1], results[g, 2] = res[0], res[1], res[2]
    return games, ST_DONE


# =========================================================================== the step API, one action at a time
# What model/just_desserts/compiled.py's compiled states call (in this file, so that Numba's cache, which
# looks only at the file of the function it compiled, is renewed whenever the loops above change).  Nothing
# here is a rule of its own: the functions above mirror the step API clause by clause; what is added is its
# shape:
# * the deck's tables and the options travel as one int vector (``pack``, :func:`pack_tables`), so that a
#   call from Python passes four arrays, not twelve (each array passed costs a call about 0.2 microseconds);
# * a seat's moves are listed all at once, each as a *key* (:func:`move_key`) whose order as a whole number
#   is the order of the model's moves (``Move`` compares verb, guest, cards), so the list comes out sorted as
#   ``legal_moves`` sorts it;
# * a move is played from its key, a chance outcome from its card, guest or seat, and the state is settled
#   after each, as game.py's ``apply`` does; each call answers who moves next (:func:`actor`);
# * the workspace ``ws`` is shared by every state of a setup: each call starts by forgetting which hand it
#   lists (``S_LISTED``), since the last call may have been about another state.

# --------------------------------------------------------------------------- the tables as one vector

K_SUIT_OF, K_FAV, K_NFAV, K_ACE, K_GMASK, K_COVERS, K_CSTART, K_CAN_SAT, K_PRM = range(9)
K_ROWS, K_WANTS, K_WIDTH, K_WS, K_KEYS, K_NKEYS = 9, 10, 11, 12, 13, 14
PACK_HEADER = 16


def pack_tables(t, prm, keys):
    """The deck's tables (playout.py's ``Tables``), the options vector ``prm``, a workspace and room for
    ``keys`` keys of moves as one int vector (``work``): a header of offsets (``K_*``), then each table
    flattened, the workspace (``ws``), the keys (:func:`legal_keys`).  One vector, so that a call passes
    two arrays (the state and this)."""
    ws = np.zeros(workspace_size(len(t.desserts), len(t.guests)), dtype=np.int64)
    parts = [t.suit_of, t.fav, t.nfav, t.ace, t.gmask, t.covers, t.cstart, t.can_sat, prm, ws,
             np.zeros(keys, dtype=np.int64)]
    head = np.zeros(PACK_HEADER, dtype=np.int64)
    at = PACK_HEADER
    for slot, part in zip((K_SUIT_OF, K_FAV, K_NFAV, K_ACE, K_GMASK, K_COVERS, K_CSTART, K_CAN_SAT, K_PRM, K_WS,
                           K_KEYS), parts):
        head[slot] = at
        at += part.size
    head[K_ROWS], head[K_WANTS], head[K_WIDTH], head[K_NKEYS] = t.covers.shape[0], t.covers.shape[1], t.width, keys
    return np.concatenate([head] + [np.ascontiguousarray(p, dtype=np.int64).ravel() for p in parts])


@jit
def tables_of(pack, s):
    """The tables of :func:`pack_tables`, as views of ``pack``."""
    D, G = s[S_D], s[S_G]
    suit_of = pack[pack[K_SUIT_OF]:pack[K_SUIT_OF] + G]
    fav = pack[pack[K_FAV]:pack[K_FAV] + G * D].reshape((G, D))
    nfav = pack[pack[K_NFAV]:pack[K_NFAV] + G]
    ace = pack[pack[K_ACE]:pack[K_ACE] + D]
    gmask = pack[pack[K_GMASK]:pack[K_GMASK] + G * D].reshape((G, D))
    rows, wants = pack[K_ROWS], pack[K_WANTS]
    covers = pack[pack[K_COVERS]:pack[K_COVERS] + rows * wants].reshape((rows, wants))
    cstart = pack[pack[K_CSTART]:pack[K_CSTART] + G + 1]
    can_sat = pack[pack[K_CAN_SAT]:pack[K_CAN_SAT] + G]
    prm = pack[pack[K_PRM]:pack[K_PRM] + PRM_SIZE]
    return suit_of, fav, nfav, ace, gmask, covers, cstart, can_sat, prm, pack[K_WIDTH]


# --------------------------------------------------------------------------- moves as keys

VERB_RANK = np.array([3, 13, 5, 10, 8, 0, 12, 11, 6, 7, 4, 4, 1, 9, 2], dtype=np.int64)
"""Per verb code (playout_loops' ``V_*``), the place of its name among the verbs' names in
alphabetical order (block buffet depart draw dump first kitchen pass poach return serve stop
surprise turn-up): the first thing ``Move`` compares.  Both dumps are "dump"."""
RANK_VERB = np.array([V_BLOCK, V_BUFFET, V_DEPART, V_DRAW, V_DUMP, V_FIRST, V_KITCHEN, V_PASS,
                      V_POACH, V_RETURN, V_SERVE, V_STOP, V_SURPRISE, V_TURN_UP], dtype=np.int64)
"""The verb code of each place of :data:`VERB_RANK` (a dump without a card is ``V_DUMP_NONE``)."""
RANK_SHIFT, GUEST_SHIFT, CARD_BITS, KEY_CARDS = 58, 50, 7, 6
"""A key: the verb's rank above bit 58, the guest + 1 (0: none) in bits 50-57, then up to six
cards, each its dessert type + 1 in seven bits from bit 43 down (0: no card), in type order."""
MAX_TYPES, MAX_GUESTS = (1 << CARD_BITS) - 1, (1 << (RANK_SHIFT - GUEST_SHIFT)) - 1
"""The most dessert types and guests a deck may have for its moves to have keys."""
ACTOR_CHANCE, ACTOR_OVER, ACTOR_GAP = -1, -2, -3
"""What :func:`actor` answers besides a seat; ACTOR_GAP: a strict ruling's gap or a loop error was reached."""


@jit
def move_key(ws, tmp):
    """The key of the move in ws (verb, argument, cards), its cards put in type order (in ``tmp``)."""
    verb, arg, k = ws[W_VERB], ws[W_ARG], ws[W_NCARDS]
    for j in range(k):
        tmp[j] = ws[W_CARDS + j]
    if verb == V_DUMP:  # plumbing: a dump of one card names it as its argument
        tmp[0] = arg
        k = 1
    for j in range(1, k):  # plumbing: cards in order
        x = tmp[j]
        i = j
        while i > 0 and tmp[i - 1] > x:
            tmp[i] = tmp[i - 1]
            i -= 1
        tmp[i] = x
    key = VERB_RANK[verb] << RANK_SHIFT
    if verb == V_SERVE or verb == V_POACH or verb == V_RETURN or verb == V_DEPART:  # plumbing: a guest
        key |= (arg + 1) << GUEST_SHIFT
    for j in range(k):  # plumbing: each card
        key |= (tmp[j] + 1) << (GUEST_SHIFT - CARD_BITS * (j + 1))
    return key


@jit
def key_to_ws(key, ws):
    """The move of a key into ws (verb, argument, cards), as walk_moves writes a move."""
    verb = RANK_VERB[key >> RANK_SHIFT]
    guest = ((key >> GUEST_SHIFT) & MAX_GUESTS) - 1
    k = 0
    for j in range(KEY_CARDS):  # plumbing: each card
        c = (key >> (GUEST_SHIFT - CARD_BITS * (j + 1))) & MAX_TYPES
        if c == 0:  # plumbing: no more cards
            break
        ws[W_CARDS + j] = c - 1
        k += 1
    ws[W_ARG] = guest if guest >= 0 else 0
    if verb == V_DUMP:  # plumbing: a dump of one card or none
        if k == 0:
            verb = V_DUMP_NONE
        else:
            ws[W_ARG] = ws[W_CARDS]
            k = 0
    ws[W_VERB] = verb
    ws[W_NCARDS] = k


# --------------------------------------------------------------------------- the step API


@jit
def actor(s):
    """Who moves: a seat, ACTOR_CHANCE or ACTOR_OVER (game.py's to_move)."""
    phase = s[S_PHASE]
    if phase == P_OVER:  # rule: jd.win.any-time
        return ACTOR_OVER
    if s[S_NTASKS] > 0:  # rule: jd.setup.deal-hands, jd.turn.draw-phase
        return ACTOR_CHANCE
    if phase == P_WINDOW:  # rule: jd.surprise.first-offered
        return ACTOR_CHANCE if s[S_SPEAKER] < 0 else s[S_SPEAKER]  # rule: jd.surprise.first-offered
    if phase == P_RETURN:  # rule: jd.buffet.others-return
        return s[s[O_RET]]
    return s[S_TURN]


@jit
def legal_keys(s, pack):
    """The keys of the seat's legal moves into the room for keys of ``pack`` (at pack[K_KEYS]), in the order
    of moves; returns their number (only counted, the keys untouched, when there are more than it holds)."""
    s[S_LISTED] = -1
    ws = pack[pack[K_WS]:pack[K_KEYS]]  # the workspace, shared by every state of the setup
    keys = pack[pack[K_KEYS]:pack[K_KEYS] + pack[K_NKEYS]]
    suit_of, fav, nfav, ace, gmask, covers, cstart, _can_sat, prm, width = tables_of(pack, s)
    n = walk_moves(s, suit_of, fav, nfav, ace, gmask, covers, cstart, prm, -1, ws, width)
    if n > len(keys):  # plumbing: more moves than the buffer holds
        return n
    tmp = ws[W_CNT:W_CNT + MAX_CARDS]
    for r in range(n):
        walk_moves(s, suit_of, fav, nfav, ace, gmask, covers, cstart, prm, r, ws, width)
        key = move_key(ws, tmp)
        i = r
        while i > 0 and keys[i - 1] > key:  # plumbing: the place of each key in order
            keys[i] = keys[i - 1]
            i -= 1
        keys[i] = key
    return n


@jit
def settled(s, pack):
    """game.py's settle after a move, then who moves (ACTOR_GAP where a strict ruling's gap was reached)."""
    suit_of, fav, nfav, ace, gmask, covers, cstart, can_sat, prm, width = tables_of(pack, s)
    ws = pack[pack[K_WS]:pack[K_KEYS]]  # the workspace, shared by every state of the setup
    settle(s, suit_of, fav, nfav, gmask, covers, cstart, can_sat, ace, prm, ws, width)
    if s[S_PHASE] == P_OVER and s[S_END] == END_GAP:  # plumbing: a strict ruling's gap
        return ACTOR_GAP
    return actor(s)


@jit
def play_key(s, pack, key):
    """game.py's apply for the seat move of ``key`` (one of :func:`legal_keys`), then who moves."""
    s[S_LISTED] = -1
    suit_of, fav, nfav, _ace, gmask, covers, cstart, _can_sat, prm, width = tables_of(pack, s)
    ws = pack[pack[K_WS]:pack[K_KEYS]]  # the workspace, shared by every state of the setup
    key_to_ws(key, ws)
    apply_move(s, suit_of, fav, nfav, gmask, covers, cstart, prm, ws, width)
    if ws[W_ERROR]:  # plumbing: the loop's error
        return ACTOR_GAP
    return settled(s, pack)


@jit
def play_outcome(s, pack, verb, arg):
    """game.py's apply for a chance outcome (a dessert type drawn, a guest turned up, the seat that
    speaks first), then who moves; ACTOR_GAP (the state untouched) if the pile lacks it."""
    s[S_LISTED] = -1
    if s[S_NTASKS] == 0:  # rule: jd.surprise.first-offered
        if verb != V_FIRST or not (0 <= arg < s[S_N]) or not s[s[O_ANS] + arg]:  # plumbing: not an answerer
            return ACTOR_GAP
        s[S_SPEAKER] = arg
        return settled(s, pack)
    wanted = V_DRAW if s[s[O_TASKS]] == K_DRAW else V_TURN_UP
    if verb != wanted or pile_count(s, verb, arg) == 0:  # plumbing: not the pending event; a card the pile lacks
        return ACTOR_GAP
    if verb == V_DRAW:  # rule: jd.reshuffle.desserts
        if s[S_NDPILE] == 0:  # rule: jd.reshuffle.desserts
            refill_desserts(s)
        take_dessert(s, arg)
    else:
        if s[S_NGPILE] == 0:  # rule: jd.reshuffle.guests
            refill_guests(s)
        turn_up(s, arg)
    return settled(s, pack)


@jit
def pile_count(s, verb, arg):
    """Copies of dessert type ``arg`` (V_DRAW) or guest ``arg`` (V_TURN_UP) in the pile the next
    draw or turn-up comes from: the pile, or what a reshuffle would make of the discards."""
    if verb == V_DRAW:  # plumbing: which pile
        if s[S_NDPILE] > 0:  # rule: jd.reshuffle.desserts
            return s[s[O_DPILE] + arg]
        return s[s[O_DDISC] + arg]
    if s[S_NGPILE] > 0:  # rule: jd.reshuffle.guests
        return s[s[O_GPILE] + arg]
    o = s[O_GDISC]
    k = 0
    for i in range(s[S_NGDISC] - 1):  # the top of the discards stays (jd.reshuffle.guests)
        if s[o + i] == arg:  # plumbing: copies of the card
            k += 1
    return k


@jit
def pile_size(s, verb):
    """Cards in the pile the next draw (V_DRAW) or turn-up (V_TURN_UP) comes from."""
    if verb == V_DRAW:  # plumbing: which pile
        return s[S_NDPILE] if s[S_NDPILE] > 0 else s[S_NDDISC]  # rule: jd.reshuffle.desserts
    return s[S_NGPILE] if s[S_NGPILE] > 0 else max(s[S_NGDISC] - 1, 0)  # rule: jd.reshuffle.guests


@jit
def pile_counts(s, verb, out):
    """Copies of each dessert type (V_DRAW) or guest (V_TURN_UP) in that pile, into ``out``."""
    for x in range(s[S_D] if verb == V_DRAW else s[S_G]):  # plumbing: each card of the deck
        out[x] = pile_count(s, verb, x)


@jit
def pile_card(s, verb, i):
    """The dessert type (V_DRAW) or guest (V_TURN_UP) at place ``i`` of that pile in the order of ids
    (copies together), as game.py's sorted piles hold it."""
    n = s[S_D] if verb == V_DRAW else s[S_G]
    for x in range(n):  # plumbing: the card at that place
        c = pile_count(s, verb, x)
        if i < c:
            return x
        i -= c
    return -1


@jit
def pick_card(s, verb, r):
    """The dessert type (V_DRAW) or guest (V_TURN_UP) that core's PileDraw.pick picks for ``r`` in [0, 1): the
    card at place int(r * size) of the pile (the last card if rounding goes past it)."""
    size = pile_size(s, verb)
    return pile_card(s, verb, min(int(r * size), size - 1))
