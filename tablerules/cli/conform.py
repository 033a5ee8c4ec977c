"""`tablerules conform RULESET --engine CMD`: live conformance testing of another engine.

The engine speaks the JSON-lines protocol of :mod:`tablerules.conform.protocol` over its
standard input and output (or is an OpenSpiel game: ``--engine openspiel:GAME_STRING``); the
run plays seeded random games, every golden vector and witness of the rule set and games
steered toward clauses not yet reached, comparing the engine with our model at every state.
On a difference it shrinks the game and writes the shortest failing game found as an ITF
vector (``--out-itf``).  ``--max-replies`` bounds the whole run in the engine's answers.
``--replay VECTOR`` plays one written vector against the engine instead (:mod:`tablerules.conform.replay`).
``--planted-faults`` runs the reference engine with each planted fault
(:mod:`tablerules.conform.planted`) instead, and tables what was caught.
"""

from __future__ import annotations

import argparse
import copy
import sys
from typing import Any

from tablerules.conform.client import MAX_REPLIES, REPLY_SECONDS, Engine, ProcessEngine
from tablerules.conform.planted import faults
from tablerules.conform.protocol import OPENSPIEL_PREFIX, EngineHang, ProtocolError, unnamable_card
from tablerules.conform.replay import ReplayError, replay, vector_game
from tablerules.conform.report import failing_vector, to_json, write_text, write_vector
from tablerules.conform.run import Budget, Findings, conform
from tablerules.conform.shrink import SHRINK_GAMES
from tablerules.model import registry

from .common import (
    UsageError, add_command, add_json, add_max_seconds, add_seed, add_setup_args, build_setup, emit_json,
    max_seconds_statuses, reproduce_line,
)
from ..limits import BY_MAX_SECONDS, EXIT_FAIL, EXIT_INCOMPLETE, EXIT_OK, TimeLimit, number, time_limit
from ..report import table
from ..schemas import document

HANG = "the engine did not answer one request within --reply-seconds (no verdict is drawn from the clock)"
DECLINED = "the engine declined the setup of every game"
DECLINED_OWN = "the engine declined every game of the requested setup"
BY_REPLIES = "--max-replies reached before the run could decide"


