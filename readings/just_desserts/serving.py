"""Which sets of desserts Satisfy a guest, and the winning test.

Rulebook, "Turn Options" (Satisfy Up To Two Guests): the desserts given must together show
every taste the guest craves, and none may show a taste the guest refuses (the example of
the Little Girl: extra tastes that are not refused are fine).
"""

from functools import lru_cache


# CHOICE: the rulebook says to discard "as many as required" to Satisfy a guest.  This
# reading takes that to mean an offer must be inclusion-minimal: every dessert offered must
# be needed (dropping any one of them would leave a craving unmet).  So two copies of one
# dessert are never offered together, and an offer never has more desserts than the guest
# has cravings.  Other readings: any satisfying set (extra desserts allowed), or only sets
# of the smallest possible size.  This also keeps move lists small with big hands.
# CHOICE: a guest's Favorite gets no special pass: serving it (for a Tip, "Favorites &
# Tips") still has to meet the Satisfy test above.  In the retail deck every Favorite
# satisfies its guest alone, so this matters only for other decks.  Other reading: the
# Favorite alone always Satisfies its guest.
def satisfying_sets(hand_ids, dmask, wants, refuses):
    """All inclusion-minimal sets of distinct dessert ids from `hand_ids` (an iterable of
    distinct ids) that Satisfy a guest with these cravings/refusals.  Returns a tuple of
    sorted id tuples, sorted."""
    cands = tuple(sorted((d, dmask[d] & wants) for d in hand_ids
                         if not (dmask[d] & refuses) and (dmask[d] & wants)))
    return _covers(cands, wants)


@lru_cache(maxsize=200000)
def _covers(cands, wants):
    if wants == 0:
        # CHOICE: a guest with no cravings cannot be Satisfied (the rule asks for "one or
        # more" desserts, and no dessert would be "required").  Other reading: any single
        # dessert without a refused taste satisfies it.
        return ()
    found = set()

    def rec(start_set, covered):
        if covered == wants:
            found.add(start_set)
            return
        missing = wants & ~covered
        low = missing & -missing
        for d, m in cands:
            if m & low and d not in start_set:
                rec(start_set | {d}, covered | m)

    rec(frozenset(), 0)
    masks = dict(cands)
    out = []
    for s in found:
        ok = True
        for d in s:
            rest = 0
            for e in s:
                if e != d:
                    rest |= masks[e]
            if rest == wants:
                ok = False
                break
        if ok:
            out.append(tuple(sorted(s)))
    out.sort()
    return tuple(out)


def has_won(guests, suit):
    """Rulebook, "Winning": three guests of one suit, or five guests of all different
    suits (five different suits among the claimed guests)."""
    count = {}
    for g in guests:
        s = suit[g]
        count[s] = count.get(s, 0) + 1
        if count[s] >= 3:
            return True
    return len(count) >= 5
