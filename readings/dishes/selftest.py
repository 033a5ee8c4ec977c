"""Self-test: random games through Engine.handle and one over a pipe.

Run:  cd /work/main/readings && python3 -m dishes.selftest
"""

import copy
import json
import os
import random
import subprocess
import sys
from fractions import Fraction

from .engine import Engine
from .tiles import TYPES, COLOURS, NTYPES
from .game import CLEAN

PKG = __package__


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def ok(engine, req):
    rep = engine.handle(req)
    check(rep is not None and rep.get("ok") is True, "request %r failed: %r" % (req, rep))
    return rep


def snapshot(engine, n):
    return (json.dumps([engine.handle({"op": "to_move"}),
                        engine.handle({"op": "legal_moves"}),
                        engine.handle({"op": "chance_outcomes"}),
                        engine.handle({"op": "outcome"})]
                       + [engine.handle({"op": "observation", "seat": s}) for s in range(n)],
                       sort_keys=True),
            repr((engine.game.cells, engine.game.revealed, engine.game.seat,
                  engine.game.pending, engine.game.over)))


def check_tiles(game, t_in, c_in):
    """Every tile is in exactly one place: a layout cell or the set-aside heap."""
    n = game.n
    aside = c_in - n
    for t in range(NTYPES):
        clean = [i for i, c in enumerate(game.cells) if c is CLEAN and i % NTYPES == t]
        for i in clean:
            check(i % NTYPES == t, "clean tile away from its place")
        piled = [tile for c in game.cells if isinstance(c, tuple) for tile in c if tile[0] == t]
        if t >= t_in:
            check(not clean and not piled, "tile of a type not in play")
            continue
        shown = {c for c in range(c_in) if game.revealed[t] >> c & 1}
        cols = [tile[1] for tile in piled]
        check(len(cols) == len(set(cols)), "a tile is in two places")
        check(set(cols) == shown, "piled tiles differ from revealed tiles")
        check(len(clean) + len(piled) + aside == c_in, "tile count of type %d wrong" % t)
        check(len(clean) + aside == c_in - len(shown), "hidden tile count wrong")
    for c in game.cells:
        check(c is None or c is CLEAN or (isinstance(c, tuple) and len(c) >= 1), "bad cell")


ILLEGAL_SAMPLES = ["pass", "turn 0.dessert", "turn 1.knives", "place 0.main on 1.main",
                   "place 1.soup on 0.soup", "reveal 0.dessert red", "reveal 2.forks c4",
                   "jump", "", "turn 9.dessert", "place 0.main on 0.main"]


