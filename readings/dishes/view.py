"""What a seat sees, and the result at the end.

Setup: nobody looks at the back of a clean picture, not even its owner, so every seat sees
the same thing: where the tiles lie, which are clean, and the top of every dirty pile.
"""

from .tiles import NTYPES, TYPES, COLOURS, place_tables
from .game import CLEAN


def observation(game, seat):
    names = place_tables(game.n)[0]
    places = {}
    for i, c in enumerate(game.cells):
        if c is None:
            places[names[i]] = "empty"
        elif c is CLEAN:
            # CHOICE (protocol detail): a tile just turned over, whose colour chance
            # has yet to show, is still listed "clean"; `revealing` names it, and
            # `turn` stays with the seat that turned it.  Alternative: list it as a
            # pile, which the observation cannot express without a colour.
            places[names[i]] = "clean"
        else:
            t, col = c[-1]
            places[names[i]] = {"top": COLOURS[col] + " " + TYPES[t], "height": len(c)}
    return {
        "seat": seat,
        # CHOICE (protocol detail): once the game is over, `turn` keeps the seat that
        # would have been next in clockwise order.
        "turn": game.seat,
        "places": places,
        "revealing": [] if game.pending is None else [names[game.pending]],
    }


def outcome(game):
    if not game.over:
        return None
    scores = game.scores()
    top = max(scores)
    # End of the Game: the player with the most dishes loses and washes up.
    # CHOICE: the rulebook (and FACTS.md) gives no tie-break; every player tied for the
    # most washes up (all are losers, even when all players tie; no draw).
    # Alternatives: a tie is a draw; or a tie-break (e.g. most piles, last to move).
    losers = [s for s, v in enumerate(scores) if v == top]
    return {"winners": [], "losers": losers, "draw": False, "scores": scores}
