"""The core API every rule set implements (see DESIGN.md, "model/").

A rule set is a module with pure functions over frozen, hashable states::

    new_game(setup) -> State               # the state before play; chance may move first
    to_move(state) -> Actor                # a seat (int), CHANCE or TERMINAL
    legal_moves(state) -> tuple[Move, ...] # for a seat, in canonical order
    chance_outcomes(state) -> Sequence[tuple[Move, Fraction]]  # exact, sums to 1 (a tuple, or a PileDraw)
    apply(state, move) -> State            # raises IllegalMove naming the clause
    illegal_reason(state, move) -> str | None
    outcome(state) -> Outcome | None
    observation(state, seat) -> JSON-able  # what that seat may see
    parse_move(text, setup) -> Move

bundled in a :class:`RuleSet` value so that the explorer, the vector writer and the
command line work on any rule set alike.  Rulings are options: a frozen dataclass per
rule set whose fields are declared with :func:`ruling`.
"""

from __future__ import annotations

import dataclasses
import itertools
from bisect import bisect_right
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache, update_wrapper
from inspect import CO_VARARGS
from operator import is_
from typing import Any, Callable, Iterable, Iterator, Mapping, Protocol, Sequence

# functions that decide nothing about play, and why (the decision-point finder reads this)
PLUMBING = {
    "actor_text": "how reports name an actor",
    ("IllegalMove.__init__", "RuleGap.__init__"): "message text",
    "read_number": "the numbers in a move's or a --deck value's text",
    "Outcome.summary": "summary text",
    "_jsonable": "JSON form of scores",
    "violated": "collects the invariants a state breaks; each invariant cites its clause",
    "variant_fields": "finds the Options fields of optional rules",
    "ruling_fields": "finds the Options fields of rulings",
    "check_options": "checks a user's option values",
    "command_line_said": "error text",
    "parse_options": "parses --option; parses --ruling; parses options",
    "all_options": "enumerates option combinations",
    "strict_options": "builds strict options",
    "Setup.__eq__": "equality of setups",
    "RuleSet.successors": "dispatch on who moves",
    "check_distribution": "validates a model's chance distribution",
    "remember_last": "the arguments asked last; the argument asked last; an answer remembered or not",
    "pile_counts": "no two copies of a card (every retail card is one of a kind)",
    "chances_of_counts": "one of each card: one chance for all",
    "MoveTable.at_chance": "the first pile of this size",
    "draw_outcomes": "one of each card: the pairs shared by every pile of this size",
    "pick_by_probability": "a pile drawn from; running sums kept by Outcomes; rounding past the sum picks the last",
    "PileDraw.pick": "rounding past the pile's end picks the last card",
    "PileDraw.listed": "listed once",
    "PileDraw.__eq__": "compared as the tuple it lists",
    "play": "replays moves given as text",
    "check_chance_move": "looks up a chance move's probability",
}

# --------------------------------------------------------------------------- actors


