"""The numbers behind the site's figures, computed through the public rule set API.

Each function states its unit:

* :func:`level_counts`: explorer nodes per level of a breadth-first search (a node is a
  stored state, symmetry-reduced when asked; in Dishes it includes the states where a
  turned tile waits for its colour);
* :func:`state_graph`: every node and move of a tiny configuration, as a graphviz graph;
* :func:`game_lengths`: seat moves per game (chance events are not moves) under uniform
  random play, where the player to move picks uniformly among its legal moves;
* :func:`alternative_effects`: per ruling alternative, each seat's chance of losing (alone or
  with others), the chance of a draw, of meeting a rule gap, of never ending, and the expected
  game length in seat moves, under the same random play: exact over the chance tree when
  small, else sampled.  Losing and drawing are counted as the impact tables count them
  (:func:`tablerules.proofs.discovery.impact.seat_result`), so a table and its plot agree.

>>> from tablerules.pictures.figures import game_lengths, level_counts
>>> levels = level_counts("dishes", players=2, deck="1x2")
>>> levels[0], sum(levels) > 1
(1, True)
>>> lengths, unfinished = game_lengths("dishes", players=2, deck="2x2", games=20, seed=3)
>>> sum(lengths.values()) + unfinished
20
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tablerules.model import registry
from tablerules.model.core import CHANCE, TERMINAL, RuleGap, RuleSet, ruling_fields
from tablerules.proofs.discovery import impact as im
from tablerules.proofs.explorer import Budget, explore


def table(ruleset: str, players: int, deck: str | None = None, options: Any = None) -> tuple[RuleSet, Any]:
    """(rule set, the state before play) for a configuration; ``deck`` as ``--deck`` takes it."""
    rules = registry.get(ruleset)
    components = rules.load_components(deck) if deck and rules.load_components else None
    return rules, rules.new_game(rules.setup(players, options, components))


def _symmetry(rules: RuleSet, symmetry: str | None) -> str | None:
    return rules.default_symmetry if symmetry == "default" else symmetry


# --------------------------------------------------------------------------- states per level

LEVELS_UNIT = ("table states: whose turn it is and what lies on every place as the players see it (a pile by its top "
               "tile and its number of tiles), by the number of actions played; every deal; counted by the exact "
               "engine")
"""What :func:`level_counts` counts (the site's figure says it): change it with the data source."""


def level_counts(ruleset: str = "dishes", players: int = 2, deck: str | None = "4x4") -> list[int]:
    """Table states at each level (index = actions played), from the exact engine.

    The one data source of the "states per level" figure: a complete count by
    :func:`tablerules.proofs.exact.run.solve` (every level complete before the next)."""
    from tablerules.model import registry
    from tablerules.proofs.exact.run import solve

    rules, start = table(ruleset, players, deck)
    sol = solve(registry.kernel(ruleset, start.setup), values=False)
    if not sol.complete:
        raise ValueError(f"{ruleset} {players} players {deck}: count incomplete ({sol.stopped})")
    return [lv.table_states for lv in sol.levels]


# --------------------------------------------------------------------------- the state graph


@dataclass
class StateGraph:
    """Nodes ``(id, label, kind)`` with kind seat / chance / end, and edges ``(from, to, move)``."""

    title: str
    nodes: list[tuple[int, str, str]] = field(default_factory=list)
    edges: list[tuple[int, int, str]] = field(default_factory=list)

    def dot(self) -> str:
        """The graph in graphviz's DOT language (seats blue, chance grey, ends orange)."""
        style = {"seat": 'shape=circle, style=filled, fillcolor="#cfe0f7"',
                 "chance": 'shape=diamond, style=filled, fillcolor="#e6e6e6"',
                 "end": 'shape=box, style="rounded,filled", fillcolor="#f9d3a5"'}
        out = [f'digraph "{self.title}" {{',
               '  graph [rankdir=TB, nodesep=0.15, ranksep=0.35, fontname="DejaVu Sans", bgcolor="#fffdf8"];',
               '  node [fontname="DejaVu Sans", fontsize=9, width=0.3, height=0.3, margin=0.03];',
               '  edge [fontname="DejaVu Sans", fontsize=7, color="#777777", arrowsize=0.5];']
        for n, label, kind in self.nodes:
            out.append(f'  n{n} [label="{_dot_escape(label)}", {style.get(kind, "")}];')
        for a, b, move in self.edges:
            out.append(f'  n{a} -> n{b} [label="{_dot_escape(move)}"];')
        out.append("}")
        return "\n".join(out) + "\n"


def _dot_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def state_graph(ruleset: str = "dishes", players: int = 2, deck: str | None = "2x2", symmetry: str | None = "default",
                max_states: int = 400) -> StateGraph:
    """Every explorer node of a tiny configuration and every move between them.

    Seat nodes are labelled with the seat to move, chance nodes with ``?``, ends with the
    outcome.  Raises ValueError past ``max_states`` nodes (the picture would be unreadable).
    """
    rules, start = table(ruleset, players, deck)
    ex = explore(
        rules, [start], symmetry=_symmetry(rules, symmetry), budget=Budget(max_states=max_states + 1), keep_graph=True
    )
    if not ex.complete or ex.states > max_states:
        raise ValueError(f"{ruleset} {players} players {deck}: more than {max_states} states for a picture")
    index = {key: i for i, key in enumerate(ex.parents)}
    g = StateGraph(f"{rules.id}, {players} players, {deck or 'default components'}")
    for key, i in index.items():
        actor = rules.to_move(key)
        if actor is TERMINAL:
            out = rules.outcome(key)
            g.nodes.append((i, out.summary() if out else "end", "end"))
        elif actor is CHANCE:
            g.nodes.append((i, "?", "chance"))
        else:
            g.nodes.append((i, str(actor), "seat"))
    canon = ex.canon or (lambda s: s)
    for key in ex.parents:
        if rules.to_move(key) is TERMINAL:
            continue
        for move, _p, nxt in rules.successors(key):
            target = canon(nxt)
            if target in index:
                g.edges.append((index[key], index[target], str(move)))
    return g


# --------------------------------------------------------------------------- game lengths


def game_lengths(ruleset: str, players: int, deck: str | None = None, games: int = 300, seed: int = 1,
                 step_cap: int = 2_000, options: Any = None) -> tuple[Counter, int]:
    """(seat moves per finished game -> number of games, games not finished within ``step_cap``
    steps or stopped by a rule gap), over ``games`` seeded games of uniform random play."""
    rules, start = table(ruleset, players, deck, options)
    rng = random.Random(seed)
    lengths: Counter = Counter()
    unfinished = 0
    for _ in range(games):
        how, length, _out, _first = im.play_random(rules, start, rng, step_cap)
        if how == "end":
            lengths[length] += 1
        else:
            unfinished += 1
    return lengths, unfinished


# --------------------------------------------------------------------------- what an alternative changes


@dataclass
class Effect:
    """What one alternative does to a game under uniform random play (see the module docstring)."""

    alternative: str
    method: str
    lose: tuple[float, ...]
    """Per seat: the chance that seat loses (named a loser, alone or with others, or not named when
    others win)."""
    tie: float | None
    """The chance of a draw (the outcome names nobody); None where the figures on record cannot
    tell (the exact engine's per-seat values, for more than two players)."""
    # With the exact engine (rule sets with a compact kernel) ``length`` is expected actions
    # (forced passes are not actions) and ``method`` says so.
    gap: float
    never: float
    length: float
    """Expected seat moves per game (games that end; sampled: mean of the games that ended)."""
    length_low: float | None = None
    length_high: float | None = None

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__, lose=list(self.lose))


