"""The compiled loop of Just Desserts 2.3 random play (:mod:`.v23_playout` drives it).

One game is a handful of small int arrays (the *table*): what :mod:`.v23` keeps in a
``State``, with desserts and guests as small ints (their index in the sorted ids) and hands
as counts per dessert.  The functions below mirror the model's transitions one for one
(``_next_round`` is v23's ``_next_round``, and so on); every action the loop takes is
written as a code (``C_*``), which :mod:`.v23_playout` turns back into the model's move.

The table (all int64 unless said):

* ``sc``: the scalars, indexed by ``S_*``;
* ``seat``: per seat (rows) the fields ``F_*``;
* ``hand``: per seat, copies of each dessert in hand (int32);
* ``pile``: the dessert pile as a list of desserts, ``sc[S_PILE]`` long (order means nothing:
  a draw picks a place uniformly, so each dessert comes with probability count / size);
* ``gpile`` / ``disc``: the guest pile and the guest discards, as lists of guests;
* ``pen``: mistaken callers still to pay, in order; ``draws``: seats still to draw, in order.

Nothing here knows a dessert's name: the deck comes as tables per guest (``refuses``,
``wants`` as a bit mask of the guest's wanted tastes, ``full`` the mask of all of them,
``fav``), built in :mod:`.v23_playout`.

A strict ruling (``prm[P_STRICT]``, one bit per :data:`GAPS` entry) stops the game where the
step API raises its RuleGap: the table's phase becomes ``OVER`` with the ruling's index in
``sc[S_GAP]`` (-1 in a game no gap stopped).  Where ``apply`` raises (the rest of the
rulings), the action being applied is the game's last code; where the model raises while
listing the next chance outcomes (jd23.ruling.favourite-trump at the race,
jd23.ruling.penalty-taker at a penalty), the step writes no code (``NO_CODE``): the game
ends after the action that led there.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..compact_loops import below, uniform

# functions that decide nothing about play, and why (the decision-point finder reads this)
PLUMBING = {
    "serve_code": "a missing card in the code",
    "_pick_card": "walks the multiset",
    "_in_pile": "counts a dessert in the pile",
}

# phases (v23.PHASES, in its order)
DEAL, TURN_UP, ANSWER, RACE, TRUMP, COUNTER, SERVE, PENALTY, DRAW, OVER = range(10)

# the scalars of a table
S_PHASE, S_GUEST, S_FIRST, S_CLOSED, S_RESHUFFLED, S_TRUMPED = range(6)
S_PILE, S_GPILE, S_DISC, S_PEN_AT, S_PEN_N, S_DRAW_AT, S_DRAW_N = range(6, 13)
S_GAP = 13
N_SCALARS = 14

# per-seat fields
F_HAND, F_DISHES, F_COLLECTED, F_ANSWER, F_MISTAKEN, F_TRUMP = range(6)
N_FIELDS = 6

# answers (v23 "", "call", "pass") and trump answers (v23 "", "favourite", "pass", "-")
NOT_YET, CALLED, PASSED = 0, 1, 2
ASKED, HAS_FAVOURITE, NO_FAVOURITE, NOT_ASKED = 0, 1, 2, 3

# parameters (rulings as small ints), indexed by P_*
P_PLAYERS, P_MINIMAL, P_TRUMP, P_CARD_PER_FAVOURITE, P_MAITRE_D_TAKES, P_PENALTY_PILE = range(6)
P_ALONE_ONLY, P_AT_LAST_TURN_UP, P_WHEN_EVERYONE_DRAWS, P_SHARED_WIN, P_SIMULTANEOUS_PENALTY, P_EQUAL_ODDS = range(
    6, 12
)
P_STRICT = 12
P_MAY_DECLINE = 13
N_PARAMS = 14
PILE_CALLER, PILE_TAKER, PILE_OUT_OF_PLAY = 0, 1, 2

# strict rulings (bits of prm[P_STRICT]) and where each stops play
GAPS = ("jd23.ruling.favourite-trump", "jd23.ruling.penalty-taker", "jd23.ruling.nothing-to-reshuffle",
        "jd23.ruling.simultaneous-mistaken", "jd23.ruling.two-favourites", "jd23.ruling.penalty-empty-hand",
        "jd23.ruling.kitchen-check")
"""The strict rulings the loop plays to their gap, by bit of prm[P_STRICT] (every strict
alternative of spec/just_desserts_v23.toml)."""
G_FAVOURITE_TRUMP, G_PENALTY_TAKER, G_NOTHING_TO_RESHUFFLE, G_SIMULTANEOUS_MISTAKEN = range(4)
G_TWO_FAVOURITES, G_PENALTY_EMPTY_HAND, G_KITCHEN_CHECK = range(4, 7)

# action codes
MAX_SEATS = 8
MAX_KINDS = 256
"""Codes leave room for this many desserts and guests (model/decks.py allows 200 of each)."""
C_CALL, C_PASS, C_FAVOURITE, C_FAIL, C_SIMULTANEOUS = range(5)
C_FIRST = 5
C_TURN_UP = C_FIRST + MAX_SEATS
C_DRAW = C_TURN_UP + MAX_KINDS
C_PENALTY = C_DRAW + MAX_SEATS * MAX_KINDS
C_SERVE = C_PENALTY + MAX_SEATS * MAX_SEATS * MAX_KINDS
NONE = MAX_KINDS
"""The missing second or third dessert of a serving, in its code."""
REFUSED = -1
"""Returned by :func:`play` when a game would overrun the codes buffer."""
NO_CODE = -2
"""A step that took no action: the model refuses to list the next chance outcomes (a gap)."""


# --------------------------------------------------------------------------- servings


@njit(cache=True)
def servings(hand, g, refuses, wants, full, minimal, kinds, counts, out):
    """Every serving of one to three desserts from ``hand`` for guest ``g``
    (jd23.satisfy.tastes, jd23.serve.one-to-three), as rows of ``out`` (dessert, dessert or
    -1, dessert or -1; a multiset, smallest first); returns how many.  With ``minimal``
    only those with no card to spare (jd23.ruling.spare-desserts): distinct desserts each
    showing a wanted taste no other shows, as model/just_desserts/tastes.py lists them."""
    m = 0
    f = full[g]
    for t in range(hand.shape[0]):
        if hand[t] == 0 or refuses[g, t]:  # rule: jd23.satisfy.tastes
            continue
        if minimal and wants[g, t] == 0:  # rule: jd23.ruling.spare-desserts
            continue
        kinds[m] = t
        counts[m] = hand[t]
        m += 1
    k = 0
    step = 1 if minimal else 0  # rule: jd23.ruling.spare-desserts (no second copy of a dessert)
    for i in range(m):
        wi = wants[g, kinds[i]]
        if wi == f:  # rule: jd23.satisfy.tastes
            out[k, 0], out[k, 1], out[k, 2] = kinds[i], -1, -1
            k += 1
        for j in range(i + step, m):
            if j == i and counts[i] < 2:  # plumbing: a dessert served no more often than the hand holds it
                continue
            wj = wants[g, kinds[j]]
            wij = wi | wj
            # rule: jd23.satisfy.tastes, jd23.ruling.spare-desserts
            if wij == f and (not minimal or (wi != f and wj != f)):
                out[k, 0], out[k, 1], out[k, 2] = kinds[i], kinds[j], -1
                k += 1
            if minimal and wij == f:  # rule: jd23.ruling.spare-desserts (a third card would be spare)
                continue
            for l in range(j + step, m):
                # plumbing: a dessert served no more often than the hand holds it
                if l == j and counts[j] < (3 if i == j else 2):
                    continue
                wl = wants[g, kinds[l]]
                if wij | wl != f:  # rule: jd23.satisfy.tastes
                    continue
                if minimal and ((wi | wl) == f or (wj | wl) == f):  # rule: jd23.ruling.spare-desserts
                    continue
                out[k, 0], out[k, 1], out[k, 2] = kinds[i], kinds[j], kinds[l]
                k += 1
    return k


@njit(cache=True)
def favourites_in(out, r, g, fav, alone_only):
    """How many different favourites of guest ``g`` serving ``r`` of ``out`` gives
    (jd23.favourite.extra-card); under jd23.ruling.favourite-with-others = alone-only a
    favourite counts only served alone."""
    a, b, c = out[r, 0], out[r, 1], out[r, 2]
    if alone_only and b >= 0:  # rule: jd23.ruling.favourite-with-others
        return 0
    n = 1 if fav[g, a] else 0  # rule: jd23.favourite.extra-card
    if b >= 0 and b != a and fav[g, b]:  # rule: jd23.favourite.extra-card
        n += 1
    if c >= 0 and c != a and c != b and fav[g, c]:  # rule: jd23.favourite.extra-card
        n += 1
    return n


@njit(cache=True)
def serve_code(out, r):
    """The action code of serving row ``r`` of ``out``."""
    a, b, c = out[r, 0], out[r, 1], out[r, 2]
    b = NONE if b < 0 else b
    c = NONE if c < 0 else c
    return C_SERVE + (a * (MAX_KINDS + 1) + b) * (MAX_KINDS + 1) + c


# --------------------------------------------------------------------------- the deck tables in one bundle


@njit(cache=True)
def _favourite_servings(hand, seat, g, deck, prm, work):
    """How many servings of ``seat`` give guest ``g`` a favourite (v23.favourite_servings)."""
    refuses, wants, full, fav = deck
    kinds, counts, out, who_of = work
    k = servings(hand[seat], g, refuses, wants, full, prm[P_MINIMAL] == 1, kinds, counts, out)
    n = 0
    for r in range(k):
        if favourites_in(out, r, g, fav, prm[P_ALONE_ONLY] == 1) > 0:  # rule: jd23.favourite.extra-card
            n += 1
    return n


@njit(cache=True)
def _can_serve(hand, seat, g, deck, prm, work):
    """Does ``seat`` hold any serving for guest ``g`` (v23.hand_servings)?"""
    refuses, wants, full, fav = deck
    kinds, counts, out, who_of = work
    return servings(hand[seat], g, refuses, wants, full, prm[P_MINIMAL] == 1, kinds, counts, out) > 0


# --------------------------------------------------------------------------- transitions (v23's, one for one)


@njit(cache=True)
def strict(prm, gap):
    """Is the ruling GAPS[gap] set to strict (play stops where the text is silent)?"""
    return (prm[P_STRICT] >> gap) & 1 != 0


@njit(cache=True)
def _stop_at_gap(sc, gap):
    """The game stops at the gap of GAPS[gap], where v23 raises its RuleGap."""
    sc[S_GAP] = gap
    sc[S_PHASE] = OVER


@njit(cache=True)
def _clear_round(sc, seat):
    """The round's bookkeeping cleared (answers, mistaken callers, the first caller, trumps)."""
    for s in range(seat.shape[0]):
        seat[s, F_ANSWER] = NOT_YET
        seat[s, F_MISTAKEN] = 0
        seat[s, F_TRUMP] = NOT_ASKED
    sc[S_FIRST] = -1


