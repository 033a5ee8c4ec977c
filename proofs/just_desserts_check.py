"""The just-desserts part of `tablerules check`.

* z3 proofs: the most guests a player can hold without winning; how many players it takes
  to use up the guest supply; deck facts on every teaching deck (and the retail card list
  when given); the order of competing out-of-turn answers, with its witness file checked
  against a fresh search.
* Exhaustive exploration of the basic game on jd-two-suits (twins symmetry) and
  jd-one-suit, and of every combination of the advanced rules on jd-rivals, all for 2
  players, with the networkx pass (every reachable state can still reach an end).
* Strict mode on the teaching decks: every gap reached must be a registered ruling.
* The play-on alternative of jd.ruling.all-guests-claimed: the explorer must find the
  trap that the ruling's default avoids (its evidence).
* The retail deck (when given): a budgeted exploration of the basic game and all options.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import time

from tablerules.model.core import STRICT, RuleGap, ruling_fields, strict_options
from tablerules.model.decks import embedded_deck, load_deck
from tablerules.model.just_desserts import RULES, TEACHING_DECKS, Options
from tablerules.spec import load_spec

from . import just_desserts_proofs as proofs
from .checks import FAIL, PASS, CheckItem, CheckResult, Context, ProofResult, explore_result, proof_item
from .explorer import Budget, explore, finding_traces, graph_analysis

RULESET = "just-desserts"
VARIANTS = ("poaching", "buffet", "surprise_parties")


def variant_combinations() -> list[dict[str, bool]]:
    """Every combination of the three advanced rules (jd.advanced.options)."""
    return [dict(zip(VARIANTS, bits)) for bits in itertools.product((False, True), repeat=3)]


def _combo_label(combo: dict[str, bool]) -> str:
    on = [k.replace("_", "-") for k, v in combo.items() if v]
    return "+".join(on) or "basic"


def _explore_basic(deck_name: str, seconds: float):
    def run(ctx: Context) -> CheckResult:
        setup = RULES.setup(2, Options(), embedded_deck(deck_name))
        r = explore_result(RULES, [setup], f"basic {deck_name} 2p", symmetry=RULES.default_symmetry,
                           budget=Budget(max_seconds=ctx.seconds(seconds)), ctx=ctx, graph=True)
        r.name = f"explore the basic game on {deck_name}, 2 players (exhaustive)"
        if "complete" not in r.summary:
            r.status = FAIL
        return r

    return run


def _explore_combinations(ctx: Context) -> CheckResult:
    """Every combination of the advanced rules on jd-rivals, to the end, with the graph pass."""
    t0 = time.perf_counter()
    rows, findings, ok = [], [], True
    deck = embedded_deck("jd-rivals")
    for combo in variant_combinations():
        setup = RULES.setup(2, Options(**combo), deck)
        r = explore_result(RULES, [setup], f"jd-rivals {_combo_label(combo)}", symmetry=RULES.default_symmetry,
                           budget=Budget(max_seconds=ctx.seconds(30)), ctx=ctx, graph=True)
        complete = "complete" in r.summary
        ok &= r.ok and complete
        findings += r.findings
        d = dict(r.rows)
        rows.append((_combo_label(combo), f"{r.summary}; reach-end: {d.get('every state can reach an end', 'n/a')}; "
                                          f"ends: {d.get('outcomes (terminal states)', '-')}"))
    return CheckResult(RULESET, "explore every combination of the advanced rules on jd-rivals, 2 players",
                       PASS if ok else FAIL, f"{len(rows)} combinations" + (", all complete" if ok else ", problems found"),
                       rows, findings, time.perf_counter() - t0)


def _strict(ctx: Context) -> CheckResult:
    """All strict alternatives at once: every gap reached is a registered ruling."""
    t0 = time.perf_counter()
    spec = load_spec(RULESET)
    rows, findings, ok = [], [], True
    configs = [(name, 2, {}) for name in TEACHING_DECKS] + [("jd-rivals", 2, dict.fromkeys(VARIANTS, True)),
                                                           ("jd-crowd", 3, dict.fromkeys(VARIANTS, True))]
    for name, n, combo in configs:
        opts = strict_options(Options, **combo)
        setup = RULES.setup(n, opts, embedded_deck(name))
        ex = explore(RULES, [RULES.new_game(setup)], symmetry=RULES.default_symmetry,
                     budget=Budget(max_states=60_000, max_seconds=ctx.seconds(4)), progress=ctx.progress(f"strict {name}"))
        fs = finding_traces(ex)
        gaps = [f for f in fs if f.kind == "gap"]
        bad = [f for f in fs if f.kind != "gap" or f.key not in spec.rulings]
        ok &= not bad
        findings += bad
        text = ", ".join(f"{f.key.split('.ruling.')[-1]} after {len(f.trace)} steps" for f in gaps) or "no gap reached"
        rows.append((f"{name}, {n}p, {_combo_label(combo)}", text + ("" if ex.complete else f" (partial: {ex.stopped})")))
    return CheckResult(RULESET, "strict mode: every gap is a registered ruling", PASS if ok else FAIL,
                       f"{len(rows)} strict runs", rows, findings, time.perf_counter() - t0)


def _play_on_trap(ctx: Context) -> CheckResult:
    """Evidence for jd.ruling.all-guests-claimed: with play-on the graph has traps."""
    t0 = time.perf_counter()
    opts = Options(all_claimed="play-on")
    setup = RULES.setup(2, opts, embedded_deck("jd-rivals"))
    ex = explore(RULES, [RULES.new_game(setup)], budget=Budget(max_seconds=ctx.seconds(10)), keep_graph=True,
                 progress=ctx.progress("play-on"))
    if not ex.complete:
        return CheckResult(RULESET, "all-guests-claimed=play-on has traps (ruling evidence)", FAIL, ex.coverage())
    gr = graph_analysis(ex)
    rows = [("states", f"{ex.states:,}"), ("trap states", f"{gr.traps:,}")]
    if gr.traps:
        _, steps, _ = ex.trace(gr.trap_example)
        rows.append(("shortest trace into a trap", " | ".join(s.move for s in steps)))
    status = PASS if gr.traps else FAIL
    return CheckResult(RULESET, "all-guests-claimed=play-on has traps (ruling evidence)", status,
                       f"{gr.traps:,} trap states on jd-rivals, 2 players" if gr.traps else "no trap found: the ruling's evidence is stale",
                       rows, seconds=time.perf_counter() - t0)


def _answer_order() -> ProofResult:
    """The search, plus: the witness saved in spec/witnesses must be the one the search finds now."""
    result = proofs.answer_order()
    saved_path = proofs.witness_path()
    fresh = result.data.get("witness")
    try:
        saved = json.loads(saved_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        saved = None
    if fresh is not None and saved != json.loads(json.dumps(fresh)):
        result.status = "stale witness"
        result.detail = f"{saved_path.name} differs from a fresh search: regenerate it with answer_order(write=True)"
    return result


def _retail(ctx: Context) -> CheckResult:
    t0 = time.perf_counter()
    deck = load_deck(ctx.retail_deck, name="retail")
    rows, findings, ok = [], [], True
    for combo in (dict.fromkeys(VARIANTS, False), dict.fromkeys(VARIANTS, True)):
        setup = RULES.setup(2, Options(**combo), deck)
        r = explore_result(RULES, [setup], f"retail {_combo_label(combo)}", budget=Budget(max_seconds=ctx.seconds(3)), ctx=ctx)
        ok &= r.ok
        findings += r.findings
        rows.append((_combo_label(combo), r.summary))
    for fact in proofs.deck_facts(deck, "retail"):
        exp = fact.expected()
        ok &= exp == fact.status
        rows.append((fact.name, f"{fact.status} (expected {exp}): {fact.detail}"))
    return CheckResult(RULESET, "retail deck: facts and a budgeted exploration, 2 players", PASS if ok else FAIL,
                       "no violation" if ok else "problems found", rows, findings, time.perf_counter() - t0)


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
        CheckItem(RULESET, "explore the basic game on jd-two-suits, 2 players (exhaustive)", _explore_basic("jd-two-suits", 30)),
        CheckItem(RULESET, "explore the basic game on jd-one-suit, 2 players (exhaustive)", _explore_basic("jd-one-suit", 15)),
        CheckItem(RULESET, "explore every combination of the advanced rules on jd-rivals, 2 players", _explore_combinations),
        CheckItem(RULESET, "strict mode: every gap is a registered ruling", _strict),
        CheckItem(RULESET, "all-guests-claimed=play-on has traps (ruling evidence)", _play_on_trap),
    ]
    if ctx.retail_deck:
        items.append(CheckItem(RULESET, "retail deck: facts and a budgeted exploration, 2 players", _retail))
    return items


__all__ = ["checks", "variant_combinations", "RuleGap", "STRICT", "ruling_fields", "dataclasses"]
