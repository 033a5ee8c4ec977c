"""What a conformance run prints, its ``--json`` body, and the failing game as an ITF vector."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TextIO

from tablerules.model.core import RuleSet
from tablerules.proofs.files import write_atomic
from tablerules.vectors.itf import dumps
from tablerules.vectors.recording import record_game, trace_document

from ..report import table
from .run import Findings


def failing_vector(rules: RuleSet, out: Findings, command: str) -> dict[str, Any]:
    """The shrunk failing game as an ITF trace of our model, naming the clause in
    ``#meta.generator.clause`` and the difference in ``#meta.note``."""
    played = out.shrunk.played if out.shrunk else out.failing
    diff = played.difference
    game = played.game
    trace = record_game(rules, game.setup, played.moves, components_argument=game.components_argument)
    description = (f"{rules.title}: the shortest failing game found for {out.engine}: it departs from our rules "
                   f"after {diff.step} moves ({diff.aspect} [{diff.clause}])")
    generator = {"kind": "finding", "clause": diff.clause, "seed": game.seed, "command": command}
    return trace_document(trace, description=description, generator=generator, note=diff.text(),
                          source="tablerules conform")


def write_vector(path: str | Path, document: dict[str, Any]) -> None:
    write_atomic(path, dumps(document))


def to_json(out: Findings, status: int, vector_path: str | None, complete: bool, stopped: str,
            replayed: str | None = None) -> dict[str, Any]:
    diff = out.difference
    body: dict[str, Any] = {
        "ruleset": out.ruleset,
        "engine": out.engine,
        "players": out.players,
        "replay": replayed,
        "replies": out.replies,
        "max_replies": out.max_replies,
        "games": {k: {"played": t.games, "moves": t.moves, "skipped": t.skipped, "unfinished": t.unfinished}
                  for k, t in out.tallies.items()},
        "clauses_reached": len(out.universe and out.reached & set(out.universe)),
        "clauses_of_play": len(out.universe),
        "difference": None,
        "complete": complete,
        "stopped": stopped,
        "notes": out.notes[:20],
        "exit_status": status,
    }
    if diff is not None:
        body["difference"] = {
            **diff.to_json(),
            "found_in": out.failing.game.label,
            "found_after_moves": out.failing.difference.step,
            "shrunk_moves": diff.step,
            "shrink_games": out.shrunk.games if out.shrunk else 0,
            "shrink_complete": bool(out.shrunk and out.shrunk.complete),
            "shrink_stopped_by_replies": bool(out.shrunk and out.shrunk.reply_limit),
            "moves": (out.shrunk.played if out.shrunk else out.failing).moves,
            "vector": vector_path,
        }
    return body


def write_text(stream: TextIO, out: Findings, status_line: str, vector_path: str | None) -> None:
    rows = [[kind, f"{t.games:,}", f"{t.moves:,}", f"{t.skipped:,}", f"{t.unfinished:,}"]
            for kind, t in out.tallies.items()]
    stream.write(f"conform {out.ruleset} against {out.engine}\n\n")
    table(rows, header=("games", "played", "moves", "skipped (setup declined)", "stopped before the end"), out=stream)
    stream.write("\n")
    reached = len(out.reached & set(out.universe))
    stream.write(f"clauses of play reached: {reached} of {len(out.universe)} (clauses and rulings)\n")
    for reason in out.skipped_reasons:
        stream.write(f"skipped: {reason}\n")
    for note in out.notes[:5]:
        stream.write(f"note: {note}\n")
    diff = out.difference
    if diff is not None:
        played = out.shrunk.played if out.shrunk else out.failing
        if out.shrunk is None:
            shrunk = ""
        else:
            spent = ("" if out.shrunk.complete else " (--max-replies reached)" if out.shrunk.reply_limit
                     else " (shrink budget spent)")
            shrunk = f"; shrunk to {diff.step} moves in {out.shrunk.games} games{spent}"
        stream.write(f"\nDIFFERENCE in {out.failing.game.label} after {out.failing.difference.step} moves{shrunk}\n")
        stream.write(f"  {diff.text()}\n")
        stream.write(f"  moves: {', '.join(played.moves) or '(none: at the start)'}\n")
        if vector_path:
            stream.write(f"  the failing game as a vector: {vector_path}\n")
    stream.write(f"replies: {out.replies:,} of at most {out.max_replies:,} (--max-replies: requests the engine "
                 "answered, hello aside)\n")
    stream.write(status_line + "\n")
