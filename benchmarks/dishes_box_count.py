"""How far the boxed dishes game (6 kinds x 4 colours) explores in a given time.

Prints states per BFS level, the depth fully covered, and the rate.  Usage:
python benchmarks/dishes_box_count.py PLAYERS SECONDS [SYMMETRY|none]
"""

from __future__ import annotations

import sys
import time

from tablerules.model.dishes import RULES, orbit_size
from tablerules.proofs.explorer import Budget, explore


def main(argv: list[str]) -> int:
    players = int(argv[0]) if argv else 2
    seconds = float(argv[1]) if len(argv) > 1 else 60.0
    sym = argv[2] if len(argv) > 2 else "colours+types"
    sym = None if sym == "none" else sym
    last = [time.perf_counter()]

    def progress(ex):
        if time.perf_counter() - last[0] > 60:
            last[0] = time.perf_counter()
            print(f"  {ex.states:,} states, depth {ex.depth}, {ex.states / max(ex.seconds, 1e-9):,.0f}/s", file=sys.stderr, flush=True)

    ex = explore(RULES, [RULES.new_game(RULES.setup(players))], symmetry=sym, budget=Budget(max_seconds=seconds),
                 progress=progress, progress_every=50_000)
    print(f"players={players} symmetry={sym or 'none'} seconds={ex.seconds:.0f} states={ex.states:,} "
          f"transitions={ex.transitions:,} terminals={ex.terminals:,} rate={ex.rate:,.0f}/s")
    print(f"coverage: {ex.coverage()}")
    print("states per level:", ", ".join(f"{d}:{n:,}" for d, n in enumerate(ex.levels)))
    print("outcomes:", dict(ex.outcomes))
    if sym in ("colours", "colours+types"):
        unreduced = sum(orbit_size(s, types=(sym == "colours+types")) for s in ex.parents)
        print(f"the same states without symmetry reduction (sum of orbit sizes): {unreduced:,}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
