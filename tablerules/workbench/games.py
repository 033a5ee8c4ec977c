"""One game on the workbench: its line of moves, the cursor, and what can be done to it.

A game is a setup (rule set, players, rulings, optional rules, components) and a line of
moves from the deal, chance outcomes included, each checked by the model as it is added
(:func:`tablerules.judging.answer` says why one is refused: the clause, or the ruling whose
strict alternative is silent).  The cursor is the position shown: stepping back moves it, a
move played there replaces the rest of the line.  Random draws follow the game's seed and the
step, so the same seed draws the same outcomes at the same step.

A line read from an ITF vector remembers where it came from, so that, while it is unchanged,
it exports as the very document it was read from (the golden vectors do, byte for byte).
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Sequence

from tablerules.model import registry
from tablerules.model.core import (CHANCE, TERMINAL, IllegalMove, MoveSyntaxError, RuleGap, RuleSet, Setup,
                                   SetupError, actor_text, pick_by_probability)

from .. import judging
from ..vectors.itf import VectorError, dumps, fraction_text, parse_document
from ..vectors.recording import record_game, trace_document
from ..vectors.verifier import setup_from_meta
from .bounds import MAX_LINE, MAX_MOVE_TEXT, MAX_RANDOM_STEPS, BadInput, TooLarge
from .catalog import Catalog

SOURCE = "tablerules workbench"


@dataclass
class Origin:
    """Where a line was read from: enough to export it again as it was while it is unchanged."""

    kind: str
    """vector, witness or log."""
    name: str
    moves: tuple[str, ...]
    meta: dict[str, Any] = field(default_factory=dict)
    """The vector's own description, generator, note and source."""
    gap_move: str | None = None
    """The move the vector says meets a rule gap after its last state (``#meta.rule_gap.move``)."""


@dataclass
class Step:
    """One move of the line: its text (as the model writes it), who made it, its probability if chance."""

    move: str
    actor: str
    probability: Fraction | None = None


