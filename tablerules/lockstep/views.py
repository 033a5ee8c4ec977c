"""The model's observation in the shape the readings' briefs give (readings/*/BRIEF.md).

A reading's brief fixes the keys of an observation and what each holds, never what a seat
may see when: that is the reading's to decide.  Each function here writes our model's view of
``state`` for ``seat`` in that shape, from the model's own ``observation`` (so a seat sees here
exactly what it sees in the model), adding only what the brief asks for by another name.  The
key ``legal_moves`` is left out: the lockstep compares the legal moves on their own.
"""

from __future__ import annotations

from typing import Any, Callable

from tablerules.model.core import RuleSet


def _sorted_lists(lists: Any) -> list[list[str]]:
    return [sorted(x) for x in lists]


def just_desserts(rules: RuleSet, state: Any, seat: int) -> dict[str, Any]:
    """The current rulebook's observation (readings/just_desserts/BRIEF.md)."""
    ours = rules.observation(state, seat)
    n = state.setup.players
    open_hands = ours["open_hands"]
    visible = [sorted(open_hands[s]) if open_hands is not None else (sorted(ours["hand"]) if s == seat else None)
               for s in range(n)]
    offer = ours["offer"]
    return {
        "seat": seat, "turn": ours["turn"], "to_move": ours["to_move"], "hand": sorted(ours["hand"]),
        "hand_sizes": list(ours["hand_sizes"]), "visible_hands": visible, "claimed": _sorted_lists(ours["claimed"]),
        "centre": sorted(ours["centre"]), "dessert_pile_size": ours["dessert_pile_size"],
        "dessert_discard": sorted(ours["dessert_discard"]), "guest_pile_size": ours["guest_pile_size"],
        "guest_discard_size": ours["guest_discard_size"],
        "guest_discard_top": state.guest_discard[-1] if state.guest_discard else None,
        "offer": None if offer is None else {"seat": offer["server"], "guest": offer["guest"],
                                             "cards": sorted(offer["cards"])},
    }


def just_desserts_v23(rules: RuleSet, state: Any, seat: int) -> dict[str, Any]:
    """Version 2.3's observation (readings/just_desserts_v23/BRIEF.md)."""
    ours = rules.observation(state, seat)
    return {
        "seat": seat, "to_move": ours["to_move"], "hand": sorted(ours["hand"]), "hand_sizes": list(ours["hand_sizes"]),
        "dishes": _sorted_lists(ours["dishes"]), "guests_collected": list(ours["guests_collected"]),
        "own_guests": sorted(ours["own_guests"]), "guest": ours["guest"], "guest_pile": ours["guest_pile"],
        "discards": sorted(ours["discards"]), "dessert_pile": ours["dessert_pile"],
        "kitchen_closed": ours["kitchen_closed"],
    }


def dishes(rules: RuleSet, state: Any, seat: int) -> dict[str, Any]:
    """Who Is Going to Do the Dishes?'s observation (readings/dishes/BRIEF.md): the brief gives the model's own
    shape (the places of every layout, and the places whose colour chance shows next)."""
    ours = rules.observation(state, seat)
    return {"seat": seat, "turn": ours["turn"], "places": dict(ours["places"]), "revealing": sorted(ours["revealing"])}


def dishes_outcome(state: Any, outcome: dict[str, Any]) -> dict[str, Any]:
    """The brief's outcome: no winners, the seats who do the dishes, and what the model counts for each seat
    (the outcome's scores: dishes.ruling.dishes-count)."""
    return {**outcome, "scores": list(outcome["scores"]) if outcome.get("scores") is not None else None}


def just_desserts_outcome(state: Any, outcome: dict[str, Any]) -> dict[str, Any]:
    """The brief's outcome: winners, losers, draw, and the guests each seat has claimed as its score."""
    return {**outcome, "scores": [len(c) for c in state.claimed]}


def just_desserts_v23_outcome(state: Any, outcome: dict[str, Any]) -> dict[str, Any]:
    """The brief's outcome without losers: the model ranks 2.3's players and names winners only (a seat that
    did not win has not lost a scored game), so losers are not compared; scores are the guests collected."""
    return {"winners": outcome["winners"], "draw": outcome["draw"], "scores": [len(c) for c in state.collected]}


OUTCOMES: dict[str, Callable[[Any, dict[str, Any]], dict[str, Any]]] = {
    "just-desserts": just_desserts_outcome,
    "just-desserts-2.3": just_desserts_v23_outcome,
    "dishes": dishes_outcome,
}
"""Rule set id -> our outcome (winners, losers, draw) in its readings' shape."""


def outcome_view(rules: RuleSet, state: Any, outcome: dict[str, Any]) -> dict[str, Any]:
    return OUTCOMES[rules.id](state, outcome)


OUTCOME_KEYS = {"just-desserts": ("winners", "losers", "draw", "scores"),
                "just-desserts-2.3": ("winners", "draw", "scores"),
                "dishes": ("winners", "losers", "draw", "scores")}
"""The keys of an outcome compared in each rule set (:data:`OUTCOMES`)."""


def reading_outcome(rules: RuleSet, theirs: dict[str, Any]) -> dict[str, Any]:
    """A reading's outcome with the keys ours has in this rule set's shape (a missing draw means no winner)."""
    got = {"winners": sorted(theirs.get("winners", [])), "losers": sorted(theirs.get("losers", [])),
           "draw": bool(theirs.get("draw", not theirs.get("winners"))), "scores": theirs.get("scores")}
    return {k: got[k] for k in OUTCOME_KEYS[rules.id]}


TABLE_KEYS = {
    "just-desserts": frozenset({"seat", "turn", "to_move", "hand", "hand_sizes", "claimed", "centre",
                                "dessert_pile_size", "dessert_discard", "guest_pile_size", "guest_discard_size",
                                "guest_discard_top", "offer"}),
    "just-desserts-2.3": frozenset({"seat", "to_move", "hand", "hand_sizes", "dishes", "guests_collected",
                                    "own_guests", "guest", "guest_pile", "discards", "dessert_pile",
                                    "kitchen_closed"}),
    "dishes": frozenset({"seat", "turn", "places", "revealing"}),
}
"""The keys of an observation that describe the position itself (a seat's own hand, the piles, the guests):
where one differs the two games are no longer in the same position.  The other keys say only what a seat may
see of it (another player's hand)."""


def table_keys(rules: RuleSet) -> frozenset[str]:
    return TABLE_KEYS[rules.id]


VIEWS: dict[str, Callable[[RuleSet, Any, int], dict[str, Any]]] = {
    "just-desserts": just_desserts,
    "just-desserts-2.3": just_desserts_v23,
    "dishes": dishes,
}
"""Rule set id -> our observation in its readings' shape."""


def view(rules: RuleSet, state: Any, seat: int) -> dict[str, Any]:
    return VIEWS[rules.id](rules, state, seat)
