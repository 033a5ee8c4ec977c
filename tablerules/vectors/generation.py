"""The golden set of reference vectors: which games, and writing and comparing the set.

``tablerules vectors generate`` writes vectors/<ruleset>/*.itf.json, deterministically
(fixed seeds; nothing depends on time or dict order):

* for each player count: seeded random playthroughs under the default options (for each
  suitable set of components);
* for each ruling alternative other than the default (strict ones too: such a game ends
  where the rules fall silent) and each optional rule: one playthrough, at the first
  player count where it plays differently from the base options;
* every witness trace of the rulings register (spec/witnesses/*.json);
* edge cases: more seeded playthroughs, steered towards clauses no vector exercises yet,
  kept only when they exercise something new (and cut after the last step of interest);
* for each clause still without a vector: the shortest of a fixed number of steered
  playthroughs that exercises it, also on components written for such a case
  (TARGET_COMPONENTS: the five-suit deck for jd.win.five-suits);
* while the set stays small: the ruling alternatives at their other player counts.

Sizes are bounded (MAX_VECTOR_BYTES per game, RULESET_MAX_BYTES and EXTRA_MAX_BYTES per
rule set) so the committed set stays near 3 MB.

It prints a coverage table (clause -> vectors; ruling alternative -> vectors) and lists the
clauses no vector exercises.  A rule set whose model does not import is skipped with a
line saying so.  ``--check`` regenerates into a temporary folder and compares.
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
import zlib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Sequence

from tablerules.model import registry
from tablerules.model.core import (
    CHANCE, TERMINAL, IllegalMove, MoveSyntaxError, RuleGap, RuleSet, SetupError, options_text, parse_options,
    ruling_fields, short_ruling_name, variant_fields,
)

from . import coverage
from .itf import dumps
from .recording import record_game, trace_document

MAX_STEPS = 400
"""Playthroughs stop here (and say so in #meta.capped): a game that long is a pass loop."""
DEFAULT_SEEDS = 2
"""Seeded playthroughs per player count under the default options."""
EDGE_TRIES = 80
"""Extra steered playthroughs per rule set in the search for uncovered clauses."""
EDGE_KEEP = 12
"""At most this many edge-case vectors per rule set."""
EDGE_MAX_BYTES = 250_000
"""Edge-case vectors larger than this are dropped (the clause stays listed as uncovered)."""
RULESET_MAX_BYTES = 1_500_000
"""No edge-case vector is added once a rule set's vectors would pass this size (the set stays near 3 MB)."""
EXTRA_MAX_BYTES = 900_000
"""Vectors for ruling alternatives at further player counts are added while a rule set stays under this."""
EDGE_PATIENCE = 12
"""The search for edge cases stops after this many tries in a row that find nothing new."""
STEER_SAMPLE = 6
"""Choices looked at in full per step of a steered playthrough."""
COMPONENTS: dict[str, tuple[str, ...]] = {"dishes": ("box", "3x4")}
"""Components to try per rule set, by --deck argument (default: the default, then embedded decks)."""
TARGET_COMPONENTS: dict[str, tuple[str, ...]] = {"just-desserts": ("jd-five-suits",)}
"""Embedded components written for an edge case of one rule set (a deck with five suits for
jd.win.five-suits): only that rule set's search for the shortest game uses them; no rule set
plays its ordinary playthroughs on them."""
TARGET_SEEDS = 40
"""Seeded playthroughs per configuration in the search for the shortest game exercising a clause."""
SMALL_COMPONENTS: dict[str, str] = {"dishes": "3x4"}
"""Components for the ruling and option vectors, where a small set keeps them short."""
SUFFIX = ".itf.json"
MAX_VECTOR_BYTES = 40_000
"""A playthrough whose file would be larger is replaced by another seed's (up to SIZE_ATTEMPTS)."""
SIZE_ATTEMPTS = 6


def default_out() -> Path:
    """The checkout's vectors/ folder (this module is ``tablerules/vectors/generation.py`` in it), or
    ./vectors outside a checkout."""
    repo = Path(__file__).resolve().parents[2]
    return repo / "vectors" if (repo / "pyproject.toml").exists() else Path.cwd() / "vectors"


# --------------------------------------------------------------------------- configurations


@dataclass(frozen=True)
class Config:
    """One setup to play: players, options, components, and how to name its files."""

    players: int
    options: Any
    components: Any
    components_argument: str | None
    label: str

    def slug(self) -> str:
        return f"{self.players}p-{self.label}"


@dataclass
class Vector:
    name: str
    document: dict[str, Any]
    clauses: list[str]
    option_keys: list[str]


@dataclass
class Report:
    ruleset: str
    vectors: list[Vector] = field(default_factory=list)
    universe: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    skipped: str = ""
    failed: str = ""
    seconds: float = 0.0


def _components_choices(rules: RuleSet) -> list[tuple[str | None, Any]]:
    """(--deck argument or None for the default, components) in the order to try them."""
    out: list[tuple[str | None, Any]] = []
    names = COMPONENTS.get(rules.id)
    if names is None:
        out.append((None, rules.default_components()))
        try:
            from tablerules.model.decks import embedded_deck_names

            targeted = {n for names_ in TARGET_COMPONENTS.values() for n in names_}
            names = tuple(n for n in embedded_deck_names() if n not in targeted)
        except ImportError:
            names = ()
    for name in names:
        if rules.load_components is None:
            break
        try:
            out.append((name, rules.load_components(name)))
        except (SetupError, OSError, ValueError):
            continue
    seen, unique = set(), []
    for arg, comp in out:
        key = getattr(comp, "digest", lambda: repr(comp))() if comp is not None else None
        if key not in seen:
            seen.add(key)
            unique.append((arg if arg else getattr(comp, "name", None), comp))
    return unique


def _working(
    rules: RuleSet, players: int, options: Any, choices: list[tuple[str | None, Any]]
) -> list[tuple[str | None, Any]]:
    ok = []
    for arg, comp in choices:
        try:
            rules.setup(players, options, comp)
        except SetupError:
            continue
        ok.append((arg, comp))
    return ok


def _comp_label(arg: str | None, comp: Any) -> str:
    return (arg or getattr(comp, "name", "default")).replace("/", "-").replace(" ", "-")


def option_variants(rules: RuleSet) -> list[tuple[str, Any, Any]]:
    """(label, options, base options) for every optional rule on its own (base: the defaults),
    and every non-default ruling alternative on a base of all optional rules on (so that
    rulings about the optional rules can matter)."""
    Options = rules.Options
    out: list[tuple[str, Any, Any]] = []
    variants = variant_fields(Options)
    for name, f in sorted(variants.items()):
        out.append((f"+{name}", dataclasses.replace(Options(), **{f.name: True}), Options()))
    base = dataclasses.replace(Options(), **{f.name: True for f in variants.values()})
    prefix = "advanced+" if variants else ""
    for rid, f in sorted(ruling_fields(Options).items()):
        for alt in f.metadata["alternatives"][1:]:
            out.append((f"{prefix}{short_ruling_name(rid)}={alt}", dataclasses.replace(base, **{f.name: alt}), base))
    return out


# --------------------------------------------------------------------------- playing


def _seed(*parts: Any) -> int:
    return zlib.crc32("/".join(map(str, parts)).encode())


def playthrough(
    rules: RuleSet, setup: Any, seed: int, steer: set[str] | None = None, max_steps: int = MAX_STEPS
) -> list[Any]:
    """Moves of one game: chance by its probabilities, seats uniformly at random.

    With ``steer`` (clauses not yet covered), a move or outcome whose step exercises one of
    them is preferred (the probabilities recorded stay the true ones).
    """
    rng = random.Random(seed)
    try:
        state = rules.new_game(setup)
    except RuleGap:
        return []
    moves: list[Any] = []
    for _ in range(max_steps):
        actor = rules.to_move(state)
        if actor is TERMINAL:
            break
        try:
            if actor is CHANCE:
                outs = rules.chance_outcomes(state)
                choices = [m for m, _ in outs]
            else:
                outs = None
                choices = list(rules.legal_moves(state))
        except RuleGap:
            break
        if not choices:
            break
        move = None
        if steer:
            move = _steered(rules, state, choices, steer, rng, actor)
        if move is None:
            if outs is not None:
                move = rng.choices(choices, weights=[float(p) for _, p in outs])[0]
            else:
                move = rng.choice(choices)
        moves.append(move)
        try:
            state = rules.apply(state, move)
        except RuleGap:
            break
    return moves


def _steered(rules: RuleSet, state: Any, choices: list[Any], steer: set[str], rng: random.Random, actor: Any) -> Any:
    """A choice whose step exercises a clause in ``steer``, or None.  Cheap first (the
    clauses a move's kind maps to), then a full look at a few sampled choices."""
    table = coverage.MOVE_CLAUSES.get(rules.id, {})
    by_kind = [m for m in choices if steer & set(table.get(coverage.move_kind(m), ()))]
    if by_kind:
        return rng.choice(by_kind)
    sample = choices if len(choices) <= STEER_SAMPLE else rng.sample(choices, STEER_SAMPLE)
    hits = []
    for m in sample:
        try:
            after = rules.apply(state, m)
            if steer & set(coverage.transition_clauses(rules, state, m, after, actor)):
                hits.append(m)
        except (RuleGap, IllegalMove):
            continue
    return rng.choice(hits) if hits else None


def _make_vector(rules: RuleSet, cfg: Config, moves: Sequence[Any], name: str, generator: dict[str, Any],
                 description: str, note: str = "", max_steps: int | None = MAX_STEPS) -> Vector:
    setup = rules.setup(cfg.players, cfg.options, cfg.components)
    trace = record_game(rules, setup, moves, components_argument=cfg.components_argument, max_steps=max_steps)
    doc = trace_document(trace, description=description, generator=generator, note=note)
    keys = coverage.option_keys(options_text(setup.options), {})
    return Vector(name, doc, list(trace.clauses), keys)


# --------------------------------------------------------------------------- witnesses


def witness_files() -> list[Path]:
    try:
        root = Path(str(resources.files("tablerules.spec").joinpath("witnesses")))
    except (ModuleNotFoundError, TypeError):
        return []
    return sorted(root.glob("*.json")) if root.is_dir() else []


def _slug(text: str) -> str:
    out = "".join(ch if ch.isalnum() else "-" for ch in text.lower())
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-") or "trace"


def witness_vectors(rules: RuleSet, path: Path) -> tuple[list[Vector], list[str]]:
    """The witness traces in ``path`` for this rule set, as vectors, and a note per problem.

    Three shapes are read: {ruleset, players, options, components, moves, note};
    {ruleset, ruling, setup: {players, deck, rulings}, moves, raises_at, detail}; and
    {ruleset, players, deck, options, witnesses: {name: {moves, about, ...}}} holding several.
    """
    try:
        w = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        return [], [f"witness {path.name}: unreadable ({e})"]
    if not isinstance(w, dict) or w.get("ruleset") != rules.id or "never_part" in w:
        return [], []  # another rule set's, or a proof that two readings never part (no trace to record)
    s = w.get("setup") if isinstance(w.get("setup"), dict) else {}
    common = {
        "players": w.get("players", s.get("players")),
        # a file's top-level rulings (the alternatives its traces need) count with its options
        "options": {**(w.get("options", s.get("rulings", s.get("options", {}))) or {}),
                    **(w["rulings"] if isinstance(w.get("rulings"), dict) else {})},
        "components": [w.get("deck"), w.get("components"), s.get("deck"), s.get("components")],
        "description": s.get("description", "") or w.get("about", ""),
        "ruling": w.get("ruling", ""),
    }
    entries = w.get("witnesses")
    if isinstance(entries, dict):
        items = [(f"witness-{path.stem}-{_slug(name)}", e) for name, e in entries.items() if isinstance(e, dict)]
    elif isinstance(entries, list):
        items = [(f"witness-{path.stem}-{i + 1}", e) for i, e in enumerate(entries) if isinstance(e, dict)]
    else:
        items = [(f"witness-{path.stem}", w)]
    vectors, notes = [], []
    for name, entry in items:
        vec, problem = _witness_entry(rules, path, name, common, entry)
        if vec is not None:
            vectors.append(vec)
        if problem:
            notes.append(problem)
    return vectors, notes


def _load_first(rules: RuleSet, names: list[str]) -> tuple[str | None, Any]:
    """(argument, components) for the first name that loads (a witness may give a --deck
    argument and a display name); (None, None) for the default components."""
    if not names or rules.load_components is None:
        return None, None
    problem: Exception | None = None
    for name in names:
        try:
            return name, rules.load_components(name)
        except (SetupError, OSError, ValueError) as e:
            problem = problem or e
    raise SetupError(str(problem).splitlines()[0] if str(problem) else f"cannot load components {names[0]!r}")


def _witness_entry(rules: RuleSet, path: Path, name: str, common: dict, entry: dict) -> tuple[Vector | None, str]:
    players = entry.get("players", common["players"])
    rulings = entry.get("options", common["options"]) or {}
    names = [entry.get("deck"), entry.get("components")]
    names = [n for n in names + common["components"] if isinstance(n, str) and n]
    moves = entry.get("moves", [])
    raises_at = entry.get("raises_at")
    note = entry.get("note") or entry.get("detail") or entry.get("about") or ""
    ruling = entry.get("ruling", common["ruling"])
    label = f"witness {path.name}" + (f" ({name})" if name != f"witness-{path.stem}" else "")
    try:
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves) or not isinstance(rulings, dict):
            raise ValueError("moves must be a list of move texts and options an object")
        pairs = [f"{k}={v}" for k, v in rulings.items() if not isinstance(v, bool)]
        variants = [k for k, v in rulings.items() if v is True]
        options = parse_options(rules.Options, pairs, variants=variants)
        comp_name, comp = _load_first(rules, names)
        setup = rules.setup(players, options, comp)
        cfg = Config(players, options, setup.components, comp_name, "witness")
        all_moves = moves + ([raises_at] if isinstance(raises_at, str) else [])
        generator = {"kind": "witness", "file": f"spec/witnesses/{path.name}"}
        if ruling:
            generator["ruling"] = ruling
        description = f"witness for {ruling or 'a ruling'}" + (
            f": {common['description']}" if common["description"] else ""
        )
        vec = _make_vector(rules, cfg, all_moves, name, generator, description, note, max_steps=None)
    except (SetupError, MoveSyntaxError, IllegalMove, TypeError, ValueError) as e:
        return None, f"{label}: cannot be replayed: {str(e).splitlines()[0] if str(e) else type(e).__name__}"
    if "raises_at" in entry and not vec.document["#meta"].get("rule_gap"):
        where = f" at {raises_at}" if raises_at else ""
        return vec, f"{label}: expected a rule gap{where}, none was raised (is the witness out of date?)"
    return vec, ""


