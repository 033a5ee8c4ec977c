"""Where two readings of a ruling part ways.

For a ruling and two of its alternatives a and b (``strict`` included: it diverges where
it raises), a breadth-first search over *pairs* of states (a product construction) plays
the same moves under both readings, from the same start, until the two differ in what the
table sees: who is to move, the legal moves, the chance outcomes and their probabilities,
the outcome at the end, or a :class:`~tablerules.model.core.RuleGap` raised by one only.
The first such pair is a shortest witness.  Where only the recorded state differs
(``rules.state_vars``) and nothing a player sees, the search goes on, and that quieter
difference is reported only if nothing louder is found within the bound.  When the search
ends without a difference it says so, with its bound: *complete* (every reachable pair of
the configurations compared) or cut by its depth or pair budget (counts, never seconds, so
the answer does not depend on the machine).

Every configuration is a source of the same search, so the witness is the shortest over
all of them.  The other rulings stay at their defaults.

:func:`order_of_resolution` asks, for models with out-of-turn races (a model attribute
``is_race(state)``), whether who answers first changes the outcome.

Witness files (spec/witnesses/<rule set>-<ruling slug>.json) are plain JSON, read and
written by :func:`write_witness` / :func:`read_witness`, replayed by :func:`replay_witness`.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Sequence

from tablerules.model.core import (
    CHANCE, STRICT, TERMINAL, IllegalMove, RuleGap, RuleSet, SetupError, actor_text, options_text,
    pick_by_probability, ruling_fields, short_ruling_name, variant_fields,
)

from ..explorer import Step
from .gaps import (
    Config, Configs, model_module, one_change_settings, small_configs, steps_to, with_alternative, wider_configs,
)
from ..files import write_atomic

# --------------------------------------------------------------------------- what a reading does at a point


@dataclass(frozen=True)
class Raised:
    """A pseudo-state: the reading raised instead of giving a state (a gap, or a refusal)."""

    kind: str
    """gap, illegal or error."""
    key: str
    detail: str = ""


@dataclass(frozen=True)
class Reading:
    """What one reading shows at one point of a trace."""

    sig: tuple
    """Everything the table sees, comparable between readings."""
    vars: str
    """The recorded state (JSON of rules.state_vars), compared only when sig agrees."""
    text: str
    """One line for people: `seat 1 to move: pass`, `raises RuleGap ...`, `game over: loser 0`."""
    data: dict
    view: str = ""
    """What every seat sees (JSON of rules.observation for each seat), compared only when the recorded state
    agrees: a ruling that decides only what a seat may see (jd.ruling.open-hands) parts here."""

    def to_json(self) -> dict:
        return dict(self.data, next=self.text)


def _short_list(items: Sequence[str], limit: int = 6) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f", ... ({len(items)} in all)" if len(items) > limit else "")


def read_state(rules: RuleSet, state: Any, with_vars: bool = True) -> Reading:
    """The observable signature of a state (or of a Raised pseudo-state); ``with_vars=False``
    leaves out the recorded state (a caller that ignores differences there saves its cost)."""
    if isinstance(state, Raised):
        text = {"gap": f"raises RuleGap {state.key}", "illegal": f"refuses the move [{state.key}]"}.get(
            state.kind, f"fails: {state.key}"
        )
        return Reading((state.kind, state.key), "", text + (f": {state.detail}" if state.detail else ""),
                       {"raises": state.kind, "key": state.key, "detail": state.detail})
    try:
        actor = rules.to_move(state)
        if actor is TERMINAL:
            out = rules.outcome(state)
            summary = out.summary() if out else "no outcome"
            scores = list(out.scores) if out else []
            sig: tuple = ("end", summary, tuple(scores))
            text = f"game over: {summary}" + (f" (scores {tuple(scores)})" if scores else "")
            data = {"to_move": "TERMINAL", "outcome": summary, "scores": scores}
        elif actor is CHANCE:
            outs = tuple((str(m), p) for m, p in rules.chance_outcomes(state))
            sig = ("chance", outs)
            text = "chance: " + _short_list([f"{m} {p}" for m, p in outs])
            data = {"to_move": "CHANCE", "chance": [[m, str(p)] for m, p in outs]}
        else:
            moves = tuple(str(m) for m in rules.legal_moves(state))
            sig = ("seat", actor, moves)
            text = f"{actor_text(actor)} to move: " + (_short_list(list(moves)) if moves else "no move")
            data = {"to_move": actor_text(actor), "legal": list(moves)}
    except RuleGap as g:
        return Reading(("gap", g.ruling), "", f"raises RuleGap {g.ruling}" + (f": {g.detail}" if g.detail else ""),
                       {"raises": "gap", "key": g.ruling, "detail": g.detail})
    except Exception as e:  # a model fault is a difference too, and worth seeing
        return Reading(("error", type(e).__name__), "", f"fails: {type(e).__name__}: {e}",
                       {"raises": "error", "key": type(e).__name__, "detail": str(e)})
    if not with_vars:
        return Reading(sig, "", text, data)
    try:
        vars_text = json.dumps(rules.state_vars(state), sort_keys=True, default=str)
        view = json.dumps([rules.observation(state, s) for s in range(state.setup.players)], sort_keys=True,
                          default=str)
    except Exception as e:  # pragma: no cover - state_vars must not fail
        vars_text, view = f"<state_vars failed: {e}>", ""
    return Reading(sig, vars_text, text, data, view)


def difference_kind(a: Reading, b: Reading) -> str:
    """How two readings differ: start/moves/actor/chance/outcome/gap/state/view, or '' if not at all."""
    if a.sig != b.sig:
        ka, kb = a.sig[0], b.sig[0]
        if "gap" in (ka, kb):
            return "gap"
        if ka != kb or (ka == "seat" and a.sig[1] != b.sig[1]):
            return "actor"
        return {"seat": "moves", "chance": "chance", "end": "outcome"}.get(ka, "error")
    if a.vars != b.vars:
        return "state"
    if a.view != b.view:
        return "view"
    return ""


def _apply(rules: RuleSet, state: Any, move: Any) -> Any:
    try:
        return rules.apply(state, move)
    except RuleGap as g:
        return Raised("gap", g.ruling, g.detail)
    except IllegalMove as e:
        return Raised("illegal", e.clause, str(e))
    except Exception as e:
        return Raised("error", type(e).__name__, str(e))


def start_state(rules: RuleSet, config: Config, options: Any) -> Any:
    """The state before play, a Raised gap if the reading raises at the start; SetupError passes through."""
    setup = config.setup(rules, options)
    try:
        return rules.new_game(setup)
    except RuleGap as g:
        return Raised("gap", g.ruling, g.detail)


# --------------------------------------------------------------------------- the product search


@dataclass
class PairBudget:
    """How far the product search goes: stored state pairs and, optionally, depth.  An
    optional wall-clock limit (``max_seconds``) only stops a search as incomplete."""

    max_pairs: int = 100_000
    max_seconds: float | None = None
    max_depth: int | None = None
    probe_games: int = 20
    """Random lockstep games that test whether a setting is worth a breadth-first search."""
    witness_games: int = 60
    """Random lockstep games that look for a witness where the breadth-first search was cut."""
    seed: int = 1
    """Seed of those random games (``rulings --seed``)."""

    def text(self) -> str:
        parts = [
            f"{self.max_pairs:,} state pairs",
            f"{self.probe_games} probe games ({self.witness_games} for a witness)",
        ]
        if self.max_depth is not None:
            parts.append(f"depth {self.max_depth}")
        if self.max_seconds:
            parts.append(f"time limit {self.max_seconds:g} s")
        return " / ".join(parts)


@dataclass
class Divergence:
    """The answer for one ruling and one pair of its alternatives."""

    ruling: str
    a: str
    b: str
    found: bool
    kind: str = ""
    """start, moves, actor, chance, outcome, gap, error or state (only the recorded state)."""
    config: Config | None = None
    options_a: Any = None
    options_b: Any = None
    steps: tuple[Step, ...] = ()
    next_a: Reading | None = None
    next_b: Reading | None = None
    pairs: int = 0
    depth: int = 0
    """Every pair within this many moves was compared."""
    complete: bool = False
    stopped: str = ""
    seconds: float = 0.0
    skipped: tuple[str, ...] = ()
    """Configurations left out because one reading cannot set them up."""
    symmetry: str = "none"
    shortest: bool = True
    """False for a trace found by a random lockstep game (a real witness, not the shortest)."""

    @property
    def moves(self) -> list[str]:
        return [s.move for s in self.steps]

    def bound(self) -> str:
        sym = "" if self.symmetry == "none" else f", symmetry {self.symmetry}"
        if self.found and not self.shortest:
            return (f"found by a seeded random game played under both readings in lockstep (not the shortest: the "
                    f"breadth-first search compared {self.pairs:,} state pairs within {self.depth} moves first)")
        if self.found and self.kind != "state":
            return f"breadth-first: found among {self.pairs:,} state pairs{sym}"
        if self.complete:
            return f"complete: all {self.pairs:,} reachable state pairs compared{sym}"
        return f"every pair within {self.depth} moves compared ({self.pairs:,} pairs{sym}; stopped by {self.stopped})"

    def short(self) -> str:
        """A table cell: `after 13 moves, in the legal moves (2 players, v23-tiny)` or why not."""
        if not self.found:
            return (
                "never: every reachable pair compared"
                if self.complete
                else f"not within {self.depth} moves ({self.stopped})"
            )
        what = {
            "start": "at the start", "moves": "in the legal moves", "actor": "in who moves",
            "chance": "in the chance outcomes", "outcome": "in the outcome", "gap": "one raises a RuleGap",
            "error": "in a model error", "state": "only in the recorded state",
        }[self.kind]
        where = "at the start" if not self.steps else f"after {len(self.steps)} moves"
        return f"{where}, {what} ({self.config.label()}" + ("" if self.shortest else "; a random game's trace") + ")"

    def statement(self) -> str:
        """One sentence: where the readings part, or that they do not within the bound."""
        if not self.found:
            return f"{self.a} and {self.b} do not differ ({self.bound()})"
        where = "at the start" if not self.steps else f"after {len(self.steps)} moves"
        what = {
            "start": "at the start", "moves": "in the legal moves", "actor": "in who is to move",
            "chance": "in the chance outcomes", "outcome": "in the outcome", "gap": "where one raises a RuleGap",
            "error": "in a model error",
            "state": "only in the recorded state (nothing a player sees, within the bound)",
            "view": "only in what a seat sees of the same position",
        }[self.kind]
        return f"{self.a} and {self.b} differ {where} on {self.config.label()}, {what}"


class _PairKeys:
    """Keys for pairs of states, reduced by the rule set's default symmetry where that is safe.

    A pair whose two states record the same thing (same ``state_vars``; they differ only in
    their options) is replaced by the pair of its canonical states, provided these still
    record the same thing: the symmetry then acts on both readings alike.  A pair already
    apart is kept as it is.  The symmetry is assumed to hold under both readings; a witness
    is always re-checked on the real, unreduced trace.
    """

    def __init__(self, rules: RuleSet, symmetry: str | None) -> None:
        self.rules = rules
        self.canon = rules.symmetries.get(symmetry) if symmetry else None
        self.symmetry = symmetry if self.canon else None

    def __call__(self, a: Any, b: Any, ra: Reading, rb: Reading) -> tuple:
        if self.canon is None or isinstance(a, Raised) or isinstance(b, Raised) or ra.vars != rb.vars:
            return (a, b)
        ca, cb = self.canon(a), self.canon(b)
        if self._vars(ca) != self._vars(cb):
            return (a, b)
        return (ca, cb)

    def _vars(self, s: Any) -> str:
        return json.dumps(self.rules.state_vars(s), sort_keys=True, default=str)


def diverge(rules: RuleSet, ruling_id: str, a: str, b: str, configs: Sequence[Config], *,
            budget: PairBudget | None = None, base: Any = None, symmetry: str | None = "default") -> Divergence:
    """The shortest trace after which readings ``a`` and ``b`` of ``ruling_id`` differ.

    ``base`` is the options for every other ruling (default: the defaults); ``symmetry``
    names the reduction of in-step pairs (``"default"``: the rule set's, None: none).
    """
    budget = budget or PairBudget()
    t0 = time.perf_counter()
    base = rules.Options() if base is None else base
    oa = with_alternative(base, rules, ruling_id, a)
    ob = with_alternative(base, rules, ruling_id, b)
    keys = _PairKeys(rules, rules.default_symmetry if symmetry == "default" else symmetry)
    result = Divergence(ruling_id, a, b, False, options_a=oa, options_b=ob, symmetry=keys.symmetry or "none")
    parents: dict[tuple, tuple[tuple | None, Any]] = {}
    roots: dict[tuple, tuple[Config, Any, Any]] = {}
    frontier: list[tuple] = []
    skipped = []
    quiet: tuple | None = None  # the first state-only difference: (key, kind)

    def found(key: tuple, kind: str) -> Divergence:
        config, steps, (sa, sb) = _real_trace(rules, keys, parents, roots, key)
        ra, rb = read_state(rules, sa), read_state(rules, sb)
        real = difference_kind(ra, rb)
        if not real or (real == "state") != (kind == "state"):  # pragma: no cover - unsound symmetry
            raise RuntimeError(
                f"{ruling_id}: the reduced search found {kind}, the real trace shows {real or 'nothing'}"
            )
        result.found, result.kind, result.config = True, kind, config
        result.steps, result.next_a, result.next_b = steps, ra, rb
        result.pairs, result.seconds = len(parents), time.perf_counter() - t0
        return result

    for config in configs:
        try:
            sa, sb = start_state(rules, config, oa), start_state(rules, config, ob)
        except SetupError as e:
            skipped.append(f"{config.label()}: {e}")
            continue
        ra, rb = read_state(rules, sa), read_state(rules, sb)
        key = keys(sa, sb, ra, rb)
        if key in parents:
            continue
        parents[key] = (None, None)
        roots[key] = (config, sa, sb)
        kind = difference_kind(ra, rb)
        if kind and kind != "state":
            return found(key, "start" if kind != "gap" else "gap")
        if kind == "state" and quiet is None:
            quiet = (key, kind)
        frontier.append(key)
    result.skipped = tuple(skipped)
    depth = 0
    stop = ""
    while frontier and not stop:
        if budget.max_depth is not None and depth >= budget.max_depth:
            stop = f"depth bound ({budget.max_depth})"
            break
        nxt: list[tuple] = []
        for key in frontier:
            sa, sb = key
            if isinstance(sa, Raised) or isinstance(sb, Raised):
                continue
            actor = rules.to_move(sa)
            if actor is TERMINAL:
                continue
            if actor is CHANCE:
                moves = [m for m, _p in rules.chance_outcomes(sa)]
            else:
                moves = list(rules.legal_moves(sa))
            for move in moves:
                na, nb = _apply(rules, sa, move), _apply(rules, sb, move)
                ra, rb = read_state(rules, na), read_state(rules, nb)
                child = keys(na, nb, ra, rb)
                if child in parents:
                    continue
                parents[child] = (key, move)
                kind = difference_kind(ra, rb)
                if kind and kind != "state":
                    result.depth = depth
                    return found(child, kind)
                if kind == "state" and quiet is None:
                    quiet = (child, kind)
                nxt.append(child)
            if len(parents) >= budget.max_pairs:
                stop = f"pair budget ({budget.max_pairs:,})"
                break
            if budget.max_seconds and time.perf_counter() - t0 > budget.max_seconds:
                stop = f"time limit ({budget.max_seconds:g} s; incomplete)"
                break
        if stop:
            break
        frontier = nxt
        depth += 1
    result.depth = depth
    result.complete = not stop
    result.stopped = stop
    if quiet is not None:
        found(quiet[0], "state")
        result.depth, result.complete, result.stopped = depth, not stop, stop
    result.pairs, result.seconds = len(parents), time.perf_counter() - t0
    return result


def _real_trace(rules: RuleSet, keys: _PairKeys, parents: dict, roots: dict, key: tuple):
    """(config, real steps, real final pair) for a stored (possibly reduced) pair key.

    A reduced key matches when the real pair reduces to it; a pair kept as it was (its
    parent may have been reduced) matches when each of its states has the same canonical
    form; the search backtracks if such a looser match leads nowhere.
    """
    path = []
    while True:
        parent, _move = parents[key]
        path.append(key)
        if parent is None:
            break
        key = parent
    path.reverse()
    config, sa, sb = roots[path[0]]
    canon = keys.canon

    def same(na: Any, nb: Any, target: tuple) -> bool:
        ra, rb = read_state(rules, na), read_state(rules, nb)
        if keys(na, nb, ra, rb) == target:
            return True
        ta, tb = target
        if (
            canon is None
            or isinstance(ta, Raised)
            or isinstance(tb, Raised)
            or isinstance(na, Raised)
            or isinstance(nb, Raised)
        ):
            return (na, nb) == target
        return canon(na) == canon(ta) and canon(nb) == canon(tb)

    def walk(i: int, sa: Any, sb: Any) -> list | None:
        if i == len(path):
            return [(sa, sb)]
        actor = rules.to_move(sa)
        options = list(rules.chance_outcomes(sa)) if actor is CHANCE else [(m, None) for m in rules.legal_moves(sa)]
        for move, p in options:
            na, nb = _apply(rules, sa, move), _apply(rules, sb, move)
            if same(na, nb, path[i]):
                rest = walk(i + 1, na, nb)
                if rest is not None:
                    return [Step(actor_text(actor), str(move), p)] + rest
        return None

    got = walk(1, sa, sb)
    if got is None:  # pragma: no cover - would mean the symmetry is not a symmetry of both readings
        raise RuntimeError("divergence trace reconstruction failed: the symmetry does not hold for both readings")
    return config, tuple(got[:-1]), got[-1]


def alternative_pairs_of(alts: Sequence[str]) -> list[tuple[str, str]]:
    return [(alts[i], alts[j]) for i in range(len(alts)) for j in range(i + 1, len(alts))]


def alternative_pairs(rules: RuleSet, ruling_id: str) -> list[tuple[str, str]]:
    return alternative_pairs_of(ruling_fields(rules.Options)[ruling_id].metadata["alternatives"])


@dataclass
class RulingDivergence:
    ruling: str
    alternatives: tuple[str, ...]
    pairs: list[Divergence] = field(default_factory=list)
    base: str = ""
    """`other-ruling=alternative` when the pairs were searched with that ruling changed
    (because under the defaults no pair differs); empty for the defaults."""
    under_defaults: list[Divergence] = field(default_factory=list)
    """The search under the defaults, when it found nothing and ``base`` was tried."""
    base_options: Any = None
    configs: tuple[Config, ...] = ()
    """The configurations the pairs were searched on."""

    def never_part(self) -> bool:
        """Every pair searched completely with no difference a player sees: a proof on ``configs``."""
        return bool(self.pairs) and all(d.complete and (not d.found or d.kind == "state") for d in self.pairs) \
            and len(self.pairs) == len(alternative_pairs_of(self.alternatives))

    def primary(self) -> Divergence | None:
        """The witness to show: the default against the reading of play it parts from soonest
        (a player-visible difference first); only where no such reading parts from it, the
        default against ``strict`` (which shows where the text is silent, not what a reading
        does there)."""
        default = self.alternatives[0]
        with_default = [d for d in self.pairs if d.a == default and d.found]
        if not with_default:
            return next((d for d in self.pairs if d.found), None)
        real = [d for d in with_default if d.b != STRICT]
        if real:
            return min(real, key=lambda d: (d.kind == "state", len(d.steps)))
        return next(d for d in with_default if d.b == STRICT)


@dataclass
class ProbeHit:
    """Where a random lockstep game saw two readings part: configuration, moves, the two states."""

    config: Config
    steps: tuple[Step, ...]
    state_a: Any
    state_b: Any


def probe(rules: RuleSet, ruling_id: str, a: str, b: str, configs: Sequence[Config], base: Any,
          games: int = 20, seed: int = 1, step_cap: int = 500) -> ProbeHit | None:
    """Random games played in lockstep under both readings: the first point where they differ
    (other than in the recorded state only), or None.  A cheap test of whether a setting is
    worth a breadth-first search, and a witness when that search is cut by its budget;
    seeded, so the answer is repeatable."""
    import random

    rng = random.Random(seed)
    oa, ob = with_alternative(base, rules, ruling_id, a), with_alternative(base, rules, ruling_id, b)
    starts = []
    for config in configs:
        try:
            starts.append((config, start_state(rules, config, oa), start_state(rules, config, ob)))
        except SetupError:
            continue
    for g in range(games if starts else 0):
        config, sa, sb = starts[g % len(starts)]
        steps: list[Step] = []
        for _ in range(step_cap):
            ra, rb = read_state(rules, sa, with_vars=False), read_state(rules, sb, with_vars=False)
            if difference_kind(ra, rb) not in ("", "state"):
                return ProbeHit(config, tuple(steps), sa, sb)
            if isinstance(sa, Raised) or isinstance(sb, Raised) or ra.sig[0] not in ("seat", "chance"):
                break
            actor = rules.to_move(sa)
            p = None
            if ra.sig[0] == "chance":
                outs = rules.chance_outcomes(sa)
                move = pick_by_probability(outs, rng.random())
                p = dict(outs)[move]
            else:
                moves = rules.legal_moves(sa)
                if not moves:
                    break
                move = moves[rng.randrange(len(moves))]
            steps.append(Step(actor_text(actor), str(move), p))
            sa, sb = _apply(rules, sa, move), _apply(rules, sb, move)
    return None


def from_probe(rules: RuleSet, ruling_id: str, a: str, b: str, hit: ProbeHit, searched: Divergence) -> Divergence:
    """A Divergence from a random game's trace, when the breadth-first search ``searched`` ran out of budget."""
    ra, rb = read_state(rules, hit.state_a), read_state(rules, hit.state_b)
    return dataclasses.replace(searched, found=True, kind=difference_kind(ra, rb), config=hit.config, steps=hit.steps,
                               next_a=ra, next_b=rb, shortest=False)


def other_bases(rules: RuleSet, ruling_id: str) -> list[tuple[str, Any]]:
    """The settings tried when a ruling's alternatives never differ under the defaults: one
    change (:func:`tablerules.proofs.discovery.gaps.one_change_settings`), then every optional rule on
    with one other ruling at another non-strict alternative (a question about an optional
    rule may part only where another ruling widens what is allowed, e.g. extra cards in a
    serving)."""
    out = one_change_settings(rules, ruling_id)
    variants = variant_fields(rules.Options)
    if not variants:
        return out
    every = dataclasses.replace(rules.Options(), **{f.name: True for f in variants.values()})
    for rid, f in ruling_fields(rules.Options).items():
        for alt in f.metadata["alternatives"][1:] if rid != ruling_id else ():
            if alt != STRICT:
                out.append((f"every option, {short_ruling_name(rid)}={alt}", with_alternative(every, rules, rid, alt)))
    return out


def _search(rules: RuleSet, rid: str, a: str, b: str, cfgs: Sequence[Config], budget: PairBudget | None,
            base: Any = None) -> Divergence:
    """Breadth-first; if cut by its budget without a difference, a random lockstep game's trace when one finds it."""
    budget = budget or PairBudget()
    d = diverge(rules, rid, a, b, cfgs, budget=budget, base=base)
    if d.found and d.kind != "state" or d.complete:
        return d
    base = rules.Options() if base is None else base
    hit = probe(rules, rid, a, b, cfgs, base, games=budget.witness_games, seed=budget.seed)
    return from_probe(rules, rid, a, b, hit, d) if hit is not None else d


def all_divergences(rules: RuleSet, configs: Configs | Sequence[Config] | None = None, *,
                    budget: PairBudget | None = None, rulings: Sequence[str] | None = None,
                    progress: Callable[[str], None] | None = None) -> list[RulingDivergence]:
    """Every ruling, every pair of its alternatives, the other rulings at their defaults.

    A pair that does not differ on the configurations is searched again on wider ones (more
    players, the other teaching decks: :func:`tablerules.proofs.discovery.gaps.wider_configs`), since
    some rulings need a third player.  A ruling none of whose pairs differs then is tried again with one other ruling
    changed at a time (:func:`other_bases`), by random lockstep games (:func:`probe`): some
    rulings only matter in combination.  The first setting under which a probe sees its
    default part from another alternative is searched breadth-first for every pair, and the
    report says which setting it was.  A breadth-first search cut by its budget falls back on
    the probe's trace (a real witness, marked as not the shortest).
    """
    if configs is None:
        configs = small_configs(rules)
    cfgs = configs.configs if isinstance(configs, Configs) else tuple(configs)
    budget = budget or PairBudget()
    wide = tuple(wider_configs(rules, cfgs))
    out = []
    fields_ = ruling_fields(rules.Options)

    def visible(d: Divergence) -> bool:
        return d.found and d.kind != "state"

    def search_pairs(base: Any = None) -> list[Divergence]:
        found = []
        for a, b in alternative_pairs(rules, rid):
            if progress:
                progress(f"divergence {short_ruling_name(rid)}: {a} vs {b}")
            d = _search(rules, rid, a, b, cfgs, budget, base)
            if not visible(d) and wide:
                d2 = _search(rules, rid, a, b, wide, budget, base)
                d = d2 if visible(d2) else d
            found.append(d)
        return found

    for rid in rulings or list(fields_):
        rd = RulingDivergence(rid, tuple(fields_[rid].metadata["alternatives"]), configs=cfgs)
        rd.pairs = search_pairs()
        if not any(visible(d) for d in rd.pairs):
            rd.under_defaults = list(rd.pairs)
            first = rd.alternatives[0]
            for label, base in other_bases(rules, rid):
                if progress:
                    progress(f"divergence {short_ruling_name(rid)} with {label}")
                if any(probe(rules, rid, first, o, w, base, games=budget.probe_games, seed=budget.seed)
                       for w in (cfgs, wide) if w for o in rd.alternatives[1:]):
                    rd.base, rd.base_options = label, base
                    rd.pairs = search_pairs(base)
                    break
        out.append(rd)
    return out


# --------------------------------------------------------------------------- every reading at the end of a witness


def readings_after(rules: RuleSet, ruling_id: str, config: Config, base: Any, moves: Sequence[str]) -> dict[str, dict]:
    """For every alternative of the ruling: what it does after the moves (or where the trace leaves it)."""
    out = {}
    for alt in ruling_fields(rules.Options)[ruling_id].metadata["alternatives"]:
        options = with_alternative(base, rules, ruling_id, alt)
        try:
            state = start_state(rules, config, options)
        except SetupError as e:
            out[alt] = {"next": f"cannot set up this configuration: {e}"}
            continue
        for i, text in enumerate(moves, 1):
            if isinstance(state, Raised):
                break
            try:
                move = rules.parse_move(text, state.setup)
            except Exception as e:
                state = Raised("illegal", "syntax", str(e))
                break
            state = _apply(rules, state, move)
            if isinstance(state, Raised) and i < len(moves):
                out[alt] = {"next": f"leaves this trace at move {i} ({text}): {read_state(rules, state).text}"}
                break
        if alt not in out:
            out[alt] = read_state(rules, state).to_json()
    return out


# --------------------------------------------------------------------------- witness files


def witness_folder() -> Path:
    return Path(str(resources.files("tablerules.spec").joinpath("witnesses")))


def witness_name(ruleset_id: str, ruling_id: str) -> str:
    return f"{ruleset_id}-{short_ruling_name(ruling_id)}.json"


def witness_doc(rules: RuleSet, d: Divergence, setting: str = "") -> dict[str, Any]:
    """The witness of a divergence as a plain JSON document (the format the vector tools convert).

    ``setting`` names another ruling changed from its default for this search (the
    options record it too), when under the defaults the alternatives never differ.

    Keys: ruleset, ruling, players, options (ruling id -> alternative, as reading ``a``
    plays), components (name), deck (the text it was loaded from, when known), moves
    (canonical texts, chance included), note (one sentence), differs: ruling, a, b, kind
    (start/moves/actor/chance/outcome/gap/error/state), readings (a and b: what each does
    after the moves, as data plus a ``next`` line), every_alternative (the same for every
    alternative of the ruling), search (the bound), setting (if any)."""
    assert d.found and d.config is not None and d.next_a is not None and d.next_b is not None
    base = d.options_a
    return {
        "ruleset": rules.id,
        "ruling": d.ruling,
        "players": d.config.players,
        "options": options_text(base),
        "components": d.config.components_name(),
        **({"deck": d.config.deck} if d.config.deck else {}),
        "moves": d.moves,
        "note": d.statement() + (f" (with {setting}; under the defaults they never differ)" if setting else ""),
        "differs": {
            "ruling": d.ruling,
            "a": d.a,
            "b": d.b,
            "kind": d.kind,
            "readings": {d.a: d.next_a.to_json(), d.b: d.next_b.to_json()},
            "every_alternative": readings_after(rules, d.ruling, d.config, base, d.moves),
            "search": d.bound(),
            "shortest": d.shortest,
            **({"setting": setting} if setting else {}),
        },
    }


def _config_json(c: Config) -> dict[str, Any]:
    return {"players": c.players, "components": c.components_name(), **({"deck": c.deck} if c.deck else {})}


def proof_doc(rules: RuleSet, rd: RulingDivergence) -> dict[str, Any]:
    """The record that no two alternatives of a ruling part on the stated configurations: every
    reachable pair of states compared (a complete product search), nothing a player sees differs."""
    assert rd.never_part()
    return {
        "ruleset": rules.id,
        "ruling": rd.ruling,
        "never_part": {
            "configurations": [_config_json(c) for c in rd.configs],
            "options": options_text(rd.pairs[0].options_a),
            "pairs": [{"a": d.a, "b": d.b, "state_pairs": d.pairs, "search": d.bound()} for d in rd.pairs],
            "statement": f"no two alternatives of {rd.ruling} differ in anything a player sees, on "
                         + "; ".join(c.label() for c in rd.configs) + " (every reachable pair of states compared)",
        },
    }


def write_witness(path: Path, doc: dict[str, Any]) -> None:
    write_atomic(path, json.dumps(doc, indent=2, sort_keys=False, default=str) + "\n")


def read_witness(path: Path) -> dict[str, Any]:
    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    if isinstance(doc, dict) and "never_part" in doc:
        for key in ("ruleset", "ruling"):
            if key not in doc:
                raise ValueError(f"{path}: proof lacks {key!r}")
        return doc
    for key in ("ruleset", "players", "options", "components", "moves", "differs"):
        if key not in doc:
            raise ValueError(f"{path}: witness lacks {key!r}")
    return doc


def _components(rules: RuleSet, name: str, module: ModuleType | None, deck: str | None = None) -> Any:
    """Components by name: loaded from ``deck`` if given, else among the small configurations and
    the defaults, else via load_components(name)."""
    if deck is not None and rules.load_components is not None:
        return rules.load_components(deck)
    cands = [c.components for c in small_configs(rules, module).configs] + [rules.default_components()]
    for c in cands:
        if Config(0, c).components_name() == name:
            return c
    if rules.load_components is not None:
        return rules.load_components(name)
    raise SetupError(f"{rules.id}: unknown components {name!r}")


def witness_options(rules: RuleSet, doc: dict[str, Any], alternative: str) -> Any:
    """The options of a witness with its ruling set to ``alternative``."""
    options = rules.Options()
    by_id = {**ruling_fields(rules.Options), **variant_fields(rules.Options)}
    changes = {by_id[k].name: v for k, v in doc["options"].items() if k in by_id}
    options = dataclasses.replace(options, **changes)
    return with_alternative(options, rules, doc["differs"]["ruling"], alternative)


def replay_witness(rules: RuleSet, doc: dict[str, Any], module: ModuleType | None = None) -> dict[str, Reading]:
    """Replay a witness under both readings it names: alternative -> what that reading does next.

    Raises ValueError if a move of the trace does not replay under a reading.
    """
    module = module if module is not None else model_module(rules)
    config = Config(doc["players"], _components(rules, doc["components"], module, doc.get("deck")))
    out = {}
    for alt in (doc["differs"]["a"], doc["differs"]["b"]):
        state = start_state(rules, config, witness_options(rules, doc, alt))
        for i, text in enumerate(doc["moves"], 1):
            if isinstance(state, Raised):
                raise ValueError(f"{alt}: raised {state.key} before move {i}")
            state = _apply(rules, state, rules.parse_move(text, state.setup))
        out[alt] = read_state(rules, state)
    return out


def check_proof(rules: RuleSet, doc: dict[str, Any], module: ModuleType | None = None) -> str | None:
    """None if the complete product search still finds no difference on the stated configurations."""
    module = module if module is not None else model_module(rules)
    np_ = doc["never_part"]
    configs = [Config(c["players"], _components(rules, c["components"], module, c.get("deck")), c.get("deck"))
               for c in np_["configurations"]]
    base = witness_options(
        rules, {"options": np_["options"], "differs": {"ruling": doc["ruling"]}}, np_["pairs"][0]["a"]
    )
    for pair in np_["pairs"]:
        d = diverge(rules, doc["ruling"], pair["a"], pair["b"], configs, base=base,
                    budget=PairBudget(max_pairs=pair["state_pairs"] + 1, max_seconds=None))
        if d.found and d.kind != "state":
            return f"{pair['a']} and {pair['b']} now differ: {d.statement()}"
        if not d.complete:
            return (
                f"{pair['a']} / {pair['b']}: the search no longer completes within {pair['state_pairs']:,} state pairs"
            )
    return None


def check_witness(rules: RuleSet, doc: dict[str, Any], module: ModuleType | None = None) -> str | None:
    """None if the witness replays and shows the difference it claims (or, for a proof, the
    readings still never part); else what is wrong."""
    if "never_part" in doc:
        try:
            return check_proof(rules, doc, module)
        except Exception as e:
            return f"does not re-run: {type(e).__name__}: {e}"
    try:
        got = replay_witness(rules, doc, module)
    except Exception as e:
        return f"does not replay: {e}"
    d = doc["differs"]
    ra, rb = got[d["a"]], got[d["b"]]
    kind = difference_kind(ra, rb)
    if not kind:
        return "the two readings do not differ at the end of the trace"
    if kind != d["kind"] and not (d["kind"] == "start" and not doc["moves"]):
        return f"the readings differ in {kind}, the witness claims {d['kind']}"
    for alt, r in ((d["a"], ra), (d["b"], rb)):
        recorded = {k: v for k, v in d["readings"][alt].items() if k != "next"}  # the data, not the wording
        if json.loads(json.dumps(r.data, default=str)) != recorded:  # as the file holds it (tuples as lists)
            return f"{alt}: now {r.text!r}, the witness says {d['readings'][alt].get('next')!r}"
    return None


def write_witnesses(rules: RuleSet, results: Sequence[RulingDivergence], folder: Path | None = None) -> list[Path]:
    """Write the primary witness of every ruling (deterministic: no times in the files)."""
    folder = folder or witness_folder()
    written = []
    for rd in results:
        d = rd.primary()
        path = folder / witness_name(rules.id, rd.ruling)
        if d is not None:
            write_witness(path, witness_doc(rules, d, rd.base))
        elif rd.never_part():
            write_witness(path, proof_doc(rules, rd))
        else:
            continue
        written.append(path)
    return written


def witness_paths(ruleset_id: str, folder: Path | None = None) -> list[Path]:
    """The witness files of a rule set in this format (other files in the folder are left alone)."""
    folder = folder or witness_folder()
    out = []
    for path in sorted(folder.glob(f"{ruleset_id}-*.json")):
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(doc, dict) and doc.get("ruleset") == ruleset_id and ("differs" in doc or "never_part" in doc):
            out.append(path)
    return out


# --------------------------------------------------------------------------- order of resolution


@dataclass
class RaceResult:
    applicable: bool
    statement: str
    races: int = 0
    """Race states examined."""
    config: Config | None = None
    steps: tuple[Step, ...] = ()
    branches: tuple[tuple[str, str], ...] = ()
    """(race outcome, what follows: the outcome distribution under uniform random play)."""
    matters: bool | None = None


def order_of_resolution(rules: RuleSet, configs: Configs | Sequence[Config] | None = None, *,
                        module: ModuleType | None = None, max_states: int = 20_000, max_races: int = 30) -> RaceResult:
    """Does who answers first change the outcome?

    Needs a model attribute ``is_race(state) -> bool`` (True at the CHANCE or seat states
    that choose who answers first).  Race states are met breadth-first (default options);
    at each, every branch's outcome distribution under uniform random play is computed
    exactly (:func:`tablerules.proofs.discovery.impact.exact_values`); the first race whose branches
    give different distributions is the witness.
    """
    from .impact import Cyclic, TooLarge, exact_values, outcome_distribution

    module = module if module is not None else model_module(rules)
    is_race = getattr(module, "is_race", None) if module is not None else None
    if is_race is None:
        return RaceResult(False, "not applicable: the model has no out-of-turn races (no is_race predicate)")
    if configs is None:
        configs = small_configs(rules, module)
    cfgs = configs.configs if isinstance(configs, Configs) else tuple(configs)
    races = undecided = 0
    for config in cfgs:
        try:
            start = rules.new_game(config.setup(rules, rules.Options()))
        except (SetupError, RuleGap):
            continue
        parents: dict[Any, tuple[Any, Step | None]] = {start: (None, None)}
        frontier = [start]
        while frontier and races < max_races and len(parents) < max_states:
            nxt = []
            for s in frontier:
                if rules.to_move(s) is TERMINAL:
                    continue
                if is_race(s):
                    races += 1
                    branches = []
                    try:
                        for move, _p, t in rules.successors(s):
                            dist = outcome_distribution(exact_values(rules, t, max_states=max_states), t)
                            branches.append((str(move), dist, getattr(move, "seat", None) is not None))
                    except (TooLarge, Cyclic, RuleGap):
                        branches = []
                        undecided += 1
                    # only the branches that name who spoke first are orders; another outcome of the race
                    # (a truly simultaneous call) is no order, and is shown beside them
                    orders = [b for b in branches if b[2]] if any(b[2] for b in branches) else branches
                    if len({tuple(sorted(b[1].items())) for b in orders}) > 1:
                        steps = _race_steps(parents, s)
                        text = tuple((m, _distribution_text(dist)) for m, dist, _o in branches)
                        return RaceResult(True, f"the order changes the outcome: a race after {len(steps)} moves on "
                                          f"{config.label()}, where who speaks first changes the odds",
                                          races, config, steps, text, True)
                    if races >= max_races:
                        break
                actor = rules.to_move(s)
                for move, p, t in rules.successors(s):
                    if t not in parents:
                        parents[t] = (s, Step(actor_text(actor), str(move), p))
                        nxt.append(t)
            frontier = nxt
    if races == 0:
        return RaceResult(True, "no race state reached within the bound", 0, matters=None)
    if undecided == races:
        return RaceResult(True, f"undecided: all {races} race states examined were too large to evaluate exactly",
                          races, matters=None)
    text = f"the order did not change the outcome distribution at any of the {races - undecided} race states evaluated"
    if undecided:
        text += f" ({undecided} more were too large to evaluate)"
    return RaceResult(True, text, races, matters=False)


def _distribution_text(dist: dict[str, Fraction]) -> str:
    """`seat 0 wins 1/4, seat 1 wins 5/8, tie 1/8`: the outcomes with a chance above zero, exact."""
    return ", ".join(f"{k} {v}" for k, v in sorted(dist.items()) if v) or "nothing"


def _race_steps(parents: dict, s: Any) -> tuple[Step, ...]:
    return steps_to(parents, s)


# --------------------------------------------------------------------------- the witness generator

WITNESS_BUDGET = PairBudget(max_pairs=100_000)
"""The same inputs always give the same files."""


def generate_witnesses(ruleset_id: str, configs: Sequence[Config] | None = None, folder: Path | None = None,
                       budget: PairBudget | None = None, rulings: Sequence[str] | None = None,
                       progress: Callable[[str], None] | None = None) -> list[Path]:
    """Rewrite the primary witness of every ruling of a rule set (deterministically: the budget counts pairs)."""
    from .gaps import load_rules

    rules, module = load_rules(ruleset_id)
    cfgs = configs if configs is not None else small_configs(rules, module).configs
    return write_witnesses(rules, all_divergences(rules, cfgs, budget=budget or WITNESS_BUDGET, rulings=rulings,
                                                  progress=progress), folder)


def _main(argv: Sequence[str]) -> int:
    """python -m tablerules.proofs.discovery.divergence RULESET [--pairs N] [--ruling ID ...] [PLAYERS:DECK ...]:
    rewrite its witness files (only those rulings' with --ruling, full or short id)."""
    usage = ("usage: python -m tablerules.proofs.discovery.divergence RULESET [--pairs N] [--ruling ID ...]"
             " [PLAYERS:DECK ...]")
    if not argv:
        print(usage)
        return 2
    budget, only, rest = None, [], [argv[0]]
    words = list(argv[1:])
    while words:
        word = words.pop(0)
        if word in ("--pairs", "--ruling") and not words:
            print(f"{word} needs a value; {usage}", file=sys.stderr)
            return 2
        if word == "--pairs":
            budget = PairBudget(max_pairs=int(words.pop(0)), max_seconds=None)
        elif word == "--ruling":
            only.append(words.pop(0))
        else:
            rest.append(word)
    argv = rest
    from .gaps import load_rules

    rules, _ = load_rules(argv[0])
    ids = list(ruling_fields(rules.Options))
    by_short = {short_ruling_name(r): r for r in ids}
    unknown = [r for r in only if r not in ids and r not in by_short]
    if unknown:
        print(f"--ruling {unknown[0]!r}: unknown ruling of {rules.id} (known: {', '.join(by_short)})", file=sys.stderr)
        return 2
    rulings = [r if r in ids else by_short[r] for r in only] or None
    configs = None
    if len(argv) > 1:
        configs = []
        for text in argv[1:]:
            players, _, deck = text.partition(":")
            comps = rules.load_components(deck) if deck and rules.load_components else rules.default_components()
            configs.append(Config(int(players), comps, deck or None))
    for path in generate_witnesses(argv[0], configs, budget=budget, rulings=rulings,
                                   progress=lambda t: print(t, file=sys.stderr, flush=True)):
        print(path)
    return 0


if __name__ == "__main__":  # pragma: no cover
    import sys

    sys.exit(_main(sys.argv[1:]))


# --------------------------------------------------------------------------- the check item


def witness_check_item(ruleset_id: str):
    """A check-suite item: every witness file of the rule set replays under the model and
    shows the difference it claims, and every ruling has one."""
    from ..checks import FAIL, PASS, CheckItem, CheckResult, Context
    from .gaps import load_rules

    name = "ruling witnesses replay"

    def run(ctx: Context) -> CheckResult:
        t0 = time.perf_counter()
        rules, module = load_rules(ruleset_id)
        paths = witness_paths(ruleset_id)
        rows, bad = [], []
        for path in paths:
            try:
                doc = read_witness(path)
                problem = check_witness(rules, doc, module)
            except Exception as e:  # a malformed file is a failure with its cause
                doc, problem = {"moves": []}, f"{type(e).__name__}: {e}"
            what = "proof" if "never_part" in doc else f"{len(doc.get('moves', []))} moves"
            rows.append(
                (
                    path.name,
                    f"{what}: " + (problem or doc.get("note") or doc.get("never_part", {}).get("statement", "ok")),
                )
            )
            if problem:
                bad.append(f"{path.name}: {problem}")
        have = {p.name for p in paths}
        missing = [rid for rid in ruling_fields(rules.Options) if witness_name(ruleset_id, rid) not in have]
        summary = f"{len(paths) - len(bad)} of {len(paths)} witnesses replay"
        if missing:
            summary += f"; no witness for {', '.join(short_ruling_name(r) for r in missing)}"
        if bad:
            summary += "; " + "; ".join(bad)
        return CheckResult(
            ruleset_id, name, FAIL if bad or missing else PASS, summary, rows, seconds=time.perf_counter() - t0
        )

    return CheckItem(ruleset_id, name, run)
