"""A minimal engine for Just Desserts (the current rulebook): the protocol's formats, written out.

Run it as an engine::

    tablerules conform just-desserts --engine "python docs/guides/engines/just_desserts.py"

``move_text`` and ``observation`` are what an engine of Just Desserts writes (the formats are
listed in docs/guides/conform-formats.rst); the game itself is tablerules' model (``standin.py``),
so this engine conforms.  Put your engine's moves and state in their place.
"""

from protocol_loop import serve
from standin import StandIn


def cards(ids):
    """`SPONGE+TART`: dessert ids joined by +, sorted."""
    return "+".join(sorted(ids))


def move_text(move):
    verb = move.verb
    if verb in ("serve", "poach"):  # serve GUEST with A+B; poach GUEST with A
        return f"{verb} {move.guest} with {cards(move.cards)}"
    if verb in ("block", "surprise"):  # an answer to a serving: block with A; surprise with F
        return f"{verb} with {cards(move.cards)}"
    if verb in ("dump", "buffet"):  # dump A+B (or dump alone); buffet A+B+C+D
        return f"{verb} {cards(move.cards)}" if move.cards else verb
    if verb == "draw":  # chance: the seat to draw draws this dessert
        return f"draw {cards(move.cards)}"
    if verb == "first":  # chance: who answered first
        return f"first seat {move.seat}"
    if verb in ("turn-up", "depart", "return"):  # turn up GUEST (chance); depart GUEST; return GUEST
        return f"{verb.replace('-', ' ')} {move.guest}"
    return verb  # stop, kitchen, pass


def observation(game, seat):
    state = game.state
    actor = game.to_move()
    every_dessert_in_a_hand = not state.dessert_pile and not state.dessert_discard
    shown = state.setup.options.open_hands != "never" and every_dessert_in_a_hand  # jd.ruling.open-hands
    offer = state.offer
    return {
        "seat": seat,
        "turn": state.turn,
        "phase": state.phase,
        "to_move": int(actor.split()[1]) if actor.startswith("seat ") else actor,
        "hand": sorted(state.hands[seat]),
        "hand_sizes": [len(hand) for hand in state.hands],
        "open_hands": [list(hand) for hand in state.hands] if shown else None,
        "claimed": [list(guests) for guests in state.claimed],
        "centre": list(state.centre),
        "doorway": state.guest_discard[-1] if state.guest_discard else None,
        "guest_discard_size": len(state.guest_discard),
        "guest_pile_size": len(state.guest_pile),
        "dessert_pile_size": len(state.dessert_pile),
        "dessert_discard": list(state.dessert_discard),
        "served": state.served,
        "offer": None if offer is None else {"server": offer.server, "guest": offer.guest,
                                             "cards": list(offer.cards), "victim": offer.victim},
        "legal_moves": [text for text, _ in game.choices()] if actor == f"seat {seat}" else [],
    }


if __name__ == "__main__":
    serve(StandIn("just-desserts", move_text, observation), "minimal just-desserts engine")