class Game:
    """A setup, a line of moves with the state after each, and the cursor (see the module docstring)."""

    def __init__(self, rules: RuleSet, setup: Setup, argument: str | None, deck: str, seed: int = 1,
                 origin: Origin | None = None) -> None:
        self.rules, self.setup, self.argument, self.deck, self.seed = rules, setup, argument, deck, seed
        self.origin = origin
        try:
            self.states: list[Any] = [rules.new_game(setup)]
        except RuleGap as gap:
            raise BadInput(f"under these rulings the deal itself meets a gap: {gap.ruling}: {gap.detail}") from None
        self.steps: list[Step] = []
        self.at = 0
        self.lock = threading.Lock()

    # ----------------------------------------------------------------- reading

    @property
    def state(self) -> Any:
        """The position at the cursor."""
        return self.states[self.at]

    @property
    def moves(self) -> list[str]:
        """The whole line (the cursor may stand before its end)."""
        return [s.move for s in self.steps]

    def unchanged(self) -> bool:
        """The line is the one read from a vector, and the cursor at its end."""
        return (self.origin is not None and self.origin.kind in ("vector", "witness")
                and tuple(self.moves) == self.origin.moves and self.at == len(self.steps))

    # ----------------------------------------------------------------- changing

    def _add(self, text: str) -> judging.Answer | None:
        """Add ``text`` at the end of the line if the model allows it there; else why not."""
        if len(self.steps) >= MAX_LINE:
            return judging.Answer(judging.ILLEGAL, "", f"the line holds {MAX_LINE:,} moves, the most the workbench "
                                                       "keeps")
        rules, state = self.rules, self.states[-1]
        try:
            move = rules.parse_move(text, self.setup)
            actor = rules.to_move(state)
            probability = None
            if actor is CHANCE:
                probability = dict(rules.chance_outcomes(state)).get(move)
                if probability is None:
                    raise IllegalMove("", move)
            elif actor is TERMINAL or rules.illegal_reason(state, move) is not None:
                raise IllegalMove("", move)
            after = rules.apply(state, move)
        except (MoveSyntaxError, IllegalMove, RuleGap, SetupError):
            refused = judging.answer(rules, state, text)
            if refused.verdict == judging.LEGAL:  # pragma: no cover - the two checks agree on every model
                refused = judging.Answer(judging.ILLEGAL, "", f"{text!r} is refused here")
            return refused
        self.states.append(after)
        self.steps.append(Step(str(move), actor_text(actor), probability))
        return None

    def _cut(self) -> None:
        """Drop the line after the cursor (a move played there replaces it)."""
        del self.steps[self.at:]
        del self.states[self.at + 1:]

    def play(self, text: str) -> None:
        """Play ``text`` at the cursor; BadInput saying why the model refuses it."""
        text = text.strip()
        if not text:
            raise BadInput("say which move to play")
        if len(text) > MAX_MOVE_TEXT:
            raise TooLarge(f"a move is at most {MAX_MOVE_TEXT} characters")
        self._cut()
        refused = self._add(text)
        if refused is not None:
            raise BadInput(refusal_text(text, refused))
        self.at = len(self.steps)

    def extend(self, texts: Sequence[str]) -> str:
        """Add ``texts`` at the end of the line while the model allows them; the cursor goes to the
        end.  '' if all went on, else one line naming the first move refused and why."""
        for i, text in enumerate(texts, 1):
            refused = self._add(text)
            if refused is not None:
                self.at = len(self.steps)
                return (f"move {i} of {len(texts)}: {refusal_text(text, refused)}; the line stops before it "
                        f"({len(self.steps)} moves)")
        self.at = len(self.steps)
        return ""

    def goto(self, at: int) -> None:
        if not 0 <= at <= len(self.steps):
            raise BadInput(f"at: {at} is not a step of this line (0 to {len(self.steps)})")
        self.at = at

    def random(self, count: int, seats: bool) -> str:
        """Play on from the cursor: chance outcomes drawn by their probabilities, and (``seats``)
        seat moves chosen evenly, at most ``count`` moves, until the end or (without ``seats``) a
        seat is to move.  Draws follow the seed and the step.  '' or why it stopped early."""
        self._cut()
        for _ in range(min(count, MAX_RANDOM_STEPS)):
            state = self.states[-1]
            rng = random.Random(f"{self.seed}:{len(self.steps)}")
            try:
                actor = self.rules.to_move(state)
                if actor is TERMINAL:
                    break
                if actor is CHANCE:
                    move = pick_by_probability(self.rules.chance_outcomes(state), rng.random())
                elif seats:
                    moves = self.rules.legal_moves(state)
                    if not moves:
                        break
                    move = rng.choice(moves)
                else:
                    break
            except RuleGap as gap:
                self.at = len(self.steps)
                return f"stopped: the rules are silent here ({gap.ruling}: {gap.detail})"
            refused = self._add(str(move))
            if refused is not None:  # pragma: no cover - a move the model offered and then refused
                self.at = len(self.steps)
                return f"stopped: {refusal_text(str(move), refused)}"
        self.at = len(self.steps)
        return ""

    # ----------------------------------------------------------------- exporting

    def export(self) -> str:
        """The line up to the cursor as an ITF vector (``tablerules vectors verify`` accepts it): while
        the line is the one read from a vector, that vector's own description, generator and note."""
        moves = self.moves[:self.at]
        description, generator, note, source = (
            f"{self.rules.title}: a line played on the workbench ({self.setup.players} players, "
            f"{self.deck or 'default components'})", {"command": "tablerules workbench"}, "", SOURCE)
        if self.unchanged():
            o = self.origin
            description = o.meta.get("description", description)
            generator, note, source = o.meta.get("generator") or {}, o.meta.get("note", ""), o.meta.get("source", "")
            if o.gap_move:
                moves = moves + [o.gap_move]
        trace = record_game(self.rules, self.setup, moves, components_argument=self.argument)
        return dumps(trace_document(trace, description=description, generator=generator, note=note, source=source))


