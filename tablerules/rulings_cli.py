"""`tablerules rulings RULESET [--out FILE.md] [--quick]`: the report a rules editor reads.

For each ruling: the question in one sentence, the witness (a short numbered list of moves
and what each reading does next), where every pair of alternatives parts, and the impact
table; then the gap finder's results (every finding of the strict run, with its shortest
trace, registered or not) and whether the order of out-of-turn answers matters.

Exit status 0, or 1 when the gap finder meets a finding that is not a registered ruling;
2 with one line on standard error for bad input.  Progress goes to standard error.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any, Sequence, TextIO

from tablerules.model.core import SetupError, short_ruling_name
from tablerules.proofs import divergence as dv
from tablerules.proofs import gaps as gp
from tablerules.proofs import impact as im

from .report import Progress


class _Usage(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:
        raise _Usage(message)


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="tablerules rulings", description="Find every gap and divergence of a rule set's rulings, with witnesses.")
    p.add_argument("ruleset", help="rule set id (or 'all')")
    p.add_argument("--out", metavar="FILE.md", help="write the report here (default: standard output)")
    p.add_argument("--quick", action="store_true", help="smaller budgets (a few seconds per rule set)")
    p.add_argument("--config", action="append", default=[], metavar="PLAYERS[:DECK]",
                   help="search this configuration instead of the model's small ones; repeatable (e.g. 2:3x4 for dishes)")
    p.add_argument("--ruling", action="append", default=[], metavar="ID",
                   help="only this ruling (full or short id) for divergence and impact; repeatable")
    p.add_argument("--write-witnesses", action="store_true",
                   help="rewrite spec/witnesses/<rule set>-<ruling>.json from the divergence search (deterministic budgets)")
    return p


# --------------------------------------------------------------------------- budgets


class Budgets:
    def __init__(self, quick: bool, bounded: bool, deterministic: bool = False) -> None:
        f = 0.3 if quick else 1.0
        self.gaps = gp.GapBudget(max_states=100_000 if quick else 300_000, max_seconds=8.0 * f)
        # Counted in pairs (the time is only a safety cap), so the answers do not depend on the load.
        self.pairs = dv.PairBudget(max_pairs=8_000 if quick else 15_000, max_seconds=None if deterministic else 30.0 * f)
        # Sampling is counted in games (the time is only a cap), so alternatives that play the
        # same game give the same numbers: the seed is fixed.
        # Full-size defaults (no SMALL_CONFIGS): exact is out of reach, and games are long.
        g = 3 if bounded else 1
        self.impact = im.ImpactBudget(max_states=3_000 if quick else 6_000, exact_seconds=(0.5 if bounded else 3.0) * f,
                                      games=(100 if quick else 300) // g, sample_seconds=5.0 * f / g)
        self.race_seconds = 3.0 * f


# --------------------------------------------------------------------------- configurations


def parse_configs(rules: Any, texts: Sequence[str]) -> list[gp.Config]:
    out = []
    for text in texts:
        players, _, deck = text.partition(":")
        if not players.isdigit():
            raise SetupError(f"--config {text!r}: expected PLAYERS or PLAYERS:DECK, e.g. 2:3x4")
        components = None
        if deck:
            if rules.load_components is None:
                raise SetupError(f"--config {text!r}: {rules.id} takes no deck")
            components = rules.load_components(deck)
        config = gp.Config(int(players), components if components is not None else rules.default_components(), deck or None)
        config.setup(rules, rules.Options())  # one-line SetupError for a configuration the rules refuse
        out.append(config)
    return out


def pick_rulings(rules: Any, texts: Sequence[str]) -> list[str] | None:
    if not texts:
        return None
    from tablerules.model.core import ruling_fields

    ids = list(ruling_fields(rules.Options))
    by_short = {short_ruling_name(r): r for r in ids}
    out = []
    for t in texts:
        rid = t if t in ids else by_short.get(t)
        if rid is None:
            raise SetupError(f"--ruling {t!r}: unknown ruling (known: {', '.join(by_short)})")
        out.append(rid)
    return out


# --------------------------------------------------------------------------- markdown


def md_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    def cell(x: Any) -> str:
        return str(x).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(map(cell, header)) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(map(cell, r)) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def steps_md(steps: Sequence[Any], raises: str | None = None) -> str:
    if not steps and raises is None:
        return "(no move: at the start)\n"
    lines = [f"{i}. {s.text()}" for i, s in enumerate(steps, 1)]
    if raises is not None:
        lines.append(f"{len(steps) + 1}. {raises} ← raises here")
    return "\n".join(lines) + "\n"


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- the report


def report(ruleset_id: str, args: argparse.Namespace, out: TextIO) -> int:
    t0 = time.perf_counter()
    rules, module = gp.load_rules(ruleset_id)
    if args.config:
        configs = gp.Configs(tuple(parse_configs(rules, args.config)), "given with --config", False)
    else:
        configs = gp.small_configs(rules, module)
    budgets = Budgets(args.quick, configs.bounded, deterministic=args.write_witnesses)
    only = pick_rulings(rules, args.ruling)
    register, spec_problem = gp.load_register(rules.id)

    _stderr(f"rulings {rules.id}: gap finder (strict mode) on {len(configs.configs)} configurations ...")
    bars: list[Progress] = []

    def bar(label: str) -> Progress:
        bars.append(Progress(label))
        return bars[-1]

    gap_report = gp.find_gaps(rules, configs, register=register, spec_problem=spec_problem, budget=budgets.gaps,
                              progress=bar, module=module)
    for b in bars:
        b.done()
    _stderr(f"  {gap_report.summary()} ({gap_report.seconds:.1f}s)")

    _stderr(f"rulings {rules.id}: divergence between alternatives ...")
    t1 = time.perf_counter()
    divs = dv.all_divergences(rules, configs, budget=budgets.pairs, rulings=only,
                              progress=lambda s: _stderr("  " + s) if sys.stderr.isatty() else None)
    _stderr(f"  {sum(len(r.pairs) for r in divs)} pairs in {time.perf_counter() - t1:.1f}s")

    _stderr(f"rulings {rules.id}: impact per alternative ...")
    t1 = time.perf_counter()
    settings = {rd.ruling: (rd.base, rd.base_options) for rd in divs if rd.base}
    workers = min(2, os.cpu_count() or 1)
    impacts = im.all_impacts(rules, configs, budget=budgets.impact, rulings=only, settings=settings, workers=workers,
                             progress=lambda s: _stderr("  " + s) if sys.stderr.isatty() else None)
    _stderr(f"  {sum(len(r.rows) for r in impacts)} rows in {time.perf_counter() - t1:.1f}s")

    race = dv.order_of_resolution(rules, configs, module=module, max_seconds=budgets.race_seconds)

    written: list[Path] = []
    if args.write_witnesses:
        written = dv.write_witnesses(rules, divs)
        for p in written:
            _stderr(f"  wrote {p}")

    write_report(out, rules, configs, register, spec_problem, gap_report, divs, impacts, race, written,
                 time.perf_counter() - t0, quick=args.quick)
    return 0 if gap_report.ok else 1


def write_report(out: TextIO, rules: Any, configs: gp.Configs, register: dict, spec_problem: str,
                 gap_report: gp.GapReport, divs: list[dv.RulingDivergence], impacts: list[im.RulingImpact],
                 race: dv.RaceResult, written: list[Path], seconds: float, quick: bool = False) -> None:
    w = out.write
    w(f"# Rulings: {rules.title} (`{rules.id}`)\n\n")
    w(f"Configurations ({configs.source}): " + "; ".join(c.label() for c in configs.configs) + ".\n")
    w("Every other ruling stays at its default while one ruling's alternatives are compared.")
    w(f" Budgets: {'quick' if quick else 'full'}; {seconds:.0f} s in all.\n\n")
    if spec_problem:
        w(f"**Spec problem:** {spec_problem}\n\n")

    w("## Gap finder (strict mode)\n\n")
    w(f"{gap_report.summary()}.\n\n")
    if gap_report.findings:
        w(md_table(("finding", "status", "where", "configuration", "other rulings changed", "detail"),
                   [(f.title(), f.status, f.where(), f.config.label(), f.setting() or "-", f.detail) for f in gap_report.findings]))
        for f in gap_report.findings:
            setting = f", with {f.setting()}" if f.setting() else ""
            w(f"\n**{f.title()}** ({f.status}; met {f.count:,} times) — shortest trace on {f.config.label()}{setting}:\n\n")
            w(steps_md(f.trace, f.move))
    w("\n" + md_table(("run", "strict rulings", "coverage", "graph", "seconds"),
                      [(r.config.label() + (f" ({r.note})" if r.note else ""), ", ".join(short_ruling_name(x) for x in r.strict) or "none",
                        r.coverage, r.graph, f"{r.seconds:.1f}") for r in gap_report.runs]))
    if gap_report.unreached:
        w("\nStrict alternatives never reached in these configurations: " + ", ".join(gap_report.unreached) + ".\n")

    w("\n## Rulings\n")
    by_ruling = {ri.ruling: ri for ri in impacts}
    for rd in divs:
        spec = register.get(rd.ruling)
        w(f"\n### {rd.ruling}\n\n")
        w(f"**Question.** {spec.question if spec else '(not in the spec register)'}\n\n")
        w("**Alternatives.** " + ", ".join(f"`{a}`" + (" (default)" if i == 0 else "") for i, a in enumerate(rd.alternatives)) + ".\n\n")
        d = rd.primary()
        if rd.base:
            w(f"Under the defaults no two alternatives differ ({rd.under_defaults[0].bound()}); "
              f"they do once `{rd.base}`, so the pairs below are searched with that setting.\n\n")
        elif rd.under_defaults:
            w("Under the defaults no two alternatives differ, nor did random probes with any one other ruling changed.\n\n")
        if d is None:
            w("**Witness.** None: no pair of alternatives differs within the bound.\n\n")
        else:
            setting = f" with `{rd.base}`" if rd.base else ""
            w(f"**Witness** (`{d.a}` against `{d.b}`{setting}, {d.config.label()}): {d.statement()}.\n\n")
            w(steps_md(d.steps))
            w("\nWhat each reading does next:\n\n")
            for alt, r in dv.readings_after(rules, rd.ruling, d.config, d.options_a, d.moves).items():
                w(f"- `{alt}`: {r['next']}\n")
            w("\n")
        w(md_table(("alternatives", "where they part", "trace", "search"),
                   [(f"{x.a} / {x.b}", x.statement(), f"{len(x.steps)} moves" if x.found else "-", x.bound()) for x in rd.pairs]))
        ri = by_ruling.get(rd.ruling)
        if ri is not None:
            w("\nImpact (uniform random play; exact over the chance tree where small, else sampled with a 95% interval):\n\n")
            w(md_table(im.HEADER, [r.row() for r in ri.rows]))
            notes = sorted({r.note for r in ri.rows if r.note})
            if notes:
                w("\n" + "".join(f"- {n}\n" for n in notes))
    w("\n## Order of resolution\n\n")
    w(race.statement + ".\n")
    if race.steps:
        w("\n" + steps_md(race.steps) + "\n")
        for move, dist in race.branches:
            w(f"- `{move}`: {dist}\n")
    if written:
        w("\n## Witness files\n\n" + "".join(f"- `{p.name}`\n" for p in written))


# --------------------------------------------------------------------------- entry point


def main(argv: Sequence[str]) -> int:
    try:
        args = parser().parse_args(list(argv))
    except _Usage as e:
        print(f"tablerules rulings: error: {e}", file=sys.stderr)
        return 2
    except SystemExit as e:  # --help
        return int(e.code or 0)
    from tablerules.model import registry
    from tablerules.spec import SpecError

    ids = registry.ruleset_ids() if args.ruleset == "all" else [args.ruleset]
    status = 0
    try:
        out: TextIO = open(args.out, "w", encoding="utf-8") if args.out else sys.stdout
    except OSError as e:
        print(f"tablerules rulings: error: --out {args.out}: {e.strerror}", file=sys.stderr)
        return 2
    try:
        for rid in ids:
            try:
                status = max(status, report(rid, args, out))
            except gp.ModelUnavailable as e:
                print(f"tablerules rulings: skipped {e}", file=sys.stderr)
                if args.ruleset != "all":
                    return 2
            except (SetupError, SpecError) as e:
                print(f"tablerules rulings: error: {e}", file=sys.stderr)
                return 2
    finally:
        if args.out:
            out.close()
    if args.out:
        print(f"wrote {args.out}", file=sys.stderr)
    return status
