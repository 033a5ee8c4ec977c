"""The gap finder: every place a rule set's text is silent, and every model fault, with the
shortest trace into it.

The model runs in strict mode (:func:`~tablerules.model.core.strict_options`: every ruling
with a ``strict`` alternative raises :class:`~tablerules.model.core.RuleGap` where the text
says nothing) over small configurations.  The explorer keeps the shortest trace into every
finding: gaps, invariant violations, dead ends (not an end, yet nobody can act), model
errors, bad chance distributions, and, when an exploration completes, traps (states from
which no end can be reached, found by :func:`~tablerules.proofs.explorer.graph_analysis`).

Each finding is judged against the rule set's spec: a gap whose ruling id is in the
rulings register is *registered*; anything else is *unregistered* and fails the check
(a gap nobody registered, or a bug).

Small configurations: a model module may define ``SMALL_CONFIGS()`` returning a list of
:class:`~tablerules.model.core.Setup` values (only their players and components are used;
options are set here).  Without it, the default components at every player count are
searched within a state/time budget, and the report says so.
"""

from __future__ import annotations

import dataclasses
import importlib
import time
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Iterable, Sequence

from tablerules.model import registry
from tablerules.model.core import (
    STRICT, RuleGap, pick_by_probability, RuleSet, SetupError, ruling_fields, strict_options, variant_fields,
)

from ..explorer import Budget, Exploration, Finding, Step, explore, finding_traces

# --------------------------------------------------------------------------- rule sets and configurations


class ModelUnavailable(Exception):
    """A rule set whose model module does not import (yet); the message is one line."""


def load_rules(ruleset_id: str) -> tuple[RuleSet, ModuleType]:
    """(RuleSet, model module) for a registered id; SetupError for an unknown id,
    ModelUnavailable (one line) when the model does not import."""
    entry = registry.ENTRIES.get(ruleset_id)
    if entry is None:
        registry.get(ruleset_id)  # raises the one-line SetupError naming the known ids
    try:
        module = importlib.import_module(entry.model)
        return module.RULES, module
    except Exception as e:  # any import-time failure: skip this rule set with one line
        first = str(e).splitlines()[0] if str(e) else ""
        raise ModelUnavailable(
            f"{ruleset_id}: model {entry.model} does not import ({type(e).__name__}: {first})"
        ) from None


def model_module(rules: RuleSet) -> ModuleType | None:
    """The module that defines a registered rule set (None for a rule set built elsewhere, e.g. in a test)."""
    entry = registry.ENTRIES.get(rules.id)
    if entry is None:
        return None
    try:
        module = importlib.import_module(entry.model)
    except Exception:
        return None
    return module if getattr(module, "RULES", None) is rules else None


@dataclass(frozen=True)
class Config:
    """One small configuration: player count and components (options are chosen per run)."""

    players: int
    components: Any = None
    deck: str | None = None
    """The text the components were loaded from (``--config 2:3x4``), if any: witnesses keep it."""

    def components_name(self) -> str:
        return str(getattr(self.components, "name", "default") if self.components is not None else "default")

    def label(self) -> str:
        return f"{self.players} players, {self.components_name()}"

    def setup(self, rules: RuleSet, options: Any) -> Any:
        return rules.setup(self.players, options, self.components)


@dataclass(frozen=True)
class Configs:
    """The configurations a search runs over, and where they came from."""

    configs: tuple[Config, ...]
    source: str
    bounded: bool
    """True when these are full-size defaults (no SMALL_CONFIGS): searches are cut by budget."""


def _check_module(rules: RuleSet) -> ModuleType | None:
    entry = registry.ENTRIES.get(rules.id)
    if entry is None or not entry.check:
        return None
    try:
        return importlib.import_module(entry.check)
    except Exception:
        return None


