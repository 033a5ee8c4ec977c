"""z3 proofs about Who Is Going to Do the Dishes? (expected results: proofs/manifests/dishes.toml).

* :func:`termination`: every game ends, with a bound on its length, by a ranking function
  over an abstraction of the state (clean tiles, piles, passes in a row) proved to decrease
  on every move, for 2, 3 and 4 players (dishes.end.no-moves, dishes.play.one-move).
* :func:`worked_example`: the rulebook's example (dishes.example.ania-krzys) is consistent
  with the four-colour model; which alternatives of our rulings it rules out.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import z3

from tablerules.model.dishes import COLOURS, TYPES

from ..checks import ProofResult

# --------------------------------------------------------------------------- (a) termination

# Abstract state: c clean tiles, k piles (non-empty stacks), p forced passes in a row.
# Moves, as the model implements them (tests/proofs/test_dishes_proofs.py checks every
# explored transition against this table):
#   turn  (dishes.play.turn-own-tile): c >= 1          -> c-1, k+1, p=0
#   place (dishes.play.place-dirty):   k >= 2          -> c,   k-1, p=0
#   pass  (dishes.ruling.stuck-player = skip): only when the mover is stuck; at most
#         players-1 stuck in a row, or nobody could move and the game would be over.
#   pass  (dishes.ruling.voluntary-pass = allowed): always, with no bound on p.
# The chance event that shows a turned tile's colour changes none of c, k, p.


@dataclass(frozen=True)
class TerminationBound:
    players: int
    tiles: int
    seat_moves: int
    """Most seat moves (turns, places, passes) in any game."""


def ranking(n: int, c: z3.ArithRef, k: z3.ArithRef, p: z3.ArithRef) -> z3.ArithRef:
    """f = n(2c + k) + (n - 1 - p): drops on every move while passes stay forced."""
    return n * (2 * c + k) + (n - 1 - p)


def _abstract_moves(n: int):
    c, k, p, c2, k2, p2 = z3.Ints("c k p c2 k2 p2")
    moves = {
        "turn": z3.And(c >= 1, c2 == c - 1, k2 == k + 1, p2 == 0),
        "place": z3.And(k >= 2, c2 == c, k2 == k - 1, p2 == 0),
        "pass": z3.And(p <= n - 2, c2 == c, k2 == k, p2 == p + 1),
    }
    return (c, k, p, c2, k2, p2), moves


def termination_for(n: int, tiles: int) -> tuple[bool, str, TerminationBound | None]:
    """Prove that f is a ranking function for ``n`` players and ``tiles`` dealt tiles.

    Returns (proved, detail, bound).  The invariant assumed of every reachable state:
    0 <= c, 0 <= k, c + k <= tiles, 0 <= p <= n - 1 (p is bounded by the skip rule: if all
    n players were stuck in a row, nobody could move and the game would be over).
    """
    (c, k, p, c2, k2, p2), moves = _abstract_moves(n)
    inv = z3.And(c >= 0, k >= 0, c + k <= tiles, p >= 0, p <= n - 1)
    f, f2 = ranking(n, c, k, p), ranking(n, c2, k2, p2)
    for name, step in moves.items():
        s = z3.Solver()
        s.add(inv, step, z3.Not(z3.And(f2 < f, f2 >= 0)))
        if s.check() == z3.sat:
            m = s.model()
            return False, (f"the '{name}' move does not decrease the ranking: from c={m[c]}, k={m[k]}, p={m[p]} "
                           f"to c={m[c2]}, k={m[k2]}, p={m[p2]}"), None
    bound = n * (2 * tiles) + (n - 1)  # f at the start: c = tiles, k = 0, p = 0
    return True, "ranking n(2c+k)+(n-1-p) decreases on every move", TerminationBound(n, tiles, bound)


def pass_cycle(n: int, tiles: int) -> tuple[bool, str]:
    """With voluntary passes: is there a state to which n passes in a row return?

    A pass changes neither the tiles nor the piles and hands the turn on; z3 looks for a
    state with a move left (so the game is not over) where n passes give the same state."""
    c, k, seat = z3.Ints("c k seat")
    s = z3.Solver()
    s.add(c >= 1, c + k <= tiles, k >= 0, seat >= 0, seat < n)
    cs, ks, seats = [c], [k], [seat]
    for i in range(n):  # n voluntary passes
        c2, k2, s2 = z3.Ints(f"c{i} k{i} seat{i}")
        s.add(c2 == cs[-1], k2 == ks[-1], s2 == (seats[-1] + 1) % n)
        cs.append(c2), ks.append(k2), seats.append(s2)
    s.add(cs[-1] == c, ks[-1] == k, seats[-1] == seat)
    if s.check() == z3.sat:
        m = s.model()
        return (
            True,
            f"from c={m[c]} clean tiles, k={m[k]} piles, seat {m[seat]} to move, {n} passes return to the same state",
        )
    return False, "no cycle of passes"


def termination() -> ProofResult:
    """Every game ends under the default rulings, for 2, 3 and 4 players and every deal scheme."""
    rows = []
    ok = True
    cases = [(2, 12, "2 players, one layout each"), (2, 24, "2 players, two layouts (deal two-layouts)"),
             (3, 18, "3 players"), (4, 24, "4 players")]
    bounds = {}
    for n, tiles, label in cases:
        proved, detail, bound = termination_for(n, tiles)
        ok &= proved
        if bound:
            bounds[f"{n}p-{tiles}"] = bound.seat_moves
            rows.append((label, f"proved: at most {bound.seat_moves} seat moves + {tiles} reveals"))
        else:
            rows.append((label, f"NOT proved: {detail}"))
    n = z3.Int("n")
    c, k, p = z3.Ints("c k p")
    # The same argument with the number of players symbolic (n >= 2), for the 'turn' move,
    # whose decrease (p - n <= -2) is the one that needs the pass bound.
    s = z3.Solver()
    s.add(n >= 2, c >= 1, k >= 0, p >= 0, p <= n - 2)
    s.add(z3.Not(ranking_sym(n, c - 1, k + 1, 0) < ranking_sym(n, c, k, p)))
    sym = s.check() == z3.unsat
    ok &= sym
    rows.append(("any n >= 2 (symbolic, turn move)", "proved" if sym else "NOT proved"))
    cycle, detail = pass_cycle(2, 12)
    rows.append(("voluntary-pass = allowed", f"no bound: {detail}" if cycle else "no pass cycle found"))
    return ProofResult(
        "dishes", "termination", ("dishes.end.no-moves", "dishes.play.one-move", "dishes.ruling.stuck-player"),
        "proved" if ok else "counterexample", "every game ends (default rulings)", rows, {"bounds": bounds},
    )


def ranking_sym(n, c, k, p):
    return n * (2 * c + k) + (n - 1 - p)


def termination_with_voluntary_pass() -> ProofResult:
    """Under voluntary-pass = allowed a game can go on for ever: a cycle of passes exists."""
    cycle, detail = pass_cycle(2, 12)
    return ProofResult("dishes", "termination-voluntary-pass", ("dishes.ruling.voluntary-pass",),
                       "counterexample" if cycle else "proved", detail)


# --------------------------------------------------------------------------- (b) the worked example

PLAYERS = ("Ania", "Krzys")
CLEAN_IN_EXAMPLE = {("Ania", "dessert"), ("Ania", "soup"), ("Ania", "knives")}
"""Ania's listed turns: exactly these of her tiles are clean."""
PLACES_IN_EXAMPLE = {
    (("Ania", "drinks"), ("Krzys", "drinks")),
    (("Ania", "drinks"), ("Krzys", "soup")),
    (("Ania", "drinks"), ("Ania", "forks")),
    (("Ania", "main"), ("Krzys", "dessert")),
    (("Ania", "forks"), ("Ania", "drinks")),
    (("Ania", "forks"), ("Krzys", "soup")),
}
"""Ania's listed placements: exactly these are legal."""

