"""The exact engine's inner loops over rows and edges, compiled with Numba.

Kept apart from :mod:`tablerules.proofs.exact.levels`, which says what is computed and why; here
is only how, one row or one edge at a time (set NUMBA_DISABLE_JIT=1 to run them as Python).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tablerules.model.compact_loops import AHEAD, mix64, prefetch


@njit(cache=True)
def hash_words(words, n_words):
    """A 64-bit hash of each row's first ``n_words`` 8-byte words.  Used to sort, to
    partition and to find duplicates; rows with equal hashes are always compared in full."""
    n = words.shape[0]
    out = np.empty(n, dtype=np.uint64)
    for i in range(n):
        h = np.uint64(0x9E3779B97F4A7C15)
        for j in range(n_words):
            h = mix64(h ^ words[i, j])
        out[i] = h
    return out


@njit(cache=True)
def keys_and_parts(words, table_words, parts):
    """Each row's key (:func:`tablerules.proofs.exact.levels.row_keys`) and partition
    (:func:`tablerules.proofs.exact.levels.partition_of`) in one pass: the hash of the whole row is
    the hash of its table part carried on over the rest of its words."""
    n = words.shape[0]
    keys = np.empty(n, dtype=np.uint64)
    part = np.empty(n, dtype=np.int64)
    top = np.uint64(0xFFFFFFFF00000000)
    for i in range(n):
        h = np.uint64(0x9E3779B97F4A7C15)
        for j in range(table_words):
            h = mix64(h ^ words[i, j])
        table = h
        for j in range(table_words, words.shape[1]):
            h = mix64(h ^ words[i, j])
        keys[i] = (table & top) | (h & ~top)
        part[i] = np.int64(table % np.uint64(parts))
    return keys, part


BIN_SHIFT = np.uint64(48)
"""A key's bin is its top 16 bits (exact_runs.BIN_BITS): runs are sorted by bin."""


@njit(cache=True)
def spill_plan(keys, part, firsts, inverse, parts, filled):
    """How a flush writes its distinct rows (``firsts``, rows by first appearance): their
    order, by partition and then by the key's bin (two stable counting passes; runs need no
    finer order, see sorted_runs), and where each partition's rows start in it; and per row
    (``inverse``: its distinct index) its partition and its place in that partition's bucket,
    counting on from ``filled`` (updated)."""
    n = firsts.shape[0]
    bins = np.empty(n, dtype=np.int64)
    parts_of = np.empty(n, dtype=np.int64)
    count = np.zeros((1 << 16) + 1, dtype=np.int64)
    bounds = np.zeros(parts + 1, dtype=np.int64)
    for u in range(n):
        bins[u] = np.int64(keys[firsts[u]] >> BIN_SHIFT)
        parts_of[u] = part[firsts[u]]
        count[bins[u] + 1] += 1
        bounds[parts_of[u] + 1] += 1
    for b in range(1 << 16):
        count[b + 1] += count[b]
    for d in range(parts):
        bounds[d + 1] += bounds[d]
    by_bin = np.empty(n, dtype=np.int64)
    for u in range(n):
        by_bin[count[bins[u]]] = u
        count[bins[u]] += 1
    at = bounds[:parts].copy()
    order = np.empty(n, dtype=np.int64)
    place = np.empty(n, dtype=np.int64)
    for x in range(n):
        u = by_bin[x]
        d = parts_of[u]
        order[at[d]] = firsts[u]
        place[u] = filled[d] + at[d] - bounds[d]
        at[d] += 1
    for d in range(parts):
        filled[d] += bounds[d + 1] - bounds[d]
    rows = inverse.shape[0]
    row_part = np.empty(rows, dtype=np.int64)
    row_place = np.empty(rows, dtype=np.int64)
    for i in range(rows):
        if i + AHEAD < rows:
            prefetch(place, inverse[i + AHEAD])
        row_part[i] = parts_of[inverse[i]]
        row_place[i] = place[inverse[i]]
    return order, bounds, row_part, row_place


@njit(cache=True)
def take_rows(rows, order):
    """``rows[order]``, row by row (NumPy's fancy indexing of a uint8 matrix is slower)."""
    n = order.shape[0]
    out = np.empty((n, rows.shape[1]), dtype=rows.dtype)
    for x in range(n):
        if x + AHEAD < n:
            prefetch(rows, order[x + AHEAD])
        out[x] = rows[order[x]]
    return out


