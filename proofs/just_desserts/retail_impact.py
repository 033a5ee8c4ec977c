"""How much each ruling matters on the retail deck, from many random games.

The impact tables of :mod:`.impact` are for the teaching decks (exact over the chance tree
where a deck fits).  The retail card list is far too large for that, so here every
alternative of every ruling is measured from ``RetailBudget.games`` random games (100,000
by default) on a retail configuration: a *game* is one random game from a fresh deal to its
end, every seat picking uniformly among its legal moves and chance picking each outcome with
its exact probability (the law of :mod:`tablerules.model.playout`).  The *first seat* is the
seat that moves first after the deal (seat 0 in both Just Desserts editions); its win, lose
and tie shares and the game length in seat moves are those of :mod:`.impact` (95% intervals:
Wilson for shares, normal for the mean length; at 100,000 games a share is known to about
±0.3 points).

Games are played by the rule set's compiled playout where it can play the setup (both
editions' loops play every alternative, strict ones to their gap), else through the step API
with ``RetailBudget.step_games`` games (a deck or player count a loop cannot hold); every row
says which, how many games and the seed.

Which rulings can matter where: :func:`probe` plays ``probe_games`` games through the step
API with options that record every field the model reads.  Play is the same under every
alternative of a ruling until the model first reads it, so in a game where it is never
read every alternative plays that game alike: a ruling read in no probe game is left out
(its alternatives move any share by at most the chance of reading it, under 3 / probe_games
at 95%, the rule of three).  A ruling is measured on the first configuration where it is
read (basic rulings on the basic game, the rest with all three advanced rules).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from tablerules.model.core import RuleGap, RuleSet, Setup, SetupError, ruling_fields
from tablerules.model.playout import EndlessGame, compiled, first_seat, iter_games, seat_moves

from ..discovery.gaps import with_alternative
from ..discovery.impact import Estimate, play_random, recording_options, run_all, wilson


@dataclass(frozen=True)
class RetailBudget:
    """Counts only, so a table is the same on any machine (the seeds are printed with it)."""

    games: int = 100_000
    """Games per alternative where the compiled playout plays the setup."""
    step_games: int = 1_000
    """Games per alternative through the step API (about 40 games a second on the retail deck): a wider
    interval, stated in the row."""
    probe_games: int = 300
    """Games through the step API that find which rulings the model reads."""
    seed: int = 2015

    def text(self) -> str:
        return (f"{self.games:,} games per alternative (compiled playouts), {self.step_games:,} through the step API; "
                f"rulings probed with {self.probe_games:,} games; seed {self.seed}")


@dataclass(frozen=True)
class RetailConfig:
    """A retail configuration: player count and the options every row starts from."""

    label: str
    players: int
    base: Any


def retail_configs(rules: RuleSet) -> list[RetailConfig]:
    """4 players (the rulings that need three or more seats are live): the basic game, and for the current
    rulebook also all three advanced rules (jd.advanced.*), where the advanced rulings are read."""
    label = "4 players, basic game" if rules.id == "just-desserts" else "4 players"
    configs = [RetailConfig(label, 4, rules.Options())]
    if rules.id == "just-desserts":
        advanced = rules.Options(poaching=True, buffet=True, surprise_parties=True)
        configs.append(RetailConfig("4 players, all three advanced rules", 4, advanced))
    return configs


# --------------------------------------------------------------------------- which rulings the model reads


@dataclass
class Probe:
    config: RetailConfig
    games: int
    read_in: dict[str, int]
    """Ruling id -> in how many of the games the model read it (the deal counts for every game)."""


def probe(rules: RuleSet, deck: Any, config: RetailConfig, games: int, seed: int) -> Probe:
    """Which rulings the model reads in ``games`` random games (step API, recording options); none where the
    deck cannot be set up for the configuration."""
    try:
        checked = rules.setup(config.players, config.base, deck)  # checking reads every field: not with the recorder
    except SetupError:
        return Probe(config, 0, {})
    rec, reads = recording_options(config.base)
    start = rules.new_game(Setup(checked.players, rec, checked.components))
    at_start = set(reads)
    by_name = {f.name: rid for rid, f in ruling_fields(rules.Options).items()}
    counts = {rid: 0 for rid in by_name.values()}
    rng = random.Random(seed)
    for _ in range(games):
        reads.clear()
        reads.update(at_start)
        play_random(rules, start, rng, 10_000)
        for name in reads:
            if name in by_name:
                counts[by_name[name]] += 1
    return Probe(config, games, counts)


# --------------------------------------------------------------------------- one row


RESULTS = ("wins", "shares", "other", "nobody", "never", "gap")
"""How one game ends for the first seat: it is the only winner; one of several winners; another seat wins
(alone or shared); the rules name no winner (a draw); the game never ends (the compiled loop's MAX_ACTIONS,
or the step API's 10,000 steps); a strict alternative's gap stops it.  Exactly one per game."""


def result(winners: frozenset[int], first: int) -> str:
    """The first seat's result in a game that ended with these ``winners`` (see RESULTS)."""
    if not winners:
        return "nobody"
    if first in winners:
        return "wins" if len(winners) == 1 else "shares"
    return "other"


@dataclass
class Tally:
    """Counts of RESULTS and the sum of game lengths (seat moves) over the games played."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(RESULTS, 0))
    games: int = 0
    total: int = 0
    total_sq: int = 0

    def add(self, how: str, length: int) -> None:
        self.counts[how] += 1
        self.games += 1
        self.total += length
        self.total_sq += length * length

    def estimates(self) -> dict[str, Estimate]:
        n = self.games
        est = {k: wilson(v, n) for k, v in self.counts.items()}
        mean = self.total / n if n else float("nan")
        var = max(0.0, (self.total_sq - n * mean * mean) / max(1, n - 1)) if n else 0.0
        half = 1.96 * math.sqrt(var / n) if n else float("nan")
        est["length"] = Estimate(mean, mean - half, mean + half)
        return est


@dataclass
class RetailRow:
    ruling: str
    alternative: str
    config: str
    method: str
    games: int
    estimates: dict[str, Estimate]
    seconds: float = 0.0

    def cells(self) -> list[str]:
        e = self.estimates
        return [self.alternative, self.config, f"{self.games:,}", self.method, e["length"].text(percent=False),
                *(e[k].text() for k in RESULTS)]


HEADER = ("alternative", "configuration", "games", "method (seed)", "length (seat moves)", "first seat wins",
          "first seat shares a win", "another seat wins", "nobody wins", "never ends", "hits a gap")
"""The six outcome columns are the RESULTS: separate outcomes of a game, they add up to 100%."""


def measure_compiled(rules: RuleSet, start: Any, games: int, seed: int,
                     progress: Callable[[int], None] | None = None) -> Tally:
    """``games`` random games from ``start`` by the compiled playout (``compiled(rules, start.setup)`` must hold).

    A game the compiled loop stops as endless (its EndlessGame at MAX_ACTIONS actions) counts as never
    ending, and play goes on with the next seed (``seed`` + 7919 x restarts): the numbers stay reproducible.
    A game a strict ruling stops hits a gap, its length the seat moves up to the refused one."""
    first = first_seat(rules)
    tally = Tally()
    restarts = 0
    while tally.games < games:
        try:
            for p in iter_games(rules, start, games - tally.games, seed + 7919 * restarts):
                tally.add("gap" if p.gap else result(p.winners, first), seat_moves(rules, p.moves))
                if progress is not None and tally.games % 10_000 == 0:
                    progress(tally.games)
        except EndlessGame:  # one game that did not end (jd.ruling.endless-play=play-on)
            tally.add("never", 0)
            restarts += 1
    return tally


def measure_step(rules: RuleSet, start: Any, games: int, seed: int, step_cap: int = 10_000) -> Tally:
    """``games`` random games from ``start`` through the step API (:func:`.impact.play_random`)."""
    rng = random.Random(seed)
    tally = Tally()
    for _ in range(games):
        how, length, out, first = play_random(rules, start, rng, step_cap)
        if how == "end":
            tally.add(result(out.winners, first if first is not None else first_seat(rules)), length)
        else:
            tally.add("gap" if how == "gap" else "never", length)
    return tally


def measure_row(rules: RuleSet, deck: Any, ruling: str, alternative: str, config: RetailConfig, budget: RetailBudget,
                progress: Callable[[str], None] | None = None) -> RetailRow:
    """One alternative on one retail configuration: compiled where it plays the setup, else the step API."""
    t0 = time.perf_counter()
    options = with_alternative(config.base, rules, ruling, alternative) if ruling else config.base
    name = f"{ruling}={alternative}" if ruling else "defaults"
    try:
        setup = rules.setup(config.players, options, deck)
        start = rules.new_game(setup)
    except (SetupError, RuleGap) as e:
        nothing = Estimate(float("nan"))
        return RetailRow(ruling, alternative, config.label, f"not played: {e}", 0,
                         {k: nothing for k in ("length", *RESULTS)})
    if compiled(rules, setup):
        tell = (lambda k: progress(f"  retail {name}, {config.label}: {k:,} games")) if progress else None
        tally = measure_compiled(rules, start, budget.games, budget.seed, tell)
        method = f"compiled playouts (seed {budget.seed})"
    else:
        tally = measure_step(rules, start, budget.step_games, budget.seed)
        method = f"step API (seed {budget.seed})"
    row = RetailRow(ruling, alternative, config.label, method, tally.games, tally.estimates(), time.perf_counter() - t0)
    if progress:
        progress(f"  retail {name}, {config.label}: {tally.games:,} games in {row.seconds:.0f} s")
    return row


def difference(row: RetailRow, default: RetailRow) -> Estimate:
    """The first seat's win share under ``row`` minus under ``default``, with Newcombe's 95% interval from the two
    Wilson intervals, taken as if the samples were independent (they share seeds, which only narrows the true one)."""
    x, y = row.estimates["wins"], default.estimates["wins"]
    d = x.value - y.value
    low = d - math.sqrt((x.value - x.low) ** 2 + (y.high - y.value) ** 2)
    high = d + math.sqrt((x.high - x.value) ** 2 + (y.value - y.low) ** 2)
    return Estimate(d, low, high)


# --------------------------------------------------------------------------- every ruling


@dataclass
class RetailImpact:
    """The retail table of one rule set, or why it was not measured."""

    deck: str
    budget: RetailBudget
    measured: bool = True
    reason: str = ""
    probes: list[Probe] = field(default_factory=list)
    rows: list[RetailRow] = field(default_factory=list)
    defaults: dict[str, RetailRow] = field(default_factory=dict)
    """Configuration label -> the row with every ruling at its default."""
    left_out: list[str] = field(default_factory=list)
    """Rulings read in no probe game on any configuration."""
    seconds: float = 0.0

    def rows_of(self, ruling: str) -> list[RetailRow]:
        return [r for r in self.rows if r.ruling == ruling]

    def note_of(self, ruling: str) -> str:
        """Where and how often the probe saw the model read ``ruling``."""
        return "; ".join(f"read in {p.read_in.get(ruling, 0):,} of {p.games:,} probe games on {p.config.label}"
                         for p in self.probes)


def not_measured(deck: str, reason: str, budget: RetailBudget | None = None) -> RetailImpact:
    return RetailImpact(deck, budget or RetailBudget(), measured=False, reason=reason)


def all_retail(rules: RuleSet, deck: Any, deck_name: str, budget: RetailBudget | None = None,
               rulings: Sequence[str] | None = None, workers: int = 1,
               progress: Callable[[str], None] | None = None) -> RetailImpact:
    """Every alternative of every ruling (or ``rulings``) the model reads on the retail deck (module docstring)."""
    t0 = time.perf_counter()
    budget = budget or RetailBudget()
    configs = retail_configs(rules)
    fields_ = ruling_fields(rules.Options)
    wanted = list(rulings or fields_)
    if progress:
        progress(f"  retail: probing which rulings the model reads ({budget.probe_games:,} games per configuration)")
    probes = run_all([lambda c=c: probe(rules, deck, c, budget.probe_games, budget.seed) for c in configs], workers)
    where: dict[str, RetailConfig] = {}
    for rid in wanted:
        for p in probes:
            if p.read_in.get(rid, 0):
                where[rid] = p.config
                break
    left_out = [rid for rid in wanted if rid not in where]
    plan: list[tuple[str, str, RetailConfig]] = [("", "", c) for c in configs if c in where.values()]
    for rid in wanted:
        if rid in where:
            plan += [(rid, alt, where[rid]) for alt in fields_[rid].metadata["alternatives"][1:]]
    if progress:
        progress(f"  retail: {len(plan)} rows to measure ({len(left_out)} rulings never read, left out)")
    # the slowest rows first, so two workers finish together
    order = sorted(range(len(plan)), key=lambda i: -_cost(rules, deck, *plan[i]))
    tasks = [lambda i=i: measure_row(rules, deck, *plan[i], budget=budget, progress=progress) for i in order]
    done = dict(zip(order, run_all(tasks, workers)))
    out = RetailImpact(deck_name, budget, probes=probes, left_out=left_out)
    for i, (rid, _alt, config) in enumerate(plan):
        if not rid:
            out.defaults[config.label] = done[i]
        else:
            out.rows.append(done[i])
    out.seconds = time.perf_counter() - t0
    return out


def _cost(rules: RuleSet, deck: Any, rid: str, alt: str, config: RetailConfig) -> int:
    """1 for a row the step API plays (the slowest), else 0."""
    options = with_alternative(config.base, rules, rid, alt) if rid else config.base
    try:
        return 0 if compiled(rules, rules.setup(config.players, options, deck)) else 1
    except SetupError:
        return 0