def small_configs(rules: RuleSet, module: ModuleType | None = None) -> Configs:
    """The model's ``SMALL_CONFIGS()``, else the check module's ``SMALL_CONFIGS()`` or
    ``small_configs()``, else the default components at every player count they allow."""
    module = module if module is not None else model_module(rules)
    found = [(getattr(module, "SMALL_CONFIGS", None) if module is not None else None, "the model's SMALL_CONFIGS")]
    if found[0][0] is None and getattr(module, "RULES", None) is rules:
        check = _check_module(rules)
        for name in ("SMALL_CONFIGS", "small_configs"):
            found.append((getattr(check, name, None) if check is not None else None, f"the check module's {name}"))
    for fn, source in found:
        if fn is not None:
            setups = fn() if callable(fn) else fn
            configs = tuple(Config(s.players, s.components) for s in setups)
            return Configs(configs, source, False)
    comps = rules.default_components()
    configs, refused = [], []
    for n in rules.player_counts:
        try:
            rules.setup(n, rules.Options(), comps)
        except SetupError:
            refused.append(str(n))
            continue
        except RuleGap:  # pragma: no cover - a gap at setup is the gap finder's business
            pass
        configs.append(Config(n, comps))
    source = "default components at every player count they allow (the model gives no SMALL_CONFIGS): bounded"
    if refused:
        source += f"; not with {', '.join(refused)} players"
    return Configs(tuple(configs), source, True)


def steps_to(parents: dict[Any, tuple[Any, Step | None]], state: Any) -> tuple[Step, ...]:
    """The trace from the root to ``state`` in a breadth-first search's parent links (state -> (parent, step))."""
    steps = []
    while True:
        parent, step = parents[state]
        if parent is None:
            return tuple(reversed(steps))
        steps.append(step)
        state = parent


def with_more_players(rules: RuleSet, configs: Sequence[Config], extra: int = 2) -> list[Config]:
    """The same components with one, then two, more players than each configuration, where the
    rules allow it and it is not already among them: questions about a third player (who
    answers first, who takes a penalty card) are looked for there."""
    have = {(c.players, c.components_name()) for c in configs}
    out = []
    for k in range(1, extra + 1):
        for c in configs:
            more = Config(c.players + k, c.components, c.deck)
            key = (more.players, more.components_name())
            if key in have or more.players not in rules.player_counts:
                continue
            try:
                more.setup(rules, rules.Options())
            except (SetupError, RuleGap):
                continue
            have.add(key)
            out.append(more)
    return out


def wider_configs(rules: RuleSet, configs: Sequence[Config]) -> list[Config]:
    """Where to look when the small configurations show nothing: the same components with more
    players, then the rule set's other teaching decks (spec ``[components] teaching_decks``) at
    the same player counts and one more."""
    out = with_more_players(rules, configs)
    have = {(c.players, c.components_name()) for c in list(configs) + out}
    if rules.load_components is None:
        return out
    from tablerules.spec.loader import load_spec

    try:
        decks = load_spec(rules.id).components.get("teaching_decks", [])
    except Exception:  # noqa: BLE001 - no spec, no teaching decks
        decks = []
    counts = sorted({c.players for c in configs} | {c.players + 1 for c in configs})
    for name in decks:
        for n in counts:
            if (n, name) in have or n not in rules.player_counts:
                continue
            try:
                c = Config(n, rules.load_components(name), name)
                c.setup(rules, rules.Options())
            except (SetupError, RuleGap):
                continue
            have.add((n, name))
            out.append(c)
    return out


def option_field(rules: RuleSet, ruling_id: str) -> dataclasses.Field | None:
    return ruling_fields(rules.Options).get(ruling_id)


def with_alternative(options: Any, rules: RuleSet, ruling_id: str, alternative: str) -> Any:
    f = option_field(rules, ruling_id)
    if f is None:
        raise KeyError(ruling_id)
    return dataclasses.replace(options, **{f.name: alternative})


def strict_rulings(rules: RuleSet) -> list[str]:
    """Ruling ids whose alternatives include ``strict``, in declaration order."""
    return [rid for rid, f in ruling_fields(rules.Options).items() if STRICT in f.metadata["alternatives"]]


def default_alternative(rules: RuleSet, ruling_id: str) -> str:
    return ruling_fields(rules.Options)[ruling_id].metadata["alternatives"][0]


