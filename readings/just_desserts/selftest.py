"""Self-test: random games through Engine.handle and one game over a pipe.

Run:  cd /work/main/readings && python3 -m just_desserts.selftest [games_per_config]
Checks: every card is always in exactly one place; chance probabilities sum to exactly 1;
listed legal moves are accepted by apply; illegal moves are refused with no change; games
end; deepcopy branches are independent; observation has the required keys.
"""

import copy
import json
import os
import random
import subprocess
import sys
import time
from fractions import Fraction

from .engine import Engine

DECK = "/work/shared/data/just_desserts_2015_deck.json"
OBS_KEYS = {"seat", "turn", "to_move", "hand", "hand_sizes", "visible_hands", "claimed",
            "centre", "dessert_pile_size", "dessert_discard", "guest_pile_size",
            "guest_discard_size", "guest_discard_top", "offer", "legal_moves"}
MAX_STEPS = 20000


def check_cards(g):
    d = g.deck
    seen = {}
    places = list(g.hands) + [g.dpile, g.ddiscard]
    for p in places:
        for c, k in p.items():
            assert k > 0, (c, k)
            seen[c] = seen.get(c, 0) + k
    if g.offer:
        for c in g.offer["cards"]:
            seen[c] = seen.get(c, 0) + 1
    want = {c: k for c, k in d.copies.items() if k}
    assert seen == want, "dessert cards out of place"
    gs = list(g.center) + list(g.gdiscard) + [x for c in g.claimed for x in c]
    for x, k in g.gpile.items():
        gs += [x] * k
    assert sorted(gs) == sorted(d.guest_ids), "guest cards out of place"


def snapshot(e):
    r = {"to_move": e.handle({"op": "to_move"}), "legal": e.handle({"op": "legal_moves"}),
         "chance": e.handle({"op": "chance_outcomes"}), "out": e.handle({"op": "outcome"})}
    for s in range(e.game.n):
        r["seat%d" % s] = e.handle({"op": "observation", "seat": s})
    r["state"] = canon({k: v for k, v in vars(e.game).items() if k != "deck"})
    return json.dumps(r, sort_keys=True)


def canon(x):
    if isinstance(x, dict):
        return sorted((str(k), canon(v)) for k, v in x.items())
    if isinstance(x, (set, frozenset)):
        return sorted(canon(v) for v in x)
    if isinstance(x, (list, tuple)):
        return [canon(v) for v in x]
    return x


