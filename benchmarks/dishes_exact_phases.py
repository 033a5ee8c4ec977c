"""Where the exact engine's time goes, per ruling alternative: seconds per phase, side by side.

Usage: python benchmarks/dishes_exact_phases.py [--deck 5x4] [--label default --label ...] [--segment ROWS]
       [--rounds 2]

Solves (counts and values) the given alternatives of 2-player Dishes on one tile set in one run,
on one warm pool of two worker processes, each alternative after the first in turn with the
first, for ``--rounds`` rounds (``timing.alternate``), and prints per alternative the wall-clock
seconds of each phase (medians of its runs): ``expand`` and ``merge`` (counting,
forward), ``level`` (gathering the last level's nodes and edges for the values; every level
below is gathered beside the values of the one above, and counts there), ``values``
(``optimal`` and ``random``, one batch per level: they run side by side), and the
engine states and store bytes written.  The last column is the share of the alternative's
time spent forward, which a shared state graph could save for the alternatives that only
change how an end is scored.  "x first" is the alternative's seconds over the first's, the
median of the per-round ratios of its pairing (least-greatest).  The machine's load average is
printed at the start and the end.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

from tablerules.model import registry
from tablerules.proofs.exact import impact as exact_impact
from tablerules.proofs.exact.run import ProcessExecutor, solve
from timing import alternate, load_average

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
    ap.add_argument("--rounds", type=int, default=2, help="rounds of each pairing with the first (default 2)")
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds must be 1 or more")
    load_start = load_average()
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
    for label in labels:
        if label not in chosen:
            print(f"{label}: not a finite alternative here", file=sys.stderr)
    labels = [label for label in labels if label in chosen]
    runs: dict[str, list[dict]] = {label: [] for label in labels}

    def solve_one(label: str) -> dict:
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
        shutil.rmtree(root, ignore_errors=True)  # a store given by name is kept by the engine
        assert sol.complete
        runs[label].append({"seconds": total, "nodes": sol.total("nodes"), "phases": dict(pool.seconds),
                            "store": biggest})
        print(f"  {label}: {total:.1f} s", file=sys.stderr, flush=True)
        return runs[label][-1]

    against_first = {}
    for label in labels[1:]:
        against_first[label] = alternate(args.rounds, lambda: solve_one(labels[0]), lambda: solve_one(label),
                                         seconds=lambda r: r["seconds"])
    if len(labels) == 1:
        for _ in range(args.rounds):
            solve_one(labels[0])
    pool.close()
    print(f"dishes, 2 players, deck {args.deck}, {args.partitions} partitions, 2 worker processes, "
          f"segment {args.segment or 'none'}; {args.rounds} rounds a pairing, the first then the other; seconds are "
          f"wall-clock, medians of each alternative's runs; load average at the start {load_start}")
    print("alternative | engine states | " + " | ".join(f"{p} s" for p in PHASES)
          + " | total s | x first | store MB peak | forward share")
    for label in labels:
        done = runs[label]
        phase = {p: statistics.median(r["phases"].get(p, 0.0) for r in done) for p in PHASES}
        total = statistics.median(r["seconds"] for r in done)
        forward = phase["expand"] + phase["merge"]
        ratio = against_first[label].ratio_text() if label in against_first else "1.00x"
        print(f"{label} | {done[0]['nodes']:,} | " + " | ".join(f"{phase[p]:.1f}" for p in PHASES)
              + f" | {total:.1f} | {ratio} | {max(r['store'] for r in done) / 1e6:,.0f} | {forward / total:.0%}",
              flush=True)
    print(f"load average at the end {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
