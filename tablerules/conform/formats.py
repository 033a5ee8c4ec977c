"""What an engine writes for each rule set: the move texts, the observation, the outcome.

The protocol (:mod:`.protocol`) is the same for every rule set; what differs is the language
of its values.  For each rule set, :data:`FORMATS` holds

* the **move grammar**: every form a move text takes (``place P on Q``), a seat's moves and
  chance outcomes apart, with what each word stands for (``P``: a place such as ``0.soup``);
  each form names the clause that allows such a move (the vectors' table,
  :data:`tablerules.vectors.coverage.MOVE_CLAUSES`);
* the **observation**: the keys of the JSON object ``observation`` answers, what each holds and
  the clause that says what a seat may see there (:func:`observation_clause`: the clause a
  difference of the observation is reported under);
* the **outcome**: what ``winners``, ``losers``, ``draw`` and ``scores`` hold.

They are read off the model's code (the moves' ``__str__`` and ``parse_move``, each rule set's
``observation`` and ``outcome``), not the other way round: ``tests/conform/test_formats.py``
checks, over the golden vectors and random games, that every move text of the model matches
exactly one form and every observation has exactly these keys, of these kinds; the guide
(``docs/guides/conform-formats.rst``) prints them with :func:`describe`, in doctests that the
same test compares with this module.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

from tablerules.model.dishes.game import COLOURS, TYPES
from tablerules.vectors.coverage import MOVE_CLAUSES


@dataclass(frozen=True)
class Word:
    """A placeholder of the move grammar (``P``, ``CARDS``)."""

    name: str
    pattern: str
    """A regular expression for it (no groups)."""
    meaning: str


@dataclass(frozen=True)
class Form:
    """One form of move text: ``place P on Q``."""

    text: str
    kind: str
    """The model's move kind (its ``verb``, else its class name): the vectors' clause table's key."""
    meaning: str
    chance: bool = False


@dataclass(frozen=True)
class Field:
    """One key of the observation."""

    key: str
    kind: str
    """A key of :data:`KINDS`."""
    meaning: str
    clause: str | None = None
    """The clause that says what the seat sees there; None: the field shows the state, so a
    difference there names the clause of the step that led to it."""


@dataclass(frozen=True)
class Formats:
    ruleset: str
    words: tuple[Word, ...]
    moves: tuple[Form, ...]
    observation: tuple[Field, ...]
    parts: tuple[tuple[tuple[str, ...], str | None, str], ...]
    """Clauses below the top level of the observation, most specific first: (path, with ``*`` for
    any key; the value of ours there, or None for any; clause)."""
    outcome: str
    first_seat: str | None = None
    """The clause that says which seat moves first (named when the engine starts with another seat)."""
    next_seat: str | None = None
    """The clause that says which seat moves after a seat's move, where one clause says it for every move
    (named when the engine names another seat); None: the clause of the step."""


def _is_seat_or_actor(v: Any) -> bool:
    return (type(v) is int and v >= 0) or v in ("CHANCE", "TERMINAL")