# --------------------------------------------------------------------------- one rule set


def generate_ruleset(ruleset_id: str) -> Report:
    """Every vector for one rule set (in memory), with its coverage.

    A model that does not import is skipped (``report.skipped``); one that raises while
    playing is reported (``report.failed``) and none of its vectors are written.
    """
    report = Report(ruleset_id)
    t0 = time.perf_counter()
    try:
        rules = registry.get(ruleset_id)
    except Exception as e:  # noqa: BLE001 - any import failure means: skip this rule set for now
        report.skipped = f"model does not import ({_one_line(e)})"
        return report
    try:
        _generate_into(report, rules)
    except Exception as e:  # noqa: BLE001 - a model bug must not hide the other rule sets' vectors
        report.failed = f"the model raised {_one_line(e)} while generating; nothing written for {ruleset_id}"
        report.vectors = []
    report.seconds = time.perf_counter() - t0
    return report


def _one_line(e: BaseException) -> str:
    text = str(e).splitlines()[0] if str(e) else ""
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def _generate_into(report: Report, rules: RuleSet) -> None:
    ruleset_id = rules.id
    from tablerules.spec.loader import SpecError, load_spec

    try:
        spec = load_spec(ruleset_id)
        report.universe = sorted(spec.clauses)
        ruling_alts = {rid: r.alternative_ids() for rid, r in spec.rulings.items()}
    except (SpecError, OSError) as e:
        report.notes.append(f"no spec to list the clauses from ({str(e).splitlines()[0]})")
        ruling_alts = {}
    for rid, f in ruling_fields(rules.Options).items():
        ruling_alts.setdefault(rid, f.metadata["alternatives"])
    report.universe = sorted(set(report.universe) | {f"{rid}={a}" for rid, alts in ruling_alts.items() for a in alts})
    choices = _components_choices(rules)
    used_names: set[str] = set()

    def add(vec: Vector) -> None:
        if vec.name in used_names:
            raise RuntimeError(f"duplicate vector name {vec.name}")
        used_names.add(vec.name)
        report.vectors.append(vec)

    configs_by_n: dict[int, list[Config]] = {}
    for n in rules.player_counts:
        working = _working(rules, n, rules.Options(), choices)
        if not working:
            report.notes.append(f"{n} players: no components that allow this count")
            continue
        configs_by_n[n] = [
            Config(n, rules.Options(), comp, arg, f"{_comp_label(arg, comp)}-default") for arg, comp in working
        ]
        for i, cfg in enumerate(configs_by_n[n]):
            seeds = DEFAULT_SEEDS if i == 0 else 1
            for k in range(1, seeds + 1):
                add(_pick_game(rules, cfg, k, f"{rules.title}: {n} players, default rulings, "
                               f"components {_comp_label(cfg.components_argument, cfg.components)}"))
    small = SMALL_COMPONENTS.get(ruleset_id)
    used_counts: dict[str, int] = {}
    for label, options, base in option_variants(rules):
        vec = _option_vector(rules, label, options, base, choices, small)
        if vec is None:
            report.notes.append(f"{label}: no player count and components allow it")
            continue
        used_counts[label] = vec.document["#meta"]["players"]
        add(vec)
    for path in witness_files():
        vecs, problems = witness_vectors(rules, path)
        report.notes += problems
        for vec in vecs:
            add(vec)
    _edge_cases(rules, report, configs_by_n, add)
    _shortest_games(rules, report, configs_by_n, add)
    _more_player_counts(rules, report, used_counts, choices, small, add)