class _Special:
    """A pseudo-actor: CHANCE (a random event is next) or TERMINAL (the game is over)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name

    def __reduce__(self) -> str:
        return self.name


CHANCE = _Special("CHANCE")
TERMINAL = _Special("TERMINAL")
Seat = int
Actor = Any  # Seat | CHANCE | TERMINAL


def actor_text(actor: Actor) -> str:
    """`seat 0`, `CHANCE` or `TERMINAL`: how reports and vectors name an actor."""
    return f"seat {actor}" if isinstance(actor, int) else repr(actor)


# --------------------------------------------------------------------------- errors


class IllegalMove(ValueError):
    """A move the rules forbid in this state; ``clause`` is the id of the clause that forbids it."""

    def __init__(self, clause: str, move: object, detail: str = "") -> None:
        self.clause = clause
        self.move = move
        self.detail = detail
        super().__init__(f"illegal move {move}: {detail} [{clause}]" if detail else f"illegal move {move} [{clause}]")


class RuleGap(Exception):
    """Raised by a ``strict`` ruling alternative where the rulebook does not say what happens."""

    def __init__(self, ruling: str, detail: str = "") -> None:
        self.ruling = ruling
        self.detail = detail
        super().__init__(f"rule gap {ruling}: {detail}" if detail else f"rule gap {ruling}")


class MoveSyntaxError(ValueError):
    """Text that is not a move of this rule set."""


class SetupError(ValueError):
    """A configuration the rules do not allow (player count, components, options)."""


MAX_NUMBER_DIGITS = 9
"""Most digits of a number in a move's or a setting's text (a seat, a layout, a tile count)."""


def read_number(text: str) -> int | None:
    """The whole number ``text`` writes as the tool writes numbers, or None: ASCII digits only
    (no sign, no space, no underscore, no other script's digits), no leading zero (``0`` itself
    is a number), at most :data:`MAX_NUMBER_DIGITS` digits.  So every number has one spelling,
    the one ``str`` gives, and a move read back prints as it was written."""
    if not (0 < len(text) <= MAX_NUMBER_DIGITS and text.isascii() and text.isdigit()):
        return None
    if text[0] == "0" and len(text) > 1:  # plumbing: 007 is not how the tool writes 7
        return None
    return int(text)


# --------------------------------------------------------------------------- outcome


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended.

    ``winners`` and ``losers`` are seats; a game may name either or both (Dishes names a
    loser, Just Desserts a winner).  ``draw`` is true when the rules name nobody.
    ``scores`` is per seat where the rules count something; ``clause`` is the clause or
    ruling that decided the result.
    """

    winners: frozenset[int] = frozenset()
    losers: frozenset[int] = frozenset()
    draw: bool = False
    scores: tuple[Any, ...] = ()
    clause: str = ""
    detail: str = ""

    def summary(self) -> str:
        """A short text for tables: `loser 1`, `winners 0,2`, `draw`, ..."""
        parts = []
        if self.winners:
            parts.append(
                ("winner " if len(self.winners) == 1 else "winners ") + ",".join(map(str, sorted(self.winners)))
            )
        if self.losers:
            parts.append(("loser " if len(self.losers) == 1 else "losers ") + ",".join(map(str, sorted(self.losers))))
        if self.draw or not parts:
            parts.append("draw")
        return "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": sorted(self.winners),
            "losers": sorted(self.losers),
            "draw": self.draw,
            "scores": [_jsonable(s) for s in self.scores],
            "clause": self.clause,
            "summary": self.summary(),
        }


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


# --------------------------------------------------------------------------- invariants


@dataclass(frozen=True)
class Invariant:
    """A named property every reachable state must have, tied to the clause it protects.

    ``check`` returns None when the state is fine, else a short text saying what is wrong.
    """

    name: str
    clause: str
    check: Callable[[Any], str | None]
    doc: str = ""


def violated(invariants: Iterable[Invariant], state: Any) -> list[tuple[Invariant, str]]:
    """Every invariant the state breaks, with what is wrong."""
    found = []
    for inv in invariants:
        try:
            problem = inv.check(state)
        except Exception as e:  # a state so broken that the check itself fails
            problem = f"invariant raised {type(e).__name__}: {e}"
        if problem is not None:
            found.append((inv, problem))
    return found


# --------------------------------------------------------------------------- rulings as options

STRICT = "strict"


def ruling(ruling_id: str, default: str, *others: str, doc: str = "") -> Any:
    """Declare an Options field for ruling ``ruling_id``: its default alternative first.

    The alternatives are kept in the field's metadata, where tests compare them with
    spec/ and :func:`parse_options` checks the values a user gives.
    """
    alternatives = (default, *others)
    return field(default=default, metadata={"ruling": ruling_id, "alternatives": alternatives, "doc": doc})


def variant(name: str, doc: str = "") -> Any:
    """Declare an Options field for an optional rule (an advanced rule), off by default."""
    return field(default=False, metadata={"variant": name, "doc": doc})


