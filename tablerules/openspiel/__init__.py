"""The three rule sets as OpenSpiel games (the optional extra ``tablerules[openspiel]``).

Importing this package registers ``tablerules_dishes``, ``tablerules_just_desserts`` and
``tablerules_just_desserts_2_3`` with pyspiel, so that::

    import tablerules.openspiel
    game = pyspiel.load_game("tablerules_dishes(players=3,rulings=tie-for-most:no-loser)")

works like any OpenSpiel game: a ruling and its alternative are joined by ``:`` and the
parts of ``rulings`` by ``+``, since OpenSpiel's game strings keep ``=`` and ``,`` for
themselves.  pyspiel checks the parameter names itself, before our code runs, so a string
written the natural way (``rulings=tie-for-most=no-loser``) fails there with a bare
"Unknown parameter ..."; :func:`load` (``tablerules.openspiel.load(game_string)``) checks
the string first and names the accepted form.  See docs/guides/openspiel.rst.  Without OpenSpiel
installed, only :mod:`.parameters` (how a game string is read) can be used.
"""

from __future__ import annotations

try:
    import pyspiel
except ImportError as missing:  # the game strings are read without OpenSpiel (.parameters); nothing else is
    _MISSING: ImportError | None = missing
else:
    _MISSING = None

__all__ = ["GAMES", "GameSpec", "SPECS", "TablerulesState", "check_game_string", "deck_for", "game_name", "load",
           "register"]

if _MISSING is None:
    from .game import SPECS, GameSpec, TablerulesState, check_game_string, deck_for, load, make_game_class

    GAMES: dict[str, type] = {}
    """OpenSpiel short name -> game class."""

    def register() -> None:
        """Register every rule set with pyspiel (once)."""
        registered = set(pyspiel.registered_names())
        for spec in SPECS:
            if spec.short_name in GAMES:
                continue
            cls, game_type = make_game_class(spec)
            GAMES[spec.short_name] = cls
            if spec.short_name not in registered:
                pyspiel.register_game(game_type, cls)

    def game_name(ruleset: str) -> str:
        """The OpenSpiel short name of a rule set id."""
        for spec in SPECS:
            if spec.ruleset == ruleset:
                return spec.short_name
        raise KeyError(f"no OpenSpiel game for rule set {ruleset!r} (known: {', '.join(s.ruleset for s in SPECS)})")

    register()


def __getattr__(name: str) -> object:
    """Without OpenSpiel, what needs it says so (an ImportError, as ``import pyspiel`` would give)."""
    if _MISSING is not None and name in __all__:
        raise ImportError(f"tablerules.openspiel.{name} needs OpenSpiel, which is not installed "
                          f"(pip install 'tablerules[openspiel]'): {_MISSING}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