def add_parsers(sub: Any) -> None:
    p = add_command(
        sub, "conform", "test another engine live against our rules (JSON lines over stdin/stdout, or OpenSpiel)",
        "Drive an engine under test through the conformance protocol (tablerules-conform/1: one JSON request a "
        "line on its standard input, one reply a line on its standard output; docs/guides/conform.rst) and "
        "compare it with our model at every state: who moves, the legal moves both ways, the chance outcomes "
        "and their exact probabilities, each seat's observation, the outcome.  Plays seeded random games, every "
        "golden vector and witness of the rule set, and games steered toward clauses no game has reached yet. "
        "On a difference, shrinks the game over its choice sequence and writes the shortest failing game found "
        "as an ITF vector naming the clause.",
        ["tablerules conform dishes --engine reference          # our own reference engine",
         "tablerules conform dishes --engine 'openspiel:tablerules_dishes(players=3)'   # 3 players",
         "tablerules conform just-desserts --players 3 --engine './my-engine --stdio' --games 50 --seed 7",
         "tablerules conform dishes --engine './my-engine' --replay conform-dishes.itf.json   # the failing game again",
         "tablerules conform dishes --planted-faults       # the reference engine with each planted fault"],
        "Units: a game is one game from the deal to its end (or --max-steps moves); a move is a seat's move or a "
        "chance outcome; a reply is one request the engine answered (hello aside).  The whole run asks at most "
        "--max-replies requests, so it waits at most --max-replies x --reply-seconds; reaching that bound before a "
        "difference is incomplete (exit status 3), never conformant.  An engine that exits or answers what is not a "
        "reply is a protocol violation (exit status 2, one line naming the request and the JSON path); one that "
        "does not answer within --reply-seconds stops the run incomplete (exit status 3).  With "
        "--engine openspiel:GAME_STRING the string's parameters (players, rulings, deck, max_game_length) hold for "
        "every game of the run: the run's setup is read from them, and a vector of another setup is declined.",
        statuses=max_seconds_statuses("the engine departs from our rules (with --planted-faults: a planted fault "
                                      "was not caught)", HANG, DECLINED, DECLINED_OWN, BY_REPLIES))
    add_setup_args(p)
    p.add_argument("--engine", metavar="CMD",
                   help="the engine: a command line that speaks the protocol; 'reference [ARGS]' for our own "
                        "reference engine (python -m tablerules.conform.reference_engine ARGS under this Python); "
                        "or openspiel:GAME_STRING for an OpenSpiel game loaded in-process")
    p.add_argument("--planted-faults", action="store_true",
                   help="instead of --engine: run the reference engine with each planted fault of the rule set, "
                        "and table which were caught and the length of each shrunk failing game")
    p.add_argument("--games", type=number(int, 0, 1_000_000), default=Budget().games, metavar="N",
                   help=f"seeded random games (default {Budget().games})")
    p.add_argument("--steered", type=number(int, 0, 100_000), default=Budget().steered, metavar="N",
                   help=f"games steered toward clauses no game has reached yet (default {Budget().steered})")
    p.add_argument("--no-vectors", action="store_true", help="do not play the golden vectors and witnesses")
    p.add_argument("--max-steps", type=number(int, 1, 1_000_000), default=Budget().max_steps, metavar="N",
                   help=f"moves per game at most (default {Budget().max_steps})")
    p.add_argument("--shrink-games", type=number(int, 0, 1_000_000), default=SHRINK_GAMES, metavar="N",
                   help=f"games the shrinker may play (default {SHRINK_GAMES})")
    p.add_argument("--reply-seconds", type=number(float, 0, 3600), default=REPLY_SECONDS, metavar="S",
                   help=f"how long to wait for one reply (default {REPLY_SECONDS:g}); an engine slower than "
                        "this stops the run incomplete")
    p.add_argument("--max-replies", type=number(int, 1, 1_000_000_000), default=MAX_REPLIES, metavar="N",
                   help=f"requests the engine may answer in the whole run, shrinking included (default "
                        f"{MAX_REPLIES:,}: every default run of the three rule sets needs fewer); reached before a "
                        "difference, the run stops incomplete (exit status 3) and says how far it got")
    p.add_argument("--replay", metavar="VECTOR",
                   help="play this one vector against the engine instead of a run: an ITF file of vectors/ or one "
                        "--out-itf wrote, under its own setup; a failing game shows the same difference again")
    p.add_argument("--out-itf", metavar="FILE",
                   help="where to write the shortest failing game (default conform-RULESET.itf.json)")
    add_seed(p, 0, "the random games (game i plays from S + i) and the steered ones")
    add_max_seconds(p)
    add_json(p, "conform")
    p.set_defaults(run=run)


def _progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def open_engine(text: str, reply_seconds: float) -> Engine:
    if text.startswith(OPENSPIEL_PREFIX):  # imported only then: tablerules.openspiel imports pyspiel if installed
        from tablerules.conform import openspiel_engine

        return openspiel_engine.OpenSpielEngine(text)
    return ProcessEngine(text, reply_seconds)


def _budget(args: argparse.Namespace) -> Budget:
    return Budget(games=args.games, steered=args.steered, max_steps=args.max_steps, shrink_games=args.shrink_games,
                  seed=args.seed, vectors=not args.no_vectors, max_replies=args.max_replies)