def _strings(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _integers(v: Any) -> bool:
    return isinstance(v, list) and all(type(x) is int for x in v)


def _pile(v: Any) -> bool:
    keys = set(v) if isinstance(v, dict) else set()
    return (keys in ({"top", "height"}, {"top", "height", "tiles"}) and isinstance(v["top"], str)
            and type(v["height"]) is int and _strings(v.get("tiles", [])))


def _offer(v: Any) -> bool:
    return (isinstance(v, dict) and set(v) == {"server", "guest", "cards", "victim"} and type(v["server"]) is int
            and isinstance(v["guest"], str) and _strings(v["cards"]) and type(v["victim"]) is int)


KINDS: dict[str, Callable[[Any], bool]] = {
    "integer": lambda v: type(v) is int,
    "boolean": lambda v: type(v) is bool,
    "string": lambda v: isinstance(v, str),
    "string or null": lambda v: v is None or isinstance(v, str),
    "integer or null": lambda v: v is None or type(v) is int,
    "seat, or \"CHANCE\" or \"TERMINAL\"": _is_seat_or_actor,
    "list of strings": _strings,
    "list of integers": _integers,
    "list of lists of strings": lambda v: isinstance(v, list) and all(_strings(x) for x in v),
    "list of lists of strings, or null": lambda v: v is None or (isinstance(v, list) and all(_strings(x) for x in v)),
    "list of [integer, integer, integer]": lambda v: isinstance(v, list) and all(_integers(x) and len(x) == 3
                                                                                 for x in v),
    "object: place -> \"clean\", \"empty\" or a pile": lambda v: isinstance(v, dict) and all(
        isinstance(k, str) and (x in ("clean", "empty") or _pile(x)) for k, x in v.items()),
    "offer object, or null": lambda v: v is None or _offer(v),
}
"""The kinds of JSON value an observation's key holds, each with its test."""

SEAT = Word("SEAT", r"[0-9]+", "a seat: 0 is the first seat, then clockwise")
_PLACE_KINDS = "|".join(TYPES)
_CARD = r"[^\s+]+"

DISHES = Formats(
    "dishes",
    words=(
        Word("P", rf"[0-9]+\.(?:{_PLACE_KINDS})",
             f"a place: LAYOUT.KIND, LAYOUT a number from 0 (layout L is seat L's; 2 or 3 players may add a "
             f"layout no seat owns) and KIND one of {', '.join(TYPES)}"),
        Word("Q", rf"[0-9]+\.(?:{_PLACE_KINDS})", "a place, as P"),
        Word("COLOUR", "(?:" + "|".join(COLOURS) + ")", f"a soiled side's colour: one of {', '.join(COLOURS)}"),
        SEAT,
    ),
    moves=(
        Form("turn P", "Turn", "turn your own clean tile at P soiled side up"),
        Form("place P on Q", "Place", "put the whole pile at P on the pile at Q"),
        Form("pass", "Pass", "let the turn go by (when stuck; or at will under dishes.ruling.voluntary-pass)"),
        Form("reveal P COLOUR", "Reveal", "the tile just turned at P shows COLOUR", chance=True),
        Form("first SEAT", "FirstPlayer", "SEAT starts (dishes.ruling.first-player = random)", chance=True),
    ),
    observation=(
        Field("seat", "integer", "the seat asked"),
        Field("turn", "integer", "the seat whose turn it is; -1 while chance picks the first player",
              "dishes.play.clockwise"),
        Field("places", "object: place -> \"clean\", \"empty\" or a pile",
              "every place of the table (P): \"clean\" (a tile clean side up: its colour is unseen), "
              "\"empty\", or a pile {\"top\": \"COLOUR KIND\", \"height\": tiles in it}; under "
              "dishes.ruling.covered-tiles = open-piles a pile of two or more also lists \"tiles\", bottom first",
              "dishes.play.top-counts"),
        Field("revealing", "list of strings", "the places whose soiled side chance shows next (P)",
              "dishes.play.turn-own-tile"),
    ),
    parts=(
        (("places", "*", "tiles"), None, "dishes.ruling.covered-tiles"),
        (("places", "*"), "clean", "dishes.setup.hidden-backs"),
    ),
    outcome="winners is always []: the rulebook names only who does the dishes (dishes.end.most-dishes-loses), "
            "never a winner. losers: the seats with the most dishes (all of them on a tie, "
            "dishes.ruling.tie-for-most = all-tied-lose; none and draw true under no-loser). scores: each seat's "
            "dishes (tiles, or piles under dishes.ruling.dishes-count = stacks).",
    first_seat="dishes.play.first-player",
    next_seat="dishes.play.clockwise",
)

JD_WORDS = (
    Word("GUEST", r"\S+", "a guest's id in the deck (FAIRY_GODMOTHER)"),
    Word("CARD", _CARD, "a dessert's id in the deck (SPONGE)"),
    Word("CARDS", rf"{_CARD}(?:\+{_CARD})*",
         "one or more dessert ids joined by +, sorted (by code point, as Python sorts strings): SPONGE+TART"),
)

JUST_DESSERTS = Formats(
    "just-desserts",
    words=JD_WORDS + (Word("N", "[0-9]+", "a seat number"),),
    moves=(
        Form("serve GUEST with CARDS", "serve", "serve GUEST (in the middle or the doorway) these desserts"),
        Form("poach GUEST with CARDS", "poach", "poach another player's GUEST with these desserts"),
        Form("block with CARDS", "block", "block the poach of your guest"),
        Form("surprise with CARDS", "surprise", "intercept a serving with a surprise party"),
        Form("stop", "stop", "serve no more this turn"),
        Form("kitchen", "kitchen", "the turn's option: draw from the kitchen"),
        Form("dump CARD", "dump", "the turn's option: throw this dessert away (one a move, then stop)"),
        Form("dump", "dump", "the turn's option: throw none away (jd.ruling.dump-none)"),
        Form("buffet CARDS", "buffet", "open a buffet with these four aces"),
        Form("pass", "pass", "answer nothing (a block, a surprise, a return)"),
        Form("return GUEST", "return", "give GUEST back after a buffet"),
        Form("depart GUEST", "depart", "send GUEST away in the discard phase"),
        Form("draw CARD", "draw", "the seat to draw draws CARD", chance=True),
        Form("turn up GUEST", "turn-up", "GUEST is turned up into the middle", chance=True),
        Form("first seat N", "first", "seat N answered first (a race of answers)", chance=True),
    ),
    observation=(
        Field("seat", "integer", "the seat asked"),
        Field("turn", "integer", "the seat whose turn it is"),
        Field("phase", "string", "where the turn is: sort, choose, dump, window, return, buffet, discard, over"),
        Field("to_move", "seat, or \"CHANCE\" or \"TERMINAL\"", "who acts now (as to_move, the seat as a number)"),
        Field("hand", "list of strings", "this seat's desserts, sorted", "jd.setup.deal-hands"),
        Field("hand_sizes", "list of integers", "every seat's number of desserts", "jd.setup.deal-hands"),
        Field("open_hands", "list of lists of strings, or null",
              "every hand, once every dessert is in a hand; else null", "jd.ruling.open-hands"),
        Field("claimed", "list of lists of strings", "each seat's claimed guests"),
        Field("centre", "list of strings", "the guests waiting in the middle"),
        Field("doorway", "string or null", "the guest in the doorway (the top of the guest discards), or null"),
        Field("guest_discard_size", "integer", "guests in the discard pile"),
        Field("guest_pile_size", "integer", "guests in the pile"),
        Field("dessert_pile_size", "integer", "desserts in the pile"),
        Field("dessert_discard", "list of strings", "the dessert discard pile, bottom first"),
        Field("served", "integer", "guests served this turn"),
        Field("offer", "offer object, or null",
              "a serving waiting for answers: {\"server\", \"guest\", \"cards\", \"victim\" (-1: not a poach)}"),
        Field("legal_moves", "list of strings", "this seat's legal moves when it is to move, else []"),
    ),
    parts=(),
    outcome="winners: the seat that won ([] on a draw); losers: every other seat; draw: true when nobody won "
            "(jd.ruling.score-full-tie); scores: each seat's number of claimed guests, or its "
            "points where the publisher's scoring decides (jd.ruling.all-guests-claimed).",
    first_seat="jd.first.player",
)

JUST_DESSERTS_23 = Formats(
    "just-desserts-2.3",
    words=JD_WORDS + (Word("S", "[0-9]+", "a seat number"), Word("T", "[0-9]+", "a seat number")),
    moves=(
        Form("call", "Call", "say \"got it\""),
        Form("pass", "Pass", "say \"pass\""),
        Form("favourite", "Favourite", "say \"I have the Favorite\""),
        Form("serve CARDS", "Serve", "the first caller serves the guest these desserts"),
        Form("fail", "Fail", "the first caller cannot serve after all"),
        Form("turn up GUEST", "TurnUp", "the Maitre D' turns up GUEST", chance=True),
        Form("first S", "Race", "seat S called first", chance=True),
        Form("simultaneous", "Race", "the calls were truly simultaneous", chance=True),
        Form("seat T takes CARD from seat S", "Penalty", "a mistaken caller's penalty card", chance=True),
        Form("seat S draws CARD", "Draw", "seat S draws CARD (the deal too)", chance=True),
    ),
    observation=(
        Field("seat", "integer", "the seat asked"),
        Field("players", "integer", "the number of seats"),
        Field("phase", "string", "deal, turn-up, answer, race, trump, counter, serve, penalty, draw or over"),
        Field("to_move", "seat, or \"CHANCE\" or \"TERMINAL\"", "who acts now (as to_move, the seat as a number)"),
        Field("hand", "list of strings", "this seat's desserts, sorted", "jd23.setup.deal-five"),
        Field("hand_sizes", "list of integers", "every seat's number of desserts", "jd23.setup.deal-five"),
        Field("dishes", "list of lists of strings", "each seat's dirty-dish pile (face up)"),
        Field("guests_collected", "list of integers", "each seat's number of served guests (face down)"),
        Field("own_guests", "list of strings", "this seat's served guests"),
        Field("guest", "string or null", "the guest turned up, or null"),
        Field("guest_pile", "integer", "guests in the pile", "jd23.setup.shuffle"),
        Field("discards", "list of strings", "the discarded guests"),
        Field("reshuffled", "boolean", "the guest pile was made again from the discards"),
        Field("dessert_pile", "integer", "desserts in the pile", "jd23.setup.shuffle"),
        Field("set_aside", "integer", "desserts set aside when the kitchen closed"),
        Field("floor", "list of strings", "penalty cards out of play"),
        Field("kitchen_closed", "boolean", "the kitchen is closed"),
        Field("answers", "list of strings", "per seat this round: \"\", \"call\" or \"pass\""),
        Field("mistaken", "list of integers", "first callers who could not serve, in order"),
        Field("first", "integer or null", "the caller who serves now, or null"),
        Field("trumps", "list of strings", "per seat while a call may be trumped: \"\", \"favourite\" or \"pass\""),
        Field("trumped", "boolean", "several callers trumped with a Favorite"),
    ),
    parts=(),
    outcome="winners: the seats ranked first (by guests, then desserts in hand, then dirty dishes: "
            "jd23.score.guests); losers: always [] (version 2.3 ranks, it names no loser); draw: true on a full "
            "tie (jd23.score.full-tie); scores: per seat [guests, desserts in hand, dirty dishes].",
)

FORMATS: dict[str, Formats] = {f.ruleset: f for f in (DISHES, JUST_DESSERTS, JUST_DESSERTS_23)}


# --------------------------------------------------------------------------- reading a text by the grammar


@lru_cache(maxsize=None)
def _form_patterns(ruleset: str) -> tuple[tuple[Form, re.Pattern[str]], ...]:
    fmt = FORMATS[ruleset]
    words = {w.name: w.pattern for w in fmt.words}
    out = []
    for form in fmt.moves:
        parts = [f"(?:{words[t]})" if t in words else re.escape(t) for t in form.text.split(" ")]
        out.append((form, re.compile(" ".join(parts))))
    return tuple(out)


def forms_of(ruleset: str, text: str) -> list[Form]:
    """The forms of the rule set's grammar that the move text ``text`` matches (exactly one, for
    every text the model writes)."""
    return [form for form, pattern in _form_patterns(ruleset) if pattern.fullmatch(text)]


def move_clause(ruleset: str, form: Form) -> str:
    """The clause that allows a move of this form (the vectors' clause table), or ``""``."""
    clauses = MOVE_CLAUSES.get(ruleset, {}).get(form.kind, ())
    return clauses[0] if clauses else ""


# --------------------------------------------------------------------------- differences of observation

NO_CLAUSE = ""
"""A difference no clause of the rules concerns (a key the observation's format does not have)."""


def observation_clause(ruleset: str, path: list[str | int], ours: Any, step_clause: str) -> str:
    """The clause to name for an observation that differs at ``path`` (ours holds ``ours`` there):
    the most specific of the rule set's :attr:`Formats.parts`, else the clause of the top-level
    field; a field that shows the state (clause None) names ``step_clause``, the clause of the step
    that led here; a key that is not in the format (one side has it, the other not) names no clause."""
    fmt = FORMATS.get(ruleset)
    if fmt is None or not path:
        return step_clause
    for pattern, value, clause in fmt.parts:
        if len(path) >= len(pattern) and all(p in ("*", k) for p, k in zip(pattern, path)) and (
                value is None or (len(path) == len(pattern) and ours == value)):
            return clause
    field = next((f for f in fmt.observation if f.key == path[0]), None)
    if field is None:
        return NO_CLAUSE
    return field.clause if field.clause is not None else step_clause


def to_move_clause(ruleset: str, step: int, ours: str, theirs: str, step_clause: str) -> str:
    """The clause to name when the engine says another actor is to move (neither side says the game is
    over): where both name a seat, the clause that says who starts (at the start) or who moves next (the
    rule set's :attr:`Formats.next_seat`); else (a seat against chance) the clause of the step."""
    fmt = FORMATS.get(ruleset)
    both_seats = ours.startswith("seat ") and theirs.startswith("seat ")
    if fmt is not None and both_seats:
        clause = fmt.first_seat if step == 0 else fmt.next_seat
        if clause:
            return clause
    return step_clause


# --------------------------------------------------------------------------- the guide's text


def describe(ruleset: str) -> str:
    """The rule set's formats as the guide prints them: the move grammar, the observation, the outcome."""
    fmt = FORMATS[ruleset]
    width = max(len(f.text) for f in fmt.moves) + 4
    lines = []
    for chance, head in ((False, f"A seat's moves in {ruleset}:"), (True, "Chance outcomes:")):
        lines.append(head)
        for form in (f for f in fmt.moves if f.chance == chance):
            clause = move_clause(ruleset, form)
            lines.append(_folded(f"  {form.text:<{width}}", form.meaning + (f" [{clause}]" if clause else "")))
    lines.append("where")
    wide = max(len(w.name) for w in fmt.words) + 4
    lines += [_folded(f"  {w.name:<{wide}}", w.meaning) for w in fmt.words]
    lines.append("Observation (a JSON object with exactly these keys):")
    key_width = max(len(f.key) for f in fmt.observation) + 4
    for f in fmt.observation:
        clause = f" [{f.clause}]" if f.clause else ""
        lines.append(_folded(f"  {f.key:<{key_width}}", f"{f.kind}: {f.meaning}{clause}"))
    lines.append(_folded("Outcome: ", fmt.outcome))
    return "\n".join(lines)


def _folded(head: str, text: str, width: int = 100) -> str:
    """``head`` then ``text``, folded at spaces within ``width`` characters, the rest under the text."""
    return textwrap.fill(text, width, initial_indent=head, subsequent_indent=" " * len(head),
                         break_long_words=False, break_on_hyphens=False)
