"""Just Desserts components: the deck schema, its loader, and what it means to satisfy a guest.

Shared by both Just Desserts rule sets (the current rulebook and version 2.3).  The schema
is the one of the retail card list (``shared/data/just_desserts_2015_deck.json``)::

    {"about": str, "tastes": [str], "suits": [str],
     "desserts": [{"id", "name", "tastes": [str], "copies": int}],
     "guests": [{"id", "name", "suit", "wants": [str], "refuses": [str], "favorites": [str]}]}

A favourite names a dessert by name or id.  A file is read strictly: a regular file of at
most MAX_DECK_BYTES, JSON nested at most MAX_DECK_NESTING levels, each key once, and no key
the schema does not name (:mod:`tablerules.spec.files` reads it).  Decks the project writes
itself live in ``spec/decks/`` and are loaded by name with :func:`embedded_deck`.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections import Counter
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Iterator

from tablerules.spec.files import UnreadableFile, parse_json, read_regular_file

from .core import SetupError

# functions that decide nothing about play, and why (the decision-point finder reads this)
PLUMBING = {
    "_multisubsets": "a card is used no more often than the hand holds it",
    ("_known_keys", "_text", "_card_id"): "deck file validation",
    "_strings": "deck file validation; deck file limits",
    "embedded_deck_names": "lists the embedded decks",
    "embedded_deck": "deck name lookup",
    "deck_argument": "--deck takes a name or a file; neither a shipped deck nor a file",
}


class DeckError(SetupError):
    """A deck file that does not fit the schema; the message is one line naming file, card and problem."""


MAX_DECK_BYTES = 1_000_000
"""Largest deck file read (the retail card list is 16 kB)."""
MAX_DECK_NESTING = 8
"""Deepest JSON a deck file may be (the schema needs four levels)."""
DECK_KEYS = ("about", "name", "tastes", "suits", "desserts", "guests")
"""The keys of a deck file: ``name``, as :meth:`Deck.to_json` writes it, is allowed but not
read (a deck is named by its file, or by whoever loads it)."""
DESSERT_KEYS = ("id", "name", "tastes", "copies")
GUEST_KEYS = ("id", "name", "suit", "wants", "refuses", "favorites")
"""The keys of a dessert and of a guest (the schema in the module docstring)."""
MAX_DESSERT_KINDS = 200
MAX_COPIES = 20
"""Most copies of one dessert card (the retail deck has one of each)."""
MAX_DESSERT_CARDS = 400
"""Most dessert cards in all, copies counted (the retail deck has 76)."""
MAX_GUESTS = 200
MAX_NAMES = 64
"""Most tastes, and most suits, a deck may name."""
MAX_TEXT = 200
"""Longest id, name, taste or suit, in characters."""
MAX_SERVINGS = 1_000_000
"""Most servings with no card to spare the whole deck may offer one guest, counted as sets of
desserts that each show a wanted taste the others do not (at most one per wanted taste): the
moves of a turn list them, so a guest that wants many tastes shown in many ways would make
play list without end (the retail deck: at most 152,201 such sets, for MOJO)."""


@dataclass(frozen=True, slots=True)
class Dessert:
    id: str
    name: str
    tastes: frozenset[str]
    copies: int = 1


@dataclass(frozen=True, slots=True)
class Guest:
    id: str
    name: str
    suit: str
    wants: frozenset[str]
    refuses: frozenset[str]
    favorites: tuple[str, ...]
    """Dessert ids."""


@dataclass(frozen=True)
class Deck:
    name: str
    tastes: tuple[str, ...]
    suits: tuple[str, ...]
    desserts: tuple[Dessert, ...]
    guests: tuple[Guest, ...]
    about: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_dessert", {d.id: d for d in self.desserts})
        object.__setattr__(self, "_guest", {g.id: g for g in self.guests})
        object.__setattr__(self, "_hash", hash((self.name, self.desserts, self.guests)))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined]

    def dessert(self, dessert_id: str) -> Dessert:
        return self._dessert[dessert_id]  # type: ignore[attr-defined]

    def guest(self, guest_id: str) -> Guest:
        return self._guest[guest_id]  # type: ignore[attr-defined]

    def has_dessert(self, dessert_id: str) -> bool:
        return dessert_id in self._dessert  # type: ignore[attr-defined]

    def has_guest(self, guest_id: str) -> bool:
        return guest_id in self._guest  # type: ignore[attr-defined]

    def dessert_cards(self) -> tuple[str, ...]:
        """Every physical dessert card as its id, copies repeated, sorted."""
        return tuple(sorted(d.id for d in self.desserts for _ in range(d.copies)))

    def guest_cards(self) -> tuple[str, ...]:
        return tuple(sorted(g.id for g in self.guests))

    def suit_of(self, guest_id: str) -> str:
        return self.guest(guest_id).suit

    def to_json(self) -> dict[str, Any]:
        """The deck in the schema, in a canonical order (what :meth:`digest` hashes)."""
        return {
            "name": self.name,
            "tastes": list(self.tastes),
            "suits": list(self.suits),
            "desserts": [
                {"id": d.id, "name": d.name, "tastes": sorted(d.tastes), "copies": d.copies}
                for d in sorted(self.desserts, key=lambda d: d.id)
            ],
            "guests": [
                {"id": g.id, "name": g.name, "suit": g.suit, "wants": sorted(g.wants),
                 "refuses": sorted(g.refuses), "favorites": list(g.favorites)}
                for g in sorted(self.guests, key=lambda g: g.id)
            ],
        }

    def digest(self) -> str:
        """sha256 of the canonical JSON of the cards (name excluded): identifies a deck by content."""
        body = self.to_json()
        body.pop("name")
        return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()

    def __repr__(self) -> str:
        return f"Deck({self.name!r}, {len(self.dessert_cards())} desserts, {len(self.guests)} guests)"


# --------------------------------------------------------------------------- satisfying a guest


def tastes_of(deck: Deck, cards: Iterable[str]) -> frozenset[str]:
    """Every taste icon on these dessert cards."""
    out: set[str] = set()
    for c in cards:
        out |= deck.dessert(c).tastes
    return frozenset(out)


def satisfies(deck: Deck, cards: Iterable[str], guest_id: str) -> bool:
    """True if these desserts together give the guest every taste it wants and none it refuses."""
    cards = tuple(cards)
    if not cards:  # rule: jd.serve.satisfies, jd23.satisfy.tastes
        return False
    g = deck.guest(guest_id)
    t = tastes_of(deck, cards)
    return g.wants <= t and not (g.refuses & t)


def is_minimal(deck: Deck, cards: tuple[str, ...], guest_id: str) -> bool:
    """True if no card can be left out and the rest still satisfy the guest."""
    return all(not satisfies(deck, cards[:i] + cards[i + 1:], guest_id) for i in range(len(cards)))


def servings(deck: Deck, hand: Iterable[str], guest_id: str, *, max_cards: int | None = None,
             minimal: bool = False) -> tuple[tuple[str, ...], ...]:
    """Every sub-multiset of ``hand`` (sorted tuples, canonical order) that satisfies the guest.

    ``max_cards`` caps the number of desserts (version 2.3 allows one to three);
    ``minimal`` keeps only servings with no card to spare.
    """
    g = deck.guest(guest_id)
    # rule: jd.serve.satisfies, jd23.satisfy.tastes
    counts = Counter(c for c in hand if not (deck.dessert(c).tastes & g.refuses))
    kinds = sorted(counts)
    out = []
    # rule: jd23.serve.one-to-three, jd.ruling.serving-size
    limit = sum(counts.values()) if max_cards is None else max_cards
    for size in range(1, limit + 1):
        for combo in _multisubsets(kinds, counts, size):
            # rule: jd.serve.satisfies, jd23.satisfy.tastes, jd.ruling.serving-size, jd23.ruling.spare-desserts
            if satisfies(deck, combo, guest_id) and (not minimal or is_minimal(deck, combo, guest_id)):
                out.append(combo)
    return tuple(sorted(out, key=lambda c: (len(c), c)))


def _multisubsets(kinds: list[str], counts: Counter, size: int) -> Iterator[tuple[str, ...]]:
    for combo in itertools.combinations_with_replacement(kinds, size):
        if all(combo.count(k) <= counts[k] for k in set(combo)):
            yield combo


def favorite_used(deck: Deck, cards: Iterable[str], guest_id: str) -> bool:
    """True if one of the served desserts is a favourite of the guest."""
    favs = deck.guest(guest_id).favorites
    return any(c in favs for c in cards)


# --------------------------------------------------------------------------- loading


def load_deck(path: str | Path, *, name: str | None = None) -> Deck:
    """Load a deck file in the schema; DeckError (one line: file, card, problem) if it does not fit."""
    p = Path(path)
    try:
        data = parse_json(read_regular_file(p, MAX_DECK_BYTES), MAX_DECK_NESTING)
    except UnreadableFile as e:
        raise DeckError(f"{p}: cannot read deck: {e}") from None
    return deck_from_json(data, name=name or p.stem, where=str(p))


def _known_keys(where: str, at: str, entry: dict, known: tuple[str, ...]) -> None:
    """DeckError naming the first key of ``entry`` that the schema does not have (a misspelt
    ``favourites`` would otherwise leave a guest with none, without a word)."""
    for key in entry:
        if key not in known:
            raise DeckError(f"{where}: {at}: unknown key {key!r} (known: {', '.join(known)})")


def _strings(where: str, path: str, value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise DeckError(f"{where}: {path}: must be a list of non-empty strings")
    if len(value) > MAX_NAMES or any(len(v) > MAX_TEXT for v in value):
        raise DeckError(f"{where}: {path}: at most {MAX_NAMES} entries of at most {MAX_TEXT} characters")
    return value


def _text(where: str, path: str, value: Any) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_TEXT:
        raise DeckError(f"{where}: {path}: must be a string of 1 to {MAX_TEXT} characters")
    return value


def _card_id(where: str, path: str, value: Any) -> str:
    """A card's id: moves name cards by it (``serve G with A+B``), so it is an identifier in ASCII
    letters, digits and underscores, not starting with a digit."""
    text = _text(where, path, value)
    if not (text.isascii() and text.isidentifier()):  # plumbing: an id a move can name
        raise DeckError(f"{where}: {path}: {text[:60]!r} is not an id: ASCII letters, digits and _ only, "
                        "not starting with a digit")
    return text


def serving_sets(deck: "Deck", guest_id: str) -> int:
    """How many servings with no card to spare the whole deck could offer the guest, at most:
    sets of desserts it will eat, at most one per wanted taste, no two showing the same wanted
    tastes (a serving with no card to spare is one of these).  Counted, never listed."""
    g = deck.guest(guest_id)
    eaten = [d for d in deck.desserts if d.tastes & g.wants and not d.tastes & g.refuses]  # rule: jd.serve.satisfies
    kinds_by_tastes = Counter(d.tastes & g.wants for d in eaten)
    most = len(g.wants)
    sets = [1] + [0] * most  # sets[k]: the sets of k desserts so far
    for kinds in kinds_by_tastes.values():
        for k in range(most, 0, -1):
            sets[k] += sets[k - 1] * kinds
    return sum(sets[1:])


def deck_from_json(data: Any, *, name: str, where: str = "deck") -> Deck:
    """Build and check a Deck from parsed JSON (see the module docstring for the schema)."""
    if not isinstance(data, dict):  # plumbing: deck file validation
        raise DeckError(f"{where}: $: a deck must be a JSON object")
    _known_keys(where, "$", data, DECK_KEYS)
    for key in ("tastes", "suits", "desserts", "guests"):
        if key not in data:  # plumbing: deck file validation
            raise DeckError(f"{where}: $.{key}: missing")
    tastes = _strings(where, "$.tastes", data["tastes"])
    suits = _strings(where, "$.suits", data["suits"])
    if len(set(tastes)) != len(tastes):  # plumbing: deck file validation
        raise DeckError(f"{where}: $.tastes: duplicate taste")
    if len(set(suits)) != len(suits):  # plumbing: deck file validation
        raise DeckError(f"{where}: $.suits: duplicate suit")
    if not isinstance(data["desserts"], list) or not data["desserts"]:  # plumbing: deck file validation
        raise DeckError(f"{where}: $.desserts: must be a non-empty list")
    if not isinstance(data["guests"], list) or not data["guests"]:  # plumbing: deck file validation
        raise DeckError(f"{where}: $.guests: must be a non-empty list")
    if len(data["desserts"]) > MAX_DESSERT_KINDS:  # plumbing: deck file limits
        raise DeckError(f"{where}: $.desserts: more than {MAX_DESSERT_KINDS} kinds of dessert")
    if len(data["guests"]) > MAX_GUESTS:  # plumbing: deck file limits
        raise DeckError(f"{where}: $.guests: more than {MAX_GUESTS} guests")
    desserts: list[Dessert] = []
    ids: set[str] = set()
    by_name: dict[str, str] = {}
    for i, d in enumerate(data["desserts"]):
        at = f"$.desserts[{i}]"
        if not isinstance(d, dict):  # plumbing: deck file validation
            raise DeckError(f"{where}: {at}: must be an object")
        did = _card_id(where, f"{at}.id", d.get("id"))
        at = f"{at} ({did})"
        _known_keys(where, at, d, DESSERT_KEYS)
        if did in ids:  # plumbing: deck file validation
            raise DeckError(f"{where}: {at}: duplicate id {did!r}")
        ids.add(did)
        dname = _text(where, f"{at}.name", d.get("name", did))
        dt = _strings(where, f"{at}.tastes", d.get("tastes"))
        if not dt:  # rule: jd.setup.components
            raise DeckError(f"{where}: {at}.tastes: a dessert needs at least one taste")
        for t in dt:
            if t not in tastes:  # plumbing: deck file validation
                raise DeckError(f"{where}: {at}: unknown taste {t!r}")
        copies = d.get("copies", 1)
        # plumbing: deck file validation
        if not isinstance(copies, int) or isinstance(copies, bool) or not 1 <= copies <= MAX_COPIES:
            raise DeckError(f"{where}: {at}.copies: must be a whole number from 1 to {MAX_COPIES}")
        desserts.append(Dessert(did, dname, frozenset(dt), copies))
        by_name.setdefault(dname.casefold(), did)
    guests: list[Guest] = []
    for i, g in enumerate(data["guests"]):
        at = f"$.guests[{i}]"
        if not isinstance(g, dict):  # plumbing: deck file validation
            raise DeckError(f"{where}: {at}: must be an object")
        gid = _card_id(where, f"{at}.id", g.get("id"))
        at = f"{at} ({gid})"
        _known_keys(where, at, g, GUEST_KEYS)
        if gid in ids:  # plumbing: deck file validation
            raise DeckError(f"{where}: {at}: duplicate id {gid!r}")
        ids.add(gid)
        gname = g.get("name", gid)
        suit = g.get("suit")
        if suit not in suits:  # plumbing: deck file validation
            raise DeckError(f"{where}: {at}.suit: unknown suit {suit!r}")
        wants = _strings(where, f"{at}.wants", g.get("wants"))
        refuses = _strings(where, f"{at}.refuses", g.get("refuses", []))
        if not wants:  # rule: jd.setup.components
            raise DeckError(f"{where}: {at}.wants: a guest must want at least one taste")
        for t in wants + refuses:
            if t not in tastes:  # plumbing: deck file validation
                raise DeckError(f"{where}: {at}: unknown taste {t!r}")
        if set(wants) & set(refuses):  # plumbing: deck file validation: a guest cannot both crave and refuse a taste
            raise DeckError(f"{where}: {at}: wants and refuses the same taste")
        favs = []
        for f in _strings(where, f"{at}.favorites", g.get("favorites", [])):
            # plumbing: a favourite may be named by id or by name
            fid = f if f in {d.id for d in desserts} else by_name.get(f.casefold())
            if fid is None:  # plumbing: deck file validation
                raise DeckError(f"{where}: {at}: favourite {f!r} is not a dessert in the deck")
            favs.append(fid)
        # plumbing: a guest's name defaults to its id
        guests.append(
            Guest(
                gid, gname if isinstance(gname, str) else gid, suit, frozenset(wants), frozenset(refuses), tuple(favs)
            )
        )
    cards = sum(d.copies for d in desserts)
    if cards > MAX_DESSERT_CARDS:  # plumbing: deck file validation
        raise DeckError(f"{where}: $.desserts: {cards:,} dessert cards, more than {MAX_DESSERT_CARDS}")
    per_suit = Counter(g.suit for g in guests)
    for s in suits:
        if per_suit[s] == 0:  # rule: jd.suits.six
            raise DeckError(f"{where}: $.suits: suit {s!r} has no guests")
    if len(set(per_suit.values())) != 1:  # rule: jd.suits.six
        detail = ", ".join(f"{s}: {per_suit[s]}" for s in suits)
        raise DeckError(f"{where}: $.guests: every suit must have the same number of guests ({detail})")
    about = data.get("about", "")
    # plumbing: the deck's optional description
    deck = Deck(
        name, tuple(tastes), tuple(suits), tuple(desserts), tuple(guests), about if isinstance(about, str) else ""
    )
    for i, g in enumerate(guests):
        if serving_sets(deck, g.id) > MAX_SERVINGS:  # plumbing: deck file limits
            raise DeckError(f"{where}: $.guests[{i}] ({g.id}): the deck could serve it {serving_sets(deck, g.id):,} "
                            f"ways with no card to spare ({len(g.wants)} wanted tastes), more than the limit of "
                            f"{MAX_SERVINGS:,}: play lists a hand's servings as its moves")
    return deck


def embedded_deck_names() -> list[str]:
    """Names of the decks the project ships (its own teaching decks)."""
    folder = resources.files("tablerules.spec").joinpath("decks")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


def embedded_deck(name: str) -> Deck:
    """A deck the project ships, by name (file stem in spec/decks/)."""
    if name not in embedded_deck_names():
        raise DeckError(f"unknown embedded deck {name!r} (known: {', '.join(embedded_deck_names())})")
    path = Path(str(resources.files("tablerules.spec").joinpath("decks", name + ".json")))
    return load_deck(path, name=name)


def deck_argument(text: str) -> Deck:
    """A --deck value: an embedded deck name or a file path (DeckError naming both
    possibilities when it is neither)."""
    if text in embedded_deck_names():
        return embedded_deck(text)
    if not Path(text).exists():
        raise DeckError(f"deck {text!r}: no such file, nor a shipped deck ({', '.join(embedded_deck_names())})")
    return load_deck(text)
