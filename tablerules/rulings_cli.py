"""`tablerules rulings RULESET`: the report a rules editor reads.

For each ruling: the question in one sentence, the witness (a short numbered list of moves
and what each reading does next), where every pair of alternatives parts, and the impact
table; then the gap finder's results (every finding of the strict run, with its shortest
trace, registered or not) and whether the order of out-of-turn answers matters.

Every budget counts states, pairs or games, so the same inputs give the same report
(timings aside).  The report is written only when complete, in one piece (``--out``):
Ctrl-C (exit status 130) or ``--max-seconds`` (exit status 3) leave nothing behind.
Exit status 1 when the gap finder meets a finding that is not a registered ruling.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
from pathlib import Path
from typing import Any, Sequence, TextIO

from tablerules.model import registry
from tablerules.model.core import SetupError, short_ruling_name
from tablerules.proofs import divergence as dv
from tablerules.proofs import gaps as gp
from tablerules.proofs import impact as im

from . import console
from .commandline import add_command, add_json, add_max_seconds, load_components
from .files import check_writable_file, check_writable_folder, write_atomic
from .limits import EXIT_FAIL, EXIT_INCOMPLETE, EXIT_OK, TimeLimit, time_limit
from .schemas import document
from .traces import finding_json, trace_lines, write_itf


def add_parsers(sub: Any) -> None:
    p = add_command(
        sub, "rulings", "find every gap and divergence of a rule set's rulings, with witnesses",
        "Write the rulings report: the gap finder in strict mode, where each pair of a ruling's alternatives "
        "parts (with the shortest witness), the impact of each alternative under uniform random play, and "
        "whether the order of out-of-turn answers matters.",
        ["tablerules rulings dishes", "tablerules rulings dishes --quick --config 2:2x4 --ruling stuck-player",
         "tablerules rulings all --out rulings.md", "tablerules rulings just-desserts --json > rulings.json",
         "tablerules rulings dishes --out-itf gaps/"])
    p.add_argument("ruleset", type=_ruleset_or_all, help="rule set id, or 'all': " + ", ".join(registry.ruleset_ids()))
    p.add_argument("--out", metavar="FILE.md", help="write the report here, in one piece when complete (default: standard output)")
    p.add_argument("--quick", action="store_true", help="smaller budgets (a few seconds per rule set)")
    p.add_argument("--config", action="append", default=[], metavar="PLAYERS[:DECK]",
                   help="search this configuration instead of the model's small ones; repeatable (e.g. 2:3x4 for dishes)")
    p.add_argument("--ruling", action="append", default=[], metavar="ID",
                   help="only this ruling (full or short id) for divergence and impact; repeatable")
    p.add_argument("--write-witnesses", action="store_true",
                   help="rewrite spec/witnesses/<rule set>-<ruling>.json from the divergence search")
    add_max_seconds(p)
    add_json(p, "rulings")
    p.add_argument("--out-itf", metavar="DIR", help="write the shortest trace of every gap finding as an ITF file in DIR")
    p.set_defaults(run=run)


def _ruleset_or_all(text: str) -> str:
    if text != "all" and text not in registry.ENTRIES:
        raise argparse.ArgumentTypeError(f"unknown rule set {text!r} (known: {', '.join(registry.ruleset_ids())}, all)")
    return text


# --------------------------------------------------------------------------- budgets


class Budgets:
    """Counts only (states, pairs, games): the answers do not depend on the machine."""

    def __init__(self, quick: bool, bounded: bool) -> None:
        self.gaps = gp.GapBudget(max_states=100_000 if quick else 300_000)
        self.pairs = dv.PairBudget(max_pairs=8_000 if quick else 15_000)
        # Full-size defaults (no SMALL_CONFIGS): exact is out of reach, and games are long.
        g = 3 if bounded else 1
        self.impact = im.ImpactBudget(max_states=3_000 if quick else 6_000, games=(100 if quick else 300) // g)
        self.race_states = 5_000 if quick else 20_000


# --------------------------------------------------------------------------- configurations


def parse_configs(rules: Any, texts: Sequence[str]) -> list[gp.Config]:
    out = []
    for text in texts:
        players, _, deck = text.partition(":")
        if not (players.isascii() and players.isdigit() and len(players) <= 3):
            raise SetupError(f"--config {text!r}: expected PLAYERS or PLAYERS:DECK, e.g. 2:3x4")
        components = load_components(rules, deck, "--config") if deck else None
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


class Result:
    """Everything one rule set's report shows."""

    def __init__(self, **kw: Any) -> None:
        self.__dict__.update(kw)