ALTERNATIVES = {
    "dishes.ruling.colour-model": ("four-sets", "free-colours", "layout-sets"),
    "dishes.ruling.deal-2-players": ("random-subset", "colour-sets"),
    "dishes.ruling.movable-stacks": ("own-places", "own-top", "any-stack"),
}


def example_solver(colour_model: str, deal: str, movable: str) -> tuple[z3.Solver, dict]:
    """Constraints: the example's listed moves are exactly Ania's legal moves, under these rulings.

    Every constraint is tracked by a name, so an unsat core names the listed fact (or the
    ruling) that breaks."""
    s = z3.Solver()
    s.set(unsat_core=True)
    tiles = [(pl, t) for pl in PLAYERS for t in TYPES]
    colour = {x: z3.Int(f"colour_{x[0]}_{x[1]}") for x in tiles}
    dirty = {x: z3.Bool(f"dirty_{x[0]}_{x[1]}") for x in tiles}
    for x in tiles:
        s.add(colour[x] >= 0, colour[x] < len(COLOURS))
    # Colour model (dishes.ruling.colour-model).
    if colour_model == "four-sets":
        for t in TYPES:
            s.assert_and_track(
                colour[("Ania", t)] != colour[("Krzys", t)], f"colour-model four-sets: one {t} per colour"
            )
    elif colour_model == "layout-sets":
        for pl in PLAYERS:
            for t in TYPES[1:]:
                s.assert_and_track(
                    colour[(pl, t)] == colour[(pl, TYPES[0])],
                    f"colour-model layout-sets: {pl}'s {t} has the colour of the {TYPES[0]}",
                )
        s.assert_and_track(
            colour[("Ania", TYPES[0])] != colour[("Krzys", TYPES[0])],
            "colour-model layout-sets: two layouts, two colours",
        )
    # Deal for two players (dishes.ruling.deal-2-players).
    if deal == "colour-sets":
        a, b = z3.Ints("set_a set_b")
        for x in tiles:
            s.assert_and_track(
                z3.Or(colour[x] == a, colour[x] == b), f"deal colour-sets: {x[0]}'s {x[1]} is one of two colours"
            )
    # Ania's turns (dishes.play.turn-own-tile): exactly her clean tiles.
    for t in TYPES:
        x = ("Ania", t)
        s.assert_and_track(
            z3.Not(dirty[x]) == (x in CLEAN_IN_EXAMPLE),
            f"example: Ania {'may' if x in CLEAN_IN_EXAMPLE else 'may not'} turn her {t}",
        )

    def may_move(x) -> z3.BoolRef:
        if movable == "any-stack":
            return z3.BoolVal(True)
        return z3.BoolVal(x[0] == "Ania")  # own-places and own-top agree: no pile has moved yet

    for src, dst in itertools.permutations(tiles, 2):
        same_type = z3.BoolVal(src[1] == dst[1])
        legal = z3.And(may_move(src), dirty[src], dirty[dst], z3.Or(same_type, colour[src] == colour[dst]))
        listed = (src, dst) in PLACES_IN_EXAMPLE
        name = f"example: {src[0]}'s {src[1]} {'may' if listed else 'may not'} go on {dst[0]}'s {dst[1]}"
        s.assert_and_track(legal == z3.BoolVal(listed), name)
    return s, {"colour": colour, "dirty": dirty}


