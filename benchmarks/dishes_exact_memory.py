"""Memory per task of the exact engine with and without --segment-rows, side by side in one run.

Usage: python benchmarks/dishes_exact_memory.py [--deck box] [--players 2] [--segment ROWS]
       [--partitions N] [--values] [--max-states N]

Counts (or, with ``--values``, solves) one Dishes configuration (default rulings, every
deal; with ``--max-states``, the levels up to that state budget) twice: first with each task
holding a whole partition, then with segments of ``ROWS`` engine states. Each run gets a
fresh pool of two worker processes, so a worker's peak resident memory (kB, the kernel's
VmHWM / ru_maxrss) is that run's own. Printed per run: wall-clock seconds, the largest batch
of rows one task held (engine states), the largest worker's peak resident memory (MB) and
the main process's (MB), and the ratios of the segmented run to the whole-partition run.
Both runs must give the same figures.
"""

from __future__ import annotations

import argparse
import sys
import time

from tablerules.model import registry
from tablerules.model.dishes import RULES, Options
from tablerules.proofs.exact_run import ProcessExecutor, _own_peak_kb, solve


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
    args = ap.parse_args(argv)
    setup = RULES.setup(args.players, Options(), RULES.load_components(args.deck))
    kern = registry.kernel("dishes", setup)
    rows = []
    for segment in (None, args.segment):
        label = "whole partitions" if segment is None else f"segments of {segment:,} rows"
        print(f"{label}:", file=sys.stderr, flush=True)
        rows.append((label, one_run(kern, args.partitions, segment, args.values, args.max_states)))
    (_, whole), (_, seg) = rows
    assert whole["stopped"] == seg["stopped"], "the runs stopped differently"
    assert whole["figures"] == seg["figures"], "the segmented run's figures differ"
    what = "solved" if args.values else "counted"
    print(f"dishes, {args.players} players, deck {args.deck}, default rulings, every deal, {what}; "
          f"{whole['nodes']:,} engine states ({whole['stopped'] or 'complete'}); {args.partitions} partitions; "
          f"2 worker processes; row width {kern.width} bytes")
    print("run | seconds | most rows one task held | largest worker peak RSS (MB)")
    for label, r in rows:
        print(f"{label} | {r['seconds']:.1f} | {r['held']:,} | {r['worker_mb']:,.0f}")
    print(f"segmented / whole: seconds x{seg['seconds'] / whole['seconds']:.2f}, rows held "
          f"x{seg['held'] / whole['held']:.3f}, worker peak RSS x{seg['worker_mb'] / whole['worker_mb']:.2f}")
    print(f"main process peak RSS over both runs: {_own_peak_kb() / 1024:,.0f} MB; same figures: yes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
