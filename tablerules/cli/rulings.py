"""`tablerules rulings RULESET`: the report a rules editor reads.

The mutation coverage first (does the text, as the properties state it, decide every branch
of the model? tablerules.proofs.discovery.mutation); an executive summary (rulings, gaps, unregistered decisions,
witnesses, clauses that
are readings); then the gap finder's findings and the *unregistered decisions* (decision
points of the model that name no clause or ruling: proofs/discovery/decisions.py), each with its
shortest trace (the state at each step, and with ``--out-itf`` an ITF file); then, per
ruling, the question, the witness (the deal summarised in one line, then the numbered moves,
then what each reading does next), where every pair of alternatives parts, and the impact
rows where the ruling can matter; for rule sets the exact engine solves, the exact impact of
every alternative on the boxed game (spec/solved/); last, whether the order of out-of-turn
answers matters.  ``--json`` writes the same content as one JSON document.

Every budget counts states, pairs or games, so the same inputs give the same report
(timings aside).  The report is written only when complete, in one piece (``--out``):
Ctrl-C (exit status 130) or ``--max-seconds`` (exit status 3) leave nothing behind.
Exit status 1 when the gap finder meets a finding that is not a registered ruling or the
decision-point tool an unregistered decision.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence, TextIO

from tablerules.model import registry
from tablerules.model.core import STRICT, SetupError, short_ruling_name
from tablerules.proofs.discovery import decisions as dp
from tablerules.proofs.discovery import divergence as dv
from tablerules.proofs.discovery import gaps as gp
from tablerules.proofs.discovery import impact as im
from tablerules.proofs.just_desserts import retail_impact as rim
from tablerules.proofs.discovery.mutation.coverage import Coverage, CoverageBudget, run_coverage
from tablerules.proofs.discovery.mutation.mutants import STEP_API_FILES

from .. import console
from ..console import plural
from .common import (
    add_seed, reproduce_line, add_command, add_json, add_max_seconds, load_components, max_seconds_statuses,
    measured, named_text,
)
from tablerules.proofs.files import check_writable_file, check_writable_folder, write_atomic
from ..limits import EXIT_FAIL, EXIT_INCOMPLETE, EXIT_OK, TimeLimit, time_limit
from ..schemas import document
from ..vectors.traces import finding_json, receivers, seat_views, trace_lines, write_itf

TIMES = ("the full report, " + measured("2026-12-03", "with other jobs running") + ": "
         "just-desserts 2,165 s (1,457 s of it the retail deck), just-desserts-2.3 327 s (277 s the retail deck); "
         "and on 2026-12-02: dishes 86 s (no retail deck)")


def add_parsers(sub: Any) -> None:
    p = add_command(
        sub, "rulings", "find every gap and divergence of a rule set's rulings, with witnesses",
        "Write the rulings report: the gap finder in strict mode, where each pair of a ruling's alternatives "
        "parts (with the shortest witness), the impact of each alternative under uniform random play, and "
        "whether the order of out-of-turn answers matters.  For the two Just Desserts rule sets the full report "
        "also measures every alternative on the retail deck (--retail-deck FILE or $TABLERULES_RETAIL_DECK): "
        "100,000 random games per alternative with 95% intervals, or a note that it was not measured.",
        ["tablerules rulings dishes", "tablerules rulings dishes --quick --config 2:2x4 --ruling stuck-player",
         "tablerules rulings all --out rulings.md", "tablerules rulings just-desserts --json > rulings.json",
         "tablerules rulings dishes --out-itf gaps/",
         "tablerules rulings just-desserts --retail-deck just_desserts_2015_deck.json --out rulings.md"],
        f"Time: {TIMES}.",
        statuses=max_seconds_statuses("an unregistered gap, an unregistered decision point or an unregistered "
                                      "uncovered "
                                      "mutant"))
    p.add_argument("ruleset", type=_ruleset_or_all, help="rule set id, or 'all': " + ", ".join(registry.ruleset_ids()))
    p.add_argument(
        "--out", metavar="FILE.md", help="write the report here, in one piece when complete (default: standard output)"
    )
    p.add_argument("--quick", action="store_true",
                   help="smaller budgets and no mutation coverage (" + measured("2026-12-02", "with nothing else "
                        "running") + ": just-desserts 56 s, dishes 10 s, just-desserts-2.3 7 s)")
    p.add_argument(
        "--config", action="append", default=[], metavar="PLAYERS[:DECK]",
        help="search this configuration instead of the model's small ones; repeatable (e.g. 2:3x4 for dishes)",
    )
    p.add_argument("--ruling", action="append", default=[], metavar="ID",
                   help="only this ruling (full or short id) for divergence and impact; repeatable")
    p.add_argument("--retail-deck", metavar="FILE", type=named_text,
                   help="also measure every ruling's impact on this deck (the retail card list) in the full report, "
                        f"{rim.RetailBudget().games:,} random games per alternative (default: $TABLERULES_RETAIL_DECK; "
                        "not with --quick)")
    p.add_argument("--retail-games", type=_games, default=rim.RetailBudget().games, metavar="N",
                   help="random games per alternative on the retail deck where the compiled playout plays it "
                        "(default %(default)s; the step API plays a hundredth as many)")
    p.add_argument("--write-witnesses", action="store_true",
                   help="rewrite spec/witnesses/<rule set>-<ruling>.json from the divergence search")
    add_seed(p, 1, "the sampled impact rows (and, plus 2014, of the retail games: 2015 by default), and the random "
                   "games that probe for gaps, partings and decision points")
    add_max_seconds(p)
    add_json(p, "rulings")
    p.add_argument(
        "--out-itf", metavar="DIR", help="write the shortest trace of every gap finding as an ITF file in DIR"
    )
    p.set_defaults(run=run)


def _games(text: str) -> int:
    if not (text.isascii() and text.isdigit() and 0 < len(text) <= 9 and int(text) > 0):
        raise argparse.ArgumentTypeError(f"expected a whole number of games from 1 to 999,999,999, not {text!r}")
    return int(text)


RETAIL_SEED_OFFSET = 2014
"""The retail games' seed is --seed plus this (2015 with the default --seed 1, the seed they always had)."""


