"""Why a move is refused, in the game's words: the line the judge prints beside the clause.

``illegal_reason`` names the clause a move breaks; :func:`why` says what in the position
breaks it, read from the core API alone (``state_vars``, the move's text, the deck a Just
Desserts setup holds): the desserts a serving lacks or that a guest refuses (jd.serve.satisfies,
jd23.satisfy.tastes), a card that could be left out (jd.ruling.serving-size,
jd23.ruling.spare-desserts), a dessert the hand does not hold; for Dishes, the two tops that
share neither kind nor colour (dishes.play.place-match), a place that holds no pile to move
(dishes.play.place-dirty), a place that holds no clean tile to turn (dishes.play.turn-own-tile).
An empty string where nothing more than the clause can be said.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tablerules.model.core import ruling_fields
from tablerules.model.decks import Deck, is_minimal, tastes_of


def why(rules: Any, state: Any, move: Any, clause: str) -> str:
    """One line: what in ``state`` makes ``move`` break ``clause`` ('' when the clause says it all)."""
    view = rules.state_vars(state)
    deck = state.setup.components
    if isinstance(view.get("places"), dict):  # a table of places (Dishes)
        return _places_why(view["places"], str(move), clause)
    if isinstance(deck, Deck):  # a Just Desserts deck: servings by tastes
        return _serving_why(rules, state, view, move, deck)
    return ""


# --------------------------------------------------------------------------- servings (both Just Desserts editions)


def _serving_why(rules: Any, state: Any, view: dict[str, Any], move: Any, deck: Deck) -> str:
    cards = tuple(getattr(move, "cards", ()) or ())
    guest = getattr(move, "guest", "") or _guest_on_offer(view)
    seat = rules.to_move(state)
    hands = view.get("hands")
    if not cards or not isinstance(seat, int) or not isinstance(hands, list) or not 0 <= seat < len(hands):
        return ""
    missing = Counter(cards) - Counter(hands[seat])
    if missing:  # the hand: jd.turn.satisfy-guests serves from one's own hand
        held = Counter(hands[seat])
        return "; ".join(f"seat {seat} holds {_copies(held[c])} {c}, the move names {_copies(cards.count(c))}"
                         for c in sorted(missing))
    if not guest or not deck.has_guest(guest):
        return ""
    g = deck.guest(guest)
    refused = [f"{c} shows {', '.join(sorted(deck.dessert(c).tastes & g.refuses))}"
               for c in sorted(set(cards)) if deck.dessert(c).tastes & g.refuses]
    lacking = sorted(g.wants - tastes_of(deck, cards))
    parts = []
    if refused:
        parts.append(f"{guest} refuses {_taste_list(g.refuses)}: {'; '.join(refused)}")
    if lacking:
        verb = "shows" if len(cards) == 1 else "show"
        parts.append(f"{guest} wants {_taste_list(g.wants)}; {'+'.join(cards)} {verb} no {_taste_list(lacking, 'or')}")
    if parts:
        return "; ".join(parts)
    minimal = _minimal_ruling(rules, state)
    if minimal and not is_minimal(deck, cards, guest):
        spare = [c for i, c in enumerate(cards) if _still_satisfies(deck, cards[:i] + cards[i + 1:], guest)]
        return (f"{spare[0]} could be left out and the rest would still satisfy {guest} ({minimal}: a serving has no "
                "card to spare)")
    return _moment_why(view, move, guest, cards, seat)


def _moment_why(view: dict[str, Any], move: Any, guest: str, cards: tuple[str, ...], seat: int) -> str:
    """A sound serving refused all the same: where the guest is, a poach already made or blocked,
    or how many guests were served (jd.discard.doorway, jd.poach.attempt, jd.poach.one-opportunity,
    jd.surprise.no-poach-back, jd.turn.satisfy-guests)."""
    sound = f"{'+'.join(cards)} would satisfy {guest}"
    verb = getattr(move, "verb", "")
    claimed = view.get("claimed") if isinstance(view.get("claimed"), list) else []
    holder = next((s for s, guests in enumerate(claimed) if guest in guests), None)
    centre, waiting = view.get("centre"), view.get("guest_discard")
    if verb == "poach":
        if holder is None or holder == seat:
            return f"{sound}, but {guest} is not another player's guest: a poach takes a guest another player holds"
        if guest in (view.get("shielded") or ()):
            return f"{sound}, but {guest} was taken by a surprise this turn: it is poached back on a later turn only"
        if view.get("poach") in ("done", "blocked"):
            return f"{sound}, but a poach was {'made' if view['poach'] == 'done' else 'blocked'} this turn already"
    elif isinstance(centre, list) and isinstance(waiting, list) and guest not in centre and guest not in waiting[-1:]:
        doorway = waiting[-1] if waiting else "nobody"
        where = f"seat {holder} holds it" if holder is not None else f"the middle holds {', '.join(centre) or 'nobody'}"
        return f"{sound}, but {guest} is neither in the middle nor in the doorway ({where}; the doorway: {doorway})"
    if isinstance(view.get("served"), int) and view["served"]:
        n = view["served"]
        return f"{sound}, but {_copies(n)} guest{' was' if n == 1 else 's were'} served this turn already"
    return f"{sound}: the serving is sound, the moment is not"


def _guest_on_offer(view: dict[str, Any]) -> str:
    """The guest a window's answers are about (current rulebook's offer) or the one being called for (2.3)."""
    offer = view.get("offer")
    if isinstance(offer, dict) and isinstance(offer.get("guest"), str):
        return offer["guest"]
    return view.get("guest") if isinstance(view.get("guest"), str) else ""


def _still_satisfies(deck: Deck, cards: tuple[str, ...], guest: str) -> bool:
    g = deck.guest(guest)
    shown = tastes_of(deck, cards)
    return bool(cards) and g.wants <= shown and not g.refuses & shown


def _minimal_ruling(rules: Any, state: Any) -> str:
    """`jd.ruling.serving-size=minimal` (or 2.3's spare-desserts ruling) where the setup asks for no
    card to spare, else ''."""
    for rid, f in ruling_fields(rules.Options).items():
        if getattr(state.setup.options, f.name) == "minimal":
            return f"{rid}=minimal"
    return ""


def _copies(n: int) -> str:
    return {0: "no", 1: "one", 2: "two", 3: "three"}.get(n, f"{n:,}")


def _taste_list(tastes: Any, last: str = "and") -> str:
    items = sorted(tastes)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {last} {items[-1]}"


# --------------------------------------------------------------------------- places (Dishes)


def _places_why(places: dict[str, Any], text: str, clause: str) -> str:
    words = text.split()
    named = [w for w in words if w in places]
    unknown = [w for w in words if "." in w and w not in places]
    if unknown:
        return f"this table has no place {unknown[0]}"
    if words[:1] == ["turn"] and named:
        return _turn_why(named[0], places[named[0]])
    if words[:1] == ["place"] and len(named) == 2:
        return _place_why(named[0], named[1], places, clause)
    return ""


def _pile(value: Any) -> str:
    if value == "clean":
        return "a clean tile"
    if not value:
        return "nothing (empty)"
    return f"a dirty pile of {len(value)} topped by {value[-1]}"


def _turn_why(place: str, value: Any) -> str:
    if value == "clean":
        return f"{place} holds a clean tile, but not one of the seat's own layout"
    return f"only a clean tile of one's own layout is turned; {place} holds {_pile(value)}"


def _place_why(source: str, target: str, places: dict[str, Any], clause: str) -> str:
    if source == target:
        return f"a pile cannot be placed on itself ({source})"
    for p in (source, target):
        if not isinstance(places[p], list) or not places[p]:
            return f"{p} holds {_pile(places[p])}: a move goes from a dirty pile onto a dirty pile"
    top, under = places[source][-1], places[target][-1]
    if clause.endswith("place-match"):
        return f"{top} (top of {source}) and {under} (top of {target}) share neither kind nor colour"
    return f"{source} is topped by {top}, {target} by {under}"
