"""The referee's own card data, read from the deck file (never through tablerules.model.decks)."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Cards:
    """Tastes per dessert id, and per guest id: suit, wants, refuses, favourite dessert ids."""

    dessert_tastes: dict[str, frozenset[str]]
    copies: dict[str, int]
    suit: dict[str, str]
    wants: dict[str, frozenset[str]]
    refuses: dict[str, frozenset[str]]
    favourites: dict[str, frozenset[str]]

    @classmethod
    def read(cls, path: str | Path) -> "Cards":
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        tastes = {d["id"]: frozenset(d["tastes"]) for d in data["desserts"]}
        by_name = {d.get("name", d["id"]).casefold(): d["id"] for d in data["desserts"]}
        favs = {}
        for g in data["guests"]:
            favs[g["id"]] = frozenset(f if f in tastes else by_name[f.casefold()] for f in g.get("favorites", []))
        return cls(
            tastes, {d["id"]: d.get("copies", 1) for d in data["desserts"]},
            {g["id"]: g["suit"] for g in data["guests"]},
            {g["id"]: frozenset(g["wants"]) for g in data["guests"]},
            {g["id"]: frozenset(g.get("refuses", [])) for g in data["guests"]}, favs,
        )

    def all_desserts(self) -> Counter:
        return Counter({d: k for d, k in self.copies.items()})

    def all_guests(self) -> Counter:
        return Counter(self.suit.keys())

    def pleases(self, cards, guest: str) -> bool:
        """Every wanted taste present, no refused taste (the referee's own arithmetic)."""
        if not cards:
            return False
        shown = set()
        for c in cards:
            shown |= self.dessert_tastes[c]
        return self.wants[guest] <= shown and not (self.refuses[guest] & shown)

    def servings(self, hand, guest: str, *, minimal: bool = True, most: int | None = None) -> set[tuple[str, ...]]:
        """Every sub-multiset of the hand that pleases the guest (with no card to spare when ``minimal``)."""
        counts = Counter(hand)
        kinds = sorted(counts)
        top = most if most is not None else (len(self.wants[guest]) if minimal else sum(counts.values()))
        out = set()
        for size in range(1, min(top, sum(counts.values())) + 1):
            for combo in itertools.combinations_with_replacement(kinds, size):
                if any(combo.count(k) > counts[k] for k in set(combo)) or not self.pleases(combo, guest):
                    continue
                if minimal and any(self.pleases(combo[:i] + combo[i + 1:], guest) for i in range(len(combo))):
                    continue
                out.add(combo)
        return out

    def is_ace(self, dessert: str) -> bool:
        return len(self.dessert_tastes[dessert]) == 1

    def wins(self, guests) -> bool:
        suits = Counter(self.suit[g] for g in guests)
        return any(k >= 3 for k in suits.values()) or len(suits) >= 5