def study(ruleset_id: str, args: argparse.Namespace) -> Result:
    """Run the gap finder, the divergence search, the impact measurements and the race check."""
    t0 = time.perf_counter()
    rules, module = gp.load_rules(ruleset_id)
    if args.config:
        configs = gp.Configs(tuple(parse_configs(rules, args.config)), "given with --config", False)
    else:
        configs = gp.small_configs(rules, module)
    budgets = Budgets(args.quick, configs.bounded)
    only = pick_rulings(rules, args.ruling)
    register, spec_problem = gp.load_register(rules.id)

    _stderr(f"rulings {rules.id}: gap finder (strict mode) on {len(configs.configs)} configurations ...")
    factory, close = console.progress_factory()
    try:
        gap_report = gp.find_gaps(rules, configs, register=register, spec_problem=spec_problem, budget=budgets.gaps,
                                  progress=factory, module=module)
    finally:
        close()
    _stderr(f"  {gap_report.summary()} ({gap_report.seconds:.1f} s)")

    _stderr(f"rulings {rules.id}: divergence between alternatives ...")
    t1 = time.perf_counter()
    divs = dv.all_divergences(rules, configs, budget=budgets.pairs, rulings=only, progress=lambda s: _stderr("  " + s))
    _stderr(f"  {sum(len(r.pairs) for r in divs)} pairs in {time.perf_counter() - t1:.1f} s")

    _stderr(f"rulings {rules.id}: impact per alternative ...")
    t1 = time.perf_counter()
    settings = {rd.ruling: (rd.base, rd.base_options) for rd in divs if rd.base}
    workers = min(2, os.cpu_count() or 1)
    impacts = im.all_impacts(rules, configs, budget=budgets.impact, rulings=only, settings=settings, workers=workers,
                             progress=lambda s: _stderr("  " + s))
    _stderr(f"  {sum(len(r.rows) for r in impacts)} rows in {time.perf_counter() - t1:.1f} s")

    race = dv.order_of_resolution(rules, configs, module=module, max_states=budgets.race_states)
    written: list[Path] = []
    if args.write_witnesses:
        written = dv.write_witnesses(rules, divs)
        for p in written:
            _stderr(f"  wrote {p}")
    return Result(rules=rules, configs=configs, register=register, spec_problem=spec_problem, gap_report=gap_report,
                  divs=divs, impacts=impacts, race=race, written=written, seconds=time.perf_counter() - t0,
                  quick=args.quick)


def run(args: argparse.Namespace) -> int:
    ids = registry.ruleset_ids() if args.ruleset == "all" else [args.ruleset]
    if args.out:
        check_writable_file(args.out, "--out")
    out_itf = check_writable_folder(args.out_itf, "--out-itf") if args.out_itf else None
    results: list[Result] = []
    try:
        with time_limit(args.max_seconds):
            for rid in ids:
                try:
                    results.append(study(rid, args))
                except gp.ModelUnavailable as e:
                    if args.ruleset != "all":
                        raise SetupError(f"skipped {e}") from None
                    _stderr(f"tablerules rulings: skipped {e}")
    except TimeLimit:
        _stderr(f"tablerules rulings: incomplete: stopped by the time limit ({args.max_seconds:g} s); nothing written")
        return EXIT_INCOMPLETE
    itf = {}
    for r in results:
        if out_itf:
            itf.update(_write_traces(r, out_itf))
    status = EXIT_OK if all(r.gap_report.ok for r in results) else EXIT_FAIL
    if args.json:
        text = _json_text(results, itf, status)
    else:
        buffer = io.StringIO()
        for r in results:
            write_report(buffer, r.rules, r.configs, r.register, r.spec_problem, r.gap_report, r.divs, r.impacts,
                         r.race, r.written, r.seconds, quick=r.quick, itf=itf)
        text = buffer.getvalue()
    if args.out:
        write_atomic(args.out, text)
        _stderr(f"wrote {args.out}")
    else:
        sys.stdout.write(text)
    return status


