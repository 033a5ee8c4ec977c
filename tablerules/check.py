"""`tablerules check` and `tablerules prove`: run the check suites and print the report."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from typing import Any

from tablerules.model import registry
from tablerules.model.core import SetupError
from tablerules.proofs.checks import FAIL, CheckItem, CheckResult, Context

from .report import Progress, table


def _items(ruleset: str, ctx: Context) -> list[CheckItem]:
    entry = registry.ENTRIES[ruleset]
    return list(importlib.import_module(entry.check).checks(ctx))


def _progress_factory():
    bars: list[Progress] = []

    def factory(label: str):
        bar = Progress(label)
        bars.append(bar)
        return bar

    return factory, bars


def run_items(items: list[CheckItem], ctx: Context) -> list[CheckResult]:
    results = []
    for n, item in enumerate(items, 1):
        print(f"[{n}/{len(items)}] {item.ruleset}: {item.name} ...", file=sys.stderr, flush=True)
        t0 = time.perf_counter()
        try:
            r = item.run(ctx)
        except Exception as e:  # a crashing check is a failure with its cause, not a traceback
            r = CheckResult(item.ruleset, item.name, FAIL, f"check raised {type(e).__name__}: {e}")
        if not r.seconds:
            r.seconds = time.perf_counter() - t0
        results.append(r)
        print(f"      {r.status} in {r.seconds:.1f}s: {r.summary}", file=sys.stderr, flush=True)
    return results


def print_report(results: list[CheckResult], out: Any = None) -> None:
    out = out or sys.stdout
    out.write("\n== tablerules check ==\n\n")
    table(((r.ruleset, r.name, r.status, f"{r.seconds:.1f}s", r.summary) for r in results),
          header=("rule set", "check", "status", "time", "result"), out=out)
    for r in results:
        if not r.rows and not r.findings:
            continue
        out.write(f"\n-- {r.ruleset}: {r.name} [{r.status}]\n")
        table(r.rows, out=out)
        for f in r.findings:
            out.write(f"  {f.kind} {f.key} [{f.clause}]: {f.detail}\n")
            for i, step in enumerate(f.trace, 1):
                out.write(f"    {i:3}. {step.text()}\n")
            if f.move is not None:
                out.write(f"    {len(f.trace) + 1:3}. {f.move}  <- raises here\n")
    failed = [r for r in results if not r.ok]
    out.write(f"\n{len(results) - len(failed)} passed, {len(failed)} failed\n")


def run_check(args: argparse.Namespace) -> int:
    wanted = args.ruleset or registry.ruleset_ids()
    for r in wanted:
        registry.get(r)  # one-line error for an unknown id
    factory, _ = _progress_factory()
    deck = args.retail_deck or os.environ.get("TABLERULES_RETAIL_DECK") or None
    if deck and not os.path.exists(deck):
        raise SetupError(f"--retail-deck {deck}: no such file")
    if args.scale <= 0:
        raise SetupError("--scale must be positive")
    ctx = Context(quick=args.quick, progress=factory, retail_deck=deck, scale=args.scale)
    items: list[CheckItem] = []
    broken: list[CheckResult] = []
    for r in wanted:
        try:
            items += _items(r, ctx)
        except Exception as e:  # a rule set that cannot load fails the check, the others still run
            broken.append(CheckResult(r, "load the rule set and its checks", FAIL, f"{type(e).__name__}: {e}"))
    t0 = time.perf_counter()
    results = broken + run_items(items, ctx)
    print_report(results)
    print(f"total {time.perf_counter() - t0:.0f}s" + ("" if deck else "; retail deck not given (set TABLERULES_RETAIL_DECK to include its facts)"))
    return 1 if any(not r.ok for r in results) else 0


def run_prove(ruleset: str) -> int:
    registry.get(ruleset)
    factory, _ = _progress_factory()
    ctx = Context(progress=factory, retail_deck=os.environ.get("TABLERULES_RETAIL_DECK") or None)
    items = [i for i in _items(ruleset, ctx) if i.name.startswith("prove ")]
    results = run_items(items, ctx)
    print_report(results)
    return 1 if any(not r.ok for r in results) else 0
