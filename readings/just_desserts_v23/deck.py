"""The card list: loading, checking and the engine's own default deck.

Sources: the brief's deck schema; the rulebook ("Tastes and Flavors") for what a
dessert and a guest are.  A ``Deck`` is immutable once built; ``deepcopy`` returns the
same object, so copying an engine does not copy the card list.
"""
import json


class DeckError(ValueError):
    """The card list cannot be read or does not follow the schema."""


class Deck:
    """Static facts of the cards: taste bitmasks, wants/refuses, favourites."""

    def __init__(self, data):
        if not isinstance(data, dict):
            raise DeckError("deck is not a JSON object")
        desserts = data.get("desserts")
        guests = data.get("guests")
        if not isinstance(desserts, list) or not isinstance(guests, list):
            raise DeckError("deck needs 'desserts' and 'guests' lists")
        bits = {}

        def mask(tastes):
            if not isinstance(tastes, list):
                raise DeckError("tastes must be a list")
            m = 0
            for t in tastes:
                if not isinstance(t, str):
                    raise DeckError("a taste must be a string")
                if t not in bits:
                    bits[t] = 1 << len(bits)
                m |= bits[t]
            return m

        for t in data.get("tastes") or []:
            if isinstance(t, str):
                mask([t])
        self.dessert_mask = {}
        self.dessert_copies = {}
        by_name = {}
        seen = set()
        for d in desserts:
            if not isinstance(d, dict) or not isinstance(d.get("id"), str):
                raise DeckError("a dessert needs a string id")
            did = d["id"]
            if did in seen:
                raise DeckError("duplicate id %s" % did)
            seen.add(did)
            copies = d.get("copies", 1)
            if not isinstance(copies, int) or isinstance(copies, bool) or copies < 0:
                raise DeckError("bad copies for %s" % did)
            self.dessert_mask[did] = mask(d.get("tastes", []))
            self.dessert_copies[did] = copies
            name = d.get("name")
            if isinstance(name, str):
                by_name.setdefault(name, []).append(did)
        self.guest_want = {}
        self.guest_refuse = {}
        self.guest_favs = {}
        for g in guests:
            if not isinstance(g, dict) or not isinstance(g.get("id"), str):
                raise DeckError("a guest needs a string id")
            gid = g["id"]
            if gid in seen:
                raise DeckError("duplicate id %s" % gid)
            seen.add(gid)
            self.guest_want[gid] = mask(g.get("wants", []))
            self.guest_refuse[gid] = mask(g.get("refuses", []))
            favs = set()
            # CHOICE: a favourite that names no dessert of the deck is ignored.
            # Other reading: refuse the deck.
            for f in g.get("favorites", []) or []:
                # A favourite names a dessert by its id or by its name (schema).
                if f in self.dessert_mask:
                    favs.add(f)
                elif f in by_name:
                    favs.update(by_name[f])
            self.guest_favs[gid] = frozenset(favs)
        self.total_desserts = sum(self.dessert_copies.values())
        self.guest_ids = sorted(self.guest_want)

    def __deepcopy__(self, memo):
        return self  # immutable

    def __copy__(self):
        return self


def load_deck(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise DeckError("cannot read deck %r: %s" % (path, e))
    return Deck(data)


# CHOICE: when ``components`` is null the brief lets us pick a deck; we use an invented
# house deck (below) rather than the retail list, which may not be copied here.  Other
# choice: refuse with ``unsupported``.
def default_deck():
    """The engine's own deck, used when ``components`` is null.

    An invented 'house' deck (not the retail list): six tastes; one dessert for every
    set of one, two or three tastes (41 desserts, one copy each); twelve guests, each
    wanting two tastes and refusing one other, whose Favorite is the three-taste
    dessert made of its two wants and the next taste round the list that it does not
    refuse (guests 11 and 12 have no Favorite, like Nature Girl).
    """
    tastes = ["Chocolate", "Fruit", "Cake", "Nuts", "Cookie", "Pie"]
    from itertools import combinations
    desserts = []
    for k in (1, 2, 3):
        for combo in combinations(range(6), k):
            names = [tastes[i] for i in combo]
            did = "_".join(n.upper() for n in names)
            desserts.append({"id": did, "name": " ".join(names).lower(),
                             "tastes": names, "copies": 1})
    guests = []
    for g in range(12):
        a, b = g % 6, (g + 1 + g // 6) % 6
        r = (b + 1) % 6 if (b + 1) % 6 != a else (b + 2) % 6
        extra = next(i for i in range(6) if i not in (a, b, r))
        fav = sorted([a, b, extra])
        favs = [] if g >= 10 else ["_".join(tastes[i].upper() for i in fav)]
        guests.append({"id": "GUEST_%02d" % (g + 1), "name": "Guest %d" % (g + 1),
                       "suit": "none", "wants": [tastes[a], tastes[b]],
                       "refuses": [tastes[r]], "favorites": favs})
    return Deck({"tastes": tastes, "desserts": desserts, "guests": guests})
