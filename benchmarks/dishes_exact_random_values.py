"""Random-play values of a whole game: backward once per scoring (before) against forward
once for all scorings (now), side by side in one run on the same inputs.

Usage: python benchmarks/dishes_exact_random_values.py [--deck 5x4] [--rounds 3]

Solves 2-player Dishes on the tile set in this process (serial executor) for the four
alternatives that share one state graph (default rulings, ``dishes-count=stacks``,
``tie-for-most=no-loser``, ``clean-at-end=dishes``), keeps every level's edges and ends as
the engine gathered them, and times on them, for one group of primes:

* ``backward``: the loop the engine ran before, kept here as the baseline: for each scoring,
  level by level from the last, every state's (P(among losers), P(sole loser), E(actions))
  modulo each prime, from its children's;
* ``forward``: :func:`tablerules.proofs.exact.loops.reach_forward` and
  :func:`~tablerules.proofs.exact.loops.end_sums`: level by level from the start, the chance
  of reaching each state (one residue a prime), summed over each level's ends for every
  scoring at once.

Both must give the same values at the start.  The two take turns, forward then backward, for
``--rounds`` rounds (``timing.alternate``).  Units: seconds for the whole game (median of the
rounds, the chance tables' making included), edges (parent-child pairs, one per action and
chance outcome, over every level), primes in the group; "x backward" is the median of the
per-round ratios of backward's seconds to forward's (least-greatest).  The machine's load
average is printed at the start and the end.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from numba import njit

from tablerules.model import registry
from tablerules.proofs.exact import impact as exact_impact, levels as exact, loops as exact_loops
from tablerules.proofs.exact.run import Executor, solve_together
from timing import alternate, load_average

SHARED = ("default", "dishes-count=stacks", "tie-for-most=no-loser", "clean-at-end=dishes")


@njit(cache=True)
def random_values_backward(n_nodes, players, term, losers, parent, p_num, denom, child, child_vals, primes, coef):
    """The engine's loop before forward reach (kept here as the baseline): one level's values
    from the next level's, edges sorted by parent, sums reduced every 32 edges."""
    V = 2 * players + 1
    P = primes.shape[0]
    out = np.zeros((n_nodes, V, P), dtype=np.uint32)
    for x in range(term.shape[0]):
        t = term[x]
        count = 0
        for s in range(players):
            count += losers[x, s]
        for s in range(players):
            if losers[x, s]:
                for j in range(P):
                    out[t, s, j] = 1
                    if count == 1:
                        out[t, players + s, j] = 1
    acc = np.zeros((V, P), dtype=np.uint64)
    E = parent.shape[0]
    e = 0
    while e < E:
        p = parent[e]
        for v in range(V):
            for j in range(P):
                acc[v, j] = 0
        n_e = 0
        while e < E and parent[e] == p:
            k = coef[p_num[e], denom[e]]
            vals = child_vals[child[e]]
            for v in range(V):
                for j in range(P):
                    acc[v, j] += k[j] * np.uint64(vals[v, j])
            n_e += 1
            e += 1
            if n_e % 32 == 0:
                for v in range(V):
                    for j in range(P):
                        acc[v, j] %= np.uint64(primes[j])
        for j in range(P):
            q = np.uint64(primes[j])
            for v in range(V):
                acc[v, j] %= q
            acc[V - 1, j] = (acc[V - 1, j] + np.uint64(1)) % q
            for v in range(V):
                out[p, v, j] = np.uint32(acc[v, j])
    return out


def _backward(levels: list[dict], players: int, primes: np.ndarray, start: int) -> list[np.ndarray]:
    out = []
    for i in range(len(levels[0]["losers"])):
        vals = np.zeros((0, 2 * players + 1, len(primes)), dtype=np.uint32)
        for lv in reversed(levels):
            e = lv["edges"]
            coef = exact.chance_coefficients(e[:, 2], e[:, 3], primes.tolist())
            vals = random_values_backward(lv["nodes"], players, lv["term"], lv["losers"][i], e[:, 0], e[:, 2],
                                          e[:, 3], e[:, 4], vals, primes, coef)
        out.append(vals[start].astype(np.uint64))
    return out