def variant_fields(options_cls: type) -> dict[str, dataclasses.Field]:
    """Variant name -> dataclass field, for an Options class."""
    return {f.metadata["variant"]: f for f in dataclasses.fields(options_cls) if "variant" in f.metadata}


def ruling_fields(options_cls: type) -> dict[str, dataclasses.Field]:
    """Ruling id -> dataclass field, for an Options class."""
    return {f.metadata["ruling"]: f for f in dataclasses.fields(options_cls) if "ruling" in f.metadata}


def check_options(options: Any) -> None:
    """Raise SetupError if a field holds a value that is not one of its alternatives."""
    for f in dataclasses.fields(options):
        if "alternatives" in f.metadata:
            value = getattr(options, f.name)
            if value not in f.metadata["alternatives"]:
                raise SetupError(
                    f"ruling {f.metadata['ruling']}: unknown alternative {value!r} "
                    f"(choose from {', '.join(f.metadata['alternatives'])})"
                )


def short_ruling_name(ruling_id: str) -> str:
    """`dishes.ruling.deal-2-players` -> `deal-2-players`."""
    return ruling_id.split(".ruling.", 1)[-1]


def command_line_said(text: str, ruling: bool) -> str:
    """How the command line shows a ruling (``--ruling 'ID=ALT'``) or option it was given."""
    return f"--ruling {text!r}" if ruling else f"--option {text!r}"


def parse_options(options_cls: type, pairs: Sequence[str], base: Any = None, variants: Sequence[str] = (),
                  said: Callable[[str, bool], str] = command_line_said) -> Any:
    """Options from `ID=ALTERNATIVE` texts (ID full or short) and variant names; one-line
    SetupError on bad input, naming the bad text as ``said(text, is_ruling)`` shows it (the
    command line's form by default; another tool passes its own)."""
    by_variant = variant_fields(options_cls)
    changes: dict[str, Any] = {}
    for name in variants:
        vf = by_variant.get(name)
        if vf is None:
            known = ", ".join(sorted(by_variant)) or "none"
            raise SetupError(f"{said(name, False)}: unknown option (known: {known})")
        changes[vf.name] = True
    by_id = ruling_fields(options_cls)
    by_short = {short_ruling_name(k): v for k, v in by_id.items()}
    for pair in pairs:
        if "=" not in pair:
            raise SetupError(f"{said(pair, True)}: expected ID=ALTERNATIVE")
        key, value = (s.strip() for s in pair.split("=", 1))
        f = by_id.get(key) or by_short.get(key)
        if f is None:
            known = ", ".join(sorted(by_short))
            raise SetupError(f"{said(pair, True)}: unknown ruling {key!r} (known: {known})")
        if value not in f.metadata["alternatives"]:
            raise SetupError(
                f"{said(pair, True)}: unknown alternative {value!r} for {f.metadata['ruling']} "
                f"(choose from {', '.join(f.metadata['alternatives'])})"
            )
        changes[f.name] = value
    return dataclasses.replace(base if base is not None else options_cls(), **changes)


def options_text(options: Any) -> dict[str, str]:
    """Ruling id -> chosen alternative (how vectors and reports record the options)."""
    out = {}
    for f in dataclasses.fields(options):
        key = f.metadata.get("ruling") or f.metadata.get("variant") or f.name
        out[key] = getattr(options, f.name)
    return out


def all_options(options_cls: type, include_strict: bool = False, **fixed: Any) -> Iterator[Any]:
    """Every combination of ruling alternatives (the cartesian product), optionally without strict."""
    fs = [f for f in dataclasses.fields(options_cls) if "alternatives" in f.metadata and f.name not in fixed]
    choices = [
        [a for a in f.metadata["alternatives"] if include_strict or a != STRICT] for f in fs
    ]
    for combo in itertools.product(*choices):
        yield options_cls(**fixed, **{f.name: v for f, v in zip(fs, combo)})


