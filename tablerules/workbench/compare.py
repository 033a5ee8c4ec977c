"""A ruling's two alternatives side by side, from the workbench's position on.

The line so far, and the moves played on from here in the compare view, are replayed under
alternative a and under alternative b (every other ruling as the game has it).  At each step
both readings are read as the divergence search reads them
(:func:`tablerules.proofs.discovery.divergence.read_state`: who is to move, the legal moves, the chance
outcomes, the outcome, a rule gap; then the recorded state and what each seat sees), and the
first step where they differ is where they part.  A move one reading refuses ends that side.

Asked to, the divergence search itself (:func:`tablerules.proofs.discovery.divergence.diverge`) looks for
the shortest way on from here after which the two part, over pairs of states, within a budget
of COMPARE_PAIRS pairs: its answer is counted in pairs, never in seconds.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Sequence

from tablerules.model.core import CHANCE, TERMINAL, RuleGap, RuleSet, SetupError, actor_text, play, ruling_fields
from tablerules.proofs.discovery.divergence import PairBudget, Raised, diverge, difference_kind, read_state
from tablerules.proofs.discovery.gaps import Config
from tablerules.spec import load_spec

from ..pictures.positions import draw
from ..vectors.itf import fraction_text
from .bounds import COMPARE_PAIRS, COMPARE_SECONDS, MAX_LISTED, BadInput
from .games import Game

WHAT = {"start": "at the start", "moves": "in the legal moves", "actor": "in who is to move",
        "chance": "in the chance outcomes", "outcome": "in the outcome", "gap": "where one meets a rule gap",
        "error": "in a model error", "state": "only in the recorded state (nothing a player sees)",
        "view": "only in what a seat sees", "refused": "where one refuses the move the other allows"}
"""How two readings differ, in words (the kinds of :func:`difference_kind`, and a refused move)."""


@dataclasses.dataclass
class Side:
    """One alternative's replay of the line: its readings at each step, and where it stopped."""

    alternative: str
    setup: Any = None
    states: list[Any] = dataclasses.field(default_factory=list)
    readings: list[Any] = dataclasses.field(default_factory=list)
    stopped: str = ""
    """Why the replay ended before the line did (the setup refused, a move refused, a gap)."""


def ruling_field(rules: RuleSet, ruling: str) -> tuple[str, dataclasses.Field]:
    """(ruling id, Options field) for a full or short ruling id; BadInput naming the rulings otherwise."""
    fields = ruling_fields(rules.Options)
    by_short = {rid.split(".ruling.", 1)[-1]: rid for rid in fields}
    rid = ruling if ruling in fields else by_short.get(ruling)
    if rid is None:
        raise BadInput(f"ruling {ruling[:60]!r}: not a ruling of {rules.id} ({', '.join(sorted(by_short))})")
    return rid, fields[rid]


def _replay(game: Game, field: dataclasses.Field, alternative: str, line: Sequence[str]) -> Side:
    rules = game.rules
    side = Side(alternative)
    try:
        side.setup = rules.setup(game.setup.players, dataclasses.replace(game.setup.options,
                                                                         **{field.name: alternative}),
                                 game.setup.components)
    except SetupError as e:
        side.stopped = f"cannot be set up: {str(e).splitlines()[0]}"
        return side
    try:
        state: Any = rules.new_game(side.setup)
    except Exception as e:  # noqa: BLE001 - a gap (or a model fault) at the deal is this reading's answer
        state = Raised("gap", getattr(e, "ruling", type(e).__name__), getattr(e, "detail", str(e)))
    side.states.append(state)
    side.readings.append(read_state(rules, state))
    for i, text in enumerate(line, 1):
        if isinstance(state, Raised):
            side.stopped = f"stops at step {i - 1}: {side.readings[-1].text}"
            break
        try:
            move = rules.parse_move(text, side.setup)
        except ValueError as e:
            side.stopped = f"step {i} {text!r} is no move here: {str(e).splitlines()[0] if str(e) else ''}"
            break
        try:
            actor = rules.to_move(state)
            allowed = (actor is CHANCE and move in dict(rules.chance_outcomes(state))) or (
                actor not in (CHANCE, TERMINAL) and move in rules.legal_moves(state))
            if not allowed:
                reason = rules.illegal_reason(state, move) if actor not in (CHANCE, TERMINAL) else None
                side.stopped = f"refuses step {i} {text!r}" + (f" ({reason})" if reason else "")
                break
            state = rules.apply(state, move)
        except RuleGap as gap:
            state = Raised("gap", gap.ruling, gap.detail)
        side.states.append(state)
        side.readings.append(read_state(rules, state))
    return side


def _parting(a: Side, b: Side, line_length: int) -> dict[str, Any] | None:
    """Where the two readings part: the first step where they differ in what the table sees (or one
    stops while the other goes on); failing that, the first where only what a seat sees or the
    recorded state differs (``quiet``), as the divergence search orders them; None if nowhere."""
    quiet = None
    for i, (ra, rb) in enumerate(zip(a.readings, b.readings)):
        kind = difference_kind(ra, rb)
        entry = {"step": i, "kind": kind, "what": WHAT.get(kind, kind), "a": ra.text, "b": rb.text,
                 "onward": i > line_length, "quiet": kind in ("state", "view")}
        if kind and not entry["quiet"]:
            return entry
        if kind and quiet is None:
            quiet = entry
    if len(a.readings) != len(b.readings):
        i = min(len(a.readings), len(b.readings))
        return {"step": i, "kind": "refused", "what": WHAT["refused"], "a": a.stopped or "goes on",
                "b": b.stopped or "goes on", "onward": i > line_length, "quiet": False}
    return quiet