def load_register(ruleset_id: str) -> tuple[dict[str, Any], str]:
    """(rulings register of the spec, problem): the register is empty when the spec does not load."""
    from tablerules.spec.loader import SpecError, load_spec

    try:
        return load_spec(ruleset_id).rulings, ""
    except SpecError as e:
        return {}, str(e)
    except Exception as e:  # a spec that is being written may fail in any way
        return {}, f"{ruleset_id}: spec does not load ({type(e).__name__}: {e})"


# --------------------------------------------------------------------------- findings

REGISTERED = "registered"
UNREGISTERED = "unregistered"


@dataclass
class GapFinding:
    """One kind of finding with its shortest trace (over every configuration searched)."""

    kind: str
    """gap, violation, dead-end, error, bad-chance or trap."""
    key: str
    """Ruling id for a gap, invariant name, or the kind again."""
    clause: str
    detail: str
    config: Config
    options: Any
    """The options of the run that found it (strict where a strict alternative exists)."""
    trace: tuple[Step, ...]
    move: str | None = None
    """The move that raises (not part of the trace), for gaps and errors raised by a move."""
    count: int = 1
    """How many times it was met (stored states or moves) over every run."""
    status: str = UNREGISTERED

    @property
    def length(self) -> int:
        return len(self.trace) + (1 if self.move is not None else 0)

    def title(self) -> str:
        return f"{self.kind} {self.key}"

    def setting(self) -> str:
        """The rulings at a non-default, non-strict alternative in the run that found it (usually none)."""
        changed = [
            f"option {name}" for name, f in variant_fields(type(self.options)).items() if getattr(self.options, f.name)
        ]
        for rid, f in ruling_fields(type(self.options)).items():
            value = getattr(self.options, f.name)
            if value not in (STRICT, f.metadata["alternatives"][0]):
                changed.append(f"{rid.split('.ruling.')[-1]}={value}")
        return ", ".join(changed)

    def where(self) -> str:
        """`at the start`, `after 3 moves`, `at move 4 (pass)`."""
        if self.move is not None:
            return f"at move {len(self.trace) + 1} ({self.move})"
        return "at the start" if not self.trace else f"after {len(self.trace)} moves"

    def as_finding(self) -> Finding:
        """The explorer's Finding shape (for check reports)."""
        return Finding(self.kind, self.key, self.clause, self.detail + f" [{self.config.label()}]", None,
                       self.move, len(self.trace), self.trace)


@dataclass
class Run:
    """One exploration of one configuration."""

    config: Config
    strict: tuple[str, ...]
    """Rulings at their strict alternative in this run."""
    coverage: str
    complete: bool
    states: int
    seconds: float
    graph: str = ""
    note: str = ""


@dataclass
class GapReport:
    ruleset: str
    configs: Configs
    runs: list[Run] = field(default_factory=list)
    findings: list[GapFinding] = field(default_factory=list)
    unreached: list[str] = field(default_factory=list)
    """Rulings with a strict alternative whose gap no run reached."""
    spec_problem: str = ""
    seconds: float = 0.0

    @property
    def unregistered(self) -> list[GapFinding]:
        return [f for f in self.findings if f.status != REGISTERED]

    @property
    def ok(self) -> bool:
        return not self.unregistered

    def summary(self) -> str:
        reg = sum(1 for f in self.findings if f.status == REGISTERED)
        text = (f"{len(self.findings)} findings over {len(self.runs)} runs: {reg} registered gaps, "
                f"{len(self.unregistered)} unregistered")
        if self.unregistered:
            text += " (" + ", ".join(f.title() for f in self.unregistered) + ")"
        if self.unreached:
            text += f"; strict rulings not reached: {', '.join(self.unreached)}"
        if self.spec_problem:
            text += f"; spec: {self.spec_problem}"
        return text


def judge(finding: GapFinding, register: dict[str, Any]) -> str:
    """A gap whose ruling is in the register is registered; every other finding is not."""
    return REGISTERED if finding.kind == "gap" and finding.key in register else UNREGISTERED


# --------------------------------------------------------------------------- the search