@njit(cache=True)
def _guest_pile_ran_out(sc, gpile, disc, prm):
    """jd23.guests.reshuffle-once the first time, jd23.end.second-exhaustion the second."""
    if sc[S_RESHUFFLED]:  # rule: jd23.end.second-exhaustion
        sc[S_PHASE] = OVER
        return
    if sc[S_DISC] == 0:  # rule: jd23.ruling.nothing-to-reshuffle
        if strict(prm, G_NOTHING_TO_RESHUFFLE):  # rule: jd23.ruling.nothing-to-reshuffle
            _stop_at_gap(sc, G_NOTHING_TO_RESHUFFLE)
            return
        sc[S_PHASE] = OVER
        sc[S_RESHUFFLED] = 1
        return
    for i in range(sc[S_DISC]):
        gpile[i] = disc[i]
    sc[S_GPILE] = sc[S_DISC]
    sc[S_DISC] = 0
    sc[S_RESHUFFLED] = 1


@njit(cache=True)
def _next_round(sc, seat, gpile, disc, prm):
    """The Maitre D' turns up the next guest, or the guest pile has run out (jd23.round.turn-up-guest)."""
    sc[S_PHASE] = TURN_UP
    sc[S_DRAW_N] = 0
    sc[S_PEN_N] = 0
    sc[S_TRUMPED] = 0
    _clear_round(sc, seat)
    if sc[S_GPILE] > 0:  # rule: jd23.round.turn-up-guest
        return
    _guest_pile_ran_out(sc, gpile, disc, prm)
    if sc[S_PHASE] != OVER:  # rule: jd23.end.second-exhaustion
        sc[S_PHASE] = TURN_UP


