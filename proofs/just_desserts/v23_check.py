"""`tablerules check` items for Just Desserts 2.3 (model/just_desserts/v23.py).

* exhaustive exploration of the teaching deck v23-tiny with two players, on the default
  rulings and on the other alternatives, invariants at every state and the graph pass
  (every state can still reach an end);
* the strict run: every ruling with a ``strict`` alternative set to it, so each place the
  text is silent shows up as a gap with its shortest trace;
* the witness files spec/witnesses/jd23-*.json replay into the gap their ruling names;
* bounded explorations of v23-crowd (four guests) and of v23-tips with three players;
* the clause-reach table (proofs/discovery/clause_reach.py, record proofs/manifests/just_desserts_23_reach.toml):
  every clause and ruling reached by a search from the deal, or argued on record (not with --quick);
* the z3 bound on the number of rounds (any deck), and deck facts
  (proofs/just_desserts/v23_proofs.py) on the teaching decks, and on the retail card list
  when ``ctx.retail_deck`` is set.

``python -m tablerules.proofs.just_desserts.v23_check --write-witnesses`` regenerates the
witness files (each from a full exploration with only that ruling strict).
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from importlib import resources
from pathlib import Path
from typing import Any

from tablerules.model.just_desserts import v23 as jd
from tablerules.model.core import STRICT, RuleGap, play, ruling_fields, short_ruling_name, strict_options
from tablerules.model.decks import embedded_deck, load_deck

from . import v23_proofs as facts
from ..discovery.clause_reach import reach_check_item
from ..discovery.decisions import decision_check_item
from .v23_playout_check import playout_check_item
from ..discovery.mutation.coverage import mutation_check_item
from ..properties.alternatives import audit_check_item
from ..discovery.divergence import witness_check_item
from ..checks import EXHAUSTIVE, FAIL, PASS, CheckItem, CheckResult, Context, explore_result, proof_item
from ..explorer import Budget, explore, finding_traces
from ..files import write_atomic

RULES = jd.RULES
RULESET = RULES.id
DEFAULT_DECK = jd.DEFAULT_DECK

GAP_DECKS = {
    "jd23.ruling.favourite-trump": "v23-tiny",
    "jd23.ruling.two-favourites": "v23-tiny",
    "jd23.ruling.penalty-taker": "v23-tiny",
    "jd23.ruling.penalty-empty-hand": "v23-crowd",
    "jd23.ruling.nothing-to-reshuffle": "v23-tiny",
    "jd23.ruling.kitchen-check": "v23-tiny",
    "jd23.ruling.simultaneous-mistaken": "v23-tiny",
}
"""The smallest teaching deck on which each strict alternative raises its gap."""


def other_alternatives(position: int) -> jd.Options:
    """Options with every ruling at its ``position``-th alternative, skipping strict (default where it has none).

    Position 1 ends the game at the last turn-up (jd23.ruling.guest-pile-empty), which keeps that space small."""
    values = {}
    for f in dataclasses.fields(jd.Options):
        alts = [a for a in f.metadata["alternatives"] if a != STRICT]
        values[f.name] = alts[position] if position < len(alts) else alts[0]
    return jd.Options(**values)


def strict_rulings() -> list[str]:
    return [rid for rid, f in ruling_fields(jd.Options).items() if STRICT in f.metadata["alternatives"]]


def only_strict(ruling_id: str) -> jd.Options:
    """Default options except ``ruling_id`` set to strict."""
    f = ruling_fields(jd.Options)[ruling_id]
    return dataclasses.replace(jd.Options(), **{f.name: STRICT})


# --------------------------------------------------------------------------- witnesses


def witness_folder() -> Path:
    return Path(str(resources.files("tablerules.spec").joinpath("witnesses")))


def witness_path(ruling_id: str) -> Path:
    return witness_folder() / f"jd23-{short_ruling_name(ruling_id)}.json"


def find_gap(ruling_id: str, deck_name: str | None = None, max_states: int = EXHAUSTIVE) -> dict[str, Any] | None:
    """The shortest trace into the gap of ``ruling_id`` (only that ruling strict), as a witness document."""
    deck_name = deck_name or GAP_DECKS[ruling_id]
    setup = RULES.setup(2, only_strict(ruling_id), embedded_deck(deck_name))
    ex = explore(RULES, [RULES.new_game(setup)], budget=Budget(max_states=max_states))
    for f in finding_traces(ex):
        if f.kind == "gap" and f.key == ruling_id:
            return {
                "ruleset": RULESET,
                "ruling": ruling_id,
                "setup": {
                    "players": 2, "deck": deck_name, "rulings": {ruling_id: STRICT},
                    "description": f"two players, teaching deck {deck_name}, every other ruling at its default",
                },
                "moves": [s.move for s in f.trace],
                "raises_at": None if f.move is None else str(f.move),
                "detail": f.detail,
                "search": f"breadth-first search, {ex.coverage()}: no shorter trace reaches this gap",
            }
    return None


def write_witnesses() -> list[Path]:
    out = []
    for rid in strict_rulings():
        doc = find_gap(rid)
        if doc is None:
            print(f"{rid}: no gap found on {GAP_DECKS[rid]}", file=sys.stderr)
            continue
        path = witness_path(rid)
        write_atomic(path, json.dumps(doc, indent=2) + "\n")
        out.append(path)
    return out


def load_witness(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def replay_witness(doc: dict[str, Any]) -> str | None:
    """None if the witness replays into the gap it names; else what went wrong."""
    rid = doc["ruling"]
    options = jd.Options()
    fields = ruling_fields(jd.Options)
    for r, alt in doc["setup"]["rulings"].items():
        options = dataclasses.replace(options, **{fields[r].name: alt})
    setup = RULES.setup(doc["setup"]["players"], options, embedded_deck(doc["setup"]["deck"]))
    try:
        state = play(RULES, RULES.new_game(setup), doc["moves"])
    except RuleGap as g:
        return f"raised {g.ruling} before the last move"
    try:
        if doc["raises_at"] is not None:
            RULES.apply(state, RULES.parse_move(doc["raises_at"], setup))
        else:
            RULES.successors(state)
    except RuleGap as g:
        return None if g.ruling == rid else f"raised {g.ruling}, not {rid}"
    return f"no RuleGap {rid} at the end of the trace"


# --------------------------------------------------------------------------- check items


def _explore_item(
    name: str, options: jd.Options, deck_name: str, states: int | None, graph: bool, players: int = 2
) -> CheckItem:
    """An exploration: exhaustive when ``states`` is None, else budgeted at that many states."""
    def run(ctx: Context) -> CheckResult:
        setup = RULES.setup(players, options, embedded_deck(deck_name))
        budget = Budget(max_states=EXHAUSTIVE if states is None else ctx.states(states))
        return explore_result(RULES, [setup], name, budget=budget, ctx=ctx, graph=graph)

    return CheckItem(RULESET, name, run)


def dealt_states(deck_name: str, players: int) -> list[jd.State]:
    """Two fixed deals: always the first, and always the last, chance outcome of the deal."""
    out = []
    for pick in (0, -1):
        s = RULES.new_game(RULES.setup(players, jd.Options(), embedded_deck(deck_name)))
        while s.phase == jd.DEAL:
            s = RULES.apply(s, RULES.chance_outcomes(s)[pick][0])
        out.append(s)
    return out


def _dealt_item(name: str, deck_name: str, players: int, states: int) -> CheckItem:
    """Play from fixed deals: with more players the deal alone fills any budget."""
    def run(ctx: Context) -> CheckResult:
        starts = dealt_states(deck_name, players)
        return explore_result(RULES, [s.setup for s in starts], name, budget=Budget(max_states=ctx.states(states)),
                              ctx=ctx, initial=starts)

    return CheckItem(RULESET, name, run)


def _strict_item() -> CheckItem:
    name = f"explore strict rulings ({DEFAULT_DECK}, 2 players)"

    def run(ctx: Context) -> CheckResult:
        setup = RULES.setup(2, strict_options(jd.Options), embedded_deck(DEFAULT_DECK))
        allowed = [("gap", r) for r in strict_rulings()]
        result = explore_result(RULES, [setup], name, budget=Budget(max_states=EXHAUSTIVE), ctx=ctx, allowed=allowed)
        return result

    return CheckItem(RULESET, name, run)


def _witness_item() -> CheckItem:
    name = "witnesses replay into their gaps"

    def run(ctx: Context) -> CheckResult:
        t0 = time.perf_counter()
        rows, bad = [], []
        for rid in strict_rulings():
            path = witness_path(rid)
            if not path.exists():
                bad.append(f"{path.name} missing")
                continue
            doc = load_witness(path)
            problem = replay_witness(doc)
            rows.append(
                (path.name, f"{len(doc['moves'])} moves on {doc['setup']['deck']}: " + (problem or "raises " + rid))
            )
            if problem:
                bad.append(f"{path.name}: {problem}")
        summary = f"{len(rows) - len(bad)} of {len(strict_rulings())} witnesses replay" + (
            ": " + "; ".join(bad) if bad else ""
        )
        return CheckResult(RULESET, name, FAIL if bad else PASS, summary, rows, seconds=time.perf_counter() - t0)

    return CheckItem(RULESET, name, run)


def checks(ctx: Context) -> list[CheckItem]:
    items = [
        *(
            []
            if ctx.quick
            else [
                _explore_item(
                    f"explore defaults ({DEFAULT_DECK}, 2 players)", jd.Options(), DEFAULT_DECK, None, graph=True
                )
            ]
        ),
        _explore_item(
            f"explore second alternatives ({DEFAULT_DECK}, 2 players)", other_alternatives(1), DEFAULT_DECK, None,
            graph=True,
        ),
        _explore_item(
            f"explore second alternatives, penalty out of play ({DEFAULT_DECK}, 2 players)",
            dataclasses.replace(other_alternatives(1), penalty_pile="out-of-play"), DEFAULT_DECK, None, graph=True,
        ),
        _strict_item(),
        _witness_item(),
        _explore_item(
            "explore defaults (v23-crowd, 2 players, bounded)", jd.Options(), "v23-crowd", 40_000, graph=False
        ),
        _dealt_item("explore defaults from two fixed deals (v23-tips, 3 players, bounded)", "v23-tips", 3, 50_000),
    ]
    items.append(proof_item(RULESET, "rounds-bounded", facts.rounds_bounded))
    items.append(decision_check_item(RULESET))
    if not ctx.quick:  # the clause-reach table, as for just-desserts: its searches take about half a minute
        items.append(reach_check_item(RULESET))
    items.append(playout_check_item())
    items.append(mutation_check_item(RULESET))
    items.append(audit_check_item(RULESET))
    items.append(witness_check_item(RULESET))
    decks = [(name, (lambda n=name: embedded_deck(n))) for name in facts.TEACHING_DECKS]
    if ctx.retail_deck:
        decks.append(("retail", lambda p=ctx.retail_deck: load_deck(p, name="retail-2015")))
    for label, get_deck in decks:
        for fact, fn in facts.FACTS.items():
            items.append(proof_item(RULESET, facts.fact_name(fact, label),
                                    lambda fn=fn, get_deck=get_deck, n=facts.fact_name(fact, label): fn(get_deck(), n)))
    return items


if __name__ == "__main__":  # pragma: no cover - maintenance entry point
    if sys.argv[1:] == ["--write-witnesses"]:
        for p in write_witnesses():
            print(p)
    else:
        print("usage: python -m tablerules.proofs.just_desserts.v23_check --write-witnesses", file=sys.stderr)
        sys.exit(2)