def _more_player_counts(rules: RuleSet, report: Report, used_counts: dict[str, int], choices: list, small: str | None,
                        add: Any) -> None:
    """Each ruling alternative and optional rule at the other player counts where it plays
    differently, while the rule set's vectors stay under EXTRA_MAX_BYTES."""
    total = sum(len(dumps(v.document)) for v in report.vectors)
    left_out = 0
    for label, options, base in option_variants(rules):
        for n in rules.player_counts:
            if label not in used_counts or n == used_counts[label]:
                continue
            if total >= EXTRA_MAX_BYTES:
                left_out += 1
                continue
            working = _working(rules, n, options, choices)
            if not working:
                continue
            arg, comp = next(((a, c) for a, c in working if a == small), working[0])
            cfg = Config(n, options, comp, arg, f"{_comp_label(arg, comp)}-{label}")
            setup = rules.setup(n, options, comp)
            seed = _seed(rules.id, cfg.slug(), 1, 0)
            moves = playthrough(rules, setup, seed)
            if not _differs(rules, cfg, base, moves, seed):
                continue
            vec = _pick_game(rules, cfg, 1, f"{rules.title}: {n} players, {label}", first_moves=moves)
            size = len(dumps(vec.document))
            if total + size > EXTRA_MAX_BYTES:
                left_out += 1
                continue
            total += size
            add(vec)
    if left_out:
        report.notes.append(
            f"{left_out} (option, player count) pairs beyond the first not played or left out, to keep the set small"
        )


