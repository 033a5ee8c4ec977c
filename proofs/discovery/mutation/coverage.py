"""Mutation coverage of one rule set: every mutant judged, the uncovered ones triaged.

:func:`run_coverage` records the unchanged model once per run (each small configuration
under the defaults, each optional rule and each other alternative of each ruling), then
judges every mutant (:mod:`.judge`) on two worker processes.  An *uncovered* mutant is then
compared with the model under each single change of a ruling in the run where it parted:
if it plays exactly as one alternative does there (the same signatures, move for move,
within the budget), it *plays as* that alternative, which the register already holds.

The triage register ``spec/mutants/<rule set>.toml`` lists, for the uncovered mutants
that play as no alternative, what they are: ``ruling = <id>`` (the ruling whose question
covers what the mutant does), or ``equivalent = <why>`` (a difference no rule concerns,
such as the wording of a refusal).  :class:`Coverage` counts, per rule set: decision points,
mutants, killed, equivalent, uncovered, and uncovered but unregistered; the last must be 0.

Each record ends with a few random games (:attr:`CoverageBudget.record_games`), seeded per
run (:attr:`CoverageBudget.seed`), so a seed gives the same records and verdicts on every machine.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import time
import tomllib
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures import TimeoutError as FuturesTimeout
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from tablerules.model import registry
from tablerules.model.core import RuleGap, RuleSet, SetupError, ruling_fields

from ..decisions import decision_configs, settings
from ...explorer import Step
from ...properties import PropertySet, property_set
from .judge import CRASHED, EQUIVALENT, KILLED, NOT_REACHED, STOPPED, UNCOVERED, Budget, Verdict, judge
from .mutants import STEP_API_FILES, MutantSource, apply_mutant, undo, write_mutants
from .reference import Probes, Run, Stopped, clear_caches, record, same_view, signature

PLAYS_AS = "plays as an alternative"
REGISTERED = "registered"


@dataclass
class CoverageBudget:
    """What a coverage run covers; every figure counts states, games or mutants, never seconds."""

    record_states: int = 1_500
    """States recorded breadth-first per run (one configuration under one setting)."""
    record_games: int = 4
    """Seeded random games recorded per run after the breadth-first part."""
    mutant: Budget = field(default_factory=Budget)
    every: int = 1
    """Judge every Nth mutant only (1: all); a fixed subset, the same on every machine."""
    seed: int = 0
    """Added to each run's seed (run i of ``run_plan`` plays its games from seed + i + 1;
    0: the games on record)."""

    def text(self) -> str:
        m = self.mutant
        return (f"{self.record_states:,} states breadth-first + {self.record_games} random games recorded per run; "
                f"each mutant asked about at most {m.states:,} states in at most {m.runs} runs"
                + (f"; every {self.every}th mutant" if self.every > 1 else ""))


@dataclass
class Triaged:
    """One entry of the triage register."""

    mutant: str
    ruling: str = ""
    equivalent: str = ""
    reason: str = ""


def register_path(ruleset: str) -> Path:
    from tablerules.spec import loader

    return Path(loader.__file__).resolve().parent / "mutants" / f"{ruleset}.toml"


def load_register(ruleset: str) -> dict[str, Triaged]:
    """The triage register of a rule set (empty when it has none)."""
    path = register_path(ruleset)
    if not path.exists():
        return {}
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out = {}
    for i, entry in enumerate(data.get("mutant", [])):
        unknown = set(entry) - {"id", "ruling", "equivalent", "reason"}
        if unknown or "id" not in entry or bool(entry.get("ruling")) == bool(entry.get("equivalent")):
            raise ValueError(f"{path}: mutant[{i}]: needs id and exactly one of ruling, equivalent"
                             + (f" (unknown keys: {', '.join(sorted(unknown))})" if unknown else ""))
        out[entry["id"]] = Triaged(
            entry["id"], entry.get("ruling", ""), entry.get("equivalent", ""), entry.get("reason", "")
        )
    return out


@dataclass
class Result:
    """A mutant's verdict, with its triage."""

    source: MutantSource
    verdict: Verdict
    triage: str = ""
    """For uncovered: PLAYS_AS, REGISTERED, or empty (unregistered)."""
    ruling: str = ""
    alternative: str = ""

    def to_json(self) -> dict[str, Any]:
        m = self.source.mutant
        return {"id": m.id, "where": m.where, "function": m.function, "operator": m.operator, "change": m.description,
                "annotation": m.annotation, **self.verdict.to_json(), "triage": self.triage, "ruling": self.ruling,
                "alternative": self.alternative}


