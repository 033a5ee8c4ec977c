"""Just Desserts random play, before and after, measured side by side in one run.

Plays seeded random games (chance by its exact probabilities, every seat move uniform over the
legal moves) on the retail card list with the code of this checkout and with the code of an
older commit (``--base``, default ``main``), which is taken out of git with ``git archive``
into a temporary folder outside the repository and imported from there in a subprocess.  Each
measurement runs in a fresh subprocess, the two codes alternate, and the best of ``--repeat``
runs counts.  An action is one move applied by the rules' ``apply``, chance moves included; the
rate is actions per second of wall clock.  The games differ where the two commits' rules differ
(for example a default ruling that changed), so the rate, not the game, is compared.

Usage: TABLERULES_RETAIL_DECK=FILE python benchmarks/jd_random_play.py [--base REV] [--actions N] [--repeat K]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CONFIGS = [
    ("just-desserts", 2, "basic"),
    ("just-desserts", 4, "all advanced rules"),
    ("just-desserts", 5, "all advanced rules"),
    ("just-desserts-2.3", 2, "default rulings"),
    ("just-desserts-2.3", 4, "default rulings"),
]

PLAY = r'''
import json, random, sys, time
import tablerules
from tablerules.model.core import CHANCE, TERMINAL
from tablerules.model.decks import load_deck
from tablerules.model import registry
ruleset, players, label, deck_path, actions = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
rules = registry.get(ruleset)
options = rules.Options()
if label == "all advanced rules":
    import dataclasses
    options = dataclasses.replace(options, poaching=True, buffet=True, surprise_parties=True)
setup = rules.setup(players, options, load_deck(deck_path, name="retail"))
rng = random.Random(7)
done = games = 0
t0 = time.perf_counter()
while done < actions:
    s = rules.new_game(setup)
    games += 1
    for _ in range(3000):
        a = rules.to_move(s)
        if a is TERMINAL:
            break
        if a is CHANCE:
            outs = rules.chance_outcomes(s)
            m = rng.choices([m for m, _ in outs], weights=[float(p) for _, p in outs])[0]
        else:
            m = rng.choice(rules.legal_moves(s))
        s = rules.apply(s, m)
        done += 1
dt = time.perf_counter() - t0
print(json.dumps({"actions": done, "games": games, "seconds": dt, "where": tablerules.__file__}))
'''


def extract(rev: str, into: Path) -> Path:
    """The package of commit ``rev`` laid out as an importable ``tablerules`` in ``into``."""
    raw = into / "raw"
    raw.mkdir()
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev, "tablerules", "model", "spec", "proofs"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(raw)], input=archive, check=True)
    site = into / "site"
    pkg = site / "tablerules"
    shutil.copytree(raw / "tablerules", pkg)
    for sub in ("model", "spec", "proofs"):
        shutil.copytree(raw / sub, pkg / sub)
    return site


def measure(pythonpath: str | None, config: tuple[str, int, str], deck: str, actions: int) -> dict:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    out = subprocess.run([sys.executable, "-c", PLAY, config[0], str(config[1]), config[2], deck, str(actions)],
                         env=env, check=True, capture_output=True, text=True, cwd=tempfile.gettempdir())
    return json.loads(out.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="main", help="the commit to compare with (default: main)")
    ap.add_argument("--actions", type=int, default=20_000, help="actions per measurement (default 20,000)")
    ap.add_argument("--repeat", type=int, default=2, help="runs per code and configuration; the best counts")
    args = ap.parse_args()
    deck = os.environ.get("TABLERULES_RETAIL_DECK")
    if not deck or not Path(deck).exists():
        print("jd_random_play: set TABLERULES_RETAIL_DECK to the retail card list", file=sys.stderr)
        return 2
    rows = []
    with tempfile.TemporaryDirectory(prefix="jd-bench-") as tmp:
        site = extract(args.base, Path(tmp))
        for config in CONFIGS:
            best = {"base": 0.0, "this": 0.0}
            for _ in range(args.repeat):
                for name, path in (("base", str(site)), ("this", None)):
                    r = measure(path, config, deck, args.actions)
                    expected = str(site) if name == "base" else str(REPO)
                    if not r["where"].startswith(expected):
                        print(
                            f"jd_random_play: {name} code imported from {r['where']}, not {expected}", file=sys.stderr
                        )
                        return 1
                    best[name] = max(best[name], r["actions"] / r["seconds"])
            rows.append((f"{config[0]} {config[1]}p, {config[2]}", best["base"], best["this"]))
            print(f"  {rows[-1][0]}: done", file=sys.stderr)
    print(
        f"base {args.base}; {args.actions:,} actions per run, best of {args.repeat}; actions/s (chance moves "
        f"included)\n"
    )
    print("| configuration | base actions/s | this checkout actions/s | faster |")
    print("| --- | --- | --- | --- |")
    for label, old, new in rows:
        print(f"| {label} | {old:,.0f} | {new:,.0f} | {new / old:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