@njit(cache=True)
def _close_kitchen(sc):
    """jd23.kitchen.closes: the rest of the dessert pile is set aside for good."""
    sc[S_CLOSED] = 1
    sc[S_PILE] = 0


@njit(cache=True)
def _guest_leaves_hungry(sc, seat, gpile, disc, draws, prm):
    """jd23.draw.guest-leaves-hungry: the guest is discarded and everyone draws, kitchen permitting."""
    disc[sc[S_DISC]] = sc[S_GUEST]
    sc[S_DISC] += 1
    sc[S_GUEST] = -1
    sc[S_PEN_N] = 0
    for s in range(seat.shape[0]):
        seat[s, F_ANSWER] = NOT_YET
        seat[s, F_MISTAKEN] = 0
    sc[S_FIRST] = -1
    n = prm[P_PLAYERS]
    if sc[S_CLOSED]:  # rule: jd23.kitchen.closes
        _next_round(sc, seat, gpile, disc, prm)
        return
    if sc[S_PILE] < n:  # rule: jd23.kitchen.closes
        _close_kitchen(sc)
        _next_round(sc, seat, gpile, disc, prm)
        return
    sc[S_PHASE] = DRAW
    for s in range(n):
        draws[s] = s
    sc[S_DRAW_AT] = 0
    sc[S_DRAW_N] = n


@njit(cache=True)
def _start_penalties(sc, seat, gpile, disc, pen, draws, prm, due):
    """jd23.call.erroneous-penalty, each mistaken caller (``due[s]`` set) in seat order; an
    empty hand pays nothing (jd23.ruling.penalty-empty-hand = no-penalty), or is the gap
    (strict)."""
    sc[S_FIRST] = -1
    k = 0
    for s in range(prm[P_PLAYERS]):
        if not due[s]:  # rule: jd23.call.erroneous-penalty
            continue
        if seat[s, F_HAND] > 0:  # rule: jd23.call.erroneous-penalty
            pen[k] = s
            k += 1
        elif strict(prm, G_PENALTY_EMPTY_HAND):  # rule: jd23.ruling.penalty-empty-hand
            _stop_at_gap(sc, G_PENALTY_EMPTY_HAND)
            return
    if k == 0:  # rule: jd23.ruling.penalty-empty-hand
        _guest_leaves_hungry(sc, seat, gpile, disc, draws, prm)
        return
    sc[S_PHASE] = PENALTY
    sc[S_PEN_AT] = 0
    sc[S_PEN_N] = k


@njit(cache=True)
def _is_contender(sc, seat, s):
    """v23.contenders: a caller who has not failed; after a trump only those who said Favourite."""
    if seat[s, F_ANSWER] != CALLED or seat[s, F_MISTAKEN]:  # rule: jd23.call.got-it, jd23.call.erroneous-covered
        return False
    return not sc[S_TRUMPED] or seat[s, F_TRUMP] == HAS_FAVOURITE  # rule: jd23.call.favourite-trump