@dataclass
class Coverage:
    ruleset: str
    points: int
    """Decision points of the step API (distinct tests mutated)."""
    results: list[Result]
    budget: CoverageBudget
    runs: int
    recorded_states: int
    seconds: float = 0.0
    complete: bool = True
    """False when a time limit stopped it before every mutant was judged."""

    def counts(self) -> dict[str, int]:
        c = Counter(r.verdict.verdict for r in self.results)
        uncovered = [r for r in self.results if r.verdict.verdict == UNCOVERED]
        return {"decision points": self.points, "mutants": len(self.results),
                "killed": c[KILLED] + c[CRASHED], "crashed": c[CRASHED], "equivalent": c[EQUIVALENT],
                "not reached": c[NOT_REACHED], "stopped": c[STOPPED], "uncovered": len(uncovered),
                "plays as an alternative": sum(1 for r in uncovered if r.triage == PLAYS_AS),
                "registered": sum(1 for r in uncovered if r.triage == REGISTERED),
                "uncovered and unregistered": sum(1 for r in uncovered if not r.triage)}

    def unregistered(self) -> list[Result]:
        return [r for r in self.results if r.verdict.verdict == UNCOVERED and not r.triage]

    def to_json(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "counts": self.counts(), "budget": self.budget.text(), "runs": self.runs,
                "recorded_states": self.recorded_states, "complete": self.complete,
                "mutants": [r.to_json() for r in self.results]}


# --------------------------------------------------------------------------- the runs


def run_plan(rules: RuleSet) -> list[tuple[str, str, Any]]:
    """(label, setting, setup) of every run: each small configuration under each setting."""
    plan = []
    for c in decision_configs(rules, None):
        for label, options in settings(rules):
            try:
                setup = c.setup(rules, options)
            except (SetupError, RuleGap):
                continue
            plan.append((f"{c.label()}; {label}", label, setup))
    return plan


_PROBES: dict[str, Probes] = {}


def _record_one(index: int) -> tuple[int, Run]:
    rules, budget, plan = _STATE["rules"], _STATE["budget"], _STATE["plan"]
    probes = _PROBES.get(rules.id)
    if probes is None:
        probes = _PROBES[rules.id] = Probes(STEP_API_FILES[rules.id])
    label, setting, setup = plan[index]
    return index, record(rules, label, setting, setup, budget.record_states, probes,
                         games=budget.record_games, seed=budget.seed + index + 1)


class WorkerDied(Exception):
    """A worker process died while it judged (killed by a signal, or by the system, most often
    for lack of memory): its task is lost, so the run cannot be complete.  A pool that replaced
    the worker and waited for the lost task's result would wait for ever."""


def _pool_map(fn: Callable[[int], Any], n: int, workers: int, deadline: float | None) -> Any:
    """fn(0..n-1) on ``workers`` forked processes (in this one when 1), yielding results as
    they come; stops at the deadline (the caller sees fewer results); :class:`WorkerDied` when
    a worker dies."""
    if workers > 1 and n > 1 and "fork" in multiprocessing.get_all_start_methods():
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"), initializer=_worker_signals)
        finished = False
        try:
            futures = [pool.submit(fn, i) for i in range(n)]
            left = None if deadline is None else max(0.0, deadline - time.perf_counter())
            try:
                for done in as_completed(futures, timeout=left):
                    yield done.result()
                    if deadline and time.perf_counter() > deadline:
                        return
            except FuturesTimeout:  # the deadline passed while every worker was busy
                return
            except BrokenProcessPool:
                raise WorkerDied("a worker process died while judging (killed by a signal, or by the system, most "
                                 "often for lack of memory); its task is lost") from None
            finished = True
        finally:
            _close(pool, finished)
    else:
        for i in range(n):
            yield fn(i)
            if deadline and time.perf_counter() > deadline:
                return


def _close(pool: ProcessPoolExecutor, finished: bool) -> None:
    """Let the workers of a finished map go; stop them at once otherwise (the deadline, an error,
    Ctrl-C: a worker leaves Ctrl-C to its parent)."""
    if finished:
        pool.shutdown(wait=True)
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())  # where CPython's pool keeps them
    results = getattr(pool, "_result_queue", None)  # the same (shutdown lets go of both)
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        proc.kill()
    for proc in processes:
        proc.join()
    # A worker killed while it sent a result leaves half a message in the result pipe, and the pool's manager
    # thread waits for the rest for ever: the interpreter's exit joins that thread, so the run would hang after
    # saying it was interrupted.  This process still holds the pipe's writing end; with the workers dead, closing
    # it ends the pipe, the manager thread reads end-of-file, finds the pool broken and ends.
    writer = getattr(results, "_writer", None)
    if writer is not None:
        writer.close()


