"""Worker processes that reuse the memory they free, against ones that hand it back, side by side.

Usage: python benchmarks/dishes_exact_freed_memory.py [--deck box] [--rounds 2]

Solves 2-player Dishes (default rulings, counts and values) on the tile set with two pools
of two worker processes each, one whose workers call
:func:`tablerules.proofs.exact.run.reuse_freed_memory` at start (the engine's default) and one
whose workers keep glibc's defaults, alternating between them for ``--rounds`` rounds (the
first solve of each pool warms it: not counted).  Prints per pool the wall-clock seconds of
each round, the CPU seconds its workers spent in the system (page faults of fresh memory,
file writes) and in user code, and the peak resident memory of the run as the engine reports
it (this process plus each worker at the largest worker's peak).  Both must give the same
figures.  Units: seconds of one whole solve; MB = 10^6 bytes.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from tablerules.model import registry
from tablerules.proofs.exact.run import ProcessExecutor, solve


def _children_cpu() -> tuple[float, float]:
    """(user, system) CPU seconds of this process's children, the workers, so far (on their exit)."""
    t = os.times()
    return t.children_user, t.children_system


def _run(keep_freed: bool, kern, parts: int, rounds: int, warm) -> tuple[list[float], float, float, float, tuple]:
    pool = ProcessExecutor(2, keep_freed=keep_freed)
    solve(warm, run=pool, parts=2)
    u0, s0 = _children_cpu()
    seconds, peak, figures = [], 0.0, None
    for _ in range(rounds):
        t0 = time.perf_counter()
        sol = solve(kern, run=pool, parts=parts)
        seconds.append(time.perf_counter() - t0)
        peak = max(peak, sol.peak_memory_mb)
        figures = (sol.total("nodes"), sol.random_play, sol.optimal_play)
    pool.close()  # the workers exit, so their CPU times reach os.times()
    u1, s1 = _children_cpu()
    return seconds, u1 - u0, s1 - s0, peak, figures


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", default="box")
    ap.add_argument("--partitions", type=int, default=16)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args(argv)
    rules = registry.get("dishes")
    kern = registry.kernel("dishes", rules.setup(2, rules.Options(), rules.load_components(args.deck)))
    warm = registry.kernel("dishes", rules.setup(2, rules.Options(), rules.load_components("2x2")))
    rows = {}
    for _ in range(args.rounds):  # alternate, so that a drift of the machine hits both alike
        for keep in (False, True):
            sec, user, system, peak, figures = _run(keep, kern, args.partitions, 1, warm)
            r = rows.setdefault(keep, {"seconds": [], "user": 0.0, "system": 0.0, "peak": 0.0, "figures": figures})
            r["seconds"] += sec
            r["user"] += user
            r["system"] += system
            r["peak"] = max(r["peak"], peak)
            assert r["figures"] == figures
    assert rows[False]["figures"] == rows[True]["figures"], "the two pools disagree"
    print(f"dishes, 2 players, deck {args.deck}, {args.partitions} partitions, 2 worker processes, "
          f"{args.rounds} rounds alternating; seconds are wall-clock per solve")
    print("workers | seconds per round | worker user s | worker system s | peak MB | x glibc defaults")
    base = sum(rows[False]["seconds"])
    for keep in (False, True):
        r = rows[keep]
        name = "reuse freed memory" if keep else "glibc defaults"
        print(f"{name} | {', '.join(f'{s:.1f}' for s in r['seconds'])} | {r['user']:.0f} | {r['system']:.0f} | "
              f"{r['peak']:,.0f} | {sum(r['seconds']) / base:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