@njit(cache=True)
def _contest(sc, seat, gpile, disc, pen, draws, prm):
    """The next caller to serve: alone, by race, or nobody left (jd23.call.first-serves)."""
    n = prm[P_PLAYERS]
    count, last = 0, -1
    for s in range(n):
        if _is_contender(sc, seat, s):  # rule: jd23.call.first-serves
            count += 1
            last = s
    if count == 0:  # rule: jd23.call.erroneous-penalty
        due = seat[:, F_MISTAKEN].copy()
        _start_penalties(sc, seat, gpile, disc, pen, draws, prm, due)
    elif count == 1:  # rule: jd23.call.first-serves
        # v23's _favourite_gap here never stops play: under jd23.ruling.favourite-trump = strict
        # nobody trumps, so a lone contender is the only live caller (the gap needs two)
        sc[S_PHASE] = SERVE
        sc[S_FIRST] = last
    else:
        sc[S_PHASE] = RACE
        sc[S_FIRST] = -1


@njit(cache=True)
def _answer(sc, seat, gpile, disc, pen, draws, prm, who, called):
    """jd23.call.got-it / jd23.call.pass; when all have answered, the round goes on."""
    seat[who, F_ANSWER] = CALLED if called else PASSED  # rule: jd23.call.got-it, jd23.call.pass
    anyone = False
    for s in range(prm[P_PLAYERS]):
        if seat[s, F_ANSWER] == NOT_YET:  # rule: jd23.call.got-it (a seat still to answer)
            return
        if seat[s, F_ANSWER] == CALLED:  # rule: jd23.call.got-it
            anyone = True
    if not anyone:  # rule: jd23.round.all-pass
        _guest_leaves_hungry(sc, seat, gpile, disc, draws, prm)
    else:
        _contest(sc, seat, gpile, disc, pen, draws, prm)


@njit(cache=True)
def _next_asked(sc, seat, n):
    """The next caller asked for a trump, clockwise from the first caller (v23._next_asked)."""
    first = sc[S_FIRST]
    for d in range(n):
        s = (first + d) % n
        if seat[s, F_TRUMP] == ASKED:  # rule: jd23.call.favourite-trump
            return s
    return -1


@njit(cache=True)
def _live_callers(seat, n):
    """Callers who have not failed (v23.offered_servings counts them)."""
    k = 0
    for s in range(n):
        if seat[s, F_ANSWER] == CALLED and not seat[s, F_MISTAKEN]:  # rule: jd23.call.erroneous-covered
            k += 1
    return k


@njit(cache=True)
def _after_draws(sc, seat, gpile, disc, prm):
    """The last pending draw is made: jd23.ruling.kitchen-check = whenever-short closes the
    kitchen as soon as a round of draws is impossible, then the next round."""
    # rule: jd23.ruling.kitchen-check, jd23.kitchen.closes
    if not prm[P_WHEN_EVERYONE_DRAWS] and not sc[S_CLOSED] and sc[S_PILE] < prm[P_PLAYERS]:
        _close_kitchen(sc)
    _next_round(sc, seat, gpile, disc, prm)


@njit(cache=True)
def _favourite_draws(sc, seat, gpile, disc, draws, prm, who, count):
    """jd23.favourite.extra-card, never after the kitchen closed (jd23.kitchen.closes); under
    jd23.ruling.kitchen-check = strict a pile too short for everyone to draw is the gap."""
    if sc[S_CLOSED]:  # rule: jd23.kitchen.closes
        _next_round(sc, seat, gpile, disc, prm)
        return
    if sc[S_PILE] < prm[P_PLAYERS] and strict(prm, G_KITCHEN_CHECK):  # rule: jd23.ruling.kitchen-check
        _stop_at_gap(sc, G_KITCHEN_CHECK)
        return
    if sc[S_PILE] == 0:  # rule: jd23.kitchen.closes
        _next_round(sc, seat, gpile, disc, prm)
        return
    count = min(count, sc[S_PILE])
    for i in range(count):
        draws[i] = who
    sc[S_PHASE] = DRAW
    sc[S_DRAW_AT] = 0
    sc[S_DRAW_N] = count


# --------------------------------------------------------------------------- one action per phase
#
# Each step takes the table ``tb`` = (sc, seat, hand, pile, gpile, disc, pen, draws), the deck
# tables ``deck`` = (refuses, wants, full, fav), the rulings ``prm``, scratch space ``work`` =
# (kinds, counts, servings, seats) and the random stream; it plays one action and returns
# (its code, how many moves the seat chose among or 0 at chance, the chance outcome's
# probability or 0.0).


@njit(cache=True)
def _pick_card(counts, r):
    """The dessert at place ``r`` of a multiset held as counts."""
    for t in range(counts.shape[0]):
        if r < counts[t]:
            return t
        r -= counts[t]
    return -1


@njit(cache=True)
def _in_pile(pile, size, t):
    """Copies of dessert ``t`` among the first ``size`` places of ``pile``."""
    k = 0
    for i in range(size):
        if pile[i] == t:
            k += 1
    return k


@njit(cache=True)
def _draw_step(tb, prm, rng, debug):
    """The next pending draw: a dessert from the pile, each place equally likely
    (jd23.setup.deal-five, jd23.draw.guest-leaves-hungry, jd23.favourite.extra-card)."""
    sc, seat, hand, pile, gpile, disc, pen, draws = tb
    who = draws[sc[S_DRAW_AT]]
    size = sc[S_PILE]
    i = below(rng, size)
    t = pile[i]
    p = _in_pile(pile, size, t) / size if debug else 0.0  # plumbing: the probability only for the debug record
    pile[i] = pile[size - 1]
    sc[S_PILE] = size - 1
    hand[who, t] += 1
    seat[who, F_HAND] += 1
    sc[S_DRAW_AT] += 1
    sc[S_DRAW_N] -= 1
    if sc[S_DRAW_N] == 0:  # rule: jd23.draw.guest-leaves-hungry
        _after_draws(sc, seat, gpile, disc, prm)
    return C_DRAW + who * MAX_KINDS + t, 0, p


