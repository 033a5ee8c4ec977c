"""The unchanged model, explored once: what the core API says at every state, and which
decision points each exploration runs.

A state's *signature* is everything a player, a log or a property can learn of it through
the core API: who moves; the legal moves or the chance outcomes with their probabilities,
whether each move's text reads back as the move and is not refused by ``illegal_reason``;
the state each one leads to; the outcome at an end; what ``state_vars``, each seat's
``observation`` and the invariants show (as a digest).  Two models that give every reachable state the same
signature cannot be told apart by any property written against the API.

A *run* is one configuration under one setting (the defaults, an optional rule, another
alternative of a ruling), explored breadth-first to a state budget.  Its record maps each
state to its signature, with the parent links that give the shortest trace to it, and the
decision lines (file, line) the run executed.  Budgets count states.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

from tablerules.model.core import CHANCE, TERMINAL, RuleGap, RuleSet, Setup, actor_text, violated

from ..decisions import clear_model_caches, model_folder
from ...explorer import Step

Signature = tuple


@dataclass(frozen=True)
class Stopped:
    """Where a move leads to no state: a strict alternative's gap, or a model error."""

    kind: str
    detail: str


def _digest(value: Any) -> str:
    return hashlib.blake2b(json.dumps(value, sort_keys=True, default=str).encode(), digest_size=8).hexdigest()


def signature(rules: RuleSet, state: Any) -> tuple[Signature, list[tuple[Any, Fraction | None, Any]]]:
    """(the state's signature, [(move, probability, next state)]) through the core API.

    A RuleGap (a strict alternative) or any other exception is part of the signature: a
    mutant that raises where the model does not differs from it."""
    try:
        actor = rules.to_move(state)
        if actor is TERMINAL:
            o = rules.outcome(state)
            ways: list[tuple[Any, Any]] = []
            head: tuple = (
                "end",
                None if o is None else f"{o.summary()} ({o.clause}; scores {list(o.scores)}) #{_digest(o.to_json())}",
            )
        elif actor is CHANCE:
            ways = list(rules.chance_outcomes(state))
            head = ("chance",)
        else:
            ways = [(m, None) for m in rules.legal_moves(state)]
            head = ("seat", actor)
    except RuleGap as gap:
        return (("gap", gap.ruling),), []
    except Exception as e:  # noqa: BLE001 - a model error is a difference like any other
        return (("error", type(e).__name__),), []
    out = []
    moves = []
    for m, p in ways:
        try:
            nxt: Any = rules.apply(state, m)
        except RuleGap as gap:
            nxt = Stopped("gap", gap.ruling)
        except Exception as e:  # noqa: BLE001
            nxt = Stopped("error", type(e).__name__)
        text = str(m)
        try:
            reads_back = rules.parse_move(text, state.setup) == m and (
                p is not None or rules.illegal_reason(state, m) is None
            )
        except Exception:  # noqa: BLE001 - a text form the parser refuses is a difference
            reads_back = False
        moves.append((text, p, nxt if isinstance(nxt, Stopped) else hash(nxt), reads_back))
        out.append((m, p, nxt))
    try:
        broken = [inv.name for inv, _ in violated(rules.invariants, state)]
        view = _digest(
            [rules.state_vars(state), [rules.observation(state, s) for s in range(state.setup.players)], broken]
        )
    except Exception as e:  # noqa: BLE001
        view = f"error {type(e).__name__}"
    return (head, tuple(moves), view), out


def same_view(a: Signature, b: Signature) -> bool:
    """Signatures equal apart from the next states' values: the same as far as the API shows
    (the next states are compared where they are reached, by their own signatures)."""
    if a[0] != b[0] or len(a) != len(b):
        return False
    if len(a) < 3:
        return a == b
    return a[2] == b[2] and [(m, p, x if isinstance(x, Stopped) else None, r) for m, p, x, r in a[1]] == \
        [(m, p, x if isinstance(x, Stopped) else None, r) for m, p, x, r in b[1]]


def _head(head: tuple) -> str:
    kind = head[0]
    if kind == "seat":
        return f"seat {head[1]} moves"
    if kind == "end":
        return f"the end, {str(head[1]).split(' #')[0]}"
    if kind in ("gap", "error"):
        return f"{kind} {head[1]}"
    return kind


