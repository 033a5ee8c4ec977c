"""The check suite's building blocks: results, expected results on record, explore checks.

Each rule set has a module ``tablerules.proofs.<name>_check`` with ``checks(ctx)``
returning :class:`CheckItem` values; ``tablerules check`` runs them all and fails on any
item whose status is ``fail``.  Expected results of proofs live in
``proofs/manifests/<rule set>.toml`` (one table per proof: ``expected = "..."``).

What a check covers is decided by budgets counted in states, pairs or games (see
:meth:`Context.states`), never in seconds: the same inputs give the same report on any
machine, under any load.  Exhaustive checks carry a state cap far above what they need, so
reaching it is a finding in itself (the configuration grew), not a matter of speed.
"""

from __future__ import annotations

import time
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Callable, Iterable, Sequence

from tablerules.model.core import RuleSet, Setup, options_text

from .endless import CLOSED, CYCLE, classify
from .explorer import Budget, Exploration, Finding, explore, finding_traces, graph_analysis

PASS = "pass"
FAIL = "FAIL"
INCOMPLETE = "incomplete"
"""Stopped by a wall-clock limit or an interruption before it could decide: not a verdict."""
NOT_RUN = "not run"
"""Never started: the run was stopped before this check."""

EXHAUSTIVE = 1_000_000
"""State cap of every exhaustive exploration in the check suite: far above what any of them
needs (the largest holds about 111,000 states), so it only bounds memory."""


@dataclass
class Context:
    """How the check suite runs: budgets, progress display, optional data files."""

    quick: bool = False
    """Fewer configurations and a tenth of each budgeted search."""
    progress: Callable[[str], Callable[[Exploration], None] | None] = lambda label: None
    retail_deck: str | None = None
    scale: float = 1.0
    """Multiplies the budgets of the searches that are budgeted by design (not the exhaustive ones)."""
    seed: int = 0
    """Added to the seed on record of each item that plays random games (``tablerules check
    --seed``): 0 plays the games on record, another value other games."""

    def states(self, full: int, least: int = 100) -> int:
        """The state (or pair, or game) budget of a budgeted search: ``full``, a tenth of it
        with ``quick``, times ``scale``; never below ``least``."""
        return max(least, int(full * self.scale * (0.1 if self.quick else 1.0)))


@dataclass
class CheckResult:
    ruleset: str
    name: str
    status: str
    summary: str
    rows: list[tuple[str, str]] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status != FAIL

    def incomplete(self) -> CheckResult:
        """This result marked as stopped before it could decide (a FAIL found so far stays a FAIL)."""
        if self.status != FAIL:
            self.status = INCOMPLETE
        return self


@dataclass
class CheckItem:
    ruleset: str
    name: str
    run: Callable[[Context], CheckResult]

    def verdict(self, ctx: Context) -> CheckResult:
        """Run the check: in a fresh z3 context, so that what z3 reports (a model, a core) depends
        on this check alone, never on the checks run before it in the same process; a crashing
        check is a FAIL with its cause, not a traceback; the time it took, if it gave none.  A
        signal or a time limit (not an Exception) goes through to the caller."""
        import z3.z3

        z3.z3._main_ctx = None  # z3.main_ctx() makes a new one on its next call
        t0 = time.perf_counter()
        try:
            r = self.run(ctx)
        except Exception as e:
            r = CheckResult(self.ruleset, self.name, FAIL, f"check raised {type(e).__name__}: {e}")
        if not r.seconds:
            r.seconds = time.perf_counter() - t0
        return r


# --------------------------------------------------------------------------- manifests


def manifest(ruleset: str) -> dict[str, dict[str, Any]]:
    """The expected results on record for a rule set's proofs."""
    fname = ruleset.replace("-", "_").replace(".", "") + ".toml"
    path = resources.files("tablerules.proofs").joinpath("manifests", fname)
    return tomllib.loads(path.read_text(encoding="utf-8"))


@dataclass
class ProofResult:
    """A proof's outcome: ``status`` is compared with the manifest's ``expected``."""

    ruleset: str
    name: str
    clauses: tuple[str, ...]
    status: str
    detail: str
    rows: list[tuple[str, str]] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)

    def expected(self) -> str:
        return manifest(self.ruleset).get(self.name, {}).get("expected", "<not on record>")

    def as_check(self, seconds: float = 0.0) -> CheckResult:
        exp = self.expected()
        ok = exp == self.status
        summary = f"{self.status} (expected {exp})" + (f": {self.detail}" if self.detail else "")
        rows = [("clauses", ", ".join(self.clauses))] + self.rows
        return CheckResult(self.ruleset, f"prove {self.name}", PASS if ok else FAIL, summary, rows, seconds=seconds)