def found_by_counts(spec: Any) -> dict[str, int]:
    """Rulings by how they were found (:meth:`Ruling.how_found`), and how many an independent reading found again."""
    kinds = [r.how_found() for r in spec.rulings.values()]
    return {"discovered": kinds.count("discovered"), "switch": kinds.count("switch"), "reading": kinds.count("reading"),
            "found_again_by_readings": sum(1 for r in spec.rulings.values() if r.found_again_by)}


def found_by_json(ruleset_id: str) -> dict[str, Any] | None:
    from tablerules.spec.loader import SpecError, load_spec

    try:
        spec = load_spec(ruleset_id)
    except SpecError:
        return None
    return {**found_by_counts(spec),
            "rulings": {rid: {"kind": r.how_found(), "found_by": r.found_by, "found_again_by": list(r.found_again_by)}
                        for rid, r in spec.rulings.items()}}


def retail_budget(games: int, seed: int = 1) -> rim.RetailBudget:
    """The retail budget for ``games`` per alternative: a hundredth through the step API, and a tenth (at most
    300) to probe which rulings the model reads; seeded by --seed ``seed``."""
    return rim.RetailBudget(games=games, step_games=max(1, games // 100), probe_games=min(300, max(10, games // 10)),
                            seed=seed + RETAIL_SEED_OFFSET)


RETAIL_RULESETS = ("just-desserts", "just-desserts-2.3")
"""The rule sets the retail card list is a deck of."""


def load_retail(args: argparse.Namespace) -> tuple[Any, str] | None:
    """The retail deck (``--retail-deck``, else $TABLERULES_RETAIL_DECK) and its file name, or None if neither
    is given; SetupError (one line) for a file that is missing or not a deck."""
    from tablerules.model.decks import load_deck

    path = args.retail_deck if args.retail_deck is not None else os.environ.get("TABLERULES_RETAIL_DECK") or None
    if path is None:
        return None
    option = "--retail-deck" if args.retail_deck is not None else "TABLERULES_RETAIL_DECK"
    if not Path(path).exists():  # a pipe or a folder: load_deck names what it is
        raise SetupError(f"{option} {path!r}: no such file")
    try:
        return load_deck(path, name="retail-2015"), Path(path).name
    except SetupError as e:
        raise SetupError(f"{option}: {e}") from None


def _ruleset_or_all(text: str) -> str:
    if text != "all" and text not in registry.ENTRIES:
        raise argparse.ArgumentTypeError(f"unknown rule set {text!r} (known: {', '.join(registry.ruleset_ids())}, all)")
    return text


# --------------------------------------------------------------------------- budgets


class Budgets:
    """Counts only (states, pairs, games): the answers do not depend on the machine."""

    def __init__(self, quick: bool, bounded: bool, seed: int = 1) -> None:
        self.gaps = gp.GapBudget(max_states=3_000 if quick else 300_000, seed=seed)
        self.pairs = (dv.PairBudget(max_pairs=800, probe_games=3, witness_games=10, seed=seed) if quick
                      else dv.PairBudget(max_pairs=15_000, seed=seed))
        # Full-size defaults (no SMALL_CONFIGS): exact is out of reach, and games are long.
        g = 3 if bounded else 1
        self.impact = im.ImpactBudget(
            max_states=1_000 if quick else 6_000, games=(60 if quick else 300) // g, seed=seed
        )
        self.race_states = 2_000 if quick else 20_000
        self.decisions = dp.DecisionBudget(states=100 if quick else 600, games=2 if quick else 8, seed=seed)
        self.coverage = not quick
        """The mutation coverage runs in the full report only (`tablerules check` runs a fixed subset)."""


# --------------------------------------------------------------------------- configurations


def parse_configs(rules: Any, texts: Sequence[str]) -> list[gp.Config]:
    out = []
    for text in texts:
        players, colon, deck = text.partition(":")
        if not (players.isascii() and players.isdigit() and len(players) <= 3):
            raise SetupError(f"--config {text!r}: expected PLAYERS or PLAYERS:DECK, e.g. 2:3x4")
        components = load_components(rules, deck, "--config") if colon else None
        config = gp.Config(
            int(players), components if components is not None else rules.default_components(), deck or None
        )
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


DEAL_RUN = 3
"""A trace that opens with at least this many chance events shows them as one line (the deal)."""


def deal_summary(steps: Sequence[Any], who: Sequence[tuple[int, ...]] | None = None) -> tuple[int, str]:
    """(how many opening chance events, one line naming them) or (0, "") when there are fewer
    than DEAL_RUN.  With ``who`` (per step, the seats that received it: traces.receivers) the
    line says what each seat received, then what went face up for all to see."""
    n = 0
    while n < len(steps) and steps[n].actor == "CHANCE":
        n += 1
    if n < DEAL_RUN:
        return 0, ""
    groups: dict[str, dict[str, int]] = {}
    for i, st in enumerate(steps[:n]):
        seats = who[i] if who is not None and i < len(who) else None
        key = "" if seats is None else ("face up" if not seats else "seat " + "+".join(map(str, seats)) + " gets")
        counts = groups.setdefault(key, {})
        counts[st.move] = counts.get(st.move, 0) + 1
    order = sorted(groups, key=lambda k: (k == "face up", k))
    return n, "; ".join((f"{k}: " if k else "") + ", ".join(m if c == 1 else f"{m} ×{c}" for m, c in groups[k].items())
                        for k in order)


def steps_md(steps: Sequence[Any], raises: str | None = None, who: Sequence[tuple[int, ...]] | None = None) -> str:
    """The trace as a numbered list; the opening chance events (the deal) in one line; with
    ``who``, each chance step names the seats that received it."""
    if not steps and raises is None:
        return "(no move: at the start)\n"
    n, deal = deal_summary(steps, who)
    lines = [f"1-{n}. the deal ({n} chance events): {deal}"] if n else []
    for i, st in enumerate(steps, 1):
        if i > n:
            seats = who[i - 1] if who is not None and i - 1 < len(who) and st.actor == "CHANCE" else ()
            lines.append(f"{i}. {st.text()}" + (f" → seat {'+'.join(map(str, seats))}" if seats else ""))
    if raises is not None:
        lines.append(f"{len(steps) + 1}. {raises} ← raises here")
    return "\n".join(lines) + "\n"


def witness_states(rules: Any, config: Any, options: Any, moves: Sequence[str]) -> list[Any] | None:
    """The states along a witness's moves under one reading, or None where they do not replay."""
    try:
        state = dv.start_state(rules, config, options)
        if isinstance(state, dv.Raised):  # a reading that raises at the deal: no state to show
            return None
        states = [state]
        for text in moves:
            state = rules.apply(state, rules.parse_move(text, state.setup))
            states.append(state)
    except Exception:  # noqa: BLE001 - a reading that leaves the trace: the trace is shown without the views
        return None
    return states


def steps_json(steps: Sequence[Any]) -> list[dict[str, Any]]:
    return [
        {"actor": s.actor, "move": s.move, **({"probability": str(s.probability)} if s.probability is not None else {})}
        for s in steps
    ]


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- the report


def study(ruleset_id: str, args: argparse.Namespace) -> "Report":
    """Run the gap finder, the divergence search, the impact measurements, the race check and
    the decision-point tool."""
    t0 = time.perf_counter()
    rules, module = gp.load_rules(ruleset_id)
    if args.config:
        configs = gp.Configs(tuple(parse_configs(rules, args.config)), "given with --config", False)
    else:
        configs = gp.small_configs(rules, module)
    budgets = Budgets(args.quick, configs.bounded, getattr(args, "seed", 1))
    only = pick_rulings(rules, args.ruling)
    register, spec_problem = gp.load_register(rules.id)

    coverage = None
    if rules.id in STEP_API_FILES and budgets.coverage:  # a rule set of ours (a test's toy has no step API files)
        _stderr(f"rulings {rules.id}: mutation coverage ...")
        coverage = run_coverage(rules.id, CoverageBudget(), progress=lambda s: _stderr("  " + s))
        _stderr(f"  {coverage.counts()['mutants']} mutants, {coverage.counts()['uncovered and unregistered']} "
                f"uncovered and unregistered ({coverage.seconds:.0f} s)")

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

    retail = _retail(rules, args, only, workers)

    race = dv.order_of_resolution(rules, configs, module=module, max_states=budgets.race_states)

    decisions = None
    if rules.id in registry.ENTRIES:
        _stderr(f"rulings {rules.id}: decision points of the model under line tracing ...")
        decisions = dp.explore_decisions([rules.id], budgets.decisions)
        _stderr(f"  {decisions.summary()}")

    written: list[Path] = []
    if args.write_witnesses:
        written = dv.write_witnesses(rules, divs)
        for p in written:
            _stderr(f"  wrote {p}")
    return Report(rules, configs, register, spec_problem, gap_report, divs, impacts, race, written, decisions,
                  time.perf_counter() - t0, args.quick, solved=_solved(rules), coverage=coverage, retail=retail,
                  reproduce=reproduce_line(args) if hasattr(args, "seed") else "")


def _retail(rules: Any, args: argparse.Namespace, only: list[str] | None, workers: int) -> rim.RetailImpact | None:
    """The impact on the retail deck (full report, deck given), or why it was not measured; None for a rule
    set the retail deck is not a deck of."""
    if rules.id not in RETAIL_RULESETS:
        return None
    budget = retail_budget(args.retail_games, getattr(args, "seed", 1))
    deck = getattr(args, "retail", None)
    if args.quick:
        return rim.not_measured("", "not measured with --quick (the full report plays "
                                f"{budget.games:,} games per alternative)", budget)
    if deck is None:
        return rim.not_measured("", "not measured: no retail deck given (--retail-deck FILE or "
                                "TABLERULES_RETAIL_DECK); the retail card list is not shipped with the project", budget)
    _stderr(f"rulings {rules.id}: impact on the retail deck ({budget.text()}) ...")
    out = rim.all_retail(rules, deck[0], deck[1], budget, rulings=only, workers=workers, progress=_stderr)
    _stderr(f"  {len(out.rows) + len(out.defaults)} rows in {out.seconds:.0f} s")
    return out




def _solved(rules: Any) -> dict | None:
    """The exact engine's results for every finite alternative of the boxed game, where kept."""
    from tablerules.proofs.exact import impact as exact_impact

    if registry.ENTRIES.get(rules.id) is None or registry.ENTRIES[rules.id].kernel is None:
        return None
    return exact_impact.load(rules.id, 2, rules.default_components())


def run(args: argparse.Namespace) -> int:
    ids = registry.ruleset_ids() if args.ruleset == "all" else [args.ruleset]
    if args.out:
        check_writable_file(args.out, "--out")
    out_itf = check_writable_folder(args.out_itf, "--out-itf") if args.out_itf else None
    wants_retail = not args.quick and any(rid in RETAIL_RULESETS for rid in ids)
    args.retail = load_retail(args) if wants_retail or args.retail_deck else None  # a bad file fails at once
    results: list[Report] = []
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
    for r in results:
        if out_itf:
            r.itf.update(_write_traces(r, out_itf))
    status = (
        EXIT_OK
        if all(
            r.gaps.ok and not r.unregistered_decisions() and not (r.coverage and r.coverage.unregistered())
            for r in results
        )
        else EXIT_FAIL
    )
    if args.json:
        import json

        text = json.dumps(document("rulings", {"rulesets": [r.to_json() for r in results], "exit_status": status}),
                          indent=2, ensure_ascii=False, default=str) + "\n"
    else:
        buffer = io.StringIO()
        for r in results:
            write_report(buffer, r)
        text = buffer.getvalue()
    if args.out:
        write_atomic(args.out, text)
        _stderr(f"wrote {args.out}")
    else:
        sys.stdout.write(text)
    return status


def _write_traces(r: "Report", folder: Path) -> dict[int, Path]:
    out = {}
    for f in r.gaps.findings:
        setup = f.config.setup(r.rules, f.options)
        moves = [s.move for s in f.trace] + ([f.move] if f.move is not None else [])
        out[id(f)] = write_itf(folder, f"{r.rules.id}-{f.kind}-{f.key}-{f.config.players}p", r.rules, setup, moves,
                               f"{r.rules.title}: {f.kind} {f.key} on {f.config.label()} ({f.status})", note=f.detail)
    return out


@dataclass
class Report:
    """Everything one rule set's rulings report shows (Markdown or JSON)."""

    rules: Any
    configs: gp.Configs
    register: dict
    spec_problem: str
    gaps: gp.GapReport
    divs: list[dv.RulingDivergence]
    impacts: list[im.RulingImpact]
    race: dv.RaceResult
    written: list[Path]
    decisions: dp.DecisionReport | None
    seconds: float
    quick: bool = False
    solved: dict | None = None
    """The exact engine's impact of every finite alternative on the boxed game (spec/solved/)."""
    itf: dict[int, Path] = field(default_factory=dict)
    """Gap finding (by id) -> the ITF file its trace was written to (``--out-itf``)."""
    coverage: Coverage | None = None
    """Mutation coverage of the model (tablerules mutants): the report opens with it."""
    retail: rim.RetailImpact | None = None
    """The impact of every alternative on the retail deck, or why it was not measured (None: no retail deck)."""
    reproduce: str = ""
    """The command line that gives the same sampled figures (its seed spelled out)."""

    def unregistered_decisions(self) -> list[dp.DecisionFinding]:
        if self.decisions is None:
            return []
        return [f for f in self.decisions.findings if f.kind in (dp.UNREGISTERED, dp.SPECIAL, dp.UNKNOWN)]

    def pending(self) -> list[str]:
        return [rid for rid, r in self.register.items() if getattr(r, "pending", "")]

    def witnesses(self) -> dict[str, str]:
        """Ruling id -> the witness on file: `FILE (N moves)`, `FILE (proof)` or `none`."""
        out = {}
        on_file = {p.name: p for p in dv.witness_paths(self.rules.id)}
        for rd in self.divs:
            name = dv.witness_name(self.rules.id, rd.ruling)
            path = on_file.get(name)
            if path is None:
                out[rd.ruling] = "none"
                continue
            doc = dv.read_witness(path)
            out[rd.ruling] = f"{name} (proof)" if "never_part" in doc else f"{name} ({len(doc['moves'])} moves)"
        return out

    def summary_rows(self) -> list[tuple[str, str]]:
        from tablerules.spec.loader import SpecError, load_spec

        rows = []
        implemented = len(self.divs)
        pending = self.pending()
        rows.append(("rulings", f"{implemented + len(pending)} registered: {implemented} with an Options field"
                     + (f", {len(pending)} pending (no Options field yet)" if pending else "")))
        found = [rd for rd in self.divs if rd.primary() is not None]
        proofs = [rd for rd in self.divs if rd.primary() is None and rd.never_part()]
        rows.append(("where alternatives part", f"{len(found)} rulings with a trace where two alternatives part, "
                     f"{len(proofs)} proved never to part on the stated configurations, "
                     f"{implemented - len(found) - len(proofs)} with neither within the bound"))
        files = self.witnesses()
        rows.append(("witness files", f"{sum(1 for v in files.values() if v != 'none')} of {implemented} rulings "
                     f"have one in spec/witnesses"))
        reg = sum(1 for f in self.gaps.findings if f.status == gp.REGISTERED)
        rows.append(("gaps (strict mode)", f"{reg} registered, {len(self.gaps.unregistered)} unregistered"))
        if self.decisions is not None:
            d = self.decisions
            rows.append(("unregistered decisions", f"{d.count(dp.UNREGISTERED)} decision points of the model name no "
                                                   f"clause "
                         f"or ruling; {d.count(dp.SPECIAL)} special cases without a ruling; {d.count(dp.UNKNOWN)} "
                         f"unknown ids"))
        try:
            spec = load_spec(self.rules.id)
            readings = sum(1 for c in spec.clauses.values() if c.basis == "reading")
            rows.append(
                (
                    "clauses",
                    f"{len(spec.clauses)}: {len(spec.clauses) - readings} state the text, {readings} are readings",
                )
            )
        except SpecError:
            pass
        try:
            counts = found_by_counts(load_spec(self.rules.id))
            rows.append(("how the rulings were found",
                         f"{counts['discovered']} by a command that did not know the question, "
                         f"{counts['switch']} only confirm a switch written beforehand, "
                         f"{counts['reading']} by reading; "
                         f"{counts['found_again_by_readings']} found again by an independent reading"))
        except SpecError:
            pass
        rows.append(("order of out-of-turn answers", self.race.statement))
        weights = self.weights()
        if weights:
            rows.append(("statistics weigh chance by", weights))
        return rows

    def weights(self) -> str:
        """Which alternative of each ruling that weighs chance (jd23.ruling.race-odds) the statistics used."""
        if not im.chance_weights(self.rules):
            return ""
        default = im.weights_used(self.rules, self.rules.Options())
        return (f"{default} (the default) unless an impact table says otherwise; the checks branch on every "
                "chance outcome whatever the odds")

    def to_json(self) -> dict[str, Any]:
        def div_json(d: dv.Divergence) -> dict[str, Any]:
            return {"a": d.a, "b": d.b, "found": d.found, "kind": d.kind, "shortest": d.shortest,
                    "configuration": d.config.label() if d.config else None, "moves": d.moves, "search": d.bound(),
                    "statement": d.statement()}

        by_ruling = {ri.ruling: ri for ri in self.impacts}
        rulings = []
        files = self.witnesses()
        for rd in self.divs:
            spec = self.register.get(rd.ruling)
            w = rd.primary()
            rulings.append({
                "id": rd.ruling, "question": spec.question if spec else None, "alternatives": list(rd.alternatives),
                "default": rd.alternatives[0], "setting": rd.base or None,
                "witness": None if w is None else {**div_json(w), "steps": steps_json(w.steps)},
                "never_part": rd.never_part(), "witness_file": files.get(rd.ruling),
                "pairs": [div_json(d) for d in rd.pairs],
                "impact": [dict(zip(im.HEADER, r.row()), note=r.note, **({"weights": r.weights} if r.weights else {}))
                           for r in shown_rows(by_ruling[rd.ruling])]
                if rd.ruling in by_ruling else [],
            })
        return {
            "ruleset": self.rules.id, "title": self.rules.title,
            "configurations": [c.label() for c in self.configs.configs], "budgets": "quick" if self.quick else "full",
            "coverage": None
            if self.coverage is None
            else {
                "counts": self.coverage.counts(), "budget": self.coverage.budget.text(),
                "complete": self.coverage.complete,
                "uncovered": [
                    {
                        k: v
                        for k, v in r.to_json().items()
                        if k in ("id", "where", "change", "run", "trace", "detail", "triage", "ruling", "alternative")
                    }
                    for r in self.coverage.results
                    if r.verdict.verdict == "uncovered"
                ],
            },
            "summary": dict(self.summary_rows()),
            "found_by": found_by_json(self.rules.id),
            "pending_rulings": self.pending(),
            "seconds": round(self.seconds, 3),
            "spec_problem": self.spec_problem or None,
            "gaps": {
                "ok": self.gaps.ok, "summary": self.gaps.summary(), "unreached": list(self.gaps.unreached),
                "findings": [
                    dict(
                        finding_json(f, self.itf.get(id(f))), status=f.status, configuration=f.config.label(),
                        setting=f.setting() or None, count=f.count, steps=steps_json(f.trace), raises_at=f.move,
                    )
                    for f in self.gaps.findings
                ],
            },
            "exact_impact": self.solved,
            "decisions": None
            if self.decisions is None
            else {
                "summary": self.decisions.summary(),
                "findings": [f.to_json() for f in self.decisions.findings if f.kind != dp.UNREACHED],
            },
            "rulings": rulings,
            "retail_impact": None if self.retail is None else retail_json(self.retail),
            "statistics_weigh_chance_by": self.weights() or None,
            "order_of_resolution": {
                "statement": self.race.statement, "matters": self.race.matters, "steps": steps_json(self.race.steps),
                "branches": [{"move": m, "outcome": t} for m, t in self.race.branches],
            },
        }


def shown_rows(ri: im.RulingImpact) -> list[im.Impact]:
    """The impact rows where the ruling can matter: not where the model never consults it, and
    not a configuration where every alternative gives the same numbers."""
    by_config: dict[str, list[im.Impact]] = {}
    for r in ri.rows:
        by_config.setdefault(r.config.label(), []).append(r)
    out = []
    for rows in by_config.values():
        live = [r for r in rows if not r.note.startswith("same game")]
        if len(live) <= 1 or len({tuple(r.row()[3:]) for r in live}) == 1:
            continue
        out += live
    return out


def write_coverage(out: TextIO, c: Coverage) -> None:
    """The report's opening: does the text, as the properties state it, decide every branch?"""
    from .mutants import COLUMNS
    from tablerules.proofs.discovery.mutation.mutants import short_id

    w = out.write
    counts = c.counts()
    w("## Mutation coverage\n\n")
    w(md_table(COLUMNS, [[f"{counts[k]:,}" for k in COLUMNS]]))
    w(f"\nA mutant is one change at one decision point of the model's step API; *killed*: a text property, an "
      f"example or an invariant rejects it ({counts['crashed']} of them crash the model); *equivalent*: nothing the "
      f"API shows changes; *uncovered*: play changes and nothing notices, so the text as stated does not decide "
      f"that branch. Budget: {c.budget.text()}"
      + ("" if c.complete else "; INCOMPLETE") + f". Again: `tablerules mutants {c.ruleset}`.\n\n")
    rows = []
    for r in c.results:
        if r.verdict.verdict != "uncovered":
            continue
        m = r.source.mutant
        triage = (f"plays as `{r.ruling}` = {r.alternative}" if r.triage == "plays as an alternative"
                  else f"registered: `{r.ruling}`" if r.triage == "registered" else "**unregistered**")
        rows.append((f"`{short_id(m.id)}`", f"{m.where}", m.description[:60], f"{len(r.verdict.trace)} steps on "
                     f"{r.verdict.run}: {r.verdict.detail[:70]}", triage))
    if rows:
        w(md_table(("mutant", "where", "change", "where it parts", "triage"), rows))
        w("\n")


def first_sentence(text: str) -> str:
    """The text up to its first full stop followed by a space (all of it if there is none)."""
    head, dot, _ = text.partition(". ")
    return head + "." if dot else text


def glance_rows(r: "Report") -> list[tuple[str, ...]]:
    """One row per ruling: id, question, default and why, sources, how found, the witness where two readings part."""
    divs = {rd.ruling: rd for rd in r.divs}
    rows = []
    for rid, spec in r.register.items():
        rd = divs.get(rid)
        found = [d for d in rd.pairs if d.found] if rd is not None else []
        real = [d for d in found if STRICT not in (d.a, d.b)]
        gap = [d for d in found if STRICT in (d.a, d.b)]
        parts = []
        if real:
            d = min(real, key=lambda d: len(d.steps))
            parts.append(f"{plural(len(d.steps), 'move')} (`{d.a}` / `{d.b}`)")
        if gap:
            parts.append(f"`strict` raises after {plural(min(len(d.steps) for d in gap), 'move')}")
        if parts:
            witness = "; ".join(parts)
        elif rd is not None and rd.never_part():
            witness = "proved never to part"
        else:
            witness = "none within the bound" if rd is not None else "not searched"
        rows.append((f"`{short_ruling_name(rid)}`", spec.question, f"`{spec.default}`: {first_sentence(spec.reason)}",
                     first_sentence(spec.public_sources) if spec.public_sources else "the rulebook alone",
                     spec.found_by, witness))
    return rows


def write_glance(w: Any, r: "Report") -> None:
    """The report's first page: every ruling in one line (details under *Rulings*)."""
    w("## Every ruling at a glance\n\n")
    w("Per ruling: the question; the default and why (the first sentence of its reason); sources beyond the "
      "rulebook; how the ruling was found; the trace where two of its readings part (moves from the deal, chance "
      "outcomes counted), found by the searches below.  `tablerules explain ID` shows any of them whole.\n\n")
    w(md_table(("ruling", "question", "default: why", "sources", "found by", "where readings part"), glance_rows(r)))
    w("\n")


def write_report(out: TextIO, r: Report) -> None:
    w = out.write
    rules = r.rules
    w(f"# Rulings: {rules.title} (`{rules.id}`)\n\n")
    write_glance(w, r)
    if r.coverage is not None:
        write_coverage(out, r.coverage)
    elif r.quick and rules.id in STEP_API_FILES:
        w("## Mutation coverage\n\nNot run with `--quick`: the full report runs it (`tablerules mutants "
          f"{rules.id}` alone; `tablerules check` runs a fixed subset).\n\n")
    w("## Summary\n\n")
    w(md_table(("", ""), r.summary_rows()))
    w(f"\nConfigurations ({r.configs.source}): " + "; ".join(c.label() for c in r.configs.configs) + ". ")
    w("Every other ruling stays at its default while one ruling's alternatives are compared; a pair that does not "
      "part there is searched again with more players and on the other teaching decks.")
    w(f" Budgets: {'quick' if r.quick else 'full'}; {r.seconds:.0f} s in all.\n\n")
    w("Impact tables are for the seat that moves first under uniform random play: exact over the chance tree where "
      "small, else sampled with a 95% interval; the five outcome columns are separate outcomes and add up to 100%. "
      "A table appears only where the alternatives give different numbers.")
    if r.weights():
        w(f" Statistics weigh chance by {r.weights()}.")
    w("\n\n")
    if r.reproduce:
        w(f"Sampled figures (impact rows, retail games) come again with the same seed:\n\n    {r.reproduce}\n\n")
    if r.spec_problem:
        w(f"**Spec problem:** {r.spec_problem}\n\n")
    if r.pending():
        w("Registered without an Options field yet (the model follows the default): "
          + ", ".join(f"`{short_ruling_name(x)}`" for x in r.pending()) + ".\n\n")

    w("## Gap finder (strict mode)\n\n")
    w(f"{r.gaps.summary()}.\n\n")
    if r.gaps.findings:
        w(
            md_table(
                ("finding", "status", "where", "configuration", "other rulings changed", "detail"),
                [
                    (f.title(), f.status, f.where(), f.config.label(), f.setting() or "-", f.detail)
                    for f in r.gaps.findings
                ],
            )
        )
        for f in r.gaps.findings:
            setting = f", with {f.setting()}" if f.setting() else ""
            w(f"\n**{f.title()}** ({f.status}; met {console.plural(f.count, 'time')}) — shortest trace on "
              f"{f.config.label()}{setting}:\n\n")
            states = witness_states(rules, f.config, f.options, [st.move for st in f.trace])
            w(steps_md(f.trace, f.move, who=receivers(rules, states) if states else None))
            _states(w, rules, f)
            if id(f) in r.itf:
                w(f"\nITF trace: `{r.itf[id(f)]}`\n")
    if r.gaps.unreached:
        w("\nStrict alternatives never reached in these configurations: " + ", ".join(r.gaps.unreached) + ".\n")


    if r.decisions is not None:
        w("\n## Unregistered decisions\n\n")
        w(f"{r.decisions.summary()}.\n\n")
        for f in r.unregistered_decisions():
            w(f"**{f.kind}** at `{f.point.where}` (`{f.point.function}`): `{f.point.source}` — {f.detail}.")
            if f.reach is not None:
                how = "shortest trace" if f.reach.shortest else "trace (random game)"
                w(f" {how} on {f.reach.config}, {f.reach.setting}, while asking for {f.reach.during}:\n\n")
                w(steps_md(f.reach.steps))
            w("\n")

    w("\n## Rulings\n")
    by_ruling = {ri.ruling: ri for ri in r.impacts}
    files = r.witnesses()
    for rd in r.divs:
        spec = r.register.get(rd.ruling)
        w(f"\n### {rd.ruling}\n\n")
        w(f"**Question.** {spec.question if spec else '(not in the spec register)'}\n\n")
        w(
            "**Alternatives.** "
            + ", ".join(f"`{a}`" + (" (default)" if i == 0 else "") for i, a in enumerate(rd.alternatives))
            + ".\n\n"
        )
        d = rd.primary()
        if rd.base:
            w(f"Under the defaults no two alternatives differ; they do once `{rd.base}`, so the pairs below are "
              f"searched "
              "with that setting.\n\n")
        if d is None and rd.never_part():
            w(
                "**Proof.** No two alternatives differ in anything a player sees on "
                + "; ".join(c.label() for c in rd.configs)
                + " (every reachable pair of states compared).\n\n"
            )
        elif d is None:
            w("**Witness.** None within the bound: " + "; ".join(x.bound() for x in rd.pairs[:1]) + ".\n\n")
        else:
            setting = f" with `{rd.base}`" if rd.base else ""
            kind = "shortest trace" if d.shortest else "a trace from a random game (not the shortest)"
            w(f"**Witness** (`{d.a}` against `{d.b}`{setting}, {d.config.label()}, {kind}): {d.statement()}.\n\n")
            states = witness_states(rules, d.config, d.options_a, d.moves)
            w(steps_md(d.steps, who=receivers(rules, states) if states else None))
            views = [v for v in seat_views(rules, states[-1]) if not v.endswith(": ")] if states else []
            if views:
                w(
                    "\nWhere they part, each seat holds and may do (the all-seeing view; the rest of the table is "
                    "public):\n\n"
                )
                w("".join(f"- {v}\n" for v in views))
            w("\nWhat each reading does next:\n\n")
            for alt, nxt in dv.readings_after(rules, rd.ruling, d.config, d.options_a, d.moves).items():
                w(f"- `{alt}`: {nxt['next']}\n")
            w("\n")
        w(f"Witness file: {files.get(rd.ruling, 'none')}.\n\n")
        if len(rd.pairs) > 1:
            w(md_table(("alternatives", "where they part"), [(f"{x.a} / {x.b}", x.short()) for x in rd.pairs]))
        ri = by_ruling.get(rd.ruling)
        if ri is not None:
            rows = shown_rows(ri)
            if rows:
                w("\nImpact:\n\n")
                w(md_table(im.HEADER, [x.row() for x in rows]))
                notes = sorted({x.note for x in rows if x.note})
                weights = sorted({x.weights for x in rows if x.weights})
                if len(weights) == 1:
                    notes.append(f"statistics weigh chance by {weights[0]}")
                elif weights:
                    notes.append("statistics weigh chance by each row's own: " + "; ".join(
                        sorted({f"{x.alternative} rows by {x.weights}" for x in rows})))
                if notes:
                    w("\n" + "".join(f"- {n}\n" for n in notes))
            else:
                w("\nImpact: the same numbers under every alternative on every configuration measured "
                  "(the ruling is never consulted there, or changes nothing the measures see).\n")
    if r.retail is not None:
        write_retail(w, r.retail)
    if r.solved is not None:
        _exact_impact(w, r.solved)
    w("\n## Order of resolution\n\n")
    w(r.race.statement + ".\n")
    if r.race.branches and r.weights():
        w(f"\nThe odds below weigh chance by {im.weights_used(rules, rules.Options())}.\n")
    if r.race.steps:
        states = witness_states(rules, r.race.config, rules.Options(), [st.move for st in r.race.steps]) \
            if r.race.config is not None else None
        w("\n" + steps_md(r.race.steps, who=receivers(rules, states) if states else None) + "\n")
        for move, dist in r.race.branches:
            w(f"- `{move}`: {dist}\n")
    if r.written:
        w("\n## Witness files written\n\n" + "".join(f"- `{p.name}`\n" for p in r.written))


def _states(w: Any, rules: Any, f: Any) -> None:
    """The state at each step of a gap finding's trace (folded away in Markdown)."""
    try:
        start = rules.new_game(f.config.setup(rules, f.options))
    except Exception:  # noqa: BLE001 - a start that raises has no states to show
        return
    if f.trace:
        w("\n<details><summary>the state at each step</summary>\n\n```text\n")
        w("".join(line + "\n" for line in trace_lines(rules, start, f.trace, f.move, indent="")))
        w("```\n\n</details>\n")


def _exact_impact(w: Any, solved: dict) -> None:
    from fractions import Fraction

    def pct(values: list[str] | None) -> str:
        return ", ".join(f"{100 * float(Fraction(v)):.2f}%" for v in values) if values else "-"

    def num(text: str | None) -> str:
        return f"{float(Fraction(text)):.3f}" if text else "-"

    w(f"\n## Exact impact on the boxed game ({solved['players']} players, every deal)\n\n")
    w("Solved by the exact engine (`tablerules solve`): each seat's probability of doing the dishes (ties included) "
      "and the expected number of actions, under uniform random play and under optimal play, for the default and each "
      "alternative that keeps the game finite (the others at their defaults). Exact fractions are in "
      f"`{solved['command'].split('--out ')[-1]}`; remade by `{solved['command']}`.")
    if solved.get("stale"):
        w(" **Stale:** the model or spec changed since these figures were made; run the command again.")
    w("\n\n")
    rows = []
    for a in solved["alternatives"]:
        rnd, opt = a.get("random_play") or {}, a.get("optimal_play") or {}
        solved_text = "yes" if a["complete"] else f"no ({a.get('stopped')})"
        rows.append((a["label"], solved_text, pct(rnd.get("seat_among_losers")), num(rnd.get("expected_actions")),
                     pct(opt.get("seat_among_losers")), num(opt.get("expected_actions")),
                     f"{a['table_states']:,}" if a.get("table_states") else "-"))
    w(md_table(("alternative", "solved", "random: P(seat loses)", "random: E(actions)", "optimal: P(seat loses)",
                "optimal: E(actions)", "table states"), rows))


# --------------------------------------------------------------------------- the retail deck

RETAIL_UNITS = (
    "A *game* is one random game from a fresh deal to its end: every seat picks uniformly among its legal moves, "
    "chance picks each outcome with its exact probability. The *first seat* moves first after the deal (seat 0). "
    "*Length*: seat moves per game (chance outcomes not counted), mean with a 95% normal interval. The six outcome "
    "columns are shares of the games, separate outcomes that add up to 100%: the first seat is the only winner; "
    "one of several winners; another seat wins; the rules name no winner (a draw); the game never ends (the "
    "compiled loop's 100,000 actions, or 10,000 steps through the step API); a strict alternative's gap stops it. "
    "Intervals are 95% Wilson intervals (about ±0.3 points at 100,000 games). *Δ wins*: the first seat's win share "
    "minus the default's on the same configuration, with Newcombe's 95% interval from the two Wilson intervals, "
    "taken as if the samples were independent "
    "(they share seeds, so the true interval is narrower). *Read in*: the probe games in which the model read the "
    "ruling: play is the same under every alternative until it is read, so a ruling read in no probe game moves "
    "any share by less than 3 / (probe games) at 95% (the rule of three) and is left out.")


def _retail_cells(x: rim.RetailRow, ri: rim.RetailImpact, ruling: str) -> list[str]:
    default = ri.defaults.get(x.config)
    delta = "-" if not ruling or default is None or not x.games else rim.difference(x, default).text()
    probe = next((p for p in ri.probes if p.config.label == x.config), None)
    read = "-" if not ruling or probe is None else f"{probe.read_in.get(ruling, 0):,}/{probe.games:,}"
    return [f"`{short_ruling_name(ruling)}`" if ruling else "(every default)", *x.cells(), delta, read]


RETAIL_HEADER = ("ruling", *rim.HEADER, "Δ wins", "read in")


def write_retail(w: Any, ri: rim.RetailImpact) -> None:
    w("\n## Impact on the retail deck\n\n")
    if not ri.measured:
        w(f"The retail impact was {ri.reason}.\n")
        return
    configs = "; ".join(p.config.label for p in ri.probes)
    where = (" (each ruling on the first where the model reads it: the basic rulings on the basic game, the advanced "
             "ones with all three advanced rules)") if len(ri.probes) > 1 else ""
    w(f"Deck `{ri.deck}`; configurations: {configs}{where}; {ri.budget.text()}; every other "
      f"ruling at its default. Measured in {ri.seconds:.0f} s. The teaching-deck tables above are exact over the "
      "chance tree where a deck fits.\n\n" + RETAIL_UNITS + "\n\n")
    rows = [_retail_cells(d, ri, "") for d in ri.defaults.values()]
    rows += [_retail_cells(x, ri, x.ruling) for x in ri.rows]
    w(md_table(RETAIL_HEADER, rows))
    if ri.left_out:
        w("\nLeft out (read in no probe game on any configuration, so no alternative can move a share by "
          f"{300 / max(1, min(p.games for p in ri.probes)):.1f} points or more at 95%): "
          + ", ".join(f"`{short_ruling_name(r)}`" for r in ri.left_out) + ".\n")


def retail_json(ri: rim.RetailImpact) -> dict[str, Any]:
    def row(x: rim.RetailRow, ruling: str) -> dict[str, Any]:
        cells = dict(zip(RETAIL_HEADER, _retail_cells(x, ri, ruling)))
        cells["ruling"] = ruling or None
        cells["seconds"] = round(x.seconds, 3)
        return cells

    return {"measured": ri.measured, "reason": ri.reason or None, "deck": ri.deck or None,
            "budget": ri.budget.text(), "games": ri.budget.games, "step_games": ri.budget.step_games,
            "probe_games": ri.budget.probe_games, "seed": ri.budget.seed, "seconds": round(ri.seconds, 3),
            "configurations": [p.config.label for p in ri.probes],
            "defaults": [row(d, "") for d in ri.defaults.values()],
            "rows": [row(x, x.ruling) for x in ri.rows], "left_out": list(ri.left_out)}
