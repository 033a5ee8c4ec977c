"""How much a ruling matters at the table.

For every ruling and every alternative (the other rulings at their defaults), on the small
configurations: the game length (seat moves), how often the first seat to move wins or
loses, how often the game ends in a draw, never ends, or runs into a RuleGap (a ``strict``
alternative: how often a table would meet the hole).

The seats follow a fixed policy, uniform random over their legal moves, so a game is a
Markov chain.  Where the chain is small and has no cycle, the numbers are **exact**
(Fractions, memoised over states, symmetric states shared when the rule set's default
symmetry leaves seats alone); otherwise they are **sampled** (seeded, with a 95%
confidence interval: Wilson for rates, normal for the mean length) and games that pass a
step cap count as never ending.  Every row says which.

Win, lose and tie per seat are separate outcomes that never overlap (with "never ends" and
"hits a gap" they add up to 100%): a seat *ties* when the game is a draw (the outcome says so,
or names nobody); otherwise it *wins* when the outcome names it a winner (alone or with
others), or names only losers and not it; otherwise it *loses* (named a loser, alone or with
others, or not named beside winners).  A loss shared with another seat is a loss: three-player
Just Desserts names one winner, and the two others lose.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Sequence

from tablerules.model.core import (
    CHANCE, TERMINAL, Outcome, RuleGap, RuleSet, Setup, SetupError, pick_by_probability, ruling_fields,
)

from .gaps import Config, Configs, model_module, small_configs, with_alternative


class TooLarge(Exception):
    """The exact computation would pass its state budget."""


class Cyclic(Exception):
    """The chain has a cycle: exact memoised recursion does not apply."""


# --------------------------------------------------------------------------- per-seat results


def seat_result(out: Outcome, seat: int) -> str:
    """win, lose or tie for one seat: exclusive (see the module docstring)."""
    if out.draw or (not out.winners and not out.losers):
        return "tie"  # a draw: nobody won or lost
    if seat in out.winners or (not out.winners and seat not in out.losers):
        return "win"
    return "lose"


def seat_results(out: Outcome | None, players: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """(win, lose, tie) per seat as 0/1 values; for each seat exactly one is 1 when the game ended."""
    if out is None:
        return (0,) * players, (0,) * players, (0,) * players
    res = [seat_result(out, s) for s in range(players)]
    return (
        tuple(int(r == "win") for r in res), tuple(int(r == "lose") for r in res), tuple(int(r == "tie") for r in res),
    )


@dataclass(frozen=True)
class Values:
    """Expectations from one state: length (seat moves), per-seat win/lose/tie, gap, never-ends."""

    length: Any
    win: tuple
    lose: tuple
    tie: tuple
    gap: Any
    never: Any = 0
    states: int = 0
    """Distinct states the exact computation visited (set on the root's values)."""


def _zero(n: int, one: Any) -> Values:
    z = one * 0
    return Values(z, (z,) * n, (z,) * n, (z,) * n, z, z)


def _add(acc: Values, v: Values, w: Any) -> Values:
    return Values(acc.length + w * v.length, tuple(a + w * b for a, b in zip(acc.win, v.win)),
                  tuple(a + w * b for a, b in zip(acc.lose, v.lose)), tuple(a + w * b for a, b in zip(acc.tie, v.tie)),
                  acc.gap + w * v.gap,
                  acc.never + w * v.never)


def _leaf(rules: RuleSet, state: Any, n: int) -> Values | None:
    """Values at an end or a gap; None if play goes on."""
    try:
        actor = rules.to_move(state)
        if actor is not TERMINAL:
            return None
        win, lose, tie = seat_results(rules.outcome(state), n)
    except RuleGap:
        return Values(Fraction(0), (Fraction(0),) * n, (Fraction(0),) * n, (Fraction(0),) * n, Fraction(1))
    f = Fraction
    return Values(f(0), tuple(map(f, win)), tuple(map(f, lose)), tuple(map(f, tie)), f(0))


_GAP = object()


def _moves(rules: RuleSet, state: Any) -> tuple[Any, list[tuple[Any, Fraction]]]:
    """(actor, [(next state or _GAP, probability)]) under the uniform random policy."""
    try:
        actor = rules.to_move(state)
        if actor is CHANCE:
            opts = list(rules.chance_outcomes(state))
        else:
            moves = rules.legal_moves(state)
            opts = [(m, Fraction(1, len(moves))) for m in moves] if moves else []
    except RuleGap:
        return actor, [(_GAP, Fraction(1))]
    out = []
    for m, p in opts:
        try:
            out.append((rules.apply(state, m), p))
        except RuleGap:
            out.append((_GAP, p))
    return actor, out


def _canon(rules: RuleSet) -> Callable[[Any], Any] | None:
    """The default symmetry, if it keeps seats apart (per-seat numbers must not mix)."""
    name = rules.default_symmetry
    if not name or "seat" in name or name not in rules.symmetries:
        return None
    return rules.symmetries[name]


def exact_values(rules: RuleSet, start: Any, *, max_states: int = 20_000) -> Values:
    """Exact expectations from ``start`` under uniform random play (iterative memoised DFS).

    Raises TooLarge past ``max_states`` distinct states, Cyclic on a cycle.
    """
    n = start.setup.players
    canon = _canon(rules) or (lambda s: s)
    memo: dict[Any, Values] = {}
    on_stack: set[Any] = set()
    zeros = (Fraction(0),) * n
    gap_values = Values(Fraction(0), zeros, zeros, zeros, Fraction(1))
    dead = Values(Fraction(0), zeros, zeros, zeros, Fraction(0), Fraction(1))
    root = canon(start)
    stack: list[tuple[Any, Any, list | None]] = [(root, start, None)]
    while stack:
        key, state, succ = stack[-1]
        if key in memo:
            stack.pop()
            continue
        if succ is None:
            leaf = _leaf(rules, state, n)
            if leaf is not None:
                memo[key] = leaf
                stack.pop()
                continue
            actor, nxt = _moves(rules, state)
            succ = [(_GAP, p, None) if t is _GAP else (canon(t), p, t) for t, p in nxt]
            stack[-1] = (key, state, succ)
            on_stack.add(key)
            if len(memo) + len(on_stack) > max_states:
                raise TooLarge(f"more than {max_states:,} states")
            pending = False
            for k, _p, t in succ:
                if k is _GAP or k in memo:
                    continue
                if k in on_stack:
                    raise Cyclic("the game can return to an earlier state")
                stack.append((k, t, None))
                pending = True
            if pending:
                continue
        # every successor is known: combine
        actor = rules.to_move(state)
        if not succ:
            acc = dead  # nobody can act and it is not an end: counts as never ending
        else:
            acc = _zero(n, Fraction(1))
            for k, p, _t in succ:
                acc = _add(acc, gap_values if k is _GAP else memo[k], p)
            if isinstance(actor, int):
                acc = Values(acc.length + 1, acc.win, acc.lose, acc.tie, acc.gap, acc.never)
        memo[key] = acc
        on_stack.discard(key)
        stack.pop()
    return dataclasses.replace(memo[root], states=len(memo))


def first_seat_values(
    rules: RuleSet, start: Any, values_of: Callable[[Any], Values]
) -> tuple[Fraction, Fraction, Fraction]:
    """(P(first seat to move wins), P(it loses), P(it ties)), walking chance until a seat moves."""
    win = lose = tie = Fraction(0)
    stack = [(start, Fraction(1))]
    while stack:
        s, w = stack.pop()
        try:
            actor = rules.to_move(s)
        except RuleGap:
            continue
        if actor is TERMINAL:
            continue
        if actor is CHANCE:
            try:
                outs = rules.chance_outcomes(s)
            except RuleGap:
                continue
            for m, p in outs:
                try:
                    stack.append((rules.apply(s, m), w * p))
                except RuleGap:
                    pass
            continue
        v = values_of(s)
        win += w * v.win[actor]
        lose += w * v.lose[actor]
        tie += w * v.tie[actor]
    return win, lose, tie


def outcome_distribution(values: Values, state: Any) -> dict[str, Fraction]:
    """A comparable summary of a state's values: per-seat win/lose/tie, gap, never."""
    out = {}
    for s, (w, l, t) in enumerate(zip(values.win, values.lose, values.tie)):
        out[f"seat {s} wins"] = w
        out[f"seat {s} loses"] = l
        out[f"seat {s} ties"] = t
    out["gap"], out["never ends"] = values.gap, values.never
    return out


# --------------------------------------------------------------------------- what the statistics weigh chance by


def chance_weights(rules: RuleSet) -> tuple[str, ...]:
    """The rulings whose alternatives change only chance probabilities (the model's ``CHANCE_WEIGHTS``):
    no check depends on them, every statistic does."""
    module = model_module(rules)
    return tuple(getattr(module, "CHANCE_WEIGHTS", ())) if module is not None else ()


def weights_used(rules: RuleSet, options: Any) -> str:
    """`jd23.ruling.race-odds=tie-one-in-ten`: the alternative of each chance-weight ruling in
    ``options`` (empty for a rule set that has none)."""
    fields_ = ruling_fields(rules.Options)
    return ", ".join(f"{rid}={getattr(options, fields_[rid].name)}" for rid in chance_weights(rules) if rid in fields_)


# --------------------------------------------------------------------------- one measurement


@dataclass
class Estimate:
    value: float
    low: float | None = None
    high: float | None = None
    exact: Fraction | None = None

    def text(self, percent: bool = True) -> str:
        f = (lambda x: f"{100 * x:.1f}%") if percent else (lambda x: f"{x:.2f}")
        if self.low is None:
            return f(self.value)
        return f"{f(self.value)} [{f(self.low)}, {f(self.high)}]"


@dataclass
class Impact:
    """The measurements for one alternative on one configuration."""

    ruling: str
    alternative: str
    config: Config
    method: str
    """exact (N states) or sampled (N games, 95% CI)."""
    length: Estimate
    first_wins: Estimate
    first_loses: Estimate
    tie: Estimate
    """The game is a draw: the outcome names nobody (or says draw)."""
    never_ends: Estimate
    gap: Estimate
    seconds: float = 0.0
    note: str = ""
    options: Any = None
    weights: str = ""
    """The alternative of each ruling that weighs chance (:func:`weights_used`) these numbers used."""

    def row(self) -> list[str]:
        return [
            self.alternative, self.config.label(), self.method, self.length.text(percent=False), self.first_wins.text(),
            self.first_loses.text(), self.tie.text(), self.never_ends.text(), self.gap.text(),
        ]


HEADER = ("alternative", "configuration", "method", "length (seat moves)", "first seat wins (alone or shared)",
          "first seat loses (alone or shared)", "a draw (nobody named)", "never ends", "hits a gap")
"""The five outcome columns are separate outcomes for the seat that moves first: they add up to 100%.
A loss shared with others is a loss (the plot of each seat's chance of losing counts it so too)."""


def _exact(x: Fraction) -> Estimate:
    return Estimate(float(x), exact=x)


def measure_exact(rules: RuleSet, start: Any, max_states: int) -> tuple[dict[str, Estimate], int]:
    memo_values: dict[Any, Values] = {}

    def values_of(s: Any) -> Values:
        if s not in memo_values:
            memo_values[s] = exact_values(rules, s, max_states=max_states)
        return memo_values[s]

    v = values_of(start)
    win, lose, tie = first_seat_values(rules, start, values_of)
    states = v.states
    return {"length": _exact(v.length), "first_wins": _exact(win), "first_loses": _exact(lose), "tie": _exact(tie),
            "never_ends": _exact(v.never), "gap": _exact(v.gap)}, states


def wilson(k: int, n: int, z: float = 1.96) -> Estimate:
    if n == 0:
        return Estimate(0.0, 0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return Estimate(p, max(0.0, c - h), min(1.0, c + h))


def play_random(rules: RuleSet, start: Any, rng: random.Random, step_cap: int) -> tuple[str, int, Any, Any]:
    """One game under the uniform random policy: (how it ended, seat moves, outcome, first seat)."""
    s, length, first = start, 0, None
    for _ in range(step_cap):
        try:
            actor = rules.to_move(s)
            if actor is TERMINAL:
                return "end", length, rules.outcome(s), first
            if actor is CHANCE:
                move = pick_by_probability(rules.chance_outcomes(s), rng.random())
            else:
                moves = rules.legal_moves(s)
                if not moves:
                    return "dead", length, None, first
                move = moves[rng.randrange(len(moves))]
                if first is None:
                    first = actor
                length += 1
            s = rules.apply(s, move)
        except RuleGap:
            return "gap", length, None, first
    return "cap", length, None, first


def measure_sampled(rules: RuleSet, start: Any, games: int, seed: int = 1,
                    step_cap: int = 10_000) -> tuple[dict[str, Estimate], int]:
    """``games`` seeded games under uniform random play (counted in games, so the numbers do
    not depend on the machine)."""
    rng = random.Random(seed)
    n = start.setup.players
    lengths: list[int] = []
    counts = {"first_wins": 0, "first_loses": 0, "tie": 0, "never_ends": 0, "gap": 0}
    played = 0
    while played < games:
        how, length, out, first = play_random(rules, start, rng, step_cap)
        played += 1
        lengths.append(length)
        if how in ("cap", "dead"):
            counts["never_ends"] += 1
        elif how == "gap":
            counts["gap"] += 1
        else:
            win, lose, tie = seat_results(out, n)
            if first is not None:
                counts["first_wins"] += win[first]
                counts["first_loses"] += lose[first]
                counts["tie"] += tie[first]
    mean = sum(lengths) / played
    var = sum((x - mean) ** 2 for x in lengths) / max(1, played - 1)
    half = 1.96 * math.sqrt(var / played)
    est = {k: wilson(v, played) for k, v in counts.items()}
    est["length"] = Estimate(mean, mean - half, mean + half)
    return est, played


@dataclass
class ImpactBudget:
    """What decides between exact and sampled numbers, and how many games a sample holds:
    counts only, so the same inputs give the same table on any machine."""

    max_states: int = 10_000
    """Exact computation above this many (symmetry-reduced) states gives way to sampling."""
    games: int = 1_000
    seed: int = 1


def measure(rules: RuleSet, ruling_id: str, alternative: str, config: Config, budget: ImpactBudget,
            base: Any = None, exact_ok: bool = True, setup: Setup | None = None) -> Impact:
    """One row: exact when small and acyclic, else sampled (``setup`` overrides config and options)."""
    t0 = time.perf_counter()
    base = rules.Options() if base is None else base
    options = with_alternative(base, rules, ruling_id, alternative) if ruling_id else base
    # with a given setup the caller states the weights (its options may record every field read)
    weights = weights_used(rules, options) if setup is None else ""
    try:
        start = rules.new_game(setup if setup is not None else config.setup(rules, options))
    except RuleGap:
        one, zero = _exact(Fraction(1)), _exact(Fraction(0))
        return Impact(ruling_id, alternative, config, "exact (raises at the start)", zero, zero, zero, zero, zero, one,
                      time.perf_counter() - t0, weights=weights)
    note = ""
    if exact_ok:
        try:
            est, states = measure_exact(rules, start, budget.max_states)
            return Impact(
                ruling_id, alternative, config, f"exact ({states:,} states)", est["length"], est["first_wins"],
                est["first_loses"], est["tie"], est["never_ends"], est["gap"], time.perf_counter() - t0,
                weights=weights,
            )
        except TooLarge as e:
            note = f"too large for exact ({e})"
        except Cyclic as e:
            note = f"cyclic ({e})"
    est, played = measure_sampled(rules, start, budget.games, budget.seed)
    return Impact(
        ruling_id, alternative, config, f"sampled ({played:,} games, 95% CI)", est["length"], est["first_wins"],
        est["first_loses"], est["tie"], est["never_ends"], est["gap"], time.perf_counter() - t0, note=note,
        weights=weights,
    )


def recording_options(options: Any) -> tuple[Any, set[str]]:
    """A copy of ``options`` that records which fields the model reads, and that record.

    Equality and hashing read no field, so Setup values and caches do not count as reads.
    A ruling whose field is never read during a complete walk of a configuration cannot
    change anything there: every alternative plays the same game.
    """
    cls = type(options)
    names = frozenset(f.name for f in dataclasses.fields(cls))
    reads: set[str] = set()
    get = object.__getattribute__

    class Recording(cls):  # type: ignore[misc, valid-type]
        __slots__ = ()

        def __getattribute__(self, name: str) -> Any:
            if name in names:
                reads.add(name)
            return get(self, name)

        def __eq__(self, other: object) -> bool:
            return type(other) is type(self) and all(get(self, n) == get(other, n) for n in names)

        def __hash__(self) -> int:
            return hash(tuple(get(self, f.name) for f in dataclasses.fields(cls)))

    Recording.__name__ = Recording.__qualname__ = f"Recording{cls.__name__}"
    values = {f.name: get(options, f.name) for f in dataclasses.fields(cls)}
    return Recording(**values), reads


def consulted(rules: RuleSet, config: Config, budget: ImpactBudget, base: Any = None) -> tuple[Impact, set[str] | None]:
    """The default row for a configuration, and the ruling ids the model consulted there
    (None when the walk was not complete, i.e. the row was sampled)."""
    base = rules.Options() if base is None else base
    checked = config.setup(rules, base)  # SetupError here; checking reads every field, so not with the recorder
    rec, reads = recording_options(base)
    row = measure(rules, "", "", config, budget, setup=Setup(checked.players, rec, checked.components))
    row.options, row.weights = base, weights_used(rules, base)
    if not row.method.startswith("exact"):
        return row, None
    by_name = {f.name: rid for rid, f in ruling_fields(rules.Options).items()}
    return row, {by_name[n] for n in reads if n in by_name}


@dataclass
class RulingImpact:
    ruling: str
    rows: list[Impact] = field(default_factory=list)


def _safe_measure(rules: RuleSet, rid: str, alt: str, config: Config, budget: ImpactBudget, base: Any,
                  exact_ok: bool) -> Impact:
    try:
        return measure(rules, rid, alt, config, budget, base=base, exact_ok=exact_ok)
    except SetupError as e:
        nothing = Estimate(float("nan"))
        return Impact(rid, alt, config, f"not set up: {e}", nothing, nothing, nothing, nothing, nothing, nothing)


def _safe_consulted(rules: RuleSet, config: Config, budget: ImpactBudget) -> tuple[Impact | None, set[str] | None]:
    try:
        return consulted(rules, config, budget)
    except SetupError:
        return None, None


_TASKS: list[Callable[[], Any]] = []


def _run_task(i: int) -> Any:
    return _TASKS[i]()


def _ignore_interrupts() -> None:
    """Pool workers leave Ctrl-C to the parent, which stops them all (see run_all)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_all(tasks: list[Callable[[], Any]], workers: int = 1, done: Callable[[int], None] | None = None) -> list[Any]:
    """Run independent tasks, in ``workers`` forked processes when more than one (results
    come back pickled; the tasks themselves are inherited by fork, never pickled).
    ``done`` hears how many tasks have finished, as they finish (a progress display).

    Ctrl-C (or any other exception in the parent) stops every worker at once and is raised
    again, so an interrupted run never carries on or reports success.
    """
    import multiprocessing as mp

    tell = done or (lambda n: None)
    if workers <= 1 or len(tasks) <= 1 or "fork" not in mp.get_all_start_methods():
        out = []
        for t in tasks:
            out.append(t())
            tell(len(out))
        return out
    global _TASKS
    _TASKS = tasks
    pool = mp.get_context("fork").Pool(min(workers, len(tasks)), initializer=_ignore_interrupts)
    try:
        results = [pool.apply_async(_run_task, (i,)) for i in range(len(tasks))]
        while not all(r.ready() for r in results):
            results[next(i for i, r in enumerate(results) if not r.ready())].wait(0.2)  # short waits: Ctrl-C is heard
            tell(sum(r.ready() for r in results))
        out = [r.get() for r in results]
        tell(len(out))
        pool.close()
        return out
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()
        _TASKS = []


def all_impacts(
    rules: RuleSet,
    configs: Configs | Sequence[Config] | None = None,
    *,
    budget: ImpactBudget | None = None, rulings: Sequence[str] | None = None,
    progress: Callable[[str], None] | None = None, settings: dict[str, tuple[str, Any]] | None = None, workers: int = 1,
) -> list[RulingImpact]:
    """Every ruling, every alternative, every configuration (the default row computed once per configuration).

    ``settings`` maps a ruling id to (label, options) for a ruling that only matters in
    combination (see :func:`tablerules.proofs.discovery.divergence.all_divergences`): its rows are
    measured with those options, and the note says so.  ``workers`` > 1 spreads the rows
    over that many forked processes (the numbers do not depend on it: sampling is seeded
    per row).
    """
    budget = budget or ImpactBudget()
    if configs is None:
        configs = small_configs(rules)
    cfgs = configs.configs if isinstance(configs, Configs) else tuple(configs)
    fields_ = ruling_fields(rules.Options)
    wanted = list(rulings or fields_)
    if progress:
        progress(f"impact: defaults on {len(cfgs)} configurations")
    plain = [rid for rid in wanted if not (settings and rid in settings)]
    found = run_all([lambda c=c: _safe_consulted(rules, c, budget) for c in cfgs] if plain else [], workers)
    defaults = dict(zip(cfgs, found))
    # plan every row: copied from the defaults, or a task to measure
    plan: list[tuple[str, str, Config, Any]] = []  # (rid, alt, config, Impact or task index)
    tasks: list[Callable[[], Any]] = []
    for rid in wanted:
        alts = fields_[rid].metadata["alternatives"]
        for config in cfgs:
            for alt in alts:
                if settings and rid in settings:
                    base = settings[rid][1]
                    tasks.append(lambda r=rid, a=alt, c=config, b=base: _safe_measure(rules, r, a, c, budget, b, True))
                    plan.append((rid, alt, config, len(tasks) - 1))
                    continue
                d, reads = defaults[config]
                if d is not None and (alt == alts[0] or (reads is not None and rid not in reads)):
                    note = d.note if alt == alts[0] else "same game: the ruling is never consulted here"
                    weights = weights_used(rules, with_alternative(rules.Options(), rules, rid, alt))
                    plan.append(
                        (
                            rid, alt, config,
                            dataclasses.replace(
                                d, ruling=rid, alternative=alt, seconds=0.0, note=note, weights=weights
                            ),
                        )
                    )
                    continue
                # where the defaults were too large for exact, so are the alternatives: sample at once
                exact_ok = d is None or d.method.startswith("exact")
                tasks.append(lambda r=rid, a=alt, c=config, e=exact_ok: _safe_measure(rules, r, a, c, budget, None, e))
                plan.append((rid, alt, config, len(tasks) - 1))
    if progress:
        progress(f"impact: {len(tasks)} rows to measure")
    results = run_all(tasks, workers)
    out = []
    for rid in wanted:
        ri = RulingImpact(rid)
        for r, _alt, _config, item in plan:
            if r != rid:
                continue
            row = results[item] if isinstance(item, int) else item
            if settings and rid in settings:
                row.note = f"with {settings[rid][0]}" + (f"; {row.note}" if row.note else "")
            ri.rows.append(row)
        out.append(ri)
    return out
