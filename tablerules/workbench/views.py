"""What the page shows, as JSON: a game's position, an answer to a question, the link of a line.

* A position: the picture the docs draw (:func:`tablerules.pictures.positions.draw`), from the
  all-seeing view (every variable of the state) or one seat's (what ``observation`` lets it
  see: the list shows that, and the picture hides the tiles a covered stack keeps from it,
  dishes.play.top-counts); who is to move; the legal moves or the chance outcomes with their
  exact probabilities; the outcome at the end; the history of the line.
* An answer: the document ``tablerules judge --json`` writes
  (:func:`tablerules.cli.judge.answer_document`), with the rulebook lines of the deciding clause
  (as ``tablerules explain`` prints them) and every ruling's question and alternatives.
* A link: the rule set, setup, seed and moves in the page's address, which reopen the position.
"""

from __future__ import annotations

import shlex
from typing import Any
from urllib.parse import urlencode

from tablerules.model.core import (CHANCE, TERMINAL, MoveSyntaxError, RuleGap, actor_text, options_text,
                                   read_number, ruling_fields, short_ruling_name, variant_fields)
from tablerules.spec import load_spec

from ..pictures.positions import draw
from ..vectors.itf import fraction_text
from ..vectors.traces import state_entries, value_text
from .bounds import MAX_LISTED, MAX_MOVE_TEXT, BadInput, TooLarge
from .games import Game, probability_text

ALL = "all"
"""The all-seeing view: every hand and pile as the state holds it."""


def seat_of(game: Game, view: str) -> int | None:
    """None for the all-seeing view, else the seat a ``seat-N`` view names; BadInput otherwise."""
    if view in ("", ALL):
        return None
    head, _, number = view.partition("-")
    seat = read_number(number) if len(number) <= 3 else None
    if head != "seat" or seat is None or seat >= game.setup.players:
        raise BadInput(f"view: {view[:20]!r} is not 'all' or a seat of this game (seat-0 to "
                       f"seat-{game.setup.players - 1})")
    return seat


def _seen_variables(game: Game, state: Any, seat: int) -> dict[str, Any]:
    """The state's variables as a seat sees them, for the picture: a stack the seat sees only the top
    and height of keeps its lower tiles covered (dishes.play.top-counts, dishes.ruling.covered-tiles)."""
    variables = dict(game.rules.state_vars(state))
    seen = dict(game.rules.observation(state, seat))
    places, shown = variables.get("places"), seen.get("places")
    if isinstance(places, dict) and isinstance(shown, dict):
        masked = {}
        for name, stack in places.items():
            view = shown.get(name)
            if isinstance(view, dict) and isinstance(view.get("tiles"), list):
                masked[name] = list(view["tiles"])
            elif isinstance(view, dict) and "top" in view and isinstance(view.get("height"), int):
                masked[name] = ["covered tile"] * (view["height"] - 1) + [view["top"]]
            else:
                masked[name] = stack
        variables["places"] = masked
    return variables


def _choices(game: Game, state: Any, actor: Any) -> dict[str, Any]:
    """The legal moves (a seat) or chance outcomes with probabilities, at most MAX_LISTED of them."""
    rules = game.rules
    try:
        if actor is CHANCE:
            outs = rules.chance_outcomes(state)
            return {"kind": "chance", "count": len(outs),
                    "items": [{"move": str(m), "probability": fraction_text(p)} for m, p in outs[:MAX_LISTED]]}
        if actor is TERMINAL:
            return {"kind": "end", "count": 0, "items": []}
        moves = rules.legal_moves(state)
        return {"kind": "seat", "count": len(moves), "items": [{"move": str(m)} for m in moves[:MAX_LISTED]]}
    except RuleGap as gap:
        return {"kind": "gap", "count": 0, "items": [], "gap": {"ruling": gap.ruling, "detail": gap.detail}}


def setup_text(game: Game) -> str:
    """`2 players, deck jd-rivals, poaching, buffet; serving-size=any`: the setup in one line."""
    setup = game.setup
    parts = [f"{setup.players} players", f"{'tile set' if game.rules.id == 'dishes' else 'deck'} "
             f"{game.deck or 'default'}"]
    parts += [name for name, f in variant_fields(setup.options.__class__).items() if getattr(setup.options, f.name)]
    changed = [f"{short_ruling_name(rid)}={getattr(setup.options, f.name)}"
               for rid, f in ruling_fields(setup.options.__class__).items()
               if getattr(setup.options, f.name) != f.metadata["alternatives"][0]]
    return ", ".join(parts) + ("; " + ", ".join(changed) if changed else "; every ruling at its default")