def alternative_effects(rules: RuleSet, ruling_id: str, players: int, components: Any = None, base: Any = None, *,
                        max_states: int = 4_000, games: int = 100, seed: int = 1, step_cap: int = 1_000,
                        exact: set[str] | None = None) -> list[Effect]:
    """Per alternative of ``ruling_id`` (the other options as in ``base``): an :class:`Effect`.

    Exact (Fractions shown as floats) through :func:`tablerules.proofs.discovery.impact.exact_values`
    when the game from the start has at most ``max_states`` states and no cycle; else
    ``games`` seeded games of at most ``step_cap`` steps.  ``exact`` (optional) names the
    alternatives worth an exact attempt; the others are sampled at once.
    """
    import dataclasses

    base = rules.Options() if base is None else base
    f = ruling_fields(rules.Options)[ruling_id]
    out = []
    for alt in f.metadata["alternatives"]:
        options = dataclasses.replace(base, **{f.name: alt})
        try:
            start = rules.new_game(rules.setup(players, options, components))
        except RuleGap:
            out.append(Effect(alt, "exact (raises at the start)", (0.0,) * players, 0.0, 1.0, 0.0, 0.0))
            continue
        solved = _solved(rules, start.setup) if exact is None or alt in exact else None
        if solved is not None:
            out.append(dataclasses.replace(solved, alternative=alt))
            continue
        try:
            if exact is not None and alt not in exact:
                raise im.TooLarge("not tried")
            v = im.exact_values(rules, start, max_states=max_states)
            out.append(Effect(alt, f"exact ({v.states:,} states)", tuple(float(x) for x in v.lose), float(v.tie[0]),
                              float(v.gap), float(v.never), float(v.length)))
        except (im.TooLarge, im.Cyclic):
            out.append(_sampled(rules, start, alt, players, games, seed, step_cap))
    return out


