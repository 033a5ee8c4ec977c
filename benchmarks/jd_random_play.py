"""Just Desserts random play, before and after, measured side by side in one run.

Plays seeded random games (chance by its exact probabilities, every seat move uniform over the
legal moves) on the retail card list with the code of this checkout and with the code of an
older commit (``--base``, default ``main``), which is taken out of git with ``git archive``
into a temporary folder outside the repository and imported from there in a subprocess.  Each
measurement runs in a fresh subprocess, which times its own play (not its start); the two codes
take turns, this checkout then the base, for ``--rounds`` rounds (``timing.alternate``).  An
action is one move applied by the rules' ``apply``, chance moves included; the rate is actions
per second of wall clock, the median of the rounds; "faster" is the median of the per-round
ratios (least-greatest).  The games differ where the two commits' rules differ (for example a
default ruling that changed), so the rate, not the game, is compared.  The machine's load
average is printed at the start and the end.

Usage: TABLERULES_RETAIL_DECK=FILE python benchmarks/jd_random_play.py [--base REV] [--actions N] [--rounds K]
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

from timing import alternate, load_average

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
print(json.dumps({"actions": done, "games": games, "seconds": dt, "where": tablerules.model.__file__}))
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
    ap.add_argument("--rounds", type=int, default=3,
                    help="rounds per configuration, this checkout then the base (default 3)")
    args = ap.parse_args()
    if args.rounds < 1:
        ap.error("--rounds must be 1 or more")
    deck = os.environ.get("TABLERULES_RETAIL_DECK")
    if not deck or not Path(deck).exists():
        print("jd_random_play: set TABLERULES_RETAIL_DECK to the retail card list", file=sys.stderr)
        return 2
    load_start = load_average()
    rows = []
    with tempfile.TemporaryDirectory(prefix="jd-bench-") as tmp:
        site = extract(args.base, Path(tmp))

        def play(name: str, path: str | None, config: tuple[str, int, str]) -> dict:
            r = measure(path, config, deck, args.actions)
            expected = str(site) if name == "base" else str(REPO)
            if not r["where"].startswith(expected):
                raise SystemExit(f"jd_random_play: {name} code imported from {r['where']}, not {expected}")
            return r

        for config in CONFIGS:
            paired = alternate(args.rounds, lambda: play("this", None, config), lambda: play("base", str(site), config),
                               units=lambda r: r["actions"], seconds=lambda r: r["seconds"])
            rows.append((f"{config[0]} {config[1]}p, {config[2]}", paired))
            print(f"  {rows[-1][0]}: done", file=sys.stderr)
    print(
        f"base {args.base}; {args.actions:,} actions per run, {args.rounds} rounds, this checkout then the base; "
        f"actions/s (chance moves included), medians of the rounds; load average at the start {load_start}\n"
    )
    print("| configuration | base actions/s | this checkout actions/s | faster: median (least-greatest) |")
    print("| --- | --- | --- | --- |")
    for label, paired in rows:
        print(f"| {label} | {paired.b_rate:,.0f} | {paired.a_rate:,.0f} | {paired.ratio_text()} |")
    print(f"\nload average at the end {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
