"""The card list: loading a deck file (the brief's schema) and a built-in default deck.

Static card facts only (tastes, suits, cravings, refusals, favourites).  A `Deck` never
changes during a game, so `copy.deepcopy` shares it instead of copying it.
"""

import json


class DeckError(ValueError):
    """The card list cannot be read or makes no sense."""


class Deck:
    """Immutable card facts, indexed for fast serving checks.

    Attributes:
      dessert_ids   sorted list of dessert ids
      copies        dessert id -> number of identical copies in the deck
      dmask         dessert id -> bit mask of its taste icons
      ace           set of dessert ids with exactly one taste icon ("Aces", Opening a Buffet)
      guest_ids     sorted list of guest ids
      suit          guest id -> suit
      wants         guest id -> bit mask of its cravings
      refuses       guest id -> bit mask of the tastes it refuses
      favorites     guest id -> frozenset of dessert ids that are its Favorites
    """

    def __init__(self, data, name="deck"):
        if not isinstance(data, dict):
            raise DeckError("deck file is not a JSON object")
        self.name = name
        tastes = list(data.get("tastes") or [])
        desserts = data.get("desserts")
        guests = data.get("guests")
        if not isinstance(desserts, list) or not isinstance(guests, list):
            raise DeckError("deck needs 'desserts' and 'guests' lists")
        bit = {}

        def taste_bit(t):
            if t not in bit:
                if t not in tastes:
                    tastes.append(t)
                bit[t] = 1 << len(bit)
            return bit[t]

        for t in tastes:
            taste_bit(t)
        self.copies, self.dmask, self.ace = {}, {}, set()
        by_name = {}
        for d in desserts:
            try:
                did = str(d["id"])
                ts = list(d.get("tastes") or [])
                n = int(d.get("copies", 1))
            except (KeyError, TypeError, ValueError) as exc:
                raise DeckError("bad dessert entry: %r" % (d,)) from exc
            if did in self.copies:
                raise DeckError("duplicate dessert id %s" % did)
            if n < 0:
                raise DeckError("negative copies for %s" % did)
            m = 0
            for t in ts:
                m |= taste_bit(t)
            self.copies[did] = n
            self.dmask[did] = m
            if len(set(ts)) == 1:
                self.ace.add(did)
            if "name" in d:
                by_name.setdefault(str(d["name"]), did)
                by_name.setdefault(str(d["name"]).lower(), did)
        self.dessert_ids = sorted(self.copies)
        self.suit, self.wants, self.refuses, self.favorites = {}, {}, {}, {}
        for g in guests:
            try:
                gid = str(g["id"])
                suit = str(g["suit"])
            except (KeyError, TypeError) as exc:
                raise DeckError("bad guest entry: %r" % (g,)) from exc
            if gid in self.suit or gid in self.copies:
                raise DeckError("duplicate id %s" % gid)
            w = r = 0
            for t in g.get("wants") or []:
                w |= taste_bit(t)
            for t in g.get("refuses") or []:
                r |= taste_bit(t)
            favs = set()
            for f in g.get("favorites") or []:
                f = str(f)
                did = f if f in self.copies else by_name.get(f, by_name.get(f.lower()))
                # CHOICE: a favourite naming no dessert of the deck is ignored.
                if did is not None:
                    favs.add(did)
            self.suit[gid] = suit
            self.wants[gid] = w
            self.refuses[gid] = r
            self.favorites[gid] = frozenset(favs)
        self.guest_ids = sorted(self.suit)
        self.total_desserts = sum(self.copies.values())

    def __deepcopy__(self, memo):
        return self

    def __copy__(self):
        return self

    def can_anyone_win(self):
        """Winning needs three guests of one suit or five of different suits."""
        per_suit = {}
        for s in self.suit.values():
            per_suit[s] = per_suit.get(s, 0) + 1
        return len(per_suit) >= 5 or any(n >= 3 for n in per_suit.values())


def load_deck(path):
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError) as exc:
        raise DeckError("cannot read deck file %s: %s" % (path, exc)) from exc
    return Deck(data, name=str(path))


# The built-in deck used when `components` is null: a synthetic deck of this reading's own
# design (not the retail card list).  Twelve tastes; six suits of four guests; every guest
# craves two tastes, refuses one and has one Favourite that satisfies it alone; 12 Aces
# (one per taste) and 36 two-taste desserts.
def default_deck():
    tastes = ["Chocolate", "Cookie", "Nuts", "Pie", "Spices", "Ice Cream", "Fruit",
              "Cake", "Marshmallow", "Pastry", "Veggies", "Pudding"]
    suits = ["s1", "s2", "s3", "s4", "s5", "s6"]
    desserts = []
    for i, t in enumerate(tastes):
        desserts.append({"id": "ACE_%d" % i, "name": "Plain %s" % t, "tastes": [t], "copies": 1})
    pairs = []
    for i in range(12):
        for step in (1, 3, 5):
            j = (i + step) % 12
            pairs.append((i, j))
    for i, j in pairs:
        desserts.append({"id": "D_%d_%d" % (i, j), "name": "%s %s" % (tastes[i], tastes[j]),
                         "tastes": [tastes[i], tastes[j]], "copies": 1})
    guests = []
    for k in range(24):
        i, j = pairs[(k * 3 + k // 12) % len(pairs)]
        refuse = tastes[(i + 6) % 12]
        if refuse == tastes[j]:
            refuse = tastes[(i + 7) % 12]
        guests.append({"id": "G_%02d" % k, "name": "Guest %d" % k, "suit": suits[k % 6],
                       "wants": [tastes[i], tastes[j]], "refuses": [refuse],
                       "favorites": ["D_%d_%d" % (i, j)]})
    return Deck({"tastes": tastes, "suits": suits, "desserts": desserts, "guests": guests},
                name="builtin-synthetic")