def play(rng, players, options, check_all_moves, stats, deck=DECK):
    e = Engine()
    r = e.handle({"op": "new_game", "ruleset": "just-desserts", "players": players,
                  "options": options, "components": {"name": "test", "argument": deck},
                  "seed": 0})
    assert r == {"ok": True}, r
    steps = 0
    while True:
        g = e.game
        check_cards(g)
        tm = e.handle({"op": "to_move"})["to_move"]
        for s in range(players):
            ob = e.handle({"op": "observation", "seat": s})["observation"]
            assert set(ob) == OBS_KEYS
            assert ob["hand"] == ob["visible_hands"][s]
        if tm == "TERMINAL":
            out = e.handle({"op": "outcome"})["outcome"]
            assert out and len(out["winners"]) == 1
            assert e.handle({"op": "legal_moves"})["moves"] == []
            stats["ended"] += 1
            stats["steps"] += steps
            return
        assert e.handle({"op": "outcome"})["outcome"] is None
        if (not g.poaching and not g.buffet and not g.center and not g.gpile
                and not g.gdiscard and g.offer is None):
            # every guest is claimed and none can ever move again: nobody can win, and
            # the rulebook gives no other end (see NOTES.md)
            stats["dead"] += 1
            return
        if steps >= MAX_STEPS:
            stats["unfinished"] += 1
            return
        steps += 1
        if tm == "CHANCE":
            assert e.handle({"op": "legal_moves"})["moves"] == []
            outs = e.handle({"op": "chance_outcomes"})["outcomes"]
            assert outs and sum(Fraction(p) for _, p in outs) == 1, outs
            texts = [m for m, _ in outs]
            assert texts == sorted(set(texts))
            pick = rng.choices(texts, weights=[float(Fraction(p)) for _, p in outs])[0]
            if pick.startswith("first seat"):
                stats["first_seat"] += 1
        else:
            moves = e.handle({"op": "legal_moves"})["moves"]
            assert moves and moves == sorted(set(moves)), moves
            assert e.handle({"op": "chance_outcomes"})["outcomes"] == []
            ob = e.handle({"op": "observation", "seat": int(tm.split()[1])})["observation"]
            assert ob["legal_moves"] == moves
            tocheck = moves if check_all_moves else rng.sample(moves, min(2, len(moves)))
            for m in tocheck:
                c = copy.deepcopy(e)
                before = snapshot(e)
                assert c.handle({"op": "apply", "move": m}) == {"ok": True}, m
                assert snapshot(e) == before, "deepcopy not independent"
            # pick a kind of move first (so rare options are tried often), then a move
            verb = rng.choice(sorted({m.split()[0] for m in moves}))
            pick = rng.choice([m for m in moves if m.split()[0] == verb])
            for prefix in ("poach", "block", "surprise", "buffet", "return", "depart"):
                if pick.startswith(prefix):
                    stats[prefix] += 1
        # an illegal move is refused and changes nothing (checked every third step)
        before = snapshot(e) if steps % 3 == 0 else None
        for bad in (("serve NOBODY with NOTHING", "draw NOTHING", "pass", "stop",
                     "first seat 9") if before else ()):
            if bad == pick or (tm != "CHANCE" and bad in moves):
                continue
            r = e.handle({"op": "apply", "move": bad})
            if r.get("ok"):
                raise AssertionError("bogus move accepted: %s" % bad)
            assert snapshot(e) == before
        r = e.handle({"op": "apply", "move": pick})
        assert r == {"ok": True}, (pick, r)