def _write_traces(r: Result, folder: Path) -> dict[int, Path]:
    out = {}
    for f in r.gap_report.findings:
        setup = f.config.setup(r.rules, f.options)
        moves = [s.move for s in f.trace] + ([f.move] if f.move is not None else [])
        out[id(f)] = write_itf(folder, f"{r.rules.id}-{f.kind}-{f.key}-{f.config.players}p", r.rules, setup, moves,
                               f"{r.rules.title}: {f.kind} {f.key} on {f.config.label()} ({f.status})", note=f.detail)
    return out


def _json_text(results: list[Result], itf: dict[int, Path], status: int) -> str:
    import json

    return json.dumps(document("rulings", {"rulesets": [_result_json(r, itf) for r in results], "exit_status": status}),
                      indent=2, ensure_ascii=False) + "\n"


def _estimate(e: Any) -> dict[str, Any]:
    return {"value": e.value, "low": e.low, "high": e.high, "exact": None if e.exact is None else str(e.exact)}


def _steps(steps: Sequence[Any]) -> list[dict[str, Any]]:
    return [{"actor": s.actor, "move": s.move, "probability": None if s.probability is None else str(s.probability)}
            for s in steps]


def _result_json(r: Result, itf: dict[int, Path]) -> dict[str, Any]:
    by_ruling = {ri.ruling: ri for ri in r.impacts}
    rulings = []
    for rd in r.divs:
        spec = r.register.get(rd.ruling)
        d = rd.primary()
        witness = None
        if d is not None:
            witness = {"a": d.a, "b": d.b, "configuration": d.config.label(), "setting": rd.base or None,
                       "statement": d.statement(), "moves": _steps(d.steps),
                       "readings": {alt: x["next"] for alt, x in dv.readings_after(r.rules, rd.ruling, d.config,
                                                                                    d.options_a, d.moves).items()}}
        ri = by_ruling.get(rd.ruling)
        rulings.append({
            "ruling": rd.ruling, "question": spec.question if spec else None, "alternatives": list(rd.alternatives),
            "default": rd.alternatives[0], "witness": witness,
            "pairs": [{"a": x.a, "b": x.b, "found": x.found, "kind": x.kind or None, "statement": x.statement(),
                       "moves": len(x.steps) if x.found else None, "search": x.bound()} for x in rd.pairs],
            "impact": [] if ri is None else [{
                "alternative": row.alternative, "configuration": row.config.label(), "method": row.method,
                "note": row.note or None,
                **{k: _estimate(getattr(row, k)) for k in ("length", "first_wins", "first_loses", "tie", "never_ends", "gap")},
            } for row in ri.rows],
        })
    g = r.gap_report
    return {
        "ruleset": r.rules.id, "title": r.rules.title, "configurations": [c.label() for c in r.configs.configs],
        "budgets": "quick" if r.quick else "full", "seconds": round(r.seconds, 3), "spec_problem": r.spec_problem or None,
        "gaps": {
            "ok": g.ok, "summary": g.summary(), "unreached": list(g.unreached),
            "findings": [dict(finding_json(f, itf.get(id(f))), status=f.status, configuration=f.config.label(),
                              setting=f.setting() or None, count=f.count) for f in g.findings],
            "runs": [{"configuration": x.config.label(), "strict": list(x.strict), "coverage": x.coverage,
                      "complete": x.complete, "states": x.states, "graph": x.graph or None, "note": x.note or None}
                     for x in g.runs],
        },
        "rulings": rulings,
        "order_of_resolution": {"applicable": r.race.applicable, "statement": r.race.statement, "matters": r.race.matters,
                                "races": r.race.races, "moves": _steps(r.race.steps),
                                "branches": [{"move": m, "distribution": dist} for m, dist in r.race.branches]},
    }


def write_report(out: TextIO, rules: Any, configs: gp.Configs, register: dict, spec_problem: str,
                 gap_report: gp.GapReport, divs: list[dv.RulingDivergence], impacts: list[im.RulingImpact],
                 race: dv.RaceResult, written: list[Path], seconds: float, quick: bool = False,
                 itf: dict[int, Path] | None = None) -> None:
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
            try:
                start = rules.new_game(f.config.setup(rules, f.options))
            except Exception:  # noqa: BLE001 - a start that raises has no states to show
                start = None
            if start is not None and f.trace:
                w("\n<details><summary>the state at each step</summary>\n\n```text\n")
                w("".join(line + "\n" for line in trace_lines(rules, start, f.trace, f.move, indent="")))
                w("```\n\n</details>\n")
            if itf and id(f) in itf:
                w(f"\nITF trace: `{itf[id(f)]}`\n")
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
