"""Reference vectors (vectors/, ITF traces) as OpenSpiel playthrough files, and back.

A playthrough is OpenSpiel's record of one game: the game string (``game: ...``), then per
state what every OpenSpiel call returns, and the action taken (``action: N``).  It is
written by OpenSpiel's own ``generate_playthrough.playthrough`` and checked by regenerating
it, so a file stays reproducible exactly as OpenSpiel's playthrough tests require.

``vector_to_playthrough`` maps each recorded move to its action id (the codec of
tablerules/openspiel/actions.py) at the state where it was played; ``playthrough_to_vector``
replays the actions through the adapter and records the game as a vector again, with the
same states and moves as the original.  Only vectors of whole games convert: OpenSpiel's
playthrough plays on at random after its last action, so a capped trace (a witness that
stops where two readings part) is refused, as are vectors under rulings the adapter refuses
(strict alternatives, ``voluntary-pass=allowed``).
"""

from __future__ import annotations

import re
from typing import Any

import pyspiel
from open_spiel.python.algorithms import generate_playthrough

from tablerules.vectors import VectorError, record_game, setup_from_meta, trace_document

from . import game_name
from .parameters import rulings_text

_GAME = re.compile(r"game: (.*)")
_ACTION = re.compile(r"action: (-?\d+)")


def game_string(ruleset: str, setup: Any, deck: str | None) -> str:
    """The OpenSpiel game string for one of our setups."""
    params = [f"players={setup.players}"]
    rulings = rulings_text(setup.options)
    if rulings:
        params.append(f"rulings={rulings}")
    if deck:
        params.append(f"deck={deck}")
    return f"{game_name(ruleset)}({','.join(params)})"


def vector_actions(document: dict[str, Any]) -> tuple[str, list[int]]:
    """(game string, action ids) of a vector; VectorError (one line) if it cannot be played."""
    meta = document.get("#meta")
    replay = setup_from_meta(meta)
    comp = (meta or {}).get("components") or {}
    deck = comp.get("argument") or comp.get("name")
    name = game_string(replay.rules.id, replay.setup, deck)
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    actions = []
    for i, entry in enumerate(document.get("states", [])[1:], start=1):
        text = entry.get("#meta", {}).get("move")
        ours = state.ours
        try:
            move = replay.rules.parse_move(text, ours.setup)
            action = game.codec.encode(ours, move)
        except (ValueError, TypeError) as e:
            raise VectorError(f"$.states[{i}]['#meta'].move: {text!r} has no OpenSpiel action here ({e})") from None
        state.apply_action(action)
        actions.append(action)
    if not state.is_terminal():  # OpenSpiel's playthrough plays on at random after the last action
        raise VectorError(f"$.states: the game stops after {len(actions)} moves, before its end (a capped trace); "
                          "a playthrough records whole games only")
    return name, actions


def vector_to_playthrough(document: dict[str, Any]) -> str:
    """The OpenSpiel playthrough text of a vector's game."""
    name, actions = vector_actions(document)
    return generate_playthrough.playthrough(name, actions)


def read_playthrough(text: str) -> tuple[str, list[int]]:
    """(game string, action ids) from a playthrough file's ``game:`` and ``action:`` lines."""
    name, actions = None, []
    for line in text.splitlines():
        if name is None and (m := _GAME.fullmatch(line)):
            name = m.group(1)
        elif m := _ACTION.fullmatch(line):
            actions.append(int(m.group(1)))
    if name is None:
        raise VectorError("not an OpenSpiel playthrough: no 'game: ...' line")
    return name, actions


def playthrough_to_vector(text: str) -> dict[str, Any]:
    """The vector (ITF trace document) of a playthrough's game."""
    name, actions = read_playthrough(text)
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    moves = []
    for a in actions:
        moves.append(state.action_to_string(state.current_player(), a))
        state.apply_action(a)
    deck = game.get_parameters().get("deck") or None
    trace = record_game(game.rules, game.setup, moves, components_argument=deck)
    return trace_document(trace, description=f"{game.rules.title}: converted from the OpenSpiel playthrough of {name}",
                          generator={"kind": "openspiel-playthrough", "game": name})


__all__ = ["game_string", "playthrough_to_vector", "read_playthrough", "vector_actions", "vector_to_playthrough"]
