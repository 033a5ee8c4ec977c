"""--every-alternative with and without a shared state graph, side by side in one run.

Usage: python benchmarks/dishes_exact_alternatives.py [--deck box] [--label default --label ...] [--partitions 16]

Solves the given alternatives of 2-player Dishes (default: the default and the three that
only score the ends otherwise) twice on one warm pool of two worker processes: each on its
own (``share=False``, as before), then with the alternatives that play the same game solved
over one state graph (``share=True``).  Prints, per mode, each alternative's seconds (as the
document records them), the wall-clock total, the seconds per phase (``expand`` and ``merge``
count forward; ``level`` gathers a level for the values; ``values`` is optimal and random
play), and the ratio of the totals.  Both modes must give the same figures.
"""

from __future__ import annotations

import argparse
import sys
import time

from dishes_exact_phases import PHASES, TimedPool
from tablerules.model import registry
from tablerules.proofs import exact_impact
from tablerules.proofs.exact_run import solve

SCORING = ["default", "dishes-count=stacks", "tie-for-most=no-loser", "clean-at-end=dishes"]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", default="4x4")
    ap.add_argument("--label", action="append")
    ap.add_argument("--partitions", type=int, default=16)
    ap.add_argument("--max-states", type=int, default=50_000_000)
    args = ap.parse_args(argv)
    labels = set(args.label or SCORING)
    rules = registry.get("dishes")
    components = rules.load_components(args.deck)
    pool = TimedPool(2)
    warm = registry.kernel("dishes", rules.setup(2, rules.Options(), rules.load_components("2x2")))
    for _ in range(2):
        solve(warm, run=pool, parts=2)
    docs, totals, phases = {}, {}, {}
    for share in (False, True):
        pool.seconds.clear()
        t0 = time.perf_counter()
        docs[share] = exact_impact.solve_alternatives(
            "dishes", 2, components, run=pool, parts=args.partitions, max_states=args.max_states, labels=labels,
            share=share, progress=lambda text: print(f"  {text}", file=sys.stderr, flush=True))
        totals[share] = time.perf_counter() - t0
        phases[share] = dict(pool.seconds)
    pool.close()

    def figures(doc: dict) -> list[dict]:
        return [{k: v for k, v in r.items() if k != "seconds"} for r in doc["alternatives"]]

    assert figures(docs[False]) == figures(docs[True]), "sharing changed a figure"
    print(f"dishes, 2 players, deck {args.deck}, {args.partitions} partitions, 2 worker processes; "
          "seconds are wall-clock")
    print("alternative | alone s | shared s")
    for a, b in zip(docs[False]["alternatives"], docs[True]["alternatives"]):
        print(f"{a['label']} | {a['seconds']} | {b['seconds']}")
    for share in (False, True):
        split = ", ".join(f"{p} {phases[share].get(p, 0.0):.1f} s" for p in PHASES)
        print(f"{'shared' if share else 'alone'}: total {totals[share]:.1f} s ({split})")
    print(f"shared / alone: x{totals[True] / totals[False]:.2f}; same figures: yes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