@njit(cache=True)
def sort_distinct(hashes, firsts, inverse):
    """For distinct rows (``firsts``, ``inverse``: :func:`dedupe`): the firsts sorted by hash
    (a stable radix sort, 16 bits a pass) and each row's index in that order."""
    n = firsts.shape[0]
    key = np.empty(n, dtype=np.uint64)
    idx = np.empty(n, dtype=np.int64)
    for u in range(n):
        key[u] = hashes[firsts[u]]
        idx[u] = u
    key2 = np.empty(n, dtype=np.uint64)
    idx2 = np.empty(n, dtype=np.int64)
    count = np.empty((1 << 16) + 1, dtype=np.int64)
    mask = np.uint64(0xFFFF)
    for shift in range(0, 64, 16):
        s = np.uint64(shift)
        count[:] = 0
        for u in range(n):
            count[np.int64((key[u] >> s) & mask) + 1] += 1
        for b in range(1 << 16):
            count[b + 1] += count[b]
        for u in range(n):
            b = np.int64((key[u] >> s) & mask)
            key2[count[b]] = key[u]
            idx2[count[b]] = idx[u]
            count[b] += 1
        key, key2 = key2, key
        idx, idx2 = idx2, idx
    rank = np.empty(n, dtype=np.int64)
    chosen = np.empty(n, dtype=np.int64)
    for x in range(n):
        rank[idx[x]] = x
        chosen[x] = firsts[idx[x]]
    where = np.empty(inverse.shape[0], dtype=np.int64)
    for i in range(inverse.shape[0]):
        if i + AHEAD < inverse.shape[0]:
            prefetch(rank, inverse[i + AHEAD])
        where[i] = rank[inverse[i]]
    return chosen, where


@njit(cache=True, inline="always")
def _same(words, a, b):
    for j in range(words.shape[1]):
        if words[a, j] != words[b, j]:
            return False
    return True


@njit(cache=True)
def dedupe(words, hashes):
    """(first row of each distinct row, in order of first appearance; each row's distinct
    index), by open addressing on the hash and a full comparison of the rows."""
    n = words.shape[0]
    size = 16
    while size < 2 * n:
        size *= 2
    mask = np.uint64(size - 1)
    table = np.full(size, -1, dtype=np.int64)
    firsts = np.empty(n, dtype=np.int64)
    inverse = np.empty(n, dtype=np.int64)
    count = 0
    for i in range(n):
        if i + AHEAD < n:
            prefetch(table, hashes[i + AHEAD] & mask)
        slot = hashes[i] & mask
        while True:
            g = table[slot]
            if g < 0:
                table[slot] = count
                firsts[count] = i
                inverse[i] = count
                count += 1
                break
            f = firsts[g]
            if hashes[f] == hashes[i] and _same(words, f, i):
                inverse[i] = g
                break
            slot = (slot + np.uint64(1)) & mask
    return firsts[:count], inverse


INT32_MAX = np.iinfo(np.int32).max


@njit(cache=True)
def edge_rows(parent, action, p_num, p_den, dest, place):
    """The edges a counting task writes, one row each: (parent, action, chance numerator and
    denominator, destination partition, place in its bucket) in 32 bits; None where a value
    does not fit."""
    n = parent.shape[0]
    out = np.empty((n, 6), dtype=np.int32)
    for e in range(n):
        values = (parent[e], np.int64(action[e]), p_num[e], p_den[e], dest[e], place[e])
        for c in range(6):
            if values[c] < 0 or values[c] > INT32_MAX:
                return None
            out[e, c] = values[c]
    return out


@njit(cache=True)
def gather_edges(edges, maps, map_start, next_offsets, offset, actions, out, at):
    """Write one partition's edges (parent, action, chance numerator and denominator,
    destination partition, place in its bucket) into ``out[at:]`` as (parent, action, chance
    numerator, actions x chance denominator, child), with indices over the whole level
    (``offset``: the partition's first node; ``maps[map_start[d] + place]``: a bucket row's
    index in partition d, which starts at ``next_offsets[d]``).  False where a value does
    not fit in 32 bits (nothing past it is written)."""
    E = edges.shape[0]
    for e in range(E):
        if e + AHEAD < E:
            prefetch(maps, map_start[edges[e + AHEAD, 4]] + edges[e + AHEAD, 5])
        d = edges[e, 4]
        parent = np.int64(edges[e, 0]) + offset
        child = next_offsets[d] + np.int64(maps[map_start[d] + edges[e, 5]])
        denom = actions[parent] * np.int64(edges[e, 3])
        if parent > INT32_MAX or child > INT32_MAX or denom > INT32_MAX:
            return False
        out[at + e, 0] = parent
        out[at + e, 1] = edges[e, 1]
        out[at + e, 2] = edges[e, 2]
        out[at + e, 3] = denom
        out[at + e, 4] = child
    return True


@njit(cache=True, inline="always")
def _loser_count(losers, x, players):
    """How many seats lose at terminal row ``x``."""
    count = 0
    for s in range(players):
        count += losers[x, s]
    return count