@dataclass
class GapBudget:
    """Per exploration: the stored states that decide its coverage, and an optional wall-clock
    limit that only stops a run as incomplete."""

    max_states: int = 200_000
    max_seconds: float | None = None
    seed: int = 1
    """Seed of the random games that look for a setting where a gap opens (``check --seed`` adds to it)."""

    def budget(self) -> Budget:
        return Budget(self.max_states, self.max_seconds)


def _symmetry(rules: RuleSet) -> str | None:
    return rules.default_symmetry if rules.default_symmetry in rules.symmetries else None


def _keep(found: dict[tuple[str, str], GapFinding], f: GapFinding) -> None:
    k = (f.kind, f.key)
    old = found.get(k)
    if old is None:
        found[k] = f
    else:
        old.count += f.count
        if f.length < old.length:
            f.count = old.count
            found[k] = f


def start_game(rules: RuleSet, config: Config, options: Any) -> tuple[Any, Any, list[GapFinding], str]:
    """(state, options, gaps raised before any move, problem): a strict ruling that raises
    at the start is recorded and set to its default, until the game can start."""
    gaps: list[GapFinding] = []
    for _ in range(len(ruling_fields(rules.Options)) + 1):
        try:
            setup = config.setup(rules, options)
            return rules.new_game(setup), options, gaps, ""
        except RuleGap as g:
            gaps.append(
                GapFinding("gap", g.ruling, g.ruling, g.detail or "raised before any move", config, options, ())
            )
            f = option_field(rules, g.ruling)
            if f is None or getattr(options, f.name) != STRICT:
                return None, options, gaps, f"RuleGap {g.ruling} raised at the start by a non-strict alternative"
            options = dataclasses.replace(options, **{f.name: f.metadata["alternatives"][0]})
        except SetupError as e:
            return None, options, gaps, f"setup not allowed: {e}"
    return None, options, gaps, "could not start"  # pragma: no cover


def _strict_names(rules: RuleSet, options: Any) -> tuple[str, ...]:
    return tuple(rid for rid, f in ruling_fields(rules.Options).items() if getattr(options, f.name) == STRICT)


def explore_config(rules: RuleSet, config: Config, options: Any, budget: GapBudget,
                   progress: Callable[[str], Any] | None = None) -> tuple[Run, list[GapFinding]]:
    """One strict run: explore, collect findings with real traces, traps when complete."""
    t0 = time.perf_counter()
    state, options, found, problem = start_game(rules, config, options)
    strict = _strict_names(rules, options)
    if state is None:
        run = Run(config, strict, f"not started: {problem}", False, 0, time.perf_counter() - t0, note=problem)
        if problem.startswith("RuleGap"):
            found.append(GapFinding("error", "gap-from-non-strict", "model", problem, config, options, ()))
        return run, found
    label = f"gaps {rules.id} {config.label()}"
    ex = explore(rules, [state], symmetry=_symmetry(rules), budget=budget.budget(), keep_graph=True,
                 progress=progress(label) if progress else None)
    for f in finding_traces(ex):
        found.append(GapFinding(f.kind, f.key, f.clause, f.detail, config, options, f.trace,
                                None if f.move is None else str(f.move), ex.finding_counts[(f.kind, f.key)]))
    graph = ""
    if ex.complete:
        traps, longest = trap_analysis(ex)
        graph = ("every state can reach an end" if not traps else f"{len(traps):,} trap states") + "; " + (
            "has a cycle" if longest is None else f"longest play {longest} steps")
        if traps:
            nearest = min(traps, key=lambda n: len(ex.key_path(n)))
            _, steps, _ = ex.trace(nearest)
            found.append(GapFinding("trap", "trap", "core.termination", "no end can be reached from here",
                                    config, options, steps, None, len(traps)))
    else:
        graph = "not analysed: exploration incomplete"
    ex.edges = None  # free the graph
    run = Run(config, strict, ex.coverage(), ex.complete, ex.states, time.perf_counter() - t0, graph)
    return run, found