def strict_options(options_cls: type, **fixed: Any) -> Any:
    """Options with every ruling that has a ``strict`` alternative set to it."""
    values = {}
    for f in dataclasses.fields(options_cls):
        if f.name in fixed:
            values[f.name] = fixed[f.name]
        elif STRICT in f.metadata.get("alternatives", ()):
            values[f.name] = STRICT
    return options_cls(**values)


# --------------------------------------------------------------------------- the setup of a game


class Setup:
    """Players, options (rulings) and components of one game: fixed for the whole game.

    Every state holds its Setup, so the rule functions need nothing else.  The hash is
    computed once; equality is by value.
    """

    __slots__ = ("players", "options", "components", "_hash")

    def __init__(self, players: int, options: Any, components: Any = None) -> None:
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "options", options)
        object.__setattr__(self, "components", components)
        object.__setattr__(self, "_hash", hash((players, options, components)))

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple:
        return (Setup, (self.players, self.options, self.components))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Setup):
            return NotImplemented
        return (
            self._hash == other._hash
            and self.players == other.players
            and self.options == other.options
            and self.components == other.components
        )

    def __repr__(self) -> str:
        return f"Setup(players={self.players}, options={self.options!r})"


# --------------------------------------------------------------------------- the rule set value


class Components(Protocol):
    """What a rule set's components offer: a name and a content digest."""

    name: str

    def digest(self) -> str: ...


@dataclass(frozen=True)
class RuleSet:
    """One rule set's functions, bundled so generic tools can drive any of them."""

    id: str
    title: str
    spec_file: str
    Options: type
    player_counts: tuple[int, ...]
    new_game: Callable[[Setup], Any]
    to_move: Callable[[Any], Actor]
    legal_moves: Callable[[Any], tuple]
    chance_outcomes: Callable[[Any], tuple]
    apply: Callable[[Any, Any], Any]
    illegal_reason: Callable[[Any, Any], str | None]
    outcome: Callable[[Any], Outcome | None]
    observation: Callable[[Any, int], Any]
    parse_move: Callable[[str, Setup], Any]
    state_vars: Callable[[Any], dict[str, Any]]
    invariants: tuple[Invariant, ...]
    default_components: Callable[[], Any] = lambda: None
    load_components: Callable[[str], Any] | None = None
    symmetries: Mapping[str, Callable[[Any], Any]] = field(default_factory=dict)
    """Named canonicalisers: state -> representative of its orbit under that symmetry."""
    default_symmetry: str | None = None
    """The symmetry reduction explorations use unless told otherwise (a key of ``symmetries``)."""
    setup_error: Callable[[Setup], str | None] = lambda setup: None
    """Why a setup is not allowed (player count for these components, ...), or None."""
    absent: Callable[[Any, Setup], tuple[str, str] | None] = lambda move, setup: None
    """(clause, one line) for what a parsed move names that this setup does not have (a place
    the table lacks), or None: such a move is no move of the setup at all, reported as such
    rather than as a move some rule of play forbids (the readers of logs and the judge ask it)."""
    table_state: Callable[[Any], Any] | None = None
    """What any player sees of a state, as a hashable value: the unit the exact engine counts."""

    API = ("new_game", "to_move", "legal_moves", "chance_outcomes", "apply", "illegal_reason", "outcome",
           "observation", "parse_move", "state_vars")
    """The functions every rule set module defines under these names."""

    @classmethod
    def from_module(cls, namespace: Mapping[str, Any], **fields: Any) -> "RuleSet":
        """Bundle a rule set module's functions (its ``globals()``) with its metadata.

        Takes the functions named in :attr:`API`, ``Options`` and ``INVARIANTS`` from the
        module, and the remaining fields (id, title, ...) from the keywords."""
        taken = {name: namespace[name] for name in cls.API}
        return cls(Options=namespace["Options"], invariants=tuple(namespace["INVARIANTS"]), **taken, **fields)

    def setup(self, players: int, options: Any = None, components: Any = None) -> Setup:
        """A checked Setup; raises SetupError naming what is wrong."""
        if players not in self.player_counts:  # rule: dishes.components.players, jd.players.count, jd23.setup.players
            counts = ", ".join(map(str, self.player_counts))
            # plumbing: wording of the error
            raise SetupError(
                f"{self.id}: {players} player{'' if players == 1 else 's'} is not allowed (allowed: {counts})"
            )
        options = self.Options() if options is None else options  # plumbing: default options
        check_options(options)
        components = self.default_components() if components is None else components  # plumbing: default components
        s = Setup(players, options, components)
        problem = self.setup_error(s)
        if problem:  # plumbing: the rule set's own set-up check decides; it cites its clauses
            raise SetupError(f"{self.id}: {problem}")
        return s

    def successors(self, state: Any) -> list[tuple[Any, Fraction | None, Any]]:
        """(move, probability or None, next state) for every way play can go on."""
        actor = self.to_move(state)
        if actor is TERMINAL:
            return []
        if actor is CHANCE:
            return [(m, p, self.apply(state, m)) for m, p in self.chance_outcomes(state)]
        return [(m, None, self.apply(state, m)) for m in self.legal_moves(state)]