@njit(cache=True)
def optimal_values(n_nodes, players, weight, mover, term, losers, parent, action, child, child_vals):
    """weight x (P(among losers) per seat, P(sole loser) per seat, E(actions left)) under
    optimal play (tie rule in proofs/exact/levels.py); edges sorted by (parent, action)."""
    V = 2 * players + 1
    out = np.zeros((n_nodes, V), dtype=np.int64)
    for x in range(term.shape[0]):
        t = term[x]
        sole = _loser_count(losers, x, players) == 1
        for s in range(players):
            if losers[x, s]:
                out[t, s] = weight[t]
                if sole:
                    out[t, players + s] = weight[t]
    acc = np.zeros(V, dtype=np.int64)
    best = np.zeros(V, dtype=np.int64)
    E = parent.shape[0]
    e = 0
    while e < E:
        p = parent[e]
        has_best = False
        while e < E and parent[e] == p:
            a = action[e]
            for v in range(V):
                acc[v] = 0
            while e < E and parent[e] == p and action[e] == a:
                if e + AHEAD < E:
                    prefetch(child_vals, child[e + AHEAD])
                for v in range(V):
                    acc[v] += child_vals[child[e], v]
                e += 1
            acc[V - 1] += weight[p]  # the action itself
            if not has_best or _prefer(acc, best, mover[p], players):
                for v in range(V):
                    best[v] = acc[v]
                has_best = True
        for v in range(V):
            out[p, v] = best[v]
    return out


@njit(cache=True, inline="always")
def _prefer(a, b, seat, players):
    """Is value vector ``a`` strictly preferred to ``b`` by ``seat``? (proofs/exact/levels.py, optimal play)"""
    if a[seat] != b[seat]:
        return a[seat] < b[seat]
    if a[players + seat] != b[players + seat]:
        return a[players + seat] < b[players + seat]
    oa = 0
    ob = 0
    for s in range(players):
        if s != seat:
            oa += a[s]
            ob += b[s]
    if oa != ob:
        return oa > ob
    V = 2 * players + 1
    if a[V - 1] != b[V - 1]:
        return a[V - 1] < b[V - 1]
    for v in range(V):
        if a[v] != b[v]:
            return a[v] < b[v]
    return False


@njit(cache=True)
def chance_pairs(p_num, denom, shape):
    """Which (chance numerator, denominator) pairs the edges use: a table of ``shape``."""
    seen = np.zeros(shape, dtype=np.bool_)
    for e in range(p_num.shape[0]):
        seen[p_num[e], denom[e]] = True
    return seen


TOP = np.uint64(1) << np.uint64(63)
"""A sum of residues is reduced once it reaches this: residues and coefficients lie below
2^29, so a product is below 2^58 and a sum below 2^63 plus one product never overflows."""


@njit(cache=True)
def reach_forward(reach, parent, p_num, denom, child, n_next, primes, coef):
    """The chance of reaching each state of the next level under uniform random play, modulo
    each prime, from the chance of reaching each state of this one (``reach``, states x
    primes); edges in any order.  ``denom`` is the parent's number of actions times the chance
    denominator; ``coef[a, d, j]`` is a / d mod primes[j] for each pair the edges use
    (:func:`chance_pairs`), so the loop over edges divides nothing."""
    P = primes.shape[0]
    q = np.empty(P, dtype=np.uint64)
    for j in range(P):
        q[j] = np.uint64(primes[j])
    acc = np.zeros((n_next, P), dtype=np.uint64)
    E = parent.shape[0]
    for e in range(E):
        if e + AHEAD < E:
            prefetch(reach, parent[e + AHEAD])
            prefetch(acc, child[e + AHEAD])
        r = reach[parent[e]]
        k = coef[p_num[e], denom[e]]
        a = acc[child[e]]
        for j in range(P):
            x = a[j] + k[j] * np.uint64(r[j])
            if x >= TOP:
                x %= q[j]
            a[j] = x
    out = np.empty((n_next, P), dtype=np.uint32)
    for c in range(n_next):
        for j in range(P):
            out[c, j] = np.uint32(acc[c, j] % q[j])
    return out


@njit(cache=True)
def end_sums(reach, term, losers, players, level, primes):
    """Over the ends of one level, modulo each prime: the chance of reaching an end where each
    seat is among the losers, where it is the sole loser, and the chance times the actions
    played (``level``); summed over every level these are the values of random play at the
    start, (P(among losers) per seat, P(sole loser) per seat, E(actions))."""
    V = 2 * players + 1
    P = primes.shape[0]
    acc = np.zeros((V, P), dtype=np.uint64)
    for x in range(term.shape[0]):
        t = term[x]
        sole = _loser_count(losers, x, players) == 1
        for j in range(P):
            r = np.uint64(reach[t, j])
            q = np.uint64(primes[j])
            for s in range(players):
                if losers[x, s]:
                    acc[s, j] = (acc[s, j] + r) % q
                    if sole:
                        acc[players + s, j] = (acc[players + s, j] + r) % q
            acc[V - 1, j] = (acc[V - 1, j] + r * np.uint64(level)) % q
    return acc
