"""`tablerules judge RULESET LOG [--at STEP] --move TEXT`: may this move be made here?

The log is a game from its deal: a trace in the vectors' format (``*.json``: the setup comes
from its ``#meta``), or a text file with one move per line (``#`` starts a comment; the setup
comes from --players, --deck, --ruling and --option).  The position is the one after STEP
moves of the log (default: all of them).  The answer: legal or not, the clause that decides
(with our wording of it), the position as every seat and the table see it, and for each
ruling whose alternatives answer differently, every alternative's answer
(:mod:`tablerules.judging`).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable

from tablerules.model.core import MoveSyntaxError
from tablerules.spec import load_spec
from tablerules.spec.files import UnreadableFile, read_regular_file

from .. import judging
from .common import UsageError, add_command, add_setup_args, build_setup, emit_json, measured
from ..vectors.itf import MAX_FILE_BYTES, VectorError, load_document
from ..limits import EXIT_FAIL, EXIT_OK, Statuses, number
from ..vectors.traces import state_entries, value_text
from ..vectors.verifier import setup_from_meta

EXAMPLES = [
    "tablerules judge just-desserts game.itf.json --move 'poach THE_DUDE with AMBROSIA_SALAD+DEVILS_FOOD_CUPCAKES'",
    "tablerules judge just-desserts game.itf.json --at 12 --move 'pass'",
    "tablerules judge dishes moves.txt --players 2 --deck 3x4 --move 'place 1.main on 0.soup'",
]
NOTES = (f"A log file is read only if it is a regular file of at most {MAX_FILE_BYTES // (1024 * 1024)} MiB.  Every "
         "alternative of every ruling replays the log again; time for the whole command, "
         + measured("2026-12-06", "with another job using one core (load average 2.3 to 2.4)")
         + ": the 11-move log of docs/guides/poach-back.itf.json 1.5 s, a 36-move vector 1.6 s, a 79-move retail "
         "game whose hands hold 17 and 18 cards 1.0 s.  An answer, legal or not, exits 0.")
MAX_STEPS = 10_000_000
"""Largest --at (a log of at most the file limit has fewer moves)."""
STATUSES = Statuses(fail="the log itself breaks a rule (or meets a gap) before the step, so the question cannot be put")


def add_parsers(sub: Any) -> None:
    p = add_command(sub, "judge", "may this move be made here? the ruling, with every alternative's answer",
                    "Replay a game log to a step and say whether a move is legal there, which clause decides, and, "
                    "for each ruling whose alternatives answer differently, every alternative's answer.",
                    EXAMPLES, NOTES, STATUSES)
    add_setup_args(p)
    p.add_argument("log", metavar="LOG", help="the game so far: a trace (*.json) or a text file of moves, one per line")
    p.add_argument("--at", type=number(int, 0, MAX_STEPS), default=None, metavar="STEP",
                   help="judge the position after STEP moves of the log (0: the fresh deal; default: the whole log)")
    p.add_argument("--move", required=True, metavar="TEXT", help="the move asked about, as the rule set writes moves")
    p.add_argument(
        "--json", action="store_true",
        help="write the answer as one JSON document on standard output (schema: spec/schemas/judge.schema.json)",
    )
    p.set_defaults(run=run)


def read_log(args: argparse.Namespace) -> tuple[Any, Any, list[str], str]:
    """(rules, setup, moves, what the setup is) from LOG and the setup arguments."""
    if args.log.endswith(".json"):
        try:
            doc = load_document(args.log)
            replay = setup_from_meta(doc.get("#meta"))
        except VectorError as e:
            raise UsageError(f"{args.log}: cannot read: {e}") from None
        if replay.rules.id != args.ruleset:
            raise UsageError(f"{args.log}: $['#meta'].ruleset is {replay.rules.id!r}, not {args.ruleset!r}")
        if args.players is not None or args.ruling or args.option or args.strict or args.deck:
            raise UsageError(f"{args.log}: a trace's #meta gives the setup; --players, --deck, --ruling, --option "
                             "and --strict are for a text log")
        states = doc.get("states")
        if not isinstance(states, list):
            raise UsageError(f"{args.log}: $.states: missing or not a list")
        moves = []
        for i, entry in enumerate(states[1:], 1):
            if not isinstance(entry, dict) or not isinstance(entry.get("#meta"), dict):
                where = f"$.states[{i}]" + ("['#meta']" if isinstance(entry, dict) else "")
                found = entry.get("#meta") if isinstance(entry, dict) else entry
                raise UsageError(f"{args.log}: {where}: expected an object, found {type(found).__name__}")
            move = entry["#meta"].get("move")
            if not isinstance(move, str):
                raise UsageError(f"{args.log}: $.states[{i}]['#meta'].move: missing or not text")
            moves.append(move)
        return replay.rules, replay.setup, moves, f"setup from {args.log}'s #meta"
    try:
        raw = read_regular_file(args.log, MAX_FILE_BYTES, "")
        text = raw.decode("utf-8")
    except UnreadableFile as e:
        raise UsageError(f"{args.log}: cannot read: {e}") from None
    except UnicodeDecodeError as e:
        raise UsageError(f"{args.log}: not UTF-8 text (byte {e.start})") from None
    moves = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    rules, setup, comp = build_setup(args)
    return rules, setup, [m for m in moves if m], comp


def run(args: argparse.Namespace) -> int:
    rules, setup, moves, where = read_log(args)
    steps = len(moves) if args.at is None else args.at
    if not 0 <= steps <= len(moves):
        raise UsageError(f"--at {steps}: the log has {len(moves)} moves (0 to {len(moves)})")
    for i, text in enumerate(moves, 1):  # a line that is no move at all is bad input, not a broken rule
        try:
            rules.parse_move(text, setup)
        except MoveSyntaxError as e:
            raise UsageError(f"{args.log}: move {i} {text[:60]!r} is not a move of {rules.id}: "
                             f"{str(e).splitlines()[0] if str(e) else ''}") from None
    try:
        rules.parse_move(args.move, setup)
    except MoveSyntaxError as e:
        raise UsageError(
            f"--move {args.move!r}: not a move of {rules.id}: {str(e).splitlines()[0] if str(e) else ''}"
        ) from None
    pos = judging.position(rules, setup, moves, steps)
    if pos.failed is not None:
        f = pos.failed
        sys.stderr.write(f"{args.log}: step {f.step}: {f.detail} ({f.clause or 'no clause'}); the question cannot be "
                         "put after it (`tablerules vectors verify` checks a whole log)\n")
        return EXIT_FAIL
    doc = answer_document(rules, setup, moves, steps, args.move, args.log, pos.state)
    if args.json:
        from .. import schemas

        emit_json(schemas.document("judge", {**doc, "exit_status": EXIT_OK}))
        return EXIT_OK
    write_text(sys.stdout.write, doc, where)
    return EXIT_OK


def answer_document(rules: Any, setup: Any, moves: list[str], steps: int, move: str, log: str,
                    state: Any) -> dict[str, Any]:
    """The answer ``judge --json`` writes (without its exit status) for ``move`` at ``state``, the
    position after ``steps`` of ``moves`` (a position :func:`judging.position` reached without
    failing); ``log`` names the game.  The workbench (:mod:`tablerules.workbench`) asks it too."""
    base = judging.answer(rules, state, move)
    differing, tried = judging.by_alternative(rules, setup, moves, steps, move, base)
    spec = load_spec(rules.spec_file)
    return {"ruleset": rules.id, "log": log, "step": steps, "moves_in_log": len(moves), "move": move,
            "to_move": _actor(rules, state), "answer": _answer_json(base, spec),
            "position": state_entries(rules, state),
            "alternatives_tried": tried,
            "view": _view(rules, state),
            "rulings": [{"ruling": r.ruling, "chosen": r.chosen,
                         "answers": {alt: _answer_json(a, spec) for alt, a in r.posed().items()}}
                        for r in differing if r.differs],
            "departs": [{"ruling": r.ruling, "alternative": alt, **_answer_json(a, spec)}
                        for r in differing for alt, a in r.departs().items()]}


def _view(rules: Any, state: Any) -> dict[str, Any] | None:
    """What the seat to move sees (the rule set's observation), or None at chance or the end."""
    from tablerules.model.core import CHANCE, TERMINAL

    actor = rules.to_move(state)
    if actor is CHANCE or actor is TERMINAL:
        return None
    return {"seat": actor, "sees": {k: value_text(v) for k, v in dict(rules.observation(state, actor)).items()}}


def _actor(rules: Any, state: Any) -> str:
    from tablerules.model.core import actor_text

    return actor_text(rules.to_move(state))


def _answer_json(a: judging.Answer, spec: Any) -> dict[str, Any]:
    clause = spec.clauses.get(a.clause)
    ruling = spec.rulings.get(a.clause)
    wording = clause.text if clause else ruling.question if ruling else None
    return {"verdict": a.verdict, "clause": a.clause or None, "wording": wording, "detail": a.detail or None,
            "step": a.step}


def write_text(write: Callable[[str], Any], doc: dict[str, Any], where: str) -> None:
    write(f"Position: after step {doc['step']} of {doc['moves_in_log']} in {doc['log']} ({doc['ruleset']}; {where}); "
          f"{doc['to_move']} to move.\n")
    write("  (every hand shown: the all-seeing view)\n")
    for k, v in doc["position"].items():
        write(f"    {k} = {v}\n")
    if doc["view"]:
        write(f"  what seat {doc['view']['seat']} sees:\n")
        for k, v in doc["view"]["sees"].items():
            write(f"    {k} = {v}\n")
    a = doc["answer"]
    write(f"\nMove: {doc['move']}\n")
    write(f"Answer: {a['verdict']}" + (f", decided by {a['clause']}" if a["clause"] else "") + "\n")
    if a["wording"]:
        write(f"  {a['clause']}: {a['wording']}\n")
    if a["detail"]:
        write(f"  {a['detail']}\n")
    if a["clause"]:
        write(f"  (`tablerules explain {a['clause']}` shows its rulebook lines, code and tests)\n")
    write(f"\nRulings whose alternatives answer differently: {len(doc['rulings']) or 'none'} "
          f"({doc['alternatives_tried']} other alternatives tried, each replaying the log)\n")
    for r in doc["rulings"]:
        write(f"  {r['ruling']}\n")
        for alt, ans in r["answers"].items():
            mark = " (the log's)" if alt == r["chosen"] else ""
            write(f"    {alt}{mark}: {ans['verdict']}" + (f", {ans['clause']}" if ans["clause"] else "") +
                  (f" ({ans['detail']})" if ans["detail"] and ans["verdict"] != judging.LEGAL else "") + "\n")
    if doc["departs"]:
        write("\nAlternatives under which this log could not have been played (the question does not arise):\n")
        for d in doc["departs"]:
            write(f"  {d['ruling']}={d['alternative']}: step {d['step']}, {d['clause'] or d['verdict']}\n")
