"""The inner loops of the compact Dishes rules, compiled with Numba (one row at a time).

:mod:`tablerules.model.dishes.compact` describes the rows and the rules they follow; this
module holds only the loops that run for every row, written as plain Python over arrays
so Numba can compile them (set NUMBA_DISABLE_JIT=1 to run them as Python).  Every rule is
cited where it is decided.  ``prm`` is the kernel's parameter vector (see ``P_*`` below).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..compact_loops import mix64

# functions that decide nothing about play, and why (the decision-point finder reads this)
PLUMBING = {
    "pile_masks": "a pile's top tile",
    "_bits": "counts set bits",
    ("gcd", "_popcount"): "arithmetic",
    "normalise": "a fixed deal decides every colour",
    ("_shape", "_cx", "_sort_by_network", "_encode", "_less", "_equal", "canonical_rows", "_packed_runs"):
        "canonical form (relabelling kinds and colours), decides nothing about play",
}

KIND_CLEAN, KIND_EMPTY, NO_COLOUR = 6, 7, 4
NT = 6

# positions in the parameter vector
P_S, P_L, P_C, P_N, P_TRACK, P_MASKS, P_USED, P_LC, P_NLC, P_TW, P_W, P_MOVE, P_DEAL, P_STUCK_ENDS, P_SETS, P_TYPES = (
    range(16)
)
P_SIZE = 16
MOVE_OWN_PLACES, MOVE_OWN_TOP, MOVE_ANY = 0, 1, 2
DEAL_FOUR_SETS, DEAL_COLOUR_SETS, DEAL_FREE, DEAL_LAYOUT_SETS, DEAL_FIXED = 0, 1, 2, 3, 4

TOP_BIT = np.uint64(1) << np.uint64(63)


def _hash_table(salt: int) -> np.ndarray:
    """Fixed pseudo-random 64-bit values for each (place shape, layout) code (splitmix64 of
    code + salt): the canonical form's invariants look them up instead of hashing."""
    out = np.empty(2048, dtype=np.uint64)
    for x in range(2048):
        z = (x + salt) & 0xFFFFFFFFFFFFFFFF
        z ^= z >> 30
        z = (z * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z ^= z >> 27
        z = (z * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        z ^= z >> 31
        out[x] = z
    return out


H_PLACE = _hash_table(0x1000)
H_TOP = _hash_table(0x2000)


# --------------------------------------------------------------------------- moves


@njit(cache=True, inline="always")
def movable(row, prm, slot_owner, layout_owner, seat, p):
    """May ``seat`` move the pile at place ``p``? (dishes.ruling.movable-stacks)"""
    S = prm[P_S]
    if row[1 + p] >= 6:  # plumbing: no pile here
        return False
    rule = prm[P_MOVE]
    if rule == MOVE_ANY:  # rule: dishes.ruling.movable-stacks
        return True
    if rule == MOVE_OWN_PLACES:  # rule: dishes.ruling.movable-stacks
        return slot_owner[p] == seat
    return layout_owner[row[1 + 3 * S + p]] == seat  # own-top: the top tile was dealt to the seat


@njit(cache=True, inline="always")
def pile_masks(row, S, kmask, cmask):
    """Bit masks of the places whose pile shows each kind (kmask) and each colour (cmask),
    and the mask of all piles: what a placement may land on (dishes.play.top-counts)."""
    for k in range(NT):
        kmask[k] = 0
    for c in range(8):
        cmask[c] = 0
    piles = 0
    for s in range(S):
        v = row[1 + s]
        if v < 6:
            kmask[v] |= 1 << s
            cmask[row[1 + S + s]] |= 1 << s
            piles |= 1 << s
    return piles


@njit(cache=True, inline="always")
def targets(row, S, p, kmask, cmask):
    """Where the pile at ``p`` may go: another pile of the same kind or colour
    (dishes.play.place-dirty, dishes.play.place-match)."""
    return (kmask[row[1 + p]] | cmask[row[1 + S + p]]) & ~(1 << p)


@njit(cache=True, inline="always")
def _bits(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def count_actions(row, prm, slot_owner, layout_owner, seat, kmask, cmask):
    """How many actions ``seat`` has: flips of its clean tiles and placements (dishes.play.one-move)."""
    S = prm[P_S]
    n = 0
    pile_masks(row, S, kmask, cmask)
    for s in range(S):
        if row[1 + s] == KIND_CLEAN and slot_owner[s] == seat:  # rule: dishes.play.turn-own-tile
            n += 1
        elif movable(row, prm, slot_owner, layout_owner, seat, s):  # rule: dishes.ruling.movable-stacks
            n += _bits(targets(row, S, s, kmask, cmask))
    return n


@njit(cache=True, inline="always")
def has_action(row, prm, slot_owner, layout_owner, seat, kmask, cmask):
    S = prm[P_S]
    for s in range(S):
        if row[1 + s] == KIND_CLEAN and slot_owner[s] == seat:  # rule: dishes.play.turn-own-tile
            return True
    pile_masks(row, S, kmask, cmask)
    for s in range(S):
        # rule: dishes.ruling.movable-stacks, dishes.play.place-match
        if movable(row, prm, slot_owner, layout_owner, seat, s) and targets(row, S, s, kmask, cmask) != 0:
            return True
    return False


@njit(cache=True, inline="always")
def fact(n):
    out = 1
    for i in range(2, n + 1):
        out *= i
    return out


@njit(cache=True, inline="always")
def gcd(a, b):
    while b:
        a, b = b, a % b
    return a


@njit(cache=True, inline="always")
def _uniform_free(taken, C, out_c, out_num, out_den):
    """Each of the ``C`` colours not in the bit mask ``taken``, equally likely; returns how many."""
    free = 0
    for c in range(C):
        if not (taken >> c) & 1:  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
            free += 1
    n = 0
    for c in range(C):
        if not (taken >> c) & 1:  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
            out_c[n], out_num[n], out_den[n] = c, 1, free
            n += 1
    return n


@njit(cache=True, inline="always")
def reveal(row, prm, fixed, slot, out_c, out_num, out_den):
    """The chance outcomes when the clean tile at ``slot`` is turned: colours with exact
    probabilities (deferred decisions; dishes.ruling.colour-model and the deal rulings).
    Writes into the out arrays; returns how many."""
    S, L, C, tw = prm[P_S], prm[P_L], prm[P_C], prm[P_TW]
    deal = prm[P_DEAL]
    k = slot % NT
    if deal == DEAL_FIXED:  # plumbing: a fixed deal decides every colour
        out_c[0], out_num[0], out_den[0] = fixed[slot], 1, 1
        return 1
    if deal == DEAL_FREE:  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
        for c in range(C):
            out_c[c], out_num[c], out_den[c] = c, 1, C
        return C
    if deal == DEAL_LAYOUT_SETS:  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
        lc0 = prm[P_LC]
        own = row[lc0 + slot // NT]
        if own != NO_COLOUR:  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
            out_c[0], out_num[0], out_den[0] = own, 1, 1
            return 1
        taken = 0
        for m in range(L):
            if row[lc0 + m] != NO_COLOUR:  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
                taken |= 1 << row[lc0 + m]
        return _uniform_free(taken, C, out_c, out_num, out_den)
    mask = row[prm[P_MASKS] + k]
    if deal == DEAL_FOUR_SETS:  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
        return _uniform_free(mask, C, out_c, out_num, out_den)
    # colour-sets: weigh each set of colours in play by the deals it allows
    sets = prm[P_SETS]
    used = row[prm[P_USED]]
    shown = np.zeros(NT, dtype=np.int64)
    for s in range(S):
        if row[1 + s] != KIND_CLEAN:  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
            shown[s % NT] += 1
    base = 0
    weights = np.zeros(C, dtype=np.int64)
    for subset in range(1 << C):
        # rule: dishes.ruling.colour-model, dishes.components.colour-sets
        if _popcount(subset) != sets or (used & ~subset):
            continue
        w = 1
        for j in range(NT):
            w *= fact(max(sets - shown[j], 0))
        base += w
        for c in range(C):
            # rule: dishes.ruling.colour-model, dishes.components.colour-sets
            if (subset >> c) & 1 and not (mask >> c) & 1:
                w2 = 1
                for j in range(NT):
                    # rule: dishes.ruling.colour-model, dishes.components.colour-sets
                    w2 *= fact(max(sets - shown[j] - (1 if j == k else 0), 0))
                weights[c] += w2
    n = 0
    for c in range(C):
        if weights[c] > 0:  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
            g = gcd(weights[c], base)
            out_c[n], out_num[n], out_den[n] = c, weights[c] // g, base // g
            n += 1
    return n


@njit(cache=True, inline="always")
def _popcount(x):
    n = 0
    while x:
        n += x & 1
        x >>= 1
    return n


@njit(cache=True, inline="always")
def remember(child, prm, slot, colour):
    """Keep what later chance events need (see compact, 'What a row keeps')."""
    if prm[P_DEAL] == DEAL_FIXED:  # plumbing: a fixed deal decides every colour
        return
    # rule: dishes.ruling.colour-model, dishes.components.colour-sets
    if prm[P_DEAL] == DEAL_FOUR_SETS or prm[P_DEAL] == DEAL_COLOUR_SETS:
        child[prm[P_MASKS] + slot % NT] |= 1 << colour
    if prm[P_DEAL] == DEAL_COLOUR_SETS:  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
        child[prm[P_USED]] |= 1 << colour
    if prm[P_DEAL] == DEAL_LAYOUT_SETS:  # rule: dishes.ruling.colour-model, dishes.components.colour-sets
        child[prm[P_LC] + slot // NT] = colour


@njit(cache=True, inline="always")
def normalise(row, prm):
    """Forget memory no future chance event can use."""
    S, L, deal = prm[P_S], prm[P_L], prm[P_DEAL]
    if deal == DEAL_FIXED or deal == DEAL_FREE:
        return
    any_clean = False
    for s in range(S):
        if row[1 + s] == KIND_CLEAN:
            any_clean = True
    if deal == DEAL_FOUR_SETS or deal == DEAL_COLOUR_SETS:
        for k in range(NT):
            clean = False
            for m in range(L):
                if row[1 + m * NT + k] == KIND_CLEAN:
                    clean = True
            if not clean:
                row[prm[P_MASKS] + k] = 0
    if deal == DEAL_COLOUR_SETS and not any_clean:
        row[prm[P_USED]] = 0
    if deal == DEAL_LAYOUT_SETS and not any_clean:
        for m in range(L):
            row[prm[P_LC] + m] = NO_COLOUR


@njit(cache=True)
def expand_rows(rows, prm, slot_owner, layout_owner, fixed):
    """Every action of the player to move in each row and its chance outcomes; then the
    forced passes (dishes.ruling.stuck-player).  Returns (children, parent, action, p_num,
    p_den, actions per parent, passes)."""
    N, W = rows.shape
    S, C, n_pl = prm[P_S], prm[P_C], prm[P_N]
    oc = np.zeros(8, dtype=np.int64)
    on = np.zeros(8, dtype=np.int64)
    od = np.zeros(8, dtype=np.int64)
    kmask = np.zeros(NT, dtype=np.int64)
    cmask = np.zeros(8, dtype=np.int64)
    actions = np.zeros(N, dtype=np.int64)
    next_has_clean = np.zeros(N, dtype=np.bool_)
    total = 0
    for i in range(N):  # first pass: how many children
        row = rows[i]
        seat = row[0]
        nxt = (seat + 1) % n_pl
        actions[i] = count_actions(row, prm, slot_owner, layout_owner, seat, kmask, cmask)
        for s in range(S):
            if row[1 + s] == KIND_CLEAN and slot_owner[s] == seat:  # rule: dishes.play.turn-own-tile
                total += reveal(row, prm, fixed, s, oc, on, od) - 1  # the flip itself is counted in actions
            elif row[1 + s] == KIND_CLEAN and slot_owner[s] == nxt:  # plumbing: see next_has_clean below
                next_has_clean[i] = True
        total += actions[i]
    children = np.empty((total, W), dtype=np.uint8)
    parent = np.empty(total, dtype=np.int64)
    action = np.empty(total, dtype=np.int32)
    p_num = np.empty(total, dtype=np.int64)
    p_den = np.empty(total, dtype=np.int64)
    j = 0
    for i in range(N):
        row = rows[i]
        seat = row[0]
        for s in range(S):
            if not (row[1 + s] == KIND_CLEAN and slot_owner[s] == seat):  # rule: dishes.play.turn-own-tile
                continue
            n = reveal(row, prm, fixed, s, oc, on, od)
            for r in range(n):
                child = children[j]
                child[:] = row
                child[1 + s] = s % NT  # the tile shows its dirty side (dishes.play.turn-own-tile)
                child[1 + S + s] = oc[r]
                child[1 + 2 * S + s] = 1
                if prm[P_TRACK]:  # rule: dishes.ruling.movable-stacks
                    child[1 + 3 * S + s] = s // NT
                remember(child, prm, s, oc[r])
                parent[j], action[j], p_num[j], p_den[j] = i, s, on[r], od[r]
                j += 1
        pile_masks(row, S, kmask, cmask)
        for p in range(S):
            if not movable(row, prm, slot_owner, layout_owner, seat, p):  # rule: dishes.ruling.movable-stacks
                continue
            where = targets(row, S, p, kmask, cmask)
            for q in range(S):
                if not (where >> q) & 1:  # rule: dishes.play.place-dirty, dishes.play.place-match
                    continue
                child = children[j]
                child[:] = row
                # the whole pile moves onto the other (dishes.play.move-whole-stack)
                child[1 + q], child[1 + S + q] = row[1 + p], row[1 + S + p]
                child[1 + 2 * S + q] = row[1 + 2 * S + q] + row[1 + 2 * S + p]
                child[1 + p], child[1 + S + p], child[1 + 2 * S + p] = KIND_EMPTY, NO_COLOUR, 0
                if prm[P_TRACK]:  # rule: dishes.ruling.movable-stacks
                    child[1 + 3 * S + q] = row[1 + 3 * S + p]
                    child[1 + 3 * S + p] = 0
                parent[j], action[j], p_num[j], p_den[j] = i, S + p * S + q, 1, 1
                j += 1
    # the turn passes clockwise (dishes.play.clockwise); a stuck player passes while another can act
    n_pass = 0
    # rule: dishes.ruling.stuck-player
    pass_rows = np.empty((total * (n_pl - 1) if not prm[P_STUCK_ENDS] else 0, W), dtype=np.uint8)
    for j in range(total):
        child = children[j]
        child[0] = (child[0] + 1) % n_pl
        if action[j] < S:  # plumbing: a move leaves every clean tile as it was; only a flip can idle the memory
            normalise(child, prm)
        if prm[P_STUCK_ENDS]:  # rule: dishes.ruling.stuck-player
            continue
        # plumbing: the next seat (another seat) keeps its clean tiles through any action, and a clean tile is an
        # action (dishes.play.turn-own-tile): it cannot be stuck, which is what the loop below would find, slower
        if next_has_clean[parent[j]]:
            continue
        for _ in range(n_pl - 1):
            # rule: dishes.ruling.stuck-player
            if has_action(child, prm, slot_owner, layout_owner, child[0], kmask, cmask):
                break
            anyone = False
            for t in range(n_pl):
                if has_action(child, prm, slot_owner, layout_owner, t, kmask, cmask):  # rule: dishes.end.no-moves
                    anyone = True
                    break
            if not anyone:  # rule: dishes.end.no-moves
                break  # nobody can act: the game is over (dishes.end.no-moves)
            pass_rows[n_pass] = child
            n_pass += 1
            child[0] = (child[0] + 1) % n_pl
    return children, parent, action, p_num, p_den, actions, pass_rows[:n_pass]


# --------------------------------------------------------------------------- canonical form


@njit(cache=True, inline="always")
def _h(x):
    return mix64(np.uint64(x))


@njit(cache=True, inline="always")
def _shape(row, S, s, track):
    """A place, label-free: empty 0, clean 1, else pile height, whether its top is of the
    place's own kind, and the top tile's layout of origin."""
    k = row[1 + s]
    if k == KIND_EMPTY:
        return np.uint64(0)
    if k == KIND_CLEAN:
        return np.uint64(1)
    v = 2 + 2 * np.int64(row[1 + 2 * S + s]) + (1 if k == s % NT else 0)
    if track:
        v += 64 * np.int64(row[1 + 3 * S + s])
    return np.uint64(v)


@njit(cache=True, inline="always")
def _cx(a, i, j):
    x, y = a[i], a[j]
    a[i] = x if x < y else y
    a[j] = y if x < y else x


NETWORK_6 = np.array([(0, 5), (1, 3), (2, 4), (1, 2), (3, 4), (0, 3), (2, 5), (0, 1), (2, 3), (4, 5), (1, 2), (3, 4)])
"""Compare-exchanges that sort 6 words (kinds), in order; NETWORK_4 sorts 4 (colours)."""
NETWORK_4 = np.array([(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)])


@njit(cache=True, inline="always")
def _sort_by_network(a, network):
    """Sort ``a`` by a network of compare-exchanges: no branch on the data, which is random."""
    for x in range(network.shape[0]):
        _cx(a, network[x, 0], network[x, 1])


@njit(cache=True, inline="always")
def _encode(row, out, prm, ko, co, memory, krank, crank):
    """Write ``row`` relabelled (new kind i = old ko[i], new colour j = old co[j]) into ``out``."""
    S, L, C, tw = prm[P_S], prm[P_L], prm[P_C], prm[P_TW]
    track = prm[P_TRACK]
    for i in range(NT):
        krank[ko[i]] = i
    krank[KIND_CLEAN], krank[KIND_EMPTY] = KIND_CLEAN, KIND_EMPTY
    for j in range(C):
        crank[co[j]] = j
    for j in range(C, 8):
        crank[j] = NO_COLOUR
    out[0] = row[0]
    for m in range(L):
        for i in range(NT):
            src = m * NT + ko[i]
            dst = m * NT + i
            out[1 + dst] = krank[row[1 + src]]
            out[1 + S + dst] = crank[row[1 + S + src]]
            out[1 + 2 * S + dst] = row[1 + 2 * S + src]
            if track:
                out[1 + 3 * S + dst] = row[1 + 3 * S + src]
    W = out.shape[0]
    for x in range(tw, W):
        out[x] = 0
    if not memory:
        return
    deal = prm[P_DEAL]
    if deal == DEAL_FOUR_SETS or deal == DEAL_COLOUR_SETS:
        base = prm[P_MASKS]
        for i in range(NT):
            m = row[base + ko[i]]
            v = 0
            for c in range(C):
                v |= ((m >> c) & 1) << crank[c]  # no branch on the data
            out[base + i] = v
    if deal == DEAL_COLOUR_SETS:
        m = row[prm[P_USED]]
        v = 0
        for c in range(C):
            v |= ((m >> c) & 1) << crank[c]
        out[prm[P_USED]] = v
    if deal == DEAL_LAYOUT_SETS:
        for m in range(L):
            out[prm[P_LC] + m] = crank[row[prm[P_LC] + m]]


@njit(cache=True, inline="always")
def _less(a, b):
    for x in range(a.shape[0]):
        if a[x] != b[x]:
            return a[x] < b[x]
    return False


@njit(cache=True, inline="always")
def _equal(a, b):
    for x in range(a.shape[0]):
        if a[x] != b[x]:
            return False
    return True


@njit(cache=True)
def canonical_rows(rows, prm, perm_table, perm_start, memory, want_rows=True):
    """The canonical row of each row under relabelling kinds and colours (see compact,
    'Symmetry'), with the number of relabellings that fix it (the stabiliser, including the
    free ties' factorials) and of colour relabellings that fix it.  Without ``want_rows`` only
    the stabilisers are right: a row whose ties are all free is not written out.

    ``perm_table[perm_start[n]:perm_start[n+1]]`` lists the permutations of n items."""
    N, W = rows.shape
    S, L, C, track = prm[P_S], prm[P_L], prm[P_C], prm[P_TRACK]
    deal = prm[P_DEAL]
    out = np.zeros((N, W), dtype=np.uint8)
    stab = np.ones(N, dtype=np.int64)
    cstab = np.ones(N, dtype=np.int64)
    a0 = np.zeros(8, dtype=np.uint64)
    a1 = np.zeros(8, dtype=np.uint64)
    b0 = np.zeros(8, dtype=np.uint64)
    b1 = np.zeros(8, dtype=np.uint64)
    korder = np.zeros(NT, dtype=np.int64)
    corder = np.zeros(8, dtype=np.int64)
    kfree = np.zeros(NT, dtype=np.bool_)
    cfree = np.zeros(8, dtype=np.bool_)
    ko = np.zeros(NT, dtype=np.int64)
    co = np.zeros(8, dtype=np.int64)
    cand = np.zeros(W, dtype=np.uint8)
    krun_start = np.zeros(NT, dtype=np.int64)
    krun_len = np.zeros(NT, dtype=np.int64)
    crun_start = np.zeros(8, dtype=np.int64)
    crun_len = np.zeros(8, dtype=np.int64)
    kpi = np.zeros(NT, dtype=np.int64)
    cpi = np.zeros(8, dtype=np.int64)
    krank = np.empty(8, dtype=np.int64)
    crank = np.empty(8, dtype=np.int64)
    kref = np.zeros(NT, dtype=np.bool_)
    kbits = np.zeros(NT, dtype=np.int64)
    ctop = np.zeros(8, dtype=np.bool_)
    fact_table = np.array([1, 1, 2, 6, 24, 120, 720, 5040], dtype=np.int64)
    P1, P2, P3, P4 = (
        np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F), np.uint64(0x165667B19E3779F9),
        np.uint64(0xD6E8FEB86659FD93),
    )
    sk = np.zeros(NT, dtype=np.uint64)
    sc = np.zeros(4, dtype=np.uint64)
    base = np.zeros(S, dtype=np.uint64)
    piles = np.zeros(S, dtype=np.int64)
    LOW = ~np.uint64(7)
    PAD = ~np.uint64(0)
    four = deal == DEAL_FOUR_SETS or deal == DEAL_COLOUR_SETS
    for i in range(N):
        row = rows[i]
        # one pass over the places: their label-free shapes, the kinds' sums, what is referenced
        for k in range(NT):
            a0[k] = 0
            kref[k] = False
            kbits[k] = 0
        for c in range(C):
            b0[c] = 0
            ctop[c] = False
        n_piles = 0
        for s in range(S):
            x = _shape(row, S, s, track) * np.uint64(8) + np.uint64(s // NT)  # (shape, layout) < 2048
            base[s] = x
            col = s % NT
            a0[col] += H_PLACE[x]
            v = row[1 + s]
            if v < 6:
                a0[v] += H_TOP[x]
                piles[n_piles] = s
                n_piles += 1
                kref[col] = True  # a pile lies in the kind's column
                kref[v] = True  # a tile of the kind lies on top
                ctop[row[1 + S + s]] = True
            elif v == KIND_CLEAN:
                kbits[col] |= 1 << (s // NT)
        for k in range(NT):
            a0[k] = _h(a0[k])
        # colours: where they lie on top, and the kinds around them
        for z in range(n_piles):
            s = piles[z]
            b0[row[1 + S + s]] += _h(base[s] + np.uint64(0x3000) + a0[s % NT] * P1 + a0[row[1 + s]] * P2)
        for c in range(C):
            b0[c] = _h(b0[c])
        memcols = 0  # colours the memory holds
        if memory:
            if four:
                for k in range(NT):
                    memcols |= row[prm[P_MASKS] + k]
            if deal == DEAL_COLOUR_SETS:
                memcols |= row[prm[P_USED]]
            if deal == DEAL_LAYOUT_SETS:
                for m in range(L):
                    if row[prm[P_LC] + m] != NO_COLOUR:
                        memcols |= 1 << row[prm[P_LC] + m]
        for k in range(NT):
            kfree[k] = not kref[k] and not (memory and four and row[prm[P_MASKS] + k] != 0)
        for c in range(C):
            cfree[c] = not ctop[c] and not ((memcols >> c) & 1 == 1)
        # round 0 keys from a0/b0; only where they leave a tie between referenced kinds or shown colours,
        # refine once (a1/b1) and sort again: whether round 0 ties is itself invariant, so the form stays canonical
        ak = a0
        bc = b0
        for rnd in range(2):
            if rnd == 1:
                for k in range(NT):
                    a1[k] = a0[k]
                for z in range(n_piles):
                    s = piles[z]
                    c = row[1 + S + s]
                    a1[row[1 + s]] += _h(base[s] + np.uint64(0x4000) + b0[c] * P3 + a0[s % NT] * P4)
                    a1[s % NT] += _h(base[s] + np.uint64(0x5000) + b0[c] * P1 + a0[row[1 + s]] * P3)
                for k in range(NT):
                    a1[k] = _h(a1[k])
                for c in range(C):
                    b1[c] = b0[c]
                for z in range(n_piles):
                    s = piles[z]
                    b1[row[1 + S + s]] += _h(base[s] + np.uint64(0x6000) + a1[s % NT] * P2 + a1[row[1 + s]] * P4)
                for c in range(C):
                    b1[c] = _h(b1[c])
                ak = a1
                bc = b1
            # keys with the position in their low 3 bits, sorted by networks of compare-exchanges
            for k in range(NT):
                key = ak[k] & ~TOP_BIT if kref[k] else TOP_BIT | np.uint64(kbits[k] << 3)
                sk[k] = (key & LOW) | np.uint64(k)
            for c in range(4):
                if c < C:
                    key = bc[c] & ~TOP_BIT if ctop[c] else TOP_BIT
                    sc[c] = (key & LOW) | np.uint64(c)
                else:
                    sc[c] = PAD
            _sort_by_network(sk, NETWORK_6)
            _sort_by_network(sc, NETWORK_4)
            for x in range(NT):
                korder[x] = np.int64(sk[x] & np.uint64(7))
            for x in range(C):
                corder[x] = np.int64(sc[x] & np.uint64(7))
            # runs of equal keys: free runs (every member free) are automorphisms; the rest are tried
            nk = _packed_runs(sk, NT, kfree, krun_start, krun_len)
            nc = _packed_runs(sc, C, cfree, crun_start, crun_len)
            # refine only where the table part alone leaves a tie between referenced kinds or shown
            # colours: the memory must not choose the round, or the table part would not be canonical
            tied = False
            for x in range(NT - 1):
                if (sk[x] >> np.uint64(3)) == (sk[x + 1] >> np.uint64(3)) and kref[korder[x]]:
                    tied = True
            for x in range(C - 1):
                if (sc[x] >> np.uint64(3)) == (sc[x + 1] >> np.uint64(3)) and ctop[corder[x]]:
                    tied = True
            if not tied:
                break
        hard = False
        for r in range(nk):
            if krun_len[r] > 1:
                hard = True
        for r in range(nc):
            if crun_len[r] > 1:
                hard = True
        st = 1
        n_unseen = 0
        for c in range(C):
            if cfree[c]:
                n_unseen += 1
        cstab[i] = fact_table[n_unseen]
        for r in range(nk):
            if krun_len[r] < 0:
                st *= fact_table[-krun_len[r]]
        for r in range(nc):
            if crun_len[r] < 0:
                st *= fact_table[-crun_len[r]]
        if not hard:
            if want_rows:
                _encode(row, out[i], prm, korder, corder, memory, krank, crank)
            count = 1
            if not memory:
                e = 0
                for k in range(NT):
                    if not kref[k] and kbits[k] == 0:
                        e += 1
                st = st // fact_table[e] * fact_table[e - (NT - prm[P_TYPES])]
            stab[i] = st
            continue
        # odometer over the permutations of the hard runs
        for r in range(nk):
            kpi[r] = 0
        for r in range(nc):
            cpi[r] = 0
        best = out[i]
        count = 0
        first = True
        while True:
            for x in range(NT):
                ko[x] = korder[x]
            for x in range(C):
                co[x] = corder[x]
            for r in range(nk):
                n_ = krun_len[r]
                if n_ > 1:
                    b = perm_start[n_] + kpi[r] * n_
                    for x in range(n_):
                        ko[krun_start[r] + x] = korder[krun_start[r] + perm_table[b + x]]
            for r in range(nc):
                n_ = crun_len[r]
                if n_ > 1:
                    b = perm_start[n_] + cpi[r] * n_
                    for x in range(n_):
                        co[crun_start[r] + x] = corder[crun_start[r] + perm_table[b + x]]
            _encode(row, cand, prm, ko, co, memory, krank, crank)
            if first or _less(cand, best):
                best[:] = cand
                count = 1
                first = False
            elif _equal(cand, best):
                count += 1
            # next permutation combination
            advanced = False
            for r in range(nk):
                n_ = krun_len[r]
                if n_ > 1:
                    kpi[r] += 1
                    if kpi[r] < fact_table[n_]:
                        advanced = True
                        break
                    kpi[r] = 0
            if not advanced:
                for r in range(nc):
                    n_ = crun_len[r]
                    if n_ > 1:
                        cpi[r] += 1
                        if cpi[r] < fact_table[n_]:
                            advanced = True
                            break
                        cpi[r] = 0
            if not advanced:
                break
        if not memory:
            # the e all-empty, unreferenced columns tie as one free run (a factor e!), but the
            # 6 - types columns of kinds not in play are not kinds of this game: only the others permute
            e = 0
            for k in range(NT):
                if not kref[k] and kbits[k] == 0:
                    e += 1
            st = st // fact_table[e] * fact_table[e - (NT - prm[P_TYPES])]
        stab[i] = st * count  # plumbing: orbit counting
    return out, stab, cstab


@njit(cache=True, inline="always")
def _packed_runs(sorted_keys, n, free, run_start, run_len):
    """Runs of equal keys (bits above the low 3) among sorted packed keys whose low 3 bits are
    the positions.  run_len[r] > 0 for a run to try, -length for a run of free members (not
    tried), 1 for singletons."""
    r = 0
    x = 0
    while x < n:
        y = x
        all_free = free[np.int64(sorted_keys[x] & np.uint64(7))]
        while y + 1 < n and (sorted_keys[y + 1] >> np.uint64(3)) == (sorted_keys[x] >> np.uint64(3)):
            y += 1
            all_free = all_free and free[np.int64(sorted_keys[y] & np.uint64(7))]
        length = y - x + 1
        run_start[r] = x
        run_len[r] = -length if (all_free and length > 1) else length
        r += 1
        x = y + 1
    return r


@njit(cache=True)
def invariant_breaks(rows, S, C, tiles, players, one_per_kind_and_colour):
    """Per row, whether it breaks each invariant a row shows (see compact, ``invariants``), in
    the order: tile conservation, only dirty tiles in piles, the colour model, the turn."""
    N = rows.shape[0]
    out = np.zeros((4, N), dtype=np.bool_)
    seen_in = np.zeros(6 * 8 + 256, dtype=np.int64)  # per code kind x 8 + colour: 1 + the last row that showed it
    for i in range(N):
        row = rows[i]
        count = 0
        for s in range(S):
            k, c, h = row[1 + s], row[1 + S + s], row[1 + 2 * S + s]
            count += h
            if k == KIND_CLEAN:  # rule: dishes.components.tiles
                count += 1
            if k < 6:  # rule: dishes.play.place-dirty
                if h < 1 or c >= C:  # rule: dishes.play.place-dirty
                    out[1, i] = True
                code = np.int64(k) * 8 + np.int64(c)
                if one_per_kind_and_colour and seen_in[code] == i + 1:  # rule: dishes.components.colour-sets
                    out[2, i] = True
                seen_in[code] = i + 1
            elif h != 0 or c != NO_COLOUR or (k != KIND_CLEAN and k != KIND_EMPTY):  # rule: dishes.play.place-dirty
                out[1, i] = True
        out[0, i] = count != tiles  # rule: dishes.components.tiles
        out[3, i] = row[0] >= players  # rule: dishes.play.clockwise
    return out


@njit(cache=True)
def levels(rows, S, dealt, spare):
    """Actions played in each row: 2c0 + k0 - (2c + k), the ranking function of the z3
    proof ``termination`` (c clean tiles, k piles)."""
    out = np.empty(rows.shape[0], dtype=np.int64)
    for i in range(rows.shape[0]):
        clean = 0
        piles = 0
        for s in range(S):
            v = rows[i, 1 + s]
            if v == KIND_CLEAN:  # rule: dishes.end.no-moves
                clean += 1
            elif v < 6:  # rule: dishes.end.no-moves
                piles += 1
        out[i] = 2 * dealt + spare - (2 * clean + piles)
    return out
