"""A minimal engine for Just Desserts, rules version 2.3: the protocol's formats, written out.

Run it as an engine::

    tablerules conform just-desserts-2.3 --engine "python docs/guides/engines/just_desserts_2_3.py"

``move_text`` and ``observation`` are what an engine of version 2.3 writes (the formats are
listed in docs/guides/conform-formats.rst); the game itself is tablerules' model (``standin.py``),
so this engine conforms.  Put your engine's moves and state in their place.
"""

from protocol_loop import serve
from standin import StandIn

SAID = {"Call": "call", "Pass": "pass", "Favourite": "favourite", "Fail": "fail"}  # what a seat says


def move_text(move):
    kind = type(move).__name__
    if kind in SAID:
        return SAID[kind]
    if kind == "Serve":  # serve A+B: the first caller's desserts, joined by +, sorted
        return "serve " + "+".join(sorted(move.cards))
    if kind == "TurnUp":  # chance: the Maitre D' turns up a guest
        return f"turn up {move.guest}"
    if kind == "Race":  # chance: who called first, or a truly simultaneous call
        return "simultaneous" if move.seat is None else f"first {move.seat}"
    if kind == "Penalty":  # chance: the card a mistaken caller gives up
        return f"seat {move.taker} takes {move.card} from seat {move.seat}"
    return f"seat {move.seat} draws {move.card}"  # chance: a draw (the deal is drawn so too)


def observation(game, seat):
    state = game.state
    actor = game.to_move()
    return {
        "seat": seat,
        "players": state.setup.players,
        "phase": state.phase,
        "to_move": int(actor.split()[1]) if actor.startswith("seat ") else actor,
        "hand": sorted(state.hands[seat]),
        "hand_sizes": [len(hand) for hand in state.hands],
        "dishes": [list(pile) for pile in state.dishes],
        "guests_collected": [len(guests) for guests in state.collected],
        "own_guests": list(state.collected[seat]),
        "guest": state.guest,
        "guest_pile": len(state.guest_pile),
        "discards": list(state.discards),
        "reshuffled": state.reshuffled,
        "dessert_pile": len(state.dessert_pile),
        "set_aside": len(state.set_aside),
        "floor": list(state.floor),
        "kitchen_closed": state.kitchen_closed,
        "answers": list(state.answers),
        "mistaken": list(state.mistaken),
        "first": state.first,
        "trumps": list(state.trumps),
        "trumped": state.trumped,
    }


if __name__ == "__main__":
    serve(StandIn("just-desserts-2.3", move_text, observation), "minimal just-desserts-2.3 engine")
