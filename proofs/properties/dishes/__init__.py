"""Who Is Going to Do the Dishes? (spec/dishes.toml): the rulebook's sentences as properties.

Everything here reads a state through the core API only: ``state_vars`` (the table as
place -> "clean" or a pile of tiles, bottom first, plus whose turn it is and which tiles
are waiting for their colour to show), ``observation``, ``to_move``, ``legal_moves``,
``chance_outcomes``, ``apply``, ``illegal_reason``, ``outcome`` and ``parse_move``.  The
rules themselves (what may be turned, what may land where, who moves next, when the game
ends, who loses) are worked out in these modules from the text and the chosen ruling alternatives,
never by calling the model's own rule functions.

What is taken from the model is its *encoding* only: a place is named ``L.KIND`` (layout
``L``, one place per kind in the rulebook's layout order), a tile is ``COLOUR KIND`` (with
``@L``, the layout it was dealt to, where a ruling needs that), moves are written ``turn
P``, ``place P on Q``, ``pass``, ``reveal P COLOUR`` and ``first SEAT``; a small tile set
keeps the first kinds of the layout order and the first colours; seats are numbered
clockwise from the first player; seat ``k`` owns layout ``k`` (under two-layouts also layout
``k + 2``; under spare-layout layout 3 is nobody's); ``turn`` is -1 while chance has still
to pick the first player.

The properties live by clause family, each module with its own table: :mod:`.components`,
:mod:`.setup`, :mod:`.play` and :mod:`.end`; :mod:`.examples` holds the fixed positions.  They
read a state through :mod:`.readers`.  This module gathers the tables in the order they are run
and reported.
"""

from __future__ import annotations

from . import components, end, examples, play, setup

PROPERTIES = (*components.PROPERTIES, *setup.PROPERTIES, *play.PROPERTIES, *end.PROPERTIES)

EXAMPLES = examples.EXAMPLES

UNOBSERVABLE = {
    "dishes.goal": "the goal sentence is flavour: what it means for play is stated by the end clauses",
}
