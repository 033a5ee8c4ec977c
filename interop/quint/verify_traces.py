"""Generate traces of interop/quint/dishes.qnt with Quint and verify every one against our rules.

    python interop/quint/verify_traces.py [--traces N] [--players 2 3 4] [--seed S] [--keep DIR]

For each player count, `quint run --mbt --out-itf` (the TypeScript simulator: no download at
run time) writes N traces of the model's instance dishesN, checking the model's own
invariants (allInvariants) at every step; each trace is then read through the shipped
mapping tablerules/mappings/quint-dishes.toml and replayed by `tablerules vectors verify`.
Prints a table per player count; exits 1 on any disagreement (the line names the step and
the clause), 2 when Quint cannot be run.

Quint is found at $TABLERULES_QUINT, else interop/quint/node_modules/.bin/quint (installed
by `npm ci --prefix interop/quint`, as .ci/run does), else `quint` on the PATH.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODEL = HERE / "dishes.qnt"
MAX_STEPS = {2: 60, 3: 90, 4: 120}
"""Steps per Quint run: more than the longest game (every tile turned, every pile moved, and
the passes of stuck players), so each trace reaches the end; the rest are GameOver stutters."""
DEFAULT_TRACES = 4
DEFAULT_SEED = 20240601


def find_quint() -> tuple[list[str] | None, str]:
    """(command, "") or (None, why Quint cannot be run here)."""
    node = shutil.which("node")
    if node is None:
        return None, "node is not installed (Quint's TypeScript backend needs Node.js >= 18)"
    for candidate in (
        os.environ.get("TABLERULES_QUINT"), str(HERE / "node_modules" / ".bin" / "quint"), shutil.which("quint"),
    ):
        if candidate and Path(candidate).exists():
            try:
                done = subprocess.run([candidate, "--version"], capture_output=True, text=True, timeout=120)
            except (OSError, subprocess.TimeoutExpired) as e:
                return None, f"{candidate} --version failed: {e}"
            if done.returncode == 0:
                return [candidate], ""
            first = (done.stderr or done.stdout).strip().splitlines()[:1]
            return None, f"{candidate} --version failed: {first[0] if first else done.returncode}"
    return None, "Quint is not installed (run: npm ci --prefix interop/quint)"


def generate(quint: list[str], players: int, traces: int, seed: int, out: Path) -> tuple[list[Path], float]:
    """Run Quint for one player count; the trace files it wrote, and the seconds it took."""
    out.mkdir(parents=True, exist_ok=True)
    pattern = out / f"dishes{players}_{{seq}}.itf.json"
    cmd = [*quint, "run", str(MODEL), "--main", f"dishes{players}", "--backend", "typescript", "--mbt",
           "--invariants", "allInvariants", "--max-steps", str(MAX_STEPS[players]),
           "--max-samples", str(traces), "--n-traces", str(traces), "--seed", str(seed), "--out-itf", str(pattern)]
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        tail = " | ".join((done.stdout + done.stderr).strip().splitlines()[-6:])
        raise RuntimeError(f"quint run for {players} players failed (exit {done.returncode}): {tail}")
    return sorted(out.glob(f"dishes{players}_*.itf.json")), seconds


@dataclass
class Result:
    players: int
    files: list[Path] = field(default_factory=list)
    verified: int = 0
    ended: int = 0
    distinct: int = 0
    failures: list[str] = field(default_factory=list)
    quint_seconds: float = 0.0
    verify_seconds: float = 0.0


def verify(players: int, files: list[Path]) -> Result:
    """Verify each trace through the shipped mapping (as `tablerules vectors verify` does)."""
    from tablerules.vectors import mapping as itf_mapping
    from tablerules.vectors import load_document

    r = Result(players, files)
    seen = set()
    start = time.perf_counter()
    for f in files:
        status, text = itf_mapping.verify_file(str(f), mapping="quint-dishes")
        if status != 0:
            r.failures.append(text)
            continue
        r.verified += 1
        if "the outcome:" not in text:  # the trace reached the end and its recorded result was compared with ours
            r.ended += 1
        doc = load_document(str(f))
        seen.add(tuple(str(s.get("mbt::nondetPicks")) for s in doc["states"]))
    r.distinct = len(seen)
    r.verify_seconds = time.perf_counter() - start
    return r


def run(players: list[int], traces: int, seed: int, keep: Path | None = None) -> list[Result]:
    quint, why = find_quint()
    if quint is None:
        raise FileNotFoundError(why)
    results = []
    with tempfile.TemporaryDirectory(prefix="tablerules-quint-") as tmp:
        out = keep or Path(tmp)
        for n in players:
            files, seconds = generate(quint, n, traces, seed + n, out)
            r = verify(n, files)
            r.quint_seconds = seconds
            results.append(r)
    return results


def table(results: list[Result]) -> str:
    head = (
        "players", "traces", "distinct", "verified", "ended, outcome compared", "disagreements", "quint s", "verify s",
    )
    rows = [head] + [(str(r.players), str(len(r.files)), str(r.distinct), str(r.verified), str(r.ended),
                      str(len(r.failures)), f"{r.quint_seconds:.1f}", f"{r.verify_seconds:.1f}") for r in results]
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = ["  ".join(c.rjust(w) for c, w in zip(row, widths)) for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--traces", type=int, default=DEFAULT_TRACES, help="traces per player count")
    p.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], choices=[2, 3, 4])
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help="Quint's seed is this plus the player count")
    p.add_argument("--keep", type=Path, help="write the traces here instead of a temporary folder")
    args = p.parse_args(argv)
    try:
        results = run(args.players, args.traces, args.seed, args.keep)
    except (FileNotFoundError, RuntimeError) as e:
        print(f"verify_traces: {e}", file=sys.stderr)
        return 2
    print(table(results))
    for r in results:
        for line in r.failures:
            print(line, file=sys.stderr)
    return 1 if any(r.failures for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
