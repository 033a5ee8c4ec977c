"""An independent executable reading of *Who Is Going to Do the Dishes?*.

A game engine speaking the ``tablerules-conform/1`` protocol (JSON lines over a pipe,
or ``Engine().handle(request)`` in process), written from the rulebook text alone.

Sources used, and nothing else:

* the rulebook, ``/work/shared/seeds/003_4ae3e0f0fd79c781.txt``
  (headings: Goal of the Game, Contents, Setup, Play, Example, End of the Game);
* the public component facts in ``/work/shared/data/FACTS.md``
  (section "Who Is Going to Do the Dishes?": 24 tiles, 6 types x 4 colours, 2-4 players).

Modules: ``tiles`` (names, tile-set parsing), ``game`` (the rules: setup, moves, end,
scoring), ``view`` (observation and outcome), ``engine`` (the protocol), ``__main__``
(the JSON-lines loop), ``selftest`` (random-play self-test).
"""

from .engine import Engine

__all__ = ["Engine"]