def pipe_game(seed):
    rng = random.Random(seed)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    proc = subprocess.Popen([sys.executable, "-m", "just_desserts"], cwd=here,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    mirror = Engine()

    def ask(req):
        proc.stdin.write(json.dumps(req) + "\n")
        proc.stdin.flush()
        reply = json.loads(proc.stdout.readline())
        assert reply == mirror.handle(req), (req, reply)
        return reply

    assert ask({"op": "hello", "protocol": "tablerules-conform/1"})["ok"]
    proc.stdin.write("not json\n")
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["ok"] is False
    ask({"op": "new_game", "ruleset": "just-desserts", "players": 3,
         "options": {"poaching": True, "buffet": True, "surprise-parties": True, "x": 1},
         "components": {"name": "retail", "argument": DECK}, "seed": 1})
    assert ask({"op": "new_game", "ruleset": "just-desserts", "players": 6, "options": {},
                "components": None, "seed": 1}).get("unsupported")
    ask({"op": "new_game", "ruleset": "just-desserts", "players": 3,
         "options": {"poaching": True, "buffet": True, "surprise-parties": True},
         "components": {"name": "retail", "argument": DECK}, "seed": 1})
    steps = 0
    while True:
        tm = ask({"op": "to_move"})["to_move"]
        ask({"op": "observation", "seat": 0})
        if tm == "TERMINAL":
            break
        if tm == "CHANCE":
            outs = ask({"op": "chance_outcomes"})["outcomes"]
            m = rng.choices([m for m, _ in outs], weights=[float(Fraction(p)) for _, p in outs])[0]
        else:
            m = rng.choice(ask({"op": "legal_moves"})["moves"])
        ask({"op": "apply", "move": m})
        steps += 1
    ask({"op": "outcome"})
    proc.stdin.write(json.dumps({"op": "quit"}) + "\n")
    proc.stdin.flush()
    assert proc.wait(timeout=10) == 0
    assert proc.stdout.read() == ""
    return steps


def _setup(players, options):
    """A game at seat 0's turn options, with all hands emptied into the draw pile."""
    e = Engine()
    e.handle({"op": "new_game", "ruleset": "just-desserts", "players": players,
              "options": options, "components": {"name": "retail", "argument": DECK},
              "seed": 0})
    while e.handle({"op": "to_move"})["to_move"] == "CHANCE":
        e.handle({"op": "apply", "move": e.handle({"op": "chance_outcomes"})["outcomes"][0][0]})
    g = e.game
    for h in g.hands:
        for c, k in list(h.items()):
            g.dpile[c] = g.dpile.get(c, 0) + k
        h.clear()
    for x in list(g.center):
        g.center.discard(x)
        g.gpile[x] = 1
    return e, g


def _give(g, seat, cards):
    for c in cards:
        g.dpile[c] -= 1
        if not g.dpile[c]:
            del g.dpile[c]
        g.hands[seat][c] = g.hands[seat].get(c, 0) + 1


def _guest(g, guest, seat=None):
    del g.gpile[guest]
    (g.center if seat is None else g.claimed[seat]).add(guest)


def directed():
    legal = lambda e: e.handle({"op": "legal_moves"})["moves"]
    # "Turn Options" example: the Little Girl takes only Butter Pecan + Strawberry Shortcake.
    e, g = _setup(2, {})
    _give(g, 0, ["CARROT_CAKE", "STRAWBERRY_SHORTCAKE", "BUTTER_PECAN_ICE_CREAM"])
    _guest(g, "THE_LITTLE_GIRL")
    serves = [m for m in legal(e) if m.startswith("serve")]
    assert serves == ["serve THE_LITTLE_GIRL with BUTTER_PECAN_ICE_CREAM+STRAWBERRY_SHORTCAKE"], serves
    # Surprise Parties: seat 1 intercepts with the Favorite; no Tip; no poaching it back.
    e, g = _setup(3, {"surprise-parties": True, "poaching": True})
    _give(g, 0, ["STRAWBERRY_SHORTCAKE", "BUTTER_PECAN_ICE_CREAM"])
    _give(g, 1, ["ICE_CREAM_CAKE"])
    _guest(g, "THE_LITTLE_GIRL")
    m = "serve THE_LITTLE_GIRL with BUTTER_PECAN_ICE_CREAM+STRAWBERRY_SHORTCAKE"
    assert e.handle({"op": "apply", "move": m})["ok"]
    assert e.handle({"op": "to_move"})["to_move"] == "seat 1"
    assert legal(e) == ["pass", "surprise with ICE_CREAM_CAKE"]
    assert e.handle({"op": "apply", "move": "surprise with ICE_CREAM_CAKE"})["ok"]
    assert g.claimed[1] == {"THE_LITTLE_GIRL"} and sum(g.hands[1].values()) == 0
    assert e.handle({"op": "to_move"})["to_move"] == "seat 0"
    assert "stop" in legal(e) and not any("THE_LITTLE_GIRL" in x for x in legal(e))
    # Poaching & Blocking: a poach with one Favorite is Blocked only with the other.
    e, g = _setup(2, {"poaching": True})
    _give(g, 0, ["APPLE_TURNOVER"])
    _give(g, 1, ["BELGIAN_WAFFLE", "STRAWBERRY_SHORTCAKE", "CINNAMON_ROLL"])
    _guest(g, "AGENT_17", seat=1)
    assert e.handle({"op": "apply", "move": "poach AGENT_17 with APPLE_TURNOVER"})["ok"]
    assert e.handle({"op": "to_move"})["to_move"] == "seat 1"
    assert legal(e) == ["block with BELGIAN_WAFFLE", "pass"], legal(e)
    assert e.handle({"op": "apply", "move": "block with BELGIAN_WAFFLE"})["ok"]
    assert e.handle({"op": "to_move"})["to_move"] == "CHANCE"  # the blocker's Tip
    assert g.queue == [("draw", 1)] and g.hands[0] == {"APPLE_TURNOVER": 1}
    e.handle({"op": "apply", "move": e.handle({"op": "chance_outcomes"})["outcomes"][0][0]})
    assert not any(x.startswith("poach") for x in legal(e))
    # a successful poach: the robbed player draws, the poacher draws a Tip first
    e, g = _setup(2, {"poaching": True})
    _give(g, 0, ["APPLE_TURNOVER"])
    _guest(g, "AGENT_17", seat=1)
    assert e.handle({"op": "apply", "move": "poach AGENT_17 with APPLE_TURNOVER"})["ok"]
    assert g.claimed[0] == {"AGENT_17"} and g.queue == [("draw", 0), ("draw", 1)]
    print("directed tests: OK")


def small_deck_games(rng, count):
    """A tiny deck (two suits, copies of desserts) to stress reshuffles and copies."""
    import tempfile
    deck = {"tastes": ["A", "B", "C"], "suits": ["x", "y"],
            "desserts": [{"id": "SPONGE", "name": "Sponge", "tastes": ["A"], "copies": 4},
                         {"id": "TART", "name": "Tart", "tastes": ["B"], "copies": 4},
                         {"id": "MIX", "name": "Mix", "tastes": ["A", "B"], "copies": 2},
                         {"id": "ODD", "name": "Odd", "tastes": ["C"], "copies": 2},
                         {"id": "ALL", "name": "All", "tastes": ["A", "B", "C"], "copies": 1}],
            "guests": [{"id": "G%d" % i, "name": "g%d" % i, "suit": "xy"[i % 2],
                        "wants": [["A", "B"], ["A"], ["B", "C"]][i % 3],
                        "refuses": [[], ["C"], []][i % 3],
                        "favorites": [["Mix"], ["SPONGE"], ["ALL", "Odd"]][i % 3]}
                       for i in range(6)]}
    fd, path = tempfile.mkstemp(suffix=".json")
    with os.fdopen(fd, "w") as fh:
        json.dump(deck, fh)
    stats = {k: 0 for k in ("ended", "dead", "unfinished", "steps", "first_seat", "poach",
                            "block", "surprise", "buffet", "return", "depart")}
    try:
        for i in range(count):
            play(rng, 2 + i % 3, {"poaching": True, "buffet": True, "surprise-parties": True},
                 check_all_moves=(i < 3), stats=stats, deck=path)
    finally:
        os.unlink(path)
    return stats


def main():
    per = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    rng = random.Random(2024)
    configs = [{}, {"poaching": True}, {"buffet": True}, {"surprise-parties": True},
               {"poaching": True, "buffet": True, "surprise-parties": True}]
    total = 0
    t0 = time.time()
    for opts in configs:
        stats = {k: 0 for k in ("ended", "dead", "unfinished", "steps", "first_seat", "poach",
                                "block", "surprise", "buffet", "return", "depart")}
        for i in range(per):
            players = 2 + i % 4
            play(rng, players, opts, check_all_moves=(i < 5), stats=stats)
            total += 1
        print("options=%s games=%d ended=%d dead=%d unfinished=%d mean_steps=%.0f moves: %s" % (
            json.dumps(opts), per, stats["ended"], stats["dead"], stats["unfinished"],
            stats["steps"] / max(1, stats["ended"]),
            {k: stats[k] for k in ("poach", "block", "surprise", "first_seat", "buffet",
                                   "return", "depart")}))
    directed()
    small = small_deck_games(rng, max(4, per // 4))
    print("small deck with copies: %s" % small)
    e = Engine()
    assert e.handle({"op": "new_game", "ruleset": "just-desserts", "players": 4, "options": {},
                     "components": None, "seed": 0}) == {"ok": True}
    assert e.handle({"op": "new_game", "ruleset": "chess", "players": 2, "options": {},
                     "components": None, "seed": 0}).get("unsupported")
    assert e.handle({"op": "bogus"})["ok"] is False
    print("pipe game: %d steps, replies identical to in-process engine" % pipe_game(7))
    print("ALL OK: %d random games in %.1fs" % (total, time.time() - t0))


if __name__ == "__main__":
    main()
