"""Self-test of the Just Desserts 2.3 reading (standard library only).

Run:  cd /work/main/readings && python3 -m just_desserts_v23.selftest [games]

Plays random games through ``Engine.handle`` on the retail card list (2 to 5 players),
on the engine's default deck and on a tiny deck with repeated copies, checking card
conservation, exact probabilities, legality of every listed move, refusal of illegal
moves without any change, deepcopy independence, and that games end; then plays one
game over a pipe through ``python3 -m just_desserts_v23``.
"""
import copy
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from fractions import Fraction

from .engine import Engine

RETAIL = "/work/shared/data/just_desserts_2015_deck.json"
RULESET = "just-desserts-2.3"
MAX_STEPS = 20000


def tiny_deck_file():
    data = {
        "about": "self-test deck", "tastes": ["A", "B", "C"], "suits": ["red"],
        "desserts": [
            {"id": "A1", "name": "a one", "tastes": ["A"], "copies": 4},
            {"id": "B1", "name": "b one", "tastes": ["B"], "copies": 4},
            {"id": "C1", "name": "c one", "tastes": ["C"], "copies": 2},
            {"id": "AB", "name": "a b", "tastes": ["A", "B"], "copies": 2},
            {"id": "ABC", "name": "a b c", "tastes": ["A", "B", "C"], "copies": 2},
            {"id": "BC", "name": "b c", "tastes": ["B", "C"], "copies": 2},
        ],
        "guests": [
            {"id": "G1", "name": "g1", "suit": "red", "wants": ["A", "B"],
             "refuses": ["C"], "favorites": ["a b"]},
            {"id": "G2", "name": "g2", "suit": "red", "wants": ["A", "B", "C"],
             "refuses": [], "favorites": ["ABC", "BC"]},
            {"id": "G3", "name": "g3", "suit": "red", "wants": ["C"],
             "refuses": [], "favorites": []},
        ],
    }
    fd, path = tempfile.mkstemp(suffix=".json")
    with os.fdopen(fd, "w") as f:
        json.dump(data, f)
    return path


def load_totals(path):
    with open(path) as f:
        d = json.load(f)
    return ({x["id"]: x.get("copies", 1) for x in d["desserts"]},
            [g["id"] for g in d["guests"]])


def snapshot(e):
    g = e.game
    return json.dumps([g.__dict__[k] for k in sorted(g.__dict__) if k != "deck"],
                      sort_keys=True, default=str)


def check_conservation(e, dessert_totals, guest_ids):
    g = e.game
    have = Counter()
    for d in [g.dessert_pile] + g.hands + g.dishes:
        for c, n in d.items():
            assert n > 0, "non-positive count"
            have[c] += n
    assert have == Counter({k: v for k, v in dessert_totals.items() if v}), "desserts lost"
    assert g.dessert_left == sum(g.dessert_pile.values())
    gs = Counter(g.discards)
    for c in g.collected:
        gs.update(c)
    gs.update(g.guest_pile)
    if g.guest is not None:
        gs[g.guest] += 1
    assert gs == Counter(guest_ids), "guests lost: %r" % gs
    assert g.guest_left == sum(g.guest_pile.values())
    obs = [e.handle({"op": "observation", "seat": s})["observation"] for s in range(g.n)]
    for s, o in enumerate(obs):
        assert o["hand_sizes"][s] == len(o["hand"])
        assert set(o) == {"seat", "to_move", "hand", "hand_sizes", "dishes",
                          "guests_collected", "own_guests", "guest", "guest_pile",
                          "discards", "dessert_pile", "kitchen_closed", "legal_moves"}


