"""Write the committed traces of interop/quint/dishes_lists.qnt (tests/interop/data/quint-lists/).

    python interop/quint/make_lists_traces.py [--out DIR]

For 2, 3 and 4 players, `quint run --mbt --out-itf` (the pinned Quint, TypeScript
simulator, fixed seeds) writes TRACES traces of the instance dishesListsN, checking the
model's invariants at every step.  The steps per run (STEPS) are a little more than the
longest game, so every trace ends in `finish` stutters.  tests/interop/test_quint_lists.py
verifies them through tablerules/mappings/quint-dishes-lists.toml alone.  Exit 2 when Quint
cannot be run (see verify_traces.py for where it is looked for).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from verify_traces import find_quint  # noqa: E402  (a script beside this one, not a package)

MODEL = HERE / "dishes_lists.qnt"
OUT = HERE.parents[1] / "tests" / "interop" / "data" / "quint-lists"
STEPS = {2: 36, 3: 54, 4: 72}
"""Quint steps per run: a game of n players takes at most 6n turns plus 6n - 1 placings and
a few passes; these leave room for both and keep the files small."""
TRACES = 3
SEED = 20261205


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=OUT, help=f"folder to write (default {OUT})")
    args = p.parse_args(argv)
    quint, why = find_quint()
    if quint is None:
        print(f"make_lists_traces: {why}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for n, steps in STEPS.items():
        cmd = [*quint, "run", str(MODEL), "--main", f"dishesLists{n}", "--backend", "typescript", "--mbt",
               "--invariants", "allInvariants", "--max-steps", str(steps), "--max-samples", str(TRACES),
               "--n-traces", str(TRACES), "--seed", str(SEED + n),
               "--out-itf", str(args.out / f"lists{n}_{{seq}}.itf.json")]
        print(f"quint: {n} players, {TRACES} traces of {steps} steps", file=sys.stderr)
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
        if done.returncode != 0:
            print(f"make_lists_traces: quint failed for {n} players: {(done.stdout + done.stderr).strip()[-400:]}",
                  file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