def check_distribution(outcomes: Sequence[tuple[Any, Fraction]]) -> str | None:
    """None if the chance outcomes are distinct moves with exact positive Fractions summing to 1."""
    total = Fraction(0)
    seen = set()
    for move, p in outcomes:
        if not isinstance(p, Fraction) or p <= 0:
            return f"probability of {move} is {p!r}, not a positive Fraction"
        if move in seen:
            return f"the chance outcome {move} is listed twice"
        seen.add(move)
        total += p
    if outcomes and total != 1:
        return f"chance probabilities sum to {total}, not 1"
    return None


class Probability(Fraction):
    """An exact chance probability that also keeps its float value: ``float(p)`` is the hot
    path of random play (``Fraction`` works it out anew each time).  It compares, hashes,
    prints and computes as the ``Fraction`` of the same value (arithmetic gives a ``Fraction``)."""

    __slots__ = ("_float",)

    def __new__(cls, numerator: Any = 0, denominator: Any = None) -> "Probability":
        self = super().__new__(cls, numerator, denominator)
        self._float = self._numerator / self._denominator
        return self

    def __float__(self) -> float:
        return self._float

    def __repr__(self) -> str:
        return f"Fraction({self._numerator}, {self._denominator})"

    def __reduce__(self) -> tuple:
        return (Probability, (self._numerator, self._denominator))


@lru_cache(maxsize=1 << 12)
def probability(k: int, total: int) -> Probability:
    """``k / total`` as a shared :class:`Probability` (the chance of one of ``k`` cards among ``total``)."""
    return Probability(k, total)


class Outcomes(tuple):
    """Chance outcomes, a tuple of (move, probability), that keeps its running float sums for
    sampling (:func:`pick_by_probability`).  A rule set may return one from
    ``chance_outcomes`` and share it between states; it compares and prints as a tuple."""

    cumulative: tuple[float, ...]

    def __new__(cls, items: Iterable[tuple[Any, Fraction]]) -> "Outcomes":
        self = super().__new__(cls, items)
        self.cumulative = tuple(itertools.accumulate(p.numerator / p.denominator for _, p in self))
        return self

    @classmethod
    def of_draw(cls, moves: "MoveTable", cards: Sequence[Any], counts: Sequence[int]) -> "Outcomes":
        """Outcomes drawn from a pile: ``moves[cards[i]]`` with ``counts[i]`` of the pile's cards
        (:func:`draw_outcomes`)."""
        self = super().__new__(cls, draw_outcomes(moves, cards, counts))
        self.cumulative = tuple(itertools.accumulate(counts))
        return self

    @classmethod
    def of_counts(
        cls, moves: Sequence[Any], counts: Sequence[int], probability: Callable[[int, int], Fraction]
    ) -> "Outcomes":
        """Outcomes drawn from a pile: ``moves[i]`` has ``counts[i]`` of the pile's cards, so
        probability ``counts[i] / total`` (``probability(k, total)`` gives the Fraction)."""
        self = super().__new__(cls, zip(moves, chances_of_counts(counts, probability)))
        self.cumulative = tuple(itertools.accumulate(counts))
        return self