@njit(cache=True)
def _turn_up_step(tb, prm, rng):
    """jd23.round.turn-up-guest: a guest from the guest pile, each equally likely; every seat
    now owes an answer.  Under jd23.ruling.guest-pile-empty = at-last-turn-up the pile has run
    out the moment its last guest is up."""
    sc, seat, hand, pile, gpile, disc, pen, draws = tb
    size = sc[S_GPILE]
    i = below(rng, size)
    g = gpile[i]
    gpile[i] = gpile[size - 1]
    sc[S_GPILE] = size - 1
    sc[S_GUEST] = g
    sc[S_PHASE] = ANSWER
    for s in range(prm[P_PLAYERS]):
        seat[s, F_ANSWER] = NOT_YET
    if size == 1 and prm[P_AT_LAST_TURN_UP]:  # rule: jd23.ruling.guest-pile-empty
        _guest_pile_ran_out(sc, gpile, disc, prm)
    return C_TURN_UP + g, 0, 1.0 / size


@njit(cache=True)
def _answer_step(tb, prm, rng):
    """The first seat yet to answer says call or pass, each equally likely (jd23.call.got-it,
    jd23.call.pass: both are always allowed)."""
    sc, seat, hand, pile, gpile, disc, pen, draws = tb
    who = 0
    while seat[who, F_ANSWER] != NOT_YET:  # plumbing: the first seat yet to answer
        who += 1
    called = below(rng, 2) == 0
    _answer(sc, seat, gpile, disc, pen, draws, prm, who, called)
    return (C_CALL if called else C_PASS), 2, 0.0  # rule: jd23.call.got-it, jd23.call.pass


@njit(cache=True)
def _race_outcome(sc, prm, rng, k):
    """(place among the ``k`` contenders, or -1 for a truly simultaneous call; its
    probability): after a trump every trumper equally (jd23.call.favourite-trump), else with
    the odds of jd23.ruling.race-odds (jd23.call.simultaneous)."""
    if sc[S_TRUMPED]:  # rule: jd23.call.favourite-trump
        return below(rng, k), 1.0 / k
    if prm[P_EQUAL_ODDS]:  # rule: jd23.ruling.race-odds
        r = below(rng, k + 1)
        return (-1 if r == k else r), 1.0 / (k + 1)  # rule: jd23.call.simultaneous (the last outcome is the tie)
    if below(rng, 10) == 0:  # rule: jd23.ruling.race-odds (one in ten)
        return -1, 0.1
    return below(rng, k), 0.9 / k


@njit(cache=True)
def _favourite_gap(tb, deck, prm, work):
    """v23._favourite_gap: under jd23.ruling.favourite-trump = strict, a race among live
    callers where one holds a favourite serving is the trump the text never explains."""
    sc, seat, hand, pile, gpile, disc, pen, draws = tb
    if not strict(prm, G_FAVOURITE_TRUMP):  # rule: jd23.ruling.favourite-trump
        return False
    n = prm[P_PLAYERS]
    if _live_callers(seat, n) < 2:  # rule: jd23.ruling.favourite-trump
        return False
    for s in range(n):
        # rule: jd23.ruling.favourite-trump
        if (
            seat[s, F_ANSWER] == CALLED
            and not seat[s, F_MISTAKEN]
            and _favourite_servings(hand, s, sc[S_GUEST], deck, prm, work) > 0
        ):
            return True
    return False


@njit(cache=True)
def _race_step(tb, deck, prm, work, rng):
    """Chance decides who of the contenders called first, or that the call was truly
    simultaneous (jd23.call.first-serves, jd23.call.simultaneous); under
    jd23.ruling.favourite-trump = strict the model lists no outcome while a live caller holds
    a favourite (no action: the gap)."""
    sc, seat, hand, pile, gpile, disc, pen, draws = tb
    kinds, counts, out, who_of = work
    if not sc[S_TRUMPED] and _favourite_gap(tb, deck, prm, work):  # rule: jd23.ruling.favourite-trump
        _stop_at_gap(sc, G_FAVOURITE_TRUMP)
        return NO_CODE, 0, 0.0
    n = prm[P_PLAYERS]
    k = 0
    for s in range(n):
        if _is_contender(sc, seat, s):  # rule: jd23.call.first-serves
            who_of[k] = s
            k += 1
    r, p = _race_outcome(sc, prm, rng, k)
    if r < 0:  # rule: jd23.call.simultaneous
        _simultaneous(tb, deck, prm, work)
        return C_SIMULTANEOUS, 0, p
    who = who_of[r]
    sc[S_FIRST] = who
    sc[S_PHASE] = SERVE
    if sc[S_TRUMPED]:  # rule: jd23.call.favourite-trump
        sc[S_TRUMPED] = 0
        for s in range(n):
            seat[s, F_TRUMP] = NOT_ASKED
    # rule: jd23.ruling.favourite-trump (every other live caller is asked whatever its hand)
    elif prm[P_TRUMP] and k > 1:
        sc[S_PHASE] = TRUMP
        for s in range(n):
            # rule: jd23.call.favourite-trump
            seat[s, F_TRUMP] = ASKED if _is_contender(sc, seat, s) and s != who else NOT_ASKED
    return C_FIRST + who, 0, p


