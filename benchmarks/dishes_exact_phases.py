"""Where the exact engine's time goes, per ruling alternative: seconds per phase, side by side.

Usage: python benchmarks/dishes_exact_phases.py [--deck 5x4] [--label default --label ...] [--segment ROWS]

Solves (counts and values) the given alternatives of 2-player Dishes on one tile set, one
after the other in one run, on one warm pool of two worker processes, and prints per
alternative the wall-clock seconds of each phase: ``expand`` and ``merge`` (counting,
forward), ``level`` (gathering the last level's nodes and edges for the values; every level
below is gathered beside the values of the one above, and counts there), ``values``
(``optimal`` and ``random``, one batch per level: they run side by side), and the
engine states and store bytes written.  The last column is the share of the alternative's
time spent forward, which a shared state graph could save for the alternatives that only
change how an end is scored.  Ratios are against the first alternative, measured in this run.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from collections import defaultdict
from pathlib import Path

from tablerules.model import registry
from tablerules.proofs import exact_impact
from tablerules.proofs.exact_run import ProcessExecutor, solve

PHASES = ("expand", "merge", "level", "values")


class TimedPool(ProcessExecutor):
    """A pool that adds up the wall-clock seconds of each batch by the kind of its tasks."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.seconds: dict[str, float] = defaultdict(float)

    def run(self, calls, deadline=None):
        kind = "values" if {c[0] for c in calls} & {"optimal", "reach"} else calls[0][0]
        t0 = time.perf_counter()
        try:
            return super().run(calls, deadline)
        finally:
            self.seconds[kind] += time.perf_counter() - t0


def _folder_bytes(root: Path) -> int:
    return sum(f.stat().st_size for f in root.rglob("*") if f.is_file())


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", default="5x4")
    ap.add_argument("--label", action="append", help="alternatives (default, dishes-count=stacks...); default: "
                    "default, dishes-count=stacks, movable-stacks=any-stack")
    ap.add_argument("--segment", type=int, default=None, help="--segment-rows for every run (default: none)")
    ap.add_argument("--partitions", type=int, default=4)
    args = ap.parse_args(argv)
    labels = args.label or ["default", "dishes-count=stacks", "movable-stacks=any-stack"]
    rules = registry.get("dishes")
    components = rules.load_components(args.deck)
    chosen = {}
    for rid, alt, options in exact_impact.finite_alternatives(
            "dishes", lambda o: rules.setup(2, o, components), 2):
        label = "default" if rid == "default" else f"{rid.split('.ruling.')[-1]}={alt}"
        if label in labels:
            chosen[label] = options
    pool = TimedPool(2)
    warm = registry.kernel("dishes", rules.setup(2, rules.Options(), rules.load_components("2x2")))
    solve(warm, run=pool, parts=2)
    solve(warm, run=pool, parts=2)
    print(f"dishes, 2 players, deck {args.deck}, {args.partitions} partitions, 2 worker processes, "
          f"segment {args.segment or 'none'}; seconds are wall-clock")
    print("alternative | engine states | " + " | ".join(f"{p} s" for p in PHASES)
          + " | total s | x first | store MB peak | forward share")
    first = None
    for label in labels:
        if label not in chosen:
            print(f"{label}: not a finite alternative here", file=sys.stderr)
            continue
        kern = registry.kernel("dishes", rules.setup(2, chosen[label], components))
        pool.seconds.clear()
        root = Path(f"/tmp/tablerules-phases-{label.replace('=', '-')}")
        biggest = 0

        def watch(text: str) -> None:
            nonlocal biggest
            if root.exists():
                biggest = max(biggest, _folder_bytes(root))

        t0 = time.perf_counter()
        sol = solve(kern, run=pool, parts=args.partitions, segment=args.segment, store_root=str(root), progress=watch)
        total = time.perf_counter() - t0
        first = first or total
        forward = pool.seconds["expand"] + pool.seconds["merge"]
        print(f"{label} | {sol.total('nodes'):,} | " + " | ".join(f"{pool.seconds[p]:.1f}" for p in PHASES)
              + f" | {total:.1f} | {total / first:.2f} | {biggest / 1e6:,.0f} | {forward / total:.0%}", flush=True)
        shutil.rmtree(root, ignore_errors=True)  # a store given by name is kept by the engine
        assert sol.complete
    pool.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
