"""The exact engine's inner loops over rows and edges, compiled with Numba.

Kept apart from :mod:`tablerules.proofs.exact`, which says what is computed and why; here
is only how, one row or one edge at a time (set NUMBA_DISABLE_JIT=1 to run them as Python).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _mix(x):
    x ^= x >> np.uint64(30)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return x


@njit(cache=True)
def hash_rows(rows, width):
    """A 64-bit hash of each row's first ``width`` bytes.  Used to sort and to partition;
    rows with equal hashes are always compared byte for byte (:func:`unique_by_hash`)."""
    n = rows.shape[0]
    out = np.empty(n, dtype=np.uint64)
    for i in range(n):
        h = np.uint64(0x9E3779B97F4A7C15)
        acc = np.uint64(0)
        shift = 0
        for j in range(width):
            acc |= np.uint64(rows[i, j]) << np.uint64(shift)
            shift += 8
            if shift == 64:
                h = _mix(h ^ acc)
                acc = np.uint64(0)
                shift = 0
        h = _mix(h ^ acc ^ np.uint64(width))
        out[i] = h
    return out


@njit(cache=True)
def _rows_equal(rows, a, b):
    for j in range(rows.shape[1]):
        if rows[a, j] != rows[b, j]:
            return False
    return True


@njit(cache=True)
def group_sorted(rows, order, hashes):
    """Given rows sorted by hash (``order``), the index of each row's distinct group and
    the first row of each group; -1 as the group count if two different rows share a hash."""
    n = order.shape[0]
    group = np.empty(n, dtype=np.int64)
    firsts = np.empty(n, dtype=np.int64)
    g = -1
    for x in range(n):
        i = order[x]
        if x > 0 and hashes[i] == hashes[order[x - 1]]:
            # same hash: must be the same row as one already in this hash's run
            found = False
            y = x - 1
            while y >= 0 and hashes[order[y]] == hashes[i]:
                if _rows_equal(rows, order[y], i):
                    found = True
                    group[i] = group[order[y]]
                    break
                y -= 1
            if not found:
                return group, firsts, -1
            continue
        g += 1
        group[i] = g
        firsts[g] = i
    return group, firsts[:g + 1], g + 1


@njit(cache=True)
def edge_children(dest, bucket_child, bucket_start, offsets):
    """The next-level index of each edge's child, in the edges' own order: edges with
    destination d went, in order, into bucket d, whose children indices are
    ``bucket_child[bucket_start[d]:bucket_start[d + 1]]``; ``offsets[d]`` is where
    partition d starts in the level."""
    n = dest.shape[0]
    out = np.empty(n, dtype=np.int64)
    seen = np.zeros(offsets.shape[0], dtype=np.int64)
    for e in range(n):
        d = dest[e]
        out[e] = offsets[d] + bucket_child[bucket_start[d] + seen[d]]
        seen[d] += 1
    return out


@njit(cache=True)
def optimal_values(n_nodes, players, weight, mover, term, losers, parent, action, child, child_vals):
    """weight x (P(among losers) per seat, P(sole loser) per seat, E(actions left)) under
    optimal play (tie rule in proofs/exact.py); edges sorted by (parent, action)."""
    V = 2 * players + 1
    out = np.zeros((n_nodes, V), dtype=np.int64)
    for x in range(term.shape[0]):
        t = term[x]
        count = 0
        for s in range(players):
            count += losers[x, s]
        for s in range(players):
            if losers[x, s]:
                out[t, s] = weight[t]
                if count == 1:
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


@njit(cache=True)
def _prefer(a, b, seat, players):
    """Is value vector ``a`` strictly preferred to ``b`` by ``seat``? (proofs/exact.py, optimal play)"""
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
def random_values(n_nodes, players, term, losers, parent, p_num, denom, child, child_vals, primes, inverses):
    """(P(among losers) per seat, P(sole loser) per seat, E(actions left)) under uniform
    random play, modulo each prime; edges sorted by parent.  ``denom`` is the parent's
    number of actions times the chance denominator; ``inverses[j, x]`` is 1/x mod primes[j]."""
    V = 2 * players + 1
    P = primes.shape[0]
    out = np.zeros((n_nodes, V, P), dtype=np.uint32)
    for x in range(term.shape[0]):
        t = term[x]
        count = 0
        for s in range(players):
            count += losers[x, s]
        for s in range(players):
            if losers[x, s]:
                for j in range(P):
                    out[t, s, j] = 1
                    if count == 1:
                        out[t, players + s, j] = 1
    acc = np.zeros((V, P), dtype=np.uint64)
    E = parent.shape[0]
    e = 0
    while e < E:
        p = parent[e]
        for v in range(V):
            for j in range(P):
                acc[v, j] = 0
        n_e = 0
        while e < E and parent[e] == p:
            c = child[e]
            for j in range(P):
                q = np.uint64(primes[j])
                coef = (np.uint64(p_num[e]) % q) * np.uint64(inverses[j, denom[e]]) % q
                for v in range(V):
                    acc[v, j] += coef * np.uint64(child_vals[c, v, j])
            n_e += 1
            e += 1
            if n_e % 8 == 0:  # residues < 2^29: eight products of two stay below 2^61
                for v in range(V):
                    for j in range(P):
                        acc[v, j] %= np.uint64(primes[j])
        for j in range(P):
            q = np.uint64(primes[j])
            for v in range(V):
                acc[v, j] %= q
            acc[V - 1, j] = (acc[V - 1, j] + np.uint64(1)) % q  # one more action played
            for v in range(V):
                out[p, v, j] = np.uint32(acc[v, j])
    return out
