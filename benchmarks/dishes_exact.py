"""The exact engine beside the explorer and beside bare Python, on the same tasks, in one run.

Usage: python benchmarks/dishes_exact.py [--box] [--deal] [--rounds 3]

For each task (count every table state of a Dishes configuration, every deal, default
rulings) it runs, on this machine:

* the exact engine (tablerules.proofs.exact.levels, compiled loops, two worker processes); the
  loops are compiled and the worker pool started once, on a small warm-up task, before any
  timing (compilation and pool start-up are reported on their own line);
* the same engine in one process with Numba switched off (NUMBA_DISABLE_JIT=1): a bare
  Python breadth-first search over the same row encoding;
* the explorer (tablerules.proofs.explorer) over the model's full states with its symmetry
  reduction, with the table states counted by projecting every state it stores.

Units: a *table state* is whose turn it is and, per place, empty / clean / a pile as its
top tile and its number of tiles (see proofs/exact/levels.py).  Each other method is timed side by
side with the engine: the engine then the other, in turn, for ``--rounds`` rounds
(``timing.alternate``).  Seconds are wall-clock, medians of the rounds (bare Python's counted
inside its process, without its start); "x slower" is the median of the per-round ratios of
the other method's seconds to the engine's, with their least and greatest.  The machine's load
average is printed at the start and the end.  With
``--box`` it also counts the boxed two-player game with the engine and gives the explorer
and bare Python the same wall-clock time to show how far they get; ``--deal`` times one
fixed two-player deal.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from tablerules.model import registry
from tablerules.model.dishes import RULES, Options, Tiles
from tablerules.proofs.exact.run import ProcessExecutor, solve
from tablerules.proofs.explorer import Budget, explore
from timing import alternate, load_average

TASKS = [(2, Tiles(3, 4)), (3, Tiles(2, 4)), (2, Tiles(4, 4))]
DEAL = "red,yellow,c3,c4,red,yellow/yellow,c3,c4,red,yellow,c3"


def engine(run: ProcessExecutor, players: int, tiles: Tiles, deal: str | None = None, values: bool = False) -> dict:
    """The engine on a warm pool ``run`` (see ``warm_up``): its seconds, table states, engine states, completeness."""
    setup = RULES.setup(players, Options(), tiles)
    kern = registry.kernel("dishes", setup, **({"deal": deal} if deal else {}))
    t0 = time.perf_counter()
    sol = solve(kern, values=values, run=run)
    seconds = time.perf_counter() - t0
    return {"seconds": seconds, "table_states": sol.total("table_states"), "nodes": sol.total("nodes"),
            "complete": sol.complete}


def warm_up() -> tuple[ProcessExecutor, float]:
    """Start the two-worker pool and compile (or load from Numba's cache) every loop in this
    process and in the workers, on a tiny task (2 players, 2 kinds x 2 colours, values too)."""
    t0 = time.perf_counter()
    run = ProcessExecutor(2)
    for _ in range(2):  # both workers take part in each level's tasks
        engine(run, 2, Tiles(2, 2), values=True)
    return run, time.perf_counter() - t0


def bare_python(players: int, tiles: Tiles, seconds: float | None = None) -> dict:
    """The engine in a subprocess with Numba off: pure Python over the same rows."""
    code = (
        "import json,time,sys\n"
        "from tablerules.model import registry\n"
        "from tablerules.model.dishes import RULES, Options, Tiles\n"
        "from tablerules.proofs.exact.run import solve\n"
        f"s = RULES.setup({players}, Options(), Tiles({tiles.types}, {tiles.colours}))\n"
        "t0 = time.perf_counter()\n"
        f"sol = solve(registry.kernel('dishes', s), values=False, max_seconds={seconds!r})\n"
        "print(json.dumps({'seconds': time.perf_counter() - t0, 'table_states': sol.total('table_states'),"
        " 'nodes': sol.total('nodes'), 'complete': sol.complete, 'levels': len(sol.levels)}))\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def explorer(players: int, tiles: Tiles, seconds: float | None = None) -> dict:
    """The explorer with symmetry: its seconds, stored (reduced) states, completeness and complete depth."""
    setup = RULES.setup(players, Options(), tiles)
    t0 = time.perf_counter()
    ex = explore(RULES, [RULES.new_game(setup)], symmetry=RULES.default_symmetry,
                 budget=Budget(max_seconds=seconds) if seconds else Budget())
    spent = time.perf_counter() - t0
    return {"seconds": spent, "states": ex.states, "complete": ex.complete, "depth": ex.complete_depth}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--box", action="store_true", help="also the boxed two-player game (several minutes)")
    ap.add_argument("--deal", action="store_true", help="also one fixed two-player deal of the box")
    ap.add_argument("--rounds", type=int, default=3,
                    help="rounds of each pairing, the engine then the other method (default 3)")
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds must be 1 or more")
    print(f"load average at the start {load_average()}")
    run, warm = warm_up()
    print(f"warm-up (pool start, compile or load the compiled loops): {warm:.1f} s, not counted below")
    print(f"{args.rounds} rounds a pairing, the engine then the other; seconds are medians of the rounds, "
          "x slower the median of the per-round ratios (least-greatest)\n")
    print("task | engine s | table states | bare Python s | x slower | explorer s | x slower")
    for players, tiles in TASKS:
        bare = alternate(args.rounds, lambda: engine(run, players, tiles), lambda: bare_python(players, tiles),
                         seconds=lambda r: r["seconds"])
        walk = alternate(args.rounds, lambda: engine(run, players, tiles), lambda: explorer(players, tiles),
                         seconds=lambda r: r["seconds"])
        e_s = statistics.median(bare.a_seconds + walk.a_seconds)
        e_tables = bare.a_result["table_states"]
        assert bare.b_result["table_states"] == e_tables, "bare Python and the engine disagree"
        print(f"{players}p {tiles.types}x{tiles.colours} | {e_s:.2f} | {e_tables:,} | {bare.b_median_seconds:.2f} | "
              f"{bare.ratio_text(1)} | {walk.b_median_seconds:.2f} ({walk.b_result['states']:,} explorer states) | "
              f"{walk.ratio_text(1)}", flush=True)
    if args.deal:
        e = engine(run, 2, Tiles(), deal=DEAL)
        print(f"\nfixed deal {DEAL}: {e['table_states']:,} table states in {e['seconds']:.1f} s "
              f"({e['table_states'] / e['seconds']:,.0f} table states/s)")
    if args.box:
        e = engine(run, 2, Tiles())
        e_s = e["seconds"]
        print(f"\nboxed game, 2 players, every deal: engine {e['table_states']:,} table states ({e['nodes']:,} engine "
              f"states) in {e_s:.0f} s, complete")
        b = bare_python(2, Tiles(), seconds=e_s)
        print(f"  bare Python in the same time: {b['levels']} levels begun, {b['nodes']:,} engine states, "
              f"{'complete' if b['complete'] else 'incomplete'}")
        x = explorer(2, Tiles(), seconds=e_s)
        print(f"  explorer in the same time: {x['states']:,} reduced model states, every state within {x['depth']} "
              f"steps (moves and reveals) expanded, {'complete' if x['complete'] else 'incomplete'}")
    run.close()
    print(f"load average at the end {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
