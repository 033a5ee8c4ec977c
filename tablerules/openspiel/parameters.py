"""The game strings of the tablerules_* OpenSpiel games, read without OpenSpiel.

A game string is ``NAME(KEY=VALUE,...)``, as OpenSpiel writes it
(open_spiel/game_parameters.cc, GameParametersFromString).  Our games take ``players``,
``rulings`` (``ruling:alternative`` pairs and optional-rule names joined by ``+``, e.g.
``tie-for-most:no-loser+first-player:random``: OpenSpiel's game strings keep ``=`` and ``,``
for themselves) and ``deck`` (a ``--deck`` argument); the Just Desserts games also
``max_game_length`` and ``max_actions``.  :func:`read_game_string` reads one into its
parameters, typed as OpenSpiel types them, and says which the string gives; ``tablerules
conform --engine openspiel:...`` reads the run's setup from it with no OpenSpiel installed, and
:mod:`.game` builds the games from the same functions.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from tablerules.model import registry
from tablerules.model.core import STRICT, SetupError, parse_options, short_ruling_name

from ..limits import WHOLE_NUMBER

PARAMETERS: dict[str, tuple[str, dict[str, Any]]] = {
    "tablerules_dishes": ("dishes", {"players": 2, "rulings": "", "deck": "box"}),
    "tablerules_just_desserts": ("just-desserts", {"players": 2, "rulings": "", "deck": "", "max_game_length": 1000,
                                                   "max_actions": 4096}),
    "tablerules_just_desserts_2_3": ("just-desserts-2.3", {"players": 2, "rulings": "", "deck": "",
                                                           "max_game_length": 1000, "max_actions": 4096}),
}
"""OpenSpiel short name -> (rule set id, its parameters and their defaults).  An empty ``deck`` (the
Just Desserts default) is :func:`deck_for` the player count."""

RULINGS_FORM = "NAME:ALT[+NAME:ALT...] (optional rules by name, joined by the same +)"
"""What the ``rulings`` parameter takes, as the error messages say it."""


@dataclass(frozen=True)
class GameString:
    """A game string read: the game's short name, its rule set (None for a game not of ours) and
    the parameters the string gives, typed."""

    text: str
    short_name: str
    ruleset: str | None
    given: dict[str, Any] = field(default_factory=dict)

    def parameters(self) -> dict[str, Any]:
        """Every parameter of the game: the defaults, then what the string gives."""
        defaults = PARAMETERS[self.short_name][1] if self.short_name in PARAMETERS else {}
        return {**defaults, **self.given}


def _top_level(text: str) -> list[str]:
    """The parameters of a game string's ``(...)``, split at commas outside nested parentheses,
    as OpenSpiel splits them (open_spiel/game_parameters.cc, GameParametersFromString)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p for p in parts if p]


def _typed(value: str, default: Any) -> Any:
    """A parameter's text as OpenSpiel types it: as its default's type for our games; else true /
    false, an integer, a real number (with a point) or the text itself."""
    if isinstance(default, bool) or (default is None and value in ("true", "false")):
        if value not in ("true", "false"):
            raise SetupError(f"expected true or false, not {value!r}")
        return value == "true"
    if isinstance(default, int) or (default is None and WHOLE_NUMBER.fullmatch(value)):
        if not (value.isascii() and WHOLE_NUMBER.fullmatch(value)):  # ASCII digits: not " 1", "1_0" or "\u0661"
            raise SetupError(f"expected a whole number, not {value[:40]!r} (ASCII digits, a minus sign at most)")
        return int(value)
    if default is None and "." in value:
        try:
            return float(value)
        except ValueError:
            return value
    return value


def check_game_string(text: str) -> None:
    """SetupError (one line, naming the accepted form) for a game string of ours that
    OpenSpiel would refuse with its bare "Unknown parameter": ``rulings`` written with ``=``
    between a ruling and its alternative, or its parts joined by ``,``; or a parameter the
    game does not take.  Other strings, and other games' strings, pass unchanged."""
    name, paren, rest = text.strip().partition("(")
    known = PARAMETERS.get(name.strip())
    if known is None or not paren:
        return
    short, params = name.strip(), known[1]
    if not rest.endswith(")"):
        raise SetupError(f"{short}: the game string must end with ')'; got {text!r}")
    rulings: list[str] = []
    after_rulings = natural = False
    for part in _top_level(rest[:-1]):
        key, eq, value = part.partition("=")
        if eq and key in params:
            after_rulings = key == "rulings"
            if after_rulings:
                rulings, natural = [value], natural or "=" in value
            continue
        if after_rulings:  # a ruling after a comma: rulings=a:x,b:y or rulings=a=x,b=y
            rulings.append(part)
            natural = True
            continue
        raise SetupError(f"{short}: unknown parameter {key!r} (takes {', '.join(params)}; "
                         f"rulings takes {RULINGS_FORM})")
    if natural:
        given = ",".join(rulings)
        fixed = "+".join(p.replace("=", ":", 1) for p in given.replace(",", "+").split("+") if p)
        raise SetupError(f"{short}: rulings takes {RULINGS_FORM}, since OpenSpiel's game strings keep "
                         f"'=' and ',' for themselves; got rulings={given}; write rulings={fixed}")