def worked_example() -> ProofResult:
    """Which combinations of rulings make the example's list of moves exactly the legal ones."""
    consistent = []
    rows = []
    witness = None
    for cm, deal, mv in itertools.product(*ALTERNATIVES.values()):
        s, v = example_solver(cm, deal, mv)
        res = s.check()
        label = f"colour-model={cm}, deal-2-players={deal}, movable-stacks={mv}"
        if res == z3.sat:
            consistent.append((cm, deal, mv))
            m = s.model()
            if witness is None and cm == "four-sets":
                witness = {f"{pl}.{t}": ("clean" if not z3.is_true(m.eval(v["dirty"][(pl, t)], model_completion=True))
                                         else COLOURS[m.eval(v["colour"][(pl, t)], model_completion=True).as_long()])
                           for pl in PLAYERS for t in TYPES}
            rows.append((label, "consistent"))
        else:
            core = sorted(str(c) for c in s.unsat_core())
            rows.append((label, "ruled out by: " + "; ".join(core[:3]) + (" ..." if len(core) > 3 else "")))
    ruled_out = []
    for i, (rid, alts) in enumerate(ALTERNATIVES.items()):
        for a in alts:
            if not any(c[i] == a for c in consistent):
                ruled_out.append(f"{rid.split('.ruling.')[-1]}={a}")
    four_sets_ok = any(c[0] == "four-sets" for c in consistent)
    status = ("consistent; rules out " + ", ".join(ruled_out)) if four_sets_ok else "inconsistent with four-sets"
    if witness:
        rows.append(("a colouring z3 found (four-sets)", ", ".join(f"{k}={v}" for k, v in witness.items())))
    return ProofResult("dishes", "worked-example", ("dishes.example.ania-krzys", "dishes.components.colour-sets",
                                                    "dishes.ruling.colour-model", "dishes.ruling.movable-stacks"),
                       status, "", rows, {"witness": witness, "consistent": consistent, "ruled_out": ruled_out})