def play_random(rng, n, comp, stats):
    engine = Engine()
    ok(engine, {"op": "hello", "protocol": "tablerules-conform/1"})
    rep = engine.handle({"op": "new_game", "ruleset": "dishes", "players": n,
                         "options": {"whatever": 1},
                         "components": None if comp == "box" else {"name": comp, "argument": comp},
                         "seed": rng.randrange(10 ** 6)})
    t_in, c_in = (6, 4) if comp == "box" else map(int, comp.split("x"))
    if c_in < n:
        check(rep.get("ok") is False and "unsupported" in rep, "should refuse %s/%d" % (comp, n))
        stats["refused_setups"] += 1
        return
    check(rep == {"ok": True}, "new_game failed %r" % rep)
    steps = 0
    limit = 4 * n * n * t_in + 10
    while True:
        check_tiles(engine.game, t_in, c_in)
        who = ok(engine, {"op": "to_move"})["to_move"]
        moves = ok(engine, {"op": "legal_moves"})["moves"]
        outs = ok(engine, {"op": "chance_outcomes"})["outcomes"]
        obs = ok(engine, {"op": "observation", "seat": rng.randrange(n)})["observation"]
        check(set(obs) == {"seat", "turn", "places", "revealing"}, "observation keys")
        check(len(obs["places"]) == 6 * n, "observation places")
        check(moves == sorted(moves) and len(set(moves)) == len(moves), "moves sorted/unique")
        if who == "TERMINAL":
            check(not moves and not outs, "moves at terminal")
            res = ok(engine, {"op": "outcome"})["outcome"]
            check(res is not None and res["losers"] and res["winners"] == [], "outcome")
            check(sum(res["scores"]) == n * t_in, "scores sum to tiles dealt")
            check(all(res["scores"][s] == max(res["scores"]) for s in res["losers"]), "losers")
            stats["games"] += 1
            stats["losers_%d" % len(res["losers"])] += 1
            stats["steps"] += steps
            return
        check(ok(engine, {"op": "outcome"})["outcome"] is None, "outcome before end")
        if who == "CHANCE":
            check(not moves and outs, "chance with seat moves")
            check([o[0] for o in outs] == sorted(o[0] for o in outs), "outcomes sorted")
            check(sum(Fraction(p) for _, p in outs) == 1, "probabilities sum to 1")
            check(len(obs["revealing"]) == 1, "revealing place listed")
            legal = [o[0] for o in outs]
            weights = [float(Fraction(p)) for _, p in outs]
            pick = rng.choices(legal, weights)[0]
        else:
            check(who == "seat %d" % engine.game.seat and moves and not outs, "seat turn")
            check(obs["revealing"] == [], "nothing revealing on a seat turn")
            legal = moves
            if "pass" in moves:
                check(moves == ["pass"], "pass only when nothing else")
                stats["passes"] += 1
            pick = rng.choice(legal)
        # every listed move is accepted (on copies)
        for m in legal:
            twin = copy.deepcopy(engine)
            check(twin.handle({"op": "apply", "move": m}) == {"ok": True}, "refused legal %s" % m)
            stats["legal_checked"] += 1
        # illegal moves are refused and change nothing
        before = snapshot(engine, n)
        for m in ILLEGAL_SAMPLES + [rng.choice(["turn ", "place ", "reveal "]) + "x"]:
            if m in legal:
                continue
            rep = engine.handle({"op": "apply", "move": m})
            check(rep.get("ok") is False and "refused" in rep, "illegal %r accepted" % m)
            stats["illegal_checked"] += 1
        check(engine.handle({"op": "apply"}).get("error"), "malformed apply")
        check(snapshot(engine, n) == before, "refused move changed the state")
        # a deep copy is independent
        twin = copy.deepcopy(engine)
        ok(engine, {"op": "apply", "move": pick})
        check(snapshot(twin, n) == before, "copy changed with the original")
        steps += 1
        check(steps <= limit, "game did not end within %d steps" % limit)


def example_test():
    """The rulebook's Example: Ania (seat 0) and Krzys (seat 1)."""
    e = Engine()
    ok(e, {"op": "new_game", "ruleset": "dishes", "players": 2, "options": {},
           "components": None, "seed": 0})
    for m in ["turn 0.drinks", "reveal 0.drinks red", "turn 1.drinks", "reveal 1.drinks c3",
              "turn 0.main", "reveal 0.main yellow", "turn 1.soup", "reveal 1.soup red",
              "turn 0.forks", "reveal 0.forks red", "turn 1.dessert", "reveal 1.dessert yellow"]:
        ok(e, {"op": "apply", "move": m})
    got = ok(e, {"op": "legal_moves"})["moves"]
    want = sorted(["turn 0.dessert", "turn 0.soup", "turn 0.knives",
                   "place 0.drinks on 1.drinks", "place 0.drinks on 1.soup",
                   "place 0.drinks on 0.forks", "place 0.main on 1.dessert",
                   "place 0.forks on 0.drinks", "place 0.forks on 1.soup"])
    check(got == want, "example moves differ: %r" % got)
    ok(e, {"op": "apply", "move": "place 0.forks on 1.soup"})
    obs = ok(e, {"op": "observation", "seat": 0})["observation"]
    check(obs["places"]["1.soup"] == {"top": "red forks", "height": 2}, "stack")
    check(obs["places"]["0.forks"] == "empty", "moved away")
    # Krzys may now carry the whole stack (top red forks) on to a red or a forks pile
    moves = ok(e, {"op": "legal_moves"})["moves"]
    check("place 1.soup on 0.drinks" in moves, "stack move")


