"""What a task holds, side by side: partitions, the bounds on held rows, and the freed memory kept.

Usage: python benchmarks/dishes_exact_bounds.py [--deck box] [--label default ...] [--rounds 1]

Solves 2-player Dishes alternatives (by default the default and the three that share its state
graph, counts and values, as ``--every-alternative`` does) under each configuration in turn,
alternating for ``--rounds`` rounds, each on a fresh pool of two worker processes:

* the settings of the morning of 2026-12-05: 16 partitions, every task holding its whole
  partition (no bound), workers keeping 512 MB of freed memory;
* 16 partitions with the engine's bounds (``exact.FLUSH_BYTES`` of children held by a counting
  task, ``exact.MERGE_BYTES`` read at once by a merge), 512 MB kept;
* 4 partitions, the bounds, 512 MB kept;
* 4 partitions, the bounds, ``exact_run.KEEP_FREED_BYTES`` kept (the engine's defaults now).

Prints per configuration the wall-clock seconds of each round, its workers' user and system CPU
seconds, and the ratio to the first; every configuration must give the same figures.  Units:
seconds of one whole solve of the chosen alternatives (counting their shared graph once).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time

from tablerules.proofs.exact import impact as exact_impact, levels as exact, run as exact_run

WHOLE = 1 << 60
"""A bound no task reaches: every task holds its whole partition."""

CONFIGS = [
    ("16 partitions, whole partitions, 512 MB kept", 16, WHOLE, WHOLE, 512 << 20),
    ("16 partitions, bounds, 512 MB kept", 16, exact.FLUSH_BYTES, exact.MERGE_BYTES, 512 << 20),
    ("4 partitions, bounds, 512 MB kept", 4, exact.FLUSH_BYTES, exact.MERGE_BYTES, 512 << 20),
    ("4 partitions, bounds, engine's kept memory (now)", 4, exact.FLUSH_BYTES, exact.MERGE_BYTES,
     exact_run.KEEP_FREED_BYTES),
]


def _children_cpu() -> tuple[float, float]:
    """(user, system) CPU seconds of this process's children, the workers, so far (on their exit)."""
    t = os.times()
    return t.children_user, t.children_system


def _solve(deck: str, labels: set[str], parts: int, flush: int, merge: int,
           keep: int) -> tuple[float, float, float, list]:
    """One solve on a fresh pool whose workers inherit the bounds (the pool forks this process)."""
    from tablerules.model import registry

    exact.FLUSH_BYTES, exact.MERGE_BYTES, exact_run.KEEP_FREED_BYTES = flush, merge, keep
    components = registry.get("dishes").load_components(deck)
    pool = exact_run.ProcessExecutor(2)
    u0, s0 = _children_cpu()
    t0 = time.perf_counter()
    doc = exact_impact.solve_alternatives("dishes", 2, components, run=pool, parts=parts, labels=labels)
    seconds = time.perf_counter() - t0
    pool.close()  # the workers exit, so their CPU times reach os.times()
    u1, s1 = _children_cpu()
    figures = [{k: v for k, v in row.items() if k != "seconds"} for row in doc["alternatives"]]
    return seconds, u1 - u0, s1 - s0, figures


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", default="box")
    ap.add_argument("--label", action="append", help="alternatives (default: default, dishes-count=stacks, "
                    "tie-for-most=no-loser, clean-at-end=dishes)")
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args(argv)
    if multiprocessing.get_start_method() != "fork":
        print("this benchmark sets the bounds in forked workers; this platform does not fork", file=sys.stderr)
        return 2
    labels = set(args.label or ["default", "dishes-count=stacks", "tie-for-most=no-loser", "clean-at-end=dishes"])
    _solve("2x2", {"default"}, 2, *CONFIGS[-1][2:])  # compile and warm the loops once
    rows: dict[str, dict] = {}
    for _ in range(args.rounds):  # alternate, so that a drift of the machine hits every configuration alike
        for name, parts, flush, merge, keep in CONFIGS:
            seconds, user, system, figures = _solve(args.deck, labels, parts, flush, merge, keep)
            r = rows.setdefault(name, {"seconds": [], "user": 0.0, "system": 0.0, "figures": figures})
            r["seconds"].append(seconds)
            r["user"] += user
            r["system"] += system
            assert r["figures"] == figures, f"{name}: the figures changed between rounds"
    first = rows[CONFIGS[0][0]]
    assert all(r["figures"] == first["figures"] for r in rows.values()), "the configurations disagree"
    print(f"dishes, 2 players, deck {args.deck}, {', '.join(sorted(labels))}; 2 worker processes; "
          f"{args.rounds} round(s), alternating; seconds are wall-clock per solve")
    print("configuration | seconds per round | worker user s | worker system s | x first")
    base = sum(first["seconds"])
    for name, r in rows.items():
        print(f"{name} | {', '.join(f'{s:.1f}' for s in r['seconds'])} | {r['user']:.0f} | {r['system']:.0f} | "
              f"{sum(r['seconds']) / base:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