def play(rng, path, players, totals, stats, check_all_moves):
    e = Engine()
    comps = None if path is None else {"name": "deck", "argument": path}
    r = e.handle({"op": "new_game", "ruleset": RULESET, "players": players,
                  "options": {"whatever": 1}, "components": comps, "seed": 0})
    assert r == {"ok": True}, r
    dessert_totals, guest_ids = totals
    steps = 0
    while True:
        check_conservation(e, dessert_totals, guest_ids)
        tm = e.handle({"op": "to_move"})["to_move"]
        lm = e.handle({"op": "legal_moves"})["moves"]
        co = e.handle({"op": "chance_outcomes"})["outcomes"]
        if tm == "TERMINAL":
            assert lm == [] and co == []
            break
        assert e.handle({"op": "outcome"})["outcome"] is None
        # an illegal move is refused and changes nothing
        before = snapshot(e)
        for bad in ("serve NOPE", "first 99", "call please", "turn up NOBODY"):
            r = e.handle({"op": "apply", "move": bad})
            assert r["ok"] is False and "refused" in r, r
        assert snapshot(e) == before
        if tm == "CHANCE":
            assert lm == [] and co, "chance with no outcomes"
            texts = [m for m, _ in co]
            assert texts == sorted(texts) and len(set(texts)) == len(texts)
            assert sum(Fraction(p) for _, p in co) == 1, co
            moves = texts
            weights = [float(Fraction(p)) for _, p in co]
            move = rng.choices(moves, weights)[0]
        else:
            assert tm.startswith("seat ") and co == [] and lm
            assert lm == sorted(lm) and len(set(lm)) == len(lm)
            seat = int(tm[5:])
            o = e.handle({"op": "observation", "seat": seat})["observation"]
            assert o["legal_moves"] == lm and o["to_move"] == seat
            moves = lm
            # prefer plausible play so that games are varied
            serves = [m for m in lm if m.startswith("serve")]
            if "favourite" in lm and rng.random() < 0.7:
                move = "favourite"
            elif serves and rng.random() < 0.85:
                move = rng.choice(serves)
            else:
                move = rng.choice(lm)
            stats[move.split(" ")[0]] += 1
        if check_all_moves:
            for m in moves:
                c = copy.deepcopy(e)
                assert c.handle({"op": "apply", "move": m}) == {"ok": True}, m
            assert snapshot(e) == before, "deepcopy not independent"
        else:
            c = copy.deepcopy(e)
            assert c.handle({"op": "apply", "move": rng.choice(moves)}) == {"ok": True}
            assert snapshot(e) == before, "deepcopy not independent"
        if move == "simultaneous":
            stats["simultaneous"] += 1
        if move.startswith("seat") and " takes " in move:
            stats["penalty"] += 1
        assert e.handle({"op": "apply", "move": move}) == {"ok": True}, move
        steps += 1
        assert steps < MAX_STEPS, "game does not end"
    out = e.handle({"op": "outcome"})["outcome"]
    assert len(out["scores"]) == players
    assert sorted(out["winners"] + out["losers"]) == sorted(
        set(out["winners"] + out["losers"]))
    assert out["draw"] == (out["winners"] == [])
    stats["draws" if out["draw"] else "decided"] += 1
    stats["steps"] += steps
    return steps


def pipe_game(seed):
    here = os.path.dirname(os.path.abspath(__file__))
    proc = subprocess.Popen([sys.executable, "-m", os.path.basename(here)],
                            cwd=os.path.dirname(here), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)

    def ask(req):
        proc.stdin.write(json.dumps(req) + "\n")
        proc.stdin.flush()
        return json.loads(proc.stdout.readline())

    rng = random.Random(seed)
    mirror = Engine()
    assert ask({"op": "hello", "protocol": "tablerules-conform/1"})["ok"]
    assert ask({"op": "bogus"})["ok"] is False
    req = {"op": "new_game", "ruleset": RULESET, "players": 4, "options": {},
           "components": {"name": "retail", "argument": RETAIL}, "seed": seed}
    assert ask(req) == mirror.handle(req) == {"ok": True}
    proc.stdin.write("not json\n")
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["ok"] is False
    steps = 0
    while True:
        for q in ({"op": "to_move"}, {"op": "legal_moves"}, {"op": "chance_outcomes"},
                  {"op": "observation", "seat": steps % 4}, {"op": "outcome"}):
            a, b = ask(q), mirror.handle(q)
            assert a == json.loads(json.dumps(b)), (q, a, b)
        tm = mirror.handle({"op": "to_move"})["to_move"]
        if tm == "TERMINAL":
            break
        if tm == "CHANCE":
            co = mirror.handle({"op": "chance_outcomes"})["outcomes"]
            move = rng.choices([m for m, _ in co], [float(Fraction(p)) for _, p in co])[0]
        else:
            move = rng.choice(mirror.handle({"op": "legal_moves"})["moves"])
        assert ask({"op": "apply", "move": move}) == mirror.handle(
            {"op": "apply", "move": move}) == {"ok": True}
        steps += 1
    proc.stdin.write(json.dumps({"op": "quit"}) + "\n")
    proc.stdin.flush()
    assert proc.wait(timeout=10) == 0
    return steps