def proof_item(ruleset: str, name: str, fn: Callable[[], ProofResult]) -> CheckItem:
    def run(ctx: Context) -> CheckResult:
        t0 = time.perf_counter()
        result = fn()
        return result.as_check(time.perf_counter() - t0)

    return CheckItem(ruleset, f"prove {name}", run)


# --------------------------------------------------------------------------- explore checks

BAD_KINDS = ("violation", "dead-end", "error", "bad-chance")


def explore_result(
    rules: RuleSet,
    setups: Sequence[Setup],
    label: str,
    *,
    symmetry: str | None = None,
    budget: Budget,
    ctx: Context,
    allowed: Iterable[tuple[str, str]] = (),
    graph: bool = False,
    initial: Sequence[Any] | None = None,
) -> CheckResult:
    """Explore, then judge: any violation, dead end, model error or bad chance fails unless allowed.

    Gaps fail too unless listed in ``allowed`` (strict runs list the registered rulings).
    """
    starts = list(initial) if initial is not None else [rules.new_game(s) for s in setups]
    ex = explore(rules, starts, symmetry=symmetry, budget=budget, keep_graph=graph, progress=ctx.progress(label))
    return judge(rules, ex, label, allowed=allowed, graph=graph)


def judge(rules: RuleSet, ex: Exploration, label: str, *, allowed: Iterable[tuple[str, str]] = (),
          graph: bool = False) -> CheckResult:
    allowed = set(allowed)
    findings = finding_traces(ex)
    bad = [f for f in findings if (f.kind, f.key) not in allowed and (f.kind in BAD_KINDS or f.kind == "gap")]
    rows = ex.table(timings=False)
    if ex.outcomes:
        total = sum(ex.outcomes.values())
        top = ", ".join(f"{k}: {v:,} ({100 * v / total:.1f}%)" for k, v in ex.outcomes.most_common(6))
        rows.append(("outcomes (terminal states)", top))
    if graph and ex.complete:
        gr = graph_analysis(ex)
        rows.append(("every state can reach an end", "yes" if gr.traps == 0 else f"NO: {gr.traps:,} trap states"))
        rows.append(
            ("longest game (moves incl. chance)", "cycle: unbounded" if gr.longest is None else str(gr.longest))
        )
        if gr.longest is None:  # plumbing: a graph with cycles: which kind of endless play (proofs/endless.py)
            rows += endless_rows(classify(ex))
        if gr.traps:
            start, steps, _ = ex.trace(gr.trap_example)
            bad.append(Finding("trap", "trap", "core.termination", "no end reachable", gr.trap_example, trace=steps,
                               start=start))
    for f in findings:
        rows.append(
            (
                f"finding {f.kind} {f.key}",
                f"{ex.finding_counts[(f.kind, f.key)]:,}x, shortest trace {len(f.trace)} steps"
                + ("" if (f.kind, f.key) not in allowed else " (registered)"),
            )
        )
    status = FAIL if bad else INCOMPLETE if ex.timed_out else PASS
    summary = ex.coverage()
    if bad:
        summary += "; unexpected: " + ", ".join(f"{f.kind} {f.key}" for f in bad)
    return CheckResult(rules.id, label, status, summary, rows, bad, ex.seconds)


def endless_rows(components: dict[str, list]) -> list[tuple[str, str]]:
    """Table rows for the components play can go round in (:func:`.endless.classify`): per kind,
    how many, the states they hold, the nearest one's distance and a loop through it."""
    rows = []
    for kind in (CYCLE, CLOSED):
        found = components.get(kind, [])
        if not found:
            rows.append((kind, "none"))
            continue
        near = found[0]
        loop = " | ".join(near.loop[:8]) + (" | ..." if len(near.loop) > 8 else "")
        rows.append((kind, f"{len(found):,} ({sum(c.states for c in found):,} states); nearest after {len(near.trace)} "
                           f"moves, loop of {len(near.loop)}: {loop}"))
    return rows


def setup_label(setup: Setup) -> str:
    """`2 players, deal-2-players=random-subset, ...` listing only non-default choices."""
    default = type(setup.options)()
    changed = [
        f"{k.split('.ruling.')[-1]}={v}"
        for (k, v), (_, d) in zip(options_text(setup.options).items(), options_text(default).items())
        if v != d
    ]
    return f"{setup.players} players" + (f" ({', '.join(changed)})" if changed else "")