def read_game_string(text: str) -> GameString:
    """The game string ``NAME`` or ``NAME(KEY=VALUE,...)`` read; SetupError (one line) for one
    OpenSpiel would refuse (:func:`check_game_string`) or that is not of that form."""
    check_game_string(text)
    name, paren, rest = text.strip().partition("(")
    short = name.strip()
    if not short or (paren and not rest.endswith(")")):
        raise SetupError(f"game string {text!r}: expected NAME or NAME(KEY=VALUE,...)")
    ruleset, defaults = PARAMETERS.get(short, (None, {}))
    given: dict[str, Any] = {}
    for part in _top_level(rest[:-1]) if paren else []:
        key, eq, value = part.partition("=")
        if not eq or not key:
            raise SetupError(f"game string {text!r}: expected KEY=VALUE, not {part!r}")
        try:
            given[key] = _typed(value, defaults.get(key))
        except SetupError as e:
            raise SetupError(f"{short}({key}=...): {e}") from None
    return GameString(text, short, ruleset, given)


@lru_cache(maxsize=None)
def _shipped_decks(ruleset: str) -> tuple:
    """(name, components) of the rule set's default deck, then of every other shipped deck it
    loads, smallest first (fewest dessert cards, then name)."""
    from tablerules.model.decks import embedded_deck_names

    rules = registry.get(ruleset)
    default = rules.default_components()
    others = []
    for name in embedded_deck_names():
        if name == default.name:
            continue
        try:
            others.append((name, rules.load_components(name)))
        except Exception:  # a deck this rule set cannot read is no candidate
            continue
    others.sort(key=lambda nd: (len(nd[1].dessert_cards()), nd[0]))
    return ((default.name, default), *others)


@lru_cache(maxsize=None)
def deck_for(ruleset: str, players: int) -> str | None:
    """The deck an empty ``deck`` parameter stands for with ``players`` seats: the rule set's
    default deck if it deals that many hands (jd.setup.deal-hands, jd23.setup.deal-five),
    else the smallest shipped deck that does (Just Desserts: jd-two-suits for 2, jd-crowd
    for 3, jd-five-suits for 4, v23-tips for 5; version 2.3: v23-tiny for 2, v23-tips for
    3 to 5).  None when no shipped deck deals that many."""
    rules = registry.get(ruleset)
    for name, components in _shipped_decks(ruleset):
        try:
            rules.setup(players, rules.Options(), components)
        except SetupError:
            continue
        return name
    return None


def parse_rulings(rules: Any, text: str) -> Any:
    """Options from ``"tie-for-most:no-loser+poaching"`` (``=`` and ``,`` are taken too, where
    no game string is involved); SetupError (one line) on bad input.

    A ``strict`` alternative stops play where the rulebook is silent, and voluntary passes
    make Dishes games endless (dishes.ruling.voluntary-pass): OpenSpiel needs a complete,
    finite game, so both are refused."""
    parts = [p.strip().replace(":", "=", 1) for p in text.replace(",", "+").split("+") if p.strip()]
    options = parse_options(rules.Options, [p for p in parts if "=" in p], variants=[p for p in parts if "=" not in p],
                            # as the game string writes it
                            said=lambda text, ruling: "rulings=" + text.replace("=", ":", 1))
    for p in parts:
        if p.endswith("=" + STRICT):
            raise SetupError(f"rulings={p.replace('=', ':', 1)}: strict alternatives stop play where the rules are "
                             "silent; OpenSpiel needs every game to go on to an end")
    if rules.id == "dishes" and options.voluntary_pass == "allowed":
        raise SetupError("rulings=voluntary-pass:allowed: games need not end (proof termination-voluntary-pass); "
                         "OpenSpiel needs a bound on their length")
    return options


def rulings_text(options: Any) -> str:
    """The ``rulings`` parameter that gives ``options``: what differs from the defaults."""
    base = type(options)()
    parts = []
    for f in dataclasses.fields(options):
        value = getattr(options, f.name)
        if value == getattr(base, f.name):
            continue
        if "variant" in f.metadata:
            parts.append(f.metadata["variant"])
        else:
            parts.append(f"{short_ruling_name(f.metadata['ruling'])}:{value}")
    return "+".join(parts)
