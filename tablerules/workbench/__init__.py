"""The judge's workbench: a local web application over the core API (``tablerules workbench``).

A page where a judge or a player chooses a rule set, its players, components, every ruling's
alternative and a seed; sees the position drawn (the docs' pictures) from the all-seeing view
or any seat's; plays the legal moves and chance outcomes (exact probabilities) with a history
to step back through; loads a game from an ITF vector or a text log, or a ruling's witness;
*asks* whether a move may be made (the answer ``tablerules judge`` gives, under every
alternative of every ruling that bears on it); *compares* two alternatives of a ruling from
the position on; and *exports* the line as an ITF vector and as a link that reopens it.

The work is split by what it does:

* :mod:`.bounds`: what the server reads at most (request sizes, JSON depth, games held,
  moves in a line), and bad input as one line;
* :mod:`.catalog`: what there is to choose (rule sets, rulings, decks, witnesses) and the
  setup a page asks for, from those choices only (no file is named by a page);
* :mod:`.games`: one game on the workbench: its line of moves, the cursor, replay, random draws,
  loading and exporting;
* :mod:`.store`: the games held, bounded in number, each tab its own;
* :mod:`.views`: what the page shows of a game, an answer and a comparison, as JSON;
* :mod:`.compare`: a ruling's two alternatives played side by side, and where they part;
* :mod:`.app`: the routes (Starlette), every failure a one-line message;
* :mod:`.serving`: the application served by uvicorn in a thread (tests and the docs' screenshots).

Only :mod:`.app` and :mod:`.serving` need the optional extra ``tablerules[workbench]``.
"""