def _pick_game(rules: RuleSet, cfg: Config, k: int, description: str, first_moves: list[Any] | None = None) -> Vector:
    """Playthrough number ``k`` of a configuration: the first of a few seeds whose file stays
    under MAX_VECTOR_BYTES (else the smallest), so that one endless game cannot bloat the set."""
    setup = rules.setup(cfg.players, cfg.options, cfg.components)
    best: tuple[int, Vector, list[Any], int] | None = None
    for attempt in range(SIZE_ATTEMPTS):
        seed = _seed(rules.id, cfg.slug(), k, attempt)
        moves = first_moves if attempt == 0 and first_moves is not None else playthrough(rules, setup, seed)
        vec = _make_vector(rules, cfg, moves, f"{cfg.slug()}-s{k}", {"kind": "random", "seed": seed}, description)
        size = len(dumps(vec.document))
        if size <= MAX_VECTOR_BYTES:
            return vec
        if best is None or size < best[0]:
            best = (size, vec, moves, seed)
    assert best is not None
    size, vec, moves, seed = best
    if size <= 2 * MAX_VECTOR_BYTES:
        return vec
    # every seed gives a long game: keep the first part of the shortest, marked as capped
    keep = max(1, int(len(moves) * 2 * MAX_VECTOR_BYTES / size))
    return _make_vector(rules, cfg, moves, vec.name, {"kind": "random", "seed": seed}, description, max_steps=keep)