def _solved(rules: RuleSet, setup: Any, max_states: int = 200_000) -> Effect | None:
    """The exact engine's values where the rule set has one and the setup allows it (None if not)."""
    from tablerules.model import registry
    from tablerules.model.core import SetupError
    from tablerules.proofs.exact.run import solve

    try:
        kern = registry.kernel(rules.id, setup)
    except SetupError:
        return None
    sol = solve(kern, max_states=max_states)
    if not sol.complete or sol.random_play is None:
        return None
    r = sol.random_play
    # Dishes names losers only: with two seats, some seat loses unless nobody is named
    draw = float(1 - r.among_losers[1] - r.sole_loser[0]) if len(r.among_losers) == 2 else None
    return Effect("", f"exact engine ({sol.total('nodes'):,} engine states)", tuple(float(x) for x in r.among_losers),
                  draw, 0.0, 0.0, float(r.expected_actions))


def _sampled(rules: RuleSet, start: Any, alt: str, players: int, games: int, seed: int, step_cap: int) -> Effect:
    rng = random.Random(seed)
    lose = [0] * players
    tie = gap = never = 0
    lengths: list[int] = []
    for _ in range(games):
        how, length, out, _first = im.play_random(rules, start, rng, step_cap)
        if how == "gap":
            gap += 1
        elif how != "end":
            never += 1
        else:
            lengths.append(length)
            _won, lost, drawn = im.seat_results(out, players)
            lose = [a + b for a, b in zip(lose, lost)]
            tie += drawn[0]
    mean = sum(lengths) / len(lengths) if lengths else 0.0
    half = 0.0
    if len(lengths) > 1:
        var = sum((x - mean) ** 2 for x in lengths) / (len(lengths) - 1)
        half = 1.96 * (var / len(lengths)) ** 0.5
    return Effect(alt, f"sampled ({games} games)", tuple(x / games for x in lose), tie / games, gap / games,
                  never / games, mean, mean - half, mean + half)


def impact_rows(rules: RuleSet, ruling_id: str, players: int, components: Any = None, base: Any = None, *,
                deck: str | None = None, budget: im.ImpactBudget | None = None) -> list[list[str]]:
    """The impact table of :mod:`tablerules.proofs.discovery.impact` for one ruling on one configuration:
    one row per alternative, the columns of ``impact.HEADER``."""
    from tablerules.proofs.discovery.gaps import Config

    # Exact is decided by states alone; sampling plays a fixed number of games (a count, never a time).
    budget = budget or im.ImpactBudget(max_states=4_000, games=100)
    config = Config(players, components if components is not None else rules.default_components(), deck)
    rows = []
    exact_ok = True
    for alt in ruling_fields(rules.Options)[ruling_id].metadata["alternatives"]:
        row = im.measure(rules, ruling_id, alt, config, budget, base=base, exact_ok=exact_ok)
        # as impact.all_impacts does: where the default was too large for exact, so are the others
        exact_ok = exact_ok and not row.method.startswith("sampled")
        rows.append(row.row())
    return rows


def random_position(
    ruleset: str, players: int, deck: str | None = None, moves: int = 10, seed: int = 1
) -> tuple[RuleSet, Any, int]:
    """(rule set, state, seat moves played): a seeded game of uniform random play stopped
    after ``moves`` seat moves (or at its end).  For example positions in the docs."""
    from tablerules.model.core import pick_by_probability

    rules, state = table(ruleset, players, deck)
    rng = random.Random(seed)
    played = 0
    while played < moves:
        actor = rules.to_move(state)
        if actor is TERMINAL:
            break
        if actor is CHANCE:
            move = pick_by_probability(rules.chance_outcomes(state), rng.random())
        else:
            legal = rules.legal_moves(state)
            move = legal[rng.randrange(len(legal))]
            played += 1
        state = rules.apply(state, move)
    return rules, state, played