def refusal_text(text: str, a: judging.Answer) -> str:
    """`'pass' is not legal here: jd.turn.one-option (seat 0 may not play 'pass' here)`."""
    why = f"{a.verdict}" + (f": {a.clause}" if a.clause else "")
    return f"{text[:80]!r}: {why}" + (f" ({a.detail})" if a.detail else "")


# --------------------------------------------------------------------------- reading a line


def new_game(catalog: Catalog, data: dict[str, Any], seed: int, moves: Sequence[str]) -> tuple[Game, str]:
    """A game from a page's choices and a line (a link reopened); the notice of a move refused."""
    rules, setup, argument, deck = catalog.setup(data)
    game = Game(rules, setup, argument, deck, seed)
    return game, game.extend(moves)


def from_vector(catalog: Catalog, raw: bytes | str | dict[str, Any], name: str, seed: int = 1,
                kind: str = "vector") -> tuple[Game, str]:
    """A game from an ITF vector (text, or a parsed document): its setup from ``#meta``, its line from
    the moves of its states; the notice of the first move the model refuses."""
    try:
        doc = raw if isinstance(raw, dict) else parse_document(raw)
    except VectorError as e:
        raise BadInput(f"{name}: cannot read: {e}") from None
    meta, states = doc.get("#meta"), doc.get("states")
    if not isinstance(meta, dict):
        raise BadInput(f"{name}: $['#meta']: missing or not an object (is it an ITF vector?)")
    if not isinstance(states, list) or not states:
        raise BadInput(f"{name}: $.states: missing or empty")
    if len(states) > MAX_LINE + 1:
        raise TooLarge(f"{name}: more than {MAX_LINE:,} moves")
    rid = meta.get("ruleset")
    if not isinstance(rid, str) or rid not in registry.ENTRIES:
        raise BadInput(f"{name}: $['#meta'].ruleset: {str(rid)[:40]!r} is not a rule set here "
                       f"({', '.join(registry.ruleset_ids())})")
    try:
        deck = catalog.deck_for_meta(registry.get(rid), meta)
        replay = setup_from_meta(meta, deck)
    except (VectorError, BadInput) as e:
        raise BadInput(f"{name}: cannot read: {e}") from None
    moves = []
    for i, entry in enumerate(states[1:], 1):
        move = entry.get("#meta", {}).get("move") if isinstance(entry, dict) else None
        if not isinstance(move, str) or len(move) > MAX_MOVE_TEXT:
            raise BadInput(f"{name}: $.states[{i}]['#meta'].move: missing or not a move's text")
        moves.append(move)
    gap = meta.get("rule_gap")
    gap_move = gap.get("move") if isinstance(gap, dict) and isinstance(gap.get("move"), str) else None
    comp = meta.get("components") if isinstance(meta.get("components"), dict) else {}
    argument = comp.get("argument") if isinstance(comp.get("argument"), str) else None
    kept = {k: meta[k] for k in ("description", "generator", "note", "source") if k in meta}
    origin = Origin(kind, name, tuple(moves), kept, gap_move)
    deck = argument or getattr(replay.setup.components, "name", "") or ""  # the choice that loads them again
    game = Game(replay.rules, replay.setup, argument, deck, seed, origin)
    notice = game.extend(moves)
    if notice:
        game.origin = None
    return game, notice


def from_log(catalog: Catalog, text: str, data: dict[str, Any], seed: int, name: str) -> tuple[Game, str]:
    """A game from a text log (one move a line, ``#`` starts a comment) and the page's choices of setup."""
    moves = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    moves = [m for m in moves if m]
    if len(moves) > MAX_LINE:
        raise TooLarge(f"{name}: more than {MAX_LINE:,} moves")
    if any(len(m) > MAX_MOVE_TEXT for m in moves):
        raise TooLarge(f"{name}: a line longer than {MAX_MOVE_TEXT} characters")
    game, notice = new_game(catalog, data, seed, moves)
    game.origin = Origin("log", name, tuple(game.moves))
    return game, notice


def probability_text(p: Fraction | None) -> str | None:
    return None if p is None else fraction_text(Fraction(p))
