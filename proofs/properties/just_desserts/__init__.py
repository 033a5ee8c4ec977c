"""Just Desserts (current rulebook, spec/just_desserts.toml) as executable properties.

Every property reads a game only through the core API (``state_vars``, ``to_move``,
``legal_moves``, ``chance_outcomes``, ``apply``, ``outcome``, ``str(move)``) and the printed
cards of the deck (``state.setup.components``); what satisfies a guest, what a tip is worth,
which guests may leave the middle and so on are worked out here from the rulebook's words,
never asked of the model's own rule functions.  Where the rulebook is silent a ruling
decides, and a property reads the chosen alternative from ``state.setup.options`` with the
meaning the spec gives it.

Three kinds of check:

* *state* properties: the legal moves of a position against what the text allows there
  (both ways: every legal move is allowed, every allowed move is legal), the chance
  outcomes, card conservation, the win conditions;
* *transition* properties: what a move does, often followed a few steps ahead through
  chance and the other players' answers (the draw phase after a turn ends, the tips after a
  serving, the answers to a poach, the returns of a buffet) until the mover decides again;
* *examples*: fixed positions, the rulebook's own worked example first.

A few facts about the turn so far are read from the state's record (``served``,
``committed``, ``poach``, ``shielded``, ``phase``); separate transition properties check
that the record moves as the text says (reset when a turn starts, a serving counted only
when a guest is claimed, and so on), so a wrong record is caught on its own.

The properties live by clause family, each module with its own table: :mod:`.setup`,
:mod:`.turn`, :mod:`.discard`, :mod:`.reshuffle`, :mod:`.winning`, :mod:`.advanced`,
:mod:`.poaching`, :mod:`.buffet` and :mod:`.surprise`; :mod:`.examples` holds the fixed
positions.  They read a game through :mod:`.readers`, and a serving attempt is followed once,
for every family it touches, by :mod:`.serving`.  This module gathers the tables in the order
they are run and reported.
"""

from __future__ import annotations

from .. import Example, Property
from . import advanced, buffet, discard, examples, poaching, reshuffle, setup, surprise, turn, winning

PROPERTIES: tuple[Property, ...] = (
    *setup.PROPERTIES, *turn.PROPERTIES, *discard.PROPERTIES, *reshuffle.PROPERTIES, *winning.PROPERTIES,
    *advanced.PROPERTIES, *poaching.PROPERTIES, *buffet.PROPERTIES, *surprise.PROPERTIES,
)

EXAMPLES: tuple[Example, ...] = examples.EXAMPLES

UNOBSERVABLE: dict[str, str] = {}
