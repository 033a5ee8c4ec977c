"""Random-play values of one level: dividing per edge (before) against a table of chance
coefficients (now), side by side in one run on the same inputs.

Usage: python benchmarks/dishes_exact_random_values.py [--deck 5x4] [--repeat 3]

Solves 2-player Dishes (default rulings) on the tile set in this process (serial executor),
keeps the inputs of the largest random-values task the engine ran (one level, one chunk of
primes), and times on them

* ``dividing``: the loop as it was, which computed ``p_num / denom`` modulo each prime for
  every edge (two divisions per edge and prime) and reduced its sums every 8 edges;
* ``table``: :func:`tablerules.proofs.exact_loops.random_values`, which looks each edge's
  coefficient up in a table made once per task (:func:`~tablerules.proofs.exact_loops.chance_pairs`)
  and reduces every 32 edges; the table's making is timed with it.

Both must give the same residues.  Units: seconds of one task (best of ``--repeat``), edges
(parent-child pairs of the level, one per action and chance outcome), primes in the chunk.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from numba import njit

from tablerules.model import registry
from tablerules.proofs import exact, exact_loops
from tablerules.proofs.exact_run import Executor, solve


@njit(cache=True)
def random_values_dividing(n_nodes, players, term, losers, parent, p_num, denom, child, child_vals, primes, inverses):
    """The loop before the coefficient table (kept here as the baseline)."""
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
            c = child[e]
            for j in range(P):
                q = np.uint64(primes[j])
                coef = (np.uint64(p_num[e]) % q) * np.uint64(inverses[j, denom[e]]) % q
                for v in range(V):
                    acc[v, j] += coef * np.uint64(child_vals[c, v, j])
            n_e += 1
            e += 1
            if n_e % 8 == 0:
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


def _dividing(args: tuple) -> np.ndarray:
    n_nodes, players, term, losers, parent, p_num, denom, child, child_vals, primes, _ = args
    inverses = np.zeros((len(primes), int(denom.max()) + 1), dtype=np.int64)
    for j, q in enumerate(primes.tolist()):
        for x in np.unique(denom).tolist():
            inverses[j, x] = pow(x, -1, q)
    return random_values_dividing(n_nodes, players, term, losers, parent, p_num, denom, child, child_vals, primes,
                                  inverses)


def _table(args: tuple) -> np.ndarray:
    n_nodes, players, term, losers, parent, p_num, denom, child, child_vals, primes, _ = args
    shape = (int(p_num.max()) + 1, int(denom.max()) + 1)
    a, d = np.nonzero(exact_loops.chance_pairs(p_num, denom, shape))
    coef = np.zeros(shape + (len(primes),), dtype=np.uint64)
    for j, q in enumerate(primes.tolist()):
        inverse = {x: pow(x, -1, q) for x in np.unique(d).tolist()}
        coef[a, d, j] = [x % q * inverse[y] % q for x, y in zip(a.tolist(), d.tolist())]
    return exact_loops.random_values(n_nodes, players, term, losers, parent, p_num, denom, child, child_vals, primes,
                                     coef)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", default="5x4")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    rules = registry.get("dishes")
    kern = registry.kernel("dishes", rules.setup(2, rules.Options(), rules.load_components(args.deck)))
    biggest: list[tuple] = []
    engine_loop = exact_loops.random_values

    def keep(*call):
        if not biggest or len(call[4]) > len(biggest[0][4]):
            biggest[:] = [call]
        return engine_loop(*call)

    exact.loops.random_values = keep
    try:
        solve(kern, run=Executor(), parts=4)  # serial: the tasks run in this process
    finally:
        exact.loops.random_values = engine_loop
    call = biggest[0]
    edges, primes = len(call[4]), len(call[9])
    for f in (_dividing, _table):  # compile and warm up
        f(call)
    seconds = {}
    results = {}
    for f in (_dividing, _table):
        best = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            results[f.__name__] = f(call)
            best = min(best, time.perf_counter() - t0)
        seconds[f.__name__] = best
    assert np.array_equal(results["_dividing"], results["_table"]), "the two loops disagree"
    print(f"dishes, 2 players, deck {args.deck}: the largest random-values task, {call[0]:,} engine states, "
          f"{edges:,} edges, {primes} primes; best of {args.repeat}, one process")
    print("loop | seconds | edges x primes per second | x dividing")
    for name in ("_dividing", "_table"):
        s = seconds[name]
        print(f"{name[1:]} | {s:.3f} | {edges * primes / s:,.0f} | {seconds['_dividing'] / s:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