class PileDraw(Sequence):
    """The outcomes of drawing one card from a pile held as a sorted tuple (copies together; in any order
    when no card has two copies, listed then in that order): the move that draws each card
    (``moves[card]``), with probability copies / size, as :meth:`Outcomes.of_draw` lists them.
    Nothing is listed until asked: a random draw
    (:meth:`pick`, which :func:`pick_by_probability` uses) takes the card at a uniform position of
    the pile, the card a search of the running counts finds for the same number, so play that
    only samples never lists a pile of seventy cards.  Read as a sequence it is that list, and it
    compares equal to it (and to any tuple of the same pairs)."""

    __slots__ = ("moves", "pile", "_listed")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        PILE_DRAWS.add(cls)

    def __init__(self, moves: "MoveTable", pile: Sequence[Any]) -> None:
        self.moves = moves
        self.pile = pile
        self._listed: Outcomes | None = None

    def pick(self, r: float) -> Any:
        """The move of the card at position ``r * size`` of the pile (``r`` uniform in [0, 1)): the
        card whose copies cover that position, so each card with probability copies / size."""
        pile = self.pile
        i = int(r * len(pile))
        return self.moves[pile[i if i < len(pile) else -1]]

    def listed(self) -> "Outcomes":
        """Every outcome, (move, probability), made on the first call and kept."""
        if self._listed is None:
            self._listed = Outcomes.of_draw(self.moves, *pile_counts(self.pile))
        return self._listed

    @property
    def cumulative(self) -> tuple[float, ...]:
        return self.listed().cumulative

    def __len__(self) -> int:
        return len(self.listed())

    def __bool__(self) -> bool:
        return bool(self.pile)

    def __getitem__(self, index: Any) -> Any:
        return self.listed()[index]

    def __iter__(self) -> Iterator[tuple[Any, Fraction]]:
        return iter(self.listed())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PileDraw):
            other = other.listed()
        return tuple.__eq__(self.listed(), other) if isinstance(other, tuple) else NotImplemented

    def __hash__(self) -> int:
        return tuple.__hash__(self.listed())

    def __repr__(self) -> str:
        return repr(tuple(self.listed()))


PILE_DRAWS: set[type] = {PileDraw}
"""PileDraw and its subclasses (a compiled state's draw): what :func:`pick_by_probability` asks to pick."""


