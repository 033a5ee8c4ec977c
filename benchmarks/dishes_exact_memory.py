"""Memory per task of the exact engine with and without --segment-rows, side by side in one run.

Usage: python benchmarks/dishes_exact_memory.py [--deck box] [--players 2] [--segment ROWS]
       [--partitions N] [--values] [--max-states N] [--rounds 2]

Counts (or, with ``--values``, solves) one Dishes configuration (default rulings, every
deal; with ``--max-states``, the levels up to that state budget) in two ways that take turns,
for ``--rounds`` rounds (``timing.alternate``): with each task holding a whole partition, then
with segments of ``ROWS`` engine states. Each run gets a fresh pool of two worker processes, so
a worker's peak resident memory (kB, the kernel's VmHWM / ru_maxrss) is that run's own. Printed
per way: wall-clock seconds (median of the rounds), the largest batch of rows one task held
(engine states), the largest worker's peak resident memory over the rounds (MB) and the main
process's (MB), and the ratios of the segmented way to the whole-partition way (for seconds,
the median of the per-round ratios, least-greatest).  Every run must give the same figures.
The machine's load average is printed at the start and the end.
"""

from __future__ import annotations

import argparse
import sys
import time

from tablerules.model import registry
from tablerules.model.dishes import RULES, Options
from tablerules.proofs.exact.run import ProcessExecutor, _own_peak_kb, solve
from timing import alternate, load_average


def one_run(kern, parts: int, segment: int | None, values: bool, max_states: int | None) -> dict:
    run = ProcessExecutor(2)
    try:
        t0 = time.perf_counter()
        sol = solve(kern, values=values, run=run, parts=parts, segment=segment, max_states=max_states,
                    progress=lambda text: print(f"  {text}", file=sys.stderr, flush=True))
        seconds = time.perf_counter() - t0
        worker_mb = run.worker_peak_kb / 1024
    finally:
        run.close()
    figures = ([lv.table_states for lv in sol.levels], [lv.nodes for lv in sol.levels],
               sol.random_play, sol.optimal_play)
    return {"seconds": seconds, "held": max(lv.held_rows for lv in sol.levels), "worker_mb": worker_mb,
            "complete": sol.complete, "figures": figures, "nodes": sol.total("nodes"), "stopped": sol.stopped}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", default="box")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--max-states", type=int, default=None, help="state budget (engine states) for both runs")
    ap.add_argument("--segment", type=int, default=500_000, help="rows per segment (default 500,000)")
    ap.add_argument("--partitions", type=int, default=4, help="partitions per level (default 4: two per worker)")
    ap.add_argument("--values", action="store_true", help="also the values (their tasks hold whole levels)")
    ap.add_argument("--rounds", type=int, default=2, help="rounds, whole partitions then segments (default 2)")
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds must be 1 or more")
    load_start = load_average()
    setup = RULES.setup(args.players, Options(), RULES.load_components(args.deck))
    kern = registry.kernel("dishes", setup)
    runs: dict[str, list[dict]] = {"whole": [], "segments": []}

    def way(name: str, segment: int | None) -> dict:
        print(f"{name}:", file=sys.stderr, flush=True)
        runs[name].append(one_run(kern, args.partitions, segment, args.values, args.max_states))
        return runs[name][-1]

    paired = alternate(args.rounds, lambda: way("whole", None), lambda: way("segments", args.segment),
                       seconds=lambda r: r["seconds"])
    first = runs["whole"][0]
    for r in runs["whole"] + runs["segments"]:
        assert r["stopped"] == first["stopped"], "the runs stopped differently"
        assert r["figures"] == first["figures"], "a run's figures differ"
    rows = [(label, paired.a_median_seconds if name == "whole" else paired.b_median_seconds,
             max(r["held"] for r in runs[name]), max(r["worker_mb"] for r in runs[name]))
            for name, label in (("whole", "whole partitions"), ("segments", f"segments of {args.segment:,} rows"))]
    (_, _, whole_held, whole_mb), (_, _, seg_held, seg_mb) = rows
    what = "solved" if args.values else "counted"
    print(f"dishes, {args.players} players, deck {args.deck}, default rulings, every deal, {what}; "
          f"{first['nodes']:,} engine states ({first['stopped'] or 'complete'}); {args.partitions} partitions; "
          f"2 worker processes; row width {kern.width} bytes; {args.rounds} rounds, whole then segments; "
          f"load average at the start {load_start}")
    print("run | seconds | most rows one task held | largest worker peak RSS (MB)")
    for label, seconds, held, mb in rows:
        print(f"{label} | {seconds:.1f} | {held:,} | {mb:,.0f}")
    print(f"segmented / whole: seconds {paired.ratio_text()}, rows held "
          f"x{seg_held / whole_held:.3f}, worker peak RSS x{seg_mb / whole_mb:.2f}")
    print(f"main process peak RSS over every run: {_own_peak_kb() / 1024:,.0f} MB; same figures: yes")
    print(f"load average at the end {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
