"""One lockstep run: the configurations of a rule set walked beside its reading, then every
group of differences tried under every ruling's alternatives.

:func:`plan` lists the configurations (:data:`EVERY_STATE` for each rule set's small setups, and
seeded random games on a deck the caller gives, normally the retail one); :func:`run` walks them
and explains the groups.  The budgets (:class:`Budget`) count states, games and moves.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable

from tablerules import console
from tablerules.model.core import RuleSet, Setup, parse_options

from .groups import Groups, explain
from .readings import Reading, deck_file, load_engine_class, reading_module
from .walk import Config, Walked, every_state, random_games

VARIANT_SETS = {
    "just-desserts": ((), ("poaching",), ("buffet",), ("surprise-parties",),
                      ("poaching", "buffet", "surprise-parties")),
    "just-desserts-2.3": ((),),
    "dishes": ((),),
}
"""The optional rules walked: none, each alone, all together."""

EVERY_STATE = {
    "just-desserts": ((2, "jd-one-suit"), (2, "jd-rivals"), (3, "jd-crowd"), (2, "jd-two-suits")),
    "just-desserts-2.3": ((2, "v23-tiny"), (2, "v23-crowd")),
    "dishes": ((2, "2x4"), (2, "3x4"), (3, "2x4"), (3, "3x4"), (4, "2x4")),
}
"""(players, teaching deck or tile set) walked state by state, under every set of optional rules."""

RANDOM_TEACHING = {
    "just-desserts": (),
    "just-desserts-2.3": ((3, "v23-tips"),),
    "dishes": ((2, "box"), (3, "box"), (4, "box")),
}
"""(players, teaching deck) played as random games: three 2.3 hands take 15 of v23-tips' 25 desserts, so a
breadth-first walk would spend any budget on the deal; the whole box of Dishes tiles (24) is too many
positions to walk, and it is the game as sold, so it stands where the Just Desserts retail deck does."""

USES_RETAIL_DECK = ("just-desserts", "just-desserts-2.3")
"""The rule sets whose random games are also played on the retail card list (the deck the caller gives)."""

QUICK_EVERY_STATE = {
    "just-desserts": ((2, "jd-rivals"),),
    "just-desserts-2.3": ((2, "v23-tiny"),),
    "dishes": ((2, "2x4"),),
}


@dataclass(frozen=True)
class Budget:
    max_states: int = 50_000
    """States of one configuration's every-state walk (distinct model states)."""
    games: int = 20
    """Random games per player count and set of optional rules."""
    max_moves: int = 3_000
    """Moves of one random game (seat moves and chance outcomes)."""
    seed: int = 1


QUICK = Budget(max_states=3_000, games=2, max_moves=1_000)


def plan(rules: RuleSet, quick: bool, random_deck: str | None, players: tuple[int, ...] = ()) -> list[Config]:
    """The configurations of a run, every-state ones first."""
    small = (QUICK_EVERY_STATE if quick else EVERY_STATE)[rules.id]
    variant_sets = VARIANT_SETS[rules.id]
    if quick:
        variant_sets = variant_sets[-1:]
    out = [Config(n, deck, vs) for n, deck in small for vs in variant_sets if not players or n in players]
    if not quick:
        out += [Config(n, deck, vs, "random games") for n, deck in RANDOM_TEACHING[rules.id] for vs in variant_sets
                if not players or n in players]
    if random_deck and rules.id in USES_RETAIL_DECK:
        counts = [n for n in rules.player_counts if not players or n in players]
        out += [Config(n, random_deck, vs, "random games") for n in counts for vs in variant_sets]
    return out


ROUNDS = 3
"""Rounds of a run at most: the first with the model at its defaults, each next aligned with what the rounds
before it explained (a run stops early when a round explains nothing new)."""


@dataclass
class Round:
    """One pass over the configurations: what was walked and the groups it found."""

    number: int
    aligned: tuple[tuple[str, str], ...] = ()
    walked: list[Walked] = field(default_factory=list)
    groups: Groups = field(default_factory=Groups)


@dataclass
class Result:
    ruleset: str
    reading: str
    rounds: list[Round] = field(default_factory=list)

    @property
    def walked(self) -> list[Walked]:
        return [w for r in self.rounds for w in r.walked]

    def all_groups(self) -> list[tuple[int, Any]]:
        """(round number, group) for every group of every round, each round's in report order."""
        return [(r.number, g) for r in self.rounds for g in r.groups.ordered()]


def alignment(groups: Groups) -> tuple[tuple[str, str], ...]:
    """The alternatives a next round's model plays: for each explained group, its first explanation (groups with
    a single explanation first), never two alternatives of one ruling.  With them the model follows the reading
    past the differences already explained, so the next round sees what those differences hid."""
    chosen: dict[str, str] = {}
    for g in sorted((g for g in groups.by_key.values() if g.explained_by), key=lambda g: len(g.explained_by)):
        rids, alts = g.explained_by[0]
        pairs = list(zip(rids.split(" + "), alts.split(" + ")))
        if any(r in chosen and chosen[r] != a for r, a in pairs):
            continue
        chosen.update(pairs)
    return tuple(sorted(chosen.items()))


def run(rules: RuleSet, configs: list[Config], budget: Budget, module: str | None = None,
        on_config: Callable[[Walked], None] = lambda w: None, rounds: int = ROUNDS) -> Result:
    """Walk every configuration beside the reading and explain every group; then again, up to ``rounds`` times,
    with the model aligned to the alternatives that explained the groups so far."""
    name = reading_module(rules.id, module)
    engine_cls = load_engine_class(name)
    result = Result(rules.id, name)
    components: dict[str, Any] = {}

    def setup_of(config: Config, options: Any) -> Setup:
        if config.deck not in components:
            components[config.deck] = rules.load_components(config.deck)
        if options is None:
            options = parse_options(rules.Options, config.rulings(), variants=config.variants)
        return rules.setup(config.players, options, components[config.deck])

    def file_of(config: Config) -> str | None:
        setup = setup_of(config, None)
        return deck_file(setup.components, config.deck)

    def new_reading() -> Reading:
        return Reading(engine_cls, name)

    aligned: tuple[tuple[str, str], ...] = ()
    for number in range(1, rounds + 1):
        this = Round(number, aligned)
        result.rounds.append(this)
        for config in configs:
            config = dataclasses.replace(config, aligned=aligned)
            setup = setup_of(config, None)
            if config.kind == "every state":
                walked = every_state(rules, setup, config, new_reading, file_of(config), this.groups.record,
                                     budget.max_states)
            else:
                walked = random_games(rules, setup, config, new_reading, file_of(config), this.groups.record,
                                      budget.games, budget.seed, budget.max_moves)
            this.walked.append(walked)
            on_config(walked)
        groups = this.groups.ordered()
        console.activity(f"lockstep {rules.id} round {number}: trying every ruling's alternatives on each group",
                         len(groups), "groups")
        explain(rules, this.groups, setup_of, new_reading, file_of, console.advance)
        more = tuple(sorted((dict(aligned) | dict(alignment(this.groups))).items())) if groups else aligned
        if more == aligned:
            break  # nothing new to align with: another round would walk the same states
        aligned = more
    return result


def with_seed(budget: Budget, seed: int) -> Budget:
    return dataclasses.replace(budget, seed=seed)