def link_query(game: Game, view: str = ALL) -> str:
    """The page address's query that reopens this game at its cursor: rule set, players, deck, seed,
    optional rules, rulings not at their default, the line, the cursor and the view."""
    setup = game.setup
    pairs: list[tuple[str, Any]] = [("ruleset", game.rules.id), ("players", setup.players)]
    if game.deck:
        pairs.append(("deck", game.deck))
    pairs.append(("seed", game.seed))
    pairs += [("option", name) for name, f in variant_fields(setup.options.__class__).items()
              if getattr(setup.options, f.name)]
    pairs += [("ruling", f"{short_ruling_name(rid)}={getattr(setup.options, f.name)}")
              for rid, f in ruling_fields(setup.options.__class__).items()
              if getattr(setup.options, f.name) != f.metadata["alternatives"][0]]
    pairs += [("m", m) for m in game.moves]
    if game.at != len(game.steps):
        pairs.append(("at", game.at))
    if view != ALL:
        pairs.append(("view", view))
    return urlencode(pairs)


def game_view(game: Game, game_id: str, view: str = ALL, notice: str = "") -> dict[str, Any]:
    """Everything the page shows of a game at its cursor (see the module docstring)."""
    seat = seat_of(game, view)
    rules, state = game.rules, game.state
    actor = rules.to_move(state)
    to_move = actor_text(actor)
    variables = rules.state_vars(state) if seat is None else _seen_variables(game, state, seat)
    title = f"{rules.title}: after {game.at} moves" + ("" if seat is None else f", as seat {seat} sees it")
    picture = draw(rules.id, variables, title=title, players=game.setup.players,
                   components=game.setup.components, to_move=to_move)
    if seat is None:
        entries = list(state_entries(rules, state).items())
    else:
        entries = [(k, value_text(v)) for k, v in dict(rules.observation(state, seat)).items()]
    outcome = rules.outcome(state) if actor is TERMINAL else None
    origin = game.origin
    doc: dict[str, Any] = {
        "game": game_id, "ruleset": rules.id, "title": rules.title, "players": game.setup.players,
        "deck": game.deck, "seed": game.seed, "setup": setup_text(game),
        "options": options_text(game.setup.options),
        "at": game.at, "length": len(game.steps), "to_move": to_move,
        "view": ALL if seat is None else f"seat-{seat}",
        "picture": picture, "entries": [[k, v] for k, v in entries],
        "choices": _choices(game, state, actor),
        "outcome": outcome.to_json() if outcome else None,
        "outcome_detail": outcome.detail if outcome else "",
        "history": [{"step": i, "actor": s.actor, "move": s.move, "probability": probability_text(s.probability)}
                    for i, s in enumerate(game.steps, 1)],
        "query": link_query(game, ALL if seat is None else f"seat-{seat}"),
        "origin": None if origin is None else {"kind": origin.kind, "name": origin.name,
                                                "unchanged": game.unchanged()},
        "notice": notice,
        "export_name": f"{rules.id}-{game.setup.players}p-{game.at}-moves.itf.json",
    }
    if origin is not None and origin.gap_move and game.unchanged():
        doc["pending_gap"] = origin.gap_move
    return doc


# --------------------------------------------------------------------------- an answer


def rulebook_lines(spec: Any, clause_id: str) -> dict[str, Any] | None:
    """Where the rulebook says a clause (file, heading, lines) and the lines themselves when the
    rulebook files are at hand (``tablerules explain``'s reading of them); None for no clause."""
    from tablerules.spec.provenance import Sources

    from ..cli.explain import Found, rulebook

    clause = spec.clauses.get(clause_id)
    if clause is None:
        return None
    found = Found(clause_id, "clause", spec.id, spec)
    out = rulebook(found, clause, Sources.beside())
    out["basis"] = clause.basis
    out["reading_of"] = clause.ruling or None
    return out


def ruling_text(spec: Any, ruling_id: str) -> dict[str, Any] | None:
    r = spec.rulings.get(ruling_id)
    if r is None:
        return None
    return {"id": ruling_id, "question": r.question, "default": r.default,
            "alternatives": {a.id: a.meaning for a in r.alternatives}}


def answer_view(game: Game, text: str) -> dict[str, Any]:
    """The judge's answer for ``text`` at the cursor (see the module docstring)."""
    from ..cli.judge import answer_document

    text = text.strip()
    if not text:
        raise BadInput("type or pick the move to ask about")
    if len(text) > MAX_MOVE_TEXT:
        raise TooLarge(f"a move is at most {MAX_MOVE_TEXT} characters")
    rules = game.rules
    try:
        rules.parse_move(text, game.setup)
    except MoveSyntaxError as e:
        raise BadInput(f"{text[:80]!r} is not a move of {rules.id}: "
                       f"{str(e).splitlines()[0] if str(e) else ''}") from None
    moves = game.moves[:game.at]
    doc = answer_document(rules, game.setup, moves, game.at, text, "the workbench's line", game.state)
    spec = load_spec(rules.spec_file)
    clause = doc["answer"]["clause"]
    doc["rulebook"] = rulebook_lines(spec, clause) if clause else None
    doc["deciding_ruling"] = ruling_text(spec, clause) if clause else None
    doc["ruling_texts"] = {r["ruling"]: ruling_text(spec, r["ruling"])
                           for r in doc["rulings"] + doc["departs"]}
    doc["judge_command"] = f"tablerules judge {rules.id} LINE.itf.json --move {shlex.quote(text)}"
    return doc