@njit(cache=True)
def _simultaneous(tb, deck, prm, work):
    """jd23.call.simultaneous: the guest walks away and everyone draws; under
    jd23.ruling.simultaneous-mistaken = penalty a caller in the tie who could not have
    served pays first (strict: such a caller is the gap)."""
    sc, seat, hand, pile, gpile, disc, pen, draws = tb
    unable = np.zeros(prm[P_PLAYERS], dtype=np.int64)
    anyone = False
    for s in range(prm[P_PLAYERS]):
        # rule: jd23.ruling.simultaneous-mistaken
        if _is_contender(sc, seat, s) and not _can_serve(hand, s, sc[S_GUEST], deck, prm, work):
            unable[s] = 1
            anyone = True
    if anyone and strict(prm, G_SIMULTANEOUS_MISTAKEN):  # rule: jd23.ruling.simultaneous-mistaken
        _stop_at_gap(sc, G_SIMULTANEOUS_MISTAKEN)
    elif anyone and prm[P_SIMULTANEOUS_PENALTY]:  # rule: jd23.ruling.simultaneous-mistaken
        _start_penalties(sc, seat, gpile, disc, pen, draws, prm, unable)
    else:
        _guest_leaves_hungry(sc, seat, gpile, disc, draws, prm)


@njit(cache=True)
def _trump_step(tb, deck, prm, work):
    """The next caller asked says Favourite if it holds a favourite serving, else pass (its
    only move: jd23.call.favourite-trump); once all are asked, the first caller answers a
    trump (phase counter) or serves."""
    sc, seat, hand, pile, gpile, disc, pen, draws = tb
    n = prm[P_PLAYERS]
    who = _next_asked(sc, seat, n)
    has = _favourite_servings(hand, who, sc[S_GUEST], deck, prm, work) > 0
    seat[who, F_TRUMP] = HAS_FAVOURITE if has else NO_FAVOURITE  # rule: jd23.call.favourite-trump
    if _next_asked(sc, seat, n) < 0:  # rule: jd23.call.favourite-trump (all asked)
        trumped = False
        for s in range(n):
            if seat[s, F_TRUMP] == HAS_FAVOURITE:  # rule: jd23.call.favourite-trump
                trumped = True
        if trumped:  # rule: jd23.call.favourite-trump
            sc[S_PHASE] = COUNTER
        else:
            sc[S_PHASE] = SERVE
            for s in range(n):
                seat[s, F_TRUMP] = NOT_ASKED
    return (C_FAVOURITE if has else C_PASS), 1, 0.0  # rule: jd23.call.favourite-trump


@njit(cache=True)
def _counter_step(tb, deck, prm, work):
    """The first caller answers a trump with its own Favourite (its only move if it holds a
    favourite serving) and keeps the guest; else the one trumper serves, or the trumpers race
    again (jd23.call.favourite-trump)."""
    sc, seat, hand, pile, gpile, disc, pen, draws = tb
    n = prm[P_PLAYERS]
    first = sc[S_FIRST]
    has = _favourite_servings(hand, first, sc[S_GUEST], deck, prm, work) > 0
    k, last = 0, -1
    for s in range(n):
        if seat[s, F_TRUMP] == HAS_FAVOURITE:  # rule: jd23.call.favourite-trump
            k += 1
            last = s
    if has or k == 1:  # rule: jd23.call.favourite-trump
        sc[S_PHASE] = SERVE
        sc[S_FIRST] = first if has else last  # rule: jd23.call.favourite-trump (the first caller keeps the guest)
        for s in range(n):
            seat[s, F_TRUMP] = NOT_ASKED
    else:
        sc[S_PHASE] = RACE
        sc[S_FIRST] = -1
        sc[S_TRUMPED] = 1
    return (C_FAVOURITE if has else C_PASS), 1, 0.0  # rule: jd23.call.favourite-trump


@njit(cache=True)
def _offered(tb, deck, prm, work):
    """(how many servings the first caller's hand holds, how many of them it is offered,
    whether only its favourite servings are: v23.offered_servings under
    jd23.ruling.favourite-trump); the servings are listed in ``work``."""
    sc, seat, hand, pile, gpile, disc, pen, draws = tb
    refuses, wants, full, fav = deck
    kinds, counts, out, who_of = work
    g = sc[S_GUEST]
    k = servings(hand[sc[S_FIRST]], g, refuses, wants, full, prm[P_MINIMAL] == 1, kinds, counts, out)
    if not prm[P_TRUMP] or k == 0 or _live_callers(seat, prm[P_PLAYERS]) < 2:  # rule: jd23.ruling.favourite-trump
        return k, k, False
    kf = 0
    for r in range(k):
        if favourites_in(out, r, g, fav, prm[P_ALONE_ONLY] == 1) > 0:  # rule: jd23.favourite.extra-card
            kf += 1
    if kf == 0:  # rule: jd23.ruling.favourite-trump (no favourite serving: any serving)
        return k, k, False
    return k, kf, True


@njit(cache=True)
def _nth_offered(out, k, r, g, fav, alone_only, only_favourites):
    """The row of the ``r``-th offered serving among the ``k`` listed."""
    if not only_favourites:  # rule: jd23.ruling.favourite-trump
        return r
    for q in range(k):
        if favourites_in(out, q, g, fav, alone_only) > 0:  # rule: jd23.favourite.extra-card
            if r == 0:  # plumbing: the r-th favourite serving
                return q
            r -= 1
    return -1