def difference(a: Signature, b: Signature) -> str:
    """What differs between the model's signature ``a`` and a mutant's ``b``, in words."""
    if a[0] != b[0]:
        return f"who moves or the end: model {_head(a[0])}, mutant {_head(b[0])}"
    if len(a) < 3 or len(b) < 3:
        return "the model or the mutant stops here"
    am = {(m, p) for m, p, *_ in a[1]}
    bm = {(m, p) for m, p, *_ in b[1]}
    if am != bm:
        extra = sorted(m for m, _ in bm - am)[:3]
        gone = sorted(m for m, _ in am - bm)[:3]
        parts = ([f"mutant adds {', '.join(extra)}"] if extra else []) + (
            [f"mutant drops {', '.join(gone)}"] if gone else []
        )
        return "moves: " + "; ".join(parts or ["probabilities differ"])
    if [m[0] for m in a[1]] != [m[0] for m in b[1]]:
        return "moves in another order"
    for (m, _, x, ra), (_, _, y, rb) in zip(a[1], b[1]):
        if (isinstance(x, Stopped) or isinstance(y, Stopped)) and x != y:
            def said(z: Any) -> str:
                return f"{z.kind} {z.detail}" if isinstance(z, Stopped) else "a next state"
            return f"after {m}: model {said(x)}, mutant {said(y)}"
        if ra != rb:
            return f"the text form {m!r} no longer reads back as the move"
    if a[2] != b[2]:
        return "what state_vars, an observation or an invariant shows"
    return "no difference"


def _play(rules: RuleSet, run: Run, start: Any, game_seed: int, probes: Probes | None) -> None:
    import random

    rng = random.Random(game_seed)
    s = start
    for _ in range(GAME_STEPS):
        sig = run.states.get(s)
        if probes:
            probes.current = s
        sig2, ways = signature(rules, s)
        if sig is None:
            run.states[s] = sig2
        ways = [w for w in ways if not isinstance(w[2], Stopped)]
        if not ways:
            return
        run.succ.setdefault(s, {str(w[0]): w[2] for w in ways})
        m, p, t = choose(ways, sig2[0][0] == "chance", rng)
        if t not in run.parents:
            run.parents[t] = (s, Step(actor_text(rules.to_move(s)), str(m), p))
        s = t


# --------------------------------------------------------------------------- caches


def _runtime_caches() -> list[dict]:
    """Module-level dicts of the model written as an empty literal (``_NAME = {}``): filled
    while playing, so an answer cached before a mutant was put in place could hide it."""
    import ast

    out = []
    for name, module in list(sys.modules.items()):
        if not name.startswith("tablerules.model.") or module is None or not getattr(module, "__file__", None):
            continue
        try:
            tree = ast.parse(open(module.__file__, encoding="utf-8").read())
        except (OSError, SyntaxError):
            continue
        for node in tree.body:
            target = (
                node.target
                if isinstance(node, ast.AnnAssign)
                else (node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None)
            )
            value = node.value if isinstance(node, (ast.AnnAssign, ast.Assign)) else None
            if isinstance(target, ast.Name) and isinstance(value, ast.Dict) and not value.keys:
                d = getattr(module, target.id, None)
                if isinstance(d, dict):
                    out.append(d)
    return out


_CACHES: tuple[frozenset[str], list[dict]] = (frozenset(), [])
"""(the model's modules loaded when the runtime dicts were found, those dicts)."""


def clear_caches() -> None:
    """Empty every cache of the model: lru caches and the runtime dicts, found again whenever a model module
    has been loaded since they were last found (a dict of a module loaded later would keep its answers)."""
    global _CACHES
    clear_model_caches()
    loaded = frozenset(name for name in list(sys.modules) if name.startswith("tablerules.model."))
    if loaded != _CACHES[0]:
        _CACHES = (loaded, _runtime_caches())
    for d in _CACHES[1]:
        d.clear()


# --------------------------------------------------------------------------- probes


TRIGGERS = 48
"""States kept per decision test and outcome: the first ones (breadth-first, so the nearest
to the start) whose signature ran the test with that outcome."""


class Probes:
    """Every decision test of some files wrapped so that its outcome is recorded: within
    ``with probes:`` each function runs its probed code, and ``outcomes`` maps a test
    (file, line, column) to the set of values (True, False) it took."""

    def __init__(self, files: tuple[str, ...]) -> None:
        import importlib

        from .mutants import PROBE, target_function, write_probes

        self.outcomes: dict[tuple[str, int, int], set[bool]] = {}
        self.current: Any = None
        """The state whose signature is being worked out (set by :func:`record`)."""
        self.triggers: dict[tuple[tuple[str, int, int], bool], list[Any]] = {}
        self._swaps = []
        modules = set()
        for module_name, qualname, code in write_probes(files):
            module = importlib.import_module(module_name)
            try:
                fn = target_function(module, qualname)
            except (KeyError, TypeError, AttributeError):
                continue
            if fn.__code__.co_freevars != code.co_freevars:
                continue
            self._swaps.append((fn, fn.__code__, code))
            modules.add(module)
        self._modules = modules
        self._probe_name = PROBE

    def _probe(self, key: tuple[str, int, int], value: Any) -> Any:
        got = self.outcomes.get(key)
        if got is None:
            got = self.outcomes[key] = set()
        b = bool(value)
        got.add(b)
        if self.current is not None:
            at = self.triggers.get((key, b))
            if at is None:
                at = self.triggers[(key, b)] = []
            if len(at) < TRIGGERS and (not at or at[-1] is not self.current):
                at.append(self.current)
        return value

    def __enter__(self) -> "Probes":
        for module in self._modules:
            setattr(module, self._probe_name, self._probe)
        for fn, _old, new in self._swaps:
            fn.__code__ = new
        return self

    def __exit__(self, *exc: Any) -> None:
        for fn, old, _new in self._swaps:
            fn.__code__ = old
        for module in self._modules:
            delattr(module, self._probe_name)

    def take(self) -> tuple[dict[tuple[str, int, int], frozenset[bool]], dict]:
        out = {k: frozenset(v) for k, v in self.outcomes.items()}
        triggers = self.triggers
        self.outcomes, self.triggers, self.current = {}, {}, None
        return out, triggers


