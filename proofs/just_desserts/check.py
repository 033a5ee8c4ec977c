"""The just-desserts part of `tablerules check`.

* z3 proofs: the most guests a player can hold without winning; how many players it takes
  to use up the guest supply; deck facts on every teaching deck (and the retail card list
  when given); the order of competing out-of-turn answers, with its witness file checked
  against a fresh search.
* Exhaustive exploration of the basic game on jd-two-suits (twins symmetry) and
  jd-one-suit, and of every combination of the advanced rules on jd-rivals, all for 2
  players, with the networkx pass (every reachable state can still reach an end) and the
  endless-play table (proofs/endless.py: cycles play can go round though an end is
  reachable, and closed sets from which none is).
* Strict mode on the teaching decks: every gap reached must be a registered ruling.
* The play-on alternative of jd.ruling.all-guests-claimed: the explorer must find the
  traps that the ruling's default avoids (its evidence, with witness traces checked
  against spec/witnesses/jd-all-guests-claimed-trap.json).
* Play that can never end (jd.ruling.no-serving-possible): on jd-famine the play-on
  alternative must reach a set of states play can never leave (a bottom strongly connected
  component without an end, found within state budgets); the default must not.
* The compiled playout (model/just_desserts/playout.py): its games replay on the model move
  by move (proofs/just_desserts/playout_check.py).
* The retail deck (when given): its deck facts, and random games (2 players basic, 4
  players with all options) with every invariant checked at every step (seeded: the
  player count plus ``--seed``).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
import time
from collections import Counter

from tablerules.model.core import CHANCE, STRICT, TERMINAL
from tablerules.model.decks import embedded_deck, load_deck
from tablerules.model.just_desserts import RULES, TEACHING_DECKS, Options
from tablerules.spec import load_spec

from . import proofs
from ..discovery.clause_reach import reach_check_item
from ..discovery.decisions import decision_check_item
from .playout_check import playout_check_item
from ..discovery.mutation.coverage import mutation_check_item
from ..properties.alternatives import audit_check_item
from ..discovery.divergence import witness_check_item
from ..checks import EXHAUSTIVE, FAIL, PASS, CheckItem, CheckResult, Context, ProofResult, explore_result, proof_item
from ..endless import CLOSED, CYCLE
from ..explorer import Budget, explore, finding_traces

RULESET = "just-desserts"
VARIANTS = ("poaching", "buffet", "surprise_parties")


def variant_combinations() -> list[dict[str, bool]]:
    """Every combination of the three advanced rules (jd.advanced.options)."""
    return [dict(zip(VARIANTS, bits)) for bits in itertools.product((False, True), repeat=3)]


def _combo_label(combo: dict[str, bool]) -> str:
    on = [k.replace("_", "-") for k, v in combo.items() if v]
    return "+".join(on) or "basic"


def _explore_basic(deck_name: str):
    def run(ctx: Context) -> CheckResult:
        setup = RULES.setup(2, Options(), embedded_deck(deck_name))
        r = explore_result(RULES, [setup], f"basic {deck_name} 2p", symmetry=RULES.default_symmetry,
                           budget=Budget(max_states=EXHAUSTIVE), ctx=ctx, graph=True)
        r.name = f"explore the basic game on {deck_name}, 2 players (exhaustive)"
        if r.status == PASS and not r.summary.startswith("complete"):
            r.status = FAIL
        return r

    return run


def check_combinations() -> list[dict[str, bool]]:
    """The combinations `tablerules check` explores: every combination of the advanced rules
    (--quick: basic and each rule alone)."""
    return variant_combinations()


def _explore_combinations(ctx: Context) -> CheckResult:
    """The advanced rules alone and together on jd-rivals, to the end, with the graph pass."""
    t0 = time.perf_counter()
    rows, findings, ok = [], [], True
    deck = embedded_deck("jd-rivals")
    for combo in check_combinations():
        if ctx.quick and sum(combo.values()) > 1:
            continue  # --quick: each advanced rule alone, not two or three together
        setup = RULES.setup(2, Options(**combo), deck)
        r = explore_result(RULES, [setup], f"jd-rivals {_combo_label(combo)}", symmetry=RULES.default_symmetry,
                           budget=Budget(max_states=EXHAUSTIVE), ctx=ctx, graph=True)
        complete = r.summary.startswith("complete")
        ok &= r.ok and complete
        findings += r.findings
        d = dict(r.rows)
        rows.append((_combo_label(combo), f"{r.summary}; reach-end: {d.get('every state can reach an end', 'n/a')}; "
                                          f"ends: {d.get('outcomes (terminal states)', '-')}"))
        rows += [(f"  {kind}", d[kind]) for kind in (CYCLE, CLOSED) if kind in d]
    return CheckResult(
        RULESET, "explore the advanced rules alone and together on jd-rivals, 2 players", PASS if ok else FAIL,
        f"{sum(1 for r in rows if not r[0].startswith(' '))} combinations"
        + (", all complete" if ok else ", problems found"), rows, findings, time.perf_counter() - t0,
    )


ADVANCED_RULINGS = ("jd.ruling.answer-order", "jd.ruling.plain-block-vs-surprise", "jd.ruling.victim-tip-on-surprise",
                    "jd.ruling.surprise-on-block", "jd.ruling.surprise-doorway", "jd.ruling.surprise-serving",
                    "jd.ruling.victim-surprise")


NOT_EXPLORED_ALONE = {
    "jd.ruling.all-guests-claimed": "the trap evidence, its own proof",
    "jd.ruling.answer-order": "races need three players: the answer-order proof",
    "jd.ruling.no-serving-possible": "the endless-play proof on jd-famine",
    "jd.ruling.endless-play": "the endless-poaching proof on jd-famine (repeated-position keeps a history: the state "
                              "space of jd-rivals grows without bound in the graph sense)",
    "jd.ruling.matching-pair": "the readings never part (a unit test and the win rule)",
    "jd.ruling.score-full-tie": "it only relabels a tied end: unit test",
    "jd.ruling.turn-direction": "with two players both directions give the other seat: its witness (3 players) and a "
                                "unit test",
}
"""Rulings whose other alternatives the exploration on jd-rivals leaves out, and where they are checked."""


def _alternatives(advanced: bool) -> list[tuple[str, str]]:
    out = []
    for f in dataclasses.fields(Options):
        rid = f.metadata.get("ruling")
        if rid is None or rid in NOT_EXPLORED_ALONE \
                or (rid in ADVANCED_RULINGS) != advanced:
            continue
        out += [(rid, alt) for alt in f.metadata["alternatives"][1:] if alt != STRICT]
    return out


def basic_alternatives() -> list[tuple[str, str]]:
    """(ruling, alternative) for every non-default, non-strict alternative of the basic game's rulings.

    Left out everywhere: all-guests-claimed=play-on (the trap evidence, its own proof) and
    answer-order=clockwise (races need three players; scenario tests cover it).
    """
    return _alternatives(False)


def advanced_alternatives() -> list[tuple[str, str]]:
    """The same for the rulings of the advanced rules."""
    return _alternatives(True)


def explore_alternative(
    ruling_id: str, alternative: str, ctx: Context, combo: dict[str, bool] | None = None
) -> CheckResult:
    """One ruling alternative (all else default), explored to the end on jd-rivals for 2 players."""
    name = next(f.name for f in dataclasses.fields(Options) if f.metadata.get("ruling") == ruling_id)
    setup = RULES.setup(2, Options(**{name: alternative}, **(combo or {})), embedded_deck("jd-rivals"))
    return explore_result(RULES, [setup], f"{ruling_id} = {alternative}", budget=Budget(max_states=EXHAUSTIVE),
                          ctx=ctx, graph=True)


def _every_alternative(ctx: Context) -> CheckResult:
    """Each other non-strict alternative of each basic-game ruling, alone, explored to the end on jd-rivals.

    The alternatives of the advanced rules' rulings are explored by
    tests/proofs/test_just_desserts_proofs.py (this check's time budget does not hold them);
    answer-order needs three players and is covered by the answer-order proof; play-on is
    the trap evidence (its own proof).
    """
    t0 = time.perf_counter()
    rows, findings, ok = [], [], True
    for rid, alt in basic_alternatives():
        r = explore_alternative(rid, alt, ctx)
        ok &= r.ok and r.summary.startswith("complete")
        findings += r.findings
        rows.append((f"{rid.split('.ruling.')[-1]}={alt}",
                     f"{r.summary}; reach-end: {dict(r.rows).get('every state can reach an end', 'n/a')}"))
    return CheckResult(RULESET, "every other ruling alternative explored on jd-rivals, 2 players", PASS if ok else FAIL,
                       f"{len(rows)} explorations" + (", all complete" if ok else ", problems found"), rows, findings,
                       time.perf_counter() - t0)


BASIC_2P, RIVALS_ALL, CROWD_ALL = ("jd-two-suits", 2, False), ("jd-rivals", 2, True), ("jd-crowd", 3, True)
FAMINE_2P, CROWD_3P, ONE_2P = ("jd-famine", 2, False), ("jd-crowd", 3, False), ("jd-one-suit", 2, False)
STRICT_RUNS = (
    (("jd.ruling.turn-direction",), (CROWD_3P,)),
    (("jd.ruling.dessert-supply-empty",), (BASIC_2P,)),
    (("jd.ruling.guest-supply-empty",), (BASIC_2P, CROWD_ALL)),
    (("jd.ruling.all-guests-claimed",), (ONE_2P,)),
    (("jd.ruling.answer-order",), (CROWD_ALL,)),
    (("jd.ruling.plain-block-vs-surprise", "jd.ruling.surprise-on-block"), (CROWD_ALL,)),
    (("jd.ruling.victim-tip-on-surprise",), (CROWD_ALL,)),
    (("jd.ruling.no-serving-possible",), (FAMINE_2P,)),
    (("jd.ruling.endless-play",), (ONE_2P,)),
)
"""Which strict rulings are switched on together, and where they are looked for: (deck, players, all advanced
rules on?)."""


def _strict(ctx: Context) -> CheckResult:
    """Each strict alternative alone, then all at once: every gap reached is a registered ruling."""
    t0 = time.perf_counter()
    spec = load_spec(RULESET)
    rows, findings, ok = [], [], True
    strictable = [f for f in dataclasses.fields(Options) if STRICT in f.metadata.get("alternatives", ())]
    field_of = {f.metadata["ruling"]: f.name for f in strictable}
    runs = [(" + ".join(r.split(".ruling.")[-1] for r in rids), {field_of[r]: STRICT for r in rids}, configs)
            for rids, configs in STRICT_RUNS]
    runs.append(("all strict", {f.name: STRICT for f in strictable}, (BASIC_2P, RIVALS_ALL, CROWD_ALL)))
    reached: set[str] = set()
    count = 0
    for label, rulings, configs in runs:
        texts = []
        for name, n, advanced in configs:
            count += 1
            combo = dict.fromkeys(VARIANTS, advanced)
            setup = RULES.setup(n, Options(**rulings, **combo), embedded_deck(name))
            ex = explore(RULES, [RULES.new_game(setup)], symmetry=RULES.default_symmetry,
                         budget=Budget(max_states=ctx.states(12_000)),
                         progress=ctx.progress(f"strict {label} {name}"))
            fs = finding_traces(ex)
            bad = [f for f in fs if f.kind != "gap" or f.key not in spec.rulings]
            ok &= not bad
            findings += bad
            gaps = [f for f in fs if f.kind == "gap"]
            reached |= {f.key for f in gaps}
            found = ", ".join(f"{f.key.split('.ruling.')[-1]} after {len(f.trace)} steps" for f in gaps) or "none"
            texts.append(
                f"{name} {n}p{' all options' if advanced else ''}: {found}" + ("" if ex.complete else " (partial)")
            )
        rows.append((label, "; ".join(texts)))
    missing = sorted({f.metadata["ruling"] for f in strictable} - reached)
    rows.append(("strict rulings never reached", ", ".join(missing) or "none"))
    return CheckResult(RULESET, "strict mode: every gap is a registered ruling", PASS if ok else FAIL,
                       f"{count} strict runs; {len(reached)} of {len(strictable)} strict rulings reached",
                       rows, findings, time.perf_counter() - t0)


def _fresh(result: ProofResult, file_name: str) -> ProofResult:
    """The witness saved in spec/witnesses must be the one a fresh search finds."""
    path = proofs.witness_path().parent / file_name
    fresh = result.data.get("witness")
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        saved = None
    if fresh is not None and saved != json.loads(json.dumps(fresh)):
        result.status = "stale witness"
        result.detail = f"{file_name} differs from a fresh search: regenerate it (write=True)"
    return result


def _play_on_traps() -> ProofResult:
    return _fresh(proofs.all_claimed_traps(), proofs.TRAP_WITNESS)


def _answer_order() -> ProofResult:
    return _fresh(proofs.answer_order(), proofs.WITNESS)


def _endless_play() -> ProofResult:
    return _fresh(proofs.endless_play(), proofs.ENDLESS_WITNESS)


def _endless_poaching() -> ProofResult:
    return _fresh(proofs.endless_poaching(), proofs.POACHING_WITNESS)


def playouts(setup, games: int, seed: int, *, max_moves: int = 400) -> tuple[Counter, list[str], int]:
    """Random legal games (chance by its probabilities) with every invariant checked at every step.

    Returns (outcomes, problems, games played).  Used where the state space is far too large
    to explore (the retail deck).
    """
    rng = random.Random(seed)
    outcomes: Counter = Counter()
    problems: list[str] = []
    played = 0
    for _ in range(games):
        played += 1
        s = RULES.new_game(setup)
        for _ in range(max_moves):
            actor = RULES.to_move(s)
            if actor is TERMINAL:
                break
            if actor is CHANCE:
                outs = RULES.chance_outcomes(s)
                move = rng.choices([m for m, _ in outs], weights=[float(p) for _, p in outs])[0]
            else:
                legal = RULES.legal_moves(s)
                verb = rng.choice(sorted({m.verb for m in legal}))  # each kind of move equally likely
                move = rng.choice([m for m in legal if m.verb == verb])
            s = RULES.apply(s, move)
            for inv in RULES.invariants:
                problem = inv.check(s)
                if problem:
                    problems.append(f"{inv.name} [{inv.clause}]: {problem}")
        out = RULES.outcome(s)
        outcomes[out.summary() if out else f"unfinished after {max_moves} moves"] += 1
    return outcomes, problems, played


RETAIL_GAMES = 16
"""Random games per configuration on the retail deck (see Context.states; about 0.3 s a game),
seeded by the player count plus the check's ``--seed`` (``ctx.seed``: 0 unless given)."""


def _retail(ctx: Context) -> CheckResult:
    t0 = time.perf_counter()
    deck = load_deck(ctx.retail_deck, name="retail")
    rows, ok = [], True
    for players, combo in ((2, dict.fromkeys(VARIANTS, False)), (4, dict.fromkeys(VARIANTS, True))):
        setup = RULES.setup(players, Options(**combo), deck)
        outcomes, problems, played = playouts(setup, ctx.states(RETAIL_GAMES, least=4),
                                             seed=players + ctx.seed)
        ok &= not problems
        rows.append((f"{players} players, {_combo_label(combo)}", f"{played} random games: "
                     + ", ".join(f"{k}: {v}" for k, v in outcomes.most_common(4))
                     + (f"; PROBLEMS: {problems[0]}" if problems else "; invariants held at every step")))
    for fact in proofs.deck_facts(deck, "retail"):
        exp = fact.expected()
        ok &= exp == fact.status
        rows.append((fact.name, f"{fact.status} (expected {exp}): {fact.detail}"))
    return CheckResult(RULESET, "retail deck: facts and random games", PASS if ok else FAIL,
                       "no violation" if ok else "problems found", rows, seconds=time.perf_counter() - t0)


def _deck_fact_items() -> list[CheckItem]:
    items = []
    for name in TEACHING_DECKS + ("jd-crowd",):
        for fact in ("favourites-satisfy", "every-guest-satisfiable", "buffet-possible"):
            def fn(name=name, fact=fact) -> ProofResult:
                return next(r for r in proofs.deck_facts(embedded_deck(name), name) if r.name.startswith(fact + "@"))

            items.append(proof_item(RULESET, f"{fact}@{name}", fn))
    return items


def checks(ctx: Context) -> list[CheckItem]:
    items = [
        proof_item(RULESET, "max-guests-without-win", proofs.max_guests_without_win),
        proof_item(RULESET, "guest-supply-needs-three-players", proofs.guest_supply_players),
        proof_item(RULESET, "answer-order-matters", _answer_order),
        *_deck_fact_items(),
        *(
            []
            if ctx.quick
            else [
                CheckItem(
                    RULESET, "explore the basic game on jd-two-suits, 2 players (exhaustive)",
                    _explore_basic("jd-two-suits"),
                )
            ]
        ),
        CheckItem(
            RULESET, "explore the basic game on jd-one-suit, 2 players (exhaustive)", _explore_basic("jd-one-suit")
        ),
        CheckItem(
            RULESET, "explore the advanced rules alone and together on jd-rivals, 2 players", _explore_combinations
        ),
        CheckItem(RULESET, "every other ruling alternative explored on jd-rivals, 2 players", _every_alternative),
        CheckItem(RULESET, "strict mode: every gap is a registered ruling", _strict),
        proof_item(RULESET, "play-on-has-traps", _play_on_traps),
        proof_item(RULESET, "endless-play", _endless_play),
        # the whole jd-famine graph with Poaching (356,226 states, about a minute): the full check only
        *([] if ctx.quick else [proof_item(RULESET, "endless-poaching", _endless_poaching)]),
        decision_check_item(RULESET),
        *([] if ctx.quick else [reach_check_item(RULESET)]),
        playout_check_item(),
        mutation_check_item(RULESET),
        audit_check_item(RULESET),
        witness_check_item(RULESET),
    ]
    if ctx.retail_deck:
        items.append(CheckItem(RULESET, "retail deck: facts and random games", _retail))
    return items


__all__ = ["checks", "check_combinations", "playouts", "variant_combinations"]