def _forward(levels: list[dict], players: int, primes: np.ndarray, start: int) -> list[np.ndarray]:
    reach = np.zeros((levels[0]["nodes"], len(primes)), dtype=np.uint32)
    reach[start] = 1
    sums = [np.zeros((2 * players + 1, len(primes)), dtype=np.uint64) for _ in levels[0]["losers"]]
    for a, lv in enumerate(levels):
        for i, losers in enumerate(lv["losers"]):
            sums[i] = (sums[i] + exact_loops.end_sums(reach, lv["term"], losers, players, a, primes)) % primes
        if a + 1 < len(levels):
            e = lv["edges"]
            coef = exact.chance_coefficients(e[:, 2], e[:, 3], primes.tolist())
            reach = exact_loops.reach_forward(reach, e[:, 0], e[:, 2], e[:, 3], e[:, 4], levels[a + 1]["nodes"],
                                              primes, coef)
    return sums


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", default="5x4")
    ap.add_argument("--rounds", type=int, default=3, help="rounds, forward and backward in turn (default 3)")
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds must be 1 or more")
    load_start = load_average()
    rules = registry.get("dishes")
    components = rules.load_components(args.deck)
    options = {"default": rules.Options()}
    for rid, alt, opts in exact_impact.finite_alternatives("dishes", lambda o: rules.setup(2, o, components), 2):
        options[f"{rid.split('.ruling.')[-1]}={alt}"] = opts
    kernels = [registry.kernel("dishes", rules.setup(2, options[label], components)) for label in SHARED]
    levels: dict[int, dict] = {}
    engine_task = exact.reach_task

    def keep(kernel, store, level, last, chunk, primes, scorings, next_nodes):
        if chunk == 0:
            levels[level] = {"edges": store.load(level, "e.all"), "term": store.load(level, "n.term"),
                             "nodes": len(store.load(level, "n.mover")), "primes": primes,
                             "losers": [store.load(level, f"n.losers{i}") for i in range(scorings)]}
        return engine_task(kernel, store, level, last, chunk, primes, scorings, next_nodes)

    exact.reach_task = keep
    try:
        sols = solve_together(kernels, run=Executor(), parts=4)  # serial: the tasks run in this process
    finally:
        exact.reach_task = engine_task
    game = [levels[a] for a in range(len(levels))]
    primes = np.array(game[0]["primes"], dtype=np.int64)
    start = 0  # one start: the deal is fixed before play
    assert len(kernels[0].start()) == 1 and game[0]["nodes"] == 1
    edges = sum(len(lv["edges"]) for lv in game)
    small = [dict(lv, edges=lv["edges"][:0]) for lv in game[:2]]
    for f in (_backward, _forward):  # compile and warm up
        f(small, 2, primes, start)
    paired = alternate(args.rounds, lambda: _forward(game, 2, primes, start), lambda: _backward(game, 2, primes, start))
    results = {"_forward": paired.a_result, "_backward": paired.b_result}
    seconds = {"_forward": paired.a_median_seconds, "_backward": paired.b_median_seconds}
    for a, b in zip(results["_backward"], results["_forward"]):
        assert np.array_equal(a % primes, b % primes), "the two passes disagree"
    assert sols[0].complete
    print(f"dishes, 2 players, deck {args.deck}: random play over the whole game, {sum(lv['nodes'] for lv in game):,} "
          f"engine states, {edges:,} edges, {len(primes)} primes, {len(SHARED)} scorings; {args.rounds} rounds, "
          f"forward then backward, one process; load average at the start {load_start}")
    print("pass | seconds | edges x primes x scorings per second | x backward")
    for name, ratio in (("_backward", "1.00x"), ("_forward", paired.ratio_text())):
        s = seconds[name]
        print(f"{name[1:]} | {s:.3f} | {edges * len(primes) * len(SHARED) / s:,.0f} | {ratio}")
    print(f"load average at the end {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