def _setup(args: argparse.Namespace) -> tuple[Any, Any]:
    """(RuleSet, Setup) of the run: the setup arguments, and with --engine openspiel:GAME_STRING the
    string's parameters too (a parameter both give must agree: one line and exit status 2 otherwise).
    Sets ``args.deck`` (what the engine is told the components are) and ``args.max_steps`` (an OpenSpiel
    game cut short at max_game_length moves is compared only before that)."""
    engine = args.engine or ""
    if not engine.startswith(OPENSPIEL_PREFIX):
        rules, setup, _ = build_setup(args)
        return rules, setup
    from tablerules.conform import openspiel_engine
    from tablerules.openspiel.parameters import deck_for

    try:
        game = openspiel_engine.read(engine)
    except ProtocolError as e:
        raise UsageError(f"tablerules conform: {e}") from None
    rules = registry.get(args.ruleset)
    asked = copy.copy(args)
    given = game.given if game.ruleset == rules.id else {}
    if args.players is None and "players" in given:
        asked.players = given["players"]
    if args.deck is None and rules.load_components is not None and game.ruleset == rules.id:
        asked.deck = given.get("deck") or deck_for(rules.id, asked.players or rules.player_counts[0])
    rules, setup, _ = build_setup(asked)
    said = openspiel_engine.run_setup(game, rules, args.players, setup.options,
                                      bool(args.ruling or args.option or args.strict), args.deck)
    if said.options is not None:
        setup = rules.setup(setup.players, said.options, setup.components)
    args.deck = asked.deck
    if said.max_moves is not None and said.max_moves < args.max_steps:
        _progress(f"conform: the game string's max_game_length: games are compared for {said.max_moves} moves at most")
        args.max_steps = said.max_moves
    return rules, setup


def _check_cards(setup: Any, deck: str | None) -> None:
    problem = unnamable_card(setup.components, f"--deck {deck}" if deck else "the deck")
    if problem:
        raise UsageError(f"tablerules conform: {problem}")


def run(args: argparse.Namespace) -> int:
    if args.planted_faults == bool(args.engine):
        raise UsageError("tablerules conform: give either --engine CMD or --planted-faults")
    if args.replay:
        return _replay(args)
    rules, setup = _setup(args)
    _check_cards(setup, args.deck)
    if args.planted_faults:
        return _planted(args, rules, setup)
    if args.out_itf:  # before the run: a failing game found and shrunk must have somewhere to go
        from tablerules.proofs.files import check_writable_file

        check_writable_file(args.out_itf, "--out-itf")
    try:
        outcome, complete, stopped = _one(args, args.engine, rules, setup)
    except ProtocolError as e:
        raise UsageError(f"tablerules conform: engine protocol: {e}") from None
    vector_path = None
    if outcome.difference is not None:
        vector_path = args.out_itf or f"conform-{rules.id}.itf.json"
        write_vector(vector_path, failing_vector(rules, outcome, reproduce_line(args)))
    return _report(args, outcome, complete, stopped, vector_path)


def _report(args: argparse.Namespace, outcome: Findings, complete: bool, stopped: str, vector_path: str | None) -> int:
    status = EXIT_FAIL if outcome.difference is not None else EXIT_OK if complete else EXIT_INCOMPLETE
    ok = "conformant: the engine plays the vector as our rules do" if args.replay else \
        "conformant: no difference within the budget"
    line = {EXIT_OK: ok, EXIT_FAIL: "NOT CONFORMANT: the engine departs from our rules",
            EXIT_INCOMPLETE: f"incomplete: {stopped}"}[status]
    if args.json:
        emit_json(document("conform", to_json(outcome, status, vector_path, complete, stopped, args.replay)))
    else:
        write_text(sys.stdout, outcome, line, vector_path)
        print(reproduce_line(args))
    return status


def _replay(args: argparse.Namespace) -> int:
    """--replay VECTOR: the one game of the vector against the engine."""
    if args.planted_faults:
        raise UsageError("tablerules conform: --replay plays a vector against --engine, not --planted-faults")
    fixed = [name for name, value in (("--players", args.players), ("--ruling", args.ruling),
                                      ("--option", args.option), ("--strict", args.strict),
                                      ("--out-itf", args.out_itf)) if value]
    if fixed:
        raise UsageError(f"tablerules conform: --replay plays the vector under its own setup and writes nothing: "
                         f"drop {', '.join(fixed)}")
    rules = registry.get(args.ruleset)
    try:
        game = vector_game(rules, args.replay, args.deck, args.seed)
    except ReplayError as e:
        raise UsageError(f"tablerules conform: {e}") from None
    _check_cards(game.setup, game.components_argument)
    outcome = Findings(args.engine, rules.id, game.setup.players)
    try:
        complete, stopped = _against(args, args.engine, outcome, lambda engine: replay(
            rules, game, engine, _budget(args), _progress, findings=outcome))
    except ProtocolError as e:
        raise UsageError(f"tablerules conform: engine protocol: {e}") from None
    if complete and outcome.difference is None and not outcome.tallies["vectors"].games:
        complete, stopped = False, f"{DECLINED} ({outcome.skipped_reasons[0]})"
    return _report(args, outcome, complete, stopped, None)