def _option_vector(
    rules: RuleSet, label: str, options: Any, base: Any, choices: list, small: str | None
) -> Vector | None:
    """One playthrough under ``options``: at the first player count where it differs from
    the same seed under the ``base`` options (else the first count that allows it)."""
    first: Config | None = None
    for n in rules.player_counts:
        working = _working(rules, n, options, choices)
        if not working:
            continue
        pick = next(((a, c) for a, c in working if a == small), working[0])
        cfg = Config(n, options, pick[1], pick[0], f"{_comp_label(pick[0], pick[1])}-{label}")
        first = first or cfg
        setup = rules.setup(n, options, pick[1])
        seed = _seed(rules.id, cfg.slug(), 1, 0)
        moves = playthrough(rules, setup, seed)
        if _differs(rules, cfg, base, moves, seed):
            return _pick_game(rules, cfg, 1, f"{rules.title}: {n} players, {label}", first_moves=moves)
    if first is None:
        return None
    return _pick_game(
        rules, first, 1, f"{rules.title}: {first.players} players, {label} (plays as under the base options)"
    )


def _differs(rules: RuleSet, cfg: Config, base: Any, moves: list[Any], seed: int) -> bool:
    """Does this game differ from one under the ``base`` options (same seed, same setup otherwise)?"""
    try:
        base_setup = rules.setup(cfg.players, base, cfg.components)
    except SetupError:
        return True
    base_moves = playthrough(rules, base_setup, seed)
    if [str(m) for m in base_moves] != [str(m) for m in moves]:
        return True
    setup = rules.setup(cfg.players, cfg.options, cfg.components)
    try:
        a, b = rules.new_game(setup), rules.new_game(base_setup)
        for m in moves:
            if rules.state_vars(a) != rules.state_vars(b) or rules.to_move(a) != rules.to_move(b):
                return True
            if rules.to_move(a) is not CHANCE and rules.legal_moves(a) != rules.legal_moves(b):
                return True
            a, b = rules.apply(a, m), rules.apply(b, m)
        if rules.outcome(a) != rules.outcome(b):
            return True
    except (RuleGap, IllegalMove):
        return True
    return False