def one_change_settings(rules: RuleSet, ruling_id: str) -> list[tuple[str, Any]]:
    """(label, options) differing from the defaults in one respect: an optional rule
    switched on (each alone, then all together), or another ruling at another non-strict
    alternative.  Rulings that matter only in combination are looked for under these."""
    out = []
    variants = variant_fields(rules.Options)
    for name, f in variants.items():
        out.append((f"option {name}", dataclasses.replace(rules.Options(), **{f.name: True})))
    if len(variants) > 1:
        out.append(("every option", dataclasses.replace(rules.Options(), **{f.name: True for f in variants.values()})))
    for rid, f in ruling_fields(rules.Options).items():
        if rid == ruling_id:
            continue
        for alt in f.metadata["alternatives"][1:]:
            if alt != STRICT:
                out.append((f"{rid.split('.ruling.')[-1]}={alt}", with_alternative(rules.Options(), rules, rid, alt)))
    return out


def _gap_setting(rules: RuleSet, ruling_id: str, configs: Sequence[Config], games: int = 40,
                 seed: int = 1) -> tuple[str, Any] | None:
    """(label, options) with ``ruling_id`` strict and one other change
    (:func:`one_change_settings`) under which random games meet its gap; None if none does.

    Some gaps open only in combination (an optional rule switched on, or an end that only
    one reading of another ruling allows).  Random games are cheap; the breadth-first run
    that follows finds the shortest trace.
    """
    for label, base in one_change_settings(rules, ruling_id):
        options = with_alternative(base, rules, ruling_id, STRICT)
        if _random_games_meet(rules, ruling_id, options, configs, games, seed):
            return label, options
    return None


def _random_games_meet(rules: RuleSet, ruling_id: str, options: Any, configs: Sequence[Config], games: int,
                       seed: int) -> bool:
    """Do seeded random games (every move of each state tried, one followed) raise ``ruling_id``?"""
    import random

    rng = random.Random(seed)
    for g in range(games if configs else 0):
        try:
            state = rules.new_game(configs[g % len(configs)].setup(rules, options))
            for _ in range(500):
                ways = rules.successors(state)  # applies every move: a gap raised by any of them counts
                if not ways:
                    break
                if ways[0][1] is not None:  # chance: follow one outcome by its probability
                    state = pick_by_probability([(t, p) for _m, p, t in ways], rng.random())
                else:
                    state = ways[rng.randrange(len(ways))][2]
            rules.outcome(state)
        except RuleGap as gap:
            if gap.ruling == ruling_id:
                return True
        except Exception:  # noqa: BLE001 - a probe only looks; the explorer reports model faults
            return False
    return False


def trap_analysis(ex: Exploration) -> tuple[list[Any], int | None]:
    """(traps, longest play or None if the graph has a cycle) of a complete exploration run
    with ``keep_graph=True``.

    A trap is a state from which no end can be reached.  States with no way on (a gap was
    raised there, or a dead end: each is a finding of its own) count as ends here, so a
    strict run does not report every state leading only into a gap as a trap.  networkx's
    ancestors and DAG longest path; ``benchmarks/trap_analysis.py`` sets it beside a run and
    beside the plain dicts it replaced (about as fast, once states are numbered).
    """
    import networkx as nx

    assert ex.edges is not None and ex.terminal_states is not None
    number = {n: i for i, n in enumerate(ex.parents)}  # states as small ints: networkx hashes each node often
    graph = nx.DiGraph()
    graph.add_nodes_from(range(len(number)))
    graph.add_edges_from((number[a], number[b]) for a, b in ex.edges)
    longest = nx.dag_longest_path_length(graph) if nx.is_directed_acyclic_graph(graph) else None
    end = len(number)  # one node after every end: the states that can end are its ancestors
    graph.add_edges_from([(n, end) for n, out in graph.out_degree() if out == 0] or [(end, end)])
    can_end = nx.ancestors(graph, end)
    return [n for n, i in number.items() if i not in can_end], longest