def _against(args: argparse.Namespace, engine_text: str, outcome: Findings, play: Any) -> tuple[bool, str]:
    """Open the engine and run ``play(engine)`` on it within the run's limits: (complete, why it stopped if not)."""
    engine = None
    try:
        with time_limit(args.max_seconds):
            engine = open_engine(engine_text, args.reply_seconds)
            outcome.engine = engine.name
            play(engine)
    except TimeLimit:
        return False, BY_MAX_SECONDS
    except EngineHang as e:
        return False, str(e)
    finally:
        if engine is not None:
            engine.close()
    if outcome.reply_limit and outcome.difference is None:
        return False, f"{BY_REPLIES} ({outcome.max_replies:,} replies): {outcome.how_far()}"
    return True, ""


def _one(args: argparse.Namespace, engine_text: str, rules: Any, setup: Any) -> tuple[Findings, bool, str]:
    """One run against one engine: (what it found, complete, why it stopped if not)."""
    outcome = Findings(engine_text, rules.id, setup.players)
    complete, stopped = _against(args, engine_text, outcome, lambda engine: conform(
        rules, setup, args.deck, engine, _budget(args), _progress, findings=outcome))
    if not complete:
        return outcome, False, stopped
    if outcome.difference is None and not any(t.games for t in outcome.tallies.values()):
        return outcome, False, DECLINED + " (no game was played)"
    own = [outcome.tallies[k] for k in ("random", "steered")]
    if outcome.difference is None and not any(t.games for t in own) and any(t.skipped for t in own):
        why = outcome.skipped_reasons[0] if outcome.skipped_reasons else "declined"
        return outcome, False, f"{DECLINED_OWN} (only vectors of other setups were played; {why})"
    return outcome, True, ""


def _planted(args: argparse.Namespace, rules: Any, setup: Any) -> int:
    rows, docs = [], []
    missed = incomplete = False
    for fault in faults(rules.id):
        _progress(f"conform: planted fault {fault.mutant} ({fault.family})")
        try:
            outcome, complete, stopped = _one(args, fault.command(), rules, setup)
        except ProtocolError as e:
            raise UsageError(f"tablerules conform: planted fault {fault.mutant}: engine protocol: {e}") from None
        diff = outcome.difference
        caught = diff is not None
        missed |= complete and not caught
        incomplete |= not complete and not caught
        shrunk = diff.step if diff else None
        rows.append([fault.family, fault.mutant, "caught" if caught else "not caught" if complete else "incomplete",
                     f"{outcome.failing.difference.step}" if caught else "-", f"{shrunk}" if caught else "-",
                     diff.clause if caught else "-"])
        docs.append({"family": fault.family, "mutant": fault.mutant, "about": fault.about, "caught": caught,
                     "found_after_moves": outcome.failing.difference.step if caught else None,
                     "shrunk_moves": shrunk, "clause": diff.clause if caught else None,
                     "aspect": diff.aspect if caught else None,
                     "moves": (outcome.shrunk.played.moves if outcome.shrunk else []) if caught else []})
    status = EXIT_FAIL if missed else EXIT_INCOMPLETE if incomplete else EXIT_OK
    caught_count = sum(1 for d in docs if d["caught"])
    if args.json:
        emit_json(document("conform", {"ruleset": rules.id, "engine": "planted faults", "players": setup.players,
                                       "planted": docs, "caught": caught_count, "exit_status": status}))
    else:
        print(f"planted faults of {rules.id}: {caught_count} of {len(docs)} caught "
              "(lengths in moves: seat moves and chance outcomes)")
        table(rows, header=("clause family", "mutant", "verdict", "found after", "shrunk to", "clause named"))
        print(reproduce_line(args))
    return status