# --------------------------------------------------------------------------- runs


@dataclass(eq=False)
class Run:
    """One configuration under one setting, explored on the unchanged model."""

    label: str
    """``2 players, 3-types-4-colours; defaults``."""
    setting: str
    setup: Setup
    states: dict[Any, Signature] = field(default_factory=dict, repr=False)
    parents: dict[Any, tuple[Any, Step] | None] = field(default_factory=dict, repr=False)
    games: tuple[int, ...] = ()
    """Seeds of the random games played after the breadth-first part (their states are recorded too)."""
    succ: dict[Any, dict[str, Any]] = field(default_factory=dict, repr=False)
    """State -> {move text: next state}, for every state expanded breadth-first."""
    setup_problem: str | None = None
    """What the rule set's set-up check says of this setup (None: allowed)."""
    outcomes: dict[tuple[str, int, int], frozenset[bool]] = field(default_factory=dict, repr=False)
    """Decision test (file, line, column) -> the values it took in this run."""
    triggers: dict[tuple[tuple[str, int, int], bool], list[Any]] = field(default_factory=dict, repr=False)
    """(decision test, value) -> the first states whose signature ran the test with that value."""
    order: dict[Any, int] = field(default_factory=dict, repr=False)
    complete: bool = False
    """Every reachable state was recorded (the budget was not reached)."""

    def trace(self, state: Any) -> tuple[Step, ...]:
        steps = []
        while self.parents.get(state) is not None:
            state, step = self.parents[state]  # type: ignore[misc]
            steps.append(step)
        return tuple(reversed(steps))


GAME_STEPS = 600
"""The longest random game played (steps, chance outcomes included)."""


def choose(ways: list, chance: bool, rng: Any) -> Any:
    """The way a seeded random game goes on: chance by its probabilities, a seat uniformly."""
    if chance:
        return ways[pick_index([p for _, p, _ in ways], rng.random())]
    return ways[rng.randrange(len(ways))]


def pick_index(probabilities: list, r: float) -> int:
    acc = 0.0
    for i, p in enumerate(probabilities):
        acc += float(p)
        if r < acc:
            return i
    return len(probabilities) - 1


def record(rules: RuleSet, label: str, setting: str, setup: Setup, max_states: int,
           probes: Probes | None = None, games: int = 0, seed: int = 0) -> Run:
    """Explore ``setup`` breadth-first to ``max_states`` states, then play ``games`` seeded
    random games, recording signatures (and, with ``probes``, the decisions' outcomes)."""
    clear_caches()
    run = Run(label, setting, setup)
    if probes:
        probes.__enter__()
        probes.take()
    try:
        run.setup_problem = rules.setup_error(setup)
        try:
            start = rules.new_game(setup)
        except RuleGap:
            return run
        run.parents[start] = None
        frontier = [start]
        cut = False
        while frontier:
            nxt = []
            for s in frontier:
                if probes:
                    probes.current = s
                sig, ways = signature(rules, s)
                run.states[s] = sig
                if not ways:
                    continue
                run.succ[s] = {str(m): t for m, _p, t in ways if not isinstance(t, Stopped)}
                who = actor_text(rules.to_move(s))
                for m, p, t in ways:
                    if isinstance(t, Stopped):
                        continue  # a gap or an error: part of the signature, no state
                    if t not in run.parents:
                        if len(run.parents) >= max_states:
                            cut = True
                            continue
                        run.parents[t] = (s, Step(who, str(m), p))
                        nxt.append(t)
            frontier = nxt
        run.complete = not cut
        run.games = tuple(seed * 1_000 + g for g in range(games))
        for game_seed in run.games:
            _play(rules, run, start, game_seed, probes)
    finally:
        if probes:
            probes.__exit__()
            run.outcomes, run.triggers = probes.take()
    return run