def _edge_cases(rules: RuleSet, report: Report, configs_by_n: dict[int, list[Config]], add: Any) -> None:
    """Steered playthroughs over every configuration, kept when they cover a clause no vector has."""
    covered = {c for v in report.vectors for c in v.clauses}
    wanted = {
        c for c in report.universe if "=" not in c and ".ruling." not in c and coverage.is_play_clause(rules.id, c)
    } - covered
    if not wanted:
        return
    configs = [cfgs[0] for n, cfgs in sorted(configs_by_n.items())]
    variants = variant_fields(rules.Options)
    if variants:
        base = rules.Options()
        option_sets = [
            (f"+{name}", dataclasses.replace(base, **{f.name: True})) for name, f in sorted(variants.items())
        ]
        option_sets.append(("advanced", dataclasses.replace(base, **{f.name: True for f in variants.values()})))
        choices = _components_choices(rules)
        for n in rules.player_counts:
            for label, options in option_sets:
                for arg, comp in _working(rules, n, options, choices)[:1]:
                    configs.append(Config(n, options, comp, arg, f"{_comp_label(arg, comp)}-{label}"))
    patience = max(EDGE_PATIENCE, len(configs))
    kept = idle = 0
    total = sum(len(dumps(v.document)) for v in report.vectors)
    for k in range(EDGE_TRIES):
        if not wanted or kept >= EDGE_KEEP or not configs or idle >= patience:
            break
        idle += 1
        cfg = configs[k % len(configs)]
        setup = rules.setup(cfg.players, cfg.options, cfg.components)
        moves = playthrough(rules, setup, _seed(rules.id, "edge", cfg.slug(), k), steer=wanted)
        vec = _make_vector(
            rules, cfg, moves, f"edge-{cfg.slug()}-e{k}", {"kind": "edge-search", "seed": k},
            f"{rules.title}: {cfg.players} players, {cfg.label}: a playthrough steered to uncovered clauses",
        )
        new = wanted & set(vec.clauses)
        if new:
            last = max(i for i, st in enumerate(vec.document["states"]) if new & set(st["#meta"].get("clauses", ())))
            if last < len(moves):  # stop right after the last step of interest
                vec = _make_vector(rules, cfg, moves[:last], vec.name, vec.document["#meta"]["generator"],
                                   vec.document["#meta"]["description"] + " (cut after the last step of interest)")
            size = len(dumps(vec.document))
            if size > EDGE_MAX_BYTES or total + size > RULESET_MAX_BYTES:
                continue
            total += size
            vec.document["#meta"]["note"] = "covers " + ", ".join(sorted(new))
            add(vec)
            kept += 1
            idle = 0
            wanted -= new


