"""The dishes part of `tablerules check` (what it covers is listed in its report).

* exhaustive exploration with the networkx pass (every state can reach an end, longest
  game within the proved bound) on small tile sets for 2, 3 and 4 players;
* every ruling alternative, one at a time, explored exhaustively on small tile sets;
* strict mode (proofs/discovery/gaps.py): every gap reached must be a registered ruling;
* every ruling's witness trace replays and shows the difference it claims (proofs/discovery/divergence.py);
* with the exact engine (proofs/dishes/exact_check.py): larger tile sets to the end, and the
  boxed game (6 kinds x 4 colours) for 2, 3 and 4 players level by level within a state budget;
* the compiled random playouts (proofs/dishes/playout_check.py): their games replay on the
  model, and each seat loses as often as the exact values for random play say;
* the z3 proofs (termination bound, the worked example), against proofs/manifests/dishes.toml.
"""

from __future__ import annotations

import dataclasses
import time

from tablerules.model import dishes
from tablerules.model.core import STRICT, ruling_fields
from tablerules.model.dishes import RULES, Options, Tiles

from . import exact_check, playout_check, proofs
from ..discovery.decisions import decision_check_item
from ..discovery.mutation.coverage import mutation_check_item
from ..properties.alternatives import audit_check_item
from ..discovery.divergence import witness_check_item
from ..discovery.gaps import gap_check_item
from ..checks import EXHAUSTIVE, FAIL, PASS, CheckItem, CheckResult, Context, explore_result, proof_item, setup_label
from ..explorer import Budget, Finding, explore, finding_traces, graph_analysis

SMALL = ((2, Tiles(3, 4)), (3, Tiles(2, 4)), (4, Tiles(2, 4)))
"""Configurations explored to the end (kinds x colours kept small so every state is seen)."""
SMALL_QUICK = ((2, Tiles(2, 4)), (3, Tiles(1, 4)), (4, Tiles(1, 4)))
"""The same player counts on smaller tile sets, for ``check --quick``."""
BOX_STATES = {2: 100_000, 3: 50_000, 4: 30_000}
"""State budget of the boxed-game explorations per player count (see Context.states)."""


def _small(ctx: Context) -> tuple:
    return SMALL_QUICK if ctx.quick else SMALL


def small_configs():
    """Setups the gap finder and divergence finder use (model-independent tools look here)."""
    return [RULES.setup(n, Options(), tiles) for n, tiles in SMALL]


def _exhaustive_default(ctx: Context) -> CheckResult:
    results = []
    rows = []
    t0 = time.perf_counter()
    ok = True
    for n, tiles in _small(ctx):
        setup = RULES.setup(n, Options(), tiles)
        r = explore_result(RULES, [setup], f"{n}p {tiles.name}", symmetry=RULES.default_symmetry,
                           budget=Budget(max_states=EXHAUSTIVE), ctx=ctx, graph=True)
        results.append(r)
        ok &= r.ok and r.summary.startswith("complete")
        longest = dict(r.rows).get("longest game (moves incl. chance)", "?")
        dealt = n * tiles.types
        bound = n * 2 * dealt + n - 1
        if longest.isdigit() and int(longest) > bound + dealt:
            ok = False
            longest += f" EXCEEDS the proved bound {bound} + {dealt}"
        rows.append((f"{n} players, {tiles.name}", r.summary + f"; reach-end: "
                                                               f"{dict(r.rows).get('every state can reach an end')}; "
                     f"longest {longest} (proved bound {bound} seat moves + {dealt} reveals)"))
    findings = [f for r in results for f in r.findings]
    return CheckResult("dishes", "explore small tile sets exhaustively (default rulings)", PASS if ok else FAIL,
                       f"{len(rows)} configurations, " + ("all complete" if ok else "problems found"), rows, findings,
                       time.perf_counter() - t0)


def _every_alternative(ctx: Context) -> CheckResult:
    """Each non-strict alternative of each ruling, alone, explored to the end on small sets."""
    t0 = time.perf_counter()
    rows = []
    findings: list[Finding] = []
    ok = True
    for rid, f in ruling_fields(Options).items():
        for alt in f.metadata["alternatives"][1:]:
            if alt == STRICT:
                continue
            opts = dataclasses.replace(Options(), **{f.name: alt})
            for n, tiles in _small(ctx)[:2]:
                if (rid.endswith("deal-2-players") and n != 2) or (rid.endswith("deal-3-players") and n != 3):
                    continue
                if alt == "two-layouts":
                    tiles = Tiles(1, 4)  # four layouts: keep the kinds few
                setup = RULES.setup(n, opts, tiles)
                budget = Budget(max_states=EXHAUSTIVE)
                ex = explore(RULES, [RULES.new_game(setup)], symmetry=RULES.default_symmetry, budget=budget,
                             keep_graph=True, progress=ctx.progress(f"{rid} = {alt}"))
                bad = [x for x in finding_traces(ex) if x.kind != "gap"]
                end = "n/a"
                if ex.complete:
                    gr = graph_analysis(ex)
                    end = "yes" if not gr.traps else f"NO ({gr.traps} traps)"
                    cyc = "" if gr.acyclic else ", has cycles"
                else:
                    cyc = ""
                    ok = False
                ok &= not bad and end != "n/a" and not end.startswith("NO")
                findings += bad
                rows.append((f"{rid.split('.ruling.')[-1]}={alt}, {setup_label(setup)}, {tiles.name}",
                             f"{ex.states:,} states, {ex.terminals:,} ends, reach-end {end}{cyc}"
                             + ("" if ex.complete else f", INCOMPLETE ({ex.stopped})")))
    return CheckResult("dishes", "every ruling alternative explored (small tile sets)", PASS if ok else FAIL,
                       f"{len(rows)} explorations", rows, findings, time.perf_counter() - t0)


def checks(ctx: Context) -> list[CheckItem]:
    return [
        proof_item("dishes", "termination", proofs.termination),
        proof_item("dishes", "termination-voluntary-pass", proofs.termination_with_voluntary_pass),
        proof_item("dishes", "worked-example", proofs.worked_example),
        CheckItem("dishes", "explore small tile sets exhaustively (default rulings)", _exhaustive_default),
        CheckItem("dishes", "every ruling alternative explored (small tile sets)", _every_alternative),
        gap_check_item("dishes", states=40_000),
        witness_check_item("dishes"),
        decision_check_item("dishes"),
        mutation_check_item("dishes"),
        audit_check_item("dishes"),
        *exact_check.checks(ctx),
        *playout_check.checks(ctx),
    ]


__all__ = ["checks", "small_configs", "dishes"]