def _side_view(game: Game, side: Side, rid: str) -> dict[str, Any]:
    rules = game.rules
    out: dict[str, Any] = {"alternative": side.alternative, "stopped": side.stopped, "steps": len(side.states) - 1}
    if not side.states:
        return out
    state = side.states[-1]
    out["reading"] = side.readings[-1].text
    if isinstance(state, Raised):
        return out
    actor = rules.to_move(state)
    out["to_move"] = actor_text(actor)
    out["picture"] = draw(rules.id, rules.state_vars(state), title=f"{rules.title}: {rid} = {side.alternative}",
                          players=game.setup.players, components=game.setup.components, to_move=actor_text(actor))
    return out


def _next_moves(game: Game, a: Side, b: Side) -> list[dict[str, Any]]:
    """The moves open at the end of both replays (chance outcomes with each side's probability)."""
    rules = game.rules
    listed: dict[str, dict[str, Any]] = {}
    for key, side in (("a", a), ("b", b)):
        if not side.states or isinstance(side.states[-1], Raised):
            continue
        state = side.states[-1]
        actor = rules.to_move(state)
        try:
            if actor is CHANCE:
                items = [(str(m), fraction_text(p)) for m, p in rules.chance_outcomes(state)]
            elif actor is TERMINAL:
                items = []
            else:
                items = [(str(m), None) for m in rules.legal_moves(state)]
        except Exception:  # noqa: BLE001 - a gap: nothing to play on this side
            items = []
        for move, p in items[:MAX_LISTED]:
            entry = listed.setdefault(move, {"move": move, "a": None, "b": None})
            entry[key] = p or "legal"
    return list(listed.values())


def compare(game: Game, ruling: str, a: str, b: str, onward: Sequence[str], search: bool = False) -> dict[str, Any]:
    """Both alternatives from the deal along the line to the cursor and on by ``onward``; where they
    part; and, with ``search``, the divergence search's shortest way on from here to a parting."""
    rules = game.rules
    rid, field = ruling_field(rules, ruling)
    alternatives = field.metadata["alternatives"]
    for alt in (a, b):
        if alt not in alternatives:
            raise BadInput(f"{rid}: {alt[:40]!r} is not one of its alternatives ({', '.join(alternatives)})")
    if a == b:
        raise BadInput(f"{rid}: choose two different alternatives to compare")
    line = game.moves[:game.at]
    whole = list(line) + list(onward)
    side_a, side_b = _replay(game, field, a, whole), _replay(game, field, b, whole)
    spec = load_spec(rules.spec_file)
    r = spec.rulings.get(rid)
    out: dict[str, Any] = {
        "ruling": rid, "question": r.question if r else "", "a": a, "b": b, "alternatives": list(alternatives),
        "meanings": {x.id: x.meaning for x in r.alternatives} if r else {},
        "at": game.at, "onward": list(onward),
        "sides": [_side_view(game, side_a, rid), _side_view(game, side_b, rid)],
        "parts": _parting(side_a, side_b, len(line)), "next": _next_moves(game, side_a, side_b), "search": None,
    }
    if search:
        out["search"] = _search(game, rid, a, b, whole, side_a, side_b)
    return out


def _search(game: Game, rid: str, a: str, b: str, whole: list[str], side_a: Side, side_b: Side) -> dict[str, Any]:
    """The divergence search from the end of ``whole`` (which both readings must replay)."""
    if side_a.stopped or side_b.stopped or len(side_a.states) != len(whole) + 1:
        return {"found": False, "statement": "not searched: the two readings do not both reach this position "
                                             "(see where they part above)", "moves": []}
    rules = game.rules

    def from_here(setup: Any) -> Any:
        return play(rules, rules.new_game(setup), whole)

    here = dataclasses.replace(rules, new_game=from_here)
    budget = PairBudget(max_pairs=COMPARE_PAIRS, max_seconds=COMPARE_SECONDS)
    d = diverge(here, rid, a, b, [Config(game.setup.players, game.setup.components)], budget=budget,
                base=game.setup.options, symmetry=None)
    out: dict[str, Any] = {"found": d.found, "kind": d.kind, "moves": d.moves, "bound": d.bound(),
                           "pairs": d.pairs, "complete": d.complete, "stopped": d.stopped}
    if d.found:
        kind = difference_kind(d.next_a, d.next_b) if d.kind == "start" and d.next_a and d.next_b else d.kind
        where = "here already" if not d.steps else f"after {len(d.steps)} more moves"
        out["statement"] = f"{a} and {b} part {where}, {WHAT.get(kind, kind)} ({d.bound()})"
        out["next"] = {a: d.next_a.text if d.next_a else "", b: d.next_b.text if d.next_b else ""}
    elif d.complete:
        out["statement"] = f"{a} and {b} never part from here: every one of {d.pairs:,} reachable state pairs compared"
    else:
        out["statement"] = (f"{a} and {b} do not part within {d.depth} more moves ({d.pairs:,} state pairs compared; "
                            f"stopped by the {d.stopped}): incomplete")
    return out
