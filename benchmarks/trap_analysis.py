"""The gap finder's graph analysis (networkx: ancestors of the ends, DAG longest path) against
the exploration that builds its graph, measured side by side in one run.

For each rule set's small configurations under strict rulings, prints the states and edges of
the explored graph (a state: one stored game state after symmetry reduction; an edge: one
move or chance outcome from it), the seconds of the exploration and of the trap analysis, and
their ratio: the share networkx adds to a run; beside it the hand-written plain-dict analysis
it replaced (kept here only as the yardstick) and the ratio of the two.  Each ratio is measured
side by side: the two take turns for --rounds rounds (``timing.alternate``: the exploration then
the analysis of the graph the first round explored; the plain dicts then networkx), and the
median of the per-round ratios is printed with their least and greatest; seconds are medians of
the rounds.  The machine's load average is printed at the start and the end.
Usage: python benchmarks/trap_analysis.py [--rounds N]
"""

from __future__ import annotations

import argparse
import statistics
import sys

import networkx  # noqa: F401 - imported before timing: the first analysis would pay for it

from tablerules.proofs.discovery import gaps
from tablerules.proofs.explorer import explore
from tablerules.report import table
from timing import alternate, load_average


def plain_dicts(ex) -> tuple[list, int | None]:
    """The replaced analysis: reverse reachability from the ends, Kahn's order for the longest path."""
    succ: dict = {n: [] for n in ex.parents}
    pred: dict = {n: [] for n in ex.parents}
    for a, b in ex.edges:
        succ[a].append(b)
        pred[b].append(a)
    can_end = {n for n, outs in succ.items() if not outs}
    stack = list(can_end)
    while stack:
        for p in pred[stack.pop()]:
            if p not in can_end:
                can_end.add(p)
                stack.append(p)
    indeg = {n: len(pred[n]) for n in succ}
    dist = dict.fromkeys(succ, 0)
    queue = [n for n, d in indeg.items() if d == 0]
    removed = 0
    while queue:
        n = queue.pop()
        removed += 1
        for m in succ[n]:
            dist[m] = max(dist[m], dist[n] + 1)
            indeg[m] -= 1
            if indeg[m] == 0:
                queue.append(m)
    return [n for n in succ if n not in can_end], max(dist.values(), default=0) if removed == len(succ) else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each pairing, in turn (default 3)")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be 1 or more")
    print(f"{args.rounds} rounds a pairing; load average at the start {load_average()}")
    rows = []
    for ruleset in ("dishes", "just-desserts", "just-desserts-2.3"):
        rules, module = gaps.load_rules(ruleset)
        for config in gaps.small_configs(rules, module).configs[:3]:
            state, _options, _found, problem = gaps.start_game(rules, config, gaps.strict_options(rules.Options))
            if state is None:
                continue
            first = explore(rules, [state], symmetry=gaps._symmetry(rules), budget=gaps.GapBudget(50_000).budget(),
                            keep_graph=True)
            if not first.complete:
                continue
            share = alternate(args.rounds, lambda: explore(rules, [state], symmetry=gaps._symmetry(rules),
                                                           budget=gaps.GapBudget(50_000).budget(), keep_graph=True),
                              lambda: gaps.trap_analysis(first))
            against = alternate(args.rounds, lambda: plain_dicts(first), lambda: gaps.trap_analysis(first))
            ex, ours, theirs = share.a_result, against.b_result, against.a_result
            assert ours == theirs, f"{ruleset} {config.label()}: the two analyses disagree"
            assert ex.states == first.states, f"{ruleset} {config.label()}: two explorations disagree"
            analysis_s = statistics.median(share.b_seconds + against.b_seconds)
            rows.append((ruleset, config.label(), f"{ex.states:,}", f"{len(ex.edges):,}",
                         f"{share.a_median_seconds:.3f}", f"{analysis_s:.3f}", share.ratio_text(),
                         against.ratio_text()))
    table(rows, header=("rule set", "configuration", "states", "edges", "explore s", "trap analysis s",
                        "analysis / explore", "networkx / plain dicts"), out=sys.stdout)
    print(f"load average at the end {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
