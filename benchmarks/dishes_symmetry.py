"""Symmetry reduction for dishes, measured side by side in one run.

For small configurations that explore completely, prints states, seconds and states/s
without reduction, with colour relabelling, and with colours + tile kinds, and the
ratios against the unreduced search.  Each reduced search is timed side by side with the
unreduced one: the two take turns, reduced first, for --rounds rounds (``timing.alternate``);
seconds are medians of the rounds, "faster" the median of the per-round ratios (least-greatest).
The machine's load average is printed at the start and the end.
Usage: python benchmarks/dishes_symmetry.py [--rounds N]
"""

from __future__ import annotations

import argparse
import statistics
import sys

from tablerules.model.dishes import RULES, Options, Tiles
from tablerules.proofs.explorer import explore
from tablerules.report import table
from timing import alternate, load_average

CONFIGS = [(2, Tiles(2, 4)), (2, Tiles(3, 4)), (3, Tiles(2, 4))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each pairing, in turn (default 3)")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be 1 or more")
    print(f"{args.rounds} rounds a pairing, reduced first; load average at the start {load_average()}")
    rows = []
    for players, tiles in CONFIGS:
        setup = RULES.setup(players, Options(), tiles)
        name = f"{players}p {tiles.name}"
        pairs = {sym: alternate(args.rounds, lambda: explore(RULES, [RULES.new_game(setup)], symmetry=sym),
                                lambda: explore(RULES, [RULES.new_game(setup)], symmetry=None))
                 for sym in ("colours", "colours+types")}
        base = pairs["colours"].b_result
        seconds = statistics.median([s for paired in pairs.values() for s in paired.b_seconds])  # every unreduced run
        rows.append((name, "none", f"{base.states:,}", f"{seconds:.2f}", f"{base.states / seconds:,.0f}", "1.0x",
                     "1.0x"))
        for sym, paired in pairs.items():
            ex, dt = paired.a_result, paired.a_median_seconds
            rows.append((name, sym, f"{ex.states:,}", f"{dt:.2f}", f"{ex.states / dt:,.0f}",
                         f"{base.states / ex.states:.1f}x", paired.ratio_text(1)))
        print(f"  {name}: done", file=sys.stderr)
    print()
    table(
        rows, header=("configuration", "symmetry", "states", "seconds", "states/s", "fewer states",
                      "faster: median (least-greatest)"),
        out=sys.stdout,
    )
    print(f"load average at the end {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
