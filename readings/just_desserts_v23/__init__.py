"""An executable reading of *Just Desserts*, rules version 2.3 (4/20/6), the
real-time calling game, as an engine speaking ``tablerules-conform/1``.

Written from the rulebook text alone (the 2.3 rules page) plus the public component
facts given with the brief (FACTS.md, section "Just Desserts") and the retail card-list
schema.  Module map: ``deck`` (card list), ``serving`` (which desserts satisfy a
guest), ``game`` (state and moves), ``scoring`` (end of game), ``engine`` (protocol),
``__main__`` (JSON lines over stdin/stdout).  Choices where the text is open are marked
``# CHOICE:`` in the code and listed in NOTES.md.
"""
from .engine import Engine

__all__ = ["Engine"]
