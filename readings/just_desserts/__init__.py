"""An independent executable reading of *Just Desserts* (Looney Labs, current rulebook):
the basic game and the advanced rules Poaching & Blocking, Opening a Buffet and Surprise
Parties, as an engine speaking the `tablerules-conform/1` protocol.

Sources: the rulebook text only (/work/shared/seeds/001_3e6c4b93f769387d.txt) and the
public component facts (/work/shared/data/FACTS.md, "Just Desserts").  Where the text
leaves a question open, the code says `# CHOICE:`; all choices are listed in NOTES.md.

Modules: deck (card list), serving (what Satisfies a guest, winning), game (the rules as a
state machine), engine (the protocol), __main__ (JSON lines over stdin/stdout).
"""

from .engine import Engine

__all__ = ["Engine"]