def remember_last(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn(state, ...)`` remembered for the arguments it was last asked about, by identity
    (states, piles and decks are immutable).  Play asks twice about each state (the harness or
    explorer, then ``apply`` checking the move), so this serves the second question without
    hashing the state, and keeps nothing else alive (an ``lru_cache`` of states that are never
    asked about again only makes work for the garbage collector).  ``cache_clear`` forgets it,
    as for ``functools.lru_cache``."""
    last: list[tuple[tuple, Any]] = [((), None)]  # (the arguments, the answer), replaced as one value

    def remembered_any(*args: Any) -> Any:
        asked, value = last[0]
        if len(args) == len(asked) and all(map(is_, args, asked)):
            return value
        value = fn(*args)
        last[0] = (args, value)
        return value

    def remembered_one(arg: Any) -> Any:
        asked, value = last[0]
        if asked and arg is asked[0]:
            return value
        value = fn(arg)
        last[0] = ((arg,), value)
        return value

    def cache_clear() -> None:
        last[0] = ((), None)

    def known(*args: Any) -> Any:
        """The answer remembered for exactly these arguments (by identity), or None if they are not the last asked."""
        asked, value = last[0]
        return value if len(args) == len(asked) and all(map(is_, args, asked)) else None

    one = fn.__code__.co_argcount == 1 and not fn.__code__.co_flags & CO_VARARGS  # plumbing: one argument, no *args
    remembered = remembered_one if one else remembered_any
    update_wrapper(remembered, fn)
    remembered.cache_clear = cache_clear  # type: ignore[attr-defined]
    remembered.known = known  # type: ignore[attr-defined]
    return remembered


def pile_counts(pile: Sequence[Any]) -> tuple[Sequence[Any], Sequence[int]]:
    """(the cards, how many copies of each) of a pile held as a sorted tuple, where the copies of
    a card stand together: what a draw of one card chooses among."""
    if len(set(pile)) == len(pile):
        return pile, (1,) * len(pile)
    cards: list[Any] = []
    counts: list[int] = []
    for c in pile:
        if cards and cards[-1] == c:
            counts[-1] += 1
        else:
            cards.append(c)
            counts.append(1)
    return cards, counts


def chances_of_counts(counts: Sequence[int],
                      probability: Callable[[int, int], Fraction] = probability) -> Sequence[Fraction]:
    """``probability(k, total)`` for each count ``k`` of a pile of ``total`` cards."""
    total = sum(counts)
    if total and total == len(counts):
        return (probability(1, total),) * total
    return tuple(map(probability, counts, itertools.repeat(total)))


class MoveTable(dict):
    """Card -> the chance move that draws it, each made by ``make(card)`` on first use and then
    shared (a draw from a pile of seventy cards lists seventy moves)."""

    def __init__(self, make: Callable[[Any], Any]) -> None:
        super().__init__()
        self.make = make
        self.by_size: dict[int, MoveTable] = {}

    def __missing__(self, card: Any) -> Any:
        move = self[card] = self.make(card)
        return move

    def at_chance(self, total: int) -> "MoveTable":
        """Card -> (its move, probability 1 / ``total``): the outcomes of a draw from a pile of
        ``total`` cards, one of each, shared by every such pile."""
        table = self.by_size.get(total)
        if table is None:
            p = probability(1, total)
            table = self.by_size[total] = MoveTable(lambda card: (self[card], p))
        return table


def draw_outcomes(moves: MoveTable, cards: Sequence[Any], counts: Sequence[int]) -> Iterator[tuple[Any, Fraction]]:
    """(the move that draws it, its probability) for each card of a pile where ``cards[i]``
    has ``counts[i]`` copies (:func:`pile_counts`)."""
    if len(cards) == sum(counts) and cards:
        return map(moves.at_chance(len(cards)).__getitem__, cards)
    return zip(map(moves.__getitem__, cards), chances_of_counts(counts))


def pick_by_probability(items: Sequence[tuple[Any, Fraction]], r: float) -> Any:
    """The item a uniform draw ``r`` in [0, 1) selects when each has its probability (the
    last one if rounding leaves ``r`` past the sum).  For sampling chance outcomes."""
    if type(items) in PILE_DRAWS:
        return items.pick(r)
    cumulative = getattr(items, "cumulative", None)
    if cumulative:
        i = bisect_right(cumulative, r * cumulative[-1])
        return items[i if i < len(items) else -1][0]
    weights = [p.numerator / p.denominator if isinstance(p, Fraction) else float(p) for _, p in items]
    target = r * sum(weights)
    acc = 0.0
    for (item, _), w in zip(items, weights):
        acc += w
        if target < acc:
            return item
    return items[-1][0]


def play(rs: RuleSet, state: Any, moves: Iterable[str | Any]) -> Any:
    """Apply moves (text or values) in turn; chance moves included.  For tests and replays."""
    for m in moves:
        if isinstance(m, str):
            m = rs.parse_move(m, state.setup)
        state = rs.apply(state, m)
    return state


def check_chance_move(rs: RuleSet, state: Any, move: Any) -> Fraction:
    """The probability of a chance move, or IllegalMove if it is not a possible outcome."""
    for m, p in rs.chance_outcomes(state):
        if m == move:
            return p
    raise IllegalMove("core.chance", move, "not a possible chance outcome here")
