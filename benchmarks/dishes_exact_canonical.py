"""The canonical form of Dishes rows: before (insertion sorts, one pass over the places per
sum, keys mixed twice) against now (one pass, packed keys sorted by networks of
compare-exchanges), side by side in one run on the same rows.

Usage: python benchmarks/dishes_exact_canonical.py [--deck box] [--level 12] [--parents 50000] [--rounds 3]

Counts 2-player Dishes (default rulings) level by level to ``--level`` in this process, takes
``--parents`` engine states of that level at random (seed 1), generates every child
(:func:`tablerules.model.dishes.loops.expand_rows`, before canonical form), and times on those
children, with the memory and on their table parts alone (as the merge's stabilisers do):

* ``before``: the loop as it was, kept here as the baseline (it uses today's ``_encode``, whose
  memory relabelling no longer branches, so the baseline is if anything a little fast);
* ``now``: :func:`tablerules.model.dishes.loops.canonical_rows`.

The two forms pick different rows to stand for an orbit, so they are compared on what must
agree: the number of distinct canonical rows (orbits) and every row's stabilisers.  The two
take turns, now then before, for ``--rounds`` rounds (``timing.alternate``).  Units: nanoseconds
per row (a child, before removing copies), median of the rounds, one process; "x before" is the
median of the per-round ratios (least-greatest).  The machine's load average is printed at the
start and the end.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from numba import njit

from tablerules.model import registry
from tablerules.model.dishes import loops
from tablerules.model.dishes.compact import _PERM_START, _PERMS
from tablerules.model.dishes.loops import (DEAL_COLOUR_SETS, DEAL_FOUR_SETS, DEAL_LAYOUT_SETS, H_PLACE, H_TOP,
                                           KIND_CLEAN, NO_COLOUR, NT, P_C, P_DEAL, P_L, P_LC, P_MASKS, P_S, P_TRACK,
                                           P_TYPES, P_USED, TOP_BIT, _encode, _equal, _h, _less, _shape)
from tablerules.proofs.exact import levels as exact
from timing import alternate, load_average


@njit(cache=True)
def _sort_keys(keys, n, order):
    """Stable insertion sort of positions 0..n-1 by keys."""
    for i in range(n):
        order[i] = i
    for i in range(1, n):
        j = i
        while j > 0 and keys[order[j - 1]] > keys[order[j]]:
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1


@njit(cache=True)
def canonical_rows_before(rows, prm, perm_table, perm_start, memory):
    """The canonical form before (kept here as the baseline): insertion sorts, a pass over the
    places per sum, every key mixed twice.

    ``perm_table[perm_start[n]:perm_start[n+1]]`` lists the permutations of n items."""
    N, W = rows.shape
    S, L, C, track = prm[P_S], prm[P_L], prm[P_C], prm[P_TRACK]
    deal = prm[P_DEAL]
    out = np.zeros((N, W), dtype=np.uint8)
    stab = np.ones(N, dtype=np.int64)
    cstab = np.ones(N, dtype=np.int64)
    shape = np.empty(S, dtype=np.uint64)
    a0 = np.zeros(8, dtype=np.uint64)
    a1 = np.zeros(8, dtype=np.uint64)
    b0 = np.zeros(8, dtype=np.uint64)
    b1 = np.zeros(8, dtype=np.uint64)
    kkey = np.zeros(NT, dtype=np.uint64)
    ckey = np.zeros(8, dtype=np.uint64)
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
    for i in range(N):
        row = rows[i]
        for s in range(S):
            shape[s] = _shape(row, S, s, track)
        # kinds: their places, and where tiles of the kind lie on top
        for k in range(8):
            a0[k] = 0
            b0[k] = 0
        for s in range(S):
            x = shape[s] * np.uint64(8) + np.uint64(s // NT)  # (shape, layout) < 2048
            a0[s % NT] += H_PLACE[x]
            if row[1 + s] < 6:
                a0[row[1 + s]] += H_TOP[x]
        for k in range(NT):
            a0[k] = _h(a0[k])
        # colours: where they lie on top, and the kinds around them
        for s in range(S):
            if row[1 + s] < 6:
                c = row[1 + S + s]
                b0[c] += _h(
                    shape[s] * np.uint64(8)
                    + np.uint64(s // NT)
                    + np.uint64(0x3000)
                    + a0[s % NT] * P1
                    + a0[row[1 + s]] * P2
                )
        for c in range(C):
            b0[c] = _h(b0[c])
        # keys: exact for what is referenced by nothing
        for k in range(NT):
            kref[k] = False
            kbits[k] = 0
        for c in range(C):
            ctop[c] = False
        for s in range(S):
            v = row[1 + s]
            if v < 6:
                kref[s % NT] = True  # a pile lies in the kind's column
                kref[v] = True  # a tile of the kind lies on top
                ctop[row[1 + S + s]] = True
            elif v == KIND_CLEAN:
                kbits[s % NT] |= 1 << (s // NT)
        # round 0 keys from a0/b0; only where they leave a hard tie, refine once (a1/b1) and sort again:
        # whether round 0 ties is itself invariant, so the form stays canonical
        ak = a0
        bc = b0
        for rnd in range(2):
            if rnd == 1:
                for k in range(NT):
                    a1[k] = a0[k]
                for s in range(S):
                    if row[1 + s] < 6:
                        base = shape[s] * np.uint64(8) + np.uint64(s // NT)
                        c = row[1 + S + s]
                        a1[row[1 + s]] += _h(base + np.uint64(0x4000) + b0[c] * P3 + a0[s % NT] * P4)
                        a1[s % NT] += _h(base + np.uint64(0x5000) + b0[c] * P1 + a0[row[1 + s]] * P3)
                for k in range(NT):
                    a1[k] = _h(a1[k])
                for c in range(C):
                    b1[c] = b0[c]
                for s in range(S):
                    if row[1 + s] < 6:
                        b1[row[1 + S + s]] += _h(shape[s] * np.uint64(8) + np.uint64(s // NT) + np.uint64(0x6000)
                                                 + a1[s % NT] * P2 + a1[row[1 + s]] * P4)
                ak = a1
                bc = b1
            for k in range(NT):
                mem = memory and (deal == DEAL_FOUR_SETS or deal == DEAL_COLOUR_SETS) and row[prm[P_MASKS] + k] != 0
                kkey[k] = (_h(ak[k]) & ~TOP_BIT) if kref[k] else (TOP_BIT | np.uint64(kbits[k]))
                kfree[k] = not kref[k] and not mem
            memcols = 0  # colours the memory holds
            if memory:
                if deal == DEAL_FOUR_SETS or deal == DEAL_COLOUR_SETS:
                    for k in range(NT):
                        memcols |= row[prm[P_MASKS] + k]
                if deal == DEAL_COLOUR_SETS:
                    memcols |= row[prm[P_USED]]
                if deal == DEAL_LAYOUT_SETS:
                    for m in range(L):
                        if row[prm[P_LC] + m] != NO_COLOUR:
                            memcols |= 1 << row[prm[P_LC] + m]
            for c in range(C):
                on_top = ctop[c]
                mem = (memcols >> c) & 1 == 1
                ckey[c] = (_h(bc[c]) & ~TOP_BIT) if on_top else TOP_BIT
                cfree[c] = not on_top and not mem
            _sort_keys(kkey, NT, korder)
            _sort_keys(ckey, C, corder)
            # runs of equal keys: free runs (every member free) are automorphisms; the rest are tried
            nk = _runs(kkey, korder, NT, kfree, krun_start, krun_len)
            nc = _runs(ckey, corder, C, cfree, crun_start, crun_len)
            # refine only where the table part alone leaves a tie between referenced kinds or shown
            # colours: the memory must not choose the round, or the table part would not be canonical
            tied = False
            for x in range(NT - 1):
                if kkey[korder[x]] == kkey[korder[x + 1]] and kref[korder[x]]:
                    tied = True
            for x in range(C - 1):
                if ckey[corder[x]] == ckey[corder[x + 1]] and ctop[corder[x]]:
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
        stab[i] = st * count
    return out, stab, cstab


@njit(cache=True)
def _runs(keys, order, n, free, run_start, run_len):
    """Split the sorted positions into runs of equal keys.  run_len[r] > 0 for a run to try
    (some member not free), -length for a run of free members (not tried), 1 for singletons."""
    r = 0
    x = 0
    while x < n:
        y = x
        all_free = free[order[x]]
        while y + 1 < n and keys[order[y + 1]] == keys[order[x]]:
            y += 1
            all_free = all_free and free[order[y]]
        length = y - x + 1
        run_start[r] = x
        run_len[r] = -length if (all_free and length > 1) else length
        r += 1
        x = y + 1
    return r


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", default="box")
    ap.add_argument("--level", type=int, default=12)
    ap.add_argument("--parents", type=int, default=50_000)
    ap.add_argument("--rounds", type=int, default=3, help="rounds, now and before in turn (default 3)")
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds must be 1 or more")
    load_start = load_average()
    rules = registry.get("dishes")
    kern = registry.kernel("dishes", rules.setup(2, rules.Options(), rules.load_components(args.deck)))
    rows = np.stack([r for r, _ in kern.start()])
    for _ in range(args.level):
        ex = kern.expand(rows)
        rows = exact.distinct(np.concatenate([ex.children, ex.passes]))[0]
    pick = np.random.default_rng(1).permutation(len(rows))[:args.parents]
    parents = np.ascontiguousarray(rows[pick])
    children = loops.expand_rows(parents, kern.prm, kern.slot_owner, kern.layout_owner, kern.fixed)[0]
    print(f"dishes, 2 players, deck {args.deck}: the children of {len(parents):,} engine states of level {args.level}, "
          f"{len(children):,} rows; {args.rounds} rounds, now then before, one process; load average at the start "
          f"{load_start}")
    print("rows | form | ns per row | orbits | x before")
    for memory, what in ((True, "with the memory"), (False, "table parts")):
        batch = children if memory else exact.table_parts(kern, children)
        for form in (canonical_rows_before, loops.canonical_rows):
            form(batch[:10], kern.prm, _PERMS, _PERM_START, memory)  # compile
        paired = alternate(args.rounds, lambda: loops.canonical_rows(batch, kern.prm, _PERMS, _PERM_START, memory),
                           lambda: canonical_rows_before(batch, kern.prm, _PERMS, _PERM_START, memory))
        results = {"now": paired.a_result, "before": paired.b_result}
        seconds = {"now": paired.a_median_seconds, "before": paired.b_median_seconds}
        orbits = {name: len(exact.distinct(r[0])[0]) for name, r in results.items()}
        assert orbits["before"] == orbits["now"], "the two forms count different orbits"
        assert all(np.array_equal(results["before"][i], results["now"][i]) for i in (1, 2)), "stabilisers differ"
        for name, ratio in (("before", "1.00x"), ("now", paired.ratio_text())):
            print(f"{what} | {name} | {seconds[name] * 1e9 / len(batch):.0f} | {orbits[name]:,} | {ratio}")
    print(f"load average at the end {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
