"""Symmetry reduction for dishes, measured side by side in one run.

For small configurations that explore completely, prints states, seconds and states/s
without reduction, with colour relabelling, and with colours + tile kinds, and the
ratios against the unreduced search.  Usage: python benchmarks/dishes_symmetry.py
"""

from __future__ import annotations

import sys
import time

from tablerules.model.dishes import RULES, Options, Tiles
from tablerules.proofs.explorer import explore
from tablerules.report import table

CONFIGS = [(2, Tiles(2, 4)), (2, Tiles(3, 4)), (3, Tiles(2, 4))]


def main() -> int:
    rows = []
    for players, tiles in CONFIGS:
        setup = RULES.setup(players, Options(), tiles)
        base = None
        for sym in (None, "colours", "colours+types"):
            t0 = time.perf_counter()
            ex = explore(RULES, [RULES.new_game(setup)], symmetry=sym)
            dt = time.perf_counter() - t0
            if base is None:
                base = (ex.states, dt)
            rows.append((f"{players}p {tiles.name}", sym or "none", f"{ex.states:,}", f"{dt:.2f}",
                         f"{ex.states / dt:,.0f}", f"{base[0] / ex.states:.1f}x", f"{base[1] / dt:.1f}x"))
            print(f"  {rows[-1][0]} {rows[-1][1]}: done", file=sys.stderr)
    table(
        rows, header=("configuration", "symmetry", "states", "seconds", "states/s", "fewer states", "faster"),
        out=sys.stdout,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
