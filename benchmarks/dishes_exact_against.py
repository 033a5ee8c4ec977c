"""The exact engine of the working tree against the engine of an earlier commit, side by side in one run.

Usage: python benchmarks/dishes_exact_against.py --rev REV [--deck box] [--label default ...]
       [--partitions 4] [--max-states N] [--repeat 1]

Lays out the package twice in a temporary folder, as ``pip install`` would (``tablerules/`` with
``model/``, ``proofs/`` and ``spec/`` inside): once from commit REV (``git archive``), once from
the working tree.  Each side then solves each alternative in turn (``tablerules solve dishes
--players 2 --json``, two worker processes, in a fresh Python process that sees that side's
package and this environment's libraries, nothing else: ``python -S -P``, started in that folder),
after one small solve that compiles its loops; it stops if a side imports its engine from
anywhere else.  The sides take turns, REV then the working tree, for ``--repeat`` rounds
(``timing.alternate``), so both meet the machine in the same state.

Prints per alternative the wall-clock seconds of each side (the whole command, median of the
rounds), the ratio (the median of the per-round ratios of the working tree's seconds to REV's,
least-greatest), and whether every figure agrees (engine and table states, the longest game,
and the exact values of random and optimal play); and the machine's load average at the start
and the end.  An alternative is a label of the
solved document (``default``, ``deal-2-players=two-layouts``...); ``--max-states`` is the
state budget in engine states, as in the stored command.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from timing import alternate, load_average

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"tablerules": "", "model": "model", "proofs": "proofs", "spec": "spec"}
"""Each source folder and where it lies inside the installed package (pyproject's package-dir)."""
FIGURES = ("complete", "stopped", "table_states", "engine_states", "longest_game_actions", "random_play",
           "optimal_play")


def _lay_out(source: Path, target: Path) -> Path:
    """The package from the source folders under ``source``, laid out under ``target``; its parent folder."""
    for folder, inside in FOLDERS.items():
        shutil.copytree(source / folder, target / "tablerules" / inside, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return target


def _from_commit(rev: str, target: Path) -> Path:
    raw = target / "raw"
    raw.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, *FOLDERS], capture_output=True)
    if archive.returncode != 0:
        message = archive.stderr.decode(errors="replace").strip().splitlines() or ["git archive failed"]
        print(f"--rev {rev}: not a commit of this repository ({message[-1]})", file=sys.stderr)
        raise SystemExit(2)
    subprocess.run(["tar", "-x", "-C", str(raw)], input=archive.stdout, check=True)
    return _lay_out(raw, target / "package")


def _env(package: Path) -> dict[str, str]:
    """This environment, with only ``package`` and the installed libraries to import from (used with ``python -S``)."""
    libraries = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(package), *sorted(libraries)]))


def _solve(package: Path, label: str, args: argparse.Namespace, deck: str) -> tuple[float, dict]:
    """One ``solve`` in a fresh process that imports the package laid out in ``package``: (seconds, document)."""
    env = _env(package)
    command = [sys.executable, "-S", "-P", "-m", "tablerules", "solve", "dishes", "--players", "2", "--deck", deck,
               "--workers", "2", "--partitions", str(args.partitions), "--json"]
    if label != "default":
        command += ["--ruling", label]
    if args.max_states is not None:
        command += ["--max-states", str(args.max_states)]
    t0 = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=package, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if done.returncode not in (0, 3):
        raise SystemExit(f"{package}: solve {label} failed (exit {done.returncode}): {done.stderr.strip()[-400:]}")
    return seconds, json.loads(done.stdout)


def _imports(package: Path) -> str:
    """Where that side's engine loops are imported from (the check that each side runs its own code)."""
    code = "import tablerules.proofs.exact.loops as m; print(m.__file__)"
    done = subprocess.run([sys.executable, "-S", "-P", "-c", code], env=_env(package), cwd=package,
                          capture_output=True, text=True, check=True)
    where = done.stdout.strip()
    if not where.startswith(str(package)):
        raise SystemExit(f"{package}: the engine was imported from {where}, not from this side's package")
    return where


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", required=True, help="the earlier commit (any git revision)")
    ap.add_argument("--deck", default="box")
    ap.add_argument("--label", action="append", help="alternatives to solve (default: default)")
    ap.add_argument("--partitions", type=int, default=4)
    ap.add_argument("--max-states", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=1, help="rounds, REV then the working tree (default 1)")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be 1 or more")
    load_start = load_average()
    labels = args.label or ["default"]
    with tempfile.TemporaryDirectory(prefix="tablerules-against-") as tmp:
        sides = {args.rev: _from_commit(args.rev, Path(tmp) / "before"),
                 "working tree": _lay_out(ROOT, Path(tmp) / "now")}
        for name, package in sides.items():
            print(f"compiling the loops of {name} (a 2x2 solve)...", file=sys.stderr, flush=True)
            _solve(package, "default", args, "2x2")
            print(f"{name}: {_imports(package)}", file=sys.stderr, flush=True)
        print(f"dishes, 2 players, deck {args.deck}, {args.partitions} partitions, 2 worker processes, "
              f"budget {args.max_states or 'none'} engine states; seconds: wall-clock of the whole command, "
              f"median of {args.repeat} rounds, {args.rev} then the working tree; load average at the start "
              f"{load_start}")
        print(f"alternative | {args.rev} s | working tree s | working tree / {args.rev} | same figures")
        for label in labels:
            paired = alternate(args.repeat, lambda: _solve(sides[args.rev], label, args, args.deck),
                               lambda: _solve(sides["working tree"], label, args, args.deck), seconds=lambda r: r[0])
            before_doc, now_doc = paired.a_result[1], paired.b_result[1]
            same = all(before_doc.get(f) == now_doc.get(f) for f in FIGURES)
            print(f"{label} | {paired.a_median_seconds:.1f} | {paired.b_median_seconds:.1f} | "
                  f"{paired.ratio_text()} | {'yes' if same else 'NO'}", flush=True)
    print(f"load average at the end {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
