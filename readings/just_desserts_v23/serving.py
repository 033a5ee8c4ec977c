"""Which sets of desserts from a hand satisfy a guest ("Tastes and Flavors", "Playing").

A serving satisfies a guest when the cards together show every taste the guest craves
and no card shows a flavour the guest dislikes ("Tastes and Flavors").
"""

# CHOICE: "Tastes and Flavors" says a guest is satisfied with "one, two, or as many as
# three cards"; we read that as a cap of three cards per serving (other reading: a
# description only, with no limit on the number of cards).
MAX_CARDS = 3

# CHOICE: "Playing" says the first caller serves "by playing the necessary cards"; we
# list only servings where every card is necessary (no card can be taken away and the
# rest still satisfy the guest).  Other reading: any satisfying set may be served,
# including ones with surplus cards.  This also keeps enumeration small: a minimal set
# never holds two cards whose wanted tastes are the same, so we combine distinct
# "wanted-taste patterns" (at most 2^4 of them) and expand them into card ids.


def servings(deck, hand, guest, need_favourite=False):
    """All minimal servings (tuples of sorted dessert ids) of ``guest`` from ``hand``.

    ``hand`` maps dessert id -> count.  With ``need_favourite`` only servings that
    include one of the guest's Favorites are listed.
    """
    want = deck.guest_want[guest]
    refuse = deck.guest_refuse[guest]
    dmask = deck.dessert_mask
    groups = {}
    for cid, n in hand.items():
        if n <= 0:
            continue
        t = dmask[cid]
        if t & refuse:
            continue
        wb = t & want
        if wb == 0 and want != 0:
            continue  # a card adding no wanted taste is never necessary
        groups.setdefault(wb, []).append(cid)
    masks = list(groups)
    out = []
    for a in masks:
        if a == want:
            for c in groups[a]:
                out.append((c,))
    m = len(masks)
    for i in range(m):
        a = masks[i]
        if a == want:
            continue
        for j in range(i + 1, m):
            b = masks[j]
            if b == want:
                continue
            ab = a | b
            if ab == want:
                for x in groups[a]:
                    for y in groups[b]:
                        out.append(tuple(sorted((x, y))))
            elif MAX_CARDS >= 3:
                for k in range(j + 1, m):
                    c = masks[k]
                    if ab | c != want or (a | c) == want or (b | c) == want:
                        continue
                    for x in groups[a]:
                        for y in groups[b]:
                            for z in groups[c]:
                                out.append(tuple(sorted((x, y, z))))
    if need_favourite:
        favs = deck.guest_favs[guest]
        out = [s for s in out if any(c in favs for c in s)]
    return out


def serve_text(serving):
    return "serve " + "+".join(sorted(serving))