def find_gaps(
    rules: RuleSet,
    configs: Configs | Sequence[Config] | None = None,
    *,
    register: dict[str, Any] | None = None, spec_problem: str = "", budget: GapBudget | None = None,
    progress: Callable[[str], Any] | None = None, module: ModuleType | None = None,
) -> GapReport:
    """Strict runs over the configurations; every finding with its shortest trace, judged.

    First every strict alternative at once; then, for each strict ruling no run reached,
    a run with only that ruling strict (another gap may have cut the way to it) on every
    configuration whose first run was complete; and if that does not reach it either, a
    run with one other ruling changed, where random games show the gap opens
    (:func:`_gap_setting`).
    """
    t0 = time.perf_counter()
    if configs is None:
        configs = small_configs(rules, module)
    elif not isinstance(configs, Configs):
        configs = Configs(tuple(configs), "given", False)
    if register is None:
        register, spec_problem = load_register(rules.id)
    budget = budget or GapBudget()
    report = GapReport(rules.id, configs, spec_problem=spec_problem)
    found: dict[tuple[str, str], GapFinding] = {}
    strict_all = strict_options(rules.Options)
    complete = []
    for config in configs.configs:
        run, fs = explore_config(rules, config, strict_all, budget, progress)
        report.runs.append(run)
        if run.complete:
            complete.append(config)
        for f in fs:
            _keep(found, f)
    reached = {k for (kind, k) in found if kind == "gap"}

    def seen(rid: str) -> bool:
        return any(kind == "gap" and k == rid for (kind, k) in found)

    def hunt(rid: str, options: Any, note: str) -> None:
        """Run ``options`` on the complete configurations until one raises gap ``rid``."""
        for config in complete:
            run, fs = explore_config(rules, config, options, budget, progress)
            run.note = note
            report.runs.append(run)
            for f in fs:
                _keep(found, f)
            if any(f.kind == "gap" and f.key == rid for f in fs):
                return

    for rid in strict_rulings(rules):
        if rid in reached:
            continue
        # Only where the strict run was complete: there another gap cut the way; where the
        # budget cut the run, the same budget would not reach further.
        hunt(rid, with_alternative(rules.Options(), rules, rid, STRICT), f"only {rid} strict")
        if not seen(rid):
            setting = _gap_setting(rules, rid, complete, seed=budget.seed)
            if setting is not None:
                hunt(rid, setting[1], f"only {rid} strict, with {setting[0]}")
        if not seen(rid):
            report.unreached.append(rid)
    for f in found.values():
        f.status = judge(f, register)
    order = {"gap": 1}
    report.findings = sorted(
        found.values(), key=lambda f: (f.status == REGISTERED, order.get(f.kind, 0), f.length, f.key)
    )
    report.seconds = time.perf_counter() - t0
    return report


# --------------------------------------------------------------------------- the check item


def gap_check_item(ruleset_id: str, states: int = 40_000):
    """A check-suite item: the strict gap finder over the rule set's small configurations,
    each run budgeted at ``states`` stored states (see Context.states); fails on any finding
    that is not a registered ruling."""
    from ..checks import FAIL, PASS, CheckItem, CheckResult, Context

    def run(ctx: Context) -> CheckResult:
        rules, module = load_rules(ruleset_id)
        configs = small_configs(rules, module)
        budget = GapBudget(max_states=ctx.states(states), seed=1 + ctx.seed)
        report = find_gaps(rules, configs, budget=budget, progress=ctx.progress, module=module)
        rows = [
            (f"run {r.config.label()}" + (f" ({r.note})" if r.note else ""), f"{r.coverage}; {r.graph}".rstrip("; "))
            for r in report.runs
        ]
        rows += [
            (f"{f.title()} [{f.status}]", f"{f.where()} on {f.config.label()}: {f.detail}") for f in report.findings
        ]
        status = FAIL if not report.ok else PASS
        return CheckResult(ruleset_id, "gaps in strict mode", status, report.summary(), rows,
                           [f.as_finding() for f in report.unregistered], report.seconds)

    return CheckItem(ruleset_id, "gaps in strict mode", run)


def describe(findings: Iterable[GapFinding]) -> list[str]:
    """Plain lines: each finding and its numbered trace (for logs and tests)."""
    lines = []
    for f in findings:
        lines.append(f"{f.title()} [{f.status}] {f.where()} on {f.config.label()}: {f.detail}")
        for i, s in enumerate(f.trace, 1):
            lines.append(f"  {i:3}. {s.text()}")
        if f.move is not None:
            lines.append(f"  {len(f.trace) + 1:3}. {f.move}  <- raises here")
    return lines
