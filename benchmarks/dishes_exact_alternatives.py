"""--every-alternative with and without a shared state graph, side by side in one run.

Usage: python benchmarks/dishes_exact_alternatives.py [--deck box] [--label default --label ...] [--partitions 16]
       [--rounds 2]

Solves the given alternatives of 2-player Dishes (default: the default and the three that
only score the ends otherwise) on one warm pool of two worker processes in two modes: each on
its own (``share=False``, as before), and with the alternatives that play the same game solved
over one state graph (``share=True``).  The two modes take turns, alone then shared, for
``--rounds`` rounds (``timing.alternate``).  Prints, per mode, each alternative's seconds (as the
last round's document records them), the wall-clock total (median of the rounds), the seconds
per phase (medians of the rounds; ``expand`` and ``merge`` count forward; ``level`` gathers a
level for the values; ``values`` is optimal and random play), and the ratio of the totals (the
median of the per-round ratios, least-greatest).  Both modes must give the same figures.  The
machine's load average is printed at the start and the end.
"""

from __future__ import annotations

import argparse
import statistics
import sys

from dishes_exact_phases import PHASES, TimedPool
from tablerules.model import registry
from tablerules.proofs.exact import impact as exact_impact
from tablerules.proofs.exact.run import solve
from timing import alternate, load_average

SCORING = ["default", "dishes-count=stacks", "tie-for-most=no-loser", "clean-at-end=dishes"]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", default="4x4")
    ap.add_argument("--label", action="append")
    ap.add_argument("--partitions", type=int, default=16)
    ap.add_argument("--max-states", type=int, default=50_000_000)
    ap.add_argument("--rounds", type=int, default=2, help="rounds, alone then shared (default 2)")
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds must be 1 or more")
    load_start = load_average()
    labels = set(args.label or SCORING)
    rules = registry.get("dishes")
    components = rules.load_components(args.deck)
    pool = TimedPool(2)
    warm = registry.kernel("dishes", rules.setup(2, rules.Options(), rules.load_components("2x2")))
    for _ in range(2):
        solve(warm, run=pool, parts=2)
    phases: dict[bool, list[dict[str, float]]] = {False: [], True: []}

    def solve_all(share: bool) -> dict:
        pool.seconds.clear()
        doc = exact_impact.solve_alternatives(
            "dishes", 2, components, run=pool, parts=args.partitions, max_states=args.max_states, labels=labels,
            share=share, progress=lambda text: print(f"  {text}", file=sys.stderr, flush=True))
        phases[share].append(dict(pool.seconds))
        return doc

    paired = alternate(args.rounds, lambda: solve_all(False), lambda: solve_all(True))
    pool.close()
    docs = {False: paired.a_result, True: paired.b_result}
    totals = {False: paired.a_median_seconds, True: paired.b_median_seconds}

    def figures(doc: dict) -> list[dict]:
        return [{k: v for k, v in r.items() if k != "seconds"} for r in doc["alternatives"]]

    assert figures(docs[False]) == figures(docs[True]), "sharing changed a figure"
    print(f"dishes, 2 players, deck {args.deck}, {args.partitions} partitions, 2 worker processes; "
          f"{args.rounds} rounds, alone then shared; seconds are wall-clock; load average at the start {load_start}")
    print("alternative | alone s | shared s")
    for a, b in zip(docs[False]["alternatives"], docs[True]["alternatives"]):
        print(f"{a['label']} | {a['seconds']} | {b['seconds']}")
    for share in (False, True):
        split = ", ".join(f"{p} {statistics.median(r.get(p, 0.0) for r in phases[share]):.1f} s" for p in PHASES)
        print(f"{'shared' if share else 'alone'}: total {totals[share]:.1f} s ({split})")
    print(f"shared / alone, seconds: {paired.ratio_text()}; same figures: yes")
    print(f"load average at the end {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