def timing():
    """Worst-case-ish timing: a 5-player game where nobody serves, hands grow."""
    e = Engine()
    e.handle({"op": "new_game", "ruleset": RULESET, "players": 2, "options": {},
              "components": {"name": "r", "argument": RETAIL}, "seed": 0})
    rng = random.Random(5)
    worst = 0.0
    n = 0
    tot = 0.0
    while e.handle({"op": "to_move"})["to_move"] != "TERMINAL":
        t0 = time.perf_counter()
        tm = e.handle({"op": "to_move"})["to_move"]
        if tm == "CHANCE":
            co = e.handle({"op": "chance_outcomes"})["outcomes"]
            move = rng.choice(co)[0]
        else:
            lm = e.handle({"op": "legal_moves"})["moves"]
            move = "pass" if "pass" in lm else rng.choice(lm)
        e.handle({"op": "observation", "seat": 0})
        e.handle({"op": "apply", "move": move})
        dt = time.perf_counter() - t0
        worst = max(worst, dt)
        tot += dt
        n += 1
    return worst, tot / max(n, 1), max(sum(h.values()) for h in e.game.hands)


def main(argv):
    games = int(argv[0]) if argv else 300
    rng = random.Random(2023)
    stats = Counter()
    retail = load_totals(RETAIL)
    tiny = tiny_deck_file()
    try:
        tiny_tot = load_totals(tiny)
        from .deck import default_deck
        dd = default_deck()
        default_tot = (dict(dd.dessert_copies), list(dd.guest_ids))
        t0 = time.time()
        for i in range(games):
            play(rng, RETAIL, 2 + i % 4, retail, stats, check_all_moves=(i % 10 == 0))
        for i in range(40):
            play(rng, tiny, 2 + i % 2, tiny_tot, stats, check_all_moves=True)
        for i in range(40):
            play(rng, None, 2 + i % 4, default_tot, stats, check_all_moves=(i % 4 == 0))
        el = time.time() - t0
        # refusals of setups the rules do not offer
        e = Engine()
        for req in ({"op": "new_game", "ruleset": RULESET, "players": 6, "options": {},
                     "components": None, "seed": 0},
                    {"op": "new_game", "ruleset": "other", "players": 3, "options": {},
                     "components": None, "seed": 0},
                    {"op": "new_game", "ruleset": RULESET, "players": 5, "options": {},
                     "components": {"name": "t", "argument": tiny}, "seed": 0}):
            r = e.handle(req)
            assert r["ok"] is False and "unsupported" in r, r
        assert e.handle({"op": "to_move"})["ok"] is False
        assert e.handle({"op": "quit"}) is None
        ps = pipe_game(7)
        worst, mean, maxhand = timing()
    finally:
        os.unlink(tiny)
    print("random games: %d retail + 40 tiny + 40 default, all checks passed (%.1fs)"
          % (games, el))
    print("moves seen: %s" % dict(sorted(stats.items())))
    print("pipe game: %d moves, replies identical to Engine.handle" % ps)
    print("timing (2 players, everyone passes, hands up to %d): mean %.3f ms, "
          "worst %.3f ms per to_move+moves+observation+apply" % (maxhand, mean * 1e3,
                                                                 worst * 1e3))
    print("SELFTEST OK")


if __name__ == "__main__":
    main(sys.argv[1:])