@njit(cache=True)
def _serve_step(tb, deck, prm, work, rng):
    """The first caller serves one of the servings offered, each equally likely, or fails
    when none is (jd23.call.first-serves, jd23.call.erroneous-covered)."""
    sc, seat, hand, pile, gpile, disc, pen, draws = tb
    refuses, wants, full, fav = deck
    kinds, counts, out, who_of = work
    who = sc[S_FIRST]
    listed, k, only_favourites = _offered(tb, deck, prm, work)
    choices = k + 1 if k > 0 and prm[P_MAY_DECLINE] else k  # rule: jd23.ruling.decline-after-call
    pick = below(rng, choices) if k > 0 else 0  # plumbing: no choice to draw when nothing is offered
    if k == 0 or pick == k:  # rule: jd23.call.erroneous-covered, jd23.ruling.decline-after-call
        seat[who, F_MISTAKEN] = 1
        sc[S_FIRST] = -1
        _contest(sc, seat, gpile, disc, pen, draws, prm)
        return C_FAIL, max(choices, 1), 0.0
    g = sc[S_GUEST]
    alone_only = prm[P_ALONE_ONLY] == 1
    r = _nth_offered(out, listed, pick, g, fav, alone_only, only_favourites)
    code = serve_code(out, r)
    _serve(tb, prm, who, out, r, favourites_in(out, r, g, fav, alone_only))
    return code, choices, 0.0


@njit(cache=True)
def _serve(tb, prm, who, out, r, used):
    """jd23.serve.reveal-dirty-dishes: the cards go to the server's dirty dishes, the guest to
    its collection; a favourite earns extra cards (jd23.favourite.extra-card, two at once:
    jd23.ruling.two-favourites)."""
    sc, seat, hand, pile, gpile, disc, pen, draws = tb
    size = 0
    for j in range(3):
        t = out[r, j]
        if t >= 0:  # plumbing: a serving of one to three cards
            hand[who, t] -= 1
            size += 1
    seat[who, F_HAND] -= size
    seat[who, F_DISHES] += size
    seat[who, F_COLLECTED] += 1
    sc[S_GUEST] = -1
    for s in range(prm[P_PLAYERS]):
        seat[s, F_ANSWER] = NOT_YET
        seat[s, F_MISTAKEN] = 0
    sc[S_FIRST] = -1
    if used > 1 and strict(prm, G_TWO_FAVOURITES):  # rule: jd23.ruling.two-favourites
        _stop_at_gap(sc, G_TWO_FAVOURITES)
        return
    # rule: jd23.favourite.extra-card, jd23.ruling.two-favourites
    extra = used if used <= 1 or prm[P_CARD_PER_FAVOURITE] else 1
    if extra:  # rule: jd23.favourite.extra-card
        _favourite_draws(sc, seat, gpile, disc, draws, prm, who, extra)
    else:
        _next_round(sc, seat, gpile, disc, prm)


@njit(cache=True)
def _penalty_step(tb, prm, rng):
    """The next mistaken caller loses a card from its hand, each equally likely, to the pile
    jd23.ruling.penalty-pile names; the taker is jd23.ruling.penalty-taker's
    (jd23.call.erroneous-penalty).  Under jd23.ruling.penalty-taker = strict the model lists
    no outcome (no action: the gap)."""
    sc, seat, hand, pile, gpile, disc, pen, draws = tb
    if strict(prm, G_PENALTY_TAKER):  # rule: jd23.ruling.penalty-taker
        _stop_at_gap(sc, G_PENALTY_TAKER)
        return NO_CODE, 0, 0.0
    n = prm[P_PLAYERS]
    who = pen[sc[S_PEN_AT]]
    taker = 0 if prm[P_MAITRE_D_TAKES] and who != 0 else (who + 1) % n  # rule: jd23.ruling.penalty-taker
    size = seat[who, F_HAND]
    t = _pick_card(hand[who], below(rng, size))
    p = hand[who, t] / size
    hand[who, t] -= 1
    seat[who, F_HAND] -= 1
    if prm[P_PENALTY_PILE] == PILE_CALLER:  # rule: jd23.ruling.penalty-pile
        seat[who, F_DISHES] += 1
    elif prm[P_PENALTY_PILE] == PILE_TAKER:  # rule: jd23.ruling.penalty-pile
        seat[taker, F_DISHES] += 1
    sc[S_PEN_AT] += 1
    sc[S_PEN_N] -= 1
    if sc[S_PEN_N] == 0:  # rule: jd23.call.erroneous-penalty
        _guest_leaves_hungry(sc, seat, gpile, disc, draws, prm)
    return C_PENALTY + (taker * MAX_SEATS + who) * MAX_KINDS + t, 0, p


@njit(cache=True)
def _step(tb, deck, prm, work, rng, debug):
    """One action in the table's phase (v23.to_move says whose)."""
    ph = tb[0][S_PHASE]
    if ph == DEAL or ph == DRAW:  # rule: jd23.setup.deal-five, jd23.draw.guest-leaves-hungry
        return _draw_step(tb, prm, rng, debug)
    if ph == TURN_UP:  # rule: jd23.round.turn-up-guest
        return _turn_up_step(tb, prm, rng)
    if ph == ANSWER:  # rule: jd23.call.got-it
        return _answer_step(tb, prm, rng)
    if ph == RACE:  # rule: jd23.call.simultaneous
        return _race_step(tb, deck, prm, work, rng)
    if ph == TRUMP:  # rule: jd23.call.favourite-trump
        return _trump_step(tb, deck, prm, work)
    if ph == COUNTER:  # rule: jd23.call.favourite-trump
        return _counter_step(tb, deck, prm, work)
    if ph == SERVE:  # rule: jd23.call.first-serves
        return _serve_step(tb, deck, prm, work, rng)
    if ph == PENALTY:  # rule: jd23.call.erroneous-penalty
        return _penalty_step(tb, prm, rng)
    return -1, 0, 0.0


