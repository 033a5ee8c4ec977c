"""A minimal engine for Who Is Going to Do the Dishes?: the protocol's formats, written out.

Run it as an engine::

    tablerules conform dishes --engine "python docs/guides/engines/dishes.py"

``move_text`` and ``observation`` are what an engine of Dishes writes (the formats are listed in
docs/guides/conform-formats.rst); the game itself is tablerules' model (``standin.py``), so this
engine conforms.  Put your engine's moves and state in their place.
"""

from protocol_loop import serve
from standin import StandIn

KINDS = ("dessert", "main", "drinks", "forks", "soup", "knives")  # a layout's places, in layout order
COLOURS = ("red", "yellow", "c3", "c4")


def place(index):
    """`1.soup`: the place of this kind in that layout (layout L is seat L's)."""
    return f"{index // len(KINDS)}.{KINDS[index % len(KINDS)]}"


def tile(code):
    """`red soup`: a tile's soiled side, by its colour and kind."""
    from tablerules.model.dishes.game import tile_colour, tile_type  # the stand-in's tile codes

    return f"{COLOURS[tile_colour(code)]} {KINDS[tile_type(code)]}"


def move_text(move):
    kind = type(move).__name__
    if kind == "Turn":  # a seat turns its own clean tile
        return f"turn {place(move.place)}"
    if kind == "Place":  # a seat puts a whole pile on another
        return f"place {place(move.source)} on {place(move.target)}"
    if kind == "Pass":
        return "pass"
    if kind == "Reveal":  # chance: the tile just turned shows its colour
        return f"reveal {place(move.place)} {COLOURS[move.colour]}"
    return f"first {move.seat}"  # chance: who starts (dishes.ruling.first-player = random)


def observation(game, seat):
    state = game.state
    open_piles = state.setup.options.covered_tiles == "open-piles"
    places = {}
    for index, pile in enumerate(state.places):
        if pile is None:  # clean side up: its colour is seen by nobody
            places[place(index)] = "clean"
        elif not pile:
            places[place(index)] = "empty"
        else:  # a pile: its top tile and how many tiles it holds
            places[place(index)] = {"top": tile(pile[-1]), "height": len(pile)}
            if open_piles and len(pile) > 1:  # dishes.ruling.covered-tiles = open-piles: every tile, bottom first
                places[place(index)]["tiles"] = [tile(code) for code in pile]
    return {"seat": seat, "turn": state.turn, "places": places, "revealing": [place(i) for i in state.reveal]}


if __name__ == "__main__":
    serve(StandIn("dishes", move_text, observation), "minimal dishes engine")