def _worker_signals() -> None:
    """A worker leaves Ctrl-C to its parent, which stops the pool; SIGTERM ends it at once."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def record_runs(rules: RuleSet, budget: CoverageBudget, workers: int = 2, deadline: float | None = None,
                progress: Callable[[str], None] | None = None) -> list[Run]:
    """Every run of :func:`run_plan`, recorded on the unchanged model, in plan order."""
    plan = run_plan(rules)
    _STATE.update(rules=rules, budget=budget, plan=plan)
    got: dict[int, Run] = {}
    last = 0.0
    for i, run in _pool_map(_record_one, len(plan), workers, deadline):
        got[i] = run
        now = time.perf_counter()
        if progress and (now - last > PROGRESS_SECONDS or len(got) == len(plan)):
            last = now
            progress(f"mutants {rules.id}: recording the model, {len(got)}/{len(plan)} runs, "
                     f"{sum(len(r.states) for r in got.values()):,} states")
    return [got[i] for i in sorted(got)]


PROGRESS_SECONDS = 4.0
"""Seconds between progress lines."""


# --------------------------------------------------------------------------- plays as


def _one_change(a: Any, b: Any) -> tuple[str, str] | None:
    """(ruling id, b's alternative) when options ``a`` and ``b`` differ in exactly one ruling."""
    diff = [f for f in dataclasses.fields(a) if getattr(a, f.name) != getattr(b, f.name)]
    if len(diff) != 1 or "ruling" not in diff[0].metadata:
        return None
    return diff[0].metadata["ruling"], getattr(b, diff[0].name)


def path_views(rules: RuleSet, setup: Any, steps: Sequence[Step]) -> list | None:
    """The signatures along a trace replayed by move text from a new game of ``setup`` (the
    last state's included); None when a move of it cannot be made there."""
    try:
        s = rules.new_game(setup)
        views = []
        for step in steps:
            sig, ways = signature(rules, s)
            views.append(sig)
            nxt = {str(m): t for m, _p, t in ways}.get(step.move)
            if nxt is None or isinstance(nxt, Stopped):
                return None
            s = nxt
        views.append(signature(rules, s)[0])
        return views
    except Exception:  # noqa: BLE001 - a trace the model cannot replay plays as nothing
        return None


def plays_as(rules: RuleSet, run: Run, sibling: Run, trace: Sequence[Step], model_views: list | None,
             max_states: int) -> bool:
    """Does the (already applied) mutant, started as ``run``, play exactly as the model in
    ``sibling``: along the trace where it parted from the model (``model_views``: the model's
    signatures there under the sibling's options), and in lockstep by move text over the
    states the sibling's record expanded?"""
    if model_views is None:
        return False
    mine = path_views(rules, run.setup, trace)
    if mine is None or len(mine) != len(model_views) or not all(map(same_view, model_views, mine)):
        return False
    start_m = rules.new_game(run.setup)
    start_r = next(iter(sibling.states), None)
    if start_r is None:
        return False
    seen = {(start_m, start_r)}
    frontier = [(start_m, start_r)]
    n = 0
    while frontier:
        nxt = []
        for sm, sr in frontier:
            n += 1
            if n > max_states:
                return True
            sig_m, ways = signature(rules, sm)
            sig_r = sibling.states.get(sr)
            if sig_r is None:
                continue
            if not same_view(sig_r, sig_m):
                return False
            children = sibling.succ.get(sr, {})
            for m, _p, t in ways:
                if isinstance(t, Stopped):
                    continue
                tr = children.get(str(m))
                if tr is not None and (t, tr) not in seen:
                    seen.add((t, tr))
                    nxt.append((t, tr))
        frontier = nxt
    return True


def siblings(run: Run, runs: Sequence[Run]) -> list[tuple[str, str, Run]]:
    """(ruling, alternative, run) for the runs of the same components and player count whose
    options differ from ``run``'s in one ruling."""
    out = []
    for r in runs:
        if r is run or r.setup.players != run.setup.players or r.setup.components != run.setup.components:
            continue
        change = _one_change(run.setup.options, r.setup.options)
        if change:
            out.append((*change, r))
    return out


# --------------------------------------------------------------------------- the pool

_STATE: dict[str, Any] = {}
"""What the worker processes inherit (fork): the rule set, the runs, the mutants, the properties."""


MUTANT_SECONDS = 120.0
"""Wall-clock limit on one mutant (in a worker).  A mutant that makes one call of the model
run away (a filter dropped from a search over a hand's subsets) is stopped there and
reported as *stopped*: no verdict, never a kill.  Normal mutants take well under a second."""


class MutantTimeLimit(BaseException):
    """MUTANT_SECONDS passed while one mutant was judged (a BaseException: no model code's
    ``except Exception`` can swallow it)."""


def _ring(signum: int, frame: Any) -> None:
    raise MutantTimeLimit()


def _judge_one(index: int) -> tuple[int, Verdict, str, str]:
    import signal

    s = _STATE
    source: MutantSource = s["mutants"][index]
    rules, runs, props, budget = s["rules"], s["runs"], s["props"], s["budget"]
    timed = hasattr(signal, "setitimer") and multiprocessing.parent_process() is not None
    if timed:
        signal.signal(signal.SIGALRM, _ring)
        signal.setitimer(signal.ITIMER_REAL, MUTANT_SECONDS)
    try:
        return _judge_timed(index, source, rules, runs, props, budget)
    except MutantTimeLimit:
        clear_caches()
        return index, Verdict(source.mutant.id, STOPPED, detail=f"stopped by the time limit of {MUTANT_SECONDS:g} s "
                                                                 "on one mutant: no verdict"), "", ""
    finally:
        if timed:
            signal.setitimer(signal.ITIMER_REAL, 0)


def _judge_timed(index: int, source: MutantSource, rules: RuleSet, runs: list[Run], props: PropertySet,
                 budget: CoverageBudget) -> tuple[int, Verdict, str, str]:
    v = judge(source, runs, rules, props, budget.mutant)
    ruling = alt = ""
    if v.verdict == UNCOVERED:
        ruling, alt = find_alternative(source, v, runs, rules, props, budget.mutant)
    return index, v, ruling, alt


def find_alternative(source: MutantSource, v: Verdict, runs: Sequence[Run], rules: RuleSet, props: PropertySet,
                     budget: Budget) -> tuple[str, str]:
    """(ruling, alternative) that the uncovered mutant plays exactly as, or ("", "").

    Tried first in the run where it parted from the model, then under the defaults and under
    every optional rule of each configuration (where the register's one-change settings
    are): in each, the mutant's first difference is found, and the model under each single
    change of a ruling is compared with it along that trace and over the recorded states.
    Where it plays as none, but its difference is only where the strict alternative of a
    ruling raises that ruling's gap, it is ("<ruling>", "strict")."""
    first = next((r for r in runs if r.label == v.run), None)
    bases = [first] if first is not None else []
    bases += [r for r in runs if r.setting in ("defaults", "every option") and r is not first]
    for base in bases:
        if base is first:
            trace = v.trace
        else:
            again = judge(source, [base], rules, props, dataclasses.replace(budget, runs=1))
            if again.verdict != UNCOVERED:
                continue
            trace = again.trace
        candidates = siblings(base, runs)
        if not candidates:
            continue
        clear_caches()
        model_views = [path_views(rules, sib.setup, trace) for _rid, _a, sib in candidates]
        original = apply_mutant(source)
        try:
            for (rid, a, sib), views in zip(candidates, model_views):
                clear_caches()
                try:
                    if plays_as(rules, base, sib, trace, views, budget.states):
                        return rid, a
                except Exception:  # noqa: BLE001 - a crash plays as nothing
                    continue
        finally:
            undo(source, original)
            clear_caches()
    if first is not None:
        gap = _strict_gap(first, v.detail)
        if gap:
            return gap, STRICT_REACH
    return "", ""


STRICT_REACH = "strict (where it raises its gap)"
"""The alternative named when a mutant only changes where a ruling's strict alternative
raises that ruling's gap: the ruling's question covers it."""


def _strict_gap(run: Run, detail: str) -> str:
    """The ruling whose gap the difference is about, when the run sets that ruling strict."""
    import re

    for f in dataclasses.fields(run.setup.options):
        rid = f.metadata.get("ruling")
        if (
            rid
            and getattr(run.setup.options, f.name) == "strict"
            and re.search(rf"'{re.escape(rid)}'|\b{re.escape(rid)}\b", detail)
        ):
            return rid
    return ""


def run_coverage(ruleset: str, budget: CoverageBudget | None = None, *, workers: int = 2,
                 progress: Callable[[str], None] | None = None, max_seconds: float | None = None,
                 only: Sequence[str] | None = None) -> Coverage:
    """Judge every mutant of a rule set's step API (see the module docstring)."""
    budget = budget or CoverageBudget()
    t0 = time.perf_counter()
    rules = registry.get(ruleset)
    props = property_set(ruleset)
    sources = write_mutants(ruleset)
    points = len({m.mutant.point for m in sources if m.mutant.col >= 0})
    if only:
        wanted = set(only)
        sources = [m for m in sources if m.mutant.id in wanted or _short(m) in wanted]
    elif budget.every > 1:
        sources = sources[:: budget.every]
    deadline = t0 + max_seconds if max_seconds else None
    runs: list[Run] = []
    verdicts: dict[int, tuple[Verdict, str, str]] = {}
    try:
        runs = record_runs(rules, budget, workers, deadline, progress)
        _STATE.update(rules=rules, runs=runs, props=props, budget=budget, mutants=sources)
        tally: Counter = Counter()
        last = 0.0
        for i, v, ruling, alt in _pool_map(_judge_one, len(sources), workers, deadline):
            verdicts[i] = (v, ruling, alt)
            tally[v.verdict] += 1
            now = time.perf_counter()
            if progress and (now - last > PROGRESS_SECONDS or len(verdicts) == len(sources)):
                last = now
                rate = len(verdicts) / max(now - t0, 1e-9)
                progress(f"mutants {ruleset}: {len(verdicts)}/{len(sources)} judged "
                         f"({', '.join(f'{k} {n}' for k, n in sorted(tally.items()))}); {rate:.1f} mutants/s")
    finally:
        _STATE.clear()
    complete = (len(verdicts) == len(sources) and len(runs) == len(run_plan(rules))
                and not any(v.verdict == STOPPED for v, _r, _a in verdicts.values()))
    register = load_register(ruleset)
    results = []
    for i, source in enumerate(sources):
        if i not in verdicts:
            continue
        v, ruling, alt = verdicts[i]
        r = Result(source, v)
        if v.verdict == UNCOVERED:
            if ruling:
                r.triage, r.ruling, r.alternative = PLAYS_AS, ruling, alt
            elif source.mutant.id in register:
                entry = register[source.mutant.id]
                r.triage, r.ruling = REGISTERED, entry.ruling or "equivalent"
        results.append(r)
    return Coverage(ruleset, points, results, budget, len(runs), sum(len(r.states) for r in runs),
                    time.perf_counter() - t0, complete)


def _short(source: MutantSource) -> str:
    from .mutants import short_id

    return short_id(source.mutant.id)


# --------------------------------------------------------------------------- the check suite

CHECK_BUDGET = CoverageBudget(record_states=300, record_games=2, mutant=Budget(states=300, runs=2), every=9)
"""The check suite's fixed subset: every 9th mutant, on shorter records (the same on every machine)."""


def mutation_check_item(ruleset_id: str):
    """A check-suite item: the fixed subset of the mutants; fails on one that is uncovered
    and unregistered (``tablerules mutants RULESET`` runs them all).  The recorded games add
    the check's ``--seed`` (``ctx.seed``: 0 unless given) to their seeds, as ``mutants --seed`` does."""
    from ...checks import FAIL, PASS, CheckItem, CheckResult, Context

    name = "mutation coverage (fixed subset): every uncovered mutant triaged"

    def run(ctx: Context) -> CheckResult:
        seed = ctx.seed  # the check's --seed
        budget = dataclasses.replace(CHECK_BUDGET, every=CHECK_BUDGET.every * (3 if ctx.quick else 1), seed=seed)
        cov = run_coverage(ruleset_id, budget, workers=2, progress=_check_progress(ctx))
        counts = cov.counts()
        rows = [(k, f"{v:,}") for k, v in counts.items()]
        rows += [(f"UNREGISTERED {r.source.mutant.where}", f"{r.source.mutant.description[:60]}: {r.verdict.detail} "
                  f"after {len(r.verdict.trace)} steps on {r.verdict.run}") for r in cov.unregistered()]
        rows.append(("budget", budget.text()))
        rows.append(("again", f"tablerules mutants {ruleset_id} --every {budget.every} --record-states "
                              f"{budget.record_states} "
                              f"--states {budget.mutant.states}" + (f" --seed {seed}" if seed else "")))
        summary = (f"{counts['mutants']:,} mutants: {counts['killed']:,} killed, {counts['equivalent']:,} equivalent, "
                   f"{counts['not reached']:,} not reached, {counts['uncovered']:,} uncovered "
                   f"({counts['uncovered and unregistered']} unregistered)")
        return CheckResult(ruleset_id, name, FAIL if cov.unregistered() else PASS, summary, rows)

    return CheckItem(ruleset_id, name, run)


def _check_progress(ctx: Any) -> Callable[[str], None]:
    """Progress lines on standard error, every PROGRESS_SECONDS (the check's other items draw theirs)."""
    import sys

    ctx.progress("mutation coverage")  # closes the previous item's live display
    return lambda line: print(line, file=sys.stderr, flush=True)