def _uncovered(rules: RuleSet, report: Report) -> list[str]:
    """Clauses about play that no vector exercises yet (ruling alternatives aside)."""
    covered = {c for v in report.vectors for c in v.clauses}
    return [c for c in report.universe
            if "=" not in c and ".ruling." not in c and coverage.is_play_clause(rules.id, c) and c not in covered]


def _target_configs(rules: RuleSet, configs_by_n: dict[int, list[Config]]) -> list[list[Config]]:
    """Where to search for a clause the other vectors miss, in tiers searched in turn until one
    gives a game: the rule set's TARGET_COMPONENTS at every player count they allow, then the
    first components of every player count."""
    out = []
    for name in TARGET_COMPONENTS.get(rules.id, ()):
        try:
            comp = rules.load_components(name) if rules.load_components else None
        except (SetupError, OSError, ValueError):
            continue
        for n in rules.player_counts:
            if _working(rules, n, rules.Options(), [(name, comp)]):
                out.append(Config(n, rules.Options(), comp, name, f"{_comp_label(name, comp)}-default"))
    return [tier for tier in (out, [cfgs[0] for n, cfgs in sorted(configs_by_n.items())]) if tier]


def _first_step_with(rules: RuleSet, setup: Any, moves: Sequence[Any], clause: str) -> int | None:
    """How many moves of ``moves`` it takes until a step exercises ``clause`` (None: never)."""
    try:
        state = rules.new_game(setup)
        if clause in coverage.start_clauses(rules, state):
            return 0
        for i, move in enumerate(moves):
            actor = rules.to_move(state)
            after = rules.apply(state, move)
            if clause in coverage.transition_clauses(rules, state, move, after, actor):
                return i + 1
            state = after
    except (RuleGap, IllegalMove):
        return None
    return None


def _shortest_games(rules: RuleSet, report: Report, configs_by_n: dict[int, list[Config]], add: Any) -> None:
    """For each clause about play still without a vector: the shortest of TARGET_SEEDS steered
    playthroughs per configuration (see _target_configs) that exercises it, cut right after
    that step.  Deterministic: ties go to the earlier configuration and seed."""
    tiers = _target_configs(rules, configs_by_n)
    for clause in _uncovered(rules, report):
        if clause not in _uncovered(rules, report):
            continue  # a game found for an earlier clause covers it too
        best: tuple[int, Config, int, list[Any]] | None = None
        for configs in tiers:
            for cfg in configs:
                setup = rules.setup(cfg.players, cfg.options, cfg.components)
                for k in range(TARGET_SEEDS):
                    seed = _seed(rules.id, "shortest", clause, cfg.slug(), k)
                    moves = playthrough(rules, setup, seed, steer={clause})
                    shorter = moves if best is None else moves[:best[0]]  # only a shorter game can win
                    steps = _first_step_with(rules, setup, shorter, clause)
                    if steps is not None and (best is None or steps < best[0]):
                        best = (steps, cfg, seed, moves[:steps])
            if best is not None:
                break
        if best is None:
            report.notes.append(f"{clause}: no playthrough exercises it ({TARGET_SEEDS} seeds on each of "
                                f"{sum(map(len, tiers))} configurations)")
            continue
        steps, cfg, seed, moves = best
        vec = _make_vector(rules, cfg, moves, f"edge-{cfg.slug()}-{_slug(clause)}",
                           {"kind": "edge-search", "seed": seed, "clause": clause,
                            "search": f"shortest of {TARGET_SEEDS} steered playthroughs per configuration"},
                           f"{rules.title}: {cfg.players} players, {cfg.label}: the shortest of the playthroughs "
                           f"searched that exercises {clause}", note=f"covers {clause}", max_steps=None)
        if clause not in vec.clauses:  # cannot happen: the replay above saw it
            raise RuntimeError(f"the shortest game for {clause} does not exercise it when recorded")
        add(vec)