def protocol_test():
    e = Engine()
    check(e.handle({"op": "to_move"}).get("error"), "no game")
    check(e.handle({"nope": 1}).get("error"), "no op")
    check(e.handle([1]).get("error"), "not an object")
    check(e.handle({"op": "fly"}).get("error"), "unknown op")
    for bad in [{"ruleset": "chess", "players": 2}, {"ruleset": "dishes", "players": 5},
                {"ruleset": "dishes", "players": 1},
                {"ruleset": "dishes", "players": 2, "components": {"name": "7x4", "argument": "7x4"}},
                {"ruleset": "dishes", "players": 3, "components": {"name": "6x2", "argument": "6x2"}}]:
        rep = e.handle(dict(bad, op="new_game", options={}, seed=1))
        check(rep.get("ok") is False and "unsupported" in rep, "should be unsupported: %r" % bad)
    check(e.handle({"op": "quit"}) is None, "quit")


def pipe_test(rng):
    root = os.path.dirname(os.path.abspath(__file__))
    for _ in PKG.split("."):
        root = os.path.dirname(root)
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", PKG], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=env, cwd=root)
    mirror = Engine()

    def ask(req):
        proc.stdin.write(json.dumps(req) + "\n")
        proc.stdin.flush()
        got = json.loads(proc.stdout.readline())
        want = mirror.handle(req)
        check(got == want, "pipe and in-process differ on %r: %r vs %r" % (req, got, want))
        return got

    ask({"op": "hello", "protocol": "tablerules-conform/1"})
    proc.stdin.write("this is not json\n")
    proc.stdin.flush()
    check(json.loads(proc.stdout.readline())["ok"] is False, "bad JSON reply")
    ask({"op": "new_game", "ruleset": "dishes", "players": 3, "options": {},
         "components": None, "seed": 7})
    steps = 0
    while True:
        who = ask({"op": "to_move"})["to_move"]
        ask({"op": "observation", "seat": steps % 3})
        if who == "TERMINAL":
            ask({"op": "outcome"})
            break
        if who == "CHANCE":
            pick = rng.choice(ask({"op": "chance_outcomes"})["outcomes"])[0]
        else:
            pick = rng.choice(ask({"op": "legal_moves"})["moves"])
        if steps % 7 == 3 and pick != "pass":
            # now and then an illegal move first: both engines must refuse it alike
            ask({"op": "apply", "move": "pass"})
        ask({"op": "apply", "move": pick})
        steps += 1
    proc.stdin.write(json.dumps({"op": "quit"}) + "\n")
    proc.stdin.flush()
    check(proc.wait(timeout=10) == 0, "engine did not exit on quit")
    return steps


def main():
    import collections
    import time
    rng = random.Random(2024)
    stats = collections.Counter()
    example_test()
    protocol_test()
    combos = [(n, comp) for n in (2, 3, 4)
              for comp in ("box", "6x4", "3x4", "2x3", "1x2", "4x2", "6x3", "2x4")]
    t0 = time.time()
    rounds = 15
    for _ in range(rounds):
        for n, comp in combos:
            play_random(rng, n, comp, stats)
    t1 = time.time()
    pipe_steps = pipe_test(rng)
    # speed of the hot calls
    e = Engine()
    e.handle({"op": "new_game", "ruleset": "dishes", "players": 4, "options": {},
              "components": None, "seed": 0})
    calls, t2 = 0, time.time()
    while e.handle({"op": "to_move"})["to_move"] != "TERMINAL":
        e.game._moves = None
        ms = e.handle({"op": "legal_moves"})["moves"] or \
            [o[0] for o in e.handle({"op": "chance_outcomes"})["outcomes"]]
        e.handle({"op": "observation", "seat": 0})
        e.handle({"op": "apply", "move": rng.choice(ms)})
        calls += 1
    per = (time.time() - t2) / max(calls, 1) * 1000
    print("example test: ok; protocol test: ok")
    print("random games finished: %d (%.1fs), setups refused as unsupported: %d"
          % (stats["games"], t1 - t0, stats["refused_setups"]))
    print("total steps %d, passes %d, legal moves re-applied %d, illegal moves refused %d"
          % (stats["steps"], stats["passes"], stats["legal_checked"], stats["illegal_checked"]))
    print("games by number of losers: %s" % {k: v for k, v in sorted(stats.items())
                                              if k.startswith("losers_")})
    print("pipe game: %d steps, replies identical to in-process engine" % pipe_steps)
    print("hot path: %.3f ms per (to_move + legal_moves + observation + apply)" % per)
    print("ALL OK")


if __name__ == "__main__":
    main()