# --------------------------------------------------------------------------- the end


@njit(cache=True)
def _better(seat, a, b):
    """Does seat ``a`` rank above seat ``b`` (v23.ranking_key: guests, then desserts in hand,
    then fewer dirty dishes)?"""
    if seat[a, F_COLLECTED] != seat[b, F_COLLECTED]:  # rule: jd23.score.guests
        return seat[a, F_COLLECTED] > seat[b, F_COLLECTED]
    if seat[a, F_HAND] != seat[b, F_HAND]:  # rule: jd23.score.tiebreak-hand
        return seat[a, F_HAND] > seat[b, F_HAND]
    return seat[a, F_DISHES] < seat[b, F_DISHES]  # rule: jd23.score.tiebreak-dirty-dishes


@njit(cache=True)
def _winners(seat, prm):
    """The seats with the most guests, then most desserts in hand, then fewest dirty dishes
    (jd23.score.guests, jd23.score.tiebreak-hand, jd23.score.tiebreak-dirty-dishes), as a
    bit mask; a full tie names nobody unless jd23.ruling.full-tie = shared-win."""
    n = prm[P_PLAYERS]
    best = 0
    for s in range(1, n):
        # rule: jd23.score.guests, jd23.score.tiebreak-hand, jd23.score.tiebreak-dirty-dishes
        if _better(seat, s, best):
            best = s
    mask, top = 0, 0
    for s in range(n):
        if not _better(seat, best, s):  # rule: jd23.score.full-tie (level with the best on every count)
            mask |= 1 << s
            top += 1
    if top > 1 and not prm[P_SHARED_WIN]:  # rule: jd23.ruling.full-tie
        return 0
    return mask


# --------------------------------------------------------------------------- the loop


@njit(cache=True)
def play(start_sc, start_seat, start_hand, start_pile, start_gpile, start_disc, start_pen, start_draws,
         prm, refuses, wants, full, fav, games, rng, codes, among, odds, debug, ends, winners, gaps, capacity):
    """Play up to ``games`` games at random from the table ``start_*``: each game's codes go
    into ``codes`` one after another (``ends[g]`` where game g's end), the winners as a bit
    mask (``winners[g]``), the GAPS index of the strict ruling that stopped it or -1
    (``gaps[g]``; no winners then).  A game starts only while ``capacity`` more codes fit; returns
    (how many games were played, or REFUSED if a game ran past its capacity; codes written).
    With ``debug`` ``among`` gets each seat step's number of moves (0 at chance) and ``odds``
    each chance outcome's probability."""
    n = prm[P_PLAYERS]
    T = start_hand.shape[1]
    bound = T + T * (T + 1) // 2 + T * (T + 1) * (T + 2) // 6
    work = (np.zeros(T, dtype=np.int64), np.zeros(T, dtype=np.int64), np.zeros((bound, 3), dtype=np.int64),
            np.zeros(n, dtype=np.int64))
    deck = (refuses, wants, full, fav)
    tb = (start_sc.copy(), start_seat.copy(), start_hand.copy(), start_pile.copy(), start_gpile.copy(),
          start_disc.copy(), start_pen.copy(), start_draws.copy())
    sc, seat = tb[0], tb[1]
    pos = 0
    played = 0
    while played < games and pos + capacity <= codes.shape[0]:  # plumbing: a game starts only if its longest fits
        _reset(tb, start_sc, start_seat, start_hand, start_pile, start_gpile, start_disc, start_pen, start_draws)
        limit = pos + capacity
        while sc[S_PHASE] != OVER:  # rule: jd23.end.second-exhaustion
            if pos >= limit:  # plumbing: a game longer than its capacity is refused, never overrun
                return REFUSED, pos
            code, choices, p = _step(tb, deck, prm, work, rng, debug)
            if code == NO_CODE:  # plumbing: a gap met while the model lists the next outcomes: no action
                break
            if code < 0:  # plumbing: a phase the loop does not know
                return REFUSED, pos
            codes[pos] = code
            if debug:  # plumbing: the per-step record the tests compare with the model
                among[pos] = choices
                odds[pos] = p
            pos += 1
        ends[played] = pos
        gaps[played] = sc[S_GAP]
        winners[played] = _winners(seat, prm) if sc[S_GAP] < 0 else 0  # plumbing: a game stopped at a gap names nobody
        played += 1
    return played, pos


@njit(cache=True)
def _reset(tb, start_sc, start_seat, start_hand, start_pile, start_gpile, start_disc, start_pen, start_draws):
    """The table back at the start."""
    tb[0][:] = start_sc
    tb[1][:, :] = start_seat
    tb[2][:, :] = start_hand
    tb[3][:] = start_pile
    tb[4][:] = start_gpile
    tb[5][:] = start_disc
    tb[6][:] = start_pen
    tb[7][:] = start_draws
