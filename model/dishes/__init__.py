"""Who Is Going to Do the Dishes? (spec/dishes.toml): the rules and their fast forms.

* ``game``: the rules as an explicit state machine through the core API (tiles, places, the
  deal as chance, moves, the outcome, observations), bundled as :data:`RULES`;
* ``compact`` and ``loops``: the same rules on compact byte rows, the exact engine's kernel
  (tested against ``game`` on small tile sets);
* ``playout``: whole random games in one compiled loop (tested against ``game`` move by move).

The modules import one way: ``game`` and ``loops`` <- ``compact`` <- ``playout``.  This file
names what the other layers use.
"""

from __future__ import annotations

from .game import (
    CLEAN, COLOURS, INVARIANTS, MAX_PLACES, NC, NT, RULES, TYPES, FirstPlayer, Geometry, Move, Options, Pass, Place,
    Reveal, State, Tiles, Turn, apply, canonical, chance_outcomes, deal_probability, geometry, illegal_reason,
    legal_moves, new_game, observation, orbit_size, outcome, parse_deal, parse_move, parse_place, parse_tiles,
    place_text, setup_error, state_vars, table_state, tile_colour, tile_origin, tile_text, tile_type, to_move,
)

__all__ = ["CLEAN", "COLOURS", "INVARIANTS", "MAX_PLACES", "NC", "NT", "RULES", "TYPES", "FirstPlayer", "Geometry",
           "Move", "Options", "Pass", "Place", "Reveal", "State", "Tiles", "Turn", "apply", "canonical",
           "chance_outcomes", "deal_probability", "geometry", "illegal_reason", "legal_moves", "new_game",
           "observation", "orbit_size", "outcome", "parse_deal", "parse_move", "parse_place", "parse_tiles",
           "place_text", "setup_error", "state_vars", "table_state", "tile_colour", "tile_origin", "tile_text",
           "tile_type", "to_move"]
